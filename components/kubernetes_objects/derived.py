"""One environment's spec with everything that follows from it, each computed once, when first asked for: the
capacity model (`model.derive`), its Kubernetes objects (`build.kueue_objects`), the Kueue install's arguments
(`kueue_chart.install_args`) and, with MultiKueue workers, each worker's own.

One `gkecap plan` validates the environment file once and hands a `DerivedEnvironment` to everything after it: the
program's `Environment` component (through `offered`, below: the program reads its config as any Pulumi program
does), the report, the manifests and the starters. None of them loads or derives the environment again (issue 28).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from functools import cached_property
from typing import Any

from gkecap.components.kubernetes_objects.build import kueue_objects
from gkecap.components.kubernetes_objects.kueue_chart import install_args
from gkecap.components.model import CapacityModel, derive
from gkecap.components.spec import EnvironmentSpec
from gkecap.components.spec.workers import worker_environments


class DerivedEnvironment:
    """`spec` (from `spec.load_environment`) and what follows from it, each on first use. `model`: one derived
    already (it is then not derived again)."""

    def __init__(self, spec: EnvironmentSpec, model: CapacityModel | None = None) -> None:
        self.spec = spec
        if model is not None:
            self.__dict__["model"] = model

    @cached_property
    def model(self) -> CapacityModel:
        return derive(self.spec)

    @cached_property
    def objects(self) -> list[dict]:
        """Every generated Kubernetes object in apply order (the manager's, with workers); raises InvalidInput on
        anything Kueue would reject (not cached then: asked again, it raises again)."""
        return kueue_objects(self.model)

    @cached_property
    def install(self) -> dict | None:
        """The Kueue install's arguments, None when the environment does not install Kueue."""
        return install_args(self.model) if self.model.kueue.install else None

    @cached_property
    def workers(self) -> dict[str, DerivedEnvironment]:
        """Each MultiKueue worker's own single-cluster environment, by worker name, in `workers` order."""
        return {w.name: DerivedEnvironment(env) for w, env in zip(self.spec.workers, worker_environments(self.spec))}


# What `offered` blocks hand out: (the raw environment data, its project, the derived environment), innermost last.
_offers: list[tuple[Any, str | None, DerivedEnvironment]] = []
_lock = threading.Lock()


@contextlib.contextmanager
def offered(derived: DerivedEnvironment, data: Any = None, project: str | None = None) -> Iterator[None]:
    """While the block runs, `taken` answers `derived` for its spec, and for `data` (the raw `gkecap:environment`
    it was loaded from) with `project`: an Environment component built in the block takes it instead of loading
    and deriving the same environment again."""
    entry = (data, project, derived)
    with _lock:
        _offers.append(entry)
    try:
        yield
    finally:
        with _lock:
            _offers.remove(entry)


def taken(environment: Any, project: str | None) -> DerivedEnvironment | None:
    """The offered DerivedEnvironment of `environment` (a spec offered, or raw data equal to the data offered, for
    the same project), None where none was offered: the caller loads and derives as usual."""
    with _lock:
        offers = list(reversed(_offers))
    for data, offered_project, derived in offers:
        if environment is derived.spec:
            return derived
        if data is not None and project == offered_project and not isinstance(environment, EnvironmentSpec) and environment == data:
            return derived
    return None
