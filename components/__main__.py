"""Serve the gke-capacity components as a Pulumi component package (package name `gkecap`).

`pulumi package add <path to components/>` runs this file (see PulumiPlugin.yaml); Pulumi infers the
schema from the components' type annotations (`pulumi.provider.experimental.analyzer`) and generates an
SDK for the consuming language, so a TypeScript or Go stack gets `gkecap.AcceleratorNodePool` etc.
with the type tokens `gkecap:index:<Name>`. `GkecapProvider` serves that schema with typed object types in
place of the dicts the analyzer sees as `Any`, enum types for closed sets (`_schema_types.typed_schema`) and the
package's metadata (`_schema_types.package_metadata`).
"""

import json
import sys
from importlib.metadata import version

from pulumi.provider import main
from typing import Optional

from pulumi import InputPropertiesError, Inputs, ResourceOptions
from pulumi.provider import ConstructResult
from pulumi.provider.experimental.analyzer import ComponentDefinition
from pulumi.provider.experimental.component import ComponentProvider
from pulumi.provider.server import ComponentInitError

from gkecap.components._schema_types import package_metadata, typed_schema
from gkecap.components._support import whole_numbers
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


class GkecapProvider(ComponentProvider):
    """The components' provider; its schema is the analyzer's with typed object types (`typed_schema`), and
    a Construct request's whole-valued doubles (TypeScript, Go, C#, Java and YAML send every number as one)
    reach the components as ints, nested ones included; `2.5` stays a float for the checks to reject."""

    def __init__(self) -> None:
        super().__init__(COMPONENTS, PACKAGE_NAME, None, PACKAGE_VERSION)
        self.schema = json.dumps(package_metadata(typed_schema(json.loads(self.schema or "{}"))))

    def map_inputs(self, inputs: Inputs, component_def: ComponentDefinition) -> Inputs:
        return super().map_inputs(whole_numbers(dict(inputs)), component_def)

    def construct(self, name: str, resource_type: str, inputs: Inputs,
                  options: Optional[ResourceOptions] = None) -> ConstructResult:
        # A component's bad-input error reaches the consumer as InvalidArgument with one (property path, reason)
        # per problem, as for a missing input; the SDK would wrap it as an unexpected error with a traceback.
        try:
            return super().construct(name, resource_type, inputs, options)
        except ComponentInitError as error:
            if isinstance(error.inner, InputPropertiesError):
                raise error.inner from None
            raise


if __name__ == "__main__":
    # As pulumi.provider.experimental.component_provider_host, with this provider: the language host passes
    # the engine address and flags.
    main(GkecapProvider(), sys.argv[1:])
