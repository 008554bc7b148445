"""Development data for ensemble decisions (never a test corpus or fold): how the in-domain
combiner of configs/ppi-best.toml (``in_domain_combiner = "stacked"``) was chosen.

``dump``: fit an ensemble config on a training corpus (corpus parses) and save every member's
out-of-fold training probabilities (the ensemble's own document folds), the members'
probabilities on the unseen development corpus (IEPA), labels and document ids (.npz).

``stack``: from such files (one per training corpus), pseudo-CV by document on the
out-of-fold probabilities (10 folds, split seeds 0/1/2: combiner and cut fitted on 9 folds,
applied to the 10th), pooled F1 of
  - the fixed-weight quantile mean with the f1-bagged cut (the in-domain rule before), and
  - a logistic-regression stacker on the members' quantile logits, f1-bagged cut on it,
over the members named by ``--members``; and, for new text, each file's IEPA AUC and Youden
F1 of the fixed-weight mean.

    python -m lab.experiments.dev_members dump --config configs/ppi-best.toml --train AIMed \
        --out runs/dev/members-aimed.npz
    python -m lab.experiments.dev_members stack runs/dev/members-aimed.npz \
        runs/dev/members-bioinfer.npz

Candidate members measured this way (weight 1 in the fit, so they are fitted; ``stack
--members klsh_rf,pair_lr,pair_nb,pair_gbt,pair_et,svm``): append to a copy of
configs/ppi-best.toml's estimators / weights / refit_steps "svm" 1 1, "unlex" 1 1, "et600" 1 1
and add the sections
    [svm] component = "pipeline", steps = ["structures_svm", "svm_classifier"]
    [structures_svm] as [structures];  [svm_classifier] component = "kernel_svm",
        kernel = "kernel", C = 1.0, class_weight = "balanced"
    [unlex] component = "pipeline", steps = ["features_unlex", "classifier_unlex"]
    [features_unlex] as [features] with lexical_weight = 0.0;  [classifier_unlex] as [classifier]
    [et600] component = "pipeline", steps = ["union_et", "et_600"]
    [et_600] as [et] with n_estimators = 600
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from sklearn.metrics import f1_score, roc_auc_score

from lab.experiments.eval_ensemble import corpus_path
from relx.learn.ensemble import ProbabilityEnsemble

ROOT = Path(__file__).resolve().parents[2]

SHIPPED = {"klsh_rf": 1.0, "pair_lr": 2.0, "pair_nb": 1.0, "pair_gbt": 1.0, "pair_et": 4.0}


def dump(config: Path, train: str, dev: str, out: Path) -> None:
    from relx.ppi.evaluate import load_corpus
    from relx.registry import build_pipeline, load_config
    from relx.represent.instances import labels, pair_instances

    cfg = load_config(config)
    seed = int(cfg["pipeline"].get("seed", 0))
    tr = pair_instances(load_corpus(corpus_path(train)))
    dv = pair_instances(load_corpus(corpus_path(dev)))
    t0 = time.perf_counter()
    pipe = build_pipeline(cfg, random_state=seed).fit(tr, labels(tr))
    seconds = time.perf_counter() - t0
    ens = pipe.steps[-1][1]
    P = ens.member_proba(pipe[:-1].transform(dv) if len(pipe) > 1 else dv)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, oof=ens.oof_, y_oof=labels(tr), P_dev=P, y_dev=labels(dv),
                        doc_oof=np.array([x.document_id for x in tr]), fit_seconds=seconds,
                        names=np.array(cfg["ensemble"]["estimators"]))
    print(f"{out}: {len(tr)} training pairs, {len(dv)} {dev} pairs, fit {seconds:.0f} s")


def _combiner(weights: np.ndarray, threshold: str, stacked: bool) -> ProbabilityEnsemble:
    """relx's own combiner over stored member probabilities (no member is refitted)."""
    return ProbabilityEnsemble(estimators=[None] * len(weights), weights=list(weights),
                               normalise="quantile", threshold=threshold,
                               in_domain_threshold="f1-bagged",
                               in_domain_combiner="stacked" if stacked else None)


def fixed_rule(weights: np.ndarray, cut: str = "f1-bagged"):
    """Fixed-weight quantile mean; its cut by ``cut`` on the training rows."""
    def rule(P_tr, y_tr, P_te):
        ens = _combiner(weights, cut, False).fit_combiner(P_tr, y_tr.astype(bool))
        q = ens.posterior(P_te)
        return q, q > ens.threshold_
    return rule


def stacked_rule(P_tr, y_tr, P_te):
    """The in-domain stacker (logistic regression on the quantile logits), f1-bagged cut."""
    ens = _combiner(np.ones(P_tr.shape[1]), "youden", True).fit_combiner(P_tr, y_tr.astype(bool))
    return ens.in_domain_posterior(P_te), ens.decide(P_te, in_domain=True).astype(bool)


def pseudo_cv(P: np.ndarray, y: np.ndarray, docs: np.ndarray, rule, seed: int, k: int = 10
              ) -> float:
    """Pooled F1 of ``rule`` over k document folds of the out-of-fold probabilities."""
    uniq = np.unique(docs)
    order = np.random.default_rng(seed).permutation(len(uniq))
    fold_of = {uniq[i]: r % k for r, i in enumerate(order)}
    fold = np.array([fold_of[d] for d in docs])
    pred = np.zeros(len(y), int)
    for j in range(k):
        tr, te = fold != j, fold == j
        pred[te] = rule(P[tr], y[tr], P[te])[1]
    return float(f1_score(y, pred))


def stack(files: list[Path], members: list[str], seeds: tuple[int, ...] = (0, 1, 2)) -> dict:
    out: dict = {}
    for f in files:
        d = np.load(f)
        names = list(d["names"])
        cols = [names.index(m) for m in members]
        P, y, docs = d["oof"][:, cols], d["y_oof"].astype(int), d["doc_oof"]
        w = np.array([SHIPPED.get(m, 0.0) for m in members])
        row = {"fixed": float(np.mean([pseudo_cv(P, y, docs, fixed_rule(w), s) for s in seeds])),
               "stacked": float(np.mean([pseudo_cv(P, y, docs, stacked_rule, s) for s in seeds]))}
        if w.sum() > 0:  # new text: fixed weights, Youden threshold from the out-of-fold scores
            s_dev, pred = fixed_rule(w, "youden")(P, y, d["P_dev"][:, cols])
            row["dev_auc"] = float(roc_auc_score(d["y_dev"], s_dev))
            row["dev_f1_youden"] = float(f1_score(d["y_dev"], pred))
        out[f.stem] = row
        print(f"{f.stem}: in-domain pseudo-CV F1 fixed {row['fixed']:.4f}, stacked "
              f"{row['stacked']:.4f}" + (f"; dev AUC {row['dev_auc']:.4f}, dev Youden F1 "
                                         f"{row['dev_f1_youden']:.4f}" if "dev_auc" in row else ""))
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump", help="fit a config; save member out-of-fold and dev probabilities")
    d.add_argument("--config", type=Path, default=ROOT / "configs" / "ppi-best.toml")
    d.add_argument("--train", required=True, choices=["AIMed", "BioInfer", "IEPA"])
    d.add_argument("--dev", default="IEPA", choices=["AIMed", "BioInfer", "IEPA"])
    d.add_argument("--out", type=Path, required=True)
    s = sub.add_parser("stack", help="pseudo-CV F1 of the fixed weights and the stacker")
    s.add_argument("files", type=Path, nargs="+")
    s.add_argument("--members", default=",".join(SHIPPED),
                   help="comma list of member names (default: the shipped five)")
    args = ap.parse_args(argv)
    if args.cmd == "dump":
        if args.dev == args.train:
            ap.error("--dev must be another corpus than --train")
        dump(args.config, args.train, args.dev, args.out)
    else:
        print(json.dumps(stack(args.files, args.members.split(","))))


if __name__ == "__main__":
    main()
