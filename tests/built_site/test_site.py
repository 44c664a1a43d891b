"""The real site, built with --strict: every anchor, link, nav entry and export checked in the HTML."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import feedparser
import pytest

from macros.data.loading import load_atlas
from macros.data.model import BLOCK_STATUSES, Feature
from macros.render.registry import read_registry
from macros.views import indexes
from macros.views.urls import THEME_ICON
from tests.conftest import REAL_DATA
from tests.support.html import parse
from tests.support.site import PREFIX

ATLAS = load_atlas(REAL_DATA)


def _html_pages(site) -> list[Path]:
    """Every page the theme rendered; redirect pages, which only send the reader on, are left out."""
    redirects = _redirect_pages(site)
    return sorted(page for page in site.files.rglob("*.html") if page not in redirects)


def _redirect_pages(site) -> dict[Path, str]:
    """Each redirect page and the address it sends the reader to."""
    found = {}
    for page in site.files.rglob("*.html"):
        refresh = [e.attrs["content"] for e in parse(page).elements if e.tag == "meta" and e.attrs.get("http-equiv") == "refresh"]
        if refresh:
            found[page] = refresh[0].split("url=", 1)[1]
    return found


def _resolve(site, page: Path, href: str) -> tuple[Path, str] | None:
    """The file and fragment an internal link points to, or None for an external one."""
    page_url = site.base_url + str(page.relative_to(site.files)).removesuffix("index.html")
    target = urlsplit(urljoin(page_url, href))
    if target.netloc != urlsplit(site.base_url).netloc:
        return None
    assert target.path.startswith(PREFIX), f"{page}: {href} leaves the site prefix"
    relative = target.path.removeprefix(PREFIX)
    file = site.files / relative
    if relative == "" or relative.endswith("/"):
        file = file / "index.html"
    return file, target.fragment


def test_build_is_clean(built_site):
    assert "WARNING" not in built_site.log
    assert "Traceback" not in built_site.log
    assert "MkDocs 2" not in built_site.log  # no end-of-life banner


@pytest.mark.parametrize("release", ATLAS.releases, ids=lambda r: r.version)
def test_every_feature_and_change_has_its_anchor_and_permalink(built_site, release):
    page = parse(built_site.page(f"releases/{release.version}/"))
    for item in (*release.features, *release.changes):
        assert item.id in page.ids, f"{release.version}: #{item.id} missing"
        assert f"#{item.id}" in page.links(), f"{release.version}: no permalink to #{item.id}"
        for alias in item.aliases:
            assert alias in page.ids


@pytest.mark.parametrize("release", ATLAS.releases, ids=lambda r: r.version)
def test_release_page_shows_labels_facts_and_sources(built_site, release):
    html = built_site.page(f"releases/{release.version}/").read_text(encoding="utf-8")
    for feature in release.features:  # the line under each feature's heading carries exactly its own badge
        meta = re.search(rf'id="{re.escape(feature.id)}">.*?</h3>\s*<p class="atlas-meta">(.*?)</p>', html, re.S)
        assert meta, f"{release.version}: no stage line under #{feature.id}"
        badges = re.findall(r'class="atlas-stage atlas-stage--([a-z-]+)">([^<]+)<', meta.group(1))
        assert badges == [(feature.stability.lower(), ATLAS.labels.shown(feature.stability))], (feature.id, badges)
    assert release.date.strftime("%B %-d, %Y") in html
    for source in release.sources:
        assert source.url.replace("&", "&amp;") in html
    if release.cuda:
        assert ", ".join(release.cuda.versions) in html


@pytest.mark.parametrize("release", ATLAS.releases, ids=lambda r: r.version)
def test_every_code_block_says_what_running_it_found(built_site, release):
    html = built_site.page(f"releases/{release.version}/").read_text(encoding="utf-8")
    # one per heading (an entry's carries its topics and kind for the filters): its id, then its content up to the next heading
    sections = re.split(r'<h[23](?: data-[a-z]+="[^"]*")* id="', html)[1:]
    shown = {section.split('"', 1)[0]: re.findall(r'class="atlas-check atlas-check--([a-z-]+)"', section) for section in sections}
    expected: dict[str, list[str]] = {}
    for block in release.code_blocks():
        expected.setdefault(block.item, []).append(release.result(block.item, block.role).outcome)
    assert {item: shown.get(item) for item in expected} == expected
    assert sum(len(outcomes) for outcomes in shown.values()) == len(release.code_blocks())


def _visible(fragment: str) -> str:
    """The text of an HTML fragment with tags removed and white space folded."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


@pytest.mark.parametrize("release", [r for r in ATLAS.releases if r.code_blocks()], ids=lambda r: r.version)
def test_each_release_counts_its_code_blocks_by_what_running_them_found(built_site, release):
    page = built_site.page(f"releases/{release.version}/").read_text(encoding="utf-8")
    row = _visible(page.split(">Code blocks</td>", 1)[1].split("</tr>", 1)[0])
    counts = release.block_statuses()
    assert sum(counts.values()) == len(release.code_blocks())
    assert row.startswith(", ".join(f"{n} {BLOCK_STATUSES[status]}" for status, n in counts.items()))
    about = built_site.page("about/").read_text(encoding="utf-8")
    cells = _visible(about.split(f">PyTorch {release.version}</a>", 1)[1].split("</tr>", 1)[0]).split()
    assert [int(n) for n in cells] == [n for n in counts.values()]


def _setup_of(entry) -> str | None:
    """The id of the setup an entry's blocks run first, if any."""
    return (entry.example.setup if entry.example else None) if isinstance(entry, Feature) else entry.setup


def test_a_setup_is_shown_folded_above_each_block_that_runs_it(built_site):
    users = [(release, entry) for release in ATLAS.releases for entry in release.entries if _setup_of(entry)]
    assert users, "no block of the data names a setup"
    for release, entry in users:
        page = built_site.page(f"releases/{release.version}/").read_text(encoding="utf-8")
        section = page.split(f'id="{entry.id}"', 1)[1].split("<h3", 1)[0]
        setup = release.setup(_setup_of(entry))
        folded = section.split("<details", 1)[1].split("</details>", 1)[0]
        shown_code = "".join(_visible(folded.split("<pre", 1)[1]).split())  # highlighting splits tokens with tags
        assert "this setup first" in folded and shown_code.endswith("".join(setup.code.split()))
        assert section.index("<details") < section.index('class="atlas-check')


def test_every_table_the_theme_styles_stands_in_a_box_of_its_own(built_site):
    """The theme moves each table without a class into its scrolling box as a page loads; alone in a box of its own, the
    table moves without the browser styling the whole text column again (macros/plugin/tables.py)."""
    tables, unboxed = 0, []
    for page in _html_pages(built_site):
        html = page.read_text(encoding="utf-8")
        found = html.count("<table>")
        boxed = len(re.findall(r'<div class="atlas-table">\s*<table>.*?</table>\s*</div>', html, re.S))
        tables += found
        if boxed != found:
            unboxed.append(f"{page.relative_to(built_site.files)}: {found - boxed} of {found}")
    assert tables > 500, "the site's Markdown tables are found"
    assert not unboxed


def test_every_link_on_every_page_resolves(built_site):
    """An independent crawl of the built HTML: no broken internal link or anchor anywhere."""
    broken = []
    cache = {}

    def parsed_page(file):
        if file not in cache:
            cache[file] = parse(file)
        return cache[file]

    for page in _html_pages(built_site):
        parsed = parsed_page(page)
        for href in parsed.links() + parsed.links("link"):
            if href.startswith(("mailto:", "javascript:")):
                continue
            resolved = _resolve(built_site, page, href)
            if resolved is None:
                continue
            file, fragment = resolved
            if not file.exists():
                broken.append(f"{page.relative_to(built_site.files)} -> {href}")
            elif fragment and file.suffix == ".html" and fragment not in parsed_page(file).ids:
                broken.append(f"{page.relative_to(built_site.files)} -> {href} (no #{fragment})")
    assert not broken, "\n".join(broken)


@pytest.mark.parametrize("topic", ATLAS.topics, ids=lambda t: t.id)
def test_topic_index_links_land_on_feature_anchors(built_site, topic):
    page_path = built_site.page(f"topics/{topic.id}/")
    page = parse(page_path)
    expected = {(r.version, f.id) for r in ATLAS.releases for f in r.features if topic.id in f.topics}
    found = set()
    for href in page.links():
        match = re.fullmatch(r"\.\./\.\./releases/([\d.]+)/#([a-z0-9-]+)", href)
        if match:
            file, fragment = _resolve(built_site, page_path, href)
            assert fragment in parse(file).ids, href
            found.add(match.groups())
    assert expected <= found, expected - found


def test_core_topics_have_their_pages(built_site):
    for topic in ("cuda", "mps", "distributed", "fft"):
        assert built_site.page(f"topics/{topic}/").exists()


def test_nav_lists_releases_newest_first_by_series(built_site):
    page = parse(built_site.page(""))
    release_links = [h for h in page.links() if re.fullmatch(r"releases/[\d.]+/", h)]
    order = list(dict.fromkeys(release_links))
    versions = [h.split("/")[1] for h in order]
    assert versions[: len(ATLAS.releases)] == [r.version for r in ATLAS.newest_first]
    assert versions.index("2.14") < versions.index("2.1") < versions.index("1.12") < versions.index("1.10") < versions.index("1.4")
    text = built_site.page("").read_text(encoding="utf-8")
    nav = text[text.index("md-nav--primary") : text.index('<div class="md-content"')]
    shown: dict[str | None, list[str]] = {}  # each series' group in the navigation, in order, with its releases in order
    group = None
    for label, version in re.findall(r'<span class="md-ellipsis">\s*(\d+\.x)\s*</span>|<a href="releases/([\d.]+)/"', nav):
        group = label or group
        shown.setdefault(group, []).extend([version] if version else [])
    expected: dict[str | None, list[str]] = {}
    for release in ATLAS.newest_first:
        expected.setdefault(f"{release.number.major}.x", []).append(release.version)
    assert list(expected) == ["2.x", "1.x"]  # newest series first
    assert list(shown.items()) == list(expected.items())


def test_json_export_matches_the_data(built_site):
    data = json.loads((built_site.files / "api/releases.json").read_text(encoding="utf-8"))
    assert [r["version"] for r in data["releases"]] == [r.version for r in ATLAS.releases]
    for exported, release in zip(data["releases"], ATLAS.releases, strict=True):
        assert [(f["id"], f["stability"], f["topics"], f["sources"]) for f in exported["features"]] == [
            (f.id, f.stability, list(f.topics), list(f.sources)) for f in release.features
        ]
        assert [c["id"] for c in exported["changes"]] == [c.id for c in release.changes]
        assert exported["released"]["date"] == release.date.isoformat()
        assert [(r["item"], r["role"], r["hash"], r["outcome"]) for r in exported["results"]] == [
            (b.item, b.role, b.hash, release.result(b.item, b.role).outcome) for b in release.code_blocks()
        ]
        for feature in exported["features"]:
            file, fragment = _resolve(built_site, built_site.page(""), feature["url"])
            assert fragment in parse(file).ids
    schema = json.loads((built_site.files / "api/release.schema.json").read_text(encoding="utf-8"))
    assert schema["title"].startswith("PyTorch Release Atlas")


def test_atom_feed_is_valid_and_advertised(built_site):
    feed = feedparser.parse((built_site.files / "feed.xml").read_bytes())
    assert not feed.bozo and feed.version == "atom10"
    releases = [e.title.split(":")[0] for e in feed.entries if not e.title.endswith("(patch release)")]
    assert releases == [f"PyTorch {r.version}" for r in ATLAS.newest_first]
    patches = [e for e in feed.entries if e.title.endswith("(patch release)")]
    assert "PyTorch 2.14.1 (patch release)" in [e.title for e in patches]  # patch releases appear as they reach PyPI
    assert all(re.search(r"/releases/\d+\.\d+/#patch-\d+-\d+-[1-9]\d*$", e.link) for e in patches)
    # an entry tells what changed in the builds: a patch release's wheels from PyPI's listing, a release's recorded builds
    summaries = {e.title.split(":")[0]: e.summary for e in feed.entries}
    assert "reached PyPI on 2023-12-14. Fixes crashes on empty float16 tensors" in summaries["PyTorch 2.1.2 (patch release)"]
    assert summaries["PyTorch 2.12.1 (patch release)"].endswith(
        "Wheels on PyPI since 2.12.0: Python 3.13t dropped on Linux (x86_64), Linux (ARM64), Windows (x86_64), macOS (Apple silicon)."
    )
    assert (
        "Builds on PyTorch's wheel index recorded for 2.14, not for 2.13: rocm7.14; recorded for 2.13, not for 2.14: rocm7.1."
        in (summaries["PyTorch 2.14"])
    )
    dates = [e.updated for e in feed.entries]
    assert dates == sorted(dates, reverse=True)
    checked = json.loads((REAL_DATA / "builds" / "pypi.json").read_text(encoding="utf-8"))["read"]["date"]
    assert f"Newest release covered: PyTorch {ATLAS.newest_first[0].version}. Checked against PyPI on {checked}." in feed.feed.subtitle
    home = built_site.page("").read_text(encoding="utf-8")
    assert f"The atlas was last checked against PyPI's files on {checked}" in home
    # Each edition's home page names the feed, where feed readers look for it; other pages do not (overrides/main.html).
    for url, named in [("", True), ("zh/", True), ("releases/2.14/", False), ("zh/matrix/", False)]:
        page = built_site.page(url)
        feeds = [e.attrs["href"] for e in parse(page).elements if e.tag == "link" and e.attrs.get("type") == "application/atom+xml"]
        assert bool(feeds) == named, url
        assert all(_resolve(built_site, page, href)[0] == built_site.files / "feed.xml" for href in feeds)


def test_no_third_party_requests_in_markup_or_styles(built_site):
    """Nothing a page loads (scripts, styles, fonts, images) comes from another host."""
    offenders = []
    for page in _html_pages(built_site):
        parsed = parse(page)
        loaded = (
            parsed.links("script", "src")
            + parsed.links("img", "src")
            + [
                e.attrs["href"]
                for e in parsed.elements
                if e.tag == "link" and e.attrs.get("rel") in ("stylesheet", "preconnect", "preload", "icon")
            ]
        )
        offenders += [f"{page.name}: {url}" for url in loaded if re.match(r"(https?:)?//", url) and not url.startswith(built_site.base_url)]
    for css in built_site.files.rglob("*.css"):
        offenders += [f"{css.name}: {u}" for u in re.findall(r"url\((['\"]?)(?:https?:)?//[^)]+\)", css.read_text(encoding="utf-8"))]
    assert not offenders, offenders
    assert "fonts.googleapis" not in built_site.page("").read_text(encoding="utf-8")


def test_site_url_prefix_drives_sitemap_canonical_and_404(built_site):
    sitemap = (built_site.files / "sitemap.xml").read_text(encoding="utf-8")
    assert f"{built_site.base_url}releases/1.10/" in sitemap
    canonical = [e.attrs["href"] for e in parse(built_site.page("releases/1.10/")).elements if e.attrs.get("rel") == "canonical"]
    assert canonical == [f"{built_site.base_url}releases/1.10/"]
    not_found = (built_site.files / "404.html").read_text(encoding="utf-8")
    assert f'href="{PREFIX}assets/stylesheets/' in not_found


def test_data_text_is_never_executed(built_site):
    """No script, event handler or javascript: URL reaches a generated page."""
    theme_scripts = len([e for e in parse(built_site.files / "404.html").elements if e.tag == "script" and "src" not in e.attrs])
    for page in _html_pages(built_site):
        parsed = parse(page)
        for element in parsed.elements:
            assert not any(name.startswith("on") for name in element.attrs), (page, element)
            assert not element.attrs.get("href", "").lower().startswith("javascript:"), (page, element)
        inline_scripts = [e for e in parsed.elements if e.tag == "script" and "src" not in e.attrs]
        assert len(inline_scripts) == theme_scripts, page  # only the theme's own inline scripts


def test_a_feature_without_a_page_has_an_address_that_leads_to_its_entry_or_record(built_site):
    redirects = _redirect_pages(built_site)
    stubs = [lc for lc in indexes.build_lifecycles(ATLAS).values() if not lc.has_page]
    single = [lc for lc in stubs if not lc.has_history]
    parts = [lc for lc in stubs if lc.has_history]  # several releases, under the id of a part of a record
    assert single and parts, "the real data has features that one release mentions, and ids that lead to a record"
    for lifecycle in stubs:
        for edition in ("", "zh/"):  # the Chinese address leads to the Chinese entry or record
            stub = built_site.page(f"{edition}features/{lifecycle.id}/")
            file, fragment = _resolve(built_site, stub, redirects[stub])
            if lifecycle in single:
                assert (file, fragment) == (built_site.page(f"{edition}releases/{lifecycle.stages[0].version}/"), lifecycle.id)
                assert fragment in parse(file).ids
            else:
                assert (file, fragment) == (built_site.page(f"{edition}features/{lifecycle.record_page}/"), "")
    assert len(redirects) == 2 * len(stubs) + len(ATLAS.redirects)
    assert (built_site.files / THEME_ICON).exists()  # the icon redirect pages name


def test_every_registered_url_exists_in_the_built_site(built_site):
    ids = {}  # each page's anchors, read once: most registered URLs are anchors of the release pages
    for url in read_registry(REAL_DATA):
        file, fragment = _resolve(built_site, built_site.page(""), url.lstrip("/"))
        assert file.exists(), url
        if fragment:
            if file not in ids:
                ids[file] = parse(file).ids
            assert fragment in ids[file], url


def _text(path: Path) -> str:
    """A page's visible text with tags removed and white space folded."""
    return _visible(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("page", ["", "releases/"])
def test_home_and_releases_index_state_the_coverage(built_site, page):
    text = _text(built_site.page(page))
    first, last = ATLAS.releases[0].version, ATLAS.releases[-1].version
    assert f"The atlas covers {len(ATLAS.releases)} feature releases, PyTorch {first} to {last}" in text
    missing = indexes.missing_releases(ATLAS)
    assert ("not yet covered: " + ", ".join(missing) in text) if missing else "not yet covered" not in text
    for release in ATLAS.releases:
        assert f"{len(release.changes)} ({release.coverage.changes})" in text, release.version


@pytest.mark.parametrize("release", ATLAS.releases, ids=lambda r: r.version)
def test_release_page_says_whether_its_changes_are_complete(built_site, release):
    page = built_site.page(f"releases/{release.version}/")
    text = _text(page)
    if release.coverage.changes_complete:
        assert "covers every backwards-incompatible change and deprecation in the release notes" in text
        assert "Partial list" not in text
    else:
        assert "Partial list" in text
        assert release.notes_url in parse(page).links()
    for patch in release.patches:
        assert f"Patch release {patch.version}" in text and patch.source in parse(page).links()


def test_missing_page_lists_every_covered_release(built_site):
    page = parse(built_site.files / "404.html")
    listed = [link.attrs["href"] for link in page.with_class("atlas-covered-release")]
    assert listed == [f"{PREFIX}releases/{r.version}/" for r in ATLAS.newest_first]


def test_about_page_explains_every_labeling_scheme(built_site):
    page = built_site.page("about/")
    text, parsed = _text(page), parse(page)
    for scheme in ATLAS.labels.schemes:
        assert f"scheme-{scheme.id}" in parsed.ids
        assert scheme.title in text and scheme.source in parsed.links()
        for label in scheme.labels:
            assert " ".join(label.meaning.split()) in text, label.name


def test_every_badge_says_what_its_label_means(built_site):
    for release in (release for release in ATLAS.releases if release.features):
        badges = parse(built_site.page(f"releases/{release.version}/")).with_class("atlas-stage")
        assert badges and all(badge.attrs.get("title") for badge in badges), release.version


@pytest.mark.parametrize("topic", ATLAS.topics, ids=lambda t: t.id)
def test_every_topic_index_opens_with_its_stage_grid(built_site, topic):
    page = parse(built_site.page(f"topics/{topic.id}/"))
    lifecycles = indexes.topic_lifecycles(ATLAS, indexes.build_lifecycles(ATLAS), topic.id)
    rows = [e for e in page.elements if e.tag == "tr" and "data-stages" in e.attrs]
    assert len(rows) == len(lifecycles)
    if topic.platform:
        assert "platform" in page.ids


def test_every_feature_has_an_svg_status_badge(built_site):
    import xml.etree.ElementTree as ET

    for lifecycle in indexes.build_lifecycles(ATLAS).values():
        svg = ET.parse(built_site.files / "features" / lifecycle.id / "badge.svg").getroot()
        assert svg.tag == "{http://www.w3.org/2000/svg}svg"
        assert f"in {lifecycle.latest.version}" in "".join(svg.itertext())


def test_every_release_links_its_neighbours(built_site):
    for previous, current in zip(ATLAS.releases, ATLAS.releases[1:], strict=False):
        links = parse(built_site.page(f"releases/{current.version}/")).links()
        assert f"../{previous.version}/" in links
        assert f"../{current.version}/" in parse(built_site.page(f"releases/{previous.version}/")).links()


def test_release_pages_link_to_their_data_file_and_the_report_form(built_site):
    for release in ATLAS.releases:
        links = parse(built_site.page(f"releases/{release.version}/")).links()
        assert any(link.endswith(f"/edit/main/data/releases/{release.version}.yaml") for link in links), release.version
        assert any("/issues/new?template=data-correction.yml" in link for link in links), release.version


def test_upgrade_steps_list_each_change_and_stage_move_as_its_own_item(built_site):
    html = built_site.page("upgrade/").read_text(encoding="utf-8")
    steps = indexes.upgrade_steps(ATLAS, indexes.build_lifecycles(ATLAS))
    for step in steps[1:]:
        start = html.index(f'data-version="{step.release.version}"')
        section = html[start : html.index("</section>", start)]
        expected = (len(step.changes) or 1) + len(step.stage_changes)
        assert section.count("<li>") == expected, step.release.version


def test_torch_compile_has_one_page_with_its_name_its_parts_and_every_release(built_site):
    """The feature record of torch.compile: its own name and description, its parts, and its entries from 2.0 on."""
    history = indexes.feature_histories(ATLAS, indexes.build_lifecycles(ATLAS))["torch-compile"]
    page = built_site.page("features/torch-compile/")
    text = page.read_text(encoding="utf-8")
    assert 'http-equiv="refresh"' not in text  # a page, no longer a redirect to the 2.0 entry
    document = parse(page)
    assert "torch.compile" in html.unescape(re.search(r"<h1[^>]*>(.*?)</h1>", text, re.S).group(1))
    assert {"parts", "history"} <= document.ids
    assert "wraps a model or function and returns a compiled version" in html.unescape(text)
    versions = {a.release.version for a in history.everything}
    assert {"2.0", "2.5", "2.14"} <= versions
    for version in versions:
        assert f"in-{version.replace('.', '-')}" in document.ids
    for part in history.parts:
        assert f'href="../{part.id}/"' in text


def test_each_stage_on_a_release_page_says_what_it_promises_in_that_releases_words(built_site):
    """The meaning of a badge is in its tooltip, which a phone cannot show; each stage's section says it in text."""
    for version, stage in (("1.10", "Beta"), ("2.14", "API-Unstable"), ("1.7", "Prototype")):
        scheme = ATLAS.labels.scheme_for(version)
        meaning = next(label.meaning for label in scheme.labels if label.name == stage)
        page = (built_site.files / "releases" / version / "index.html").read_text(encoding="utf-8")
        section = page[page.index(f'id="{stage.lower()}-features"') :]
        paragraph = section[section.index("<p") : section.index("</p>")]
        assert 'class="atlas-stage-meaning"' in paragraph and html.escape(" ".join(meaning.split()), quote=False)[:60] in paragraph
        assert f'href="../../about/#scheme-{scheme.id}"' in paragraph
