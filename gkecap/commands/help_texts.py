"""What `gkecap --help` and each command's `--help` end with: examples that run as written, and the exit codes.

Typer's rich help joins single line breaks, so each example is its own paragraph (a blank line between).
"""

from __future__ import annotations

EXIT_CODES = "Exit codes: 0 no mandatory violation; 1 mandatory violations; 2 invalid config, program, state or options (a message per problem on stderr)."


def _epilog(*examples: str, exit_codes: str = EXIT_CODES) -> str:
    return "\n\n".join(["Examples:", *(f"  {example}" for example in examples), exit_codes])


MAIN = _epilog(
    "gkecap plan --stack dev",
    "gkecap plan --program path/to/program --config path/to/Pulumi.ci.yaml --format sarif > gkecap.sarif",
    "pulumi stack export | gkecap check --state -",
    "gkecap catalog --family v6e",
    "gkecap slice ct6e-standard-4t 4x4",
    "gkecap manifests --stack prod",
    "gkecap policies",
    "gkecap workload --stack prod --team llm --pool h100-dws --pods 2",
    "gkecap vertex-job --stack prod --profile llm-h100",
    "gkecap simulate --stack prod --workloads stacks/scenarios/prod.yaml",
    "gkecap diff --base git:main:stacks/Pulumi.prod.yaml --head stacks/Pulumi.prod.yaml",
)
COMMANDS = {
    "plan": _epilog(
        "gkecap plan --stack prod                       # stacks/Pulumi.prod.yaml; writes out/gke-capacity/prod/",
        "gkecap plan --config Pulumi.ci.yaml --format json",
        "gkecap plan --stack prod --pack-in-process              # the bundled pack in this process: less time and memory",
        "gkecap plan --program infra/ --stack-outputs acme/network/prod=network.json --timeout 120",
        "gkecap plan --stack prod --format sarif > gkecap.sarif   # GitHub code scanning",
    ),
    "check": _epilog(
        "gkecap check --state stack.json",
        "pulumi stack export --stack prod | gkecap check --state - --format json",
    ),
    "check-stacks": _epilog(
        "gkecap check-stacks stacks/Pulumi.dev.yaml stacks/Pulumi.prod.yaml",
        "gkecap check-stacks stacks/Pulumi.*.yaml --sarif-dir out/sarif   # one SARIF per stack, for code scanning",
        exit_codes="Exit codes: 0 no mandatory violation in any file; 1 mandatory violations; 2 invalid input (the worst file decides).",
    ),
    "catalog": _epilog("gkecap catalog", "gkecap catalog --family v6e --format json",
                       exit_codes="Exit codes: 0 shown; 2 unknown family."),
    "slice": _epilog("gkecap slice ct6e-standard-4t 4x4", "gkecap slice a3-highgpu-8g --format json",
                     exit_codes="Exit codes: 0 shown; 2 unknown machine type or invalid topology."),
    "policies": _epilog("gkecap policies", "gkecap policies --format json", "gkecap policies --format markdown > docs/policies.md",
                        exit_codes="Exit codes: 0 listed; 2 the pack could not be started."),
    "manifests": _epilog("gkecap manifests --stack prod", "gkecap manifests --config Pulumi.prod.yaml --stdout | kubectl diff -f -",
                         exit_codes="Exit codes: 0 written; 2 invalid config (a message per problem on stderr)."),
    "workload": _epilog("gkecap workload --stack prod --team llm --pool h100-dws --pods 2 | kubectl create -f -",
                        "gkecap workload --stack prod --team vision --pool v6e-4x4 --pods 8   # a JobSet of 2 slices",
                        exit_codes="Exit codes: 0 printed; 2 invalid config, or a shape the pool cannot run (the reason on stderr)."),
    "vertex-job": _epilog("gkecap vertex-job --stack prod --profile llm-h100",
                          "gkecap vertex-job --stack prod --profile llm-h100 --format gcloud > job.yaml",
                          exit_codes="Exit codes: 0 printed; 2 invalid config or unknown profile."),
    "diff": _epilog("gkecap diff --base git:main:stacks/Pulumi.prod.yaml --head stacks/Pulumi.prod.yaml",
                    "gkecap diff --base base/plan.json --head out/gke-capacity/prod/plan.json --format markdown > comment.md",
                    exit_codes="Exit codes: 0 shown; 1 the head adds a mandatory violation; 2 a side cannot be read or planned."),
    "simulate": _epilog("gkecap simulate --stack prod --workloads stacks/scenarios/prod.yaml",
                        "gkecap simulate --stack dev --workloads stacks/scenarios/dev.yaml --format json --out out/sim",
                        exit_codes="Exit codes: 0 simulated; 2 invalid config or workloads file (a message per problem on stderr)."),
}
