"""Validators generated from the schemas are kept between builds, in a folder only this user can write to."""

from __future__ import annotations

import fastjsonschema
import pytest

from macros.data import schema


@pytest.fixture
def private(tmp_path, monkeypatch):
    folder = tmp_path / "validators"
    monkeypatch.setattr(schema, "COMPILED_VALIDATORS", folder)
    schema._compiled_check.cache_clear()
    yield folder
    schema._compiled_check.cache_clear()


def test_a_generated_validator_is_kept_and_used_by_the_next_build(private, monkeypatch):
    check = schema._compiled_check("topics.schema.json")
    assert len(list(private.glob("*.py"))) == 1
    schema._compiled_check.cache_clear()
    monkeypatch.setattr(fastjsonschema, "compile_to_code", lambda *_: pytest.fail("generated again"))
    again = schema._compiled_check("topics.schema.json")
    with pytest.raises(fastjsonschema.JsonSchemaException):
        again({"topics": "not a list"})
    assert check.__name__ == again.__name__


def test_a_folder_that_others_can_write_to_is_neither_read_nor_written(private):
    schema._compiled_check("topics.schema.json")
    (kept,) = private.glob("*.py")
    kept.write_text("raise SystemExit('ran code from a shared folder')\n")  # as another user could, once the folder is shared
    private.chmod(0o777)
    schema._compiled_check.cache_clear()
    schema._compiled_check("topics.schema.json")({"topics": [{"id": "cuda", "title": "CUDA", "intro": "GPUs."}]})
    assert [p.name for p in private.iterdir()] == [kept.name] and "SystemExit" in kept.read_text()
