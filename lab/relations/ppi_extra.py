"""One fit of an ablation row (configs/ablation.toml: config, ``set``, ``extra_train``) on a
PPI corpus, scored on the other cross-corpus corpus and on IEPA (issue 51: the interaction
model with and without BioRED's pairs, docs/relations.md).

    python -m lab.relations.ppi_extra --row best-silver13 --train AIMed --test BioInfer

Writes the row's ablation report of (train, test) (``docs/runs/ablation/<key>__<train>__
<test>.json``, the fields and decision of ``lab.results``'s ``_run``, so ``--render-only``
shows it) and the development figures of the same fit (``runs/relations/ppi-dev/<key>__
<train>.json``): IEPA AUC and F1 at the model's own (new-text) threshold, and the training
ensemble's out-of-fold AUC on the gold (non-silver) training pairs. The decision rule
registered in docs/relations.md reads the development figures only.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from sklearn.metrics import roc_auc_score

from lab.results import CORPORA, ablation_report, ablation_rows
from relx.learn.ensemble import gold_rows
from relx.ppi.evaluate import (
    binary_metrics,
    f1_interval,
    load_corpus,
    scores_and_decisions,
    write_json,
)
from relx.registry import apply_overrides, build_pipeline, load_config
from relx.represent.instances import labels, pair_instances

DEV_DIR = Path("runs/relations/ppi-dev")


def corpus(shared: Path, name: str) -> list:
    return load_corpus(shared / "corpora" / "ppi" / f"{CORPORA[name]}-learning-format.xml.gz")


def run(row: dict, train: str, test: str, shared: Path, runs: Path | None
        ) -> tuple[dict, dict]:
    """Fit once; (the ablation report of train -> test, the development figures); the
    report is written under ``runs`` (None: not written, e.g. a rerun of a kept row)."""
    cfg = apply_overrides(load_config(row["config"]), row.get("set") or {})
    seed = int(cfg["pipeline"].get("seed", 0))
    extra = [d for p in row.get("extra_train") or [] for d in load_corpus(p)]
    tr = pair_instances([*corpus(shared, train), *extra])
    pipe = build_pipeline(cfg, random_state=seed)
    t0 = time.perf_counter()
    pipe.fit(tr, labels(tr))
    t1 = time.perf_counter()
    out = {}
    for name in (test, "IEPA"):
        te = pair_instances(corpus(shared, name))
        t2 = time.perf_counter()
        scores, decisions = scores_and_decisions(pipe, te)
        y, pred = labels(te), decisions["model"].astype(int)
        res = binary_metrics(y, pred, scores["model"])
        res.update(n_train=len(tr), n_test=len(te), train_seconds=t1 - t0,
                   predict_seconds=time.perf_counter() - t2, decision="model",
                   f1_ci95=f1_interval(y, pred, [x.document_id for x in te]))
        out[name] = res
    ens = pipe.steps[-1][1]
    gold = gold_rows(tr)
    s = ens.score(ens.oof_)
    y_tr = labels(tr).astype(bool)
    dev = {"row": row["key"], "train": train, "n_train": len(tr), "n_gold": int(gold.sum()),
           "n_silver": int((~gold).sum()), "iepa_auc": out["IEPA"]["roc_auc"],
           "iepa_f1": out["IEPA"]["f1"], "oof_auc_gold": float(roc_auc_score(y_tr[gold], s[gold])),
           "oof_auc_all": float(roc_auc_score(y_tr, s)), "train_seconds": t1 - t0}
    rep = out[test]
    rep.update(method=row["name"], train=train, test=test,
               extra_train=row.get("extra_train") or [], parse_source="corpus:split_parse",
               config_file=row["config"], config=cfg,
               produced_by=f"python -m lab.relations.ppi_extra --row {row['key']} "
                           f"--train {train} --test {test}")
    if runs is not None:
        path = ablation_report(row, train, test, runs)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_json(rep, path)
    DEV_DIR.mkdir(parents=True, exist_ok=True)
    write_json(dev, DEV_DIR / f"{row['key']}__{train}.json")
    return rep, dev


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--row", required=True, help="ablation row key (configs/ablation.toml)")
    ap.add_argument("--train", required=True, choices=("AIMed", "BioInfer"))
    ap.add_argument("--test", required=True, choices=("AIMed", "BioInfer"))
    ap.add_argument("--shared", type=Path, default=Path("../shared"))
    ap.add_argument("--runs", type=Path, default=Path("docs/runs"))
    ap.add_argument("--no-report", action="store_true",
                    help="write the development figures only (rerun of a row whose "
                         "ablation report is kept)")
    a = ap.parse_args(argv)
    rows = {r["key"]: r for r in ablation_rows()}
    if a.row not in rows:
        ap.error(f"no ablation row {a.row!r}")
    rep, dev = run(rows[a.row], a.train, a.test, a.shared, None if a.no_report else a.runs)
    print(f"{a.row} {a.train} -> {a.test}: P {rep['precision']:.3f} R {rep['recall']:.3f} "
          f"F1 {rep['f1']:.3f} AUC {rep['roc_auc']:.3f} (train {rep['train_seconds']:.0f} s)")
    print(json.dumps(dev))
    return 0


if __name__ == "__main__":
    sys.exit(main())
