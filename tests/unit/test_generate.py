"""The generated pages and files, as a plain function of the data."""

from __future__ import annotations

import dataclasses

import yaml

from macros.generate import generate_site

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
