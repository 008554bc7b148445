"""relx.genes.members and .confidence: the member a family name stands for and calibrated
confidences, both learned from BioRED train."""

from __future__ import annotations

import pytest

from relx.doc import Document, Entity, Sentence, Span
from relx.errors import ConfigError
from relx.genes.document import ground_document
from relx.genes.members import FamilyMembers, default_members, with_members


def _doc(text: str, mention: str) -> Document:
    start = text.index(mention)
    ent = Entity(id="e1", spans=[Span(start=start, end=start + len(mention))], text=mention)
    return Document(id="d", text=text, sentences=[
        Sentence(id="s", text=text, start=0, end=len(text), entities=[ent])])


def test_a_family_gets_its_member_first_and_keeps_the_family() -> None:
    table = FamilyMembers({"FPLX:RAS": "HGNC:5173"}, {"FPLX:RAS": 0.5})
    doc = ground_document(_doc("Ras activates Raf in these cells.", "Ras"), members=False)
    assert doc.sentences[0].entities[0].norm_ids[0] == "FPLX:RAS"
    out = with_members(doc, table).sentences[0].entities[0]
    assert out.norm_ids[:2] == ["HGNC:5173", "FPLX:RAS"]                    # HRAS
    before = doc.sentences[0].entities[0].norm_confidence
    assert out.norm_confidence == pytest.approx(before * 0.5, abs=1e-3)
    assert FamilyMembers.from_json(table.to_json()).members == table.members
    with pytest.raises(ConfigError):
        FamilyMembers.from_json({"format": "x", "families": {}})


def test_the_shipped_table_in_human_and_mouse() -> None:
    table = default_members()
    assert table is not None and table.member("FPLX:VEGF", None) == "HGNC:12680"   # VEGFA
    assert table.member("FPLX:VEGF", "NCBITaxon:10090") == "MGI:103178"            # Vegfa
    assert table.member("FPLX:no_such_family", None) is None
    human = ground_document(_doc("VEGF induces angiogenesis in patients.", "VEGF"))
    assert human.sentences[0].entities[0].norm_ids[:2] == ["HGNC:12680", "FPLX:VEGF"]
    named = ground_document(_doc("ERK1/2 is active in patients.", "ERK1/2"))
    assert named.sentences[0].entities[0].norm_ids[0] != "HGNC:6871"   # names its members


def test_confidences_are_mapped_through_the_shipped_calibration() -> None:
    from relx.genes.confidence import ConfidenceMap, default_confidence_map

    cmap = ConfidenceMap([0.0, 0.5, 1.0], [0.1, 0.4, 0.9])
    assert (cmap(0.25), cmap(1.0)) == (0.25, 0.9)
    assert ConfidenceMap.from_json(cmap.to_json()).y.tolist() == [0.1, 0.4, 0.9]
    with pytest.raises(ConfigError):
        ConfidenceMap([0.5, 0.2], [0.1, 0.2])
    shipped = default_confidence_map()
    assert shipped is not None and list(shipped.y) == sorted(shipped.y)   # monotone
    doc = _doc("JAK1 phosphorylates STAT5 in these cells.", "STAT5")
    raw = ground_document(doc, calibration=False).sentences[0].entities[0]
    out = ground_document(doc).sentences[0].entities[0]
    assert out.norm_ids == raw.norm_ids and out.norm_confidence == shipped(raw.norm_confidence)


def test_a_family_with_no_learned_member_stands_for_its_first_member() -> None:
    from relx.genes.lexicon import default_grounder
    from relx.genes.members import FIRST_MEMBER_FACTOR, first_member

    symbol = default_grounder().symbol
    assert symbol(first_member("FPLX:Caspase")) == "CASP1"     # natural order, not CASP10
    assert symbol(first_member("FPLX:CD3")) == "CD3D"          # named like the family first
    assert symbol(first_member("FPLX:FABP")) == "FABP1"        # not CRABP1
    assert first_member("FPLX:no_such_family") is None
    doc = ground_document(_doc("Caspase activity rose in these cells.", "Caspase"),
                          members=False)
    fam = doc.sentences[0].entities[0]
    assert fam.norm_ids[0] == "FPLX:Caspase"
    empty = FamilyMembers({})
    out = with_members(doc, empty).sentences[0].entities[0]
    assert out.norm_ids[:2] == [first_member("FPLX:Caspase"), "FPLX:Caspase"]
    assert out.norm_confidence == pytest.approx(fam.norm_confidence * FIRST_MEMBER_FACTOR,
                                                abs=1e-3)
    assert with_members(doc, empty, first=False).sentences[0].entities[0].norm_ids == \
        fam.norm_ids
