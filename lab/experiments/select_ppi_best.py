"""How configs/ppi-best.toml was chosen: member scores, score combination and decision rule,
judged on IEPA as the unseen development corpus (AIMed<->BioInfer are never looked at).

    python -m lab.experiments.select_ppi_best [--train AIMed BioInfer] [--dev IEPA]
        [--members klsh_rf=configs/ppi-klsh-rf.toml pair_lr=configs/ppi-pair-lr.toml]

For each training corpus: 5-fold (by document) out-of-fold scores of KLSH-RF
(configs/ppi-klsh-rf.toml) and of the pair-feature logistic regression
(configs/ppi-pair-lr.toml), both refitted on the whole corpus to score the dev corpus.
Printed per training corpus and candidate (KLSH-RF, pair LR, their mean after mapping each
through its out-of-fold CDF): out-of-fold AUC, dev AUC, dev F1 with the F1-best and the
Youden threshold (both chosen on the out-of-fold scores), and the dev oracle F1.
Last line: JSON of those figures. Takes ~10 min on 2 cores.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from sklearn.metrics import f1_score, roc_auc_score

from relx.learn.ensemble import quantile_map
from relx.learn.forest import best_f1_threshold, best_youden_threshold
from relx.ppi.evaluate import document_folds, load_corpus, positive_scores
from relx.registry import build_pipeline, load_config
from relx.represent.instances import labels, pair_instances

ROOT = Path(__file__).resolve().parents[2]

FILES = {"AIMed": "AImed", "BioInfer": "BioInfer", "IEPA": "IEPA"}
MEMBERS = {"klsh_rf": "configs/ppi-klsh-rf.toml", "pair_lr": "configs/ppi-pair-lr.toml"}


def member_scores(cfg_path: str, docs, dev_inst, k: int = 5) -> tuple[np.ndarray, np.ndarray]:
    """(out-of-fold scores on docs' pairs, scores of the dev pairs by the full-data fit)."""
    cfg = load_config(ROOT / cfg_path)
    cfg.get("classifier", {}).pop("threshold", None)  # no inner threshold tuning needed
    inst, fold_of = pair_instances(docs), document_folds(docs, k, 0)
    y = labels(inst)
    fold = np.array([fold_of[x.document_id] for x in inst])
    oof = np.zeros(len(y))
    for f in range(k):
        tr = [x for x, g in zip(inst, fold, strict=True) if g != f]
        va = [x for x, g in zip(inst, fold, strict=True) if g == f]
        oof[fold == f] = positive_scores(build_pipeline(cfg, random_state=0).fit(tr, labels(tr)), va)
    full = build_pipeline(cfg, random_state=0).fit(inst, y)
    return oof, positive_scores(full, dev_inst)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    ap.add_argument("--train", nargs="+", default=["AIMed", "BioInfer"])
    ap.add_argument("--dev", default="IEPA")
    ap.add_argument("--members", nargs="+", metavar="NAME=CONFIG",
                    default=[f"{k}={v}" for k, v in MEMBERS.items()],
                    help="ensemble members (default: those of configs/ppi-best.toml)")
    a = ap.parse_args()
    members = dict(m.split("=", 1) for m in a.members)

    def path(name: str) -> Path:
        return a.shared / "corpora" / "ppi" / f"{FILES[name]}-learning-format.xml.gz"

    dev = pair_instances(load_corpus(path(a.dev)))
    y_dev = labels(dev)
    out: dict = {}
    for train in a.train:
        docs = load_corpus(path(train))
        y = labels(pair_instances(docs))
        sc = {m: member_scores(c, docs, dev) for m, c in members.items()}
        cands = {m: v for m, v in sc.items()}
        cands["mean"] = tuple(
            np.mean([quantile_map(np.sort(v[0]), v[i]) for v in sc.values()], axis=0)
            for i in (0, 1))
        for name, (oof, s) in cands.items():
            t_f1, t_j = best_f1_threshold(y == 1, oof), best_youden_threshold(y == 1, oof)
            grid = np.unique(s)
            oracle = max(f1_score(y_dev, s > t) for t in np.quantile(grid, np.linspace(0, 1, 200)))
            r = {"oof_auc": roc_auc_score(y, oof), "dev_auc": roc_auc_score(y_dev, s),
                 "dev_f1_f1best": f1_score(y_dev, s > t_f1),
                 "dev_f1_youden": f1_score(y_dev, s > t_j), "dev_oracle_f1": oracle}
            out[f"{train}:{name}"] = {k: round(float(v), 3) for k, v in r.items()}
            print(f"{train:8s} {name:8s} " + " ".join(f"{k} {v:.3f}" for k, v in r.items()),
                  flush=True)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
