"""Environments used by the spec and model tests (plain dicts, as `gkecap:environment` holds them)."""

from __future__ import annotations

import copy
from datetime import datetime, timezone
from typing import Any

# Every test passes this as `now`, so calendar-window results never depend on the day the tests run.
NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)


def dev() -> dict[str, Any]:
    """Small: one flex-start GPU pool, one single-host TPU v6e flex pool, two teams."""
    return copy.deepcopy(
        {
            "region": "us-east5",
            "cluster": {"name": "ml-dev", "securityGroup": "gke-security-groups@acme.example"},
            "kueue": {"version": "v0.19.2", "fairSharing": True},
            "nodePools": [
                {
                    "name": "l4-flex",
                    "machineType": "g2-standard-24",
                    "capacity": "flex-start",
                    "maxNodes": 2,
                    "zones": ["us-east5-a"],
                    "maxRunDuration": 86400,
                },
                {
                    "name": "v6e-4",
                    "machineType": "ct6e-standard-4t",
                    "tpuTopology": "2x2",
                    "capacity": "flex-start",
                    "slices": 2,
                    "zones": ["us-east5-b"],
                },
            ],
            "teams": [
                {"name": "vision", "quota": {"l4-flex": 2, "v6e-4": 4}, "members": ["group:vision@acme.example"]},
                {"name": "nlp", "quota": {"l4-flex": 2, "v6e-4": 4}, "members": ["user:ana@acme.example"]},
            ],
        }
    )


def prod() -> dict[str, Any]:
    """Realistic: queued H100, multi-host v6e slices, a calendar A3 reservation and its pool, spot L4,
    four teams in a cohort with the 16-GPU 4/2/2/8 split, fair sharing, priority classes."""
    return copy.deepcopy(
        {
            "region": "us-east5",
            "nodeServiceAccount": "gke-nodes@acme-ml-prod.iam.gserviceaccount.com",
            "cluster": {
                "name": "ml-prod",
                "create": True,
                "releaseChannel": "REGULAR",
                "minMasterVersion": "1.34.1-gke.1000000",
            },
            "kueue": {"version": "v0.19.2", "apiVersion": "v1beta2", "fairSharing": True},
            "nodePools": [
                {
                    "name": "h100-dws",
                    "machineType": "a3-highgpu-8g",
                    "capacity": "queued",
                    "maxNodes": 2,
                    "zones": ["us-east5-a"],
                    "maxRunDuration": 604800,
                    "gpuDriverVersion": "LATEST",
                },
                {
                    "name": "v6e-16",
                    "machineType": "ct6e-standard-4t",
                    "tpuTopology": "4x4",
                    "capacity": "flex-start",
                    "slices": 2,
                    "zones": ["us-east5-b"],
                },
                {"name": "h100-dec", "machineType": "a3-highgpu-8g", "capacity": "calendar", "reservation": "dec-run"},
                {"name": "l4-spot", "machineType": "g2-standard-12", "capacity": "spot", "maxNodes": 8},
            ],
            "reservations": [
                {
                    "name": "dec-run",
                    "machineType": "a3-highgpu-8g",
                    "count": 8,
                    "zone": "us-east5-a",
                    "start": "2026-12-07T00:00:00Z",
                    "days": 14,
                },
            ],
            "cohorts": [{"name": "research"}],
            "teams": [
                {
                    "name": "team-a",
                    "cohort": "research",
                    "quota": {"h100-dws": 4, "h100-dec": 16, "l4-spot": 2},
                    "weight": 2,
                    "borrowingLimit": {"h100-dws": 12},
                    "lendingLimit": {"h100-dws": 4},
                },
                {"name": "team-b", "cohort": "research", "quota": {"h100-dws": 2, "v6e-16": 16, "l4-spot": 2}},
                {"name": "team-c", "cohort": "research", "quota": {"h100-dws": 2, "h100-dec": 16, "l4-spot": 2}},
                {
                    "name": "team-d",
                    "cohort": "research",
                    "quota": {"h100-dws": 8, "h100-dec": 32, "v6e-16": 16, "l4-spot": 2},
                    "namespaces": ["team-d", "team-d-serving"],
                },
            ],
            "priorityClasses": [
                {"name": "low", "value": 100},
                {"name": "high", "value": 1000, "description": "deadline work"},
            ],
        }
    )


def stack_file(environment: dict[str, Any], project: str = "acme-ml-prod") -> dict[str, Any]:
    """A whole Pulumi.<env>.yaml document around an environment."""
    return {"config": {"gcp:project": project, "gkecap:environment": environment}}


def as_doubles(value):
    """`value` with every whole number as a double, as TypeScript, Go, C#, Java and YAML send numbers."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return float(value)
    if isinstance(value, dict):
        return {key: as_doubles(item) for key, item in value.items()}
    if isinstance(value, list):
        return [as_doubles(item) for item in value]
    return value
