"""GE event extraction from the repository: ``python -m lab.ge evaluate|train|predict|tune``.

``evaluate``/``train``/``predict`` call relx's :mod:`relx.ge.cli` functions with
:class:`~lab.ge.extractor.LabGEExtractor`, so a config may set the levers that are not
shipped (``relx evaluate|train --task ge-events`` read the shipped settings only);
``tune`` fits on a validation split of the training documents by paper and scores a grid
of decision settings on the rest (:mod:`lab.ge.tune`).

    python -m lab.ge evaluate --config configs/ge-events.toml \
        --train ../shared/corpora/bionlp-st-ge/2011/train --test .../2011/devel \
        --cache-dir runs/events/cache --report runs/events/devel-report.json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lab.ge.extractor import LabGEExtractor
from lab.ge.tune import split_docs, sweep
from relx.ge.cli import _config, _load_dirs, _write_json, evaluate_ge, predict_ge, train_ge

PathLike = str | Path
#: the default decision-settings grid of ``tune``
TUNE_GRID: dict[str, Any] = {
    "trigger_biases": (0.4, 0.6, 0.8), "edge_biases": (-0.1, 0.0), "cause_biases": (0.2, 0.3),
    "klsh_weights": (0.0, 0.5, 1.0), "bindings": ("side", "learned"),
}


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
    cfg = _config(config)
    docs = _load_dirs(train_dirs, cache_dir)
    fit_docs, val_docs = split_docs(docs, fraction, seed)
    model = LabGEExtractor(cfg).fit(fit_docs, verbose=verbose)
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
    ap = argparse.ArgumentParser(prog="python -m lab.ge", description=__doc__.split("\n")[0])
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
        r = evaluate_ge(a.config, a.train, a.test, a.report, a.cache_dir, a.pred_dir, verbose=True,
                        extractor=LabGEExtractor)
        print(json.dumps({k: r[k] for k in ("precision", "recall", "f1", "train_seconds")}))
        for k, v in r["per_type"].items():
            print(f"{k:22s} P={v['precision']:.3f} R={v['recall']:.3f} F={v['f1']:.3f} "
                  f"gold={v['gold']} pred={v['pred']}")
    elif a.cmd == "train":
        print(train_ge(a.config, a.train, a.out, a.cache_dir, verbose=True,
                       extractor=LabGEExtractor))
    elif a.cmd == "tune":
        r = tune_ge(a.config, a.train, a.report, a.cache_dir, a.fraction, a.seed,
                    a.trigger_biases, a.edge_biases, a.klsh_weights, a.bindings.split(","),
                    a.cause_biases, a.save_model)
        print(json.dumps({k: v for k, v in r["best"].items() if k != "per_type"}))
    else:
        paths = predict_ge(a.model, a.input, a.out, a.cache_dir, extractor=LabGEExtractor)
        print(f"wrote {len(paths)} .a2 files to {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
