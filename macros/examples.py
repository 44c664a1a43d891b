"""Run every code block on the release it documents: `python -m macros.examples [--again] [VERSION ...]` (`make examples`).

For each torch release a block needs, one at a time: make a throw-away virtualenv with a Python that the
release has wheels for, install `torch==X.Y.*` from PyPI, run or check each block in its own process
(`example_worker.py`, with a timeout), then delete the environment. An example and a change's `after`
run on their own release, a change's `before` on the release before it. The outcome of every block is
written to data/examples/<version>.yaml, keyed by the block's content hash, and shown on the site. Blocks whose
current result passed are not run again unless `--again` is given.
"""

from __future__ import annotations

import json
import platform
import subprocess
import sys
import time
from collections import defaultdict
from datetime import date
from pathlib import Path

import yaml

from .exports import as_data
from .loading import load_atlas
from .model import Atlas, BlockResult, CodeBlock, Release
from .release_env import NUMPY_FOR, PYTHON_FOR, ReleaseEnvironment, log

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
WORKER = Path(__file__).resolve().parent / "example_worker.py"
BLOCK_TIMEOUT_SECONDS = 240
NOT_PYTHON = {"cpp": "C++ code: not run", "java": "Java code: not run", "shell": "shell commands: not run"}
REQUIREMENT_WORDS = {  # what a block needs, as "needs ..." reads on the page
    "cuda": "CUDA",
    "mps": "an Apple GPU",
    "xpu": "an Intel GPU",
    "distributed": "several processes",
    "context": "objects defined outside the block",
    "network": "the network",
    "packages": "other software",
    "compiler": "a GPU compiler toolchain",
    "source-build": "a part the PyPI wheels leave out",
}
OLD_PILLOW = {"1.0", "1.1", "1.2", "1.3"}  # torchvision before 0.5 imports PILLOW_VERSION, which Pillow 7 removed


class Environment(ReleaseEnvironment):
    """A throw-away virtualenv with one torch release (`torch==X.Y.*`) and the companions its blocks import; deleted on exit."""

    def __init__(self, version: str, companions: dict[str, str]) -> None:
        super().__init__(version)
        self.companions = companions

    def _install(self) -> None:
        """Create the virtualenv and install torch (and companions) into it."""
        self.create()
        packages = [f"torch=={self.version}.*", NUMPY_FOR[self.version]]
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

    def check(self, block: CodeBlock, run_on: str) -> tuple[str, str]:
        """Run (or, for a block that needs what this machine lacks, name-check) one block; return outcome and detail."""
        mode = "names" if block.requires else "run"
        command = [str(self.python), str(WORKER), mode, run_on, block.raises or ""]
        try:
            done = subprocess.run(command, input=block.code, capture_output=True, text=True, timeout=BLOCK_TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            return "failed", f"still running after {BLOCK_TIMEOUT_SECONDS} s"
        lines = done.stdout.strip().splitlines()
        if not lines:
            return "failed", f"the process ended with status {done.returncode}: {done.stderr.strip()[-300:]}"
        report = json.loads(lines[-1])
        if report["outcome"] == "names-checked":
            needs = " and ".join(REQUIREMENT_WORDS[word] for word in block.requires)
            return "names-checked", f"needs {needs}; {report['detail']}"
        return report["outcome"], report["detail"]


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


def companions_needed(atlas: Atlas, version: str, blocks: list[tuple[str, CodeBlock]]) -> dict[str, str]:
    """The companion libraries that the blocks import, at the versions paired with this release."""
    paired = {c.library: c.version for c in atlas.release(version).companions}
    imported = {name for _, block in blocks for name in paired if f"import {name}" in block.code or f"from {name}" in block.code}
    return {library: paired[library] for library in sorted(imported)}


def result_of(block: CodeBlock, outcome: str, detail: str, env: Environment | None, today: str) -> BlockResult:
    """One block's result as recorded in data/examples/."""
    return BlockResult(
        item=block.item,
        role=block.role,
        hash=block.hash,
        outcome=outcome,
        detail=detail,
        torch=env.torch if env else None,
        python=env.python_version if env else None,
        date=today,
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
    versions = [arg for arg in argv if arg != "--again"]
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
                    with Environment(version, companions_needed(atlas, version, python_blocks)) as env:
                        peak_mb = max(peak_mb, env.size_mb)
                        for owner, block in python_blocks:
                            outcome, detail = env.check(block, version)
                            log(f"{owner} {block.item} {block.role}: {outcome}: {detail}")
                            results[owner][block.item, block.role] = result_of(block, outcome, detail, env, today)
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
