"""A page with parts converts as the same page written whole; a rebuild converts again only what changed."""

from __future__ import annotations

from pathlib import Path

import pytest
from mkdocs.config import load_config
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from macros import page_parts
from macros.page_parts import MKDOCS_RENDER, PageParts, part

from ..conftest import PROJECT_DIR

FACTS = """| Fact | Value |
| --- | --- |
| Released | 2031-01-15 ([source](https://example.org/notes)) |
| Patch | <span id="patch-3-0-1"></span>3.0.1 |"""

ENTRY = """<span class="atlas-stage">Beta</span> [Other page](other.md#far){ .atlas-topic }
{: .atlas-meta }

Alpha does *one* thing, with `code`; see [the facts](#facts).

```python
print("alpha")
```

<small>Sources: [Notes](https://example.org/notes)</small>"""


def _page(docs: Path, parts: list[str]) -> tuple[Page, Files, object]:
    """A page of headings, each introducing one of `parts`, read as MkDocs reads a page; and the files and configuration."""
    config = load_config(str(PROJECT_DIR / "mkdocs.yml"))
    body = "".join(f"\n## Section {number} {{ #section-{number} }}\n{text}" for number, text in enumerate(parts))
    (docs / "sample.md").write_text(f"# Sample\n\n## Facts {{ #facts }}\n{body}", encoding="utf-8")
    (docs / "other.md").write_text("# Other\n\n## Far { #far }\n\nFar away.\n", encoding="utf-8")
    files = Files([File(name, str(docs), str(docs / "site"), use_directory_urls=True) for name in ("sample.md", "other.md")])
    for file in files:
        Page(None, file, config)
    for file in files:
        file.page.read_source(config)
    return files.get_file_from_path("sample.md").page, files, config


def _in_parts(parts: PageParts, page: Page, files: Files, config) -> str:
    """The page converted as the hook converts it: parts taken out, frame rendered, parts put back."""
    page.markdown = parts.take(page.markdown, page)
    parts.render(page, config, files)
    return parts.fill(page.content, page, config, files)


def _whole(markdown: str, docs: Path) -> Page:
    """The same page converted by MkDocs as one text, without delimiters."""
    page, files, config = _page(docs, [])
    page.markdown = markdown
    MKDOCS_RENDER(page, config, files)
    return page


@pytest.fixture
def docs(tmp_path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    return folder


def test_a_page_in_parts_is_the_page_converted_whole(docs):
    page, files, config = _page(docs, [part(FACTS), part(ENTRY)])
    whole = _whole(page.markdown.replace(part(FACTS), "\n" + FACTS + "\n").replace(part(ENTRY), "\n" + ENTRY + "\n"), docs)
    parts = PageParts()
    parts.start(files, config)
    assert _in_parts(parts, page, files, config) == whole.content
    assert page.present_anchor_ids == whole.present_anchor_ids and "patch-3-0-1" in page.present_anchor_ids
    links = {file.src_uri: links for file, links in page.links_to_anchors.items()}
    assert links == {file.src_uri: links for file, links in whole.links_to_anchors.items()}
    assert links["other.md"] == {"far": "other.md#far"} and links["sample.md"]["facts"] == "#facts"
    assert [item.id for item in page.toc.items[0].children] == [item.id for item in whole.toc.items[0].children]


def _counting(monkeypatch) -> list[int]:
    """How many parts each Markdown pass over parts converts, from now on."""
    passes: list[int] = []
    convert = page_parts._convert

    def counted(parts, *arguments):
        passes.append(len(parts))
        return convert(parts, *arguments)

    monkeypatch.setattr(page_parts, "_convert", counted)
    return passes


def test_a_rebuild_converts_only_the_changed_part_and_keeps_the_frame(docs, monkeypatch):
    passes = _counting(monkeypatch)
    parts = PageParts()
    page, files, config = _page(docs, [part(FACTS), part(ENTRY)])
    parts.start(files, config)
    first = _in_parts(parts, page, files, config)
    assert passes == [2] and len(parts.take_made()[1]) == 1
    edited = ENTRY.replace("one", "two")
    page, files, config = _page(docs, [part(FACTS), part(edited)])
    parts.start(files, config)
    again = _in_parts(parts, page, files, config)
    converted, frames = parts.take_made()
    assert passes == [2, 1] and not frames, "the same frame is not converted again, nor the unchanged part"
    assert len(converted["sample.md"]) == 2, "the page keeps its current parts, and no older one"
    assert again == first.replace("<em>one</em>", "<em>two</em>") != first
    assert page.title == "Sample" and "patch-3-0-1" in page.present_anchor_ids
    assert "far" in page.links_to_anchors[files.get_file_from_path("other.md")]


def test_a_new_page_set_forgets_what_was_converted(docs, monkeypatch):
    passes = _counting(monkeypatch)
    parts = PageParts()
    page, files, config = _page(docs, [part(ENTRY)])
    parts.start(files, config)
    _in_parts(parts, page, files, config)
    files.append(File("added.md", str(docs), str(docs / "site"), use_directory_urls=True))
    parts.start(files, config)  # a link may lead elsewhere now: every part and frame is converted again
    page, _, _ = _page(docs, [part(ENTRY)])
    _in_parts(parts, page, files, config)
    assert passes == [1, 1] and len(parts.take_made()[1]) == 1


def test_delimiters_without_the_secret_are_text(docs):
    page, files, config = _page(docs, ["\n<!--atlas-part-open-0-->\n\nforged\n\n<!--atlas-part-close-0-->\n"])
    parts = PageParts()
    parts.start(files, config)
    markdown = page.markdown
    assert parts.take(markdown, page) == markdown
