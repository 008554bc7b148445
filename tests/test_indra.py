"""INDRA Statements (--format indra, relx.io.indra), loaded and assembled by INDRA itself."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ROOT

from relx.doc import Document, Entity, Relation, Sentence, Span
from relx.io.indra import db_refs, statements, write_indra_records
from relx.io.registry import write

indra_statements = pytest.importorskip("indra.statements", reason="the indra test extra")

SYMBOLS = {"HGNC:6871": "MAPK1", "HGNC:6840": "MAP2K1", "HGNC:11998": "TP53",
           "HGNC:6973": "MDM2", "FPLX:ERK": "ERK"}


def rel(doc: str, sid: str, a: tuple[str, list[str]], b: tuple[str, list[str]], p: float,
        **extra: object) -> dict:
    sentence = f"In {sid}, {a[0]} acts on {b[0]}."
    s1 = sentence.index(a[0])
    s2 = sentence.index(b[0], s1 + len(a[0]))
    return {"document_id": doc, "sentence_id": sid, "sentence": sentence,
            "sentence_start": 100, "sentence_end": 100 + len(sentence),
            "entity1": {"id": "T1", "text": a[0], "start": 100 + s1, "end": 100 + s1 + len(a[0]),
                        "type": "Protein", "norm_ids": a[1]},
            "entity2": {"id": "T2", "text": b[0], "start": 100 + s2, "end": 100 + s2 + len(b[0]),
                        "type": "Gene", "norm_ids": b[1]},
            "score": p, "model": "ppi-default", "model_version": "0.1.0", **extra}


MEK = ("MEK1", ["HGNC:6840"])
ERK = ("ERK2", ["HGNC:6871", "FPLX:ERK"])
P53 = ("p53", ["7157", "HGNC:11998", "HGNC:1"])   # an input's NCBI Gene id, then the lexicon's
MDM2 = ("MDM2", ["HGNC:6973"])

RELATIONS = [
    rel("12345", "12345.s0", P53, MDM2, 0.9),
    rel("12345", "12345.s0", MDM2, P53, 0.6),                 # same sentence: one evidence
    rel("12345", "12345.s1", MDM2, P53, 0.7, speculated=True),
    rel("12345", "12345.s2", MEK, ERK, 0.8, type="Phosphorylation",
        direction="entity1->entity2"),
    rel("12345", "12345.s3", ERK, MEK, 0.4, type="Inhibition", direction="entity2->entity1"),
    rel("12345", "12345.s4", P53, MEK, 0.5, negated=True),
    rel("12345", "12345.s5", P53, MEK, 0.5, type="Regulation", direction="entity1->entity2"),
    rel("PMID:67890", "67890.s0", MDM2, P53, 0.8),
    rel("67890", "67890.s1", MEK, ERK, 0.75, type="Phosphorylation",
        direction="entity1->entity2"),
    rel("67890", "67890.s2", P53, MEK, 0.6, speculated=True),   # only hypothesis evidence
    rel("report-7", "r.s0", ("Foo", []), MDM2, 0.55),
]


def test_db_refs_from_namespaced_ids() -> None:
    assert db_refs(["HGNC:6001"], "IL-2") == {"TEXT": "IL-2", "HGNC": "6001"}
    assert db_refs(["7157", "HGNC:11998", "HGNC:1"], "p53", "Gene") == {
        "TEXT": "p53", "EGID": "7157", "HGNC": "11998"}     # the top grounding only
    assert db_refs(["FPLX:ERK", "HGNC:6871"]) == {"FPLX": "ERK"}
    assert db_refs(["CHEBI:15377"]) == {"CHEBI": "CHEBI:15377"}
    assert db_refs(["UniProt:P04637"]) == {"UP": "P04637"}


def test_db_refs_carry_the_top_groundings_ncbi_gene_id() -> None:
    assert db_refs(["HGNC:6001"], "IL-2", ncbi_ids=["NCBIGene:3558"]) == {
        "TEXT": "IL-2", "HGNC": "6001", "EGID": "3558"}
    assert db_refs(["MGI:96548"], "Il2", ncbi_ids=["NCBIGene:16183"]) == {
        "TEXT": "Il2", "MGI": "MGI:96548", "EGID": "16183"}    # INDRA's MGI ids keep "MGI:"
    assert db_refs(["RGD:620047"], "Il2", ncbi_ids=[]) == {"TEXT": "Il2", "RGD": "620047"}
    # a family's alternatives' NCBI ids are not the family's
    assert db_refs(["FPLX:ERK", "HGNC:6871"], ncbi_ids=["NCBIGene:5594"]) == {"FPLX": "ERK"}
    # an input's own gene id stays first; no other EGID is added
    assert db_refs(["7157", "HGNC:11998"], "p53", "Gene", ["NCBIGene:7157"]) == {
        "TEXT": "p53", "EGID": "7157", "HGNC": "11998"}
    # the EGID must be the top grounding's own (here it is not among the mention's ids)
    assert db_refs(["HGNC:6001"], ncbi_ids=["NCBIGene:7157"]) == {"HGNC": "6001"}
    from indra.statements.validate import validate_db_refs

    for refs in (db_refs(["HGNC:6001"], ncbi_ids=["NCBIGene:3558"]),
                 db_refs(["MGI:96548"], ncbi_ids=["NCBIGene:16183"]),
                 db_refs(["RGD:620047"])):
        assert validate_db_refs(refs), refs


def test_statements_agents_carry_egid(tmp_path: Path) -> None:
    r = rel("1", "1.s0", ("IL-2", ["HGNC:6001"]), ("Il2ra", ["MGI:96549"]), 0.9)
    r["entity1"]["ncbi_ids"] = ["NCBIGene:3558"]
    r["entity2"]["ncbi_ids"] = ["NCBIGene:16184"]
    out = tmp_path / "s.json"
    write_indra_records([r], out, symbol={"HGNC:6001": "IL2", "MGI:96549": "Il2ra"}.get)
    (stmt,) = _load(out)
    refs = {a.name: a.db_refs for a in stmt.agent_list()}
    assert refs["IL2"]["EGID"] == "3558" and refs["Il2ra"] == {
        "TEXT": "Il2ra", "MGI": "MGI:96549", "EGID": "16184"}


def _load(path: Path) -> list:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, list)
    return indra_statements.stmts_from_json(data)


def test_indra_loads_the_statements_with_their_evidence(tmp_path: Path) -> None:
    out = tmp_path / "stmts.json"
    n = write_indra_records(RELATIONS, out, symbol=SYMBOLS.get)
    stmts = _load(out)
    assert len(stmts) == n
    by = {(type(s).__name__, s.evidence[0].pmid): s for s in stmts}
    # Complex of TP53 and MDM2 in document 12345: two sentences, speculation kept
    cx = by["Complex", "12345"]
    assert sorted(a.name for a in cx.members) == ["MDM2", "TP53"]
    tp53 = next(a for a in cx.members if a.name == "TP53")
    assert tp53.db_refs == {"TEXT": "p53", "EGID": "7157", "HGNC": "11998"}
    assert [e.annotations["probability"] for e in cx.evidence] == [0.9, 0.7]
    assert [e.epistemics["hypothesis"] for e in cx.evidence] == [False, True]
    assert all(e.source_api == "relx" and not e.epistemics["negated"] for e in cx.evidence)
    first = cx.evidence[0]
    assert first.text == RELATIONS[0]["sentence"] and first.text_refs == {"PMID": "12345"}
    (s1, e1), (s2, e2) = first.annotations["agents"]["coords"]
    assert first.text[s1:e1] == "p53" and first.text[s2:e2] == "MDM2"
    # typed, directed statements keep the direction
    phos = by["Phosphorylation", "12345"]
    assert (phos.enz.name, phos.sub.name) == ("MAP2K1", "MAPK1")
    assert phos.sub.db_refs == {"TEXT": "ERK2", "HGNC": "6871"}
    inh = by["Inhibition", "12345"]
    assert (inh.subj.name, inh.obj.name) == ("MAP2K1", "MAPK1")
    # a PMID-like id gives the pmid; other ids none; ungrounded agents carry TEXT only
    assert by["Complex", "67890"].evidence[0].pmid == "67890"
    foo = by["Complex", None]
    assert {a.name: a.db_refs for a in foo.members}["Foo"] == {"TEXT": "Foo"}
    # negated evidence and the unsigned Regulation are not written
    assert n == 7
    texts = [e.text for s in stmts for e in s.evidence]
    assert RELATIONS[5]["sentence"] not in texts and RELATIONS[6]["sentence"] not in texts


def test_negated_evidence_kept_on_request() -> None:
    stmts = indra_statements.stmts_from_json(
        list(statements(RELATIONS, keep_negated=True, symbol=SYMBOLS.get)))
    neg = [e for s in stmts for e in s.evidence if e.epistemics["negated"]]
    assert [e.text for e in neg] == [RELATIONS[5]["sentence"]]


def test_indra_assembles_the_statements_offline(tmp_path: Path) -> None:
    """INDRA's assembly steps that need no network: duplicates across documents combine
    into one statement with all their evidence; the hypothesis filter drops speculation."""
    from indra.ontology.bio import bio_ontology
    from indra.preassembler import Preassembler
    from indra.tools import assemble_corpus as ac

    out = tmp_path / "stmts.json"
    write_indra_records(RELATIONS, out, symbol=SYMBOLS.get)
    stmts = _load(out)
    unique = Preassembler(bio_ontology, stmts).combine_duplicates()
    phos = [s for s in unique if type(s).__name__ == "Phosphorylation"]
    assert len(phos) == 1 and sorted(e.pmid for e in phos[0].evidence) == ["12345", "67890"]
    cx = [s for s in unique if type(s).__name__ == "Complex"
          and sorted(a.name for a in s.members) == ["MDM2", "TP53"]]
    assert len(cx) == 1 and len(cx[0].evidence) == 3
    kept = ac.filter_no_hypothesis(stmts)
    dropped = [s for s in stmts if s not in kept]
    assert [e.text for s in dropped for e in s.evidence] == [RELATIONS[9]["sentence"]]


def test_format_indra_writes_documents_through_the_registry(tmp_path: Path) -> None:
    text = "MEK1 phosphorylates ERK2. p53 binds MDM2."
    ents = [Entity(id=f"T{i}", spans=[Span(start=text.index(w), end=text.index(w) + len(w))],
                   text=w, norm_ids=ids) for i, (w, ids) in
            enumerate([MEK, ERK, P53, MDM2], 1)]
    s0 = Sentence(id="d.s0", start=0, end=25, text=text[:25], entities=ents[:2], relations=[
        Relation(id="r0", arg1="T1", arg2="T2", type="Phosphorylation", label=True, score=0.8)])
    s1 = Sentence(id="d.s1", start=26, end=len(text), text=text[26:], entities=ents[2:],
                  relations=[Relation(id="r1", arg1="T3", arg2="T4", label=True, score=0.9),
                             Relation(id="r2", arg1="T4", arg2="T3", label=False, score=0.1)])
    doc = Document(id="PMID:424242", text=text, sentences=[s0, s1])
    out = tmp_path / "out.json"
    assert write([doc], out, "indra") == 1
    stmts = _load(out)
    assert sorted(type(s).__name__ for s in stmts) == ["Complex", "Phosphorylation"]
    phos = next(s for s in stmts if type(s).__name__ == "Phosphorylation")
    assert phos.enz.db_refs["HGNC"] == "6840" and phos.sub.db_refs["HGNC"] == "6871"
    ev = phos.evidence[0]
    assert ev.pmid == "424242" and ev.text == "MEK1 phosphorylates ERK2."
    assert ev.annotations["offsets"] == [[0, 4], [20, 24]]


@pytest.mark.slow
def test_extracted_relations_of_the_shipped_model_load_in_indra(tmp_path: Path) -> None:
    """relx's own output, end to end: the sample abstracts through the shipped model."""
    from relx.model_store import models_dir
    from relx.ppi.model import DEFAULT_MODEL

    samples = ROOT / "corpora" / "abstracts"
    if not (models_dir() / DEFAULT_MODEL / "meta.json").exists() or not samples.is_dir():
        pytest.skip("shipped model or sample abstracts missing")
    import relx
    from relx.io.registry import read

    docs = [d for d, _, _ in relx.load(task="ppi").annotate(read(samples))]
    out = tmp_path / "samples.json"
    write(docs, out, "indra")
    stmts = _load(out)
    reported = [r for d in docs for _, r in d.relations() if r.label]
    assert stmts and sum(len(s.evidence) for s in stmts) <= len(reported)
    # the typed pass: each statement type is what the relations' types map to (an untyped
    # pair and a Complex are INDRA Complexes; an unsigned Regulation has no Statement)
    expected = {"Complex" if r.type in ("PPI", "Complex") else r.type for r in reported
                if not r.negated} - {"Regulation"}
    assert {type(s).__name__ for s in stmts} == expected
    directed = [s for s in stmts if type(s).__name__ != "Complex"]
    assert all(len(s.agent_list()) == 2 and all(s.agent_list()) for s in directed)
    grounded = [a for s in stmts for a in s.agent_list() if set(a.db_refs) - {"TEXT"}]
    assert grounded and all(e.source_api == "relx" for s in stmts for e in s.evidence)
