"""Valid setups in the shape of Kueue's and GKE's documentation (FACTS.md D): a single ClusterQueue, teams in a
cohort with borrowing and lending, DWS queued provisioning, topology-aware scheduling. All must be accepted by
us and by the real CRDs."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from gkecap.components.kueue_api import validate_kueue_object
from testkit.kueue_crds import requires_crds, validate_against_crds

SINGLE_CLUSTER_QUEUE = """
apiVersion: kueue.x-k8s.io/{v}
kind: ResourceFlavor
metadata: {{name: default-flavor}}
---
apiVersion: kueue.x-k8s.io/{v}
kind: ClusterQueue
metadata: {{name: cluster-queue}}
spec:
  namespaceSelector: {{}}
  resourceGroups:
  - coveredResources: [cpu, memory]
    flavors:
    - name: default-flavor
      resources:
      - {{name: cpu, nominalQuota: 9}}
      - {{name: memory, nominalQuota: 36Gi}}
---
apiVersion: kueue.x-k8s.io/{v}
kind: LocalQueue
metadata: {{name: user-queue, namespace: default}}
spec: {{clusterQueue: cluster-queue}}
"""

COHORT_BORROWING = """
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: research}
spec:
  parentName: org
  fairSharing: {weight: "2"}
  resourceGroups:
  - coveredResources: [nvidia.com/gpu]
    flavors:
    - name: h100
      resources: [{name: nvidia.com/gpu, nominalQuota: 4, lendingLimit: 8}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: team-a}
spec:
  cohortName: research
  namespaceSelector:
    matchLabels: {kubernetes.io/metadata.name: team-a}
  preemption:
    reclaimWithinCohort: Any
    withinClusterQueue: LowerPriority
    borrowWithinCohort: {policy: LowerPriority, maxPriorityThreshold: 100}
  flavorFungibility: {whenCanBorrow: TryNextFlavor, whenCanPreempt: TryNextFlavor, preference: BorrowingOverPreemption}
  fairSharing: {weight: "0.5"}
  resourceGroups:
  - coveredResources: [nvidia.com/gpu, cpu, memory]
    flavors:
    - name: h100
      resources:
      - {name: nvidia.com/gpu, nominalQuota: 4, borrowingLimit: 12, lendingLimit: 2}
      - {name: cpu, nominalQuota: 104}
      - {name: memory, nominalQuota: 936Gi}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: team-b}
spec:
  cohortName: research
  namespaceSelector:
    matchExpressions: [{key: team, operator: In, values: [b, b-batch]}]
  resourceGroups:
  - coveredResources: [nvidia.com/gpu, cpu, memory]
    flavors:
    - name: h100
      resources:
      - {name: nvidia.com/gpu, nominalQuota: 8, lendingLimit: 8}
      - {name: cpu, nominalQuota: 208, borrowingLimit: 0}
      - {name: memory, nominalQuota: 1872Gi}
"""

DWS_QUEUED_PROVISIONING = """
apiVersion: kueue.x-k8s.io/v1beta2
kind: ProvisioningRequestConfig
metadata: {name: dws-config}
spec:
  provisioningClassName: queued-provisioning.gke.io
  managedResources: [nvidia.com/gpu]
  retryStrategy: {backoffLimitCount: 3, backoffBaseSeconds: 60, backoffMaxSeconds: 1800}
  podSetUpdates:
    nodeSelector:
    - {key: autoscaling.gke.io/provisioning-request, valueFromProvisioningClassDetail: ResizeRequestName}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: AdmissionCheck
metadata: {name: dws-prov}
spec:
  controllerName: kueue.x-k8s.io/provisioning-request
  parameters: {apiGroup: kueue.x-k8s.io, kind: ProvisioningRequestConfig, name: dws-config}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: h100-dws}
spec:
  nodeLabels: {cloud.google.com/gke-nodepool: h100-dws}
  tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: dws-cluster-queue}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu, memory, nvidia.com/gpu, ephemeral-storage]
    flavors:
    - name: h100-dws
      resources:
      - {name: cpu, nominalQuota: 1000000000}
      - {name: memory, nominalQuota: 1000000000Gi}
      - {name: nvidia.com/gpu, nominalQuota: 1000000000}
      - {name: ephemeral-storage, nominalQuota: 1000000000Ti}
  admissionChecksStrategy:
    admissionChecks: [{name: dws-prov, onFlavors: [h100-dws]}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: dws-local-queue, namespace: default}
spec: {clusterQueue: dws-cluster-queue}
"""

DWS_V1BETA1_ADMISSION_CHECKS = """
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: dws-cluster-queue}
spec:
  namespaceSelector: {}
  flavorFungibility: {whenCanBorrow: Borrow, whenCanPreempt: Preempt}
  resourceGroups:
  - coveredResources: [nvidia.com/gpu]
    flavors:
    - name: h100-dws
      resources: [{name: nvidia.com/gpu, nominalQuota: 16}]
  admissionChecks: [dws-prov]
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: AdmissionCheck
metadata: {name: dws-prov}
spec:
  controllerName: kueue.x-k8s.io/provisioning-request
  retryDelayMinutes: 15
  parameters: {apiGroup: kueue.x-k8s.io, kind: ProvisioningRequestConfig, name: dws-config}
"""

TOPOLOGY_AWARE = """
apiVersion: kueue.x-k8s.io/v1beta2
kind: Topology
metadata: {name: gke-default}
spec:
  levels:
  - {nodeLabel: cloud.google.com/gce-topology-block}
  - {nodeLabel: cloud.google.com/gce-topology-subblock}
  - {nodeLabel: kubernetes.io/hostname}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: tas-flavor}
spec:
  nodeLabels: {cloud.google.com/gke-nodepool: a3-pool}
  nodeTaints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}]
  topologyName: gke-default
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: WorkloadPriorityClass
metadata: {name: high}
value: 1000
description: Production training that may preempt research jobs.
"""

SETUPS = {
    "single-cluster-queue-v1beta1": SINGLE_CLUSTER_QUEUE.format(v="v1beta1"),
    "single-cluster-queue-v1beta2": SINGLE_CLUSTER_QUEUE.format(v="v1beta2"),
    "cohort-borrowing": COHORT_BORROWING,
    "dws-queued-provisioning": DWS_QUEUED_PROVISIONING,
    "dws-v1beta1-admission-checks": DWS_V1BETA1_ADMISSION_CHECKS,
    "topology-aware": TOPOLOGY_AWARE,
}
DOCUMENTS = [pytest.param(doc, id=f"{name}-{i}-{doc['kind']}")
             for name, text in SETUPS.items() for i, doc in enumerate(yaml.safe_load_all(text))]


@pytest.mark.parametrize("doc", DOCUMENTS)
def test_documented_setup_is_valid(doc: dict[str, Any]) -> None:
    assert validate_kueue_object(doc) == []


@requires_crds
@pytest.mark.parametrize("doc", DOCUMENTS)
def test_documented_setup_is_accepted_by_the_real_crds(doc: dict[str, Any]) -> None:
    assert validate_against_crds(doc) == []


def _as_pulumi_sends_it(node: Any) -> Any:
    """Pulumi's gRPC Struct carries every number as a double."""
    if isinstance(node, dict):
        return {k: _as_pulumi_sends_it(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_as_pulumi_sends_it(v) for v in node]
    return float(node) if isinstance(node, int) and not isinstance(node, bool) else node


@pytest.mark.parametrize("doc", DOCUMENTS)
def test_numbers_as_doubles_are_still_valid(doc: dict[str, Any]) -> None:
    assert validate_kueue_object(_as_pulumi_sends_it(doc)) == []
