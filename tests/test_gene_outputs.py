"""Document-level gene relations (task gene-relations, relx extract's default) in every
output format: TSV, BioRED-shaped PubTator and BioC (read back with the ``bioc`` library
and relx's readers), INDRA Statements (loaded by INDRA), the gene network (networkx reads
the GraphML) and the HTML report; relx's GENIA reading beside BioRED's type."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import networkx as nx
import pytest
from conftest import FIXTURES, ROOT, SHARED

from relx.doc import Document, Entity, Sentence, Span
from relx.io.bioc_genes import write_bioc_gene_relations
from relx.io.indra import gene_statements
from relx.io.network import aggregate, gene_relation_record, write_cyjs, write_graphml
from relx.io.pubtator import format_gene_pubtator, read_pubtator
from relx.io.tsv import GENE_TSV_COLUMNS, write_gene_tsv
from relx.ppi.doc_view import doc_view
from relx.ppi.extract import ExtractedEntity, ExtractedRelation
from relx.ppi.gene_relations import Evidence, Gene, GeneRelation, add_event_types, gene_key
from relx.ppi.gene_report import render_gene_report

BIORED_TRAIN = SHARED / "corpora" / "biored" / "Train.PubTator.gz"
SAMPLES = ROOT / "corpora" / "abstracts"      # the bundled sample abstracts

TITLE = "ATM phosphorylates TP53."
ABSTRACT = "MDM2 binds p53 in U2OS cells. ATM levels correlate with MDM2."
TEXT = f"{TITLE}\n{ABSTRACT}"
GENES = {"ATM": "472", "TP53": "7157", "p53": "7157", "MDM2": "4193"}


def _doc() -> Document:
    """Three sentences, gene mentions with the input's own NCBI Gene ids."""
    bounds = [(0, len(TITLE))]
    s1 = len(TITLE) + 1
    s2 = TEXT.index("ATM levels")
    bounds += [(s1, s2 - 1), (s2, len(TEXT))]
    sents, k = [], 0
    for i, (a, b) in enumerate(bounds):
        ents = []
        for word, gid in GENES.items():
            for m in re.finditer(rf"\b{word}\b", TEXT[a:b]):
                ents.append(Entity(id=f"T{k}", spans=[Span(start=a + m.start(),
                                                             end=a + m.end())],
                                   type="Gene", text=word, norm_ids=[f"NCBIGene:{gid}"]))
                k += 1
        sents.append(Sentence(id=f"12345.s{i}", start=a, end=b, text=TEXT[a:b],
                              entities=sorted(ents, key=lambda e: e.start)))
    return Document(id="12345", text=TEXT, sentences=sents, source="pubtator")


def _ev(doc: Document, k: int, score: float | None) -> Evidence:
    s = doc.sentences[k]
    return Evidence(sentence_id=s.id, sentence=s.text, start=s.start, end=s.end, score=score)


def _relations(doc: Document) -> list[GeneRelation]:
    common = {"document_id": doc.id, "threshold": 0.4, "model": "gene-relations",
              "model_version": "0.1.0"}
    atm, tp53 = Gene(id="472", names=["ATM"], mentions=2), Gene(id="7157",
                                                              names=["TP53", "p53"], mentions=2)
    mdm2 = Gene(id="4193", names=["MDM2"], mentions=2)
    return [
        GeneRelation(gene1=atm, gene2=tp53, probability=0.91, type="Positive_Correlation",
                     type_probability=0.7, novel=True, novel_probability=0.8,
                     evidence=[_ev(doc, 0, 0.95)], **common),
        GeneRelation(gene1=mdm2, gene2=tp53, probability=0.8, type="Bind",
                     type_probability=0.9, novel=False, novel_probability=0.3,
                     evidence=[_ev(doc, 1, 0.9)], **common),
        GeneRelation(gene1=atm, gene2=mdm2, probability=0.5, type="Association",
                     type_probability=0.6, novel=True, novel_probability=0.7,
                     evidence=[_ev(doc, 2, 0.4)], **common),
        GeneRelation(gene1=mdm2, gene2=atm, probability=0.45, type="Negative_Correlation",
                     type_probability=0.5, novel=False, novel_probability=0.2,
                     evidence=[], **common),
    ]


def _pair(doc: Document, a: str, b: str, k: int, score: float, typ: str = "Interaction",
          direction: str | None = None, negated: bool = False) -> ExtractedRelation:
    s = doc.sentences[k]
    e1, e2 = (next(e for e in s.entities if e.id == x) for x in (a, b))
    ents = [ExtractedEntity(id=e.id, text=e.text or "", start=e.start, end=e.end,
                            norm_ids=e.norm_ids) for e in (e1, e2)]
    return ExtractedRelation(document_id=doc.id, sentence_id=s.id, sentence=s.text,
                             sentence_start=s.start, sentence_end=s.end, entity1=ents[0],
                             entity2=ents[1], score=score, model="ppi-default",
                             model_version="0", type=typ, direction=direction,
                             event_score=0.6 if typ != "Interaction" else None,
                             negated=negated)


@pytest.fixture
def typed() -> tuple[Document, list[GeneRelation]]:
    """The fixture relations with relx's GENIA reading set from real mention pairs:
    'ATM phosphorylates TP53' (T0 ATM, T1 TP53), 'MDM2 binds p53' (T2 MDM2, T3 p53)."""
    doc = _doc()
    rels = _relations(doc)
    s0 = {e.text: e.id for e in doc.sentences[0].entities}
    s1 = {e.text: e.id for e in doc.sentences[1].entities}
    found = [
        # TP53 (entity1) <- ATM (entity2): entity2 acts, i.e. ATM (gene1) -> TP53 (gene2)
        _pair(doc, s0["TP53"], s0["ATM"], 0, 0.95, "Phosphorylation", "entity2->entity1"),
        _pair(doc, s1["MDM2"], s1["p53"], 1, 0.9, "Complex"),
        _pair(doc, s1["p53"], s1["MDM2"], 1, 0.7, "Interaction", negated=True),
    ]
    add_event_types(rels, found, doc_view(doc, found, gene_key))
    return doc, rels


def test_relx_genia_reading_sits_beside_bioreds_type(typed) -> None:
    _, rels = typed
    atm_tp53, mdm2_tp53, atm_mdm2, _ = rels
    assert (atm_tp53.type, atm_tp53.event_type, atm_tp53.direction) == (
        "Positive_Correlation", "Phosphorylation", "gene1->gene2")
    assert atm_tp53.event_type_scheme == "GENIA" and atm_tp53.event_score == 0.6
    assert atm_tp53.event_sentence_id == "12345.s0"
    ev = atm_tp53.evidence[0]
    assert (ev.event_type, ev.direction, ev.negated) == ("Phosphorylation", "gene1->gene2",
                                                        False)
    # the sentence's best pair (0.9, Complex), undirected; the typed one is the relation's
    assert (mdm2_tp53.event_type, mdm2_tp53.direction) == ("Complex", None)
    assert mdm2_tp53.evidence[0].event_type == "Complex"
    # no mention pair: relx says nothing beyond an untyped Interaction
    assert (atm_mdm2.event_type, atm_mdm2.direction, atm_mdm2.event_score) == (
        "Interaction", None, None)
    assert atm_mdm2.evidence[0].event_type is None
    row = json.loads(atm_tp53.model_dump_json())
    assert row["type_scheme"] == "BioRED" and row["event_type_scheme"] == "GENIA"


def test_tsv_one_row_per_relation(typed, tmp_path: Path) -> None:
    _, rels = typed
    assert write_gene_tsv(rels, tmp_path / "g.tsv") == 4
    lines = (tmp_path / "g.tsv").read_text("utf-8").splitlines()
    assert lines[0].split("\t") == list(GENE_TSV_COLUMNS)
    rows = [dict(zip(GENE_TSV_COLUMNS, x.split("\t"), strict=True)) for x in lines[1:]]
    first = rows[0]
    assert (first["gene1_id"], first["gene2_id"], first["gene2_names"]) == ("472", "7157",
                                                                          "TP53;p53")
    assert (first["type"], first["novel"], first["event_type"], first["direction"]) == (
        "Positive_Correlation", "true", "Phosphorylation", "gene1->gene2")
    assert first["evidence"] == TITLE and first["evidence_sentences"] == "1"
    assert rows[3]["evidence"] == "" and rows[3]["evidence_sentences"] == "0"


def _relation_lines(text: str) -> list[list[str]]:
    return [x.split("\t") for x in text.splitlines()
            if x.count("\t") >= 3 and not x.split("\t")[1].isdigit()]


def test_pubtator_is_shaped_as_bioreds_and_reads_back(typed, tmp_path: Path) -> None:
    from bioc import pubtator

    doc, rels = typed
    block = format_gene_pubtator(doc, rels)
    lines = _relation_lines(block)
    assert lines == [["12345", "Positive_Correlation", "472", "7157", "Novel"],
                     ["12345", "Bind", "4193", "7157", "No"],
                     ["12345", "Association", "472", "4193", "Novel"],
                     ["12345", "Negative_Correlation", "4193", "472", "No"]]
    mentions = [x.split("\t") for x in block.splitlines() if x.count("\t") == 5]
    assert ["12345", "19", "23", "TP53", "GeneOrGeneProduct", "7157"] in mentions
    back = pubtator.loads(block)[0]
    assert back.pmid == "12345" and back.title == TITLE and back.abstract == ABSTRACT
    assert [(r.type, r.id1, r.id2, r.neg) for r in back.relations][1] == (
        "Bind", "4193", "7157", "No")
    assert {a.id for a in back.annotations} == {"472", "7157", "4193"}
    (tmp_path / "g.pubtator").write_text(block, "utf-8")
    relx_doc, = read_pubtator(tmp_path / "g.pubtator")
    assert len(relx_doc.sentences[0].relations) == 4


def test_pubtator_relation_lines_have_the_shape_of_biored_train(typed) -> None:
    if not BIORED_TRAIN.is_file():
        pytest.skip("BioRED Train.PubTator.gz not in ../shared")
    with gzip.open(BIORED_TRAIN, "rt", encoding="utf-8") as fh:
        theirs = [x.rstrip("\n").split("\t") for _, x in zip(range(3000), fh, strict=False)]
    theirs = [x for x in theirs if len(x) == 5 and not x[1].isdigit()]
    assert theirs
    doc, rels = typed
    ours = _relation_lines(format_gene_pubtator(doc, rels))
    for line in ours:
        assert len(line) == len(theirs[0]) and line[4] in {x[4] for x in theirs}
        assert line[1] in {x[1] for x in theirs}
        assert line[0].isdigit() and line[2].isdigit() and line[3].isdigit()


def test_bioc_relations_carry_bioreds_infons_and_read_back(typed, tmp_path: Path) -> None:
    import bioc

    doc, rels = typed
    write_bioc_gene_relations([(doc, rels)], tmp_path / "g.xml")
    with open(tmp_path / "g.xml", encoding="utf-8") as fh:
        coll = bioc.biocxml.load(fh)
    bdoc, = coll.documents
    assert [p.infons["type"] for p in bdoc.passages] == ["title", "abstract"]
    anns = [a for p in bdoc.passages for a in p.annotations]
    assert {(a.text, a.infons["type"], a.infons["identifier"]) for a in anns} == {
        ("ATM", "GeneOrGeneProduct", "472"), ("TP53", "GeneOrGeneProduct", "7157"),
        ("p53", "GeneOrGeneProduct", "7157"), ("MDM2", "GeneOrGeneProduct", "4193")}
    first = bdoc.relations[0].infons
    assert {k: first[k] for k in ("entity1", "entity2", "type", "novel")} == {
        "entity1": "472", "entity2": "7157", "type": "Positive_Correlation", "novel": "Novel"}
    assert first["probability"] == "0.9100" and first["event_type"] == "Phosphorylation"
    assert first["direction"] == "gene1->gene2" and first["evidence"] == f"0-{len(TITLE)}"
    assert "evidence" not in bdoc.relations[3].infons
    write_bioc_gene_relations([(doc, rels)], tmp_path / "g.json", fmt="json")
    with open(tmp_path / "g.json", encoding="utf-8") as fh:
        again = bioc.biocjson.load(fh).documents[0]
    assert [r.infons["novel"] for r in again.relations] == ["Novel", "No", "Novel", "No"]


def test_indra_loads_the_gene_statements(typed) -> None:
    stmts_from_json = pytest.importorskip("indra.statements",
                                          reason="the indra test extra").stmts_from_json
    _, rels = typed
    dicts = [r.model_dump() for r in rels]
    raw = list(gene_statements(dicts))
    # Positive_Correlation directed by relx's reading -> Activation; Bind -> Complex;
    # Association and an undirected Negative_Correlation are not written
    assert [s["type"] for s in raw] == ["Activation", "Complex"]
    stmts = stmts_from_json(json.loads(json.dumps(raw)))
    act, cpx = stmts
    assert (act.subj.db_refs["EGID"], act.obj.db_refs["EGID"]) == ("472", "7157")
    assert act.subj.db_refs["TEXT"] == "ATM"
    ev = act.evidence[0]
    assert ev.source_api == "relx" and ev.pmid == "12345" and ev.text == TITLE
    assert ev.epistemics["direct"] is False          # a correlation, not a mechanism
    assert ev.annotations["relation"] == "document-level"
    assert ev.annotations["type_scheme"] == "BioRED"
    assert ev.annotations["type"] == "Positive_Correlation"
    assert ev.annotations["novel"] is True and ev.annotations["probability"] == 0.91
    assert ev.annotations["event_type"] == "Phosphorylation"
    assert cpx.evidence[0].epistemics["direct"] is True
    assert {m.db_refs["EGID"] for m in cpx.members} == {"4193", "7157"}
    flipped = dict(dicts[0], direction="gene2->gene1")
    back, = stmts_from_json(list(gene_statements([flipped])))
    assert (back.subj.db_refs["EGID"], back.obj.db_refs["EGID"]) == ("7157", "472")
    assert len({s.get_hash() for s in stmts}) == 2


def test_gene_network_nodes_are_gene_ids_and_edges_count_novel(typed, tmp_path: Path) -> None:
    _, rels = typed
    dicts = [json.loads(r.model_dump_json()) for r in rels]
    net = aggregate(dicts)
    assert net.nodes() == ["NCBIGene:4193", "NCBIGene:472", "NCBIGene:7157"]
    edge = net.edges["NCBIGene:472", "NCBIGene:7157", "Positive_Correlation", False]
    assert edge.novel == 1 and edge.max_probability == 0.91
    write_graphml(net, tmp_path / "g.graphml")
    write_cyjs(net, tmp_path / "g.cyjs")
    g = nx.read_graphml(tmp_path / "g.graphml", force_multigraph=True)
    assert g.number_of_nodes() == 3 and g.number_of_edges() == 4
    assert g.nodes["NCBIGene:472"]["name"] == "ATM"
    assert g.nodes["NCBIGene:472"]["ncbi_gene"] == "NCBIGene:472"
    kinds = {d["interaction"]: d for _, _, d in g.edges(data=True)}
    assert kinds["Bind"]["novel"] == 0 and kinds["Association"]["novel"] == 1
    cy = json.loads((tmp_path / "g.cyjs").read_text("utf-8"))
    assert {e["data"]["interaction"] for e in cy["elements"]["edges"]} == {
        "Positive_Correlation", "Bind", "Association", "Negative_Correlation"}
    # mention-level relations keep the network as it was: no novel column
    rec = {k: v for k, v in gene_relation_record(dicts[0]).items() if k != "novel"}
    write_graphml(aggregate([rec]), tmp_path / "p.graphml")
    assert "novel" not in (tmp_path / "p.graphml").read_text("utf-8")


def test_report_draws_the_gene_network_and_a_row_per_relation(typed) -> None:
    _, rels = typed
    page = render_gene_report([json.loads(r.model_dump_json()) for r in rels],
                              title="relx: 4 gene relations", symbol=lambda _: None)
    assert "<svg" in page and page.count('<tr><td data-v="12345">') == 4
    assert "4 gene relations (2 novel) in 1 documents; 3 genes, 4 edges" in page
    assert "Phosphorylation (gene 1 &rarr; gene 2)" in page
    assert '<mark class="e1">ATM</mark>' in page
    assert "no sentence names both genes" in page


def test_relx_extract_defaults_to_gene_relations_in_every_format(tmp_path: Path) -> None:
    """The real thing: ``relx extract`` without --task on a PubTator abstract with its own
    NCBI Gene ids and a plain text, every format, the report."""
    import shutil

    import bioc
    from bioc import pubtator
    from typer.testing import CliRunner

    from relx.app.cli import app
    from relx.model_store import models_dir

    if not (models_dir() / "gene-relations" / "meta.json").exists():
        pytest.skip("models/gene-relations not trained")
    inp, out = tmp_path / "in", tmp_path / "out"
    inp.mkdir()
    shutil.copy(FIXTURES / "fmt-pubtator.txt", inp / "a.pubtator")
    (inp / "b.txt").write_text("JAK1 binds and phosphorylates STAT5 in T cells. SOCS3 "
                               "inhibits JAK1.\n", "utf-8")
    formats = [x for f in ("tsv", "bioc", "pubtator", "indra") for x in ("--format", f)]
    r = CliRunner().invoke(app, ["extract", str(inp), "--out", str(out), *formats,
                                 "--report", str(tmp_path / "report.html"), "--quiet"])
    assert r.exit_code == 0, r.output
    assert not (out / "relations.jsonl").exists()
    rows = [json.loads(x) for x in (out / "gene_relations.jsonl").read_text().splitlines()]
    summary = json.loads((out / "summary.json").read_text())
    assert rows and summary["model"] == "gene-relations" and summary["relations"] == len(rows)
    assert summary["network"]["edges"] > 0
    by_doc = {}
    for row in rows:
        assert row["type_scheme"] == "BioRED" and row["event_type_scheme"] == "GENIA"
        by_doc.setdefault(row["document_id"], []).append(row)
    pubtator_rows = by_doc["90000011"]
    assert {g for row in pubtator_rows for g in (row["gene1"]["id"], row["gene2"]["id"])} <= {
        "7157", "472", "4193"}                   # the input's own NCBI Gene ids
    assert any(row["event_type"] != "Interaction" for row in rows)   # typed by default

    tsv = (out / "tsv" / "a.pubtator.tsv").read_text("utf-8").splitlines()
    assert tsv[0].split("\t") == list(GENE_TSV_COLUMNS)
    assert len(tsv) - 1 == sum(r["document_id"].startswith("9") for r in rows)
    docs = pubtator.loads((out / "pubtator" / "a.pubtator.pubtator").read_text("utf-8"))
    assert {(d.pmid, r.type, r.id1, r.id2, r.neg) for d in docs for r in d.relations} == {
        (x["document_id"], x["type"], x["gene1"]["id"], x["gene2"]["id"],
         "Novel" if x["novel"] else "No") for x in rows if x["document_id"].startswith("9")}
    with open(out / "bioc" / "b.txt.xml", encoding="utf-8") as fh:
        bdoc, = bioc.biocxml.load(fh).documents
    assert len(bdoc.relations) == len(by_doc.get("b", []))
    assert all(rel.infons["novel"] in ("Novel", "No") for rel in bdoc.relations)
    graph = nx.read_graphml(out / "network.graphml", force_multigraph=True)
    assert "NCBIGene:7157" in graph.nodes or "NCBIGene:4193" in graph.nodes
    page = (tmp_path / "report.html").read_text("utf-8")
    assert "<svg" in page and f"{len(rows)} gene relations" in page
    indra = pytest.importorskip("indra.statements", reason="the indra test extra")
    raw = json.loads((out / "indra" / "a.pubtator.json").read_text("utf-8"))
    stmts = indra.stmts_from_json(raw)
    assert len(stmts) == len(raw)
    assert all(ev.annotations["relation"] == "document-level" for s in stmts
               for ev in s.evidence)
    agents = [a for s in stmts for a in s.agent_list()]
    assert agents and all("EGID" in a.db_refs and "HGNC" in a.db_refs for a in agents)


def test_an_asserted_typed_pair_reads_before_a_stronger_negated_one() -> None:
    doc = _doc()
    rels = _relations(doc)[1:2]                      # MDM2 -- TP53, evidence sentence 1
    s1 = {e.text: e.id for e in doc.sentences[1].entities}
    found = [_pair(doc, s1["MDM2"], s1["p53"], 1, 0.9, "Inhibition", "entity1->entity2",
                   negated=True),
             _pair(doc, s1["p53"], s1["MDM2"], 1, 0.5, "Activation", "entity1->entity2")]
    add_event_types(rels, found, doc_view(doc, found, gene_key))
    rel, = rels
    # gene1 is MDM2: p53 (entity1) acting on MDM2 is gene2 -> gene1
    assert (rel.event_type, rel.direction) == ("Activation", "gene2->gene1")
    ev = rel.evidence[0]                             # the sentence's best pair, negated
    assert (ev.event_type, ev.direction, ev.negated) == ("Inhibition", "gene1->gene2", True)


def test_write_networks_reads_a_gene_relations_folder(typed, tmp_path: Path) -> None:
    from relx.io.network import write_networks

    _, rels = typed
    (tmp_path / "gene_relations.jsonl").write_text(
        "".join(r.model_dump_json() + "\n" for r in rels), "utf-8")
    res = write_networks(tmp_path, symbol=lambda _: None)
    assert (res["relations"], res["nodes"], res["edges"]) == (4, 3, 4)
    sif = (tmp_path / "network.sif").read_text("utf-8").splitlines()
    assert "NCBIGene:4193\tBind\tNCBIGene:7157" in sif


def test_gene_xrefs_add_the_hgnc_id_relx_grounds_a_gene_to() -> None:
    from relx.ppi.gene_relations import gene_xrefs

    text = "p53 and TP53 and MDM2 and Foo."
    spans = [("p53", ["NCBIGene:7157", "HGNC:11998"]), ("TP53", ["NCBIGene:7157", "HGNC:1"]),
             ("MDM2", ["HGNC:6973"]), ("Foo", [])]
    ents = [Entity(id=f"T{k}", spans=[Span(start=text.index(w), end=text.index(w) + len(w))],
                   type="Gene", text=w, norm_ids=ids) for k, (w, ids) in enumerate(spans)]
    ents[2].ncbi_ids = ["NCBIGene:4193"]
    doc = Document(id="d", text=text, sentences=[Sentence(id="d.s0", start=0, end=len(text),
                                                          text=text, entities=ents)])
    xrefs = gene_xrefs(doc)
    # HGNC:1 (A1BG) is a candidate of the second mention but not TP53's id: left out
    assert xrefs["7157"] == ["NCBIGene:7157", "HGNC:11998"]
    assert xrefs["4193"] == ["NCBIGene:4193", "HGNC:6973"]
    assert xrefs["text:foo"] == []
    agent = gene_statements([{
        "document_id": "d", "type": "Bind", "gene1": {"id": "7157", "names": ["p53"],
                                                      "ids": xrefs["7157"]},
        "gene2": {"id": "4193", "names": ["MDM2"], "ids": xrefs["4193"]}, "evidence": []}],
        symbol={"HGNC:11998": "TP53"}.get)
    members = next(agent)["members"]
    assert members[0] == {"name": "TP53", "db_refs": {"TEXT": "p53", "EGID": "7157",
                                                      "HGNC": "11998"}}


def test_gene_nodes_keep_their_ncbi_id_and_take_the_symbol_as_label(typed) -> None:
    _, rels = typed
    row = json.loads(rels[1].model_dump_json())             # MDM2 -- TP53
    row["gene2"]["ids"] = ["NCBIGene:7157", "HGNC:11998"]
    net = aggregate([row], symbol={"HGNC:11998": "TP53"}.get)
    assert net.nodes() == ["NCBIGene:4193", "NCBIGene:7157"]
    assert net.labels["NCBIGene:7157"] == "TP53" and net.labels["NCBIGene:4193"] == "MDM2"
    assert net.ncbi["NCBIGene:7157"] == "NCBIGene:7157"


# --- brat (relx.io.brat_genes) -------------------------------------------------------------
def _brat_norms(ann: str) -> dict[str, set[str]]:
    """T id -> its ``N`` lines' ids (the ``bioc`` library's brat reader skips ``N`` lines)."""
    out: dict[str, set[str]] = {}
    for line in ann.splitlines():
        if line.startswith("N"):
            _, ref, _ = line.split("\t")
            kind, tid, db_id = ref.split(" ")
            assert kind == "Reference"
            out.setdefault(tid, set()).add(db_id)
    return out


def test_brat_joins_the_closest_mentions_when_no_pair_was_scored(typed, tmp_path: Path) -> None:
    from bioc import brat

    from relx.io.brat_genes import write_brat_gene_relations

    doc, rels = typed
    write_brat_gene_relations([(doc, rels)], tmp_path)
    with open(tmp_path / "12345.txt", encoding="utf-8") as t, \
            open(tmp_path / "12345.ann", encoding="utf-8") as a:
        bdoc = brat.load(t, a)
    ents = {e.id: e for e in bdoc.entities}
    args = [(r.type, ents[r.arguments["Arg1"]].text, ents[r.arguments["Arg2"]].text)
            for r in bdoc.relations]
    # the fixture's evidence names no mention pair: the genes' closest mentions in the
    # evidence sentence (MDM2 -- p53, not the title's nearer TP53), gene1 -> gene2; with no
    # evidence (MDM2 -- ATM) the closest in the document, across a sentence
    assert args == [("Positive_Correlation", "ATM", "TP53"), ("Bind", "MDM2", "p53"),
                    ("Association", "ATM", "MDM2"), ("Negative_Correlation", "MDM2", "ATM")]
    assert {e.type for e in bdoc.entities} == {"Gene"}


@pytest.mark.slow
def test_brat_gene_relations_read_back_as_the_jsonl_says(tmp_path: Path) -> None:
    """``relx extract --format brat`` (the default task) on two bundled sample abstracts,
    read back with the ``bioc`` library's brat reader: one ``R`` per relation of
    ``gene_relations.jsonl`` with its BioRED type between its genes' mentions in the
    strongest evidence sentence, ``Novel`` and ``Confidence`` attributes, NCBI Gene ids."""
    import shutil

    from bioc import brat
    from typer.testing import CliRunner

    from relx.app.cli import app
    from relx.io.brat_genes import BIORED_TYPES, confidence
    from relx.model_store import models_dir

    if not (models_dir() / "gene-relations" / "meta.json").exists():
        pytest.skip("models/gene-relations not trained")
    inp, out = tmp_path / "in", tmp_path / "out"
    inp.mkdir()
    for name in ("p53-mdm2.txt", "jak-stat.txt"):
        shutil.copy(SAMPLES / name, inp / name)
    r = CliRunner().invoke(app, ["extract", str(inp), "--out", str(out), "--format", "brat",
                                 "--quiet"])
    assert r.exit_code == 0, r.output
    rows = [json.loads(x) for x in (out / "gene_relations.jsonl").read_text().splitlines()]
    assert {row["document_id"] for row in rows} == {"p53-mdm2", "jak-stat"}
    for stem in ("p53-mdm2", "jak-stat"):
        folder = out / "brat" / f"{stem}.txt"
        conf = (folder / "annotation.conf").read_text("utf-8")
        assert "Novel\tArg:<RELATION>" in conf and "Value:low|medium|high" in conf
        assert "NCBIGene\t" in (folder / "tools.conf").read_text("utf-8")
        ann = (folder / f"{stem}.ann").read_text("utf-8")
        with open(folder / f"{stem}.txt", encoding="utf-8") as t, \
                open(folder / f"{stem}.ann", encoding="utf-8") as a:
            bdoc = brat.load(t, a)
        norms = _brat_norms(ann)
        ents = {e.id: e for e in bdoc.entities}
        assert ents and {e.type for e in ents.values()} == {"Gene"}
        for e in ents.values():           # spans and texts point into the document's text
            start, end = e.total_span
            assert bdoc.text[start:end] == e.text
        mine = [row for row in rows if row["document_id"] == stem]
        assert len(bdoc.relations) == len(mine) > 0
        attrs: dict[str, dict[str, set[str]]] = {}
        for att in bdoc.attributes:
            attrs.setdefault(att.refid, {})[att.type] = att.attributes
        notes = {n.refid: n.text for n in bdoc.notes}
        for rel, row in zip(bdoc.relations, mine, strict=True):
            assert rel.type == row["type"] and rel.type in (*BIORED_TYPES, *conf.split())
            one, two = ents[rel.arguments["Arg1"]], ents[rel.arguments["Arg2"]]
            assert one.text in row["gene1"]["names"] and two.text in row["gene2"]["names"]
            for ent, gene in ((one, row["gene1"]), (two, row["gene2"])):
                if gene["id"].isdigit():
                    assert f"NCBIGene:{gene['id']}" in norms[ent.id]
            scored = [ev for ev in row["evidence"] if ev["gene1_mention"]]
            if scored:                    # both mentions in the strongest sentence
                best = max(scored, key=lambda ev: ev["score"])
                assert all(best["start"] <= e.total_span[0] < best["end"]
                           for e in (one, two))
            assert ("Novel" in attrs[rel.id]) == row["novel"]
            assert attrs[rel.id]["Confidence"] == {confidence(row["probability"])}
            assert f"probability={row['probability']:.4f}" in notes[rel.id]
