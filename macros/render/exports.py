"""Machine-readable outputs: the JSON export, the published schemas and the Atom feed."""

from __future__ import annotations

import functools
import json
import xml.etree.ElementTree as ET
from dataclasses import fields, is_dataclass
from functools import cache

from packaging.version import Version

from macros.data.markup import text_only
from macros.data.model import Atlas, Labels, Release
from macros.data.schema import SCHEMA_DIR
from macros.views import urls
from macros.views.indexes import FeatureHistory, Lifecycle

SITE_NAME = "PyTorch Release Atlas"
ATOM_NS = "http://www.w3.org/2005/Atom"
SVG_NS = "http://www.w3.org/2000/svg"
PLATFORM_FIELDS = ("python", "cuda", "rocm", "macos")


def as_data(value: object) -> object:
    """A model object as plain JSON data, field by field: the one encoder of the model. An absent fact (None) is left out,
    as in the data files, so each release of the export validates against the published release schema."""
    names = _field_names(type(value))
    if names is not None:
        return {name: as_data(item) for name in names if (item := getattr(value, name)) is not None}
    if isinstance(value, tuple):
        return [as_data(item) for item in value]
    return value


@cache
def _field_names(kind: type) -> tuple[str, ...] | None:
    """The field names of a dataclass, in order; None for any other type."""
    return tuple(item.name for item in fields(kind)) if is_dataclass(kind) else None


def _release(release: Release, site_url: str) -> dict:
    """One release as JSON: its data, with the URL of the release and of each feature and change."""
    document = as_data(release)
    document["platforms"] = {key: document.pop(key) for key in PLATFORM_FIELDS if key in document}
    page = urls.release_doc(release.version)
    for kind in ("features", "changes"):
        for item in document[kind]:
            item["url"] = urls.absolute(site_url, urls.release_entry(release.version, item["id"]))
    return {"url": urls.absolute(site_url, page), **document}


def releases_json(atlas: Atlas, lifecycles: dict[str, Lifecycle], *, site_url: str) -> str:
    """The whole dataset as JSON: releases oldest first, topics, and each feature's lifecycle."""
    document = {
        "name": SITE_NAME,
        "site": site_url,
        "schema": urls.absolute(site_url, urls.RELEASES_SCHEMA),
        "releases": [_release(r, site_url) for r in atlas.releases],
        "topics": [{**as_data(t), "url": urls.absolute(site_url, urls.topic_doc(t.id))} for t in atlas.topics],
        "labels": as_data(atlas.labels),
        "lifecycles": [
            {
                "id": lc.id,
                "title": lc.title,
                "component": lc.component,
                "topics": list(lc.topics),
                "url": urls.absolute(site_url, lc.doc_path),
                "stages": [
                    {"version": s.version, "stage": s.stage, "url": urls.absolute(site_url, urls.release_entry(s.version, lc.id))}
                    for s in lc.stages
                ],
            }
            for lc in lifecycles.values()
        ],
    }
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"  # compact: the C encoder, 5x faster


def schema_files() -> dict[str, str]:
    """The data files' JSON Schemas, published under api/."""
    return {urls.schema_file(path.name): path.read_text(encoding="utf-8") for path in sorted(SCHEMA_DIR.glob("*.schema.json"))}


def atom_feed(
    atlas: Atlas,
    *,
    site_url: str,
    patches: dict[str, list[tuple[str, str]]] | None = None,
    checked: str = "",
    notes: dict[str, str] | None = None,
) -> str:
    """An Atom 1.0 feed with one entry per release and per patch release on PyPI (`patches`: X.Y -> [(X.Y.Z, day)]),
    newest first, each entry's summary ending with what changed in its builds (`notes`, by version); its subtitle says
    which release is the newest covered and when PyPI was last read (`checked`)."""
    notes = notes or {}
    ET.register_namespace("", ATOM_NS)

    def add(parent: ET.Element, tag: str, text: str | None = None, **attributes: str) -> ET.Element:
        element = ET.SubElement(parent, f"{{{ATOM_NS}}}{tag}", attributes)
        element.text = text
        return element

    newest = atlas.newest_first
    entries = [(release.date.isoformat(), release.version, release) for release in newest]
    for feature_release, found in (patches or {}).items():
        entries += [(day, version, feature_release) for version, day in found if not version.endswith(".0")]
    entries.sort(key=lambda entry: (entry[0], Version(entry[1])), reverse=True)
    currency = f" Newest release covered: PyTorch {newest[0].version}." if newest else ""
    currency += f" Checked against PyPI on {checked}." if checked else ""
    feed = ET.Element(f"{{{ATOM_NS}}}feed")
    add(feed, "id", site_url)
    add(feed, "title", f"{SITE_NAME}: releases")
    add(feed, "subtitle", "Each PyTorch release: what it shipped, at which stability, and what it broke." + currency)
    add(feed, "link", href=urls.absolute(site_url, urls.FEED), rel="self", type="application/atom+xml")
    add(feed, "link", href=site_url, rel="alternate", type="text/html")
    add(feed, "updated", f"{entries[0][0]}T00:00:00Z" if entries else "1970-01-01T00:00:00Z")
    add(add(feed, "author"), "name", SITE_NAME)
    for day, version, about in entries:
        entry = add(feed, "entry")
        if isinstance(about, str):  # a patch release of feature release `about`
            page_url = urls.absolute(site_url, urls.release_doc(about)) + "#" + urls.patch_anchor(version)
            title, summary = f"PyTorch {version} (patch release)", f"PyTorch {version}, a patch release of {about}, reached PyPI on {day}."
            summary += "".join(f" {fix.summary.strip()}" for fix in atlas.release(about).fixes if fix.version == version)
        else:
            page_url = urls.absolute(site_url, urls.release_doc(version))
            title, summary = f"PyTorch {version}" + (f": {about.title}" if about.title else ""), about.summary.strip()
        add(entry, "id", page_url)
        add(entry, "title", title)
        add(entry, "link", href=page_url, rel="alternate", type="text/html")
        add(entry, "updated", f"{day}T00:00:00Z")
        add(entry, "published", f"{day}T00:00:00Z")
        add(entry, "summary", f"{summary} {notes[version]}" if version in notes else summary, type="text")
    ET.indent(feed)
    return ET.tostring(feed, encoding="unicode", xml_declaration=True) + "\n"


def feature_names_json(
    histories: dict[str, FeatureHistory], labels: Labels, *, site_url: str, translated: dict[str, dict[str, str]] | None = None
) -> str:
    """Every feature with a page of its own, by name, with when it began and where it stands: what the site's lookup
    matches a feature name against (names as plain text; the lookup writes them with textContent). A `translated`
    edition's name (its feature names as text, by id) is added under its language where it differs from the English."""
    features = []
    for history in sorted(histories.values(), key=lambda h: text_only(h.record.name).casefold()):
        entry = {"id": history.id, "name": text_only(history.record.name), "since": history.since.release.version}
        for language, theirs in (translated or {}).items():
            if (name := theirs[history.id]) != entry["name"]:
                entry[language] = name
        if history.latest:
            entry["latest"] = [labels.shown(history.latest.stage), history.latest.release.version]
        features.append(entry)
    document = {"schema": urls.absolute(site_url, urls.FEATURE_NAMES_SCHEMA), "features": features}
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False) + "\n"


BADGE_COLOURS = {"stable": "#1b5e20", "api-stable": "#1b5e20", "beta": "#0d47a1", "prototype": "#6a1b9a", "api-unstable": "#6a1b9a"}
BADGE_OTHER = "#37474f"
BADGE_END = "#b71c1c"


@functools.lru_cache(maxsize=4096)  # each serve rebuild asks again for every badge, most of them unchanged
def feature_badge(name: str, shown: str, stage: str, version: str) -> str:
    """An SVG status badge for one feature: its name, and its latest stage (`shown` as the site writes it) with the
    release, drawn at build time and written by an XML serialiser (the data's text is escaped by construction)."""
    left, right = "PyTorch Release Atlas", f"{shown} in {version}"
    slug = stage.lower()
    colour = BADGE_END if slug in ("deprecated", "removed") else BADGE_COLOURS.get(slug, BADGE_OTHER)
    left_width, right_width = 10 + 6 * len(left), 10 + 6 * len(right)
    label = f"{text_only(name)}: {right}"
    svg = ET.Element("svg", xmlns=SVG_NS, width=str(left_width + right_width), height="20", role="img", **{"aria-label": label})
    ET.SubElement(svg, "title").text = label
    ET.SubElement(svg, "rect", width=str(left_width), height="20", fill="#555")
    ET.SubElement(svg, "rect", x=str(left_width), width=str(right_width), height="20", fill=colour)
    text = ET.SubElement(
        svg, "g", {"fill": "#fff", "font-family": "Verdana,DejaVu Sans,sans-serif", "font-size": "11", "text-anchor": "middle"}
    )
    ET.SubElement(text, "text", x=str(left_width / 2), y="14").text = left
    ET.SubElement(text, "text", x=str(left_width + right_width / 2), y="14").text = right
    return ET.tostring(svg, encoding="unicode") + "\n"
