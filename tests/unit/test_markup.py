"""Data text is safe Markdown: HTML, attribute lists and template syntax are shown, never executed."""

from __future__ import annotations

import pytest

from macros.markup import fenced, inline, markup_problem, plain


@pytest.mark.parametrize(
    "text",
    [
        "<script>alert(1)</script>",
        'Click <a href="x" onclick="alert(1)">here</a>',
        "<img src=x onerror=alert(1)>",
        "[docs](javascript:alert(1))",
        "[docs]( JavaScript:alert(1) )",
        "[x]: vbscript:msgbox",
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


def test_inline_escapes_outside_code_only():
    assert inline("a <b> {{ x }} `<c> {d}`") == "a &lt;b&gt; &#123;&#123; x &#125;&#125; `<c> {d}`"


def test_inline_defuses_attribute_lists():
    assert "{" not in inline("*x*{: onclick=alert(1) }")


def test_fence_outgrows_backticks_in_code():
    block = fenced("print('```')")
    assert block.startswith("````python\n") and block.endswith("\n````")


def test_plain_strips_markdown_and_escapes():
    assert plain("`torch.fft` and [a <b>](https://x)") == "torch.fft and a &lt;b&gt;"
