"""Does the gene relation model need the event typer's types? Fit-split CV of the chosen
setting of gene-relations 0.2.0 (:data:`SETTING`) on today's typed views, on the same views with
every mention pair's event type removed, and with only the pair classifier blind to them
(``pair_events=False``): the protocol registered in docs/relations.md ("A gene relation
model that reads no event types").

    python -m lab.relations.untyped [--json docs/runs/gene-relations-untyped-cv.json]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

from lab.relations.biored import SETTINGS, _baseline_threshold, cross_validate, pair_data
from lab.relations.corpus import read_relations
from lab.relations.views import load_views
from relx.ppi.doc_view import DocView

#: the setting compared (gene-relations 0.2.0's; 0.3.0 is its "pair-untyped" variant)
SETTING = "markers-types+aux-novelty-C10"
KEYS = ("threshold", "pairs", "type_accuracy", "type_majority", "novelty", "ece")


def untyped(views: dict[str, DocView]) -> dict[str, DocView]:
    """The views with every mention pair untyped (``Interaction``, no event score)."""
    return {k: dataclasses.replace(v, pairs=[dataclasses.replace(
        p, type="Interaction", event_score=None) for p in v.pairs]) for k, v in views.items()}


def run(shared: str | None = None, log=print) -> dict[str, Any]:
    docs = read_relations(shared, "fit")
    typed = load_views()
    params = SETTINGS[SETTING]
    out: dict[str, Any] = {"setting": SETTING}
    for name, views, extra in (("typed", typed, {}), ("untyped", untyped(typed), {}),
                               ("pair-untyped", typed, {"pair_events": False})):
        data = pair_data(docs, views, _baseline_threshold())
        r = cross_validate(data, {**params, **extra})
        out[name] = {k: r[k] for k in KEYS}
        log(name, json.dumps(out[name]))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", default=None)
    ap.add_argument("--json", type=Path, default=None)
    a = ap.parse_args(argv)
    rep = run(a.shared)
    if a.json:
        a.json.write_text(json.dumps(rep, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
