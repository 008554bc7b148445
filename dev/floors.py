"""Draw relx's floors from its imports: docs/floors.svg.

    python dev/floors.py [--out docs/floors.svg] [--check]

A room is a package of ``relx`` (or a top-level module), its width its lines of code; a
room stands on a higher floor than every room it imports (imports inside functions
included, as ``tests/test_layout.py`` reads them); arrows are not drawn, the floors say
it. ``--check`` exits 1 when the floors drawn on disk (the rooms of each floor, kept in
the file as a comment) differ from what the code gives now; widths may drift.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import defaultdict
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parents[1]
RELX = ROOT / "relx"
LAYER_COLOUR = {"app": "#dbe7f3", "tasks": "#e6f0da", "top": "#f3e6d0", "core": "#eeeeee"}


def room_of(path: Path) -> str:
    """``relx.genes`` for relx/genes/lexicon.py, ``relx.doc`` for relx/doc.py."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    if len(parts) == 2:
        return "relx" if parts[1] == "__init__" else ".".join(parts)
    return ".".join(parts[:2])


def rooms() -> tuple[dict[str, int], dict[str, set[str]]]:
    """Lines per room and the rooms each room imports."""
    lines: dict[str, int] = defaultdict(int)
    deps: dict[str, set[str]] = defaultdict(set)
    for path in sorted(RELX.rglob("*.py")):
        room = room_of(path)
        text = path.read_text("utf-8")
        lines[room] += text.count("\n")
        for node in ast.walk(ast.parse(text)):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module] if isinstance(node, ast.ImportFrom) and node.module
                     and node.level == 0 else [])
            for name in names:
                if name == "relx" or name.startswith("relx."):
                    parts = name.split(".")
                    target = ".".join(parts[:2]) if len(parts) > 1 else "relx"
                    if target != room:
                        deps[room].add(target)
    known = set(lines)
    return dict(lines), {r: {d for d in ds if d in known} for r, ds in deps.items()}


def floors(lines: dict[str, int], deps: dict[str, set[str]]) -> dict[str, int]:
    """Each room's floor: one above the highest room it imports (cycles: same floor)."""
    floor: dict[str, int] = {}

    def level(room: str, seen: frozenset[str]) -> int:
        if room in floor:
            return floor[room]
        below = [level(d, seen | {room}) for d in sorted(deps.get(room, ())) if d not in seen]
        floor[room] = 1 + max(below, default=-1)
        return floor[room]

    for room in sorted(lines):
        level(room, frozenset())
    return floor


def layer(room: str) -> str:
    if room.startswith("relx.app"):
        return "app"
    if room in ("relx.ppi", "relx.ge"):
        return "tasks"
    return "top" if room == "relx" else "core"


def svg(lines: dict[str, int], floor: dict[str, int]) -> str:
    width, row_h, pad = 1100, 46, 8
    n_floors = max(floor.values()) + 1
    by_floor: dict[int, list[str]] = defaultdict(list)
    for room, f in floor.items():
        by_floor[f].append(room)
    height = n_floors * row_h + 60
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{pad}" y="18" font-size="14" font-weight="bold">relx, drawn from its '
           f'imports: {len(lines)} rooms on {n_floors} floors; a room stands above all it '
           f'imports; width = lines of code</text>']
    total = max(sum(lines[r] for r in rs) for rs in by_floor.values())
    for f in range(n_floors):
        y = 30 + (n_floors - 1 - f) * row_h
        x = pad
        for room in sorted(by_floor[f], key=lambda r: -lines[r]):
            w = max(60, (width - 2 * pad) * lines[room] / total * 0.9)
            name = room.removeprefix("relx.") if room != "relx" else "relx (load)"
            out.append(f'<rect x="{x:.0f}" y="{y}" width="{w:.0f}" height="{row_h - 8}" '
                       f'fill="{LAYER_COLOUR[layer(room)]}" stroke="#555"/>')
            out.append(f'<text x="{x + 4:.0f}" y="{y + 16}">{escape(name)}</text>')
            out.append(f'<text x="{x + 4:.0f}" y="{y + 30}" fill="#666">{lines[room]:,}'
                       f' lines</text>')
            x += w + 6
    legend = " · ".join(f"{k}: {v}" for k, v in LAYER_COLOUR.items())
    out.append(f'<text x="{pad}" y="{height - 8}" fill="#444">colours by layer ({escape(legend)}'
               f'); made by dev/floors.py</text>')
    out.append(f"<!-- floors: {floor_key(floor)} -->")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def floor_key(floor: dict[str, int]) -> str:
    """The rooms of each floor, bottom up, as one line: what ``--check`` compares."""
    rows: dict[int, list[str]] = defaultdict(list)
    for room, f in floor.items():
        rows[f].append(room)
    return " | ".join(",".join(sorted(rows[f])) for f in sorted(rows))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "floors.svg")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args(argv)
    lines, deps = rooms()
    floor = floors(lines, deps)
    text = svg(lines, floor)
    if a.check:
        same = a.out.exists() and f"<!-- floors: {floor_key(floor)} -->" in a.out.read_text(
            "utf-8")
        print("docs picture up to date" if same else f"{a.out} is out of date")
        return 0 if same else 1
    a.out.write_text(text, encoding="utf-8")
    print(f"{a.out}: {len(lines)} rooms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
