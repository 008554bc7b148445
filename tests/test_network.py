"""Evidence aggregated across documents (relx.io.network, `relx network`): one edge per
grounded pair, type and direction, written as GraphML, Cytoscape.js JSON and SIF."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest
from typer.testing import CliRunner

from relx.app.cli import app
from relx.io.network import aggregate, edge_key, node_key, write_networks

SYMBOLS = {"HGNC:6973": "MDM2", "HGNC:11998": "TP53", "NCBIGene:7157": "TP53",
           "HGNC:4566": "GRB2", "HGNC:9065": "PLCG1", "HGNC:6871": "MAPK1"}


def rel(doc: str, sid: str, a: tuple[str, list[str]], b: tuple[str, list[str]],
        score: float, **extra: object) -> dict:
    sentence = f"{a[0]} and {b[0]} in {sid}."
    return {"document_id": doc, "sentence_id": sid, "sentence": sentence,
            "sentence_start": 0, "sentence_end": len(sentence),
            "entity1": {"id": "T1", "text": a[0], "start": 0, "end": len(a[0]),
                        "type": "Protein", "norm_ids": a[1]},
            "entity2": {"id": "T2", "text": b[0], "start": len(a[0]) + 5,
                        "end": len(a[0]) + 5 + len(b[0]), "type": "Gene", "norm_ids": b[1]},
            "score": score, "model": "ppi-default", "model_version": "0.1.0", **extra}


MDM2 = ("MDM2", ["HGNC:6973"])
P53 = ("p53", ["HGNC:11998"])
P53_GENE = ("p53", ["7157"])   # an input's own bare NCBI Gene id
GRB2 = ("Grb2", ["HGNC:4566"])
PLCG1 = ("PLCG1", ["HGNC:9065"])

RELATIONS = [
    rel("11111111", "11111111.s0", MDM2, P53, 0.9),
    rel("11111111", "11111111.s0", P53, MDM2, 0.5),       # same sentence, other mention pair
    rel("11111111", "11111111.s2", P53, MDM2, 0.7),
    rel("PMID:22222222", "d2.s1", MDM2, P53, 0.4),
    rel("doc-three", "d3.s0", MDM2, P53, 0.6),
    rel("33333333", "d4.s0", GRB2, PLCG1, 0.59, negated=True),
    rel("33333333", "d4.s1", MDM2, P53, 0.8, negated=True),
    rel("44444444", "d5.s0", MDM2, P53, 0.95, type="Complex"),
    rel("44444444", "d5.s1", P53, MDM2, 0.3, type="Inhibition", direction="entity2->entity1"),
    rel("55555555", "d6.s0", P53_GENE, ("Foo", []), 0.55, speculated=True),
]


def test_nodes_are_namespaced_ids_else_text() -> None:
    assert node_key({"norm_ids": ["7157", "HGNC:11998"], "type": "Gene"}) == "HGNC:11998"
    assert node_key({"norm_ids": ["7157"], "type": "Gene"}) == "NCBIGene:7157"
    assert node_key({"norm_ids": ["hgnc:6001"]}) == "HGNC:6001"
    assert node_key({"text": "  Foo  Protein", "norm_ids": []}) == "text:foo protein"
    assert edge_key(RELATIONS[1]) == edge_key(RELATIONS[0]) == (
        "HGNC:11998", "HGNC:6973", "Interaction", False)
    assert edge_key(RELATIONS[8]) == ("HGNC:6973", "HGNC:11998", "Inhibition", True)


def test_one_edge_per_pair_type_and_direction_with_its_evidence() -> None:
    net = aggregate(RELATIONS, symbol=SYMBOLS.get, top=2)
    plain = net.edges["HGNC:11998", "HGNC:6973", "Interaction", False]
    assert plain.relations == 5                      # negated one left out ...
    assert plain.negated == 1                        # ... and counted apart
    assert plain.documents == ["11111111", "PMID:22222222", "doc-three"]
    assert plain.pmids == ["11111111", "22222222"]   # doc-three is no PMID
    assert plain.max_probability == 0.9
    assert plain.mean_probability == pytest.approx((0.9 + 0.5 + 0.7 + 0.4 + 0.6) / 5)
    best = plain.best_evidence()
    assert [e["probability"] for e in best] == [0.9, 0.7]   # one per sentence, best first
    assert [e["sentence_id"] for e in best] == ["11111111.s0", "11111111.s2"]
    # typed and directed evidence makes edges of its own
    assert net.edges["HGNC:11998", "HGNC:6973", "Complex", False].relations == 1
    assert net.edges["HGNC:6973", "HGNC:11998", "Inhibition", True].relations == 1
    # a pair whose only evidence is negated has no edge
    kept = {(e.source, e.target, e.type) for e in net.kept_edges()}
    assert ("HGNC:4566", "HGNC:9065", "Interaction") not in kept
    assert net.negated_left_out == 2
    assert net.edges["NCBIGene:7157", "text:foo", "Interaction", False].speculated == 1
    assert net.labels["HGNC:6973"] == "MDM2" and net.labels["text:foo"] == "foo"
    assert net.labels["NCBIGene:7157"] == "TP53"
    # strongest first: most documents
    assert net.kept_edges()[0] is plain


def test_keep_negated_counts_negated_evidence_in_the_edges() -> None:
    net = aggregate(RELATIONS, keep_negated=True)
    assert net.edges["HGNC:11998", "HGNC:6973", "Interaction", False].relations == 6
    grb2 = net.edges["HGNC:4566", "HGNC:9065", "Interaction", False]
    assert grb2.relations == 1 and grb2.negated == 1 and grb2 in net.kept_edges()
    assert net.negated_left_out == 0


def _write_jsonl(folder: Path, records: list[dict]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "relations.jsonl", "w", encoding="utf-8") as fh:
        for r in records:
            fh.write(json.dumps(r) + "\n")


def test_write_networks_graphml_cyjs_and_sif(tmp_path: Path) -> None:
    _write_jsonl(tmp_path, RELATIONS)
    res = write_networks(tmp_path, symbol=SYMBOLS.get)
    assert res["relations"] == len(RELATIONS) and res["edges"] == 4 and res["nodes"] == 4

    g = nx.read_graphml(tmp_path / "network.graphml", force_multigraph=True)
    assert g.number_of_nodes() == 4 and g.number_of_edges() == 4
    assert g.nodes["HGNC:6973"]["name"] == "MDM2" and g.nodes["HGNC:6973"]["grounded"] is True
    assert g.nodes["text:foo"]["grounded"] is False
    edges = {(a, b, d["interaction"]): d for a, b, d in g.edges(data=True)}
    plain = edges["HGNC:11998", "HGNC:6973", "Interaction"]
    assert plain["documents"] == 3 and plain["relations"] == 5 and plain["negated"] == 1
    assert plain["pmids"] == "11111111;22222222"
    assert plain["max_probability"] == 0.9 and plain["directed"] is False
    assert plain["evidence_1"] == RELATIONS[0]["sentence"]
    assert edges["HGNC:6973", "HGNC:11998", "Inhibition"]["directed"] is True

    cy = json.loads((tmp_path / "network.cyjs").read_text(encoding="utf-8"))
    nodes, cedges = cy["elements"]["nodes"], cy["elements"]["edges"]
    assert {n["data"]["id"] for n in nodes} == set(g.nodes)
    ids = {n["data"]["id"] for n in nodes}
    assert all(e["data"]["source"] in ids and e["data"]["target"] in ids for e in cedges)
    first = cedges[0]["data"]
    assert first["pmids"] == ["11111111", "22222222"] and first["documents"] == 3
    assert first["evidence_probabilities"] == [0.9, 0.7, 0.6]
    assert len({e["data"]["id"] for e in cedges}) == len(cedges)

    sif = (tmp_path / "network.sif").read_text(encoding="utf-8").splitlines()
    assert sif[0] == "HGNC:11998\tInteraction\tHGNC:6973"
    assert "HGNC:6973\tInhibition\tHGNC:11998" in sif and len(sif) == 4


def test_nodes_carry_their_ncbi_gene_ids(tmp_path: Path) -> None:
    a = rel("1", "1.s0", ("ERK", ["FPLX:ERK", "HGNC:6871"]), MDM2, 0.9)
    b = rel("1", "1.s1", MDM2, ("Trp53", ["MGI:98834"]), 0.8)
    a["entity1"]["ncbi_ids"] = ["NCBIGene:5594"]            # an alternative's, not ERK's
    a["entity2"]["ncbi_ids"] = b["entity1"]["ncbi_ids"] = ["NCBIGene:4193"]
    b["entity2"]["ncbi_ids"] = ["NCBIGene:22059"]
    c = rel("1", "1.s2", P53_GENE, ("Rat p53", ["RGD:3889"]), 0.7)
    _write_jsonl(tmp_path, [a, b, c])
    write_networks(tmp_path, symbol=SYMBOLS.get)
    g = nx.read_graphml(tmp_path / "network.graphml", force_multigraph=True)
    assert {n: d["ncbi_gene"] for n, d in g.nodes(data=True)} == {
        "FPLX:ERK": "", "HGNC:6973": "NCBIGene:4193", "MGI:98834": "NCBIGene:22059",
        "NCBIGene:7157": "", "RGD:3889": ""}   # an input's own id: relx did not ground it
    cy = json.loads((tmp_path / "network.cyjs").read_text(encoding="utf-8"))
    assert {n["data"]["id"]: n["data"]["ncbi_gene"] for n in cy["elements"]["nodes"]}[
        "HGNC:6973"] == "NCBIGene:4193"


def test_relx_network_command(tmp_path: Path) -> None:
    _write_jsonl(tmp_path / "out", RELATIONS)
    r = CliRunner().invoke(app, ["network", str(tmp_path / "out"), "--keep-negated"])
    assert r.exit_code == 0, r.output
    assert "5 edges" in r.output and "0 negated relations left out" in r.output
    sif = (tmp_path / "out" / "network.sif").read_text(encoding="utf-8")
    assert "HGNC:4566\tInteraction\tHGNC:9065" in sif
    missing = CliRunner().invoke(app, ["network", str(tmp_path / "nothing")])
    assert missing.exit_code == 2 and "no relations.jsonl" in missing.output


@pytest.mark.slow
def test_streams_in_memory_bounded_by_edges_not_relations() -> None:
    """20,000 relations over 500 proteins: the aggregate's peak memory is a small fraction
    of what holding the relations takes."""
    import tracemalloc

    def records():
        for i in range(20_000):
            a, b = i % 500, (i * 7 + 1) % 500
            yield rel(str(10_000_000 + i // 4), f"s{i}", (f"P{a}", [f"HGNC:{a + 1}"]),
                      (f"P{b}", [f"HGNC:{b + 1}"]), (i % 100) / 100)

    tracemalloc.start()
    held = list(records())
    _, held_peak = tracemalloc.get_traced_memory()
    del held
    tracemalloc.reset_peak()
    base, _ = tracemalloc.get_traced_memory()
    net = aggregate(records())
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert net.relations_read == 20_000
    edges = net.kept_edges()
    assert sum(e.relations for e in edges) == 20_000
    assert sum(len(e.documents) for e in edges) <= 20_000
    assert peak - base < held_peak / 10
