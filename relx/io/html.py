"""The self-contained HTML page both tasks' reports share: no scripts, styles, fonts or
images fetched from anywhere.

A header (title, counts, a summary table), a picture of the protein network as inline SVG
laid out in Python (networkx ``spring_layout`` with a fixed seed) and a sortable, filterable
table (plain JavaScript; ``#sort=key`` or ``#sort=key:desc`` in the URL sorts on load).
The task reports (:mod:`relx.ppi.report`, :mod:`relx.ge.report`) fill in the rows.

Entities are the dicts the extractors write in JSONL (``text``, ``start``, ``end`` as document
offsets, ``norm_ids``); ``sentence_start`` is a sentence's document offset.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Network", "escape", "highlight", "lexicon_symbol", "local_span", "network",
           "network_svg", "node_key", "page"]

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:1.5rem;color:#222}
h1{font-size:1.5rem;margin:0 0 .5rem}
h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
.summary{border-collapse:collapse;margin:.5rem 0}
.summary th{text-align:left;padding:.15rem 1rem .15rem 0;color:#555;font-weight:600}
.summary td{padding:.15rem 0;font-family:ui-monospace,monospace;font-size:.9rem}
.counts{margin:.25rem 0 .75rem;color:#333}
figure{margin:0}
figcaption{color:#555;font-size:.9rem}
svg.network{border:1px solid #ddd;background:#fcfcfc;max-width:100%;height:auto}
svg .edge{stroke:#4a6fa5}
svg .loop{fill:none}
svg .node circle{stroke:#fff;stroke-width:1.5}
svg .node.grounded circle{fill:#d9822b}
svg .node.ungrounded circle{fill:#8a8a8a}
svg .node text{font-size:11px;fill:#222;paint-order:stroke;stroke:#fcfcfc;stroke-width:3px}
table.relations{border-collapse:collapse;width:100%;font-size:.9rem}
table.relations th,table.relations td{border-bottom:1px solid #e4e4e4;padding:.3rem .5rem;
 text-align:left;vertical-align:top}
table.relations th{background:#f3f3f3;cursor:pointer;user-select:none;position:sticky;top:0}
table.relations th[aria-sort=ascending]::after{content:" \\25B2"}
table.relations th[aria-sort=descending]::after{content:" \\25BC"}
td.score{text-align:right;font-variant-numeric:tabular-nums}
.neg{color:#a33;font-size:.8rem}
mark.e1{background:#ffe08a}
mark.e2{background:#a8e6cf}
mark.e1.e2{background:linear-gradient(#ffe08a,#a8e6cf)}
.ids{color:#666;font-size:.8rem;font-family:ui-monospace,monospace;overflow-wrap:anywhere}
#filter{margin:.25rem 0 .5rem;padding:.25rem .4rem;width:20rem;max-width:100%}
"""

# Plain JS: click a header to sort (again to reverse); "#sort=key[:asc|:desc]" sorts on load.
_JS = """
(function(){
  var table=document.getElementById('relations');
  if(!table)return;
  var body=table.tBodies[0], heads=table.tHead.rows[0].cells;
  function val(row,i,type){
    var v=row.cells[i].getAttribute('data-v');
    if(type==='number'){var x=parseFloat(v);return isNaN(x)?-Infinity:x;}
    return v===null?row.cells[i].textContent.toLowerCase():v;
  }
  function sortBy(i,dir){
    var type=heads[i].getAttribute('data-type'), rows=Array.prototype.slice.call(body.rows);
    rows.forEach(function(r,k){r._k=k;});
    rows.sort(function(a,b){
      var x=val(a,i,type), y=val(b,i,type), c=x<y?-1:(x>y?1:0);
      return (dir==='descending'?-c:c)||(a._k-b._k);
    });
    rows.forEach(function(r){body.appendChild(r);});
    for(var j=0;j<heads.length;j++)heads[j].removeAttribute('aria-sort');
    heads[i].setAttribute('aria-sort',dir);
  }
  function fromHash(){
    var m=/(?:^#|&)sort=([A-Za-z0-9_]+)(?::(asc|desc))?/.exec(location.hash);
    if(!m)return;
    for(var i=0;i<heads.length;i++){
      if(heads[i].getAttribute('data-key')===m[1]){
        sortBy(i,m[2]==='desc'?'descending':'ascending');return;
      }
    }
  }
  Array.prototype.forEach.call(heads,function(h,i){
    h.addEventListener('click',function(){
      sortBy(i,h.getAttribute('aria-sort')==='ascending'?'descending':'ascending');
    });
  });
  var filter=document.getElementById('filter');
  if(filter)filter.addEventListener('input',function(){
    var q=filter.value.toLowerCase();
    Array.prototype.forEach.call(body.rows,function(r){
      r.style.display=(!q||r.textContent.toLowerCase().indexOf(q)>=0)?'':'none';
    });
  });
  window.addEventListener('hashchange',fromHash);
  fromHash();
})();
"""


def escape(value: object) -> str:
    """``value`` as HTML text (``None`` as empty)."""
    return html.escape("" if value is None else str(value), quote=True)


# --- network -----------------------------------------------------------------------------


def node_key(entity: Mapping[str, Any]) -> str:
    """Network node of an entity: its best grounded id, else ``text:`` + lower-cased text."""
    ids = entity.get("norm_ids") or []
    if ids:
        return str(ids[0])
    return "text:" + " ".join(str(entity.get("text", "")).split()).lower()


@dataclass
class Network:
    """Proteins and their extracted interactions, aggregated over relations."""

    labels: dict[str, str] = field(default_factory=dict)  # node -> label
    mentions: dict[str, int] = field(default_factory=dict)  # node -> relations it is in
    edges: dict[tuple[str, str], list[float]] = field(default_factory=dict)  # -> scores


def network(
    relations: Iterable[Mapping[str, Any]],
    symbol: Callable[[str], str | None] | None = None,
) -> Network:
    """Aggregate relations into a network: nodes are proteins (grounded symbol when
    available, else lower-cased text), an edge's scores are those of its relations."""
    net = Network()
    for rel in relations:
        keys = []
        for ent in (rel.get("entity1") or {}, rel.get("entity2") or {}):
            key = node_key(ent)
            if key not in net.labels:
                if key.startswith("text:"):
                    net.labels[key] = key[5:]
                else:   # the first id with a symbol: an input's own id may have none
                    syms = (symbol(str(i)) for i in ent.get("norm_ids") or ()) if symbol else ()
                    net.labels[key] = next((x for x in syms if x), None) or key
            keys.append(key)
        for key in set(keys):
            net.mentions[key] = net.mentions.get(key, 0) + 1
        a, b = sorted(keys)
        score = rel.get("score")
        net.edges.setdefault((a, b), []).append(
            float(score) if isinstance(score, int | float) else math.nan
        )
    return net


def lexicon_symbol() -> Callable[[str], str | None]:
    """Symbol lookup through the shipped grounding lexicon (loaded on first use)."""
    from relx.ground import default_grounder

    return default_grounder().symbol


def _max_score(scores: list[float]) -> float | None:
    vals = [s for s in scores if not math.isnan(s)]
    return max(vals) if vals else None


def network_svg(net: Network, *, width: int, height: int, max_nodes: int, seed: int) -> tuple[str, str]:
    """Inline SVG of the network and a caption."""
    import networkx as nx

    weight: dict[str, int] = {}
    for (a, b), scores in net.edges.items():
        weight[a] = weight.get(a, 0) + len(scores)
        if b != a:
            weight[b] = weight.get(b, 0) + len(scores)
    nodes = sorted(weight, key=lambda n: (-weight[n], net.labels[n]))
    shown = set(nodes[:max_nodes])
    edges = {k: v for k, v in net.edges.items() if k[0] in shown and k[1] in shown}
    caption = f"{len(shown)} proteins, {len(edges)} interacting pairs"
    if len(shown) < len(nodes):
        caption += f" (the {len(shown)} most connected of {len(nodes)} proteins shown)"
    if not shown:
        return "", "no relations"

    g = nx.Graph()
    g.add_nodes_from(sorted(shown))
    for (a, b), scores in edges.items():
        if a != b:
            g.add_edge(a, b, weight=len(scores))
    k = 1.5 / math.sqrt(max(len(g), 1))
    pos = nx.spring_layout(g, seed=seed, weight="weight", k=k, iterations=100)
    margin = 40
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)

    def xy(n: str) -> tuple[float, float]:
        px, py = pos[n]
        fx = (px - x0) / (x1 - x0) if x1 > x0 else 0.5
        fy = (py - y0) / (y1 - y0) if y1 > y0 else 0.5
        return margin + fx * (width - 2 * margin), margin + fy * (height - 2 * margin)

    degree: dict[str, int] = {n: 0 for n in shown}
    for a, b in edges:
        degree[a] += 1
        if b != a:
            degree[b] += 1
    radius = {n: min(4 + 2.5 * math.sqrt(degree[n]), 18) for n in shown}
    max_count = max(len(s) for s in edges.values()) if edges else 1

    out = [
        f'<svg class="network" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="interaction network">',
        '<g class="edges">',
    ]
    for (a, b), scores in sorted(edges.items()):
        n, best = len(scores), _max_score(scores)
        w = 1.0 + 7.0 * math.log1p(n - 1) / math.log1p(max(max_count - 1, 1))
        opacity = 0.35 + 0.6 * (best if best is not None else 0.5)
        tip = f"{net.labels[a]} \u2013 {net.labels[b]}: {n} relation{'s' if n != 1 else ''}"
        tip += f", max score {best:.2f}" if best is not None else ""
        title = f"<title>{escape(tip)}</title>"
        common = (
            f'data-source="{escape(a)}" data-target="{escape(b)}" data-count="{n}" '
            f'stroke-width="{w:.2f}" stroke-opacity="{min(opacity, 1.0):.2f}"'
        )
        (ax, ay), (bx, by) = xy(a), xy(b)
        if a == b:
            r = radius[a] * 0.8 + 4
            out.append(
                f'<circle class="edge loop" cx="{ax:.1f}" cy="{ay - radius[a] - r + 2:.1f}" '
                f'r="{r:.1f}" {common}>{title}</circle>'
            )
        else:
            out.append(
                f'<line class="edge" x1="{ax:.1f}" y1="{ay:.1f}" x2="{bx:.1f}" y2="{by:.1f}" '
                f"{common}>{title}</line>"
            )
    out.append("</g>")
    out.append('<g class="nodes">')
    for n in sorted(shown, key=lambda n: (radius[n], n)):
        x, y = xy(n)
        grounded = "ungrounded" if n.startswith("text:") else "grounded"
        label = net.labels[n]
        tip = label if grounded == "ungrounded" else f"{label} ({n})"
        tip += f": {net.mentions.get(n, 0)} relations, {degree[n]} partners"
        anchor, dx = ("end", -radius[n] - 3) if x > width - 120 else ("start", radius[n] + 3)
        out.append(
            f'<g class="node {grounded}" data-id="{escape(n)}"><title>{escape(tip)}</title>'
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius[n]:.1f}"/>'
            f'<text x="{x + dx:.1f}" y="{y + 4:.1f}" text-anchor="{anchor}">{escape(label)}</text>'
            "</g>"
        )
    out.append("</g></svg>")
    return "\n".join(out), caption


# --- table -------------------------------------------------------------------------------


def local_span(ent: Mapping[str, Any], sentence: str, offset: int) -> tuple[int, int] | None:
    """The entity's span in the sentence text, from its document offsets (checked against
    its text) or, failing that, by finding its text."""
    text = str(ent.get("text") or "")
    start, end = ent.get("start"), ent.get("end")
    if isinstance(start, int) and isinstance(end, int):
        s, e = start - offset, end - offset
        if 0 <= s <= e <= len(sentence) and (not text or sentence[s:e] == text):
            return s, e
    if text:
        i = sentence.find(text)
        if i >= 0:
            return i, i + len(text)
    return None


def highlight(sentence: str, spans: list[tuple[tuple[int, int] | None, str]]) -> str:
    """Sentence HTML with each span wrapped in ``<mark class=...>``; overlaps merge."""
    marks = sorted((sp[0], sp[1], cls) for sp, cls in spans if sp is not None and sp[1] > sp[0])
    merged: list[list[Any]] = []
    for s, e, cls in marks:
        if merged and s < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
            merged[-1][2] = " ".join(sorted(set(merged[-1][2].split()) | {cls}))
        else:
            merged.append([s, e, cls])
    out, pos = [], 0
    for s, e, cls in merged:
        out.append(escape(sentence[pos:s]))
        out.append(f'<mark class="{cls}">{escape(sentence[s:e])}</mark>')
        pos = e
    out.append(escape(sentence[pos:]))
    return "".join(out)


def summary_table(summary: Mapping[str, Any]) -> str:
    rows = []
    for k, v in summary.items():
        if isinstance(v, Mapping | list | tuple):
            v = json.dumps(v, ensure_ascii=False, sort_keys=True, default=str)
        rows.append(f"<tr><th>{escape(k)}</th><td>{escape(v)}</td></tr>")
    return f'<table class="summary">{"".join(rows)}</table>' if rows else ""


# --- page --------------------------------------------------------------------------------


def page(*, title: str, counts: str, summary: Mapping[str, Any] | None, network_html: str,
         heads: str, rows: str, what: str, css: str = "") -> str:
    """The report page: header (title, counts, summary table), the network figure and the
    sortable, filterable table (``heads``: its ``<th>`` cells, ``rows``: its ``<tr>`` rows)."""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="relx">
<title>{escape(title)}</title>
<style>{_CSS}{css}</style>
</head>
<body>
<header>
<h1>{escape(title)}</h1>
<p class="counts">{escape(counts)}</p>
{summary_table(summary or {})}
</header>
<section id="network">
<h2>Interaction network</h2>
{network_html}
</section>
<section id="table">
<h2>{escape(what)}</h2>
<input id="filter" type="search" placeholder="filter rows" aria-label="filter rows">
<table id="relations" class="relations">
<thead><tr>{heads}</tr></thead>
<tbody>
{rows}
</tbody>
</table>
</section>
<script>{_JS}</script>
</body>
</html>
"""
