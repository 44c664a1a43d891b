"""Read what a torch release's wheel says of its API without importing it: `python -m tools.api.static [--again]
VERSION` (`make api-static`, which runs one process per release); writes data/api/static/<X.Y>.json.gz.

What the import-time surfaces (`make api`) cannot see is read here from the release's X.Y.0 wheel for Linux x86_64
on PyPI (the one the surface measured: the same Python where PyPI has it), by HTTP byte ranges
(tools/wheelzip.py): the zip's directory, then one member, never the whole wheel.

- `parser`: the signatures of torch's Python argument parsers, the strings such as
  `add(Tensor input, Tensor other, *, Scalar alpha=1, Tensor out=None)` compiled into `torch/lib/libtorch_python.so`
  (read from its `.rodata` section): per name, each overload as [[parameter, keyword-only, default or null], ...].
  They are what callers see (`input`), where the stubs of 1.1-1.6 say `self`. Every parser of the library is there:
  torch's functions, the Tensor methods (whose overloads have no `input`), `torch._C._nn` and the like.
  `parser_unread` counts the places that start a signature without being a whole string: a handful in most
  releases (messages, JIT schemas not named `aten::`), hundreds where the compiler kept only pieces of the literals
  in `.rodata` and writes the rest from code (2.7), whose `parser` then misses those signatures.

The wheel is untrusted data: a malformed zip or library, or a member over its size limit, is reported in one
line that names the wheel and the member, and the release fails. A release that already has a file is skipped
unless `--again` is given; a reading equal to the stored one but for its date leaves the file untouched.
"""

from __future__ import annotations

import argparse
import re
import struct
import sys
import time
import urllib.parse
from datetime import UTC, datetime
from pathlib import Path

from tools.api.extract import PROJECT_DIR, read_surface, release_versions, store, surface_path
from tools.builds.pypi import LISTING_URL, WHEEL, fetch_listing, python_of
from tools.builds.wheels import linux_wheel
from tools.release_env import PYTHON_FOR, log
from tools.wheelzip import RemoteZip

STATIC_DIR = PROJECT_DIR / "data" / "api" / "static"
TOOL = "2"  # bump when what is read, or how, changes
METHOD = (
    "python -m tools.api.static (make api-static): byte ranges of the wheel on PyPI;"
    " the argument-parser signature strings of torch/lib/libtorch_python.so's .rodata"
)
LIBRARY = "torch/lib/libtorch_python.so"
LIBRARY_ELSEWHERE = re.compile(r"^torch/(?:lib/)?libtorch_python[^/]*\.so(?:\.[0-9.]+)?$")
MAX_LIBRARY = 1 << 28  # 256 MiB (2.15's libtorch_python.so is about 35 MB)

# A parser signature as the library holds it: a NUL-terminated string `name(parameters)`, maybe with `|hidden` or
# `|deprecated` after it, and printable ASCII only.
CANDIDATE = re.compile(rb"(?<![\x20-\x7e])([A-Za-z_][A-Za-z0-9_.]*\([\x20-\x7e]*\)(?:\|[a-z_]+)*)\x00")
SIGNATURE = re.compile(r"(?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\((?P<parameters>.*)\)(?P<flags>(?:\|[a-z_]+)*)")
# Where a signature starts: counted to tell whether each is a whole string (see `parser_unread`)
OPENING = re.compile(rb"(?<![A-Za-z0-9_.:])[A-Za-z_][A-Za-z0-9_.]*\((?:Tensor|TensorList|Scalar|int64_t|IntArrayRef|SymInt)[ ?\[]")
PARAMETER_TYPE = re.compile(r"[A-Za-z_][A-Za-z0-9_:<>, ]*(?:\[\d*\])?\??\s*\*?")
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
UNREAD_WARNING = 50  # a library of whole strings leaves fewer than 10 (2.7's leaves 535)
NOT_SIGNATURES = {"operator"}  # `operator()`: the __func__ of a C++ lambda, in error messages


class StaticError(ValueError):
    """What a wheel holds cannot be read as expected: the message names the wheel and the member."""


# --- The argument parsers' signatures -----------------------------------------------------------------------------


def split_top_level(text: str, separator: str = ",") -> list[str]:
    """`text` split at each `separator` outside brackets, braces, parentheses, angle brackets and quotes."""
    pieces, depth, quote, start = [], 0, "", 0
    for position, char in enumerate(text):
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char in "([{<":
            depth += 1
        elif char in ")]}>":
            depth -= 1
        elif char == separator and depth == 0:
            pieces.append(text[start:position])
            start = position + 1
    pieces.append(text[start:])
    return pieces


def parse_signature(text: str) -> tuple[str, list[list]] | None:
    """`add(Tensor input, Tensor other, *, Scalar alpha=1, Tensor out=None)` -> ("add", [["input", False, None],
    ["other", False, None], ["alpha", True, "1"], ["out", True, "None"]]); None for a string that is not one. A default
    is kept as written; a `|hidden` or `|deprecated` mark after the signature is dropped."""
    found = SIGNATURE.fullmatch(text)
    if not found or found["name"] in NOT_SIGNATURES:
        return None
    parameters, keyword_only = [], False
    if found["parameters"].strip():
        pieces = split_top_level(found["parameters"])
        if len(pieces) > 1 and not pieces[-1].strip():
            pieces.pop()  # 1.0's `polygamma(int64_t n, )`: a method's signature with its `self` cut out
        for piece in pieces:
            piece = piece.strip()
            if piece == "*":
                if keyword_only:
                    return None
                keyword_only = True
                continue
            declaration, equals, default = piece.partition("=")
            kind_and_name = declaration.split()
            if len(kind_and_name) < 2 or (equals and not default.strip()):
                return None
            kind, name = " ".join(kind_and_name[:-1]), kind_and_name[-1]
            if not IDENTIFIER.fullmatch(name) or not PARAMETER_TYPE.fullmatch(kind):
                return None
            parameters.append([name, keyword_only, default.strip() if equals else None])
    return found["name"], parameters


def rodata(library: bytes, label: str) -> bytes:
    """The `.rodata` section of a 64-bit little-endian ELF file, where the compiler puts string literals."""
    if library[:4] != b"\x7fELF" or library[4:6] != b"\x02\x01":
        raise StaticError(f"{label}: not a 64-bit little-endian ELF file")
    try:
        section_table, entry_size, count, names_index = struct.unpack_from("<QxxxxxxxxxxHHH", library, 0x28)
        if entry_size < 64 or count == 0 or section_table + count * entry_size > len(library) or names_index >= count:
            raise StaticError(f"{label}: its ELF section table lies outside the file")
        sections = []
        for number in range(count):
            name, _, _, _, offset, size = struct.unpack_from("<IIQQQQ", library, section_table + number * entry_size)
            sections.append((name, offset, size))
        names_offset, names_size = sections[names_index][1:]
        names = library[names_offset : names_offset + names_size]
        for name, offset, size in sections:
            if names[name : names.find(b"\x00", name)] == b".rodata":
                if offset + size > len(library):
                    raise StaticError(f"{label}: its .rodata section runs past the end of the file")
                return library[offset : offset + size]
    except struct.error as error:
        raise StaticError(f"{label}: a malformed ELF header ({error})") from None
    raise StaticError(f"{label}: no .rodata section")


def parser_signatures(strings: bytes) -> tuple[dict[str, list[list]], int]:
    """Every argument-parser signature among the NUL-terminated strings of `strings`, by name: its overloads in the
    order the library holds them, each once. And how many places look like the start of a signature without being
    one whole string: a handful of other strings (a JIT schema, a message), or, in a library whose compiler kept only
    pieces of its string literals there and writes the rest from code (2.7), the signatures that cannot be read."""
    found: dict[str, list[list]] = {}
    whole = set()
    for match in CANDIDATE.finditer(strings):
        parsed = parse_signature(match[1].decode("ascii"))
        if parsed:
            whole.add(match.start(1))
            if parsed[1] not in found.setdefault(parsed[0], []):
                found[parsed[0]].append(parsed[1])
    unread = sum(1 for match in OPENING.finditer(strings) if match.start() not in whole)
    return found, unread


# --- One release ----------------------------------------------------------------------------------------------------


def surface_python(version: str) -> str | None:
    """The Python (X.Y) the release's stored surface was measured with, else the one `make api` would take."""
    path = surface_path(version)
    if path.exists():
        try:
            return ".".join(read_surface(path)["provenance"]["python"].split(".")[:2])
        except (OSError, ValueError, KeyError):
            pass
    return PYTHON_FOR.get(version)


def release_wheel(version: str, listing: dict) -> dict:
    """The file of torch==X.Y.0 for Linux x86_64 that the surface measured: the CPython wheel of the surface's Python,
    else the one `pip install torch` takes (tools/builds/wheels.py)."""
    files = listing["releases"].get(f"{version}.0") or []
    if not files:
        raise LookupError(f"torch {version}.0 has no files on PyPI")
    wanted = surface_python(version)
    for file in files:
        found = WHEEL.match(file["filename"])
        if (
            found
            and "x86_64" in found["platform"]
            and "linux" in found["platform"]
            and not file.get("yanked")
            and python_of(found["python"], found["abi"]) == wanted
        ):
            return file
    return linux_wheel(files)


def library_member(wheel: RemoteZip) -> str:
    """The member that holds torch's Python bindings: torch/lib/libtorch_python.so, or a versioned name of it."""
    if LIBRARY in wheel.members:
        return LIBRARY
    found = sorted(name for name in wheel.members if LIBRARY_ELSEWHERE.match(name))
    if not found:
        raise StaticError(f"{wheel.label}: no {LIBRARY}")
    return found[0]


def read_release(version: str, file: dict, today: str) -> tuple[dict, int]:
    """The document of one release read from its listed wheel, and the bytes downloaded."""
    url = urllib.parse.urljoin(LISTING_URL.format(project="torch"), file["url"])
    wheel = RemoteZip(url, file["filename"])
    library = library_member(wheel)
    label = f"{file['filename']}: {library}"
    parser, unread = parser_signatures(rodata(wheel.read(library, max_size=MAX_LIBRARY), label))
    if not parser:
        raise StaticError(f"{label}: no argument-parser signatures in its .rodata")
    provenance = {
        "release": version,
        "requirement": f"torch=={version}.0",
        "wheel": file["filename"],
        "url": url,
        "sha256": file.get("digests", {}).get("sha256"),
        "members": {"parser": library},
        "method": METHOD,
        "tool": TOOL,
        "date": today,
    }
    document = {"provenance": provenance, "parser": parser, "parser_unread": unread}
    return document, wheel.downloaded


def static_path(version: str, static_dir: Path | None = None) -> Path:
    """Where a release's reading is stored."""
    return (static_dir or STATIC_DIR) / f"{version}.json.gz"


def to_read(versions: list[str], again: bool) -> list[str]:
    """The releases among `versions` (default: every release, oldest first) to read; an unknown one is an error."""
    known = release_versions()
    unknown = [version for version in versions if version not in known]
    if unknown:
        raise SystemExit(f"{', '.join(unknown)}: not on PyPI's stored listing (make pypi) nor in data/releases/")
    return [version for version in versions or known if again or not static_path(version).exists()]


def run(version: str, today: str) -> bool:
    """Read one release and store it; whether it succeeded (a failure is one line on stderr)."""
    started = time.monotonic()
    try:
        listing = fetch_listing("torch")
        file = release_wheel(version, listing)
        document, downloaded = read_release(version, file, today)
    except (ValueError, LookupError, OSError) as error:  # StaticError is a ValueError; ZipError and HTTP errors are OSErrors
        log(f"torch {version}: not read: {error}")
        return False
    path = static_path(version)
    written = store(document, path)
    parser = document["parser"]
    shown = path.relative_to(PROJECT_DIR) if path.is_relative_to(PROJECT_DIR) else path
    if document["parser_unread"] > UNREAD_WARNING:
        log(
            f"torch {version}: {document['parser_unread']} places in {document['provenance']['members']['parser']} start a"
            " signature that is not a whole string (its compiler kept pieces of them): its parser signatures are incomplete"
        )
    log(
        f"torch {version}: {file['filename']}: {len(parser)} parser names, {sum(map(len, parser.values()))} signatures;"
        f" {downloaded} bytes of the wheel read in {time.monotonic() - started:.1f} s; {shown} {'written' if written else 'unchanged'}"
    )
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--again", action="store_true", help="read releases that already have a file")
    parser.add_argument("--list", action="store_true", help="only print the releases to read, one per line (for make)")
    parser.add_argument("versions", nargs="*", help="feature releases such as 1.5 (default with --list: every release)")
    args = parser.parse_args(argv)
    versions = to_read(args.versions, args.again)
    if args.list:
        print("\n".join(versions))
        return 0
    if not args.versions:
        parser.error("name the releases to read (make api-static reads each in a process of its own)")
    skipped = sorted(set(args.versions) - set(versions), key=args.versions.index)
    if skipped:
        log(f"already read (AGAIN=1 reads them again): {', '.join(skipped)}")
    today = datetime.now(UTC).date().isoformat()
    failed = [version for version in versions if not run(version, today)]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
