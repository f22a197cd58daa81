"""A job without kueue.x-k8s.io/queue-name (`queueLabel: false`) in `gkecap simulate`: with a default LocalQueue in
its team's namespace (Kueue's LocalQueueDefaulting) it is admitted through the team's ClusterQueue, inside the
team's quota; without one, the team's admission policy refuses it."""

from __future__ import annotations

import pytest
from testkit.spec_data import NOW, dev

from gkecap.components.kubernetes_objects.build import kueue_objects
from gkecap.components.model import derive
from gkecap.components.spec import load_environment
from gkecap.simulate import WorkloadsFileError, simulate_environment
from gkecap.simulate.environment import DEFAULT_LOCAL_QUEUE
from gkecap.simulate.workloads_file import WorkloadsFile

START = "2026-12-01T00:00:00Z"
# dev: vision's quota on l4-flex is 2 GPUs: two 1-GPU jobs fill it.
WORKLOADS = [
    {"name": "labelled", "team": "vision", "accelerators": 1, "pool": "l4-flex", "duration": "2h"},
    {"name": "unlabelled", "team": "vision", "accelerators": 1, "pool": "l4-flex", "duration": "2h",
     "queueLabel": False},
    {"name": "unlabelled-late", "team": "vision", "accelerators": 1, "pool": "l4-flex", "submit": "10m",
     "duration": "1h", "queueLabel": False},
]


def _run(with_default_queue: bool):
    environment = dev()
    # The environment emits a `default` LocalQueue per team namespace while Kueue manages unlabelled jobs there
    # (kueue.manageJobsWithoutQueueName, the default); without it there is none.
    environment["kueue"] = {**environment.get("kueue", {}), "manageJobsWithoutQueueName": with_default_queue}
    model = derive(load_environment(environment, now=NOW))
    objects = kueue_objects(model)
    assert any(o["kind"] == "LocalQueue" and o["metadata"]["name"] == DEFAULT_LOCAL_QUEUE
               and o["metadata"]["namespace"] == "vision" for o in objects) is with_default_queue
    document = WorkloadsFile.model_validate({"start": START, "workloads": WORKLOADS})
    return simulate_environment(model, objects, document)


def test_an_unlabelled_job_is_admitted_through_the_team_queue_within_its_quota():
    result = _run(with_default_queue=True)
    outcome = {w.name: w for w in result.workloads}
    assert outcome["unlabelled"].team == "vision" and outcome["unlabelled"].admitted == 0
    # The team's 2 GPUs are taken: the third job waits for one to finish instead of escaping the quota (and competes
    # again at Kueue's batched requeue, 1 s after that release: gkecap.simulate.timing).
    first_free = min(outcome["labelled"].finished, outcome["unlabelled"].finished)
    assert outcome["unlabelled-late"].admitted == first_free + 1 > outcome["unlabelled-late"].submitted
    assert max(reserved for _, reserved, _ in result.usage["vision"]["GPUs"]) <= 2


def test_without_a_default_queue_the_admission_policy_refuses_it():
    with pytest.raises(WorkloadsFileError) as raised:
        _run(with_default_queue=False)
    assert "workloads[1].queueLabel: a job without kueue.x-k8s.io/queue-name in namespace 'vision' has no default " \
           "LocalQueue to go to, so the admission policy gkecap-queue-vision refuses it" in str(raised.value)


def test_queue_label_is_a_boolean():
    with pytest.raises(ValueError):
        WorkloadsFile.model_validate({"workloads": [{**WORKLOADS[1], "queueLabel": "no"}]})
