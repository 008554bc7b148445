"""Choose the member weights of an ensemble config (e.g. ``configs/ppi-ensemble-g2p.toml``) on a
document validation split of a *training* corpus (never on a test corpus).

The ensemble is fitted once on the training documents of the split (documents dealt into
``--folds`` seeded folds, fold ``--split`` held out); every weight vector of the grid then
re-derives threshold and calibration from the stored out-of-fold member probabilities
(``ProbabilityEnsemble.fit_combiner``) and is scored on the held-out documents, with and
without the EM prior-shift adjustment. One JSON line per (weights, prior_shift).

    python -m lab.experiments.tune_ensemble --config configs/ppi-ensemble-g2p.toml --corpus AIMed --split 0
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from sklearn.metrics import precision_recall_fscore_support, roc_auc_score

from relx.ppi.evaluate import document_folds, load_corpus
from relx.registry import build_pipeline, load_config
from relx.represent.instances import labels, pair_instances

ROOT = Path(__file__).resolve().parents[2]
CORPORA = {"AIMed": "AImed", "BioInfer": "BioInfer", "IEPA": "IEPA"}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--config", type=Path, default=ROOT / "configs" / "ppi-ensemble-g2p.toml")
    ap.add_argument("--corpus", default="AIMed", choices=sorted(CORPORA))
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--split", type=int, default=0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--grid", default="0,0.25,0.5,0.75,1",
                    help="comma list of the last member's weight share (two members)")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    shared = Path(os.environ.get("RELX_DATA", ROOT.parent / "shared"))
    docs = load_corpus(shared / "corpora" / "ppi" / f"{CORPORA[args.corpus]}-learning-format.xml.gz")
    fold = document_folds(docs, args.folds, args.seed)
    tr = pair_instances([d for d in docs if fold[d.id] != args.split])
    va = pair_instances([d for d in docs if fold[d.id] == args.split])
    ytr, yva = labels(tr), labels(va)
    pipe = build_pipeline(load_config(args.config), random_state=args.seed)
    t0 = time.perf_counter()
    pipe.fit(tr, ytr)
    fit_s = time.perf_counter() - t0
    ens = pipe.steps[-1][1]
    Xva = pipe[:-1].transform(va)
    P = ens.member_proba(Xva)
    pos = ytr == ens.classes_[1]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("a") as fh:
        for share in (float(x) for x in args.grid.split(",")):
            for shift in (None, "em"):
                ens.set_params(weights=[1 - share, share], prior_shift=shift)
                ens.fit_combiner(ens.oof_, pos)
                q = ens.posterior(P)
                pred = (q > ens.threshold_).astype(int)
                p, r, f, _ = precision_recall_fscore_support(yva, pred, average="binary",
                                                             zero_division=0)
                row = {"config": str(args.config), "corpus": args.corpus, "split": args.split,
                       "share_last": share, "prior_shift": shift, "precision": round(p, 4),
                       "recall": round(r, 4), "f1": round(f, 4),
                       "auc": round(roc_auc_score(yva, ens.score(P)), 4),
                       "test_prior": getattr(ens, "test_prior_", None) if shift else None,
                       "fit_s": round(fit_s, 1)}
                fh.write(json.dumps(row) + "\n")
                print(row, flush=True)


if __name__ == "__main__":
    main()
