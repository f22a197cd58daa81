"""VertexTrainingQuota: the preemptible Vertex AI training quota that FLEX_START training profiles need, as code.

A Vertex AI training job with `scheduling.strategy: FLEX_START` consumes the *preemptible* training quota of its
GPU, which must be raised before the first job (FACTS F [S26]; quota ids [S35]). This component asks for it with
one Cloud Quotas `QuotaPreference` per region and GPU (pulumi-gcp `cloudquota.SQuotaPreference`), sized
replicas x GPUs x concurrent jobs over the profiles that use it. Its inputs, as the engine and the policy pack
see them, and its outputs carry each profile's CustomJob request body, so the pack checks the profiles as well
as the preferences.

No ``from __future__ import annotations`` here: Pulumi's component analyzer reads the annotations.
"""

from typing import Any, NotRequired, Optional, TypedDict

import pulumi
import pulumi_gcp as gcp
from pydantic import ValidationError

from gkecap.components._support import argument_issues, known, raise_invalid
from gkecap.components.catalog.vertex import VERTEX_SERVICE
from gkecap.components.issues import Issue, format_path
from gkecap.components.model.vertex import VertexProfilePlan, VertexQuotaPlan, vertex_profiles, vertex_quotas
from gkecap.components.spec.checks.vertex import vertex_issues
from gkecap.components.spec.vertex import VertexSpec

TYPE_TOKEN = "gkecap:index:VertexTrainingQuota"


class VertexTrainingQuotaArgs(TypedDict):
    """Arguments of VertexTrainingQuota."""

    vertex: dict[str, Any]
    """The profiles, as the environment file's `vertex` section (camelCase keys): `region` and `profiles`."""
    region: str
    """Region of profiles when `vertex` names none."""
    project: NotRequired[str]
    """Google Cloud project of the quota (default: the gcp:project config)."""


class VertexTrainingQuota(pulumi.ComponentResource):
    """The preemptible Vertex AI training quota FLEX_START profiles need: one Cloud Quotas preference per region
    and GPU."""

    quotas: pulumi.Output[list[dict[str, Any]]]
    """Per region and GPU: quota id, metric, GPUs asked for, the profiles that need them."""
    region: pulumi.Output[str]
    """Region of the profiles' training jobs."""

    def __init__(self, name: str, args: VertexTrainingQuotaArgs, opts: Optional[pulumi.ResourceOptions] = None):
        args, key_issues = argument_issues(args, VertexTrainingQuotaArgs)  # type: ignore[assignment]
        if key_issues:
            raise_invalid(f"VertexTrainingQuota {name!r}", key_issues)
        spec = _vertex_spec(args.get("vertex"))
        region = (spec.region or args.get("region")) if spec is not None else None
        issues = vertex_issues(spec, teams=None) if spec is not None else []
        if not region:
            issues.append(Issue("region", "give the region of the training jobs (vertex.region or region)"))
        if issues or not region:
            raise_invalid(f"VertexTrainingQuota {name!r}", issues)
        profiles = vertex_profiles(spec, region)
        quotas = vertex_quotas(profiles)
        props = {"region": region, "profiles": [profile_props(p) for p in profiles]}
        super().__init__(TYPE_TOKEN, name, props, opts)
        project = args.get("project") or gcp.config.project
        contact = spec.contact_email if spec is not None else None
        self.preferences = [
            gcp.cloudquota.SQuotaPreference(
                f"{name}-{quota.region}-{quota.accelerator_type.lower().replace('_', '-')}",
                parent=f"projects/{project}" if project else None,
                name=preference_id(quota),
                service=VERTEX_SERVICE,
                quota_id=quota.quota_id,
                dimensions={"region": quota.region},
                quota_config={"preferred_value": str(quota.gpus)},
                contact_email=contact,
                justification=f"Vertex AI FLEX_START training profiles {', '.join(quota.profiles)} (gke-capacity)",
                opts=pulumi.ResourceOptions(parent=self),
            )
            for quota in quotas
        ]
        self.quotas = known([quota_props(q) for q in quotas])
        self.region = known(region)
        # The policy pack sees a component's outputs in AnalyzeStack (and its inputs per resource): both carry
        # the profiles' request bodies. Not a typed output of the package: a CustomJob body is Vertex's schema.
        self.register_outputs({"quotas": self.quotas, "region": self.region, "profiles": known(props["profiles"])})


def profile_props(profile: VertexProfilePlan) -> dict[str, Any]:
    """What the policy pack sees of a profile: its name, team, GPUs it holds and its request body."""
    return {"name": profile.name, "team": profile.team, "quotaGpus": profile.quota_gpus,
            "requestBody": profile.request_body()}


def quota_props(quota: VertexQuotaPlan) -> dict[str, Any]:
    return {"region": quota.region, "acceleratorType": quota.accelerator_type, "quotaId": quota.quota_id,
            "metric": quota.metric, "gpus": quota.gpus, "profiles": list(quota.profiles)}


def preference_id(quota: VertexQuotaPlan) -> str:
    """A stable quota preference id per region and GPU, so a change updates the one preference."""
    return f"gkecap-{quota.accelerator_type.lower().replace('_', '-')}-{quota.region}"


def _vertex_spec(value: Any) -> Optional[VertexSpec]:
    if value is None or isinstance(value, VertexSpec):
        return value
    try:
        return VertexSpec.model_validate(value)
    except ValidationError as err:
        raise_invalid("VertexTrainingQuota", [
            Issue(format_path(("vertex", *e["loc"])), e["msg"].removeprefix("Value error, ")) for e in err.errors()
        ])
