"""The build data as the site reads it: data/builds/pypi.json and data/builds/wheels/*.json (measured by
`make builds`), data/builds/requirements.json (what must match torch, measured by `make must-match`),
data/builds/nvidia.yaml (NVIDIA's figures), data/builds/install.yaml (the official install commands) and
data/builds/variants.yaml (every build of every release), curated, each checked against its schema.

A missing folder is no error (a site without build data has no resolver to feed); a file that is there but wrong
stops the build with its name, line or field, and what was expected.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from macros.data.remembered import Remembered, Same, remembered_or_new
from macros.data.schema import schema_errors
from macros.data.yamlfile import DataError, DataErrors, YamlDocument, parse_yaml, read_data_bytes

MAX_JSON_BYTES = 2_000_000
GPU_SOURCES = ("source", "architecture_source")  # what an NVIDIA GPU cites: where it is read, and for an inferred figure the architecture's


@dataclass(frozen=True, slots=True)
class Gpu:
    name: str
    compute_capability: str
    source: str  # a source id of nvidia.yaml
    architecture: str = ""  # when inferred: the architecture `source` names, whose figure `architecture_source` gives
    architecture_source: str = ""


@dataclass(frozen=True, slots=True)
class Builds:
    """What PyPI holds per project and release, the measured Linux wheels per feature release, and NVIDIA's figures."""

    pypi: dict[str, dict[str, dict]]  # project -> X.Y.Z -> {"date", "wheels": {platform: [python, ...]}}
    read: dict  # how and when PyPI was read
    wheels: dict[str, dict]  # X.Y -> its data/builds/wheels file
    nvidia: dict  # data/builds/nvidia.yaml as written
    install: dict  # data/builds/install.yaml as written: the official install commands per X.Y.Z and build
    variants: dict  # data/builds/variants.yaml as written: every build of every feature release, with its sources
    requirements: dict  # data/builds/requirements.json: project -> X.Y.Z -> {"wheel", "triton" or "torch": [lines]}
    amd: dict  # data/builds/amd.yaml as written: AMD's GPUs with their LLVM (gfx) targets
    intel: dict  # data/builds/intel.yaml as written: Intel's GPUs, their families and the releases validated on them

    @property
    def gpus(self) -> tuple[Gpu, ...]:
        return tuple(Gpu(**gpu) for gpu in self.nvidia["gpus"])

    @property
    def inferred_gpus(self) -> dict[tuple[str, str, str, str], list[str]]:
        """The GPUs whose compute capability is inferred, by (source, architecture, architecture's source, figure)."""
        groups: dict[tuple[str, str, str, str], list[str]] = {}
        for gpu in self.gpus:
            if gpu.architecture:
                groups.setdefault((gpu.source, gpu.architecture, gpu.architecture_source, gpu.compute_capability), []).append(gpu.name)
        return groups

    def source(self, source_id: str) -> dict:
        return next(source for source in self.nvidia["sources"] if source["id"] == source_id)

    def patch_releases(self, release: str) -> list[str]:
        """Every X.Y.Z of a feature release X.Y on PyPI, oldest first."""
        return [version for version in self.pypi.get("torch", {}) if version.rpartition(".")[0] == release]


def _read(
    path: Path,
    data_dir: Path,
    schema_name: str,
    errors: list[DataError],
    remembered: Remembered,
    *,
    yaml: bool = False,
    check: Callable[[YamlDocument, str], list[DataError]] | None = None,
) -> object | None:
    """A data file checked against its schema, then by `check` (parsed again only when its bytes change); None after
    an error."""
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
        if document is not None and not found and check is not None:
            found = check(document, name)
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
    nvidia = _read(folder / "nvidia.yaml", data_dir, "nvidia.schema.json", errors, remembered, yaml=True, check=_nvidia_errors)
    install = _read(folder / "install.yaml", data_dir, "install.schema.json", errors, remembered, yaml=True)
    requirements = _read(folder / "requirements.json", data_dir, "requirements.schema.json", errors, remembered)
    variants = _read(folder / "variants.yaml", data_dir, "variants.schema.json", errors, remembered, yaml=True, check=_variant_errors)
    amd = _read(folder / "amd.yaml", data_dir, "amd.schema.json", errors, remembered, yaml=True, check=_amd_errors)
    intel = _read(folder / "intel.yaml", data_dir, "intel.schema.json", errors, remembered, yaml=True, check=_intel_errors)
    wheels = {}
    for path in sorted((folder / "wheels").glob("*.json")):
        measured = _read(path, data_dir, "wheel.schema.json", errors, remembered)
        if measured is not None and measured["release"] != path.stem:
            message = f"release {measured['release']!r} differs from the file's name"
            errors.append(DataError(str(path.relative_to(data_dir.parent)), message))
        elif measured is not None:
            wheels[path.stem] = measured
    if errors:
        raise DataErrors(errors)
    parts = (pypi, nvidia, install, variants, requirements, amd, intel, *wheels.values())  # each the same object while its bytes are
    return remembered.get(  # so the same Builds while no file changed, and what is made from it need not be made again
        "builds",
        (tuple(wheels), *map(Same, parts)),
        lambda: Builds(pypi["projects"], pypi["read"], wheels, nvidia, install, variants, requirements, amd, intel),
    )


def _nvidia_errors(document: YamlDocument, name: str) -> list[DataError]:
    """Every source id a figure cites is one the file lists."""
    nvidia = document.data
    cited = [(("drivers", "source"), nvidia["drivers"]["source"])]
    cited += [(("minor_version_compatibility", "source"), nvidia["minor_version_compatibility"]["source"])]
    cited += [(("gpus", index, key), gpu[key]) for index, gpu in enumerate(nvidia["gpus"]) for key in GPU_SOURCES if key in gpu]
    return _unlisted_sources(document, name, cited)


def _amd_errors(document: YamlDocument, name: str) -> list[DataError]:
    """Every source id a GPU cites is one the file lists."""
    cited = [(("gpus", index, "source"), gpu["source"]) for index, gpu in enumerate(document.data["gpus"])]
    return _unlisted_sources(document, name, cited)


def _intel_errors(document: YamlDocument, name: str) -> list[DataError]:
    """Every source id cited is one the file lists, and every family named (by a GPU or a release) is one it lists."""
    intel = document.data
    cited = [(("gpus", index, "source"), gpu["source"]) for index, gpu in enumerate(intel["gpus"])]
    cited += [(("releases", release, "source"), entry["source"]) for release, entry in intel["releases"].items()]
    named = [(("gpus", index, "family"), gpu["family"]) for index, gpu in enumerate(intel["gpus"])]
    for release, entry in intel["releases"].items():
        for platform in ("linux-x86_64", "windows-x86_64"):
            named += [(("releases", release, platform, index), family) for index, family in enumerate(entry.get(platform, ()))]
    families = {family["id"] for family in intel["families"]}
    return _unlisted_sources(document, name, cited) + _unlisted(document, name, named, families, "family", "families")


def _unlisted_sources(document: YamlDocument, name: str, cited: list[tuple[tuple, str]]) -> list[DataError]:
    """An error at each (field path, source id) whose id the file's `sources` do not list."""
    return _unlisted(document, name, cited, {source["id"] for source in document.data["sources"]}, "source", "sources")


def _unlisted(
    document: YamlDocument, name: str, cited: list[tuple[tuple, str]], listed: set[str], kind: str, kinds: str
) -> list[DataError]:
    """An error at each (field path, id) whose id is not among the `listed` ones (a file's sources, its families)."""
    known = ", ".join(sorted(listed))
    return [
        DataError(name, f"{kind} '{value}' is not one of the listed {kinds} ({known})", document.line_of(path), path)
        for path, value in cited
        if value not in listed
    ]


def _variant_errors(document: YamlDocument, name: str) -> list[DataError]:
    """Every source a build cites is listed; PyPI serves a build only where it has wheels; GPU code belongs to GPU
    builds; and a release names each build once per platform and patch release."""
    variants, errors = document.data, []

    def error(path: tuple, message: str) -> None:
        errors.append(DataError(name, message, document.line_of(path), path))

    listed = {source["id"] for source in variants["sources"]}
    for release, entry in variants["releases"].items():
        seen: dict[tuple[str, str], list[set[str] | None]] = {}  # (variant, platform) -> the patch releases of each entry (None: all)
        for index, build in enumerate(entry["builds"]):
            at = ("releases", release, "builds", index)
            gpu = build.get("gpu", {})
            cited = [(("sources", n), source) for n, source in enumerate(build["sources"])]
            cited += [(("gpu", "sources", n), source) for n, source in enumerate(gpu.get("sources", ()))]
            for field_path, source in cited:
                if source not in listed:
                    error((*at, *field_path), f"source '{source}' is not one of the listed sources")
            if not set(build.get("pypi", ())) <= set(build["platforms"]):
                error((*at, "pypi"), "PyPI can serve a build only on one of its platforms")
            if gpu and build["variant"].rpartition("/")[2] in ("cpu", "xpu"):
                error((*at, "gpu"), "only CUDA and ROCm builds list GPU code as sm_, compute_ and gfx targets")
            patches = set(build["patches"]) if "patches" in build else None
            for platform in build["platforms"]:
                earlier = seen.setdefault((build["variant"], platform), [])
                for other in earlier:
                    both = _shared_patches(patches, other)
                    if both:
                        error(at, f"{build['variant']} on {platform} is listed twice for {both}")
                earlier.append(patches)
    return errors


def _shared_patches(these: set[str] | None, those: set[str] | None) -> str:
    """The patch releases two entries of a build both hold for (None stands for all of them), as words; "" for none."""
    if these is None and those is None:
        return "every patch release"
    return ", ".join(sorted(these & those if these is not None and those is not None else these or those or set()))


def version_key(version: str) -> tuple[int, ...]:
    """A dotted version as numbers, for sorting (`2.10` after `2.9`)."""
    return tuple(int(part) for part in version.split("."))


def python_key(python: str) -> tuple[int, ...]:
    """A Python version as its wheels name it (`3.13t`, free-threaded, after `3.13`), for sorting."""
    return (*version_key(python.rstrip("t")), python.endswith("t"))
