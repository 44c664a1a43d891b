"""Read one YAML data file into plain Python data plus a map from field path to line."""

from __future__ import annotations

import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

import yaml

FieldPath = tuple[str | int, ...]

# Limits that keep a hostile or broken file from hanging or crashing the build; real data stays far below them.
MAX_FILE_BYTES = 2_000_000
MAX_DEPTH = 16
MAX_TEXT_CHARS = 50_000
MAX_NUMBER_CHARS = 20  # an integer with more digits is no count a release states (and past 4,300 Python refuses to read it)
# Characters refused in a data file, written raw or as a YAML escape ("\x7f", "\uFFFE"): control characters, the line
# separators, and everything XML 1.0 or YAML's printable set lacks (lone surrogates, U+FFFE, U+FFFF). Such a character
# would make the feed, a badge or a page's front matter unreadable.
_REFUSED_CHARACTER = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]")


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
    """SafeLoader that keeps dates as strings, so an impossible date is a data error, not a crash; reads every mapping key
    as the text written (`on:` is the key "on", not the boolean true), so an unknown key is reported by its name; and
    refuses an integer too long to be a count."""

    def construct_mapping(self, node: yaml.Node, deep: bool = False) -> dict[str, object]:
        """A mapping whose keys are the text of their scalars."""
        if not isinstance(node, yaml.MappingNode):
            raise yaml.constructor.ConstructorError(None, None, "expected a mapping", node.start_mark)
        mapping: dict[str, object] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise yaml.constructor.ConstructorError(
                    None, None, "a key must be a word or text, not a list or mapping", key_node.start_mark
                )
            mapping[key_node.value] = self.construct_object(value_node, deep=deep)
        return mapping

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        """An integer, if it is short enough to be one the data could hold."""
        if len(node.value) > MAX_NUMBER_CHARS:
            problem = f"a number of {len(node.value):,} characters; numbers in data files have at most {MAX_NUMBER_CHARS}"
            raise yaml.constructor.ConstructorError(None, None, problem, node.start_mark)
        return super().construct_yaml_int(node)


_DataLoader.add_constructor("tag:yaml.org,2002:int", _DataLoader.construct_yaml_int)
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


def read_data_bytes(path: Path, display_name: str, inside: Path, limit: int = MAX_FILE_BYTES) -> tuple[bytes | None, list[DataError]]:
    """The bytes of a data file, read only if it is a regular file within the folder `inside` (links are followed
    only that far) and no larger than `limit`; otherwise None and the error that says why."""
    try:
        resolved = path.resolve(strict=True)
        if not resolved.is_relative_to(inside.resolve()):
            return None, [
                DataError(display_name, f"the file is a link to {resolved}, outside {inside.name}/; data files must lie inside it")
            ]
        status = resolved.stat()
        if not stat.S_ISREG(status.st_mode):
            return None, [DataError(display_name, "not a regular file (a folder, device or pipe); data files are plain files")]
        if status.st_size > limit:
            return None, [_too_large(display_name, status.st_size, limit)]
        with resolved.open("rb") as file:
            raw = file.read(limit + 1)
    except (OSError, RuntimeError) as exc:  # RuntimeError: a loop of links
        return None, [DataError(display_name, f"the file cannot be read: {getattr(exc, 'strerror', None) or exc}")]
    if len(raw) > limit:
        return None, [_too_large(display_name, len(raw), limit)]
    return raw, []


def _too_large(display_name: str, size: int, limit: int = MAX_FILE_BYTES) -> DataError:
    return DataError(display_name, f"the file has {size:,} bytes; this file may have at most {limit:,}")


def read_yaml(path: Path, display_name: str, inside: Path) -> tuple[YamlDocument | None, list[DataError]]:
    """Parse a YAML data file within the folder `inside`; on failure return the errors that explain why."""
    raw, errors = read_data_bytes(path, display_name, inside)
    return (None, errors) if raw is None else parse_yaml(raw, display_name)


def parse_yaml(raw: bytes, display_name: str) -> tuple[YamlDocument | None, list[DataError]]:
    """Parse the bytes of the data file `display_name`; on failure return the errors that explain why."""
    if len(raw) > MAX_FILE_BYTES:
        return None, [_too_large(display_name, len(raw))]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return None, [DataError(display_name, f"not valid UTF-8 (byte 0x{raw[exc.start]:02x}); save the file as UTF-8", line)]
    if not text.strip():
        return None, [DataError(display_name, "the file is empty; expected a YAML mapping of fields")]
    control = _REFUSED_CHARACTER.search(text)
    if control:
        line = text.count("\n", 0, control.start()) + 1
        return None, [DataError(display_name, refused_character_message(control.group()), line)]
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


def refused_character_message(character: str) -> str:
    """Why a character is refused, naming its kind and code point."""
    code = ord(character)
    kind = (
        "line separator"
        if code in (0x2028, 0x2029)
        else "lone surrogate"
        if 0xD800 <= code <= 0xDFFF
        else "non-character"
        if code in (0xFFFE, 0xFFFF)
        else "control character"
    )
    return f"the {kind} U+{code:04X} is not allowed in data files (raw or as an escape such as \\x7f or \\uFFFE); remove it"


def _structure_error(text: str, display_name: str) -> DataError | None:
    """Refuse anchors, aliases, explicit tags and deep nesting by reading the parser's events, before any node is built.

    Aliases can expand a small file into billions of values, deep nesting crashes the composer, and a tag (`!!timestamp`,
    `!!set`) makes a value of a type the data never holds; the data needs none of them. Reading stops at the first
    offence, so a hostile file is refused at once.
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
            if getattr(event, "tag", None) is not None:
                return DataError(display_name, f"YAML tags such as {event.tag!r} are not allowed in data files; write plain values", line)
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
    if isinstance(exc, yaml.constructor.ConstructorError):  # raised by _DataLoader with a sentence of its own
        return DataError(display_name, problem, line)
    context = f" {exc.context}" if exc.context else ""
    return DataError(display_name, f"YAML syntax error: {problem}{context}", line)


def _index_lines(node: yaml.Node, path: FieldPath, lines: dict[FieldPath, int], errors: list[DataError], display_name: str) -> None:
    """Record the line of every mapping key and list item; report duplicate keys."""
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.ScalarNode):
        _check_scalar(node, path, errors, display_name)
    if isinstance(node, yaml.MappingNode):
        seen: set[object] = set()
        for key_node, value_node in node.value:
            key = key_node.value
            child = (*path, key)
            _check_scalar(key_node, child, errors, display_name)
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


def _check_scalar(node: yaml.ScalarNode, path: FieldPath, errors: list[DataError], display_name: str) -> None:
    """A key or value is at most MAX_TEXT_CHARS long and, once its escapes are read, holds no refused character."""
    line = node.start_mark.line + 1
    if len(node.value) > MAX_TEXT_CHARS:
        message = f"this text has {len(node.value):,} characters; a data field may have at most {MAX_TEXT_CHARS:,}"
        errors.append(DataError(display_name, message, line, path))
    refused = _REFUSED_CHARACTER.search(node.value)
    if refused:
        errors.append(DataError(display_name, refused_character_message(refused.group()), line, path))
