"""The gke-capacity policy pack: pure rule functions (`gkecap.policies.rules`), the adapter that turns them
into pulumi_policy policies (`gkecap.policies.adapter`), and the registry the pack serves (`gkecap.policies.registry`).

Importing this package imports nothing else, so rule tests stay free of pulumi_policy.
"""
