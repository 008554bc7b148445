"""A self-contained HTML report of extracted GENIA events (``relx extract --task events
--report``), the events' counterpart of :mod:`relx.ppi.report` (the same
:mod:`relx.io.html` page).

Events are the dicts ``relx extract --task events`` writes to ``events.jsonl``
(:class:`relx.ge.extract.ExtractedEvent`). The page has the counts per event type, the
network of proteins the events connect (:func:`protein_edges`: two Themes of one Binding; a
regulation's Cause and its Theme, each side a protein or the protein Themes of the nested
event standing there - the rules of :mod:`relx.ge.ppi_pairs`) and a sortable table with
each event's sentence, its trigger and its arguments marked.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from itertools import combinations
from pathlib import Path
from typing import Any

from relx.doc import REGULATION_TYPES
from relx.io.atomic import atomic_open
from relx.io.html import (
    document_link,
    highlight,
    lexicon_symbol,
    local_span,
    network,
    network_svg,
    page,
    papers_table,
    section_cell,
)
from relx.io.html import escape as _e

__all__ = ["protein_edges", "render_event_report", "write_event_report"]

COLUMNS = (
    ("document", "Document", "text"),
    ("sentence", "Sentence", "text"),
    ("type", "Event type", "text"),
    ("trigger", "Trigger", "text"),
    ("arguments", "Arguments", "text"),
)

_CSS = """
mark.trigger{background:#c9b8ff}
mark.theme{background:#a8e6cf}
mark.cause{background:#ffe08a}
.args div{white-space:nowrap}
.role{color:#555;font-size:.85rem}
.mod{color:#a33;font-size:.85rem}
"""


def _themes(arg: Mapping[str, Any], events: Mapping[str, Mapping[str, Any]]) -> list[dict]:
    """The protein argument itself, or the protein Themes of the nested event it names."""
    if arg.get("kind") == "protein":
        return [dict(arg)]
    nested = events.get(str(arg.get("id")))
    if nested is None:
        return []
    return [dict(a) for a in nested.get("arguments", ())
            if a.get("kind") == "protein" and str(a.get("role", "")).startswith("Theme")]


def protein_edges(events: Iterable[Mapping[str, Any]]) -> list[dict]:
    """Protein pairs the events connect, one relation-like dict per (event, pair):
    ``{"document_id", "entity1", "entity2", "type", "event_id"}`` (entities are protein
    argument dicts; a pair of the same ``T`` id is left out)."""
    events = list(events)
    by_doc: dict[str, dict[str, Mapping[str, Any]]] = {}
    for ev in events:
        by_doc.setdefault(str(ev.get("document_id")), {})[str(ev.get("event_id"))] = ev
    out = []
    for ev in events:
        doc = by_doc[str(ev.get("document_id"))]
        args = ev.get("arguments", ())
        if ev.get("type") == "Binding":
            themes = [dict(a) for a in args if a.get("kind") == "protein"
                      and str(a.get("role", "")).startswith("Theme")]
            pairs = list(combinations(themes, 2))
        elif ev.get("type") in REGULATION_TYPES:
            causes = [p for a in args if a.get("role") == "Cause" for p in _themes(a, doc)]
            themes = [p for a in args if str(a.get("role", "")).startswith("Theme")
                      for p in _themes(a, doc)]
            pairs = [(c, t) for c in causes for t in themes]
        else:
            continue
        negated = "Negation" in (ev.get("modifications") or ())
        speculated = "Speculation" in (ev.get("modifications") or ())
        out += [{"document_id": ev.get("document_id"), "entity1": a, "entity2": b,
                 "type": ev.get("type"), "event_id": ev.get("event_id"),
                 "sentence_id": ev.get("sentence_id"), "sentence": ev.get("sentence"),
                 "negated": negated, "speculated": speculated}
                for a, b in pairs if a.get("id") != b.get("id")]
    return out


def _argument_line(arg: Mapping[str, Any], symbol: Callable[[str], str | None] | None) -> str:
    role = f'<span class="role">{_e(arg.get("role"))}:</span> '
    if arg.get("kind") == "event":
        return f'<div>{role}{_e(arg.get("id"))} {_e(arg.get("type"))} ' \
               f'&ldquo;{_e(arg.get("text"))}&rdquo;</div>'
    ids = [str(i) for i in arg.get("norm_ids") or []]
    grounded = ""
    if ids:
        sym = symbol(ids[0]) if symbol else None
        grounded = f' <span class="ids">{_e(ids[0])}{f" ({_e(sym)})" if sym else ""}' \
                   f'{f" +{len(ids) - 1}" if len(ids) > 1 else ""}</span>'
    return f"<div>{role}{_e(arg.get('text'))}{grounded}</div>"


def _modifications(ev: Mapping[str, Any]) -> str:
    mods = [str(m).lower() for m in ev.get("modifications") or ()]
    return f'<div class="mod">{_e(", ".join(mods))}</div>' if mods else ""


def _row(ev: Mapping[str, Any], symbol: Callable[[str], str | None] | None,
         papers: bool = False) -> str:
    sentence = str(ev.get("sentence") or "")
    offset = ev.get("sentence_start")
    offset = offset if isinstance(offset, int) else 0
    trig = ev.get("trigger") or {}
    args = ev.get("arguments") or []
    spans = [(local_span(trig, sentence, offset), "trigger")]
    spans += [(local_span(a, sentence, offset),
               "cause" if a.get("role") == "Cause" else "theme") for a in args]
    doc, eid = str(ev.get("document_id") or ""), str(ev.get("event_id") or "")
    start = trig.get("start") if isinstance(trig.get("start"), int) else 0
    arg_text = "; ".join(f"{a.get('role')} {a.get('text')}" for a in args)
    return (
        "<tr>"
        f'<td data-v="{_e(doc)} {start:09d}" title="{_e(eid)}">{document_link(doc)}</td>'
        f'<td data-v="{_e(sentence.lower())}">{highlight(sentence, spans)}</td>'
        f"<td>{_e(ev.get('type'))}{_modifications(ev)}</td>"
        f'<td data-v="{_e(str(trig.get("text", "")).lower())}">{_e(trig.get("text"))}</td>'
        f'<td class="args" data-v="{_e(arg_text.lower())}">'
        f"{''.join(_argument_line(a, symbol) for a in args)}</td>"
        f"{section_cell(ev) if papers else ''}"
        "</tr>"
    )


def render_event_report(events: list[dict], *, title: str,
                        summary: Mapping[str, Any] | None = None,
                        symbol: Callable[[str], str | None] | None = None,
                        max_nodes: int = 150, seed: int = 0, width: int = 960,
                        height: int = 640) -> str:
    """The report page as a string (see :func:`write_event_report`)."""
    if symbol is None and any(a.get("norm_ids") for ev in events
                              for a in ev.get("arguments") or ()):
        symbol = lexicon_symbol()
    edges = protein_edges(events)
    net = network(edges, symbol)
    svg, caption = network_svg(net, width=width, height=height, max_nodes=max_nodes, seed=seed)
    types = Counter(str(ev.get("type")) for ev in events)
    docs = {ev.get("document_id") for ev in events}
    models = sorted({f"{ev.get('model')} {ev.get('model_version') or ''}".strip()
                     for ev in events if ev.get("model")})
    counts = (f"{len(events)} events in {len(docs)} documents ("
              + ", ".join(f"{t} {n}" for t, n in types.most_common()) + "); "
              f"{len(net.nodes())} proteins, {len(net.kept_edges())} protein pairs and event "
              "types of Binding or regulation events")
    if models:
        counts += f"; model {', '.join(models)}"
    papers = any(ev.get("section") is not None for ev in events)
    columns = (*COLUMNS, ("section", "Section", "text")) if papers else COLUMNS
    heads = "".join(f'<th data-key="{key}" data-type="{typ}" scope="col">{_e(label)}</th>'
                    for key, label, typ in columns)
    ordered = sorted(events, key=lambda ev: (
        str(ev.get("document_id")), (ev.get("trigger") or {}).get("start") or 0,
        str(ev.get("event_id"))))
    network_html = (
        f"<figure>{svg}<figcaption>{_e(caption)}: proteins joined by a Binding event or by a "
        "regulation's Cause and Theme, coloured by event type (negated events left out); edge "
        "width grows with the number of events, hover for counts.</figcaption></figure>" if svg
        else "<p>No Binding or regulation events between two proteins.</p>")
    return page(title=title, counts=counts, summary=summary, network_html=network_html,
                heads=heads, rows="\n".join(_row(ev, symbol, papers) for ev in ordered),
                what="Events", css=_CSS, papers_html=papers_table(events, "Events"))


def write_event_report(events: list[dict], path: Path, *, title: str, summary: dict,
                       symbol: Callable[[str], str | None] | None = None,
                       max_nodes: int = 150, seed: int = 0) -> None:
    """Write the self-contained HTML report of ``events`` (``events.jsonl`` dicts)
    atomically; ``summary`` is shown under the title, grounded ids with their symbols
    (``symbol``, by default the shipped grounding lexicon's)."""
    html_page = render_event_report(events, title=title, summary=summary, symbol=symbol,
                                    max_nodes=max_nodes, seed=seed)
    with atomic_open(Path(path)) as fh:
        fh.write(html_page)
