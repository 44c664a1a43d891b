"""Likely missed joins: features in different releases that look like one feature under two ids."""

from __future__ import annotations

import difflib
import itertools
import re
from dataclasses import dataclass

from macros.data.markup import text_only
from macros.data.model import Atlas, Feature

_CODE_SPAN = re.compile(r"`([^`]+)`")
_WORD = re.compile(r"[a-z0-9]+(?:[._][a-z0-9]+)*")
_FILLER = frozenset(
    [
        "a",
        "an",
        "and",
        "api",
        "apis",
        "as",
        "at",
        "by",
        "for",
        "from",
        "in",
        "into",
        "is",
        "new",
        "now",
        "of",
        "on",
        "or",
        "support",
        "the",
        "to",
        "with",
        "stable",
        "beta",
        "prototype",
        "experimental",
        "improved",
        "improvements",
        "updates",
        "update",
        "more",
    ]
)
TITLE_SIMILARITY = 0.85
WORD_OVERLAP = 0.6


@dataclass(frozen=True, slots=True)
class LikelyDuplicate:
    """Two ids whose features look like the same feature, with where each appears and why."""

    first: str
    second: str
    first_release: str
    second_release: str
    reason: str

    def __str__(self) -> str:
        return f"'{self.first}' ({self.first_release}) and '{self.second}' ({self.second_release}): {self.reason}"


def _words(title: str) -> frozenset[str]:
    """The meaningful words of a title, lowercased, with API names kept whole."""
    return frozenset(_WORD.findall(title.lower())) - _FILLER


def _api_names(title: str) -> frozenset[str]:
    """Dotted API names written as code in a title, such as `torch.fft`."""
    names = (span.strip().removesuffix("()").lower() for span in _CODE_SPAN.findall(title))
    return frozenset(name for name in names if "." in name)


def _resemblance(one: Feature, other: Feature, common_apis: frozenset[str]) -> str | None:
    """Why two features look like the same one, or None; API names that many features mention say nothing."""
    shared_apis = (_api_names(one.title) & _api_names(other.title)) - common_apis
    if shared_apis:
        return f"both titles name {', '.join(f'`{name}`' for name in sorted(shared_apis))}"
    plain_one, plain_other = one.title.lower().replace("`", ""), other.title.lower().replace("`", "")
    matcher = difflib.SequenceMatcher(None, plain_one, plain_other)
    if matcher.real_quick_ratio() >= TITLE_SIMILARITY and matcher.quick_ratio() >= TITLE_SIMILARITY and matcher.ratio() >= TITLE_SIMILARITY:
        return "the titles are nearly the same"
    words_one, words_other = _words(one.title), _words(other.title)
    if len(words_one) >= 2 and len(words_other) >= 2 and len(words_one & words_other) / len(words_one | words_other) >= WORD_OVERLAP:
        return f"the titles share the words {', '.join(sorted(words_one & words_other))}"
    return None


def _common_api_names(appearances: dict[str, list[tuple[str, Feature]]]) -> frozenset[str]:
    """API names that the titles of more than two feature ids mention, such as `torch.compile`: a context, not an identity."""
    ids_naming: dict[str, set[str]] = {}
    for feature_id, entries in appearances.items():
        for _, feature in entries:
            for name in _api_names(feature.title):
                ids_naming.setdefault(name, set()).add(feature_id)
    return frozenset(name for name, ids in ids_naming.items() if len(ids) > 2)


def likely_duplicates(atlas: Atlas) -> list[LikelyDuplicate]:
    """Pairs of ids that never appear in one release together but whose features look alike, minus reviewed homonyms."""
    appearances: dict[str, list[tuple[str, Feature]]] = {}
    together: set[frozenset[str]] = set()
    for release in atlas.releases:
        ids = [feature.id for feature in release.features]
        together.update(frozenset(pair) for pair in itertools.combinations(ids, 2))
        for feature in release.features:
            appearances.setdefault(feature.id, []).append((release.version, feature))
    reviewed = {frozenset(pair.ids) for pair in atlas.distinct}
    common_apis = _common_api_names(appearances)
    found = []
    for first, second in itertools.combinations(sorted(appearances), 2):
        pair = frozenset((first, second))
        if pair in together or pair in reviewed:
            continue
        for (first_release, one), (second_release, other) in itertools.product(appearances[first], appearances[second]):
            reason = _resemblance(one, other, common_apis)
            if reason:
                found.append(LikelyDuplicate(first, second, first_release, second_release, reason))
                break
    return found


@dataclass(frozen=True, slots=True)
class LikelyRecord:
    """A release entry that names no feature record, though its title names a record's feature or cites its API."""

    version: str
    entry_id: str
    record_id: str
    why: str

    def __str__(self) -> str:
        return f"{self.version} {self.entry_id} -> {self.record_id} ({self.why})"


def likely_records(atlas: Atlas) -> list[LikelyRecord]:
    """Entries without a feature record whose title names a record's feature (its name as a whole word, at least four
    characters) or cites one of its APIs in a code span; a part is preferred to the feature it belongs to. A pair
    reviewed as two features in data/distinct.yaml is not suggested."""
    records = sorted(atlas.records, key=lambda record: record.part_of is None)  # parts first
    reviewed = {frozenset(pair.ids) for pair in atlas.distinct}
    names = [(record, re.compile(rf"(?<![\w.-]){re.escape(text_only(record.name))}(?![\w-])")) for record in records]
    found = []
    for release in atlas.releases:
        for item in release.entries:
            if atlas.record_of(item):
                continue
            title = text_only(item.title)
            cited = set(_CODE_SPAN.findall(item.title))
            for record, pattern in names:
                if frozenset((item.id, record.id)) in reviewed:
                    continue
                if len(text_only(record.name)) >= 4 and pattern.search(title):
                    found.append(LikelyRecord(release.version, item.id, record.id, f"its title names {text_only(record.name)}"))
                    break
                api = next((name for name in record.apis if name in cited), None)
                if api:
                    found.append(LikelyRecord(release.version, item.id, record.id, f"its title cites {api}"))
                    break
    return found
