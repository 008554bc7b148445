"""lab.genes.biored: the registered BioRED split and the naming figures (real BioRED train)."""

from __future__ import annotations

import pytest

from lab.genes.biored import NcbiIds, Tally, in_dev, read_biored, score_document
from relx.doc import Document, Entity, Sentence, Span
from tests.conftest import SHARED

BIORED = SHARED / "corpora" / "biored" / "Train.PubTator.gz"
NCBI = SHARED / "lexicons" / "ncbi-gene" / "Homo_sapiens.gene_info.gz"
needs_data = pytest.mark.skipif(not (BIORED.exists() and NCBI.exists()),
                                reason="BioRED train / NCBI gene_info not in ../shared")


def test_split_is_the_registered_hash() -> None:
    picked = [p for p in map(str, range(1000, 3000)) if in_dev(p)]
    assert 350 < len(picked) < 450          # one in five


@needs_data
def test_splits_partition_the_documents_and_drop_kept_pmids() -> None:
    dev, fit = read_biored(SHARED, "dev"), read_biored(SHARED, "fit")
    assert (len(dev), len(fit)) == (86, 314)
    assert not {d.pmid for d in dev} & {d.pmid for d in fit}
    kept = set((SHARED / "corpora" / "biored" / "kept-pmids.txt").read_text().split())
    assert not kept & {d.pmid for d in dev + fit}
    assert sum(len(d.genes) for d in dev) == 1028


@needs_data
def test_one_document_scored_against_its_gold() -> None:
    doc = read_biored(SHARED, "fit")[0]
    first, second = doc.genes[:2]
    assert (first.text, first.ids) == ("Langerin", frozenset({"50489"}))
    ncbi = NcbiIds(SHARED)
    assert ncbi.ncbi("HGNC:17935") == "50489" and ncbi.species("50489") == "human"
    # relx's view: "Langerin" right (CD207 = HGNC:17935), "C-type lectin" a wrong gene
    ents = [Entity(id="e1", spans=[Span(start=0, end=8)], text="Langerin",
                   norm_ids=["HGNC:17935"]),
            Entity(id="e2", spans=[Span(start=second.start, end=second.end)],
                   text=second.text, norm_ids=["HGNC:5024"])]
    pred = Document(id=doc.pmid, text=doc.text,
                    sentences=[Sentence(id="s1", text=doc.text, start=0, end=len(doc.text),
                                       entities=ents)])
    tally = Tally()
    score_document(doc, pred, [], ncbi, tally)
    rep = tally.report()
    assert rep["ids"]["found"] == 2 and rep["ids"]["human"]["best_right"] == 0.5
    assert rep["mentions"]["exact"]["tp"] == 2 and rep["pairs"]["predicted"] == 0
    assert rep["ids"]["no_id"] == 0.0
    assert tally.documents[doc.pmid]["found_human"] == 2
    assert tally.documents[doc.pmid]["right_human"] == 1


@needs_data
def test_mentions_without_an_id_are_counted_by_reason() -> None:
    from lab.genes.biored import wrong_markdown

    doc = read_biored(SHARED, "fit")[0]
    first, second = doc.genes[:2]
    ents = [Entity(id="e1", spans=[Span(start=first.start, end=first.end)], text=first.text,
                   grounded=False, norm_reason="below_threshold"),
            Entity(id="e2", spans=[Span(start=second.start, end=second.end)],
                   text=second.text, grounded=False)]
    pred = Document(id=doc.pmid, text=doc.text,
                    sentences=[Sentence(id="s1", text=doc.text, start=0, end=len(doc.text),
                                       entities=ents)])
    tally = Tally()
    score_document(doc, pred, [], NcbiIds(SHARED), tally)
    rep = tally.report()
    assert rep["ids"]["no_id"] == 1.0
    assert rep["ids"]["no_id_reasons"] == {"below_threshold": 1, "-": 1}
    assert "by reason (`relx.genes.no_id`): below_threshold 1, - 1" in wrong_markdown(rep)
