"""Measure each torch release's public API: `python -m tools.api.extract [--again] [VERSION ...]` (`make api`).

For each release, one at a time (newest first unless versions are given): make a throw-away virtualenv with the
release's X.Y.0 wheel as PyPI serves it, whatever local wheels the machine's pip configuration adds
(`tools/release_env.py`, as `make examples` does; pip's cache is kept so the
nvidia-* wheels that several releases share download once), run `worker.py` in it, write the surface to
data/api/surfaces/<version>.json.gz with its provenance, and delete the environment. A release that already has
a surface is skipped unless `--again` is given; a surface equal to the stored one but for its date leaves the
file untouched. `--cpu WHEEL X.Y` measures instead the CPU-only build of one release from its wheel (a path, or a URL
on PyTorch's CPU index) into data/api/surfaces/<X.Y>+cpu.json.gz, so that the index can tell the names that only
PyPI's CUDA build has (`make api-cpu`). If the worker process dies (a crash or a hang while importing a module), it runs again with that
module marked as crashed.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import subprocess
import sys
import time
from datetime import date
from pathlib import Path
from typing import Any

from tools.builds.pypi import PYPI_FILE
from tools.release_env import PYTHON_FOR, ReleaseEnvironment, free_bytes, log

PROJECT_DIR = Path(__file__).resolve().parents[2]
SURFACES_DIR = PROJECT_DIR / "data" / "api" / "surfaces"
WORKER = Path(__file__).resolve().parent / "worker.py"
WORKER_TIMEOUT_SECONDS = 1800
MAX_CRASHES = 10
MIN_FREE_BYTES = 20 * 2**30  # stop before a release's downloads (and pip's cache) could leave less than this on the disk


def release_versions() -> list[str]:
    """Every feature release the atlas has a file for or PyPI's stored listing has (a new release is measured before
    its file is written), oldest first."""
    names = {path.stem for path in (PROJECT_DIR / "data" / "releases").glob("*.yaml")}
    if PYPI_FILE.exists():
        torch = json.loads(PYPI_FILE.read_text(encoding="utf-8"))["projects"]["torch"]
        names |= {".".join(version.split(".")[:2]) for version in torch}
    return sorted(names, key=lambda version: tuple(map(int, version.split("."))))


def surface_path(version: str, surfaces_dir: Path = SURFACES_DIR, build: str = "") -> Path:
    """Where a release's surface is stored (`build` "cpu": its CPU-only build's)."""
    return surfaces_dir / f"{version}{'+' + build if build else ''}.json.gz"


def encode(document: dict[str, Any]) -> bytes:
    """Deterministic gzip of compact, key-sorted JSON (no name, mtime 0): the same document gives the same bytes."""
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, compresslevel=9, mtime=0) as packed:
        packed.write(json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))
    return buffer.getvalue()


def read_surface(path: Path) -> dict[str, Any]:
    """A stored surface."""
    return json.loads(gzip.decompress(path.read_bytes()))


def undated(document: dict[str, Any]) -> dict[str, Any]:
    """A surface without its measurement date, for comparing two measurements."""
    return {**document, "provenance": {k: v for k, v in document["provenance"].items() if k != "date"}}


def store(document: dict[str, Any], path: Path) -> bool:
    """Write a surface unless the stored one equals it but for the date; whether the file was written."""
    if path.exists():
        try:
            if undated(read_surface(path)) == undated(document):
                return False
        except (OSError, ValueError, KeyError):
            pass  # unreadable: write it anew
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(encode(document))
    return True


def surface_document(version: str, measured: dict[str, Any], today: str, wheel: str | None = None) -> dict[str, Any]:
    """The stored form of one release's surface: its provenance, its modules and its names (`wheel`: the file of
    another build that was measured, rather than PyPI's)."""
    provenance = {
        "release": version,
        "requirement": wheel.rpartition("/")[2] if wheel else f"torch=={version}.0",
        "torch": measured["version"],
        "python": measured["python"],
        "platform": measured["platform"],
        "method": measured["method"],
        "tool": measured["tool"],
        "stubs": measured["stubs"],
        "date": today,
    }
    if wheel and Path(wheel).is_file():
        provenance["sha256"] = hashlib.sha256(Path(wheel).read_bytes()).hexdigest()
    return {"provenance": provenance, "modules": measured["modules"], "names": measured["names"]}


def measure(
    python: Path | str,
    package: str = "torch",
    *,
    timeout: float = WORKER_TIMEOUT_SECONDS,
    cwd: Path | None = None,
    path: Path | None = None,
) -> dict[str, Any]:
    """Run the worker under `python` (isolated: neither this folder nor user site-packages on its path, `path` first if
    given); a module whose import kills or hangs the process is marked as crashed and the worker runs again."""
    skip: list[str] = []
    where = ["--path", str(path)] if path else []
    while True:
        command = [str(python), "-I", str(WORKER), package, *where, *[arg for name in skip for arg in ("--skip", name)]]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=cwd)
            stdout, stderr, status = done.stdout, done.stderr, done.returncode
        except subprocess.TimeoutExpired as expired:
            stdout, status = "", "a time-out"
            stderr = expired.stderr.decode(errors="replace") if isinstance(expired.stderr, bytes) else expired.stderr or ""
        if status == 0 and stdout:
            measured = json.loads(stdout)
            measured["modules"].update(dict.fromkeys(skip, "crashed"))
            return measured
        steps = [line for line in stderr.splitlines() if line.startswith(("importing ", "measuring the names"))]
        module = steps[-1].removeprefix("importing ") if steps and steps[-1].startswith("importing ") else None
        if module is None or module in skip or len(skip) >= MAX_CRASHES:
            raise RuntimeError(f"the worker ended with {status}: {stderr.strip()[-1000:]}")
        log(f"the worker ended with {status} while importing {module}; measuring again without it")
        skip.append(module)


def extract(version: str, today: str, cpu_wheel: str | None = None) -> bool:
    """Measure one release (or, given its wheel, its CPU-only build) and store its surface; whether it succeeded."""
    started = time.monotonic()
    try:
        with ReleaseEnvironment(version, keep_pip_cache=True, pypi_only=True, torch=cpu_wheel) as env:
            installed = time.monotonic()
            measured = measure(env.python, cwd=env.folder)
    except (subprocess.CalledProcessError, RuntimeError, ValueError) as error:
        log(f"torch {version}: FAILED after {time.monotonic() - started:.0f} s: {error}")
        return False
    if cpu_wheel and not measured["version"].endswith("+cpu"):
        log(f"torch {version}: {cpu_wheel} installed {measured['version']}, not a CPU-only build")
        return False
    if measured["version"].endswith("+cpu") and not cpu_wheel:
        log(
            f"torch {version}: a CPU build ({measured['version']}), not a CUDA one as PyPI's other Linux wheels are: "
            "CUDA-only names will look removed in this release"
        )
    document = surface_document(version, measured, today, cpu_wheel)
    path = surface_path(version, build="cpu" if cpu_wheel else "")
    written = store(document, path)
    names, modules = document["names"], document["modules"]
    failed = sorted(name for name, error in modules.items() if error)
    log(
        f"torch {version} ({measured['version']}, Python {measured['python']}): {len(names)} public names, "
        f"{len(modules)} modules ({len(failed)} failed to import{': ' + ', '.join(failed) if failed else ''}); "
        f"environment {env.size_mb} MB; install {installed - started:.0f} s, measure {time.monotonic() - installed:.0f} s, "
        f"total {time.monotonic() - started:.0f} s; {path.relative_to(PROJECT_DIR)} "
        f"{'written, ' + str(path.stat().st_size) + ' bytes' if written else 'unchanged'}"
    )
    return True


def main(argv: list[str]) -> int:
    """Measure the given releases (default: every release without a surface, newest first)."""
    again = "--again" in argv
    known = release_versions()
    if "--cpu" in argv:
        rest = [arg for arg in argv if arg not in ("--cpu", "--again")]
        if len(rest) != 2 or rest[1] not in known:
            raise SystemExit("usage: python -m tools.api.extract --cpu WHEEL X.Y (the CPU-only build of one release)")
        return 0 if extract(rest[1], date.today().isoformat(), cpu_wheel=rest[0]) else 1
    versions = [arg for arg in argv if arg != "--again"] or known[::-1]
    unknown = [version for version in versions if version not in known or version not in PYTHON_FOR]
    if unknown:
        raise SystemExit(
            f"{', '.join(unknown)}: not on PyPI's stored listing (make pypi) nor in data/releases/, or no Python chosen for it"
            " (PYTHON_FOR and NUMPY_FOR in tools/release_env.py)"
        )
    todo = [version for version in versions if again or not surface_path(version).exists()]
    if len(todo) < len(versions):
        log(f"already measured (AGAIN=1 measures them again): {', '.join(v for v in versions if v not in todo)}")
    today, started, failed = date.today().isoformat(), time.monotonic(), []
    for version in todo:
        if free_bytes() < MIN_FREE_BYTES:
            log(f"stopping before torch {version}: less than {MIN_FREE_BYTES // 2**30} GB free")
            failed.extend(todo[todo.index(version) :])
            break
        if not extract(version, today):
            failed.append(version)
    log(
        f"{len(todo) - len(failed)} of {len(todo)} releases measured in {time.monotonic() - started:.0f} s"
        + (f"; failed: {', '.join(failed)}" if failed else "")
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
