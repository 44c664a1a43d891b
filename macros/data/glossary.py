"""A language's glossary (`data/translations/<language>/glossary.yaml`): the gloss shown beside each stability label,
and the one term the edition uses for each recurring concept, with the other renderings it never uses (`avoid`).

Every data translation and interface text is held against the glossary, so that a page never calls a breaking change
破坏性变更 where the others say 不兼容变更.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from macros.data.yamlfile import DataError, read_yaml

GLOSSARY = "glossary.yaml"
_TERM_KEYS = {"en", "zh", "note", "avoid"}


@dataclass(frozen=True)
class Glossary:
    """Label glosses, and each rendering to avoid with the term to write instead and the concept's English name."""

    glosses: dict[str, str] = field(default_factory=dict)
    avoided: dict[str, tuple[str, str]] = field(default_factory=dict)
    source: str = GLOSSARY  # the file, as error messages name it

    def problem(self, translated: str) -> str | None:
        """Which rendering the glossary avoids a translation uses, with the term to write instead; or None. The term
        itself may contain an avoided rendering: only what is left once the term is taken out counts."""
        for rendering, (term, english) in self.avoided.items():
            if rendering in translated.replace(term, ""):
                return f"writes {rendering!r} for {english!r}: the glossary ({self.source}) fixes the term {term!r}"
        return None


def read_glossary(folder: Path, data_dir: Path, label_words: tuple[str, ...], errors: list[DataError]) -> Glossary:
    """The glossary in a language's folder of translations under `data_dir`, checked (a gloss for each of the data's
    `label_words` at most); what is wrong goes to `errors`."""
    shown = f"data/{(folder / GLOSSARY).relative_to(data_dir).as_posix()}"
    document, problems = read_yaml(folder / GLOSSARY, shown, data_dir)
    errors += problems
    if document is None:
        return Glossary()
    data = document.data if isinstance(document.data, dict) else {}
    labels, terms = data.get("labels"), data.get("terms", [])
    if not isinstance(labels, list) or not all(isinstance(x, dict) and set(x) == {"label", "gloss"} for x in labels):
        errors.append(DataError(shown, "expected `labels:` a list of {label, gloss}", document.line_of(())))
        return Glossary()
    for index, label in enumerate(labels):
        if label["label"] not in label_words:
            message = f"{label['label']!r} is not a stability label of the data; expected one of: {', '.join(label_words)}"
            errors.append(DataError(shown, message, document.line_of(("labels", index)), ("labels", index, "label")))
    if not isinstance(terms, list):
        errors.append(DataError(shown, "expected `terms:` a list of {en, zh, note, avoid}", document.line_of(("terms",))))
        return Glossary()
    used = {term["zh"]: term["en"] for term in terms if _is_term(term)}
    avoided: dict[str, tuple[str, str]] = {}
    for index, term in enumerate(terms):
        where = document.line_of(("terms", index))
        if not _is_term(term):
            message = "expected {en: <concept>, zh: <term>} with an optional note (text) and avoid (a list of renderings)"
            errors.append(DataError(shown, message, where, ("terms", index)))
            continue
        for rendering in term.get("avoid", []):
            if rendering in used:
                message = f"{rendering!r} is the term for {used[rendering]!r}; a term cannot be avoided"
                errors.append(DataError(shown, message, where, ("terms", index, "avoid")))
            else:
                avoided[rendering] = (term["zh"], term["en"])
    return Glossary({x["label"]: x["gloss"] for x in labels}, avoided, shown)


def _is_term(term: object) -> bool:
    """Whether a glossary entry has the shape {en, zh[, note][, avoid: [...]]}, every text non-empty."""
    if not (isinstance(term, dict) and {"en", "zh"} <= set(term) <= _TERM_KEYS):
        return False
    texts = [term["en"], term["zh"], term.get("note", "-")]
    avoid = term.get("avoid", [])
    return all(isinstance(t, str) and t for t in texts) and isinstance(avoid, list) and all(isinstance(r, str) and r for r in avoid)
