"""The macros that hand-written pages call, in a real --strict build of the mini data set."""

from __future__ import annotations

import html
import re

from macros.views.indexes import build_lifecycles
from tests.support.site import build_site, copy_mini_data, copy_site_sources

DEMO_PAGE = """---
render_macros: true
---
# Live data

Newest {{ latest_release() }}, oldest {{ oldest_release() }}, {{ count("releases") }} releases,
{{ count("features") }} features, {{ count("changes") }} changes, {{ count("lifecycles") }} followed.

Alpha is {{ feature_stage("alpha") }}.

{{ feature_badge("alpha") }}
"""


def _build(tmp_path, page: str):
    project = copy_site_sources(tmp_path / "src", with_data=False)
    copy_mini_data(project / "data")
    (project / "docs" / "live.md").write_text(page, encoding="utf-8")
    return build_site(tmp_path / "out", "http://127.0.0.1/atlas/", project=project), tmp_path / "out"


def test_macros_cite_the_data(tmp_path, mini_atlas):
    result, out = _build(tmp_path, DEMO_PAGE)
    assert result.returncode == 0, result.stdout + result.stderr
    page = (out / "live/index.html").read_text(encoding="utf-8")
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", "", page)).split())
    features = sum(len(r.features) for r in mini_atlas.releases)
    changes = sum(len(r.changes) for r in mini_atlas.releases)
    followed = sum(lc.has_history for lc in build_lifecycles(mini_atlas).values())
    assert (features, changes, followed) == (7, 3, 3)
    assert "Newest 2.10, oldest 2.0, 3 releases, 7 features, 3 changes, 3 followed." in text
    assert "Alpha is Stable in 2.10." in text
    assert 'class="atlas-stage atlas-stage--stable">Stable</span> in 2.10' in page
    assert '<a href="../features/alpha/"><img alt="Alpha" src="../features/alpha/badge.svg"' in page


def test_an_unknown_feature_stops_the_build_with_its_name(tmp_path):
    result, _ = _build(tmp_path, '---\nrender_macros: true\n---\n{{ feature_stage("no-such-feature") }}\n')
    assert result.returncode != 0
    assert "'no-such-feature' is not the id of any feature" in result.stdout + result.stderr
