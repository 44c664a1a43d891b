"""The JSON export and the Atom feed carry the data exactly."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import fastjsonschema
import feedparser

from macros.data.schema import load_schema
from macros.render import exports
from macros.views import indexes

SITE = "https://atlas.example/prefix/"


def test_json_export_matches_the_model(mini_atlas):
    lifecycles = indexes.build_lifecycles(mini_atlas)
    data = json.loads(exports.releases_json(mini_atlas, lifecycles, site_url=SITE))
    assert [r["version"] for r in data["releases"]] == ["2.0", "2.1", "2.10"]
    first = data["releases"][0]
    assert first["released"] == {"date": "2030-01-15", "source": "https://example.org/2.0"}
    assert first["platforms"]["cuda"] == {
        "versions": ["11.8"],
        "source": "https://example.org/2.0",
        "experimental": [],
        "free_threaded": [],
    }
    assert [(f["id"], f["stability"]) for f in first["features"]] == [("alpha", "Prototype"), ("beta-thing", "Beta"), ("gamma", "Stable")]
    assert first["features"][0]["url"] == SITE + "releases/2.0/#alpha"
    alpha = next(lc for lc in data["lifecycles"] if lc["id"] == "alpha")
    assert [(s["version"], s["stage"]) for s in alpha["stages"]] == [("2.0", "Prototype"), ("2.1", "Beta"), ("2.10", "Stable")]
    urls = {lc["id"]: lc["url"] for lc in data["lifecycles"]}
    assert urls["alpha"] == SITE + "features/alpha/"
    assert urls["delta"] == SITE + "releases/2.10/#delta"  # in one release only: its entry there


def test_atom_feed_is_valid_and_newest_first(mini_atlas):
    xml = exports.atom_feed(mini_atlas, site_url=SITE)
    ET.fromstring(xml.encode())
    feed = feedparser.parse(xml)
    assert not feed.bozo, feed.get("bozo_exception")
    assert feed.version == "atom10"
    assert [e.link for e in feed.entries] == [SITE + "releases/2.10/", SITE + "releases/2.1/", SITE + "releases/2.0/"]
    assert feed.feed.updated == "2030-10-15T00:00:00Z"


def _as_data_file(exported: dict) -> dict:
    """An exported release without what the export adds (each URL, the `platforms` grouping, the code-block results
    of data/examples/): the data file's shape."""
    document = {key: value for key, value in exported.items() if key not in ("url", "platforms", "results")} | exported["platforms"]
    for kind in ("features", "changes"):
        document[kind] = [{key: value for key, value in item.items() if key != "url"} for item in document[kind]]
    return document


def test_every_exported_release_validates_against_the_published_schema(real_atlas):
    """The data file's schema is the contract of each exported release too (one encoder writes the model's fields,
    nothing else), and the document as a whole follows the schema it names."""
    validate = fastjsonschema.compile(load_schema("release.schema.json"))
    data = json.loads(exports.releases_json(real_atlas, indexes.build_lifecycles(real_atlas), site_url=SITE))
    assert len(data["releases"]) == len(real_atlas.releases)
    for exported in data["releases"]:
        validate(_as_data_file(exported))
    assert data["schema"] == SITE + "api/releases.schema.json"
    fastjsonschema.compile(load_schema("releases.schema.json"))(data)
