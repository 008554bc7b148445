"""Do two mentions of a document denote the same gene (or a family and its member)?

A pair of such mentions is not an interaction: ``NOD2/CARD15``, ``carbonyl reductase 3
(CBR3)``, ``caspases ... caspase-3``. :func:`same_gene` says why they are the same, or None.
Reasons, first that applies:

* ``same id`` -- the same best id (``norm_ids[0]``; mentions without ids are grounded in
  their ``taxon``);
* ``ortholog`` -- best ids that are human/mouse/rat orthologs (``IL2`` and ``Il2``);
* ``abbreviation`` -- one is a short form the document defines and the other its long form;
* ``synonym`` -- written as alternatives (``NOD2/CARD15``, ``NOD2 (CARD15)``) and sharing a
  candidate id;
* ``series`` -- two members of one series word (``ERK1/2``: ERK1 and the ``2`` that names
  ERK2, :mod:`relx.genes.slash_series`): one mention to curators, never a relation;
* ``family member`` / ``complex subunit`` -- one is a FamPlex family / complex above the
  other (``FPLX:Caspase`` and ``HGNC:1504``; ``FPLX:NFkappaB`` and ``RELA``);
* ``generic class`` -- an ungrounded class noun in apposition to a gene (``the cysteine
  protease caspase-3``, ``cysteine proteases such as caspase-3``);
* ``same text`` -- two ungrounded mentions with the same normalised text.

An input's own ids (``NCBIGene:7157``) are compared as they are: they meet HGNC ids only
through a shared text.
"""

from __future__ import annotations

import re

from relx.doc import Document, Entity
from relx.genes.document import resolve
from relx.genes.famplex import FamPlex, default_famplex
from relx.genes.lexicon import CLASS_NOUN, Grounder, default_grounder, normalize_key
from relx.genes.slash_series import one_series_word

__all__ = ["REASONS", "abbreviation_keys", "same_gene"]

REASONS = ("same id", "ortholog", "abbreviation", "synonym", "series", "family member",
           "complex subunit", "generic class", "same text")

_APPOSITION = re.compile(
    r"^\s*(?:,|\(|:|\u2014|-)?\s*(?:such as|including|like|namely|e\.g\.,?|i\.e\.,?|"
    r"especially|particularly|in particular|termed|called|named)?\s*(?:(?:the|a|an)\s+)?$",
    re.IGNORECASE)
_ALTERNATIVE = re.compile(r"^\s*(?:/|\(|,\s*also\s+(?:known|called)\s+as|\s+or)\s*$")


def _text(doc: Document, e: Entity) -> str:
    return e.text or " ".join(doc.text[s.start:s.end] for s in e.spans)


def _ids(doc: Document, e: Entity, g: Grounder) -> list[str]:
    return list(e.norm_ids) or list(resolve(_text(doc, e), e.taxon, grounder=g).ids)


def _human(g: Grounder, cid: str) -> str:
    if cid.startswith(("MGI:", "RGD:")):
        return next(iter(g.orthologs.map_id(cid, "human")), cid)
    return cid


def _between(doc: Document, a: Entity, b: Entity) -> str:
    first, second = (a, b) if a.start <= b.start else (b, a)
    return doc.text[first.end:second.start] if first.end <= second.start else "\0"


def abbreviation_keys(doc: Document) -> frozenset[frozenset[str]]:
    """The document's (short form, long form) definitions as pairs of normalised keys
    (the two differing): what ``abbreviation`` compares a pair of mentions with."""
    keys = set()
    for ab in doc.abbreviations:
        short, long = normalize_key(ab.short_text), normalize_key(ab.long_text)
        if short != long:
            keys.add(frozenset((short, long)))
    return frozenset(keys)


def same_gene(e1: Entity, e2: Entity, doc: Document, *, grounder: Grounder | None = None,
              famplex: FamPlex | None = None,
              abbreviations: frozenset[frozenset[str]] | None = None) -> str | None:
    """Why ``e1`` and ``e2`` denote the same gene (one of :data:`REASONS`), or None;
    ``abbreviations``: :func:`abbreviation_keys` of ``doc`` when already computed (a caller
    judging many pairs of one document computes them once: they are the document's)."""
    g = grounder or default_grounder()
    fam = famplex or default_famplex()
    t1, t2 = _text(doc, e1), _text(doc, e2)
    k1, k2 = normalize_key(t1), normalize_key(t2)
    ids1, ids2 = _ids(doc, e1, g), _ids(doc, e2, g)
    if ids1 and ids2:
        if ids1[0] == ids2[0]:
            return "same id"
        h1, h2 = _human(g, ids1[0]), _human(g, ids2[0])
        if h1 == h2:
            return "ortholog"
    keys = abbreviation_keys(doc) if abbreviations is None else abbreviations
    if k1 != k2 and frozenset((k1, k2)) in keys:
        return "abbreviation"
    between = _between(doc, e1, e2)
    if ids1 and ids2 and _ALTERNATIVE.match(between) and set(ids1) & set(ids2):
        return "synonym"
    if one_series_word(between, _text(doc, e2 if e1.start <= e2.start else e1)):
        return "series"
    if ids1 and ids2:
        # a family name given its member first (relx.genes.members) keeps the family second
        for fam_ids, member in (((h1, *ids1[1:2]), h2), ((h2, *ids2[1:2]), h1)):
            for fam_id in fam_ids:
                if fam_id.startswith("FPLX:") and fam_id in fam.parents(member, "isa"):
                    return "family member"
                if fam_id.startswith("FPLX:") and fam_id in fam.parents(member):
                    return "complex subunit"
    for generic, gid, other_ids in ((t1, ids1, ids2), (t2, ids2, ids1)):
        if other_ids and CLASS_NOUN.search(generic) and all(
                i.startswith("FPLX:") for i in gid) and _APPOSITION.match(between):
            return "generic class"
    if not ids1 and not ids2 and k1 and k1 == k2:
        return "same text"
    return None
