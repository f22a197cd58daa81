"""MultiKueue environments: `workers:` in the environment file (issue 24).

With workers, `cluster` is the MultiKueue manager: it keeps the teams' queues and quotas and dispatches each
admitted workload to a worker cluster (Kueue's MultiKueue, kueue.sigs.k8s.io/docs/concepts/multikueue). Each
worker is, to itself, a single-cluster environment: its region, cluster, pools and reservations, with the file's
teams, cohorts, priority classes and Kueue settings. `worker_data` builds that environment from the file, so the
worker is checked by the same rules, and built into the same objects, as a single-cluster file with those pools;
team and cohort quotas keep only the worker's pools (a team without quota there still gets its queues: MultiKueue
needs the namespace and LocalQueue on every worker, setup_multikueue.md at v0.19.2).

Pure: no Pulumi.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Callable, Mapping

from gkecap.components.issues import Issue, key_path
from gkecap.components.kueue_api.multikueue import MAX_CLUSTERS
from gkecap.components.spec.models import EnvironmentSpec

# Keys a worker entry replaces in the single-cluster environment it stands for (the rest is shared).
_WORKER_KEYS = ("region", "cluster", "nodePools", "reservations")
_MANAGER_ONLY = ("workers", "vertex")  # Vertex AI quota is the project's, requested once (by the manager)
_QUOTA_KEYS = ("quota", "borrowingLimit", "lendingLimit")


def has_workers(data: Mapping[str, Any]) -> bool:
    workers = data.get("workers")
    return isinstance(workers, list) and len(workers) > 0


def _pool_names(worker: Any) -> set[str]:
    pools = worker.get("nodePools") if isinstance(worker, Mapping) else None
    return {p["name"] for p in pools or [] if isinstance(p, Mapping) and isinstance(p.get("name"), str)} \
        if isinstance(pools, list) else set()


def _only_pools(entries: Any, pools: set[str]) -> Any:
    """Teams or cohorts with their per-pool maps cut to `pools` (entries that do not parse are kept as they are)."""
    if not isinstance(entries, list):
        return entries
    out = []
    for entry in entries:
        if isinstance(entry, Mapping):
            entry = dict(entry)
            for key in _QUOTA_KEYS:
                if isinstance(entry.get(key), Mapping):
                    entry[key] = {pool: value for pool, value in entry[key].items() if pool in pools}
        out.append(entry)
    return out


def worker_data(data: Mapping[str, Any], index: int) -> dict[str, Any]:
    """The single-cluster environment of `workers[index]` (raw file data, as `load_environment` takes it)."""
    worker = data["workers"][index]
    out = {key: value for key, value in data.items() if key not in _MANAGER_ONLY + _WORKER_KEYS}
    for key in _WORKER_KEYS:
        if isinstance(worker, Mapping) and key in worker:
            out[key] = worker[key]
    pools = _pool_names(worker)
    for key in ("teams", "cohorts"):
        if key in data:
            out[key] = _only_pools(data[key], pools)
    return out


def manager_data(data: Mapping[str, Any]) -> dict[str, Any]:
    """The manager's own settings as a single-cluster file without pools or teams (its cluster and Kueue rules)."""
    return {key: value for key, value in data.items() if key not in ("workers", "teams", "cohorts")}


def _worker_path(index: int) -> Callable[[Issue], Issue]:
    """A worker's issue at its place in the file: its own keys under `workers[i].`, shared keys as they are."""
    def place(issue: Issue) -> Issue:
        head = issue.path.split(".", 1)[0].split("[", 1)[0]
        return issue.under(f"workers[{index}]") if head in _WORKER_KEYS else issue
    return place


def check_workers(
    spec: EnvironmentSpec | None, data: Mapping[str, Any], now: datetime,
    check: Callable[[EnvironmentSpec | None, Mapping[str, Any], datetime], tuple[list[Issue], list[Issue]]],
) -> tuple[list[Issue], list[Issue], list[dict[str, Any]]]:
    """(errors, warnings, each worker's data) of an environment with workers; `check` is the single-cluster
    rule set (`spec.checks.check_environment`), run for the manager and for every worker."""
    errors, warnings = _manager_issues(data)
    manager_errors, manager_warnings = check(_parse(manager_data(data)), manager_data(data), now)
    errors += manager_errors
    warnings += manager_warnings
    workers = data["workers"]
    datas = []
    for index in range(len(workers)):
        sub = worker_data(data, index)
        datas.append(sub)
        sub_errors, sub_warnings = check(_parse(sub), sub, now)
        place = _worker_path(index)
        errors += [place(i) for i in sub_errors]
        warnings += [place(i) for i in sub_warnings]
    return errors, warnings, datas


def _parse(data: Mapping[str, Any]) -> EnvironmentSpec | None:
    try:
        return EnvironmentSpec.model_validate(data)
    except ValueError:
        return None


def _manager_issues(data: Mapping[str, Any]) -> tuple[list[Issue], list[Issue]]:
    errors: list[Issue] = []
    workers = data["workers"]
    for key in ("nodePools", "reservations"):
        if data.get(key):
            errors.append(Issue(key, f"with workers, the manager cluster runs no accelerator capacity: move each "
                                f"entry to the {key} of the worker that holds it (workers[i].{key})"))
    if len(workers) > MAX_CLUSTERS:
        errors.append(Issue("workers", f"has {len(workers)} workers; a MultiKueueConfig lists at most "
                            f"{MAX_CLUSTERS} clusters (CRD multikueueconfigs.yaml, R-MKCFG-1)"))
    seen_names: dict[str, int] = {}
    seen_pools: dict[str, str] = {}
    seen_reservations: dict[str, str] = {}
    manager: Mapping[str, Any] = data["cluster"] if isinstance(data.get("cluster"), Mapping) else {}
    clusters = {(manager.get("name"), manager.get("location") or data.get("region")): "the manager"}
    for i, worker in enumerate(workers):
        if not isinstance(worker, Mapping):
            continue  # the shape check names it
        name = worker.get("name")
        if isinstance(name, str):
            if name in seen_names:
                errors.append(Issue(f"workers[{i}].name", f"{name!r} is also workers[{seen_names[name]}]; "
                                    f"worker names must be unique"))
            seen_names.setdefault(name, i)
        label = f"worker {name!r}" if isinstance(name, str) else f"workers[{i}]"
        cluster: Mapping[str, Any] = worker["cluster"] if isinstance(worker.get("cluster"), Mapping) else {}
        where = (cluster.get("name"), cluster.get("location") or worker.get("region"))
        if where[0] is not None and where in clusters:
            errors.append(Issue(f"workers[{i}].cluster.name", f"{where[0]!r} in {where[1]} is already "
                                f"{clusters[where]}; each worker is its own cluster"))
        clusters.setdefault(where, label)
        for kind, seen, field in (("pool", seen_pools, "nodePools"), ("reservation", seen_reservations,
                                                                      "reservations")):
            entries = worker.get(field)
            for j, entry in enumerate(entries if isinstance(entries, list) else []):
                entry_name = entry.get("name") if isinstance(entry, Mapping) else None
                if not isinstance(entry_name, str):
                    continue
                if entry_name in seen:
                    errors.append(Issue(f"workers[{i}].{field}[{j}].name", f"{entry_name!r} is also a {kind} of "
                                        f"{seen[entry_name]}; {kind} names are unique across workers (a team's "
                                        f"quota names the pool, and the pool is the Kueue flavor)"))
                seen.setdefault(entry_name, label)
    errors += _unknown_quota_pools(data, set(seen_pools))
    return errors, []


def _unknown_quota_pools(data: Mapping[str, Any], pools: set[str]) -> list[Issue]:
    """Quota maps name pools; with workers, a pool of any worker (the per-worker checks see only their own)."""
    errors = []
    known = ", ".join(sorted(pools)) or "none"
    for section in ("teams", "cohorts"):
        entries = data.get(section)
        for i, entry in enumerate(entries if isinstance(entries, list) else []):
            if not isinstance(entry, Mapping):
                continue
            for key in _QUOTA_KEYS:
                values = entry.get(key)
                for pool in values if isinstance(values, Mapping) else {}:
                    if pool not in pools:
                        errors.append(Issue(key_path(f"{section}[{i}].{key}", str(pool)),
                                            f"{pool!r} is not a pool of any worker; pools: {known}"))
    return errors


def worker_environments(spec: EnvironmentSpec) -> list[EnvironmentSpec]:
    """Each worker's single-cluster environment, in `workers` order (spec from `load_environment`)."""
    if spec.workers and len(spec._worker_data) != len(spec.workers):
        raise ValueError("an environment with workers must come from spec.load_environment")
    envs = []
    for data in spec._worker_data:
        env = EnvironmentSpec.model_validate(data)
        envs.append(env)
    return envs


def manager_view(spec: EnvironmentSpec) -> EnvironmentSpec:
    """The environment as the manager sees it: every worker's pools and reservations, with the teams' whole
    quotas (what its ClusterQueues and the report count). The spec itself when it has no workers."""
    if not spec.workers:
        return spec
    return spec.model_copy(update={
        "node_pools": [pool for worker in spec.workers for pool in worker.node_pools],
        "reservations": [res for worker in spec.workers for res in worker.reservations],
    })


def pool_workers(spec: EnvironmentSpec) -> dict[str, str]:
    """Pool name -> the worker that holds it ({} without workers)."""
    return {pool.name: worker.name for worker in spec.workers for pool in worker.node_pools}
