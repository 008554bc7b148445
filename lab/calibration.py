"""Fitting and reporting relx's calibrated probabilities (:mod:`relx.ppi.calibration`).

The map is fitted on *out-of-fold* scores of the shipped model's own recipe; see
:mod:`relx.ppi.calibration` for what it is and how it was made. Here: the calibrators' fit
(isotonic or Platt), the expected calibration error (ECE, 10 equal-width bins) of
cross-fitted probabilities, the reliability diagram, the results-page section, and the
command line (``make calibration`` runs ``internal`` then ``fit``):

    python -m lab.calibration internal --model runs/calib/ppi-0.18.0 \
        --train AImed.xml.gz --train BioInfer.xml.gz --train IEPA.xml.gz \
        --train runs/silver/ge2011-2013-silver.jsonl --out runs/calib/internal_scores.npz
    python -m lab.calibration oof --config configs/ppi-best.toml \
        --train AIMed.xml.gz --train BioInfer.xml.gz --train IEPA.xml.gz \
        --extra-train runs/silver/ge2011-2013-silver.jsonl --folds 5 --out runs/calib/oof.npz
    python -m lab.calibration fit runs/calib/internal_scores.npz \
        --out models/ppi-default/calibration.json --svg docs/reliability.svg

``internal``: the held-out scores of a trained model's own out-of-fold member probabilities
(``ProbabilityEnsemble.oof_``, combined as the model does; gold rows only), the cheap
alternative to ``oof`` (which re-trains the whole recipe per outer fold: 49 min a fold on
the shared 2-core machine). The rows of ``oof_`` are the training pairs in training order,
so the training files must be given in the order the model was trained on (``make
default-model``). Model format 4 drops ``oof_``: use the model as trained (ppi-default
0.18.0 at commit 50023b9; 0.18.1 is it repacked, scores bitwise equal). Folds for
cross-fitting the calibrator: 5 seeded random document folds.
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from pathlib import Path
from typing import Any

import numpy as np

from relx.errors import ConfigError
from relx.io.atomic import atomic_open
from relx.ppi.calibration import CALIBRATION_FILE, METHODS, MODES, Calibrator, _logit

log = logging.getLogger(__name__)


def fit_calibrator(scores: np.ndarray, y: np.ndarray, method: str = "isotonic") -> Calibrator:
    """Fit a :class:`Calibrator` on (N,) scores and (N,) 0/1 labels."""
    scores, y = np.asarray(scores, float), np.asarray(y).astype(int)
    if method == "isotonic":
        from sklearn.isotonic import IsotonicRegression

        iso = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip").fit(scores, y)
        return Calibrator("isotonic", x=iso.X_thresholds_.tolist(), y=iso.y_thresholds_.tolist())
    if method == "platt":
        from sklearn.linear_model import LogisticRegression

        lr = LogisticRegression(C=1e4).fit(_logit(scores)[:, None], y)
        return Calibrator("platt", a=float(lr.coef_[0, 0]), b=float(lr.intercept_[0]))
    raise ConfigError(f"method must be one of {METHODS}, not {method!r}")


def expected_calibration_error(p: np.ndarray, y: np.ndarray, bins: int = 10) -> float:
    """ECE: Σ_b (n_b / N) |mean(y_b) - mean(p_b)| over ``bins`` equal-width bins of p."""
    p, y = np.asarray(p, float), np.asarray(y, float)
    idx = np.minimum((p * bins).astype(int), bins - 1)
    err = 0.0
    for b in range(bins):
        m = idx == b
        if m.any():
            err += m.sum() / len(p) * abs(y[m].mean() - p[m].mean())
    return float(err)


def reliability_table(p: np.ndarray, y: np.ndarray, bins: int = 10) -> list[dict[str, float]]:
    """Per equal-width bin of p: ``lo``, ``hi``, ``n``, mean predicted ``p``, observed ``rate``."""
    p, y = np.asarray(p, float), np.asarray(y, float)
    idx = np.minimum((p * bins).astype(int), bins - 1)
    return [{"lo": b / bins, "hi": (b + 1) / bins, "n": int((idx == b).sum()),
             "p": float(p[idx == b].mean()), "rate": float(y[idx == b].mean())}
            for b in range(bins) if (idx == b).any()]


def cross_fitted(scores: np.ndarray, y: np.ndarray, folds: np.ndarray, method: str
                 ) -> np.ndarray:
    """(N,) probabilities of each fold's scores from a calibrator fitted on the other folds."""
    out = np.zeros(len(scores))
    for f in np.unique(folds):
        m = folds == f
        out[m] = fit_calibrator(scores[~m], y[~m], method)(scores[m])
    return out


def _log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def calibration_report(scores: np.ndarray, y: np.ndarray, folds: np.ndarray) -> dict[str, Any]:
    """Per method: cross-fitted ECE, Brier score and log loss; and the raw scores' ECE."""
    out: dict[str, Any] = {"raw": {"ece": expected_calibration_error(scores, y),
                                   "brier": float(np.mean((scores - y) ** 2)),
                                   "log_loss": _log_loss(scores, y)}}
    for method in METHODS:
        p = cross_fitted(scores, y, folds, method)
        out[method] = {"ece": expected_calibration_error(p, y),
                       "brier": float(np.mean((p - y) ** 2)), "log_loss": _log_loss(p, y)}
    return out


def reliability_svg(curves: dict[str, list[dict[str, float]]], size: int = 360) -> str:
    """SVG reliability diagram: per curve (name -> :func:`reliability_table` rows), observed
    positive rate against mean predicted probability per bin (dot area ~ bin size), with
    the diagonal of perfect calibration."""
    from xml.sax.saxutils import escape

    pad, legend = 40, 18 * len(curves) + 8
    w, h = size + 2 * pad, size + 2 * pad + legend
    colours = ["#999999", "#1f77b4", "#d62728", "#2ca02c"]

    def xy(p: float, r: float) -> tuple[float, float]:
        return pad + p * size, pad + (1 - r) * size

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="11">',
           '<rect width="100%" height="100%" fill="white"/>',
           f'<rect x="{pad}" y="{pad}" width="{size}" height="{size}" fill="none" '
           'stroke="#888"/>',
           f'<line x1="{pad}" y1="{pad + size}" x2="{pad + size}" y2="{pad}" stroke="#bbb" '
           'stroke-dasharray="4 3"/>']
    for t in (0.25, 0.5, 0.75, 1.0):
        x, y = xy(t, t)
        out.append(f'<text x="{x}" y="{pad + size + 14}" text-anchor="middle" '
                   f'fill="#666">{t:g}</text>')
        out.append(f'<text x="{pad - 6}" y="{y + 4}" text-anchor="end" fill="#666">{t:g}</text>')
    out.append(f'<text x="{pad + size / 2}" y="{pad + size + 30}" text-anchor="middle">'
               'predicted probability (bin mean)</text>')
    out.append(f'<text x="12" y="{pad + size / 2}" text-anchor="middle" transform="rotate(-90 '
               f'12 {pad + size / 2})">observed interaction rate</text>')
    total = max((sum(b["n"] for b in rows) for rows in curves.values()), default=1)
    for k, (name, rows) in enumerate(curves.items()):
        c = colours[k % len(colours)]
        pts = [xy(b["p"], b["rate"]) for b in rows]
        out.append('<polyline fill="none" stroke="{}" stroke-width="1.5" points="{}"/>'.format(
            c, " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)))
        for (x, y), b in zip(pts, rows, strict=True):
            r = 2 + 10 * (b["n"] / total) ** 0.5
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{c}" '
                       f'fill-opacity="0.5"><title>{escape(name)}: {b["n"]} pairs, predicted '
                       f'{b["p"]:.3f}, observed {b["rate"]:.3f}</title></circle>')
        ly = pad + size + 44 + 18 * k
        out.append(f'<line x1="{pad}" y1="{ly}" x2="{pad + 20}" y2="{ly}" stroke="{c}" '
                   'stroke-width="3"/>')
        out.append(f'<text x="{pad + 26}" y="{ly + 4}">{escape(name)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def render_results(runs: Path, model_dir: Path = Path("models/ppi-default"),
                   svg: str = "reliability.svg") -> list[str]:
    """Markdown lines for docs/results.md: the relation negation / speculation detector on GE
    2011 devel (``runs/hedging-devel.json``, ``python -m lab.hedging evaluate``) and the
    shipped model's calibration (``calibration.json`` and the reliability diagram ``svg``)."""
    lines: list[str] = []
    hedging = runs / "hedging-devel.json"
    if hedging.exists():
        r = json.loads(hedging.read_text(encoding="utf-8"))
        lines += ["## Negated and speculated relations (GE 2011 devel)", "",
                  f"{r['n_relations']} gold-protein pairs connected by gold events (relx's parse); "
                  "a pair is negated / speculated when a connecting event carries the "
                  "modification. Detector: `relx/data/hedging.json.gz` (trained on GE 2011 + 2013 "
                  "train, `make hedging`); path flag: "
                  "`relx.represent.pair_features.negated_pair`.", "",
                  "| | gold | detector P | R | F1 | path flag P | R | F1 |",
                  "|---|---|---|---|---|---|---|---|"]
        for t in ("negated", "speculated"):
            d, f = r["detector"][t], r["path_flag"][t]
            lines.append(f"| {t} | {d['n_gold']} | {d['precision']:.3f} | {d['recall']:.3f} | "
                         f"**{d['f1']:.3f}** | {f['precision']:.3f} | {f['recall']:.3f} | "
                         f"{f['f1']:.3f} |")
        lines.append("")
    cal = model_dir / CALIBRATION_FILE
    if cal.exists():
        c = json.loads(cal.read_text(encoding="utf-8"))
        on = c["fitted_on"]
        lines += ["## Calibrated probabilities (models/ppi-default)", "",
                  f"`probability` = {c['calibrators']['new_text']['method']} map of the score, "
                  f"fitted on {on['n_pairs']} gold training pairs ({on['n_positive']} positive): "
                  f"{on['scores']}. Expected calibration error (10 bins, cross-fitted over 5 "
                  f"document folds): **{c['ece_cross_fitted']['new_text']:.4f}** (the score "
                  f"itself: {c['ece_raw_score']['new_text']:.4f}).", "",
                  f"![reliability diagram]({svg})", ""]
    return lines


# --- out-of-fold scores of the full recipe ---------------------------------------------------

def oof_scores(cfg: dict[str, Any], gold_docs: list, extra_docs: list, k: int = 5,
               seed: int = 0, progress=None) -> dict[str, np.ndarray]:
    """Held-out scores of every gold pair: k document folds, the recipe trained on the other
    folds + ``extra_docs`` (seed ``seed`` in every fold, as the shipped model). Returns
    (N,) arrays ``new_text``, ``in_domain`` (scores), ``y``, ``fold``, ``document``."""
    from relx.ppi.evaluate import document_folds, fit_predict
    from relx.represent.instances import labels, pair_instances

    folds = document_folds(gold_docs, k, seed)
    inst = pair_instances(gold_docs)
    extra = pair_instances(extra_docs)
    fold_of = np.array([folds[x.document_id] for x in inst])
    new_text, in_domain = np.zeros(len(inst)), np.zeros(len(inst))
    for f in range(k):
        te, tr = np.flatnonzero(fold_of == f), np.flatnonzero(fold_of != f)
        res = fit_predict(cfg, [inst[i] for i in tr] + extra, [inst[i] for i in te], seed,
                          in_domain=True)
        in_domain[te] = res["_scores"]
        new_text[te] = res.get("_scores_new_text", res["_scores"])
        if progress is not None:
            progress(f, res)
    return {"new_text": new_text, "in_domain": in_domain, "y": labels(inst), "fold": fold_of,
            "document": np.array([x.document_id for x in inst])}


def _cmd_oof(args: argparse.Namespace) -> None:
    from relx.io import read_jsonl
    from relx.ppi.evaluate import load_corpus
    from relx.registry import load_config

    cfg = load_config(args.config)
    gold = [d for p in args.train for d in load_corpus(p, "relx")]
    extra = [d for p in args.extra_train or [] for d in read_jsonl(p)]
    t0 = time.perf_counter()

    def progress(f: int, res: dict) -> None:
        log.info("fold %d: %d train, %d test pairs, AUC %.3f, %.0f s train, elapsed %.0f s",
                 f, res["n_train"], res["n_test"], res["roc_auc"], res["train_seconds"],
                 time.perf_counter() - t0)

    out = oof_scores(cfg, gold, extra, args.folds, args.seed, progress)
    meta = {"config": str(args.config), "train": [Path(p).name for p in args.train],
            "extra_train": [Path(p).name for p in args.extra_train or []],
            "folds": args.folds, "seed": args.seed, "seconds": round(time.perf_counter() - t0)}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    with atomic_open(args.out, "wb") as fh:
        np.savez(fh, meta=json.dumps(meta), **out)
    log.info("saved %s", args.out)


def internal_scores(model_dir: str | Path, train: list[str], folds: int = 5
                    ) -> dict[str, Any]:
    """Held-out scores of the gold training pairs from the trained model's stored out-of-fold
    member probabilities (see the module docstring): arrays ``new_text``, ``y``, ``fold``,
    ``document`` and the ``meta`` dict."""
    from relx.ppi.evaluate import load_corpus
    from relx.ppi.model import load_model
    from relx.represent.instances import labels, pair_instances

    docs = [d for p in train for d in load_corpus(p)]
    inst = pair_instances(docs)
    model = load_model(model_dir)
    ens = model.pipeline.steps[-1][1]
    if getattr(ens, "oof_", None) is None:
        raise SystemExit(f"{model_dir}: saved without oof_ (model format 4 drops it); use the "
                         "model as `relx train` saved it, e.g. ppi-default 0.18.0 from git "
                         "(50023b9), whose scores 0.18.1 repacks bitwise-equal")
    if len(inst) != len(ens.oof_):
        raise SystemExit(f"{len(inst)} training pairs, the model has {len(ens.oof_)} rows")
    y = labels(inst)
    gold = np.array([not x.relation.silver for x in inst])
    q = ens.posterior(ens.oof_)
    doc = np.array([x.document_id for x in inst])
    _, g = np.unique(doc, return_inverse=True)
    fold = np.random.RandomState(0).permutation(g.max() + 1)[g] % folds
    meta = {"source": f"{model.name} {model.version}: its ensemble's stored 3-fold document "
                      "out-of-fold member probabilities (oof_) combined as the model does",
            "train": [Path(p).name for p in train], "folds": folds, "seed": 0}
    return {"new_text": q[gold], "y": y[gold], "fold": fold[gold], "document": doc[gold],
            "meta": meta}


def _cmd_internal(args: argparse.Namespace) -> None:
    out = internal_scores(args.model, args.train, args.folds)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    with atomic_open(args.out, "wb") as fh:
        np.savez(fh, **{**out, "meta": json.dumps(out["meta"])})
    log.info("%d gold pairs -> %s", len(out["y"]), args.out)


def _cmd_fit(args: argparse.Namespace) -> None:
    data = np.load(args.scores)
    meta = json.loads(str(data["meta"]))
    y, folds = data["y"].astype(int), data["fold"]
    modes = [m for m in MODES if m in data.files]
    entries, reports = {}, {}
    for mode in modes:
        s = data[mode]
        rep = calibration_report(s, y, folds)
        cal = fit_calibrator(s, y, args.method)
        rep["chosen"] = args.method
        rep["reliability"] = reliability_table(cross_fitted(s, y, folds, args.method), y)
        entries[mode] = cal.to_json()
        reports[mode] = rep
    obj = {"fitted_on": {**meta, "n_pairs": int(len(y)), "n_positive": int(y.sum()),
                         "scores": "held-out scores of the recipe (new_text: the model's score, "
                                   "in_domain: the in-domain one), gold pairs only"},
           "calibrators": entries,
           "ece_cross_fitted": {m: round(reports[m][args.method]["ece"], 4) for m in modes},
           "ece_raw_score": {m: round(reports[m]["raw"]["ece"], 4) for m in modes}}
    with atomic_open(args.out) as fh:
        json.dump(obj, fh, indent=1)
        fh.write("\n")
    if args.report:
        with atomic_open(args.report) as fh:
            json.dump(reports, fh, indent=1)
    if args.svg:
        p = cross_fitted(data["new_text"], y, folds, args.method)
        with atomic_open(args.svg) as fh:
            fh.write(reliability_svg({"raw score": reliability_table(data["new_text"], y),
                                      f"{args.method}, cross-fitted": reliability_table(p, y)}))
    for mode in modes:
        r = reports[mode]
        print(f"{mode}: ECE raw {r['raw']['ece']:.4f}, isotonic {r['isotonic']['ece']:.4f}, "
              f"platt {r['platt']['ece']:.4f}; Brier raw {r['raw']['brier']:.4f}, isotonic "
              f"{r['isotonic']['brier']:.4f}, platt {r['platt']['brier']:.4f}")


def main(argv: list[str] | None = None) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    ap = argparse.ArgumentParser(prog="python -m lab.calibration", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    o = sub.add_parser("oof", help="held-out scores of the recipe, k-fold by document")
    o.add_argument("--config", required=True)
    o.add_argument("--train", action="append", required=True, help="gold corpus (repeat)")
    o.add_argument("--extra-train", action="append", help="silver JSONL in every fold")
    o.add_argument("--folds", type=int, default=5)
    o.add_argument("--seed", type=int, default=0)
    o.add_argument("--out", required=True)
    i = sub.add_parser("internal", help="held-out scores from a trained model's own oof_")
    i.add_argument("--model", default="models/ppi-default")
    i.add_argument("--train", action="append", required=True,
                   help="training file, in the model's training order (repeat)")
    i.add_argument("--folds", type=int, default=5)
    i.add_argument("--out", required=True)
    f = sub.add_parser("fit", help="fit and store the calibrator from held-out scores")
    f.add_argument("scores")
    f.add_argument("--method", choices=METHODS, default="isotonic")
    f.add_argument("--out", required=True)
    f.add_argument("--report", help="also write the per-method figures here (JSON)")
    f.add_argument("--svg", help="write the reliability diagram here")
    args = ap.parse_args(argv)
    {"oof": _cmd_oof, "internal": _cmd_internal, "fit": _cmd_fit}[args.cmd](args)


if __name__ == "__main__":
    main()
