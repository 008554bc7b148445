"""Evaluate an ensemble config (``configs/ppi-best*.toml``) once and report it under each
decision rule (training threshold; EM prior shift; training positive rate; the in-domain
threshold, see relx.learn.ensemble): the same fitted model, so the costly fit is not repeated. Same protocol and report fields as ``relx evaluate``
(train on one corpus / test on another, or k-fold CV by document with the same seeded
folds); each report also lists every member's own P/R/F1/AUC at its own threshold.

    python -m lab.experiments.eval_ensemble --config configs/ppi-ensemble-g2p.toml \
        --train AIMed --test BioInfer --report runs/g2p/best-a2b.json
    (writes runs/g2p/best-a2b.json, best-a2b-em.json, best-a2b-rate.json,
    best-a2b-in-domain.json, best-a2b.npz)
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np

from relx.ppi.evaluate import binary_metrics, document_folds, f1_interval, load_corpus, write_json
from relx.registry import build_pipeline, load_config
from relx.represent.instances import labels, pair_instances

ROOT = Path(__file__).resolve().parents[2]
CORPORA = {"AIMed": "AImed", "BioInfer": "BioInfer", "IEPA": "IEPA"}
SHIFTS = (None, "em", "rate")
RULES = (*SHIFTS, "in-domain")  # "in-domain": the ensemble's in_domain_threshold, no shift


def corpus_path(name: str) -> Path:
    shared = Path(os.environ.get("RELX_DATA", ROOT.parent / "shared"))
    return shared / "corpora" / "ppi" / f"{CORPORA[name]}-learning-format.xml.gz"


def fit_score(cfg: dict, train: list, test: list, seed: int) -> dict:
    """Fit once; per decision rule (None, "em") the predictions and scores on ``test``."""
    pipe = build_pipeline(cfg, random_state=seed)
    t0 = time.perf_counter()
    pipe.fit(train, labels(train))
    t1 = time.perf_counter()
    ens = pipe.steps[-1][1]
    P = ens.member_proba(pipe[:-1].transform(test) if len(pipe) > 1 else test)
    t2 = time.perf_counter()
    out = {"train_seconds": t1 - t0, "predict_seconds": t2 - t1, "n_train": len(train),
           "n_test": len(test), "members": P, "member_thresholds": [
               None if e is None else float(getattr(e.steps[-1][1], "threshold_", 0.5))
           for e in ens.estimators_]}
    for shift in SHIFTS:
        ens.set_params(prior_shift=shift)
        q = ens.posterior(P)
        out[shift] = (ens.decide(P), q, getattr(ens, "test_prior_", None) if shift == "em" else None)
    ens.set_params(prior_shift=None)
    out["in-domain"] = (ens.decide(P, in_domain=True), out[None][1], None)
    out["combiner"] = {"weights": list(map(float, ens._weights())), "calibration": ens.calibration_,
                       "score_threshold": ens.score_threshold_, "prior": ens.prior_,
                       "in_domain_threshold": ens.in_domain_threshold_,
                       "train_positive_rate": ens.train_positive_rate_}
    return out


def member_metrics(y: np.ndarray, P: np.ndarray, thresholds: list) -> list[dict]:
    return [binary_metrics(y, (P[:, j] > t).astype(int), P[:, j])
            for j, t in enumerate(thresholds) if t is not None]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--config", type=Path, required=True)
    ap.add_argument("--train", choices=sorted(CORPORA))
    ap.add_argument("--test", choices=sorted(CORPORA))
    ap.add_argument("--cv", type=int)
    ap.add_argument("--corpus", choices=sorted(CORPORA))
    ap.add_argument("--report", type=Path, required=True)
    ap.add_argument("--extra-train", type=Path, action="append", default=[],
                    help="relx JSONL of extra training documents (e.g. silver pairs from "
                         "`relx silver-ppi`), added to every training set, never tested on")
    args = ap.parse_args(argv)
    args.report.parent.mkdir(parents=True, exist_ok=True)
    cfg = load_config(args.config)
    extra = [x for p in args.extra_train for x in pair_instances(load_corpus(p))]
    seed = int(cfg["pipeline"].get("seed", 0))
    reports = {s: {} for s in RULES}
    if args.cv:
        docs = load_corpus(corpus_path(args.corpus))
        folds = document_folds(docs, args.cv, seed)
        inst = pair_instances(docs)
        fold_of = np.array([folds[x.document_id] for x in inst])
        y = labels(inst)
        pooled = {s: (np.zeros(len(y), int), np.zeros(len(y))) for s in RULES}
        per_fold = {s: [] for s in RULES}
        P_all = None
        thr = None
        secs = [0.0, 0.0]
        for f in range(args.cv):
            te, tr = np.flatnonzero(fold_of == f), np.flatnonzero(fold_of != f)
            r = fit_score(cfg, [inst[i] for i in tr] + extra, [inst[i] for i in te], seed + f)
            secs[0] += r["train_seconds"]
            secs[1] += r["predict_seconds"]
            P_all = np.zeros((len(y), r["members"].shape[1])) if P_all is None else P_all
            P_all[te] = r["members"]
            thr = r["member_thresholds"]
            for s in RULES:
                pred, q, prior = r[s]
                pooled[s][0][te], pooled[s][1][te] = pred, q
                m = binary_metrics(y[te], pred, q)
                m.update(fold=f, train_seconds=r["train_seconds"], test_prior=prior)
                per_fold[s].append(m)
            print(f"fold {f}: F1 {per_fold[None][-1]['f1']:.3f} / EM {per_fold['em'][-1]['f1']:.3f} / rate {per_fold['rate'][-1]['f1']:.3f} / in-domain {per_fold['in-domain'][-1]['f1']:.3f}"
                  f" ({r['train_seconds']:.0f} s)", flush=True)
        for s in RULES:
            f1s = np.array([m["f1"] for m in per_fold[s]])
            rep = binary_metrics(y, *pooled[s])
            rep["f1_ci95"] = f1_interval(y, pooled[s][0], [x.document_id for x in inst])
            rep.update(folds=per_fold[s], f1_mean=float(f1s.mean()), f1_std=float(f1s.std(ddof=1)),
                       roc_auc=float(np.mean([m["roc_auc"] for m in per_fold[s]])),
                       n_train=int(len(y) * (args.cv - 1) / args.cv) + len(extra), n_test=len(y),
                       train_seconds=secs[0], predict_seconds=secs[1], corpus=args.corpus,
                       members_pooled_fixed_thresholds_of_last_fold=member_metrics(y, P_all, thr))
            reports[s] = rep
    else:
        train = pair_instances(load_corpus(corpus_path(args.train))) + extra
        test = pair_instances(load_corpus(corpus_path(args.test)))
        r = fit_score(cfg, train, test, seed)
        y = labels(test)
        for s in RULES:
            pred, q, prior = r[s]
            rep = binary_metrics(y, pred, q)
            rep["f1_ci95"] = f1_interval(y, pred, [x.document_id for x in test])
            rep.update({k: r[k] for k in ("train_seconds", "predict_seconds", "n_train", "n_test")})
            rep.update(train=args.train, test=args.test, test_prior=prior, combiner=r["combiner"],
                       members=member_metrics(y, r["members"], r["member_thresholds"]))
            reports[s] = rep
        np.savez_compressed(args.report.with_suffix(".npz"), members=r["members"], y=y,
                            posterior=r[None][1])
    for s in RULES:
        rep = reports[s]
        shift = "none" if s in (None, "in-domain") else s
        cfg_s = {**cfg, "ensemble": {**cfg["ensemble"], "prior_shift": shift}}
        rep.update(parse_source="corpus:split_parse", seed=seed, config=cfg_s,
                   extra_train=[str(p) for p in args.extra_train],
                   decision={None: "training threshold", "em": "EM prior shift (Saerens 2002)",
                             "rate": "training positive-prediction rate on the test batch",
                             "in-domain": "in-domain threshold (in_domain_threshold)"}[s])
        path = args.report if s is None else args.report.with_name(f"{args.report.stem}-{s}.json")
        write_json(rep, path)
        print(f"{path}: P {rep['precision']:.3f} R {rep['recall']:.3f} F1 {rep['f1']:.3f} "
              f"(95 % interval {rep['f1_ci95'][0]:.3f}-{rep['f1_ci95'][1]:.3f}) "
              f"AUC {rep['roc_auc']:.3f} train {rep['train_seconds']:.0f} s", flush=True)


if __name__ == "__main__":
    main()
