"""Seeded random mutations of every data file: each mutant loads and renders, or fails with a clear error, and never hangs.

Two kinds: the parsed document mutated (types swapped, keys dropped, values emptied, enlarged or made hostile, keys of
other types), and the file's text mutated (a value replaced by a YAML escape of a refused character, a tag, an anchor,
an oversized number, unbalanced markup), so that the escapes YAML decodes are fuzzed, not only the bytes.

A hang fails the test through pytest-timeout (`HANG_SECONDS` for all the mutants of one file, a few seconds in all
when nothing hangs); no test times itself, so a slow machine is not a failure.
"""

from __future__ import annotations

import contextlib
import functools
import random
import shutil
from collections.abc import Iterator

import fastjsonschema
import pytest
import yaml
from jsonschema import validators

from macros.data.loading import load_atlas
from macros.data.schema import load_schema
from macros.data.yamlfile import DataErrors
from macros.render.pages import generate_site
from tests.conftest import MINI_DATA
from tests.support.site import copy_mini_data

SEED = 20261122
MUTANTS_PER_FILE = 100
HANG_SECONDS = 120  # pytest-timeout's limit for the mutants of one file (9 s at most, seen here): a hang guard, not a speed test
DATA_FILES = sorted(str(path.relative_to(MINI_DATA)) for path in MINI_DATA.rglob("*.yaml"))
SCHEMAS = {"topics.yaml": "topics.schema.json", "labels.yaml": "labels.schema.json"}
REPLACEMENTS = (None, "", [], {}, 0, -1, 3.5, True, "x" * 60_000, ["x"] * 5_000, {"unexpected": "mapping"}, "2.1", "not-a-url", "Beta")
REPLACEMENTS += ("a\x7fb", "\x80", "\ufffe", "\ud800", "\u2028", "`" * 3_000, "[" * 3_000, "{{ lipsum }}", '--8<-- "mkdocs.yml"')
REPLACEMENTS += ("</title><script>alert(1)</script>", "`x`{: #__search }", {True: 1}, {None: "x"}, {7: "y"})
# Raw YAML that a mutated line's value becomes: escapes of refused characters, tags, anchors, huge numbers, markup.
RAW_VALUES = (
    '"\\x7f"',
    '"\\x80"',
    '"\\uFFFE"',
    '"\\uD800"',
    '"\\L"',
    '"\\0"',
    "!!timestamp 2030-13-45",
    "!!binary aGk=",
    "!!set {a}",
    "&anchor x",
    "*anchor",
    "9" * 5_000,
    "1e999999",
    "[unclosed",
    "{a: [b",
    "'``x`'",
    "'{{ lipsum }}'",
    '"\\x3cscript>"',
)


def _paths(value: object, path: tuple = ()) -> list[tuple]:
    """Every path to a value inside a document."""
    found = [path]
    if isinstance(value, dict):
        for key, child in value.items():
            found += _paths(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += _paths(child, (*path, index))
    return found


def _mutate(document: object, rng: random.Random) -> object:
    """The document with one random field dropped, emptied, retyped, enlarged, duplicated or wrapped."""
    path = rng.choice(_paths(document)[1:] or [()])
    if not path:
        return rng.choice(REPLACEMENTS)
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    operation = rng.choice(("drop", "replace", "replace", "wrap", "duplicate"))
    if operation == "drop":
        del parent[key]
    elif operation == "replace":
        parent[key] = rng.choice(REPLACEMENTS)
    elif operation == "wrap":
        parent[key] = [parent[key]]
    elif isinstance(parent, list):
        parent.append(parent[key])
    else:
        parent[key] = [parent[key], parent[key]]
    return document


@contextlib.contextmanager
def _naming(mutant: str) -> Iterator[None]:
    """Name the mutant in whatever stops the test while it runs: pytest-timeout's failure on a hang, or an error."""
    try:
        yield
    except BaseException as raised:
        raised.add_note(f"while {mutant} ran")
        raise


@pytest.mark.timeout(HANG_SECONDS)
@pytest.mark.parametrize("data_file", DATA_FILES)
def test_every_mutant_loads_or_fails_clearly_and_never_hangs(tmp_path, data_file):
    rng = random.Random(f"{SEED}:{data_file}")
    original = yaml.safe_load((MINI_DATA / data_file).read_text(encoding="utf-8"))
    outcomes = {"loaded": 0, "refused": 0}
    for number in range(MUTANTS_PER_FILE):
        data_dir = copy_mini_data(tmp_path / str(number) / "data")
        mutant = _mutate(yaml.safe_load(yaml.safe_dump(original)), rng)
        (data_dir / data_file).write_text(yaml.safe_dump(mutant, allow_unicode=True), encoding="utf-8")
        _assert_validators_agree(mutant, SCHEMAS.get(data_file, "release.schema.json"))
        with _naming(f"mutant {number} of {data_file}"):
            try:
                atlas = load_atlas(data_dir)
                generate_site(atlas, site_url="https://example.org/")
                outcomes["loaded"] += 1
            except DataErrors as raised:
                outcomes["refused"] += 1
                for error in raised.errors:
                    assert str(error).startswith("data/"), f"mutant {number} of {data_file}: {error}"
        shutil.rmtree(tmp_path / str(number))
    assert outcomes["refused"], f"no mutant of {data_file} was refused: {outcomes}"


def _assert_validators_agree(document: object, schema_name: str) -> None:
    """The fast validator that decides validity and jsonschema that explains it follow one draft: same verdict."""
    schema = load_schema(schema_name)
    explaining = validators.validator_for(schema)
    assert schema["$schema"] == explaining.META_SCHEMA["$schema"] == "http://json-schema.org/draft-07/schema#"
    try:
        _fast_validator(schema_name)(document)
        fast_verdict = True
    except fastjsonschema.JsonSchemaException:
        fast_verdict = False
    assert fast_verdict == explaining(schema).is_valid(document), document


@functools.cache
def _fast_validator(schema_name: str):
    """The compiled fastjsonschema validator of one schema, as the loader uses it."""
    return fastjsonschema.compile(load_schema(schema_name))


@pytest.mark.timeout(HANG_SECONDS)
@pytest.mark.parametrize("data_file", DATA_FILES)
def test_every_text_mutant_loads_or_fails_clearly_and_never_hangs(tmp_path, data_file):
    rng = random.Random(f"{SEED}:text:{data_file}")
    lines = (MINI_DATA / data_file).read_text(encoding="utf-8").splitlines()
    valued = [number for number, line in enumerate(lines) if ": " in line and not line.lstrip().startswith("#")]
    for number in range(MUTANTS_PER_FILE):
        data_dir = copy_mini_data(tmp_path / str(number) / "data")
        mutant = list(lines)
        for target in rng.sample(valued, k=min(2, len(valued))):
            key = mutant[target].split(": ", 1)[0]
            mutant[target] = f"{key}: {rng.choice(RAW_VALUES)}"
        (data_dir / data_file).write_text("\n".join(mutant) + "\n", encoding="utf-8")
        with _naming(f"text mutant {number} of {data_file}"):
            try:
                generate_site(load_atlas(data_dir), site_url="https://example.org/")
            except DataErrors as raised:
                for error in raised.errors:
                    assert str(error).startswith("data/"), f"text mutant {number} of {data_file}: {error}"
        shutil.rmtree(tmp_path / str(number))
