"""The build data as the site reads it: data/builds/pypi.json and data/builds/wheels/*.json (measured by
`make builds`), data/builds/nvidia.yaml (NVIDIA's figures) and data/builds/install.yaml (the official install
commands), curated, each checked against its schema.

A missing folder is no error (a site without build data has no resolver to feed); a file that is there but wrong
stops the build with its name, line or field, and what was expected.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from macros.data.remembered import Remembered, remembered_or_new
from macros.data.schema import schema_errors
from macros.data.yamlfile import DataError, DataErrors, YamlDocument, parse_yaml, read_data_bytes

MAX_JSON_BYTES = 2_000_000


@dataclass(frozen=True, slots=True)
class Gpu:
    name: str
    compute_capability: str
    source: str  # a source id of nvidia.yaml


@dataclass(frozen=True, slots=True)
class Builds:
    """What PyPI holds per project and release, the measured Linux wheels per feature release, and NVIDIA's figures."""

    pypi: dict[str, dict[str, dict]]  # project -> X.Y.Z -> {"date", "wheels": {platform: [python, ...]}}
    read: dict  # how and when PyPI was read
    wheels: dict[str, dict]  # X.Y -> its data/builds/wheels file
    nvidia: dict  # data/builds/nvidia.yaml as written
    install: dict  # data/builds/install.yaml as written: the official install commands per X.Y.Z and build

    @property
    def gpus(self) -> tuple[Gpu, ...]:
        return tuple(Gpu(**gpu) for gpu in self.nvidia["gpus"])

    def source(self, source_id: str) -> dict:
        return next(source for source in self.nvidia["sources"] if source["id"] == source_id)

    def patch_releases(self, release: str) -> list[str]:
        """Every X.Y.Z of a feature release X.Y on PyPI, oldest first."""
        return [version for version in self.pypi.get("torch", {}) if version.rpartition(".")[0] == release]


def _read(
    path: Path, data_dir: Path, schema_name: str, errors: list[DataError], remembered: Remembered, *, yaml: bool = False
) -> object | None:
    """A data file checked against its schema (parsed again only when its bytes change); None after an error."""
    name = str(path.relative_to(data_dir.parent))
    raw, found = read_data_bytes(path, name, data_dir, limit=MAX_JSON_BYTES)
    if raw is None:
        errors.extend(found)
        return None
    digest = hashlib.blake2b(raw, digest_size=16).digest()

    def parse() -> tuple[object | None, list[DataError]]:
        if yaml:
            document, found = parse_yaml(raw, name)
        else:
            try:
                document, found = YamlDocument(json.loads(raw)), []
            except (ValueError, RecursionError) as exc:
                document, found = None, [DataError(name, f"not readable JSON ({exc}); run `make builds` to write it again")]
        if document is not None and not found:
            found = schema_errors(document, schema_name, name)
        return (None if found else document.data), found

    data, found = remembered.get(("builds", name, schema_name), digest, parse)
    errors.extend(found)
    return data


def load_builds(data_dir: Path, remembered: Remembered | None = None) -> Builds | None:
    """The build data of `data_dir/builds`, or None when there is none; raises DataErrors for a file that is wrong."""
    folder = data_dir / "builds"
    if not folder.is_dir():
        return None
    remembered = remembered_or_new(remembered)
    errors: list[DataError] = []
    pypi = _read(folder / "pypi.json", data_dir, "pypi.schema.json", errors, remembered)
    nvidia = _read(folder / "nvidia.yaml", data_dir, "nvidia.schema.json", errors, remembered, yaml=True)
    install = _read(folder / "install.yaml", data_dir, "install.schema.json", errors, remembered, yaml=True)
    wheels = {}
    for path in sorted((folder / "wheels").glob("*.json")):
        measured = _read(path, data_dir, "wheel.schema.json", errors, remembered)
        if measured is not None and measured["release"] != path.stem:
            message = f"release {measured['release']!r} differs from the file's name"
            errors.append(DataError(str(path.relative_to(data_dir.parent)), message))
        elif measured is not None:
            wheels[path.stem] = measured
    if nvidia is not None:
        _check_sources(nvidia, str((folder / "nvidia.yaml").relative_to(data_dir.parent)), errors)
    if errors:
        raise DataErrors(errors)
    return Builds(pypi=pypi["projects"], read=pypi["read"], wheels=wheels, nvidia=nvidia, install=install)


def _check_sources(nvidia: dict, name: str, errors: list[DataError]) -> None:
    """Every source id a figure cites is one the file lists."""
    listed = {source["id"] for source in nvidia["sources"]}
    cited = [("drivers", nvidia["drivers"]["source"]), ("minor_version_compatibility", nvidia["minor_version_compatibility"]["source"])]
    cited += [(f"gpus[{index}] ({gpu['name']})", gpu["source"]) for index, gpu in enumerate(nvidia["gpus"])]
    for where, source in cited:
        if source not in listed:
            errors.append(DataError(name, f"{where}: source '{source}' is not one of the listed sources ({', '.join(sorted(listed))})"))


def version_key(version: str) -> tuple[int, ...]:
    """A dotted version as numbers, for sorting (`2.10` after `2.9`)."""
    return tuple(int(part) for part in version.split("."))


def python_key(python: str) -> tuple[int, ...]:
    """A Python version as its wheels name it (`3.13t`, free-threaded, after `3.13`), for sorting."""
    return (*version_key(python.rstrip("t")), python.endswith("t"))
