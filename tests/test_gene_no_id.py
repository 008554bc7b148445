"""Why a gene mention has no id (relx.genes.no_id), with the shipped lexicons and ranker."""

from __future__ import annotations

import json

import pytest

from relx.doc import Document, Entity, Sentence, Span
from relx.genes.document import ground_document
from relx.genes.lexicon import HUMAN, default_grounder
from relx.genes.no_id import REASONS, no_id_reason
from relx.genes.ranker import default_ranker

FLY = "NCBITaxon:7227"


@pytest.mark.parametrize(("text", "taxon", "reason"), [
    ("-4", HUMAN, "no_letter"),
    ("Dpp", FLY, "no_lexicon"),
    ("XQ", HUMAN, "short_name"),
    ("PTPmu", HUMAN, "below_threshold"),    # PTPRM, written neither as symbol nor name
    ("zqxwvkj", HUMAN, "no_match"),
])
def test_the_reason_a_mention_has_no_id(text: str, taxon: str, reason: str) -> None:
    assert no_id_reason(default_grounder(), default_ranker(), text, taxon) == reason


def test_a_class_phrase_is_named_a_class() -> None:
    got = no_id_reason(default_grounder(), default_ranker(), "tyrosine kinases", HUMAN,
                       class_name=lambda t: t.endswith("kinases"))
    assert got == "class_name"


def _doc(text: str, words: tuple[str, ...]) -> Document:
    ents = [Entity(id=f"T{k}", type="Protein", text=w,
                   spans=[Span(start=text.index(w), end=text.index(w) + len(w))])
            for k, w in enumerate(words)]
    return Document(id="d", text=text, sentences=[
        Sentence(id="d.s0", start=0, end=len(text), text=text, entities=ents)])


def test_ground_document_gives_the_reason_only_without_an_id() -> None:
    doc = ground_document(_doc("In patients, PTPmu binds TP53 and zqxwvkj.",
                               ("PTPmu", "TP53", "zqxwvkj")))
    ents = {e.text: e for e in doc.sentences[0].entities}
    assert ents["TP53"].norm_ids and ents["TP53"].norm_reason is None
    assert (ents["PTPmu"].norm_reason, ents["zqxwvkj"].norm_reason) == ("below_threshold",
                                                                        "no_match")
    assert all(e.norm_reason in REASONS for e in ents.values() if not e.norm_ids)
    dumped = json.loads(doc.model_dump_json(exclude_none=True))
    fields = [e for e in dumped["sentences"][0]["entities"]]
    assert ["norm_reason" in e for e in fields] == [True, False, True]


def test_the_input_document_is_not_changed() -> None:
    doc = _doc("zqxwvkj binds TP53.", ("zqxwvkj", "TP53"))
    ground_document(doc)
    assert all(e.norm_reason is None for e in doc.sentences[0].entities)


def test_a_gene_relation_side_without_an_id_says_why() -> None:
    from relx.ppi.gene_relations import Gene, gene_key, no_id_reasons

    doc = ground_document(_doc("In patients, PTPmu binds TP53.", ("PTPmu", "TP53")))
    reasons = no_id_reasons(doc)
    (ptpmu,) = gene_key(doc.sentences[0].entities[0])
    assert reasons == {ptpmu: "below_threshold"}
    named = Gene(id="7157", names=["TP53"], mentions=1, ids=["NCBIGene:7157"])
    unnamed = Gene(id=ptpmu, names=["PTPmu"], mentions=1, no_id_reason=reasons[ptpmu])
    assert "no_id_reason" not in json.loads(named.model_dump_json())
    assert json.loads(unnamed.model_dump_json())["no_id_reason"] == "below_threshold"


def test_the_report_says_why_a_gene_has_no_id() -> None:
    from relx.ppi.gene_report import gene_row

    rel = {"document_id": "d", "type": "Bind", "type_probability": 0.5, "novel": True,
           "novel_probability": 0.7, "probability": 0.6, "evidence": [],
           "gene1": {"id": "7157", "names": ["TP53"], "mentions": 1, "ids": ["NCBIGene:7157"]},
           "gene2": {"id": "text:ptpmu", "names": ["PTPmu"], "mentions": 1, "ids": [],
                     "no_id_reason": "below_threshold"}}
    row = gene_row(rel)
    assert "no id: the nearest lexicon names are too far" in row and "NCBIGene:7157" in row
    assert "text:ptpmu" not in row


def test_a_protein_named_by_its_mass_only_gets_no_id() -> None:
    """Round 103: ``a 95-kDa protein``, ``50-kDa`` name no gene (the ranker's 3-gram search
    found NCBI designations of the same mass: MED16, CPN1); a mass before a name the
    lexicon has (``72-kDa type IV collagenase``: MMP2) is grounded as before."""
    from relx.genes.class_words import generic_class, mass_only

    assert all(mass_only(t) for t in ("50-kDa", "a 95-kDa protein", "84 kDa protein",
                                      "265-kD protein", "120-kDa phosphoprotein"))
    assert not any(mass_only(t) for t in ("72-kDa type IV collagenase", "p50", "kDa",
                                          "50-kDa heat shock protein"))
    assert generic_class("95-kDa protein") and generic_class("kinases")
    text = "The BCL6 gene encodes a 95-kDa protein; the 50-kDa and the 72-kDa type IV collagenase."
    got = ground_document(_doc(text, ("95-kDa protein", "50-kDa", "72-kDa type IV collagenase")))
    ents = got.sentences[0].entities
    assert [(e.norm_ids, e.norm_reason) for e in ents[:2]] == [([], "class_name")] * 2
    assert ents[2].norm_ids[:1] == ["HGNC:7166"]


def test_heat_shock_proteins_named_by_their_mass() -> None:
    """Round 104: ``the 70-kDa heat shock protein`` is HSP70 (not HSPA4L, whose NCBI
    designation the 3-gram search found), ``27 kDa heat-shock protein`` HSP27 (HSPB1),
    ``78-kDa glucose-regulated protein`` GRP78; other mass-named proteins are not."""
    from relx.genes.class_words import mass_named
    from relx.genes.document import resolve

    assert [mass_named(t) for t in ("the 70-kDa heat shock protein", "27 kDa heat-shock protein",
                                    "90-kD heat shock proteins", "78-kDa glucose-regulated protein",
                                    "72-kDa type IV collagenase", "heat shock protein 70")] == [
        "HSP70", "HSP27", "HSP90", "GRP78", None, None]
    hsp70 = resolve("70-kDa heat shock protein", "NCBITaxon:9606")
    assert hsp70.ids == resolve("HSP70", "NCBITaxon:9606").ids and hsp70.ids[:1] == (
        "FPLX:HSPA",) and "HGNC:17041" not in hsp70.ids   # the HSP70 family, not HSPA4L
    assert resolve("27-kDa heat shock protein", "NCBITaxon:9606").ids[:1] == ("HGNC:5246",)
