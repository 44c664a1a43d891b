"""No injection vector in any text field reaches a reader as something that runs.

Each vector goes into every kind of text field (feature, change, release, topic, source title,
coverage note, patch, example code), and the labels and a code block's recorded result carry some
too, and so do a release's setups; the Chinese edition's translations of every data text, its label glosses and its
interface words carry them as well. The loader refuses some with a precise error; the rest are built into one real site with
`mkdocs build --strict`. That site is then read by a parser (HTML pages, titles, ids, the feed, the
sitemap, the badges, the JSON export, the search index) and opened in Chromium, looking for
anything a browser would run, any file of the checkout published, and anything written outside
the output folder.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urlencode

import pytest
import yaml

from macros.data.glossary import GLOSSARY
from macros.data.loading import load_atlas
from macros.data.markup import as_browser_reads
from macros.data.model import Atlas
from macros.data.texts import text_hash, visible_texts
from macros.data.translations import translation_dir
from macros.data.yamlfile import DataErrors
from macros.views.edition import translated_edition
from tests.conftest import REAL_DATA
from tests.support.html import parse, parse_html
from tests.support.site import PREFIX, build_site, copy_mini_data, copy_site_sources, free_port, serve
from tools.builds.install import install_yaml, read_commands

from .vectors import VECTORS

SOURCE = "https://example.org/inject"
RELEASE_FIELDS = (
    ("title",),
    ("summary",),
    ("features", 0, "title"),
    ("features", 0, "summary"),
    ("features", 0, "details"),
    ("features", 0, "example", "caption"),
    ("features", 0, "example", "code"),
    ("changes", 0, "title"),
    ("changes", 0, "summary"),
    ("changes", 0, "before"),
    ("changes", 0, "after"),
    ("sources", 0, "title"),
    ("coverage", "note"),
    ("patches", 0, "summary"),
    ("setups", 0, "caption"),
    ("setups", 0, "code"),
)
TOPIC_FIELDS = (("title",), ("intro",))
URL_ATTRIBUTES = ("href", "src", "action", "formaction", "data", "xlink:href", "poster", "background", "srcdoc")
MINI_TOPICS = 2
FORBIDDEN_TAGS = ("iframe", "object", "embed", "base", "frame", "applet", "textarea")
THEME_ID = re.compile(r"__(analytics|config|consent|drawer|search|settings|toc)|__(palette|nav|code|tabbed)_[0-9a-z_]+")
PAYLOAD_RECORD_NAME = "`</title><script>alert(91)</script>` {{ 7 * 7 }}"  # a record's name is at most 80 characters
PAYLOAD_LABEL = "{{ lipsum.__globals__['os'].makedirs('pwned') }} `</title><script>alert(90)</script>`"
PAYLOAD_RESULT = '<script>alert(91)</script> {{ config }} --8<-- "mkdocs.yml"'
PAYLOAD_COMMAND = 'pip install torch==2.0.0 "</code><script>alert(92)</script>" {{ config }}'  # an install command line
PAYLOAD_GPU = '</option><script>alert(93)</script>" onfocus="alert(94)'  # an AMD GPU's name, an option of the list
PAYLOAD_FAMILY = '"><img src=x onerror=alert(95)>'  # an Intel GPU family's code name, an option of the list too
# an NVIDIA GPU whose figure is inferred: the Will it run page names it in Markdown prose, the resolver in a sentence
PAYLOAD_INFERRED = "<img src=x onerror=alert(96)> [x](javascript:alert(97)) *em*"


def _release(index: int) -> dict:
    """A harmless release, 3.<index>, with one of every kind of text field."""
    return {
        "version": f"3.{index}",
        "title": "Injection release",
        "summary": "A release for injection tests.",
        "released": {"date": "2031-01-15", "source": SOURCE},
        "coverage": {"changes": "partial", "note": "Harmless note."},
        "patches": [{"version": f"3.{index}.1", "date": "2031-02-01", "summary": "Harmless patch.", "source": SOURCE}],
        "sources": [{"url": SOURCE, "title": "Injection source"}],
        "setups": [{"id": "harmless-setup", "caption": "Harmless setup caption", "code": "x = 1"}],
        "features": [
            {
                "id": f"inject-{index}",
                "title": "Harmless title",
                "stability": "Beta",
                "topics": [f"inject-{index}"],
                "summary": "Harmless summary.",
                "details": "Harmless details.",
                "example": {"caption": "Harmless caption", "code": "print(1)", "setup": "harmless-setup"},
                "sources": [SOURCE],
            }
        ],
        "changes": [
            {
                "id": f"inject-change-{index}",
                "kind": "breaking",
                "title": "Harmless change",
                "summary": "Harmless change summary.",
                "before": "old()",
                "after": "new()",
                "sources": [SOURCE],
            }
        ],
    }


def _set(document: dict, path: tuple, value: str) -> None:
    """Write `value` at the field path `path` of a nested document."""
    for key in path[:-1]:
        document = document[key]
    document[path[-1]] = value


def _write(data_dir: Path, releases: list[dict], topics: list[dict]) -> None:
    """Write the injected releases and topics beside the mini data set."""
    for release in releases:
        (data_dir / "releases" / f"{release['version']}.yaml").write_text(yaml.safe_dump(release, allow_unicode=True), encoding="utf-8")
    base = yaml.safe_load((data_dir / "topics.yaml").read_text(encoding="utf-8"))
    base["topics"] += topics
    (data_dir / "topics.yaml").write_text(yaml.safe_dump(base, allow_unicode=True), encoding="utf-8")


def _injected_data(data_dir: Path) -> tuple[Path, list[str]]:
    """The mini data set plus one release and one topic per vector, every field that the loader accepts carrying it.

    Returns the data folder and the loader's refusals; each refused field is put back to its harmless text.
    """
    releases = [_release(index) for index in range(len(VECTORS))]
    topics = [{"id": f"inject-{index}", "title": "Harmless topic", "intro": "Harmless intro."} for index in range(len(VECTORS))]
    for index, vector in enumerate(VECTORS):
        for path in RELEASE_FIELDS:
            _set(releases[index], path, vector)
        for path in TOPIC_FIELDS:
            _set(topics[index], path, vector)
    refusals: list[str] = []
    for _ in range(6):  # a schema error hides the file's later checks, so refuse until the data loads
        scratch = copy_mini_data(data_dir.parent / f"round-{len(refusals)}" / "data")
        _write(scratch, releases, topics)
        try:
            atlas = load_atlas(scratch)
            _inject_labels_and_results(scratch, atlas)
            load_atlas(scratch)
            return scratch, refusals
        except DataErrors as raised:
            for error in raised.errors:
                refusals.append(str(error))
                _restore(error, releases, topics)
    raise AssertionError("the injected data never loaded:\n" + "\n".join(refusals))


def _inject_labels_and_results(data_dir: Path, atlas: Atlas) -> None:
    """A label's intro and meaning, a feature record's name (its page's title) and description, and the recorded result
    of one code block carry hostile text too."""
    record = {"id": "alpha", "name": PAYLOAD_RECORD_NAME, "description": PAYLOAD_LABEL}
    (data_dir / "features.yaml").write_text(yaml.safe_dump({"features": [record]}, allow_unicode=True), encoding="utf-8")
    labels = yaml.safe_load((data_dir / "labels.yaml").read_text(encoding="utf-8"))
    labels["schemes"][0]["intro"] = PAYLOAD_LABEL
    labels["schemes"][-1]["labels"][0]["meaning"] = PAYLOAD_LABEL
    (data_dir / "labels.yaml").write_text(yaml.safe_dump(labels, allow_unicode=True), encoding="utf-8")
    release = atlas.release("3.0")
    block = release.code_blocks()[0]
    result = {
        "item": block.item,
        "role": block.role,
        "hash": block.hash,
        "outcome": "failed",
        "detail": PAYLOAD_RESULT,
        "date": "2031-01-16",
    }
    (data_dir / "examples").mkdir(exist_ok=True)
    document = {"release": "3.0", "machine": "Linux x86_64, CPU only", "blocks": [result]}
    (data_dir / "examples" / "3.0.yaml").write_text(yaml.safe_dump(document), encoding="utf-8")
    _inject_builds_and_errors(data_dir)


def _inject_builds_and_errors(data_dir: Path) -> None:
    """The build data (an NVIDIA, an AMD and an Intel GPU's name and an Intel family's, which the resolver's list and answers show, an install command, the triton line a
    wheel's metadata gives, the title of a build's source) and an explained error (every text of it, and the resolver's
    address it opens) carry hostile text too."""
    shutil.copytree(REAL_DATA / "builds", data_dir / "builds")
    nvidia = yaml.safe_load((data_dir / "builds" / "nvidia.yaml").read_text(encoding="utf-8"))
    nvidia["gpus"][0]["name"] = PAYLOAD_RECORD_NAME
    next(gpu for gpu in nvidia["gpus"] if gpu.get("architecture"))["name"] = PAYLOAD_INFERRED
    (data_dir / "builds" / "nvidia.yaml").write_text(yaml.safe_dump(nvidia, allow_unicode=True), encoding="utf-8")
    amd = yaml.safe_load((data_dir / "builds" / "amd.yaml").read_text(encoding="utf-8"))
    amd["gpus"][0]["name"] = PAYLOAD_GPU
    (data_dir / "builds" / "amd.yaml").write_text(yaml.safe_dump(amd, allow_unicode=True), encoding="utf-8")
    intel = yaml.safe_load((data_dir / "builds" / "intel.yaml").read_text(encoding="utf-8"))
    intel["gpus"][0]["name"], intel["families"][0]["codename"] = PAYLOAD_GPU, PAYLOAD_FAMILY
    (data_dir / "builds" / "intel.yaml").write_text(yaml.safe_dump(intel, allow_unicode=True), encoding="utf-8")
    install = yaml.safe_load((data_dir / "builds" / "install.yaml").read_text(encoding="utf-8"))
    install["versions"]["2.0.0"]["pip"][0]["command"] = PAYLOAD_COMMAND
    (data_dir / "builds" / "install.yaml").write_text(yaml.safe_dump(install, allow_unicode=True), encoding="utf-8")
    requirements = json.loads((data_dir / "builds" / "requirements.json").read_text(encoding="utf-8"))
    requirements["torch"]["2.0.1"]["triton"] = [PAYLOAD_COMMAND]  # what a wheel's metadata says is read as data
    (data_dir / "builds" / "requirements.json").write_text(json.dumps(requirements), encoding="utf-8")
    variants = yaml.safe_load((data_dir / "builds" / "variants.yaml").read_text(encoding="utf-8"))
    first = variants["releases"]["2.0"]["builds"][0]["sources"][0]
    next(source for source in variants["sources"] if source["id"] == first)["title"] = PAYLOAD_RECORD_NAME
    (data_dir / "builds" / "variants.yaml").write_text(yaml.safe_dump(variants, allow_unicode=True), encoding="utf-8")
    answer = {"page": "will-it-run", "text": PAYLOAD_RECORD_NAME, "query": {"gpu": PAYLOAD_RECORD_NAME, "os": "linux-x86_64"}}
    error = {"id": "hostile", "message": PAYLOAD_RESULT, "title": PAYLOAD_RECORD_NAME, "cause": PAYLOAD_LABEL, "remedy": PAYLOAD_LABEL}
    error |= {"answer": answer, "sources": ["https://pytorch.org/"]}
    (data_dir / "errors.yaml").write_text(yaml.safe_dump({"errors": [error]}, allow_unicode=True), encoding="utf-8")


def _restore(error, releases: list[dict], topics: list[dict]) -> None:
    """Put the harmless text back into the field a loader error names (injected topics follow the mini data's own)."""
    if error.file.endswith("topics.yaml"):
        index, field = error.path[1] - MINI_TOPICS, error.path[2]
        topics[index][field] = "Harmless topic" if field == "title" else "Harmless intro."
        return
    index = int(Path(error.file).stem.split(".")[1])
    path = next(p for p in RELEASE_FIELDS if tuple(error.path[: len(p)]) == p)
    _set(releases[index], path, _harmless(index, path))


def _harmless(index: int, path: tuple) -> str:
    """The harmless text of one field."""
    document = _release(index)
    for key in path:
        document = document[key]
    return document


def _inject_translations(data_dir: Path) -> list[str]:
    """A Chinese edition of the data whose translations carry the vectors in turn: every data text, every label's
    gloss, and one interface word per vector. Returns the refusals; a refused translation becomes its English text, a
    refused interface word its real translation."""
    atlas = load_atlas(data_dir)
    folder, real = translation_dir(data_dir, "zh"), translation_dir(REAL_DATA, "zh")
    glossary = yaml.safe_load((real / GLOSSARY).read_text(encoding="utf-8"))
    glossary["labels"] = [{"label": name, "gloss": PAYLOAD_LABEL} for name in atlas.labels.order]
    folder.mkdir(parents=True)
    (folder / GLOSSARY).write_text(yaml.safe_dump(glossary, allow_unicode=True), encoding="utf-8")
    catalogs = {f"interface/{path.stem}": yaml.safe_load(path.read_text(encoding="utf-8")) for path in (real / "interface").glob("*.yaml")}
    real_words = {name: dict(words) for name, words in catalogs.items()}
    for vector, (name, english) in zip(VECTORS, ((name, english) for name, words in catalogs.items() for english in words), strict=False):
        catalogs[name][english] = vector
    texts = visible_texts(atlas)
    vectors = iter(VECTORS * (1 + sum(map(len, texts.values())) // len(VECTORS)))
    translations = {
        file: {key: {"from": text_hash(english), "zh": next(vectors)} for key, english in fields.items()} for file, fields in texts.items()
    }
    refusals: list[str] = []
    for _ in range(4):  # a file that does not parse hides its later checks, so refuse until the edition loads
        for name, content in (catalogs | translations).items():
            (folder / f"{name}.yaml").parent.mkdir(parents=True, exist_ok=True)
            (folder / f"{name}.yaml").write_text(yaml.safe_dump(content, allow_unicode=True), encoding="utf-8")
        try:
            translated_edition(atlas, data_dir, "zh")
            return refusals
        except DataErrors as raised:
            for error in raised.errors:
                refusals.append(str(error))
                name, key = error.file.removeprefix("data/translations/zh/").removesuffix(".yaml"), error.path[0]
                if name in catalogs:
                    catalogs[name][key] = real_words[name][key]
                else:
                    translations[name][key]["zh"] = texts[name][key]
    raise AssertionError("the injected translations never loaded:\n" + "\n".join(refusals))


@pytest.fixture(scope="module")
def injected_site(tmp_path_factory):
    """The real site built from data carrying every accepted vector, and the refusals of the loader and of the
    translations."""
    root = tmp_path_factory.mktemp("inject")
    data_dir, refusals = _injected_data(root / "data")
    refusals += _inject_translations(data_dir)
    project = copy_site_sources(root / "project", with_data=False)
    shutil.copytree(data_dir, project / "data")
    out = root / "site" / PREFIX.strip("/")
    result = build_site(out, f"http://127.0.0.1:8000{PREFIX}", project=project)
    assert result.returncode == 0, result.stdout + result.stderr
    return out, refusals, project


def _pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def test_there_are_at_least_forty_vectors_in_every_field():
    assert len(VECTORS) >= 40
    assert len(RELEASE_FIELDS) + len(TOPIC_FIELDS) >= 16


def test_every_refusal_names_the_file_line_and_field(injected_site):
    _, refusals, _ = injected_site
    assert refusals, "some vectors must be refused by the loader"
    for refusal in refusals:
        assert re.match(r"data/(releases/3\.\d+\.yaml|topics\.yaml|translations/zh/[\w/.-]+\.yaml):\d+: \S+", refusal), refusal
    assert any(refusal.startswith("data/translations/zh/releases/") for refusal in refusals), "translations are checked too"
    assert any(refusal.startswith("data/translations/zh/interface/") for refusal in refusals), "and so are interface words"


def test_accepted_vectors_are_shown_as_text(injected_site):
    site, _, _ = injected_site
    code = (site / "releases" / "3.45" / "index.html").read_text(encoding="utf-8")
    assert "alert(46)" in html.unescape(re.sub(r"<[^>]+>", "", code)), "a vector inside a code span is shown as text"


def test_no_page_can_run_data(injected_site):
    site, _, _ = injected_site
    theme_scripts = len(_inline_scripts(site / "404.html"))
    problems = []
    for page in sorted(site.rglob("*.html")):
        parsed = parse(page)
        name = page.relative_to(site)
        if len(_inline_scripts(page)) != theme_scripts and "http-equiv" not in page.read_text(encoding="utf-8"):
            problems.append(f"{name}: inline scripts beyond the theme's own")
        for element in parsed.elements:
            for attribute, value in element.attrs.items():
                if attribute.startswith("on"):
                    problems.append(f"{name}: <{element.tag} {attribute}=...>")
                if attribute in URL_ATTRIBUTES or (attribute == "content" and element.attrs.get("http-equiv")):
                    scheme = re.match(r"([a-z][a-z0-9+.-]*):", as_browser_reads(value).lower().split("url=")[-1])
                    if scheme and scheme.group(1) not in ("http", "https", "mailto"):
                        problems.append(f"{name}: <{element.tag} {attribute}={value!r}>")
            if element.tag in FORBIDDEN_TAGS:
                problems.append(f"{name}: <{element.tag}>")
            if element.tag == "script" and "src" in element.attrs and not element.attrs["src"].startswith(("../", "assets/", PREFIX)):
                problems.append(f"{name}: external script {element.attrs['src']}")
    assert not problems, "\n".join(problems)


def _inline_scripts(page: Path) -> list[str]:
    """The text of a page's inline scripts, which only the theme writes."""
    return re.findall(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", page.read_text(encoding="utf-8"), re.DOTALL)


def test_template_syntax_is_shown_and_never_evaluated(injected_site):
    site, _, project = injected_site
    assert not list(project.parent.rglob("pwned")), "a template in the data ran during the build"
    for page in ("releases/3.50/index.html", "about/index.html", "features/alpha/index.html", "zh/about/index.html"):
        shown = html.unescape((site / page).read_text(encoding="utf-8"))
        assert "{{ lipsum.__globals__['os'].makedirs('pwned') }}" in shown, f"{page}: the template is shown as written"


def test_build_data_and_explained_errors_are_shown_as_text(injected_site):
    site, _, _ = injected_site
    text = {page: html.unescape(re.sub(r"<[^>]+>", "", (site / page).read_text(encoding="utf-8")))
            for page in ("errors/hostile/index.html", "releases/2.0/index.html")}  # fmt: skip
    assert "<script>alert(91)</script>" in text["errors/hostile/index.html"]
    assert PAYLOAD_COMMAND in text["releases/2.0/index.html"]
    release = (site / "releases" / "2.0" / "index.html").read_text(encoding="utf-8")
    for anchor, payload in (("must-match", PAYLOAD_COMMAND), ("builds", PAYLOAD_RECORD_NAME)):  # a wheel's triton line, a build's source
        table = release[release.index(f'id="{anchor}"') :]
        assert payload in html.unescape(re.sub(r"<[^>]+>", "", table[: table.index("</table>")])), anchor
    options = [e.attrs.get("value") for e in parse(site / "will-it-run" / "index.html").elements if e.tag == "option"]
    assert PAYLOAD_RECORD_NAME in options and PAYLOAD_GPU in options and PAYLOAD_FAMILY in options
    page = (site / "will-it-run" / "index.html").read_text(encoding="utf-8")
    inferred = page[page.index("<strong>Inferred figures</strong>") :].split("</li>")[0]
    assert PAYLOAD_INFERRED in html.unescape(re.sub(r"<[^>]+>", "", inferred))  # shown as written: no image, link or emphasis
    assert "<img" not in inferred and "<em>" not in inferred and inferred.count("<a ") == 2  # the two sources' links only
    compatibility = json.loads((site / "api" / "compatibility.json").read_text(encoding="utf-8"))
    assert compatibility["gpus"][0]["name"] == PAYLOAD_RECORD_NAME
    assert PAYLOAD_INFERRED in [gpu["name"] for gpu in compatibility["gpus"] if gpu.get("architecture")]
    assert compatibility["amd_gpus"][0]["name"] == PAYLOAD_GPU
    assert compatibility["intel"]["gpus"][0]["name"] == PAYLOAD_GPU and compatibility["intel"]["families"][0]["codename"] == PAYLOAD_FAMILY


def test_no_file_of_the_checkout_is_published(injected_site):
    site, _, _ = injected_site
    for output in [*_pages(site), site / "search" / "search_index.json", site / "api" / "releases.json"]:
        text = html.unescape(output.read_text(encoding="utf-8"))
        assert "site_name:" not in text and "markdown_extensions:" not in text, f"{output.relative_to(site)} shows mkdocs.yml"
    shown = html.unescape(re.sub(r"<[^>]+>", "", (site / "releases" / "3.52" / "index.html").read_text(encoding="utf-8")))
    assert '--8<-- "mkdocs.yml"' in shown, "an include line in data is shown as written"


def test_titles_are_text_and_ids_leave_the_themes_alone(injected_site):
    site, _, _ = injected_site
    for page in _pages(site):
        text = page.read_text(encoding="utf-8")
        if "http-equiv" in text:
            continue  # a redirect page
        titles = re.findall(r"<title>(.*?)</title>", text, re.DOTALL)
        assert len(titles) == 1 and "<" not in titles[0], f"{page.relative_to(site)}: {titles}"
        ids = [element.attrs["id"] for element in parse(page).elements if "id" in element.attrs]
        assert len(ids) == len(set(ids)), f"{page.relative_to(site)}: an id used twice"
        assert all(THEME_ID.fullmatch(i) for i in ids if i.startswith("__")), f"{page.relative_to(site)}: {ids}"


def test_every_page_keeps_its_sources_section(injected_site):
    site, _, _ = injected_site
    for index in range(len(VECTORS)):
        text = (site / "releases" / f"3.{index}" / "index.html").read_text(encoding="utf-8")
        assert 'id="sources"' in text, f"release 3.{index} lost the end of its page"


def test_xml_outputs_are_well_formed_and_keep_the_text(injected_site):
    site, _, _ = injected_site
    feed = ET.parse(site / "feed.xml")
    titles = [
        entry.findtext("{http://www.w3.org/2005/Atom}title") for entry in feed.getroot().findall("{http://www.w3.org/2005/Atom}entry")
    ]
    assert len([title for title in titles if not title.endswith("(patch release)")]) == len(VECTORS) + 3
    ET.parse(site / "sitemap.xml")
    badges = sorted((site / "features").rglob("badge.svg"))
    assert len(badges) >= len(VECTORS)
    for badge in badges:
        assert ET.parse(badge).getroot().tag == "{http://www.w3.org/2000/svg}svg", badge


def test_json_and_search_index_carry_data_as_text(injected_site):
    site, refusals, project = injected_site
    export = json.loads((site / "api" / "releases.json").read_text(encoding="utf-8"))
    titles = [(r["version"], f["id"], f["title"]) for r in export["releases"] for f in r["features"]]
    assert titles == [(r.version, f.id, f.title) for r in load_atlas(project / "data").releases for f in r.features]  # as in the data
    accepted = VECTORS.index("`</title><script>alert(53)</script>`")  # markup in a code span: accepted, kept as written
    assert (f"3.{accepted}", f"inject-{accepted}", "`</title><script>alert(53)</script>`") in titles
    refused = VECTORS.index("</title><script>alert(52)</script>")  # raw HTML: refused, so its harmless text is exported
    assert re.search(rf"^data/releases/3\.{refused}\.yaml:\d+: features\[0\]\.title: raw HTML is not allowed", "\n".join(refusals), re.M)
    assert (f"3.{refused}", f"inject-{refused}", "Harmless title") in titles
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    allowed = {"p", "pre", "div", "code", "a", "em", "strong", "small", "span", "br", "ul", "ol", "li", "dl", "dt", "dd", "blockquote"}
    allowed |= {"table", "thead", "tbody", "tr", "th", "td", "sup", "sub", "kbd", "abbr", "mark", "del", "hr"}
    for entry in index["docs"]:
        for field in ("title", "text"):
            elements = parse_html(entry[field]).elements  # the search box shows these as HTML
            assert {e.tag for e in elements} <= allowed, (entry["location"], {e.tag for e in elements} - allowed)
            assert not [a for e in elements for a in e.attrs if a.startswith("on") or a in ("src", "style")], entry["location"]


@pytest.mark.browser
def test_chromium_runs_nothing_from_data(injected_site, browser):
    """Every page with data on it, opened in Chromium: no dialog opens, nothing is requested off the machine."""
    site, _, _ = injected_site
    root = site.parent
    paths = [f"releases/3.{index}/" for index in range(len(VECTORS))]
    paths += ["", "about/", "upgrade/", "matrix/", "platforms/", "topics/", "features/", "releases/"]
    paths += [f"topics/inject-{index}/" for index in range(0, len(VECTORS), 7)]
    paths += [
        "releases/2.0/",
        "errors/",
        "errors/hostile/",
        "will-it-run/?" + urlencode({"gpu": PAYLOAD_RECORD_NAME, "os": "linux-x86_64"}),
    ]
    paths += [f"zh/{path}" for path in paths]  # the Chinese edition: its translations carry the vectors too
    dialogs: list[str] = []
    requests: list[str] = []
    with serve(root, free_port()) as base_url:
        page = browser.new_page()
        page.on("dialog", lambda dialog: (dialogs.append(f"{page.url}: {dialog.message}"), dialog.dismiss()))
        page.on("request", lambda request: requests.append(request.url))
        page.set_content("<script>alert('probe')</script>")  # the listener hears a dialog that does open
        assert [message.split(": ")[-1] for message in dialogs] == ["probe"]
        dialogs.clear()
        for path in paths:
            page.goto(base_url + path, wait_until="load")
            page.wait_for_load_state("networkidle")  # the theme's scripts have fetched and shown what they add to the page
        page.close()
    assert dialogs == []
    assert [url for url in requests if not url.startswith(base_url.split(PREFIX)[0])] == []


def test_a_hostile_line_on_the_previous_versions_page_is_written_to_install_yaml_as_data():
    """`make install-commands` copies commands from a page's Markdown: quotes, a backslash, YAML's own syntax and
    markup in one must come back from data/builds/install.yaml exactly, as one string, adding no key or entry."""
    command = PAYLOAD_COMMAND + ' \\" }, {build: CPU only, systems: [macos], command: "pip install evil"} # x: [y]'
    page = f"### v2.0.0\n#### Wheel\n##### Linux and Windows\n```\n# CUDA 11.8\n{command}\n```\n"
    commands = read_commands(page)
    document = yaml.safe_load(install_yaml(commands, {"a test page": ["2.0.0"]}))
    assert document["versions"] == {"2.0.0": {"pip": [{"build": "CUDA 11.8", "systems": ["linux", "windows"], "command": command}]}}


def test_where_a_page_was_read_stays_in_the_comment_of_install_yaml():
    """`--read-from` is typed by a person and goes into the file's header: a line break in it must not end the comment
    and add keys of its own."""
    commands = read_commands("### v2.0.0\n#### Wheel\n##### OSX\n```\npip install torch==2.0.0\n```\n")
    read_from = "a copy at abc123\nsource: https://example.org/evil\nversions: {}\n"
    document = yaml.safe_load(install_yaml(commands, {read_from: ["2.0.0"]}))
    assert document == {"source": "https://pytorch.org/get-started/previous-versions/", "versions": commands}


def test_a_hostile_text_stays_text_when_the_preview_generates_again(tmp_path):
    """A release edited under `make serve` to hold markup and template syntax: its page, generated again from the data
    the preview's cache kept while another release is edited, shows the text escaped, as a first build does."""
    from macros.render.site import SiteCache, generate_checked

    cache = SiteCache()
    data = copy_mini_data(tmp_path / "data")
    payload = "`</code><script>alert(92)</script>` {{ 7 * 7 }}"  # accepted: the markup is code, shown as text
    hostile = data / "releases" / "2.10.yaml"
    hostile.write_text(
        hostile.read_text(encoding="utf-8").replace("summary: Alpha is stable.", f"summary: {json.dumps(payload)}"), encoding="utf-8"
    )
    generate_checked(data, site_url="/", check_published=False, cache=cache)
    other = data / "releases" / "2.0.yaml"
    other.write_text(other.read_text(encoding="utf-8") + "\n# edited while the preview runs\n", encoding="utf-8")
    kept = generate_checked(data, site_url="/", check_published=False, cache=cache)
    fresh = generate_checked(data, site_url="/", check_published=False)
    page = "releases/2.10.md"
    assert kept.pages == fresh.pages
    assert "<script>" not in kept.pages[page]
    assert "&lt;script&gt;alert(92)&lt;/script&gt;" in kept.pages[page] and "{{ 7 * 7 }}" not in kept.pages[page]
