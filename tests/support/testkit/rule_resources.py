"""Builders of raw resources as the policy engine sees them (camelCase inputs), for rule tests."""

from __future__ import annotations

from typing import Any

from gkecap.policies.resource_view import ResourceOptions, ResourceView

NODE_POOL = "gcp:container/nodePool:NodePool"
CLUSTER = "gcp:container/cluster:Cluster"
FUTURE_RESERVATION = "gcp:compute/futureReservation:FutureReservation"
RESERVATION = "gcp:compute/reservation:Reservation"
RESOURCE_POLICY = "gcp:compute/resourcePolicy:ResourcePolicy"


def node_pool(resource_name: str = "pool", /, *, protect: bool = False, **props: Any) -> ResourceView:
    props.setdefault("cluster", "ml")
    return ResourceView(NODE_POOL, resource_name, props=props, options=ResourceOptions(protect=protect))


def resource(type_: str, resource_name: str, /, *, protect: bool = False, **props: Any) -> ResourceView:
    return ResourceView(type_, resource_name, props=props, options=ResourceOptions(protect=protect))


def kueue(kind: str, name: str | None, spec: dict | None = None, *, version: str = "v1beta2",
          resource_name: str | None = None) -> ResourceView:
    props: dict[str, Any] = {"apiVersion": f"kueue.x-k8s.io/{version}", "kind": kind}
    if name is not None:
        props["metadata"] = {"name": name}
    if spec is not None:
        props["spec"] = spec
    return ResourceView(f"kubernetes:kueue.x-k8s.io/{version}:{kind}", resource_name or name or kind.lower(),
                        props=props)


def flex_tpu_pool(resource_name: str = "v6e-16", /, **overrides: Any) -> ResourceView:
    """A correct flex-start multi-host v6e 4x4 pool (4 VMs), as the GKE guide writes it."""
    props: dict[str, Any] = {
        "location": "us-east5",
        "nodeLocations": ["us-east5-a"],
        "initialNodeCount": 0,
        "autoscaling": {"totalMinNodeCount": 0, "totalMaxNodeCount": 4, "locationPolicy": "ANY"},
        "placementPolicy": {"type": "COMPACT", "tpuTopology": "4x4"},
        "management": {"autoRepair": False, "autoUpgrade": True},
        "nodeConfig": {
            "machineType": "ct6e-standard-4t",
            "flexStart": True,
            "maxRunDuration": "86400s",
            "reservationAffinity": {"consumeReservationType": "NO_RESERVATION"},
        },
    }
    props.update(overrides)
    return node_pool(resource_name, **props)


def queued_gpu_pool(resource_name: str = "h100-dws", /, **overrides: Any) -> ResourceView:
    """A correct queued-provisioning H100 pool (GKE provisioningrequest guide)."""
    props: dict[str, Any] = {
        "location": "us-east5",
        "nodeLocations": ["us-east5-a", "us-east5-b"],
        "initialNodeCount": 0,
        "autoscaling": {"totalMinNodeCount": 0, "totalMaxNodeCount": 4, "locationPolicy": "ANY"},
        "queuedProvisioning": {"enabled": True},
        "management": {"autoRepair": False},
        "nodeConfig": {
            "machineType": "a3-highgpu-8g",
            "flexStart": True,
            "guestAccelerators": [
                {"type": "nvidia-h100-80gb", "count": 8, "gpuDriverInstallationConfig": {"gpuDriverVersion": "LATEST"}}
            ],
            "reservationAffinity": {"consumeReservationType": "NO_RESERVATION"},
        },
    }
    props.update(overrides)
    return node_pool(resource_name, **props)


def on_demand_gpu_pool(resource_name: str = "l4", /, **overrides: Any) -> ResourceView:
    """A correct on-demand L4 pool with per-zone autoscaling in two zones."""
    props: dict[str, Any] = {
        "location": "us-east5",
        "nodeLocations": ["us-east5-a", "us-east5-b"],
        "autoscaling": {"minNodeCount": 0, "maxNodeCount": 3},
        "nodeConfig": {
            "machineType": "g2-standard-24",
            "guestAccelerators": [{"type": "nvidia-l4", "count": 2}],
        },
    }
    props.update(overrides)
    return node_pool(resource_name, **props)


def system_pool(resource_name: str = "system", /, **overrides: Any) -> ResourceView:
    props: dict[str, Any] = {"location": "us-east5", "nodeCount": 1, "nodeConfig": {"machineType": "e2-standard-4"}}
    props.update(overrides)
    return node_pool(resource_name, **props)


def with_config(view: ResourceView, **node_config: Any) -> ResourceView:
    """The pool with nodeConfig keys replaced (None removes a key)."""
    props = dict(view.props)
    config = dict(props.get("nodeConfig", {}))
    for key, value in node_config.items():
        if value is None:
            config.pop(key, None)
        else:
            config[key] = value
    props["nodeConfig"] = config
    return ResourceView(view.type, view.name, props=props, options=view.options)


def without(view: ResourceView, *keys: str) -> ResourceView:
    props = {k: v for k, v in view.props.items() if k not in keys}
    return ResourceView(view.type, view.name, props=props, options=view.options)
