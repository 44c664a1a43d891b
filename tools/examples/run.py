"""Run every code block on the release it documents: `python -m tools.examples.run [--again] [--keep] [VERSION ...]` (`make examples`).

For each torch release a block needs, one at a time: make a throw-away virtualenv with a Python that the
release has wheels for, install `torch==X.Y.*` from PyPI (and the packages its blocks name), run or check each
block in its own process (`worker.py`, with a timeout; a distributed block in several local processes, as
torchrun would start them), then delete the environment. A block that cannot run here is compiled, its torch names
resolved in the installed torch and its keyword arguments held to the release's measured signatures
(data/api/surfaces/). An example and a change's `after` run on their own release, a change's `before` on the release
before it. The outcome of every block is written to data/examples/<version>.yaml, keyed by the block's content hash,
and shown on the site. Blocks whose current result passed are not run again unless `--again` is given. `--keep`
keeps each environment (in the temporary directory, as atlas-examples-<version>-for-<the releases asked for>) and
reuses it on the next run with the same releases, for trying edits to a release's blocks quickly; remove those
folders when done.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import yaml

from macros.data.loading import load_atlas
from macros.data.model import Atlas, BlockResult, CodeBlock, Release
from macros.render.exports import as_data
from tools.api.extract import read_surface, surface_path
from tools.release_env import NUMPY_FOR, PYTHON_FOR, ReleaseEnvironment, log

DATA_DIR = Path(__file__).resolve().parents[2] / "data"
WORKER = Path(__file__).resolve().parent / "worker.py"
BLOCK_TIMEOUT_SECONDS = 240
NOT_PYTHON = {"cpp": "C++ code: not run", "java": "Java code: not run", "shell": "shell commands: not run"}
REQUIREMENT_WORDS = {  # what a block needs, as "needs ..." reads on the page
    "cuda": "CUDA",
    "mps": "an Apple GPU",
    "xpu": "an Intel GPU",
    "distributed": "several machines or processes",
    "network": "the network",
    "packages": "software pip cannot install here",
    "compiler": "a GPU compiler toolchain",
    "source-build": "a part the PyPI wheels leave out",
}
OLD_PILLOW = {"1.0", "1.1", "1.2", "1.3"}  # torchvision before 0.5 imports PILLOW_VERSION, which Pillow 7 removed


@dataclass(frozen=True, slots=True)
class Report:
    """What the worker found for one block (in one process)."""

    outcome: str
    detail: str
    checks: int = 0
    calls: tuple[tuple[str, tuple[str, ...]], ...] = ()
    torch: str = ""  # the torch version the block imported, if it did


class Environment(ReleaseEnvironment):
    """A throw-away virtualenv with one torch release (`torch==X.Y.*`), the companions its blocks import and the
    packages they name; deleted on exit."""

    def __init__(self, version: str, companions: dict[str, str], packages: list[str], *, keep: str = "") -> None:
        super().__init__(version)
        self.companions = companions
        self.packages = packages
        self.keep = keep
        if keep:  # named after the run's releases too, so that two runs for different releases never share one
            shutil.rmtree(self.folder)
            self.folder = Path(tempfile.gettempdir()) / f"atlas-examples-{version}-for-{keep}"
            self.python = self.folder / "bin" / "python"

    def __exit__(self, *exc: object) -> None:
        if not self.keep:
            super().__exit__()

    def _install(self) -> None:
        """Create the virtualenv (unless a kept one is there) and install torch (and companions and packages) into it."""
        if not self.python.exists():
            self.create()
        packages = [f"torch=={self.version}.*", NUMPY_FOR[self.version], *self.packages]
        paired = [f"{library}=={version.split(' / ')[0]}" for library, version in self.companions.items()]
        if "torchvision" in self.companions and self.version in OLD_PILLOW:
            packages.append("pillow<7")
        log(f"installing {' '.join(packages + paired)} with Python {PYTHON_FOR[self.version]}")
        if not self.pip_install([*packages, *paired], check=False):
            # a paired version whose wheel requires another torch (torchvision 0.4.1 asks for torch 1.3.0): let pip pick one
            log(f"{' '.join(paired)} does not install beside torch {self.version}; letting pip choose the companion versions")
            self.pip_install([*packages, *self.companions], check=True)
        if self.companions:
            freeze = subprocess.run([str(self.python), "-m", "pip", "freeze"], capture_output=True, text=True).stdout.split()
            log("companions: " + ", ".join(line for line in freeze if line.split("==")[0] in self.companions))
        self.probe()

    def check(self, block: CodeBlock, run_on: str) -> tuple[str, str, int]:
        """Run (or, for a block that needs what this machine lacks, check statically) one block; return its outcome, a
        detail and the number of claims checked."""
        if block.requires:
            report = self.work(block, run_on, "names")
            if report.outcome != "names-checked":
                return report.outcome, report.detail, 0
            needs = " and ".join(REQUIREMENT_WORDS[word] for word in block.requires)
            problem, found = keyword_problems(report.calls, run_on)
            if problem:
                return "failed", problem, 0
            return "names-checked", f"needs {needs}; compiles with Python {PYTHON_FOR[run_on]}, {report.detail}{found}", 0
        reports = self.run_together(block, run_on) if block.processes > 1 else [self.work(block, run_on, "run")]
        for rank, report in enumerate(reports):
            if report.outcome == "failed":
                return "failed", (f"process {rank}: " if len(reports) > 1 else "") + report.detail, 0
        report = reports[0]
        if report.outcome == "ran" and not report.checks and block.unchecked:
            return "ran", f"nothing to check: {block.unchecked}", 0
        return report.outcome, report.detail, report.checks

    def request(self, block: CodeBlock, run_on: str, mode: str) -> str:
        """The worker's input: the block, its setup and what it claims."""
        setup = block.setup.code if block.setup else ""
        claims = {"raises": block.raises or "", "warns": block.warns or ""}
        return json.dumps({"mode": mode, "version": run_on, "code": block.code, "setup": setup, **claims})

    def work(self, block: CodeBlock, run_on: str, mode: str) -> Report:
        """Run the worker on one block in one process."""
        command = [str(self.python), str(WORKER)]
        try:
            request = self.request(block, run_on, mode)
            done = subprocess.run(command, input=request, capture_output=True, text=True, timeout=BLOCK_TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            return Report("failed", f"still running after {BLOCK_TIMEOUT_SECONDS} s")
        return self.verified(parse_report(done.stdout, done.returncode, done.stderr))

    def verified(self, report: Report) -> Report:
        """The report, or a failure when the block imported another torch than the environment's (its folder gone)."""
        if report.torch and report.torch != self.torch:
            return Report("failed", f"the block imported torch {report.torch}, not the environment's {self.torch}")
        return report

    def run_together(self, block: CodeBlock, run_on: str) -> list[Report]:
        """Run a block in `block.processes` local processes at once, with the environment torchrun gives each (rank,
        world size, a free port on the loopback interface), so that the Gloo backend connects them."""
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        size = block.processes
        shared = {"MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(port), "WORLD_SIZE": str(size), "LOCAL_WORLD_SIZE": str(size)}
        shared |= {"GLOO_SOCKET_IFNAME": "lo", "TP_SOCKET_IFNAME": "lo"}
        request = self.folder / "request.json"
        request.write_text(self.request(block, run_on, "run"), encoding="utf-8")
        started = []
        for rank in range(size):
            environment = os.environ | shared | {"RANK": str(rank), "LOCAL_RANK": str(rank)}
            with request.open("rb") as stdin:
                pipes = {"stdin": stdin, "stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
                started.append(subprocess.Popen([str(self.python), str(WORKER)], text=True, env=environment, **pipes))
        deadline, reports = time.monotonic() + BLOCK_TIMEOUT_SECONDS, []
        for process in started:
            try:
                stdout, stderr = process.communicate(timeout=max(1.0, deadline - time.monotonic()))
                reports.append(self.verified(parse_report(stdout, process.returncode, stderr)))
            except subprocess.TimeoutExpired:
                reports.append(Report("failed", f"still running after {BLOCK_TIMEOUT_SECONDS} s"))
        for process in started:
            if process.poll() is None:
                process.kill()
                process.wait()
        return reports


def parse_report(stdout: str, status: int, stderr: str) -> Report:
    """The worker's report: the last line it printed."""
    lines = stdout.strip().splitlines()
    if not lines:
        return Report("failed", f"the process ended with status {status}: {stderr.strip()[-300:]}")
    found = json.loads(lines[-1])
    calls = tuple((name, tuple(keywords)) for name, keywords in found["calls"])
    return Report(found["outcome"], found["detail"], found["checks"], calls, found["torch"])


def keyword_problems(calls: tuple[tuple[str, tuple[str, ...]], ...], version: str) -> tuple[str | None, str]:
    """Hold each call's keyword arguments to the signatures measured for the release (`make api`); return the first
    keyword the callee lacks (or None) and what was checked, as the end of a detail."""
    path = surface_path(version)
    if not path.exists():
        return None, ""
    names = read_surface(path)["names"]
    checked = 0
    for name, keywords in calls:
        params = (names.get(name) or {}).get("params")
        if not params or any(kind == "var_keyword" for _, kind, _ in params):
            continue  # a callee whose parameters were not measured, or that takes any keyword
        accepted = {parameter for parameter, kind, _ in params if kind != "positional_only"}
        for keyword in keywords:
            if keyword not in accepted:
                return f"{name} takes no keyword argument '{keyword}' in torch {version}", ""
            checked += 1
    return None, f", {checked} keyword argument{'' if checked == 1 else 's'} found in its signatures" if checked else ""


def blocks_by_environment(atlas: Atlas, wanted: set[str], again: bool) -> dict[str, list[tuple[str, CodeBlock]]]:
    """For each torch release to install: the (release the block belongs to, block) pairs that run on it; a block
    that passed with its current text is left out unless `again`."""
    plan: dict[str, list[tuple[str, CodeBlock]]] = defaultdict(list)
    for previous, release in zip((None, *atlas.releases[:-1]), atlas.releases, strict=True):
        if release.version not in wanted:
            continue
        for block in release.code_blocks():
            found = release.result(block.item, block.role)
            if found and found.outcome != "failed" and not again:
                continue
            runs_on = previous.version if block.role == "before" and previous else release.version
            plan[runs_on].append((release.version, block))
    return plan


def packages_needed(blocks: list[tuple[str, CodeBlock]]) -> list[str]:
    """The PyPI packages that the blocks name, in a stable order."""
    return sorted({package for _, block in blocks for package in block.packages})


def companions_needed(atlas: Atlas, version: str, blocks: list[tuple[str, CodeBlock]]) -> dict[str, str]:
    """The companion libraries that the blocks import, at the versions paired with this release."""
    paired = {c.library: c.version for c in atlas.release(version).companions}
    imported = {name for _, block in blocks for name in paired if f"import {name}" in block.code or f"from {name}" in block.code}
    return {library: paired[library] for library in sorted(imported)}


def result_of(block: CodeBlock, outcome: str, detail: str, env: Environment | None, today: str, checks: int | None = None) -> BlockResult:
    """One block's result as recorded in data/examples/."""
    ran = outcome in ("ran", "raised")
    return BlockResult(
        item=block.item,
        role=block.role,
        hash=block.hash,
        outcome=outcome,
        detail=detail,
        torch=env.torch if env else None,
        python=env.python_version if env else None,
        date=today,
        checks=checks if ran else None,
        processes=block.processes if ran and block.processes > 1 else None,
    )


def write_results(data_dir: Path, release: Release, found: dict[tuple[str, str], BlockResult]) -> None:
    """Write one release's results file: the results it has for its current blocks, in page order."""
    path = data_dir / "examples" / f"{release.version}.yaml"
    path.parent.mkdir(exist_ok=True)
    document = {
        "release": release.version,
        "machine": f"{platform.system()} {platform.machine()}, CPU only",
        "blocks": [as_data(found[b.item, b.role]) for b in release.code_blocks() if (b.item, b.role) in found],
    }
    header = "# Written by `make examples`: the outcome of running each code block of this release. Do not edit by hand.\n"
    path.write_text(header + yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=120), encoding="utf-8")


def main(argv: list[str]) -> int:
    """Check the blocks of the given releases (default: every release) that have no current result, and write the results files."""
    again = "--again" in argv
    versions = [arg for arg in argv if arg not in ("--again", "--keep")]
    keep = "+".join(sorted(versions) or ["all"]) if "--keep" in argv else ""
    atlas = load_atlas(DATA_DIR)
    wanted = set(versions) or {r.version for r in atlas.releases}
    unknown = wanted - {r.version for r in atlas.releases}
    if unknown:
        raise SystemExit(f"no release file for {', '.join(sorted(unknown))}")
    today = date.today().isoformat()
    results: dict[str, dict[tuple[str, str], BlockResult]] = defaultdict(dict)
    for release in atlas.releases:  # results still current are kept until the block runs again
        results[release.version] = {(b.item, b.role): found for b in release.code_blocks() if (found := release.result(b.item, b.role))}
    started, peak_mb = time.monotonic(), 0
    plan = blocks_by_environment(atlas, wanted, again)
    try:
        for version in sorted(plan, key=lambda v: tuple(map(int, v.split(".")))):
            blocks = plan[version]
            for owner, block in blocks:
                if block.language != "python":
                    results[owner][block.item, block.role] = result_of(block, "not-run", NOT_PYTHON[block.language], None, today)
            python_blocks = [(owner, block) for owner, block in blocks if block.language == "python"]
            if python_blocks:
                try:
                    companions = companions_needed(atlas, version, python_blocks)
                    with Environment(version, companions, packages_needed(python_blocks), keep=keep) as env:
                        peak_mb = max(peak_mb, env.size_mb)
                        for owner, block in python_blocks:
                            outcome, detail, checks = env.check(block, version)
                            log(f"{owner} {block.item} {block.role}: {outcome}: {detail}")
                            results[owner][block.item, block.role] = result_of(block, outcome, detail, env, today, checks)
                except subprocess.CalledProcessError as error:
                    log(f"torch {version}: the environment could not be made ({error}); its blocks count as failed")
                    reason = f"torch {version} could not be installed"
                    for owner, block in python_blocks:
                        results[owner][block.item, block.role] = result_of(block, "failed", reason, None, today)
    finally:  # every checked release's file, also after an interruption; results of removed blocks are dropped
        for release in atlas.releases:
            if release.version in wanted and release.code_blocks():
                write_results(DATA_DIR, release, results[release.version])
    checked = [result for blocks in plan.values() for owner, block in blocks if (result := results[owner].get((block.item, block.role)))]
    failed = sum(result.outcome == "failed" for result in checked)
    log(f"{len(checked)} blocks checked, {failed} failed, in {time.monotonic() - started:.0f} s; largest environment {peak_mb} MB")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
