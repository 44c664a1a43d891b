"""Measure what each release's PyPI wheel for Linux x86_64 was built for: `python -m tools.builds.wheels [--again]
[VERSION ...]` (`make wheels`), one release at a time; writes data/builds/wheels/<X.Y>.json.

For a release X.Y, the X.Y.0 wheel that `pip install torch` takes on Linux x86_64 (CPython 3.11 where it exists,
else the newest CPython it has), and that of its newest patch release, is downloaded from PyPI to a temporary file
and checked against PyPI's sha256. Its `torch/version.py` gives the CUDA (or ROCm) version it was built with, and the
fat binaries of the `torch/lib` library that carries the most device code (where torch's own kernels are) give the
GPU architectures it has code for (`fatbin.py`). The wheel is deleted; the file records which wheel, its digest, the
tool and the day. A release that already has a file is skipped unless `--again` is given; a measurement equal to the
stored one but for its day leaves the file untouched.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import re
import sys
import tempfile
import urllib.parse
import urllib.request
import zipfile
from datetime import UTC, datetime
from pathlib import Path

from tools.api.extract import PROJECT_DIR, release_versions
from tools.builds.fatbin import device_code
from tools.builds.pypi import LISTING_URL, RELEASE, WHEEL, fetch_listing, python_key, python_of, version_key

WHEELS_DIR = PROJECT_DIR / "data" / "builds" / "wheels"
PREFERRED_PYTHON = "3.11"
LIBRARY = re.compile(r"^torch/lib/[^/]+\.so(\.[0-9.]+)?$")
CHUNK = 1 << 22


def linux_wheel(files: list[dict]) -> dict:
    """The Linux x86_64 CPython wheel pip takes on CPython 3.11, else on the newest CPython the release has."""
    candidates = {}
    for file in files:
        found = WHEEL.match(file["filename"])
        if found and "x86_64" in found["platform"] and "linux" in found["platform"] and not file.get("yanked"):
            python = python_of(found["python"], found["abi"])
            if python and not python.endswith("t"):
                candidates[python] = file
    if not candidates:
        raise LookupError("no Linux x86_64 CPython wheel")
    return candidates.get(PREFERRED_PYTHON) or candidates[max(candidates, key=python_key)]


def built_with(version_py: str) -> dict[str, str]:
    """`cuda` and `hip` from a wheel's torch/version.py (assignments of string literals), where set."""
    found = {}
    for node in ast.parse(version_py).body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        value = getattr(node, "value", None)
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            found |= {target.id: value.value for target in targets if isinstance(target, ast.Name) and target.id in ("cuda", "hip")}
    return found


def measure_wheel(path: Path) -> dict:
    """What the wheel at `path` was built with and the GPU architectures its libraries carry code for."""
    main, code = None, None
    with zipfile.ZipFile(path) as wheel:
        facts = built_with(wheel.read("torch/version.py").decode("utf-8"))
        for name in wheel.namelist():
            if LIBRARY.match(name):
                found = device_code(wheel.read(name))
                if found.size and (code is None or found.size > code.size):
                    main, code = name, found
    if code is None:
        return {**facts, "sm": [], "ptx": []}
    return {**facts, "library": main, "sm": sorted(code.cubins), "ptx": sorted(code.ptx)}


def download(file: dict, listing_url: str, into: Path) -> Path:
    """Download a listed file and check its sha256; the path of the copy."""
    target = into / file["filename"]
    digest = hashlib.sha256()
    with urllib.request.urlopen(urllib.parse.urljoin(listing_url, file["url"]), timeout=600) as response, target.open("wb") as out:
        while chunk := response.read(CHUNK):
            digest.update(chunk)
            out.write(chunk)
    if digest.hexdigest() != file["digests"]["sha256"]:
        raise ValueError(f"{file['filename']}: sha256 differs from PyPI's")
    return target


def patch_releases(version: str, listing: dict) -> list[str]:
    """X.Y.0 and the newest X.Y.Z after it on PyPI (the one pip takes for `torch==X.Y.*`), oldest first."""
    found = [v for v in listing["releases"] if RELEASE.match(v) and v.startswith(f"{version}.") and listing["releases"][v]]
    newest = max(found, key=version_key)
    return sorted({f"{version}.0", newest}, key=version_key)


def measure_file(file: dict) -> dict:
    """Download one listed wheel to a temporary folder, measure it, and delete it."""
    with tempfile.TemporaryDirectory(prefix="atlas-wheel-") as scratch:
        facts = measure_wheel(download(file, LISTING_URL.format(project="torch"), Path(scratch)))
    return {"wheel": file["filename"], "sha256": file["digests"]["sha256"], **facts}


def measure_release(version: str, listing: dict) -> dict:
    """The measured facts of feature release X.Y's Linux wheels (X.Y.0 and its newest patch release), with how."""
    wheels = {release: measure_file(linux_wheel(listing["releases"][release])) for release in patch_releases(version, listing)}
    return {
        "release": version,
        "wheels": wheels,
        "measured": {
            "by": "python -m tools.builds.wheels (make builds): torch/version.py, and the fat binaries of the library named",
            "date": datetime.now(UTC).date().isoformat(),
        },
    }


def write(version: str, measured: dict, wheels_dir: Path = WHEELS_DIR) -> bool:
    """Store a release's measurement unless it equals the stored one but for its date; whether it was written."""
    path = wheels_dir / f"{version}.json"
    if path.exists():
        stored = json.loads(path.read_text(encoding="utf-8"))
        if {**stored, "measured": None} == {**measured, "measured": None}:
            return False
    wheels_dir.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(measured, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--again", action="store_true", help="measure releases that already have a file")
    parser.add_argument("versions", nargs="*", help="feature releases such as 2.6 (default: every release)")
    args = parser.parse_args(argv)
    versions = args.versions or release_versions()
    listing = fetch_listing("torch")
    failed = []
    for version in versions:
        if not args.again and (WHEELS_DIR / f"{version}.json").exists():
            continue
        try:
            measured = measure_release(version, listing)
        except (LookupError, KeyError, ValueError, OSError, zipfile.BadZipFile) as error:
            print(f"{version}: not measured: {error}", file=sys.stderr)
            failed.append(version)
            continue
        written = write(version, measured)
        for release, wheel in measured["wheels"].items():
            shown = f"CUDA {wheel['cuda']}" if wheel.get("cuda") else "no CUDA"
            print(f"{release}: {wheel['wheel']}: {shown}, sm {wheel['sm']}, PTX {wheel['ptx']}" + ("" if written else " (unchanged)"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
