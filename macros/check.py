"""Check the data without building the site: `python -m macros.check [--record-published] [data-dir]`.

Prints every mistake as `file:line: field: message` (a broken published URL among them), then the
features followed across several releases, each translation that is stale (its English changed) or
missing, any likely duplicate ids (one feature under two ids) and any `torch.…` name an entry cites
that the measured API index says its release did not have (the truth check, macros/views/api_truth.py),
and exits non-zero on any of them. It also suggests, without failing, the features that several
releases announce without a record and the entries that probably belong to a record but name none.
`--record-published` adds the URLs the site now serves to the registry.
"""

from __future__ import annotations

import sys
from pathlib import Path

from macros.data.api_catalog import load_catalog
from macros.data.yamlfile import DataErrors
from macros.render.registry import REGISTRY_NAME, write_registry
from macros.render.site import generate_checked
from macros.views.api_truth import contradictions, unknown_record_apis
from macros.views.indexes import feature_histories
from macros.views.joins import likely_duplicates, likely_records

DEFAULT_DATA_DIR = Path(__file__).resolve().parent.parent / "data"


def main(argv: list[str]) -> int:
    """Validate the data folder and look for missed joins; exit status 1 when either finds a problem."""
    record = "--record-published" in argv
    folders = [arg for arg in argv if arg != "--record-published"]
    data_dir = Path(folders[0]) if folders else DEFAULT_DATA_DIR
    try:
        site = generate_checked(data_dir, site_url="/", check_published=not record)
        if record:
            print(f"{write_registry(data_dir, site.published)} URLs added to {data_dir / REGISTRY_NAME}")
            return 0
        catalog = load_catalog(data_dir)
    except DataErrors as errors:
        print(errors, file=sys.stderr)
        return 1
    atlas = site.atlas
    features = sum(len(r.features) for r in atlas.releases)
    changes = sum(len(r.changes) for r in atlas.releases)
    print(f"{len(atlas.releases)} releases, {features} features, {changes} changes: no mistakes found")
    joined = [lc for lc in site.lifecycles.values() if lc.has_history]
    print(f"{len(joined)} features followed across several releases:")
    for lifecycle in joined:
        print(f"  {lifecycle.id}: " + " -> ".join(f"{s.stage} {s.version}" for s in lifecycle.stages))
    failed = False
    if catalog is None:
        print("no API index yet (data/api/index.json): run `make api` to measure the releases; cited names not checked")
    else:
        contradicted = contradictions(atlas, catalog)
        if contradicted:
            heading = f"{len(contradicted)} cited names that the measured API index contradicts (fix the text, or list a name\n"
            _report(heading + "the entry cites on purpose in its `absent_apis`):", contradicted, failing=True)
            failed = True
        else:
            print(f"every torch name the entries cite is in the API of its release ({len(catalog.releases) - len(catalog.gaps)} measured)")
        unknown = unknown_record_apis(atlas, catalog)
        if unknown:
            _report(f"{len(unknown)} APIs of feature records that no measured release has (correct or remove them):", unknown, failing=True)
            failed = True
        else:
            print(f"every API the feature records list is in the measured index ({sum(len(r.apis) for r in atlas.records)} names)")
    for edition in site.editions.values():
        if edition.coverage is None:
            continue
        print(edition.coverage.report())
        if edition.unknown_words:
            heading = f"{len(edition.unknown_words)} interface texts without a {edition.language} translation:"
            _report(heading, [repr(word) for word in sorted(edition.unknown_words)], failing=True)
            failed = True
        untranslated = [*(("stale", f, k) for f, k in edition.coverage.stale), *(("missing", f, k) for f, k in edition.coverage.missing)]
        if untranslated:
            where = f"data/translations/{edition.language}"
            heading = (
                f"{len(untranslated)} texts whose {edition.language} translation is stale or missing (translate them in {where}/;\n"
                f"`python -m tools.translations {edition.language} <folder>` lists them with their English):"
            )
            _report(heading, [f"{where}/{file}.yaml: {key}: {state}" for state, file, key in untranslated], failing=True)
            failed = True
    unrecorded = [history.record.id for history in feature_histories(atlas, site.lifecycles).values() if not history.recorded]
    if unrecorded:  # their pages are named after their latest entry until then
        heading = f"{len(unrecorded)} features that several releases announce have no record: give each one in data/features.yaml\n"
        _report(heading + "(its own name and what it is), or name the record its entries belong to with `feature: <id>`:", unrecorded)
    unattached = likely_records(atlas)
    if unattached:
        heading = f"{len(unattached)} entries that probably belong to a feature record but name none (give each `feature: <id>`\n"
        _report(heading + "if it is about that feature, or list the pair in data/distinct.yaml with the reason it is not):", unattached)
    duplicates = likely_duplicates(atlas)
    if duplicates:
        heading = f"{len(duplicates)} likely duplicate ids: give one feature one id (old ids in `aliases`),\n"
        _report(heading + "or list the pair in data/distinct.yaml with the reason they differ:", duplicates, failing=True)
        return 1
    return 1 if failed else 0


def _report(heading: str, items: list, *, failing: bool = False) -> None:
    """A finding: its heading, then each item indented on a line of its own; on standard error when it fails the check."""
    stream = sys.stderr if failing else sys.stdout
    print(heading, file=stream)
    for item in items:
        print(f"  {item}", file=stream)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
