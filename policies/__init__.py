"""The gke-capacity policy pack: pure rule functions (`policies.rules`), the adapter that turns them
into pulumi_policy policies (`policies.adapter`), and the registry the pack serves (`policies.registry`).

Importing this package imports nothing else, so rule tests stay free of pulumi_policy.
"""
