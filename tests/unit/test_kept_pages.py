"""Pages kept between serve builds (macros/render/kept_pages.py) are the pages a first build renders, after every kind of
edit that can reach them; and a page that reads more of the atlas than its digest covers fails instead."""

from __future__ import annotations

import shutil
from pathlib import Path

import jinja2
import pytest

from macros.data.model import Atlas
from macros.render import kept_pages
from macros.render.site import SiteCache, files_state, generate_checked
from macros.views.urls import RELEASES_JSON
from tests.conftest import REAL_DATA

ZH = Path("translations/zh")


def _replace(data: Path, relative: str | Path, old: str, new: str, *, after: str = "") -> None:
    """Replace the first `old` (the first after `after`, if given) in a data file, changing its size."""
    path = data / relative
    text = path.read_text(encoding="utf-8")
    start = text.index(after) if after else 0
    position = text.index(old, start)
    assert len(old) != len(new)
    path.write_text(text[:position] + new + text[position + len(old) :], encoding="utf-8")


# Each edit reaches pages in its own way: a release's own page, other releases' pages and the grids (through a
# lifecycle), the pages of the features and topics it mentions, a translation, the results shown under code blocks, a
# file no release owns.
# (file, old, new, the text after which to replace, whether some release or feature pages are given again)
EDITS = {
    "an entry's text in one release (its translation goes stale)": ("releases/1.1.yaml", "title: Native", "title: Natively", "", True),
    "a stage in one release, shown in the lifecycle on other releases' pages": (
        "releases/2.1.yaml",
        "stability: Beta",
        "stability: Stable",
        "  - id: dynamic-shapes\n",
        True,
    ),
    "a release's CUDA versions, on the CUDA topic's page": ("releases/1.0.yaml", '"9.0", "10.0"]', '"9.0", "10.0", "10.1"]', "cuda:", True),
    "an entry given to another feature": (
        "releases/2.8.yaml",
        "    feature: dynamic-shapes\n",
        "",
        "mark-dynamic-specialization-error",
        True,
    ),
    "the Chinese text of one release": (ZH / "releases/1.1.yaml", "原生 TensorBoard 日志", "原生的 TensorBoard 日志", "", True),
    "a code block's result": ("examples/2.0.yaml", "checked 1 output comment", "checked one output comment", "", True),
    "a feature record, which every page may read": ("features.yaml", "name: torch.compile\n", "name: torch.compile, edited\n", "", False),
}


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    """A copy of the real data whose Chinese interface catalogs lack two texts: one that only the pages of a feature's
    parts ask for (kept through most edits), one that no kept page asks for."""
    data = tmp_path_factory.mktemp("kept") / "data"
    shutil.copytree(REAL_DATA, data)
    for catalog, line in (
        ("common", "Feature matrix: 功能矩阵\n"),
        ("features", '"Part of [%(name)s](%(link)s).": "属于 [%(name)s](%(link)s) 的一部分。"\n'),
    ):
        path = data / ZH / "interface" / f"{catalog}.yaml"
        path.write_text(path.read_text(encoding="utf-8").replace(line, ""), encoding="utf-8")
    return data


def test_kept_pages_are_the_pages_a_first_build_renders_after_every_kind_of_edit(data):
    cache = SiteCache()
    previous = generate_checked(data, site_url="/", check_published=False, cache=cache, keep_pages=True)
    for step, (relative, old, new, after, some_kept) in EDITS.items():
        _replace(data, relative, old, new, after=after)
        kept = generate_checked(data, site_url="/", check_published=False, cache=cache, keep_pages=True)
        fresh = generate_checked(data, site_url="/", check_published=False)  # no cache: read anew, every page rendered
        differing = sorted(path for path in fresh.pages if kept.pages.get(path) != fresh.pages[path])
        assert not differing, f"after {step}, kept pages differ from rendered ones: {differing[:10]}"
        assert kept.pages.keys() == fresh.pages.keys() and kept.files == fresh.files, step
        for language, edition in fresh.editions.items():
            assert kept.editions[language].unknown_words == edition.unknown_words, f"{step}: {language}"
        given_again = [path for path in kept.pages if kept.pages[path] is previous.pages.get(path) and "reference" not in path]
        assert bool(given_again) == some_kept, f"after {step}, pages given again: {given_again[:10]}"
        previous = kept
    assert fresh.editions["zh"].unknown_words == {"Feature matrix", "Part of [%(name)s](%(link)s)."}


def test_the_data_is_read_again_only_when_its_files_change(tmp_path):
    """A template edit under `make serve` generates the site from the data already read; each generation starts with
    no interface words asked for."""
    data = tmp_path / "data"
    shutil.copytree(REAL_DATA, data)
    cache = SiteCache()
    first = cache.data_of(data, files_state(data))
    first.translations[0].unknown_words.add("a word asked for by the last generation")
    again = cache.data_of(data, files_state(data))
    assert again.atlas is first.atlas and again.catalog is first.catalog and again.builds is first.builds
    assert again.translations[0].atlas is first.translations[0].atlas and again.translations[0].unknown_words == set()
    site = generate_checked(data, site_url="/", check_published=False, cache=cache, keep_pages=True)
    assert generate_checked(data, site_url="/", check_published=False, cache=cache, keep_pages=True) is site
    cache.site_key = None  # as after a template edit: the site generated again, the data unchanged
    regenerated = generate_checked(data, site_url="/", check_published=False, cache=cache, keep_pages=True)
    assert regenerated is not site and regenerated.atlas is site.atlas and regenerated.files[RELEASES_JSON] == site.files[RELEASES_JSON]
    _replace(data, "releases/1.1.yaml", "title: Native", "title: Natively")
    edited = generate_checked(data, site_url="/", check_published=False, cache=cache, keep_pages=True)
    assert edited.atlas is not site.atlas and edited.files[RELEASES_JSON] != site.files[RELEASES_JSON]
    assert "Natively" in edited.files[RELEASES_JSON]


def test_a_kept_page_cannot_read_a_release_outside_its_digest(mini_atlas: Atlas):
    view = kept_pages.AtlasView.of(mini_atlas)
    template = jinja2.Environment(undefined=jinja2.StrictUndefined).from_string("{{ atlas.releases[0].summary }}")
    with pytest.raises(jinja2.UndefinedError, match="summary"):
        template.render(atlas=view)
    assert [release.version for release in view.releases] == [release.version for release in mini_atlas.releases]


def test_a_template_edit_renders_again_only_the_pages_that_reach_it():
    """A page's digest covers its own template and the templates that one brings in, and no other."""
    from macros.render.pages import templates_reached

    assert templates_reached("release.md.j2") == {"_macros.md.j2"}
    assert templates_reached("topic.md.j2") == {"_macros.md.j2", "_grid.md.j2"}
    templates = {name: (name, 1, 1) for name in ("release.md.j2", "topic.md.j2", "_macros.md.j2", "_grid.md.j2", "matrix.md.j2")}
    rendered: list[str] = []

    def build_with(changed: str | None) -> None:
        if changed:
            templates[changed] = (changed, templates[changed][1] + 1, 1)
        states = kept_pages.InputStates((), {}, dict(templates))
        pages = kept_pages.KeptPages(states, "templates-test", (), set(), templates_reached)
        for path, template in (("release", "release.md.j2"), ("topic", "topic.md.j2"), ("matrix", "matrix.md.j2")):
            pages.page(path, template, [], (), lambda path=path: rendered.append(path) or path)

    build_with(None)
    build_with("release.md.j2")
    build_with("_grid.md.j2")
    build_with("_macros.md.j2")
    assert rendered == ["release", "topic", "matrix", "release", "topic", "matrix", "release", "topic"]
