"""The NER's entity-start bias, chosen on the dev sets (issue 41, round 2b in docs/genes.md).

    python -m lab.genes.ner_bias sweep --model models/relx_bio_sm --genes <gene corpora>
        [--grid 0 0.5 1 1.5 2 2.5 3] [--json runs/ner-bias.json]
    python -m lab.genes.ner_bias write --model <pipeline> --delta D --out <pipeline copy>

spaCy's NER picks greedily among ``B``, ``U`` and ``O`` where no entity is open; ``delta``
is subtracted from the ``O`` action's bias in the output layer, so the tagger opens
entities more readily (inside an entity only ``I``/``L`` are valid: boundaries stay the
model's). ``sweep`` scores the dev sets of ``benchmarks/bench_genes.py`` for every delta
and picks one by the registered rule; ``write`` stores a pipeline with the delta in its
weights (and ``ner_start_bias`` in its meta.json): no runtime code, no cost.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_genes  # noqa: E402

from relx.parse.ner_corpora import famplex_pattern  # noqa: E402

GRID = (0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0)
GE_ADJUSTED_FLOOR = 0.8227 - 0.01   # today's FamPlex-adjusted GE 2011 devel exact F1 - 0.01
RULE_SETS = ("ge11_devel", "bc2gm_devel", "cg_devel")


def output_layer(ner):
    """The NER's output layer (a thinc ``linear`` with one row per action)."""
    n = ner.moves.n_moves
    layers = [m for m in ner.model.walk()
              if m.name == "linear" and m.has_param("b") and m.get_param("b").shape == (n,)]
    if len(layers) != 1:
        raise ValueError(f"expected one output layer of width {n}, found {len(layers)}")
    return layers[0]


def set_start_bias(nlp, delta: float, base: np.ndarray | None = None) -> np.ndarray:
    """Set the ``O`` action's bias to ``base[O] - delta`` (``base``: the layer's bias as
    loaded, returned by the first call); returns ``base``."""
    ner = nlp.get_pipe("ner")
    layer = output_layer(ner)
    if base is None:
        base = np.array(layer.get_param("b"), dtype="float32", copy=True)
    names = [ner.moves.get_class_name(i) for i in range(ner.moves.n_moves)]
    b = base.copy()
    b[names.index("O")] -= delta
    layer.set_param("b", layer.ops.asarray(b))
    return base


def rule_score(r: dict) -> float:
    """Mean exact F1 over BC2GM devel, CG devel and GE 2011 devel (raw)."""
    return sum(r[k]["f1"] for k in RULE_SETS) / len(RULE_SETS)


def choose(results: list[dict]) -> dict | None:
    """The registered rule: adjusted GE F1 at the floor or above, then the best mean (ties:
    the smaller delta, as ``results`` come in grid order)."""
    ok = [r for r in results if r["ge11_devel_famplex"]["f1"] >= GE_ADJUSTED_FLOOR]
    return max(ok, key=rule_score) if ok else None


def sweep(a: argparse.Namespace) -> None:
    nlp = bench_genes.load_ner(a.model)
    sets = bench_genes.load_sets(a.shared, a.genes, external=False)
    pattern = famplex_pattern(a.shared / "lexicons" / "famplex")
    base, results = None, []
    for delta in a.grid:
        base = set_start_bias(nlp, delta, base)
        r = bench_genes.score_model(nlp, a.model, sets, pattern)
        r["delta"] = delta
        r["rule_mean_f1"] = round(rule_score(r), 4)
        results.append(r)
        print(f"delta {delta:4.2f}: mean exact F1 {r['rule_mean_f1']:.4f}  " + "  ".join(
            f"{k} {r[k]['f1']:.4f}/{r[k].get('recall_overlap', 0):.4f}"
            for k in ("ge11_devel", "ge11_devel_famplex", "bc2gm_devel", "cg_devel",
                      "craft_devel")), flush=True)
    best = choose(results)
    print("chosen delta:", None if best is None else best["delta"])
    if a.json:
        a.json.write_text(json.dumps({"model": str(a.model), "results": results,
                                      "chosen": None if best is None else best["delta"]},
                                     indent=1))


def write(a: argparse.Namespace) -> None:
    """Copy the pipeline at ``--model`` to ``--out`` with ``--delta`` in its NER weights."""
    import spacy

    from relx.parse.ner import register

    register()
    if a.out.exists():
        shutil.rmtree(a.out)
    shutil.copytree(a.model, a.out)
    nlp = spacy.load(a.model)
    set_start_bias(nlp, a.delta)
    nlp.get_pipe("ner").to_disk(a.out / "ner", exclude=["vocab"])
    meta_path = a.out / "meta.json"
    meta = json.loads(meta_path.read_text())
    meta["ner_start_bias"] = a.delta
    meta_path.write_text(json.dumps(meta, indent=2) + "\n")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("sweep")
    s.add_argument("--model", type=Path, required=True)
    s.add_argument("--genes", type=Path, required=True)
    s.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    s.add_argument("--grid", type=float, nargs="+", default=list(GRID))
    s.add_argument("--json", type=Path)
    w = sub.add_parser("write")
    w.add_argument("--model", type=Path, required=True)
    w.add_argument("--delta", type=float, required=True)
    w.add_argument("--out", type=Path, required=True)
    a = p.parse_args(argv)
    sweep(a) if a.cmd == "sweep" else write(a)


if __name__ == "__main__":
    main()
