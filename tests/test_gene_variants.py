"""Sequence variants written where a gene name is expected (relx.genes.variants): typed
SequenceVariant, with no ids, and paired with nothing."""

from __future__ import annotations

import pytest

from relx.doc import Document, Entity, Sentence, Span
from relx.genes.document import ground_document
from relx.genes.variants import VARIANT_TYPE, is_variant


@pytest.mark.parametrize("text", [
    "c.1775G>A", "c.1546_1547insC", "g.3318", "p.Arg243His", "p.(Gly12Asp)", "Tyr65X",
    "Arg243His", "G12D", "V600E", "F508del", "G2019S", "R172H", "rs1801133", "IVS3",
    "IVS4+1G>A", "30delG", "G/A",
])
def test_variant_notations(text: str) -> None:
    assert is_variant(text)


@pytest.mark.parametrize("text", [
    "E2F", "A3G", "H2A", "A6V",          # one digit: gene names look like that
    "CD4", "KRAS", "p53", "c-Myc", "IL-2", "S100B", "T1D", "C57BL",
])
def test_gene_names_are_not_variants(text: str) -> None:
    assert not is_variant(text)


def test_an_approved_symbol_written_like_a_substitution_stays_a_gene() -> None:
    assert is_variant("F11R") and not is_variant("F11R", {"F11R"})


def test_ground_document_types_a_variant_mention_and_gives_it_no_ids() -> None:
    text = "Kras G12D and CFTR F508del mice; F11R and KRAS."
    words = ("Kras", "G12D", "CFTR", "F508del", "F11R", "KRAS")
    ents, at = [], 0
    for k, w in enumerate(words):
        a = text.index(w, at)
        at = a + len(w)
        ents.append(Entity(id=f"T{k}", type="Protein", text=w, spans=[Span(start=a, end=at)]))
    doc = Document(id="d", text=text, sentences=[
        Sentence(id="s0", start=0, end=len(text), text=text, entities=ents)])
    out = {e.text: e for e in ground_document(doc).sentences[0].entities}
    for v in ("G12D", "F508del"):
        assert out[v].type == VARIANT_TYPE and out[v].norm_ids == [] and not out[v].grounded
        assert out[v].taxon is None
    assert out["F11R"].type == "Protein" and out["F11R"].norm_ids   # an approved symbol
    assert out["Kras"].norm_ids and out["CFTR"].norm_ids
