"""Material's search index gives the same entries when it reads pages without the tags its parser drops."""

from __future__ import annotations

from pathlib import Path

from material.plugins.search.plugin import SearchIndex
from mkdocs.config import load_config
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from macros.plugin.searching import index_lightly, without_inert_tags

from ..conftest import PROJECT_DIR

PAGE = """# Sample

Text with `inline code` and a [link](https://pytorch.org), a stage
<span title="Still &quot;under&quot; development." class="atlas-stage atlas-stage--beta">Beta</span>
and a [link with code: `torch.compile`](https://pytorch.org/docs).

## A heading with a [link](https://pytorch.org) { #linked }

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


def _entries(page: Page, settings: dict, *, lightly: bool, remembered: dict | None = None) -> list[dict]:
    index = SearchIndex(**settings)
    if lightly:
        index_lightly(index, {} if remembered is None else remembered)
    index.add_entry_from_context(page)
    return index.entries


def test_entries_are_the_same_without_inert_tags(tmp_path):
    page, settings = _page_and_search_settings(tmp_path)
    content = page.content
    assert without_inert_tags(content).count("<span") < content.count("<span") // 4
    material = _entries(page, settings, lightly=False)
    assert _entries(page, settings, lightly=True) == material
    assert page.content == content  # the page itself keeps its spans


def test_a_code_block_with_other_spans_stays_whole():
    block = '<pre><span id="line-1"></span><code><span class="k">def</span> f(): pass</code></pre>'
    assert without_inert_tags(f"<p>x</p>{block}") == f"<p>x</p>{block}"
    assert without_inert_tags('<pre><code><span class="k">def</span> f</code></pre>') == "<pre><code>def f</code></pre>"


def test_a_rebuild_gives_unchanged_sections_their_entries_of_before(tmp_path):
    page, settings = _page_and_search_settings(tmp_path)
    material = _entries(page, settings, lightly=False)
    remembered: dict = {}
    assert _entries(page, settings, lightly=True, remembered=remembered) == material
    assert len(remembered) == len(material)
    # the next build takes each section's entry from what the build before left, not from Material again
    first_key = next(key for key in remembered if key[1] is None)
    remembered[first_key] = [{**remembered[first_key][0], "text": "given again"}]
    again = _entries(page, settings, lightly=True, remembered=remembered)
    assert again[0]["text"] == "given again" and again[1:] == material[1:]
    # a section whose text changed is made anew, and the build after remembers only this build's sections
    page.content = page.content.replace("Text with", "Other text with")
    changed = _entries(page, settings, lightly=True, remembered=remembered)
    assert changed[0]["text"].startswith("<p>Other text with") and changed[1:] == material[1:]
    assert len(remembered) == len(material)
