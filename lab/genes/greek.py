"""BioRED train with Greek letters as PubMed writes them (docs/genes.md, naming round 12).

    python -m lab.genes.greek [--split fit|dev] [--json out.json]

BioRED's texts spell Greek letters out (``TNF-alpha``); PubMed XML, PMC and PDFs write
``TNF-α``. :func:`greek_copy` writes each letter name attached to a word or number
(``TNF-alpha``, ``IL-1beta``, ``NF-kappaB``, ``IkappaBalpha``) or starting a hyphenated word
(``beta-catenin``) as its letter and maps the gold mentions' offsets; the copy is scored as
:mod:`lab.genes.biored` scores the split, with the tagger's Greek norms
(:func:`relx.parse.pipeline.spell_greek_norms`) and without them (``--without``).
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


def score(docs: list[GoldDoc], greek_norms: bool, gene_relations: bool = True) -> dict:
    """The benchmark's figures for ``docs``, the tagger with or without Greek norms."""
    import relx
    from lab.genes.biored import NcbiIds, evaluate, evaluate_gene_relations
    from relx.parse import pipeline

    keep = pipeline.spell_greek_norms
    if not greek_norms:
        pipeline.spell_greek_norms = lambda nlp: None   # the pipeline as it was
    try:
        ncbi = NcbiIds()
        rep = evaluate(docs, relx.load(task="ppi"), ncbi).report()
        if gene_relations:
            rep["gene_relations"] = evaluate_gene_relations(docs, ncbi=ncbi)
    finally:
        pipeline.spell_greek_norms = keep
    return rep


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", choices=("fit", "dev"), default="fit")
    ap.add_argument("--without", action="store_true",
                    help="the tagger without Greek norms (the pipeline before round 12)")
    ap.add_argument("--json", help="write the figures here")
    a = ap.parse_args(argv)
    docs = greek_docs(read_biored(None, a.split))
    n = sum(len(greek_copy(d.text)[1]) for d in read_biored(None, a.split))
    print(f"{a.split} split: {len(docs)} abstracts, {n} letter names written as letters",
          file=sys.stderr)
    rep = score(docs, not a.without)
    label = f"Greek copy, {'without' if a.without else 'with'} Greek norms"
    print(compare_markdown({label: rep}))
    if a.json:
        Path(a.json).write_text(json.dumps(rep, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
