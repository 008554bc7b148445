"""Choose G2P + MSE-FLDA hyper-parameters on a document validation split of a *training*
corpus (never on a test corpus): ``configs/ppi-g2p-flda.toml`` records the outcome.

For one corpus and split (documents dealt into ``--folds`` seeded folds, fold ``--split``
held out) the kernel blocks train×train and validation×train are computed once per kernel
and cached under ``--cache``; then every grid point builds the similarity features
(prototypes = columns of the cached blocks), fits :class:`G2PEmbedding` (one generalised
eigenproblem per (features, weighting, affinity, h, λ)) and, for each energy fraction and
MSE-FLDA setting, scores the validation documents. One JSON line per result in ``--out``;
a rerun skips grid points already there.

    python -m lab.experiments.tune_g2p --corpus AIMed --out runs/g2p/tune-AIMed.jsonl
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import time
from pathlib import Path

import numpy as np
import scipy.linalg
from sklearn.metrics import precision_recall_fscore_support, roc_auc_score
from sklearn.utils import check_random_state

from relx.kernels.structure import PathKernel
from relx.learn.flda import MSEFLDA
from relx.ppi.evaluate import document_folds, load_corpus
from relx.represent.g2p import G2PEmbedding, energy_components
from relx.represent.instances import StructureExtractor, labels, pair_instances
from relx.represent.klsh import _balanced_sample

ROOT = Path(__file__).resolve().parents[2]
CORPORA = {"AIMed": "AImed", "BioInfer": "BioInfer", "IEPA": "IEPA"}
KERNELS = {  # the kernel settings of configs/ppi-klsh-rf.toml
    "path": PathKernel(structure="path", lam=0.8, p=3, w_lemma=0.5, w_pos=0.1, edge_mismatch=1.0),
    "sequence": PathKernel(structure="sequence", lam=0.5, p=3, w_lemma=0.5, w_pos=0.1),
}


def data_dir() -> Path:
    return Path(os.environ.get("RELX_DATA", ROOT.parent / "shared"))


def blocks(corpus: str, folds: int, split: int, seed: int, cache: Path, kernels: list[str]):
    """(K_train_train, K_val_train) per kernel, y_train, y_val."""
    cache.mkdir(parents=True, exist_ok=True)
    out, ys = {}, None
    docs = None
    for name in kernels:
        f = cache / f"{corpus}-f{folds}s{split}seed{seed}-{name}.npz"
        if not f.exists():
            if docs is None:
                docs = load_corpus(data_dir() / "corpora" / "ppi"
                                   / f"{CORPORA[corpus]}-learning-format.xml.gz")
                fold = document_folds(docs, folds, seed)
                tr = pair_instances([d for d in docs if fold[d.id] != split])
                va = pair_instances([d for d in docs if fold[d.id] == split])
                ext = StructureExtractor(structures=["path", "sequence"], window=1)
                s_tr, s_va = ext.fit_transform(tr), ext.transform(va)
            t = time.perf_counter()
            k = KERNELS[name]
            np.savez(f, ktt=k.gram(s_tr), kvt=k.gram(s_va, s_tr), ytr=labels(tr), yva=labels(va))
            print(f"{name}: grams in {time.perf_counter() - t:.0f}s", flush=True)
        z = np.load(f)
        out[name] = (z["ktt"], z["kvt"])
        ys = (z["ytr"], z["yva"])
    return out, ys


def metrics(y, pred, score) -> dict:
    p, r, f, _ = precision_recall_fscore_support(y, pred, average="binary", zero_division=0)
    return {"precision": round(float(p), 4), "recall": round(float(r), 4), "f1": round(float(f), 4),
            "auc": round(float(roc_auc_score(y, score)), 4)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", default="AIMed", choices=sorted(CORPORA))
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--split", type=int, default=0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cache", type=Path, default=ROOT / "runs" / "g2p" / "cache")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--kernels", default="path", help="comma list, or 'path+sequence' weights "
                    "via --seq-weights")
    ap.add_argument("--seq-weights", default="0", help="comma list of sequence-kernel weights a₂ "
                    "(path weight 1; Mu eq. 37)")
    ap.add_argument("--prototypes", default="1000", help="comma list of p, or 'all'")
    ap.add_argument("--proto-mode", default="balanced", help="comma list: balanced, random")
    ap.add_argument("--weighting", default="local,class")
    ap.add_argument("--affinity", default="cosine", help="comma list: cosine, precomputed, rbf")
    ap.add_argument("--h", default="15,0.25,1.0", help="comma list of n_neighbors")
    ap.add_argument("--reg", default="0.001,0.1,10,1000", help="comma list of λ")
    ap.add_argument("--energy", default="0.5,0.9,0.99,0.999,0.9999")
    ap.add_argument("--flda-reg", default="0")
    ap.add_argument("--center", default="0", help="comma list of 0/1")
    ap.add_argument("--energy-over", default="all", help="comma list: all, positive")
    args = ap.parse_args()

    names = ["path"] + (["sequence"] if args.seq_weights != "0" else [])
    grams, (ytr, yva) = blocks(args.corpus, args.folds, args.split, args.seed, args.cache, names)
    n = len(ytr)
    done = set()
    if args.out.exists():
        done = {json.loads(line)["key"] for line in args.out.open()}
    args.out.parent.mkdir(parents=True, exist_ok=True)

    def floats(s):
        return [float(x) for x in s.split(",")]

    def hval(s):
        return int(s) if s.isdigit() else float(s)

    grid = itertools.product(floats(args.seq_weights), args.prototypes.split(","),
                             args.proto_mode.split(","), args.weighting.split(","),
                             args.affinity.split(","), [hval(h) for h in args.h.split(",")],
                             floats(args.reg), [bool(int(c)) for c in args.center.split(",")])
    for a2, p, mode, weighting, affinity, h, reg, center in grid:
        if weighting == "class" and h != hval(args.h.split(",")[0]):
            continue  # h is unused by the class-only variant
        if p != "all" and affinity == "precomputed":
            continue
        if p == "all" and mode != args.proto_mode.split(",")[0]:
            continue
        key = json.dumps([args.corpus, args.split, a2, p, mode, weighting, affinity,
                          h if weighting == "local" else None, reg]
                         + (["center"] if center else []))
        if key in done:
            continue
        rtt = grams["path"][0]
        rvt = grams["path"][1]
        if a2 > 0:
            rtt = (rtt + a2 * grams["sequence"][0]) / (1 + a2)
            rvt = (rvt + a2 * grams["sequence"][1]) / (1 + a2)
        if p == "all":
            cols = np.arange(n)
        elif mode == "balanced":
            cols = _balanced_sample(ytr, int(p), check_random_state(args.seed))
        else:
            cols = np.sort(check_random_state(args.seed).choice(n, int(p), replace=False))
        S, Q = rtt[:, cols], rvt[:, cols]
        g2p = G2PEmbedding(n_neighbors=h, reg=reg, weighting=weighting, affinity=affinity,
                           center=center)
        t = time.perf_counter()
        A, B = g2p.objective_matrices(S, ytr)
        vals, vecs = scipy.linalg.eigh(A, B)
        vals, vecs = vals[::-1], vecs[:, ::-1]
        fit_s = time.perf_counter() - t
        if center:
            mu = S.mean(axis=0)
            S, Q = S - mu, Q - mu
        recs = []
        for energy, over in itertools.product(floats(args.energy), args.energy_over.split(",")):
            k = energy_components(vals if over == "all" else np.maximum(vals, 0), energy)
            ztr, zva = S @ vecs[:, :k], Q @ vecs[:, :k]
            for freg in floats(args.flda_reg):
                clf = MSEFLDA(reg=freg, threshold="auto", random_state=args.seed).fit(ztr, ytr)
                auto = clf.decision_function(zva)
                for thr, score in ((0.0, auto + clf.decision_threshold_), ("auto", auto)):
                    rec = {"key": key, "corpus": args.corpus, "split": args.split, "a2": a2,
                           "prototypes": p, "mode": mode, "weighting": weighting,
                           "affinity": affinity, "center": center, "h": h, "reg": reg,
                           "energy": energy, "energy_over": over, "k": k, "flda_reg": freg, "threshold": thr,
                           "fit_s": round(fit_s, 1),
                           **metrics(yva, (score > 0).astype(int), score)}
                    recs.append(rec)
        with args.out.open("a") as fh:  # a grid point's rows together: a rerun resumes cleanly
            fh.write("".join(json.dumps(r) + "\n" for r in recs))
        best = max(recs, key=lambda r: r["f1"])
        print(f"{key}: eig {fit_s:.0f}s best f1 {best['f1']} auc {best['auc']} "
              f"(energy {best['energy']} k {best['k']} thr {best['threshold']})", flush=True)


if __name__ == "__main__":
    main()
