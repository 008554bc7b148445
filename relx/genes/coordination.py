"""Coordinations and ranges of gene names in one mention: ``IL-2/4``, ``IL-2, -4 and -5``,
``Smad1-3``, ``IKKα/β``, ``ERK1/ERK2``.

:func:`coordination_members` spells out the members; :func:`coordination` grounds a mention
whose members all ground: one gene, else the FamPlex family of the members' human genes,
else the members' genes.
"""

from __future__ import annotations

import re

from relx.genes.famplex import FamPlex
from relx.genes.lexicon import Grounder, Grounding, compact_form

__all__ = ["coordination", "coordination_members"]

_SEP = r"\s*(?:/|,\s*and|,\s*or|,|&|\band\b|\bor\b)\s*"
_NUM_LIST = re.compile(rf"^(?P<stem>.*?[A-Za-z][-\s]?)(?P<first>\d+[A-Za-z]?)"
                       rf"(?P<rest>(?:{_SEP}-?\d+[A-Za-z]?)+)$")
_NUM_RANGE = re.compile(r"^(?P<stem>.*?[A-Za-z][-\s]?)(?P<a>\d+)\s*(?:-|\u2013|\bto\b)\s*-?"
                        r"(?P<b>\d+)$")
_GREEK_ALT = r"(?:alpha|beta|gamma|delta|epsilon|kappa|[a-zA-Z\u03b1-\u03c9])"
_LETTER_ALT = re.compile(rf"^(?P<stem>.*?\w)(?P<a>{_GREEK_ALT})\s*/\s*(?P<b>{_GREEK_ALT})$")
_SLASH_ALT = re.compile(r"^(?P<a>[^/\s][^/]+?)\s*/\s*(?P<b>[^/\s][^/]+)$")


def coordination_members(text: str) -> list[str]:
    """The member mentions of a coordination or range (``IL-2/4`` -> ``IL-2``, ``IL-4``;
    ``Smad1-3`` -> ``Smad1``, ``Smad2``, ``Smad3``), else []."""
    text = text.strip()
    m = _NUM_LIST.match(text)
    if m:
        nums = [m["first"], *re.findall(r"\d+[A-Za-z]?", m["rest"])]
        return [m["stem"] + n for n in nums]
    m = _NUM_RANGE.match(text)
    if m and int(m["a"]) < int(m["b"]) <= int(m["a"]) + 10:
        return [m["stem"] + str(n) for n in range(int(m["a"]), int(m["b"]) + 1)]
    m = _LETTER_ALT.match(text)
    if m and len(m["stem"]) >= 2:
        return [m["stem"] + m["a"], m["stem"] + m["b"]]
    m = _SLASH_ALT.match(text)
    if m and len(compact_form(m["a"])) >= 2 and len(compact_form(m["b"])) >= 2:
        return [m["a"], m["b"]]
    return []


def coordination(g: Grounder, famplex: FamPlex, text: str, taxon: str | None
                  ) -> Grounding | None:
    members = coordination_members(text)
    if not members:
        return None
    found = [g.best(t, taxon) for t in members]
    if not all(f.grounded for f in found):
        return None
    conf = min(f.confidence for f in found)
    best = list(dict.fromkeys(f.ids[0] for f in found))
    if len(best) == 1:
        return Grounding((best[0],), conf, taxon, "coordination")
    human = [i if i.startswith("HGNC:") else next(iter(g.orthologs.map_id(i, "human")), "")
             for i in best]
    family = famplex.family_of(human) if all(human) else None
    if family is not None:
        return Grounding((family,), conf, taxon, "coordination")
    return Grounding(tuple(best), conf, taxon, "coordination")
