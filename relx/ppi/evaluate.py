"""Evaluation protocol (DESIGN §6): train/test and k-fold cross-validation by document."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.metrics import precision_recall_fscore_support, roc_auc_score

from relx.doc import Document
from relx.errors import ConfigError
from relx.io.atomic import atomic_open
from relx.io.registry import detect_format, read
from relx.registry import build_pipeline
from relx.represent.instances import PairInstance, labels, pair_instances

PARSE_SOURCES = ("corpus", "relx")
#: formats of PPI corpora: documents with gold pairs
CORPUS_FORMATS = ("ppi-xml", "jsonl")


def load_corpus(path: str | Path, parses: str = "corpus",
                corpus_parse: str = "split_parse", spacy_model: str | None = None
                ) -> list[Document]:
    """Documents of a PPI corpus: a file of a :data:`CORPUS_FORMATS` format (learning-format
    XML or relx JSONL, detected and read through :func:`relx.io.read`).

    ``parses="relx"`` re-tags and re-parses every sentence with relx's pipeline (or
    ``spacy_model``), keeping the corpus's sentences, entities and pairs.
    """
    if parses not in PARSE_SOURCES:
        raise ConfigError(f"--parses must be one of {PARSE_SOURCES}, not {parses!r}")
    docs = _read_corpus(Path(path), corpus_parse)
    if parses == "relx":
        from relx.parse.pipeline import Parser

        docs = list(Parser(spacy_model).reparse_sentences(docs))
    return docs


def _read_corpus(path: Path, corpus_parse: str) -> list[Document]:
    fmt = detect_format(path)
    if fmt not in CORPUS_FORMATS:
        raise ConfigError(f"{path}: a {fmt} file is not a PPI corpus (expected one of "
                          f"{', '.join(CORPUS_FORMATS)})")
    return list(read(path, fmt, parse=corpus_parse))


def positive_scores(model, X) -> np.ndarray:
    """(N,) score of the positive class: probability, or decision value."""
    if hasattr(model, "predict_proba"):
        return model.predict_proba(X)[:, 1]
    return model.decision_function(X)


def scores_and_predictions(model, X, in_domain: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(N,) positive-class scores and (N,) predictions (by the in-domain rule if asked and
    the model has one), running the pipeline's transforms once."""
    scores, decisions = scores_and_decisions(model, X)
    mode = "in-domain" if in_domain and "in-domain" in decisions else "model"
    return scores[mode], decisions[mode]


def scores_and_decisions(model, X) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """(N,) positive-class scores and (N,) predictions per decision mode: ``"model"`` (the
    model's own scores and threshold, for new text) and, for an ensemble with an in-domain
    rule, ``"in-domain"`` (``ProbabilityEnsemble.in_domain_threshold`` on its
    ``in_domain_posterior``); the pipeline's transforms (kernel blocks, similarity features)
    and an ensemble's members run only once."""
    final, Xt = model, X
    if hasattr(model, "steps"):   # a Pipeline (scikit-learn's, or relx's predictor of one)
        final = model.steps[-1][1]
        if len(model.steps) > 1:
            Xt = model[:-1].transform(X)
    if hasattr(final, "member_proba") and hasattr(final, "decide"):  # ProbabilityEnsemble
        in_domain = getattr(final, "has_in_domain_rule", False)
        P = final.member_proba(Xt, new_text_only=not in_domain)
        scores = {"model": final.posterior(P)}
        decisions = {"model": final.classes_[final.decide(P)]}
        if in_domain:
            scores["in-domain"] = final.in_domain_posterior(P)
            decisions["in-domain"] = final.classes_[final.decide(P, in_domain=True)]
        return scores, decisions
    return {"model": positive_scores(final, Xt)}, {"model": final.predict(Xt)}


def binary_metrics(y: np.ndarray, pred: np.ndarray, score: np.ndarray) -> dict[str, float]:
    p, r, f, _ = precision_recall_fscore_support(y, pred, average="binary", zero_division=0)
    auc = float(roc_auc_score(y, score)) if len(np.unique(y)) == 2 else float("nan")
    return {"precision": float(p), "recall": float(r), "f1": float(f), "roc_auc": auc,
            "tp": int(((pred == 1) & (y == 1)).sum()), "fp": int(((pred == 1) & (y == 0)).sum()),
            "fn": int(((pred == 0) & (y == 1)).sum())}


def f1_interval(y: np.ndarray, pred: np.ndarray, groups: Sequence[str], n_boot: int = 2000,
                level: float = 0.95, seed: int = 0) -> list[float]:
    """Percentile bootstrap interval [lo, hi] of F1 over documents: ``n_boot`` resamples of
    the test documents with replacement (pairs of one document move together, as they are
    not independent), F1 of each resample's pooled TP/FP/FN."""
    _, doc = np.unique(np.asarray(groups), return_inverse=True)
    y, pred = np.asarray(y).astype(bool), np.asarray(pred).astype(bool)
    n_docs = int(doc.max()) + 1 if len(doc) else 0
    if n_docs == 0:
        return [float("nan"), float("nan")]
    counts = np.stack([np.bincount(doc, weights=(pred & y), minlength=n_docs),
                       np.bincount(doc, weights=(pred & ~y), minlength=n_docs),
                       np.bincount(doc, weights=(~pred & y), minlength=n_docs)], axis=1)
    draws = np.random.default_rng(seed).multinomial(n_docs, np.full(n_docs, 1 / n_docs),
                                                     size=n_boot)
    tp, fp, fn = (draws @ counts).T
    denom = 2 * tp + fp + fn
    f1 = np.divide(2 * tp, denom, out=np.zeros_like(tp), where=denom > 0)
    a = (1 - level) / 2
    return [float(np.quantile(f1, a)), float(np.quantile(f1, 1 - a))]


def fit_predict(cfg: dict[str, Any], train: Sequence[PairInstance], test: Sequence[PairInstance],
                seed: int, in_domain: bool = False) -> dict[str, Any]:
    """Fit the configured pipeline on ``train``; metrics and timings on ``test``.

    ``in_domain`` (test drawn from the training distribution, as in CV): decide with the
    model's in-domain rule where it has one (``ProbabilityEnsemble.in_domain_threshold``);
    the new-text rule's figures are then kept under ``"new_text_rule"``."""
    pipe = build_pipeline(cfg, random_state=seed)
    y_train, y_test = labels(train), labels(test)
    t0 = time.perf_counter()
    pipe.fit(list(train), y_train)
    t1 = time.perf_counter()
    scores, decisions = scores_and_decisions(pipe, list(test))
    t2 = time.perf_counter()
    new_text = None
    if in_domain and "in-domain" in decisions:
        new_text = decisions["model"].astype(int)
    mode = "in-domain" if new_text is not None else "model"
    pred, score = decisions[mode].astype(int), scores[mode]
    out = binary_metrics(y_test, pred, score)
    out.update(n_train=len(train), n_test=len(test), train_seconds=t1 - t0, predict_seconds=t2 - t1)
    out["decision"] = "in-domain" if new_text is not None else "model"
    out["f1_ci95"] = f1_interval(y_test, pred, [x.document_id for x in test])
    if new_text is not None:
        out["new_text_rule"] = binary_metrics(y_test, new_text, scores["model"])
        out["_pred_new_text"], out["_scores_new_text"] = new_text, scores["model"]
    out["_scores"] = score
    out["_pred"] = pred
    return out


def document_folds(docs: Sequence[Document], k: int, seed: int) -> dict[str, int]:
    """Seeded assignment of documents to k folds (shuffled, then dealt round-robin)."""
    if k < 2:
        raise ConfigError("cross-validation needs at least 2 folds")
    if len(docs) < k:
        raise ConfigError(f"{len(docs)} documents cannot make {k} folds")
    order = np.random.default_rng(seed).permutation(len(docs))
    return {docs[i].id: int(rank % k) for rank, i in enumerate(order)}


def train_test_report(cfg: dict[str, Any], train_docs: Sequence[Document],
                      test_docs: Sequence[Document], seed: int = 0,
                      extra_train: Sequence[Document] = ()) -> dict[str, Any]:
    """Fit on ``train_docs`` (+ ``extra_train``, e.g. silver pairs), score ``test_docs``."""
    res = fit_predict(cfg, pair_instances([*train_docs, *extra_train]),
                      pair_instances(test_docs), seed)
    for key in ("_scores", "_pred", "_pred_new_text", "_scores_new_text"):
        res.pop(key, None)
    return res


def cross_validation_report(cfg: dict[str, Any], docs: Sequence[Document], k: int = 10,
                            seed: int = 0, progress=None, extra_train: Sequence[Document] = ()
                            ) -> tuple[dict[str, Any], dict[str, int]]:
    """k-fold CV by document: per-fold figures, mean ± sd F1 and pooled P/R/F1, decided
    by the model's in-domain rule (``fit_predict``); ``extra_train`` documents join every
    fold's training set and no test set."""
    folds = document_folds(docs, k, seed)
    inst = pair_instances(docs)
    extra = pair_instances(extra_train)
    fold_of = np.array([folds[x.document_id] for x in inst])
    y = labels(inst)
    pooled_pred = np.zeros(len(inst), dtype=int)
    pooled_score = np.zeros(len(inst))
    pooled_new_text = np.zeros(len(inst), dtype=int)
    pooled_score_new_text = np.zeros(len(inst))
    per_fold = []
    for f in range(k):
        test_idx = np.flatnonzero(fold_of == f)
        train_idx = np.flatnonzero(fold_of != f)
        res = fit_predict(cfg, [inst[i] for i in train_idx] + extra,
                          [inst[i] for i in test_idx], seed + f, in_domain=True)
        pooled_pred[test_idx] = res.pop("_pred")
        pooled_new_text[test_idx] = res.pop("_pred_new_text", pooled_pred[test_idx])
        pooled_score[test_idx] = res.pop("_scores")
        pooled_score_new_text[test_idx] = res.pop("_scores_new_text", pooled_score[test_idx])
        res["fold"] = f
        per_fold.append(res)
        if progress is not None:
            progress(f, res)
    f1s = np.array([r["f1"] for r in per_fold])
    report = {
        "folds": per_fold,
        "f1_mean": float(f1s.mean()), "f1_std": float(f1s.std(ddof=1)),
        "pooled": binary_metrics(y, pooled_pred, pooled_score),
        "n_train": int(np.mean([r["n_train"] for r in per_fold])), "n_test": len(inst),
        "train_seconds": float(sum(r["train_seconds"] for r in per_fold)),
        "predict_seconds": float(sum(r["predict_seconds"] for r in per_fold)),
    }
    doc_ids = [x.document_id for x in inst]
    report["pooled"]["f1_ci95"] = f1_interval(y, pooled_pred, doc_ids)
    if any("new_text_rule" in r for r in per_fold):
        report["new_text_rule"] = binary_metrics(y, pooled_new_text, pooled_score_new_text)
        report["new_text_rule"]["f1_ci95"] = f1_interval(y, pooled_new_text, doc_ids)
    for key in ("precision", "recall", "f1", "roc_auc", "f1_ci95"):
        report[key] = report["pooled"][key]
    report["roc_auc"] = float(np.mean([r["roc_auc"] for r in per_fold]))
    return report, folds


def write_json(obj: Any, path: str | Path) -> None:
    with atomic_open(path) as fh:
        json.dump(obj, fh, indent=2, sort_keys=False, default=str)
        fh.write("\n")
