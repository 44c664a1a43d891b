"""The builds as the site publishes them: /api/compatibility.json, what the "Will it run?" page answers from in the
reader's browser (docs/assets/resolver.js), and the facts the pages state per release: its patch releases on PyPI and
every build of its wheel index."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass

from packaging.requirements import InvalidRequirement, Requirement
from packaging.version import Version

from macros.data.builds_catalog import Builds, Gpu, python_key
from macros.data.model import Atlas, Release, Source
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
WHEEL_INDEX = "https://download.pytorch.org/whl/"  # a build's own index is this followed by its variant


@dataclass(frozen=True, slots=True)
class Build:
    """One build of a feature release as PyTorch's wheel index names it (`cu126`, `rocm6.4`, `cpu`), on the platforms
    it has wheels for, with the GPU code it carries where a source gives it (data/builds/variants.yaml)."""

    variant: str
    platforms: tuple[str, ...]
    pypi: tuple[str, ...]  # the platforms where a plain `pip install torch` from PyPI gets this build
    channel: str | None  # stable or experimental, where a source says
    patches: tuple[str, ...] | None  # the patch releases it holds for, when not all
    sources: tuple[Source, ...]  # the sources that say the build exists
    gpu: dict | None  # {"targets", "known", "sources", "note"}, for a CUDA or ROCm build whose GPU code a source gives
    gpu_sources: tuple[Source, ...] = ()  # the sources of its GPU code

    @property
    def index_url(self) -> str:
        return WHEEL_INDEX + self.variant

    @property
    def toolkit(self) -> tuple[str, str] | None:
        """("CUDA", "12.6") for `cu126`, ("ROCm", "6.2.4") for `rocm6.2.4`; None for a build without one."""
        kind = self.kind
        if kind.startswith("cu"):
            return "CUDA", f"{kind[2:-1]}.{kind[-1]}"
        if kind.startswith("rocm"):
            return "ROCm", kind[4:]
        return None

    @property
    def kind(self) -> str:
        """The variant without the folder of a long-term-support index: `cu111` for `lts/1.8/cu111`."""
        return self.variant.rpartition("/")[2]

    @property
    def label(self) -> str:
        """The build as the previous-versions page names it: CUDA 12.6, ROCm 6.2.4, CPU only, XPU."""
        return " ".join(self.toolkit) if self.toolkit else {"cpu": "CPU only", "xpu": "XPU"}[self.kind]

    def targets(self, prefix: str) -> list[str]:
        """The GPU code it carries of one kind (`sm_`, `compute_`, `gfx`), as written."""
        return [target for target in (self.gpu or {}).get("targets", ()) if target.startswith(prefix)]


def release_builds(builds: Builds, release: str) -> list[Build]:
    """Every build of a feature release that data/builds/variants.yaml lists, in its order."""
    variants = builds.variants
    sources = {source["id"]: Source(source["url"], source["title"]) for source in variants["sources"]}
    return [
        Build(
            build["variant"],
            tuple(build["platforms"]),
            tuple(build.get("pypi", ())),
            build.get("channel"),
            tuple(build["patches"]) if "patches" in build else None,
            tuple(sources[source] for source in build["sources"]),
            build.get("gpu"),
            tuple(sources[source] for source in build.get("gpu", {}).get("sources", ())),
        )
        for build in variants["releases"].get(release, {}).get("builds", ())
    ]


def sources_of(builds: list[Build]) -> dict[str, Source]:
    """The sources of some builds and of their GPU code, by URL."""
    return {source.url: source for build in builds for source in (*build.sources, *build.gpu_sources)}


def variant_of(label: str) -> str:
    """The wheel index's name of a build the previous-versions page names: CUDA 12.6 -> cu126, ROCm 6.2.4 -> rocm6.2.4,
    CPU only -> cpu; its plain `default` (the one PyPI serves, as on macOS) stays `default`."""
    kind, _, version = label.partition(" ")
    if kind == "CUDA":
        return "cu" + version.replace(".", "")
    if kind == "ROCm":
        return "rocm" + version
    return {"CPU only": "cpu", "default": "default"}.get(label, label)


@dataclass(frozen=True, slots=True)
class PatchRelease:
    """One X.Y.Z of a feature release on PyPI: its first upload day, its wheels, and what its Linux wheel carries."""

    version: str
    date: str
    wheels: dict[str, list[str]]  # platform -> Pythons
    linux: dict | None  # the measured Linux x86_64 wheel (cuda, sm, ptx, wheel, sha256), if measured
    commands: dict | None = None  # the official install commands {"pip": [...], "conda": [...]}, where recorded
    matching: MustMatch | None = None  # what must match it, where measured
    changed: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = ()  # (platform, Pythons added, dropped) since the last

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


def constructed_commands(version: str, builds: list[Build]) -> str:
    """The pip commands of one patch release made from its release's builds and the wheel index's addresses, for a
    release the previous-versions page does not list: the plain command where PyPI serves a build, then each build that
    holds for the patch release with the platforms it has wheels for. Only from 2.0 on, whose builds install with
    `--index-url`; torch alone (what must match it is listed apart)."""
    builds = [build for build in builds if not build.patches or version in build.patches]
    served = [f"{', '.join(PLATFORM_NAMES[p] for p in build.pypi)}: {build.variant}" for build in builds if build.pypi]
    lines = [f"# {version} with pip, made from the release's builds"]
    if served:
        lines += [f"# the build PyPI serves ({'; '.join(served)})", f"pip install torch=={version}"]
    platforms: dict[str, list[str]] = {}  # by variant: one index serves all its platforms
    for build in builds:
        platforms.setdefault(build.variant, []).extend(build.platforms)
    for variant, found in platforms.items():
        lines += [f"# {variant} ({', '.join(PLATFORM_NAMES[p] for p in PLATFORM_NAMES if p in found)})"]
        lines += [f"pip install torch=={version} --index-url {WHEEL_INDEX}{variant}"]
    return "\n".join(lines)


COMPANIONS = ("torchvision", "torchaudio", "torchcodec", "xformers", "torchao")  # as data/builds/requirements.json names them


@dataclass(frozen=True, slots=True)
class Match:
    """A release of a package that must match torch, with what its wheel requires of torch."""

    version: str
    requirement: str  # the Requires-Dist line, as written
    pinned: bool  # an exact pin (==), not a range


@dataclass(frozen=True, slots=True)
class MustMatch:
    """What must match one torch release (X.Y.Z), as the wheels' metadata declares it."""

    triton: tuple[str, ...]  # the triton requirement of torch's own Linux wheel (pip installs it with torch)
    companions: dict[str, tuple[Match, ...]]  # project -> the releases pinned to this torch, then the newest that accepts it

    @property
    def measured(self) -> bool:
        return bool(self.triton) or any(self.companions.values())


def must_match(builds: Builds, torch_version: str) -> MustMatch:
    """The triton torch requires, and per companion the releases whose requirement names this torch exactly, then the
    newest release whose range accepts it (a requirement with no version accepts every torch and says nothing)."""
    requirements = builds.requirements
    version = Version(torch_version)
    companions = {}
    for project in COMPANIONS:
        accepting = [match for release, facts in requirements[project].items() for match in _accepting(release, facts["torch"], version)]
        pins = [match for match in accepting if match.pinned]
        newest = max((match for match in accepting if not match.pinned), key=lambda match: Version(match.version), default=None)
        newer = newest is not None and all(Version(newest.version) > Version(pin.version) for pin in pins)
        companions[project] = (*sorted(pins, key=lambda match: Version(match.version)), *([newest] if newer else []))
    triton = tuple(requirements["torch"].get(torch_version, {}).get("triton", ()))
    return MustMatch(triton, companions)


def _accepting(release: str, lines: list[str], torch: Version) -> list[Match]:
    """The requirement lines of one companion release that accept this torch (and give a version to check)."""
    found = []
    for line in lines:
        try:
            specifier = Requirement(line).specifier
        except InvalidRequirement:
            continue
        if str(specifier) and specifier.contains(torch, prereleases=True):
            pinned = all(spec.operator in ("==", "===") and "*" not in spec.version for spec in specifier)
            found.append(Match(release, line.split(";")[0].strip(), pinned))
    return found


def uncovered_on_pypi(builds: Builds, newest_covered: Release) -> list[str]:
    """The feature releases (X.Y.0) on PyPI newer than the newest release the atlas covers, oldest first."""
    newest = newest_covered.number.release[:2]
    return [version for version in builds.pypi.get("torch", {}) if version.endswith(".0") and Version(version).release[:2] > newest]


def patch_releases(builds: Builds, release: Release) -> list[PatchRelease]:
    """Every X.Y.Z of the release on PyPI, oldest first."""
    measured = builds.wheels.get(release.version, {}).get("wheels", {})
    found, before = [], None
    for version in builds.patch_releases(release.version):
        facts = builds.pypi["torch"][version]
        changed = _wheels_changed(before, facts["wheels"]) if before is not None else ()
        commands = builds.install["versions"].get(version)
        matching = must_match(builds, version) if builds.requirements else None
        found.append(PatchRelease(version, facts["date"], facts["wheels"], measured.get(version), commands, matching, changed))
        before = facts["wheels"]
    return found


def _wheels_changed(before: dict[str, list[str]], after: dict[str, list[str]]) -> tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]:
    """Per platform, the Pythons a patch release has wheels for that the one before had not, and those it dropped."""
    changed = []
    for platform in PLATFORM_NAMES:
        had, has = set(before.get(platform, ())), set(after.get(platform, ()))
        if had != has:
            changed.append((platform, tuple(sorted(has - had, key=python_key)), tuple(sorted(had - has, key=python_key))))
    return tuple(changed)


def feed_notes(atlas: Atlas, builds: Builds, patches: dict[str, list[PatchRelease]]) -> dict[str, str]:
    """What changed in the builds, by the release whose feed entry tells it: a feature release's builds recorded on
    PyTorch's wheel index against those of the last release before it with builds recorded (a build not recorded is
    not said to be gone: the records of some releases are partial), and a patch release's wheels on PyPI against the
    patch release before it (PyPI's listing is whole)."""
    notes, before = {}, None
    for release in atlas.releases:
        variants = list(dict.fromkeys(build.variant for build in release_builds(builds, release.version)))
        if variants and before is not None:
            version, had = before
            parts = [f"recorded for {release.version}, not for {version}: {', '.join(v for v in variants if v not in had)}"]
            parts += [f"recorded for {version}, not for {release.version}: {', '.join(v for v in had if v not in variants)}"]
            parts = [part for part in parts if not part.endswith(": ")]
            if parts:
                notes[release.version] = f"Builds on PyTorch's wheel index {'; '.join(parts)}."
        before = (release.version, variants) if variants else before
        found = patches.get(release.version, [])
        for earlier, patch in itertools.pairwise(found):
            changes: dict[tuple[str, str], list[str]] = {}
            for platform, added, dropped in patch.changed:
                for pythons, verb in ((added, "added"), (dropped, "dropped")):
                    if pythons:
                        changes.setdefault((", ".join(pythons), verb), []).append(PLATFORM_NAMES[platform])
            if changes:
                told = "; ".join(f"Python {pythons} {verb} on {', '.join(names)}" for (pythons, verb), names in changes.items())
                notes[patch.version] = f"Wheels on PyPI since {earlier.version}: {told}."
    return notes


def resolver_choices(builds: Builds) -> tuple[dict[str, str], list[str]]:
    """What the resolver's form offers: the platforms torch has wheels for (by the name a reader knows), and every
    Python it has had wheels for, newest first."""
    wheels = [found for facts in builds.pypi["torch"].values() for found in facts["wheels"].items()]
    platforms = {platform for platform, _ in wheels}
    pythons = {python for _, found in wheels for python in found}
    named = {platform: name for platform, name in PLATFORM_NAMES.items() if platform in platforms}
    return named, sorted(pythons, key=python_key, reverse=True)


def compatibility_json(atlas: Atlas, builds: Builds, patches: dict[str, list[PatchRelease]], *, site_url: str) -> str:
    """The document the resolver reads (schema: data/schema/compatibility.schema.json)."""
    releases = []
    for release in atlas.newest_first:
        versions = [
            {
                "version": p.version,
                "date": p.date,
                "wheels": p.wheels,
                **({"linux": _gpu_code(p.linux)} if p.linux else {}),
                **({"commands": _official_commands(p.commands)} if p.commands else {}),
                **({"must_match": _must_match_facts(p.matching)} if p.matching and p.matching.measured else {}),
            }
            for p in reversed(patches[release.version])
        ]
        if not versions:
            continue
        companions = {c.library: c.version for c in release.companions if c.library in ("torchvision", "torchaudio")}
        page = urls.site_path(urls.release_doc(release.version))
        its_builds = [_build_facts(build) for build in release_builds(builds, release.version)]
        releases.append({"release": release.version, "page": page, "versions": versions, "companions": companions, "builds": its_builds})
    nvidia = builds.nvidia
    document = {
        "schema": urls.absolute(site_url, urls.COMPATIBILITY_SCHEMA),
        "measured": {"pypi": builds.read["date"], "platform": MEASURED_PLATFORM},
        "releases": releases,
        "drivers": nvidia["drivers"]["toolkits"],
        "minor_version_compatibility": nvidia["minor_version_compatibility"]["series"],
        "gpus": [_gpu_facts(gpu) for gpu in builds.gpus],
        "amd_gpus": [{"name": gpu["name"], "gfx": gpu["gfx"]} for gpu in builds.amd["gpus"]],
        "intel": _intel_facts(builds.intel),
        "platforms": PLATFORM_NAMES,
    }
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False) + "\n"


def _gpu_facts(gpu: Gpu) -> dict:
    """An NVIDIA GPU's name and compute capability, and the architecture the figure is inferred from where it is inferred."""
    inferred = {"architecture": gpu.architecture} if gpu.architecture else {}
    return {"name": gpu.name, "compute_capability": gpu.compute_capability, **inferred}


def _intel_facts(intel: dict) -> dict:
    """Intel's GPUs and families, and per release the families its XPU build is validated on, its page by URL."""
    return {
        "families": intel["families"],
        "gpus": [{"name": gpu["name"], "family": gpu["family"]} for gpu in intel["gpus"]],
        "releases": {release: {**entry, "source": _source_url(intel, entry["source"])} for release, entry in intel["releases"].items()},
    }


def _source_url(document: dict, source_id: str) -> str:
    """The URL of one of a build file's listed sources."""
    return next(source["url"] for source in document["sources"] if source["id"] == source_id)


def _official_commands(commands: dict) -> dict[str, str]:
    """The previous-versions page's pip command per build and system, keyed `cu126 linux` (`default macos` for the
    build it gives no name)."""
    return {f"{variant_of(row['build'])} {system}": row["command"] for row in commands.get("pip", ()) for system in row["systems"]}


def builds_json(atlas: Atlas, builds: Builds, patches: dict[str, list[PatchRelease]], *, site_url: str) -> str:
    """/api/builds.json (schema: data/schema/builds.schema.json): one record per release, build and platform, newest
    release first, each with its sources and how its GPU code is known; and per patch release on PyPI, what must
    match it."""
    drivers = {toolkit["cuda"]: toolkit for toolkit in builds.nvidia["drivers"]["toolkits"]}
    records, matching = [], {}
    for release in atlas.newest_first:
        for build in release_builds(builds, release.version):
            records += [_build_record(release.version, build, platform, drivers, builds.intel) for platform in build.platforms]
        for patch in reversed(patches[release.version]):
            if patch.matching and patch.matching.measured:
                companions = {project: [_match_facts(match) for match in found] for project, found in patch.matching.companions.items()}
                matching[patch.version] = {"triton": list(patch.matching.triton), **companions}
    document = {
        "schema": urls.absolute(site_url, urls.BUILDS_SCHEMA),
        "read": {"pypi": builds.read["date"], "requirements": builds.requirements["read"]["date"]},
        "builds": records,
        "must_match": matching,
    }
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False) + "\n"


def _build_record(release: str, build: Build, platform: str, drivers: dict[str, dict], intel: dict) -> dict:
    """One build of a release on one platform, as /api/builds.json gives it (an XPU build with the Intel GPU families
    its release's page validates it on there, from data/builds/intel.yaml)."""
    record: dict = {"release": release, "variant": build.variant, "platform": platform, "index_url": build.index_url}
    record["pypi_default"] = platform in build.pypi
    record |= {"channel": build.channel} if build.channel else {}
    record |= {"patches": list(build.patches)} if build.patches else {}
    if build.toolkit:
        record[build.toolkit[0].lower()] = build.toolkit[1]
    system = platform.partition("-")[0]
    least = drivers.get(record.get("cuda", ""), {}).get(system) if system in ("linux", "windows") else None
    record |= {"least_driver": least} if least else {}
    if build.gpu:
        gpu = {"targets": list(build.gpu["targets"]), "known": build.gpu["known"], "sources": [source.url for source in build.gpu_sources]}
        record["gpu_code"] = gpu | ({"note": build.gpu["note"]} if "note" in build.gpu else {})
    page = intel["releases"].get(release) if build.kind == "xpu" else None
    if page and (platform in page or platform in page.get("client", ())):
        client = platform in page.get("client", ())
        record["validated_on"] = {"families": page.get(platform, []), "client": client, "source": _source_url(intel, page["source"])}
    record["sources"] = [{"url": source.url, "title": source.title} for source in build.sources]
    return record


def _match_facts(match: Match) -> dict:
    return {"version": match.version, "requirement": match.requirement, "pinned": match.pinned}


def _must_match_facts(matching: MustMatch) -> dict[str, list[str]]:
    """What must match a patch release, for the resolver: the triton requirement without its markers, and per
    companion the versions (pinned first, then the newest that accepts it)."""
    companions = {project: [match.version for match in matches] for project, matches in matching.companions.items() if matches}
    return {"triton": [line.split(";")[0].strip() for line in matching.triton], **companions}


def _build_facts(build: Build) -> dict:
    """What the resolver needs of a build: where it runs, where it comes from, and its GPU code as architecture
    numbers (sm_86 and compute_86 -> 86; gfx targets as written)."""
    facts: dict = {"variant": build.variant, "platforms": list(build.platforms), "index": build.index_url}
    facts |= {"pypi": list(build.pypi)} if build.pypi else {}
    facts |= {"channel": build.channel} if build.channel else {}
    facts |= {"patches": list(build.patches)} if build.patches else {}
    if build.toolkit:
        facts[build.toolkit[0].lower()] = build.toolkit[1]
    if build.gpu:
        sm = sorted({int(target[3:]) for target in build.targets("sm_") if target[3:].isdigit()})
        ptx = sorted(int(target[8:]) for target in build.targets("compute_"))
        facts["gpu"] = {"sm": sm, "ptx": ptx, "gfx": build.targets("gfx"), "known": build.gpu["known"]}
    return facts


def _gpu_code(linux: dict) -> dict:
    """What the resolver needs of a measured wheel: its CUDA version (absent for a CPU-only build) and architectures."""
    found = {"sm": linux["sm"], "ptx": linux["ptx"]}
    if linux.get("cuda"):
        found["cuda"] = ".".join(linux["cuda"].split(".")[:2])
    return found
