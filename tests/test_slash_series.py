"""Numbers after a slash (relx.genes.slash_series): the ``2`` of ``ERK1/2`` named as ERK2,
in grounding and in the tagger's missed mentions."""

from __future__ import annotations

import pytest

from relx.doc import Document, Entity, Sentence, Span
from relx.genes.document import ground_document
from relx.genes.lexicon import default_grounder
from relx.genes.more_mentions import more_mentions
from relx.genes.slash_series import is_member_number, member_numbers, series_name


def _at(text: str, word: str, start: int = 0) -> tuple[int, int]:
    i = text.index(word, start)
    return i, i + len(word)


@pytest.mark.parametrize(("text", "number", "name"), [
    ("the ERK1/2 inhibitor", "2", "ERK2"),
    ("Smad1/5/8 phosphorylation", "5", "Smad5"),
    ("Smad1/5/8 phosphorylation", "8", "Smad8"),
    ("IL-4/13 signalling", "13", "IL-13"),
    ("CDK4/6 inhibitors", "6", "CDK6"),
    ("Wnt3a/5a ligands", "5a", "Wnt5a"),
    ("p50/65 dimers", "65", "p65"),
    ("ERK 1/2 activation", "2", "ERK 2"),
])
def test_a_number_after_a_slash_names_the_next_member(text: str, number: str,
                                                      name: str) -> None:
    start = text.index("/") + 1
    start = text.index(number, start)
    assert series_name(text, start, start + len(number)) == name


@pytest.mark.parametrize(("text", "number"), [
    ("a ratio of 1/2 of the cells", "2"),     # no name before the first number
    ("CD4/CD8 ratio", "CD8"),                 # not a number
    ("ERK1/2-dependent", "2"),                # inside a longer word
    ("ERK1/234 cells", "234"),                # three digits: not a member number
    ("HER2 / 3 cells", "3"),                  # spaced slash: not one word
])
def test_what_is_not_a_member_number_after_a_slash(text: str, number: str) -> None:
    start = text.rindex(number)
    assert series_name(text, start, start + len(number)) is None


def test_member_numbers_follow_a_name() -> None:
    text = "Smad1/5/8 and ERK1/2."
    assert [text[a:b] for a, b in member_numbers(text, _at(text, "Smad1")[1])] == ["5", "8"]
    assert list(member_numbers(text, _at(text, "Smad1/5/8")[1])) == []
    assert is_member_number("2") and is_member_number("5a") and not is_member_number("ERK")


def test_the_tagger_s_missed_numbers_become_mentions_when_they_name_genes() -> None:
    text = "Knockdown of LATS1/2 and Smad1/5/8, not of Fig1/2 or ABC1/99."
    tagged = [_at(text, "LATS1"), _at(text, "Smad1"), _at(text, "Fig1"), _at(text, "ABC1")]
    added = more_mentions(text, tagged)
    assert [(text[a:b], a) for a, b in added] == [
        ("2", text.index("/2") + 1), ("5", text.index("/5") + 1),
        ("8", text.index("/8") + 1)]   # Fig2 and ABC99 name no gene


def _grounded(text: str, *words: str) -> list[Entity]:
    ents, at = [], 0
    for k, w in enumerate(words):
        a, b = _at(text, w, at)
        at = b
        ents.append(Entity(id=f"T{k}", type="Protein", text=w, spans=[Span(start=a, end=b)]))
    doc = Document(id="d", text=text, sentences=[
        Sentence(id="s0", start=0, end=len(text), text=text, entities=ents)])
    return ground_document(doc).sentences[0].entities


def test_ground_document_names_the_number_after_a_slash() -> None:
    g = default_grounder()
    erk1, erk2 = _grounded("The ERK1/2 inhibitor blocked it in HeLa cells.", "ERK1", "2")
    assert [g.symbol(erk1.norm_ids[0]), g.symbol(erk2.norm_ids[0])] == ["MAPK3", "MAPK1"]
    assert erk2.ncbi_ids == ["NCBIGene:5594"] and erk2.grounded
    smad1, smad5, smad8 = _grounded("Smad1/5/8 rose in the mice.", "Smad1", "5", "8")
    assert [g.symbol(e.norm_ids[0]) for e in (smad1, smad5, smad8)] == \
        ["Smad1", "Smad5", "Smad9"]   # Smad8 is Smad9's other name
    lone, = _grounded("Group 2 was treated.", "2")   # a number after no slash: no id
    assert lone.norm_ids == [] and not lone.grounded


def test_two_members_of_one_series_word_are_not_an_interaction() -> None:
    from relx.genes.same_gene import REASONS, same_gene

    text = "ERK1/2 and Smad1/5/8 bind JAK2 and ERK1 / 2 cells."
    words = ("ERK1", "2", "Smad1", "5", "8", "JAK2")
    doc = Document(id="d", text=text, sentences=[Sentence(
        id="s0", start=0, end=len(text), text=text, entities=_grounded(text, *words))])
    erk1, erk2, smad1, smad5, smad8, jak2 = doc.sentences[0].entities
    assert same_gene(erk1, erk2, doc) == same_gene(erk2, erk1, doc) == "series"
    assert same_gene(smad1, smad8, doc) == same_gene(smad5, smad8, doc) == "series"
    assert "series" in REASONS
    assert same_gene(erk2, jak2, doc) is None          # "and" between: may interact
    assert same_gene(erk1, jak2, doc) is None


def test_a_gene_relation_names_the_member_number_by_its_series_name() -> None:
    import relx
    from relx.model_store import models_dir

    if not (models_dir() / "gene-relations" / "meta.json").exists():
        pytest.skip("models/gene-relations not trained")
    text = "EGF activated ERK1/2 in HeLa cells, and ERK1/2 phosphorylated c-Fos."
    rels = relx.load(warm_up=False).extract(text)
    names = {n for r in rels for gene in (r.gene1, r.gene2) for n in gene.names}
    assert "2" not in names and {"ERK1", "ERK2"} <= names
    pairs = {frozenset((r.gene1.id, r.gene2.id)) for r in rels}
    assert frozenset(("5594", "5595")) not in pairs     # MAPK1 and MAPK3: one series word
