"""`make new-release VERSION=X.Y`: the draft of a release's data file from what a machine can read.

It fills in, each with its source, the day of the release's first upload and the Pythons its wheels are for (PyPI's
stored listing, `data/builds/pypi.json`), the companion libraries PyPI received within a week of it, and, from the
measured API index (`make api`), the names the release no longer has as candidate removals, one per module. What needs
a person (the headline, the features and their labels, which candidates the release notes confirm) is left as a
`TODO(new-release)`, which the build refuses (macros/data/loading.py), so a draft is never published by accident.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from datetime import date
from pathlib import Path

from macros.data.api_catalog import load_catalog
from macros.data.loading import DRAFT_TODO
from macros.views.api_reference import Reference
from tools.builds.pypi import version_key

PROJECT_DIR = Path(__file__).resolve().parents[2]
COMPANIONS = ("torchvision", "torchaudio")
COMPANION_WINDOW_DAYS = 7  # a companion release uploaded this soon after torch's is taken as published with it
MAX_NAMES_SHOWN = 8  # removed names spelled out in one candidate change; the rest are counted
KEEP_IF_LISTED = "keep this entry only if the release notes list the change, with their source, else delete it"


def files_url(project: str, version: str) -> str:
    """PyPI's page of one release's files: what the draft cites for facts read from PyPI's listing."""
    return f"https://pypi.org/project/{project}/{version}/#files"


def first_release(version: str, listing: dict) -> tuple[str, dict]:
    """The X.Y.0 release of a feature release in PyPI's stored listing, and its facts."""
    full = f"{version}.0"
    if full not in listing["projects"]["torch"]:
        raise SystemExit(f"PyPI's stored listing (data/builds/pypi.json) has no torch {full}: run `make pypi` first")
    return full, listing["projects"]["torch"][full]


def pythons(facts: dict) -> tuple[list[str], list[str]]:
    """The Pythons the release has wheels for on any platform: regular ones, and free-threaded ones ("3.13t" -> "3.13")."""
    found = {python for wheels in facts["wheels"].values() for python in wheels}
    regular = sorted((p for p in found if not p.endswith("t")), key=version_key)
    free = sorted((p.removesuffix("t") for p in found if p.endswith("t")), key=version_key)
    return regular, free


def companions_published_with(day: str, listing: dict) -> list[tuple[str, str]]:
    """Each companion library's release first uploaded on the day of torch's, or within a week after it."""
    start = date.fromisoformat(day)
    found = []
    for library in COMPANIONS:
        releases = listing["projects"].get(library, {})
        near = [v for v, f in releases.items() if 0 <= (date.fromisoformat(f["date"]) - start).days <= COMPANION_WINDOW_DAYS]
        if near:
            found.append((library, min(near, key=version_key)))
    return found


def removed_by_module(version: str, data_dir: Path) -> dict[str, list[str]]:
    """The public names the release's measured API no longer has, by module (empty when `make api` has not measured it)."""
    catalog = load_catalog(data_dir)
    if catalog is None or version not in catalog.releases or not catalog.measured[catalog.releases.index(version)]:
        return {}
    grouped: dict[str, list[str]] = defaultdict(list)
    for name in Reference.of(catalog).changed_in(version)[1]:
        grouped[name.parent].append(name.leaf)
    return dict(sorted(grouped.items()))


def _quoted(text: str) -> str:
    """A YAML double-quoted scalar (JSON's string syntax is a subset of it)."""
    return json.dumps(text, ensure_ascii=False)


def _todo(what: str) -> str:
    return _quoted(f"{DRAFT_TODO}: {what}")


def _candidate(module: str, names: list[str], source: str) -> list[str]:
    shown = ", ".join(f"`{name}`" for name in names[:MAX_NAMES_SHOWN])
    more = f" and {len(names) - MAX_NAMES_SHOWN} more" if len(names) > MAX_NAMES_SHOWN else ""
    return [
        f"  - id: removed-from-{module.replace('.', '-').replace('_', '-').lower()}",
        "    kind: removal",
        f"    title: {_todo(f'the names that left `{module}`, as the release notes name the change')}",
        f"    summary: {_todo(f'no longer public in `{module}`: {shown}{more}; {KEEP_IF_LISTED}')}",
        f"    sources: [{source}]",
    ]


def draft(version: str, data_dir: Path, *, today: str) -> str:
    """The text of the draft data file of a feature release."""
    listing = json.loads((data_dir / "builds" / "pypi.json").read_text(encoding="utf-8"))
    full, facts = first_release(version, listing)
    torch_files = files_url("torch", full)
    regular, free = pythons(facts)
    companions = companions_published_with(facts["date"], listing)
    removed = removed_by_module(version, data_dir)
    lines = [
        f"# Draft of the PyTorch {version} record, written by `make new-release VERSION={version}` on {today}.",
        "# Read by machine, each with its source: the day of the first upload and the Pythons of the wheels on PyPI, the",
        "# companion releases PyPI received within a week, and candidate removals from the measured API (`make api`).",
        f"# Each {DRAFT_TODO} is for a person; the build refuses this file until none is left (docs/contributing.md).",
        f'version: "{version}"',
        f"title: {_todo('a short headline, from the release announcement')}",
        f"summary: {_todo('two or three sentences on the release, from its announcement')}",
        f"released: {{date: {facts['date']}, source: {torch_files}}}",
        "python:",
        f"  versions: {json.dumps(regular)}",
        *([f"  free_threaded: {json.dumps(free)}"] if free else []),
        f"  source: {torch_files}",
    ]
    if companions:
        lines.append("companions:")
        for library, companion in companions:
            lines += [f"  - library: {library}", f'    version: "{companion}"', f"    source: {files_url(library, companion)}"]
    lines += [
        "coverage:",
        "  changes: partial",
        f"  note: {_todo('which official texts were read in full (announcement, release notes), or what could not be read')}",
        "highlights: []",
        "sources:",
        f"  - {{url: {torch_files}, title: {_quoted(f'torch {full} wheel files (PyPI)')}}}",
        *(
            f"  - {{url: {files_url(library, companion)}, title: {_quoted(f'{library} {companion} wheel files (PyPI)')}}}"
            for library, companion in companions
        ),
        "features:",
        "  - id: new-feature",
        f"    title: {_todo('a feature of the announcement, one entry each; give it the id of its earlier entries or record')}",
        "    stability: Unlabeled",
        f"    summary: {_todo('what it is, in your own words, with the label exactly as the announcement gives it')}",
        f"    sources: [{torch_files}]",
    ]
    if removed:
        lines += [
            "# Candidates: the modules whose public names the measured API of this release no longer has.",
            "changes:",
        ]
        for module, names in removed.items():
            lines += _candidate(module, names, torch_files)
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write data/releases/X.Y.yaml as a draft, unless a file is already there."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("version", help="the feature release, such as 2.16")
    parser.add_argument("--data-dir", type=Path, default=PROJECT_DIR / "data")
    args = parser.parse_args(argv)
    target = args.data_dir / "releases" / f"{args.version}.yaml"
    if target.exists():
        print(f"{target} exists already: the draft is only for a release the atlas does not have", file=sys.stderr)
        return 1
    text = draft(args.version, args.data_dir, today=date.today().isoformat())
    target.write_text(text, encoding="utf-8")
    todos = text.count(DRAFT_TODO)
    print(f"wrote {target}: {todos} to-dos ({DRAFT_TODO}) for a person; `make check` lists each with its line")
    return 0


if __name__ == "__main__":
    sys.exit(main())
