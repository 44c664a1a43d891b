""" "Will it run?" in Chromium: machines described by GPU, system, Python and driver, answered from the site's own
data — the newest and the oldest release that runs, and why the others do not."""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE, sideways_overflow

pytestmark = pytest.mark.browser

ANSWER = ".atlas-resolver-answer"


def _fill(visit, gpu: str, os: str, python: str, driver: str) -> None:
    page = visit.page
    page.fill("#atlas-resolver-gpu", gpu)
    page.select_option("#atlas-resolver-os", os)
    page.select_option("#atlas-resolver-python", python)
    page.fill("#atlas-resolver-driver", driver)
    page.click(".atlas-resolver button")
    page.wait_for_selector(".atlas-resolver-summary")


def _verdict(visit, release: str) -> str:
    """The text of one release's verdict: `release` is the version offered (2.7.1), or the feature release (1.12) when
    none of its versions has a wheel for the machine."""
    items = visit.page.locator(".atlas-resolver-releases > li").all_inner_texts()
    return next(item for item in items if item.startswith(f"PyTorch {release}:"))


@pytest.mark.parametrize(
    ("machine", "summary", "reasons"),
    [
        (  # Pascal: the CUDA 12.8 builds of 2.8 no longer carry its code; 535 runs CUDA 12.6 under minor version compatibility
            ("GeForce GTX 1080", "linux-x86_64", "3.11", "535.104.05"),
            "Newest release that runs: PyTorch 2.7 (2.7.1). Oldest release that runs: PyTorch 1.13 (1.13.1).",
            {
                "2.8.0": "none of which runs on GeForce GTX 1080, compute capability 6.1",
                "2.7.1": "minor version compatibility",
                "1.12": "no wheel for Python 3.11",
            },
        ),
        (  # Blackwell: code for it from 2.8; the CUDA 13.0 builds of 2.11 on need a 580 driver
            ("GeForce RTX 5090", "linux-x86_64", "3.12", "570.86"),
            "Newest release that runs: PyTorch 2.10 (2.10.0). Oldest release that runs: PyTorch 2.8 (2.8.0).",
            {"2.14.1": "driver 570.86 is older than the 580.65.06 that CUDA 13.0 needs", "2.7.1": "none of which runs on GeForce RTX 5090"},
        ),
        (
            ("12.0", "linux-x86_64", "3.12", "580.95.05"),
            "Newest release that runs: PyTorch 2.15 (2.15.0). Oldest release that runs: PyTorch 2.8 (2.8.0).",
            {"2.15.0": "has GPU code for compute capability 12.0", "2.14.1": "has GPU code for compute capability 12.0"},
        ),
        (  # an old driver: CUDA 10.2 builds run, CUDA 11.x ones under minor version compatibility, 12.x ones not
            ("sm_61", "linux-x86_64", "3.9", "470.256.02"),
            "Newest release that runs: PyTorch 2.0 (2.0.1). Oldest release that runs: PyTorch 1.7 (1.7.1).",
            {"2.1.2": "driver 470.256.02 is older than the 530.30.02 that CUDA 12.1 needs or than branch 525"},
        ),
        (
            ("", "macos-arm64", "3.12", ""),
            "Newest release that runs: PyTorch 2.15 (2.15.0). Oldest release that runs: PyTorch 2.2 (2.2.2).",
            {"2.1": "no wheel for Python 3.12 on macOS (Apple silicon)"},
        ),
    ],
    ids=["gtx-1080", "rtx-5090-driver-570", "cc-12.0-driver-580", "pascal-driver-470", "mac-cpu"],
)
def test_the_resolver_answers_a_machine(visit, machine, summary, reasons):
    visit.open("will-it-run/")
    _fill(visit, *machine)
    assert visit.page.inner_text(".atlas-resolver-summary").startswith(summary)
    for version, reason in reasons.items():
        assert reason in _verdict(visit, version), _verdict(visit, version)
    assert not visit.console_errors


def test_an_answer_is_linked_by_its_address_and_gives_the_install_command(visit):
    visit.open("will-it-run/")
    _fill(visit, "GeForce RTX 4090", "linux-x86_64", "3.11", "")
    assert "gpu=GeForce+RTX+4090" in visit.page.url and "python=3.11" in visit.page.url
    linked = visit.page.url
    visit.open(linked.removeprefix(visit.base_url))
    visit.page.wait_for_selector(".atlas-resolver-summary")
    newest = _verdict(visit, "2.14.1")
    assert "pip install torch==2.14.1" in newest and ": runs" in newest
    verdicts = visit.page.locator(".atlas-resolver-releases > li")
    official = verdicts.filter(has_text="PyTorch 2.12.1:").get_by_role("link", name="Every build's official install command")
    assert official.get_attribute("href").endswith("releases/2.12/#install")
    assert not verdicts.filter(has_text="PyTorch 2.14.1:").get_by_role("link", name="Every build's official install command").count()
    visit.settle()
    official.click()
    visit.page.wait_for_url("**/releases/2.12/#install")  # the theme swaps the page in after the address changes
    visit.page.locator("#install").wait_for(state="attached")
    command = "pip install torch==2.12.1 torchvision==0.27.1 --index-url https://download.pytorch.org/whl/cu132"
    assert visit.page.locator("code", has_text=command).count() == 1


def test_a_gpu_that_is_neither_listed_nor_a_compute_capability_is_asked_again(visit):
    visit.open("will-it-run/?gpu=my+laptop&os=linux-x86_64&python=3.11")
    visit.page.wait_for_selector(f"{ANSWER} p")
    assert "compute capability" in visit.page.inner_text(ANSWER)
    assert not visit.page.locator(".atlas-resolver-releases").count()


def test_the_resolver_fits_a_phone(new_visit):
    visit = new_visit(**PHONE)
    visit.open("will-it-run/?gpu=GeForce+GTX+1080&os=linux-x86_64&python=3.11&driver=535.104.05")
    visit.page.wait_for_selector(".atlas-resolver-summary")
    assert sideways_overflow(visit.page) <= 0


def test_an_error_page_opens_the_resolver_with_the_gpu_of_its_message(visit):
    visit.open("errors/sm-not-compatible/")
    visit.page.click("a.md-button")
    visit.page.wait_for_selector(".atlas-resolver-summary")
    assert visit.page.input_value("#atlas-resolver-gpu") == "sm_120"
    assert "Oldest release that runs: PyTorch 2.8 (2.8.0)" in visit.page.inner_text(".atlas-resolver-summary")
