"""A self-contained HTML report of extracted relations, for curators.

``write_report`` writes one HTML file with everything inline (:mod:`relx.io.html`: no
scripts, styles, fonts or images fetched from anywhere; the only links are PubMed pages of
documents whose id is a PMID). First screen: the network aggregated across documents
(:mod:`relx.io.network`: edges coloured by type, arrows for direction, width by the number of
relations, negated relations left out) beside the strongest interactions; then a sortable
table of the relations (``#sort=score`` or ``#sort=score:desc`` in the URL sorts on load)
with negated / speculated ones marked, and the run's summary at the end. Relations from
papers are also listed by paper and section with their pages, and the table gets a
Section column (type, heading, page).

Relations are the dicts the extractor writes as JSONL lines::

    {"document_id": "...", "sentence_id": "...", "sentence": "text", "sentence_start": 0,
     "entity1": {"id": "...", "text": "IL-2", "start": 12, "end": 16, "norm_ids": [...]},
     "entity2": {...}, "score": 0.83, "model": "ppi-default", "model_version": "0.1.0"}

Entity offsets are document offsets; ``sentence_start`` is the sentence's document offset.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from relx.io.atomic import atomic_open
from relx.io.html import (
    document_link,
    highlight,
    interactions_table,
    lexicon_symbol,
    local_span,
    network,
    network_svg,
    node_key,
    page,
    papers_table,
    section_cell,
)
from relx.io.html import escape as _e

__all__ = ["write_report", "render_report", "network", "node_key"]

COLUMNS = (
    ("document", "Document", "text"),
    ("sentence", "Sentence", "text"),
    ("entity1", "Entity 1", "text"),
    ("entity2", "Entity 2", "text"),
    ("score", "Score", "number"),
)

def _entity_cell(ent: Mapping[str, Any], symbol: Callable[[str], str | None] | None) -> str:
    text = str(ent.get("text") or "")
    ids = [str(i) for i in ent.get("norm_ids") or []]
    parts = []
    for i in ids[:5]:
        sym = symbol(i) if symbol else None
        parts.append(f"{i} ({sym})" if sym else i)
    more = f" +{len(ids) - 5}" if len(ids) > 5 else ""
    id_html = f'<div class="ids">{_e(", ".join(parts) + more)}</div>' if ids else ""
    return f'<td data-v="{_e(text.lower())}">{_e(text)}{id_html}</td>'


#: the column of relations from papers
SECTION_COLUMN = ("section", "Section", "text")


def _row(rel: Mapping[str, Any], symbol: Callable[[str], str | None] | None,
         papers: bool = False) -> str:
    sentence = str(rel.get("sentence") or "")
    offset = rel.get("sentence_start")
    offset = offset if isinstance(offset, int) else 0
    e1, e2 = rel.get("entity1") or {}, rel.get("entity2") or {}
    sent_html = highlight(
        sentence,
        [(local_span(e1, sentence, offset), "e1"), (local_span(e2, sentence, offset), "e2")],
    )
    doc = str(rel.get("document_id") or "")
    sid = str(rel.get("sentence_id") or "")
    score = rel.get("score")
    has_score = isinstance(score, int | float) and not math.isnan(score)
    score_v = f"{score:.6g}" if has_score else ""
    score_txt = f"{score:.3f}" if has_score else ""
    if rel.get("negated"):
        score_txt += '<div class="neg" title="stated as not happening; left out of the ' \
                     'network">negated</div>'
    if rel.get("speculated"):
        score_txt += '<div class="spec" title="stated as a hypothesis">speculated</div>'

    return (
        "<tr>"
        f'<td data-v="{_e(doc)} {_e(sid)}" title="{_e(sid)}">{document_link(doc)}</td>'
        f'<td data-v="{_e(sentence.lower())}">{sent_html}</td>'
        f"{_entity_cell(e1, symbol)}{_entity_cell(e2, symbol)}"
        f'<td class="score" data-v="{score_v}">{score_txt}</td>'
        f"{section_cell(rel) if papers else ''}"
        "</tr>"
    )


# --- page --------------------------------------------------------------------------------


def render_report(
    relations: list[dict],
    *,
    title: str,
    summary: Mapping[str, Any] | None = None,
    symbol: Callable[[str], str | None] | None = None,
    max_nodes: int = 150,
    seed: int = 0,
    width: int = 760,
    height: int = 560,
) -> str:
    """The report page as a string (see ``write_report``)."""
    if symbol is None and any(
        (r.get(k) or {}).get("norm_ids") for r in relations for k in ("entity1", "entity2")
    ):
        symbol = lexicon_symbol()
    net = network(relations, symbol)
    svg, caption = network_svg(net, width=width, height=height, max_nodes=max_nodes, seed=seed)
    ordered = sorted(
        relations,
        key=lambda r: (
            -(r["score"] if isinstance(r.get("score"), int | float) else -math.inf),
            str(r.get("document_id")),
            str(r.get("sentence_id")),
        ),
    )
    docs = {r.get("document_id") for r in relations}
    models = sorted(
        {
            f"{r.get('model')} {r.get('model_version') or ''}".strip()
            for r in relations
            if r.get("model")
        }
    )
    counts = (
        f"{len(relations)} relations in {len(docs)} documents; "
        f"{len(net.nodes())} proteins, {len(net.kept_edges())} interactions"
    )
    if models:
        counts += f"; model {', '.join(models)}"
    if summary and summary.get("event_model"):   # the typed pass
        typers = [f"{summary[k]} {summary.get(k + '_version') or ''}".rstrip()
                  for k in ("pair_typer", "event_model") if summary.get(k)]
        counts += f"; types from {' and '.join(typers)}"
    papers = any(r.get("section") is not None for r in relations)
    heads = "".join(
        f'<th data-key="{key}" data-type="{typ}" scope="col"'
        + (' aria-sort="descending"' if key == "score" else "")  # the rows' initial order
        + f">{_e(label)}</th>"
        for key, label, typ in (*COLUMNS, *((SECTION_COLUMN,) if papers else ()))
    )
    rows = "\n".join(_row(r, symbol, papers) for r in ordered)
    network_html = (
        f"<figure>{svg}<figcaption>{_e(caption)}; one edge per protein pair, type and "
        "direction, its width growing with the number of relations; hover for counts and "
        "scores.</figcaption></figure>"
        if svg
        else "<p>No relations.</p>"
    )
    return page(title=title, counts=counts, summary=summary, network_html=network_html,
                heads=heads, rows=rows, what="Relations", top_html=interactions_table(net),
                papers_html=papers_table(relations, "Relations"))


def write_report(
    relations: list[dict],
    path: Path,
    *,
    title: str,
    summary: dict,
    symbol: Callable[[str], str | None] | None = None,
    max_nodes: int = 150,
    seed: int = 0,
) -> None:
    """Write the self-contained HTML report of ``relations`` (extractor JSONL dicts).

    ``summary`` is shown as a key/value table under the title. Grounded ids are shown with
    their symbols (``symbol``, by default the shipped grounding lexicon); the network shows
    at most ``max_nodes`` proteins, laid out with ``seed``.
    """
    page = render_report(
        relations, title=title, summary=summary, symbol=symbol, max_nodes=max_nodes, seed=seed
    )
    with atomic_open(Path(path)) as fh:
        fh.write(page)
