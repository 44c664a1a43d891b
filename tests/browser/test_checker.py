"""The checker page in Chromium: pasted code gets the releases that have every torch name and keyword argument it uses,
by the same rules as torch_needs.py (the same answers, to the byte, on the shared cases and every code block of the
atlas); hostile pastes are answered as text; the index loads only when the form is used."""

from __future__ import annotations

import json

import pytest

from macros.data.loading import load_atlas
from tests.browser.conftest import PHONE, sideways_overflow
from tests.conftest import REAL_DATA
from tests.unit.test_torch_needs import CASES, load_script, summary

pytestmark = pytest.mark.browser

PAGE = "reference/needs/"
ANSWER = ".atlas-checker-answer"
CODE_BLOCKS = [block.code for release in load_atlas(REAL_DATA).releases for block in release.code_blocks() if block.language == "python"]


def _check(visit, code: str) -> str:
    """Put `code` in the form as a paste would, submit it, and give the answer's text."""
    page = visit.page
    page.evaluate("code => { document.querySelector('#atlas-checker-code').value = code; }", code)
    page.click(".atlas-checker button")
    page.wait_for_selector(f"{ANSWER} p", timeout=60_000)
    page.wait_for_function("() => !document.querySelector('.atlas-checker-answer').hasAttribute('aria-busy')")
    return page.inner_text(ANSWER)


def test_the_page_and_the_command_line_give_the_same_answers(visit, built_site):
    """Every shared case and every code block of the atlas, answered by the page's rules and by torch_needs.py from the
    same published index, give the same JSON."""
    needs = load_script()
    index_file = built_site.files / "api" / "api-index.json"
    index = needs.load_index(str(index_file))
    visit.open(PAGE)
    texts = [case["code"] for case in CASES] + CODE_BLOCKS
    assert len(CODE_BLOCKS) > 100
    in_page = visit.page.evaluate(
        """async texts => {
             const index = await (await fetch('../../api/api-index.json')).json();
             return texts.map(text => atlas.torchNeeds(index, [['', text]]));
           }""",
        texts,
    )
    for text, answer in zip(texts, in_page, strict=True):
        assert answer == json.loads(json.dumps(needs.answer(index, [("", text)]))), text
    by_case = {case["name"]: summary(answer) for case, answer in zip(CASES, in_page, strict=False)}
    assert by_case == {
        case["name"]: {k: case[k] for k in ("oldest", "newest", "sets_oldest", "sets_newest", "unresolved")} for case in CASES
    }


def test_a_paste_gets_its_bounds_with_the_uses_that_set_them_and_their_entries(visit):
    visit.open(PAGE)
    text = _check(visit, CASES[0]["code"])
    assert text.startswith("PyTorch 2.0 or newer has every torch name and keyword argument this code uses")
    assert "Why not older: these came in PyTorch 2.0." in text
    assert "torch.nn.functional.scaled_dot_product_attention — since 2.0 (line 7)" in text
    link = visit.page.locator(f"{ANSWER} a", has_text="torch.nn.functional.scaled_dot_product_attention").first
    assert link.get_attribute("href") == "../../reference/torch.nn.functional/#scaled_dot_product_attention"
    link.click()
    visit.page.wait_for_url("**/reference/torch.nn.functional/#scaled_dot_product_attention")
    visit.page.locator("#scaled_dot_product_attention").wait_for(state="attached")  # the theme swaps the page in after the address
    assert visit.page.locator("#scaled_dot_product_attention").count() == 1


def test_a_removed_name_gives_the_newest_and_what_is_unchecked_is_listed(visit):
    visit.open(PAGE)
    removed = _check(visit, "import torch\nx, lu = torch.solve(b, A)\n")
    assert removed.startswith("PyTorch 1.1 to 1.11 has every torch name")
    assert "Why not newer: these are gone after PyTorch 1.11." in removed
    unchecked = _check(visit, next(case["code"] for case in CASES if case["name"] == "what cannot be checked is listed"))
    assert "Not checked (4)" in unchecked
    assert "line 3: getattr on torch: a name chosen at run time" in unchecked
    assert "line 5: torch.no_such_name: the index has no such name" in unchecked


def test_the_index_loads_only_when_the_form_is_used(visit):
    visit.open(PAGE)
    visit.settle()
    assert not [url for url in visit.requests if url.endswith("/api-index.json")]
    visit.page.focus("#atlas-checker-code")
    visit.page.wait_for_function("() => performance.getEntriesByType('resource').some(e => e.name.endsWith('/api-index.json'))")


@pytest.mark.timeout(300)
def test_hostile_pastes_are_answered_as_text(visit):
    visit.open(PAGE)
    script = "</textarea><script>window.pwned = 1</script><img src=x onerror='window.pwned = 1'>\x00"
    text = _check(visit, script + "\nimport torch\ntorch.zeros(1)\n")
    assert text.startswith("PyTorch 1.0 or newer")
    assert visit.page.evaluate("() => window.pwned") is None
    assert visit.page.locator(f"{ANSWER} script, {ANSWER} img").count() == 0
    assert "PyTorch 1.0 or newer" in _check(visit, "torch.zeros(" * 100_000 + ")" * 100_000 + "\n" + "[" * 100_000)
    big = _check(visit, "import torch.nn.functional as F\nF.scaled_dot_product_attention(q, k, v)\n" * 140_000)  # 10 MB
    assert big.startswith("PyTorch 2.0 or newer")
    assert "(line 2, 4, 6, 8, 10, …)" in big  # where the uses that set the bound are, the first five
    assert visit.console_errors == []


def test_a_file_opened_is_checked_in_the_page(visit, tmp_path):
    code = tmp_path / "train.py"
    code.write_text("import torch\nstate = torch.load('m.pt', weights_only=True)\n", encoding="utf-8")
    visit.open(PAGE)
    visit.page.set_input_files("#atlas-checker-file", str(code))
    visit.page.wait_for_selector(f"{ANSWER} p")
    assert visit.page.input_value("#atlas-checker-code").startswith("import torch")
    assert visit.page.inner_text(ANSWER).startswith("PyTorch 1.13 or newer")


def test_the_chinese_page_answers_in_chinese_on_a_phone(new_visit):
    tab = new_visit(**PHONE)
    tab.open("zh/" + PAGE)
    text = _check(tab, CASES[0]["code"])
    assert text.startswith("PyTorch 2.0 或更新版本包含这段代码用到的全部 torch 名称和关键字参数（6 个名称和关键字参数，共使用 6 次）。")
    assert sideways_overflow(tab.page) <= 0


def test_the_home_page_and_every_reference_page_lead_to_the_checker(visit):
    leads = "() => [...document.querySelectorAll('article a')].filter(a => a.href.endsWith('/reference/needs/')).map(a => a.getBoundingClientRect().top)"
    for path in ("reference/", "reference/torch.nn/", "reference/modules/", "reference/releases/2.1/", "zh/reference/torch.nn/"):
        visit.open(path)
        assert visit.page.evaluate(leads), path
    visit.open("")
    assert min(visit.page.evaluate(leads)) < 900  # on the first screen
