"""Templates write data text only through an escaping function for its output context.

The templates are read as Jinja reads them (its parser, with the i18n extension the site renders with): every value
that an output writes, the values a `{% trans %}` block or a `_()` call puts into a translated sentence included, must
end in a context filter when it holds a free-text field. A macro's outputs are read in the macro.
"""

from __future__ import annotations

import pytest
from jinja2 import nodes

from macros.render.pages import TEMPLATE_DIR, template_environment

# `e` is HTML escaping, the context filter of the finished-HTML templates (`*.html.j2`).
CONTEXT_FILTERS = ("inline", "plain", "link_target", "front_matter", "fenced", "badge", "text_only", "literal", "e")
# Fields whose values are free text or URLs; everything else is a validated id, version, word or number.
FREE_TEXT = ("title", "summary", "details", "caption", "intro", "meaning", "note", "reason", "source", "url", "code", "before", "after")
GETTEXT = ("_", "gettext", "ngettext")


def _free_text(node: nodes.Node) -> bool:
    """Whether the expression reads a free-text field (a method call such as `.title()` is not a field)."""
    called = {id(n.node) for n in node.find_all(nodes.Call)}
    names = [n.name for n in node.find_all(nodes.Name)] + ([node.name] if isinstance(node, nodes.Name) else [])
    fields = [n.attr for n in node.find_all(nodes.Getattr) if id(n) not in called]
    if isinstance(node, nodes.Getattr) and id(node) not in called:
        fields.append(node.attr)
    return any(name in FREE_TEXT for name in (*names, *fields))


def _written(expression: nodes.Expr) -> list[nodes.Expr]:
    """The values an output writes: a translated sentence writes the values it is given, anything else itself."""
    if isinstance(expression, nodes.MarkSafeIfAutoescape):
        return _written(expression.expr)
    if isinstance(expression, nodes.Mod) and isinstance(expression.right, nodes.Dict):  # a trans block's sentence % values
        return [pair.value for pair in expression.right.items]
    if isinstance(expression, nodes.Call) and isinstance(expression.node, nodes.Name) and expression.node.name in GETTEXT:
        return [keyword.value for keyword in expression.kwargs]
    if isinstance(expression, nodes.Call):  # a macro writes what its own outputs write, and those are read where it is defined
        return []
    return [expression]


def _source(node: nodes.Node, source: str) -> str:
    return source.splitlines()[node.lineno - 1].strip()


def _unescaped_outputs(source: str) -> list[str]:
    """The line of every output that writes a free-text field without ending in a context filter."""
    found = []
    for output in template_environment().parse(source).find_all(nodes.Output):
        for expression in output.nodes:
            if isinstance(expression, nodes.TemplateData):
                continue
            for value in _written(expression):
                last = value.name if isinstance(value, nodes.Filter) else ""
                if _free_text(value) and last not in CONTEXT_FILTERS:
                    found.append(_source(value, source))
    return found


@pytest.mark.parametrize("template", sorted(TEMPLATE_DIR.glob("*.j2")), ids=lambda p: p.name)
def test_every_data_string_goes_through_a_context_filter(template):
    assert _unescaped_outputs(template.read_text(encoding="utf-8")) == []


def test_the_lint_catches_a_raw_title_and_url():
    assert _unescaped_outputs("{{ feature.title }}\n[x]({{ url }})\n{{ topic.title | upper }}") == [
        "{{ feature.title }}",
        "[x]({{ url }})",
        "{{ topic.title | upper }}",
    ]
    assert _unescaped_outputs("{{ feature.title | inline }} {{ release.version }} {{ m.source_links(item, sources) }}") == []
    assert _unescaped_outputs('{{ m.block_check(release, change.id, "before") }}') == []  # a string literal is not data


def test_the_lint_reads_the_values_of_translated_sentences():
    assert _unescaped_outputs("{% trans title=feature.title %}About {{ title }}{% endtrans %}") == [
        "{% trans title=feature.title %}About {{ title }}{% endtrans %}"
    ]
    assert _unescaped_outputs('{{ _("See %(url)s", url=item.url) }}') == ['{{ _("See %(url)s", url=item.url) }}']
    assert _unescaped_outputs("{% trans title=feature.title | inline %}About {{ title }}{% endtrans %}") == []
    assert _unescaped_outputs('{{ _("See %(url)s", url=release.notes_url | link_target, n=count) }}') == []
