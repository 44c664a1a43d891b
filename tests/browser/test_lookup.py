"""The API lookup in Chromium: a name, a part of one, or a pasted error, answered from the site's own index."""

from __future__ import annotations

import pytest

from .conftest import PHONE, in_view, sideways_overflow

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
    visit.page.locator("tr#compile").wait_for(state="visible")
    assert in_view(visit.page, "compile")


def test_a_question_in_the_address_is_answered_on_arrival(visit):
    visit.open("reference/?name=flex_attention")
    visit.page.wait_for_selector(f"{ANSWER} li")
    assert "torch.nn.attention.flex_attention" in visit.page.inner_text(ANSWER)
    _ask(visit, "weights_only")
    assert "name=weights_only" in visit.page.url
    visit.settle()  # the theme's search is ready; it opens itself for an address with ?q=
    assert not visit.page.evaluate("document.querySelector('[data-md-toggle=search]').checked")


def test_a_part_of_a_name_lists_the_closest_names(visit):
    visit.open("reference/")
    answer = _ask(visit, "sdpa_kern")
    assert "torch.nn.attention.sdpa_kernel" in answer


def test_private_names_answer_only_when_asked(visit):
    visit.open("reference/")
    assert "torch._foreach_floor" not in _ask(visit, "foreach_floor")
    asked = _ask(visit, "_foreach_floor")
    assert "torch._foreach_floor" in asked and "available since PyTorch 1.8" in asked and "removed" not in asked


def test_a_deprecated_name_says_when(visit):
    visit.open("reference/")
    answer = _ask(visit, "torch.norm")
    assert "deprecated in 1.7" in answer and "deprecated in 1.9" in answer


def test_the_lookup_fits_a_phone(new_visit):
    visit = new_visit(**PHONE)
    visit.open("reference/?name=torch.load")
    visit.page.wait_for_selector(f"{ANSWER} li")
    overflow = sideways_overflow(visit.page)
    assert overflow <= 0


def test_an_address_into_a_closed_group_opens_it_at_the_row(visit):
    visit.open("reference/torch/#Tensor.add")
    assert visit.page.evaluate("document.getElementById('members-Tensor').open")
    assert in_view(visit.page, "Tensor.add")
    visit.open("reference/torch.nn/")
    assert not visit.page.evaluate("document.getElementById('members-Module').open")
    visit.page.click("tr#Module a[href$='#members-Module']")  # a class's row links its members, a closed group further down
    assert visit.page.evaluate("document.getElementById('members-Module').open")
    assert in_view(visit.page, "members-Module")
    assert not visit.console_errors


def test_the_sites_script_opens_a_group_where_the_browser_would_not(visit):
    """Chromium opens a closed group around the target of an address itself; in other browsers the theme's script does
    (Material opens a `details` that holds the target), which this drives alone: the address changes without the
    browser's own navigation, then the page hears of it."""
    visit.open("reference/torch/")
    visit.page.evaluate("history.replaceState(null, '', '#Tensor.add'); window.dispatchEvent(new HashChangeEvent('hashchange'))")
    assert visit.page.evaluate("document.getElementById('members-Tensor').open")
    assert in_view(visit.page, "Tensor.add")


@pytest.mark.parametrize(
    "question",
    ['1.13 to 2.6"><img src=x onerror=alert(1)>', "2.0 to 2.1 <script>alert(2)</script>", "1.13 to javascript:alert(3)"],
)
def test_a_hostile_question_that_looks_like_two_releases_is_shown_as_text(visit, question):
    """Only two releases the index has make an upgrade answer; anything else is a question shown as text, never markup."""
    visit.page.on("dialog", lambda dialog: (visit.console_errors.append(f"dialog: {dialog.message}"), dialog.dismiss()))
    visit.open("")
    shown = _ask(visit, question)
    assert question.strip() in shown and "Upgrading from" not in shown
    assert visit.page.locator(f"{ANSWER} img, {ANSWER} script, {ANSWER} a[href^='javascript']").count() == 0
    assert not visit.console_errors
