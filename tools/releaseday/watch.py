"""The weekly check (`.github/workflows/new-release.yml`): does PyPI have a torch release the atlas does not?

It compares PyPI's listing of torch (fetched, or a stored copy given with `--listing`) with the release files under
`data/releases/` and the stored listing `data/builds/pypi.json`, and reports a new feature release (it needs a data
file: `make new-release`) and new patch releases (they need `make pypi` and `make wheels`). With `--github-output` it
also writes `version=` (the newest feature release without a file, or empty) and the issue's text for the workflow.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tools.builds.pypi import fetch_listing, summarize, version_key

PROJECT_DIR = Path(__file__).resolve().parents[2]


def feature_release(version: str) -> str:
    """`2.15.1` -> `2.15`."""
    return ".".join(version.split(".")[:2])


def missing_releases(listing: dict, data_dir: Path) -> tuple[list[str], list[str]]:
    """The feature releases PyPI has (as X.Y.0) that have no data file, and the patch releases of covered feature
    releases that the stored listing does not have yet, oldest first."""
    on_pypi = list(summarize(listing["releases"]))  # final releases with files, oldest first
    files = {path.stem for path in (data_dir / "releases").glob("*.yaml")}
    newest_covered = max(files, key=version_key)
    stored = json.loads((data_dir / "builds" / "pypi.json").read_text(encoding="utf-8"))["projects"]["torch"]
    new_features = [
        feature_release(v)
        for v in on_pypi
        if v.endswith(".0") and feature_release(v) not in files and version_key(feature_release(v)) > version_key(newest_covered)
    ]
    new_patches = [v for v in on_pypi if not v.endswith(".0") and feature_release(v) in files and v not in stored]
    return new_features, new_patches


def issue_text(new_features: list[str], new_patches: list[str]) -> str:
    """What the workflow's issue says: what PyPI has, and the commands that bring it into the atlas."""
    lines = []
    for version in new_features:
        lines += [
            f"PyTorch {version}.0 is on PyPI and the atlas has no `data/releases/{version}.yaml`.",
            "",
            f"Run `make new-release VERSION={version}`: it reads PyPI's files again, measures the release's API and its",
            "Linux wheel, and writes a draft whose to-dos the build refuses until they are filled from the release's",
            'announcement and notes (docs/contributing.md, "A new release"). The draft made here, from PyPI\'s listing',
            "alone, is below.",
            "",
        ]
    if new_patches:
        lines += [
            f"Patch releases on PyPI that `data/builds/pypi.json` does not list yet: {', '.join(new_patches)}.",
            'Run `make pypi`, then `make wheels RELEASES="' + " ".join(sorted({feature_release(v) for v in new_patches})) + '"`.',
            "",
        ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Report what PyPI has that the atlas lacks; exit 0 either way (finding a release is not a failure)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listing", type=Path, help="a stored copy of https://pypi.org/pypi/torch/json (default: fetch it)")
    parser.add_argument("--data-dir", type=Path, default=PROJECT_DIR / "data")
    parser.add_argument("--github-output", type=Path, help="the file GitHub Actions reads step outputs from")
    args = parser.parse_args(argv)
    listing = json.loads(args.listing.read_text(encoding="utf-8")) if args.listing else fetch_listing("torch")
    new_features, new_patches = missing_releases(listing, args.data_dir)
    text = issue_text(new_features, new_patches)
    print(text or "The atlas has every torch release on PyPI.")
    if args.github_output:
        with args.github_output.open("a", encoding="utf-8") as output:
            output.write(f"version={new_features[-1] if new_features else ''}\n")
            output.write(f"patches={' '.join(new_patches)}\n")
            output.write(f"issue<<ATLAS_ISSUE_TEXT\n{text}\nATLAS_ISSUE_TEXT\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
