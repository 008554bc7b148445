"""The self-contained HTML report: structure (lxml.html) and, when Chromium is installed,
the page as a headless browser renders it (sorting JS, SVG, a screenshot)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import lxml.html
import pytest

from relx.ppi.report import network, node_key, render_report, write_report


def _rel(
    doc: str,
    sid: str,
    sentence: str,
    start: int,
    e1: tuple[str, list[str]],
    e2: tuple[str, list[str]],
    score: float | None,
) -> dict:
    def ent(i: int, text: str, ids: list[str], after: int = 0) -> dict:
        s = sentence.index(text, after)
        return {
            "id": f"{sid}.e{i}",
            "text": text,
            "start": start + s,
            "end": start + s + len(text),
            "type": "Protein",
            "norm_ids": ids,
        }

    a = ent(1, *e1)
    b = ent(2, e2[0], e2[1], after=a["end"] - start if e1[0] == e2[0] else 0)
    return {
        "document_id": doc,
        "sentence_id": sid,
        "sentence": sentence,
        "sentence_start": start,
        "sentence_end": start + len(sentence),
        "entity1": a,
        "entity2": b,
        "score": score,
        "model": "ppi-default",
        "model_version": "0.1.0",
    }


IL2 = ("IL-2", ["HGNC:6001"])
P53 = ("p53", ["HGNC:11998"])
ERK = ("ERK", ["FPLX:ERK", "HGNC:6871"])

RELATIONS = [
    _rel("PMID:1", "s1", "IL-2 binds p53 in <T> cells & more.", 0, IL2, P53, 0.91),
    _rel("PMID:1", "s2", "Again p53 interacts with IL-2.", 40, P53, IL2, 0.55),
    _rel("PMID:2", "s1", "ERK phosphorylates p53.", 100, ERK, P53, 0.83),
    _rel("PMID:2", "s2", "Foo protein binds BarX.", 130, ("Foo protein", []), ("BarX", []), 0.12),
    _rel("PMID:<script>", "s9", "IL-2 dimerises with IL-2.", 7, IL2, IL2, 0.7),
    _rel("PMID:3", "s1", "foo PROTEIN and ERK.", 0, ("foo PROTEIN", []), ERK, None),
]
SYMBOLS = {"HGNC:6001": "IL2", "HGNC:11998": "TP53", "FPLX:ERK": "ERK", "HGNC:6871": "MAPK1"}


def _write(tmp_path: Path) -> Path:
    out = tmp_path / "report.html"
    write_report(
        RELATIONS,
        out,
        title="PPI <report> & friends",
        summary={"input": "abstracts/*.xml", "threshold": 0.5, "config": {"k": 1}},
        symbol=SYMBOLS.get,
    )
    return out


def test_network_aggregates_by_grounded_symbol() -> None:
    net = network(RELATIONS, SYMBOLS.get)
    assert net.labels["HGNC:6001"] == "IL2"
    assert net.labels["text:foo protein"] == "foo protein"  # ungrounded: lower-cased text
    assert len(net.edges[("HGNC:11998", "HGNC:6001")]) == 2  # both directions aggregated
    assert ("HGNC:6001", "HGNC:6001") in net.edges  # self-interaction
    assert len(net.edges) == 5  # foo protein == Foo protein
    assert node_key({"text": "  Foo   Protein "}) == "text:foo protein"


def test_report_structure(tmp_path: Path) -> None:
    out = _write(tmp_path)
    text = out.read_text(encoding="utf-8")
    page = lxml.html.fromstring(text)
    # summary header and title, escaped
    assert page.findtext(".//title") == "PPI <report> & friends"
    assert "PPI &lt;report&gt; &amp; friends" in text
    assert "<report>" not in text and "<script>cells" not in text
    summary = {
        th.text_content(): td.text_content()
        for th, td in zip(
            page.xpath('//table[@class="summary"]//th'),
            page.xpath('//table[@class="summary"]//td'),
            strict=True,
        )
    }
    assert summary == {"input": "abstracts/*.xml", "threshold": "0.5", "config": '{"k": 1}'}
    assert "6 relations in 4 documents" in page.xpath('string(//p[@class="counts"])')
    # table: one row per relation, best score first, headers carry sort keys
    heads = page.xpath("//table[@id='relations']/thead//th/@data-key")
    assert heads == ["document", "sentence", "entity1", "entity2", "score"]
    rows = page.xpath("//table[@id='relations']/tbody/tr")
    assert len(rows) == len(RELATIONS)
    scores = [r.xpath("string(td[5])") for r in rows]
    assert scores == ["0.910", "0.830", "0.700", "0.550", "0.120", ""]
    # both mentions highlighted at their offsets; text escaped
    first = rows[0]
    assert first.xpath("td[2]/mark[@class='e1']/text()") == ["IL-2"]
    assert first.xpath("td[2]/mark[@class='e2']/text()") == ["p53"]
    assert first.xpath("string(td[2])") == "IL-2 binds p53 in <T> cells & more."
    assert "in &lt;T&gt; cells &amp; more" in text
    self_row = next(r for r in rows if r.xpath("string(td[1])") == "PMID:<script>")
    assert [m.text for m in self_row.xpath("td[2]/mark")] == ["IL-2", "IL-2"]
    assert "HGNC:6001 (IL2)" in first.xpath("string(td[3])")
    assert "FPLX:ERK (ERK), HGNC:6871 (MAPK1)" in rows[1].xpath("string(td[3])")
    # network: one node per protein, one edge (line or loop) per interacting pair
    svg = page.xpath("//svg")
    assert len(svg) == 1
    nodes = page.xpath("//svg//g[contains(@class,'node ')]")
    labels = sorted(n.xpath("string(.//text)") for n in nodes)
    assert labels == ["ERK", "IL2", "TP53", "barx", "foo protein"]
    assert len(page.xpath("//svg//g[contains(@class,'ungrounded')]")) == 2
    edges = page.xpath("//svg//*[contains(concat(' ',@class,' '),' edge ')]")
    assert len(edges) == 5
    assert len(page.xpath("//svg//circle[contains(@class,'loop')]")) == 1
    widths = {
        (e.get("data-source"), e.get("data-target")): float(e.get("stroke-width")) for e in edges
    }
    assert widths[("HGNC:11998", "HGNC:6001")] > widths[("FPLX:ERK", "HGNC:11998")]
    tips = [e.findtext("title") for e in edges]
    assert "TP53 \u2013 IL2: 2 relations, max score 0.91" in tips
    # self-contained: no external resources at all
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", text, re.I)
    assert "http" not in text
    assert not page.xpath("//link | //script[@src] | //img | //iframe")
    assert page.xpath("//style") and page.xpath("//script[not(@src)]")


def test_layout_is_deterministic_and_handles_no_relations(tmp_path: Path) -> None:
    a = render_report(RELATIONS, title="t", summary={}, symbol=SYMBOLS.get)
    b = render_report(RELATIONS, title="t", summary={}, symbol=SYMBOLS.get)
    assert a == b
    empty = render_report([], title="nothing", summary={"n": 0})
    page = lxml.html.fromstring(empty)
    assert not page.xpath("//table[@id='relations']/tbody/tr") and not page.xpath("//svg")


def test_default_symbols_come_from_the_grounding_lexicon(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    write_report(RELATIONS[:1], out, title="t", summary={})
    page = lxml.html.fromstring(out.read_text(encoding="utf-8"))
    assert sorted(page.xpath("//svg//g[contains(@class,'node ')]//text/text()")) == [
        "IL2",
        "TP53",
    ]


def test_large_networks_are_capped() -> None:
    rels = [
        _rel("d", f"s{i}", f"P{i} binds Q{i}.", 0, (f"P{i}", []), (f"Q{i}", []), 0.5)
        for i in range(30)
    ]
    page = lxml.html.fromstring(render_report(rels, title="t", summary={}, max_nodes=10))
    assert len(page.xpath("//svg//g[contains(@class,'node ')]")) == 10
    assert "of 60 proteins shown" in page.xpath("string(//figcaption)")
    assert len(page.xpath("//table[@id='relations']/tbody/tr")) == 30


# --- in a real browser ---------------------------------------------------------------------


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        exe = shutil.which(name)
        if exe:
            return exe
    pytest.skip("no chromium/chrome on PATH (apt-get install chromium)")


def _run_chromium(exe: str, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [
        exe,
        "--headless",
        "--disable-gpu",
        "--no-sandbox",
        "--no-first-run",
        "--disable-extensions",
        "--disable-dev-shm-usage",
        f"--user-data-dir={tmp_path / 'chrome-profile'}",
        *args,
    ]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        pytest.skip("headless chromium did not finish in time")
    if proc.returncode != 0 and not proc.stdout:
        pytest.skip(f"headless chromium failed: {proc.stderr[-500:]}")
    return proc


def test_headless_chromium_sorts_and_renders(tmp_path: Path) -> None:
    exe = _chromium()
    out = _write(tmp_path)
    url = out.resolve().as_uri()

    def rows_after(fragment: str) -> tuple[lxml.html.HtmlElement, list[lxml.html.HtmlElement]]:
        dom = _run_chromium(exe, tmp_path, "--dump-dom", url + fragment).stdout
        page = lxml.html.fromstring(dom)
        return page, page.xpath("//table[@id='relations']/tbody/tr")

    page, rows = rows_after("#sort=score")
    assert len(rows) == len(RELATIONS)
    scores = [r.xpath("string(td[5])") for r in rows]
    assert scores == ["", "0.120", "0.550", "0.700", "0.830", "0.910"]  # ascending, blank first
    head = page.xpath("//th[@data-key='score']")[0]
    assert head.get("aria-sort") == "ascending"
    assert len(page.xpath("//svg//g[contains(@class,'node ')]")) == 5
    assert len(page.xpath("//svg//*[contains(concat(' ',@class,' '),' edge ')]")) == 5

    _, rows = rows_after("#sort=document:desc")
    docs = [r.xpath("string(td[1])") for r in rows]
    assert docs[0] == "PMID:<script>" and docs[-1] == "PMID:1"
    assert docs == sorted(docs, reverse=True)

    png = tmp_path / "shot.png"
    _run_chromium(exe, tmp_path, f"--screenshot={png}", "--window-size=1200,1000", url)
    assert png.exists(), "no screenshot written"
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) > 20_000  # a blank page is a few kB


def test_node_label_is_the_first_id_with_a_symbol() -> None:
    """An input's own id (a bare NCBI Gene id from PubTator) keys the node; the label is
    the first of the entity's ids that has a symbol."""
    rel = _rel("d", "d.s0", "TP53 binds IL-2.", 0, ("TP53", ["7157", "HGNC:11998"]),
               ("IL-2", ["3558"]), 0.9)
    net = network([rel], SYMBOLS.get)
    assert net.labels == {"7157": "TP53", "3558": "3558"}


def test_negated_relations_are_marked() -> None:
    rel = {**_rel("d", "d.s0", "TP53 does not bind IL-2.", 0, ("TP53", []), ("IL-2", []), 0.7),
           "negated": True}
    page = lxml.html.fromstring(render_report([rel, _rel("d", "d.s1", "TP53 binds IL-2.", 30,
                                                         ("TP53", []), ("IL-2", []), 0.6)],
                                              title="t", summary={}, symbol=SYMBOLS.get))
    cells = page.xpath("//table[@id='relations']/tbody/tr/td[5]")
    assert [c.text_content() for c in cells] == ["0.700negated", "0.600"]
    assert [c.get("data-v") for c in cells] == ["0.7", "0.6"]
