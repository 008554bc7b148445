"""The aggregated protein network (:class:`relx.io.network.NetworkSummary`) as inline SVG.

Laid out in Python (each connected component with networkx ``spring_layout`` and a fixed
seed, components packed in rows, then nodes pushed apart until their circles keep a gap):
edges coloured by relation type (:func:`type_colour`), arrows for directed edges (a bar for
``Inhibition``), width growing with the number of relations behind an edge, several types
between one pair drawn as curves side by side. Labels are placed greedily, most connected
protein first, at the first of nine positions around the node (the last one on it) where
the label's box overlaps no other label, no other node and not the border; a label with no
free position is kept in the node's tooltip only (``class="label hidden"``).
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable

from relx.io.network import EdgeSummary, NetworkSummary

__all__ = ["TYPE_COLOURS", "network_svg", "type_colour"]

TYPE_COLOURS = {
    "Interaction": "#4a6fa5", "Complex": "#1f77b4", "Binding": "#1f77b4",
    "Activation": "#2ca02c", "Positive_regulation": "#2ca02c", "IncreaseAmount": "#17becf",
    "Inhibition": "#d62728", "Negative_regulation": "#d62728", "DecreaseAmount": "#e377c2",
    "Regulation": "#b8860b",
}
MODIFICATION_COLOUR = "#8e44ad"   # Phosphorylation and the other modifications
OTHER_COLOUR = "#7f7f7f"
_MODIFICATION_ENDINGS = ("ylation", "ination")
_FONT_PX = 11
_CHAR_PX = 7.3   # a generous mean advance of an 11px sans-serif character (DejaVu Sans)


def _e(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def type_colour(typ: str) -> str:
    """Edge colour of a relation type."""
    if typ in TYPE_COLOURS:
        return TYPE_COLOURS[typ]
    return MODIFICATION_COLOUR if typ.endswith(_MODIFICATION_ENDINGS) else OTHER_COLOUR


def _spread(pos: dict[str, list[float]], radius: dict[str, float], width: int, height: int,
            margin: float, rounds: int = 60) -> None:
    """Push overlapping nodes apart (in place) until each pair keeps a 14 px gap."""
    nodes = sorted(pos)
    for _ in range(rounds):
        moved = False
        for i, a in enumerate(nodes):
            for b in nodes[i + 1:]:
                dx, dy = pos[b][0] - pos[a][0], pos[b][1] - pos[a][1]
                d = math.hypot(dx, dy)
                need = radius[a] + radius[b] + 14
                if d >= need:
                    continue
                if d < 1e-6:   # same place: separate along a fixed direction
                    dx, dy, d = 1.0, 0.5, math.hypot(1.0, 0.5)
                push = (need - d) / 2
                ux, uy = dx / d, dy / d
                pos[a][0] -= ux * push
                pos[a][1] -= uy * push
                pos[b][0] += ux * push
                pos[b][1] += uy * push
                moved = True
        for p in pos.values():
            p[0] = min(max(p[0], margin), width - margin)
            p[1] = min(max(p[1], margin), height - margin)
        if not moved:
            return


def _packed_layout(g: object, width: int, height: int, margin: float, seed: int
                   ) -> dict[str, list[float]]:
    """Pixel positions: each connected component laid out alone (spring layout) in a square
    cell whose side grows with the square root of its size, cells packed in rows (largest
    first), the whole scaled to fit ``width`` x ``height`` inside ``margin``."""
    import networkx as nx

    comps = sorted((sorted(c) for c in nx.connected_components(g)),
                   key=lambda c: (-len(c), c[0]))
    cells: list[tuple[list[str], dict, float]] = []
    for c in comps:
        sub = g.subgraph(c)
        side = 1.0 + math.sqrt(len(c)) * 1.6
        if len(c) == 1:
            cells.append((c, {c[0]: (0.0, 0.0)}, side))
            continue
        k = 2.0 / math.sqrt(len(c))
        cells.append((c, nx.spring_layout(sub, seed=seed, weight="weight", k=k,
                                          iterations=100), side))
    # shelf packing in layout units; the row width aims at the canvas's aspect ratio
    total = sum(s * s for _, _, s in cells)
    row_w = max(max(s for _, _, s in cells), math.sqrt(total * width / max(height, 1)))
    placed: list[tuple[list[str], dict, float, float, float]] = []
    x = y = row_h = 0.0
    for c, lay, side in cells:
        if x > 0 and x + side > row_w * 1.05:
            x, y, row_h = 0.0, y + row_h, 0.0
        placed.append((c, lay, side, x, y))
        x += side
        row_h = max(row_h, side)
    used_w = max(px + s for _, _, s, px, _ in placed)
    used_h = max(py + s for _, _, s, _, py in placed)
    scale = min((width - 2 * margin) / used_w, (height - 2 * margin) / used_h)
    off_x = margin + ((width - 2 * margin) - used_w * scale) / 2
    off_y = margin + ((height - 2 * margin) - used_h * scale) / 2
    pos: dict[str, list[float]] = {}
    for c, lay, side, px, py in placed:
        xs = [p[0] for p in lay.values()]
        ys = [p[1] for p in lay.values()]
        span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
        inner = side * 0.8
        for n in c:
            fx = (lay[n][0] - min(xs)) / span if len(c) > 1 else 0.5
            fy = (lay[n][1] - min(ys)) / span if len(c) > 1 else 0.5
            pos[n] = [off_x + (px + side * 0.1 + fx * inner) * scale,
                      off_y + (py + side * 0.1 + fy * inner) * scale]
    return pos


Box = tuple[float, float, float, float]


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _circle_hits(box: Box, x: float, y: float, r: float) -> bool:
    nx_, ny_ = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
    return (nx_ - x) ** 2 + (ny_ - y) ** 2 < r * r


def _place_labels(order: Iterable[str], pos: dict[str, list[float]],
                  radius: dict[str, float], labels: dict[str, str], width: int, height: int
                  ) -> dict[str, tuple[float, float, str] | None]:
    """Per node: ``(x, baseline y, text-anchor)`` of a free spot for its label, or None."""
    placed: list[Box] = []
    out: dict[str, tuple[float, float, str] | None] = {}
    for n in order:
        cx, cy = pos[n]
        r = radius[n]
        w = _CHAR_PX * len(labels[n]) + 2
        spots = [(r + 3, 4, "start"), (-r - 3, 4, "end"), (0, -r - 4, "middle"),
                 (0, r + _FONT_PX + 1, "middle"), (r * 0.7 + 2, -r * 0.7 - 2, "start"),
                 (-r * 0.7 - 2, -r * 0.7 - 2, "end"), (r * 0.7 + 2, r * 0.7 + 10, "start"),
                 (-r * 0.7 - 2, r * 0.7 + 10, "end"), (0, 4, "middle")]   # last: on itself
        out[n] = None
        for dx, dy, anchor in spots:
            x, y = cx + dx, cy + dy
            x0 = x if anchor == "start" else x - w if anchor == "end" else x - w / 2
            box = (x0 - 1, y - _FONT_PX + 1, x0 + w + 1, y + 4)
            if box[0] < 0 or box[1] < 0 or box[2] > width or box[3] > height:
                continue
            if any(_overlaps(box, b) for b in placed):
                continue
            if any(_circle_hits(box, pos[m][0], pos[m][1], radius[m] + 1)
                   for m in pos if m != n):
                continue
            placed.append(box)
            out[n] = (x, y, anchor)
            break
    return out


def _edge_path(e: EdgeSummary, offset: float, pos: dict[str, list[float]],
               radius: dict[str, float]) -> tuple[str, float, float]:
    """SVG path of an edge bent ``offset`` px to its side (ends shortened for markers),
    and the label point of the curve."""
    (ax, ay), (bx, by) = pos[e.source], pos[e.target]
    dx, dy = bx - ax, by - ay
    d = math.hypot(dx, dy) or 1.0
    nx_, ny_ = -dy / d, dx / d
    mx, my = (ax + bx) / 2 + nx_ * offset * 2, (ay + by) / 2 + ny_ * offset * 2

    def toward(px: float, py: float, qx: float, qy: float, by_px: float) -> tuple[float, float]:
        vx, vy = qx - px, qy - py
        vd = math.hypot(vx, vy) or 1.0
        return px + vx / vd * by_px, py + vy / vd * by_px

    sx, sy = toward(ax, ay, mx, my, radius[e.source] + 1)
    tx, ty = toward(bx, by, mx, my, radius[e.target] + (3 if e.directed else 1))
    if offset == 0:
        return f"M{sx:.1f},{sy:.1f} L{tx:.1f},{ty:.1f}", (sx + tx) / 2, (sy + ty) / 2
    return (f"M{sx:.1f},{sy:.1f} Q{mx:.1f},{my:.1f} {tx:.1f},{ty:.1f}",
            (sx + 2 * mx + tx) / 4, (sy + 2 * my + ty) / 4)


def _tip(net: NetworkSummary, e: EdgeSummary) -> str:
    arrow = "\u2192" if e.directed else "\u2013"
    docs = len(e.documents)
    tip = (f"{net.labels.get(e.source, e.source)} {arrow} {net.labels.get(e.target, e.target)}"
           f" ({e.type}): {e.relations} relation{'s' if e.relations != 1 else ''} in {docs} "
           f"document{'s' if docs != 1 else ''}")
    if e.max_probability is not None:
        tip += f", max score {e.max_probability:.2f}"
    if e.negated:
        tip += f"; {e.negated} negated"
    return tip


def network_svg(net: NetworkSummary, *, width: int, height: int, max_nodes: int, seed: int
                ) -> tuple[str, str]:
    """Inline SVG (with its colour legend) of the network's kept edges, and a caption."""
    import networkx as nx

    edges = net.kept_edges()
    weight: dict[str, int] = {}
    for e in edges:
        for n in {e.source, e.target}:
            weight[n] = weight.get(n, 0) + e.relations
    nodes = sorted(weight, key=lambda n: (-weight[n], net.labels.get(n, n), n))
    shown = set(nodes[:max_nodes])
    edges = [e for e in edges if e.source in shown and e.target in shown]
    pairs = {tuple(sorted((e.source, e.target))) for e in edges}
    caption = f"{len(shown)} proteins, {len(pairs)} interacting pairs"
    if len(shown) < len(nodes):
        caption += f" (the {len(shown)} most connected of {len(nodes)} proteins shown)"
    if net.negated_left_out:
        caption += f"; {net.negated_left_out} negated relations left out"
    if not shown:
        return "", "no relations"

    g = nx.Graph()
    g.add_nodes_from(sorted(shown))
    for e in edges:
        if e.source != e.target:
            w = g.get_edge_data(e.source, e.target, {"weight": 0})["weight"]
            g.add_edge(e.source, e.target, weight=w + e.relations)
    margin = 40
    pos = _packed_layout(g, width, height, margin, seed)
    partners: dict[str, set[str]] = {n: set() for n in shown}
    for a, b in pairs:
        partners[a].add(b)
        partners[b].add(a)
    radius = {n: min(5 + 2.5 * math.sqrt(len(partners[n])), 18) for n in shown}
    _spread(pos, radius, width, height, margin)
    max_count = max((e.relations for e in edges), default=1)

    colours = sorted({type_colour(e.type) for e in edges if e.directed})
    marker_id = {c: f"m{i}" for i, c in enumerate(colours)}
    out = [f'<svg class="network" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" aria-label="interaction network">',
           "<defs>"]
    for c in colours:
        i = marker_id[c]
        out.append(f'<marker id="arrow-{i}" viewBox="0 0 10 10" refX="10" refY="5" '
                   'markerWidth="9" markerHeight="9" markerUnits="userSpaceOnUse" '
                   f'orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{c}"/></marker>')
        out.append(f'<marker id="tee-{i}" viewBox="0 0 4 12" refX="4" refY="6" '
                   'markerWidth="4" markerHeight="12" markerUnits="userSpaceOnUse" '
                   f'orient="auto"><rect width="4" height="12" fill="{c}"/></marker>')
    out.append("</defs>")
    out.append('<g class="edges">')
    by_pair: dict[tuple[str, str], list[EdgeSummary]] = {}
    for e in edges:
        by_pair.setdefault(tuple(sorted((e.source, e.target))), []).append(e)
    for pair in sorted(by_pair):
        group = sorted(by_pair[pair], key=lambda e: (e.type, e.directed, e.source))
        for j, e in enumerate(group):
            n = e.relations
            w = 1.0 + 6.0 * math.log1p(n - 1) / math.log1p(max(max_count - 1, 1))
            best = e.max_probability
            opacity = min(0.45 + 0.5 * (best if best is not None else 0.5), 1.0)
            colour = type_colour(e.type)
            common = (f'data-source="{_e(e.source)}" data-target="{_e(e.target)}" '
                      f'data-type="{_e(e.type)}" data-directed="{str(e.directed).lower()}" '
                      f'data-count="{n}" data-documents="{len(e.documents)}" '
                      f'stroke="{colour}" stroke-width="{w:.2f}" '
                      f'stroke-opacity="{opacity:.2f}"')
            title = f"<title>{_e(_tip(net, e))}</title>"
            if e.source == e.target:
                ax, ay = pos[e.source]
                r = radius[e.source] * 0.8 + 4 + 5 * j
                out.append(f'<circle class="edge loop" cx="{ax:.1f}" '
                           f'cy="{ay - radius[e.source] - r + 2:.1f}" r="{r:.1f}" {common}>'
                           f"{title}</circle>")
                continue
            offset = (j - (len(group) - 1) / 2) * 14
            if e.source != pair[0]:
                offset = -offset   # the same side whichever way the edge points
            d, _, _ = _edge_path(e, offset, pos, radius)
            marker = ""
            if e.directed:
                kind = "tee" if e.type in ("Inhibition", "Negative_regulation") else "arrow"
                marker = f' marker-end="url(#{kind}-{marker_id[colour]})"'
            out.append(f'<path class="edge" d="{d}" {common}{marker}>{title}</path>')
    out.append("</g>")
    out.append('<g class="nodes">')
    order = sorted(shown, key=lambda n: (-weight[n], net.labels.get(n, n), n))
    spots = _place_labels(order, pos, radius, {n: net.labels.get(n, n) for n in shown},
                          width, height)
    hidden = 0
    for n in sorted(shown, key=lambda n: (radius[n], n)):
        x, y = pos[n]
        grounded = "ungrounded" if n.startswith("text:") else "grounded"
        label = net.labels.get(n, n)
        tip = label if grounded == "ungrounded" else f"{label} ({n})"
        tip += f": {net.mentions.get(n, 0)} relations, {len(partners[n])} partners"
        spot = spots[n]
        if spot is None:
            hidden += 1
            lx, ly, anchor, cls = x + radius[n] + 3, y + 4, "start", "label hidden"
        else:
            (lx, ly, anchor), cls = spot, "label"
        out.append(
            f'<g class="node {grounded}" data-id="{_e(n)}"><title>{_e(tip)}</title>'
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius[n]:.1f}"/>'
            f'<text class="{cls}" x="{lx:.1f}" y="{ly:.1f}" text-anchor="{anchor}">'
            f"{_e(label)}</text></g>")
    out.append("</g></svg>")
    if hidden:
        caption += f"; {hidden} crowded labels shown on hover only"
    types = sorted({(e.type, e.directed) for e in edges})
    legend = "".join(
        f'<li><span class="swatch" style="background:{type_colour(t)}"></span>{_e(t)}'
        f'{" (directed)" if d else ""}</li>' for t, d in types)
    out.append(f'<ul class="legend" aria-label="edge colours">{legend}</ul>')
    return "\n".join(out), caption
