"""`make must-match`: what each torch release requires of triton, and what each release of the packages that must
match torch (torchvision, torchaudio, torchcodec, xformers, torchao) requires of torch, as their wheels declare it.

The `Requires-Dist` lines are read from each wheel's `*.dist-info/METADATA` without downloading the wheel: HTTP range
requests fetch the zip's central directory and then the one member (tools/wheelzip.py). Lines are kept exactly as
written and never evaluated here. Writes data/builds/requirements.json, one release per line.
"""

from __future__ import annotations

import json
import re
import sys
import urllib.parse
from datetime import UTC, datetime

from tools.builds.pypi import LISTING_URL, PROJECT_DIR, RELEASE, WHEEL, fetch_listing
from tools.builds.wheels import linux_wheel
from tools.wheelzip import RemoteZip, ZipError

REQUIREMENTS_FILE = PROJECT_DIR / "data" / "builds" / "requirements.json"
COMPANIONS = ("torchvision", "torchaudio", "torchcodec", "xformers", "torchao")
COMPANION_RELEASE = re.compile(r"^\d+(\.\d+)+(\.post\d+)?$")  # final releases, post releases included (xformers pins with them)
MAX_METADATA = 1 << 24  # 16 MiB: a METADATA file is a few KB, its long description included
METADATA = re.compile(r"^[^/]+\.dist-info/METADATA$")


def wheel_metadata(url: str) -> str:
    """The METADATA text of the wheel at `url`, read with byte ranges (zip64 archives included)."""
    wheel = RemoteZip(url)
    name = next((name for name in wheel.members if METADATA.match(name)), None)
    if name is None:
        raise ZipError(f"{url}: no *.dist-info/METADATA")
    return wheel.read(name, max_size=MAX_METADATA).decode("utf-8", "replace")


def requires(metadata: str, name: str) -> list[str]:
    """The `Requires-Dist` lines of a METADATA header that name the package `name` (or contain it, for triton, which
    some releases require as pytorch-triton), exactly as written."""
    header = re.split(r"\r?\n\r?\n", metadata, maxsplit=1)[0]
    lines = [line.split(":", 1)[1].strip() for line in header.splitlines() if line.lower().startswith("requires-dist:")]
    return [line for line in lines if _package(line) == name or (name == "triton" and "triton" in _package(line))]


def _package(requirement: str) -> str:
    """The normalised name of the package a requirement line names."""
    found = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement)
    return re.sub(r"[-_.]+", "-", found.group(0)).lower() if found else ""


def companion_wheel(files: list[dict]) -> dict | None:
    """The wheel whose METADATA stands for a companion release: its one pure-Python wheel, else the Linux x86_64 wheel
    pip takes on CPython 3.11, else its first wheel."""
    wheels = [file for file in files if WHEEL.match(file["filename"]) and not file.get("yanked")]
    pure = [file for file in wheels if WHEEL.match(file["filename"])["platform"] == "any"]
    if pure:
        return pure[0]
    try:
        return linux_wheel(wheels)
    except LookupError:
        return wheels[0] if wheels else None


def _torch_wheel(files: list[dict]) -> dict | None:
    """The Linux x86_64 wheel `pip install torch` takes, whose METADATA names the triton it needs; None without one."""
    try:
        return linux_wheel(files)
    except LookupError:
        return None


def read_release(wheel: dict | None, name: str, project: str, files: list[dict]) -> dict:
    """What one release's wheel requires of `name`: its file name and the lines (none when it declares nothing); a
    release whose every wheel PyPI has yanked (pip no longer takes it) says so instead."""
    if wheel is None:
        return {"wheel": None, name: [], **({"yanked": True} if any(file.get("yanked") for file in files) else {})}
    url = urllib.parse.urljoin(LISTING_URL.format(project=project), wheel["url"])
    return {"wheel": wheel["filename"], name: requires(wheel_metadata(url), name)}


def measure(listings: dict[str, dict]) -> dict:
    """The document of data/builds/requirements.json, from PyPI's listings of torch and its companions."""
    torch = {
        version: read_release(_torch_wheel(files), "triton", "torch", files)
        for version, files in listings["torch"]["releases"].items()
        if RELEASE.match(version) and files and any(WHEEL.match(f["filename"]) for f in files)
    }
    companions = {
        project: {
            version: read_release(companion_wheel(files), "torch", project, files)
            for version, files in listings[project]["releases"].items()
            if COMPANION_RELEASE.match(version) and files
        }
        for project in COMPANIONS
    }
    how = "python -m tools.builds.requirements (make must-match): Requires-Dist of each wheel's METADATA, read by byte range"
    return {"read": {"from": LISTING_URL, "date": datetime.now(UTC).date().isoformat(), "by": how}, "torch": torch, **companions}


def dumps(document: dict) -> str:
    """The file's text: sorted, one release per line, so a new reading shows as a short diff."""
    lines = ["{", f' "read": {json.dumps(document["read"], sort_keys=True)},']
    projects = ("torch", *COMPANIONS)
    for number, project in enumerate(projects):
        releases = document[project]
        lines.append(f' "{project}": {{')
        lines += [
            f"  {json.dumps(version)}: {json.dumps(releases[version], sort_keys=True)}," for version in sorted(releases, key=_version_key)
        ]
        lines[-1] = lines[-1].rstrip(",")
        lines.append(" }" + ("," if number < len(projects) - 1 else ""))
    return "\n".join(lines) + "\n}\n"


def _version_key(version: str) -> tuple:
    return tuple(int(part) if part.isdigit() else -1 for part in re.split(r"[.]post|\.", version))


def main() -> int:
    listings = {project: fetch_listing(project) for project in ("torch", *COMPANIONS)}
    text = dumps(measure(listings))
    stored = REQUIREMENTS_FILE.read_text(encoding="utf-8") if REQUIREMENTS_FILE.exists() else ""
    if re.sub(r'"date": "[^"]*"', "", stored) == re.sub(r'"date": "[^"]*"', "", text):
        print(f"{REQUIREMENTS_FILE.relative_to(PROJECT_DIR)}: unchanged")
        return 0
    REQUIREMENTS_FILE.write_text(text, encoding="utf-8")
    print(f"wrote {REQUIREMENTS_FILE.relative_to(PROJECT_DIR)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
