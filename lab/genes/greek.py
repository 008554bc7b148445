"""BioRED train with Greek letters as PubMed writes them (docs/genes.md, naming round 12).

    python -m lab.genes.greek [--split fit|dev] [--hyphens] [--without] [--json out.json]

BioRED's texts spell Greek letters out (``TNF-alpha``); PubMed XML, PMC and PDFs write
``TNF-α``. :func:`greek_copy` writes each letter name attached to a word or number
(``TNF-alpha``, ``IL-1beta``, ``NF-kappaB``, ``IkappaBalpha``) or starting a hyphenated word
(``beta-catenin``) as its letter and maps the gold mentions' offsets (``--hyphens``: the
hyphen copy, round 14: every hyphen inside a word written as U+2010); the copy is scored as
:mod:`lab.genes.biored` scores the split, with the tagger's Greek norms
(:func:`relx.parse.norms.spell_greek_features`) and without them (``--without``).
"""

from __future__ import annotations

import argparse
import bisect
import dataclasses
import json
import re
import sys
from pathlib import Path

from lab.genes.biored import GoldDoc, GoldMention, compare_markdown, read_biored

LETTERS = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε",
           "kappa": "κ", "zeta": "ζ", "theta": "θ", "lambda": "λ", "sigma": "σ",
           "omega": "ω"}
_NAMES = "|".join(sorted(LETTERS, key=len, reverse=True))
#: a letter name after a letter, digit or hyphen (``TNF-alpha``, ``IL-1beta``) and not
#: followed by a lower-case letter, or starting a hyphenated word (``beta-catenin``)
_ATTACHED = re.compile(rf"(?<=[A-Za-z0-9-])({_NAMES})(?![a-z])|(?<![A-Za-z])({_NAMES})(?=-\w)")


def greek_copy(text: str) -> tuple[str, list[tuple[int, int]]]:
    """``text`` with the letter names written as letters, and the edits ``(old end, shift)``
    that map an old offset to the new one (:func:`new_offset`)."""
    out, edits, last, shift = [], [], 0, 0
    for m in _ATTACHED.finditer(text):
        name = m.group(1) or m.group(2)
        out.append(text[last:m.start()])
        out.append(LETTERS[name])
        shift += len(LETTERS[name]) - len(name)
        edits.append((m.end(), shift))
        last = m.end()
    out.append(text[last:])
    return "".join(out), edits


def _spelled(text: str) -> str:
    """Greek letters written as their names again (the inverse of :func:`greek_copy`)."""
    names = {v: k for k, v in LETTERS.items()}
    return "".join(names.get(c, c) for c in text)


def new_offset(offset: int, edits: list[tuple[int, int]]) -> int:
    """An offset of the old text in the new (edits end at or before it shift it)."""
    k = bisect.bisect_right([end for end, _ in edits], offset)
    return offset + (edits[k - 1][1] if k else 0)


def greek_docs(docs: list[GoldDoc]) -> list[GoldDoc]:
    """The documents with Greek letters; every gold mention's text is checked against the
    new text."""
    out = []
    for d in docs:
        text, edits = greek_copy(d.text)
        genes = []
        for m in d.genes:
            start, end = new_offset(m.start, edits), new_offset(m.end, edits)
            genes.append(GoldMention(start, end, text[start:end], m.ids))
            if _spelled(text[start:end]) != m.text:
                raise ValueError(f"{d.pmid}: {m.text!r} maps to {text[start:end]!r}")
        out.append(dataclasses.replace(d, text=text, genes=genes))
    return out


#: a hyphen between two letters or digits (``IL-6``, ``NF-kappaB``, ``beta-catenin``)
_INNER_HYPHEN = re.compile(r"(?<=[A-Za-z0-9])-(?=[A-Za-z0-9])")


def hyphen_docs(docs: list[GoldDoc]) -> list[GoldDoc]:
    """The documents with every hyphen between two letters or digits written as U+2010, as
    publishers' XML writes many (one character for one: the gold offsets stay)."""
    out = []
    for d in docs:
        text = _INNER_HYPHEN.sub("\u2010", d.text)
        genes = [GoldMention(m.start, m.end, text[m.start:m.end], m.ids) for m in d.genes]
        out.append(dataclasses.replace(d, text=text, genes=genes))
    return out


def score(docs: list[GoldDoc], greek_norms: bool, gene_relations: bool = True) -> dict:
    """The benchmark's figures for ``docs``, the tagger with or without Greek norms."""
    import relx
    from lab.genes.biored import NcbiIds, evaluate, evaluate_gene_relations
    from relx.parse import pipeline

    keep = pipeline.spell_greek_features
    if not greek_norms:
        pipeline.spell_greek_features = lambda nlp: None   # the pipeline before round 12
    try:
        ncbi = NcbiIds()
        rep = evaluate(docs, relx.load(task="ppi"), ncbi).report()
        if gene_relations:
            rep["gene_relations"] = evaluate_gene_relations(docs, ncbi=ncbi)
    finally:
        pipeline.spell_greek_features = keep
    return rep


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", choices=("fit", "dev"), default="fit")
    ap.add_argument("--without", action="store_true",
                    help="the tagger without Greek norms (the pipeline before round 12)")
    ap.add_argument("--hyphens", action="store_true",
                    help="the hyphen copy instead (round 14: '-' inside words as U+2010)")
    ap.add_argument("--json", help="write the figures here")
    a = ap.parse_args(argv)
    plain = read_biored(None, a.split)
    if a.hyphens:
        docs = hyphen_docs(plain)
        n = sum(len(_INNER_HYPHEN.findall(d.text)) for d in plain)
        what = "hyphens written as U+2010"
    else:
        docs = greek_docs(plain)
        n = sum(len(greek_copy(d.text)[1]) for d in plain)
        what = "letter names written as letters"
    print(f"{a.split} split: {len(docs)} abstracts, {n} {what}", file=sys.stderr)
    rep = score(docs, not a.without)
    label = (f"{'hyphen' if a.hyphens else 'Greek'} copy, "
             f"{'without' if a.without else 'with'} the spelled norms")
    print(compare_markdown({label: rep}))
    if a.json:
        Path(a.json).write_text(json.dumps(rep, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
