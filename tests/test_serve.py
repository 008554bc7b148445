"""``relx serve``: the real server, started as a subprocess on a free loopback port (one
for the module: loading the models takes most of its time), and every endpoint called
over HTTP as a client would."""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT

FIXTURES = ROOT / "tests" / "fixtures"
RELX = [sys.executable, "-m", "relx.app.cli"]
TOKEN = "test-token-53"
ABSTRACT = ("MDM2 binds p53 and ubiquitinates it. MEK1 phosphorylates ERK2 on threonine 185. "
            "The ATM protein kinase phosphorylates TP53 at serine 15.")

pytestmark = pytest.mark.slow


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("RELX_SERVE_TOKEN", None)
    return env


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A running ``relx serve`` and a small client for it."""

    def __init__(self, port: int, proc: subprocess.Popen, log: Path) -> None:
        self.port, self.proc, self.log = port, proc, log

    def call(self, method: str, path: str, body: bytes | None = None,
             headers: dict[str, str] | None = None, token: bool = True
             ) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
        hdrs = {"Authorization": f"Bearer {TOKEN}"} if token else {}
        hdrs.update(headers or {})
        try:
            conn.request(method, path, body=body, headers=hdrs)
            resp = conn.getresponse()
            return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
        finally:
            conn.close()

    def post_json(self, path: str, data: Any) -> tuple[int, dict[str, str], Any]:
        status, headers, body = self.call("POST", path, json.dumps(data).encode(),
                                          {"Content-Type": "application/json"})
        return status, headers, json.loads(body) if body.startswith((b"{", b"[")) else body

    def upload(self, name: str, data: bytes, query: str = "") -> tuple[int, Any]:
        boundary = "relx-test-boundary-53"
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; "
                f"filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                ).encode() + data + f"\r\n--{boundary}--\r\n".encode()
        status, _, out = self.call("POST", "/extract" + query, body,
                                   {"Content-Type": f"multipart/form-data; boundary={boundary}"})
        return status, json.loads(out)


def start_server(log: Path, *options: str) -> Server:
    """``relx serve`` with ``options`` on a free port, once it is ready."""
    if not (os.environ.get("RELX_DATA") or (ROOT.parent / "shared").is_dir()):
        pytest.skip("no RELX_DATA")
    port = _free_port()
    with open(log, "wb") as fh:
        proc = subprocess.Popen([*RELX, "serve", "--port", str(port), *options],
                                stdout=fh, stderr=subprocess.STDOUT, env=_env(), cwd=ROOT)
    srv = Server(port, proc, log)
    deadline = time.time() + 600
    while time.time() < deadline and proc.poll() is None:
        try:
            if srv.call("GET", "/ready")[0] == 200:
                break
        except OSError:
            pass
        time.sleep(0.5)
    else:
        proc.kill()
        pytest.fail(f"relx serve did not get ready:\n{log.read_text()}")
    return srv


def stop_server(srv: Server) -> None:
    if srv.proc.poll() is None:
        srv.proc.send_signal(signal.SIGTERM)
        try:
            srv.proc.wait(60)
        except subprocess.TimeoutExpired:
            srv.proc.kill()
            raise


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Server:
    """Task ppi (mention-level pairs; ``test_serve_genes.py``: the default task)."""
    srv = start_server(tmp_path_factory.mktemp("serve") / "server.log", "--task", "ppi",
                       "--queue", "1", "--max-body-mb", "1", "--max-doc-chars", "5000",
                       "--token", TOKEN)
    yield srv
    stop_server(srv)


def test_health_ready_models_and_openapi(server: Server) -> None:
    status, _, body = server.call("GET", "/health", token=False)   # no token needed
    assert status == 200 and json.loads(body)["status"] == "ok"
    status, _, body = server.call("GET", "/ready")
    assert status == 200 and json.loads(body) == {**json.loads(body), "ready": True,
                                                  "task": "ppi"}
    status, _, body = server.call("GET", "/models")
    models = json.loads(body)
    assert status == 200 and models["task"] == "ppi"
    names = {m["name"]: m for m in models["models"]}
    assert "ppi-default" in names and "ge-events" in names
    assert names["ppi-default"]["version"] != "?" and names["ppi-default"]["trained_on"]
    assert {"json", "jsonl", "html", "indra", "pubtator", "bioc", "tsv"} <= set(models["formats"])
    status, _, body = server.call("GET", "/openapi.json", token=False)   # no data in it
    spec = json.loads(body)
    assert status == 200 and "/extract" in spec["paths"]
    params = {p["name"] for p in spec["paths"]["/extract"]["post"]["parameters"]}
    assert {"format", "threshold", "sections", "mentions", "orthologs"} <= params
    request = spec["components"]["schemas"]["ExtractRequest"]["properties"]
    assert {"text", "documents", "threshold", "mentions"} <= set(request)
    status, headers, body = server.call("GET", "/docs", token=False)
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert b"/openapi.json" in body


def test_the_token_is_checked(server: Server) -> None:
    status, headers, body = server.call("GET", "/models", token=False)
    assert status == 401 and headers["www-authenticate"] == "Bearer"
    assert "token" in json.loads(body)["error"]
    status, _, _ = server.call("GET", "/models", headers={"Authorization": "Bearer nope"},
                               token=False)
    assert status == 401


def test_text_gives_the_records_of_relations_jsonl(server: Server) -> None:
    status, _, out = server.post_json("/extract", {"text": ABSTRACT})
    assert status == 200, out
    assert out["errors"] == [] and out["documents"] == 1
    pairs = {frozenset((r["entity1"]["text"], r["entity2"]["text"])) for r in out["relations"]}
    assert frozenset(("MDM2", "p53")) in pairs
    r = out["relations"][0]
    assert r["document_id"] == "text" and r["model"] == "ppi-default" and r["score"] > 0
    status, headers, lines = server.call("POST", "/extract?format=jsonl",
                                         json.dumps({"text": ABSTRACT}).encode(),
                                         {"Content-Type": "application/json"})
    assert status == 200 and headers["content-type"].startswith("application/x-ndjson")
    assert [json.loads(x) for x in lines.decode().splitlines()] == out["relations"]


def test_documents_and_a_per_document_size_cap(server: Server) -> None:
    docs = [{"id": "a", "text": ABSTRACT}, {"id": "huge", "text": "p53 " * 2000},
            {"id": "b", "text": "MEK1 phosphorylates ERK2."}]
    status, _, out = server.post_json("/extract", {"documents": docs})
    assert status == 200, out
    assert {r["document_id"] for r in out["relations"]} == {"a", "b"}
    assert [(e["document"], e["limit"]) for e in out["errors"]] == [("huge", "max_doc_chars")]
    status, _, out = server.post_json("/extract", {"text": "p53 " * 2000})   # a lone text
    assert status == 413 and "5000" in out["error"]


def test_threshold_is_applied(server: Server) -> None:
    _, _, default = server.post_json("/extract", {"text": ABSTRACT})
    status, _, high = server.post_json("/extract", {"text": ABSTRACT, "threshold": 0.99})
    assert status == 200
    assert all(r["score"] > 0.99 and r["threshold"] == 0.99 for r in high["relations"])
    assert len(high["relations"]) <= len(default["relations"])
    listed = ABSTRACT + " Serum IL-2, IL-4, IL-6 and TNF levels were measured in patients."
    _, _, some = server.post_json("/extract", {"text": listed})
    status, _, low = server.post_json("/extract?threshold=0.01", {"text": listed})
    assert status == 200 and all(r["threshold"] == 0.01 for r in low["relations"])
    assert len(low["relations"]) > len(some["relations"])   # as relx extract --threshold
    status, _, body = server.post_json("/extract?threshold=0.01", {"text": ABSTRACT,
                                                                   "threshold": 0.99})
    assert [r["threshold"] for r in body["relations"]] == [0.99] * len(high["relations"])
    status, _, domain = server.post_json("/extract?threshold=in-domain", {"text": ABSTRACT})
    assert status == 200 and domain["relations"]
    _, _, again = server.post_json("/extract", {"text": ABSTRACT})   # nothing leaked
    assert again == default


def test_sections_mentions_and_orthologs_as_in_the_cli(server: Server) -> None:
    jats = (FIXTURES / "papers" / "jats-features.nxml").read_bytes()
    status, whole = server.upload("paper.nxml", jats)
    status, front = server.upload("paper.nxml", jats, "?sections=title,abstract")
    assert status == 200 and front["relations"]
    assert {r["section"] for r in front["relations"]} == {"TITLE", "ABSTRACT"}
    assert {"INTRO", "RESULTS"} <= {r["section"] for r in whole["relations"]}
    # a JSON text brings no mentions of its own: 'input' leaves it none, 'relx' tags them
    status, _, given = server.post_json("/extract?mentions=input", {"text": ABSTRACT})
    assert status == 200 and given["relations"] == []
    status, _, tagged = server.post_json("/extract", {"text": ABSTRACT, "mentions": "relx"})
    assert status == 200 and tagged["relations"]
    mouse = {"text": "In mice, murine Jak2 binds Stat3."}
    _, _, own = server.post_json("/extract", mouse)
    status, _, human = server.post_json("/extract?orthologs=human", mouse)
    assert status == 200 and own["relations"] and human["relations"]
    assert own["relations"][0]["entity1"]["norm_ids"][0].startswith("MGI:")
    assert human["relations"][0]["entity1"]["norm_ids"][0].startswith("HGNC:")
    assert human["relations"][0]["entity1"]["taxon"] == "NCBITaxon:10090"


@pytest.mark.parametrize("query, body, field", [
    ("threshold=abc", {}, "threshold"), ("threshold=1.5", {}, "threshold"),
    ("threshold=-0.1", {}, "threshold"), ("threshold=nan", {}, "threshold"),
    ("", {"threshold": True}, "threshold"), ("", {"threshold": "high"}, "threshold"),
    ("sections=appendix", {}, "section"), ("", {"sections": ""}, "section"),
    ("mentions=everyone", {}, "mentions"), ("", {"mentions": 3}, "mentions"),
    ("orthologs=mouse", {}, "orthologs"), ("", {"orthologs": ["human"]}, "orthologs"),
])
def test_bad_options_are_a_422_naming_them(server: Server, query: str, body: dict,
                                           field: str) -> None:
    status, headers, out = server.post_json(f"/extract?{query}", {"text": "p53", **body})
    assert status == 422 and headers["content-type"] == "application/json", out
    assert field in out["error"], out


def test_options_a_task_does_not_take_are_refused() -> None:
    from relx.app.serve.options import Options, check
    from relx.tasks import TASKS

    events, ppi = TASKS["events"], TASKS["ppi"]
    assert check(ppi, Options(threshold=0.5, mentions="both", orthologs="human",
                              sections="title,abstract")) is None
    assert "not an option of task events" in check(events, Options(threshold=0.5))
    assert "not an option of task events" in check(events, Options(orthologs="human"))
    assert "mentions must be one of" in check(events, Options(mentions="both"))
    assert check(events, Options(mentions="relx", sections="all")) is None
    assert "unknown section" in check(ppi, Options(sections="title,appendix"))


def test_indra_statements_load_in_indra(server: Server) -> None:
    stmts_mod = pytest.importorskip("indra.statements", reason="the indra test extra")
    status, headers, body = server.call("POST", "/extract?format=indra",
                                        json.dumps({"text": ABSTRACT}).encode(),
                                        {"Content-Type": "application/json"})
    assert status == 200 and headers["content-type"] == "application/json"
    stmts = stmts_mod.stmts_from_json(json.loads(body))
    assert stmts and {a.name for s in stmts for a in s.agent_list() if a} & {"MDM2", "TP53"}


@pytest.mark.parametrize("fmt, marker", [("pubtator", b"|t|"), ("bioc", b"<collection"),
                                         ("tsv", b"\t")])
def test_writer_formats(server: Server, fmt: str, marker: bytes) -> None:
    status, _, body = server.call("POST", f"/extract?format={fmt}",
                                  json.dumps({"text": ABSTRACT}).encode(),
                                  {"Content-Type": "application/json"})
    assert status == 200 and marker in body


def test_uploaded_pubtator_and_bioc(server: Server) -> None:
    status, out = server.upload("abstracts.pubtator", (FIXTURES / "fmt-pubtator.txt").read_bytes())
    assert status == 200 and out["errors"] == [] and out["documents"] >= 2
    assert "90000011" in {r["document_id"] for r in out["relations"]}
    status, out = server.upload("collection.xml", (FIXTURES / "fmt-bioc.xml").read_bytes())
    assert status == 200 and out["documents"] >= 1, out


def test_xxe_in_an_uploaded_xml_is_not_expanded(server: Server) -> None:
    secret = "relx-xxe-secret-53"
    target = Path(server.log).parent / "secret.txt"
    target.write_text(secret)
    xml = (f'<?xml version="1.0"?>\n<!DOCTYPE collection [<!ENTITY xxe SYSTEM '
           f'"file://{target}"><!ENTITY inner "{secret}">]>\n'
           '<collection><source>x</source><date>2024</date><key>k</key><document><id>1</id>'
           '<passage><infon key="type">abstract</infon><offset>0</offset>'
           '<text>MDM2 binds p53. &xxe; &inner;</text></passage></document></collection>')
    status, out = server.upload("evil.xml", xml.encode())
    assert status in (200, 422), out
    assert secret not in json.dumps(out)


def test_a_garbage_pdf_is_a_per_document_error(server: Server) -> None:
    status, out = server.upload("paper.pdf", b"%PDF-1.7\n" + os.urandom(3000))
    assert status == 200, out
    assert out["errors"] and out["errors"][0]["document"] == "paper.pdf"
    assert str(Path("/tmp")) not in out["errors"][0]["message"]   # no server path told


@pytest.mark.parametrize("body, ctype, status", [
    (b"{not json", "application/json", 400),
    (b'{"text": 5}', "application/json", 422),
    (b'["text"]', "application/json", 422),
    (b'{"text": "a", "documents": []}', "application/json", 422),
    (b'{"texts": "a"}', "application/json", 422),
    (b'{"documents": [{"id": "a", "text": "x"}, {"id": "a", "text": "y"}]}',
     "application/json", 422),
    (b'{"text": "a", "threshold": "high"}', "application/json", 422),
    (b"p53 binds MDM2", "text/plain", 415),
    (b"--x\r\n\r\n--x--\r\n", "multipart/form-data; boundary=x", 400),
    (b"--x\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\np53\r\n--x--\r\n",
     "multipart/form-data; boundary=x", 422),
])
def test_bad_input_is_a_4xx_with_a_message(server: Server, body: bytes, ctype: str,
                                           status: int) -> None:
    got, headers, out = server.call("POST", "/extract", body, {"Content-Type": ctype})
    assert got == status and headers["content-type"] == "application/json"
    assert json.loads(out)["error"]


def test_unknown_format_path_and_query(server: Server) -> None:
    status, _, out = server.post_json("/extract?format=docx", {"text": "p53"})
    assert status == 422 and "indra" in out["error"]
    status, _, out = server.post_json("/extract?colour=red", {"text": "p53"})
    assert status == 422
    status, _, body = server.call("GET", "/etc/passwd")
    assert status == 404 and json.loads(body)["error"].startswith("no such endpoint")


def test_a_too_large_body_is_413_before_it_is_read(server: Server) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    conn.putrequest("POST", "/extract")
    conn.putheader("Authorization", f"Bearer {TOKEN}")
    conn.putheader("Content-Type", "application/json")
    conn.putheader("Content-Length", str(50 * 2**20))   # 50 MB announced
    conn.endheaders()
    try:
        conn.send(b'{"text": "' + b"a" * 65536)
    except OSError:
        pass   # the server may close first
    resp = conn.getresponse()
    assert resp.status == 413 and "limit" in json.loads(resp.read())["error"]
    conn.close()


def test_a_full_queue_is_503_with_retry_after(server: Server) -> None:
    docs = [{"id": f"d{k}", "text": ABSTRACT + f" Case {k}."} for k in range(40)]
    first: list[int] = []
    t = threading.Thread(target=lambda: first.append(
        server.post_json("/extract", {"documents": docs})[0]))
    t.start()
    deadline = time.time() + 60
    while json.loads(server.call("GET", "/ready")[2])["in_flight"] == 0:   # admitted
        assert t.is_alive() and time.time() < deadline
        time.sleep(0.01)
    seen = None
    while t.is_alive() and time.time() < deadline and seen is None:
        status, headers, body = server.call("POST", "/extract", b'{"text": "p53"}',
                                            {"Content-Type": "application/json"})
        if status == 503:
            seen = (headers, json.loads(body))
        time.sleep(0.05)
    t.join(300)
    assert first == [200]
    assert seen is not None, "no 503 while the only queue slot was taken"
    assert int(seen[0]["retry-after"]) > 0 and "queue" in seen[1]["error"]
    status, _, _ = server.post_json("/extract", {"text": "p53"})   # free again
    assert status == 200


def _wait_over(server: Server, job_id: str) -> dict:
    deadline = time.time() + 300
    while time.time() < deadline:
        status, _, body = server.call("GET", f"/jobs/{job_id}")
        job = json.loads(body)
        assert status == 200, job
        if job["state"] in ("done", "failed", "cancelled"):
            return job
        time.sleep(0.2)
    raise AssertionError(f"job {job_id} not over")


def test_a_job_runs_after_its_client_left_and_streams_its_records(server: Server) -> None:
    docs = [{"id": f"j{k}", "text": ABSTRACT} for k in range(6)] + [
        {"id": "huge", "text": "p53 " * 2000}]
    # submitted on a connection closed at once: the job goes on
    status, headers, out = server.post_json("/jobs", {"documents": docs})
    assert status == 202 and headers["location"] == f"/jobs/{out['id']}", out
    streamed: list[bytes] = []
    t = threading.Thread(target=lambda: streamed.append(
        server.call("GET", f"/jobs/{out['id']}/results")[2]))
    t.start()
    job = _wait_over(server, out["id"])
    t.join(300)
    assert job["state"] == "done" and job["documents"] == job["documents_done"] == 7
    assert [e["document"] for e in job["errors"]] == ["huge"]
    _, _, direct = server.call("POST", "/extract?format=jsonl",
                               json.dumps({"documents": docs}).encode(),
                               {"Content-Type": "application/json"})
    assert streamed[0] == direct and streamed[0].count(b"\n") >= 6
    for path in ("/jobs/0123456789abcdef", "/jobs/0123456789abcdef/results",
                 "/jobs/..%2F..%2Fetc/results"):
        status, _, body = server.call("GET", path)
        assert status == 404 and "no " in json.loads(body)["error"], (path, body)


def test_a_job_is_cancelled(server: Server) -> None:
    docs = [{"id": f"c{k}", "text": ABSTRACT + f" Case {k}."} for k in range(60)]
    status, _, out = server.post_json("/jobs", {"documents": docs})
    assert status == 202
    status, _, body = server.call("DELETE", f"/jobs/{out['id']}")
    assert status == 200
    job = _wait_over(server, out["id"])
    assert job["state"] == "cancelled" and job["documents_done"] < 60


def test_a_bad_job_is_refused_at_once(server: Server) -> None:
    status, _, out = server.post_json("/jobs", {"documents": "many"})
    assert status == 422 and out["error"]


def test_the_page_in_headless_chromium(server: Server, tmp_path: Path) -> None:
    """GET / is served without the token; in real Chromium, the text given in the page's
    address is extracted and shown: highlighted proteins, the table, the network."""
    status, headers, body = server.call("GET", "/", token=False)
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert b'id="text"' in body and b'type="file"' in body
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("no chromium")
    url = (f"http://127.0.0.1:{server.port}/#" +
           urllib.parse.urlencode({"text": ABSTRACT, "token": TOKEN}))
    res = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                          f"--user-data-dir={tmp_path}", "--virtual-time-budget=60000",
                          "--dump-dom", url], capture_output=True, text=True, timeout=180)
    dom = res.stdout
    assert 'id="found"' in dom, (res.stderr[-2000:], dom[-2000:])
    assert re.search(r'data-relations="[1-9]', dom)
    assert '<mark class="e1">' in dom and '<mark class="e2">' in dom
    assert "<svg" in dom and "MDM2" in dom


def test_a_non_loopback_host_needs_a_token() -> None:
    res = subprocess.run([*RELX, "serve", "--host", "0.0.0.0", "--port", str(_free_port())],
                         capture_output=True, text=True, env=_env(), cwd=ROOT, timeout=120)
    assert res.returncode == 2 and "--token" in res.stderr


def test_a_request_whose_client_left_is_cancelled(server: Server) -> None:
    """/extract stops after the document in hand when its client disconnects (a job
    does not: test_a_job_runs_after_its_client_left...)."""
    docs = [{"id": f"gone{k}", "text": ABSTRACT + f" Case {k}."} for k in range(300)]
    body = json.dumps({"documents": docs}).encode()
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(f"POST /extract HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}"
                     f"\r\nContent-Type: application/json\r\nContent-Length: {len(body)}"
                     "\r\n\r\n".encode() + body)
        deadline = time.time() + 60
        while json.loads(server.call("GET", "/ready")[2])["in_flight"] == 0:
            assert time.time() < deadline
            time.sleep(0.05)
    left = time.time()   # 300 abstracts take minutes; the request ends within seconds
    while json.loads(server.call("GET", "/ready")[2])["in_flight"]:
        assert time.time() - left < 30, "the request went on after its client left"
        time.sleep(0.1)


def _by_worker(srv: Server, path: str, workers: int = 2) -> dict[str, Any]:
    """``GET path`` on fresh connections until every worker answered: pid -> body."""
    seen: dict[str, Any] = {}
    deadline = time.time() + 120
    while len(seen) < workers:
        assert time.time() < deadline, seen.keys()
        status, headers, body = srv.call("GET", path)
        assert status == 200, body
        seen[headers["x-relx-worker"]] = body
    return seen


def test_two_workers_forked_after_the_load_share_jobs_and_stop_on_sigterm(
        server: Server, tmp_path: Path) -> None:
    port = _free_port()
    log = tmp_path / "workers.log"
    with open(log, "wb") as fh:
        proc = subprocess.Popen([*RELX, "serve", "--task", "ppi", "--port", str(port),
                                 "--workers", "2"],
                                stdout=fh, stderr=subprocess.STDOUT, env=_env(), cwd=ROOT)
    srv = Server(port, proc, log)
    try:
        deadline = time.time() + 600
        while log.read_text().count("ready on") < 2:
            assert time.time() < deadline and proc.poll() is None, log.read_text()
            time.sleep(0.2)
        text = log.read_text()
        assert text.count("models loaded") == 1, text   # once, in the parent
        pids = set(_by_worker(srv, "/health"))
        assert len(pids) == 2 and str(proc.pid) not in pids
        for _ in range(4):   # both workers extract with the parent's models
            status, headers, out = srv.post_json("/extract", {"text": ABSTRACT})
            assert status == 200 and out["relations"], out
        docs = [{"id": f"w{k}", "text": ABSTRACT} for k in range(4)]
        status, _, job = srv.post_json("/jobs", {"documents": docs})
        assert status == 202, job
        while True:   # every worker answers for the job, whichever runs it
            states = {json.loads(b)["state"] for b in
                      _by_worker(srv, f"/jobs/{job['id']}").values()}
            assert states <= {"queued", "running", "done"}, states
            if states == {"done"}:
                break
            time.sleep(0.2)
        results = set(_by_worker(srv, f"/jobs/{job['id']}/results").values())
        _, _, direct = srv.call("POST", "/extract?format=jsonl",
                                json.dumps({"documents": docs}).encode(),
                                {"Content-Type": "application/json"})
        assert results == {direct} and direct.count(b"\n") >= 4
        folder = next(Path(tempfile.gettempdir()).glob(f"relx-serve-jobs-*/{job['id']}"))
    finally:
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(120)
    assert code == 0, log.read_text()
    assert log.read_text().count("stopped") == 2
    assert not folder.parent.exists()   # the jobs' folder is removed with the server


def test_zz_sigterm_drains_the_request_in_flight(server: Server) -> None:
    """Last (it stops the module's server): SIGTERM while a request is being extracted;
    the request still gets its answer, and the server exits 0."""
    docs = [{"id": f"d{k}", "text": ABSTRACT} for k in range(20)]
    got: list[Any] = []
    t = threading.Thread(target=lambda: got.append(
        server.post_json("/extract", {"documents": docs})))
    t.start()
    time.sleep(0.5)
    server.proc.send_signal(signal.SIGTERM)
    t.join(300)
    assert got and got[0][0] == 200 and got[0][2]["documents"] == 20
    assert server.proc.wait(60) == 0
    assert "draining" in server.log.read_text()
    with pytest.raises((urllib.error.URLError, OSError)):
        urllib.request.urlopen(f"http://127.0.0.1:{server.port}/health", timeout=5)
