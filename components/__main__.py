"""Serve the gke-capacity components as a Pulumi component package (package name `gkecap`).

`pulumi package add <path to components/>` runs this file (see PulumiPlugin.yaml); Pulumi infers the
schema from the components' type annotations (`pulumi.provider.experimental.analyzer`) and generates an
SDK for the consuming language, so a TypeScript or Go stack gets `gkecap.AcceleratorNodePool` etc.
with the type tokens `gkecap:index:<Name>`.
"""

import sys
from pathlib import Path

try:
    import components  # noqa: F401 -- installed (pip install -e .) in the plugin's virtualenv
except ImportError:  # run from a checkout without installing: the repository root holds the package
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pulumi.provider.experimental import component_provider_host

from components.cluster import GkeCluster
from components.environment import Environment
from components.kueue import KueueInstall, KueueObjects
from components.node_pool import AcceleratorNodePool
from components.reservation import CalendarReservation

PACKAGE_NAME = "gkecap"
PACKAGE_VERSION = "0.1.0"
# Components hosted for other languages (each must pass the analyzer: TypedDict args, Output annotations).
COMPONENTS = [AcceleratorNodePool, CalendarReservation, GkeCluster, KueueInstall, KueueObjects, Environment]

if __name__ == "__main__":
    component_provider_host(components=COMPONENTS, name=PACKAGE_NAME, version=PACKAGE_VERSION)
