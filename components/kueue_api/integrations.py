"""Kueue's job integrations per release: which `integrations.frameworks` a release's manager accepts, which its
Helm chart enables, and the rules a chosen list must follow. Pure; catalog as data.

A manager started with a framework its release does not register fails its configuration check
(pkg/config/validation.go `validateIntegrations`: `field.NotSupported` for a name `jobframework.GetIntegration`
does not know, `field.Duplicate` for one listed twice), so the list is per release, never one list for all.

Sources (kubernetes-sigs/kueue, every patch tag v0.14.0 .. v0.19.2 read; the sets do not change within a minor):
* known: the `FrameworkName = "..."` constants that `pkg/controller/jobs/*/*.go` pass to
  `jobframework.RegisterIntegration`;
* chart default: `managerConfig.controllerManagerConfigYaml` `integrations.frameworks` in `charts/kueue/values.yaml`
  (the uncommented entries);
* dependencies: v0.14 `pkg/controller/jobs/{deployment,statefulset,leaderworkerset}/*_controller.go`
  `DependencyList: []string{"pod"}` (checked by `integrationManager.checkEnabledListDependencies` at start);
  from v0.15 the same integrations declare `ImplicitlyEnabledFrameworkNames: []string{"pod"}` instead.
"""

from __future__ import annotations

from gkecap.components.issues import Issue
from gkecap.components.kueue_api.releases import parse_kueue_release

# Registered at every supported minor (v0.14 .. v0.19).
_REGISTERED_SINCE_V0_14 = (
    "batch/job", "deployment", "jobset.x-k8s.io/jobset", "kubeflow.org/jaxjob", "kubeflow.org/mpijob",
    "kubeflow.org/paddlejob", "kubeflow.org/pytorchjob", "kubeflow.org/tfjob", "kubeflow.org/xgboostjob",
    "leaderworkerset.x-k8s.io/leaderworkerset", "pod", "ray.io/raycluster", "ray.io/rayjob", "statefulset",
    "trainer.kubeflow.org/trainjob", "workload.codeflare.dev/appwrapper",
)
# Added in v0.17.0 (pkg/controller/jobs/rayservice, pkg/controller/jobs/sparkapplication).
_REGISTERED_SINCE_V0_17 = ("ray.io/rayservice", "sparkoperator.k8s.io/sparkapplication")

KNOWN_FRAMEWORKS: dict[tuple[int, int], frozenset[str]] = {
    (0, minor): frozenset(_REGISTERED_SINCE_V0_14 + (_REGISTERED_SINCE_V0_17 if minor >= 17 else ()))
    for minor in range(14, 20)
}

_KUBEFLOW_V1 = ("kubeflow.org/paddlejob", "kubeflow.org/pytorchjob", "kubeflow.org/tfjob", "kubeflow.org/xgboostjob",
                "kubeflow.org/jaxjob")
_SERVING = ("pod", "deployment", "statefulset", "leaderworkerset.x-k8s.io/leaderworkerset")
# charts/kueue/values.yaml at each minor, in the chart's order.
CHART_FRAMEWORKS: dict[tuple[int, int], tuple[str, ...]] = {
    # v0.14.0 .. v0.15.8: no pod/deployment/statefulset/LWS by default.
    (0, 14): ("batch/job", "kubeflow.org/mpijob", "ray.io/rayjob", "ray.io/raycluster", "jobset.x-k8s.io/jobset",
              "trainer.kubeflow.org/trainjob", *_KUBEFLOW_V1, "workload.codeflare.dev/appwrapper"),
    # v0.16.0 .. v0.16.9: adds pod, deployment, statefulset and LWS.
    (0, 16): ("batch/job", "kubeflow.org/mpijob", "ray.io/rayjob", "ray.io/raycluster", "jobset.x-k8s.io/jobset",
              "trainer.kubeflow.org/trainjob", *_KUBEFLOW_V1, "workload.codeflare.dev/appwrapper", *_SERVING),
    # v0.17.0 .. v0.18.6: adds ray.io/rayservice.
    (0, 17): ("batch/job", "kubeflow.org/mpijob", "ray.io/rayjob", "ray.io/rayservice", "ray.io/raycluster",
              "jobset.x-k8s.io/jobset", "trainer.kubeflow.org/trainjob", *_KUBEFLOW_V1,
              "workload.codeflare.dev/appwrapper", *_SERVING),
    # v0.19.0 .. v0.19.2: the kubeflow.org v1 training jobs are commented out (Kubeflow Trainer v2's TrainJob stays).
    (0, 19): ("batch/job", "kubeflow.org/mpijob", "ray.io/rayjob", "ray.io/rayservice", "ray.io/raycluster",
              "jobset.x-k8s.io/jobset", "workload.codeflare.dev/appwrapper", "trainer.kubeflow.org/trainjob",
              *_SERVING),
}
CHART_FRAMEWORKS[(0, 15)] = CHART_FRAMEWORKS[(0, 14)]
CHART_FRAMEWORKS[(0, 18)] = CHART_FRAMEWORKS[(0, 17)]

# Integrations that need `pod` listed beside them, and the last minor that requires it (v0.14; see above).
POD_DEPENDENTS = ("deployment", "statefulset", "leaderworkerset.x-k8s.io/leaderworkerset")
POD_LISTED_UNTIL = (0, 14)
SUPPORTED_MINORS = tuple(sorted(KNOWN_FRAMEWORKS))


def _minor(version: str) -> tuple[int, int] | None:
    """The catalog's minor for `version`: a release newer than the table has what the newest known one has."""
    release = parse_kueue_release(version)
    if release is None or (release[0], release[1]) < SUPPORTED_MINORS[0]:
        return None
    return min((release[0], release[1]), SUPPORTED_MINORS[-1])


def known_frameworks(version: str) -> frozenset[str]:
    """Frameworks Kueue `version` registers (empty for a release the project does not support)."""
    minor = _minor(version)
    return KNOWN_FRAMEWORKS[minor] if minor else frozenset()


def chart_frameworks(version: str) -> tuple[str, ...]:
    """Frameworks the Kueue chart of `version` enables by default, in its order."""
    minor = _minor(version)
    return CHART_FRAMEWORKS[minor] if minor else ()


def _first_release_with(framework: str) -> str | None:
    for minor in SUPPORTED_MINORS:
        if framework in KNOWN_FRAMEWORKS[minor]:
            return f"v{minor[0]}.{minor[1]}.0"
    return None


def framework_issues(path: str, version: str, frameworks: list[str] | tuple[str, ...]) -> list[Issue]:
    """What Kueue `version`'s manager would refuse in `frameworks` (unknown, duplicate, a missing dependency),
    each at `path[i]`, naming the release that adds a framework the chosen one lacks."""
    minor = _minor(version)
    if minor is None:
        return []  # the release itself is judged by `releases.release_issues`
    known = KNOWN_FRAMEWORKS[minor]
    issues: list[Issue] = []
    if not frameworks:
        issues.append(Issue(path, f"needs at least one framework; Kueue {version} knows: {', '.join(sorted(known))}"))
    seen: set[str] = set()
    for index, framework in enumerate(frameworks):
        where = f"{path}[{index}]"
        if framework in seen:
            issues.append(Issue(where, f"{framework!r} is listed twice"))
        seen.add(framework)
        if framework in known:
            continue
        since = _first_release_with(framework)
        if since is not None:
            issues.append(Issue(where, f"{framework!r} needs Kueue {since} or later (kueue.version is {version}); "
                                f"remove it or use a newer Kueue"))
        else:
            issues.append(Issue(where, f"{framework!r} is not a Kueue integration; Kueue {version} knows: "
                                f"{', '.join(sorted(known))}"))
    if minor <= POD_LISTED_UNTIL and "pod" not in seen:
        needing = [f for f in POD_DEPENDENTS if f in seen]
        if needing:
            issues.append(Issue(path, f"{', '.join(repr(f) for f in needing)} need 'pod' in the list with Kueue "
                                f"{version} (from v0.15 Kueue enables it implicitly); add 'pod'"))
    return issues


# Integrations MultiKueue dispatches: those whose `RegisterIntegration` options set `MultiKueueAdapter:`
# (pkg/controller/jobs/<kind>/<kind>_controller.go, read at v0.14.0, v0.14.8, v0.15.0, v0.15.8, v0.16.0, v0.16.9,
# v0.17.0, v0.18.0 and v0.19.2). Deployment, LeaderWorkerSet before v0.17 and StatefulSet before v0.16 have none.
_ADAPTERS_SINCE_V0_14 = (
    "batch/job", "jobset.x-k8s.io/jobset", "kubeflow.org/jaxjob", "kubeflow.org/mpijob", "kubeflow.org/paddlejob",
    "kubeflow.org/pytorchjob", "kubeflow.org/tfjob", "kubeflow.org/xgboostjob", "pod", "ray.io/raycluster",
    "ray.io/rayjob", "trainer.kubeflow.org/trainjob", "workload.codeflare.dev/appwrapper",
)
MULTIKUEUE_ADAPTERS: dict[tuple[int, int], frozenset[str]] = {
    (0, minor): frozenset(_ADAPTERS_SINCE_V0_14 + (("statefulset",) if minor >= 16 else ())
                          + (("leaderworkerset.x-k8s.io/leaderworkerset", "ray.io/rayservice") if minor >= 17 else ()))
    for minor in range(14, 20)
}


def configured_frameworks(version: str, frameworks: list[str] | tuple[str, ...] | None) -> tuple[str, ...]:
    """The integrations a Kueue manager runs: `frameworks` as given, else its chart's default for `version`, with
    `pod` when a pod-based integration enables it implicitly (from v0.15, see above)."""
    chosen = tuple(frameworks) if frameworks is not None else chart_frameworks(version)
    minor = _minor(version)
    if minor is not None and minor > POD_LISTED_UNTIL and "pod" not in chosen \
            and any(f in POD_DEPENDENTS for f in chosen):
        chosen += ("pod",)
    return chosen


def multikueue_dispatched(version: str, frameworks: list[str] | tuple[str, ...] | None) -> tuple[str, ...]:
    """The integrations of a MultiKueue manager (Kueue `version`, `frameworks` or the chart's) that it dispatches
    to workers: those with a MultiKueue adapter in its release, in the configured order."""
    minor = _minor(version)
    adapters = MULTIKUEUE_ADAPTERS[minor] if minor else frozenset()
    return tuple(f for f in configured_frameworks(version, frameworks) if f in adapters)
