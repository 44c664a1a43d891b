"""Translations kept beside the data: the inventory of visible texts, current / stale / missing, and bad input."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from macros.data.glossary import Glossary, read_glossary
from macros.data.loading import load_atlas
from macros.data.texts import text_hash, visible_texts, with_texts
from macros.data.translations import coverage, load_translations
from macros.data.yamlfile import DataErrors
from macros.render.site import generate_checked
from macros.views.edition import interface_problem, translated_edition
from tests.conftest import MINI_DATA, PROJECT_DIR, REAL_DATA

ZH = "translations/zh"


def _mini_with(tmp_path: Path, files: dict[str, object]) -> Path:
    """A copy of the mini data set with these translation files (YAML values written as given, or dumped)."""
    data = tmp_path / "data"
    shutil.copytree(MINI_DATA, data)
    for name, content in files.items():
        path = data / ZH / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content if isinstance(content, str) else yaml.safe_dump(content, allow_unicode=True), encoding="utf-8")
    return data


def test_inventory_names_each_visible_text_by_file_and_ids(mini_atlas):
    texts = visible_texts(mini_atlas)
    assert texts["releases/2.1"]["features.alpha.title"] == "Alpha"
    assert texts["releases/2.1"]["features.alpha.summary"] == "Alpha reaches beta."
    assert "summary" in texts["releases/2.1"]
    assert all(not key.startswith(("sources", "version")) for fields in texts.values() for key in fields)


def test_with_texts_replaces_texts_and_keeps_ids_code_and_facts(real_atlas):
    shown = with_texts(real_atlas, lambda file, key, english: f"[{key}]")
    release, original = shown.release("1.10"), real_atlas.release("1.10")
    assert release.summary == "[summary]"
    assert [f.id for f in release.features] == [f.id for f in original.features]
    assert [f.stability for f in release.features] == [f.stability for f in original.features]
    with_code = next(f for f in original.features if f.example)
    assert release.feature(with_code.id).example.code == with_code.example.code
    assert release.feature(with_code.id).title == f"[features.{with_code.id}.title]"


def test_every_visible_text_of_the_real_data_has_a_current_chinese_translation(real_atlas):
    texts = visible_texts(real_atlas)
    errors = []
    glossary = read_glossary(REAL_DATA / ZH, REAL_DATA, real_atlas.labels.order, errors)
    translations, errors = load_translations(REAL_DATA, "zh", texts, glossary)
    assert errors == [] and len(glossary.avoided) > 20
    state = coverage("zh", texts, translations)
    assert (state.stale, state.missing) == ((), ())
    assert len(state.current) == state.total > 2500


def test_an_english_edit_makes_its_translation_stale(tmp_path, mini_atlas):
    english = visible_texts(mini_atlas)["releases/2.1"]["features.alpha.summary"]
    data = _mini_with(tmp_path, {"releases/2.1.yaml": {"features.alpha.summary": {"from": text_hash(english), "zh": "Alpha 进入 Beta。"}}})
    texts = visible_texts(load_atlas(data))
    translations, errors = load_translations(data, "zh", texts, Glossary())
    assert errors == [] and coverage("zh", texts, translations).current[("releases/2.1", "features.alpha.summary")] == "Alpha 进入 Beta。"
    release = data / "releases" / "2.1.yaml"
    release.write_text(release.read_text(encoding="utf-8").replace("Alpha reaches beta.", "Alpha is now beta."), encoding="utf-8")
    texts = visible_texts(load_atlas(data))
    state = coverage("zh", texts, load_translations(data, "zh", texts, Glossary())[0])
    assert ("releases/2.1", "features.alpha.summary") in state.stale
    assert ("releases/2.1", "features.alpha.summary") not in state.current


def test_a_stale_text_reads_in_english_with_its_entry_marked(tmp_path, mini_atlas):
    glossary = {"labels": [{"label": "Beta", "gloss": "测试版"}], "terms": []}
    data = _mini_with(
        tmp_path, {"releases/2.1.yaml": {"features.alpha.summary": {"from": "0000000000", "zh": "旧的译文。"}}, "glossary.yaml": glossary}
    )
    edition = translated_edition(load_atlas(data), data, "zh")
    assert edition.atlas.release("2.1").feature("alpha").summary == "Alpha reaches beta."
    assert edition.in_english("releases/2.1", "features.alpha")
    assert ("releases/2.1", "features.alpha.summary") in edition.coverage.stale


@pytest.mark.parametrize(
    ("content", "expect"),
    [
        ({"features.alpha.title": {"from": "x", "zh": "没有代码"}}, None),
        ({"features.nope.title": {"from": "x", "zh": "某个"}}, "no visible English text has the key `features.nope.title`"),
        ({"features.alpha.title": "只有译文"}, "expected {from: <hash of the English>, zh: <the translation>}"),
        ({"features.alpha.title": {"from": "x", "zh": "<b>粗体</b>"}}, "raw HTML is not allowed in data text"),
        ({"features.alpha.title": {"from": "x", "zh": "标题\n\n[r]: https://example.org"}}, "breaks a line where the English has none"),
        ("features.alpha.title: [unclosed\n", "data/translations/zh/releases/2.1.yaml:2: YAML syntax error"),
    ],
)
def test_a_broken_translation_file_gets_a_precise_error(tmp_path, mini_atlas, content, expect):
    data = _mini_with(tmp_path, {"releases/2.1.yaml": content})
    texts = visible_texts(load_atlas(data))
    _, errors = load_translations(data, "zh", texts, Glossary())
    if expect is None:
        assert errors == []
    else:
        assert len(errors) == 1 and expect in str(errors[0]), errors
        assert "releases/2.1.yaml" in str(errors[0])


@pytest.mark.parametrize(
    ("translated", "expect"),
    [
        ("用 torch.compile 编译，见[文档](https://example.org/docs)。", "the translation lacks `torch.compile`:"),
        ("用 `torch.compile` 和 `torch.jit` 编译，见[文档](https://example.org/docs)。", "the translation adds `torch.jit`:"),
        ("用 `torch.compile` 编译，见[文档](https://example.org/other)。", "the translation lacks `https://example.org/docs`:"),
    ],
)
def test_a_translation_must_keep_the_code_and_link_targets_of_its_english(tmp_path, translated, expect):
    english = "Compile with `torch.compile`, see [the docs](https://example.org/docs)."
    data = _mini_with(tmp_path, {"releases/2.1.yaml": {"features.alpha.title": {"from": "x", "zh": translated}}})
    release = data / "releases" / "2.1.yaml"
    release.write_text(release.read_text(encoding="utf-8").replace("title: Alpha", f"title: {english!r}", 1), encoding="utf-8")
    _, errors = load_translations(data, "zh", visible_texts(load_atlas(data)), Glossary())
    assert len(errors) == 1 and expect in errors[0].message, errors


BREAKING = Glossary(avoided={"破坏性变更": ("不兼容变更", "breaking change"), "分析器": ("性能分析器", "profiler")})


@pytest.mark.parametrize(
    ("translated", "expect"),
    [
        ("Alpha 的不兼容变更", None),
        ("Alpha 的破坏性变更", "writes '破坏性变更' for 'breaking change': the glossary (glossary.yaml) fixes the term '不兼容变更'"),
        ("Alpha 的性能分析器", None),  # the term holds an avoided rendering: only the rest of the text counts
        ("Alpha 的性能分析器和分析器", "writes '分析器' for 'profiler'"),
    ],
)
def test_a_translation_writes_the_glossary_term_of_each_concept(tmp_path, translated, expect):
    data = _mini_with(tmp_path, {"releases/2.1.yaml": {"features.alpha.title": {"from": "x", "zh": translated}}})
    _, errors = load_translations(data, "zh", visible_texts(load_atlas(data)), BREAKING)
    if expect is None:
        assert errors == []
    else:
        assert [(e.file, e.line, e.path) for e in errors] == [("data/translations/zh/releases/2.1.yaml", 3, ("features.alpha.title", "zh"))]
        assert expect in errors[0].message


def test_an_interface_text_that_writes_an_avoided_rendering_is_refused(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(REAL_DATA, data)
    catalog = data / ZH / "interface" / "common.yaml"
    catalog.write_text(
        catalog.read_text(encoding="utf-8").replace("Feature matrix: 功能矩阵\n", "Feature matrix: 功能矩阵（废弃）\n"), encoding="utf-8"
    )
    with pytest.raises(DataErrors, match=r"interface/common.yaml:\d+: Feature matrix: writes '废弃' for 'deprecation'"):
        translated_edition(load_atlas(data), data, "zh")


BETA = [{"label": "Beta", "gloss": "测试版"}]


@pytest.mark.parametrize(
    ("labels", "terms", "expect"),
    [
        (BETA, [{"en": "deprecation", "zh": "弃用", "avoid": ["废弃"]}], None),
        (
            BETA,
            [{"en": "deprecation", "zh": "弃用", "avoid": ["移除"]}, {"en": "removal", "zh": "移除"}],
            "'移除' is the term for 'removal'",
        ),
        (BETA, [{"en": "deprecation", "zh": "弃用", "avoid": "废弃"}], "expected {en: <concept>, zh: <term>}"),
        (BETA, [{"en": "deprecation", "zh": ""}], "expected {en: <concept>, zh: <term>}"),
        (BETA, [{"en": "deprecation", "zh": "弃用", "see": "x"}], "expected {en: <concept>, zh: <term>}"),
        ([{"label": "Alpha", "gloss": "阿尔法"}], [], "'Alpha' is not a stability label of the data; expected one of: Stable, Beta"),
    ],
)
def test_a_broken_glossary_gets_a_precise_error(tmp_path, labels, terms, expect):
    data = _mini_with(tmp_path, {"glossary.yaml": {"labels": labels, "terms": terms}})
    errors = []
    glossary = read_glossary(data / ZH, data, ("Stable", "Beta"), errors)
    if expect is None:
        assert errors == [] and glossary.avoided == {"废弃": ("弃用", "deprecation")} and glossary.glosses == {"Beta": "测试版"}
    else:
        assert len(errors) == 1 and expect in errors[0].message, errors
        assert str(errors[0]).startswith("data/translations/zh/glossary.yaml:")


def test_an_unknown_language_folder_is_refused(tmp_path, mini_atlas):
    data = _mini_with(tmp_path, {})
    (data / "translations" / "xx").mkdir(parents=True)
    with pytest.raises(DataErrors, match=r"no edition of the site is in 'xx'"):
        translated_edition(load_atlas(data), data, "xx")


def test_make_check_lists_a_stale_translation_after_an_english_edit(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(REAL_DATA, data)
    release = data / "releases" / "1.10.yaml"
    text = release.read_text(encoding="utf-8")
    release.write_text(text.replace("PyTorch 1.10 concentrates on", "PyTorch 1.10 focuses on", 1), encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "macros.check", str(data)], cwd=PROJECT_DIR, capture_output=True, text=True)
    assert result.returncode == 1
    assert "data/translations/zh/releases/1.10.yaml: summary: stale" in result.stderr
    assert "Traceback" not in result.stderr


def test_interface_text_without_a_translation_reads_in_english_and_is_reported(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(REAL_DATA, data)
    catalog = data / ZH / "interface" / "common.yaml"
    catalog.write_text(catalog.read_text(encoding="utf-8").replace("Feature matrix: 功能矩阵\n", ""), encoding="utf-8")
    site = generate_checked(data, site_url="/", check_published=False)
    chinese = site.editions["zh"]
    assert chinese.unknown_words == {"Feature matrix"}
    assert chinese.problems() == ["no translation of the interface text 'Feature matrix' (data/translations/zh/interface/)"]
    assert {"Feature matrix": "zh/matrix.md"} in site.nav[-1]["中文"][3]["跨版本视图"]
    result = subprocess.run([sys.executable, "-m", "macros.check", str(data)], cwd=PROJECT_DIR, capture_output=True, text=True)
    assert result.returncode == 1 and "1 interface texts without a zh translation:\n  'Feature matrix'" in result.stderr


@pytest.mark.parametrize(
    ("english", "translated", "expect"),
    [
        ("Release facts", "版本概况", None),
        ("%(n)s features", "%(n)s 个功能", None),
        ("%(n)s features", "若干功能", "the same value slots"),
        ("Release facts", "<b>版本概况</b>", "the same HTML tags"),
        ('<span class="atlas-moved">changed stage</span>', "<span>阶段变化</span>", "the same HTML tags"),
        ("See [the notes](https://example.org/a)", "见[说明](https://example.org/b)", "lacks `https://example.org/a`"),
        ("{n} releases run", "{count} 个版本可运行", "the same value slots"),
        ("%(share)s of the texts (100%%)", "%(share)s 的文字（100%%）", None),
        ("%(share)s of the texts", "%(share)s 的文字（100%）", "a percent sign outside a value slot must be written %%"),
        ("Release facts", "版本概况 %s", "a percent sign outside a value slot must be written %%"),
        ("Release facts", "版本\n\n概况", "breaks a line where the English has none"),
    ],
)
def test_an_interface_translation_keeps_the_markup_and_slots_of_its_english(english, translated, expect):
    problem = interface_problem(english, translated)
    assert (problem is None) if expect is None else (expect in problem), problem


def test_every_text_the_scripts_show_has_a_chinese_translation_and_every_translation_a_use():
    """The scripts (lookup, resolver, filters) pass each interface text to atlas.text as a literal; the Chinese pages
    get them from interface/scripts.yaml, where a missing one would show in English and an unused one rot."""
    shown = {
        json.loads(f'"{literal}"')
        for script in (PROJECT_DIR / "docs" / "assets").glob("*.js")
        for literal in re.findall(r'atlas\.text\(\s*"((?:[^"\\]|\\.)*)"', script.read_text(encoding="utf-8"))
    }
    catalog = yaml.safe_load((REAL_DATA / ZH / "interface" / "scripts.yaml").read_text(encoding="utf-8"))
    assert len(shown) > 70 and "Upgrading from PyTorch {from} to {to}: " in shown
    assert (sorted(shown - set(catalog)), sorted(set(catalog) - shown)) == ([], [])


def test_an_interface_text_without_a_translation_is_recorded_by_its_edition(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(REAL_DATA, data)
    catalog = data / ZH / "interface" / "common.yaml"
    catalog.write_text(catalog.read_text(encoding="utf-8").replace("Feature matrix: 功能矩阵\n", ""), encoding="utf-8")
    site = generate_checked(data, site_url="/", check_published=False)
    assert site.editions["zh"].unknown_words == {"Feature matrix"}
    assert site.editions["en"].unknown_words == set()
