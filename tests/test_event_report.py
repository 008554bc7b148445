"""The HTML report of extracted GENIA events: which protein pairs the events connect, and the
page (lxml.html) - rows, marks, grounded symbols, network, no external resources."""

from __future__ import annotations

import re
from pathlib import Path

import lxml.html

from relx.ge.report import protein_edges, render_event_report, write_event_report

SENT = "TRAF2 binds CD40 & <b>, and IL-4 activates this complex but not TRAF2 itself."
SYMBOLS = {"HGNC:12032": "TRAF2", "HGNC:11919": "CD40", "HGNC:6014": "IL4"}


def _prot(role: str, tid: str, text: str, ids: list[str], after: int = 0) -> dict:
    s = SENT.index(text, after)
    return {"role": role, "id": tid, "kind": "protein", "type": "Protein", "text": text,
            "start": 100 + s, "end": 100 + s + len(text), "norm_ids": ids}


def _event(eid: str, typ: str, trigger: str, args: list[dict], doc: str = "d1") -> dict:
    s = SENT.index(trigger)
    return {"document_id": doc, "event_id": eid, "type": typ,
            "trigger": {"id": "T9" + eid[1:], "text": trigger, "start": 100 + s,
                        "end": 100 + s + len(trigger)},
            "arguments": args, "sentence_id": f"{doc}.s1", "sentence": SENT,
            "sentence_start": 100, "sentence_end": 100 + len(SENT), "model": "ge-events",
            "model_version": "0.1.0"}


TRAF2 = ("T1", "TRAF2", ["HGNC:12032"])
CD40 = ("T2", "CD40", ["HGNC:11919"])
IL4 = ("T3", "IL-4", ["HGNC:6014"])
EVENTS = [
    _event("E1", "Binding", "binds", [_prot("Theme", *TRAF2), _prot("Theme2", *CD40)]),
    # the regulation's Theme is the Binding: its Cause connects to both of its proteins
    _event("E2", "Positive_regulation", "activates", [
        {"role": "Theme", "id": "E1", "kind": "event", "type": "Binding", "text": "binds",
         "start": 100 + SENT.index("binds"), "end": 100 + SENT.index("binds") + 5},
        _prot("Cause", *IL4)]),
    _event("E3", "Gene_expression", "complex", [_prot("Theme", *CD40)]),        # one protein
    _event("E4", "Binding", "itself", [_prot("Theme", *TRAF2)]),                # one Theme
    # the same T id on both sides is not a pair; another document's E1 is its own event
    {**_event("E5", "Regulation", "activates", [_prot("Theme", *TRAF2),
                                                 _prot("Cause", *TRAF2)]),
     "modifications": ["Negation"]},
    _event("E1", "Binding", "binds", [_prot("Theme", "T1", "TRAF2", []),
                                      _prot("Theme2", "T2", "IL-4", [])], doc="d2"),
]


def test_protein_edges_follow_binding_and_regulation() -> None:
    edges = protein_edges(EVENTS)
    got = sorted((e["document_id"], e["event_id"], e["type"], e["entity1"]["text"],
                  e["entity2"]["text"]) for e in edges)
    assert got == [("d1", "E1", "Binding", "TRAF2", "CD40"),
                   ("d1", "E2", "Positive_regulation", "IL-4", "CD40"),
                   ("d1", "E2", "Positive_regulation", "IL-4", "TRAF2"),
                   ("d2", "E1", "Binding", "TRAF2", "IL-4")]


def test_event_report_page(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    write_event_report(EVENTS, out, title="events <x>", summary={"documents": 2},
                       symbol=SYMBOLS.get)
    text = out.read_text(encoding="utf-8")
    page = lxml.html.fromstring(text)
    assert page.findtext(".//title") == "events <x>" and "<x>" not in text
    counts = page.xpath('string(//p[@class="counts"])')
    assert counts.startswith("6 events in 2 documents (Binding 3, ")
    heads = page.xpath("//table[@id='relations']/thead//th/@data-key")
    assert heads == ["document", "sentence", "type", "trigger", "arguments"]
    rows = page.xpath("//table[@id='relations']/tbody/tr")
    assert len(rows) == len(EVENTS)
    first = rows[0]                       # d1 E1, the Binding at the sentence start
    assert first.xpath("string(td[3])") == "Binding"
    assert first.xpath("td[2]/mark[@class='trigger']/text()") == ["binds"]
    assert first.xpath("td[2]/mark[@class='theme']/text()") == ["TRAF2", "CD40"]
    assert first.xpath("string(td[2])") == SENT and "&amp; &lt;b&gt;" in text
    assert "HGNC:12032 (TRAF2)" in first.xpath("string(td[5])")
    reg = next(r for r in rows if r.xpath("string(td[3])") == "Positive_regulation")
    assert reg.xpath("td[2]/mark[@class='cause']/text()") == ["IL-4"]
    assert "E1 Binding" in reg.xpath("string(td[5])")
    negated = [r for r in rows if r.xpath("td[3]/div[@class='mod']")]
    assert [r.xpath("string(td[3])") for r in negated] == ["Regulationnegation"]
    # network: grounded symbols and the ungrounded d2 mentions by text
    labels = sorted(n.xpath("string(.//text)")
                    for n in page.xpath("//svg//g[contains(@class,'node ')]"))
    assert labels == ["CD40", "IL4", "TRAF2", "il-4", "traf2"]
    edges = page.xpath("//svg//*[contains(concat(' ',@class,' '),' edge ')]")
    assert len(edges) == 4
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", text, re.I)
    assert not page.xpath("//link | //script[@src] | //img | //iframe")


def test_event_report_without_pairs() -> None:
    page = lxml.html.fromstring(render_event_report(EVENTS[2:4], title="t", summary={},
                                                    symbol=SYMBOLS.get))
    assert "No Binding or regulation events" in page.xpath("string(//section[@id='network'])")
    assert len(page.xpath("//table[@id='relations']/tbody/tr")) == 2
