"""The Chinese edition in the built site: a counterpart for every page with the same anchors, Chinese interface text,
its own search index and sitemap, `hreflang` alternates, and its translation coverage stated."""

from __future__ import annotations

import gzip
import json
import re
import xml.etree.ElementTree as ET

import yaml

from tests.conftest import REAL_DATA
from tests.support.html import parse


def _pages(built_site, under: str = "") -> list:
    return [p for p in (built_site.files / under).rglob("index.html") if 'http-equiv="refresh"' not in p.read_text(encoding="utf-8")[:600]]


def test_every_english_page_has_a_chinese_counterpart_with_the_same_anchors(built_site):
    """Every anchor but the title's own, which MkDocs makes from the title's words in each language."""
    english = [p for p in _pages(built_site) if p.relative_to(built_site.files).parts[0] != "zh"]
    assert len(english) > 1200
    for page in english:
        relative = page.relative_to(built_site.files)
        counterpart = built_site.files / "zh" / relative
        assert counterpart.exists(), relative
    for path in ("releases/1.10/index.html", "releases/2.14/index.html", "features/torch-compile/index.html", "matrix/index.html"):
        english_ids = parse(built_site.files / path).ids - {_title_id(built_site.files / path)}
        chinese_ids = parse(built_site.files / "zh" / path).ids
        assert english_ids <= chinese_ids, sorted(english_ids - chinese_ids)[:10]


def _title_id(path) -> str:
    found = re.search(r'<h1 id="([^"]+)"', path.read_text(encoding="utf-8"))
    return found.group(1) if found else ""


def test_a_chinese_page_reads_in_chinese_with_the_official_labels(built_site):
    html = (built_site.files / "zh/releases/1.10/index.html").read_text(encoding="utf-8")
    assert '<html lang="zh"' in html
    assert "版本概况" in html  # the heading of the release facts
    for english in ("Release facts", "In this release", "Upgrading to", "Backwards-incompatible changes ("):
        assert english not in html, english
    assert re.search(r'class="atlas-stage atlas-stage--beta">Beta<', html)
    assert 'title="测试版：' in html


def test_the_about_page_glosses_each_label_from_the_glossary(built_site):
    """The glosses are data (glossary.yaml), shown once on the about page beside each label as its release wrote it."""
    glossary = yaml.safe_load((REAL_DATA / "translations/zh/glossary.yaml").read_text(encoding="utf-8"))
    about = (built_site.files / "zh/about/index.html").read_text(encoding="utf-8")
    table = about[about.index('id="label-glosses"') : about.index('id="checked-examples"')]
    rows = re.findall(
        r'<tr>\s*<td><span title="[^"]*" class="atlas-stage atlas-stage--[\w-]+">([^<]+)</span></td>\s*<td>([^<]+)</td>', table
    )
    shown = {label["label"]: label["label"] for label in glossary["labels"]} | {"Unlabeled": "未标注"}
    assert rows == [(shown[label["label"]], label["gloss"]) for label in glossary["labels"]]


def test_each_edition_searches_its_own_pages_and_chinese_is_split_into_words(built_site):
    english = json.loads((built_site.files / "search/search_index.json").read_text(encoding="utf-8"))
    chinese = json.loads((built_site.files / "zh/search/search_index.json").read_text(encoding="utf-8"))
    assert not any(doc["location"].startswith("zh/") for doc in english["docs"])
    assert chinese["config"]["lang"] == ["en", "zh"] and english["config"]["lang"] == ["en"]
    locations = {doc["location"].split("#")[0] for doc in chinese["docs"]}
    assert "releases/1.10/" in locations and "features/torch-compile/" in locations
    text = " ".join(doc["text"] for doc in chinese["docs"][:2000])
    assert "\u200b" in text  # jieba's word boundaries, which the search separator splits on


def test_each_edition_has_a_lean_sitemap_of_its_own_pages(built_site):
    """Each edition's sitemap lists its own pages, one line each."""
    sitemap = (built_site.files / "sitemap.xml").read_text(encoding="utf-8")
    chinese = (built_site.files / "zh/sitemap.xml").read_text(encoding="utf-8")
    locations, chinese_locations = (
        re.findall(r"^<url><loc>([^<]*)</loc><lastmod>[\d-]+</lastmod></url>$", text, re.M) for text in (sitemap, chinese)
    )
    assert len(locations) == len(chinese_locations) == sitemap.count("<url>") == chinese.count("<url>") > 1000
    assert not any("/zh/" in loc for loc in locations) and all("/zh/" in loc for loc in chinese_locations)
    assert f"{built_site.base_url}zh/releases/1.10/" in chinese_locations
    assert "hreflang" not in sitemap + chinese
    assert gzip.decompress((built_site.files / "sitemap.xml.gz").read_bytes()).decode("utf-8") == sitemap


def test_the_hreflang_sitemap_names_both_editions_of_every_page(built_site):
    document = ET.parse(built_site.files / "sitemap-hreflang.xml").getroot()
    names = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    editions = {
        url.find("s:loc", names).text: {(link.get("hreflang"), link.get("href")) for link in url.findall("x:link", names)}
        for url in document.findall("s:url", names)
    }
    english, chinese = f"{built_site.base_url}releases/1.10/", f"{built_site.base_url}zh/releases/1.10/"
    assert editions[english] == editions[chinese] == {("en", english), ("zh", chinese)}
    assert len(editions) == 2 * (built_site.files / "sitemap.xml").read_text(encoding="utf-8").count("<url>")
    assert all(len(links) == 2 and any(url == href for _, href in links) for url, links in editions.items())


def test_the_build_and_the_about_page_state_the_translation_coverage(built_site):
    assert re.search(r"zh: (\d+) of \1 data texts have a current translation \(100\.0%\); 0 stale, 0 missing", built_site.log)
    about = (built_site.files / "zh/about/index.html").read_text(encoding="utf-8")
    assert re.search(r"数据中的 [\d,]+ 段文字有 [\d,]+ 段（100\.0%）具备最新的中文译文", about)


def test_the_scripts_get_their_chinese_words_and_the_feature_names_their_chinese_names(built_site):
    words = (built_site.files / "zh/assets/words.js").read_text(encoding="utf-8")
    assert words.count("window.atlasWords = ") == 1 and "</" not in words
    names = json.loads((built_site.files / "api/feature-names.json").read_text(encoding="utf-8"))
    assert any(re.search(r"[\u4e00-\u9fff]", feature.get("zh", "")) for feature in names["features"])
