"""The Chinese edition as a reader meets it: the language switch keeps page and anchor, Chinese search finds words inside
Chinese sentences, the interface speaks Chinese (that every page fits a phone: test_accessibility.py)."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import in_view


@pytest.mark.parametrize(
    ("start", "target"),
    [
        ("releases/1.10/#cuda-graphs", "zh/releases/1.10/#cuda-graphs"),
        ("zh/releases/1.10/#cuda-graphs", "releases/1.10/#cuda-graphs"),
        ("matrix/?topic=fft", "zh/matrix/?topic=fft"),
        ("zh/features/torch-compile/", "features/torch-compile/"),
    ],
)
def test_the_language_switch_keeps_the_page_its_query_and_its_anchor(visit, start, target):
    visit.open(start)
    visit.settle()
    assert visit.page.locator("[data-atlas-switch]").count() == 1
    visit.page.locator("[data-atlas-switch]").first.click()
    visit.page.wait_for_url(visit.base_url + target)
    language = "zh" if target.startswith("zh/") else "en"
    assert visit.page.get_attribute("html", "lang").startswith(language)
    if "#" in target:
        assert in_view(visit.page, target.split("#")[1])
    assert not visit.console_errors


def test_a_chinese_page_speaks_chinese_and_keeps_the_official_labels(visit):
    visit.open("zh/releases/1.10/")
    assert visit.page.get_attribute("html", "lang") == "zh"
    nav = visit.page.locator("nav.md-nav--primary").inner_text()
    assert "版本" in nav and "专题" in nav and "Feature matrix" not in nav
    assert visit.page.locator(".md-search__input").get_attribute("placeholder") == "搜索"
    beta = visit.page.locator("#cuda-graphs ~ p .atlas-stage").first
    assert beta.inner_text() == "Beta"
    assert beta.get_attribute("title").startswith("测试版：")
    visit.settle()
    visit.page.locator(".md-header .md-logo").click()
    visit.page.wait_for_url(visit.base_url + "zh/")


def test_an_english_page_keeps_its_english_navigation(visit):
    visit.open("releases/1.10/")
    assert visit.page.get_attribute("html", "lang") == "en"
    nav = visit.page.locator("nav.md-nav--primary").inner_text()
    assert "Feature matrix" in nav and "功能矩阵" not in nav and "中文" not in nav


def test_chinese_search_finds_a_word_inside_a_chinese_sentence_and_stays_in_the_edition(visit):
    visit.open("zh/")
    hrefs = visit.search("混合精度")
    assert hrefs and all("/zh/" in href for href in hrefs), hrefs
    assert any(re.search(r"/zh/(releases|features|topics)/", href) for href in hrefs)


def test_chinese_search_still_finds_api_names(visit):
    visit.open("zh/")
    hrefs = visit.search("torch.compile")
    assert urlsplit(hrefs[0]).path.endswith("/zh/features/torch-compile/"), hrefs[:3]


def test_english_search_shows_english_pages_only(visit):
    visit.open("")
    hrefs = visit.search("torch.compile")
    assert hrefs and not any("/zh/" in href for href in hrefs)


def _lookup(visit, question: str, first_words: str) -> list[tuple[str, str]]:
    """Ask the lookup; once its first answer begins with `first_words`, each answer's text and the address of its link."""
    visit.page.fill("#atlas-lookup-input", question)
    visit.page.press("#atlas-lookup-input", "Enter")
    answers = visit.page.locator(".atlas-lookup-answer li")
    expect(answers.first).to_contain_text(first_words, timeout=10000)
    return [(item.inner_text(), item.locator("a").first.evaluate("a => a.href")) for item in answers.all()]


def test_the_lookup_answers_in_chinese_and_takes_chinese_feature_names(visit):
    visit.open("zh/")
    answers = _lookup(visit, "torch.compile", "torch.compile")
    feature, api = answers[0], answers[1]
    assert feature[0].startswith("torch.compile（功能）：自 PyTorch 2.0 起；"), answers  # then its latest stage, in Chinese
    assert feature[1] == visit.base_url + "zh/features/torch-compile/"
    assert api[0].splitlines()[0] == "torch.compile（函数）：自 PyTorch 2.0 起可用", answers
    assert api[1] == visit.base_url + "zh/reference/torch/#compile"
    answers = _lookup(visit, "异步分布式检查点", "异步分布式检查点")  # the feature's Chinese name, as data/translations/zh gives it
    assert answers[0][0].startswith("异步分布式检查点（功能）：自 PyTorch 2.3 起；"), answers
    assert answers[0][1] == visit.base_url + "zh/features/async-checkpointing/"


def test_the_lookup_answers_two_releases_in_chinese_with_the_chinese_upgrade_page(visit):
    visit.open("zh/")
    visit.page.fill("#atlas-lookup-input", "从 1.13 到 2.6")
    visit.page.press("#atlas-lookup-input", "Enter")
    answer = visit.page.locator(".atlas-lookup-answer li").first
    answer.wait_for(timeout=10000)
    assert answer.inner_text().startswith("从 PyTorch 1.13 升级到 2.6：仅看不兼容变更")
    link = answer.locator("a").first.evaluate("a => a.href")
    assert link == visit.base_url + "zh/upgrade/?from=1.13&to=2.6&kind=breaking"


def test_the_switch_leads_to_the_page_being_read(visit):
    visit.open("releases/1.10/")
    visit.settle()
    visit.page.locator("nav.md-nav--primary a[href$='matrix/']").first.click()
    visit.page.wait_for_url(visit.base_url + "matrix/")
    visit.page.locator("[data-atlas-switch]").click()
    visit.page.wait_for_url(visit.base_url + "zh/matrix/")
