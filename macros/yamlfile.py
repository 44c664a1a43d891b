"""Read one YAML data file into plain Python data plus a map from field path to line."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

FieldPath = tuple[str | int, ...]

# Limits that keep a hostile or broken file from hanging or crashing the build; real data stays far below them.
MAX_FILE_BYTES = 2_000_000
MAX_DEPTH = 16
MAX_TEXT_CHARS = 50_000
_CONTROL_CHARACTER = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029]")


@dataclass(frozen=True, slots=True)
class DataError:
    """One mistake in one data file, located as precisely as the file allows."""

    file: str
    message: str
    line: int | None = None
    path: FieldPath = ()

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {format_path(self.path)}: {self.message}" if self.path else f"{where}: {self.message}"


class DataErrors(Exception):
    """All the mistakes found in the data, reported together."""

    def __init__(self, errors: list[DataError]) -> None:
        self.errors = sorted(errors, key=lambda e: (e.file, e.line or 0, str(e.path)))
        count = len(self.errors)
        lines = "\n".join(f"  {error}" for error in self.errors)
        super().__init__(f"{count} error{'s' if count != 1 else ''} in the release data:\n{lines}")


def format_path(path: FieldPath) -> str:
    """Render a field path as `features[3].title`."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else f".{part}" if text else str(part)
    return text


class _DataLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """SafeLoader that keeps dates as strings, so an impossible date is a data error, not a crash."""


_DataLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in _DataLoader.yaml_implicit_resolvers.items()
}


@dataclass(slots=True)
class YamlDocument:
    """Parsed content of a data file and the line of every field in it."""

    data: object
    lines: dict[FieldPath, int] = field(default_factory=dict)

    def line_of(self, path: FieldPath) -> int | None:
        """Line of the field at `path`, or of its nearest enclosing field."""
        for end in range(len(path), -1, -1):
            if path[:end] in self.lines:
                return self.lines[path[:end]]
        return None


def read_yaml(path: Path, display_name: str) -> tuple[YamlDocument | None, list[DataError]]:
    """Parse a YAML file; on failure return the errors that explain why."""
    return parse_yaml(path.read_bytes(), display_name)


def parse_yaml(raw: bytes, display_name: str) -> tuple[YamlDocument | None, list[DataError]]:
    """Parse the bytes of the data file `display_name`; on failure return the errors that explain why."""
    if len(raw) > MAX_FILE_BYTES:
        return None, [DataError(display_name, f"the file has {len(raw):,} bytes; data files may have at most {MAX_FILE_BYTES:,}")]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return None, [DataError(display_name, f"not valid UTF-8 (byte 0x{raw[exc.start]:02x}); save the file as UTF-8", line)]
    if not text.strip():
        return None, [DataError(display_name, "the file is empty; expected a YAML mapping of fields")]
    control = _CONTROL_CHARACTER.search(text)
    if control:
        line = text.count("\n", 0, control.start()) + 1
        message = f"the control character U+{ord(control.group()):04X} is not allowed in data files; remove it"
        return None, [DataError(display_name, message, line)]
    try:
        structure_error = _structure_error(text, display_name)
        if structure_error:
            return None, [structure_error]
        loader = _DataLoader(text)
        try:
            node = loader.get_single_node()
            document = YamlDocument(loader.construct_document(node))
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        return None, [_syntax_error(display_name, exc)]
    errors: list[DataError] = []
    _index_lines(node, (), document.lines, errors, display_name)
    return document, errors


def _structure_error(text: str, display_name: str) -> DataError | None:
    """Refuse anchors, aliases and deep nesting by reading the parser's events, before any node is built.

    Aliases can expand a small file into billions of values, and deep nesting crashes the composer;
    the data needs neither. Reading stops at the first offence, so a hostile file is refused at once.
    """
    loader = _DataLoader(text)
    depth = 0
    try:
        while (event := loader.get_event()) is not None:
            line = event.start_mark.line + 1
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                return DataError(
                    display_name, "YAML anchors and aliases (&name, *name) are not allowed in data files; write each value out", line
                )
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    return DataError(display_name, f"the data is nested more than {MAX_DEPTH} levels deep", line)
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    finally:
        loader.dispose()
    return None


def _syntax_error(display_name: str, exc: yaml.MarkedYAMLError) -> DataError:
    """Turn a YAML parser exception into a readable error."""
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark else None
    problem = exc.problem or "invalid YAML"
    if "tab" in problem or "\t" in problem:
        return DataError(display_name, "a tab character is used for indentation; YAML needs spaces", line)
    context = f" {exc.context}" if exc.context else ""
    return DataError(display_name, f"YAML syntax error: {problem}{context}", line)


def _index_lines(node: yaml.Node, path: FieldPath, lines: dict[FieldPath, int], errors: list[DataError], display_name: str) -> None:
    """Record the line of every mapping key and list item; report duplicate keys."""
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.ScalarNode) and len(node.value) > MAX_TEXT_CHARS:
        message = f"this text has {len(node.value):,} characters; a data field may have at most {MAX_TEXT_CHARS:,}"
        errors.append(DataError(display_name, message, node.start_mark.line + 1, path))
    if isinstance(node, yaml.MappingNode):
        seen: set[object] = set()
        for key_node, value_node in node.value:
            key = key_node.value
            child = (*path, key)
            if key in seen:
                errors.append(
                    DataError(display_name, f"the key '{key}' appears twice in the same mapping", key_node.start_mark.line + 1, child)
                )
            seen.add(key)
            lines[child] = key_node.start_mark.line + 1
            _index_lines(value_node, child, lines, errors, display_name)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _index_lines(item, (*path, index), lines, errors, display_name)
