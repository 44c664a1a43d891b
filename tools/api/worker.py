"""Measure the public API surface of an installed package by importing it (inside a release's virtualenv; stdlib only, Python 3.7+).

`python worker.py torch [--skip MODULE]... [--path FOLDER] > surface.json` prints one JSON object (`--path` puts a
folder first on the import path); the file imports nothing from the project, since it runs under the Python of the
release it measures.

What it records:

- every public module: the package walked with `pkgutil`, leaving out a module whose dotted path has a
  component starting with `_` or a test module (a component `test` or `tests`, or one starting with `test_`);
  a module that fails to import is kept with the error's type (`--skip` marks one that crashed the process);
- each name of each module: the union of `__all__` and the names not starting with `_`, less what a
  module merely imported (unless `__all__` lists it): a module, class or function whose home is not the package,
  a module of the package under another path (`import torch` in torch.nn.functional), or an instance of a
  non-builtin type from outside the package (a `typing` alias, a `__future__` feature, a logger);
  a name missing from a defined `__all__` carries `"listed": false`. The private names (one leading underscore,
  not listed) are recorded the same way with `"private": true`, and so are the members of a class only private
  names reach: a name exists whether or not `__all__` lists it, and a name listed in one release may be private in
  the next (torch.return_types._unpack_dual in 1.13);
- its kind (module, class, function, builtin, dtype, constant, other; `type` for a constant or other) and
  its `origin`, `__module__` + `__qualname__` (a module's `__name__`) where that differs from its path, so
  re-exports and aliases can be told apart from definitions;
- for each class defined in the package, once, under its shortest public path (a class only private names reach:
  its shortest private one): its public members, each found in the class or a base that is not itself a public
  class (members of a public base are recorded there); its direct `bases` and its `mro`, every class of the package
  it inherits from, in order (torch.IntStorage reaches TypedStorage through the private _LegacyStorage);
- the parameters of each callable as [name, kind, default repr or null], and `sig`, where they came from:
  `signature` (inspect.signature), `stub` (the `.pyi` files the package ships, read with `ast`, overloads
  merged: a parameter's default is every distinct default joined with " | "), `docstring` (for a C builtin
  with neither: the `name(params) -> ...` lines torch writes at the top of its docstrings, read with `ast`) or `none`;
- `raises`: a Python function (or a class whose `__init__` is one) whose body, after an optional docstring,
  is a single `raise` statement: a removed API kept as a stub that errors (torch.solve from 1.13). It is
  detected from the source: the code object must contain a RAISE_VARARGS instruction, then
  `inspect.getsource` + `ast` must show a function body of only a docstring and a `raise` of something
  other than NotImplementedError (that is an abstract method) or a bare `raise`; or a body of only a
  `return` of a call to such a function (Tensor.solve returns torch._linalg_utils.solve(...)).
"""

from __future__ import annotations

import ast
import inspect
import json
import opcode
import os
import pkgutil
import platform
import re
import sys
import textwrap
import traceback
import typing
import warnings

TOOL_VERSION = "10"  # raised whenever what the worker records changes
ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
MODULE_FILE = re.compile(r"<module '([^']*)'[^>]*>")  # "<module 'os' from '/path/os.py'>", "<module 'os' (frozen)>"
DEFAULT_LIMIT = 160
CONSTANT_TYPES = (bool, int, float, complex, str, bytes, type(None))
RAISE_VARARGS = opcode.opmap["RAISE_VARARGS"]  # 130 up to Python 3.12, 101 in 3.13
UNARY = {"USub": "-", "UAdd": "+", "Not": "not ", "Invert": "~"}
BINARY = {"Add": "+", "Sub": "-", "Mult": "*", "Div": "/", "FloorDiv": "//", "Pow": "**", "BitOr": "|", "BitAnd": "&", "Mod": "%"}
SHORT_CODE = 160  # bytes of bytecode: room for `return f(a, b)` with 3.11's inline caches
ABSTRACT = ("NotImplementedError", "NotImplemented", None)  # None: a bare `raise`
DESCRIPTORS = ("property", "staticmethod", "classmethod", "getset_descriptor", "member_descriptor", "method_descriptor")
GENERIC_NEW = typing.Generic.__new__  # up to Python 3.8 its own `__new__(cls, *args, **kwds)`; object's from 3.9
FALLBACK_STUBS = ("_C._VariableFunctions", "_C._nn", "_C", "")  # where a package's C builtins are declared


def attribute(value: object, name: str) -> object:
    """`getattr(value, name, None)` that survives any error the attribute raises (some proxies raise AssertionError)."""
    try:
        return getattr(value, name, None)
    except BaseException:
        return None


def is_private_path(dotted: str) -> bool:
    """Whether a module path is left out: a component starting with `_`, or a test module."""
    return any(part.startswith("_") or part in ("test", "tests") or part.startswith("test_") for part in dotted.split("."))


def home_of(value: object) -> str | None:
    """The module an object comes from: a module's own name, else `__module__` (None when it has none)."""
    if inspect.ismodule(value):
        return value.__name__
    module = attribute(value, "__module__")
    return module if isinstance(module, str) else None


def origin_of(value: object) -> str | None:
    """`__module__` + `__qualname__` (a module's `__name__`), where Python can tell."""
    if inspect.ismodule(value):
        return value.__name__
    module, qualname = attribute(value, "__module__"), attribute(value, "__qualname__")
    if isinstance(module, str) and isinstance(qualname, str):
        return module + "." + qualname
    return None


def in_package(home: str | None, root: str) -> bool:
    """Whether a module name belongs to the measured package."""
    return home is not None and (home == root or home.startswith(root + "."))


def type_name(value: object) -> str:
    """The qualified name of a value's type, e.g. `int` or `torch.device`."""
    kind = type(value)
    module = attribute(kind, "__module__")
    return kind.__qualname__ if module == "builtins" else f"{module}.{kind.__qualname__}"


def kind_of(value: object, root: str) -> dict[str, str]:
    """The kind of a value (plus its type for a constant or an other)."""
    if inspect.ismodule(value):
        return {"kind": "module"}
    if inspect.isclass(value):
        return {"kind": "class"}
    if inspect.isfunction(value):
        return {"kind": "function"}
    if inspect.isbuiltin(value) or type(value).__name__ in ("method_descriptor", "wrapper_descriptor", "builtin_function_or_method"):
        return {"kind": "builtin"}
    if type(value).__name__ == "dtype" and in_package(attribute(type(value), "__module__"), root):
        return {"kind": "dtype"}
    if type(value) in CONSTANT_TYPES:  # an enum member is an int or a str too, but of its own type: an other
        return {"kind": "constant", "type": type_name(value)}
    return {"kind": "other", "type": type_name(value)}


def default_text(value: object) -> str:
    """A default value's repr, without memory addresses or file paths, a set's items sorted, cut to a bounded length."""
    try:
        if isinstance(value, (set, frozenset)) and value:  # in the order of their texts, not of this run's string hashes
            items = "{" + ", ".join(sorted(default_text(item) for item in value)) + "}"
            text = items if type(value) is set else f"{type(value).__name__}({items})"
        else:
            text = MODULE_FILE.sub(r"<module '\1'>", ADDRESS.sub("", repr(value)))
    except Exception:
        text = f"<{type_name(value)}>"
    for prefix in sorted({sys.prefix, sys.base_prefix}, key=len, reverse=True):
        text = text.replace(prefix, "<prefix>")  # no path of this machine in the data
    return text if len(text) <= DEFAULT_LIMIT else text[: DEFAULT_LIMIT - 3] + "..."


def source_of(node: ast.AST | None) -> str:
    """The source of a default expression in a stub (Python 3.7 has no ast.unparse; the same text on every Python)."""
    name = type(node).__name__
    if name in ("Constant", "NameConstant", "Num", "Str", "Bytes"):
        value = node.n if name == "Num" else node.s if name in ("Str", "Bytes") else node.value
        return "..." if value is Ellipsis else repr(value)
    if name == "Name":
        return node.id
    if name == "Attribute":
        return source_of(node.value) + "." + node.attr
    if name == "Index":
        return source_of(node.value)
    if name == "UnaryOp" and type(node.op).__name__ in UNARY:
        return UNARY[type(node.op).__name__] + source_of(node.operand)
    if name == "BinOp" and type(node.op).__name__ in BINARY:
        return f"{source_of(node.left)} {BINARY[type(node.op).__name__]} {source_of(node.right)}"
    if name in ("Tuple", "List"):
        items = ", ".join(source_of(item) for item in node.elts)
        return f"[{items}]" if name == "List" else "({})".format(items + "," if len(node.elts) == 1 else items)
    if name == "Call":
        arguments = [source_of(a) for a in node.args] + [f"{k.arg}={source_of(k.value)}" for k in node.keywords]
        return "{}({})".format(source_of(node.func), ", ".join(arguments))
    if name == "Subscript":
        return f"{source_of(node.value)}[{source_of(node.slice)}]"
    return "..."


def stub_parameters(function: ast.AST, drop_first: bool) -> list[list]:
    """The parameters of one `def` in a stub as [name, kind, default or None]."""
    arguments = function.args
    positional_only = list(getattr(arguments, "posonlyargs", []))
    positional = positional_only + list(arguments.args)
    defaults = [None] * (len(positional) - len(arguments.defaults)) + list(arguments.defaults)
    found = []
    for number, (argument, default) in enumerate(zip(positional, defaults)):  # noqa: B905 (runs on Python 3.7)
        kind = "positional_only" if number < len(positional_only) else "positional_or_keyword"
        found.append([argument.arg, kind, None if default is None else source_of(default)])
    if arguments.vararg:
        found.append([arguments.vararg.arg, "var_positional", None])
    for argument, default in zip(arguments.kwonlyargs, arguments.kw_defaults):  # noqa: B905 (runs on Python 3.7)
        found.append([argument.arg, "keyword_only", None if default is None else source_of(default)])
    if arguments.kwarg:
        found.append([arguments.kwarg.arg, "var_keyword", None])
    return found[1:] if drop_first and found else found


def merge_overloads(signatures: list[list[list]]) -> list[list]:
    """One parameter list from a name's overloads: every name in order of first appearance, its first kind, and
    its default (the distinct defaults joined with " | ", `<required>` where an overload has none)."""
    order, kinds, defaults = [], {}, {}
    for parameters in signatures:
        for name, kind, default in parameters:
            if name not in kinds:
                order.append(name)
                kinds[name], defaults[name] = kind, set()
            defaults[name].add(default)
    merged = []
    for name in order:
        values = defaults[name]
        if values == {None}:
            default = None
        elif len(values) == 1:
            default = next(iter(values))
        else:
            default = " | ".join(sorted("<required>" if value is None else value for value in values))
        merged.append([name, kinds[name], default])
    return merged


def decorator_names(function: ast.AST) -> set[str]:
    """The plain names of a def's decorators (`overload`, `staticmethod`, `property`, ...)."""
    names = set()
    for decorator in function.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        names.add(target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", ""))
    return names


def read_stubs(package_dir: str, root: str) -> tuple[dict[tuple[str, str], tuple[list[list], int]], list[str]]:
    """Every `def` in the package's `.pyi` files: (module, qualname) -> (merged parameters, number of overloads)."""
    collected, files = {}, []
    for folder, subfolders, names in os.walk(package_dir):
        subfolders.sort()
        for file_name in sorted(names):
            if not file_name.endswith(".pyi"):
                continue
            path = os.path.join(folder, file_name)
            relative = os.path.relpath(path, package_dir)[: -len(".pyi")].split(os.sep)
            if relative[-1] == "__init__":
                relative = relative[:-1]
            module = ".".join([root, *relative])
            try:
                with open(path, encoding="utf-8") as handle:
                    tree = ast.parse(handle.read())
            except (SyntaxError, ValueError, UnicodeDecodeError) as error:
                files.append(f"{os.path.relpath(path, os.path.dirname(package_dir))}: {type(error).__name__}")
                continue
            files.append(os.path.relpath(path, os.path.dirname(package_dir)).replace(os.sep, "/"))
            collect_defs(tree.body, module, "", False, collected)
    return {key: (merge_overloads(signatures), len(signatures)) for key, signatures in collected.items()}, files


def collect_defs(body: list[ast.AST], module: str, prefix: str, in_class: bool, collected: dict) -> None:
    """Add the defs of a stub body (into classes and `if` blocks) to `collected`."""
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            decorators = decorator_names(node)
            if "property" in decorators or any(d.endswith("setter") for d in decorators):
                continue
            drop_first = in_class and "staticmethod" not in decorators
            collected.setdefault((module, prefix + node.name), []).append(stub_parameters(node, drop_first))
        elif isinstance(node, ast.ClassDef):
            collect_defs(node.body, module, prefix + node.name + ".", True, collected)
        elif isinstance(node, ast.If):
            collect_defs(node.body + node.orelse, module, prefix, in_class, collected)


def class_initializer(cls: type) -> object | None:
    """The function that says what a class takes, found as Python 3.9 and later find it: in the first class of its MRO
    that defines a `__new__` or an `__init__` in Python (its `__new__` first), typing.Generic's own `__new__` left out;
    None where no class does."""
    for klass in cls.__mro__:
        own = vars(klass)
        new = own.get("__new__")
        new = new.__func__ if isinstance(new, staticmethod) else new
        if inspect.isfunction(new) and new is not GENERIC_NEW:
            return new
        if inspect.isfunction(own.get("__init__")):
            return own["__init__"]
    return None


def signature_parameters(value: object, drop_first: bool) -> list[list] | None:
    """The parameters inspect.signature gives, or None where it cannot tell. Up to Python 3.8 (the Pythons of 1.0-1.10),
    inspect.signature reads a class's `__new__` wherever it is in the MRO before the `__init__` of a subclass
    (torch.fx's GraphModule.__new__(cls, *args, **kwargs) for FusedGraphModule, whose own `__init__` takes root and
    graph), and typing.Generic has a `__new__(cls, *args, **kwds)` of its own (DataLoader's batch_size): there a class
    is read as later Pythons read it (`class_initializer`), and a generic class with neither of its own takes nothing
    (torch.utils.data.communication.iter.NonBlocking)."""
    old_python = GENERIC_NEW is not object.__new__
    if inspect.isclass(value) and old_python and not inspect.isfunction(attribute(type(value), "__call__")):
        initializer = class_initializer(value)
        if initializer is None and attribute(value, "__new__") is GENERIC_NEW:
            return []
        if initializer is not None:
            value, drop_first = initializer, True
    try:
        signature = inspect.signature(value)
    except Exception:
        return None
    found = []
    for parameter in signature.parameters.values():
        default = None if parameter.default is inspect.Parameter.empty else default_text(parameter.default)
        found.append([parameter.name, parameter.kind.name.lower(), default])
    if drop_first and found and found[0][1] in ("positional_only", "positional_or_keyword"):
        found = found[1:]
    return found


def docstring_parameters(value: object, public_name: str) -> list[list[list]]:
    """The signatures a C builtin's docstring spells out on lines of their own, `add(input, other, *, alpha=1) -> Tensor`
    (how torch documents its builtins; releases before stubs have nothing else), each read with `ast`; the line may
    use the builtin's own `__name__` or the name it is public under (torch.fft.fft is `fft_fft`, documented `fft(...)`)."""
    doc = attribute(value, "__doc__")
    names = {public_name, attribute(value, "__name__")} - {None}
    if not isinstance(doc, str) or not all(isinstance(name, str) for name in names):
        return []
    spelled = "|".join(re.escape(name) for name in sorted(names))
    pattern = re.compile(r"^\s*(?:\.\. function:: )?(?:" + spelled + r")\((.*)\)\s*(?:->.*)?:?\s*$")
    found = []
    for line in doc.splitlines()[:40]:
        match = pattern.match(line)
        if not match:
            continue
        try:
            definition = ast.parse(f"def f({match.group(1)}): pass").body[0]
        except SyntaxError:
            continue
        parameters = stub_parameters(definition, False)
        if parameters not in found:
            found.append(parameters)
    return found


def only_raises(function: object, follow: bool = True) -> bool:
    """Whether a Python function's body is only a docstring and a `raise`, or (with `follow`) only a `return` of a call
    to such a function (Tensor.solve returns torch._linalg_utils.solve(...)); see the module docstring."""
    try:
        function = inspect.unwrap(function)
    except Exception:
        return False
    code = attribute(function, "__code__")
    if code is None or (RAISE_VARARGS not in code.co_code[::2] and not (follow and len(code.co_code) <= SHORT_CODE)):
        return False
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    except Exception:
        return False
    definitions = [node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if len(definitions) != 1:
        return False
    body = definitions[0].body
    if body and isinstance(body[0], ast.Expr) and type(body[0].value).__name__ in ("Str", "Constant"):
        body = body[1:]
    if follow and body and isinstance(body[-1], ast.Return) and isinstance(body[-1].value, ast.Call):
        namespace = dict(attribute(function, "__globals__") or {})
        for statement in body[:-1]:  # `from torch._linalg_utils import solve` before `return solve(self, other)`
            if not isinstance(statement, ast.ImportFrom) or statement.level:
                return False
            for alias in statement.names:
                namespace[alias.asname or alias.name] = static_attribute(sys.modules.get(statement.module or ""), alias.name)
        called = resolve(body[-1].value.func, namespace)
        return inspect.isfunction(called) and only_raises(called, follow=False)
    if len(body) != 1 or not isinstance(body[0], ast.Raise):
        return False
    raised = body[0].exc.func if isinstance(body[0].exc, ast.Call) else body[0].exc
    return getattr(raised, "id", None) not in ABSTRACT  # an abstract method is no removed API


def resolve(node: ast.AST, namespace: dict) -> object:
    """The object a name or dotted attribute in a function's body refers to, looked up in its globals (None if unknown)."""
    if isinstance(node, ast.Name):
        return namespace.get(node.id)
    if isinstance(node, ast.Attribute):
        return static_attribute(resolve(node.value, namespace), node.attr)
    return None


def static_attribute(value: object, name: str) -> object:
    """An attribute found without running `__getattr__` (a stub object may answer any name with a function that raises)."""
    if value is None:
        return None
    try:
        return inspect.getattr_static(value, name, None)
    except Exception:
        return None


class Surveyor:
    """Walks one package and records its public surface."""

    def __init__(self, root: str, skip: list[str]) -> None:
        self.root = root
        self.skip = set(skip)
        self.modules = {}
        self.names = {}
        self.objects = {}  # name -> the value, for the class pass
        package = __import__(root)
        self.package_dir = os.path.dirname(package.__file__)
        self.stubs, self.stub_files = read_stubs(self.package_dir, root)

    def walk(self) -> None:
        """Import every public module, breadth first in sorted order, recording import errors."""
        queue = [self.root]
        while queue:
            name = queue.pop(0)
            module = self.load(name)
            if module is None or not hasattr(module, "__path__"):
                continue
            try:
                found = sorted(info[1] for info in pkgutil.iter_modules(module.__path__, name + "."))
            except Exception:
                found = []
            queue.extend(child for child in found if not is_private_path(child))

    def load(self, name: str) -> object | None:
        """Import one module; record None or the error's type."""
        if name in self.skip:
            self.modules[name] = "crashed"
            return None
        print("importing " + name, file=sys.stderr, flush=True)
        try:
            module = __import__(name, fromlist=["_"])
        except BaseException as error:  # SystemExit and KeyboardInterrupt-like exits at import count too
            self.modules[name] = type(error).__name__
            return None
        self.modules[name] = None
        return module

    def record_modules(self) -> None:
        """Record the public names of every module that imported."""
        for name in sorted(self.modules):
            if self.modules[name] is None:
                self.record_module(name, sys.modules[name])

    def record_module(self, module_name: str, module: object) -> None:
        """Record one module's names (a private one marked so)."""
        declared = attribute(module, "__all__")
        listed = {str(n) for n in declared} if isinstance(declared, (list, tuple, set)) else None
        for name in sorted(set(dir(module)) | (listed or set())):
            private = name.startswith("_") and (listed is None or name not in listed)
            if private and name.startswith("__"):
                continue
            path = module_name + "." + name
            try:
                value = getattr(module, name)
            except BaseException as error:
                self.names[path] = {"kind": "error", "type": type(error).__name__, **({"private": True} if private else {})}
                continue
            if (listed is None or name not in listed) and self.imported(value, path):
                continue
            record = self.describe(value, path, module_name, name)
            if private:
                record["private"] = True
            elif listed is not None and name not in listed:
                record["listed"] = False
            self.names[path] = record
            self.objects[path] = value

    def imported(self, value: object, path: str) -> bool:
        """Whether a name that `__all__` does not list is only an import: a module, class or function from outside the
        package, a module of the package under another path (`import torch` in torch.nn.functional), or an instance of
        a type from outside the package other than a builtin one (`typing.Union[...]`, `from __future__ import division`)."""
        if inspect.ismodule(value) or inspect.isclass(value) or callable(value):
            home = home_of(value)
            return (home is not None and not in_package(home, self.root)) or (inspect.ismodule(value) and home != path)
        kind_home = attribute(type(value), "__module__")
        return isinstance(kind_home, str) and kind_home != "builtins" and not in_package(kind_home, self.root)

    def describe(self, value: object, path: str, module_name: str, name: str) -> dict:
        """Kind, origin, parameters and raise-only flag of one public value."""
        record = kind_of(value, self.root)
        origin = origin_of(value)
        if origin is not None and origin != path:
            record["origin"] = origin
        if record["kind"] in ("function", "builtin", "class"):
            self.add_parameters(record, value, name, self.candidates(value, module_name, name, record["kind"] == "class"), False)
        if record["kind"] == "function" and only_raises(value):
            record["raises"] = True
        if record["kind"] == "class":
            init = vars(value).get("__init__")
            if inspect.isfunction(init) and only_raises(init):
                record["raises"] = True
        return record

    def candidates(self, value: object, module_name: str, name: str, is_class: bool) -> list[tuple[str, str]]:
        """The stub entries that may declare a callable, most specific first."""
        suffix = ".__init__" if is_class else ""
        keys = []
        module, qualname = attribute(value, "__module__"), attribute(value, "__qualname__")
        if isinstance(module, str) and isinstance(qualname, str):
            keys.append((module, qualname + suffix))
        keys.append((module_name, name + suffix))
        if is_class:
            keys.extend((attribute(base, "__module__"), f"{attribute(base, '__qualname__')}{suffix}") for base in value.__mro__[1:-1])
        else:
            keys.extend((".".join(filter(None, (self.root, stub))), name) for stub in FALLBACK_STUBS)
        return keys

    def add_parameters(self, record: dict, value: object, public_name: str, keys: list[tuple[str, str]], drop_first: bool) -> None:
        """Parameters from inspect.signature, else from a stub, else from the docstring, else none."""
        parameters = signature_parameters(value, drop_first)
        if parameters is not None:
            record["params"], record["sig"] = parameters, "signature"
            return
        for key in keys:
            if key in self.stubs:
                record["params"], record["sig"] = self.stubs[key][0], "stub"
                if self.stubs[key][1] > 1:
                    record["overloads"] = self.stubs[key][1]
                return
        documented = None if inspect.isclass(value) else docstring_parameters(value, public_name)
        if documented:
            record["params"], record["sig"] = merge_overloads(documented), "docstring"
            if len(documented) > 1:
                record["overloads"] = len(documented)
            return
        record["sig"] = "none"

    def record_classes(self) -> None:
        """Record the public members of each class defined in the package, once, under its shortest public path (a class
        only private names reach: under its shortest private path, its members marked private), with its bases."""
        paths_of = {}
        for path, value in self.objects.items():
            if inspect.isclass(value) and in_package(home_of(value), self.root):
                paths_of.setdefault(id(value), []).append(path)

        def rank(path: str) -> tuple:  # a public path first, then the shortest
            return bool(self.names[path].get("private")), path.count("."), path

        canonical = {identity: min(paths, key=rank) for identity, paths in paths_of.items()}
        public = {identity: path for identity, path in canonical.items() if not self.names[path].get("private")}
        heirs = self.heirs(public)
        owners = self.owners(public)
        for path in canonical.values():
            cls = self.objects[path]
            bases = [origin_of(base) for base in cls.__bases__ if base is not object]
            if bases:
                self.names[path]["bases"] = [base for base in bases if base]
            ancestry = [origin_of(k) for k in cls.__mro__[1:] if in_package(attribute(k, "__module__"), self.root)]
            if ancestry:
                self.names[path]["mro"] = [origin for origin in ancestry if origin]
            self.record_members(cls, path, heirs, owners, private=path not in public.values())

    def owners(self, canonical: dict[int, str]) -> dict[tuple[str, int], type]:
        """(member name, id of its function or descriptor) -> the class it belongs to: of the package's classes that hold
        the very same object in their own dict (each legacy torch.FloatTensor copies torch._C.TensorBase's), the one the
        most public classes inherit from."""
        inherited, classes = {}, {}
        for path in canonical.values():
            for klass in self.objects[path].__mro__:
                if in_package(attribute(klass, "__module__"), self.root):
                    inherited[id(klass)] = inherited.get(id(klass), 0) + 1
                    classes[id(klass)] = klass
        found = {}
        for identity, klass in classes.items():
            rank = (-inherited[identity], len(klass.__mro__), f"{klass.__module__}.{klass.__qualname__}")
            for name, raw in vars(klass).items():
                if name.startswith("_") or not (callable(raw) or type(raw).__name__ in DESCRIPTORS):
                    continue
                if (name, id(raw)) not in found or rank < found[name, id(raw)][0]:
                    found[name, id(raw)] = (rank, klass)
        return {key: klass for key, (_, klass) in found.items()}

    def heirs(self, canonical: dict[int, str]) -> dict[int, int]:
        """For each private base class of the package: the one public class that shows its members (torch._C.TensorBase:
        torch.Tensor): the nearest subclass, then the shortest path, then the first in sorted order, so that the choice
        stays the same from release to release."""
        ranked = {}
        for identity, path in canonical.items():
            cls = self.objects[path]
            for distance, base in enumerate(cls.__mro__[1:], 1):
                if id(base) in canonical or not in_package(attribute(base, "__module__"), self.root):
                    continue
                rank = (distance, path.count("."), path)
                if id(base) not in ranked or rank < ranked[id(base)][0]:
                    ranked[id(base)] = (rank, identity)
        return {base: identity for base, (_, identity) in ranked.items()}

    def record_members(self, cls: type, path: str, heirs: dict[int, int], owners: dict[tuple[str, int], type], private: bool) -> None:
        """Record one class's members: those the class owns, or that a private base of the package whose heir it is owns
        (`private`: a class only private names reach, whose members are marked so)."""
        try:
            names = sorted(name for name in dir(cls) if not name.startswith("_"))
        except Exception:
            return
        module_name, class_name = path.rsplit(".", 1)
        for name in names:
            owner = next((klass for klass in cls.__mro__ if name in vars(klass)), None)
            if owner is None:
                continue
            raw = vars(owner)[name]
            owner = owners.get((name, id(raw)), owner)
            if owner is not cls and heirs.get(id(owner)) != id(cls):
                continue
            member_path = path + "." + name
            try:
                value = getattr(cls, name)
            except BaseException as error:
                self.names[member_path] = {"kind": "error", "type": type(error).__name__, **({"private": True} if private else {})}
                continue
            record = self.describe_member(raw, value)
            if owner is not cls:
                record["origin"] = f"{owner.__module__}.{owner.__qualname__}.{name}"
            if record["kind"] in ("method", "staticmethod", "classmethod"):
                keys = [(klass.__module__, klass.__qualname__ + "." + name) for klass in cls.__mro__[:-1]]
                keys.append((module_name, class_name + "." + name))
                self.add_parameters(record, value, name, keys, record["kind"] == "method")
            if private:
                record["private"] = True
            self.names[member_path] = record

    def describe_member(self, raw: object, value: object) -> dict:
        """Kind of a class member, read from the class's own dict (`raw`) and from attribute access (`value`)."""
        raw_type = type(raw).__name__
        if isinstance(raw, staticmethod):
            record = {"kind": "staticmethod"}
        elif isinstance(raw, classmethod) or raw_type == "classmethod_descriptor":
            record = {"kind": "classmethod"}
        elif isinstance(raw, property) or raw_type in ("getset_descriptor", "member_descriptor"):
            record = {"kind": "property"}
        elif inspect.isfunction(raw) or raw_type in ("method_descriptor", "wrapper_descriptor", "builtin_function_or_method"):
            record = {"kind": "method"}
        else:
            record = kind_of(value, self.root)
            if record["kind"] in ("function", "builtin"):
                record = {"kind": "method"}
        function = raw.__func__ if isinstance(raw, (staticmethod, classmethod)) else raw
        if inspect.isfunction(function) and only_raises(function):
            record["raises"] = True
        return record


def main() -> None:
    """Measure the package named on the command line; print its surface as JSON on the original stdout."""
    root, skip = sys.argv[1], []
    arguments = sys.argv[2:]
    while arguments:
        if arguments[0] == "--skip" and len(arguments) > 1:
            skip.append(arguments[1])
        elif arguments[0] == "--path" and len(arguments) > 1:
            sys.path.insert(0, arguments[1])
        else:
            raise SystemExit("usage: worker.py PACKAGE [--skip MODULE]... [--path FOLDER]")
        arguments = arguments[2:]
    output = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # whatever the package prints, from Python or C, goes to stderr
    sys.stdout = sys.stderr
    warnings.simplefilter("ignore")
    try:
        surveyor = Surveyor(root, skip)
        surveyor.walk()
        print("measuring the names", file=sys.stderr, flush=True)
        surveyor.record_modules()
        surveyor.record_classes()
    except BaseException:
        traceback.print_exc()
        raise SystemExit(1) from None
    version = getattr(sys.modules[root], "__version__", None)
    surface = {
        "package": root,
        "version": str(version) if version is not None else None,
        "python": "{}.{}.{}".format(*sys.version_info[:3]),
        "platform": f"{platform.system()} {platform.machine()}",
        "method": "import, pkgutil walk, inspect.signature, .pyi stubs read with ast",
        "tool": TOOL_VERSION,
        "stubs": surveyor.stub_files,
        "modules": surveyor.modules,
        "names": surveyor.names,
    }
    output.write(json.dumps(surface, sort_keys=True, separators=(",", ":")))
    output.flush()
    sys.stderr.flush()
    os._exit(0)  # skip interpreter teardown: some packages crash or hang in their atexit hooks


if __name__ == "__main__":
    main()
