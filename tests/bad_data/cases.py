"""Malformed data a contributor could write, each with the one error it must produce.

Every case starts from the mini fixture data set (tests/fixtures/mini) copied to `data/`, then
rewrites one file. `expect` is the start of the single error line the build must print.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Case:
    """One malformed data set and the error it must produce."""

    name: str
    expect: str
    writes: dict[str, bytes] = field(default_factory=dict)
    edits: tuple[tuple[str, str, str], ...] = ()
    removes: tuple[str, ...] = ()
    setup: Callable[[Path], None] | None = None  # anything else done to the data folder (links, folders)

    def apply(self, data_dir: Path) -> None:
        """Turn a copy of the mini data set into this malformed one."""
        for target, old, new in self.edits:
            path = data_dir / target
            text = path.read_text(encoding="utf-8")
            assert old in text, f"{self.name}: {old!r} not in {target}"
            path.write_text(text.replace(old, new, 1), encoding="utf-8")
        for target, content in self.writes.items():
            (data_dir / target).write_bytes(content)
        for target in self.removes:
            (data_dir / target).unlink()
        if self.setup:
            self.setup(data_dir)


def _release_file_is_a(kind: str) -> Callable[[Path], None]:
    """Put a folder, or a link to /dev/zero or to a file outside the data folder, where a release file would be."""

    def setup(data_dir: Path) -> None:
        target = data_dir / "releases" / "9.9.yaml"
        if kind == "folder":
            target.mkdir()
        else:
            outside = "/dev/zero" if kind == "device" else str(data_dir.parent / "outside.yaml")
            if kind == "outside":
                (data_dir.parent / "outside.yaml").write_bytes((data_dir / R21).read_bytes().replace(b'"2.1"', b'"9.9"', 1))
            os.symlink(outside, target)

    return setup


def _escaped(field: str, escape: str) -> tuple[tuple[str, str, str], ...]:
    """Rewrite the first feature's summary (or the release title) as a double-quoted YAML string holding an escape."""
    if field == "title":
        return ((R21, "summary: The second fixture release.", f'title: "Title {escape} here"\nsummary: The second fixture release.'),)
    return ((R21, "    summary: Alpha reaches beta.", f'    summary: "Alpha {escape} reaches beta."'),)


R21 = "releases/2.1.yaml"
RECORD = b"features:\n  - id: alpha\n    name: Alpha\n    description: What alpha is.\n"  # data/features.yaml, one record

CASES = [
    Case(
        "yaml-syntax-error",
        "data/releases/2.1.yaml:13: YAML syntax error",
        edits=((R21, "    topics: [cuda]\n    summary: Alpha reaches beta.", "    topics: [cuda\n    summary: Alpha reaches beta."),),
    ),
    Case(
        "tab-indentation",
        "data/releases/2.1.yaml:11: a tab character is used for indentation; YAML needs spaces",
        edits=((R21, "    stability: Beta\n", "\tstability: Beta\n"),),
    ),
    Case(
        "wrong-type",
        "data/releases/2.1.yaml:2: summary: expected text; found a list",
        edits=((R21, "summary: The second fixture release.", "summary: [a, b]"),),
    ),
    Case(
        "missing-required-field",
        "data/releases/2.1.yaml:9: features[0]: the required field 'summary' is missing",
        edits=((R21, "    summary: Alpha reaches beta.\n", ""),),
    ),
    Case(
        "unknown-field-typo",
        "data/releases/2.1.yaml:11: features[0].stabilty: unknown field 'stabilty' (did you mean 'stability'?)",
        edits=((R21, "    stability: Beta\n    topics: [cuda]", "    stabilty: Beta\n    topics: [cuda]"),),
    ),
    Case(
        "unknown-stability",
        "data/releases/2.1.yaml:11: features[0].stability: expected one of Stable, Beta, Prototype, Unlabeled; found 'Stabel'",
        edits=((R21, "    stability: Beta\n    topics: [cuda]", "    stability: Stabel\n    topics: [cuda]"),),
    ),
    Case(
        "label-of-another-era",
        "data/releases/2.1.yaml:11: features[0].stability: expected one of Stable, Beta, Prototype, Unlabeled; found 'Experimental' (PyTorch 2.1 announcements use the scheme 'Stable, Beta and Prototype')",
        edits=((R21, "    stability: Beta\n    topics: [cuda]", "    stability: Experimental\n    topics: [cuda]"),),
    ),
    Case(
        "unknown-topic",
        "data/releases/2.1.yaml:12: features[0].topics[0]: unknown topic 'cuda11'",
        edits=((R21, "topics: [cuda]", "topics: [cuda11]"),),
    ),
    Case(
        "duplicate-feature-id",
        "data/releases/2.1.yaml:15: features[1].id: the id 'alpha' is used twice in this release (first at line 9)",
        edits=((R21, "  - id: beta-thing", "  - id: alpha"),),
    ),
    Case(
        "two-files-for-one-version",
        "data/releases/2.1.yaml: version: version 2.1 is already defined by data/releases/2.1.0.yaml",
        writes={
            "releases/2.1.0.yaml": (Path(__file__).parent.parent / "fixtures/mini/releases/2.1.yaml")
            .read_bytes()
            .replace(b'"2.1"', b'"2.1.0"', 1)
        },
    ),
    Case(
        "unquoted-version",
        "data/releases/2.10.yaml:1: version: expected text; found the number 2.1. Put versions in quotes",
        edits=(("releases/2.10.yaml", 'version: "2.10"', "version: 2.10"),),
    ),
    Case(
        "file-name-disagrees-with-version",
        'data/releases/2.1.yaml:1: version: the file name says 2.1 but the version is "2.2"',
        edits=((R21, 'version: "2.1"', 'version: "2.2"'),),
    ),
    Case(
        "impossible-date",
        "data/releases/2.1.yaml:3: released.date: 2030-02-30 is not a real calendar date",
        edits=((R21, "2030-04-15", "2030-02-30"),),
    ),
    Case(
        "date-in-wrong-form",
        "data/releases/2.1.yaml:3: released.date: expected a date written YYYY-MM-DD; found '15/04/2030'",
        edits=((R21, "2030-04-15", "'15/04/2030'"),),
    ),
    Case("empty-file", "data/releases/2.1.yaml: the file is empty", writes={R21: b"\n  \n"}),
    Case("not-utf8", "data/releases/2.1.yaml:2: not valid UTF-8 (byte 0xe9)", writes={R21: b'version: "2.1"\nsummary: caf\xe9\n'}),
    Case(
        "id-not-kebab-case",
        "data/releases/2.1.yaml:9: features[0].id: expected a kebab-case id",
        edits=((R21, "  - id: alpha", "  - id: Alpha_One"),),
    ),
    Case(
        "source-not-http",
        "data/releases/2.1.yaml:14: features[0].sources[0]: expected an http:// or https:// URL; found 'ftp://example.org/2.1'",
        edits=((R21, "    sources: [https://example.org/2.1]", "    sources: [ftp://example.org/2.1]"),),
    ),
    Case(
        "duplicate-key",
        "data/releases/2.1.yaml:3: summary: the key 'summary' appears twice in the same mapping",
        edits=((R21, "summary: The second fixture release.\n", "summary: The second fixture release.\nsummary: Again.\n"),),
    ),
    Case(
        "setup-not-declared",
        "data/releases/2.1.yaml:29: changes[0].setup: 'tiny-model' is not the id of one of this release's `setups`",
        edits=((R21, "    after: new()\n", "    after: new()\n    setup: tiny-model\n"),),
    ),
    Case(
        "setup-unused",
        "data/releases/2.1.yaml:8: setups[0].id: the setup 'tiny-model' is used by no block of this release; remove it",
        edits=((R21, "features:\n", "setups: [{id: tiny-model, code: 'x = 1'}]\nfeatures:\n"),),
    ),
    Case(
        "block-needs-context",
        "data/releases/2.1.yaml:29: changes[0].requires[0]: expected one of",
        edits=((R21, "    after: new()\n", "    after: new()\n    requires: [context]\n"),),
    ),
    Case(
        "too-many-processes",
        "data/releases/2.1.yaml:29: changes[0].processes: expected a number of at most 4; found 16",
        edits=((R21, "    after: new()\n", "    after: new()\n    processes: 16\n"),),
    ),
    Case(
        "source-not-listed",
        "data/releases/2.1.yaml:14: features[0].sources[0]: the source https://example.org/elsewhere is not listed",
        edits=((R21, "    sources: [https://example.org/2.1]", "    sources: [https://example.org/elsewhere]"),),
    ),
    Case(
        "highlight-of-missing-feature",
        "data/releases/2.1.yaml:6: highlights[0]: 'omega' is not the id of a feature in this release",
        edits=((R21, "sources:\n", "highlights: [omega]\nsources:\n"),),
    ),
    Case(
        "reserved-id",
        "data/releases/2.1.yaml:9: features[0].id: the id 'changes' is reserved",
        edits=((R21, "  - id: alpha", "  - id: changes"),),
    ),
    Case(
        "raw-html-in-text",
        "data/releases/2.1.yaml:13: features[0].summary: raw HTML is not allowed",
        edits=((R21, "summary: Alpha reaches beta.", "summary: Alpha <script>alert(1)</script>"),),
    ),
    Case(
        "slot-marker-in-text",  # a page would show the finished HTML the marker stands for
        "data/releases/2.1.yaml:13: features[0].summary: 'atlas-slot-' is reserved",
        edits=((R21, "summary: Alpha reaches beta.", "summary: Alpha atlas-slot-0123456789abcdef0123456789abcdef"),),
    ),
    Case(
        "javascript-link",
        "data/releases/2.1.yaml:13: features[0].summary: the link target 'javascript:alert(1",
        edits=((R21, "summary: Alpha reaches beta.", "summary: '[see](javascript:alert(1))'"),),
    ),
    Case(
        "count-not-positive",
        "data/releases/2.1.yaml:4: commits.count: expected a number of at least 1; found 0",
        edits=((R21, "python:", "commits: {count: 0, source: https://example.org/2.1}\npython:"),),
    ),
    Case(
        "yml-extension",
        "data/releases/2.1.yml: release files end in .yaml",
        writes={"releases/2.1.yml": b'version: "2.1"\n'},
        removes=(R21,),
    ),
    Case(
        "unquoted-python-version",
        "data/releases/2.1.yaml:4: python.versions[0]: expected text; found the number 3.1",
        edits=((R21, 'versions: ["3.10", "3.11"]', 'versions: [3.10, "3.11"]'),),
    ),
    Case(
        "unknown-change-kind",
        "data/releases/2.1.yaml:23: changes[0].kind: expected one of breaking, deprecation, removal; found 'breaking-change'",
        edits=((R21, "kind: breaking", "kind: breaking-change"),),
    ),
    Case(
        "duplicate-topic",
        "data/topics.yaml:8: topics[2]: the topic id 'cuda' is listed twice",
        edits=(
            (
                "topics.yaml",
                "    intro: Fourier things.\n",
                "    intro: Fourier things.\n  - id: cuda\n    title: Again\n    intro: Twice.\n",
            ),
        ),
    ),
    Case(
        "published-anchor-disappears",
        "data/published.txt:3: /releases/2.1/#alpha was published but would disappear; keep the old id in the feature's `aliases`",
        writes={"published.txt": b"# registry\n/releases/2.1/\n/releases/2.1/#alpha\n"},
        edits=((R21, "  - id: alpha", "  - id: alpha-renamed"),),
    ),
    Case(
        "published-page-disappears",
        "data/published.txt:1: /releases/1.9/ was published but would disappear",
        writes={"published.txt": b"/releases/1.9/\n"},
    ),
    Case(
        "redirect-to-nowhere",
        "data/redirects.yaml:1: the redirect /releases/1.9/ -> /releases/9.9/ points to a page that does not exist",
        writes={"redirects.yaml": b"/releases/1.9/: /releases/9.9/\n"},
    ),
    Case(
        "top-level-not-a-mapping",
        "data/releases/2.1.yaml:1: expected a mapping; found a list",
        writes={R21: b"- version: '2.1'\n"},
    ),
    Case(
        "billion-laughs",
        "data/releases/2.1.yaml:1: YAML anchors and aliases (&name, *name) are not allowed in data files",
        writes={
            R21: b'a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n'
        },
    ),
    Case(
        "alias-inside-real-data",
        "data/releases/2.1.yaml:13: YAML anchors and aliases (&name, *name) are not allowed in data files",
        edits=((R21, "    summary: Alpha reaches beta.", "    summary: &text Alpha reaches beta."),),
    ),
    Case(
        "deep-nesting",
        "data/releases/2.1.yaml:13: the data is nested more than 16 levels deep",
        edits=((R21, "    summary: Alpha reaches beta.", "    summary: " + "[" * 5000 + "]" * 5000),),
    ),
    Case(
        "nul-byte",
        "data/releases/2.1.yaml:13: the control character U+0000 is not allowed in data files",
        edits=((R21, "    summary: Alpha reaches beta.", "    summary: Alpha\x00 reaches beta."),),
    ),
    Case(
        "escape-control-character",
        "data/releases/2.1.yaml:13: the control character U+001B is not allowed in data files",
        edits=((R21, "    summary: Alpha reaches beta.", "    summary: Alpha\x1b[31m reaches beta."),),
    ),
    Case(
        "huge-text",
        "data/releases/2.1.yaml:13: features[0].summary: this text has 60,000 characters; a data field may have at most 50,000",
        edits=((R21, "    summary: Alpha reaches beta.", "    summary: " + "x" * 60000),),
    ),
    Case(
        "topic-id-not-kebab-case",
        "data/topics.yaml:2: topics[0].id: expected a kebab-case id",
        edits=(("topics.yaml", "  - id: cuda", "  - id: CUDA_GPU"),),
    ),
    Case(
        "redirects-not-a-mapping",
        "data/redirects.yaml:1: expected a mapping of old to new page paths",
        writes={"redirects.yaml": b"- /releases/1.9/\n- /releases/2.0/\n"},
    ),
    Case(
        "redirect-not-a-site-path",
        "data/redirects.yaml:2: expected site paths on both sides",
        writes={"redirects.yaml": b"# moved pages\n/releases/1.9/: javascript:alert(1)\n"},
    ),
    Case(
        "redirect-hides-a-live-page",
        "data/redirects.yaml:1: the page /releases/2.1/ still exists; a redirect would hide it",
        writes={"redirects.yaml": b"/releases/2.1/: /releases/2.0/\n"},
    ),
    Case(
        "published-line-counts-comments-and-blanks",
        "data/published.txt:5: /releases/1.9/ was published but would disappear",
        writes={"published.txt": b"# registry\n\n/releases/2.1/\n# older pages\n/releases/1.9/\n"},
    ),
    Case(
        "error-answered-by-an-unknown-page",
        "data/errors.yaml:6: errors[0].answer.page: expected one of will-it-run, reference, platforms; found 'blog'",
        writes={
            "errors.yaml": b'errors:\n  - id: oops\n    message: "RuntimeError: oops"\n    title: Oops\n    cause: It broke.\n'
            b"    answer: {page: blog, text: Read more}\n    remedy: Fix it.\n    sources: [https://pytorch.org/]\n"
        },
    ),
    Case(
        "distinct-names-no-feature",
        "data/distinct.yaml:3: distinct[0].ids[1]: 'no-such-feature' is not the id of any feature",
        writes={"distinct.yaml": b"distinct:\n  - ids: [alpha,\n      no-such-feature]\n    reason: Looks alike.\n"},
    ),
    Case(
        "platform-source-moves",
        "data/releases/2.1.yaml:4: python.source: https://github.com/pytorch/pytorch/blob/main/RELEASE.md changes over time",
        edits=(
            (
                R21,
                'python: {versions: ["3.10", "3.11"], source: https://example.org/2.1}',
                'python: {versions: ["3.10", "3.11"], source: https://github.com/pytorch/pytorch/blob/main/RELEASE.md}',
            ),
            (
                R21,
                "  - {url: https://example.org/2.1, title: Notes 2.1}",
                "  - {url: https://example.org/2.1, title: Notes 2.1}\n  - {url: https://github.com/pytorch/pytorch/blob/main/RELEASE.md, title: Matrix}",
            ),
        ),
    ),
    # Hostile input: characters XML or YAML cannot carry, written as escapes, are refused with file, line and field.
    Case(
        "escaped-delete", "data/releases/2.1.yaml:2: title: the control character U+007F is not allowed", edits=_escaped("title", "\\x7f")
    ),
    Case(
        "escaped-c1-control",
        "data/releases/2.1.yaml:13: features[0].summary: the control character U+0080 is not allowed",
        edits=_escaped("summary", "\\x80"),
    ),
    Case(
        "escaped-non-character",
        "data/releases/2.1.yaml:13: features[0].summary: the non-character U+FFFE is not allowed",
        edits=_escaped("summary", "\\uFFFE"),
    ),
    Case(
        "escaped-nul",
        "data/releases/2.1.yaml:13: features[0].summary: the control character U+0000 is not allowed",
        edits=_escaped("summary", "\\0"),
    ),
    Case(
        "escaped-line-separator",
        "data/releases/2.1.yaml:13: features[0].summary: the line separator U+2028 is not allowed",
        edits=_escaped("summary", "\\L"),
    ),
    Case(
        "escaped-surrogate",
        "data/releases/2.1.yaml:13: YAML syntax error: found invalid Unicode character escape code",
        edits=_escaped("summary", "\\uD800"),
    ),
    Case(
        "escaped-control-in-a-key",
        "data/releases/2.1.yaml:14: features[0].x\x7f: the control character U+007F is not allowed",
        edits=(
            (
                R21,
                "    sources: [https://example.org/2.1]\n  - id: beta-thing",
                '    "x\\x7f": 1\n    sources: [https://example.org/2.1]\n  - id: beta-thing',
            ),
        ),
    ),
    Case(
        "integer-past-pythons-digit-limit",
        "data/releases/2.1.yaml:3: a number of 5,000 characters; numbers in data files have at most 20",
        edits=(
            (
                R21,
                "released: {date: 2030-04-15",
                "commits: {count: " + "9" * 5000 + ", source: https://example.org/2.1}\nreleased: {date: 2030-04-15",
            ),
        ),
    ),
    Case(
        "count-too-large",
        "data/releases/2.1.yaml:3: commits.count: expected a number of at most 100,000,000; found 999999999999",
        edits=(
            (
                R21,
                "released: {date: 2030-04-15",
                "commits: {count: 999999999999, source: https://example.org/2.1}\nreleased: {date: 2030-04-15",
            ),
        ),
    ),
    Case("key-read-as-a-boolean", "data/releases/2.1.yaml:3: on: unknown field 'on'", edits=((R21, "released:", "on: push\nreleased:"),)),
    Case("key-read-as-a-number", "data/releases/2.1.yaml:3: 1: unknown field '1'", edits=((R21, "released:", "1: one\nreleased:"),)),
    Case(
        "key-read-as-null", "data/releases/2.1.yaml:3: null: unknown field 'null'", edits=((R21, "released:", "null: nothing\nreleased:"),)
    ),
    Case(
        "key-that-is-a-list",
        "data/releases/2.1.yaml:3: a key must be a word or text, not a list or mapping",
        edits=((R21, "released:", "? [a, b]\n: pair\nreleased:"),),
    ),
    Case(
        "explicit-yaml-tag",
        "data/releases/2.1.yaml:2: YAML tags such as 'tag:yaml.org,2002:timestamp' are not allowed",
        edits=((R21, "summary: The", "summary: !!timestamp 2030-13-45\nxsummary: The"),),
    ),
    Case(
        "id-longer-than-a-file-name",
        "data/releases/2.1.yaml:9: features[0].id: expected at most 64 characters; found 300",
        edits=((R21, "  - id: alpha", "  - id: " + "a" * 300),),
    ),
    Case(
        "companion-version-with-markup",
        "data/releases/2.1.yaml:4: companions[0].version: expected text matching",
        edits=(
            (
                R21,
                "python:",
                'companions: [{library: torchvision, version: "0.1 {: #__search }", source: https://example.org/2.1}]\npython:',
            ),
        ),
    ),
    Case(
        "release-file-is-a-folder",
        "data/releases/9.9.yaml: not a regular file (a folder, device or pipe)",
        setup=_release_file_is_a("folder"),
    ),
    Case(
        "release-file-links-to-a-device",
        "data/releases/9.9.yaml: the file is a link to /dev/zero, outside data/",
        setup=_release_file_is_a("device"),
    ),
    Case("release-file-links-outside-the-data", "data/releases/9.9.yaml: the file is a link to", setup=_release_file_is_a("outside")),
    Case(
        "published-registry-not-utf8",
        "data/published.txt:2: not valid UTF-8 (byte 0xff)",
        writes={"published.txt": b"/releases/2.1/\n/releases/\xff/\n"},
    ),
    Case(
        "redirect-onto-a-file-the-build-writes",
        "data/redirects.yaml:1: the redirect /sitemap.xml/ would be written inside /sitemap.xml, which the build writes itself",
        writes={"redirects.yaml": b"/sitemap.xml/: /releases/2.1/\n"},
    ),
    Case(
        "redirect-onto-an-editions-sitemap",
        "data/redirects.yaml:1: the redirect /zh/sitemap.xml/ would be written inside /zh/sitemap.xml, which the build writes itself",
        writes={"redirects.yaml": b"/zh/sitemap.xml/: /releases/2.1/\n"},
    ),
    Case(
        "redirect-onto-a-generated-file",
        "data/redirects.yaml:1: the redirect /feed.xml/ would be written inside /feed.xml, which the build writes itself",
        writes={"redirects.yaml": b"/feed.xml/: /releases/2.1/\n"},
    ),
    Case(
        "redirect-climbing-out-of-the-site",
        "data/redirects.yaml:1: expected site paths on both sides",
        writes={"redirects.yaml": b"/../../outside/: /releases/2.1/\n"},
    ),
    Case(
        "redirect-segment-too-long",
        "data/redirects.yaml:1: expected site paths on both sides",
        writes={"redirects.yaml": ("/" + "a" * 300 + "/: /releases/2.1/\n").encode()},
    ),
    Case(
        "feature-record-part-of-unknown",
        "data/features.yaml:5: features[0].part_of: 'nope' is not the id of a feature record in this file",
        writes={"features.yaml": RECORD + b"    part_of: nope\n"},
    ),
    Case(
        "feature-records-part-of-each-other",
        "data/features.yaml:5: features[0].part_of: 'alpha' would be a part of itself through 'gamma'",
        writes={"features.yaml": RECORD + b"    part_of: gamma\n  - {id: gamma, name: Gamma, description: G., part_of: alpha}\n"},
    ),
    Case(
        "feature-record-unknown-topic",
        "data/features.yaml:5: features[0].topics[0]: unknown topic 'gpu'",
        writes={"features.yaml": RECORD + b"    topics: [gpu]\n"},
    ),
    Case(
        "feature-record-with-no-entry",
        "data/features.yaml:2: features[0]: no release entry is about 'omega' or its parts",
        writes={"features.yaml": RECORD.replace(b"id: alpha", b"id: omega")},
    ),
    Case(
        "entry-names-an-unknown-feature-record",
        "data/releases/2.1.yaml:10: features[0].feature: 'nope' is not the id of a feature record in data/features.yaml",
        writes={"features.yaml": RECORD},
        edits=((R21, "  - id: alpha\n", "  - id: alpha\n    feature: nope\n"),),
    ),
    Case(
        "image-in-data-text",
        "data/releases/2.1.yaml:13: features[0].summary: images are not allowed in data text",
        edits=((R21, "    summary: Alpha reaches beta.", "    summary: Alpha ![pixel](https://tracker.example/p.png) reaches beta."),),
    ),
]
