#!/usr/bin/env python3
"""torch_needs.py: which PyTorch releases have every torch name and keyword argument that some Python code uses.

    python torch_needs.py [--index PATH_OR_URL] [--json] [--min X.Y] PATHS...

Reads .py files and folders (never imports or runs them) and answers from the PyTorch Release Atlas's measured API
index: the oldest release that has every name and keyword argument the code uses, the newest where one of them was
removed, the uses that set each bound (file and line), and the uses it could not check. Exit status: 0, or 1 when the
release given by --min lacks something the code uses, 2 for a usage error or an unreadable file or index.

One file, Python 3.8+ standard library only. The checker page of the site answers with the same rules
(docs/assets/checker.js); both pass the same cases (tests/fixtures/checker_cases.json).

What it follows: `import torch`, `import torch.nn as nn`, `from torch.nn import functional as F`, `from torch.x import y`,
`F = torch.nn.functional`, attribute chains from those names (a class's members included) and the keyword arguments of
calls to them. The name `torch` counts as the package even where a snippet does not import it. What it cannot follow is
listed, never guessed: `from torch import *`, `getattr(torch, ...)`, attributes of what a call returns, names the index
does not hold. Methods called on variables (`x.sum()`) are not checked: values are not followed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import urllib.parse
import urllib.request

INDEX_URL = "https://pytorch-release-atlas.github.io/pytorch-release-atlas/api/api-index.json"
INDEX_LIMIT = 64 << 20  # bytes: a larger "index" is refused
SKIPPED_FOLDERS = ("__pycache__", "node_modules", "site-packages")
CODING = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")
OPERATORS = (  # the longest first: "**=" before "**" before "*"
    *("**=", "//=", ">>=", "<<=", "..."),
    *("!=", "%=", "&=", "**", "*=", "+=", "-=", "->", "//", "/=", ":=", "<<", "<=", "==", ">=", ">>", "@=", "^=", "|="),
)
OPENING, CLOSING = "([{", ")]}"
DIGITS = "0123456789"
STRING_PREFIX = re.compile(r"[rRbBuUfF]{1,2}")
WHY = {
    "star-import": "from {path} import *: the names it brings in are not followed",
    "dynamic": "getattr on {path}: a name chosen at run time",
    "unknown-name": "{path}: the index has no such name (private, misspelt, or newer than the index)",
    "result-attribute": ".{name} on what {path}(...) returns: its type is not followed",
    "any-keyword": "{path}({name}=): releases before the parameter took **kwargs, which may have accepted it (counted as not)",
}


class UnusableIndex(ValueError):
    """An index that cannot be read or is not the atlas's API index."""


# Tokens: (kind, text, line), kind one of "name", "op", "newline" (the end of a logical line); strings, numbers
# and comments are skipped. One pass, no recursion: any input ends in time linear in its length.
def tokens(text: str) -> list[tuple[str, str, int]]:
    """The tokens of Python source that the rules read."""
    found: list[tuple[str, str, int]] = []
    position, line, depth, size = 0, 1, 0, len(text)
    while position < size:
        char = text[position]
        if char == "\n":
            if depth == 0:
                found.append(("newline", "", line))
            line += 1
            position += 1
        elif char in " \t\f\r":
            position += 1
        elif char == "#":
            end = text.find("\n", position)
            position = size if end < 0 else end
        elif char == "\\":
            position += 1
        elif char in "'\"" or (STRING_PREFIX.match(text, position, position + 2) and _quote_after_prefix(text, position)):
            position, line = _skip_string(text, position, line)
        elif char == "_" or char.isalpha():
            end = position + 1
            while end < size and (text[end] == "_" or text[end].isalnum()):
                end += 1
            found.append(("name", text[position:end], line))
            position = end
        elif char in DIGITS or (char == "." and position + 1 < size and text[position + 1] in DIGITS):
            end = position + 1
            while end < size and (text[end] in "._" or text[end].isalnum() or (text[end] in "+-" and text[end - 1] in "eE")):
                end += 1
            position = end
        else:
            operator = next((op for op in OPERATORS if text.startswith(op, position)), char)
            if operator in OPENING:
                depth += 1
            elif operator in CLOSING:
                depth = max(0, depth - 1)
            elif operator == ";" and depth == 0:
                found.append(("newline", "", line))
                operator = ""
            if operator:
                found.append(("op", operator, line))
            position += len(operator) or 1
    found.append(("newline", "", line))
    return found


def _quote_after_prefix(text: str, position: int) -> bool:
    """Whether a string prefix (r, b, f, rb, ...) at `position` starts a string, not a name (`rb"..."`, not `rb`)."""
    end = position
    while end < len(text) and end - position < 2 and text[end] in "rRbBuUfF":
        end += 1
    return end < len(text) and text[end] in "'\""


def _skip_string(text: str, position: int, line: int) -> tuple[int, int]:
    """The position after the string literal at `position` and the line it ends on (an unterminated one ends at its
    line's end, or for a triple-quoted one at the text's end)."""
    while text[position] not in "'\"":
        position += 1
    quote = text[position] * 3 if text.startswith(text[position] * 3, position) else text[position]
    position += len(quote)
    size = len(text)
    while position < size:
        char = text[position]
        if char == "\\":
            if position + 1 < size and text[position + 1] == "\n":
                line += 1
            position += 2
        elif text.startswith(quote, position):
            return position + len(quote), line
        elif char == "\n":
            if len(quote) == 1:
                return position, line
            line += 1
            position += 1
        else:
            position += 1
    return size, line


class Index:
    """The atlas's API index: releases and names with the intervals they exist in."""

    def __init__(self, document: object, where: str) -> None:
        if not isinstance(document, dict) or document.get("format") != 1:
            raise UnusableIndex(f'{where}: not the atlas\'s API index (no "format": 1)')
        releases, names = document.get("releases"), document.get("names")
        if not isinstance(releases, list) or not releases or not all(isinstance(r, str) for r in releases):
            raise UnusableIndex(f'{where}: "releases" must be a list of release names')
        if not isinstance(names, dict) or not all(isinstance(leaves, dict) for leaves in names.values()):
            raise UnusableIndex(f'{where}: "names" must map each module or class to its names')
        self.releases: list[str] = releases
        self.names: dict[str, dict] = names
        self.holders: dict[str, str] = {}  # a class's defining path -> the public path its members are recorded under
        for parent, leaves in names.items():
            for leaf, entry in leaves.items():
                alias = entry.get("a") if isinstance(entry, dict) else None
                if isinstance(alias, str):
                    self.holders.setdefault(alias, f"{parent}.{leaf}" if parent else leaf)

    def entry(self, path: str) -> dict | None:
        """A name's entry, or None."""
        parent, _, leaf = path.rpartition(".")
        leaves = self.names.get(parent)
        entry = leaves.get(leaf) if isinstance(leaves, dict) else None
        return entry if isinstance(entry, dict) and isinstance(entry.get("v"), list) else None

    def member(self, path: str, entry: dict, name: str) -> str | None:
        """The path of `name` under `path`: there, else under the public name the members of the same object are
        recorded under (torch.nn.modules.linear.Linear's members live under torch.nn.Linear)."""
        for holder in (path, entry.get("a"), self.holders.get(path)):
            if isinstance(holder, str) and self.entry(f"{holder}.{name}") is not None:
                return f"{holder}.{name}"
        return None

    def present(self, spans: list) -> list[bool]:
        """Per release, whether intervals [since, removed, since again, ...] hold it."""
        flags, inside, cut = [], False, 0
        spans = [s for s in spans if isinstance(s, int)]
        for number in range(len(self.releases)):
            while cut < len(spans) and spans[cut] <= number:
                inside, cut = not inside, cut + 1
            flags.append(inside)
        return flags


def load_index(where: str) -> Index:
    """The index at a path or an http(s) URL."""
    try:
        if re.match(r"^https?://", where):
            with urllib.request.urlopen(urllib.request.Request(where, headers={"Accept": "application/json"}), timeout=60) as response:
                data = response.read(INDEX_LIMIT + 1)
        elif "://" in where:
            raise UnusableIndex(f"{where}: an index is a file or an http(s) URL")
        else:
            with open(where, "rb") as file:
                data = file.read(INDEX_LIMIT + 1)
    except OSError as error:
        raise UnusableIndex(f"{where}: cannot read the index ({error.strerror or error})") from None
    if len(data) > INDEX_LIMIT:
        raise UnusableIndex(f"{where}: larger than {INDEX_LIMIT >> 20} MB, not the atlas's API index")
    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise UnusableIndex(f"{where}: not JSON ({error})") from None
    return Index(document, where)


class Reader:
    """One pass over the tokens of one text: the uses of torch names and keyword arguments, and what it could not check."""

    def __init__(self, text: str, index: Index) -> None:
        self.toks = tokens(text)
        self.index = index
        self.bound = {"torch": "torch"}  # local name -> the torch path it holds
        self.uses: list[dict] = []  # {"name", "keyword", "line"}
        self.unresolved: list[dict] = []  # {"line", "why", "path", "name"}
        self.calls: list[str] = []  # per open bracket: the path a "(" calls, else ""

    def text_at(self, at: int) -> str:
        return self.toks[at][1] if 0 <= at < len(self.toks) else ""

    def name_at(self, at: int) -> str:
        """The name token at `at`, or ""."""
        return self.toks[at][1] if 0 <= at < len(self.toks) and self.toks[at][0] == "name" else ""

    def statement_starts(self, at: int) -> bool:
        return at == 0 or self.toks[at - 1][0] == "newline" or self.toks[at - 1][1] == ":"

    def read(self) -> Reader:
        """Read every token once."""
        at = 0
        while at < len(self.toks):
            at = self.step(at)
        return self

    def step(self, at: int) -> int:
        """Read what starts at token `at`; the position after it."""
        kind, value, line = self.toks[at]
        if kind == "op":
            if value in OPENING:
                self.calls.append("")
            elif value in CLOSING and self.calls:
                called = self.calls.pop()
                after = self.name_at(at + 2)
                if called and self.text_at(at + 1) == "." and after:
                    self.unresolved.append({"line": line, "why": "result-attribute", "path": called, "name": after})
            return at + 1
        if kind != "name" or self.text_at(at - 1) == ".":
            return at + 1
        if value == "import" and self.statement_starts(at):
            return self.import_names(at + 1)
        if value == "from" and self.statement_starts(at):
            return self.from_import(at + 1)
        if self.text_at(at + 1) == "=" and self.text_at(at - 1) in ("(", ",") and self.calls and self.calls[-1]:
            self.uses.append({"name": self.calls[-1], "keyword": value, "line": line})
            return at + 1
        if value == "getattr" and self.text_at(at + 1) == "(" and self.name_at(at + 2) in self.bound and self.text_at(at + 3) == ",":
            self.unresolved.append({"line": line, "why": "dynamic", "path": self.bound[self.name_at(at + 2)], "name": ""})
        if self.text_at(at + 1) == "=" and self.statement_starts(at):
            return self.assignment(at)
        if value in self.bound:
            return self.chain_use(at)[0]
        return at + 1

    def chain(self, at: int) -> tuple[str, int]:
        """The torch path of the attribute chain from the bound name at `at`, and the position after the chain. Each
        attribute is looked up in the index (a class's members too); an unknown one is noted and the path is "" then.
        A module's dunder (`torch.__version__`) ends the chain quietly."""
        path = self.bound[self.toks[at][1]]
        entry, line = self.index.entry(path), self.toks[at][2]
        at += 1
        while self.text_at(at) == "." and self.name_at(at + 1):
            name = self.name_at(at + 1)
            if entry is None or (name.startswith("__") and name.endswith("__")):
                break
            found = self.index.member(path, entry, name)
            if found is None:
                self.unresolved.append({"line": line, "why": "unknown-name", "path": f"{path}.{name}", "name": name})
                at += 2
                while self.text_at(at) == "." and self.name_at(at + 1):
                    at += 2
                return "", at
            path, entry = found, self.index.entry(found)
            at += 2
        if entry is None:
            self.unresolved.append({"line": line, "why": "unknown-name", "path": path, "name": path.rpartition(".")[2]})
            return "", at
        return path, at

    def chain_use(self, at: int) -> tuple[int, str]:
        """A use of a bound name's chain: the position after it and its path ("" if unknown). A call to it opens a
        bracket whose keyword arguments are the callable's."""
        path, end = self.chain(at)
        if path:
            self.uses.append({"name": path, "keyword": None, "line": self.toks[at][2]})
        if self.text_at(end) == "(":
            self.calls.append(path)
            return end + 1, path
        return end, path

    def assignment(self, at: int) -> int:
        """`name = torch.chain` binds `name` to the chain's path; `name = anything else` unbinds it."""
        target, value_at = self.toks[at][1], at + 2
        if self.name_at(value_at) in self.bound:
            end, path = self.chain_use(value_at)
            if path and self.toks[end][0] == "newline":
                self.bound[target] = path
            else:
                self.bound.pop(target, None)
            return end
        self.bound.pop(target, None)
        return at + 1

    def dotted(self, at: int) -> tuple[str, int]:
        """The dotted name at `at` (`torch.nn.functional`) and the position after it."""
        parts = []
        while self.name_at(at):
            parts.append(self.name_at(at))
            if self.text_at(at + 1) != "." or not self.name_at(at + 2):
                return ".".join(parts), at + 1
            at += 2
        return ".".join(parts), at

    def use_path(self, path: str, line: int) -> str:
        """A use of a path named in an import: the path if the index has it, else noted as unknown (returns "")."""
        if self.index.entry(path) is None:
            self.unresolved.append({"line": line, "why": "unknown-name", "path": path, "name": path.rpartition(".")[2]})
            return ""
        self.uses.append({"name": path, "keyword": None, "line": line})
        return path

    def import_names(self, at: int) -> int:
        """`import torch.nn as nn, torch.fft`: binds `nn` to torch.nn, `torch` to torch."""
        while self.toks[at][0] != "newline":
            line = self.toks[at][2]
            path, at = self.dotted(at)
            alias = self.name_at(at + 1) if self.text_at(at) == "as" else ""
            if alias:
                at += 2
            if path == "torch" or path.startswith("torch."):
                found = self.use_path(path, line)
                if alias and found:
                    self.bound[alias] = found
                elif not alias:
                    self.bound["torch"] = "torch"
            elif alias or path:
                self.bound.pop(alias or path.partition(".")[0], None)
            if self.text_at(at) != ",":
                break
            at += 1
        return at

    def from_import(self, at: int) -> int:
        """`from torch.nn import functional as F, init`: binds F and init; `from torch import *` is noted."""
        module, at = self.dotted(at)
        if self.text_at(at) != "import" or not (module == "torch" or module.startswith("torch.")):
            return at
        at += 1
        parenthesised = self.text_at(at) == "("
        at += parenthesised
        while self.toks[at][0] != "newline":
            line = self.toks[at][2]
            if self.text_at(at) == "*":
                self.unresolved.append({"line": line, "why": "star-import", "path": module, "name": "*"})
                return at + 1
            name = self.name_at(at)
            if not name:
                break
            alias = self.name_at(at + 2) if self.text_at(at + 1) == "as" else ""
            at += 3 if alias else 1
            found = self.use_path(f"{module}.{name}", line)
            if found:
                self.bound[alias or name] = found
            else:
                self.bound.pop(alias or name, None)
            if self.text_at(at) != ",":
                break
            at += 1
        return at + 1 if parenthesised and self.text_at(at) == ")" else at


def present_in(index: Index, use: dict) -> tuple[list[bool], bool]:
    """Per release, whether a use is there: its name, and for a keyword argument its parameter while the callable is
    there (a parameter with no history is there as long as its callable); and whether, in a release without the
    parameter, the callable took `**kwargs`, which may or may not have accepted the keyword (so it is not counted)."""
    entry = index.entry(use["name"]) or {"v": []}
    there = index.present(entry["v"])
    parameters = entry.get("p") if isinstance(entry.get("p"), dict) else {}
    history = parameters.get(use["keyword"]) if use["keyword"] else None
    if not isinstance(history, dict) or not isinstance(history.get("v"), list):
        return there, False
    parameter = index.present(history["v"])
    any_keyword = index.present(entry["w"]) if isinstance(entry.get("w"), list) else [False] * len(there)
    maybe = any(flag and any_keyword[number] and not parameter[number] for number, flag in enumerate(there))
    return [flag and parameter[number] for number, flag in enumerate(there)], maybe


def ranges(index: Index, flags: list[bool]) -> list[list[str]]:
    """The runs of releases where `flags` hold, as [first, last] release names."""
    found: list[list[str]] = []
    for number, flag in enumerate(flags):
        if flag and (number == 0 or not flags[number - 1]):
            found.append([index.releases[number], index.releases[number]])
        elif flag:
            found[-1][1] = index.releases[number]
    return found


def answer(index: Index, files: list[tuple[str, str]]) -> dict:
    """The answer for some texts, as (file name, text) pairs: the releases that have every use, its bounds and the uses
    that set them, every distinct use with where it is, and what could not be checked."""
    grouped: dict[tuple, dict] = {}
    unresolved: list[dict] = []
    for file, text in files:
        reader = Reader(text, index).read()
        for use in reader.uses:
            key = (use["name"], use["keyword"] or "")
            record = grouped.get(key)
            if record is None:
                flags, maybe = present_in(index, use)
                record = grouped[key] = {"name": use["name"], "keyword": use["keyword"], "at": [], "flags": flags}
                if maybe:
                    unresolved.append(
                        {"line": use["line"], "why": "any-keyword", "path": use["name"], "name": use["keyword"], "file": file}
                    )
            record["at"].append({"file": file, "line": use["line"]})
        unresolved += [dict(item, file=file) for item in reader.unresolved]
    last = len(index.releases) - 1
    every = [all(record["flags"][number] for record in grouped.values()) for number in range(last + 1)]
    first = every.index(True) if True in every else None
    newest = max(number for number, flag in enumerate(every) if flag) if first is not None else None
    uses = []
    for key in sorted(grouped):
        record = grouped.pop(key)
        flags = record.pop("flags")
        record["releases"] = ranges(index, flags)
        record["sets_oldest"] = first is not None and first > 0 and not flags[first - 1]
        record["sets_newest"] = newest is not None and newest < last and not flags[newest + 1]
        uses.append(record)
    return {
        "index": {"first": index.releases[0], "last": index.releases[-1]},
        "oldest": index.releases[first] if first is not None else None,
        "newest": index.releases[newest] if newest is not None and newest < last else None,
        "releases": ranges(index, every),
        "uses": uses,
        "unresolved": sorted(unresolved, key=lambda u: (u["file"], u["line"], u["why"], u["path"], u["name"])),
    }


def read_code(path: str) -> str:
    """A Python file's text, in the encoding its coding line declares (UTF-8 by default)."""
    with open(path, "rb") as file:
        data = file.read()
    encoding = "utf-8-sig"  # UTF-8, a byte order mark allowed
    for line in data.splitlines()[:2]:
        declared = CODING.match(line)
        if declared:
            encoding = declared.group(1).decode("ascii")
            break
    try:
        return data.decode(encoding)
    except LookupError:
        raise ValueError(f"{path}: unknown encoding {encoding!r} in its coding line") from None
    except UnicodeDecodeError as error:
        raise ValueError(
            f"{path}: not {encoding.replace('-sig', '').upper()} text (byte {data[error.start]:#04x} at offset {error.start})"
        ) from None


def python_files(paths: list[str]) -> list[str]:
    """The .py files named or under the folders named, in a stable order (hidden and cache folders left out)."""
    found = []
    for path in paths:
        if os.path.isdir(path):
            for folder, subfolders, names in os.walk(path):
                subfolders[:] = sorted(d for d in subfolders if not d.startswith(".") and d not in SKIPPED_FOLDERS)
                found += [os.path.join(folder, name) for name in sorted(names) if name.endswith((".py", ".pyi"))]
        else:
            found.append(path)
    return found


def _where(use: dict) -> str:
    """Where a use is, at most three places."""
    return ", ".join(f"{at['file']}:{at['line']}" for at in use["at"][:3]) + (" ..." if len(use["at"]) > 3 else "")


def _label(use: dict) -> str:
    """A use as people write it: `torch.load` or `torch.load(weights_only=)`."""
    return f"{use['name']}({use['keyword']}=)" if use["keyword"] else use["name"]


def _spans(releases: list[list[str]]) -> str:
    """Runs of releases in words: "1.0 to 1.12, 2.1"."""
    return ", ".join(first if first == last else f"{first} to {last}" for first, last in releases) or "none"


def described(result: dict) -> str:
    """The answer as text for people."""
    count = sum(len(use["at"]) for use in result["uses"])
    first, last = result["index"]["first"], result["index"]["last"]
    lines = [f"{count} uses of {len(result['uses'])} torch names and keyword arguments (index: PyTorch {first} to {last})"]
    if result["oldest"] is None:
        lines.append("No release has all of them:")
        partial = [use for use in result["uses"] if use["releases"] != [[first, last]]]
        lines += [f"  {_label(use)} in {_spans(use['releases'])}  {_where(use)}" for use in partial]
    else:
        up_to = f", up to {result['newest']}" if result["newest"] else ""
        lines.append(f"Needs PyTorch {result['oldest']} or newer{up_to} (releases: {_spans(result['releases'])})")
        lines += [f"  since {result['oldest']}: {_label(use)}  {_where(use)}" for use in result["uses"] if use["sets_oldest"]]
        lines += [f"  gone after {result['newest']}: {_label(use)}  {_where(use)}" for use in result["uses"] if use["sets_newest"]]
    if result["unresolved"]:
        lines.append(f"Not checked ({len(result['unresolved'])}):")
        for item in result["unresolved"]:
            lines.append(f"  {item['file']}:{item['line']}: " + WHY[item["why"]].format(path=item["path"], name=item["name"]))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """The command line; the exit status."""
    about = "Which PyTorch releases have every torch name and keyword argument the code uses."
    parser = argparse.ArgumentParser(prog="torch_needs.py", description=about)
    parser.add_argument("paths", nargs="+", metavar="PATH", help="Python files or folders")
    parser.add_argument("--index", default=INDEX_URL, help="the atlas's API index: a file or an http(s) URL (default: %(default)s)")
    parser.add_argument("--json", action="store_true", help="print the answer as JSON")
    parser.add_argument("--min", metavar="X.Y", help="the oldest release the code must run on: exit 1 if it lacks a use")
    options = parser.parse_args(argv)
    try:
        index = load_index(options.index)
    except UnusableIndex as error:
        print(f"torch_needs.py: {error}", file=sys.stderr)
        return 2
    if options.min is not None and options.min not in index.releases:
        known = f"{index.releases[0]} to {index.releases[-1]}"
        print(f"torch_needs.py: --min {options.min!r} is not a release of the index ({known})", file=sys.stderr)
        return 2
    files, failed = [], False
    for path in python_files(options.paths):
        try:
            files.append((path, read_code(path)))
        except (OSError, ValueError) as error:
            reason = f"{path}: {error.strerror}" if isinstance(error, OSError) and error.strerror else str(error)
            print(f"torch_needs.py: {reason}", file=sys.stderr)
            failed = True
    result = answer(index, files)
    print(json.dumps(result, indent=1, ensure_ascii=False) if options.json else described(result))
    if failed:
        return 2
    if options.min is not None:
        position = index.releases.index
        if not any(position(first) <= position(options.min) <= position(last) for first, last in result["releases"]):
            print(f"torch_needs.py: PyTorch {options.min} lacks something the code uses", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # the reader stopped reading (`| head`): nothing more to say
        sys.exit(0)
    except KeyboardInterrupt:
        sys.exit(130)
