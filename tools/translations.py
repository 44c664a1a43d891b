"""Write what is left to translate: `python -m tools.translations <language> <folder>`.

For each data file with a missing or stale translation, `<folder>/<file>.yaml` lists those fields with the English
text (`en`), the hash to record (`from`), the stale translation (`was`) and an empty slot for the new one. A translator
fills the slot; `python -m tools.translations <language> <folder> --merge` moves every filled slot into
`data/translations/<language>/` (with its hash, without the English) and leaves the rest to do.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

from macros.data.glossary import read_glossary
from macros.data.loading import load_atlas
from macros.data.texts import text_hash, visible_texts
from macros.data.translations import coverage, load_translations, translation_dir
from macros.data.yamlfile import DataError, DataErrors

DATA_DIR = Path(__file__).resolve().parents[1] / "data"


def write_todo(data_dir: Path, language: str, folder: Path) -> int:
    """Write the fields left to translate into `folder`; return how many there are."""
    atlas = load_atlas(data_dir)
    texts = visible_texts(atlas)
    errors: list[DataError] = []
    glossary = read_glossary(translation_dir(data_dir, language), data_dir, atlas.labels.order, errors)
    translations, problems = load_translations(data_dir, language, texts, glossary)
    errors += problems
    if errors:
        raise DataErrors(errors)
    state = coverage(language, texts, translations)
    todo: dict[str, dict] = {}
    for file, key in (*state.stale, *state.missing):
        english = texts[file][key]
        entry = {"from": text_hash(english), "en": english}
        if key in translations.get(file, {}):
            entry["was"] = translations[file][key].text
        todo.setdefault(file, {})[key] = entry | {language: ""}
    for file, entries in todo.items():
        path = folder / f"{file}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_dump(entries), encoding="utf-8")
    return sum(map(len, todo.values()))


def merge_todo(data_dir: Path, language: str, folder: Path) -> int:
    """Move the filled slots of `folder` into the translations; return how many moved."""
    moved = 0
    for path in sorted(folder.rglob("*.yaml")):
        entries = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        filled = {key: {"from": e["from"], language: e[language]} for key, e in entries.items() if e.get(language)}
        if not filled:
            continue
        target = translation_dir(data_dir, language) / path.relative_to(folder)
        kept = yaml.safe_load(target.read_text(encoding="utf-8")) if target.exists() else {}
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_dump((kept or {}) | filled), encoding="utf-8")
        left = {key: e for key, e in entries.items() if key not in filled}
        path.write_text(_dump(left), encoding="utf-8") if left else path.unlink()
        moved += len(filled)
    return moved


def _dump(entries: dict) -> str:
    return yaml.safe_dump(entries, allow_unicode=True, sort_keys=False, width=100)


def main(argv: list[str]) -> int:
    """Write (or with --merge, merge) the fields left to translate."""
    args = [arg for arg in argv if arg != "--merge"]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    language, folder = args[0], Path(args[1])
    try:
        if "--merge" in argv:
            print(f"{merge_todo(DATA_DIR, language, folder)} translations merged into {translation_dir(DATA_DIR, language)}")
        else:
            print(f"{write_todo(DATA_DIR, language, folder)} texts to translate, in {folder}")
    except DataErrors as errors:
        print(errors, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
