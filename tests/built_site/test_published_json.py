"""Every JSON file the site publishes under /api/ names its schema, published beside it, and validates against it with
an independent validator (check-jsonschema from PyPI), as published."""

from __future__ import annotations

import json
import shutil
import subprocess

from tests.conftest import PROJECT_DIR


def test_every_published_json_file_validates_against_the_schema_it_names(built_site):
    api = built_site.files / "api"
    documents = sorted(path for path in api.glob("*.json") if not path.name.endswith(".schema.json"))
    assert {path.name for path in documents} >= {
        "api-index.json",
        "api-mentions.json",
        "builds.json",
        "compatibility.json",
        "feature-names.json",
        "releases.json",
    }
    checker = shutil.which("check-jsonschema", path=str(PROJECT_DIR / ".venv" / "bin")) or shutil.which("check-jsonschema")
    assert checker, "check-jsonschema is missing: run `make test` (it installs requirements-test.txt)"
    named = {}
    for path in documents:
        schema_url = json.loads(path.read_text(encoding="utf-8")).get("schema")
        assert schema_url and schema_url.startswith(built_site.base_url + "api/"), (path.name, schema_url)
        schema = built_site.files / schema_url.removeprefix(built_site.base_url)
        assert schema.is_file(), (path.name, schema_url)
        named[path.name] = schema.name
    assert named["releases.json"] == "releases.schema.json" and named["compatibility.json"] == "compatibility.schema.json"
    for document, schema in named.items():
        result = subprocess.run([checker, "--schemafile", str(api / schema), str(api / document)], capture_output=True, text=True)
        assert result.returncode == 0, f"{document} against {schema}:\n{result.stdout}{result.stderr}"
