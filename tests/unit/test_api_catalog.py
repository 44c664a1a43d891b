"""The measured API index as the site reads it: the catalog, what the reference says of a name, the truth check of
`make check`, and the finished HTML that pages show without Markdown reading it."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from macros.data.api_catalog import load_catalog
from macros.data.model import Change, FeatureRecord
from macros.data.yamlfile import DataErrors
from macros.views.api_reference import HtmlSlots, Reference, cited_names, deprecations, mentions
from macros.views.api_truth import contradictions, unknown_record_apis

RELEASES = ["2.0", "2.1", "2.10"]
KINDS = ["class", "function", "method", "module"]
INDEX = {
    "format": 1,
    "releases": RELEASES,
    "measured": [{"torch": "2.0.0", "python": "3.11.7"}, {"torch": "2.1.0", "python": "3.11.7"}, {"torch": "2.10.0", "python": "3.11.7"}],
    "kinds": KINDS,
    "names": {
        "": {"torch": {"k": 3, "v": [0]}},
        "torch": {
            "compile": {"k": 1, "v": [1], "p": {"mode": {"v": [2]}, "dynamic": {"d": [[1, "False"], [2, "None"]]}}},
            "solve": {"k": 1, "v": [0, 1], "x": [1]},
            "Tensor": {"k": 0, "v": [0]},
            "nn": {"k": 3, "v": [0]},
            "F": {"k": 3, "v": [0], "a": "torch.nn"},
        },
        "torch.Tensor": {"add": {"k": 2, "v": [0]}},
        "torch.nn": {"Linear": {"k": 0, "v": [0]}},
    },
}


def _data_dir(tmp_path: Path, index: dict | str = INDEX) -> Path:
    data_dir = tmp_path / "data"
    (data_dir / "api").mkdir(parents=True)
    (data_dir / "api" / "index.json").write_text(index if isinstance(index, str) else json.dumps(index), encoding="utf-8")
    return data_dir


def test_the_catalog_says_since_removed_and_what_each_release_changed(tmp_path):
    catalog = load_catalog(_data_dir(tmp_path))
    compile_, solve = catalog.names["torch.compile"], catalog.names["torch.solve"]
    assert (catalog.since(compile_), catalog.removed(compile_)) == ("2.1", None)
    assert (catalog.since(solve), catalog.removed(solve)) == ("2.0", "2.1")
    added, removed = catalog.changed_in("2.1")
    assert [n.path for n in added] == ["torch.compile"] and [n.path for n in removed] == ["torch.solve"]
    assert catalog.gaps == ()


def test_no_index_yet_is_no_catalog_and_a_broken_one_is_a_clear_error(tmp_path):
    assert load_catalog(tmp_path / "data") is None
    for broken, message in [
        ("{not json", "not readable JSON"),
        (json.dumps({**INDEX, "kinds": "class"}), "kinds"),
        (json.dumps({**INDEX, "names": {"torch": {"x": {"k": 9, "v": [0]}}}}), "outside the index's lists"),
        (json.dumps({**INDEX, "names": {"torch": {"x": {"k": 1, "v": [7]}}}}), "outside the index's lists"),
        (json.dumps({**INDEX, "names": {"torch": {"<b>": {"k": 1, "v": [0]}}}}), "<b>"),
    ]:
        with pytest.raises(DataErrors) as raised:
            load_catalog(_data_dir(tmp_path / str(hash(broken)), broken))
        assert "data/api/index.json" in str(raised.value) and message in str(raised.value), str(raised.value)


def test_the_reference_states_stubs_parameters_and_unmeasured_releases(tmp_path):
    catalog = load_catalog(_data_dir(tmp_path))
    reference = Reference(catalog)
    assert tuple(map(str, reference.notes(catalog.names["torch.solve"]))) == ("only raises from 2.1",)
    notes = tuple(map(str, reference.notes(catalog.names["torch.compile"])))
    assert notes == ("dynamic default False → None in 2.10", "parameter mode added in 2.10")
    gapped = Reference(replace(catalog, measured=(catalog.measured[0], None, catalog.measured[2])))
    assert gapped.since(catalog.names["torch.compile"]) == ("2.1", "2.1")
    assert gapped.removed(catalog.names["torch.solve"]) == ("2.1", "2.1")
    assert Reference(replace(catalog, measured=(None, *catalog.measured[1:]))).since(catalog.names["torch.compile"]) == ("≤ 2.1", "2.1")


def test_module_pages_list_names_and_class_members_and_leave_imported_modules_out(tmp_path):
    reference = Reference(load_catalog(_data_dir(tmp_path)))
    assert [m.path for m in reference.modules] == ["torch", "torch.nn"]
    sections = reference.sections(reference.catalog.names["torch"])
    assert [row.anchor for row in sections.names] == ["compile", "nn", "solve", "Tensor"]
    assert [(group.anchor, [row.anchor for row in group.items]) for group in sections.members] == [("members-Tensor", ["Tensor.add"])]
    assert sections.names[-1].members is sections.members[0] and sections.letters == ()
    assert reference.page_of(reference.catalog.names["torch.Tensor.add"]) == "reference/torch.md#Tensor.add"
    assert reference.page_of(reference.catalog.names["torch.nn.Linear"]) == "reference/torch.nn.md#Linear"
    assert reference.page_of(reference.catalog.names["torch.F"]) is None


def test_a_module_with_more_names_than_a_page_shows_at_once_groups_them_by_first_letter(tmp_path, monkeypatch):
    monkeypatch.setattr(Reference, "OPEN_ROWS", 3)
    reference = Reference(load_catalog(_data_dir(tmp_path)))
    sections = reference.sections(reference.catalog.names["torch"])
    assert sections.names == ()
    assert [(group.anchor, group.name, [row.anchor for row in group.items]) for group in sections.letters] == [
        ("names-c", "C", ["compile"]),
        ("names-n", "N", ["nn"]),
        ("names-s", "S", ["solve"]),
        ("names-t", "T", ["Tensor"]),
    ]
    assert [group.name for group in reference.packages()] == ["torch", "torch.nn"]


def test_a_feature_records_apis_must_be_measured_names(tmp_path, mini_atlas):
    catalog = load_catalog(_data_dir(tmp_path))
    record = FeatureRecord(
        id="compiler", name="Compiler", description="Compiles.", apis=("torch.compile", "torch.switch", "torch._private")
    )
    assert unknown_record_apis(replace(mini_atlas, records=(record,)), catalog) == [
        "data/features.yaml: compiler: `torch.switch` is in no release from 2.0 to 2.10"
    ]


def test_the_truth_check_holds_cited_names_to_their_release(tmp_path, mini_atlas):
    catalog = load_catalog(_data_dir(tmp_path))
    feature = replace(mini_atlas.releases[0].features[0], summary="Uses `torch.compile(x)` and `torch.Tensor.add`.")
    atlas = replace(mini_atlas, releases=(replace(mini_atlas.releases[0], features=(feature,)), *mini_atlas.releases[1:]))
    found = [str(c) for c in contradictions(atlas, catalog)]
    assert found == [
        f"data/releases/2.0.yaml: features[0] ({feature.id}) cites `torch.compile`: the 2.0 wheel does not have it yet (it arrived in 2.1)"
    ]
    marked = replace(feature, absent_apis=("torch.compile", "torch.Tensor"))
    atlas = replace(atlas, releases=(replace(atlas.releases[0], features=(marked,)), *atlas.releases[1:]))
    assert [c.detail for c in contradictions(atlas, catalog)] == [
        "it is listed in `absent_apis`, but the 2.0 wheel has it; remove it from the list"
    ]


def test_what_a_deprecation_deprecates_must_be_in_its_release(tmp_path, mini_atlas):
    catalog = load_catalog(_data_dir(tmp_path))
    change = Change(
        id="old-api", kind="deprecation", title="Old APIs deprecated", summary="Deprecated.", sources=("https://pytorch.org/x",)
    )
    deprecating = replace(change, deprecates=("torch.solve", "torch.compile"))  # torch.compile arrives in 2.1
    atlas = replace(mini_atlas, releases=(replace(mini_atlas.releases[0], changes=(deprecating,)), *mini_atlas.releases[1:]))
    assert [str(c) for c in contradictions(atlas, catalog)] == [
        "data/releases/2.0.yaml: changes[0] (old-api) cites `torch.compile`: it is listed in `deprecates`, but the 2.0 wheel does not have it"
    ]
    reference = Reference(catalog, deprecations(atlas))
    assert reference.row(catalog.names["torch.solve"]).deprecated == (("2.0", "old-api"),)


def test_names_the_index_cannot_speak_for_are_left_alone(tmp_path, mini_atlas):
    catalog = load_catalog(_data_dir(tmp_path))
    text = "`torch._dynamo.config.x`, `torch.ops.aten.mul`, `torch.backends.cudnn.allow_tf32`, `torch.Tensor.add.__doc__`, `torch.nn.Nope`"
    feature = replace(mini_atlas.releases[0].features[0], summary=text)
    atlas = replace(mini_atlas, releases=(replace(mini_atlas.releases[0], features=(feature,)), *mini_atlas.releases[1:]))
    assert [c.name for c in contradictions(atlas, catalog)] == ["torch.nn.Nope"]


def test_cited_names_come_from_code_spans_only():
    assert cited_names("Use `torch.compile(model)` not torch.jit, see `x = torch.nn.Linear(2, 3)`") == ["torch.compile", "torch.nn.Linear"]


def test_mentions_list_every_entry_citing_a_name(mini_atlas):
    feature = replace(mini_atlas.releases[0].features[0], title="`torch.compile` arrives")
    atlas = replace(mini_atlas, releases=(replace(mini_atlas.releases[0], features=(feature,)), *mini_atlas.releases[1:]))
    assert mentions(atlas)["torch.compile"] == [["2.0", feature.id, feature.stability, "torch.compile arrives"]]


def test_html_slots_put_finished_html_where_their_marker_was():
    slots = HtmlSlots()
    marker = slots.put("<table><tr><td>x</td></tr></table>")
    assert slots.fill(f"<h1>t</h1>\n<p>{marker}</p>") == "<h1>t</h1>\n<table><tr><td>x</td></tr></table>"
    assert slots.put("<p>other</p>") != marker
    assert slots.fill("<p>atlas-slot-" + "0" * 32 + "</p>") == "<p>atlas-slot-" + "0" * 32 + "</p>"  # unknown: left as it is


def test_a_hostile_default_in_the_index_is_shown_as_text(tmp_path):
    from macros.render.pages import template_environment

    hostile = {
        **INDEX,
        "names": {
            **INDEX["names"],
            "torch": {
                **INDEX["names"]["torch"],
                "compile": {"k": 1, "v": [1], "p": {"mode": {"d": [[1, "'a'"], [2, "<script>alert(1)</script>"]]}}},
            },
        },
    }
    reference = Reference(load_catalog(_data_dir(tmp_path, hostile)))
    sections = reference.sections(reference.catalog.names["torch"])
    html = template_environment().get_template("_api_table.html.j2").render(sections=sections, up="../../", reference=reference)
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
