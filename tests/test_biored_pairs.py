"""Silver PPI pairs from BioRED's document-level gene relations (lab.relations.biored_pairs)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lab.genes.biored import in_dev
from lab.relations.biored_pairs import biored_ppi_document, count, parse_biored, trigger_between
from lab.relations.corpus import GeneMention, GoldRelation, RelDoc, read_relations
from relx.doc import Document, Sentence
from relx.represent.instances import pair_instances

SHARED = Path(os.environ.get("RELX_DATA") or Path(__file__).resolve().parents[2] / "shared")
BIORED = SHARED / "corpora" / "biored" / "Train.PubTator.gz"

#  two sentences; genes 1 (twice), 2, 3, a mention with two ids (4;5) and one without an id
TEXT = ("TP53 binds MDM2 and TP53 was seen with EGFR.\n"
        "MDM2 and EGFR levels and ERBB2 and ABC1 were measured.")


def _fixture() -> tuple[RelDoc, Document]:
    spans = [(0, 4, ("1",)), (11, 15, ("2",)), (20, 24, ("1",)), (39, 43, ("3",)),
             (45, 49, ("2",)), (54, 58, ("3",)), (70, 75, ("4", "5")), (80, 84, ())]
    genes = [GeneMention(s, e, TEXT[s:e], ids) for s, e, ids in spans]
    doc = RelDoc("123", TEXT, 0, genes, {frozenset(("1", "2")): GoldRelation("Bind", True),
                                          frozenset(("2", "3")): GoldRelation("Association", False),
                                          frozenset(("3", "5")): GoldRelation("Association", False)})
    ents = doc.document().sentences[0].entities
    cut = TEXT.index("\n")
    parsed = Document(id="123", text=TEXT, sentences=[
        Sentence(id="123.s0", start=0, end=cut, text=TEXT[:cut], entities=ents[:4]),
        Sentence(id="123.s1", start=cut + 1, end=len(TEXT), text=TEXT[cut + 1:],
                 entities=ents[4:])])
    return doc, parsed


def _labels(doc: Document) -> dict[tuple[str, str], bool]:
    return {(r.arg1, r.arg2): bool(r.label) for s in doc.sentences for r in s.relations}


def test_document_labels_mark_every_mention_pair_of_a_related_gene_pair():
    doc, parsed = _fixture()
    got = biored_ppi_document(doc, parsed)
    # T0/T2 are one gene (no pair), T7 has no id; T6 (ids 4;5) relates to gene 3 through 5
    assert _labels(got) == {("T0", "T1"): True, ("T0", "T3"): False, ("T1", "T2"): True,
                            ("T1", "T3"): True, ("T2", "T3"): False,
                            ("T4", "T5"): True, ("T4", "T6"): False, ("T5", "T6"): True}
    assert all(r.silver for s in got.sentences for r in s.relations)
    assert got.source == "BioRED-silver"
    assert count([got]) == (8, 5)


def test_trigger_labels_leave_out_related_pairs_without_an_interaction_word():
    doc, parsed = _fixture()
    got = _labels(biored_ppi_document(doc, parsed, "trigger"))
    # "binds" between T0 and T1; the other related pairs have none between them ("and",
    # "and TP53 was seen with", "levels and"): left out; unrelated pairs stay negative
    assert got == {("T0", "T1"): True, ("T0", "T3"): False, ("T2", "T3"): False,
                   ("T4", "T6"): False}
    assert trigger_between(TEXT, parsed.sentences[0].entities[0],
                           parsed.sentences[0].entities[1])


def test_unknown_labelling_is_refused():
    doc, parsed = _fixture()
    with pytest.raises(ValueError):
        biored_ppi_document(doc, parsed, "sentence")


@pytest.mark.skipif(not BIORED.is_file(), reason="../shared BioRED train absent")
def test_real_fit_split_pairs_are_parsed_and_never_from_the_dev_split():
    docs = read_relations(SHARED, "fit")
    kept = set((BIORED.parent / "kept-pmids.txt").read_text().split())
    assert docs and not any(in_dev(d.pmid) or d.pmid in kept for d in docs)
    some = [d for d in docs if d.relations][:2]
    silver = [biored_ppi_document(d, p) for d, p in zip(some, parse_biored(some), strict=True)]
    inst = pair_instances(silver)
    n, pos = count(silver)
    assert len(inst) == n > pos > 0
    for x in inst:   # every candidate is a same-sentence pair of two different genes
        a, b = x.relation.arg1, x.relation.arg2
        assert a != b and x.sentence.entity(a) is not None and x.sentence.entity(b) is not None
