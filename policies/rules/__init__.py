"""Pure rule functions of the gke-capacity policy pack, one module per topic.

Each rule takes `ResourceView`s (gkecap.policies.resource_view) and the policy's config dict and returns
messages; `policies/registry.py` turns them into Pulumi policies with `gkecap.policies.adapter`. Nothing here
imports pulumi: facts come from `gkecap.components.catalog`, `gkecap.components.kueue_api` and
`gkecap.components.gke.calendar_window`, the same code the components derive their settings from.

Every rule reads raw resources of any stack (a hand-written `gcp.container.NodePool`, a Kueue object
written as a dict), not only the ones our components create, and stays silent about a value it cannot
know during preview (`UNKNOWN`).
"""
