"""A small environment and a plan of it (records and violations built directly: no engine, no pack process).

Shared by the report tests (imported by name: tests/ is not a package, so a name of its own avoids clashing
with other directories' conftest modules)."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from gkecap.components.spec import load_environment
from gkecap.plan import PlanResult
from gkecap.policy_pack.results import AnalyzerInfo, Diagnostic, PolicyInfo, PolicyResult
from gkecap.engine.resource_record import ResourceRecord, make_urn
from gkecap.engine.stack_config import StackConfig

NOW = datetime(2026, 11, 22, tzinfo=timezone.utc)

SMALL_ENVIRONMENT = {
    "region": "us-east5",
    "cluster": {"name": "ml-test"},
    "nodePools": [
        {"name": "h100-dws", "machineType": "a3-highgpu-8g", "capacity": "queued", "zones": ["us-east5-a"], "maxNodes": 2},
        {"name": "v6e-16", "machineType": "ct6e-standard-4t", "tpuTopology": "4x4", "capacity": "flex-start",
         "zones": ["us-east5-a"], "slices": 2},
        {"name": "h100-cal", "machineType": "a3-highgpu-8g", "capacity": "calendar", "reservation": "dec-run"},
    ],
    "reservations": [
        {"name": "dec-run", "machineType": "a3-highgpu-8g", "count": 2, "zone": "us-east5-a",
         "start": "2026-12-07T00:00:00Z", "days": 14},
    ],
    "cohorts": [{"name": "research"}],
    "teams": [
        {"name": "vision", "cohort": "research", "quota": {"h100-dws": 4, "v6e-16": 16}, "borrowingLimit": {"h100-dws": 8}},
        {"name": "speech", "cohort": "research", "quota": {"h100-dws": 2}},
        {"name": "recsys", "cohort": "research", "quota": {"h100-dws": 2}},
        {"name": "llm", "cohort": "research", "quota": {"h100-dws": 8, "v6e-16": 16, "h100-cal": 16},
         "lendingLimit": {"h100-dws": 4}},
    ],
}


def small_spec(**changes):
    return load_environment({**SMALL_ENVIRONMENT, **changes}, project="acme-ml-test", now=NOW)


def record(type_: str, name: str, parent: str | None = None, inputs: dict | None = None) -> ResourceRecord:
    urn = make_urn("test", "gke-capacity", parent or "", type_, name)
    return ResourceRecord(urn=urn, type=type_, name=name, custom=not type_.startswith("gkecap:"), parent=parent,
                          dependencies=(), property_dependencies={}, provider=None, id=None, options={},
                          inputs=inputs or {})


def plan_result(spec, violations: list[Diagnostic] = (), *, policies_run: bool = True) -> PlanResult:
    stack = record("pulumi:pulumi:Stack", "gke-capacity-test")
    env = record("gkecap:index:Environment", "test", stack.urn)
    pool = record("gcp:container/nodePool:NodePool", "h100-dws", env.urn, {"machineType": "a3-highgpu-8g"})
    info = AnalyzerInfo(
        name="gke-capacity", version="0.1.0", description="", supports_config=True,
        policies=(PolicyInfo("flex-start-settings", "DWS settings", "mandatory", "resource"),),
    )
    policies = PolicyResult(info=info, config={}, diagnostics=list(violations), analyzed=3, seconds=0.1) if policies_run else None
    return PlanResult(
        stack="test", project="gke-capacity", resources=[stack, env, pool], violations=list(violations),
        stack_config=StackConfig(path=Path("stacks/Pulumi.test.yaml")), spec=spec, policies=policies,
        source="stacks",
    )


def diagnostic(level: str, message: str, urn: str | None = None, policy: str = "flex-start-settings") -> Diagnostic:
    return Diagnostic(policy=policy, policy_pack="gke-capacity", policy_pack_version="0.1.0",
                      enforcement_level=level, urn=urn, message=message, description="")


POOL_URN = "urn:pulumi:test::gke-capacity::gkecap:index:Environment$gcp:container/nodePool:NodePool::h100-dws"
MANDATORY = diagnostic(
    "mandatory",
    "nodePool h100-dws (flex-start): management.autoRepair is true; a repair recreates a node that DWS capacity "
    "may not give back: set management {autoRepair: false}.",
    POOL_URN,
)
ADVISORY = diagnostic("advisory", "queued pool h100-dws has no ProvisioningRequest admission check in this stack",
                      None, policy="queued-provisioning-admission-check")
