"""Trained relation-extraction models on disk: no pickle, a format version, the config.

A model directory holds ``meta.json`` (format version, name, version, task, training data,
figures), ``config.toml`` (the pipeline config it was trained with) and ``pipeline.skops``
(the fitted sklearn pipeline, loaded by skops with an explicit allow-list of types).
"""

from __future__ import annotations

import json
import time
import tomllib
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from relx import __version__
from relx.doc import Document
from relx.io.atomic import atomic_open
from relx.model_store import ModelError, to_toml
from relx.registry import build_pipeline
from relx.represent.instances import PairInstance, labels, pair_instances

# 2: pair-feature vocabularies stored packed (relx.represent.pair_features);
# 3: both tree forests stored as compact arrays (relx.learn.packed_trees), structure
#    vocabularies as UTF-8 bytes (relx.structures.Vocab)
FORMAT_VERSION = 3
READABLE_FORMATS = (1, 2, 3)
DEFAULT_MODEL = "ppi-default"
# relx types a saved pipeline may contain (besides what skops trusts by default)
TRUSTED_TYPES = [
    "relx.kernels.structure.PathKernel", "relx.kernels.structure.SumKernel",
    "relx.learn.forest.RandomSubspaceForest", "relx.learn.kernel_svm.KernelSVM",
    "relx.represent.instances.StructureExtractor", "relx.represent.instances.StructureSet",
    "relx.represent.klsh.KLSHEncoder", "relx.structures.EncodedStructures",
    "relx.structures.StructureEncoder", "relx.structures.Vocab", "sklearn.tree._tree.Tree",
    "relx.kernels.structure.TreeKernel", "relx.structures.EncodedTrees",
    "relx.represent.trees.TreeStructureExtractor",
    "relx.represent.similarity.SimilarityFeatures", "relx.represent.g2p.G2PEmbedding",
    "relx.learn.flda.MSEFLDA", "relx.learn.ensemble.ProbabilityEnsemble",
    "relx.kernels.nonstationary.NonstationaryPathKernel",
    "relx.learn.optimise.MIOptimisedKLSH",
    "relx.represent.pair_features.PairFeatureExtractor",
    "relx.learn.nb_scaling.NaiveBayesScaler",
    "relx.learn.frequent_features.FrequentFeatureSelector",
    "relx.learn.packed_trees.PackedExtraTrees",
    "relx.represent.pair_vectors.PairVectorFeatures",
    "sklearn.ensemble._hist_gradient_boosting.predictor.TreePredictor",
]


IN_DOMAIN = "in-domain"  # threshold choice: the model's in-domain decision rule


@dataclass
class RelationModel:
    """A fitted pipeline plus what is needed to use and describe it."""

    pipeline: Any
    config: dict[str, Any]
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return str(self.meta.get("name", self.config.get("pipeline", {}).get("name", "model")))

    @property
    def version(self) -> str:
        return str(self.meta.get("version", "0"))

    @property
    def threshold(self) -> float:
        """The positive-class score above which a pair is reported."""
        clf = self.pipeline.steps[-1][1]
        t = getattr(clf, "threshold_", getattr(clf, "threshold", 0.5))
        return float(t) if not isinstance(t, str) else 0.5

    @property
    def in_domain_threshold(self) -> float:
        """The threshold for text like the training corpus (an ensemble's
        ``in_domain_threshold_``, on ``scores(..., in_domain=True)``; else ``threshold``)."""
        clf = self.pipeline.steps[-1][1]
        t = getattr(clf, "in_domain_threshold_", None)
        return self.threshold if t is None else float(t)

    def sequential(self) -> RelationModel:
        """Predict in this process only (no joblib worker pools): extraction parallelises
        over documents and processes instead, and pools inside pool workers can deadlock."""
        for _, step in self.pipeline.steps:
            for est in (step, getattr(step, "ensemble_", None)):
                if est is not None and hasattr(est, "n_jobs"):
                    est.n_jobs = 1
        return self

    def scores(self, instances: Sequence[PairInstance], in_domain: bool = False) -> np.ndarray:
        """(N,) positive-class probabilities; ``in_domain``: the ones for text like the
        training corpus (an ensemble's ``in_domain_proba``, where it differs)."""
        if not instances:
            return np.zeros(0)
        clf = self.pipeline.steps[-1][1]
        if in_domain and hasattr(clf, "in_domain_proba"):
            head = self.pipeline[:-1].transform(list(instances)) if len(self.pipeline) > 1 \
                else list(instances)
            return clf.in_domain_proba(head)[:, 1]
        return self.pipeline.predict_proba(list(instances))[:, 1]

    def save(self, path: str | Path) -> Path:
        import skops.io as sio

        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        tmp = path / "pipeline.skops.tmp"
        sio.dump(self.pipeline, tmp, compression=zipfile.ZIP_DEFLATED, compresslevel=6)
        tmp.replace(path / "pipeline.skops")
        with atomic_open(path / "config.toml") as fh:
            fh.write(to_toml(self.config))
        meta = {**self.meta, "format_version": FORMAT_VERSION, "relx_version": __version__}
        with atomic_open(path / "meta.json") as fh:
            json.dump(meta, fh, indent=2)
        return path


def load_model(path: str | Path) -> RelationModel:
    """Load a model directory written by :meth:`RelationModel.save`."""
    import skops.io as sio

    path = Path(path)
    meta_file = path / "meta.json"
    if not meta_file.exists():
        raise ModelError(f"{path}: not a relx model (no meta.json)")
    meta = json.loads(meta_file.read_text())
    if meta.get("format_version") not in READABLE_FORMATS:
        raise ModelError(f"{path}: model format {meta.get('format_version')!r}, this relx reads "
                         f"formats {', '.join(map(str, READABLE_FORMATS))}; retrain with "
                         "`relx train`")
    config = tomllib.loads((path / "config.toml").read_text())
    file = path / "pipeline.skops"
    found = set(sio.get_untrusted_types(file=file))  # audits the whole file: once
    untrusted = found - set(TRUSTED_TYPES)
    if untrusted:
        raise ModelError(f"{file}: refusing to load untrusted types {sorted(untrusted)}")
    pipeline = sio.load(file, trusted=sorted(found))
    release_freed_memory()
    return RelationModel(pipeline, config, meta)


def release_freed_memory() -> None:
    """Hand the heap that loading freed back to the OS (glibc keeps it otherwise).

    skops parses the model's JSON schema into Python objects that are freed once the
    pipeline is built; glibc's allocator keeps those pages (with a 40 MB schema, model
    format 2: ~230 MB right after loading, of which extraction reused most; a process's
    resident memory after 200 GE abstracts 1,001 -> 958 MB; format 3 stores vocabularies
    as byte arrays, and the shipped model's schema is 2.4 MB). No-op where
    ``malloc_trim`` does not exist (macOS, musl, Windows)."""
    import ctypes
    import ctypes.util
    import gc

    gc.collect()
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return
    trim(0)


def train_model(config: dict[str, Any], docs: Sequence[Document], *, name: str,
                version: str = "0.1.0", seed: int | None = None,
                trained_on: Sequence[str] = (), parse_source: str = "") -> RelationModel:
    """Fit the configured pipeline on every candidate pair of ``docs``."""
    seed = int(config["pipeline"].get("seed", 0)) if seed is None else seed
    inst = pair_instances(docs)
    y = labels(inst)
    if len(np.unique(y)) < 2:
        raise ValueError("training data needs both positive and negative pairs")
    pipe = build_pipeline(config, random_state=seed)
    t0 = time.perf_counter()
    pipe.fit(inst, y)
    meta = {"name": name, "version": version, "task": config["pipeline"].get("task", "ppi"),
            "created": datetime.now(UTC).isoformat(timespec="seconds"),
            "trained_on": list(trained_on), "n_train": len(inst), "n_positive": int(y.sum()),
            "n_documents": len(docs), "parse_source": parse_source, "seed": seed,
            "train_seconds": round(time.perf_counter() - t0, 1)}
    return RelationModel(pipe, config, meta)
