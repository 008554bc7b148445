"""The GE event extractor: triggers -> edges -> assembly, configured by a TOML file.

Config sections (see ``configs/ge-events.toml``): ``[triggers]`` (TriggerDetector
parameters), ``[edges]`` (EdgeDetector parameters; ``klsh``/``forest`` name registered
component sections such as ``[edge_klsh]``, ``[edge_forest]``), ``[assembly]``
(``binding`` strategy; ``learned`` trains :class:`~relx.ge.binding.BindingGrouper`) and
``[modifications]`` (``enabled = true``: Negation / Speculation of the assembled events,
:class:`~relx.ge.modifications.ModificationDetector`). The edge detector is trained on gold
triggers.

Saved models are a directory: ``meta.json`` (format version, config, classes) and
``models.skops`` (the fitted scikit-learn parts, loaded with an explicit list of trusted
types, the linear models' weights as :mod:`relx.learn.compact_linear` arrays, and the
trigger dictionary and edge vocabulary) -- never pickle.
"""

from __future__ import annotations

import json
import logging
import time
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from relx import __version__
from relx.doc import StandoffDocument
from relx.errors import ModelError
from relx.ge.assemble import Grouping, assemble_document
from relx.ge.binding import BindingGrouper
from relx.ge.data import GEDoc
from relx.ge.edges import (
    CLASSES,
    EdgeCandidate,
    EdgeDetector,
    candidates,
    decide_edges,
    gold_labels,
)
from relx.ge.modifications import ModificationDetector
from relx.ge.sentences import SentenceView, build_views
from relx.ge.triggers import TriggerDetector, TriggerDictionary
from relx.io.atomic import atomic_open
from relx.learn.compact_linear import restore_coefs, strip_coefs
from relx.model_store import reading_model_file
from relx.registry import build_component
from relx.structures import StructureEncoder

# 2: forests stored as relx.learn.packed_trees.compact_trees (narrowed arrays; format-1
#    files hold the plain packed arrays and still load)
# 3: linear models' weights as relx.learn.compact_linear arrays (non-zero columns, distinct
#    columns once) and the trigger dictionary / edge vocabulary in models.skops
#    (``vocabularies_json``: JSON as uint8, LZMA) instead of meta.json; same fitted values
# 4: a stacked trigger model (``[stacking] triggers = true``, relx.ge.stacking): the stage-1
#    parts added; a plain model is still written as 3
FORMAT_VERSION = 3
READABLE_FORMATS = (1, 2, 3, 4)
TRUSTED_TYPES = [
    "relx.kernels.structure.PathKernel", "relx.kernels.structure.SumKernel",
    "relx.learn.forest.RandomSubspaceForest", "relx.represent.klsh.KLSHEncoder",
    "relx.represent.instances.StructureSet", "relx.structures.EncodedStructures",
    "sklearn.tree._tree.Tree", "sklearn.ensemble._bagging.BaggingClassifier",
    "sklearn.tree._classes.DecisionTreeClassifier", "sklearn.svm._classes.LinearSVC",
    "sklearn.linear_model._logistic.LogisticRegression", "numpy.dtype",
]


logger = logging.getLogger(__name__)


class GEModelError(ModelError):
    """A saved GE model that cannot be loaded (missing files, wrong format version)."""


def _section(cfg: dict[str, Any], name: str) -> dict[str, Any]:
    return dict(cfg.get(name) or {})


class GEExtractor:
    """Trigger detection, argument detection and event assembly from one config."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config
        seed = int(config.get("pipeline", {}).get("seed", 0))
        tcfg = _section(config, "triggers")
        self.triggers = TriggerDetector(**tcfg, random_state=seed)
        scfg = _section(config, "stacking")
        if scfg.pop("triggers", False):   # a second-stage trigger classifier
            from relx.ge.stacking import StackedTriggerDetector

            self.triggers = StackedTriggerDetector(  # type: ignore[assignment]
                triggers=tcfg, edge_C=float(_section(config, "edges").get("C", 1.0)),
                **scfg, random_state=seed)
        ecfg = _section(config, "edges")
        for part in ("klsh", "forest"):
            name = ecfg.get(part)
            ecfg[part] = build_component(config, name) if isinstance(name, str) else None
        self.edges = EdgeDetector(**ecfg, random_state=seed)
        acfg = _section(config, "assembly")
        self.binding = str(acfg.get("binding", "conj"))
        self.grouper = BindingGrouper(C=float(acfg.get("binding_C", 1.0)),
                                      threshold=float(acfg.get("binding_threshold", 0.5)))
        mcfg = _section(config, "modifications")
        self.modifications = ModificationDetector(
            **{k: v for k, v in mcfg.items() if k != "enabled"}, random_state=seed
        ) if mcfg.get("enabled") else None
        self.train_seconds_: float | None = None

    # -- training ---------------------------------------------------------------------
    def fit(self, docs: Sequence[GEDoc], verbose: bool = False) -> GEExtractor:
        t0 = time.perf_counter()
        docs_views = [build_views(d, gold=True) for d in docs]
        self.triggers.fit(docs_views)
        self.grouper.fit([v for vs in docs_views for v in vs])   # cheap; lets tuning compare
        log = logger.info if verbose else logger.debug
        log("triggers fitted (%.0f s)", time.perf_counter() - t0)
        views = [v for vs in docs_views for v in vs]
        cands = candidates(views, [v.gold_triggers for v in views])
        y = gold_labels(views, cands)
        log("edge candidates %d %s", len(cands), {c: int((y == c).sum()) for c in np.unique(y)})
        self.edges.fit(views, cands, y)
        if self.modifications is not None:
            self.modifications.fit([(d.standoff, vs) for d, vs in zip(docs, docs_views,
                                                                       strict=True)])
        self.train_seconds_ = time.perf_counter() - t0
        log("edges fitted (%.0f s)", self.train_seconds_)
        return self

    # -- prediction ---------------------------------------------------------------------
    def predict_views(self, views: Sequence[SentenceView],
                      trigger_bias: float | None = None, edge_bias: float | None = None,
                      cause_bias: float | None = None,
                      edge_scores: dict[EdgeCandidate, float] | None = None
                      ) -> list[list[tuple[EdgeCandidate, str]]]:
        """Predicted edges of each view; ``edge_scores`` (when given) receives each
        predicted edge's probability of its role."""
        nodes = self.triggers.predict(views, trigger_bias)
        cands = candidates(views, nodes)
        proba = self.edges.proba(views, cands)
        bias = self.edges.none_bias if edge_bias is None else edge_bias
        cbias = self.edges.cause_bias if cause_bias is None else cause_bias
        per_view: list[list[tuple[EdgeCandidate, str]]] = [[] for _ in views]
        row = {c: i for i, c in enumerate(cands)} if edge_scores is not None else {}
        for c, role in decide_edges(proba, cands, bias, cbias):   # type: ignore[arg-type]
            per_view[c.view].append((c, role))
            if edge_scores is not None:
                edge_scores[c] = float(proba[row[c], CLASSES.index(role)])
        return per_view

    def predict(self, docs: Sequence[GEDoc], trigger_bias: float | None = None,
                edge_bias: float | None = None, modifications: bool = True
                ) -> list[StandoffDocument]:
        """Predicted standoff documents (the ``.a1`` proteins and predicted events); the
        biases (default: the fitted ones) as in :meth:`predict_views`; ``modifications``:
        also judge each event's Negation / Speculation (when the model has a detector)."""
        all_views = [build_views(d, gold=False) for d in docs]
        flat = [v for vs in all_views for v in vs]
        scores: dict[EdgeCandidate, float] = {}
        edges = self.predict_views(flat, trigger_bias, edge_bias, edge_scores=scores)
        out, k = [], 0
        for d, vs in zip(docs, all_views, strict=True):
            pred = assemble_document(d.standoff, vs, edges[k:k + len(vs)],
                                     self.grouping(self.binding), scores)
            if modifications and self.modifications is not None:
                pred = self.modifications.predict(pred, vs)
            out.append(pred)
            k += len(vs)
        return out

    def grouping(self, binding: str) -> Grouping:
        """The Binding grouping for a strategy name (``learned``: the fitted grouper)."""
        return self.grouper.groups if binding == "learned" else binding

    # -- persistence --------------------------------------------------------------------
    def save(self, directory: str | Path, extra_meta: dict[str, Any] | None = None) -> Path:
        """Write ``meta.json`` and ``models.skops`` into ``directory``."""
        import skops.io as sio

        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        parts: dict[str, Any] = {"trigger_model": self.triggers.model_}
        stage1_meta: dict[str, Any] = {}
        if hasattr(self.triggers, "stage1_parts"):   # stacked triggers
            stage1, stage1_meta = self.triggers.stage1_parts()
            parts.update(stage1)
        if self.edges.uses_klsh:
            parts["klsh"], parts["forest"] = self.edges.klsh, self.edges.forest
        if self.edges.uses_features:
            parts["edge_linear"] = self.edges.linear_
        if self.grouper.model_ is not None:
            parts["binding"] = self.grouper.model_
        mods = self.modifications
        if mods is not None:
            parts.update({f"modification_{t}": m for t, m in mods.models_.items()})
        parts, coefs = strip_coefs(parts)
        parts["compact_coef"] = coefs
        vocabularies = {"trigger_dictionary": self.triggers.dictionary_.to_json(),
                        "edge_vocab": self.edges.encoder_.to_dict()}
        parts["vocabularies_json"] = np.frombuffer(json.dumps(vocabularies).encode("utf-8"),
                                                   dtype=np.uint8)
        with atomic_open(directory / "models.skops", "wb") as fh:
            # LZMA: a quarter smaller than deflate for the forests (21 -> 15 MB shipped)
            fh.write(sio.dumps(parts, compression=zipfile.ZIP_LZMA))
        meta = {"format": "relx-ge-events", "format_version": 4 if stage1_meta else FORMAT_VERSION,
                "relx_version": __version__, "config": self.config,
                "trigger_classes": self.triggers.classes_,
                "train_seconds": self.train_seconds_,
                "modification_thresholds": None if mods is None else mods.thresholds_,
                **stage1_meta, **(extra_meta or {})}
        with atomic_open(directory / "meta.json", "w") as fh:
            json.dump(meta, fh)
        return directory

    @classmethod
    def load(cls, directory: str | Path) -> GEExtractor:
        """Load a model saved by :meth:`save`; checks the format and its version."""
        from relx import skops_reader

        directory = Path(directory)
        meta_path, skops_path = directory / "meta.json", directory / "models.skops"
        for p in (meta_path, skops_path):
            if not p.is_file():
                raise GEModelError(f"{directory}: not a GE event model ({p.name} missing)")
        with reading_model_file(meta_path, "event model", GEModelError):
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            if not isinstance(meta, dict):
                raise ValueError("not a JSON object")
        if meta.get("format") != "relx-ge-events":
            raise GEModelError(f"{meta_path}: format {meta.get('format')!r} is not relx-ge-events")
        if meta.get("format_version") not in READABLE_FORMATS:
            raise GEModelError(f"{meta_path}: format version {meta.get('format_version')} "
                               f"(this relx reads versions "
                               f"{', '.join(map(str, READABLE_FORMATS))})")
        with reading_model_file(skops_path, "event model", GEModelError):
            data = skops_path.read_bytes()
            try:   # audits the file against the allow-list, then builds it (no skops import)
                parts = skops_reader.load(data, TRUSTED_TYPES)
            except skops_reader.UntrustedTypes as exc:
                raise GEModelError(f"{skops_path}: refusing untrusted types "
                                   f"({exc})") from None
            restore_coefs(parts, parts.pop("compact_coef", {}))
            vocabularies = (json.loads(parts.pop("vocabularies_json").tobytes().decode("utf-8"))
                            if "vocabularies_json" in parts else meta)   # format <= 2: meta.json
            self = cls(meta["config"])
            self.triggers.model_ = parts["trigger_model"]
            self.triggers.classes_ = list(meta["trigger_classes"])
            self.triggers.dictionary_ = TriggerDictionary.from_json(
                vocabularies["trigger_dictionary"])
            if hasattr(self.triggers, "restore_stage1"):
                self.triggers.restore_stage1(parts, meta)
            self.edges.encoder_ = StructureEncoder.from_dict(vocabularies["edge_vocab"])
            if self.edges.uses_klsh:
                self.edges.klsh, self.edges.forest = parts["klsh"], parts["forest"]
            if self.edges.uses_features:
                self.edges.linear_ = parts["edge_linear"]
            self.grouper.model_ = parts.get("binding")
            if self.modifications is not None:
                self.modifications.thresholds_ = dict(meta.get("modification_thresholds") or {})
                self.modifications.models_ = {t: parts[f"modification_{t}"]
                                              for t in self.modifications.thresholds_}
        self.train_seconds_ = meta.get("train_seconds")
        self.meta = meta
        return self
