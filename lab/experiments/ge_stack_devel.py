"""One run of a chosen stacking point (issue 32, decisions 4/5) on validation or GE 2011 devel.

``--on validation``: the validation split of ``lab/experiments/ge_levers.py`` (base model from
``runs/ge-levers/base``). ``--on devel`` (only after the decision is written to
``runs/notes/events-decisions.md``): fits the shipped recipe on GE 2011 train + GE 2013
train (the base, scored too, in the same run) and scores GE 2011 devel. Either way stage 1
is cross-fitted over 5 document folds of the training documents, the chosen second
stage(s) are fitted and the events scored (relx's scorer: approximate recursive, task 1).

    python -m lab.experiments.ge_stack_devel --on devel --triggers 0.03,1,0.7   # C, edge scores, none_bias
    python -m lab.experiments.ge_stack_devel --on validation --edges 0.3,reg,0.3 --edge-bias -0.2
                                          # stage-2 edges: C, scope (reg/all), KLSH weight
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from lab.experiments.ge_levers import GE, Validation, base_model, line, load_split
from lab.ge.extractor import LabGEExtractor
from lab.ge.stacked_edges import StackedEdgeDetector, trigger_margins
from lab.ge.stacking import StackedTriggerDetector, crossfit_stage1
from relx.doc import REGULATION_TYPES
from relx.ge.data import cache_path, load_ge
from relx.ge.edges import EdgeDetector, candidates, decide_edges
from relx.ge.sentences import build_views
from relx.ge.triggers import decide
from relx.registry import load_config


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--config", default="configs/ge-events.toml")
    ap.add_argument("--cache-dir", default="runs/events/cache")
    ap.add_argument("--triggers", help="stage-2 trigger point: C,edge_scores(0/1),none_bias")
    ap.add_argument("--edges", help="stage-2 edge point: C,scope(reg/all),klsh_weight")
    ap.add_argument("--edge-bias", type=float, default=None)
    ap.add_argument("--on", choices=("validation", "devel"), required=True)
    ap.add_argument("--out", default="runs/ge-levers", help="validation: the base model's folder")
    a = ap.parse_args(argv)
    cfg = load_config(a.config)
    t0 = time.perf_counter()
    if a.on == "validation":
        train, test = load_split(a.cache_dir)
        m = base_model(a, train)
    else:
        tr11 = load_ge(GE / "2011" / "train", cache_path(a.cache_dir, GE / "2011" / "train"))
        tr13 = load_ge(GE / "2013" / "train", cache_path(a.cache_dir, GE / "2013" / "train"),
                       skip_ids={d.id for d in tr11})
        train = tr11 + tr13
        test = load_ge(GE / "2011" / "devel", cache_path(a.cache_dir, GE / "2011" / "devel"))
        m = LabGEExtractor(cfg).fit(train)
    print(f"{a.on}: {len(train)} training documents, {len(test)} test documents", flush=True)
    ev = Validation(m, test)
    nodes, cands, proba, edges = ev.pipeline()
    print(f"base ({time.perf_counter() - t0:.0f}s):", line(ev.score(edges)), flush=True)
    t0 = time.perf_counter()
    st0 = StackedTriggerDetector(triggers=dict(cfg["triggers"]), edge_C=cfg["edges"]["C"])
    held = crossfit_stage1([build_views(d, gold=True) for d in train],
                           *st0.stage1_templates(), verbose=True)
    print(f"stage 1 cross-fitted ({time.perf_counter() - t0:.0f}s)", flush=True)
    full_edges = EdgeDetector(method="features", C=cfg["edges"]["C"])
    full_edges.linear_ = m.edges.linear_   # stage 1 on all documents = the base's parts
    if a.triggers:
        C, use_edges, nb = a.triggers.split(",")
        st = StackedTriggerDetector(triggers=dict(cfg["triggers"]), edge_C=cfg["edges"]["C"],
                                    C=float(C), edge_scores=bool(int(use_edges)),
                                    none_bias=float(nb)).fit_from(held, (m.triggers, full_edges))
        scores, index = st.scores(ev.flat)
        nodes = decide(scores, index, st.classes_, len(ev.flat), st.none_bias)
        cands = candidates(ev.flat, nodes)
        proba = m.edges.proba(ev.flat, cands)
    if a.edges:
        C, scope, w = a.edges.split(",")
        pk, p1 = m.edges.proba(ev.flat, cands, parts=True)
        p2 = StackedEdgeDetector(C=float(C)).fit_from(held).proba(
            ev.flat, cands, p1, trigger_margins(ev.flat, m.triggers))
        sel = (np.array([c.src[1] in REGULATION_TYPES for c in cands]) if scope == "reg"
               else np.ones(len(cands), dtype=bool))
        proba = np.where(sel[:, None], float(w) * pk + (1 - float(w)) * p2, proba)
    eb = m.edges.none_bias if a.edge_bias is None else a.edge_bias
    r = ev.score(decide_edges(proba, cands, eb, m.edges.cause_bias))
    print(f"stacked triggers {a.triggers} edges {a.edges} edge bias {eb}:", line(r), flush=True)
    out = Path(f"runs/ev-stack/{a.on}-report.txt")
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("a", encoding="utf-8") as fh:
        fh.write(f"{vars(a)}\n{line(r)}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
