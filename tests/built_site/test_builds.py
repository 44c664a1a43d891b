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


def _install_section(built_site, release: str) -> str:
    """The text of a release page's install commands, as a reader sees it."""
    page = (built_site.files / "releases" / release / "index.html").read_text(encoding="utf-8")
    return html.unescape(re.sub(r"<[^>]+>", "", page[page.index('id="install"') : page.index('id="highlights"')]))


def test_a_release_page_gives_the_official_install_commands_exactly(built_site):
    text = _install_section(built_site, "2.0")
    assert "# CUDA 11.7 (Linux, Windows)\npip install torch==2.0.1 torchvision==0.15.2 torchaudio==2.0.2\n" in text
    assert "pip install torch==2.0.0 torchvision==0.15.1 torchaudio==2.0.1 --index-url https://download.pytorch.org/whl/rocm5.4.2" in text
    assert "conda install pytorch==2.0.0 torchvision==0.15.0 torchaudio==2.0.0 cpuonly -c pytorch" in text


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
