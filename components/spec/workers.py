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
from gkecap.components.kueue_api.integrations import configured_frameworks, multikueue_dispatched
from gkecap.components.kueue_api.multikueue import MAX_CLUSTERS, MULTIKUEUE_TAS_SINCE
from gkecap.components.kueue_api.releases import parse_kueue_release
from gkecap.components.spec.checks.environment import TAS_PATH, tas_refusals, tas_unused_message
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
    """The single-cluster environment of `workers[index]` (raw file data, as `load_environment` takes it). The
    worker's own `kueue` keys (`WorkerKueueSpec`) replace the environment's; `multiKueue` is the manager's."""
    worker = data["workers"][index]
    out = {key: value for key, value in data.items() if key not in _MANAGER_ONLY + _WORKER_KEYS}
    for key in _WORKER_KEYS:
        if isinstance(worker, Mapping) and key in worker:
            out[key] = worker[key]
    shared, own = data.get("kueue", {}), worker.get("kueue") if isinstance(worker, Mapping) else None
    if isinstance(shared, Mapping) and isinstance(own, Mapping):
        out["kueue"] = {key: value for key, value in {**shared, **own}.items() if key != "multiKueue"}
    pools = _pool_names(worker)
    for key in ("teams", "cohorts"):
        if key in data:
            out[key] = _only_pools(data[key], pools)
    return out


def manager_data(data: Mapping[str, Any]) -> dict[str, Any]:
    """The manager's own settings as a single-cluster file without pools or teams (its cluster and Kueue rules)."""
    return {key: value for key, value in data.items() if key not in ("workers", "teams", "cohorts")}


def _worker_path(index: int, worker: Any) -> Callable[[Issue], Issue]:
    """A worker's issue at its place in the file: its own keys under `workers[i].`, shared keys as they are (a
    `kueue` key the worker sets is its own)."""
    own_kueue = worker.get("kueue") if isinstance(worker, Mapping) else None
    own_kueue = own_kueue if isinstance(own_kueue, Mapping) else {}

    def place(issue: Issue) -> Issue:
        head, _, rest = issue.path.partition(".")
        head = head.split("[", 1)[0]
        if head in _WORKER_KEYS or (head == "kueue" and rest.split(".", 1)[0].split("[", 1)[0] in own_kueue):
            return issue.under(f"workers[{index}]")
        return issue
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
    specs: list[EnvironmentSpec | None] = []
    tas_unused: dict[int, str] = {}  # worker index -> why none of its pools can be topology-aware
    for index in range(len(workers)):
        sub = worker_data(data, index)
        datas.append(sub)
        specs.append(_parse(sub))
        sub_errors, sub_warnings = check(specs[-1], sub, now)
        place = _worker_path(index, workers[index])
        for issue in sub_errors:
            refusals = tas_refusals(issue.message) if issue.path == TAS_PATH else None
            if refusals is not None:  # judged over every worker's pools together, below
                tas_unused[index] = refusals
            else:
                errors.append(place(issue))
        warnings += [place(i) for i in sub_warnings]
    if tas_unused and len(tas_unused) == len(workers):
        errors.append(Issue(TAS_PATH, tas_unused_message(list(tas_unused.values()))))
    manager = _parse(manager_data(data))
    if manager is not None:
        tas_workers = [i for i, spec in enumerate(specs) if spec is not None and spec.node_pools
                       and spec.kueue.topology_aware_scheduling and i not in tas_unused]
        errors += _multikueue_issues(manager, specs, workers, tas_workers)
    return errors, warnings, datas


def _multikueue_issues(manager: EnvironmentSpec, specs: list[EnvironmentSpec | None], workers: list[Any],
                       tas_workers: list[int]) -> list[Issue]:
    """What MultiKueue cannot run across the clusters: a worker without an integration the manager dispatches, a
    Kueue older than MultiKueue's floor for topology-aware scheduling."""
    errors: list[Issue] = []
    dispatched = multikueue_dispatched(manager.kueue.version, manager.kueue.frameworks)
    for index, (spec, worker) in enumerate(zip(specs, workers)):
        own = worker.get("kueue") if isinstance(worker, Mapping) else None
        own = own if isinstance(own, Mapping) else {}
        if spec is None:
            continue
        runs = set(configured_frameworks(spec.kueue.version, spec.kueue.frameworks))
        missing = [f for f in dispatched if f not in runs]
        if missing:
            where = "frameworks" if "frameworks" in own else "version" if "version" in own else None
            errors.append(Issue(f"workers[{index}].kueue" + (f".{where}" if where else ""), (
                f"the worker's Kueue ({spec.kueue.version}) lacks the integrations {', '.join(missing)} that the "
                "manager dispatches: MultiKueue creates the job on the worker with a prebuilt Workload, which only "
                "the worker's integration of that kind admits and starts (pkg/controller/jobs/job/"
                "job_multikueue_adapter.go SyncJob, v0.19.2); add them to the worker's kueue.frameworks")))
    clusters = [("kueue.version", manager.kueue.version)] if tas_workers else []
    clusters += [(f"workers[{i}].kueue.version" if "version" in (workers[i].get("kueue") or {}) else "kueue.version",
                  specs[i].kueue.version) for i in tas_workers]  # type: ignore[union-attr]
    for path, version in clusters:
        release = parse_kueue_release(version)
        if release is not None and release < MULTIKUEUE_TAS_SINCE:
            errors.append(Issue(path, (
                f"Kueue {version} cannot run topology-aware scheduling with MultiKueue (the manager's ClusterQueues "
                "carry the TAS flavors of the workers' pools and the MultiKueue check, and Kueue before v0.15.0 "
                "keeps such a queue inactive: clusterqueue.go at v0.14.0); use v0.15.0 or later, or remove "
                "kueue.topologyAwareScheduling")))
    return errors


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
