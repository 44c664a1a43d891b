"""Run or statically check one code block inside a release's throw-away virtualenv (Python 3.7 and later).

`python worker.py < request.json` reads the block and what it claims as one JSON object (mode, version, code,
setup, raises, warns) and prints one JSON object: the outcome, a detail and the number of claims checked. The file
imports nothing from the project: it runs under the Python of the release it checks.
`run` executes the setup, then the block statement by statement, comparing each output comment doctest-style and
counting each `assert` it passes and the error or warning it states; `names` compiles the block with this Python,
checks that every `torch` name it uses exists in the installed torch and lists the keyword arguments of its calls.
"""

import ast
import builtins
import contextlib
import importlib
import importlib.util
import io
import json
import os
import re
import sys
import tempfile
import tokenize
import traceback
import types
import warnings

VERSION_PREFIX = re.compile(r"^(\d+\.\d+):\s*")
PROSE_TAIL = re.compile(r"\s{2,}\(.*\)$")
LOOKS_LIKE_OUTPUT = re.compile(
    r"(tensor\(.*\)|torch\.Size\(\[.*\]\)|device\(.*\)|True|False|None|-?\d+(\.\d+)?(e[+-]?\d+)?|\[.*\]|\(.*\)|\{.*\}|'.*'|\".*\"|torch\.\w+)"
)


def output_claims(code, version):
    """Line number -> the output that an end-of-line comment claims, for comments that read like Python output."""
    claims = {}
    for token in tokenize.generate_tokens(io.StringIO(code).readline):
        if token.type != tokenize.COMMENT or not token.line[: token.start[1]].strip():
            continue
        text = token.string.lstrip("#").strip()
        prefix = VERSION_PREFIX.match(text)
        if prefix:
            if prefix.group(1) != version:
                continue
            text = text[prefix.end() :]
        text = PROSE_TAIL.sub("", text).strip()
        if LOOKS_LIKE_OUTPUT.fullmatch(text):
            claims[token.start[0]] = text
    return claims


def matches(claim, output):
    """Whether the output fits the claim, white space folded and `...` standing for any text."""
    folded_claim, folded_output = " ".join(claim.split()), " ".join(output.split())
    pattern = ".*".join(re.escape(part) for part in folded_claim.split("..."))
    return re.fullmatch(pattern, folded_output, re.S) is not None


def statement_lines(statements, total):
    """The first and last source line of each top-level statement (Python 3.7 has no end_lineno)."""
    starts = [s.lineno for s in statements] + [total + 1]
    return [(start, getattr(s, "end_lineno", None) or starts[i + 1] - 1) for i, (s, start) in enumerate(zip(statements, starts))]  # noqa: B905 (runs on Python 3.7)


CHECK_MARK = "__atlas_assert_passed__"


class AssertCounter(ast.NodeTransformer):
    """Put a call of CHECK_MARK before each `assert` the block itself runs (not those inside its functions or classes,
    which TorchScript or torch.compile may read)."""

    def visit_FunctionDef(self, node):
        return node

    visit_AsyncFunctionDef = visit_ClassDef = visit_Lambda = visit_FunctionDef

    def visit_Assert(self, node):
        mark = ast.Expr(ast.Call(ast.Name(CHECK_MARK, ast.Load()), [], []))
        return [ast.fix_missing_locations(ast.copy_location(mark, node)), node]


def run(code, version, raises, warns="", setup=""):
    """Execute the setup and the block as this process's __main__ module, in a folder of its own; return
    (outcome, detail, claims checked)."""
    folder = tempfile.mkdtemp()
    source = os.path.join(folder, "block.py")  # a real file: TorchScript reads a function's source back
    with open(source, "w") as file:
        file.write(code)
    # as __main__, pickle finds the block's classes and TorchScript their source; in its folder, files it writes stay there
    block = types.ModuleType("__main__")
    block.__file__, block.__builtins__ = source, builtins
    saved_main, saved_folder = sys.modules["__main__"], os.getcwd()
    sys.modules["__main__"] = block
    os.chdir(folder)
    try:
        if setup:
            exec(compile(setup, os.path.join(folder, "setup.py"), "exec"), block.__dict__)
        return execute(code, version, raises, warns, source, block.__dict__)
    except Exception as error:  # the setup's exception: the block never ran
        return "failed", f"the setup failed: {type(error).__name__}: {first_line(error)}", 0
    finally:
        sys.modules["__main__"] = saved_main
        os.chdir(saved_folder)


def first_line(error):
    """The first line of an exception's message, shortened."""
    text = str(error).strip()
    return text.splitlines()[0][:300] if text else ""


def is_a(cls, name):
    """Whether the class or one of its bases is called `name`."""
    return name in [base.__name__ for base in cls.__mro__]


def plural(count, word):
    """'1 assert', '2 asserts'."""
    return "{} {}{}".format(count, word, "" if count == 1 else "s")


def execute(code, version, raises, warns, source, namespace):
    """Run the block statement by statement in `namespace`, comparing each output comment and counting each `assert`
    passed and the warning or error it states; return (outcome, detail, claims checked)."""
    tree = ast.parse(code, source)
    claims = output_claims(code, version)
    compared, asserted, warned = 0, [0], []
    namespace[CHECK_MARK] = lambda: asserted.__setitem__(0, asserted[0] + 1)
    lines = statement_lines(tree.body, len(code.splitlines()))
    for statement, (first, last) in zip(tree.body, lines):  # noqa: B905 (runs on Python 3.7)
        # only an expression (a bare value or a print call) has output that a comment can claim; a comment on an assignment is prose
        claim_lines = [line for line in claims if first <= line <= last] if isinstance(statement, ast.Expr) else []
        buffer = io.StringIO()
        try:
            with contextlib.redirect_stdout(buffer), warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                if isinstance(statement, ast.Expr):
                    value = eval(compile(ast.Expression(statement.value), source, "eval"), namespace)
                    if value is not None:
                        print(repr(value))
                else:
                    counted = ast.fix_missing_locations(AssertCounter().visit(ast.Module([statement], type_ignores=[])))
                    exec(compile(counted, source, "exec"), namespace)
        except Exception as error:  # the block's own exception is the result being checked
            name = type(error).__name__
            if raises and is_a(type(error), raises):
                return "raised", f"line {first}: {name} as stated", compared + asserted[0] + 1
            return "failed", f"line {first}: {name}: {first_line(error)}", 0
        warned.extend((first, warning) for warning in caught)
        for line in claim_lines:
            compared += 1
            if not matches(claims[line], buffer.getvalue()):
                shown = " ".join(buffer.getvalue().split())[:300]
                return "failed", f"line {line}: the comment says {claims[line]!r} but the output was {shown!r}", 0
    if raises:
        return "failed", f"expected {raises} but the block ran to the end", 0
    counted = [plural(n, word) for n, word in ((compared, "output comment"), (asserted[0], "assert")) if n]
    found = ["checked " + " and ".join(counted)] if counted else []
    if warns:
        issued = [(line, w) for line, w in warned if is_a(w.category, warns)]
        if not issued:
            seen = sorted({w.category.__name__ for _, w in warned})
            return "failed", "expected {} but the block issued {}".format(warns, ", ".join(seen) or "no warning"), 0
        found.insert(0, f"line {issued[0][0]}: {issued[0][1].category.__name__} as stated")
    if not found:
        return "ran", "nothing checked", 0
    return "ran", "; ".join(found), compared + asserted[0] + (1 if warns else 0)


def torch_bindings(tree):
    """The names the block binds to torch modules and objects (`import torch.nn as nn` -> torch.nn), and the dotted
    names its imports use."""
    bound, imported = {}, []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "torch":
                    imported.append(alias.name)
                    bound[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else "torch"
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "torch" and not node.level:
            imported.append(node.module)
            for alias in node.names:
                if alias.name != "*":
                    imported.append(node.module + "." + alias.name)
                    bound[alias.asname or alias.name] = node.module + "." + alias.name
    return bound, imported


def dotted(node, bound):
    """The torch name an expression such as `nn.functional.relu` stands for, or None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.insert(0, node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id in bound:
        return ".".join([bound[node.id], *parts])
    return None


def torch_names(tree):
    """Every dotted torch name the block uses: imports, and attribute chains on names bound to torch modules."""
    bound, used = torch_bindings(tree)
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            child.parent = node
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and not isinstance(getattr(node, "parent", None), ast.Attribute):
            name = dotted(node, bound)
            if name:
                used.append(name)
    return sorted(set(used))


def keyword_calls(tree):
    """[torch name, [keyword, ...]] for each call of a torch name with keyword arguments (not `**kwargs`)."""
    bound, _ = torch_bindings(tree)
    calls = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = dotted(node.func, bound) if isinstance(node.func, (ast.Attribute, ast.Name)) else None
            keywords = [keyword.arg for keyword in node.keywords if keyword.arg]
            if name and keywords:
                calls.append([name, keywords])
    return calls


def resolve(name):
    """Whether a dotted torch name exists: import the longest module prefix, then follow attributes. A module that
    exists but cannot be imported here (it needs another package) counts when its source defines the next name."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        module = ".".join(parts[:cut])
        try:
            target = importlib.import_module(module)
        except ImportError:
            spec = find_spec(module)
            if spec is None or not spec.origin or not spec.origin.endswith(".py"):
                continue
            if cut == len(parts):
                return True
            with open(spec.origin) as file:
                return re.search(r"\b" + re.escape(parts[cut]) + r"\b", file.read()) is not None
        for attribute in parts[cut:]:
            if not hasattr(target, attribute):
                return False
            target = getattr(target, attribute)
        return True
    return False


def find_spec(module):
    """The import spec of a module, or None when it does not exist (or its parent cannot be imported)."""
    try:
        return importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None


def check_names(code):
    """Compile the block with this Python and resolve every torch name it uses; return (outcome, detail, calls with
    keyword arguments, for the caller to hold to the release's signatures)."""
    tree = ast.parse(code)
    compile(tree, "block.py", "exec")
    names = torch_names(tree)
    missing = [name for name in names if not resolve(name)]
    if missing:
        return "failed", "not in this torch: " + ", ".join(missing), []
    return "names-checked", plural(len(names), "torch name") + " found", keyword_calls(tree)


def main():
    """Read the request on stdin, print the outcome as JSON."""
    request = json.load(sys.stdin)
    mode, version, code = request["mode"], request["version"], request["code"]
    calls, checks = [], 0
    try:
        if mode == "run":
            outcome, detail, checks = run(code, version, request.get("raises", ""), request.get("warns", ""), request.get("setup", ""))
        else:
            outcome, detail, calls = check_names(code)
    except SyntaxError as error:
        outcome, detail = "failed", f"line {error.lineno}: SyntaxError: {error.msg}"
    except Exception:
        outcome, detail = "failed", traceback.format_exc().strip().splitlines()[-1]
    sys.stdout.flush()
    torch = sys.modules.get("torch")  # the torch the block really used, for the caller to compare with the environment's
    ran_on = str(getattr(torch, "__version__", "")).split("+")[0]
    report = {"outcome": outcome, "detail": detail, "checks": checks, "calls": calls, "torch": ran_on}
    print("\n" + json.dumps(report), flush=True)


if __name__ == "__main__":
    main()
    os._exit(0)  # the report is out: skip interpreter shutdown, where torch 1.6 and 1.7 can hang after a backward()
