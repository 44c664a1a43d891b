"""The API lookup in Chromium: a name, a part of one, or a pasted error, answered from the site's own index."""

from __future__ import annotations

import pytest

from .conftest import in_view

pytestmark = pytest.mark.browser

ANSWER = ".atlas-lookup-answer"


def _ask(visit, question: str) -> str:
    page = visit.page
    page.fill("#atlas-lookup-input", question)
    page.press("#atlas-lookup-input", "Enter")
    page.wait_for_selector(f"{ANSWER} li, {ANSWER} p")
    return page.inner_text(ANSWER)


@pytest.mark.parametrize(
    ("question", "first_line"),
    [
        ("AttributeError: module 'torch' has no attribute 'compile'", "torch.compile (function): available since PyTorch 2.0"),
        (
            "TypeError: load() got an unexpected keyword argument 'weights_only'",
            "torch.load (function): parameter weights_only added in 1.13",
        ),
        (
            "ImportError: cannot import name 'scaled_dot_product_attention' from 'torch.nn.functional' (/x/functional.py)",
            "torch.nn.functional.scaled_dot_product_attention",
        ),
        ("AttributeError: 'Tensor' object has no attribute 'nan_to_num'", "torch.Tensor.nan_to_num (method): available since PyTorch 1.8"),
        ("ModuleNotFoundError: No module named 'torch.compiler'", "torch.compiler (module): available since PyTorch 2.1"),
        ("torch.solve", "torch.solve (function): available since PyTorch 1.1; removed in 1.12"),
        ("torch.load(f, weights_only=True)", "torch.load (function): parameter weights_only added in 1.13"),
        ("nn.Linear device", "torch.nn.Linear (class): parameter device added in 1.9"),
        ("float8_e4m3fn", "torch.float8_e4m3fn (dtype): available since PyTorch 2.1"),
    ],
)
def test_the_lookup_answers_names_and_pasted_errors(visit, question, first_line):
    visit.open("reference/")
    answer = _ask(visit, question)
    assert answer.splitlines()[0].startswith(first_line), answer[:400]
    assert not visit.console_errors


def test_an_answer_links_to_the_names_row_and_the_entries_citing_it(visit):
    visit.open("")
    _ask(visit, "torch.compile")
    links = visit.page.eval_on_selector_all(f"{ANSWER} a", "links => links.map(a => a.getAttribute('href'))")
    assert links[:2] == ["features/torch-compile/", "reference/torch/#compile"]  # the feature's history, then the API's row
    assert "releases/2.0/#torch-compile" in links
    visit.page.click(f"{ANSWER} a >> nth=1")
    visit.page.wait_for_url("**/reference/torch/#compile")
    visit.page.locator("tr#compile").wait_for(state="visible")  # instant navigation swaps the page in after the address
    assert in_view(visit.page, "compile")


def test_a_question_in_the_address_is_answered_on_arrival(visit):
    visit.open("reference/?q=flex_attention")
    visit.page.wait_for_selector(f"{ANSWER} li")
    assert "torch.nn.attention.flex_attention" in visit.page.inner_text(ANSWER)
    _ask(visit, "weights_only")
    assert "q=weights_only" in visit.page.url


def test_a_part_of_a_name_lists_the_closest_names(visit):
    visit.open("reference/")
    answer = _ask(visit, "sdpa_kern")
    assert "torch.nn.attention.sdpa_kernel" in answer


def test_the_lookup_fits_a_phone(new_visit):
    visit = new_visit(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    visit.open("reference/?q=torch.load")
    visit.page.wait_for_selector(f"{ANSWER} li")
    overflow = visit.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
