"""`gkecap policies bundle --out DIR`: the gke-capacity policy pack as a folder `pulumi policy publish DIR` uploads.

A published pack is its folder alone: the Pulumi CLI (or the Pulumi Cloud, for an organization's policy group)
makes the folder's virtualenv and installs its `requirements.txt` (pulumi/pulumi sdk/python/toolchain/pip.go,
docs/sources.md). The rules are the `gkecap.policies` package of this distribution, which no public index serves,
so the folder carries it:

    DIR/PulumiPolicy.yaml      the pack's runtime: python, pip, its virtualenv `venv` inside the folder
    DIR/__main__.py            the pack's entry point (the installed `gkecap.policies.__main__`)
    DIR/wheels/gke_capacity-<version>-py3-none-any.whl   this distribution, as installed here
    DIR/requirements.txt       the wheel by relative path, then its public dependencies pinned to the versions
                               installed here (the ones this gkecap was tested with)

The wheel is written from the installed packages (`gkecap`, `gkecap.components`, `gkecap.policies`: their modules
and package data) and the installed distribution's metadata, so a regular and an editable install bundle alike.
Each file is written atomically; nothing else in DIR is touched.
"""

from __future__ import annotations

import base64
import hashlib
import importlib
import io
import re
import zipfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from gkecap.atomic_files import contained, make_directory, write_bytes_atomic, write_text_atomic

DISTRIBUTION = "gke-capacity"
PACKAGES = ("gkecap", "gkecap.components", "gkecap.policies")
# Package data besides modules (pyproject.toml [tool.setuptools.package-data]).
DATA_FILES = frozenset({"PulumiPlugin.yaml", "PulumiPolicy.yaml", "requirements.txt"})
VIRTUALENV = "venv"
WHEELS = "wheels"
# A fixed time for every wheel entry: the same installed files give the same wheel bytes.
_ZIP_TIME = (2020, 1, 1, 0, 0, 0)


class BundleError(ValueError):
    """The pack cannot be bundled from this installation (named, with what to do)."""


@dataclass(frozen=True)
class Bundle:
    folder: Path
    wheel: Path
    files: tuple[Path, ...]


def bundle_pack(out: Path) -> Bundle:
    """Write the pack folder at `out` (created if missing); the files written."""
    try:
        dist = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        raise BundleError(f"the {DISTRIBUTION} distribution is not installed; install it (pip install .) "
                          "and bundle again") from None
    make_directory(out, out)
    make_directory(out, out / WHEELS)  # a link out of the folder is refused, as for every output folder
    wheel_name = f"{_normalized(DISTRIBUTION)}-{dist.version}-py3-none-any.whl"
    wheel = write_bytes_atomic(contained(out, out / WHEELS / wheel_name), wheel_bytes(dist))
    policies = _package_dir("gkecap.policies")
    files = (
        wheel,
        write_text_atomic(out / "PulumiPolicy.yaml", pack_yaml((policies / "PulumiPolicy.yaml").read_text(), dist.version),
                          root=out),
        write_text_atomic(out / "__main__.py", (policies / "__main__.py").read_text(), root=out),
        write_text_atomic(out / "requirements.txt", requirements(dist, f"./{WHEELS}/{wheel_name}"), root=out),
    )
    return Bundle(out, wheel, files)


def pack_yaml(source: str, version: str) -> str:
    """The pack's PulumiPolicy.yaml with its virtualenv inside the pack folder (the repository's points at the
    checkout's .venv) and the distribution's version."""
    import yaml

    document = yaml.safe_load(source)
    document.setdefault("runtime", {"name": "python"}).setdefault("options", {})
    document["runtime"]["options"].update({"toolchain": "pip", "virtualenv": VIRTUALENV})
    document["version"] = version
    header = ("# The gke-capacity policy pack, bundled by `gkecap policies bundle` for `pulumi policy publish`.\n"
              "# The Pulumi CLI makes the virtualenv `venv` here and installs requirements.txt into it.\n")
    return header + yaml.safe_dump(document, sort_keys=False)


def requirements(dist: metadata.Distribution, wheel: str) -> str:
    """The wheel by relative path, then each public dependency pinned to its installed version."""
    lines = ["# The pack's rules: this gke-capacity, as a wheel beside this file.", wheel,
             "# Its dependencies, from the public index, at the versions this gke-capacity was run with."]
    for requirement in dist.requires or ():
        if ";" in requirement:  # an extra's (dev) or a marker's requirement: not the pack's
            continue
        name = re.match(r"[A-Za-z0-9._-]+", requirement)
        if name is None:
            continue
        try:
            lines.append(f"{name[0]}=={metadata.version(name[0])}")
        except metadata.PackageNotFoundError:
            lines.append(requirement)
    return "\n".join(lines) + "\n"


def wheel_bytes(dist: metadata.Distribution) -> bytes:
    """A pure-Python wheel of the installed packages and the distribution's metadata (PEP 427)."""
    info = f"{_normalized(DISTRIBUTION)}-{dist.version}.dist-info"
    entries: list[tuple[str, bytes]] = sorted(_package_files())
    entries.append((f"{info}/METADATA", (dist.read_text("METADATA") or "").encode()))
    entry_points = dist.read_text("entry_points.txt")
    if entry_points:
        entries.append((f"{info}/entry_points.txt", entry_points.encode()))
    entries.append((f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: gkecap policies bundle\n"
                                     b"Root-Is-Purelib: true\nTag: py3-none-any\n"))
    record = [f"{name},sha256={_digest(data)},{len(data)}" for name, data in entries] + [f"{info}/RECORD,,"]
    entries.append((f"{info}/RECORD", ("\n".join(record) + "\n").encode()))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            archive.writestr(zipfile.ZipInfo(name, _ZIP_TIME), data, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def _package_files() -> list[tuple[str, bytes]]:
    """(path in the wheel, bytes) of every module and data file of the installed packages."""
    roots = {package: _package_dir(package) for package in PACKAGES}
    found: dict[str, bytes] = {}
    for package, root in roots.items():
        others = {r for p, r in roots.items() if p != package}
        prefix = package.replace(".", "/")
        for path in sorted(root.rglob("*")):
            relative = path.relative_to(root)
            folders = [root / Path(*relative.parts[:i]) for i in range(1, len(relative.parts))]
            if any(folder in others or not (folder / "__init__.py").is_file() for folder in folders):
                continue  # another package's folder (installed inside this one), or not a package
            if path.is_file() and (path.suffix == ".py" or path.name in DATA_FILES):
                found[f"{prefix}/{relative.as_posix()}"] = path.read_bytes()
    return list(found.items())


def _package_dir(package: str) -> Path:
    return Path(importlib.import_module(package).__path__[0]).resolve()


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()
