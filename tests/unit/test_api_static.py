"""What a torch wheel says of its API without importing it (`make api-static`): the argument-parser signatures in its
library, and the members of a remote zip read by byte range (from a local server that honours ranges, as PyPI's file
host does; no network)."""

from __future__ import annotations

import gzip
import io
import json
import os
import struct
import zipfile

import pytest

from tests.unit.test_must_match import _serving
from tools.api import static
from tools.api.static import StaticError, parse_signature, parser_signatures, read_release, rodata
from tools.wheelzip import RemoteZip, ZipError

# --- The argument parsers' signatures ------------------------------------------------------------------------------


def test_a_signature_gives_each_parameter_with_whether_it_is_keyword_only_and_its_default_as_written():
    assert parse_signature("add(Tensor input, Tensor other, *, Scalar alpha=1, Tensor out=None)") == (
        "add",
        [["input", False, None], ["other", False, None], ["alpha", True, "1"], ["out", True, "None"]],
    )
    assert parse_signature("relu_(Tensor input)") == ("relu_", [["input", False, None]])
    assert parse_signature("squeeze()") == ("squeeze", [])
    assert parse_signature("nonzero(*, bool as_tuple=False)") == ("nonzero", [["as_tuple", True, "False"]])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (  # a default with commas inside braces, and sized lists
            "conv2d(Tensor input, Tensor weight, Tensor? bias=None, IntArrayRef[2] stride={1, 1}, IntArrayRef[2] padding=0)",
            [
                ["input", False, None],
                ["weight", False, None],
                ["bias", False, "None"],
                ["stride", False, "{1, 1}"],
                ["padding", False, "0"],
            ],
        ),
        ("__and__(Tensor input, Scalar other)", [["input", False, None], ["other", False, None]]),
        (
            "cat(TensorList tensors, int64_t dim=0, *, Tensor out=None)",
            [["tensors", False, None], ["dim", False, "0"], ["out", True, "None"]],
        ),
        (  # a mark after the signature is dropped; the overload stays (a deprecated form is still accepted)
            "add(Tensor input, Scalar alpha, Tensor other, *, Tensor out=None)|deprecated",
            [["input", False, None], ["alpha", False, None], ["other", False, None], ["out", True, "None"]],
        ),
        (  # a quoted default with a comma in it, a namespaced type and an optional string
            'scatter_reduce(Tensor input, int64_t dim, Tensor index, Tensor src, c10::string_view reduce="a, b", *, c10::string_view? mode=None)',
            [
                ["input", False, None],
                ["dim", False, None],
                ["index", False, None],
                ["src", False, None],
                ["reduce", False, '"a, b"'],
                ["mode", True, "None"],
            ],
        ),
        (
            "_index_put_impl_(Tensor input, c10::List<::std::optional<Tensor>> indices, Tensor values)",
            [["input", False, None], ["indices", False, None], ["values", False, None]],
        ),
        ("map_(Tensor other, PyObject* callable)", [["other", False, None], ["callable", False, None]]),
        (
            "zeros_like(Tensor input, *, Layout layout=torch.strided, MemoryFormat? memory_format=None)",
            [["input", False, None], ["layout", True, "torch.strided"], ["memory_format", True, "None"]],
        ),
        ("polygamma(int64_t n, )", [["n", False, None]]),  # 1.0's method signature with its `self` cut out
    ],
)
def test_real_looking_signatures_parse(text, expected):
    assert parse_signature(text)[1] == expected


@pytest.mark.parametrize(
    "text",
    [
        "operator()",  # a C++ lambda's __func__
        "new(): data must be a sequence (got %s)",
        "sin(1.f)",
        "IfThenElse(1, 1.f, 2.f)",
        "TupleGetItemGuardAccessor({})",
        "forward() missing required argument: '%U' (position %zd)",
        "f(Tensor input, *, *, Tensor out=None)",
        "f(Tensor input=)",
        "f(Tensor)",
    ],
)
def test_strings_that_are_not_signatures_are_left_out(text):
    assert parse_signature(text) is None


def test_the_signatures_are_gathered_by_name_each_overload_once():
    strings = b"\x00".join(
        [
            b"",
            b"add(Tensor other, *, Scalar alpha=1)",  # Tensor.add: no `input`
            b"add(Tensor input, Tensor other, *, Scalar alpha=1, Tensor out=None)",
            b"add(Tensor input, Tensor other, *, Scalar alpha=1, Tensor out=None)|hidden",  # the same overload again
            b"\x01relu_(Tensor input)",  # after a byte that is not text: still a string of its own
            b"Xexpected a Tensor, got %s",
            b"new(): data must be a sequence (got %s)",
            b"sigmoid(Tensor input, *, Tensor out=None)\nmore",  # runs on into a new line: not one string
            b"",
        ]
    )
    found, unread = parser_signatures(strings)
    assert found == {
        "add": [
            [["other", False, None], ["alpha", True, "1"]],
            [["input", False, None], ["other", False, None], ["alpha", True, "1"], ["out", True, "None"]],
        ],
        "relu_": [[["input", False, None]]],
    }
    assert unread == 1  # the sigmoid that runs on into a new line


def test_a_signature_kept_in_pieces_is_counted_as_unread():
    strings = b"\x00relu_(Tensor inpsigmoid(Tensor ilog2(Tensor inpu\x00abs(Tensor input)\x00torch.UntypedStorage(int64_t size, *, Device device=None)\x00"
    found, unread = parser_signatures(strings)
    assert found == {"abs": [[["input", False, None]]], "torch.UntypedStorage": [[["size", False, None], ["device", True, "None"]]]}
    assert unread == 3  # relu_, inpsigmoid and ilog2: three pieces, none read


def _elf(sections: dict[str, bytes]) -> bytes:
    """A 64-bit little-endian ELF file with these sections (and the null section and .shstrtab)."""
    names = b"\x00" + b"".join(name.encode() + b"\x00" for name in [*sections, ".shstrtab"])
    body, places, offset = b"", [], 64
    for name, data in [*sections.items(), (".shstrtab", names)]:
        places.append((names.index(name.encode() + b"\x00"), offset, len(data)))
        body += data
        offset += len(data)
    table = bytes(64) + b"".join(struct.pack("<IIQQQQIIQQ", name, 1, 0, 0, at, size, 0, 0, 1, 0) for name, at, size in places)
    header = (
        b"\x7fELF\x02\x01\x01"
        + bytes(9)
        + struct.pack("<HHIQQQIHHHHHH", 3, 62, 1, 0, 0, offset, 0, 64, 0, 0, 64, len(places) + 1, len(places))
    )
    return header + body + table


def test_only_the_libraries_read_only_data_is_read():
    library = _elf({".text": b"\x00view(IntArrayRef size)\x00", ".rodata": b"\x00relu_(Tensor input)\x00", ".data": b"\x00"})
    assert parser_signatures(rodata(library, "w.whl: lib.so"))[0] == {"relu_": [[["input", False, None]]]}


@pytest.mark.parametrize(
    ("library", "message"),
    [
        (b"MZ not an ELF file", "w.whl: lib.so: not a 64-bit little-endian ELF file"),
        (b"\x7fELF\x02\x01" + bytes(30), "w.whl: lib.so: a malformed ELF header"),
        (_elf({".text": b"x"}), "w.whl: lib.so: no .rodata section"),
        (_elf({".rodata": b"x"})[:-64], "w.whl: lib.so: its ELF section table lies outside the file"),
    ],
)
def test_a_library_that_is_not_what_it_should_be_is_one_clear_error(library, message):
    with pytest.raises(StaticError, match=message):
        rodata(library, "w.whl: lib.so")


# --- A remote wheel, by byte range ----------------------------------------------------------------------------------

LIBRARY = _elf({".rodata": b"\x00relu_(Tensor input)\x00add(Tensor input, Tensor other, *, Scalar alpha=1)\x00" + bytes(300_000)})


def _zip(members: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A zip of these members after 200 KB that do not compress, so that reading a member takes ranges of its own."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as wheel:
        wheel.writestr("torch/lib/libother.so", os.urandom(200_000))
        for name, data in members.items():
            wheel.writestr(name, data)
    return buffer.getvalue()


@pytest.mark.parametrize("method", [zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED])
def test_a_members_bytes_are_read_by_byte_range_deflated_or_stored(method):
    stub = b"def abs(input: Tensor) -> Tensor: ...\n" * 50
    members = {"torch/_C/_VariableFunctions.pyi": stub, "torch/lib/libtorch_python.so": LIBRARY}
    body = _zip(members, method)
    with _serving(body) as url:
        wheel = RemoteZip(url, "torch-9.9.0.whl")
        assert sorted(wheel.members) == sorted([*members, "torch/lib/libother.so"])
        assert wheel.members["torch/lib/libtorch_python.so"].size == len(LIBRARY)
        assert wheel.read("torch/_C/_VariableFunctions.pyi") == stub
        pieces = list(wheel.stream("torch/lib/libtorch_python.so", max_size=1 << 20, chunk=64))
    assert b"".join(pieces) == LIBRARY
    assert len(pieces) > 1  # streamed, a piece at a time
    assert wheel.downloaded < len(body) - 100_000  # the tail, the directory and the members, never the rest


def test_zip64_sizes_offsets_and_end_records_are_followed(monkeypatch):
    monkeypatch.setattr(zipfile, "ZIP64_LIMIT", 1000)  # every size and offset over it is written in zip64 form
    body = bytearray(_zip({"a.txt": b"a" * 5000, "torch/lib/libtorch_python.so": LIBRARY}))
    end = body.rfind(b"PK\x05\x06")
    assert body.rfind(b"PK\x06\x06") >= 0
    body[end + 16 : end + 20] = b"\xff\xff\xff\xff"  # the directory's place only in the zip64 end record
    with _serving(bytes(body)) as url:
        wheel = RemoteZip(url, "big.whl")
        assert wheel.read("torch/lib/libtorch_python.so", max_size=1 << 20) == LIBRARY
        assert wheel.read("a.txt") == b"a" * 5000


def test_a_member_over_its_limit_or_damaged_is_one_error_naming_the_wheel_and_the_member():
    body = _zip({"torch/lib/libtorch_python.so": LIBRARY})
    with _serving(body) as url:
        with pytest.raises(ZipError, match=r"^torch-9.9.0.whl: torch/lib/libtorch_python.so is \d+ bytes, more than the 1000 allowed$"):
            RemoteZip(url, "torch-9.9.0.whl").read("torch/lib/libtorch_python.so", max_size=1000)
        with pytest.raises(ZipError, match=r"^torch-9.9.0.whl: no member torch/_C/_VariableFunctions.pyi$"):
            RemoteZip(url, "torch-9.9.0.whl").read("torch/_C/_VariableFunctions.pyi")
    damaged = bytearray(body)
    start = damaged.find(b"torch/lib/libtorch_python.so") + len("torch/lib/libtorch_python.so") + 40
    damaged[start : start + 50] = bytes(50)
    with _serving(bytes(damaged)) as url, pytest.raises(ZipError, match=r"^torch-9.9.0.whl: torch/lib/libtorch_python.so "):
        RemoteZip(url, "torch-9.9.0.whl").read("torch/lib/libtorch_python.so", max_size=1 << 20)


PAD = bytes(70_000)  # more than the tail read first


def _end(size: int, offset: int) -> bytes:
    """A zip's end record: its directory's size and place."""
    return b"PK\x05\x06" + bytes(8) + struct.pack("<II", size, offset) + bytes(2)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"not a zip at all" * 5000, "not a zip"),
        (PAD + _end(50, 10**9), "its zip directory runs past the end of the file"),
        (PAD + _end(60, 0), "its zip directory lists no members"),
        (PAD + b"PK\x01\x02" + bytes(20) + _end(24, len(PAD)), "a malformed zip directory"),
        (PAD + _end(0xFFFFFFFF, 0xFFFFFFFF), "a zip64 directory without its locator"),
    ],
)
def test_a_malformed_zip_is_one_error_naming_the_wheel(body, message):
    with _serving(body) as url, pytest.raises(ZipError, match=f"^torch-9.9.0.whl: .*{message}"):
        RemoteZip(url, "torch-9.9.0.whl")


# --- One release -----------------------------------------------------------------------------------------------------


def _listed(url: str) -> dict:
    return {"filename": "torch-9.9.0-cp311-cp311-manylinux_2_28_x86_64.whl", "url": url, "digests": {"sha256": "ab" * 32}}


def test_a_release_is_read_from_its_wheel_into_one_document():
    body = _zip({"torch/__init__.pyi": b"def abs(input): ...\n", "torch/lib/libtorch_python.so": LIBRARY, "torch/__init__.py": b""})
    with _serving(body) as url:
        document, downloaded = read_release("9.9", _listed(url), "2026-01-01")
    assert document["provenance"] | {"url": None} == {
        "release": "9.9",
        "requirement": "torch==9.9.0",
        "wheel": "torch-9.9.0-cp311-cp311-manylinux_2_28_x86_64.whl",
        "url": None,
        "sha256": "ab" * 32,
        "members": {"parser": "torch/lib/libtorch_python.so"},
        "method": static.METHOD,
        "tool": static.TOOL,
        "date": "2026-01-01",
    }
    assert list(document) == ["provenance", "parser", "parser_unread"]  # the stub is no part of it: the surfaces see what it declares
    assert document["parser"]["relu_"] == [[["input", False, None]]]
    assert 0 < downloaded < len(body) - 100_000


def test_a_malformed_wheel_fails_its_release_in_one_line_without_a_traceback(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(static, "STATIC_DIR", tmp_path)
    with _serving(_zip({"torch/lib/libtorch_python.so": b"MZ, not ELF"})) as url:
        monkeypatch.setattr(static, "fetch_listing", lambda project: {"releases": {"9.9.0": [_listed(url)]}})
        assert static.run("9.9", "2026-01-01") is False
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "Traceback" not in error
    assert "torch 9.9: not read: torch-9.9.0-cp311-cp311-manylinux_2_28_x86_64.whl: torch/lib/libtorch_python.so: not a 64-bit" in error
    assert not list(tmp_path.iterdir())


def test_a_reading_is_stored_deterministically_and_again_unchanged(monkeypatch, tmp_path):
    monkeypatch.setattr(static, "STATIC_DIR", tmp_path)
    with _serving(_zip({"torch/lib/libtorch_python.so": LIBRARY})) as url:
        monkeypatch.setattr(static, "fetch_listing", lambda project: {"releases": {"9.9.0": [_listed(url)]}})
        assert static.run("9.9", "2026-01-01")
        first = (tmp_path / "9.9.json.gz").read_bytes()
        assert static.run("9.9", "2026-01-02")  # only the day differs: the file stays as it was
    assert (tmp_path / "9.9.json.gz").read_bytes() == first
    assert first[4:8] == bytes(4)  # gzip's mtime is 0
    document = json.loads(gzip.decompress(first))
    assert document["provenance"]["members"] == {"parser": "torch/lib/libtorch_python.so"}
    assert list(document) == sorted(document)
