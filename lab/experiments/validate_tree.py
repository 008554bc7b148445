"""Choose the tree-kernel KLSH-RF settings on validation data only (never AIMed<->BioInfer).

Same protocol as the path kernel's settings (docs/results.md, "How settings were chosen"):
mean AUC (and F1) over AIMed->IEPA, BioInfer->IEPA and 10% document validation splits of
AIMed and BioInfer (fold 0 of the seed-0 10-fold document split). Every variant starts from
``configs/ppi-klsh-rf.toml``, the path kernel replaced by the tree kernel.

    python -m lab.experiments.validate_tree --out runs/tree/validation.jsonl [--grid stage1]

One JSON line per (variant, task); existing lines are skipped, so the run can be resumed.
"""

from __future__ import annotations

import argparse
import copy
import json
import time
from pathlib import Path

from relx.ppi.evaluate import document_folds, fit_predict, load_corpus
from relx.registry import load_config
from relx.represent.instances import pair_instances

ROOT = Path(__file__).resolve().parents[2]
PPI = ROOT.parent / "shared" / "corpora" / "ppi"
FILES = {"AIMed": "AImed", "BioInfer": "BioInfer", "IEPA": "IEPA"}


def variant(children: str = "none", lam: float = 0.5, edge_mismatch: float = 0.0,
            with_sequence: bool = True, with_path: bool = False, baseline: bool = False) -> dict:
    """The path-kernel config with the tree kernel instead (``with_path``: as well;
    ``baseline``: unchanged)."""
    cfg = copy.deepcopy(load_config(ROOT / "configs" / "ppi-klsh-rf.toml"))
    if baseline:
        return cfg
    cfg["structures"] = {"component": "tree_structure_extractor",
                         "structures": ["subtree", *(["path"] if with_path else []),
                                        *(["sequence"] if with_sequence else [])],
                         "window": cfg["structures"].get("window", 3),
                         "subtree_children": children}
    path_kernel = cfg.pop("path_kernel")
    cfg["tree_kernel"] = {"component": "tree_kernel", "structure": "subtree", "lam": lam,
                          "w_lemma": 0.5, "w_pos": 0.1, "edge_mismatch": edge_mismatch}
    if with_path:
        cfg["path_kernel"] = path_kernel
    if with_sequence or with_path:
        cfg["kernel"]["kernels"] = ["tree_kernel", *(["path_kernel"] if with_path else []),
                                    *(["sequence_kernel"] if with_sequence else [])]
    if not with_sequence:
        del cfg["sequence_kernel"]
    if not (with_sequence or with_path):
        cfg["klsh"]["kernel"] = "tree_kernel"
        del cfg["kernel"]
    return cfg


GRIDS = {
    "stage1": [dict(baseline=True)] + [dict(children=c, lam=0.5, edge_mismatch=em, with_sequence=s)
               for s in (True, False) for c in ("none", "entities", "all") for em in (0.0, 1.0)],
}


def tasks(docs: dict) -> list[tuple[str, list, list]]:
    out = []
    for name in ("AIMed", "BioInfer"):
        folds = document_folds(docs[name], 10, 0)
        inst = pair_instances(docs[name])
        out.append((f"{name}-val", [x for x in inst if folds[x.document_id] != 0],
                    [x for x in inst if folds[x.document_id] == 0]))
    iepa = pair_instances(docs["IEPA"])
    out += [(f"{name}->IEPA", pair_instances(docs[name]), iepa) for name in ("AIMed", "BioInfer")]
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "runs" / "tree" / "validation.jsonl")
    ap.add_argument("--grid", default="stage1")
    ap.add_argument("--variant", action="append", default=[],
                    help="extra variant as JSON, e.g. '{\"children\": \"all\", \"lam\": 0.8, "
                         "\"edge_mismatch\": 1.0, \"with_sequence\": true}'")
    args = ap.parse_args(argv)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    done = set()
    if args.out.exists():
        for line in args.out.read_text().splitlines():
            r = json.loads(line)
            done.add((json.dumps(r["variant"], sort_keys=True), r["task"]))
    docs = {k: load_corpus(PPI / f"{v}-learning-format.xml.gz") for k, v in FILES.items()}
    todo = ([] if args.variant else GRIDS[args.grid]) + [json.loads(v) for v in args.variant]
    for var in todo:
        cfg = variant(**var)
        for task, train, test in tasks(docs):
            key = (json.dumps(var, sort_keys=True), task)
            if key in done:
                continue
            t = time.perf_counter()
            res = fit_predict(cfg, train, test, seed=0)
            res.pop("_scores"), res.pop("_pred")
            row = {"variant": var, "task": task, **res, "wall_seconds": time.perf_counter() - t}
            print(json.dumps(row), flush=True)
            with args.out.open("a") as fh:
                fh.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
