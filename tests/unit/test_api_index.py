"""The API index: intervals, removals, returns, parameter histories and reproducible files, from hand-made surfaces."""

from __future__ import annotations

import gzip
import json

from tools.api.extract import encode, read_surface, store
from tools.api.index import build_index, encode_index, flat_names, intervals

RELEASES = ["1.0", "1.1", "1.2", "1.3", "1.4"]


def surface(version: str, names: dict, modules: dict | None = None) -> dict:
    """A surface as the extraction stores it."""
    provenance = {"release": version, "torch": f"{version}.0", "python": "3.11.7", "date": "2026-01-01"}
    return {"provenance": provenance, "modules": modules or {"pkg": None}, "names": names}


def fn(*params: list, raises: bool = False, origin: str | None = None) -> dict:
    """A function record with its parameters as [name, kind, default]."""
    record = {"kind": "function", "params": [list(p) for p in params], "sig": "signature"}
    if raises:
        record["raises"] = True
    if origin:
        record["origin"] = origin
    return record


X, Y1, Y2 = ("x", "positional_or_keyword", None), ("y", "positional_or_keyword", "1"), ("y", "positional_or_keyword", "2")
SURFACES = {
    "1.0": surface(
        "1.0", {"pkg.kept": fn(X), "pkg.gone": fn(X), "pkg.back": fn(X), "pkg.f": fn(X), "pkg.C": {"kind": "constant", "type": "int"}}
    ),
    "1.1": surface("1.1", {"pkg.kept": fn(X), "pkg.gone": fn(X), "pkg.f": fn(X, Y1), "pkg.C": {"kind": "constant", "type": "int"}}),
    "1.2": surface(
        "1.2",
        {"pkg.kept": fn(X), "pkg.back": fn(X), "pkg.f": fn(X, Y2), "pkg.new": fn(), "pkg.alias": fn(origin="pkg.new"), "pkg.opt.g": fn()},
        {"pkg": None, "pkg.opt": None},
    ),
    # 1.3 not measured: a gap
    "1.4": surface(
        "1.4",
        {
            "pkg.kept": fn(X),
            "pkg.back": fn(X),
            "pkg.f": fn(X, Y2, raises=True),
            "pkg.new": fn(),
            "pkg.alias": fn(origin="pkg.new"),
            "pkg.opt.new": fn(origin="pkg.new"),  # a re-export under its own name
            "pkg.made": fn(origin="pkg.factory.<locals>.fn"),  # made by a factory: a closure's qualname
            "pkg.obj": fn(origin="pkg._impl.zeros"),  # a loop variable left holding pkg.zeros
            "pkg.zeros": fn(origin="pkg._impl.zeros"),
        },
        {"pkg": None, "pkg.opt": "ImportError"},  # its names are unknown in 1.4, not removed
    ),
}


def test_intervals():
    assert intervals([True, True, True]) == [0]
    assert intervals([False, True, False, False]) == [1, 2]
    assert intervals([True, False, True]) == [0, 1, 2]
    assert intervals([False, False]) == []


def test_since_removed_and_returning_names():
    names = flat_names(build_index(SURFACES, RELEASES))
    assert names["pkg.kept"]["v"] == [0]
    assert names["pkg.gone"]["v"] == [0, 2]  # first release without it: 1.2
    assert names["pkg.back"]["v"] == [0, 1, 2]  # removed in 1.1, back in 1.2
    assert names["pkg.new"]["v"] == [2]
    assert names["pkg.opt.g"]["v"] == [2]  # pkg.opt failed to import in 1.4: not a removal


def test_a_function_that_only_raises_counts_as_removed():
    entry = flat_names(build_index(SURFACES, RELEASES))["pkg.f"]
    assert entry["v"] == [0, 4]
    assert entry["x"] == [4]


def test_parameter_added_and_default_changed():
    entry = flat_names(build_index(SURFACES, RELEASES))["pkg.f"]
    assert entry["p"] == {"y": {"v": [1, 4], "d": [[1, "1"], [2, "2"]]}}  # it ends with its callable, a stub from 1.4
    assert "p" not in flat_names(build_index(SURFACES, RELEASES))["pkg.kept"]  # no history: not listed


def test_kinds_aliases_modules_and_measured_releases():
    index = build_index(SURFACES, RELEASES)
    names = flat_names(index)
    assert index["kinds"][names["pkg.C"]["k"]] == "constant:int"
    assert index["kinds"][names["pkg.kept"]["k"]] == "function"
    assert names["pkg.opt.new"]["a"] == "pkg.new"
    assert "a" not in names["pkg.alias"]  # a function's qualname under another name is the code that made it, not it
    assert "a" not in names["pkg.made"]
    assert "a" not in names["pkg.zeros"] and "a" not in names["pkg.obj"]  # not a loop variable holding the same object
    assert "a" not in names["pkg.new"]
    assert names["pkg.opt"]["e"] == [[4, "ImportError"]]
    assert index["measured"][3] is None
    assert index["measured"][4] == {"torch": "1.4.0", "python": "3.11.7"}
    assert index["names"]["pkg"]["kept"] == names["pkg.kept"]  # grouped by parent path


def test_no_parameter_outlives_its_callable():
    surfaces = {v: surface(v, {"pkg.g": fn(X, Y1)} if v in ("1.1", "1.2") else {"pkg.g": fn(X)} if v == "1.0" else {}) for v in RELEASES}
    entry = flat_names(build_index(surfaces, RELEASES))["pkg.g"]
    assert entry["v"] == [0, 3]
    assert entry["p"] == {"y": {"v": [1, 3]}}  # added in 1.1, gone with pkg.g in 1.3; x has no history of its own


def test_index_bytes_are_reproducible():
    first = encode_index(build_index(SURFACES, RELEASES))
    second = encode_index(build_index(json.loads(json.dumps(SURFACES)), list(RELEASES)))
    assert first == second
    assert json.loads(first)["format"] == 1


def test_surface_file_is_deterministic_and_kept_when_only_the_date_changes(tmp_path):
    document = SURFACES["1.0"]
    data = encode(document)
    assert data == encode(json.loads(json.dumps(document)))
    assert data[4:8] == b"\0\0\0\0"  # gzip mtime 0
    assert json.loads(gzip.decompress(data)) == document
    path = tmp_path / "1.0.json.gz"
    assert store(document, path)
    assert read_surface(path) == document
    redated = {**document, "provenance": {**document["provenance"], "date": "2027-05-05"}}
    assert not store(redated, path)  # equal but for the date: the file is left untouched
    assert path.read_bytes() == data
    changed = {**redated, "names": {**document["names"], "pkg.extra": fn()}}
    assert store(changed, path)
    assert read_surface(path)["provenance"]["date"] == "2027-05-05"


def builtin(*params: list, origin: str | None = None) -> dict:
    """A C builtin's record, its parameters from a stub."""
    record = {"kind": "builtin", "params": [list(p) for p in params], "sig": "stub"}
    if origin:
        record["origin"] = origin
    return record


SELF, INPUT = ("self", "positional_or_keyword", None), ("input", "positional_or_keyword", None)


def test_builtin_parameters_follow_the_argument_parser():
    surfaces = {
        v: surface(
            v,
            {
                "torch.relu_": builtin(SELF if v in ("1.1", "1.2") else INPUT),
                "torch.cos_": builtin(SELF if v in ("1.1", "1.2") else INPUT),
                "torch.rfft": builtin(INPUT, ("signal_ndim", "positional_or_keyword", None), origin="torch._C._fft.fft_rfft")
                if v == "1.2"
                else builtin(INPUT, ("n", "positional_or_keyword", "None"), origin="torch._C._fft.fft_rfft"),
            },
            {"torch": None},
        )
        for v in RELEASES
    }
    parser = {
        "relu_": [[["input", False, None]]],
        "acos_": [[["input", False, None]]],  # cos_'s string is the tail of acos_'s
        "fft_rfft": [[["input", False, None], ["n", False, "None"]]],
    }
    statics = {v: {"declared": {"torch": []}, "parser": parser} for v in RELEASES}
    names = flat_names(build_index(surfaces, RELEASES, statics))
    assert "p" not in names["torch.relu_"] and "p" not in names["torch.cos_"]  # `input` all along, as callers saw it
    assert "p" not in names["torch.rfft"]  # 1.2's stub described another function: the parser's parameters stand
    assert flat_names(build_index(surfaces, RELEASES))["torch.relu_"]["p"] == {"self": {"v": [1, 3]}, "input": {"v": [0, 1, 3]}}


def test_names_only_the_cuda_build_has_where_a_cpu_build_was_measured():
    surfaces = {v: surface(v, {"pkg.gpu": fn(), "pkg.both": fn()}) for v in RELEASES}
    cpu = {"1.2": surface("1.2", {"pkg.both": fn()})}
    names = flat_names(build_index(surfaces, RELEASES, cpu_surfaces=cpu))
    assert names["pkg.gpu"]["c"] == [2, 3]  # measured in 1.2 only: the other releases say nothing
    assert "c" not in names["pkg.both"]


def test_a_docstring_signature_and_a_tensor_methods_give_way_to_the_parser():
    def doc(kind, *params):
        return {"kind": kind, "params": [list(p) for p in params], "sig": "docstring"}

    positional = "positional_or_keyword"
    surfaces = {
        v: surface(
            v,
            {
                "torch.atan2": doc("builtin", ("input1", positional, None), ("input2", positional, None), ("out", "keyword_only", "None")),
                "torch.Tensor.resize_as_": doc("method", ("tensor", positional, None)),
            }
            if v == "1.0"
            else {
                "torch.atan2": builtin(INPUT, ("other", positional, None), ("out", "keyword_only", "None")),
                "torch.Tensor.resize_as_": {**doc("method", ("the_template", positional, None)), "sig": "stub"},
            },
            {"torch": None},
        )
        for v in RELEASES
    }
    parser = {
        "atan2": [[["input", False, None], ["other", False, None], ["out", True, "None"]]],
        "resize_as_": [[["the_template", False, None]]],  # the method's: the tensor itself is not a parameter
    }
    names = flat_names(build_index(surfaces, RELEASES, {"1.0": {"declared": {"torch": []}, "parser": parser}}))
    assert "p" not in names["torch.atan2"]  # input, other and out from 1.0 on, as the parser had them
    assert "p" not in names["torch.Tensor.resize_as_"]  # the_template from 1.0 on: `tensor=` never worked


def test_a_classs_members_stay_with_every_path_of_the_class():
    """Members are recorded under a class's shortest public path: a shorter one appearing does not remove them."""
    cls = {"kind": "class", "origin": "pkg._impl.Set", "sig": "none"}
    surfaces = {
        v: surface(
            v,
            {"pkg.a.Set": cls, "pkg.a.Set.union": fn()}
            if v in ("1.0", "1.1")
            else {"pkg.a.Set": cls, "pkg.Set": cls, "pkg.Set.union": fn()},
        )
        for v in RELEASES
    }
    names = flat_names(build_index(surfaces, RELEASES))
    assert names["pkg.a.Set.union"]["v"] == [0]
    assert names["pkg.Set.union"]["v"] == [2]


def test_a_class_has_what_its_bases_have():
    """Members found in a public base are recorded under the base; those of a private base under the first class that
    has it: a class is given both, where a surface once recorded the name under it."""
    base = {"kind": "class", "origin": "pkg._C.Base", "sig": "none"}
    early = {"pkg.Base": base, "pkg.Base.dtype": fn(), "pkg.A": {"kind": "class", "sig": "none"}, "pkg.A.dtype": fn(), "pkg.A.size": fn()}
    early |= {"pkg.B": {"kind": "class", "sig": "none"}, "pkg.B.size": fn(), "pkg.B.own": fn()}
    early |= {"pkg.L": {"kind": "class", "sig": "none"}, "pkg.L.dtype": fn()}
    later = {
        "pkg.Base": base,
        "pkg.Base.dtype": fn(),
        "pkg.A": {
            "kind": "class",
            "sig": "none",
            "bases": ["pkg._C.Base", "pkg.storage._Typed"],
            "mro": ["pkg._C.Base", "pkg.storage._Typed"],
        },
        "pkg.A.size": fn(origin="pkg.storage._Typed.size"),  # the private base's member, recorded under the first class that has it
        "pkg.A.own": fn(),  # pkg.A's own: not pkg.B's, though they share a private base
        "pkg.B": {"kind": "class", "sig": "none", "bases": ["pkg.storage._Typed"], "mro": ["pkg.storage._Typed"]},
        # a public base reached through a private one, whose members no surface recorded
        "pkg.L": {"kind": "class", "sig": "none", "bases": ["pkg._Legacy"], "mro": ["pkg._Legacy", "pkg._C.Base"]},
    }
    surfaces = {v: surface(v, early if v in ("1.0", "1.1") else later) for v in RELEASES}
    names = flat_names(build_index(surfaces, RELEASES))
    assert names["pkg.A.dtype"]["v"] == [0]  # from pkg.Base from 1.2 on
    assert names["pkg.B.size"]["v"] == [0]  # from the private base it shares with pkg.A
    assert names["pkg.B.own"]["v"] == [0, 2]  # gone with pkg.B's own in 1.2: pkg.A's is not pkg.B's
    assert names["pkg.L.dtype"]["a"] == "pkg.Base.dtype"  # defined at the member it comes from
    assert names["pkg.L.dtype"]["v"] == [0]  # from pkg.Base, through pkg._Legacy


def test_a_private_name_is_there_while_its_module_has_it():
    """A name listed in one release and private in another is there in both, with the members of its class; a private
    name that no release listed stays out of the index."""
    cls = {"kind": "class", "sig": "none"}
    listed = {"pkg._R": cls, "pkg._R.field": {"kind": "property"}}
    private = {
        "pkg._R": {**cls, "private": True},
        "pkg._R.field": {"kind": "property", "private": True},
        "pkg._helper": {**fn(), "private": True},
    }
    surfaces = {v: surface(v, listed if v in ("1.1", "1.2") else private) for v in RELEASES}
    names = flat_names(build_index(surfaces, RELEASES))
    assert names["pkg._R"]["v"] == [0] and names["pkg._R.field"]["v"] == [0]
    assert "pkg._helper" not in names


def test_two_names_whose_origins_name_each_other_have_no_home():
    """A module that sets a class's __module__ by hand makes the two paths name each other: neither is its home."""
    cls = {"kind": "class", "sig": "none"}
    surfaces = {v: surface(v, {"pkg.a.Q": {**cls, "origin": "pkg.b.Q"}, "pkg.b.Q": {**cls, "origin": "pkg.a.Q"}}) for v in RELEASES}
    names = flat_names(build_index(surfaces, RELEASES))
    assert "a" not in names["pkg.a.Q"] and "a" not in names["pkg.b.Q"]


def test_defined_at_names_a_path_there_in_the_newest_release_of_the_name():
    """An `a` is a path a reader finds in the newest release that has the name: an origin gone by then (a `__module__`
    set by hand to a module that left) gives none; of the paths sharing a private origin, one there."""
    cls = {"kind": "class", "sig": "none"}
    surfaces = {
        v: surface(
            v,
            {"pkg.shim.Q": {**cls, "origin": "pkg.old.Q"}}
            | ({"pkg.old.Q": cls, "pkg.early.Q": {**cls, "origin": "pkg.old.Q"}} if v in ("1.0", "1.1") else {})
            | ({"pkg.new.Q": {**cls, "origin": "pkg.old.Q"}} if v not in ("1.0", "1.1") else {})
            | ({"pkg.a.T": {**cls, "origin": "pkg._impl.T"}} if v in ("1.0", "1.1") else {"pkg.b.c.T": {**cls, "origin": "pkg._impl.T"}})
            | {"pkg.z.T": {**cls, "origin": "pkg._impl.T"}},
        )
        for v in RELEASES
    }
    names = flat_names(build_index(surfaces, RELEASES))
    assert names["pkg.early.Q"]["a"] == "pkg.old.Q"  # both there in 1.1, the newest release of pkg.early.Q
    assert "a" not in names["pkg.shim.Q"] and "a" not in names["pkg.new.Q"]  # pkg.old.Q is gone by 1.4
    assert names["pkg.b.c.T"]["a"] == "pkg.z.T"  # of the paths sharing its private origin, the shortest there in 1.4
    assert "a" not in names["pkg.z.T"]  # itself the shortest in 1.4 (pkg.a.T left)
