"""Check data against the published JSON Schema and explain each violation in plain words.

A compiled validator (fastjsonschema) decides whether a file is valid; only an invalid file goes
through jsonschema, which lists every violation with its path for the explanations below.
jsonschema is imported on that path only: importing it and walking a valid file with it cost
more than the rest of loading.
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import json
import os
import re
import stat
import tempfile
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import fastjsonschema

from macros.data.yamlfile import DataError, YamlDocument

if TYPE_CHECKING:
    from jsonschema import Draft7Validator
    from jsonschema.exceptions import ValidationError

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "data" / "schema"

_PATTERN_MEANINGS = {
    "version": 'a version string in quotes, such as "1.10"',
    "date": "a date written YYYY-MM-DD",
    "url": "an http:// or https:// URL",
    "id": "a kebab-case id: lowercase letters and digits joined by single hyphens, such as cuda-graphs",
    "line": "a single line of text",
}
_JSON_TYPES = {"string": "text", "integer": "a whole number", "boolean": "true or false", "object": "a mapping", "array": "a list"}


@cache
def load_schema(name: str) -> dict:
    """The JSON Schema with this file name, from data/schema/."""
    return json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))


# Validators generated from the schemas, kept between builds beside the compiled templates: generating one costs a
# build more than running it. A file is named after the digest of its schema and of the generator's version.
COMPILED_VALIDATORS = Path(tempfile.gettempdir()) / f"atlas-validators-{os.getuid() if hasattr(os, 'getuid') else 'user'}"


_ROOT_FUNCTION = re.compile(r"^def (\w+)\(", re.MULTILINE)


@cache
def _compiled_check(name: str) -> Callable[[object], object]:
    """A fast validator for this schema that raises on the first violation."""
    text = (SCHEMA_DIR / name).read_bytes()
    digest = hashlib.blake2b(text + fastjsonschema.VERSION.encode(), digest_size=16).hexdigest()
    folder = _private_folder()
    cached = folder / f"{digest}.py" if folder else None
    try:
        code = cached.read_text(encoding="utf-8") if cached else None
    except OSError:
        code = None
    if code is None:
        code = fastjsonschema.compile_to_code(json.loads(text))
        if cached:
            with contextlib.suppress(OSError):
                partial = cached.with_suffix(f".{os.getpid()}.tmp")
                partial.write_text(code, encoding="utf-8")
                partial.replace(cached)
    namespace: dict = {}
    exec(compile(code, name, "exec"), namespace)  # the code fastjsonschema generated from our own schema
    return namespace[_ROOT_FUNCTION.search(code).group(1)]  # the generated code defines the root validator first


def _private_folder() -> Path | None:
    """The validators' folder if only this user can write to it (as Jinja checks its cache): None otherwise, and then
    nothing is read from or kept in it."""
    try:
        COMPILED_VALIDATORS.mkdir(mode=0o700, exist_ok=True)
        found = COMPILED_VALIDATORS.lstat()
    except OSError:
        return None
    mine = not hasattr(os, "getuid") or found.st_uid == os.getuid()
    return COMPILED_VALIDATORS if stat.S_ISDIR(found.st_mode) and mine and not found.st_mode & 0o022 else None


@cache
def _explaining_validator(name: str) -> Draft7Validator:
    """A jsonschema validator for this schema, which reports every violation with its path."""
    from jsonschema import Draft7Validator

    return Draft7Validator(load_schema(name))


def schema_errors(document: YamlDocument, schema_name: str, display_name: str) -> list[DataError]:
    """Every schema violation of a parsed file, one readable error each."""
    try:
        _compiled_check(schema_name)(document.data)
        return []
    except fastjsonschema.JsonSchemaException:
        pass
    violations = list(_explaining_validator(schema_name).iter_errors(document.data))
    misspelt = {(tuple(v.absolute_path), _suggestion(v)) for v in violations if v.validator == "additionalProperties"}
    errors = []
    for violation in violations:
        path = tuple(violation.absolute_path)
        if violation.validator == "required" and (path, _missing_field(violation)) in misspelt:
            continue  # the "did you mean" of the misspelt field already says it
        message, path = _explain(violation, path)
        errors.append(DataError(display_name, message, document.line_of(path), path))
    return errors


def _missing_field(violation: ValidationError) -> str:
    """The field a `required` violation names."""
    return violation.message.split("'")[1]


def _closest(name: object, allowed: list[str]) -> str | None:
    """The allowed field name a misspelt one most likely meant."""
    close = difflib.get_close_matches(str(name), allowed, n=1)
    return close[0] if close else None


def _suggestion(violation: ValidationError) -> str | None:
    """The allowed field closest to the first unknown one of an `additionalProperties` violation."""
    allowed = sorted(violation.schema.get("properties", {}))
    unknown = sorted(set(violation.instance) - set(allowed))
    return _closest(unknown[0], allowed) if unknown else None


def _explain(violation: ValidationError, path: tuple) -> tuple[str, tuple]:
    """A sentence saying what was found and what was expected, and the path it is about."""
    kind, expected, found = violation.validator, violation.validator_value, violation.instance
    if kind == "required":
        return f"the required field '{_missing_field(violation)}' is missing", path
    if kind == "additionalProperties":
        allowed = sorted(violation.schema.get("properties", {}))
        unknown = sorted(set(found) - set(allowed))
        hints = [f"'{name}'" + (f" (did you mean '{close}'?)" if (close := _closest(name, allowed)) else "") for name in unknown]
        return f"unknown field {', '.join(hints)}; allowed fields: {', '.join(allowed)}", (*path, unknown[0])
    if kind == "enum":
        return f"expected one of {', '.join(map(str, expected))}; found {_shown(found)}", path
    if kind == "pattern":
        return f"expected {_pattern_meaning(expected)}; found {_shown(found)}", path
    if kind == "type":
        wanted = _JSON_TYPES.get(expected, expected)
        if expected == "string" and isinstance(found, float):
            return f'expected text; found the number {found!r}. Put versions in quotes: "1.10" (unquoted, 1.10 reads as 1.1)', path
        return f"expected {wanted}; found {_describe(found)}", path
    if kind in ("minItems", "minLength"):
        return "must not be empty", path
    if kind == "uniqueItems":
        return f"lists the same entry twice: {found!r}", path
    if kind == "minimum":
        return f"expected a number of at least {expected}; found {found!r}", path
    if kind == "maximum":
        return f"expected a number of at most {expected:,}; found {found!r}", path
    if kind == "maxLength":
        return f"expected at most {expected} characters; found {len(found):,}", path
    return violation.message, path


def _pattern_meaning(pattern: str) -> str:
    """What a schema pattern asks for in words, whichever schema uses it (the release schema names them all)."""
    named = load_schema("release.schema.json")["definitions"]
    return next((text for name, text in _PATTERN_MEANINGS.items() if named[name]["pattern"] == pattern), f"text matching {pattern}")


def _shown(value: object, limit: int = 80) -> str:
    """A found value as an error message quotes it, cut short when long."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 5]}… ({len(text):,} characters)"


def _describe(value: object) -> str:
    """Name a YAML value's type for an error message."""
    if value is None:
        return "nothing (an empty value)"
    if isinstance(value, bool):
        return f"the boolean {value!r}"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return _shown(value)
