"""The API difference between two releases in Chromium: names added and removed and parameter changes, from the site's
index, kept in the address, with griffe's words for the breaking kinds; a hostile address changes nothing."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

ANSWER = ".atlas-apidiff-answer"


def _answer(visit) -> str:
    visit.page.wait_for_selector(f"{ANSWER} p", timeout=60_000)
    return visit.page.inner_text(ANSWER)


def test_two_releases_in_the_address_are_compared_on_arrival(visit):
    visit.open("reference/diff/?from=2.0&to=2.1")
    text = _answer(visit)
    assert text.startswith("From PyTorch 2.0 to 2.1: ")
    assert "torch.compiler" in text and "torch.float8_e4m3fn" in text
    assert "torch.nn.functional.scaled_dot_product_attention — parameter scale added" not in text  # the first 300 shown
    visit.page.locator(f"{ANSWER} h3:text-is('Parameters') + ul + button", has_text="Show all").click()
    assert "torch.nn.functional.scaled_dot_product_attention — parameter scale added" in visit.page.inner_text(ANSWER)
    link = visit.page.locator(f"{ANSWER} a", has_text="torch.float8_e4m3fn").first
    assert link.get_attribute("href") == "../../reference/torch/#float8_e4m3fn"


def test_removals_and_parameter_changes_carry_griffes_kinds(visit):
    visit.open("reference/diff/")
    visit.page.select_option("#atlas-apidiff-from", "1.11")
    visit.page.select_option("#atlas-apidiff-to", "1.13")
    visit.page.click(".atlas-apidiff button[type=submit]")
    text = _answer(visit)
    assert "Removed (Public object was removed)" in text and "torch.solve" in text
    assert "torch.load — parameter weights_only added" in text
    assert visit.page.url.endswith("reference/diff/?from=1.11&to=1.13")


def test_private_names_only_when_asked(visit):
    visit.open("reference/diff/?from=1.7&to=1.8")
    assert "torch._foreach_floor" not in _answer(visit)
    visit.open("reference/diff/?from=1.7&to=1.8&private=1")
    assert "torch._foreach_floor" in _answer(visit)


@pytest.mark.parametrize("query", ["?from=__proto__&to=constructor", "?from=%E0%A4%A&to=hasOwnProperty", "?from=2.0&to=</select><script>"])
def test_a_hostile_address_is_ignored(visit, query):
    visit.open("reference/diff/" + query)
    visit.settle()
    assert visit.page.input_value("#atlas-apidiff-to") == visit.page.evaluate(
        "document.querySelector('#atlas-apidiff-to option:last-child').value"
    )
    assert visit.console_errors == []


def test_a_release_page_and_its_list_of_changes_lead_to_the_comparison(visit):
    visit.open("releases/2.1/")
    visit.page.locator("a", has_text="compare with any release").first.click()
    assert _answer(visit).startswith("From PyTorch 2.0 to 2.1: ")
