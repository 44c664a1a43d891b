"""The API reference in the real site: module pages with a row per name, what each release added and removed, the
release pages' counts, and the published index that validates against the schema it names."""

from __future__ import annotations

import json
import re

import pytest

from macros.data.api_catalog import load_catalog
from macros.views.api_reference import Reference
from tests.conftest import REAL_DATA
from tests.support.html import parse

CATALOG = load_catalog(REAL_DATA)


def _row(site, module: str, anchor: str) -> str:
    """The text of a name's row on its module page."""
    page = (site.files / "reference" / module / "index.html").read_text(encoding="utf-8")
    start = page.index(f'<tr id="{anchor}">')
    return page[start : page.index("</tr>", start)]


def test_every_release_was_measured():
    assert CATALOG is not None and CATALOG.gaps == ()


def _release_cell(version: str | None) -> str:
    """A Since or Removed cell as a module page writes it: a link to the release's page, or a dash for none."""
    return f'<a href="../../releases/{version}/">{version}</a>' if version else "–"


@pytest.mark.parametrize(
    ("module", "anchor", "kind", "since", "removed"),
    [
        ("torch", "compile", "function", "2.0", None),
        ("torch", "float8_e4m3fn", "dtype", "2.1", None),
        ("torch", "Tensor.add", "method", "1.0", None),
        ("torch.nn.functional", "scaled_dot_product_attention", "function (C)", "2.0", None),
        ("torch", "solve", "function", "1.1", "1.12"),
    ],
)
def test_a_name_has_its_row_with_since_and_removed(built_site, module, anchor, kind, since, removed):
    row = _row(built_site, module, anchor)
    cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.DOTALL)  # name, kind, since, removed, notes
    assert len(cells) == 5, row
    assert cells[:4] == [anchor, kind, _release_cell(since), _release_cell(removed)], row


def test_a_parameter_history_and_a_stub_are_stated(built_site):
    assert "parameter weights_only added in 1.13" in _row(built_site, "torch", "load")
    assert "only raises from 1.12" in _row(built_site, "torch", "solve")


def test_private_names_are_kept_where_they_are_defined_in_a_closed_group(built_site):
    """torch._foreach_floor left torch.__all__ in 1.12 but is still defined (its stubs declare it): not removed."""
    page = (built_site.files / "reference" / "torch" / "index.html").read_text(encoding="utf-8")
    group = page[page.index('<details class="atlas-api-group" id="private-names">') :]
    group = group[: group.index("</details>")]
    assert '<tr id="_foreach_floor">' in group and '<tr id="compile">' not in group
    cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", _row(built_site, "torch", "_foreach_floor"), re.DOTALL)
    assert cells[2:4] == [_release_cell("1.8"), _release_cell(None)]


def test_a_deprecated_name_links_the_entries_that_deprecate_it(built_site):
    row = _row(built_site, "torch", "norm")
    assert 'deprecated in <a href="../../releases/1.7/#torch-norm-deprecated">1.7</a>' in row
    assert 'deprecated in <a href="../../releases/1.9/#torch-norm-deprecated">1.9</a>' in row
    zh = (built_site.files / "zh" / "reference" / "torch" / "index.html").read_text(encoding="utf-8")
    assert '在 <a href="../../releases/1.7/#torch-norm-deprecated">1.7</a> 中弃用' in zh


def test_names_only_the_cuda_build_has_are_marked(built_site):
    assert "only the CUDA build has it in 2.13" in _row(built_site, "torch.distributed", "ProcessGroupNCCL")
    assert "CUDA build" not in _row(built_site, "torch.distributed", "ProcessGroupGloo")


def test_every_module_page_exists_and_lists_its_names(built_site):
    pages = sorted((built_site.files / "reference").glob("torch*/index.html"))
    modules = {module.path for module in CATALOG.modules if module.alias is None and CATALOG.children.get(module.path)}
    assert len(pages) > 500
    assert {page.parent.name for page in pages} <= modules
    nn = parse(built_site.files / "reference" / "torch.nn" / "index.html")
    assert {"Linear", "Module", "Module.to"} <= nn.ids


def test_release_pages_count_the_api_changes_and_link_the_lists(built_site):
    page = (built_site.files / "releases" / "2.0" / "index.html").read_text(encoding="utf-8")
    added, removed = Reference(CATALOG).changed_in("2.0")
    assert "Public API" in page and 'href="../../reference/releases/2.0/"' in page
    lists = parse(built_site.files / "reference" / "releases" / "2.0" / "index.html")
    assert "added" in lists.ids and "removed" in lists.ids
    shown = lists.links()
    assert any(link.endswith("reference/torch/#compile") for link in shown)
    assert len([e for e in lists.elements if e.tag == "li"]) >= len(added) > 100 and len(removed) > 0


def test_module_pages_stay_out_of_the_search_index(built_site):
    index = json.loads((built_site.files / "search" / "search_index.json").read_text(encoding="utf-8"))
    locations = {entry["location"].split("#")[0] for entry in index["docs"]}
    assert "reference/" in locations
    assert not [location for location in locations if location.startswith("reference/torch")]


def test_the_home_page_opens_the_lookup(built_site):
    home = parse(built_site.files / "index.html")
    forms = [e for e in home.elements if e.tag == "form" and "atlas-lookup" in e.attrs.get("class", "")]
    assert forms and forms[0].attrs["data-index"] == "api/api-index.json"


def test_a_feature_page_lists_the_apis_its_entries_name(built_site):
    page = (built_site.files / "features" / "flex-attention" / "index.html").read_text(encoding="utf-8")
    section = page[page.index('id="apis"') : page.index('id="history"')]
    assert (
        '<a href="../../reference/torch.nn.attention/#flex_attention"><code>torch.nn.attention.flex_attention</code></a>: since 2.5'
        in section
    )


def test_the_upgrade_page_counts_each_steps_api_changes(built_site):
    page = (built_site.files / "upgrade" / "index.html").read_text(encoding="utf-8")
    step = page[page.index('data-version="1.12"') :]
    step = step[: step.index("</section>")]
    _, removed = Reference(CATALOG).changed_in("1.12")
    assert f'<a href="../reference/releases/1.12/#removed">{len(removed):,} names removed</a>' in step


def test_the_index_keeps_to_torchs_own_modules_and_links_the_list_of_every_module(built_site):
    """The lookup page lists torch and its direct modules (a page of nearly a thousand rows kept phones busy), and
    links a page of every module."""
    index = parse(built_site.files / "reference" / "index.html")
    listed = {
        link.split("reference/")[-1].strip("/") for link in index.links() if "/reference/torch" in link or link.startswith("../torch")
    }
    assert "torch" in listed and "torch.nn" in listed and "torch.nn.functional" not in listed
    assert any(link.rstrip("/").endswith("modules") for link in index.links())
    every = (built_site.files / "reference" / "modules" / "index.html").read_text(encoding="utf-8")
    assert every.count('<th scope="row">') == len(Reference(CATALOG).modules)


def test_long_module_pages_open_only_what_a_reader_asks_for(built_site):
    """torch has more names than a phone lays out quickly: they come in closed groups by first letter, and each class's
    members in a closed group of their own, which the class's row links; a short module shows its names at once."""
    torch = (built_site.files / "reference" / "torch" / "index.html").read_text(encoding="utf-8")
    letters = torch[torch.index('<details class="atlas-api-group" id="names-c">') :]
    assert '<tr id="compile">' in letters[: letters.index("</details>")]
    members = torch[torch.index('<details class="atlas-api-group" id="members-Tensor">') :]
    assert '<tr id="Tensor.add">' in members[: members.index("</details>")]
    assert "<details open" not in torch
    assert '<a href="#members-Tensor">' in _row(built_site, "torch", "Tensor")
    fft = (built_site.files / "reference" / "torch.fft" / "index.html").read_text(encoding="utf-8")
    assert 'id="names-' not in fft and '<tr id="fft">' in fft
    every = (built_site.files / "reference" / "modules" / "index.html").read_text(encoding="utf-8")
    group = every[every.index('id="package-torch.distributed"') :]
    assert 'href="../../reference/torch.distributed.fsdp/"' in group[: group.index("</details>")]
