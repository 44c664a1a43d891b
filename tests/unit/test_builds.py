"""The build data, offline: fat binaries read for their GPU architectures, PyPI's listing summarised per release,
a wheel measured (downloaded from a local address, checked against its digest), and the data files checked."""

from __future__ import annotations

import hashlib
import io
import json
import re
import shutil
import struct
import zipfile
from pathlib import Path

import pytest

from macros.data.builds_catalog import Builds, load_builds
from macros.data.yamlfile import DataErrors
from macros.views.builds import release_builds, variant_of
from tests.conftest import PROJECT_DIR
from tools.builds.fatbin import device_code
from tools.builds.pypi import ListingError, dumps, python_of, summarize, write
from tools.builds.wheels import built_with, linux_wheel, measure_file

FIXTURES = PROJECT_DIR / "tests" / "fixtures" / "builds"
LISTING = json.loads((FIXTURES / "pypi-torch.json").read_text(encoding="utf-8"))


def _fatbin(*entries: tuple[int, int, bytes]) -> bytes:
    """A fat binary as nvcc lays it out: its header, then per entry (kind, architecture, payload) a 64-byte header."""
    body = b""
    for kind, arch, payload in entries:
        header = struct.pack("<HHIQ", kind, 0x0101, 64, len(payload)) + bytes(0x1C - 16) + struct.pack("<I", arch)
        body += header.ljust(64, b"\0") + payload
    return struct.pack("<IHHQ", 0xBA55ED50, 1, 16, len(body)) + body


def _library(*fatbins: bytes) -> bytes:
    return b"\x7fELF" + b"\0" * 60 + b"".join(b"padding" + fatbin for fatbin in fatbins)


def test_a_librarys_fat_binaries_give_its_cubin_and_ptx_architectures():
    library = _library(_fatbin((2, 50, b"a" * 10), (2, 80, b"b" * 7)), _fatbin((2, 80, b"c"), (1, 90, b"ptx text")))
    code = device_code(library)
    assert code.cubins == {50, 80} and code.ptx == {90} and code.size == 10 + 7 + 1 + 8


def test_a_stretch_that_only_looks_like_a_fat_binary_is_skipped():
    stray = struct.pack("<IHHQ", 0xBA55ED50, 7, 16, 4)  # not version 1: not a fat binary
    cut = _fatbin((2, 75, b"x" * 100))[:-50]  # runs past the end of the library
    assert device_code(_library(stray, cut)).cubins == frozenset()
    assert device_code(_library(stray, _fatbin((2, 61, b"x")))).cubins == {61}


def test_pypis_listing_gives_each_final_release_its_day_and_pythons_per_platform():
    summary = summarize(LISTING["releases"])
    assert list(summary) == ["1.10.2", "2.5.0", "2.5.1"]  # the release candidate has no files, and is no final release
    assert summary["2.5.1"]["date"] == "2024-10-29"
    assert summary["2.5.1"]["wheels"]["linux-x86_64"] == ["3.9", "3.10", "3.11", "3.13"]  # the yanked 3.12 file is left out
    assert summary["1.10.2"]["wheels"]["macos-arm64"] == ["3.8", "3.9"]
    assert python_of("cp313", "cp313t") == "3.13t" and python_of("py2.py3", "none") is None
    assert python_of("py3", "none") == "3"  # torchvision 0.29.2: one wheel per platform for every Python 3


def test_a_hostile_listing_is_data_and_a_malformed_one_is_refused_with_its_place():
    hostile = 'torch-9.0.0-cp311-cp311-manylinux_2_28_x86_64.whl"><script>alert(1)</script>'
    files = [
        {"filename": "torch-9.0.0-cp311-cp311-manylinux_2_28_x86_64.whl", "upload_time_iso_8601": "2031-01-01T00:00:00.1Z"},
        {"filename": hostile, "upload_time_iso_8601": "2031-01-02T00:00:00Z"},
    ]
    summary = summarize({"9.0.0": files, "</script>": [{"filename": hostile}]}, "torch")
    assert summary == {"9.0.0": {"date": "2031-01-01", "wheels": {"linux-x86_64": ["3.11"]}}}  # a name that is no wheel's is no wheel
    for broken, message in (
        ([{"filename": 7, "upload_time_iso_8601": "2031-01-01T00:00:00Z"}], "torch 9.0.0: file 0: filename: expected a string"),
        ([{"filename": "a.whl", "upload_time_iso_8601": "<script>"}], "torch 9.0.0: file 0 ('a.whl'): upload_time_iso_8601: expected"),
        ("not a list", "torch 9.0.0: expected a list of files, found str"),
    ):
        with pytest.raises(ListingError, match=re.escape(message)):
            summarize({"9.0.0": broken}, "torch")


def test_the_pypi_file_has_one_release_per_line_and_is_rewritten_only_when_a_release_changes(tmp_path):
    document = {"read": {"from": "x", "date": "2026-11-01", "by": "y"}, "projects": {"torch": summarize(LISTING["releases"])}}
    text = dumps(document)
    assert json.loads(text) == document
    assert sum(1 for line in text.splitlines() if line.startswith('   "2.5')) == 2
    path = tmp_path / "pypi.json"
    assert write(document, path) is True
    assert write(document, path) is False  # the same reading leaves the file untouched
    assert write({**document, "read": {**document["read"], "date": "2026-12-01"}}, path) is True  # a new check is news
    assert json.loads(path.read_text())["read"]["date"] == "2026-12-01"


def test_the_wheel_measured_is_the_linux_one_pip_takes_on_python_311():
    assert linux_wheel(LISTING["releases"]["2.5.1"])["filename"] == "torch-2.5.1-cp311-cp311-manylinux1_x86_64.whl"
    assert linux_wheel(LISTING["releases"]["1.10.2"])["filename"] == "torch-1.10.2-cp39-cp39-manylinux1_x86_64.whl"  # no 3.11
    with pytest.raises(LookupError):
        linux_wheel([f for f in LISTING["releases"]["2.5.1"] if "linux" not in f["filename"]])


def test_the_cuda_version_is_read_from_either_form_of_version_py():
    assert built_with("__version__ = '1.4.0'\ncuda = '10.1'\n") == {"cuda": "10.1"}
    assert built_with("cuda: Optional[str] = '12.4'\nhip: Optional[str] = None\n") == {"cuda": "12.4"}


def _wheel(libraries: dict[str, bytes], cuda: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as wheel:
        wheel.writestr("torch/version.py", f"cuda: Optional[str] = '{cuda}'\n")
        for name, content in libraries.items():
            wheel.writestr(name, content)
    return buffer.getvalue()


def test_a_downloaded_wheel_is_checked_and_measured_on_the_library_with_the_most_gpu_code(tmp_path, monkeypatch):
    main = _library(_fatbin(*((2, arch, b"k" * 100) for arch in (75, 80, 90))))
    small = _library(_fatbin((2, 37, b"k")))
    content = _wheel({"torch/lib/libtorch_cuda.so": main, "torch/lib/libc10_cuda.so": small}, "12.8")
    (tmp_path / "torch-9.9.0-cp311-cp311-manylinux_2_28_x86_64.whl").write_bytes(content)
    monkeypatch.setattr("tools.builds.wheels.LISTING_URL", (tmp_path / "listing.json").as_uri())
    file = {"filename": "torch-9.9.0-cp311-cp311-manylinux_2_28_x86_64.whl", "url": "torch-9.9.0-cp311-cp311-manylinux_2_28_x86_64.whl"}
    measured = measure_file({**file, "digests": {"sha256": hashlib.sha256(content).hexdigest()}})
    assert measured["cuda"] == "12.8" and measured["library"] == "torch/lib/libtorch_cuda.so"
    assert measured["sm"] == [75, 80, 90] and measured["ptx"] == []
    with pytest.raises(ValueError, match="sha256 differs"):
        measure_file({**file, "digests": {"sha256": "0" * 64}})


@pytest.fixture
def data_dir(tmp_path) -> Path:
    """A copy of the real build data."""
    shutil.copytree(PROJECT_DIR / "data" / "builds", tmp_path / "data" / "builds")
    return tmp_path / "data"


def test_the_real_build_data_loads(data_dir):
    builds = load_builds(data_dir)
    assert builds is not None and "2.5" in builds.wheels and builds.patch_releases("2.5") == ["2.5.0", "2.5.1"]
    assert {gpu.compute_capability for gpu in builds.gpus if gpu.name == "GeForce RTX 5090"} == {"12.0"}


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (
            lambda d: _replace(
                d / "builds" / "nvidia.yaml",
                'name: GeForce GTX 1080, compute_capability: "6.1"',
                "name: GeForce GTX 1080, compute_capability: 61",
            ),
            "data/builds/nvidia.yaml:",
        ),
        (
            lambda d: _replace(d / "builds" / "nvidia.yaml", "source: cuda-gpus}", "source: nvidia-blog}", count=1),
            "source 'nvidia-blog' is not one of",
        ),
        (
            lambda d: _replace(d / "builds" / "nvidia.yaml", ", architecture_source: tensorrt-rtx-support-matrix}", "}", count=1),
            re.compile(r"data/builds/nvidia.yaml:\d+: gpus\[\d+\]: .*architecture_source"),
        ),
        (
            lambda d: _replace(
                d / "builds" / "nvidia.yaml", "architecture_source: tensorrt-rtx-support-matrix}", "architecture_source: a-blog}", count=1
            ),
            re.compile(r"data/builds/nvidia.yaml:\d+: gpus\[\d+\].architecture_source: source 'a-blog' is not one of the listed sources"),
        ),
        (
            lambda d: (d / "builds" / "wheels" / "2.5.json").rename(d / "builds" / "wheels" / "2.4.json"),
            "release '2.5' differs from the file's name",
        ),
        (lambda d: (d / "builds" / "pypi.json").write_text("{not json"), "data/builds/pypi.json: not readable JSON"),
        (
            lambda d: _replace(d / "builds" / "requirements.json", '"torch": ["torch (==2.13.0)"]', '"torch": "torch (==2.13.0)"', count=1),
            "data/builds/requirements.json: torchvision.0.28.0.torch:",
        ),
        (
            lambda d: _replace(
                d / "builds" / "variants.yaml", "sources: [pv-e3f009bb, pypi-1.0.0, pypi-1.0.1]", "sources: [pv-e3f009bb, pypi-1.0.9]"
            ),
            re.compile(
                r"data/builds/variants.yaml:\d+: releases.1.0.builds\[0\].sources\[1\]: source 'pypi-1.0.9' is not one of the listed sources"
            ),
        ),
        (
            lambda d: _replace(d / "builds" / "variants.yaml", "pypi: [macos-x86_64]", "pypi: [macos-arm64]", count=1),
            re.compile(
                r"data/builds/variants.yaml:\d+: releases.1.0.builds\[0\].pypi: PyPI can serve a build only on one of its platforms"
            ),
        ),
        (
            lambda d: _replace(d / "builds" / "variants.yaml", "variant: cu90\n", "variant: cu80\n", count=1),
            re.compile(r"data/builds/variants.yaml:\d+: releases.1.0.builds\[2\]: cu80 on linux-x86_64 is listed twice for 1.0.0"),
        ),
        (
            lambda d: _replace(
                d / "builds" / "variants.yaml", "targets: [sm_35, sm_50, sm_60, sm_61, compute_50]", "targets: [sm_35, 5.0]", count=1
            ),
            re.compile(r"data/builds/variants.yaml:\d+: releases.1.0.builds\[1\].gpu.targets\[1\]: expected text"),
        ),
        (
            lambda d: _replace(
                d / "builds" / "amd.yaml", "gfx: gfx942, source: rocm-sysreq-linux-6.2.4", "gfx: gfx942, source: a-blog", count=1
            ),
            re.compile(r"data/builds/amd.yaml:\d+: gpus\[0\].source: source 'a-blog' is not one of the listed sources"),
        ),
        (
            lambda d: _replace(d / "builds" / "amd.yaml", "gfx: gfx942", "gfx: MI300X", count=1),
            re.compile(r"data/builds/amd.yaml:\d+: gpus\[0\].gfx: expected text matching"),
        ),
        (
            lambda d: _replace(d / "builds" / "intel.yaml", "family: alchemist, source", "family: dg2, source", count=1),
            re.compile(r"data/builds/intel.yaml:\d+: gpus\[0\].family: family 'dg2' is not one of the listed families"),
        ),
        (
            lambda d: _replace(d / "builds" / "intel.yaml", "source: docs-2.9-xpu", "source: docs-2.9", count=1),
            re.compile(r"data/builds/intel.yaml:\d+: releases.2.9.source: source 'docs-2.9' is not one of the listed sources"),
        ),
        (
            lambda d: _replace(d / "builds" / "intel.yaml", "client: [linux-x86_64, windows-x86_64]", "client: [macos-arm64]", count=1),
            re.compile(r"data/builds/intel.yaml:\d+: releases.2.5.client\[0\]: expected one of"),
        ),
    ],
    ids=[
        "compute-capability-not-a-string",
        "unknown-source",
        "inferred-gpu-without-the-architectures-source",
        "inferred-gpu-cites-an-unlisted-source",
        "misnamed-wheel-file",
        "broken-json",
        "requirement-lines-not-a-list",
        "build-cites-an-unlisted-source",
        "pypi-serves-a-build-off-its-platforms",
        "build-listed-twice",
        "gpu-target-not-an-architecture",
        "amd-gpu-cites-an-unlisted-source",
        "amd-gpu-target-not-a-gfx",
        "intel-gpu-of-an-unlisted-family",
        "intel-release-cites-an-unlisted-source",
        "intel-validated-platform-off-xpu",
    ],
)
def test_a_wrong_build_file_is_reported_with_its_place(data_dir, edit, expected):
    edit(data_dir)
    with pytest.raises(DataErrors) as raised:
        load_builds(data_dir)
    pattern = expected if isinstance(expected, re.Pattern) else re.compile(re.escape(expected))
    assert pattern.search("\n".join(map(str, raised.value.errors)))


def _replace(path: Path, old: str, new: str, count: int = -1) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def test_a_build_is_named_as_the_wheel_index_and_the_previous_versions_page_name_it():
    assert [variant_of(label) for label in ("CUDA 12.6", "CUDA 9.2", "CUDA 10.0", "ROCm 6.2.4", "CPU only", "default")] == [
        "cu126",
        "cu92",
        "cu100",
        "rocm6.2.4",
        "cpu",
        "default",
    ]
    variants = {
        "sources": [{"id": "matrix", "url": "https://example.org/matrix", "title": "Matrix"}],
        "releases": {
            "2.7": {
                "builds": [
                    {"variant": "cu92", "platforms": ["linux-x86_64"], "sources": ["matrix"]},
                    {
                        "variant": "rocm6.2.4",
                        "platforms": ["linux-x86_64"],
                        "sources": ["matrix"],
                        "gpu": {"targets": ["gfx942"], "known": "stated", "sources": ["matrix"]},
                    },
                    {"variant": "cpu", "platforms": ["linux-x86_64", "windows-x86_64"], "pypi": ["windows-x86_64"], "sources": ["matrix"]},
                ]
            }
        },
    }
    builds = Builds(pypi={}, read={}, wheels={}, nvidia={}, install={}, variants=variants, requirements={}, amd={}, intel={})
    cuda, rocm, cpu = release_builds(builds, "2.7")
    assert (cuda.toolkit, cuda.label, cuda.index_url) == (("CUDA", "9.2"), "CUDA 9.2", "https://download.pytorch.org/whl/cu92")
    assert (rocm.toolkit, rocm.label, rocm.targets("gfx"), rocm.gpu_sources[0].url) == (
        ("ROCm", "6.2.4"),
        "ROCm 6.2.4",
        ["gfx942"],
        "https://example.org/matrix",
    )
    assert (cpu.toolkit, cpu.label, cpu.pypi) == (None, "CPU only", ("windows-x86_64",))
    assert release_builds(builds, "2.6") == []
