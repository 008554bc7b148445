"""The genes a family mention stands for in its document: ``Sp`` in an abstract that names
``Sp1``, ``Sp3`` and ``Sp4`` stands for the three, as BioRED annotates it (the mention
carries the three members' ids and its relations are annotated with each member).

Used by document-level gene relations (:mod:`relx.ppi.gene_relations`); a mention's own
ids (``norm_ids``, ``ncbi_ids``) do not change.

    keys = family_genes(doc, gene_key, learned=learned_families())
    # {entity id: (gene, gene, ...)}
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from relx.doc import Document, Entity
from relx.genes.famplex import FamPlex, default_famplex
from relx.genes.orthologs import Orthologs, default_orthologs

__all__ = ["family_genes", "keyed_by_document", "named_members"]

#: the fewest members a document must name for a family mention to stand for them
MIN_NAMED = 2

GeneKey = Callable[[Entity], tuple[str, ...]]


def _family(e: Entity) -> str | None:
    """The FamPlex family among a mention's ids (its first), else None."""
    return next((i for i in e.norm_ids if i.startswith("FPLX:")), None)


def _human_ids(cid: str, orthologs: Orthologs) -> tuple[str, ...]:
    """A gene id's human HGNC ids: itself for HGNC, its human orthologs for MGI / RGD."""
    if cid.startswith("HGNC:"):
        return (cid,)
    return orthologs.to_human(cid) if cid.startswith(("MGI:", "RGD:")) else ()


def named_members(doc: Document, *, skip: Collection[str] = (),
                  famplex: FamPlex | None = None, orthologs: Orthologs | None = None
                  ) -> dict[str, list[Entity]]:
    """Entity id of each mention whose ids include a FamPlex family -> the mentions of the
    family's members that ``doc`` names on their own (a mention whose best id is a gene of
    the family, through the human ortholog for mouse and rat genes), in text order: those of
    the family mention's species when there are any, else all. Mentions whose family the
    document names no member of, or whose family is one of ``skip``, are not in the
    result."""
    ents = [e for s in doc.sentences for e in s.entities]
    families = {e.id: f for e in ents if (f := _family(e)) is not None}
    found = {eid: f for eid, f in families.items() if f not in skip}
    if not found:
        return {}
    famplex = famplex or default_famplex()
    orthologs = orthologs or default_orthologs()
    genes = [(e, human) for e in ents if e.id not in families and e.norm_ids
             and (human := _human_ids(e.norm_ids[0], orthologs))]
    members_of: dict[str, set[str]] = {}
    out: dict[str, list[Entity]] = {}
    for e in ents:
        fam = found.get(e.id)
        if fam is None:
            continue
        if fam not in members_of:
            members_of[fam] = famplex.members(fam)
        hits = [m for m, human in genes if any(h in members_of[fam] for h in human)]
        if hits:
            out[e.id] = [m for m in hits if m.taxon == e.taxon] or hits
    return out


def family_genes(doc: Document, key: GeneKey, *, learned: Collection[str] = (),
                 famplex: FamPlex | None = None, orthologs: Orthologs | None = None
                 ) -> dict[str, tuple[str, ...]]:
    """Entity id -> the genes (``key`` of each member mention, in text order) that a family
    mention stands for: the members :func:`named_members` finds, when there are at least
    :data:`MIN_NAMED` genes among them and the family is not one of ``learned`` (families
    with a learned member, :func:`relx.genes.members.learned_families`: the mention's best
    id is that member). Mentions of no family, or of a family the document names fewer
    members of, are not in the result."""
    out: dict[str, tuple[str, ...]] = {}
    for eid, hits in named_members(doc, skip=learned, famplex=famplex,
                                   orthologs=orthologs).items():
        genes = tuple(dict.fromkeys(g for m in hits for g in key(m)))
        if len(genes) >= MIN_NAMED:
            out[eid] = genes
    return out


def keyed_by_document(doc: Document, key: GeneKey, learned: Collection[str] = ()
                      ) -> GeneKey:
    """``key`` for ``doc``'s mentions, a family mention's being the members the document
    names (:func:`family_genes`; not for the ``learned`` families)."""
    fanned = family_genes(doc, key, learned=learned)
    if not fanned:
        return key
    return lambda e: fanned.get(e.id) or key(e)
