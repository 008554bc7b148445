"""BioRED train's gene--gene relations with their type and novelty, by registered split.

The split and the kept PMIDs are lab.genes.biored's (docs/relations.md): a PMID is in the
development split when ``sha1(pmid) % 5 == 0``; ``fold_of`` gives the fit split's 5
cross-validation folds, ``(sha1(pmid) // 5) % 5``. Only ``Train.PubTator.gz`` is read.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from lab.genes.biored import GENE_TYPE, in_dev, shared_dir
from relx.doc import Document, Entity, Sentence, Span
from relx.ppi.doc_view import DocView, Mention

N_FOLDS = 5


def fold_of(pmid: str) -> int:
    """The fit split's cross-validation fold of ``pmid`` (0..4), independent of the dev rule."""
    return (int(hashlib.sha1(pmid.encode("ascii")).hexdigest(), 16) // 5) % N_FOLDS


@dataclass
class GeneMention:
    start: int
    end: int
    text: str
    ids: tuple[str, ...]          # bare NCBI Gene ids, sorted


@dataclass
class GoldRelation:
    type: str
    novel: bool


@dataclass
class RelDoc:
    """One abstract: ``text`` is title + "\\n" + abstract (relx's PubTator convention)."""

    pmid: str
    text: str
    title_end: int
    genes: list[GeneMention] = field(default_factory=list)
    relations: dict[frozenset[str], GoldRelation] = field(default_factory=dict)
    #: mentions and relations of every entity type (chemicals, diseases, variants...)
    any_mentions: list[GeneMention] = field(default_factory=list)
    any_relations: dict[frozenset[str], GoldRelation] = field(default_factory=dict)

    def gene_ids(self) -> set[str]:
        return {i for m in self.genes for i in m.ids}

    def document(self) -> Document:
        """The abstract as a relx Document whose mentions are the gold gene mentions
        (entity ``T<k>`` is ``genes[k]``; ``norm_ids`` ``NCBIGene:<id>``)."""
        ents = [Entity(id=f"T{k}", spans=[Span(start=m.start, end=m.end)],
                       type="GeneOrGeneProduct", text=m.text,
                       norm_ids=[f"NCBIGene:{i}" for i in m.ids])
                for k, m in enumerate(self.genes)]
        return Document(id=self.pmid, text=self.text, source="pubtator", sentences=[
            Sentence(id=f"{self.pmid}.s0", start=0, end=len(self.text), text=self.text,
                     entities=ents)])


def read_relations(shared: str | Path | None = None, split: str = "fit") -> list[RelDoc]:
    """The documents of ``split`` (``dev``, ``fit``, ``all``), kept PMIDs dropped, with their
    gene mentions and gene--gene relations (both ids gene ids of the document, distinct)."""
    from relx.parse.ner_corpora import pubtator_blocks

    base = shared_dir(shared) / "corpora" / "biored"
    kept = set((base / "kept-pmids.txt").read_text().split())
    docs: dict[str, RelDoc] = {}
    for block in pubtator_blocks(base / "Train.PubTator.gz"):
        d = docs[block.pmid] = RelDoc(block.pmid, block.title + "\n" + block.abstract,
                                      len(block.title))
        for cols in block.mentions:
            ids = tuple(sorted({i.strip() for i in cols[5].replace(";", ",").split(",")
                                if i.strip() and i.strip() != "-"}))
            m = GeneMention(int(cols[1]), int(cols[2]), cols[3], ids)
            d.any_mentions.append(m)
            if cols[4] == GENE_TYPE:
                d.genes.append(m)
        for cols in block.relations:
            a, b = cols[2], cols[3]
            novel = len(cols) > 4 and cols[4].strip() == "Novel"
            if a != b:
                d.any_relations.setdefault(frozenset((a, b)), GoldRelation(cols[1], novel))
            if a != b and {a, b} <= d.gene_ids():
                d.relations.setdefault(frozenset((a, b)), GoldRelation(cols[1], novel))
    want = {"dev": in_dev, "fit": lambda p: not in_dev(p), "all": lambda p: True}[split]
    return [d for p, d in docs.items() if p not in kept and want(p)]


def any_type_pairs(doc: RelDoc, sentences: list[tuple[int, int]]
                   ) -> list[tuple[frozenset[str], GoldRelation, DocView]]:
    """Every gold relation of ``doc`` (any entity types) with a view holding all its
    mentions (``sentences``: the parse's sentence bounds), for the text models' extra data."""
    def sentence_of(start: int) -> int:
        return next((k for k, (a, b) in enumerate(sentences) if a <= start < b),
                    len(sentences) - 1)

    mentions = [Mention(f"M{k}", m.start, m.end, sentence_of(m.start), m.ids)
                for k, m in enumerate(doc.any_mentions)]
    view = DocView(doc.pmid, doc.text, sentences, mentions)
    present = {i for m in mentions for i in m.ids}
    return [(k, r, view) for k, r in doc.any_relations.items() if k <= present]
