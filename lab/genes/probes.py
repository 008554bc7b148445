"""relx on the probe abstracts against their hand annotation (docs/genes.md, rounds 41-51).

``tests/fixtures/probes/annotated.tsv`` holds every gene mention of probes 29-58 as it was
annotated by hand, before relx was run on the text; ``expected.tsv`` keeps only those relx
names right (a regression guard). This prints the measure: of the annotated mentions, how
many relx finds (a mention overlapping it), names right (best NCBI Gene id and taxon),
names wrong, leaves without an id, and misses; with ``--list``, each one that is not right.

    python -m lab.genes.probes [--list]
"""

from __future__ import annotations

import argparse
import csv
from collections import Counter
from pathlib import Path

PROBES = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "probes"

Mention = tuple[int, int, str, str, str]   # start, end, text, best NCBI id, taxon


def annotated() -> list[tuple[str, int, int, str, str, str]]:
    """(probe, start, end, mention, NCBI Gene id, taxon) of ``annotated.tsv``."""
    with open(PROBES / "annotated.tsv", encoding="utf-8") as fh:
        return [(p, int(s), int(e), m, i, t) for p, s, e, m, i, t in csv.reader(
            (line for line in fh if not line.startswith("#")), delimiter="\t")]


def relx_mentions(probes: list[str]) -> dict[str, list[Mention]]:
    """Each probe's gene mentions as ``relx.load(task="ppi")`` extracts them."""
    import relx
    from relx.api import as_documents

    ex = relx.load(task="ppi", types=False)
    out: dict[str, list[Mention]] = {}
    for probe in probes:
        doc = next(iter(as_documents([(PROBES / probe).read_text(encoding="utf-8")])))
        for d, _, _ in ex.annotate([doc]):
            out[probe] = [(e.spans[0].start, e.spans[0].end, e.text, (e.ncbi_ids or ["-"])[0],
                           (e.taxon or "-").split(":")[-1])
                          for s in d.sentences for e in s.entities]
    return out


def verdict(row: tuple[str, int, int, str, str, str], got: list[Mention]) -> tuple[str, str]:
    """``right``, ``wrong``, ``no id`` or ``missed`` for one annotated mention, and what
    relx gave (the overlapping mention with the same span first)."""
    _, start, end, _, ncbi, taxon = row
    over = sorted((g for g in got if g[0] < end and start < g[1]),
                  key=lambda g: (g[0], g[1]) != (start, end))
    if not over:
        return "missed", ""
    g = over[0]
    gave = f"{g[2]!r} {g[3]} {g[4]}"
    if g[3] == "-":
        return "no id", gave
    return ("right" if (g[3], g[4]) == (ncbi, taxon) else "wrong"), gave


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--list", action="store_true", help="print each mention not named right")
    a = ap.parse_args(argv)
    rows = annotated()
    got = relx_mentions(sorted({r[0] for r in rows}))
    counts: Counter[str] = Counter()
    for row in rows:
        kind, gave = verdict(row, got[row[0]])
        counts[kind] += 1
        if a.list and kind != "right":
            print(f"{kind:7} {row[0]} {row[1]:>5} {row[3]!r} want {row[4]} {row[5]}; relx {gave}")
    found = len(rows) - counts["missed"]
    print(f"{len(rows)} annotated mentions in {len(got)} probes: found {found}, named right "
          f"{counts['right']}, wrong {counts['wrong']}, no id {counts['no id']}, "
          f"missed {counts['missed']}")


if __name__ == "__main__":
    main()
