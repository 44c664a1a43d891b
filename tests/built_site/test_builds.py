"""The builds in the real site: each release page lists its releases on PyPI with what the Linux wheel was built for,
each under an anchor of its own, and the "Will it run?" page states the measured facts without a script."""

from __future__ import annotations

import html
import json
import re

from macros.render.registry import read_registry
from tests.conftest import REAL_DATA
from tests.support.html import parse


def test_a_release_page_lists_its_releases_on_pypi_with_anchors(built_site):
    page = parse(built_site.files / "releases" / "2.8" / "index.html")
    assert {"pypi", "patch-2-8-0"} <= page.ids
    text = (built_site.files / "releases" / "2.8" / "index.html").read_text(encoding="utf-8")
    row = text[text.index('id="patch-2-8-0"') :]
    row = row[: row.index("</tr>")]
    assert "2025-08-06" in row and "CUDA 12.8: sm_70, sm_75, sm_80, sm_86, sm_89, sm_90, sm_100, sm_120" in row
    assert "Linux (x86_64): 3.9, 3.10, 3.11, 3.12, 3.13, 3.13t" in row
    assert "/releases/2.8/#patch-2-8-0" in read_registry(REAL_DATA)  # an anchor that must never break


def test_the_will_it_run_page_has_the_form_and_the_measured_table(built_site):
    page = parse(built_site.files / "will-it-run" / "index.html")
    assert {"atlas-resolver-gpu", "atlas-resolver-os", "atlas-resolver-python", "atlas-resolver-driver", "how", "builds"} <= page.ids
    text = (built_site.files / "will-it-run" / "index.html").read_text(encoding="utf-8")
    assert '<option value="GeForce RTX 5090">12.0</option>' in text
    assert "../releases/2.6/#patch-2-6-0" in text
    drivers = text[text.index('id="drivers"') :]
    assert "<td>12.8</td>\n<td>570.26</td>\n<td>570.65</td>\n<td>525 or later</td>" in drivers
    assert "<td>10.2</td>\n<td>440.33</td>\n<td>441.22</td>\n<td>none (before CUDA 11)</td>" in drivers
    document = json.loads((built_site.files / "api" / "compatibility.json").read_text(encoding="utf-8"))
    newest = document["releases"][0]
    assert newest["release"] == "2.15" and newest["versions"][0]["version"] == "2.15.0" and newest["page"] == "releases/2.15/"


def test_an_inferred_compute_capability_is_marked_and_cites_both_of_its_sources(built_site):
    page = (built_site.files / "will-it-run" / "index.html").read_text(encoding="utf-8")
    bullet = page[page.index("<strong>Inferred figures</strong>") :].split("</li>")[0]
    assert "Quadro RTX 6000" in bullet and "NVIDIA T1000" in bullet and "GeForce" not in bullet
    assert 'href="https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/1.10.1/platform-support.html"' in bullet
    assert 'href="https://docs.nvidia.com/deeplearning/tensorrt-rtx/latest/getting-started/support-matrix.html"' in bullet
    document = json.loads((built_site.files / "api" / "compatibility.json").read_text(encoding="utf-8"))
    gpus = {gpu["name"]: gpu for gpu in document["gpus"]}
    assert gpus["Quadro RTX 6000"] == {"name": "Quadro RTX 6000", "compute_capability": "7.5", "architecture": "Turing"}
    assert gpus["NVIDIA T4"] == {"name": "NVIDIA T4", "compute_capability": "7.5"}


def _install_section(built_site, release: str) -> str:
    """The text of a release page's install commands, as a reader sees it."""
    page = (built_site.files / "releases" / release / "index.html").read_text(encoding="utf-8")
    return html.unescape(re.sub(r"<[^>]+>", "", page[page.index('id="install"') : page.index('id="highlights"')]))


def test_a_release_page_gives_the_official_install_commands_exactly(built_site):
    text = _install_section(built_site, "2.0")
    assert "# CUDA 11.7 (Linux, Windows)\npip install torch==2.0.1 torchvision==0.15.2 torchaudio==2.0.2\n" in text
    assert "pip install torch==2.0.0 torchvision==0.15.1 torchaudio==2.0.1 --index-url https://download.pytorch.org/whl/rocm5.4.2" in text
    assert "conda install pytorch==2.0.0 torchvision==0.15.0 torchaudio==2.0.0 cpuonly -c pytorch" in text


def test_a_release_the_previous_versions_page_does_not_list_gets_commands_made_from_its_builds(built_site):
    text = _install_section(built_site, "2.14")
    assert "gives no commands for 2.14.0, 2.14.1: these are" in text and "They are constructed, not quoted." in text
    assert (
        "# cu126 (Linux (x86_64), Linux (ARM64), Windows (x86_64))\npip install torch==2.14.1 --index-url https://download.pytorch.org/whl/cu126\n"
        in text
    )
    assert "# xpu (Linux (x86_64), Windows (x86_64))\npip install torch==2.14.0 --index-url https://download.pytorch.org/whl/xpu" in text
    assert "previous-versions page gives for each build" not in text  # none of them is quoted
    assert "made from the release's builds" not in _install_section(built_site, "2.12")  # 2.12's are the page's own


def test_releases_after_2_3_give_their_official_install_commands_too(built_site):
    newest = _install_section(built_site, "2.12")
    assert (
        "# CUDA 13.2 (Linux, Windows)\npip install torch==2.12.1 torchvision==0.27.1 --index-url https://download.pytorch.org/whl/cu132\n"
        in newest
    )
    assert (
        "# ROCm 7.2 (Linux)\npip install torch==2.12.0 torchvision==0.27.0 --index-url https://download.pytorch.org/whl/rocm7.2\n" in newest
    )
    conda = "conda install pytorch==2.4.1 torchvision==0.19.1 torchaudio==2.4.1  pytorch-cuda=11.8 -c pytorch -c nvidia"
    assert conda in _install_section(built_site, "2.4")  # the page's double space, kept


def test_the_oldest_releases_give_the_commands_the_page_has_and_one_build_keeps_its_several(built_site):
    rocm = "# ROCm 4.0.1 (Linux)\npip install torch -f https://download.pytorch.org/whl/rocm4.0.1/torch_stable.html\npip install ninja\n"
    assert rocm in _install_section(built_site, "1.8")
    first = _install_section(built_site, "1.0")
    assert "# CUDA 8.0 (Linux, Windows)\nconda install pytorch==1.0.0 torchvision==0.2.1 cuda80 -c pytorch\n" in first
    assert "Download and install" not in first  # the page's sentence for Linux and Windows wheels is no command


def _builds_rows(built_site, release: str) -> list[str]:
    """The rows of a release page's table of every build, as a reader reads them."""
    page = (built_site.files / "releases" / release / "index.html").read_text(encoding="utf-8")
    table = page[page.index('id="builds"') :]
    table = table[table.index("<tbody>") : table.index("</tbody>")]
    return [
        " | ".join(html.unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in re.findall(r"<td>(.*?)</td>", row, re.S))
        for row in table.split("</tr>")[:-1]
    ]


def test_a_release_page_lists_every_build_with_its_gpu_code_and_sources(built_site):
    rows = _builds_rows(built_site, "2.14")
    cu126 = next(row for row in rows if row.startswith("cu126 (CUDA 12.6) | Linux (x86_64)Windows (x86_64)"))
    assert "sm_50, sm_60, sm_70, sm_75, sm_80, sm_86, sm_90 (stated: " in cu126  # Pascal's last release
    assert any(row.startswith("cu130 (CUDA 13.0) | Linux (x86_64) (PyPI's default) | sm_75") for row in rows)
    cu128 = next(row for row in _builds_rows(built_site, "2.7") if row.startswith("cu128 (CUDA 12.8) experimental | Linux (x86_64) |"))
    assert "sm_120 (inferred: " in cu128  # the first release with code for the RTX 50xx
    assert not any(row.startswith("cu126") for row in _builds_rows(built_site, "2.15"))
    page = parse(built_site.files / "releases" / "2.14" / "index.html")
    assert "builds" in page.ids


def test_the_resolver_data_holds_every_build_and_the_official_commands(built_site):
    document = json.loads((built_site.files / "api" / "compatibility.json").read_text(encoding="utf-8"))
    releases = {release["release"]: release for release in document["releases"]}
    cu126 = next(b for b in releases["2.14"]["builds"] if b["variant"] == "cu126" and "linux-x86_64" in b["platforms"])
    assert cu126["index"] == "https://download.pytorch.org/whl/cu126" and cu126["cuda"] == "12.6"
    assert cu126["gpu"] == {"sm": [50, 60, 70, 75, 80, 86, 90], "ptx": [], "gfx": [], "known": "stated"}
    commands = releases["2.12"]["versions"][0]["commands"]
    assert commands["cu132 linux"] == "pip install torch==2.12.1 torchvision==0.27.1 --index-url https://download.pytorch.org/whl/cu132"
    assert commands["default macos"] == "pip install torch==2.12.1 torchvision==0.27.1"


def _must_match(built_site, release: str) -> dict[str, str]:
    """A release page's table of what must match, by patch release, each row as a reader reads it."""
    page = (built_site.files / "releases" / release / "index.html").read_text(encoding="utf-8")
    table = page[page.index('id="must-match"') :]
    table = table[table.index("<tbody>") : table.index("</tbody>")]
    rows = [
        [html.unescape(re.sub(r"<[^>]+>", " ", cell)).split() for cell in re.findall(r"<td>(.*?)</td>", row, re.S)]
        for row in table.split("</tr>")[:-1]
    ]
    return {cells[0][0]: " | ".join(" ".join(cell) for cell in cells[1:]) for cells in rows}


def test_a_release_page_says_what_must_match_each_patch_release(built_site):
    assert _must_match(built_site, "2.0")["2.0.1"] == "triton (==2.0.0) | 0.15.2 | 2.0.2 | – | 0.0.20 0.0.21 0.0.22 | –"
    newest = _must_match(built_site, "2.14")["2.14.1"]
    assert newest.startswith("triton~=3.8.0 | 0.29.2 (accepts torch (>=2.14.0) ) | 2.11.1 (accepts torch>=2.11 )"), newest
    assert _must_match(built_site, "1.5")["1.5.1"] == "none required | 0.6.1 | 0.5.1 | – | – | –"


def test_the_builds_file_for_tools_has_one_record_per_release_build_and_platform(built_site):
    document = json.loads((built_site.files / "api" / "builds.json").read_text(encoding="utf-8"))
    keys = [(record["release"], record["variant"], record["platform"], *record.get("patches", ())) for record in document["builds"]]
    assert len(set(keys)) == len(keys)  # one record each (a build that differs between patch releases, one per set of them)
    records = {key[:3]: record for key, record in zip(keys, document["builds"], strict=True)}
    pascal = records["2.14", "cu126", "windows-x86_64"]
    assert pascal["index_url"] == "https://download.pytorch.org/whl/cu126" and pascal["least_driver"] == "560.76"
    assert pascal["gpu_code"]["targets"][:2] == ["sm_50", "sm_60"] and pascal["gpu_code"]["known"] == "stated"
    assert records["2.14", "cu130", "linux-x86_64"]["pypi_default"] and not pascal["pypi_default"]
    assert ("2.15", "cu126", "linux-x86_64") not in records
    assert document["must_match"]["2.13.0"]["torchvision"] == [{"version": "0.28.0", "requirement": "torch (==2.13.0)", "pinned": True}]
    # an XPU build says which Intel GPU families its release's page validates it on, there
    assert records["2.10", "xpu", "windows-x86_64"]["validated_on"]["families"][-1] == "panther-lake"
    assert "ponte-vecchio" not in records["2.10", "xpu", "windows-x86_64"]["validated_on"]["families"]
    assert records["2.6", "xpu", "linux-x86_64"]["validated_on"] == {
        "families": ["ponte-vecchio"],
        "client": True,
        "source": "https://docs.pytorch.org/docs/2.6/_sources/notes/get_start_xpu.rst.txt",
    }


def test_the_will_it_run_page_documents_the_builds_file_for_tools(built_site):
    for prefix in ("", "zh/"):
        links = [e.attrs["href"] for e in parse(built_site.page(f"{prefix}will-it-run/")).elements if e.tag == "a" and "href" in e.attrs]
        up = "../../" if prefix else "../"
        assert f"{up}api/builds.json" in links and f"{up}api/builds.schema.json" in links, prefix
    assert (built_site.files / "api" / "builds.schema.json").is_file()


def test_a_release_page_says_what_its_patch_releases_fixed_with_their_notes(built_site):
    for prefix, label in (("", "What 2.1.2 fixed"), ("zh/", "2.1.2 修复了什么")):
        page = (built_site.files / prefix / "releases" / "2.1" / "index.html").read_text(encoding="utf-8")
        row = page[page.index(label) :]
        row = row[: row.index("</tr>")]
        assert "https://github.com/pytorch/pytorch/releases/tag/v2.1.2" in row and "float16" in row, prefix
