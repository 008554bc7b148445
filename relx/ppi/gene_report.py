"""A self-contained HTML report of document-level gene relations (task ``gene-relations``),
built like the interaction report (:mod:`relx.ppi.report`): first screen the gene network
across documents (nodes gene ids, one edge per gene pair and BioRED type, width by the
number of documents' relations; :func:`relx.io.network.gene_relation_record`) beside the
strongest edges, then a sortable table with a row per relation -- its genes, BioRED's type
and novelty with their probabilities, relx's GENIA-derived type and direction, the
relation's probability and its evidence sentences (the best first, the genes' names
marked) -- and the run's summary."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from relx.genes.no_id import REASON_TEXT
from relx.io.atomic import atomic_open
from relx.io.html import (
    document_link,
    interactions_table,
    lexicon_symbol,
    network,
    network_svg,
    page,
)
from relx.io.html import escape as _e

__all__ = ["COLUMNS", "gene_row", "render_gene_report", "write_gene_report"]

COLUMNS = (("document", "Document", "text"), ("gene1", "Gene 1", "text"),
           ("gene2", "Gene 2", "text"), ("type", "BioRED type", "text"),
           ("novel", "Novelty", "text"), ("event_type", "relx (GENIA)", "text"),
           ("probability", "Probability", "number"), ("evidence", "Evidence", "text"))


def _gene_cell(gene: Mapping[str, Any]) -> str:
    names = [str(n) for n in gene.get("names") or ()]
    first = names[0] if names else str(gene.get("id"))
    more = f" ({', '.join(names[1:4])})" if len(names) > 1 else ""
    reason = REASON_TEXT.get(str(gene.get("no_id_reason")))
    ids = ", ".join(gene.get("ids") or []) or (f"no id: {reason}" if reason else
                                               str(gene.get("id")))
    return (f'<td data-v="{_e(first.lower())}">{_e(first)}{_e(more)}'
            f'<div class="ids">{_e(ids)} &middot; {_e(gene.get("mentions"))} mentions</div></td>')


def _marked(sentence: str, names: list[str]) -> str:
    """The sentence with the genes' names marked (longest names first)."""
    words = sorted({n for n in names if n}, key=len, reverse=True)
    if not words:
        return _e(sentence)
    pattern = re.compile("|".join(re.escape(w) for w in words))
    out, at = [], 0
    for m in pattern.finditer(sentence):
        out += [_e(sentence[at:m.start()]), f'<mark class="e1">{_e(m.group())}</mark>']
        at = m.end()
    return "".join([*out, _e(sentence[at:])])


def gene_row(rel: Mapping[str, Any]) -> str:
    """One gene relation dict as a table row (:data:`COLUMNS`)."""
    g1, g2 = rel.get("gene1") or {}, rel.get("gene2") or {}
    evidence = rel.get("evidence") or []
    names = [str(n) for g in (g1, g2) for n in g.get("names") or ()]
    if evidence:
        best = evidence[0]
        ev_html = _marked(str(best.get("sentence") or ""), names)
        if len(evidence) > 1:
            ev_html += f'<div class="note">+{len(evidence) - 1} more sentences</div>'
    else:
        ev_html = '<span class="note">no sentence names both genes</span>'
    p, tp, npr = (rel.get(k) for k in ("probability", "type_probability", "novel_probability"))
    direction = {"gene1->gene2": " (gene 1 &rarr; gene 2)",
                 "gene2->gene1": " (gene 2 &rarr; gene 1)"}.get(str(rel.get("direction")), "")
    doc = str(rel.get("document_id") or "")
    return ("<tr>"
            f'<td data-v="{_e(doc)}">{document_link(doc)}</td>'
            f"{_gene_cell(g1)}{_gene_cell(g2)}"
            f'<td data-v="{_e(rel.get("type"))}">{_e(rel.get("type"))}'
            f'<div class="ids">p {tp:.2f}</div></td>'
            f'<td>{"novel" if rel.get("novel") else "background"}'
            f'<div class="ids">p {npr:.2f}</div></td>'
            f"<td>{_e(rel.get('event_type'))}{direction}</td>"
            f'<td class="score" data-v="{p:.6g}">{p:.3f}</td>'
            f'<td data-v="{_e(str(evidence[0].get("sentence") if evidence else "").lower())}">'
            f"{ev_html}</td></tr>")


def render_gene_report(relations: list[dict], *, title: str,
                       summary: Mapping[str, Any] | None = None,
                       symbol: Callable[[str], str | None] | None = None,
                       max_nodes: int = 150, seed: int = 0, width: int = 760,
                       height: int = 560) -> str:
    """The report page as a string (see the module docstring)."""
    net = network(relations, symbol)
    svg, caption = network_svg(net, width=width, height=height, max_nodes=max_nodes, seed=seed)
    ordered = sorted(relations, key=lambda r: (-float(r.get("probability") or 0),
                                               str(r.get("document_id"))))
    docs = {r.get("document_id") for r in relations}
    novel = sum(bool(r.get("novel")) for r in relations)
    counts = (f"{len(relations)} gene relations ({novel} novel) in {len(docs)} documents; "
              f"{len(net.nodes())} genes, {len(net.kept_edges())} edges")
    models = sorted({f"{r.get('model')} {r.get('model_version') or ''}".strip()
                     for r in relations if r.get("model")})
    if models:
        counts += f"; model {', '.join(models)}"
    heads = "".join(f'<th data-key="{key}" data-type="{typ}" scope="col"'
                    + (' aria-sort="descending"' if key == "probability" else "")
                    + f">{_e(label)}</th>" for key, label, typ in COLUMNS)
    network_html = (f"<figure>{svg}<figcaption>{_e(caption)}; one edge per gene pair and "
                    "BioRED type, its width growing with the number of relations; hover "
                    "for counts and probabilities.</figcaption></figure>"
                    if svg else "<p>No gene relations.</p>")
    return page(title=title, counts=counts, summary=summary, network_html=network_html,
                heads=heads, rows="\n".join(gene_row(r) for r in ordered), what="Gene relations",
                top_html=interactions_table(net), top_title="Top gene relations")


def write_gene_report(relations: list[dict], path: Path, *, title: str,
                      summary: Mapping[str, Any] | None = None,
                      symbol: Callable[[str], str | None] | None = None) -> None:
    """Write the self-contained HTML report of gene relation dicts
    (``gene_relations.jsonl`` records); gene ids are labelled with the shipped lexicon's
    symbols unless ``symbol`` is given."""
    text = render_gene_report(relations, title=title, summary=summary,
                              symbol=symbol if symbol is not None else lexicon_symbol())
    with atomic_open(Path(path)) as fh:
        fh.write(text)
