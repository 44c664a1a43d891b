"""The checker in the real site: its page in both editions, with the form, the command line and the CI step, and the
script itself published at the site's root, byte for byte the repository's."""

from __future__ import annotations

from macros.views import urls
from tests.support.html import parse
from tests.unit.test_torch_needs import SCRIPT


def test_the_script_is_published_as_kept_in_the_repository(built_site):
    assert (built_site.files / urls.TORCH_NEEDS_SCRIPT).read_bytes() == SCRIPT.read_bytes()


def test_the_checker_page_has_its_form_the_command_line_and_the_ci_step(built_site):
    for edition in ("", "zh/"):
        path = built_site.files / edition / "reference" / "needs" / "index.html"
        page = parse(path)
        assert {"atlas-checker-file", "how", "command-line", "github-actions"} <= page.ids
        form = next(e for e in page.elements if e.tag == "form" and e.attrs.get("class") == "atlas-checker")
        assert form.attrs["data-index"] == f"../../{'../' if edition else ''}api/api-index.json"
        assert not [e for e in page.elements if e.tag == "textarea"]  # the script adds it: no page's HTML holds one
        text = path.read_text(encoding="utf-8")
        assert "python torch_needs.py --min 2.1 src/" in text
        assert f'href="../../{"../" if edition else ""}torch_needs.py"' in text
        assert "curl -sSfO http" in text and "/torch_needs.py" in text
