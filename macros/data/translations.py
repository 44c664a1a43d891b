"""The translations kept beside the data (`data/translations/<language>/`), read, checked and held against the English.

One translation file per data file that has visible text (`releases/1.10.yaml`, `features.yaml`, ...), a mapping from
field key (macros/data/texts.py) to `{from: <hash of the English text>, zh: <the translation>}`. A translation is
current while its `from` matches the English text; after an English edit it is stale (listed by `make check`, and the
page shows the English with a note); a text with no translation is missing, which the build refuses.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from macros.data.glossary import GLOSSARY, Glossary
from macros.data.markup import markup_problem, tokens
from macros.data.remembered import Remembered, remembered_or_new
from macros.data.texts import text_hash
from macros.data.yamlfile import DataError, read_yaml

TRANSLATIONS = "translations"
INTERFACE = "interface"  # a folder of catalogs: English interface text -> its translation
SCRIPTS = "scripts"  # the catalog of the browser scripts' text (interface/scripts.yaml), published with the edition


@dataclass(frozen=True, slots=True)
class Translation:
    """One field's text in another language, and the hash of the English text it was made from."""

    text: str
    made_from: str


@dataclass(frozen=True)
class Coverage:
    """How a language's translations stand against the English texts: `texts` are all the keys, by file."""

    language: str
    current: dict[tuple[str, str], str]
    stale: tuple[tuple[str, str], ...]
    missing: tuple[tuple[str, str], ...]
    total: int

    @property
    def share(self) -> float:
        """The share of visible texts with a current translation."""
        return len(self.current) / self.total if self.total else 1.0

    def report(self) -> str:
        """One line a build prints: how much of the data reads in this language."""
        return (
            f"{self.language}: {len(self.current)} of {self.total} data texts have a current translation ({self.share:.1%}); "
            f"{len(self.stale)} stale, {len(self.missing)} missing"
        )


def translated_languages(data_dir: Path) -> tuple[str, ...]:
    """The languages the data has translations for (a folder each under `translations/`), such as ("zh",)."""
    folder = data_dir / TRANSLATIONS
    return tuple(sorted(path.name for path in folder.iterdir() if path.is_dir())) if folder.is_dir() else ()


def translation_dir(data_dir: Path, language: str) -> Path:
    """Where a language's translations live."""
    return data_dir / TRANSLATIONS / language


def load_translations(
    data_dir: Path, language: str, texts: dict[str, dict[str, str]], glossary: Glossary, remembered: Remembered | None = None
) -> tuple[dict[str, dict[str, Translation]], list[DataError]]:
    """Every translation file of `language` for the data files in `texts`, checked: each entry names a field that
    exists, has a `from` hash and a translation, whose Markdown is allowed and keeps the English text's code spans and
    link targets (code and addresses read the same in every language), and which writes the glossary's terms. With
    `remembered` (`make serve`), a file is read again only once it changed."""
    remembered = remembered_or_new(remembered)
    folder = translation_dir(data_dir, language)
    found: dict[str, dict[str, Translation]] = {}
    errors: list[DataError] = []
    for path in sorted(folder.rglob("*.yaml")):
        name = path.relative_to(folder).with_suffix("").as_posix()
        if name == Path(GLOSSARY).stem or name.startswith(f"{INTERFACE}/"):
            continue
        shown = path.relative_to(data_dir.parent).as_posix() if data_dir.parent in path.parents else path.name
        if name not in texts:
            errors.append(DataError(shown, f"no data file `{name}.yaml` has texts to translate; remove this file or rename it"))
            continue
        document, problems = remembered.get(("translation", path), _file_state(path), functools.partial(read_yaml, path, shown, data_dir))
        errors += problems
        if document is not None:
            found[name] = _read_entries(document, shown, language, texts[name], glossary, errors)
    return found, errors


def _file_state(path: Path) -> tuple[int, int]:
    status = path.stat()
    return status.st_mtime_ns, status.st_size


def _read_entries(
    document, shown: str, language: str, english: dict[str, str], glossary: Glossary, errors: list[DataError]
) -> dict[str, Translation]:
    if document.data is None:
        return {}
    if not isinstance(document.data, dict):
        errors.append(DataError(shown, "expected a mapping from field keys to {from, " + language + "}", document.line_of(())))
        return {}
    entries = {}
    for key, value in document.data.items():
        line = document.line_of((key,))
        if key not in english:
            errors.append(DataError(shown, f"no visible English text has the key `{key}`; was the entry renamed or removed?", line, (key,)))
            continue
        if not (isinstance(value, dict) and set(value) == {"from", language} and all(isinstance(v, str) and v for v in value.values())):
            errors.append(DataError(shown, f"expected {{from: <hash of the English>, {language}: <the translation>}}", line, (key,)))
            continue
        problem = _translation_problem(english[key], value[language]) or glossary.problem(value[language])
        if problem:
            errors.append(DataError(shown, problem, document.line_of((key, language)), (key, language)))
            continue
        entries[key] = Translation(value[language], value["from"])
    return entries


@functools.lru_cache(maxsize=16_384)  # a serve rebuild checks again only the texts that changed (the data has ~2,700)
def _translation_problem(english: str, translated: str) -> str | None:
    """What is wrong with a translation's own markup, or with what it keeps of the English's, or None."""
    return markup_problem(translated) or line_problem(english, translated) or kept_problem(english, translated)


def line_problem(english: str, translated: str) -> str | None:
    """Why a translation breaks a line where its English text has none (which would end a heading or a table cell and
    start a new block: the anchor after a title would be lost), or None."""
    if "\n" in translated.strip() and "\n" not in english.strip():
        return "the translation breaks a line where the English has none; write it on one line"
    return None


def kept_problem(english: str, translated: str) -> str | None:
    """Why a translation does not carry the English text's code and link targets unchanged, or None."""

    def kept(text: str) -> Counter:
        return Counter((t.kind, t.text if t.kind == "code" else t.target) for t in tokens(text) if t.kind != "prose")

    lost = kept(english) - kept(translated)
    added = kept(translated) - kept(english)
    if lost or added:
        named = ", ".join(f"`{text}`" for _, text in sorted((lost or added).elements()))
        return f"the translation {'lacks' if lost else 'adds'} {named}: code spans and link targets stay as the English has them"
    return None


def coverage(language: str, texts: dict[str, dict[str, str]], translations: dict[str, dict[str, Translation]]) -> Coverage:
    """Which texts have a current translation (by (file, key), the translated text), which a stale one, which none."""
    current, stale, missing = {}, [], []
    for file, fields in texts.items():
        for key, english in fields.items():
            found = translations.get(file, {}).get(key)
            if found is None:
                missing.append((file, key))
            elif found.made_from != text_hash(english):
                stale.append((file, key))
            else:
                current[(file, key)] = found.text
    total = sum(len(fields) for fields in texts.values())
    return Coverage(language, current, tuple(stale), tuple(missing), total)
