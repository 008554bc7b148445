"""``GET /``: a page to paste text or drop a file and see what relx finds, and the HTML
fragment it shows (``POST /extract?format=html``), made of the HTML reports' parts: the
network, the top pairs and a row per record -- for gene relations (:func:`gene_fragment`,
:mod:`relx.ppi.gene_report`) the genes, BioRED's type and novelty, relx's GENIA reading and
the best evidence sentence; for interactions (:func:`fragment`, :mod:`relx.io.html`) each
relation's sentence with its two proteins highlighted."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from relx.io.html import (
    _CSS,
    escape,
    highlight,
    interactions_table,
    lexicon_symbol,
    local_span,
    network,
    network_svg,
)


def fragment(records: Iterable[Mapping[str, Any]], errors: list[dict[str, Any]]) -> str:
    """The network, the interactions table and the relations with highlighted sentences."""
    recs = list(records)
    if not recs:
        parts = ['<p class="none">No relations found.</p>']
    else:
        net = network(recs, lexicon_symbol())
        svg, caption = network_svg(net, width=640, height=400, max_nodes=60, seed=0)
        rows = []
        for r in recs:
            sentence = str(r.get("sentence") or "")
            offset = r.get("sentence_start") if isinstance(r.get("sentence_start"), int) else 0
            spans = [(local_span(r.get("entity1") or {}, sentence, offset), "e1"),
                     (local_span(r.get("entity2") or {}, sentence, offset), "e2")]
            rows.append(f"<tr><td>{escape(r.get('document_id'))}</td>"
                        f"<td>{escape((r.get('entity1') or {}).get('text'))}</td>"
                        f"<td>{escape((r.get('entity2') or {}).get('text'))}</td>"
                        f"<td>{escape(r.get('type'))}</td><td>{r.get('score', 0):.3f}</td>"
                        f"<td>{highlight(sentence, spans)}</td></tr>")
        parts = [f'<figure class="network">{svg}<figcaption>{escape(caption)}</figcaption>'
                 "</figure>", interactions_table(net),
                 '<table class="relations"><thead><tr><th>document</th><th>protein 1</th>'
                 "<th>protein 2</th><th>type</th><th>score</th><th>sentence</th></tr></thead>"
                 f"<tbody>{''.join(rows)}</tbody></table>"]
    return (f'<div id="found" data-relations="{len(recs)}">' + "".join(parts + _errors(errors))
            + "</div>")


def _errors(errors: list[dict[str, Any]]) -> list[str]:
    if not errors:
        return []
    return ['<ul class="errors">' + "".join(
        f"<li>{escape(e.get('document'))}: {escape(e.get('message'))}</li>"
        for e in errors) + "</ul>"]


def gene_fragment(records: Iterable[Mapping[str, Any]], errors: list[dict[str, Any]]) -> str:
    """The gene network, the top gene pairs and a row per gene relation (the records of
    ``gene_relations.jsonl``), best first."""
    from relx.ppi.gene_report import COLUMNS, gene_row

    recs = sorted(records, key=lambda r: -float(r.get("probability") or 0))
    if not recs:
        parts = ['<p class="none">No gene relations found.</p>']
    else:
        net = network(recs, lexicon_symbol())
        svg, caption = network_svg(net, width=640, height=400, max_nodes=60, seed=0)
        heads = "".join(f"<th>{escape(label)}</th>" for _, label, _ in COLUMNS)
        parts = [f'<figure class="network">{svg}<figcaption>{escape(caption)}</figcaption>'
                 "</figure>", interactions_table(net),
                 f'<table class="relations"><thead><tr>{heads}</tr></thead>'
                 f"<tbody>{''.join(gene_row(r) for r in recs)}</tbody></table>"]
    return (f'<div id="found" data-relations="{len(recs)}">' + "".join(parts + _errors(errors))
            + "</div>")


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>relx</title>
<style>@CSS@
body{font-family:system-ui,sans-serif;margin:1.5rem;max-width:70rem}
textarea{width:100%;height:9rem}#drop{border:2px dashed #999;padding:1rem;margin:.5rem 0}
#drop.over{background:#eef}.errors{color:#a00}
</style></head><body>
<h1>relx: gene relations and protein interactions in text</h1>
<form id="form"><textarea id="text" placeholder="Paste an abstract or a paper's text"></textarea>
<div id="drop">Drop a PDF, JATS, PubMed XML, BioC or PubTator file here, or
<input type="file" id="file"></div>
<label>Token (if the server has one) <input type="password" id="token"></label>
<button type="submit">Extract</button> <span id="status"></span></form>
<div id="result"></div>
<script>
const $ = (id) => document.getElementById(id);
async function run(body, json) {
  $("status").textContent = "extracting...";
  const headers = json ? {"Content-Type": "application/json"} : {};
  if ($("token").value) headers["Authorization"] = "Bearer " + $("token").value;
  const resp = await fetch("extract?format=html", {method: "POST", headers, body});
  const out = await resp.text();
  if (resp.ok) { $("result").innerHTML = out; $("status").textContent = ""; }
  else { let m = out; try { m = JSON.parse(out).error; } catch (e) {}
         $("status").textContent = resp.status + ": " + m; }
}
function send(file) {
  if (file) { const fd = new FormData(); fd.append("file", file); return run(fd, false); }
  return run(JSON.stringify({text: $("text").value}), true);
}
$("form").addEventListener("submit", (ev) => { ev.preventDefault(); send($("file").files[0]); });
const drop = $("drop");
drop.addEventListener("dragover", (ev) => { ev.preventDefault(); drop.classList.add("over"); });
drop.addEventListener("dragleave", () => drop.classList.remove("over"));
drop.addEventListener("drop", (ev) => { ev.preventDefault(); drop.classList.remove("over");
                                        send(ev.dataTransfer.files[0]); });
const given = new URLSearchParams(location.hash.slice(1));   // #text=...&token=...
if (given.get("token")) $("token").value = given.get("token");
if (given.get("text")) { $("text").value = given.get("text"); send(null); }
</script></body></html>
""".replace("@CSS@", _CSS)
