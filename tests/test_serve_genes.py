"""``relx serve`` without ``--task``: the default task (document-level gene relations, as
``relx extract``), the real server over HTTP on a bundled sample abstract -- the records
of ``gene_relations.jsonl``, their OpenAPI schema, the writers' formats, the page's
fragment, options and jobs."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT
from test_serve import Server, start_server, stop_server

from relx.io.tsv import GENE_TSV_COLUMNS

pytestmark = pytest.mark.slow
SAMPLE = ROOT / "corpora" / "abstracts" / "p53-mdm2.txt"


@pytest.fixture(scope="module")
def genes(tmp_path_factory: pytest.TempPathFactory) -> Server:
    srv = start_server(tmp_path_factory.mktemp("serve-genes") / "server.log")
    yield srv
    stop_server(srv)


def _post(srv: Server, query: str, data: dict) -> tuple[int, bytes]:
    status, _, body = srv.call("POST", "/extract" + query, json.dumps(data).encode(),
                               {"Content-Type": "application/json"})
    return status, body


def test_the_default_task_is_gene_relations(genes: Server) -> None:
    status, _, body = genes.call("GET", "/ready")
    assert status == 200 and json.loads(body)["task"] == "gene-relations"
    status, _, body = genes.call("GET", "/models")
    models = json.loads(body)
    assert models["task"] == "gene-relations"
    assert {"gene-relations", "ppi-default", "ge-events"} <= {m["name"] for m in
                                                              models["models"]}
    assert {"json", "jsonl", "html", "tsv", "bioc", "pubtator", "indra"} <= set(
        models["formats"])


def test_text_gives_the_records_relx_extract_writes(genes: Server, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from relx.app.cli import app

    text = SAMPLE.read_text("utf-8")
    status, _, out = genes.post_json("/extract", {"text": text})
    assert status == 200, out
    assert set(out) == {"gene_relations", "errors", "documents"} and out["errors"] == []
    rows = out["gene_relations"]
    pairs = {frozenset((r["gene1"]["id"], r["gene2"]["id"])) for r in rows}
    assert frozenset(("4193", "7157")) in pairs and frozenset(("472", "7157")) in pairs
    # the same records, field for field, as relx extract's gene_relations.jsonl
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "text.txt").write_text(text, "utf-8")
    r = CliRunner().invoke(app, ["extract", str(tmp_path / "in"), "--out",
                                 str(tmp_path / "out"), "--quiet"])
    assert r.exit_code == 0, r.output
    written = [json.loads(x) for x in
               (tmp_path / "out" / "gene_relations.jsonl").read_text("utf-8").splitlines()]
    assert rows == written
    status, lines = _post(genes, "?format=jsonl", {"text": text})
    assert status == 200 and [json.loads(x) for x in lines.decode().splitlines()] == rows


def test_openapi_describes_the_gene_relation_records(genes: Server) -> None:
    status, _, body = genes.call("GET", "/openapi.json")
    spec = json.loads(body)
    schemas = spec["components"]["schemas"]
    answer = spec["paths"]["/extract"]["post"]["responses"]["200"]["content"]
    assert answer["application/json"]["schema"]["$ref"].endswith("/ExtractResponse")
    items = schemas["ExtractResponse"]["properties"]["gene_relations"]["items"]
    assert items["$ref"].endswith("/GeneRelation")
    from relx.ppi.gene_relations import Evidence, GeneRelation

    assert set(schemas["GeneRelation"]["properties"]) == set(GeneRelation.model_fields)
    assert set(schemas["Evidence"]["properties"]) == set(Evidence.model_fields)


def test_writer_formats_and_the_page_fragment(genes: Server) -> None:
    text = SAMPLE.read_text("utf-8")
    status, _, out = genes.post_json("/extract", {"text": text})
    n = len(out["gene_relations"])
    status, tsv = _post(genes, "?format=tsv", {"text": text})
    lines = tsv.decode().splitlines()
    assert status == 200 and lines[0].split("\t") == list(GENE_TSV_COLUMNS)
    assert len(lines) == n + 1
    status, pubtator = _post(genes, "?format=pubtator", {"text": text})
    relation_lines = [x for x in pubtator.decode().splitlines()
                      if x.split("\t")[1:2] and x.split("\t")[1] in (
                          "Association", "Positive_Correlation", "Negative_Correlation",
                          "Bind")]
    assert status == 200 and len(relation_lines) == n
    status, bioc = _post(genes, "?format=bioc", {"text": text})
    assert status == 200 and bioc.count(b"<relation ") == n
    status, html = _post(genes, "?format=html", {"text": text})
    page = html.decode()
    assert status == 200 and f'data-relations="{n}"' in page and "<svg" in page
    assert "MDM2" in page and "BioRED type" in page
    status, none = _post(genes, "?format=html", {"text": "No genes are named here."})
    assert status == 200 and "No gene relations found" in none.decode()


def test_options_as_relx_extract_takes_them_for_gene_relations(genes: Server) -> None:
    status, _, out = genes.post_json("/extract?threshold=0.5", {"text": "MDM2 binds p53."})
    assert status == 422 and "not an option of task gene-relations" in out["error"]
    status, out = genes.upload("abstracts.pubtator", (FIXTURES / "fmt-pubtator.txt"
                                                      ).read_bytes(), "?mentions=input")
    assert status == 200 and out["gene_relations"], out
    genes_of = {}
    for r in out["gene_relations"]:
        genes_of.setdefault(r["document_id"], set()).update((r["gene1"]["id"],
                                                             r["gene2"]["id"]))
    assert genes_of["90000011"] <= {"7157", "472", "4193"}   # the input's own NCBI Gene ids
    assert genes_of.get("90000012", set()) <= {"3569", "3570", "3572", "3716", "6774"}
    status, _, front = genes.post_json("/extract?sections=title", {"text": "MDM2 binds p53."})
    assert status == 200 and front["errors"] == []


def test_a_job_streams_the_gene_relation_records(genes: Server) -> None:
    docs = [{"id": f"g{k}", "text": SAMPLE.read_text("utf-8")} for k in range(2)]
    status, _, job = genes.post_json("/jobs", {"documents": docs})
    assert status == 202, job
    deadline = time.time() + 300
    while json.loads(genes.call("GET", f"/jobs/{job['id']}")[2])["state"] != "done":
        assert time.time() < deadline
        time.sleep(0.2)
    _, _, streamed = genes.call("GET", f"/jobs/{job['id']}/results")
    status, direct = _post(genes, "?format=jsonl", {"documents": docs})
    assert status == 200 and streamed == direct
    assert {json.loads(x)["document_id"] for x in direct.decode().splitlines()} == {"g0", "g1"}
