"""The environments: one program for every `stacks/Pulumi.<env>.yaml`.

    pulumi up --stack dev          # with the Pulumi CLI and a state backend
    gkecap plan --stack dev        # offline: validate, evaluate on mocks, run the policy pack, report

The program is `gkecap.environment_program` (installed with the package, so `gkecap plan --config FILE` runs it
where no stacks/ folder is at hand): it builds the `Environment` component from `gkecap:environment` and exports
what other stacks consume.
"""

import runpy

runpy.run_module("gkecap.environment_program", run_name="__main__")
