"""The generated pages and files, as a plain function of the data."""

from __future__ import annotations

import dataclasses

import yaml

from macros.data.model import BlockResult
from macros.render.pages import check_summary, generate_site
from macros.render.site import SiteCache, generate_checked
from tests.support.site import copy_mini_data

SITE = "https://example.org/atlas/"


def test_features_with_a_history_get_pages_and_the_rest_lead_to_their_entry(mini_atlas):
    site = generate_site(mini_atlas, site_url=SITE)
    assert sorted(path for path in site.pages if path.startswith("features/")) == [
        "features/alpha.md",
        "features/beta-thing.md",
        "features/gamma.md",
        "features/index.md",
    ]
    stub = site.files["features/delta/index.html"]
    assert 'content="0; url=../../releases/2.10/#delta"' in stub
    assert '<link rel="icon" href="../../assets/images/favicon.png">' in stub  # no stray request for /favicon.ico
    assert "[Delta" in site.pages["features/index.md"] and "](../releases/2.10.md#delta)" in site.pages["features/index.md"]


def test_generated_pages_never_let_the_macros_plugin_render_them(mini_atlas):
    for path, markdown in generate_site(mini_atlas, site_url=SITE).pages.items():
        front_matter = markdown.split("---\n")[1]
        assert "render_macros: false" in front_matter.splitlines(), path


def test_titles_with_quotes_colons_and_markup_stay_inside_their_front_matter_value(mini_atlas):
    title = 'Say "hi": `a: b` # not a comment & <not a tag>'
    topics = (dataclasses.replace(mini_atlas.topics[0], title=title), *mini_atlas.topics[1:])
    site = generate_site(dataclasses.replace(mini_atlas, topics=topics), site_url=SITE)
    front_matter = yaml.safe_load(site.pages["topics/cuda.md"].split("---\n")[1])
    assert front_matter["title"] == "Say &quot;hi&quot;: a: b # not a comment &amp; &lt;not a tag&gt; across releases"
    assert front_matter["render_macros"] is False


def test_each_outcome_of_a_code_block_reads_as_one_line():
    def result(outcome, detail, torch="1.7.1", checks=None, processes=None):
        return BlockResult("x", "example", "0" * 16, outcome, detail, "2026-11-22", torch, "3.8.18" if torch else None, checks, processes)

    checked = result("ran", "checked 2 output comments", checks=2)
    assert check_summary(checked) == "Ran on torch 1.7.1, Python 3.8.18: checked 2 output comments."
    assert checked.status == "checked"
    together = result("ran", "checked 1 assert", checks=1, processes=2)
    assert check_summary(together) == "Ran on torch 1.7.1, Python 3.8.18, in 2 processes: checked 1 assert."
    assert together.status == "checked-together"
    quiet = result("ran", "nothing to check: the point is that the call returns", checks=0)
    assert check_summary(quiet) == "Ran on torch 1.7.1, Python 3.8.18: nothing to check: the point is that the call returns."
    assert quiet.status == "nothing-to-check"
    raised = result("raised", "line 3: RuntimeError as stated", checks=1)
    assert check_summary(raised) == "Ran on torch 1.7.1, Python 3.8.18: raised at line 3: RuntimeError as stated."
    assert raised.status == "checked"
    static = result("names-checked", "needs CUDA; compiles with Python 3.8, 4 torch names found")
    assert check_summary(static) == "Checked statically in torch 1.7.1, not run: needs CUDA; compiles with Python 3.8, 4 torch names found."
    assert static.status == "static"
    assert check_summary(result("not-run", "C++ code: not run", None)) == "C++ code: not run."
    assert check_summary(result("failed", "torch 1.2 could not be installed", None)) == "Failed: torch 1.2 could not be installed"
    assert result("failed", "x").status == "pending"
    assert check_summary(None) == "Not run yet by make examples."


def test_a_release_page_shows_each_block_check_escaped(mini_atlas):
    index, release = next((i, r) for i, r in enumerate(mini_atlas.releases) if r.code_blocks())
    block = release.code_blocks()[0]
    hostile = BlockResult(block.item, block.role, block.hash, "failed", "line 1: <b>_x_</b>", "2026-11-22", "2.0.0", "3.11.7")
    releases = list(mini_atlas.releases)
    releases[index] = dataclasses.replace(release, results=(hostile,))
    atlas = dataclasses.replace(mini_atlas, releases=tuple(releases))
    page = generate_site(atlas, site_url=SITE).pages[f"releases/{release.version}.md"]
    assert "line 1: &lt;b&gt;&#95;x&#95;&lt;/b&gt;" in page and "<b>" not in page
    assert "{: .atlas-check .atlas-check--failed }" in page


def test_a_data_edit_in_a_preview_renders_again_only_the_pages_it_touches(tmp_path):
    """Without an API index too: the empty index stands for the same releases between builds, so it is no change."""
    data, cache = copy_mini_data(tmp_path / "data"), SiteCache()
    before = generate_checked(data, site_url=SITE, check_published=False, cache=cache)
    release = data / "releases" / "2.10.yaml"
    release.write_text(release.read_text(encoding="utf-8").replace("\nsummary: ", "\nsummary: Edited. ", 1), encoding="utf-8")
    after = generate_checked(data, site_url=SITE, check_published=False, cache=cache)
    again = {path for path, page in after.pages.items() if page is before.pages[path]}
    assert "Edited." in after.pages["releases/2.10.md"] and "releases/2.10.md" not in again
    assert {"releases/2.0.md", "features/beta-thing.md"} <= again
