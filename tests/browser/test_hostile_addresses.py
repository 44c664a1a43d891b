"""Hostile addresses in Chromium: every page that reads its address (the query or the anchor) is opened with values no
control offers — names every object inherits (`__proto__`, `hasOwnProperty`), malformed percent-encoding (`%`,
`%E0%A4%A`), markup — and must load as it does on a clean address: no script error, nothing of the address turned into
markup, the unknown values ignored and the page's controls still working."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.conftest import Visit

pytestmark = pytest.mark.browser

MARKUP = "<img src=x onerror=window.pwned=1>"
# Written into the address as they are: `%` and `%E0%A4%A` are not valid percent-encoding.
HOSTILE_VALUES = ["__proto__", "%E0%A4%A", MARKUP]
# Sort orders that are properties of every object: a lookup in a plain object finds them.
INHERITED_SORTS = ["__proto__", "hasOwnProperty", "-valueOf"]
HOSTILE_ANCHORS = ["#%", "#%E0%A4%A", "#" + MARKUP]

MATRIX_ROWS = "#matrix-table tbody tr:not([hidden])"
SHOWN_ENTRIES = "h3[data-kind]:not(.atlas-off)"
LOOKUP_ANSWER = ".atlas-lookup-answer"
CLEAN: dict[str, object] = {}  # what a page does on a clean address, measured once per run


def _query(names: list[str], value: str) -> str:
    return "?" + "&".join(f"{name}={value}" for name in names)


def _rows(visit: Visit, selector: str) -> list[str]:
    """The names of the rows a grid shows, in their order."""
    return visit.page.eval_on_selector_all(selector, "rows => rows.map(r => r.cells[0].textContent.trim())")


def _arrive(visit: Visit, address: str) -> None:
    """Open `address`, let its scripts and requests finish, and check that nothing went wrong: no uncaught exception or
    console error, and nothing of the address run as markup."""
    visit.open(address)
    visit.settle()
    _unharmed(visit)


def _unharmed(visit: Visit) -> None:
    assert not visit.console_errors, visit.console_errors
    assert visit.page.evaluate("typeof window.pwned") == "undefined"
    assert visit.page.locator('img[src="x"]').count() == 0


def _clean(new_visit, address: str, at_work):
    """What `at_work(visit)` gives on `address` opened in a fresh visit, measured the first time it is asked for."""
    if address not in CLEAN:
        clean = new_visit()
        clean.open(address)
        CLEAN[address] = at_work(clean)
    return CLEAN[address]


# The matrix and the topic grids: ?sort= (and the matrix's filters) --------------------------------------------------


def _matrix_at_work(visit: Visit) -> dict[str, list[str]]:
    """The matrix's rows as loaded, with the name filter emptied, then narrowed to one topic, then sorted by first release."""
    page = visit.page
    page.fill("#matrix-filters input[name=text]", "")
    loaded = _rows(visit, MATRIX_ROWS)
    page.select_option("#matrix-filters select[name=topic]", "fft")
    narrowed = _rows(visit, MATRIX_ROWS)
    page.locator("#matrix-table th[data-sort=since] button").click()
    return {"loaded": loaded, "narrowed": narrowed, "sorted": _rows(visit, MATRIX_ROWS)}


def _check_matrix(visit: Visit, new_visit, path: str) -> None:
    assert visit.page.locator("#matrix-filters").is_visible()  # the filters are set up
    for name in ("topic", "stage", "component"):  # a value no option has is ignored
        assert visit.page.input_value(f"#matrix-filters select[name={name}]") == ""
    assert visit.page.locator("#matrix-table th[aria-sort]").count() == 0  # an unknown order is ignored

    expected = _clean(new_visit, path, _matrix_at_work)
    at_work = _matrix_at_work(visit)
    assert at_work == expected
    assert len(expected["narrowed"]) < len(expected["loaded"])  # the topic filter did narrow the rows
    assert expected["sorted"] != expected["narrowed"]  # and the sort did reorder them
    assert "sort=since" in visit.page.url
    _unharmed(visit)


MATRIX_ADDRESSES = [_query(["sort"], sort) for sort in INHERITED_SORTS] + [
    _query(["sort", "text", "topic", "stage", "component"], value) for value in HOSTILE_VALUES
]


@pytest.mark.parametrize(("path", "query"), [("matrix/", query) for query in MATRIX_ADDRESSES] + [("zh/matrix/", "?sort=__proto__")])
def test_the_matrix_ignores_a_hostile_query_and_its_filters_still_work(visit, new_visit, path, query):
    _arrive(visit, path + query)
    _check_matrix(visit, new_visit, path)


@pytest.mark.parametrize("path", ["matrix/"])
@pytest.mark.parametrize("anchor", HOSTILE_ANCHORS)
def test_the_matrix_ignores_a_hostile_anchor_and_its_filters_still_work(visit, new_visit, path, anchor):
    _arrive(visit, path + anchor)
    _check_matrix(visit, new_visit, path)


TOPIC_GRID = "#grid-distributed"


def _grid_at_work(visit: Visit) -> dict[str, list[str]]:
    loaded = _rows(visit, f"{TOPIC_GRID} tbody tr")
    visit.page.locator(f"{TOPIC_GRID} th[data-sort=since] button").click()
    since = _rows(visit, f"{TOPIC_GRID} tbody tr")
    visit.page.locator(f"{TOPIC_GRID} th[data-sort=since] button").click()
    return {"loaded": loaded, "since": since, "newest first": _rows(visit, f"{TOPIC_GRID} tbody tr")}


GRID_ADDRESSES = [_query(["sort"], value) for value in dict.fromkeys(INHERITED_SORTS + HOSTILE_VALUES)] + HOSTILE_ANCHORS


@pytest.mark.parametrize("address", GRID_ADDRESSES)
def test_a_topic_grid_ignores_a_hostile_address_and_still_sorts(visit, new_visit, address):
    path = "topics/distributed/"
    _arrive(visit, path + address)
    assert visit.page.locator(f"{TOPIC_GRID} th[aria-sort]").count() == 0

    expected = _clean(new_visit, path, _grid_at_work)
    assert _grid_at_work(visit) == expected
    assert expected["since"] != expected["loaded"] and expected["newest first"] != expected["since"]
    assert visit.page.locator(f"{TOPIC_GRID} th[data-sort=since]").get_attribute("aria-sort") == "descending"
    _unharmed(visit)


# A release page: ?topic=, ?kind=, and an anchor that the filter would hide ------------------------------------------


def _release_at_work(visit: Visit) -> dict[str, object]:
    page = visit.page
    loaded = page.locator("#release-filters output").inner_text()
    page.select_option("#release-filters select[name=kind]", "")
    page.select_option("#release-filters select[name=topic]", "mps")
    return {"loaded": loaded, "mps": sorted(page.eval_on_selector_all(SHOWN_ENTRIES, "hs => hs.map(h => h.id)"))}


def _check_release(visit: Visit, new_visit, path: str, clean_query: str) -> None:
    assert visit.page.locator("#release-filters").is_visible()

    expected = _clean(new_visit, path + clean_query, _release_at_work)
    assert _release_at_work(visit) == expected
    assert 0 < len(expected["mps"]) < visit.page.locator("h3[data-kind]").count()
    _unharmed(visit)


@pytest.mark.parametrize("value", HOSTILE_VALUES)
def test_a_release_page_ignores_a_hostile_query_and_its_filters_still_work(visit, new_visit, value):
    _arrive(visit, "releases/2.14/" + _query(["topic", "kind"], value))
    assert visit.page.input_value("#release-filters select[name=topic]") == ""
    assert visit.page.input_value("#release-filters select[name=kind]") == ""
    _check_release(visit, new_visit, "releases/2.14/", "")


@pytest.mark.parametrize("anchor", HOSTILE_ANCHORS)
def test_a_narrowed_release_page_ignores_a_hostile_anchor(visit, new_visit, anchor):
    """With a filter in the address, the page looks up the anchor's entry (to show the whole page if the filter hides it)."""
    _arrive(visit, "releases/2.14/?topic=mps" + anchor)
    assert visit.page.input_value("#release-filters select[name=topic]") == "mps"  # no entry is named: the filter stays
    _check_release(visit, new_visit, "releases/2.14/", "?topic=mps")


# The upgrade page: ?from=, ?to=, ?kind=, ?topic= --------------------------------------------------------------------

UPGRADE_FIELDS = ["from", "to", "kind", "topic"]


def _upgrade_state(visit: Visit) -> dict[str, object]:
    page = visit.page
    return {
        "values": [page.input_value(f"#upgrade-form select[name={name}]") for name in UPGRADE_FIELDS],
        "options": [page.locator(f"#upgrade-form select[name={name}] option").count() for name in UPGRADE_FIELDS],
        "summary": page.locator("#upgrade-form output").inner_text(),
        "steps": page.locator(".atlas-step:not([hidden])").count(),
    }


def _upgrade_at_work(visit: Visit) -> dict[str, object]:
    loaded = _upgrade_state(visit)
    visit.page.select_option("#upgrade-form select[name=kind]", "breaking")
    return {"loaded": loaded, "breaking": _upgrade_state(visit)}


@pytest.mark.parametrize(
    "address",
    [_query(UPGRADE_FIELDS, value) for value in HOSTILE_VALUES]
    + ["?from=toString&to=constructor", "?from=hasOwnProperty&to=valueOf"]
    + HOSTILE_ANCHORS,
)
def test_the_upgrade_page_ignores_a_hostile_address_and_keeps_its_defaults(visit, new_visit, address):
    _arrive(visit, "upgrade/" + address)

    expected = _clean(new_visit, "upgrade/", _upgrade_at_work)
    assert _upgrade_at_work(visit) == expected
    assert expected["breaking"]["summary"] != expected["loaded"]["summary"]  # the kind filter did narrow the path
    _unharmed(visit)


# The API lookup (the reference's index and the home page): ?name= ------------------------------------------------------


def _answer(visit: Visit) -> str:
    """The lookup's answer, once written (a script error that prevents it fails here, with the error)."""
    try:
        visit.page.wait_for_selector(f"{LOOKUP_ANSWER} li, {LOOKUP_ANSWER} p", timeout=15000)
    except PlaywrightTimeout:
        raise AssertionError(f"no answer was written; errors: {visit.console_errors}") from None
    return visit.page.inner_text(LOOKUP_ANSWER)


def _ask(visit: Visit, question: str) -> str:
    visit.page.fill("#atlas-lookup-input", question)
    visit.page.press("#atlas-lookup-input", "Enter")
    # the address records the question once the answer is written
    visit.page.wait_for_function("q => new URLSearchParams(location.search).get('name') === q", arg=question)
    return visit.page.inner_text(LOOKUP_ANSWER)


UNKNOWN_NAME = "No public name of torch matches “{asked}”"
UNKNOWN_PARAMETER = "torch.load (function): no change to parameter {} was measured"
LOOKUP_QUESTIONS = [(value, None) for value in HOSTILE_VALUES] + [  # None: a name the index does not have
    ("__proto__.hasOwnProperty", None),  # a "module" every object has, and a "name" in it
    ("constructor.name", None),
    ("toString.length", None),
    ("torch.__proto__", None),
    ("torch.load(f, __proto__=1)", UNKNOWN_PARAMETER.format("__proto__")),  # a parameter every object has
    ("torch.load constructor", UNKNOWN_PARAMETER.format("constructor")),
]
COMPILE = "torch.compile (function): available since PyTorch 2.0"


@pytest.mark.parametrize(("question", "expected"), LOOKUP_QUESTIONS)
def test_the_lookup_answers_a_hostile_question_in_the_address_as_text(visit, question, expected):
    _arrive(visit, "reference/?name=" + question)
    answer = _answer(visit)
    _unharmed(visit)
    assert visit.page.locator(f"{LOOKUP_ANSWER} img, {LOOKUP_ANSWER} script").count() == 0
    asked = visit.page.input_value("#atlas-lookup-input")  # the question as the address decodes it
    assert answer.startswith(expected or UNKNOWN_NAME.format(asked=asked)), answer
    assert COMPILE in _ask(visit, "torch.compile")
    _unharmed(visit)


@pytest.mark.parametrize("value", HOSTILE_VALUES)
def test_the_home_pages_lookup_answers_a_hostile_question_in_the_address_as_text(visit, value):
    _arrive(visit, "?name=" + value)
    assert _answer(visit).startswith(UNKNOWN_NAME.format(asked=visit.page.input_value("#atlas-lookup-input")))
    assert visit.page.locator(f"{LOOKUP_ANSWER} img, {LOOKUP_ANSWER} script").count() == 0
    assert COMPILE in _ask(visit, "torch.compile")
    _unharmed(visit)


@pytest.mark.parametrize("path", ["", "reference/"])
@pytest.mark.parametrize("anchor", HOSTILE_ANCHORS)
def test_the_lookup_answers_the_question_of_an_address_with_a_hostile_anchor(visit, path, anchor):
    _arrive(visit, path + "?name=torch.compile" + anchor)
    assert COMPILE in _answer(visit)
    assert "torch.load (function): available since PyTorch" in _ask(visit, "torch.load")
    _unharmed(visit)


# The resolver: ?gpu=, ?os=, ?python=, ?driver= ------------------------------------------------------------------------

RESOLVER_FIELDS = ["gpu", "os", "python", "driver"]


def _resolve(visit: Visit) -> str:
    page = visit.page
    page.fill("#atlas-resolver-gpu", "GeForce RTX 4090")
    page.select_option("#atlas-resolver-os", "linux-x86_64")
    page.select_option("#atlas-resolver-python", "3.11")
    page.fill("#atlas-resolver-driver", "")
    page.click(".atlas-resolver button")
    page.wait_for_function("() => new URLSearchParams(location.search).get('gpu') === 'GeForce RTX 4090'")
    return page.inner_text(".atlas-resolver-answer")


@pytest.mark.parametrize("address", [_query(RESOLVER_FIELDS, value) for value in HOSTILE_VALUES] + HOSTILE_ANCHORS)
def test_the_resolver_ignores_a_hostile_address_and_still_answers(visit, new_visit, address):
    _arrive(visit, "will-it-run/" + address)
    page = visit.page
    # a system or a Python no option offers is ignored; a GPU or a driver the resolver cannot read is asked again, as text
    assert page.input_value("#atlas-resolver-os") == page.eval_on_selector("#atlas-resolver-os", "s => s.options[0].value")
    assert page.input_value("#atlas-resolver-python") == ""
    if address.startswith("?"):
        assert "compute capability" in page.inner_text(".atlas-resolver-answer")
        assert not page.locator(".atlas-resolver-releases").count()
    assert page.locator(".atlas-resolver-answer img, .atlas-resolver-answer script").count() == 0

    expected = _clean(new_visit, "will-it-run/", _resolve)
    assert _resolve(visit) == expected
    assert expected.startswith("Newest release that runs:")
    _unharmed(visit)


# Pages that read only their anchor, and the search's ?q= and ?h= on any page -------------------------------------------


@pytest.mark.parametrize("path", ["", "features/torch-compile/", "releases/2.14/", "reference/torch/"])
@pytest.mark.parametrize("anchor", HOSTILE_ANCHORS)
def test_a_page_ignores_a_hostile_anchor(visit, path, anchor):
    _arrive(visit, path + anchor)
    assert visit.page.locator(".atlas-target").count() == 0  # the anchor names no element
    assert visit.page.locator("article h1").first.is_visible()


def test_a_real_anchor_is_still_marked_after_a_hostile_one(visit):
    _arrive(visit, "releases/1.10/#%")
    visit.open("releases/1.10/#cuda-graphs")
    visit.page.wait_for_selector("#cuda-graphs.atlas-target", state="attached")
    _unharmed(visit)


@pytest.mark.parametrize("value", HOSTILE_VALUES)
def test_the_search_parameters_of_a_hostile_address_are_text(visit, value):
    """?q= opens the theme's search with the query, ?h= highlights it on the page: the site's script that holds the
    search index back reads both, on every page."""
    _arrive(visit, _query(["q", "h"], value))
    assert visit.page.locator("article h1").first.is_visible()


@pytest.mark.parametrize("anchor", HOSTILE_ANCHORS)
def test_the_language_switch_carries_a_hostile_address_as_text(visit, anchor):
    """The switch adds the reader's query and anchor to the other edition's address: they stay parts of that address."""
    _arrive(visit, "releases/1.10/" + _query(["topic"], MARKUP) + anchor)
    visit.page.locator("[data-atlas-switch]").click()
    visit.page.wait_for_url(re.compile(r"/zh/releases/1\.10/\?topic="))
    _unharmed(visit)
    assert visit.page.locator("article h1").first.is_visible()
