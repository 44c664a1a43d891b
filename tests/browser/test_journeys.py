"""What a reader asks from the home page, answered in at most two actions, and site search that finds names."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from macros.data.loading import load_atlas
from macros.views import indexes
from tests.browser.conftest import PHONE
from tests.conftest import REAL_DATA

ATLAS = load_atlas(REAL_DATA)
ANSWER = ".atlas-lookup-answer"


@pytest.mark.parametrize(
    ("query", "page"),
    [
        ("TorchScript", "features/torchscript/"),
        ("FlexAttention", "features/flex-attention/"),
        ("torch.compile", "features/torch-compile/"),
        ("channels_last", "features/channels-last/"),
        ("no kernel image is available for execution on the device", "errors/no-kernel-image/"),
        ("is not compatible with the current PyTorch installation", "errors/sm-not-compatible/"),
        ("operator torchvision::nms does not exist", "errors/torchvision-nms/"),
        ("Weights only load failed", "errors/weights-only-load-failed/"),
        ("Torch not compiled with CUDA enabled", "errors/not-compiled-with-cuda/"),
        ("module 'torch' has no attribute", "errors/module-has-no-attribute/"),
    ],
)
def test_search_finds_a_name_on_its_own_page_first(visit, query, page):
    visit.open("")
    first = visit.search(query)[0]
    assert re.search(rf"/{re.escape(page)}(\?[^#]*)?(#[\w-]*)?$", first), first


def test_search_finds_an_api_name_at_the_entry_that_introduced_it(visit):
    visit.open("")
    assert ATLAS.release("1.12").feature("matmul-precision")
    first, second = visit.search("set_float32_matmul_precision")[:2]
    assert re.search(r"/releases/1\.12/(\?[^#]*)?$", first) and second.endswith("#matmul-precision"), (first, second)


def _breaking_changes(old: str, new: str) -> int:
    """How many backwards-incompatible changes the releases after `old` up to `new` list."""
    steps = indexes.upgrade_path(indexes.upgrade_steps(ATLAS, indexes.build_lifecycles(ATLAS)), old, new)
    return sum(change.kind == "breaking" for step in steps for change in step.changes)


SCREENS = pytest.mark.parametrize(
    "screen", [{"viewport": {"width": 1280, "height": 900}}, PHONE], ids=["desktop", "phone"]
)  # every journey from the home page is made on a desktop and on a phone


@SCREENS
@pytest.mark.parametrize(
    ("question", "page", "heading"),
    [
        ("torch.compile", "features/torch-compile/", "torch.compile"),
        ("TorchScript", "features/torchscript/", "TorchScript"),
        ("torch.fft", "features/torch-fft/", "torch.fft"),
    ],
)
def test_the_home_page_answers_a_feature_name_with_its_history(new_visit, screen, question, page, heading):
    visit = new_visit(**screen)
    visit.open("")
    visit.page.fill("#atlas-lookup-input", question)
    visit.page.press("#atlas-lookup-input", "Enter")  # one action: ask
    first = visit.page.locator(f"{ANSWER} li a").first
    first.wait_for(timeout=15000)
    assert first.get_attribute("href").endswith(page)
    visit.settle()
    first.click()  # two: open its history
    visit.page.wait_for_url(re.compile(re.escape(page) + "$"))
    visit.page.locator(".md-content h1", has_text=heading).wait_for(timeout=5000)
    assert visit.page.locator("#history").count() == 1
    assert not visit.console_errors


@SCREENS
@pytest.mark.parametrize("question", ["1.13 to 2.6", "from PyTorch 2.6 -> 1.13.1"])
def test_the_home_page_answers_two_releases_with_what_breaks_between_them(new_visit, screen, question):
    visit = new_visit(**screen)
    visit.open("")
    visit.page.fill("#atlas-lookup-input", question)
    visit.page.press("#atlas-lookup-input", "Enter")  # one action: ask
    answer = visit.page.locator(f"{ANSWER} li")
    answer.first.wait_for(timeout=15000)
    assert "1.13" in answer.first.inner_text() and "2.6" in answer.first.inner_text()
    visit.settle()
    answer.first.locator("a").first.click()  # two: breaking changes only
    visit.page.wait_for_url(re.compile(r"upgrade/\?from=1\.13&to=2\.6&kind=breaking$"))
    breaking = _breaking_changes("1.13", "2.6")
    shown = visit.page.locator(".atlas-step:not([hidden]) li:not([hidden])")
    expect(shown).to_have_count(breaking)
    assert visit.page.locator(".atlas-step:not([hidden]) li:not([hidden]) .atlas-kind--breaking").count() == breaking > 0
    assert not visit.console_errors


def test_the_upgrade_page_shows_one_kind_of_change_kept_in_the_address(visit):
    visit.open("upgrade/?from=1.13&to=2.6&kind=breaking")
    breaking = _breaking_changes("1.13", "2.6")
    shown = visit.page.locator(".atlas-step:not([hidden]) li:not([hidden])")
    assert shown.count() == breaking > 0
    assert visit.page.locator(".atlas-step:not([hidden]) li:not([hidden]) .atlas-kind--breaking").count() == breaking
    visit.page.select_option("select[name=kind]", "")
    assert "kind=" not in visit.page.url and shown.count() > breaking


def test_a_release_counts_link_each_to_its_own_list(visit):
    visit.open("releases/2.0/")
    box = visit.page.locator(".admonition.abstract")
    for kind in ("breaking", "deprecation", "removal"):
        link = box.locator(f'a[href$="#changes-{kind}"]')
        assert link.count() == 1
        assert visit.page.locator(f"#changes-{kind} a").count() == sum(c.kind == kind for c in ATLAS.release("2.0").changes)
    assert visit.page.locator('.admonition.abstract a[href$="#changes-removal"]').count() == 1
    visit.open("releases/1.0/")
    assert "0 removals" in visit.page.locator(".admonition.abstract").inner_text()
    assert visit.page.locator('.admonition.abstract a[href$="#changes-removal"]').count() == 0


@SCREENS
def test_which_torchvision_goes_with_a_release_is_one_click_from_the_home_page(new_visit, screen):
    visit = new_visit(**screen)
    visit.open("")
    visit.page.click("a[href$='platforms/#companions']")  # the one action: the common question on the first screen
    visit.page.wait_for_url(re.compile(r"platforms/#companions$"))
    row = visit.page.locator("#companions ~ .atlas-table-scroll tbody tr", has=visit.page.locator("a", has_text="PyTorch 2.3")).first
    expected = next(c.version for c in ATLAS.release("2.3").companions if c.library == "torchvision")
    assert expected in row.inner_text()
    assert row.is_visible()
