"""The API worker, run for real with this Python on a small package made in a temporary folder."""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

import pytest

from tools.api import worker
from tools.api.extract import measure
from tools.api.worker import docstring_parameters
from tools.release_env import PYENV_ROOT, interpreter

FILES = {
    "fakepkg/__init__.py": '''
        """A package with an __all__, re-exports, aliases, a class, a removed function and a builtin."""
        from __future__ import division
        import os
        from builtins import iter as iterate
        from builtins import max as maximum

        from typing import Union

        from .sub import helper
        from ._private import Hidden as Hidden

        __all__ = ["public_fn", "Thing", "alias_fn", "VERSION", "maximum", "iterate", "removed_fn", "abstract_fn", "Hidden"]
        VERSION = "1.0"
        Number = Union[int, float]
        print("noise on stdout while importing")


        def public_fn(a, b=2, *args, c=None, **kw):
            return a


        alias_fn = public_fn


        def removed_fn(x):
            """Removed in 1.3."""
            raise RuntimeError("removed: use public_fn")


        def abstract_fn(x):
            raise NotImplementedError


        def _private_fn():
            pass


        class Thing:
            """A class with members of every kind."""

            limit = 3

            def __init__(self, size, *, name="t"):
                self._size = size

            def run(self, x, y=1):
                return x

            @property
            def size(self):
                return self._size

            @staticmethod
            def make(n):
                return Thing(n)

            @classmethod
            def build(cls, n, scale=2.0):
                return cls(n)

            def solve(self, other):
                from fakepkg._private import gone

                return gone(self, other)
    ''',
    "fakepkg/__init__.pyi": """
        from typing import overload

        @overload
        def maximum(input: int, other: int, *, out: int = None) -> int: ...
        @overload
        def maximum(input: int, *, dim: int = -1, keepdim: bool = False) -> int: ...
    """,
    "fakepkg/_private.py": """
        class _Base:
            def inherited(self, z):
                return z


        class Hidden(_Base):
            pass


        def gone(*args):
            raise RuntimeError("gone")
    """,
    "fakepkg/sub/__init__.py": """
        import os
        import sys
        from typing import List

        import fakepkg._private


        def helper(x: List[int], flag=object(), where=os, home=os.path.join(sys.prefix, "share"), modes=frozenset({"rb", "wb", "ab", "xb"})):
            return x
    """,
    "fakepkg/sub/deep.py": """
        from fakepkg._private import _Base


        class Base(_Base):
            def own(self):
                pass


        class Child(Base):
            def extra(self, q=None):
                pass


        class GraphModule:
            def __new__(cls, *args, **kwargs):
                return super().__new__(cls)

            def __init__(self, root, graph):
                pass


        class FusedGraphModule(GraphModule):
            def __init__(self, root, graph, preserved_attr_names):
                super().__init__(root, graph)
    """,
    "fakepkg/broken.py": 'raise ImportError("needs a library that is not installed")\n',
    "fakepkg/crashes.py": "import os\n\nos._exit(3)\n",
    "fakepkg/tests/__init__.py": "",
    "fakepkg/tests/test_fake.py": "def test_x():\n    pass\n",
    "fakepkg/sub/test_helpers.py": "X = 1\n",
}


@pytest.fixture(scope="module")
def package(tmp_path_factory) -> Path:
    """The folder holding the fake package."""
    root = tmp_path_factory.mktemp("fake")
    for relative, text in FILES.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def surface(package) -> dict:
    """The worker's surface of the fake package, measured with this Python."""
    return measure(Path(sys.executable), "fakepkg", path=package, cwd=package, timeout=120)


def test_public_modules_are_walked_and_failures_kept(surface):
    assert surface["modules"] == {
        "fakepkg": None,
        "fakepkg.broken": "ImportError",
        "fakepkg.crashes": "crashed",  # it killed the process: measured again without it
        "fakepkg.sub": None,
        "fakepkg.sub.deep": None,
    }  # no fakepkg._private, no fakepkg.tests, no fakepkg.sub.test_helpers


def test_names_kinds_and_origins(surface):
    names = surface["names"]
    assert names["fakepkg.VERSION"] == {"kind": "constant", "type": "str"}
    assert names["fakepkg.public_fn"]["kind"] == "function"
    assert "origin" not in names["fakepkg.public_fn"]
    assert names["fakepkg.alias_fn"]["origin"] == "fakepkg.public_fn"
    assert names["fakepkg.helper"]["origin"] == "fakepkg.sub.helper"
    assert names["fakepkg.helper"]["listed"] is False  # public, but not in __all__
    assert names["fakepkg.Hidden"]["origin"] == "fakepkg._private.Hidden"
    assert names["fakepkg.sub"] == {"kind": "module", "listed": False}
    assert names["fakepkg.maximum"]["kind"] == "builtin"
    assert "fakepkg.os" not in names  # imported from outside the package
    assert "fakepkg.sub.List" not in names
    assert "fakepkg.division" not in names  # a __future__ feature
    assert "fakepkg.Number" not in names  # a typing alias: an instance of a type from outside the package
    assert "fakepkg.sub.fakepkg" not in names  # `import fakepkg._private` in fakepkg.sub: an import, not a module there
    assert names["fakepkg._private_fn"] == {"kind": "function", "params": [], "sig": "signature", "private": True}
    assert "fakepkg.__all__" not in names and "fakepkg.__doc__" not in names
    assert not [name for name in names if "._private." in name or name.startswith("fakepkg.tests")]


def test_parameters_from_signature_and_stub(surface):
    names = surface["names"]
    assert names["fakepkg.public_fn"]["params"] == [
        ["a", "positional_or_keyword", None],
        ["b", "positional_or_keyword", "2"],
        ["args", "var_positional", None],
        ["c", "keyword_only", "None"],
        ["kw", "var_keyword", None],
    ]
    assert names["fakepkg.public_fn"]["sig"] == "signature"
    assert names["fakepkg.sub.helper"]["params"][1:] == [  # no memory address, no path of the machine
        ["flag", "positional_or_keyword", "<object object>"],
        ["where", "positional_or_keyword", "<module 'os'>"],
        ["home", "positional_or_keyword", "'<prefix>/share'"],
        ["modes", "positional_or_keyword", "frozenset({'ab', 'rb', 'wb', 'xb'})"],  # not in this run's hash order
    ]
    assert names["fakepkg.maximum"]["sig"] == "stub"  # no signature for the builtin: read from __init__.pyi
    assert names["fakepkg.maximum"]["overloads"] == 2
    assert names["fakepkg.maximum"]["params"] == [
        ["input", "positional_or_keyword", None],
        ["other", "positional_or_keyword", None],
        ["out", "keyword_only", "None"],
        ["dim", "keyword_only", "-1"],
        ["keepdim", "keyword_only", "False"],
    ]
    # no signature and no stub: the `iter(iterable) -> iterator` lines of its docstring, two overloads merged
    assert names["fakepkg.iterate"]["sig"] == "docstring"
    assert names["fakepkg.iterate"]["params"] == [
        ["iterable", "positional_or_keyword", None],
        ["callable", "positional_or_keyword", None],
        ["sentinel", "positional_or_keyword", None],
    ]
    assert names["fakepkg.Thing"]["params"] == [["size", "positional_or_keyword", None], ["name", "keyword_only", "'t'"]]


def test_class_members(surface):
    names = surface["names"]
    assert names["fakepkg.Thing.run"] == {
        "kind": "method",
        "params": [["x", "positional_or_keyword", None], ["y", "positional_or_keyword", "1"]],
        "sig": "signature",
    }
    assert names["fakepkg.Thing.size"] == {"kind": "property"}
    assert names["fakepkg.Thing.limit"] == {"kind": "constant", "type": "int"}
    assert names["fakepkg.Thing.make"]["kind"] == "staticmethod"
    assert names["fakepkg.Thing.make"]["params"] == [["n", "positional_or_keyword", None]]
    assert names["fakepkg.Thing.build"]["params"] == [["n", "positional_or_keyword", None], ["scale", "positional_or_keyword", "2.0"]]
    # a private base's members show once, on its heir: of the public subclasses (Hidden and deep.Base), the nearest
    # with the shortest path; a public base keeps its own members (deep.Child does not repeat `own`)
    assert names["fakepkg.Hidden.inherited"]["origin"] == "fakepkg._private._Base.inherited"
    assert names["fakepkg.sub.deep.Base"]["bases"] == ["fakepkg._private._Base"]
    assert "fakepkg.sub.deep.Base.inherited" not in names
    assert "fakepkg.sub.deep.Child.own" not in names
    assert "fakepkg.sub.deep.Child.inherited" not in names
    assert "fakepkg.sub.deep.Child.extra" in names


def test_a_class_is_read_from_the_first_new_or_init_of_its_mro(surface):
    """Python 3.8 and older report a base's `__new__` ahead of a subclass's `__init__` (torch.fx's GraphModule
    subclasses in 1.9-1.10); the worker reads the one nearer the class on every Python (the oldest one's surface is
    the same: test_the_worker_runs_on_the_oldest_python_of_the_releases)."""
    names = surface["names"]
    assert [p[0] for p in names["fakepkg.sub.deep.FusedGraphModule"]["params"]] == ["root", "graph", "preserved_attr_names"]
    assert [p[0] for p in names["fakepkg.sub.deep.GraphModule"]["params"]] == ["args", "kwargs"]  # its own __new__ first


def test_private_classes_and_ancestry(surface):
    names = surface["names"]
    # every class of the package a class inherits from, in order, through private ones
    assert names["fakepkg.sub.deep.Child"]["mro"] == ["fakepkg.sub.deep.Base", "fakepkg._private._Base"]
    assert names["fakepkg.sub.deep.Child"]["bases"] == ["fakepkg.sub.deep.Base"]
    # a class only a private name reaches keeps its own members there, marked private like the name
    assert names["fakepkg.sub.deep._Base"]["private"] is True
    assert names["fakepkg.sub.deep._Base.inherited"]["private"] is True
    assert names["fakepkg.sub.deep._Base.inherited"]["kind"] == "method"
    # the public heir keeps showing a private base's members, unmarked
    assert "private" not in names["fakepkg.Hidden.inherited"]


def test_functions_that_only_raise_are_flagged(surface):
    names = surface["names"]
    assert names["fakepkg.removed_fn"]["raises"] is True
    assert names["fakepkg.Thing.solve"]["raises"] is True  # returns a call to a function that only raises
    assert "raises" not in names["fakepkg.abstract_fn"]  # NotImplementedError: an abstract method, not a removal
    assert "raises" not in names["fakepkg.public_fn"]


def test_provenance(surface):
    assert surface["package"] == "fakepkg"
    assert surface["stubs"] == ["fakepkg/__init__.pyi"]
    assert surface["tool"]


def _oldest_python() -> Path | None:
    """pyenv's Python 3.7, which measures torch 1.0 to 1.4; None where this machine has none."""
    try:
        return interpreter("1.0")
    except SystemExit:
        return None


OLDEST_PYTHON = _oldest_python()
IN_CI = bool(os.environ.get("CI"))


# A Python 3.7 comes only from pyenv (`pyenv install 3.7`, built from python.org's sources): neither Debian nor PyPI
# ships one. CI's machines carry pyenv's 3.7 in their image, so there the test never skips: a missing one fails it.
@pytest.mark.skipif(
    OLDEST_PYTHON is None and not IN_CI,
    reason="no pyenv Python 3.7 on this machine (`pyenv install 3.7`; neither Debian nor PyPI ships one); CI runs this test",
)
def test_the_worker_runs_on_the_oldest_python_of_the_releases(package, surface):
    assert OLDEST_PYTHON is not None, f"CI must run the worker on Python 3.7: none under {PYENV_ROOT} (install it with `pyenv install 3.7`)"
    measured = measure(OLDEST_PYTHON, "fakepkg", path=package, cwd=package, timeout=120)
    assert measured["python"].startswith("3.7.")
    assert measured["names"] == surface["names"]
    assert measured["modules"] == surface["modules"]


class FftLike:
    """Stands for torch.fft.fft: a builtin whose __name__ (`fft_fft`) is not the name its docstring uses."""

    __name__ = "fft_fft"
    __doc__ = "\nfft(input, n=None, dim=-1, norm=None, *, out=None) -> Tensor\n\nComputes the one dimensional DFT.\n"


def test_docstring_signatures_under_the_public_name():
    expected = [
        ["input", "positional_or_keyword", None],
        ["n", "positional_or_keyword", "None"],
        ["dim", "positional_or_keyword", "-1"],
        ["norm", "positional_or_keyword", "None"],
        ["out", "keyword_only", "None"],
    ]
    assert docstring_parameters(FftLike(), "fft") == [expected]
    assert docstring_parameters(FftLike(), "ifft") == []


def test_a_class_under_generics_new_is_read_from_its_init(monkeypatch):
    """Up to Python 3.8, typing.Generic has a `__new__(cls, *args, **kwds)` that inspect.signature reports for every
    generic class (DataLoader in 1.5-1.10); the class's own `__init__` says what it takes."""

    def generic_new(cls, *args, **kwds):
        return object.__new__(cls)

    monkeypatch.setattr(worker, "GENERIC_NEW", generic_new)

    class Loader:
        __new__ = generic_new

        def __init__(self, dataset, batch_size=1, *, pin_memory_device=""):
            pass

    assert worker.signature_parameters(Loader, False) == [
        ["dataset", "positional_or_keyword", None],
        ["batch_size", "positional_or_keyword", "1"],
        ["pin_memory_device", "keyword_only", "''"],
    ]

    class Plain:  # no __init__ of its own either: it takes nothing, as on Pythons whose Generic has no __new__
        __new__ = generic_new

    assert worker.signature_parameters(Plain, False) == []
