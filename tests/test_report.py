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
    il2_p53 = net.edges["HGNC:11998", "HGNC:6001", "Interaction", False]
    assert il2_p53.relations == 2 and il2_p53.documents == ["PMID:1"]  # both orders
    assert ("HGNC:6001", "HGNC:6001", "Interaction", False) in net.edges  # self-interaction
    assert len(net.kept_edges()) == 5  # foo protein == Foo protein
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
            page.xpath('//section[@id="summary"]/table[@class="summary"]//th'),
            page.xpath('//section[@id="summary"]/table[@class="summary"]//td'),
            strict=True,
        )
    }
    assert summary == {"input": "abstracts/*.xml", "threshold": "0.5", "config": '{"k": 1}'}
    assert "6 relations in 4 documents" in page.xpath('string(//p[@class="counts"])')
    # first screen: the network and the top interactions; the raw summary comes last
    sections = [x.get("id") for x in page.xpath("//section")]
    assert sections == ["network", "top", "table", "summary"]
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
    # document ids that are PMIDs link to PubMed; others stay text
    assert first.xpath("td[1]/a/@href") == ["https://pubmed.ncbi.nlm.nih.gov/1/"]
    assert not self_row.xpath("td[1]/a")
    # top interactions: strongest first, with counts and PubMed links
    top = page.xpath("//table[@id='interactions']/tbody/tr")
    assert len(top) == 5
    assert top[0].xpath("string(td[1])") == "TP53 \u2013 IL2"
    assert [top[0].xpath(f"string(td[{i}])") for i in (2, 3, 4, 5)] == [
        "Interaction", "1", "2", "0.910"]
    assert top[0].xpath("td[8]/a/@href") == ["https://pubmed.ncbi.nlm.nih.gov/1/"]
    # network: one node per protein, one edge (path or loop) per interacting pair
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
    assert "TP53 \u2013 IL2 (Interaction): 2 relations in 1 document, max score 0.91" in tips
    # self-contained: nothing fetched; the only links are PubMed pages
    assert not re.search(r"""src\s*=\s*["']?\s*(https?:)?//""", text, re.I)
    hrefs = page.xpath("//@href")
    assert hrefs and all(h.startswith("https://pubmed.ncbi.nlm.nih.gov/") for h in hrefs)
    assert text.count("http") == len(hrefs)
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
        "--disable-background-networking",
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


@pytest.mark.slow
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


# Measures the rendered labels in the page itself: pairs of visible node labels whose boxes
# intersect (by more than 1 px each way), and labels drawn over another node's circle.
_MEASURE = """<script>
(function(){
  function box(e){return e.getBoundingClientRect();}
  function hit(a,b){return Math.min(a.right,b.right)-Math.max(a.left,b.left)>1 &&
                           Math.min(a.bottom,b.bottom)-Math.max(a.top,b.top)>1;}
  var texts=[].slice.call(document.querySelectorAll('svg .node text.label:not(.hidden)'));
  var labels=texts.map(box), n=0, m=0;
  for(var i=0;i<labels.length;i++)for(var j=i+1;j<labels.length;j++)if(hit(labels[i],labels[j]))n++;
  texts.forEach(function(t,i){
    [].slice.call(document.querySelectorAll('svg .node circle')).forEach(function(c){
      if(c.parentNode!==t.parentNode&&hit(labels[i],box(c)))m++;});});
  var top=document.getElementById('top').getBoundingClientRect();
  var net=document.getElementById('network').getBoundingClientRect();
  document.body.setAttribute('data-labels',labels.length);
  document.body.setAttribute('data-label-overlaps',n);
  document.body.setAttribute('data-label-node-overlaps',m);
  document.body.setAttribute('data-top-beside-network',top.left>=net.right?1:0);
  document.body.setAttribute('data-top-visible',top.top<window.innerHeight?1:0);
})();
</script>"""


@pytest.mark.slow
def test_headless_chromium_curator_first_screen(tmp_path: Path) -> None:
    """The curator view in a real browser: labels that do not overlap each other or other
    nodes, the top interactions beside the network on a wide screen, and a screenshot kept
    with the test's files (``tmp_path``; copied to ``$RELX_TEST_ARTIFACTS`` when set)."""
    import os

    exe = _chromium()
    out = tmp_path / "curator.html"
    write_report(_curated(), out, title="relx: curator view", summary={"threshold": 0.233},
                 symbol=SYMBOLS.get)
    probe = tmp_path / "curator-measured.html"
    probe.write_text(out.read_text(encoding="utf-8").replace("</body>", _MEASURE + "</body>"),
                     encoding="utf-8")
    dom = _run_chromium(exe, tmp_path, "--window-size=1400,1000", "--dump-dom",
                        probe.resolve().as_uri()).stdout
    body = lxml.html.fromstring(dom).find("body")
    assert int(body.get("data-labels")) >= 30
    assert body.get("data-label-overlaps") == "0"
    assert body.get("data-label-node-overlaps") == "0"
    assert body.get("data-top-beside-network") == "1" and body.get("data-top-visible") == "1"

    png = tmp_path / "curator-first-screen.png"
    _run_chromium(exe, tmp_path, f"--screenshot={png}", "--window-size=1400,1000",
                  out.resolve().as_uri())
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 50_000
    if os.environ.get("RELX_TEST_ARTIFACTS"):
        keep = Path(os.environ["RELX_TEST_ARTIFACTS"])
        keep.mkdir(parents=True, exist_ok=True)
        shutil.copy(png, keep / png.name)


def test_node_label_is_the_first_id_with_a_symbol() -> None:
    """An input's own id (a bare NCBI Gene id from PubTator) is namespaced; the node is
    keyed by the HGNC id when the entity has one (so it meets plain-text mentions of the same
    protein); the label is the first id's symbol, else the mention text."""
    rel = _rel("d", "d.s0", "TP53 binds IL-2.", 0, ("TP53", ["7157", "HGNC:11998"]),
               ("IL-2", ["3558"]), 0.9)
    rel["entity2"]["type"] = "Gene"
    net = network([rel], SYMBOLS.get)
    assert net.labels == {"HGNC:11998": "TP53", "NCBIGene:3558": "IL-2"}


def test_negated_relations_are_marked() -> None:
    rel = {**_rel("d", "d.s0", "TP53 does not bind IL-2.", 0, ("TP53", []), ("IL-2", []), 0.7),
           "negated": True}
    page = lxml.html.fromstring(render_report([rel, _rel("d", "d.s1", "TP53 binds IL-2.", 30,
                                                         ("TP53", []), ("IL-2", []), 0.6)],
                                              title="t", summary={}, symbol=SYMBOLS.get))
    cells = page.xpath("//table[@id='relations']/tbody/tr/td[5]")
    assert [c.text_content() for c in cells] == ["0.700negated", "0.600"]
    assert [c.get("data-v") for c in cells] == ["0.7", "0.6"]


# --- curator view: typed, directed, negated, many proteins -----------------------------------


def _curated() -> list[dict]:
    """Relations a curator sees: typed and directed ones, negated and speculated ones, and a
    crowd of proteins around a hub across many PubMed abstracts."""
    rels = [
        {**_rel("11111111", "a.s0", "ERK phosphorylates p53.", 0, ERK, P53, 0.8),
         "type": "Phosphorylation", "direction": "entity1->entity2"},
        {**_rel("11111111", "a.s1", "p53 inhibits IL-2 strongly.", 30, P53, IL2, 0.7),
         "type": "Inhibition", "direction": "entity1->entity2"},
        {**_rel("22222222", "b.s0", "IL-2 binds p53.", 0, IL2, P53, 0.9), "speculated": True},
        {**_rel("22222222", "b.s1", "ERK does not bind IL-2.", 20, ERK, IL2, 0.95),
         "negated": True},
    ]
    for i in range(40):
        hub = ("MAPK1", ["HGNC:6871"])
        rels.append(_rel(str(30000000 + i), f"c{i}.s0", f"MAPK1 binds PROTEINX{i}.", 0, hub,
                         (f"PROTEINX{i}", [f"HGNC:{90000 + i}"]), 0.5 + i / 100))
    return rels


def test_typed_directed_edges_negated_left_out_and_marked(tmp_path: Path) -> None:
    rels = _curated()
    page = lxml.html.fromstring(render_report(rels, title="t", summary={"n": 1},
                                              symbol=SYMBOLS.get))
    edges = page.xpath("//svg//*[contains(concat(' ',@class,' '),' edge ')]")
    by = {(e.get("data-source"), e.get("data-target"), e.get("data-type")): e for e in edges}
    phos = by["FPLX:ERK", "HGNC:11998", "Phosphorylation"]
    assert phos.get("data-directed") == "true" and "url(#arrow-" in phos.get("marker-end")
    inh = by["HGNC:11998", "HGNC:6001", "Inhibition"]
    assert "url(#tee-" in inh.get("marker-end")
    cx = by["HGNC:11998", "HGNC:6001", "Interaction"]
    assert cx.get("data-directed") == "false" and cx.get("marker-end") is None
    assert len({phos.get("stroke"), inh.get("stroke"), cx.get("stroke")}) == 3  # by type
    # two edges between p53 and IL-2 (Inhibition, Interaction) are drawn side by side
    assert inh.get("d") != cx.get("d") and " Q" in inh.get("d")
    # the negated ERK - IL-2 relation is no edge, but is in the table, marked
    assert not [k for k in by if set(k[:2]) == {"FPLX:ERK", "HGNC:6001"}]
    assert "1 negated relations left out" in page.xpath("string(//figcaption)")
    marks = [r.xpath("string(td[5])") for r in page.xpath("//table[@id='relations']/tbody/tr")]
    assert "0.950negated" in marks and "0.900speculated" in marks
    legend = page.xpath("//ul[@class='legend']/li")
    assert [li.text_content() for li in legend] == [
        "Inhibition (directed)", "Interaction", "Phosphorylation (directed)"]
    # every edge end has its node
    nodes = {n.get("data-id") for n in page.xpath("//svg//g[contains(@class,'node ')]")}
    assert all(e.get("data-source") in nodes and e.get("data-target") in nodes for e in edges)


def test_crowded_labels_are_left_to_the_tooltip() -> None:
    rels = [_rel("1", f"s{i}", f"HUB binds NEIGHBOURPROTEIN{i}.", 0, ("HUB", ["HGNC:1"]),
                 (f"NEIGHBOURPROTEIN{i}", [f"HGNC:{i + 2}"]), 0.6) for i in range(120)]
    page = lxml.html.fromstring(render_report(rels, title="t", summary={}, width=480,
                                              height=320, symbol=lambda _: None))
    labels = page.xpath("//svg//g[contains(@class,'node ')]/text")
    hidden = [t for t in labels if "hidden" in t.get("class")]
    assert hidden and len(hidden) < len(labels)
    assert f"{len(hidden)} crowded labels shown on hover only" in page.xpath(
        "string(//figcaption)")
    shown = [t for t in labels if "hidden" not in t.get("class")]
    assert "HUB" in [t.text for t in shown]   # the most connected protein keeps its label
