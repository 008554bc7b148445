"""Train and evaluate the relation negation / speculation detector (relx.learn.hedging) on
BioNLP-ST GE events.

Each same-sentence pair of gold proteins that the gold events connect (the PPI pairs of
relx.ge.ppi_pairs: a Binding with both as Themes, or a regulation with one as Cause and the
other as Theme, directly or through one nested event; Equiv-closed) is a relation; it is
*negated* / *speculated* when one of the events connecting it carries that modification
(``M`` line). Sentences and parses: relx's parse with the gold proteins (relx.ge.data).

    python -m lab.hedging cv --train GE/2011/train --train GE/2013/train
    python -m lab.hedging train --train ... --out relx/data/hedging.json.gz
    python -m lab.hedging evaluate --test GE/2011/devel [--model ...]
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from itertools import product
from pathlib import Path

import numpy as np
from sklearn.metrics import precision_recall_fscore_support

from relx.doc import REGULATION_TYPES, StandoffDocument
from relx.ge.data import cache_path, load_ge
from relx.ge.ppi_pairs import _overlap, _theme_proteins, equivalent_pairs
from relx.learn.hedging import DEFAULT_PATH, HedgingDetector, load_hedging
from relx.represent.hedging import HEDGING_TYPES
from relx.represent.instances import PairInstance
from relx.represent.pair_features import negated_pair

log = logging.getLogger("hedging")
MOD = {"negated": "Negation", "speculated": "Speculation"}
CACHE = "runs/events/cache"
GRID = {"C": [0.1, 0.3, 1.0, 3.0], "min_count": [2, 4], "min_lift": [2.0, 4.0],
        "seed_cues": [True, False]}


def connecting_events(doc: StandoffDocument) -> dict[frozenset[str], set[str]]:
    """Unordered protein-id pair -> ids of the events connecting it (relx.ge.ppi_pairs'
    definition, Equiv-closed)."""
    proteins = {p.id for p in doc.proteins}
    events = doc.event_map()
    out: dict[frozenset[str], set[str]] = {}
    for ev in doc.events:
        pairs = set()
        if ev.type == "Binding":
            themes = sorted(r for r in ev.refs("Theme") if r in proteins)
            pairs = {frozenset((a, b)) for i, a in enumerate(themes) for b in themes[i + 1:]}
        elif ev.type in REGULATION_TYPES:
            causes = set().union(*(_theme_proteins(c, proteins, events) for c in ev.refs("Cause")))
            themes = set().union(*(_theme_proteins(t, proteins, events) for t in ev.refs("Theme")))
            pairs = {frozenset((c, t)) for c in causes for t in themes if c != t}
        for p in pairs:
            out.setdefault(p, set()).add(ev.id)
    groups = doc.equiv_classes()
    closed: dict[frozenset[str], set[str]] = {}
    for pair, evs in out.items():
        for xy in equivalent_pairs(pair, groups):
            closed.setdefault(frozenset(xy), set()).update(evs)
    return closed


def relations(directories: list[str]) -> tuple[list[PairInstance], np.ndarray]:
    """Connected gold pairs of the GE directories (a document read once) and their (n, 2)
    (negated, speculated) labels."""
    from relx.doc import Relation

    X, Y, seen = [], [], set()
    for d in directories:
        for g in load_ge(d, cache=cache_path(CACHE, d)):
            if g.id in seen:
                continue
            seen.add(g.id)
            conn = connecting_events(g.standoff)
            mods = g.standoff.modifications_of()
            for s in g.parsed.sentences:
                for i, a in enumerate(s.entities):
                    for b in s.entities[i + 1:]:
                        evs = conn.get(frozenset((a.id, b.id)))
                        if not evs or _overlap(a, b):
                            continue
                        r = Relation(id=f"{s.id}.h{len(X)}", arg1=a.id, arg2=b.id, label=True)
                        X.append(PairInstance(g.id, s, r))
                        Y.append([any(MOD[t] in mods.get(e, ()) for e in evs)
                                  for t in HEDGING_TYPES])
    return X, np.array(Y, dtype=bool).reshape(-1, len(HEDGING_TYPES))


def prf(y: np.ndarray, pred: np.ndarray) -> dict[str, float]:
    p, r, f, _ = precision_recall_fscore_support(y, pred, average="binary", zero_division=0)
    return {"precision": round(float(p), 4), "recall": round(float(r), 4),
            "f1": round(float(f), 4), "n_gold": int(y.sum()), "n_pred": int(pred.sum())}


def cmd_cv(args: argparse.Namespace) -> None:
    """Every GRID setting: out-of-fold F1 per type at the inner-CV threshold, by document."""
    X, Y = relations(args.train)
    docs = np.array([x.document_id for x in X])
    log.info("%d relations, %d negated, %d speculated", len(X), Y[:, 0].sum(), Y[:, 1].sum())
    rows = []
    for C, mc, lift, seed in product(*GRID.values()):
        det = HedgingDetector(C=C, min_count=mc, min_lift=lift, seed_cues=seed, folds=args.folds)
        row = {"C": C, "min_count": mc, "min_lift": lift, "seed_cues": seed}
        for k, t in enumerate(HEDGING_TYPES):
            oof = det.oof_proba(X, Y[:, k], docs, t)
            # threshold chosen inside the training part of an outer split is what fit does;
            # here: F1 at the best cut of the pooled OOF (the same for every setting) and AP
            from sklearn.metrics import average_precision_score, precision_recall_curve

            p, r, _ = precision_recall_curve(Y[:, k], oof)
            row[t] = {"ap": round(float(average_precision_score(Y[:, k], oof)), 4),
                      "best_f1": round(float(np.max(2 * p * r / np.maximum(p + r, 1e-12))), 4)}
        row["flag"] = {t: prf(Y[:, k], np.array([negated_pair(x) for x in X]))
                       for k, t in enumerate(HEDGING_TYPES) if t == "negated"}
        rows.append(row)
        log.info("%s", json.dumps(row))
    Path(args.out).write_text(json.dumps(rows, indent=1))


def cmd_train(args: argparse.Namespace) -> None:
    X, Y = relations(args.train)
    params = json.loads(args.params)
    t0 = time.perf_counter()
    det = HedgingDetector(**params).fit(X, Y)
    meta = {"trained_on": [str(Path(d).resolve().relative_to(Path(d).resolve().parents[2]))
                           for d in args.train],
            "n_relations": len(X), "n_negated": int(Y[:, 0].sum()),
            "n_speculated": int(Y[:, 1].sum()), "seconds": round(time.perf_counter() - t0, 1)}
    det.save(args.out, meta)
    log.info("saved %s: %s, thresholds %s", args.out, meta, det.thresholds_)


def cmd_evaluate(args: argparse.Namespace) -> None:
    X, Y = relations([args.test])
    det = load_hedging(args.model)
    pred = det.predict(X)
    flag = np.array([negated_pair(x) for x in X])
    out = {"test": args.test, "n_relations": len(X),
           "detector": {t: prf(Y[:, k], pred[:, k]) for k, t in enumerate(HEDGING_TYPES)},
           "path_flag": {"negated": prf(Y[:, 0], flag),
                         "speculated": prf(Y[:, 1], np.zeros(len(X), bool))}}
    print(json.dumps(out, indent=1))
    if args.out:
        Path(args.out).write_text(json.dumps(out, indent=1) + "\n")


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("cv")
    c.add_argument("--train", action="append", required=True)
    c.add_argument("--folds", type=int, default=5)
    c.add_argument("--out", default="runs/hedging/cv.json")
    t = sub.add_parser("train")
    t.add_argument("--train", action="append", required=True)
    t.add_argument("--params", default="{}", help="HedgingDetector parameters as JSON")
    t.add_argument("--out", default=str(DEFAULT_PATH))
    e = sub.add_parser("evaluate")
    e.add_argument("--test", required=True)
    e.add_argument("--model", default=None)
    e.add_argument("--out", default=None)
    args = ap.parse_args()
    {"cv": cmd_cv, "train": cmd_train, "evaluate": cmd_evaluate}[args.cmd](args)


if __name__ == "__main__":
    main()
