"""Run or statically check one code block inside a release's throw-away virtualenv (Python 3.7 and later).

`python example_worker.py run|names VERSION < block.py` prints one JSON object: the outcome and a
detail. The file imports nothing from the project: it runs under the Python of the release it checks.
`run` executes the block statement by statement and compares each output comment, doctest-style;
`names` checks that every `torch` name the block uses exists in the installed torch.
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


def run(code, version, raises):
    """Execute the block as this process's __main__ module, in a folder of its own; return (outcome, detail)."""
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
        return execute(code, version, raises, source, block.__dict__)
    finally:
        sys.modules["__main__"] = saved_main
        os.chdir(saved_folder)


def execute(code, version, raises, source, namespace):
    """Run the block statement by statement in `namespace`, comparing each output comment; return (outcome, detail)."""
    tree = ast.parse(code, source)
    claims = output_claims(code, version)
    checked = 0
    lines = statement_lines(tree.body, len(code.splitlines()))
    for statement, (first, last) in zip(tree.body, lines):  # noqa: B905 (runs on Python 3.7)
        # only an expression (a bare value or a print call) has output that a comment can claim; a comment on an assignment is prose
        claim_lines = [line for line in claims if first <= line <= last] if isinstance(statement, ast.Expr) else []
        buffer = io.StringIO()
        try:
            with contextlib.redirect_stdout(buffer), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if isinstance(statement, ast.Expr):
                    value = eval(compile(ast.Expression(statement.value), source, "eval"), namespace)
                    if value is not None:
                        print(repr(value))
                else:
                    exec(compile(ast.Module([statement], type_ignores=[]), source, "exec"), namespace)
        except Exception as error:  # the block's own exception is the result being checked
            name = type(error).__name__
            if raises and raises in [cls.__name__ for cls in type(error).__mro__]:
                return "raised", f"line {first}: {name} as stated"
            return "failed", "line {}: {}: {}".format(first, name, str(error).strip().splitlines()[0][:300] if str(error).strip() else "")
        for line in claim_lines:
            checked += 1
            if not matches(claims[line], buffer.getvalue()):
                shown = " ".join(buffer.getvalue().split())[:300]
                return "failed", f"line {line}: the comment says {claims[line]!r} but the output was {shown!r}"
    if raises:
        return "failed", f"expected {raises} but the block ran to the end"
    if not checked:
        return "ran", "no output comment to compare"
    return "ran", f"{checked} output comment{'' if checked == 1 else 's'} checked"


def torch_names(tree):
    """Every dotted torch name the block uses: imports, and attribute chains on names bound to torch modules."""
    bound, used = {}, []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "torch":
                    used.append(alias.name)
                    bound[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else "torch"
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "torch" and not node.level:
            used.append(node.module)
            for alias in node.names:
                if alias.name != "*":
                    used.append(node.module + "." + alias.name)
                    bound[alias.asname or alias.name] = node.module + "." + alias.name
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and not isinstance(getattr(node, "parent", None), ast.Attribute):
            parts, current = [], node
            while isinstance(current, ast.Attribute):
                parts.insert(0, current.attr)
                current = current.value
            if isinstance(current, ast.Name) and current.id in bound:
                used.append(".".join([bound[current.id], *parts]))
        for child in ast.iter_child_nodes(node):
            child.parent = node
    return sorted(set(used))


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
    """Resolve every torch name of the block; return (outcome, detail)."""
    names = torch_names(ast.parse(code))
    missing = [name for name in names if not resolve(name)]
    if missing:
        return "failed", "not in this torch: " + ", ".join(missing)
    return "names-checked", "{} torch name{} found".format(len(names), "" if len(names) == 1 else "s")


def main():
    """Read the block on stdin, print the outcome as JSON."""
    mode, version = sys.argv[1], sys.argv[2]
    raises = sys.argv[3] if len(sys.argv) > 3 else ""
    code = sys.stdin.read()
    try:
        outcome, detail = run(code, version, raises) if mode == "run" else check_names(code)
    except SyntaxError as error:
        outcome, detail = "failed", f"line {error.lineno}: SyntaxError: {error.msg}"
    except Exception:
        outcome, detail = "failed", traceback.format_exc().strip().splitlines()[-1]
    sys.stdout.flush()
    print("\n" + json.dumps({"outcome": outcome, "detail": detail}))


if __name__ == "__main__":
    main()
