"""The environments: one program for every `stacks/Pulumi.<env>.yaml`.

    pulumi up --stack dev          # with the Pulumi CLI and a state backend
    gkecap plan --stack dev        # offline: validate, evaluate on mocks, run the policy pack, report

Everything lives in the environment file (`gkecap:environment`, with `gcp:project`); this program only
builds the `Environment` component from it and exports what other stacks consume (the cluster, the
node pools behind each flavor, the team queues). A bad environment file stops here with every problem
listed (pulumi.InputPropertiesError, one YAML path per issue) before any resource is registered.
"""

import pulumi

from gkecap.components import Environment

environment = pulumi.Config("gkecap").require_object("environment")
project = pulumi.Config("gcp").get("project")

env = Environment(
    pulumi.get_stack(),
    {"environment": environment, **({"project": project} if project else {})},
)

pulumi.export("cluster", {"name": env.cluster_name, "location": env.cluster_location})
pulumi.export("nodeServiceAccount", env.node_service_account)
pulumi.export("pools", env.pools)
pulumi.export("queues", env.queues)
pulumi.export("flavors", env.flavors)
