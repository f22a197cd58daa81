"""One import namespace, `gkecap`, over three top-level folders.

`components/` and `policies/` stay where the Pulumi CLI expects them (`pulumi package add ./components`,
`--policy-pack policies`) and install as `gkecap.components` and `gkecap.policies`; the wheel's only
top-level package is `gkecap`. Everything else is in pyproject.toml.
"""

from setuptools import find_packages, setup

FOLDERS = {"gkecap": "gkecap", "gkecap.components": "components", "gkecap.policies": "policies"}


def packages() -> list[str]:
    found = []
    for package, folder in FOLDERS.items():
        found.append(package)
        found += [f"{package}.{sub}" for sub in find_packages(folder)]
    return found


setup(packages=packages(), package_dir=FOLDERS)
