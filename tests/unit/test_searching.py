"""Material's search index gives the same entries when it reads code blocks without their token spans, page by pieces."""

from __future__ import annotations

from pathlib import Path

from material.plugins.search.plugin import Parser, SearchIndex
from mkdocs.config import load_config
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from macros.searching import _index_page, index_in_one_pass, index_lightly, page_sections, without_token_spans

from ..conftest import PROJECT_DIR

PAGE = """# Sample

Text with `inline code` and a [link](https://pytorch.org).

## Code { #code }

```python
import torch

def scaled(x: torch.Tensor) -> torch.Tensor:
    \"\"\"Keep <span> & "quotes" as text.\"\"\"
    return x * 2  # comment


print(scaled(torch.ones(3)))
```

!!! note "A heading inside a block"
    ### Nested { #nested }

    ```bash
    pip install torch==2.5.0
    ```

| Column | Value |
| --- | --- |
| `a` | 1 |
"""


def _page_and_search_settings(docs: Path) -> tuple[Page, dict]:
    """The sample page converted with the site's own Markdown configuration, and the site's search settings."""
    config = load_config(str(PROJECT_DIR / "mkdocs.yml"))
    (docs / "sample.md").write_text(PAGE, encoding="utf-8")
    file = File("sample.md", str(docs), str(docs / "site"), use_directory_urls=True)
    page = Page(None, file, config)
    page.read_source(config)
    page.render(config, Files([file]))
    return page, dict(config.plugins["material/search"].config)


def _entries(page: Page, settings: dict, *, lightly: bool, remembering: bool = False) -> list[dict]:
    index = SearchIndex(**settings)
    if lightly:
        index_lightly(index, remembering=remembering)
    index.add_entry_from_context(page)
    return index.entries


def test_entries_are_the_same_without_token_spans(tmp_path):
    page, settings = _page_and_search_settings(tmp_path)
    content = page.content
    assert without_token_spans(content).count("<span") < content.count("<span") // 4
    material = _entries(page, settings, lightly=False)
    assert _entries(page, settings, lightly=True) == material
    assert _entries(page, settings, lightly=True, remembering=True) == material
    assert page.content == content  # the page itself keeps its spans


def test_a_code_block_with_other_spans_stays_whole():
    block = '<pre><span id="line-1"></span><code><span class="k">def</span> f(): pass</code></pre>'
    assert without_token_spans(f"<p>x</p>{block}") == f"<p>x</p>{block}"
    assert without_token_spans('<pre><code><span class="k">def</span> f</code></pre>') == "<pre><code>def f</code></pre>"


def _material_sections(html: str) -> list[tuple]:
    parser = Parser()
    parser.feed(without_token_spans(html))
    parser.close()
    return [(s.el.tag, s.id, s.title, s.text, s.is_excluded()) for s in parser.data]


def test_a_page_read_in_pieces_gives_material_s_sections():
    """Pieces that leave an element open (a heading inside a block) are read with the next; an excluded element's
    exclusion ends with it, as in Material's parser."""
    page = (
        '<p>Preface</p><h1 id="top">Top</h1><p>a</p><div class="admonition"><h2 id="inside">Inside</h2><p>b</p></div>'
        '<nav data-search-exclude><a href="x">skip</a></nav><h2 id="after">After <a class="headerlink" href="#after">#</a></h2>'
        '<pre><code><span class="k">x</span> = 1</code></pre><h3>no id</h3><p>c</p><h2 id="last">Last</h2><div><p>open'
    )
    assert [(s.el.tag, s.id, s.title, s.text, s.is_excluded()) for s in page_sections(page)] == _material_sections(page)


def test_the_page_event_indexes_as_material_s_and_drops_what_it_drops(tmp_path):
    """The search plugin's page event, made to skip its pass over pages with nothing to drop, indexes each page as
    Material's does and still drops `data-search-*` attributes that carry a value."""
    config = load_config(str(PROJECT_DIR / "mkdocs.yml"))
    plugin = config.plugins["material/search"]
    plain = '<h1 id="t">T</h1><nav data-search-exclude><p>skipped</p></nav><p>kept</p>'
    boosted = '<h1 id="t" data-search-boost="2">T</h1><p>kept</p>'
    outcomes = {}
    for one_pass in (False, True):
        plugin.on_config(config)  # a new index, as at every build
        if one_pass:
            index_in_one_pass(config.plugins)
        contents = []
        for number, html in enumerate((plain, boosted)):
            file = File(f"p{number}.md", str(tmp_path), str(tmp_path / "site"), use_directory_urls=True)
            page = Page(None, file, config)
            page.content, page.toc = html, []
            config.plugins.run_event("page_context", {}, page=page, config=config, nav=None)
            contents.append(page.content)
        outcomes[one_pass] = (contents, plugin.search_index.entries)
    assert [getattr(handler, "__func__", None) for handler in config.plugins.events["page_context"]].count(_index_page) == 1
    assert outcomes[True] == outcomes[False]
    assert outcomes[True][0] == [plain, '<h1 id="t">T</h1><p>kept</p>']
    assert [entry["text"] for entry in outcomes[True][1] if entry["text"]] == ["<p>kept</p>", "<p>kept</p>"]
