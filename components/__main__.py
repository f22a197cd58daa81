"""Serve the gke-capacity components as a Pulumi component package (package name `gkecap`).

`pulumi package add <path to components/>` runs this file (see PulumiPlugin.yaml); Pulumi infers the
schema from the components' type annotations (`pulumi.provider.experimental.analyzer`) and generates an
SDK for the consuming language, so a TypeScript or Go stack gets `gkecap.AcceleratorNodePool` etc.
with the type tokens `gkecap:index:<Name>`.
"""

from importlib.metadata import version

from pulumi.provider.experimental import component_provider_host

from gkecap.components.cluster import GkeCluster
from gkecap.components.environment import Environment
from gkecap.components.kueue import KueueInstall, KueueObjects
from gkecap.components.node_pool import AcceleratorNodePool
from gkecap.components.reservation import CalendarReservation
from gkecap.components.vertex import VertexTrainingQuota

PACKAGE_NAME = "gkecap"
PACKAGE_VERSION = version("gke-capacity")
# Components hosted for other languages (each must pass the analyzer: TypedDict args, Output annotations).
COMPONENTS = [AcceleratorNodePool, CalendarReservation, GkeCluster, KueueInstall, KueueObjects, Environment,
              VertexTrainingQuota]

if __name__ == "__main__":
    component_provider_host(components=COMPONENTS, name=PACKAGE_NAME, version=PACKAGE_VERSION)
