"""The self-contained HTML page both tasks' reports share: no scripts, styles, fonts or
images fetched from anywhere (the only links are PubMed pages of documents whose id is a
PMID, :func:`document_link`).

First screen: title, counts, the network aggregated across documents
(:func:`network`, drawn as inline SVG by :mod:`relx.io.network_svg`) and beside it the
strongest interactions (:func:`interactions_table`); then a sortable, filterable table
(plain JavaScript; ``#sort=key`` or ``#sort=key:desc`` in the URL sorts on load) and the
run's summary at the end. The task reports (:mod:`relx.ppi.report`, :mod:`relx.ge.report`)
fill in the rows.

Entities are the dicts the extractors write in JSONL (``text``, ``start``, ``end`` as document
offsets, ``norm_ids``); ``sentence_start`` is a sentence's document offset.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from relx.ids import pmid_of
from relx.io.network import NetworkSummary, aggregate, node_key
from relx.io.network_svg import network_svg, type_colour

__all__ = ["NetworkSummary", "document_link", "escape", "highlight", "interactions_table",
           "lexicon_symbol", "local_span", "network", "network_svg", "node_key", "page",
           "papers_table", "pubmed_url", "section_cell"]

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
svg .edge{fill:none}
svg .node circle{stroke:#fff;stroke-width:1.5}
svg .node.grounded circle{fill:#d9822b}
svg .node.ungrounded circle{fill:#8a8a8a}
svg .node text{font-size:11px;font-family:system-ui,sans-serif;fill:#222;paint-order:stroke;
 stroke:#fcfcfc;stroke-width:3px}
svg .node text.hidden{visibility:hidden}
svg .node:hover text.hidden{visibility:visible}
.first{display:flex;flex-wrap:wrap;gap:1rem 2rem;align-items:flex-start}
.first #network{flex:0 1 auto;max-width:100%}
.first figure{display:table}
.first figcaption{display:table-caption;caption-side:bottom}
.first #top{flex:1 1 26rem;min-width:0;overflow-x:auto}
#top table{font-size:.85rem}
#top td:nth-child(2){white-space:nowrap}
ul.legend{list-style:none;padding:0;margin:.3rem 0;display:flex;flex-wrap:wrap;gap:.2rem 1rem;
 font-size:.85rem;color:#444}
.swatch{display:inline-block;width:.9rem;height:.25rem;margin:0 .35rem .2rem 0;
 vertical-align:middle}
.note{color:#555;font-size:.85rem}
.spec{color:#8a5a00;font-size:.8rem}
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
.sec{font-size:.8rem;color:#444;white-space:nowrap}
.sec .page{color:#777}
table.papers{border-collapse:collapse;font-size:.9rem;margin:.25rem 0}
table.papers th,table.papers td{border-bottom:1px solid #e4e4e4;padding:.2rem .6rem;
 text-align:left;vertical-align:top}
table.papers td.n{text-align:right;font-variant-numeric:tabular-nums}
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


def network(relations: Iterable[Mapping[str, Any]],
            symbol: Callable[[str], str | None] | None = None, *,
            keep_negated: bool = False) -> NetworkSummary:
    """The relations aggregated into a network (:func:`relx.io.network.aggregate`): one edge
    per protein pair, relation type and direction; negated relations left out (counted)."""
    return aggregate(relations, keep_negated=keep_negated, symbol=symbol)


def lexicon_symbol() -> Callable[[str], str | None]:
    """Symbol lookup through the shipped grounding lexicon (loaded on first use)."""
    from relx.genes.lexicon import default_grounder

    return default_grounder().symbol


def pubmed_url(document_id: str | None) -> str | None:
    """The PubMed page of a document whose id is a PMID, else None."""
    pmid = pmid_of(document_id)
    return f"https://pubmed.ncbi.nlm.nih.gov/{pmid}/" if pmid else None


def document_link(document_id: str | None) -> str:
    """A document id as HTML: a PubMed link when it is a PMID, else plain text."""
    url = pubmed_url(document_id)
    if url is None:
        return escape(document_id)
    return f'<a href="{url}" rel="noopener noreferrer" target="_blank">{escape(document_id)}</a>'


def interactions_table(net: NetworkSummary, *, rows: int = 15, pmids: int = 5) -> str:
    """The strongest edges (most documents, then best score) as an HTML table."""
    edges = net.kept_edges()
    if not edges:
        return "<p>No interactions.</p>"
    out = ['<table id="interactions" class="relations"><thead><tr>',
           *(f'<th scope="col">{h}</th>' for h in (
               "Interaction", "Type", "Docs", "Rels", "Max", "Mean", "Neg.", "Documents")),
           "</tr></thead><tbody>"]
    for e in edges[:rows]:
        a, b = net.labels.get(e.source, e.source), net.labels.get(e.target, e.target)
        arrow = "&rarr;" if e.directed else "&ndash;"
        docs = e.documents[:pmids]
        more = f" +{len(e.documents) - pmids}" if len(e.documents) > pmids else ""
        best, mean = e.max_probability, e.mean_probability
        out.append(
            f'<tr data-source="{escape(e.source)}" data-target="{escape(e.target)}">'
            f'<td title="{escape(e.source)} {escape(e.target)}">{escape(a)} {arrow} '
            f"{escape(b)}</td>"
            f'<td><span class="swatch" style="background:{type_colour(e.type)}"></span>'
            f"{escape(e.type)}</td>"
            f'<td class="score">{len(e.documents)}</td><td class="score">{e.relations}</td>'
            f'<td class="score">{"" if best is None else f"{best:.3f}"}</td>'
            f'<td class="score">{"" if mean is None else f"{mean:.3f}"}</td>'
            f'<td class="score">{e.negated or ""}</td>'
            f'<td>{", ".join(document_link(d) for d in docs)}{more}</td></tr>')
    out.append("</tbody></table>")
    if len(edges) > rows:
        out.append(f'<p class="note">The {rows} strongest of {len(edges)} interactions; all '
                   "are in network.cyjs / network.graphml (relx network). Docs: documents, "
                   "Rels: relations, Max / Mean: their scores, Neg.: negated relations (not "
                   "counted in the others).</p>")
    else:
        out.append('<p class="note">Docs: documents, Rels: relations, Max / Mean: their '
                   "scores, Neg.: negated relations (not counted in the others).</p>")
    return "".join(out)


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


# --- papers ------------------------------------------------------------------------------


def _pages(pages: Iterable[int]) -> str:
    """``p. 3`` / ``pp. 2, 4-6``."""
    ps = sorted(set(pages))
    if not ps:
        return ""
    runs: list[list[int]] = []
    for p in ps:
        if runs and p == runs[-1][1] + 1:
            runs[-1][1] = p
        else:
            runs.append([p, p])
    text = ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)
    return f"{'p.' if len(ps) == 1 else 'pp.'} {text}"


def section_cell(rec: Mapping[str, Any]) -> str:
    """The ``<td>`` of a record's section (type, heading) and page; empty when it has none."""
    sec = rec.get("section")
    if sec is None:
        return '<td data-v=""></td>'
    heading = rec.get("section_heading")
    page_no = rec.get("page")
    head = f": {escape(heading)}" if heading and heading.lower() != str(sec).lower() else ""
    where = f' <span class="page">p. {escape(page_no)}</span>' if page_no is not None else ""
    start = rec.get("sentence_start") if isinstance(rec.get("sentence_start"), int) else 0
    return (f'<td class="sec" data-v="{escape(rec.get("document_id"))} {start:09d}">'
            f"{escape(sec)}{head}{where}</td>")


def papers_table(records: Iterable[Mapping[str, Any]], what: str) -> str:
    """Records from papers grouped by paper and section (in text order), with their count
    and pages; empty when no record has a section (abstracts)."""
    groups: dict[str, dict[tuple[str, str], list[Any]]] = {}
    for r in records:
        if r.get("section") is None:
            continue
        doc = groups.setdefault(str(r.get("document_id")), {})
        key = (str(r["section"]), str(r.get("section_heading") or ""))
        start = r.get("sentence_start") if isinstance(r.get("sentence_start"), int) else 0
        g = doc.setdefault(key, [start, 0, []])
        g[0], g[1] = min(g[0], start), g[1] + 1
        if isinstance(r.get("page"), int):
            g[2].append(r["page"])
    if not groups:
        return ""
    rows = []
    for doc, secs in groups.items():
        total = sum(g[1] for g in secs.values())
        ordered = sorted(secs.items(), key=lambda kv: kv[1][0])
        for k, ((sec, heading), (_, n, pages)) in enumerate(ordered):
            cell = (f'<td rowspan="{len(secs)}">{document_link(doc)} '
                    f'<span class="note">({total})</span></td>') if k == 0 else ""
            rows.append(f"<tr>{cell}<td>{escape(sec)}</td><td>{escape(heading)}</td>"
                        f'<td class="n">{n}</td><td>{escape(_pages(pages))}</td></tr>')
    return ('<section id="papers">\n<h2>Papers</h2>\n<table class="papers"><thead><tr>'
            f"<th>Paper</th><th>Section</th><th>Heading</th><th>{escape(what)}</th>"
            "<th>Pages</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>\n"
            "</section>")


# --- page --------------------------------------------------------------------------------


def page(*, title: str, counts: str, summary: Mapping[str, Any] | None, network_html: str,
         heads: str, rows: str, what: str, css: str = "", top_html: str = "",
         top_title: str = "Top interactions", papers_html: str = "") -> str:
    """The report page. First screen: title, counts, the network figure and (``top_html``)
    the strongest interactions; then (``papers_html``, :func:`papers_table`) the records
    of papers by paper and section, the sortable, filterable table (``heads``: its
    ``<th>`` cells, ``rows``: its ``<tr>`` rows) and the run's summary at the end."""
    top = (f'<section id="top">\n<h2>{escape(top_title)}</h2>\n{top_html}\n</section>'
           if top_html else "")
    summary_html = summary_table(summary or {})
    run = (f'<section id="summary">\n<h2>Run summary</h2>\n{summary_html}\n</section>'
           if summary_html else "")
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
</header>
<div class="first">
<section id="network">
<h2>Interaction network</h2>
{network_html}
</section>
{top}
</div>
{papers_html}
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
{run}
<script>{_JS}</script>
</body>
</html>
"""
