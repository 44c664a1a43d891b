"""What PyPI holds for a project, by release: `python -m tools.builds.pypi` writes data/builds/pypi.json.

PyPI's JSON listing (https://pypi.org/pypi/<project>/json) names every file; a wheel's name carries its Python tag,
its ABI tag (`cp313t` for a free-threaded build) and its platform. Kept per release: the day of its first upload and,
per platform, the Pythons it has wheels for (`3` for a wheel that serves any Python 3). Yanked files are left out.
"""

from __future__ import annotations

import json
import re
import sys
import urllib.request
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

from macros.data.builds_catalog import python_key, version_key

PROJECT_DIR = Path(__file__).resolve().parents[2]
PYPI_FILE = PROJECT_DIR / "data" / "builds" / "pypi.json"
PROJECTS = ("torch", "torchvision", "torchaudio")
LISTING_URL = "https://pypi.org/pypi/{project}/json"
WHEEL = re.compile(r"^(?P<name>[^-]+)-(?P<version>[^-]+)(?:-\d[^-]*)?-(?P<python>[^-]+)-(?P<abi>[^-]+)-(?P<platform>[^-]+)\.whl$")
RELEASE = re.compile(r"^\d+\.\d+\.\d+$")  # final releases only: no rc, dev or post
PLATFORMS = (  # a wheel's platform tag, as a reader says it
    (re.compile(r"manylinux.*_x86_64|linux_x86_64"), "linux-x86_64"),
    (re.compile(r"manylinux.*_aarch64|linux_aarch64"), "linux-aarch64"),
    (re.compile(r"win_amd64"), "windows-x86_64"),
    (re.compile(r"win_arm64"), "windows-arm64"),
    (re.compile(r"macosx_.*_arm64"), "macos-arm64"),
    (re.compile(r"macosx_.*_x86_64"), "macos-x86_64"),
)


def platform_of(tag: str) -> str | None:
    """A wheel's platform tag as `os-architecture` (several tags joined by dots: the first known one)."""
    for part in tag.split("."):
        for pattern, name in PLATFORMS:
            if pattern.fullmatch(part):
                return name
    return None


def python_of(python: str, abi: str) -> str | None:
    """`cp311`/`cp311` -> `3.11`; a free-threaded ABI (`cp313t`) -> `3.13t`; a wheel for any Python 3 (`py3`/`none`,
    as torchvision 0.29.2's are) -> `3`; anything else -> None."""
    if python == "py3" and abi == "none":
        return "3"
    found = re.fullmatch(r"cp(\d)(\d+)", python)
    if not found:
        return None
    return f"{found[1]}.{found[2]}" + ("t" if abi.endswith("t") else "")


class ListingError(ValueError):
    """A listing from PyPI that is not shaped as PyPI writes it: which project, release, file and field."""


UPLOAD_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T[0-9:.]+Z?$")


def checked_files(project: str, version: str, files: object) -> list[dict]:
    """A release's files from the listing, each with a string `filename` and an ISO `upload_time_iso_8601`; a file
    otherwise shaped is refused with the project, release, file and field (names and times are data: never run)."""
    if not isinstance(files, list):
        raise ListingError(f"{project} {version}: expected a list of files, found {type(files).__name__}")
    for number, file in enumerate(files):
        where = f"{project} {version}: file {number}"
        if not isinstance(file, dict):
            raise ListingError(f"{where}: expected an object, found {type(file).__name__}")
        if not isinstance(file.get("filename"), str):
            raise ListingError(f"{where}: filename: expected a string")
        if not isinstance(file.get("upload_time_iso_8601"), str) or not UPLOAD_TIME.match(file["upload_time_iso_8601"]):
            raise ListingError(f"{where} ({file['filename']!r}): upload_time_iso_8601: expected an ISO 8601 time")
    return files


def summarize(files_by_version: dict[str, Iterable[dict]], project: str = "") -> dict[str, dict]:
    """Per final release: `date` (first upload, UTC) and `wheels` {platform: [python, ...]}, newest release last."""
    summary = {}
    for version in sorted((v for v in files_by_version if RELEASE.match(v)), key=version_key):
        files = [f for f in checked_files(project, version, files_by_version[version]) if not f.get("yanked")]
        if not files:
            continue
        wheels: dict[str, set[str]] = {}
        for file in files:
            found = WHEEL.match(file["filename"])
            platform = found and platform_of(found["platform"])
            python = found and python_of(found["python"], found["abi"])
            if platform and python:
                wheels.setdefault(platform, set()).add(python)
        first = min(file["upload_time_iso_8601"] for file in files)
        summary[version] = {
            "date": first[:10],
            "wheels": {platform: sorted(pythons, key=python_key) for platform, pythons in sorted(wheels.items())},
        }
    return summary


def fetch_listing(project: str) -> dict:
    """PyPI's JSON listing of a project (every release and its files)."""
    with urllib.request.urlopen(LISTING_URL.format(project=project), timeout=120) as response:
        return json.load(response)


def document(listings: dict[str, dict], read_on: str) -> dict:
    """The file data/builds/pypi.json: how it was read, then each project's releases."""
    return {
        "read": {"from": LISTING_URL, "date": read_on, "by": "python -m tools.builds.pypi (make builds)"},
        "projects": {project: summarize(_releases(project, listing), project) for project, listing in sorted(listings.items())},
    }


def _releases(project: str, listing: object) -> dict:
    """The listing's `releases`, refused with the project when the listing has none."""
    if not isinstance(listing, dict) or not isinstance(listing.get("releases"), dict):
        raise ListingError(f'{project}: the listing has no "releases" object')
    return listing["releases"]


def write(document_: dict, path: Path = PYPI_FILE) -> bool:
    """Write the file if its releases or the day of the reading changed (the site says when PyPI was last checked);
    whether it was written."""
    if path.exists() and json.loads(path.read_text(encoding="utf-8")) == document_:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(document_), encoding="utf-8")
    return True


def dumps(document_: dict) -> str:
    """The document as JSON with one release per line: small, and a new release is a one-line diff."""
    compact = {"separators": (",", ":"), "sort_keys": True}
    projects = []
    for project, releases in sorted(document_["projects"].items()):
        lines = ",\n".join(f"   {json.dumps(version)}:{json.dumps(facts, **compact)}" for version, facts in releases.items())
        projects.append(f"  {json.dumps(project)}:{{\n{lines}\n  }}")
    body = ",\n".join(projects)
    return f'{{\n "projects":{{\n{body}\n }},\n "read":{json.dumps(document_["read"], **compact)}\n}}\n'


def main() -> int:
    listings = {project: fetch_listing(project) for project in PROJECTS}
    try:
        written = write(document(listings, datetime.now(UTC).date().isoformat()))
    except ListingError as error:
        print(f"make pypi: PyPI's listing of {error} (nothing written)", file=sys.stderr)
        return 2
    count = sum(len(releases) for releases in document(listings, "")["projects"].values())
    print(f"{PYPI_FILE.relative_to(PROJECT_DIR)}: {count} releases of {', '.join(PROJECTS)}" + ("" if written else " (unchanged)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
