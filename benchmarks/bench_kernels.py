"""Path-kernel throughput on AIMed shortest paths: compiled (1 core, all cores) vs pure Python;
tree-kernel throughput on AIMed dependency subtrees (1 core, ``configs/ppi-klsh-rf-tree.toml``);
training seconds on all of BioInfer for KLSH-RF, ``configs/ppi-best.toml`` and the SVM on
the full precomputed Gram matrix (``configs/ppi-svm.toml``; ``--no-svm`` skips it).

Run ``python benchmarks/bench_kernels.py``; the last line printed is a JSON object. The data
directory is ``$RELX_DATA`` or ``../shared`` relative to the repository root. The best config
needs the EigenWord vectors ``runs/vectors/eigenwords.npz`` (``make vectors``); when they are
missing they are built first, as ``relx train-vectors`` does (about a minute; not timed).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import numba
import numpy as np

from lab.kernel_reference import dp_kernel, structure_tuples
from relx.io import read_ppi_xml
from relx.kernels import PathKernelParams, path_gram, self_kernels
from relx.kernels.tree import TreeKernelParams, tree_gram
from relx.structures import (
    EncodedStructures,
    EncodedTrees,
    StructureEncoder,
    dependency_subtree,
    shortest_path,
)

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = ROOT / "configs"


def data_dir() -> Path:
    """The shared data directory (``$RELX_DATA`` or ``<repo>/../shared``)."""
    return Path(os.environ.get("RELX_DATA", ROOT.parent / "shared"))


def aimed_paths() -> EncodedStructures:
    """Shortest dependency paths of every AIMed ``<pair>`` (N structures)."""
    path = data_dir() / "corpora" / "ppi" / "AImed-learning-format.xml.gz"
    structs = [shortest_path(s, s.entity(r.arg1), s.entity(r.arg2))
               for doc in read_ppi_xml(path) for s in doc.sentences for r in s.relations]
    return StructureEncoder().encode(structs)


def aimed_subtrees(children: str = "none") -> EncodedTrees:
    """Dependency subtrees (LCA-rooted) of every AIMed ``<pair>``."""
    path = data_dir() / "corpora" / "ppi" / "AImed-learning-format.xml.gz"
    trees = [dependency_subtree(s, s.entity(r.arg1), s.entity(r.arg2), children=children)
             for doc in read_ppi_xml(path) for s in doc.sentences for r in s.relations]
    return StructureEncoder().encode_trees(trees)


def tree_settings(config: Path = ROOT / "configs" / "ppi-klsh-rf-tree.toml"
                  ) -> tuple[TreeKernelParams, str]:
    """Tree-kernel parameters and ``subtree_children`` of a tree config."""
    import tomllib

    cfg = tomllib.loads(config.read_text())
    tk = next(v for v in cfg.values() if isinstance(v, dict) and v.get("component") == "tree_kernel")
    ex = next(v for v in cfg.values()
              if isinstance(v, dict) and v.get("component") == "tree_structure_extractor")
    params = TreeKernelParams(**{k: tk[k] for k in ("lam", "w_lemma", "w_pos", "edge_mismatch")
                                 if k in tk})
    return params, ex.get("subtree_children", "none")


def _time_block(A: EncodedStructures, B: EncodedStructures, params: PathKernelParams,
                n_jobs: int, min_seconds: float = 3.0, gram=path_gram) -> float:
    """Unnormalised N x M block evaluations per second (best of repeats within min_seconds)."""
    best, spent = np.inf, 0.0
    while spent < min_seconds or best == np.inf:
        t = time.perf_counter()
        gram(A, B, params, normalize=False, n_jobs=n_jobs)
        dt = time.perf_counter() - t
        best, spent = min(best, dt), spent + dt
    return len(A) * len(B) / best


def kernel_figures(params: PathKernelParams = PathKernelParams(), block: int = 2000,
                   n_pure: int = 2000, seed: int = 0, verbose: bool = True) -> dict:
    """Path-kernel throughput figures on AIMed shortest paths (see module docstring)."""
    say = print if verbose else (lambda *a, **k: None)
    load = os.getloadavg()[0]  # other work on the machine lowers the all-core figure
    t = time.perf_counter()
    X = aimed_paths()
    lens = np.diff(X.offsets)
    say(f"AIMed: {len(X)} shortest paths, mean length {lens.mean():.2f}, max {lens.max()} "
        f"({time.perf_counter() - t:.1f} s to read and build)")
    rng = np.random.default_rng(seed)
    perm = rng.permutation(len(X))
    nb = min(block, len(X) // 2)
    A, B = X.subset(perm[:nb]), X.subset(perm[nb:2 * nb])

    t = time.perf_counter()
    path_gram(A[:8], B[:8], params, normalize=False, n_jobs=1)  # JIT / cache load
    self_kernels(A[:8], params)
    say(f"warm-up (JIT or cache load): {time.perf_counter() - t:.2f} s")

    n_all = numba.config.NUMBA_NUM_THREADS
    one = _time_block(A, B, params, n_jobs=1)
    say(f"compiled, 1 core : {one:,.0f} kernel evals/s ({nb} x {nb} block)")
    allc = _time_block(A, B, params, n_jobs=-1)
    say(f"compiled, {n_all} cores: {allc:,.0f} kernel evals/s")

    S = [structure_tuples(X, i) for i in range(len(X))]
    pairs = rng.integers(0, len(X), size=(n_pure, 2))
    t = time.perf_counter()
    for i, j in pairs:
        dp_kernel(S[i], S[j], params)
    pure = n_pure / (time.perf_counter() - t)
    say(f"pure-Python DP   : {pure:,.0f} kernel evals/s ({n_pure} random pairs)")
    say(f"speedup (1 core compiled / pure Python): {one / pure:,.0f}x")

    tparams, children = tree_settings()
    T = aimed_subtrees(children)
    sizes = np.diff(T.offsets)
    TA, TB = T.subset(perm[:nb]), T.subset(perm[nb:2 * nb])
    tree_gram(TA[:8], TB[:8], tparams, normalize=False, n_jobs=1)  # JIT / cache load
    tree_one = _time_block(TA, TB, tparams, n_jobs=1, gram=tree_gram)
    say(f"tree kernel, 1 core: {tree_one:,.0f} kernel evals/s ({nb} x {nb} block; subtrees "
        f"with children={children!r}, mean {sizes.mean():.2f} nodes, max {sizes.max()})")
    return {
        "n_structures": len(X),
        "mean_path_length": round(float(lens.mean()), 3),
        "kernel_params": {"lam": params.lam, "p": params.p, "w_lemma": params.w_lemma,
                          "w_pos": params.w_pos, "edge_mismatch": params.edge_mismatch},
        "gram_block": [nb, nb],
        "n_cores": n_all,
        "load_avg_1min_before": round(load, 2),
        "path_kernel_evals_per_s_1core": round(one),
        "path_kernel_evals_per_s_all": round(allc),
        "pure_python_evals_per_s": round(pure, 1),
        "speedup_vs_pure_python": round(one / pure, 1),
        "tree_kernel_evals_per_s_1core": round(tree_one),
        "tree_kernel_params": {"lam": tparams.lam, "w_lemma": tparams.w_lemma,
                               "w_pos": tparams.w_pos, "edge_mismatch": tparams.edge_mismatch,
                               "subtree_children": children},
        "mean_subtree_nodes": round(float(sizes.mean()), 3),
    }


def train_seconds(config: Path, verbose: bool = True) -> float:
    """Wall-clock seconds to fit ``config``'s pipeline on all 9,666 BioInfer pairs (corpus
    parses; a config with a second parse includes relx's parse of the sentences)."""
    from relx.ppi.evaluate import load_corpus
    from relx.registry import build_pipeline, load_config
    from relx.represent.instances import labels, pair_instances

    inst = pair_instances(load_corpus(data_dir() / "corpora" / "ppi" / "BioInfer-learning-format.xml.gz"))
    pipe = build_pipeline(load_config(config), random_state=0)
    t = time.perf_counter()
    pipe.fit(inst, labels(inst))
    dt = time.perf_counter() - t
    if verbose:
        print(f"{config.name} trained on BioInfer, {len(inst)} pairs: {dt:.1f} s")
    return dt


def ensure_vectors(path: Path = ROOT / "runs" / "vectors" / "eigenwords.npz",
                   verbose: bool = True) -> Path:
    """The word vectors the training configs name (``relx.vectors.DEFAULT_VECTORS``), built
    from the corpus text under :func:`data_dir` with ``relx train-vectors``' defaults when
    missing."""
    if path.is_file():
        return path
    from relx.vectors import corpus_sentences, train_vectors

    t = time.perf_counter()
    vectors = train_vectors(corpus_sentences(data_dir()))
    vectors.save(path)
    if verbose:
        print(f"built {path}: {len(vectors)} words ({time.perf_counter() - t:.0f} s, not timed)")
    return path


def training_figures(svm: bool = True) -> dict:
    """Training seconds on BioInfer: KLSH-RF, the best config and (``svm``) the SVM on the
    full precomputed Gram matrix, in one run."""
    ensure_vectors()
    out = {"klsh_rf_train_seconds_bioinfer": round(train_seconds(CONFIGS / "ppi-klsh-rf.toml"), 2),
           "klsh_rf_config": "ppi-klsh-rf.toml",
           "best_train_seconds_bioinfer": round(train_seconds(CONFIGS / "ppi-best.toml"), 2),
           "best_config": "ppi-best.toml"}
    if svm:
        out["svm_train_seconds_bioinfer"] = round(train_seconds(CONFIGS / "ppi-svm.toml"), 2)
    return out


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--no-svm", action="store_true",
                    help="skip the SVM full-Gram training time (about 5 minutes)")
    args = ap.parse_args()
    figures = kernel_figures()
    figures.update(training_figures(svm=not args.no_svm))
    print(json.dumps(figures))
