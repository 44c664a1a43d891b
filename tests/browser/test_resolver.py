""" "Will it run?" in Chromium: machines described by GPU, system, Python and driver, answered from the site's own
data — the newest and the oldest release that runs, and why the others do not."""

from __future__ import annotations

from urllib.parse import urlencode

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
        (  # Pascal: 2.15 has no build with its code; the CUDA 12.6 builds of 2.8-2.14 do, and 535 runs them under minor version compatibility
            ("GeForce GTX 1080", "linux-x86_64", "3.11", "535.104.05"),
            "Newest release that runs: PyTorch 2.14 (2.14.1). Oldest release that runs: PyTorch 1.13 (1.13.1).",
            {
                "2.15.0": "none of which runs on GeForce GTX 1080, compute capability 6.1",
                "2.14.1": "its CUDA 12.6 build (cu126) has GPU code for GeForce GTX 1080, compute capability 6.1 (as its build list states)",
                "2.7.1": "minor version compatibility",
                "1.12": "no wheel for Python 3.11",
            },
        ),
        (  # Blackwell: code for it from 2.7's CUDA 12.8 build; the CUDA 13 builds need a 580 driver
            ("RTX 5090", "linux-x86_64", "3.12", "570.86"),
            "Newest release that runs: PyTorch 2.11 (2.11.0). Oldest release that runs: PyTorch 2.7 (2.7.1).",
            {
                "2.14.1": "driver 570.86 is older than the 580.65.06 that CUDA 13.0 needs",
                "2.7.1": "its CUDA 12.8 build (cu128) has GPU code for GeForce RTX 5090, compute capability 12.0 (inferred from the changes before the release)",
            },
        ),
        (
            ("12.0", "linux-x86_64", "3.12", "580.95.05"),
            "Newest release that runs: PyTorch 2.15 (2.15.0). Oldest release that runs: PyTorch 2.7 (2.7.1).",
            {
                "2.15.0": "has GPU code for compute capability 12.0 (measured in the wheel)",
                "2.6.0": "the GPU code it carries is not recorded here",
            },
        ),
        (  # an old driver: CUDA 10.2 builds run, CUDA 11.x ones under minor version compatibility (2.5's CUDA 11.8 build), 12.x ones not
            ("sm_61", "linux-x86_64", "3.9", "470.256.02"),
            "Newest release that runs: PyTorch 2.5 (2.5.1). Oldest release that runs: PyTorch 1.7 (1.7.1).",
            {"2.8.0": "driver 470.256.02 is older than the 560.28.03 that CUDA 12.6 needs or than branch 525"},
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


def test_a_build_of_the_wheel_index_comes_with_its_command_and_the_builds_that_do_not_run_say_why(visit):
    visit.open("will-it-run/?gpu=GTX+1080&os=linux-x86_64&python=3.12&driver=580.95.05")
    visit.page.wait_for_selector(".atlas-resolver-summary")
    newest = visit.page.locator(".atlas-resolver-releases > li").filter(has_text="PyTorch 2.14.1:")
    assert (
        newest.locator(".atlas-resolver-command").inner_text()
        == "pip install torch==2.14.1 --index-url https://download.pytorch.org/whl/cu126"
    )
    assert "Constructed from the release's builds" in newest.inner_text()  # the previous-versions page lists no 2.14 yet
    must_match = newest.locator(".atlas-resolver-must-match").inner_text()
    assert (
        must_match
        == "What must match it, as the wheels declare: triton~=3.8.0 (pip installs it with torch); torchvision 0.29.2; torchaudio 2.11.1; xformers 0.0.35."
    )
    why = newest.locator(".atlas-resolver-why-not li").all_inner_texts()
    assert any(reason.startswith("its CUDA 13.0 build (cu130) has GPU code for sm_75") for reason in why), why
    official = visit.page.locator(".atlas-resolver-releases > li").filter(has_text="PyTorch 2.11.0:").locator(".atlas-resolver-command")
    assert (
        official.inner_text()
        == "pip install torch==2.11.0 torchvision==0.26.0 torchaudio==2.11.0 --index-url https://download.pytorch.org/whl/cu126"
    )
    assert not visit.console_errors


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("4090", "GeForce RTX 4090"),
        ("rtx4090", "GeForce RTX 4090"),
        ("A100", "NVIDIA A100"),
        ("RTX 3060 Ti", "GeForce RTX 30x0 series"),
        ("DGX Spark", "NVIDIA GB10 (DGX Spark)"),
        ("Jetson Orin", "Jetson AGX Orin / Jetson Orin NX / Jetson Orin Nano"),
        # as nvidia-smi prints them, with form factor, memory or "Generation"
        ("Tesla V100-SXM2-16GB", "NVIDIA V100"),
        ("NVIDIA A100-SXM4-40GB", "NVIDIA A100"),
        ("NVIDIA H100 80GB HBM3", "NVIDIA H100"),
        ("NVIDIA RTX 6000 Ada Generation", "NVIDIA RTX 6000 Ada"),
        ("NVIDIA GeForce RTX 3060 Laptop GPU", "GeForce RTX 30x0 series"),
        ("RTX PRO 6000", "NVIDIA RTX PRO 6000 Blackwell"),
        ("Quadro RTX 6000", "Quadro RTX 6000"),
    ],
)
def test_a_gpu_is_understood_as_people_write_it(visit, typed, meant):
    visit.open("will-it-run/")
    _fill(visit, typed, "linux-x86_64", "3.12", "")
    assert meant + ", compute capability" in visit.page.inner_text(ANSWER)


@pytest.mark.parametrize(
    ("edition", "said"),
    [
        (
            "",
            (
                "Quadro RTX 6000, compute capability 7.5 (inferred)",
                "NVIDIA lists the Quadro RTX 6000 as a Turing GPU, and Turing as compute capability 7.5",
            ),
        ),
        (
            "zh/",
            (
                "计算能力为 7.5 的 Quadro RTX 6000（推断所得）",
                "NVIDIA 将 Quadro RTX 6000 列为 Turing 架构的 GPU，并给出 Turing 架构的计算能力为 7.5",
            ),
        ),
    ],
)
def test_a_gpu_whose_compute_capability_is_inferred_is_answered_and_says_so(visit, edition, said):
    visit.open(f"{edition}will-it-run/?gpu=Quadro+RTX+6000&os=linux-x86_64&python=3.12")
    visit.page.wait_for_selector(".atlas-resolver-summary")
    label, why = said
    assert label in visit.page.inner_text(".atlas-resolver-releases")
    assert why in visit.page.inner_text(".atlas-resolver-inferred")  # said once, under the summary
    visit.open(f"{edition}will-it-run/?gpu=RTX+4090&os=linux-x86_64&python=3.12")
    visit.page.wait_for_selector(".atlas-resolver-summary")
    answer = visit.page.inner_text(ANSWER)
    assert "GeForce RTX 4090" in answer and "Turing" not in answer and not visit.page.locator(".atlas-resolver-inferred").count()


@pytest.mark.parametrize("typed", ["my laptop", "4000"])  # "4000" is no card of the RTX 40x0 series, and several names end in it
def test_a_gpu_that_is_neither_listed_nor_a_compute_capability_is_asked_again(visit, typed):
    visit.open("will-it-run/?" + urlencode({"gpu": typed, "os": "linux-x86_64", "python": "3.11"}))
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
    assert "Oldest release that runs: PyTorch 2.7 (2.7.1)" in visit.page.inner_text(".atlas-resolver-summary")


def _answered(visit, machine: dict, newest: tuple[str, str], oldest: str, command: str):
    """Open the resolver on a machine, check its newest (feature release, version) and oldest release that runs and the
    command of the newest; the newest's verdict."""
    visit.open("will-it-run/?" + urlencode(machine))
    summary = visit.page.wait_for_selector(".atlas-resolver-summary").inner_text()
    assert summary.startswith(f"Newest release that runs: PyTorch {newest[0]} ({newest[1]}). Oldest release that runs: {oldest}.")
    verdict = visit.page.locator(".atlas-resolver-releases > li").filter(has_text=f"PyTorch {newest[1]}:")
    assert verdict.locator(".atlas-resolver-command").inner_text() == command
    return verdict


@pytest.mark.parametrize(
    ("typed", "target", "oldest"),
    [
        ("RX 7900 XTX", "gfx1100", "PyTorch 2.1 (2.1.2)"),
        ("Radeon RX 7900 XTX", "gfx1100", "PyTorch 2.1 (2.1.2)"),
        ("MI300X", "gfx942", "PyTorch 2.3 (2.3.1)"),
        ("gfx942", "gfx942", "PyTorch 2.3 (2.3.1)"),
        ("gfx1103", "gfx1103", "PyTorch 2.13 (2.13.0)"),  # added to the wheel builds weeks before the 2.13 branch cut
        ("Radeon 780M", "gfx1103", "PyTorch 2.13 (2.13.0)"),  # a Ryzen APU's graphics, as AMD's specifications name it
        ("Ryzen AI Max+ 395", "gfx1151", "PyTorch 2.10 (2.10.0)"),
    ],
)
def test_an_amd_gpu_is_answered_by_the_rocm_builds_compiled_for_its_target(visit, typed, target, oldest):
    machine = {"gpu": typed, "os": "linux-x86_64", "python": "3.11"}
    command = "pip install torch==2.14.1 --index-url https://download.pytorch.org/whl/rocm7.14"
    newest = _answered(visit, machine, ("2.14", "2.14.1"), oldest, command)
    assert f"its ROCm 7.14 build (rocm7.14) was compiled for {target}, among " in newest.inner_text()
    inferred = visit.page.locator(".atlas-resolver-releases > li").filter(has_text="PyTorch 2.13.0:").inner_text()
    assert f"its ROCm 7.2 build (rocm7.2) was compiled for {target}, among " in inferred  # 2.13's list is not read at its tag
    assert "(inferred from the changes before the release)" in inferred
    assert not visit.console_errors


def test_an_amd_gpu_off_linux_is_not_claimed_to_run(visit):
    visit.open("will-it-run/?" + urlencode({"gpu": "RX 7900 XTX", "os": "windows-x86_64", "python": "3.11"}))
    summary = visit.page.wait_for_selector(".atlas-resolver-summary").inner_text()
    assert summary == "No build of any PyTorch release runs on this machine as described."
    assert "no ROCm build of it for Windows (x86_64) is recorded here" in visit.page.inner_text(".atlas-resolver-answer")


@pytest.mark.parametrize(
    ("typed", "os", "label", "oldest"),
    [
        ("Arc B580", "linux-x86_64", "Intel Arc B-Series Graphics (Battlemage)", "PyTorch 2.7 (2.7.1)"),
        ("Intel(R) Arc(TM) A770 Graphics", "windows-x86_64", "Intel Arc A-Series Graphics (Alchemist)", "PyTorch 2.7 (2.7.1)"),
        (
            "Lunar Lake",
            "windows-x86_64",
            "Intel Core Ultra Mobile Processors (Series 2) with Intel Arc Graphics (Lunar Lake)",
            "PyTorch 2.7 (2.7.1)",
        ),
        (
            "B390",
            "linux-x86_64",
            "Intel Core Ultra Mobile Processors (Series 3) with Intel Arc Graphics (Panther Lake)",
            "PyTorch 2.10 (2.10.0)",
        ),
        ("Max 1550", "linux-x86_64", "Intel Data Center GPU Max Series (Ponte Vecchio)", "PyTorch 2.5 (2.5.1)"),
    ],
)
def test_an_intel_gpu_is_answered_by_the_families_each_xpu_build_is_validated_on(visit, typed, os, label, oldest):
    command = "pip install torch==2.15.0 --index-url https://download.pytorch.org/whl/xpu"
    newest = _answered(visit, {"gpu": typed, "os": os, "python": "3.11"}, ("2.15", "2.15.0"), oldest, command)
    assert f"its XPU build (xpu) is validated on the {label} on " in newest.inner_text()
    if label.startswith("Intel Arc A") or label.endswith("(Lunar Lake)"):  # 2.5 and 2.6 name client GPUs, no products
        assert "without naming products" in _verdict(visit, "2.6.0")
    assert not visit.console_errors


def test_an_intel_gpu_its_release_does_not_name_is_not_claimed_to_run(visit):
    visit.open("will-it-run/?" + urlencode({"gpu": "Max 1550", "os": "windows-x86_64", "python": "3.11"}))
    summary = visit.page.wait_for_selector(".atlas-resolver-summary").inner_text()
    assert summary == "No build of any PyTorch release runs on this machine as described."
    assert (
        "does not name the Intel Data Center GPU Max Series (Ponte Vecchio) among the GPUs its XPU build (xpu) is validated on for "
        "Windows (x86_64)" in _verdict(visit, "2.15.0")
    )
    assert "no XPU build of it for Windows (x86_64) is recorded here" in _verdict(visit, "2.4.1")
