"""Data text is safe Markdown: HTML, attribute lists and template syntax are shown, never executed."""

from __future__ import annotations

import pytest

from macros.data.markup import fenced, inline, markup_problem, plain


@pytest.mark.parametrize(
    "text",
    [
        "<script>alert(1)</script>",
        'Click <a href="x" onclick="alert(1)">here</a>',
        "<img src=x onerror=alert(1)>",
        "[docs](javascript:alert(1))",
        "[docs]( JavaScript:alert(1) )",
        "[data](data:text/html;base64,PHNjcmlwdD4=)",
    ],
)
def test_unsafe_text_is_rejected(text):
    assert markup_problem(text) is not None


@pytest.mark.parametrize(
    "text",
    ["Uses `torch.fft` and *emphasis*", "See [the docs](https://pytorch.org/docs/)", "Code `<T>` is fine", "a {{ x }} b"],
)
def test_safe_text_is_accepted(text):
    assert markup_problem(text) is None


def test_inline_escapes_prose_and_writes_code_as_inert_elements():
    assert inline("a <b> {{ x }} `<c> {d}`") == "a &lt;b&gt; &#123;&#123; x &#125;&#125; <code>&lt;c&gt; &#123;d&#125;</code>"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("[x]: vbscript:msgbox", "&#91;x&#93;: vbscript:msgbox"),  # no reference links: a definition is text
        ("operator[]() const", "operator&#91;&#93;() const"),  # empty brackets and parentheses are no link
        ("![x](https://e.example/p.png)", "&#33;[x](https://e.example/p.png)"),  # never an image
        ("``x`", "&#96;&#96;x&#96;"),  # runs of unequal length are no code span
        ("``a`b`` `c`", "<code>a&#96;b</code> <code>c</code>"),
        ("[a](https://x.example/a_(b))", "[a](https://x.example/a_%28b%29)"),
    ],
)
def test_inline_reads_spans_and_links_as_tokens_reads_them(text, shown):
    assert inline(text) == shown


def test_inline_defuses_attribute_lists():
    assert "{" not in inline("*x*{: onclick=alert(1) }")


def test_fence_outgrows_backticks_in_code():
    block = fenced("print('```')")
    assert block.startswith("````python\n") and block.endswith("\n````")


def test_plain_strips_markdown_and_escapes():
    assert plain("`torch.fft` and [a <b>](https://x)") == "torch.fft and a &lt;b&gt;"
