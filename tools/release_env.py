"""A throw-away virtualenv with one torch release from PyPI, for the tools that run code on a release (`make examples`, `make api`)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PYENV_ROOT = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv") / "versions"  # pyenv's own variable, as pyenv reads it
# The Python each release's environment uses: the newest that has a torch wheel for Linux x86_64 on PyPI
# and that this machine's pyenv carries; numpy stays below 2 where the release was built against numpy 1.
PYTHON_FOR = {
    **dict.fromkeys(("1.0", "1.1", "1.2", "1.3", "1.4"), "3.7"),
    **dict.fromkeys(("1.5", "1.6", "1.7", "1.8", "1.9", "1.10"), "3.8"),
    **dict.fromkeys(("1.11", "1.12", "1.13", "2.0"), "3.10"),
    **dict.fromkeys(("2.1", "2.2", "2.3", "2.4", "2.5", "2.6", "2.7", "2.8", "2.9", "2.10"), "3.11"),
    **dict.fromkeys(("2.11", "2.12", "2.13", "2.14", "2.15"), "3.11"),
}
NUMPY_FOR = {
    **dict.fromkeys(PYTHON_FOR, "numpy<2"),
    **dict.fromkeys(("2.4", "2.5", "2.6", "2.7", "2.8", "2.9", "2.10", "2.11", "2.12", "2.13", "2.14", "2.15"), "numpy"),
}


MIN_FREE_BYTES = 8 * 2**30  # the largest environment (a CUDA build of torch with its nvidia-* wheels) is under 6 GB


def free_bytes() -> int:
    """Free space where the environments and pip's cache go."""
    return min(shutil.disk_usage(tempfile.gettempdir()).free, shutil.disk_usage(Path.home()).free)


def log(message: str) -> None:
    """Progress on stderr, with the time."""
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def interpreter(version: str) -> Path:
    """The pyenv Python chosen for a release, such as ~/.pyenv/versions/3.8.18/bin/python."""
    wanted = PYTHON_FOR[version]
    found = sorted(PYENV_ROOT.glob(f"{wanted}.*/bin/python"))
    if not found:
        raise SystemExit(f"torch {version} needs Python {wanted}; install it with `pyenv install {wanted}`")
    return found[-1]


class ReleaseEnvironment:
    """A throw-away virtualenv with one torch release (`torch==X.Y.0` and its numpy unless a subclass installs otherwise);
    deleted on exit. `keep_pip_cache` lets pip reuse downloads (the nvidia-* wheels that several releases share);
    `pypi_only` installs the wheel PyPI itself serves, whatever the machine's pip configuration adds (a local folder of
    other builds, such as a CPU-only wheel, would otherwise be taken first)."""

    def __init__(self, version: str, *, keep_pip_cache: bool = False, pypi_only: bool = False, torch: str | None = None) -> None:
        self.version = version
        self.keep_pip_cache = keep_pip_cache
        self.pypi_only = pypi_only
        self.torch_wanted = torch or f"torch=={version}.0"  # or another build of it: a wheel's path or URL
        self.folder = Path(tempfile.mkdtemp(prefix=f"atlas-torch-{version}-"))
        self.python = self.folder / "bin" / "python"

    def __enter__(self) -> ReleaseEnvironment:
        try:
            self._install()
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    def _install(self) -> None:
        """Create the virtualenv and install the release's X.Y.0 wheel into it."""
        self.create()
        packages = [self.torch_wanted, NUMPY_FOR[self.version]]
        log(f"installing {' '.join(packages)} with Python {PYTHON_FOR[self.version]}")
        self.pip_install(packages, check=True)
        self.probe()

    def create(self) -> None:
        """Create the virtualenv with the release's Python, if the disk has room for it."""
        if free_bytes() < MIN_FREE_BYTES:
            raise SystemExit(f"not making torch {self.version}'s environment: less than {MIN_FREE_BYTES // 2**30} GB free on the disk")
        subprocess.run([str(interpreter(self.version)), "-m", "venv", str(self.folder)], check=True)

    def pip_install(self, requirements: list[str], *, check: bool) -> bool:
        """`pip install` into the environment; whether it succeeded (raises CalledProcessError on failure with `check`)."""
        cache = [] if self.keep_pip_cache else ["--no-cache-dir"]
        command = [str(self.python), "-m", "pip", "install", "--quiet", *cache, "--disable-pip-version-check", *requirements]
        environment = None
        if self.pypi_only:
            environment = {name: value for name, value in os.environ.items() if not name.startswith("PIP_")}
            environment["PIP_CONFIG_FILE"] = os.devnull
        return subprocess.run(command, check=check, env=environment).returncode == 0

    def probe(self) -> None:
        """Read the installed torch and Python versions and the environment's size, and log them."""
        probe = "import sys, torch; print(torch.__version__.split('+')[0], '%d.%d.%d' % sys.version_info[:3])"
        self.torch, self.python_version = subprocess.run(
            [str(self.python), "-c", probe], check=True, capture_output=True, text=True
        ).stdout.split()
        self.size_mb = sum(path.stat().st_size for path in self.folder.rglob("*") if path.is_file()) // 2**20
        log(f"torch {self.torch} on Python {self.python_version}, {self.size_mb} MB")
