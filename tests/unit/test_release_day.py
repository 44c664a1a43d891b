"""The release-day path, offline: the draft `make new-release` writes on a checkout without the release, the build
refusing its to-dos, and the weekly check against a stored PyPI listing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from macros.data.api_catalog import load_catalog
from macros.data.loading import DRAFT_TODO, load_atlas
from macros.data.yamlfile import DataErrors
from macros.views.api_reference import Reference
from tests.conftest import REAL_DATA
from tools.releaseday import draft, watch

LISTING = Path(__file__).resolve().parent.parent / "fixtures" / "pypi" / "torch.json"


@pytest.fixture(scope="module")
def checkout_without_215(tmp_path_factory) -> Path:
    """The data of a checkout that does not have 2.15 yet (its measured API and PyPI's listing already do)."""
    data = tmp_path_factory.mktemp("checkout") / "data"
    shutil.copytree(REAL_DATA, data, ignore=shutil.ignore_patterns("surfaces"))
    (data / "releases" / "2.15.yaml").unlink()
    return data


@pytest.fixture(scope="module")
def drafted(checkout_without_215) -> dict:
    assert draft.main(["2.15", "--data-dir", str(checkout_without_215)]) == 0
    return yaml.safe_load((checkout_without_215 / "releases" / "2.15.yaml").read_text(encoding="utf-8"))


def test_the_draft_reads_what_the_curated_file_states_from_pypi(drafted):
    curated = yaml.safe_load((REAL_DATA / "releases" / "2.15.yaml").read_text(encoding="utf-8"))
    for field in ("version", "released", "python"):
        assert drafted[field] == curated[field], field
    # The draft offers each companion release PyPI received within a week; a person keeps those a source ties to the
    # release (PyPI received torchaudio 2.11.1 the same day as torch 2.15.0, and 2.15's file does not claim it).
    offered = {(c["library"], c["version"]) for c in drafted["companions"]}
    kept = {(c["library"], c["version"]) for c in curated["companions"]}
    assert kept <= offered
    dropped = {draft.files_url(library, version) for library, version in offered - kept}
    assert {source["url"] for source in drafted["sources"]} - dropped <= {source["url"] for source in curated["sources"]}


def test_the_draft_lists_every_name_the_measured_api_lost_as_a_candidate_removal(drafted):
    removed = Reference.of(load_catalog(REAL_DATA)).changed_in("2.15")[1]
    assert removed, "the measured API of 2.15 lost no name"
    candidates = {change["id"]: change for change in drafted["changes"]}
    for name in removed:
        change = candidates[f"removed-from-{name.parent.replace('.', '-').replace('_', '-').lower()}"]
        assert change["kind"] == "removal" and DRAFT_TODO in change["title"]
        assert f"`{name.parent}`" in change["summary"]
    assert len(candidates) == len({name.parent for name in removed})


def test_the_build_refuses_a_draft_and_names_each_to_do_with_its_line(checkout_without_215, drafted):
    text = (checkout_without_215 / "releases" / "2.15.yaml").read_text(encoding="utf-8")
    with pytest.raises(DataErrors) as raised:
        load_atlas(checkout_without_215)
    message = str(raised.value)
    lines = [number for number, line in enumerate(text.splitlines(), start=1) if DRAFT_TODO in line and not line.startswith("#")]
    for number in lines:
        assert f"releases/2.15.yaml:{number}: " in message, number
    assert message.count("a to-do of the draft that `make new-release` wrote") == len(lines)
    assert "Traceback" not in message


def test_a_release_the_atlas_has_is_never_drafted_over(capsys):
    assert draft.main(["2.14", "--data-dir", str(REAL_DATA)]) == 1
    assert "exists already" in capsys.readouterr().err


def test_the_weekly_check_finds_the_release_and_the_patches_the_data_lacks(checkout_without_215, tmp_path):
    listing = json.loads(LISTING.read_text(encoding="utf-8"))
    assert watch.missing_releases(listing, REAL_DATA) == ([], [])  # the atlas has everything the stored listing has
    stored = json.loads((checkout_without_215 / "builds" / "pypi.json").read_text(encoding="utf-8"))
    del stored["projects"]["torch"]["2.14.1"]
    data = tmp_path / "data"
    shutil.copytree(checkout_without_215, data, ignore=shutil.ignore_patterns("api", "2.15.yaml"))  # no draft either
    (data / "builds" / "pypi.json").write_text(json.dumps(stored), encoding="utf-8")
    assert watch.missing_releases(listing, data) == (["2.15"], ["2.14.1"])
    output = tmp_path / "github-output"
    assert watch.main(["--listing", str(LISTING), "--data-dir", str(data), "--github-output", str(output)]) == 0
    written = output.read_text(encoding="utf-8")
    assert "version=2.15\n" in written and "patches=2.14.1\n" in written
    assert "make new-release VERSION=2.15" in written and 'make wheels RELEASES="2.14"' in written
