"""Words of the text that choose among a mention's candidate genes: the class word written
before a name (``the kinases MST1 and MST2``) picks the candidate whose approved name holds
it (docs/genes.md, round 44), and a name's last word picks, among tied candidates, the one
whose symbol it ends (``Cytochrome P450 2D6``: CYP2D6, round 48)."""

from __future__ import annotations

import dataclasses
import re
import weakref

from relx.genes.lexicon import CLASS_NOUN, MOUSE, RAT, Grounder, Grounding, GroundingCandidate
from relx.ids import GENE_NAMESPACES, namespace_of

__all__ = ["CLASS_FIRST", "by_class_word", "by_name_number", "generic_class", "mass_named",
           "mass_only"]

_CLASSES = (r"(kinase|phosphatase|receptor|ligase|transporter|channel|protease|"
            r"deubiquitinase|adaptor|exchanger)s?")
#: a class word right before a name, perhaps a list of names between (``kinases MST1 and``)
_CLASS_BEFORE = re.compile(
    rf"\b{_CLASSES}\s+(?:[\w-]+(?:,\s*|\s+and\s+|\s+or\s+))*$", re.IGNORECASE)
CLASS_FIRST = re.compile(rf"^{_CLASSES}\s", re.IGNORECASE)
#: a molecular mass, alone or before generic words only (``a 95-kDa protein``, ``50-kDa``):
#: a protein not yet named, no gene (round 103)
_MASS_ONLY = re.compile(
    r"(?:an?\s+|the\s+)?\d+(?:\.\d+)?\s?-?\s?k(?:Da|D|da)"
    r"(?:\s+(?:proteins?|phosphoproteins?|glycoproteins?|polypeptides?|products?|subunits?|"
    r"fragments?|forms?|isoforms?|species|bands?))*")


def mass_only(text: str) -> bool:
    """``text`` names a protein by its molecular mass only (``a 95-kDa protein``)."""
    return _MASS_ONLY.fullmatch(text.strip()) is not None


#: a heat shock or glucose-regulated protein named by its mass (``the 70-kDa heat shock
#: protein``: HSP70; round 104)
_MASS_NAMED = re.compile(
    r"(?:an?\s+|the\s+)?(?P<mass>\d{2,3})\s?-?\s?k(?:Da|D|da)\s+"
    r"(?P<kind>heat[\s-]shock|glucose[\s-]regulated)\s+proteins?", re.IGNORECASE)


def mass_named(text: str) -> str | None:
    """The short name of a protein named by its mass (``70-kDa heat shock protein`` ->
    ``HSP70``, ``78 kDa glucose-regulated protein`` -> ``GRP78``), or None."""
    m = _MASS_NAMED.fullmatch(text.strip())
    if m is None:
        return None
    return ("HSP" if m["kind"].lower().startswith("heat") else "GRP") + m["mass"]


def generic_class(text: str) -> bool:
    """A lower-case phrase of at most two words ending in a class noun (``cysteine
    protease``, ``kinases``), or a molecular mass alone or before generic words (``95-kDa
    protein``): a class, not a gene the ranker should name."""
    if mass_only(text):
        return True
    words = text.split()
    return (len(words) <= 2 and not any(c.isdigit() for c in text)
            and text[1:] == text[1:].lower() and bool(CLASS_NOUN.search(text)))


def by_class_word(g: Grounder, found: Grounding, text: str, before: str) -> Grounding:
    """``found`` with the one candidate whose approved name holds the class word written
    before the mention (``kinases MST1``: STK4, serine/threonine kinase 4, not MST1) or
    at its start first, route ``class``; else ``found``."""
    m = CLASS_FIRST.match(text) or _CLASS_BEFORE.search(before)
    if m is None:
        return found
    word = m.group(1).lower()
    names = _approved_names(g)
    hits = [i for i in found.ids if namespace_of(i) in GENE_NAMESPACES
            and any(word in key for key in names.get(i, ()))]
    if len(hits) != 1 or hits[0] == found.ids[0]:
        return found
    return dataclasses.replace(found, ids=(hits[0], *(i for i in found.ids if i != hits[0])),
                               route="class")


_NAMES: weakref.WeakKeyDictionary[Grounder, dict[str, list[str]]] = weakref.WeakKeyDictionary()


def _approved_names(g: Grounder) -> dict[str, list[str]]:
    """Gene id -> the lexicon keys of its approved names (``name`` rows: human, mouse,
    rat), made once per grounder."""
    names = _NAMES.get(g)
    if names is None:
        names = {}
        for table in (g.index, g.species_index(MOUSE), g.species_index(RAT)):
            for key, (cid, _, _) in table.rows_of_sources({"name"}):
                names.setdefault(cid, []).append(key)
        _NAMES[g] = names
    return names


def by_name_number(text: str, cands: list[GroundingCandidate]) -> list[GroundingCandidate]:
    """``cands`` with, among those tied for best, the one whose symbol ends with the
    mention's last word (``Cytochrome P450 2D6``: CYP2D6, not CYP2D7) first."""
    if len(cands) < 2 or cands[1].score < cands[0].score:
        return cands
    last = text.rsplit(maxsplit=1)[-1].lower() if text.strip() else ""
    if len(last) < 2 or not any(c.isdigit() for c in last):
        return cands
    tied = [c for c in cands if c.score == cands[0].score]
    hits = [c for c in tied if c.symbol.lower().endswith(last)]
    if len(hits) != 1 or hits[0] is cands[0]:
        return cands
    return [hits[0], *(c for c in cands if c is not hits[0])]
