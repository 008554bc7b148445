"""relx.genes.annotated_names: the names annotators gave ids, in every species, and the
lab builder's gene ids (lab.genes.annotated_names)."""

from __future__ import annotations

from pathlib import Path

import pytest

from relx.doc import Document, Entity, Sentence, Span
from relx.errors import ConfigError
from relx.genes.annotated_names import AnnotatedNames, entries_from, write_table
from relx.genes.document import ground_document

TP53, TRP53 = "HGNC:11998", "MGI:98834"      # TP53 and its mouse ortholog Trp53


def _doc(text: str, mention: str) -> Document:
    start = text.index(mention)
    ent = Entity(id="e1", spans=[Span(start=start, end=start + len(mention))], text=mention)
    return Document(id="d", text=text, sentences=[
        Sentence(id="s", text=text, start=0, end=len(text), entities=[ent])])


def _names(**settings: object) -> AnnotatedNames:
    triples = [("1", "frobnicase", TP53), ("2", "Frobnicase", TP53), ("3", "frobnicase", "HGNC:5"),
               ("1", "IL-2", "HGNC:6001"), ("4", "p53", "HGNC:6001"), ("5", "p53", "HGNC:6001"),
               ("6", "p53", "HGNC:6001")]
    return AnnotatedNames(entries=entries_from(triples), **settings)   # type: ignore[arg-type]


def test_entries_count_documents_per_name_and_gene() -> None:
    entries = entries_from([("1", "frobnicase", TP53), ("1", "Frobnicase", TP53),
                            ("2", "frob-nicase", TP53), ("2", "frobnicase", "HGNC:5")])
    assert entries == {"frobnicase": (2, ((TP53, 2), ("HGNC:5", 1)))}   # one key, 2 documents


def test_the_top_gene_in_the_mention_species_when_sure_enough() -> None:
    names = _names(min_docs=2)
    assert names.best("frobnicase", "NCBITaxon:9606") == (TP53, 0.667)
    assert names.best("Frobnicase", "NCBITaxon:10090") == (TRP53, 0.667)   # through orthologs
    assert names.best("frobnicase", "NCBITaxon:7227") is None               # no fly lexicon
    assert names.best("IL-2", "NCBITaxon:9606") is None                     # one document
    assert _names(min_docs=1).best("IL-2", "NCBITaxon:9606") == ("HGNC:6001", 1.0)
    assert _names(min_docs=2, min_share=0.7).best("frobnicase", "NCBITaxon:9606") is None
    assert _names().override("p53", "NCBITaxon:9606") is None               # no override setting
    assert _names(override_share=0.8).override("p53", "NCBITaxon:9606") == ("HGNC:6001", 1.0)


def test_a_mention_no_lexicon_knows_is_named_before_the_ranker() -> None:
    doc = _doc("Frobnicase was induced in patients.", "Frobnicase")
    assert ground_document(doc, annotated=False).sentences[0].entities[0].norm_ids == []
    got = ground_document(doc, annotated=_names(min_docs=2)).sentences[0].entities[0]
    assert got.norm_ids == [TP53] and got.ncbi_ids == ["NCBIGene:7157"] and got.grounded
    mouse = ground_document(_doc("Frobnicase was induced in mice.", "Frobnicase"),
                            annotated=_names(min_docs=2)).sentences[0].entities[0]
    assert mouse.norm_ids == [TRP53] and mouse.taxon == "NCBITaxon:10090"


def test_an_override_replaces_the_lexicon_best_id_and_keeps_it_second() -> None:
    doc = _doc("p53 was induced in patients.", "p53")
    plain = ground_document(doc, annotated=_names()).sentences[0].entities[0]
    assert plain.norm_ids[0] == TP53                                 # the lexicon's
    over = ground_document(doc, annotated=_names(override_share=0.8)).sentences[0].entities[0]
    assert over.norm_ids[:2] == ["HGNC:6001", TP53] and over.ncbi_ids[0] == "NCBIGene:3558"


def test_table_round_trip_with_its_settings(tmp_path: Path) -> None:
    entries = entries_from([("1", "frobnicase", TP53), ("2", "frobnicase", TP53)])
    path = write_table(tmp_path / "names.tsv.gz", entries,
                       {"min_docs": 2, "min_share": 0.5, "override_share": None}, "test")
    names = AnnotatedNames(path)
    assert names.settings == {"min_docs": 2, "min_share": 0.5, "override_share": None}
    assert names.best("frobnicase", "NCBITaxon:9606") == (TP53, 1.0)
    assert AnnotatedNames(path, min_docs=3).best("frobnicase", "NCBITaxon:9606") is None
    bad = tmp_path / "bad.tsv.gz"
    import gzip
    bad.write_bytes(gzip.compress(b"name\tid\n"))
    with pytest.raises(ConfigError):
        AnnotatedNames(bad).best("x", "NCBITaxon:9606")


def test_gold_genes_as_relx_ids() -> None:
    from lab.genes.annotated_names import local_ids, relx_gene

    local = local_ids()
    assert relx_gene("7157", local) == TP53           # human: its HGNC id
    assert relx_gene("22059", local) == TP53          # mouse Trp53: its human ortholog
    assert relx_gene("999999999", local) is None
