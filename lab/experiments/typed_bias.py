"""Choose the event typer's biases (relx.ge.interactions.EventTyper) on GE 2011 train.

The event model of the validation split (``python -m lab.experiments.ge_levers fit`` ->
runs/ge-levers/base: GE 2011 train less a seeded 20% of its documents, plus GE 2013 train)
types the gold-connected protein pairs of the 182 held-out GE 2011 train documents under a
grid of trigger / edge ``None`` biases; each setting prints the type and direction
precision / recall / F1 (lab.typed_eval.score). Decision rule, fixed before looking at
GE 2011 devel: the setting of the highest type F1 (ties: the model's own biases, then the
smaller change); it is kept only when it beats the model's own biases by >= 0.01 type F1.
GE 2011 devel is never read here.

    python -m lab.experiments.typed_bias [--model runs/ge-levers/base] [--out runs/typed/bias.json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from pathlib import Path

from lab.experiments.ge_levers import load_split
from lab.ge.extractor import LabGEExtractor
from lab.typed_eval import pair_outcomes, score
from relx.ge.interactions import EventTyper


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default="runs/ge-levers/base")
    ap.add_argument("--cache-dir", default="runs/events/cache")
    ap.add_argument("--out", default="runs/typed/bias.json")
    ap.add_argument("--trigger-biases", default="0.7,0.9,1.1,1.3")
    ap.add_argument("--edge-biases", default="-0.2,-0.1,0,0.1,0.2")
    args = ap.parse_args()
    _, val = load_split(args.cache_dir)
    model = LabGEExtractor.load(args.model)
    own = (model.triggers.none_bias, model.edges.none_bias)
    grid = itertools.product([float(x) for x in args.trigger_biases.split(",")],
                             [float(x) for x in args.edge_biases.split(",")])
    results = []
    for tb, eb in grid:
        t0 = time.perf_counter()
        rep = score(pair_outcomes(val, EventTyper(model, trigger_bias=tb, edge_bias=eb)))
        results.append({"trigger_bias": tb, "edge_bias": eb, **rep})
        print(f"trigger {tb:+.2f} edge {eb:+.2f}: type P {rep['type']['precision']:.3f} "
              f"R {rep['type']['recall']:.3f} F1 {rep['type']['f1']:.3f}; direction P "
              f"{rep['direction']['precision']:.3f} R {rep['direction']['recall']:.3f} F1 "
              f"{rep['direction']['f1']:.3f} ({time.perf_counter() - t0:.0f} s)", flush=True)

    def key(r: dict) -> tuple:
        change = abs(r["trigger_bias"] - own[0]) + abs(r["edge_bias"] - own[1])
        return (r["type"]["f1"], (r["trigger_bias"], r["edge_bias"]) == own, -change)

    best = max(results, key=key)
    base = next((r for r in results if (r["trigger_bias"], r["edge_bias"]) == own), None)
    keep = base is None or best["type"]["f1"] >= base["type"]["f1"] + 0.01
    choice = best if keep else base
    print(f"chosen: trigger {choice['trigger_bias']} edge {choice['edge_bias']} "
          f"(own {own}; kept: {keep})")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({"own": own, "chosen": [choice["trigger_bias"],
                                                                 choice["edge_bias"]],
                                          "results": results}, indent=2) + "\n")


if __name__ == "__main__":
    main()
