"""Trained relation-extraction models on disk: no pickle, a format version, the config.

A model directory holds ``meta.json`` (format version, name, version, task, training data,
figures), ``config.toml`` (the pipeline config it was trained with) and ``pipeline.skops``
(the fitted sklearn pipeline in skops' format, read by :mod:`relx.skops_reader` with an
explicit allow-list of types).
"""

from __future__ import annotations

import io
import json
import time
import zipfile
import zlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from relx import __version__
from relx.doc import Document
from relx.errors import ConfigError
from relx.io.atomic import atomic_open
from relx.model_store import ModelKind, load_skops, read_model_file, to_toml
from relx.registry import build_pipeline
from relx.represent.instances import PairInstance, labels, pair_instances

# 2: pair-feature vocabularies stored packed (relx.represent.pair_features);
# 3: both tree forests stored as compact arrays (relx.learn.packed_trees), structure
#    vocabularies as UTF-8 bytes (relx.structures.Vocab);
# 4: the forests' arrays narrowed (relx.learn.packed_trees.compact_trees), equal arrays
#    stored once, LZMA where it pays (compact_skops), no training-only state (TRAINING_ONLY)
FORMAT_VERSION = 4
READABLE_FORMATS = (1, 2, 3, 4)
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
#: a relation model's folder (:func:`relx.model_store.load_skops`)
RELATION_MODEL = ModelKind("relation model", "pipeline.skops", READABLE_FORMATS)


# fitted state that prediction never reads, left out of saved models (model format 4):
# the ensemble's out-of-fold member probabilities (its combiner's training data)
TRAINING_ONLY = {"relx.learn.ensemble.ProbabilityEnsemble": ("oof_",)}

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
            return clf.in_domain_proba(self._head(instances))[:, 1]
        return self.pipeline.predict_proba(list(instances))[:, 1]

    def _head(self, instances: Sequence[PairInstance]) -> Any:
        """``instances`` through every pipeline step before the classifier."""
        return self.pipeline[:-1].transform(list(instances)) if len(self.pipeline) > 1 \
            else list(instances)

    def scores_above(self, instances: Sequence[PairInstance], below: float) -> np.ndarray:
        """(N,) :meth:`scores` (new text) of every pair that can score above ``below``, NaN
        for a pair settled at or under it without its kernel members (an ensemble's members
        with a :class:`~relx.represent.klsh.KLSHEncoder` step, the costliest per pair: they
        run last, on the unsettled pairs only; :meth:`ProbabilityEnsemble.posterior_above`).
        A model that is no such ensemble scores every pair."""
        from relx.learn.ensemble import ProbabilityEnsemble
        from relx.represent.klsh import predict_proba_rows

        clf = self.pipeline.steps[-1][1]
        if not instances or not isinstance(clf, ProbabilityEnsemble):
            return self.scores(instances)
        deferred = [j for j, e in enumerate(clf.estimators_) if _has_kernel(e)]
        return clf.posterior_above(self._head(instances), below, deferred, predict_proba_rows)

    def save(self, path: str | Path) -> Path:
        """Write the model directory; ``pipeline.skops`` without the training-only state
        prediction never reads (``TRAINING_ONLY``), compacted by :func:`compact_skops`."""
        import skops.io as sio

        from relx.learn.predictors import to_sklearn

        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        pipeline = to_sklearn(self.pipeline)   # a loaded model: scikit-learn's objects again
        with _without_training_state(pipeline):
            data = compact_skops(sio.dumps(pipeline))
        with atomic_open(path / "pipeline.skops", "wb") as fh:
            fh.write(data)
        with atomic_open(path / "config.toml") as fh:
            fh.write(to_toml(self.config))
        meta = {**self.meta, "format_version": FORMAT_VERSION, "relx_version": __version__}
        with atomic_open(path / "meta.json") as fh:
            json.dump(meta, fh, indent=2)
        return path


def _has_kernel(estimator: Any) -> bool:
    """Whether a fitted member hashes structures through a kernel (a KLSH step)."""
    from relx.represent.klsh import KLSHEncoder

    steps = getattr(estimator, "steps", None) or [(None, estimator)]
    return any(isinstance(step, KLSHEncoder) for _, step in steps)


@contextmanager
def _without_training_state(pipeline: Any) -> Iterator[None]:
    """``pipeline`` with the ``TRAINING_ONLY`` attributes of its estimators set aside."""
    from sklearn.base import BaseEstimator

    from relx.estimator import BaseEstimator as RelxEstimator

    kept: list[tuple[Any, str, Any]] = []
    seen: set[int] = set()

    def visit(obj: Any) -> None:
        if id(obj) in seen:
            return
        seen.add(id(obj))
        if isinstance(obj, list | tuple):
            for x in obj:
                visit(x)
        elif isinstance(obj, BaseEstimator | RelxEstimator):
            for attr in TRAINING_ONLY.get(f"{type(obj).__module__}.{type(obj).__name__}", ()):
                if attr in vars(obj):
                    kept.append((obj, attr, vars(obj).pop(attr)))
            for v in vars(obj).values():
                visit(v)

    visit(pipeline)
    try:
        yield
    finally:
        for obj, attr, value in kept:
            setattr(obj, attr, value)


def compact_skops(data: bytes) -> bytes:
    """A skops file rewritten smaller, same contents: each distinct array stored once (equal
    arrays of different objects, e.g. one vocabulary in several pipeline members, are
    separate files in skops' output; the schema then names one file for all of them), and
    each file deflated, or LZMA-compressed where that is at least a fifth smaller (LZMA
    decompresses ~6x slower, so it is kept for the files it shrinks most)."""
    import hashlib
    import lzma

    with zipfile.ZipFile(io.BytesIO(data)) as zin:
        first: dict[bytes, str] = {}
        rename: dict[str, str] = {}
        contents: dict[str, bytes] = {}
        for name in zin.namelist():
            content = zin.read(name)
            if name.endswith(".npy"):
                rename[name] = first.setdefault(hashlib.sha256(content).digest(), name)
                if rename[name] != name:
                    continue
            contents[name] = content
    schema = json.loads(contents.pop("schema.json"))
    _rename_files(schema, rename)
    contents = {"schema.json": json.dumps(schema).encode("utf-8"), **contents}
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zout:
        for name, content in contents.items():
            deflated = len(zlib.compress(content, 6))
            smaller = len(lzma.compress(content)) <= 0.8 * deflated
            zout.writestr(name, content, compresslevel=None if smaller else 6,
                          compress_type=zipfile.ZIP_LZMA if smaller else zipfile.ZIP_DEFLATED)
    return out.getvalue()


def _rename_files(node: Any, rename: dict[str, str]) -> None:
    if isinstance(node, dict):
        if isinstance(node.get("file"), str):
            node["file"] = rename.get(node["file"], node["file"])
        for v in node.values():
            _rename_files(v, rename)
    elif isinstance(node, list):
        for v in node:
            _rename_files(v, rename)


def load_model(path: str | Path) -> RelationModel:
    """Load a model directory written by :meth:`RelationModel.save`."""
    path = Path(path)
    meta, pipeline = load_skops(path, TRUSTED_TYPES, RELATION_MODEL)
    config = read_model_file(path / "config.toml", RELATION_MODEL.name)
    release_freed_memory()
    return RelationModel(pipeline, config, meta)


def release_freed_memory() -> None:
    """Hand the heap that loading freed back to the OS (glibc keeps it otherwise).

    Reading a model parses its JSON schema into Python objects that are freed once the
    pipeline is built; glibc's allocator keeps those pages (with a 40 MB schema, model
    format 2: ~230 MB right after loading, of which extraction reused most; a process's
    resident memory after 200 GE abstracts 1,001 -> 958 MB; format 3 stores vocabularies
    as byte arrays, and the shipped model's schema is 2.4 MB). The schema holds no
    reference cycles, so it is freed without a garbage collection (``gc.collect()`` here
    took 0.15 s and left the resident memory after loading unchanged). No-op where
    ``malloc_trim`` does not exist (macOS, musl, Windows)."""
    import ctypes
    import ctypes.util

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
        raise ConfigError("training data needs both positive and negative pairs")
    pipe = build_pipeline(config, random_state=seed)
    t0 = time.perf_counter()
    pipe.fit(inst, y)
    meta = {"name": name, "version": version, "task": config["pipeline"].get("task", "ppi"),
            "created": datetime.now(UTC).isoformat(timespec="seconds"),
            "trained_on": list(trained_on), "n_train": len(inst), "n_positive": int(y.sum()),
            "n_documents": len(docs), "parse_source": parse_source, "seed": seed,
            "train_seconds": round(time.perf_counter() - t0, 1)}
    return RelationModel(pipe, config, meta)
