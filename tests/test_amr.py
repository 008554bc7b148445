"""AMR-style semantic graphs: on hand-built parses and on sentences parsed by relx."""

from __future__ import annotations

import pytest

from relx.doc import Dependency, Document, Entity, Sentence, Span, Token
from relx.model_store import models_dir
from relx.parse.amr import concept_of, semantic_graph, semantic_path


def _sentence(words: list[tuple[str, str, str, int, str]], names: list[str]) -> Sentence:
    """words: (text, lemma, tag, head index or -1, label)."""
    toks, deps, pos = [], [], 0
    for i, (w, lem, tag, h, lab) in enumerate(words):
        toks.append(Token(index=i, text=w, start=pos, end=pos + len(w), pos=tag, lemma=lem))
        if h >= 0:
            deps.append(Dependency(head=h, dependent=i, label=lab))
        pos += len(w) + 1
    text = " ".join(w[0] for w in words)
    ents = [Entity(id=f"e{k}", spans=[Span(start=text.index(n), end=text.index(n) + len(n))],
                   text=n) for k, n in enumerate(names)]
    return Sentence(id="s", start=0, end=len(text), text=text, tokens=toks, dependencies=deps,
                    entities=ents)


def _edges(g) -> set[tuple[str, str, str]]:
    return {(g.nodes[u]["concept"], a["label"], g.nodes[v]["concept"])
            for u, v, a in g.edges(data=True)}


def test_concepts() -> None:
    assert concept_of("phosphorylation", "NN") == ("phosphorylate", True)
    assert concept_of("binding", "NN") == ("bind", True)
    assert concept_of("ubiquitination", "NN") == ("ubiquitinate", True)
    assert concept_of("bind", "VBZ") == ("bind", True)
    assert concept_of("cell", "NNS") == ("cell", False)


def test_passive_nominalisation_negation_and_names() -> None:
    # "The IL-2 receptor is not bound by tumor necrosis factor ."
    s = _sentence([("The", "the", "DT", 2, "det"), ("IL-2", "IL-2", "NN", 2, "compound"),
                   ("receptor", "receptor", "NN", 5, "nsubjpass"), ("is", "be", "VBZ", 5, "auxpass"),
                   ("not", "not", "RB", 5, "neg"), ("bound", "bind", "VBN", -1, "root"),
                   ("by", "by", "IN", 5, "agent"), ("JAK1", "JAK1", "NN", 6, "pobj"),
                   (".", ".", ".", 5, "punct")], ["IL-2 receptor", "JAK1"])
    g = semantic_graph(s)
    assert {d["concept"] for _, d in g.nodes(data=True)} == {"IL-2 receptor", "bind", "JAK1"}
    assert _edges(g) == {("bind", "ARG1", "IL-2 receptor"), ("bind", "ARG0", "JAK1")}
    bind = next(n for n, d in g.nodes(data=True) if d["concept"] == "bind")
    assert g.nodes[bind]["polarity"] == "-" and g.nodes[bind]["event"]
    path = semantic_path(s, s.entities[0], s.entities[1], g)
    assert path == [("<none>", "PROT1", "PROT1", "PROT"), ("<ARG1", "not-bind", "not-bind", "VBN"),
                    ("ARG0>", "PROT2", "PROT2", "PROT")]


def test_structure_extractor_amr() -> None:
    from relx.represent.instances import PairInstance, StructureExtractor

    s = _sentence([("JAK1", "JAK1", "NN", 1, "nsubj"), ("binds", "bind", "VBZ", -1, "root"),
                   ("STAT5", "STAT5", "NN", 1, "dobj")], ["JAK1", "STAT5"])
    from relx.doc import Relation

    s.relations.append(Relation(id="r", arg1="e0", arg2="e1"))
    x = [PairInstance("d", s, s.relations[0])]
    out = StructureExtractor(structures=("amr",)).fit_transform(x)
    assert len(out.parts["amr"]) == 1 and len(out.parts["amr"].edges) == 3


@pytest.mark.slow
@pytest.mark.skipif(not (models_dir() / "relx_bio_sm").exists(), reason="no shipped pipeline")
def test_real_sentences_through_relx_parser() -> None:
    pytest.importorskip("spacy")
    from relx.parse.pipeline import Parser

    parser = Parser()

    def graph(text: str, names: list[str]):
        ents = [Entity(id=f"e{k}", spans=[Span(start=text.index(n), end=text.index(n) + len(n))],
                       text=n) for k, n in enumerate(names)]
        doc = Document(id="d", text=text, sentences=[
            Sentence(id="d.s0", start=0, end=len(text), text=text, entities=ents)])
        s = next(parser.parse_documents([doc])).sentences[0]
        return s, semantic_graph(s)

    s, g = graph("Phosphorylation of STAT5 by JAK1 was not observed.", ["STAT5", "JAK1"])
    assert ("phosphorylate", "ARG1", "STAT5") in _edges(g)
    assert ("phosphorylate", "ARG0", "JAK1") in _edges(g)
    assert ("observe", "ARG1", "phosphorylate") in _edges(g)
    assert [d["polarity"] for _, d in g.nodes(data=True) if d["concept"] == "observe"] == ["-"]
    assert "of" not in {d["concept"] for _, d in g.nodes(data=True)}  # function words gone

    s, g = graph("SOCS3 inhibits the binding of JAK1 to the IL-2 receptor.",
                 ["SOCS3", "JAK1", "IL-2 receptor"])
    assert {("inhibit", "ARG0", "SOCS3"), ("inhibit", "ARG1", "bind"),
            ("bind", "ARG1", "JAK1"), ("bind", "ARG2", "IL-2 receptor")} <= _edges(g)
    path = semantic_path(s, s.entities[0], s.entities[1], g)
    assert [t[0] for t in path] == ["<none>", "<ARG0", "ARG1>", "ARG1>"]
