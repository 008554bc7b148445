"""GE event extraction commands as plain functions, plus ``python -m relx.ge``.

``evaluate_ge`` trains on ``train_dirs`` and scores ``test_dir`` (approximate recursive
matching, task 1); ``train_ge`` / ``predict_ge`` save a model and write ``.a2`` files;
``tune_ge`` scores decision settings on a validation split of the training documents.
Corpus directories hold ``*.txt``/``*.a1`` (and ``*.a2`` for training/testing); parses
can be cached as relx JSONL (``cache_dir``) so repeated runs do not re-parse.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from relx.ge.data import GEDoc, cache_path, load_ge
from relx.ge.evaluate import evaluate_events
from relx.ge.pipeline import GEExtractor
from relx.io.atomic import atomic_open
from relx.io.standoff import write_a2
from relx.registry import load_config

PathLike = str | Path
#: the default decision-settings grid of ``tune``
TUNE_GRID: dict[str, Any] = {
    "trigger_biases": (0.4, 0.6, 0.8), "edge_biases": (-0.1, 0.0), "cause_biases": (0.2, 0.3),
    "klsh_weights": (0.0, 0.5, 1.0), "bindings": ("side", "learned"),
}


def _config(config: PathLike | dict[str, Any]) -> dict[str, Any]:
    return dict(config) if isinstance(config, dict) else load_config(config)


def _load_dirs(dirs: Sequence[PathLike], cache_dir: PathLike | None) -> list[GEDoc]:
    """The documents of ``dirs``; a document id already read from an earlier directory is
    skipped. (GE 2013 train repeats GE 2011 train's five papers, mostly under other section
    ids: those sections stay, a second edition; skipping them measured no better.)"""
    docs: list[GEDoc] = []
    seen: set[str] = set()
    for d in dirs:
        part = load_ge(d, cache_path(cache_dir, d), skip_ids=seen)
        seen.update(x.standoff.id for x in part)
        docs += part
    return docs


def _write_json(obj: Any, path: PathLike) -> None:
    with atomic_open(path) as fh:
        json.dump(obj, fh, indent=2, default=str)
        fh.write("\n")


def _summary(r: dict[str, Any]) -> dict[str, Any]:
    keys = ("precision", "recall", "f1", "gold", "pred", "gold_match", "pred_match")
    return {k: r[k] for k in keys}


def evaluate_ge(config: PathLike | dict[str, Any], train_dirs: Sequence[PathLike],
                test_dir: PathLike, report: PathLike | None = None,
                cache_dir: PathLike | None = None, pred_dir: PathLike | None = None,
                verbose: bool = False) -> dict[str, Any]:
    """Train on ``train_dirs``, predict ``test_dir``, score with approximate recursive matching.

    Returns ``precision``, ``recall``, ``f1``, ``per_type`` (each type and SVT/BIND/REG/ALL),
    ``strict`` and ``approx_span`` summaries, ``train_seconds``, ``predict_seconds``, counts
    and the config; also written to ``report`` (JSON) and ``.a2`` files to ``pred_dir``.
    """
    cfg = _config(config)
    train = _load_dirs(train_dirs, cache_dir)
    test = _load_dirs([test_dir], cache_dir)
    model = GEExtractor(cfg).fit(train, verbose=verbose)
    t0 = time.perf_counter()
    preds = model.predict(test)
    predict_seconds = time.perf_counter() - t0
    gold = [d.standoff for d in test]
    r = evaluate_events(gold, preds, matching="approx-recursive", task=1)
    out: dict[str, Any] = {
        "task": "ge-events", "matching": "approx-recursive", "ge_task": 1,
        "precision": r["precision"], "recall": r["recall"], "f1": r["f1"],
        "per_type": r["per_type"], "modifications": r.get("modifications"),
        "approx_span": _summary(evaluate_events(gold, preds, matching="approx-span")),
        "strict": _summary(evaluate_events(gold, preds, matching="strict")),
        "train_seconds": model.train_seconds_, "predict_seconds": predict_seconds,
        "n_train_docs": len(train), "n_test_docs": len(test),
        "train": [str(d) for d in train_dirs], "test": str(test_dir), "config": cfg,
    }
    if pred_dir is not None:
        for p in preds:
            write_a2(p, Path(pred_dir) / f"{p.id}.a2")
    if report is not None:
        _write_json(out, report)
    return out


def train_ge(config: PathLike | dict[str, Any], train_dirs: Sequence[PathLike],
             out: PathLike, cache_dir: PathLike | None = None, verbose: bool = False,
             name: str | None = None, version: str = "0.1.0") -> Path:
    """Train on ``train_dirs`` and save the model directory ``out`` (``meta.json`` with the
    model's name, version and training data, ``models.skops``, and ``config.toml``)."""
    from datetime import UTC, datetime

    from relx.model_store import to_toml
    from relx.parse.pipeline import DEFAULT_PIPELINE

    cfg = _config(config)
    docs = _load_dirs(train_dirs, cache_dir)
    model = GEExtractor(cfg).fit(docs, verbose=verbose)
    out = Path(out)
    meta = {"name": name or out.name, "version": version, "task": "ge-events",
            "created": datetime.now(UTC).isoformat(timespec="seconds"),
            "train": [str(d) for d in train_dirs],
            "trained_on": [f"{Path(d).resolve().parent.name}/{Path(d).name}" for d in train_dirs],
            "n_documents": len(docs), "parse_source": f"relx:{DEFAULT_PIPELINE}"}
    path = model.save(out, meta)
    with atomic_open(path / "config.toml") as fh:
        fh.write(Path(config).read_text(encoding="utf-8") if not isinstance(config, dict)
                 else to_toml(cfg))
    return path


def predict_ge(model_dir: PathLike, input_dir: PathLike, out_dir: PathLike,
               cache_dir: PathLike | None = None) -> list[Path]:
    """Write one ``.a2`` per ``*.txt``/``*.a1`` document of ``input_dir`` into ``out_dir``."""
    model = GEExtractor.load(model_dir)
    docs = load_ge(input_dir, cache_path(cache_dir, input_dir))
    return [write_a2(p, Path(out_dir) / f"{p.id}.a2") for p in model.predict(docs)]


def tune_ge(config: PathLike | dict[str, Any], train_dirs: Sequence[PathLike],
            report: PathLike | None = None, cache_dir: PathLike | None = None,
            fraction: float = 0.2, seed: int = 0,
            trigger_biases: Sequence[float] = TUNE_GRID["trigger_biases"],
            edge_biases: Sequence[float] = TUNE_GRID["edge_biases"],
            klsh_weights: Sequence[float] = TUNE_GRID["klsh_weights"],
            bindings: Sequence[str] = TUNE_GRID["bindings"],
            cause_biases: Sequence[float] = TUNE_GRID["cause_biases"], save_model: PathLike | None = None,
            verbose: bool = True) -> dict[str, Any]:
    """Fit on (1 - ``fraction``) of the training documents, sweep settings on the rest
    (``save_model``: also save the model fitted on the split)."""
    from relx.ge.tune import split_docs, sweep

    cfg = _config(config)
    docs = _load_dirs(train_dirs, cache_dir)
    fit_docs, val_docs = split_docs(docs, fraction, seed)
    model = GEExtractor(cfg).fit(fit_docs, verbose=verbose)
    if save_model is not None:
        model.save(save_model, {"val_docs": [d.id for d in val_docs]})
    rows = sweep(model, val_docs, trigger_biases, edge_biases, klsh_weights, bindings,
                 cause_biases, log=print if verbose else (lambda *_: None))
    best = max(rows, key=lambda r: r["f1"])
    out = {"best": best, "rows": rows, "train_seconds": model.train_seconds_,
           "n_fit_docs": len(fit_docs), "n_val_docs": len(val_docs),
           "val_docs": [d.id for d in val_docs], "config": cfg}
    if report is not None:
        _write_json(out, report)
    return out


def _floats(s: str) -> list[float]:
    return [float(x) for x in s.split(",")]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m relx.ge", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("evaluate", "train", "tune"):
        p = sub.add_parser(name)
        p.add_argument("--config", default="configs/ge-events.toml")
        p.add_argument("--train", action="append", required=True)
        p.add_argument("--cache-dir")
        if name == "evaluate":
            p.add_argument("--test", required=True)
            p.add_argument("--report")
            p.add_argument("--pred-dir")
        elif name == "train":
            p.add_argument("--out", required=True)
        else:
            p.add_argument("--report")
            p.add_argument("--fraction", type=float, default=0.2)
            p.add_argument("--seed", type=int, default=0)
            for name in ("trigger_biases", "edge_biases", "cause_biases", "klsh_weights"):
                p.add_argument("--" + name.replace("_", "-"), type=_floats,
                               default=list(TUNE_GRID[name]))
            p.add_argument("--bindings", default=",".join(TUNE_GRID["bindings"]))
            p.add_argument("--save-model")
    p = sub.add_parser("predict")
    p.add_argument("--model", required=True)
    p.add_argument("--input", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--cache-dir")
    a = ap.parse_args(argv)
    if a.cmd == "evaluate":
        r = evaluate_ge(a.config, a.train, a.test, a.report, a.cache_dir, a.pred_dir, verbose=True)
        print(json.dumps({k: r[k] for k in ("precision", "recall", "f1", "train_seconds")}))
        for k, v in r["per_type"].items():
            print(f"{k:22s} P={v['precision']:.3f} R={v['recall']:.3f} F={v['f1']:.3f} "
                  f"gold={v['gold']} pred={v['pred']}")
    elif a.cmd == "train":
        print(train_ge(a.config, a.train, a.out, a.cache_dir, verbose=True))
    elif a.cmd == "tune":
        r = tune_ge(a.config, a.train, a.report, a.cache_dir, a.fraction, a.seed,
                    a.trigger_biases, a.edge_biases, a.klsh_weights, a.bindings.split(","),
                    a.cause_biases, a.save_model)
        print(json.dumps({k: v for k, v in r["best"].items() if k != "per_type"}))
    else:
        paths = predict_ge(a.model, a.input, a.out, a.cache_dir)
        print(f"wrote {len(paths)} .a2 files to {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
