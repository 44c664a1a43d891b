"""The official install commands: read from the source of PyTorch's previous-versions page into data/builds/install.yaml.

The page (`_get_started/previous-versions.md` in pytorch/pytorch.github.io, or a copy synced from it) gives, for each
X.Y.Z, code blocks per tool (`#### Conda`, `#### Wheel`) and system (`##### OSX`, `##### Linux and Windows`); in a
block, a comment names the build (`# CUDA 12.4`, `# ROCM 6.1 (Linux only)`, `# CPU only`) of the commands below it.
Commands are kept exactly as written, spaces included.

    python -m tools.builds.install --page PAGE.md --read-from "repository, path and commit it was read from" [...]

rewrites data/builds/install.yaml with every section from FIRST_VERSION on, newest first. With several copies of the
page (the official source and a later copy synced from it), the first one given wins where both have a release, and
each release on which they differ is printed.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import textwrap
from pathlib import Path

from packaging.version import Version

from macros.data.builds_catalog import load_builds
from macros.data.yamlfile import DataErrors

FIRST_VERSION = Version("1.0.0")  # the page's older sections say how to download wheels, with no commands to copy
PAGE = "https://pytorch.org/get-started/previous-versions/"
DATA_DIR = Path(__file__).resolve().parents[2] / "data"
_SECTION = re.compile(r"^### v(\d+\.\d+\.\d+)\b")
_COMMAND = re.compile(r"^(pip3?|conda) install ")
_FRAGMENT = re.compile(r"--(extra-)?index-url$")  # a copy's 1.13 sections have a cut-off line above the ROCm command
_TOOLS = {"conda": "conda", "wheel": "pip"}
_SYSTEMS = {"osx": ["macos"], "linux and windows": ["linux", "windows"]}
_BUILD = re.compile(r"^#\s*(?P<name>CUDA [\d.]+|ROCM [\d.]+|CPU only)\s*(\((?P<only>Linux|Windows)( only)?\))?\s*$", re.IGNORECASE)


class PageError(ValueError):
    """A line of the page that the reader does not understand, with its line number."""


def read_commands(page: str) -> dict[str, dict[str, list[dict]]]:
    """Every section from FIRST_VERSION on: X.Y.Z -> tool -> [{build, systems, command}], the Linux and Windows
    builds first, then macOS's, each in the page's order.

    In a code block, a comment that names a build applies to the commands right below it (1.8.0's ROCm build takes
    three); other comments are notes, and lines that are not commands ("Download and install wheel from …", "Not
    supported in LTS.") are left out. A Linux and Windows command with no build above it is an error."""
    found: dict[str, dict[str, list[dict]]] = {}
    version = tool = systems = build = None
    in_block, macos_last = False, {}
    for number, line in enumerate(page.splitlines(), start=1):
        text = line.strip()
        if text.startswith("```"):
            in_block, build = not in_block, None
            continue
        if in_block:
            if version is None or _FRAGMENT.search(text):
                continue
            if text.startswith("#"):
                build = _BUILD.match(text) or build  # a note below a build's comment keeps that build
                continue
            if not _COMMAND.match(text):
                build = None  # a blank line or a sentence ends what a build's comment applies to
                continue
            if tool is None or systems is None:
                raise PageError(f"line {number}: a command outside a tool's and a system's section")
            if build is None and systems != ["macos"]:
                raise PageError(f"line {number}: a Linux and Windows command with no build named above it")
            entry = {"build": _build_name(build), "systems": _systems(build, systems), "command": line.rstrip()}
            target = macos_last.setdefault((version, tool), []) if systems == ["macos"] else found[version].setdefault(tool, [])
            target.append(entry)
            continue
        if match := _SECTION.match(text):
            version = match[1] if Version(match[1]) >= FIRST_VERSION else None
            tool = systems = None
            if version:
                found[version] = {}
        elif text.startswith("#### "):
            tool = _TOOLS.get(text[5:].strip().lower())
        elif text.startswith("##### "):
            systems = _SYSTEMS.get(" ".join(text[6:].split()).lower())
    for (version, tool), entries in macos_last.items():
        found[version].setdefault(tool, []).extend(entries)
    return {version: {tool: tools[tool] for tool in ("pip", "conda") if tool in tools} for version, tools in found.items()}


def _build_name(build: re.Match | None) -> str:
    if build is None:  # macOS has one build
        return "default"
    name = build["name"]
    return "CPU only" if name.lower() == "cpu only" else re.sub(r"^ROCM", "ROCm", name, flags=re.IGNORECASE)


def _systems(build: re.Match | None, systems: list[str]) -> list[str]:
    return [build["only"].lower()] if build is not None and build["only"] else systems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--page", type=Path, action="append", required=True, help="the page's Markdown source (repeatable)")
    parser.add_argument("--read-from", action="append", required=True, help="where that --page was read: repository, path, commit")
    arguments = parser.parse_args()
    if len(arguments.page) != len(arguments.read_from):
        parser.error("give one --read-from for each --page")
    sources = []
    for page, read_from in zip(arguments.page, arguments.read_from, strict=True):
        try:
            sources.append((read_from, read_commands(page.read_text(encoding="utf-8"))))
        except (OSError, PageError) as error:
            sys.exit(f"{page}: {error}")
    commands, taken, differences = merged(sources)
    for version, index in differences:
        print(f"{version}: the copy in {arguments.page[index]} differs from an earlier --page, whose commands are kept")
    destination = DATA_DIR / "builds" / "install.yaml"
    destination.write_text(install_yaml(commands, taken), encoding="utf-8")
    try:
        load_builds(DATA_DIR)  # the file written must pass its schema
    except DataErrors as errors:
        sys.exit(str(errors))
    print(f"{destination}: {len(commands)} releases, {sum(len(e) for t in commands.values() for e in t.values())} commands")


def merged(sources: list[tuple[str, dict]]) -> tuple[dict, dict[str, list[str]], list[tuple[str, int]]]:
    """The commands of several copies of the page (each with where it was read), the first given winning for a release
    that several have; which releases were taken from which copy; and each release on which a later copy differs, with
    that copy's position."""
    commands: dict[str, dict] = {}
    taken: dict[str, list[str]] = {read_from: [] for read_from, _ in sources}
    differences = []
    for index, (read_from, found) in enumerate(sources):
        for version, tools in found.items():
            if version not in commands:
                commands[version] = tools
                taken[read_from].append(version)
            elif commands[version] != tools:
                differences.append((version, index))
    return commands, taken, differences


def install_yaml(commands: dict[str, dict[str, list[dict]]], taken: dict[str, list[str]]) -> str:
    """data/builds/install.yaml's text: a header saying where each release's section was read, then each release,
    newest first."""
    read = "; ".join(f"{_span(versions)} from {read_from}" for read_from, versions in taken.items() if versions)
    header = (
        f"The install commands of PyTorch's previous-versions page, exactly as it gives them, per release and build. Read "
        f"from the page's source by `python -m tools.builds.install`: {read}. Sections before {FIRST_VERSION} use other "
        f"layouts and are not read. Checked against data/schema/install.schema.json."
    )
    lines = [*textwrap.wrap(header, width=118, initial_indent="# ", subsequent_indent="# "), f"source: {PAGE}", "versions:"]
    for version in sorted(commands, key=Version, reverse=True):
        lines.append(f'  "{version}":')
        for tool, entries in commands[version].items():
            lines.append(f"    {tool}:")
            for entry in entries:
                systems = ", ".join(entry["systems"])
                lines.append(f"      - {{build: {entry['build']}, systems: [{systems}], command: {json.dumps(entry['command'])}}}")
    return "\n".join(lines) + "\n"


def _span(versions: list[str]) -> str:
    ordered = sorted(versions, key=Version)
    return ordered[0] if len(ordered) == 1 else f"{ordered[0]} to {ordered[-1]}"


if __name__ == "__main__":
    main()
