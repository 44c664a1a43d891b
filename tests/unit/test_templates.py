"""Templates write data text only through an escaping function for its output context."""

from __future__ import annotations

import re

import pytest

from macros.generate import TEMPLATE_DIR

CONTEXT_FILTERS = ("inline", "plain", "link_target", "front_matter", "fenced", "badge", "text_only", "literal")
# Fields whose values are free text or URLs; everything else is a validated id, version, word or number.
FREE_TEXT = ("title", "summary", "details", "caption", "intro", "meaning", "note", "reason", "source", "url", "code", "before", "after")
_OUTPUT = re.compile(r"\{\{(.*?)\}\}", re.DOTALL)
_FREE_TEXT_USE = re.compile(r"(?:\.|\b)(" + "|".join(FREE_TEXT) + r")\b(?!\s*\()")
_STRING = re.compile(r"\"[^\"]*\"|'[^']*'")


def _unescaped_outputs(source: str) -> list[str]:
    """Every `{{ ... }}` that writes a free-text field without ending in a context filter."""
    found = []
    for expression in _OUTPUT.findall(source):
        expression = expression.strip()
        last_filter = expression.rsplit("|", 1)[1].strip().split("(")[0] if "|" in expression else ""
        if _FREE_TEXT_USE.search(_STRING.sub('""', expression)) and last_filter not in CONTEXT_FILTERS:
            found.append(expression)
    return found


@pytest.mark.parametrize("template", sorted(TEMPLATE_DIR.glob("*.j2")), ids=lambda p: p.name)
def test_every_data_string_goes_through_a_context_filter(template):
    assert _unescaped_outputs(template.read_text(encoding="utf-8")) == []


def test_the_lint_catches_a_raw_title_and_url():
    assert _unescaped_outputs("{{ feature.title }} [x]({{ url }}) {{ topic.title | upper }}") == [
        "feature.title",
        "url",
        "topic.title | upper",
    ]
    assert _unescaped_outputs("{{ feature.title | inline }} {{ release.version }} {{ m.source_links(item, sources) }}") == []
    assert _unescaped_outputs('{{ m.block_check(release, change.id, "before") }}') == []  # a string literal is not data
