"""The report's block on how each team's quota is enforced, read from the registered objects."""

from __future__ import annotations

import yaml

from gkecap.components.kubernetes_objects.build import kueue_objects
from gkecap.report.enforcement import enforcement_rows
from testkit.kueue_specs import model_of
from testkit.report_fixtures import record
from testkit.spec_data import dev


def _token(obj: dict) -> str:
    version = obj["apiVersion"] if "/" in obj["apiVersion"] else f"core/{obj['apiVersion']}"
    return f"kubernetes:{version}:{obj['kind']}"


def _records(env: dict, kueue_config: dict | None = None) -> tuple:
    model = model_of(env)
    records = [record(_token(o), o["metadata"]["name"], inputs=o) for o in kueue_objects(model)]
    values = {"managerConfig": {"controllerManagerConfigYaml": yaml.safe_dump(kueue_config)}} if kueue_config else {}
    records.append(record("kubernetes:helm.sh/v4:Chart", "kueue",
                          inputs={"chart": "oci://registry.k8s.io/kueue/charts/kueue", "values": values}))
    return model, records


def test_each_team_shows_its_admission_policy_rbac_and_no_kueue_management_by_default():
    model, records = _records(dev())
    [vision, nlp] = enforcement_rows(model, records)
    assert (vision.team, vision.kueue, vision.admission, vision.rbac, vision.resource_quota) == (
        "vision", "no: only jobs labelled kueue.x-k8s.io/queue-name",
        "gkecap-queue-vision (priority classes: low, normal)", "gkecap-team-member, kueue-batch-user-role", "off")
    assert nlp.admission.startswith("gkecap-queue-nlp")


def test_kueue_management_and_a_resource_quota_show():
    env = dev()
    env["teams"][0]["resourceQuota"] = True
    model, records = _records(env, {"manageJobsWithoutQueueName": True})
    vision = enforcement_rows(model, records)[0]
    assert vision.kueue == "yes"
    assert vision.resource_quota == "google.com/tpu <= 4, nvidia.com/gpu <= 2 per namespace"


def test_a_stack_without_the_guards_says_so():
    model, records = _records(dev())
    bare = [r for r in records if "admissionregistration" not in r.type and "rbac" not in r.type]
    vision = enforcement_rows(model, bare)[0]
    assert (vision.admission, vision.rbac) == ("none: unlabelled GPU work is admitted", "no members bound")
