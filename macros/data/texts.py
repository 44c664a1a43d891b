"""Every data text a reader sees, keyed by the field it comes from: what a translation is made of, and where it goes.

Keys are grouped by the data file that holds the text (`releases/1.10`, `features`, `topics`, `labels`, `errors`) and
name the field inside it by ids, never by position (`features.cuda-graphs.summary`, `patches.1.10.2.summary`), so a
translation stays attached to its text when entries move. Code, messages as programs print them, source titles, GPU
names and identifiers are not in the inventory: they read the same in every language.

One walk over the model serves both uses: `visible_texts` lists the texts, `with_texts` puts other texts in their place.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import replace

from macros.data.model import Atlas, Change, ErrorPage, Feature, Labels, Release

Lookup = Callable[[str, str, str], str]  # (data file, field key, English text) -> the text to show


def text_hash(text: str) -> str:
    """The fingerprint a translation records of the English text it was made from."""
    return hashlib.sha256(text.encode()).hexdigest()[:10]


def visible_texts(atlas: Atlas) -> dict[str, dict[str, str]]:
    """Every text a reader sees, by data file and field key, in data order."""
    texts: dict[str, dict[str, str]] = {}

    def record(file: str, key: str, english: str) -> str:
        texts.setdefault(file, {})[key] = english
        return english

    with_texts(atlas, record)
    return texts


def with_texts(atlas: Atlas, lookup: Lookup) -> Atlas:
    """The atlas with each visible text replaced by what `lookup` gives for it (ids, code and facts unchanged)."""
    return replace(
        atlas,
        releases=tuple(_release(release, lookup) for release in atlas.releases),
        records=tuple(
            replace(
                r, name=lookup("features", f"{r.id}.name", r.name), description=lookup("features", f"{r.id}.description", r.description)
            )
            for r in atlas.records
        ),
        topics=tuple(
            replace(t, title=lookup("topics", f"{t.id}.title", t.title), intro=lookup("topics", f"{t.id}.intro", t.intro))
            for t in atlas.topics
        ),
        labels=_labels(atlas.labels, lookup),
        errors=tuple(_error(error, lookup) for error in atlas.errors),
    )


def _release(release: Release, lookup: Lookup) -> Release:
    file = f"releases/{release.version}"

    def text(key: str, english: str | None) -> str | None:
        return lookup(file, key, english) if english else english

    return replace(
        release,
        title=text("title", release.title),
        summary=text("summary", release.summary),
        coverage=replace(release.coverage, note=text("coverage.note", release.coverage.note)),
        patches=tuple(replace(p, summary=text(f"patches.{p.version}.summary", p.summary)) for p in release.patches),
        fixes=tuple(replace(f, summary=text(f"fixes.{f.version}.summary", f.summary)) for f in release.fixes),
        setups=tuple(replace(s, caption=text(f"setups.{s.id}.caption", s.caption)) for s in release.setups),
        features=tuple(_entry(feature, "features", text) for feature in release.features),
        changes=tuple(_entry(change, "changes", text) for change in release.changes),
    )


def _entry(entry: Feature | Change, section: str, text: Callable[[str, str | None], str | None]) -> Feature | Change:
    prefix = f"{section}.{entry.id}."
    fields = {"title": text(prefix + "title", entry.title), "summary": text(prefix + "summary", entry.summary)}
    if isinstance(entry, Feature):
        fields["details"] = text(prefix + "details", entry.details)
        if entry.example:
            fields["example"] = replace(entry.example, caption=text(prefix + "example.caption", entry.example.caption))
    return replace(entry, **fields)


def _labels(labels: Labels, lookup: Lookup) -> Labels:
    schemes = tuple(
        replace(
            scheme,
            title=lookup("labels", f"{scheme.id}.title", scheme.title),
            intro=lookup("labels", f"{scheme.id}.intro", scheme.intro),
            labels=tuple(
                replace(label, meaning=lookup("labels", f"{scheme.id}.labels.{label.name}.meaning", label.meaning))
                for label in scheme.labels
            ),
        )
        for scheme in labels.schemes
    )
    unlabeled = replace(labels.unlabeled, meaning=lookup("labels", "unlabeled.meaning", labels.unlabeled.meaning))
    return Labels(schemes, unlabeled)


def _error(error: ErrorPage, lookup: Lookup) -> ErrorPage:
    def text(field: str, english: str) -> str:
        return lookup("errors", f"{error.id}.{field}", english)

    answer = replace(error.answer, text=text("answer", error.answer.text))
    return replace(
        error, title=text("title", error.title), cause=text("cause", error.cause), remedy=text("remedy", error.remedy), answer=answer
    )
