"""GENIA events on a validation split by *paper* (issue 32, decision 6).

The split of ``lab/experiments/ge_levers.py`` held out GE 2011 train documents, but GE 2013 train
repeats GE 2011 train's five full-text papers under other section ids: 18 of its 19
held-out full-text sections were in the fit, and they scored F1 0.77 against 0.55 for the
abstracts (GE 2011 devel: 0.52 on full text). Here ``lab.ge.tune.split_docs`` holds out
papers (160 abstracts and the 22 sections of PMC-1447668, seed 0), and no edition of a
held-out paper is fitted on. Training recipes:

- ``both``: GE 2011 train + GE 2013 train, ids read once (the shipped recipe);
- ``once``: GE 2013 train's papers that GE 2011 train already has are skipped;
- ``gold11``: GE 2011 train only.

    python -m lab.experiments.ge_paper_split fit both            # -> runs/ge-paper/both (~2 min)
    python -m lab.experiments.ge_paper_split sweep both          # decision grid on the validation papers
    python -m lab.experiments.ge_paper_split score both --tb 0.7 --eb -0.2 --cb 0.4 --w 0.3
                                                     # one point through LabGEExtractor.predict
    python -m lab.experiments.ge_paper_split cv both --config X  # 5-fold by paper over GE 2011 train,
                                                     # the config's own settings (~7 min)
    python -m lab.experiments.ge_paper_split cvsweep both --config X  # the same folds, the decision
                                                     # settings chosen by pooled F1 (GRID)
GE 2011 devel is never read here.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from lab.experiments.ge_levers import GE, line
from lab.ge.extractor import LabGEExtractor
from lab.ge.tune import paper_folds, paper_id, split_docs, sweep, sweep_predictions
from relx.doc import StandoffDocument
from relx.ge.data import GEDoc, cache_path, load_ge
from relx.ge.evaluate import evaluate_events
from relx.registry import load_config

RECIPES = ("both", "once", "gold11")


def load_train(cache_dir: str) -> tuple[list[GEDoc], list[GEDoc]]:
    """GE 2011 train, and GE 2013 train less the documents with a GE 2011 train id."""
    tr11 = load_ge(GE / "2011" / "train", cache_path(cache_dir, GE / "2011" / "train"))
    tr13 = load_ge(GE / "2013" / "train", cache_path(cache_dir, GE / "2013" / "train"),
                   skip_ids={d.id for d in tr11})
    return tr11, tr13


def recipe_fit(recipe: str, tr11: Sequence[GEDoc], tr13: Sequence[GEDoc],
               val: Sequence[GEDoc]) -> list[GEDoc]:
    """The fit documents of ``recipe`` when ``val`` (GE 2011 train documents) is held out."""
    held = {paper_id(d.id) for d in val}
    fit = [d for d in tr11 if paper_id(d.id) not in held]
    if recipe == "gold11":
        return fit
    skip = held if recipe == "both" else {paper_id(d.id) for d in tr11}
    return fit + [d for d in tr13 if paper_id(d.id) not in skip]


def load_split(recipe: str, cache_dir: str) -> tuple[list[GEDoc], list[GEDoc]]:
    """(fit, validation) of ``recipe``; validation: GE 2011 train's held-out papers."""
    tr11, tr13 = load_train(cache_dir)
    _, val = split_docs(tr11, 0.2, 0)
    return recipe_fit(recipe, tr11, tr13, val), val


def _fold_model(job: tuple[str, str, dict[str, Any], int, int]
                ) -> tuple[LabGEExtractor, list[GEDoc]]:
    """The model fitted on all but fold ``k`` of ``n``, and fold ``k``'s documents."""
    recipe, cache_dir, config, k, n = job
    tr11, tr13 = load_train(cache_dir)
    folds = paper_folds(tr11, n, seed=0)
    val = [d for d, f in zip(tr11, folds, strict=True) if f == k]
    model = LabGEExtractor(config).fit(recipe_fit(recipe, tr11, tr13, val))
    print(f"fold {k}: {len(val)} documents ({model.train_seconds_:.0f}s)", flush=True)
    return model, val


def _cv_fold(job: tuple[str, str, dict[str, Any], int, int]) -> list[StandoffDocument]:
    """Fold ``k``'s events (a worker process)."""
    model, val = _fold_model(job)
    return model.predict(val)


GRID = {"trigger_biases": (0.5, 0.7, 0.9), "edge_biases": (-0.3, -0.2, -0.1),
        "klsh_weights": (0.2, 0.3, 0.5), "bindings": ("side",), "cause_biases": (0.3, 0.4, 0.5)}


def _cv_sweep_fold(job: tuple[str, str, dict[str, Any], int, int]
                   ) -> list[tuple[dict[str, Any], list[StandoffDocument]]]:
    """Fold ``k``'s events at every GRID point (a worker process)."""
    model, val = _fold_model(job)
    return list(sweep_predictions(model, val, log=lambda *_: None, **GRID))


def _map_folds(worker: Callable, recipe: str, config: dict[str, Any], cache_dir: str,
               folds: int, jobs: int) -> tuple[list[GEDoc], np.ndarray, list]:
    """GE 2011 train, its paper folds, and ``worker``'s output for each fold."""
    tr11, _ = load_train(cache_dir)
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        parts = pool.map(worker, [(recipe, cache_dir, config, k, folds) for k in range(folds)],
                         chunksize=1)
    return tr11, paper_folds(tr11, folds, seed=0), parts


def _pooled(tr11: Sequence[GEDoc], fold_of: np.ndarray, parts: Sequence[list]
            ) -> tuple[list[StandoffDocument], dict[str, Any], list[float]]:
    """Every document's prediction from its fold, the pooled scores, and each fold's F1."""
    by_id = {p.id: p for part in parts for p in part}
    pred = [by_id[d.id] for d in tr11]
    f1s = [evaluate_events([d.standoff for d, f in zip(tr11, fold_of, strict=True) if f == k],
                           part)["f1"] for k, part in enumerate(parts)]
    return pred, evaluate_events([d.standoff for d in tr11], pred), f1s


def cross_validate_sweep(recipe: str, config: dict[str, Any], cache_dir: str, out: Path,
                         folds: int = 5, jobs: int = 2) -> None:
    """The decision settings chosen by pooled CV F1 over GRID (each fold's model once)."""
    tr11, fold_of, parts = _map_folds(_cv_sweep_fold, recipe, config, cache_dir, folds, jobs)
    rows = []
    for g, (setting, _) in enumerate(parts[0]):
        _, r, f1s = _pooled(tr11, fold_of, [part[g][1] for part in parts])
        rows.append({**setting, "precision": r["precision"], "recall": r["recall"],
                     "f1": r["f1"], "fold_f1": f1s})
    rows.sort(key=lambda r: -r["f1"])
    out.write_text(json.dumps(rows, indent=1))
    for r in rows[:10]:
        print(f"tb={r['trigger_bias']:+.1f} eb={r['edge_bias']:+.1f} cb={r['cause_bias']:.1f} "
              f"w={r['klsh_weight']:.1f} P={r['precision']:.3f} R={r['recall']:.3f} "
              f"F1={r['f1']:.4f} folds " + " ".join(f"{x:.3f}" for x in r["fold_f1"]), flush=True)


def cross_validate(recipe: str, config: dict[str, Any], cache_dir: str, folds: int = 5,
                   jobs: int = 2) -> None:
    """Events of every GE 2011 train document predicted by a model that never saw its paper;
    pooled scores by kind, and each fold's F1."""
    tr11, fold_of, parts = _map_folds(_cv_fold, recipe, config, cache_dir, folds, jobs)
    pred, r, f1s = _pooled(tr11, fold_of, parts)
    report(tr11, pred)
    print(f"pooled F1 {r['f1']:.4f}", flush=True)
    print("per fold F1 " + " ".join(f"{x:.3f}" for x in f1s)
          + f" | mean {np.mean(f1s):.4f} sd {np.std(f1s, ddof=1):.4f}", flush=True)


def kind(doc_id: str) -> str:
    return "full text" if doc_id.startswith("PMC") else "abstracts"


def report(docs: Sequence[GEDoc], pred: list, kind_of: Callable[[str], str] = kind,
           label: str = "") -> None:
    """Scores of ``pred`` against ``docs`` for each document kind (``kind_of``) and all."""
    for k in (*sorted({kind_of(d.id) for d in docs}), None):
        idx = [j for j, d in enumerate(docs) if k is None or kind_of(d.id) == k]
        r = evaluate_events([docs[j].standoff for j in idx], [pred[j] for j in idx])
        print(f"{label}{k or 'all':9} docs={len(idx):3} gold={r['gold']:5} {line(r)}",
              flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cmd", choices=("fit", "sweep", "score", "cv", "cvsweep"))
    ap.add_argument("recipe", choices=RECIPES)
    ap.add_argument("--config", default="configs/ge-events.toml")
    ap.add_argument("--cache-dir", default="runs/events/cache")
    ap.add_argument("--out", default="runs/ge-paper")
    ap.add_argument("--tag", default="", help="model folder suffix (another --config)")
    for k, d in (("tb", 0.7), ("eb", -0.2), ("cb", 0.4), ("w", 0.3)):
        ap.add_argument("--" + k, type=float, default=d)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args(argv)
    if a.cmd == "cv":
        cross_validate(a.recipe, load_config(a.config), a.cache_dir, a.folds, a.jobs)
        return 0
    if a.cmd == "cvsweep":
        cross_validate_sweep(a.recipe, load_config(a.config), a.cache_dir,
                             Path(a.out) / f"cvsweep-{a.recipe}{a.tag}.json", a.folds, a.jobs)
        return 0
    fit, val = load_split(a.recipe, a.cache_dir)
    path = Path(a.out) / (a.recipe + a.tag)
    print(f"{a.recipe}: {len(fit)} fit documents, {len(val)} validation documents", flush=True)
    if a.cmd == "fit":
        LabGEExtractor(load_config(a.config)).fit(fit, verbose=True).save(path)
        return 0
    model = LabGEExtractor.load(path)
    if a.cmd == "sweep":
        rows = sweep(model, val, (0.5, 0.6, 0.7, 0.8, 0.9), (-0.3, -0.2, -0.1, 0.0),
                     (0.3, 0.5), ("side",), (0.3, 0.4, 0.5))
        (path / "sweep.json").write_text(json.dumps(rows, indent=1))
        best = max(rows, key=lambda r: r["f1"])
        print("best", {k: best[k] for k in ("trigger_bias", "edge_bias", "cause_bias",
                                             "klsh_weight", "f1")})
        return 0
    model.triggers.none_bias, model.edges.none_bias = a.tb, a.eb
    model.edges.cause_bias, model.edges.klsh_weight = a.cb, a.w
    report(val, model.predict(val))
    return 0


if __name__ == "__main__":
    sys.exit(main())
