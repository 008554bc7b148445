"""relx parse's sentence-graph formats: PENMAN read back by the penman package, JSON graphs
with the same nodes and edges, both through the format table."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from relx.app.cli import app
from relx.doc import Dependency, Document, Entity, Sentence, Span, Token
from relx.io.amr import TOP_CONCEPT, document_graphs_json, sentence_penman, write_penman

penman = pytest.importorskip("penman")
GE_DEVEL = Path(__file__).resolve().parents[2] / "shared/corpora/bionlp-st-ge/2011/devel"


def _sentence() -> Sentence:
    words = [("SOCS3", "NNP"), ("does", "VBZ"), ("not", "RB"), ("inhibit", "VB"), ("JAK1", "NNP"),
             ("(", "-LRB-"), ("a/b:c", "NN"), (")", "-RRB-")]
    toks, pos = [], 0
    for i, (w, p) in enumerate(words):
        toks.append(Token(index=i, text=w, start=pos, end=pos + len(w), pos=p, lemma=w.lower()))
        pos += len(w) + 1
    deps = [Dependency(head=3, dependent=0, label="nsubj"), Dependency(head=3, dependent=1,
            label="aux"), Dependency(head=3, dependent=2, label="neg"),
            Dependency(head=3, dependent=4, label="dobj"), Dependency(head=4, dependent=6,
            label="appos"), Dependency(head=6, dependent=5, label="punct"),
            Dependency(head=6, dependent=7, label="punct")]
    text = " ".join(w for w, _ in words)
    ents = [Entity(id="d.e0", spans=[Span(start=0, end=5)], text="SOCS3"),
            Entity(id="d.e1", spans=[Span(start=23, end=27)], text="JAK1")]
    return Sentence(id="d.s0", start=0, end=len(text), text=text, tokens=toks,
                    dependencies=deps, entities=ents)


def _check(graph_text: str, graph_json: dict) -> None:
    g = penman.decode(graph_text)
    assert g.top == "g" and g.metadata["id"] == graph_json["sentence_id"]
    instances = {src: concept for src, _, concept in g.instances()}
    assert instances.pop("g") == TOP_CONCEPT
    assert sorted(instances) == sorted(f"t{n['id']}" for n in graph_json["nodes"])
    edges = {(s, r, t) for s, r, t in g.edges() if s != "g"}
    assert edges == {(f"t{e['source']}", f":{e['label']}", f"t{e['target']}")
                     for e in graph_json["edges"]}
    pieces = [t for s, r, t in g.edges() if s == "g"]
    assert pieces and all(r == ":part" for s, r, _ in g.edges() if s == "g")


def test_penman_and_json_agree_on_a_hand_made_parse():
    sent = _sentence()
    doc = Document(id="d", text=sent.text, sentences=[sent])
    graphs = document_graphs_json(doc)
    _check(sentence_penman(sent), graphs["sentences"][0])
    g = penman.decode(sentence_penman(sent))
    assert ("t3", ":polarity", "-") in g.attributes()          # "does not inhibit"
    assert ("t0", ":entity", '"d.e0"') in g.attributes()
    assert {c for _, _, c in g.instances()} >= {"inhibit", "SOCS3", "JAK1", "a_b_c"}
    buf = io.StringIO()
    write_penman(doc, buf)
    assert len(penman.loads(buf.getvalue())) == 1


@pytest.mark.slow
def test_relx_parse_writes_both_graph_formats(tmp_path: Path):
    src = tmp_path / "a.txt"
    src.write_text("IL-2 induces the phosphorylation of STAT5. SOCS3 binds JAK2 and TYK2.\n")
    runner = CliRunner()
    for fmt in ("penman", "amr-json"):
        res = runner.invoke(app, ["parse", str(src), "--format", fmt,
                                  "--out", str(tmp_path / fmt)])
        assert res.exit_code == 0, res.output
    graphs = penman.load(tmp_path / "penman")
    doc = json.loads((tmp_path / "amr-json").read_text())
    assert len(graphs) == len(doc["sentences"]) == 2
    for text, js in zip(penman.loads((tmp_path / "penman").read_text()), doc["sentences"],
                        strict=True):
        _check(penman.encode(text), js)
    res = runner.invoke(app, ["parse", str(src), "--format", "nonsense"])
    assert res.exit_code == 2 and "penman" in res.output


@pytest.mark.slow
@pytest.mark.skipif(not GE_DEVEL.is_dir(), reason="GE 2011 devel not available")
def test_every_ge_devel_graph_reads_back():
    from relx.io.standoff import read_standoff_dir
    from relx.parse.pipeline import Parser

    parser = Parser()
    docs = [Document(id=d.id, text=d.text) for d in read_standoff_dir(GE_DEVEL)]
    n = 0
    for doc in parser.parse_documents(docs):
        for sent in doc.sentences:
            _check(sentence_penman(sent), document_graphs_json(
                Document(id=doc.id, text=doc.text, sentences=[sent]))["sentences"][0])
            n += 1
    assert n > 2000
