"""The member gene a family name stands for in text (``Ras`` -> HRAS, ``AMPK`` -> PRKAA1).

Curators annotate a family name with the gene the text means; relx learns which member
that is per FamPlex family from BioRED train's fit split (``lab/genes/family_members.py``,
``relx/data/family_members.json``: family id -> human member, with its counts). A mention
whose best id is such a family gets the member, in the mention's species, as its best id;
the family id stays second.

A family with no learned member stands for its **first member** (:func:`first_member`):
of its human member genes, those whose symbol starts with the family's name (``FABP`` ->
FABP1.., ``CD3`` -> CD3D..), else all, in natural order (``CASP2`` before ``CASP10``);
its confidence is the mention's times ``FIRST_MEMBER_FACTOR``.
"""

from __future__ import annotations

import re
from pathlib import Path

from relx.doc import Document, Entity
from relx.errors import ConfigError
from relx.genes.famplex import FamPlex, default_famplex
from relx.genes.lexicon import default_grounder, with_entity_updates
from relx.genes.ncbi_gene import NcbiGene, default_ncbi_gene
from relx.genes.orthologs import Orthologs, default_orthologs
from relx.genes.shipped import shipped_json
from relx.ids import HUMAN, MOUSE, RAT

__all__ = ["FamilyMembers", "default_members", "first_member", "learned_families",
           "with_members"]

MEMBERS_FORMAT = "relx-family-members/1"
#: a coordination or range names the members itself (``ERK1/2``, ``Smad2 and 3``)
_NAMES_MEMBERS = re.compile(r"/|,|&|\band\b|\bor\b|\d\s*-\s*\d")
#: confidence factor of a family's first member (no member learned for it)
FIRST_MEMBER_FACTOR = 0.5
_NUMBER = re.compile(r"(\d+)")


def _natural(symbol: str) -> tuple:
    return tuple(int(p) if p.isdigit() else p for p in _NUMBER.split(symbol.upper()))


def first_member(family: str, famplex: FamPlex | None = None) -> str | None:
    """The human gene a FamPlex ``family`` with no learned member stands for: of its
    member genes (transitively), those whose symbol starts with the family's name, else
    all, the first in natural order; None for a family without human member genes."""
    fam = famplex or default_famplex()
    g = default_grounder()
    genes = [(g.symbol(m) or "", m) for m in fam.members(family) if m.startswith("HGNC:")]
    genes = [(sym, m) for sym, m in genes if sym]
    if not genes:
        return None
    stem = re.sub(r"[^A-Za-z0-9]", "", family.partition(":")[2].split("_")[0]).upper()
    named = [(sym, m) for sym, m in genes if stem and sym.upper().startswith(stem)]
    return min(named or genes, key=lambda sm: (_natural(sm[0]), sm[1]))[1]


class FamilyMembers:
    """Family id -> the human member gene it stands for (``members``), with the share of
    the family's training mentions annotated with that member (``shares``)."""

    def __init__(self, members: dict[str, str], shares: dict[str, float] | None = None,
                 orthologs: Orthologs | None = None) -> None:
        self.members = dict(members)
        self.shares = dict(shares or {})
        self._orthologs = orthologs

    @classmethod
    def from_json(cls, data: dict) -> FamilyMembers:
        if data.get("format") != MEMBERS_FORMAT:
            raise ConfigError("not a relx family-members table")
        fams = data["families"]
        return cls({f: v["member"] for f, v in fams.items()},
                   {f: v["share"] for f, v in fams.items()})

    def to_json(self, counts: dict[str, dict[str, int]] | None = None) -> dict:
        return {"format": MEMBERS_FORMAT, "families": {
            f: {"member": m, "share": round(self.shares.get(f, 1.0), 3),
                **(counts or {}).get(f, {})} for f, m in sorted(self.members.items())}}

    def member(self, family: str, taxon: str | None, *, first: bool = False) -> str | None:
        """The member of ``family`` in ``taxon`` (human by default), or None; with
        ``first``, a family with no learned member gives its :func:`first_member`."""
        human = self.members.get(family)
        if human is None and first:
            human = first_member(family)
        if human is None or taxon in (None, HUMAN):
            return human
        if self._orthologs is None:
            self._orthologs = default_orthologs()
        found = self._orthologs.from_human(human, taxon)
        return found[0] if len(found) == 1 else None


def _named_member(e: Entity, hits: list[Entity]) -> str | None:
    """The first of a family mention's named member mentions as a gene id of the mention's
    species (through the orthologs when the member is written as another species' gene)."""
    cid = hits[0].norm_ids[0]
    if hits[0].taxon == e.taxon or e.taxon is None:
        return cid
    if e.taxon not in (HUMAN, MOUSE, RAT):     # no ortholog table for the mention's species
        return None
    found = default_orthologs().map_id(cid, e.taxon)
    return found[0] if len(found) == 1 else None


def with_members(doc: Document, members: FamilyMembers,
                 ncbi: NcbiGene | None = None, *, first: bool = True) -> Document:
    """``doc`` with each gene mention that names a family alone (``Ras``, ``GnRH``; not
    ``ERK1 and 2`` or ``ERK1/2``, whose members the text names) whose best id is a family
    given a member first: its learned member (confidence times the member's share), else the
    first member the document names as a mention of its own
    (:func:`relx.genes.family_genes.named_members`; confidence unchanged), else, with
    ``first``, the family's first member (confidence times ``FIRST_MEMBER_FACTOR``);
    ``ncbi_ids`` from ``ncbi``, default the shipped table."""
    from relx.genes.family_genes import named_members

    if not any(e.norm_ids and e.norm_ids[0].startswith("FPLX:")
               for s in doc.sentences for e in s.entities):
        return doc
    named = named_members(doc)

    def update(e: Entity) -> dict[str, object]:
        if not e.norm_ids or not e.norm_ids[0].startswith("FPLX:"):
            return {}
        if _NAMES_MEMBERS.search(e.text or doc.text[e.spans[0].start:e.spans[-1].end]):
            return {}
        conf, fam = e.norm_confidence, e.norm_ids[0]
        m = members.member(fam, e.taxon)
        share = members.shares.get(fam, 1.0)
        if m is None and e.id in named:
            m, share = _named_member(e, named[e.id]), 1.0
        if m is None and first:
            m, share = members.member(fam, e.taxon, first=True), FIRST_MEMBER_FACTOR
        if m is None:
            return {}
        ids = list(dict.fromkeys([m, *e.norm_ids]))
        return {"norm_ids": ids, "ncbi_ids": (ncbi or default_ncbi_gene()).ncbi_ids(ids),
                "norm_confidence": None if conf is None else round(conf * share, 3)}

    return with_entity_updates(doc, update)


def learned_families() -> frozenset[str]:
    """The FamPlex families of the shipped table's learned members: BioRED's annotators name
    them as that member, whatever else the document names (docs/genes.md, round 57)."""
    members = default_members()
    return frozenset(members.members) if members is not None else frozenset()


def default_members(path: Path | str | None = None) -> FamilyMembers | None:
    """The shipped table (``relx/data/family_members.json``) or the one at ``path``; None
    when none is shipped."""
    return shipped_json("family_members.json", FamilyMembers.from_json, path)
