"""Check the data without building the site: `python -m macros.check [data-dir]` prints every mistake, file:line: field: message."""

from __future__ import annotations

import sys
from pathlib import Path

from .loading import load_atlas
from .yamlfile import DataErrors

DEFAULT_DATA_DIR = Path(__file__).resolve().parent.parent / "data"


def main(argv: list[str]) -> int:
    """Validate the data folder; exit status 1 when it holds a mistake."""
    data_dir = Path(argv[0]) if argv else DEFAULT_DATA_DIR
    try:
        atlas = load_atlas(data_dir)
    except DataErrors as errors:
        print(errors, file=sys.stderr)
        return 1
    features = sum(len(r.features) for r in atlas.releases)
    changes = sum(len(r.changes) for r in atlas.releases)
    print(f"{len(atlas.releases)} releases, {features} features, {changes} changes: no mistakes found")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
