"""The builds in the real site: each release page lists its releases on PyPI with what the Linux wheel was built for,
each under an anchor of its own, and the "Will it run?" page states the measured facts without a script."""

from __future__ import annotations

import json

from tests.support.html import parse


def test_a_release_page_lists_its_releases_on_pypi_with_anchors(built_site):
    page = parse(built_site.files / "releases" / "2.8" / "index.html")
    assert {"pypi", "patch-2-8-0"} <= page.ids
    text = (built_site.files / "releases" / "2.8" / "index.html").read_text(encoding="utf-8")
    row = text[text.index('id="patch-2-8-0"') :]
    row = row[: row.index("</tr>")]
    assert "2025-08-06" in row and "CUDA 12.8: sm_70, sm_75, sm_80, sm_86, sm_89, sm_90, sm_100, sm_120" in row
    assert "Linux (x86_64): 3.9, 3.10, 3.11, 3.12, 3.13, 3.13t" in row


def test_the_will_it_run_page_has_the_form_and_the_measured_table(built_site):
    page = parse(built_site.files / "will-it-run" / "index.html")
    assert {"atlas-resolver-gpu", "atlas-resolver-os", "atlas-resolver-python", "atlas-resolver-driver", "how", "builds"} <= page.ids
    text = (built_site.files / "will-it-run" / "index.html").read_text(encoding="utf-8")
    assert '<option value="GeForce RTX 5090">12.0</option>' in text
    assert "../releases/2.6/#patch-2-6-0" in text
    document = json.loads((built_site.files / "api" / "compatibility.json").read_text(encoding="utf-8"))
    newest = document["releases"][0]
    assert newest["release"] == "2.14" and newest["versions"][0]["version"] == "2.14.1" and newest["page"] == "releases/2.14/"
