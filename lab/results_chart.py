"""The ablation table of ``docs/results.md`` as a picture: one panel per evaluation setting,
one horizontal F1 bar per configuration, the published figure to beat as a dashed line.

Plain SVG text (no plotting dependency); :func:`ablation_svg` is called by :mod:`lab.results`.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

#: published F1 per setting (DESIGN.md): KLSH-RF (Garg et al. 2019) across corpora,
#: G2P + MSE-FLDA on AIMed, the best published IEPA figure
PUBLISHED = {("AIMed", "BioInfer"): 0.57, ("BioInfer", "AIMed"): 0.54, ("AIMed", None): 0.633,
             ("IEPA", None): 0.751}

LABEL_W, PANEL_W, GAP, ROW_H, HEAD_H, FOOT_H = 380, 150, 14, 15, 34, 22


def _setting_name(train: str, test: str | None) -> str:
    return f"CV {train}" if test is None else f"{train}→{test}"


def ablation_svg(rows: list[dict], results: dict[tuple[str, str, str | None], dict],
                 settings: list[tuple[str, str | None]]) -> str:
    """SVG (width ~1.2k px) of F1 per (row, setting); cells without a report are left empty."""
    width = LABEL_W + len(settings) * (PANEL_W + GAP)
    height = HEAD_H + len(rows) * ROW_H + FOOT_H
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
           '<rect width="100%" height="100%" fill="white"/>']
    for j, (a, b) in enumerate(settings):
        x0 = LABEL_W + j * (PANEL_W + GAP)
        out.append(f'<text x="{x0 + PANEL_W / 2}" y="14" text-anchor="middle" '
                   f'font-weight="bold">{escape(_setting_name(a, b))}</text>')
        for tick in (0.0, 0.25, 0.5, 0.75):
            x = x0 + tick * PANEL_W
            out.append(f'<line x1="{x}" y1="{HEAD_H - 6}" x2="{x}" '
                       f'y2="{HEAD_H + len(rows) * ROW_H}" stroke="#ddd"/>')
            out.append(f'<text x="{x}" y="{HEAD_H - 9}" text-anchor="middle" fill="#888" '
                       f'font-size="9">{tick:g}</text>')
        for i, row in enumerate(rows):
            r = results.get((row["key"], a, b))
            if r is None:
                continue
            y = HEAD_H + i * ROW_H
            best = bool(row.get("best"))
            out.append(f'<rect x="{x0}" y="{y + 2}" width="{r["f1"] * PANEL_W:.1f}" '
                       f'height="{ROW_H - 4}" fill="{"#d95f02" if best else "#1b9e77"}">'
                       f'<title>{escape(row["name"])}: F1 {r["f1"]:.3f}</title></rect>')
            out.append(f'<text x="{x0 + r["f1"] * PANEL_W + 2:.1f}" y="{y + ROW_H - 4}" '
                       f'font-size="9">{r["f1"]:.3f}</text>')
        if (a, b) in PUBLISHED:
            x = x0 + PUBLISHED[a, b] * PANEL_W
            out.append(f'<line x1="{x:.1f}" y1="{HEAD_H - 2}" x2="{x:.1f}" '
                       f'y2="{HEAD_H + len(rows) * ROW_H}" stroke="#e7298a" '
                       f'stroke-dasharray="3,2"><title>published {PUBLISHED[a, b]}</title></line>')
    for i, row in enumerate(rows):
        name = row["name"] if len(row["name"]) <= 62 else row["name"][:60] + "…"
        out.append(f'<text x="{LABEL_W - 6}" y="{HEAD_H + i * ROW_H + ROW_H - 4}" '
                   f'text-anchor="end">{escape(name)}</text>')
    out.append(f'<text x="{LABEL_W}" y="{height - 6}" fill="#555">F1; dashed: published figure '
               f'to beat; orange: the best configuration (row with best = true).</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def speed_svg(runs: list[dict]) -> str:
    """SVG of extraction throughput against parse-only (abstracts/s): one group per
    benchmark run (task, processes), a grey parse-only bar and a coloured extraction bar
    labelled with its share; the issue's targets (85% typed, 90% plain) as ticks."""
    target = {"typed": 0.85, "ppi": 0.90}
    top = max([r["parse_only_abstracts_per_s"] for r in runs] + [1.0])
    label_w, bar_w, row_h, head_h = 190, 420, 34, 26
    height = head_h + len(runs) * row_h + 10
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{label_w + bar_w + 120}" '
           f'height="{height}" font-family="sans-serif" font-size="11">',
           '<rect width="100%" height="100%" fill="white"/>',
           f'<text x="{label_w}" y="15" font-weight="bold">abstracts/s: parse only (grey) '
           'and extraction (blue); tick: the target share</text>']
    for i, r in enumerate(runs):
        y = head_h + i * row_h
        name = {"ppi": "plain pairs", "typed": "typed pairs",
                "gene-relations": "gene relations"}.get(r["task"], r["task"])
        out.append(f'<text x="{label_w - 8}" y="{y + 17}" text-anchor="end">'
                   f'{escape(name)}, {r["processes"]} process{"es" * (r["processes"] > 1)}'
                   '</text>')
        parse = r["parse_only_abstracts_per_s"] / top * bar_w
        ext = r["abstracts_per_s"] / top * bar_w
        share = r["abstracts_per_s"] / r["parse_only_abstracts_per_s"]
        out.append(f'<rect x="{label_w}" y="{y + 2}" width="{parse:.1f}" height="12" '
                   'fill="#bbb"/>')
        out.append(f'<rect x="{label_w}" y="{y + 15}" width="{ext:.1f}" height="12" '
                   'fill="#3b75af"/>')
        if r["task"] in target:
            tick = label_w + parse * target[r["task"]]
            out.append(f'<line x1="{tick:.1f}" y1="{y + 12}" x2="{tick:.1f}" y2="{y + 30}" '
                       'stroke="#c33" stroke-width="2"/>')
        out.append(f'<text x="{label_w + max(parse, ext) + 6:.1f}" y="{y + 17}">'
                   f'{r["parse_only_abstracts_per_s"]:.1f} / {r["abstracts_per_s"]:.1f} '
                   f'({share:.0%})</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
