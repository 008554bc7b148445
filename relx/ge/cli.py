"""GE event extraction commands as plain functions (``relx evaluate|train --task
ge-events``; the repository's ``python -m lab.ge`` also calls them).

``evaluate_ge`` trains on ``train_dirs`` and scores ``test_dir`` (approximate recursive
matching, task 1); ``train_ge`` / ``predict_ge`` save a model and write ``.a2`` files.
Corpus directories hold ``*.txt``/``*.a1`` (and ``*.a2`` for training/testing); parses
can be cached as relx JSONL (``cache_dir``) so repeated runs do not re-parse. ``extractor``:
the :class:`GEExtractor` class to fit or load (a subclass reads more settings).
"""

from __future__ import annotations

import json
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
                verbose: bool = False, *, extractor: type[GEExtractor] = GEExtractor
                ) -> dict[str, Any]:
    """Train on ``train_dirs``, predict ``test_dir``, score with approximate recursive matching.

    Returns ``precision``, ``recall``, ``f1``, ``per_type`` (each type and SVT/BIND/REG/ALL),
    ``strict`` and ``approx_span`` summaries, ``train_seconds``, ``predict_seconds``, counts
    and the config; also written to ``report`` (JSON) and ``.a2`` files to ``pred_dir``.
    """
    cfg = _config(config)
    train = _load_dirs(train_dirs, cache_dir)
    test = _load_dirs([test_dir], cache_dir)
    model = extractor(cfg).fit(train, verbose=verbose)
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
             name: str | None = None, version: str = "0.1.0", *,
             extractor: type[GEExtractor] = GEExtractor) -> Path:
    """Train on ``train_dirs`` and save the model directory ``out`` (``meta.json`` with the
    model's name, version and training data, ``models.skops``, and ``config.toml``)."""
    from datetime import UTC, datetime

    from relx.model_store import to_toml
    from relx.parse.pipeline import DEFAULT_PIPELINE

    cfg = _config(config)
    docs = _load_dirs(train_dirs, cache_dir)
    model = extractor(cfg).fit(docs, verbose=verbose)
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
               cache_dir: PathLike | None = None, *,
               extractor: type[GEExtractor] = GEExtractor) -> list[Path]:
    """Write one ``.a2`` per ``*.txt``/``*.a1`` document of ``input_dir`` into ``out_dir``."""
    model = extractor.load(model_dir)
    docs = load_ge(input_dir, cache_path(cache_dir, input_dir))
    return [write_a2(p, Path(out_dir) / f"{p.id}.a2") for p in model.predict(docs)]
