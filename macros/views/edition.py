"""One language edition of the site: the data in that language where a current translation exists, and the words of
its interface (headings, table heads, legends, form labels) from `data/translations/<language>/interface.yaml`.

English is the edition with no catalog: every word is its own translation. Another edition serves its pages under
`<language>/` with the same paths and anchors as the English.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from macros.data.glossary import Glossary, read_glossary
from macros.data.model import Atlas
from macros.data.remembered import Remembered
from macros.data.texts import visible_texts, with_texts
from macros.data.translations import (
    INTERFACE,
    SCRIPTS,
    TRANSLATIONS,
    Coverage,
    coverage,
    kept_problem,
    line_problem,
    load_translations,
    translation_dir,
)
from macros.data.yamlfile import DataError, DataErrors, read_yaml

ENGLISH = "en"
LANGUAGE_NAMES = {"en": "English", "zh": "中文"}
_DATES = {"en": "{d:%B} {d.day}, {d.year}", "zh": "{d.year} 年 {d.month} 月 {d.day} 日"}


@dataclass
class Edition:
    """The site in one language: its data (texts translated where current), interface words, and what shows in English."""

    language: str
    atlas: Atlas
    words: dict[str, str] = field(default_factory=dict)
    glosses: dict[str, str] = field(default_factory=dict)  # stability label -> its gloss in this language
    script_words: dict[str, str] = field(default_factory=dict)  # the scripts' interface text (interface/scripts.yaml)
    untranslated: frozenset[tuple[str, str]] = frozenset()  # (data file, field key) still read in English: stale or missing
    coverage: Coverage | None = None
    unknown_words: set[str] = field(default_factory=set)  # interface text asked for that the catalog lacks (shown in English)

    @property
    def prefix(self) -> str:
        """Where the edition's pages live under the site root: "" for English, `zh/` for Chinese."""
        return "" if self.language == ENGLISH else f"{self.language}/"

    @property
    def to_files(self) -> str:
        """From the edition's root to the site root, where the files for tools live (JSON, feed, badges): "" or `../`."""
        return "../" * self.prefix.count("/")

    def words_script(self) -> str:
        """`<edition>/assets/words.js`: the scripts' interface text, which the edition's pages load before the scripts."""
        words = json.dumps(self.script_words, ensure_ascii=False, sort_keys=True, indent=0).replace("</", "<\\/")
        source = f"data/{TRANSLATIONS}/{self.language}/{INTERFACE}/{SCRIPTS}.yaml"
        return f"/* The interface text of the site's scripts in this edition, from {source}. */\nwindow.atlasWords = {words};\n"

    def gettext(self, message: str) -> str:
        """The interface text in this edition's language (the English itself for English)."""
        if self.language == ENGLISH:
            return message
        found = self.words.get(message)
        if found is None:
            self.unknown_words.add(message)
            return message
        return found

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        """The text for a count: English has two forms, Chinese one (the catalog's entry under the singular)."""
        return (singular if count == 1 else plural) if self.language == ENGLISH else self.gettext(singular)

    def long_date(self, day: date) -> str:
        """A date as the edition writes it: `October 21, 2021`, `2021 年 10 月 21 日`."""
        return _DATES[self.language].format(d=day)

    def in_english(self, file: str, item: str) -> bool:
        """Whether some text of this entry or record (`features.<id>`, `changes.<id>`, a record id) still reads in English."""
        return self.language != ENGLISH and any(f == file and key.startswith(item + ".") for f, key in self.untranslated)

    def problems(self) -> list[str]:
        """What this edition shows in English for want of a translation: interface text its catalog lacks, data texts
        with no translation (a stale translation is `make check`'s to list: its page says so)."""
        catalogs = f"data/{TRANSLATIONS}/{self.language}/{INTERFACE}/"
        found = [f"no translation of the interface text {word!r} ({catalogs})" for word in sorted(self.unknown_words)]
        if self.coverage and self.coverage.missing:
            todo = f"python -m tools.translations {self.language} <folder>"
            found.append(f"{len(self.coverage.missing)} data texts have no translation: `{todo}` lists them")
        return found


def english_edition(atlas: Atlas) -> Edition:
    """The English site."""
    return Edition(ENGLISH, atlas)


def translated_edition(atlas: Atlas, data_dir: Path, language: str, remembered: Remembered | None = None) -> Edition:
    """The site in `language`: current translations in place of the English texts; a stale or missing one leaves its
    text in English (the page says so; a missing one stops a strict build, not the preview). Raises DataErrors for a
    broken translation file or interface catalog."""
    if language not in LANGUAGE_NAMES or language == ENGLISH:
        known = ", ".join(code for code in LANGUAGE_NAMES if code != ENGLISH)
        raise DataErrors(
            [DataError(f"data/{TRANSLATIONS}/{language}/", f"no edition of the site is in {language!r}; expected one of: {known}")]
        )
    texts = visible_texts(atlas)
    errors: list[DataError] = []
    glossary = read_glossary(translation_dir(data_dir, language), data_dir, atlas.labels.order, errors)
    translations, problems = load_translations(data_dir, language, texts, glossary, remembered)
    errors += problems
    words, script_words = _interface_words(data_dir, language, glossary, errors)
    state = coverage(language, texts, translations)
    if errors:
        raise DataErrors(errors)
    translated = with_texts(atlas, lambda file, key, english: state.current.get((file, key), english))
    untranslated = frozenset((*state.stale, *state.missing))
    return Edition(language, translated, words, glossary.glosses, script_words, untranslated, state)


def _interface_words(data_dir: Path, language: str, glossary: Glossary, errors: list[DataError]) -> tuple[dict[str, str], dict[str, str]]:
    """The interface catalog: every file of `interface/`, each a mapping from English interface text to its translation
    (a text given two different translations is an error); and apart, the scripts' own (`scripts.yaml`)."""
    words: dict[str, str] = {}
    script_words: dict[str, str] = {}
    for path in sorted((translation_dir(data_dir, language) / INTERFACE).glob("*.yaml")):
        shown = f"data/{TRANSLATIONS}/{language}/{INTERFACE}/{path.name}"
        document, problems = read_yaml(path, shown, data_dir)
        errors += problems
        if document is None:
            continue
        if not isinstance(document.data, dict) or not all(
            isinstance(k, str) and isinstance(v, str) and v for k, v in document.data.items()
        ):
            errors.append(DataError(shown, "expected a mapping from each English interface text to its translation"))
            continue
        if path.stem == SCRIPTS:
            script_words = {
                english: text for english, text in document.data.items() if not _refused(english, text, glossary, shown, document, errors)
            }
            continue
        for english, translated in document.data.items():
            if _refused(english, translated, glossary, shown, document, errors):
                continue
            if words.get(english, translated) != translated:
                errors.append(
                    DataError(shown, f"{english!r} has another translation in another file", document.line_of((english,)), (english,))
                )
            words[english] = translated
    return words, script_words


_TAG = re.compile(r"<[^<>]*>")
_SLOT = re.compile(r"%\([a-z_]+\)s|%%|\{[a-z_]+\}")


def interface_problem(english: str, translated: str) -> str | None:
    """Why a translation of interface text cannot stand in for it, or None: it must keep the English text's HTML tags,
    value slots (`%(n)s`, `{n}`), code spans and link targets, and add none (a catalog is data: it never brings markup
    of its own), and write a percent sign as `%%`."""
    for what, pattern in (("HTML tags", _TAG), ("value slots", _SLOT)):
        if Counter(pattern.findall(english)) != Counter(pattern.findall(translated)):
            return f"the translation must have the same {what} as the English: {sorted(set(pattern.findall(english)))}"
    if "%" in _SLOT.sub("", translated):  # the text is %-formatted when shown: a lone % would stop the build
        return "a percent sign outside a value slot must be written %%"
    return line_problem(english, translated) or kept_problem(" ".join(english.split()), " ".join(translated.split()))


def _refused(english: str, translated: str, glossary: Glossary, shown: str, document, errors: list[DataError]) -> bool:
    """Report a catalog entry whose translation cannot stand in for its English; True if it was refused."""
    problem = interface_problem(english, translated) or glossary.problem(translated)
    if problem:
        errors.append(DataError(shown, problem, document.line_of((english,)), (english,)))
    return problem is not None
