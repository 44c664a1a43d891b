"""The builds as the site publishes them: /api/compatibility.json, what the "Will it run?" page answers from in the
reader's browser (docs/assets/resolver.js), and the facts the page states per release."""

from __future__ import annotations

import json
from dataclasses import dataclass

from packaging.version import Version

from macros.data.builds_catalog import Builds, python_key
from macros.data.model import Atlas, Release
from macros.views import urls

PLATFORM_NAMES = {  # the platforms of PyPI's wheels (see pypi.py), as a reader names them
    "linux-x86_64": "Linux (x86_64)",
    "linux-aarch64": "Linux (ARM64)",
    "windows-x86_64": "Windows (x86_64)",
    "windows-arm64": "Windows (ARM64)",
    "macos-arm64": "macOS (Apple silicon)",
    "macos-x86_64": "macOS (Intel)",
}
SYSTEM_NAMES = {"linux": "Linux", "windows": "Windows", "macos": "macOS"}
MEASURED_PLATFORM = "linux-x86_64"  # the platform whose wheels `make builds` opens for their GPU code


@dataclass(frozen=True, slots=True)
class PatchRelease:
    """One X.Y.Z of a feature release on PyPI: its first upload day, its wheels, and what its Linux wheel carries."""

    version: str
    date: str
    wheels: dict[str, list[str]]  # platform -> Pythons
    linux: dict | None  # the measured Linux x86_64 wheel (cuda, sm, ptx, wheel, sha256), if measured
    commands: dict | None = None  # the official install commands {"pip": [...], "conda": [...]}, where recorded

    @property
    def anchor(self) -> str:
        return urls.patch_anchor(self.version)

    @property
    def command_blocks(self) -> dict[str, str]:
        """The official commands per installer (pip, conda), each build's after a comment that names it and its systems
        (one comment for a build of several commands, as 1.8.0's ROCm build)."""
        blocks = {}
        for method, rows in (self.commands or {}).items():
            lines, named = [f"# {self.version} with {method}"], None
            for row in rows:
                comment = f"# {row['build']} ({', '.join(SYSTEM_NAMES[system] for system in row['systems'])})"
                lines += [row["command"]] if comment == named else [comment, row["command"]]
                named = comment
            blocks[method] = "\n".join(lines)
        return blocks

    @property
    def compiled_for(self) -> str:
        """The architectures the measured wheel has compiled code for, as `sm_50, sm_60`; a dash for none."""
        return ", ".join(f"sm_{arch}" for arch in self.linux["sm"]) or "–"

    @property
    def ptx_for(self) -> str:
        return ", ".join(f"sm_{arch}" for arch in self.linux["ptx"]) or "–"


def uncovered_on_pypi(builds: Builds, newest_covered: Release) -> list[str]:
    """The feature releases (X.Y.0) on PyPI newer than the newest release the atlas covers, oldest first."""
    newest = newest_covered.number.release[:2]
    return [version for version in builds.pypi.get("torch", {}) if version.endswith(".0") and Version(version).release[:2] > newest]


def patch_releases(builds: Builds, release: Release) -> list[PatchRelease]:
    """Every X.Y.Z of the release on PyPI, oldest first."""
    measured = builds.wheels.get(release.version, {}).get("wheels", {})
    return [
        PatchRelease(
            version,
            (facts := builds.pypi["torch"][version])["date"],
            facts["wheels"],
            measured.get(version),
            builds.install["versions"].get(version),
        )
        for version in builds.patch_releases(release.version)
    ]


def resolver_choices(builds: Builds) -> tuple[dict[str, str], list[str]]:
    """What the resolver's form offers: the platforms torch has wheels for (by the name a reader knows), and every
    Python it has had wheels for, newest first."""
    wheels = [found for facts in builds.pypi["torch"].values() for found in facts["wheels"].items()]
    platforms = {platform for platform, _ in wheels}
    pythons = {python for _, found in wheels for python in found}
    named = {platform: name for platform, name in PLATFORM_NAMES.items() if platform in platforms}
    return named, sorted(pythons, key=python_key, reverse=True)


def compatibility_json(atlas: Atlas, builds: Builds, *, site_url: str) -> str:
    """The document the resolver reads (schema: data/schema/compatibility.schema.json)."""
    releases = []
    for release in atlas.newest_first:
        versions = [
            {
                "version": p.version,
                "date": p.date,
                "wheels": p.wheels,
                **({"linux": _gpu_code(p.linux)} if p.linux else {}),
                **({"official_commands": True} if p.commands else {}),
            }
            for p in reversed(patch_releases(builds, release))
        ]
        if not versions:
            continue
        companions = {c.library: c.version for c in release.companions if c.library in ("torchvision", "torchaudio")}
        page = urls.site_path(urls.release_doc(release.version))
        releases.append({"release": release.version, "page": page, "versions": versions, "companions": companions})
    nvidia = builds.nvidia
    document = {
        "schema": urls.absolute(site_url, urls.COMPATIBILITY_SCHEMA),
        "measured": {"pypi": builds.read["date"], "platform": MEASURED_PLATFORM},
        "releases": releases,
        "drivers": nvidia["drivers"]["toolkits"],
        "minor_version_compatibility": nvidia["minor_version_compatibility"]["series"],
        "gpus": [{"name": gpu.name, "compute_capability": gpu.compute_capability} for gpu in builds.gpus],
        "platforms": PLATFORM_NAMES,
    }
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False) + "\n"


def _gpu_code(linux: dict) -> dict:
    """What the resolver needs of a measured wheel: its CUDA version (absent for a CPU-only build) and architectures."""
    found = {"sm": linux["sm"], "ptx": linux["ptx"]}
    if linux.get("cuda"):
        found["cuda"] = ".".join(linux["cuda"].split(".")[:2])
    return found
