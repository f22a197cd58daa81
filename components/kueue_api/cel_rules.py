"""The CRDs' x-kubernetes-validations (CEL) rules checkable at create, re-implemented on raw object dicts.

Defaults the API server applies before CEL runs are applied here too (preemption, flavorFungibility).
Transition rules (on oldSelf) are not checkable on a create: see rules.TRANSITION_RULES.
Each rule cites the CRD line in shared/kueue-crds (v1beta2 section) as KUEUE_VALIDATION.md lists them.
"""

from __future__ import annotations

from typing import Any, Callable

from gkecap.components.kueue_api.access import get_dict, get_list, get_str, has

Problem = tuple[str, str, str]  # (rule, path, message)

TAINT_EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")
TOLERATION_OPERATORS = ("Equal", "Exists")
HOSTNAME_LABEL = "kubernetes.io/hostname"


def _resource_group_sizes(spec: dict[str, Any]) -> list[Problem]:
    # R-CQ-20: CRD clusterqueues.yaml:1332-1334 (cohorts.yaml: same rule)
    problems = []
    for i, group in enumerate(get_list(spec, "resourceGroups")):
        covered = get_list(group, "coveredResources")
        for j, flavor in enumerate(get_list(group, "flavors")):
            resources = get_list(flavor, "resources")
            if isinstance(flavor, dict) and len(resources) != len(covered):
                problems.append(("R-CQ-20", f"spec.resourceGroups[{i}].flavors[{j}].resources",
                                 f"flavor {flavor.get('name')!r} lists {len(resources)} resources but coveredResources "
                                 f"has {len(covered)} ({', '.join(map(str, covered))}); flavors must have the same "
                                 f"number of resources as the coveredResources"))
    return problems


def cluster_queue(spec: dict[str, Any], version: str) -> list[Problem]:
    problems = _resource_group_sizes(spec)
    cohort_field = "cohortName" if version == "v1beta2" else "cohort"
    # R-CQ-7: CRD clusterqueues.yaml:1356-1358 (v1beta1 :522 uses `cohort`)
    if get_str(spec, cohort_field) is None:
        for i, group in enumerate(get_list(spec, "resourceGroups")):
            for j, flavor in enumerate(get_list(group, "flavors")):
                for k, quota in enumerate(get_list(flavor, "resources")):
                    if has(quota, "borrowingLimit"):
                        problems.append((
                            "R-CQ-7", f"spec.resourceGroups[{i}].flavors[{j}].resources[{k}].borrowingLimit",
                            f"borrowingLimit {quota['borrowingLimit']!r} must be nil when cohort is empty: set "
                            f"spec.{cohort_field} or remove the borrowingLimit"))
    # R-CQ-10: CRD :1183-1185, with the defaults reclaimWithinCohort=Never and borrowWithinCohort={policy: Never}
    preemption = get_dict(spec, "preemption") or {}
    reclaim = get_str(preemption, "reclaimWithinCohort", "Never")
    borrow = get_dict(preemption, "borrowWithinCohort") or {}
    policy = get_str(borrow, "policy", "Never")
    if reclaim == "Never" and policy != "Never":
        problems.append(("R-CQ-10", "spec.preemption",
                         f"reclaimWithinCohort is Never (the default) but borrowWithinCohort.policy is {policy!r}: "
                         f"set reclaimWithinCohort to LowerPriority or Any, or borrowWithinCohort.policy to Never"))
    # R-CQ-11: CRD :1050-1053, with the defaults whenCanBorrow=MayStopSearch, whenCanPreempt=TryNextFlavor
    fungibility = get_dict(spec, "flavorFungibility") or {}
    if has(fungibility, "preference"):
        borrow_mode = get_str(fungibility, "whenCanBorrow", "MayStopSearch")
        preempt_mode = get_str(fungibility, "whenCanPreempt", "TryNextFlavor")
        if borrow_mode != "TryNextFlavor" or preempt_mode != "TryNextFlavor":
            problems.append(("R-CQ-11", "spec.flavorFungibility.preference",
                             f"preference {fungibility['preference']!r} can only be set when both whenCanBorrow and "
                             f"whenCanPreempt are TryNextFlavor (they are {borrow_mode!r} and {preempt_mode!r})"))
    return problems


def cohort(spec: dict[str, Any], version: str) -> list[Problem]:
    return _resource_group_sizes(spec)


def resource_flavor(spec: dict[str, Any], version: str) -> list[Problem]:
    problems: list[Problem] = []
    # R-RF-4: CRD resourceflavors.yaml:365-366 (a missing nodeLabels is a CEL evaluation error: rejected too)
    if has(spec, "topologyName"):
        labels = spec.get("nodeLabels")
        if not isinstance(labels, dict) or len(labels) < 1:
            problems.append(("R-RF-4", "spec.nodeLabels", f"at least one nodeLabel is required when topologyName "
                             f"{spec['topologyName']!r} is set (the labels select the flavor's nodes)"))
    # R-RF-7: CRD :285-287
    for i, taint in enumerate(get_list(spec, "nodeTaints")):
        effect = taint.get("effect") if isinstance(taint, dict) else None
        if isinstance(effect, str) and effect not in TAINT_EFFECTS:
            problems.append(("R-RF-7", f"spec.nodeTaints[{i}].effect",
                             f"{effect!r} is not a supported taint effect; allowed: {', '.join(TAINT_EFFECTS)}"))
    # R-RF-8: CRD :339-352, the five toleration rules
    for i, toleration in enumerate(get_list(spec, "tolerations")):
        if not isinstance(toleration, dict):
            continue
        path = f"spec.tolerations[{i}]"
        operator = get_str(toleration, "operator")
        effect = get_str(toleration, "effect")
        if get_str(toleration, "key") is None and operator != "Exists":
            problems.append(("R-RF-8", f"{path}.operator", f"operator must be Exists when key is empty (which "
                             f"matches all keys and values), got {operator!r}"))
        if has(toleration, "tolerationSeconds") and effect != "NoExecute":
            problems.append(("R-RF-8", f"{path}.effect",
                             f"effect must be NoExecute when tolerationSeconds is set, got {effect!r}"))
        if operator is not None and operator not in TOLERATION_OPERATORS:
            problems.append(("R-RF-8", f"{path}.operator", f"{operator!r} is not a supported toleration operator; "
                             f"allowed: Equal (default), Exists"))
        if operator == "Exists" and get_str(toleration, "value") is not None:
            problems.append(("R-RF-8", f"{path}.value",
                             f"value {toleration['value']!r} must be empty when operator is Exists"))
        if effect is not None and effect not in TAINT_EFFECTS:
            problems.append(("R-RF-8", f"{path}.effect",
                             f"{effect!r} is not a supported taint effect; allowed: {', '.join(TAINT_EFFECTS)}"))
    return problems


def topology(spec: dict[str, Any], version: str) -> list[Problem]:
    problems: list[Problem] = []
    levels = get_list(spec, "levels")
    # R-TOPO-2: CRD topologies.yaml:140-142 (whole-entry equality)
    for i, first in _repeats(levels):
        problems.append(("R-TOPO-2", f"spec.levels[{i}]",
                         f"level {levels[i]!r} repeats level {first}; levels must be unique"))
    # R-TOPO-3: CRD :143-145
    labels = [level.get("nodeLabel") if isinstance(level, dict) else None for level in levels]
    if HOSTNAME_LABEL in labels and labels[-1] != HOSTNAME_LABEL:
        problems.append(("R-TOPO-3", f"spec.levels[{labels.index(HOSTNAME_LABEL)}].nodeLabel",
                         f"the {HOSTNAME_LABEL} label can only be used at the lowest (last) level of the topology"))
    return problems


def multikueue_cluster(spec: dict[str, Any], version: str) -> list[Problem]:
    # R-MKC-2: CRD multikueueclusters.yaml:238-241 (v1beta2 only; Go +kubebuilder:validation:ExactlyOneOf)
    source = get_dict(spec, "clusterSource")
    if version != "v1beta2" or source is None:
        return []
    chosen = [key for key in ("kubeConfig", "clusterProfileRef") if has(source, key)]
    if len(chosen) == 1:
        return []
    got = "both are set" if chosen else "neither is set"
    return [("R-MKC-2", "spec.clusterSource", f"exactly one of kubeConfig and clusterProfileRef must be set; {got}")]


def multikueue_config(spec: dict[str, Any], version: str) -> list[Problem]:
    # R-MKCFG-2: CRD multikueueconfigs.yaml:96-99 (v1beta2; v1beta1 makes clusters a set, a schema check)
    if version != "v1beta2":
        return []
    clusters = get_list(spec, "clusters")
    return [("R-MKCFG-2", f"spec.clusters[{i}]", f"cluster {clusters[i]!r} repeats entry {first}; the "
             f"clusters must be unique") for i, first in _repeats(clusters)]


def _repeats(items: list[Any]) -> list[tuple[int, int]]:
    """(index, index of its first occurrence) of each entry equal to an earlier one: where the CRDs' uniqueness rule
    (`size(self.filter(i, size(self.filter(j, j == i)) > 1)) == 0`, "must be unique") fails."""
    return [(i, items.index(item)) for i, item in enumerate(items) if item in items[:i]]


CEL_CHECKS: dict[str, Callable[[dict[str, Any], str], list[Problem]]] = {
    "ClusterQueue": cluster_queue,
    "Cohort": cohort,
    "ResourceFlavor": resource_flavor,
    "Topology": topology,
    "MultiKueueCluster": multikueue_cluster,
    "MultiKueueConfig": multikueue_config,
}
