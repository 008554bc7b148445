"""The GE event extractor: triggers -> edges -> assembly, configured by a TOML file.

Config sections (see ``configs/ge-events.toml``): ``[triggers]`` (TriggerDetector
parameters), ``[edges]`` (EdgeDetector parameters; ``klsh``/``forest`` name registered
component sections such as ``[edge_klsh]``, ``[edge_forest]``), ``[assembly]``
(``binding`` strategy: ``side``) and ``[modifications]`` (``enabled = true``: Negation /
Speculation of the assembled events, :class:`~relx.ge.modifications.ModificationDetector`).
The edge detector is trained on gold triggers. A setting relx does not know is an error;
the levers measured and not shipped (``[stacking]``, ``[edges] context``, other Binding
strategies...) are read by :class:`lab.ge.extractor.LabGEExtractor`, outside the package.

Saved models are a directory: ``meta.json`` (format version, config, classes) and
``models.skops`` (the fitted scikit-learn parts, loaded with an explicit list of trusted
types, the linear models' weights as :mod:`relx.learn.compact_linear` arrays, and the
trigger dictionary and edge vocabulary) -- never pickle.
"""

from __future__ import annotations

import inspect
import json
import logging
import time
import zipfile
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from relx import __version__
from relx.doc import StandoffDocument
from relx.doc_limits import bounded_batches
from relx.errors import ConfigError, ModelError
from relx.ge.assemble import BINDING_GROUPINGS, Grouping, assemble_document
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
from relx.ge.triggers import TriggerDetector
from relx.io.atomic import atomic_open
from relx.learn.compact_linear import restore_coefs, strip_coefs
from relx.model_store import ModelKind, load_skops, reading_model_file
from relx.registry import build_component
from relx.structures import StructureEncoder

# 2: forests stored as relx.learn.packed_trees.compact_trees (narrowed arrays; format-1
#    files hold the plain packed arrays and still load)
# 3: linear models' weights as relx.learn.compact_linear arrays (non-zero columns, distinct
#    columns once) and the trigger dictionary / edge vocabulary in models.skops
#    (``vocabularies_json``: JSON as uint8, LZMA) instead of meta.json; same fitted values
# 4: a stacked trigger model (``[stacking] triggers = true``, lab.ge.stacking): the stage-1
#    parts added; read by lab.ge.extractor.LabGEExtractor, not by relx
FORMAT_VERSION = 3
READABLE_FORMATS = (1, 2, 3)
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


#: an event model's folder (:func:`relx.model_store.load_skops`; a subclass of
#: :class:`GEExtractor` may read more ``readable_formats``)
EVENT_MODEL = ModelKind("event model", "models.skops", READABLE_FORMATS,
                        format="relx-ge-events", version_label="format version",
                        error=GEModelError)


def _section(cfg: dict[str, Any], name: str) -> dict[str, Any]:
    return dict(cfg.get(name) or {})


#: the sections a GE config holds besides registered components (``component = ...``)
SECTIONS = ("pipeline", "triggers", "edges", "assembly", "modifications")


def checked(name: str, params: dict[str, Any], known: Any) -> dict[str, Any]:
    """``params`` of config section ``[name]``; a key that is not in ``known`` (names, or a
    class whose ``__init__`` takes them, its ``random_state`` aside) is an error."""
    if isinstance(known, type):
        known = set(inspect.signature(known).parameters) - {"random_state"}
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise ConfigError(f"[{name}] {', '.join(unknown)}: not a relx GE setting (the "
                          "settings measured and not shipped are read by the repository's "
                          "lab.ge.extractor.LabGEExtractor)")
    return params


def _rounds(views: Sequence[Any], max_tokens: int) -> list[tuple[int, int]]:
    """(start, end) ranges of ``views`` of at most ``max_tokens`` tokens (a longer
    sentence alone)."""
    return [(b[0], b[-1] + 1) for b in bounded_batches(range(len(views)), len(views),
                                                       max_tokens, lambda i: len(views[i].tokens))]


class GEExtractor:
    """Trigger detection, argument detection and event assembly from one config."""

    #: the ``[assembly] binding`` strategies this class assembles (:meth:`grouping`)
    binding_strategies: tuple[str, ...] = tuple(BINDING_GROUPINGS)
    #: the event model format versions :meth:`load` reads
    readable_formats: tuple[int, ...] = READABLE_FORMATS

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config
        self._check_sections(config)
        seed = int(config.get("pipeline", {}).get("seed", 0))
        self.triggers = self._trigger_detector(config, seed)
        ecfg = _section(config, "edges")
        for part in ("klsh", "forest"):
            name = ecfg.get(part)
            ecfg[part] = build_component(config, name) if isinstance(name, str) else None
        self.edges = self._edge_detector(ecfg, seed)
        acfg = checked("assembly", _section(config, "assembly"), ("binding",))
        self.binding = str(acfg.get("binding", "side"))
        if self.binding not in self.binding_strategies:
            raise ConfigError(f"[assembly] binding = {self.binding!r}: not one of "
                              f"{', '.join(self.binding_strategies)}")
        mcfg = _section(config, "modifications")
        self.modifications = ModificationDetector(
            **checked("modifications", {k: v for k, v in mcfg.items() if k != "enabled"},
                      ModificationDetector), random_state=seed
        ) if mcfg.get("enabled") else None
        self.train_seconds_: float | None = None

    def _check_sections(self, config: dict[str, Any]) -> None:
        """Every section is one of :data:`SECTIONS` or a registered component's."""
        unknown = sorted(k for k, v in config.items()
                         if k not in SECTIONS and not (isinstance(v, dict) and "component" in v))
        if unknown:
            raise ConfigError(f"[{'], ['.join(unknown)}]: not a relx GE config section (the "
                              "sections of levers measured and not shipped are read by the "
                              "repository's lab.ge.extractor.LabGEExtractor)")

    def _trigger_detector(self, config: dict[str, Any], seed: int) -> TriggerDetector:
        tcfg = checked("triggers", _section(config, "triggers"), TriggerDetector)
        return TriggerDetector(**tcfg, random_state=seed)

    def _edge_detector(self, ecfg: dict[str, Any], seed: int) -> EdgeDetector:
        return EdgeDetector(**checked("edges", ecfg, EdgeDetector), random_state=seed)

    def _fit_extra(self, views: Sequence[SentenceView]) -> None:
        """Fit parts beyond triggers, edges and modifications (none in relx)."""

    def _extra_parts(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """(fitted parts, metadata) a subclass saves beside the base model's."""
        return {}, {}

    def _restore_extra(self, parts: dict[str, Any], meta: dict[str, Any]) -> None:
        """Restore what :meth:`_extra_parts` saved (none in relx)."""

    # -- training ---------------------------------------------------------------------
    def fit(self, docs: Sequence[GEDoc], verbose: bool = False) -> GEExtractor:
        t0 = time.perf_counter()
        docs_views = [build_views(d, gold=True) for d in docs]
        views = [v for vs in docs_views for v in vs]
        self.triggers.fit(docs_views)
        self._fit_extra(views)
        log = logger.info if verbose else logger.debug
        log("triggers fitted (%.0f s)", time.perf_counter() - t0)
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
    #: tokens of sentences predicted in one round: bounds the memory of a long document's
    #: candidates and features (a batch of abstracts is one round; each sentence's events
    #: depend on that sentence alone)
    predict_tokens: int = 20_000

    def predict_views(self, views: Sequence[SentenceView],
                      trigger_bias: float | None = None, edge_bias: float | None = None,
                      cause_bias: float | None = None,
                      edge_scores: dict[EdgeCandidate, float] | None = None
                      ) -> list[list[tuple[EdgeCandidate, str]]]:
        """Predicted edges of each view; ``edge_scores`` (when given) receives each
        predicted edge's probability of its role."""
        nodes = self.triggers.predict(views, trigger_bias)
        cands = candidates(views, nodes)
        bias = self.edges.none_bias if edge_bias is None else edge_bias
        cbias = self.edges.cause_bias if cause_bias is None else cause_bias
        proba = self.edges.deciding_proba(views, cands, bias, cbias)
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
        edges: list[list[tuple[EdgeCandidate, str]]] = []
        for lo, hi in _rounds(flat, self.predict_tokens):
            part: dict[EdgeCandidate, float] = {}
            found = self.predict_views(flat[lo:hi], trigger_bias, edge_bias, edge_scores=part)
            if lo:   # the round's view indices, as indices into ``flat``
                found = [[(replace(c, view=c.view + lo), r) for c, r in es] for es in found]
                part = {replace(c, view=c.view + lo): v for c, v in part.items()}
            edges += found
            scores.update(part)
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
        """The Binding grouping of a strategy name."""
        return BINDING_GROUPINGS[binding]

    # -- persistence --------------------------------------------------------------------
    def save(self, directory: str | Path, extra_meta: dict[str, Any] | None = None) -> Path:
        """Write ``meta.json`` and ``models.skops`` into ``directory`` (``extra_meta``: more
        entries of ``meta.json``, such as the model's name and training data)."""
        import skops.io as sio

        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        parts: dict[str, Any] = {"trigger_model": self.triggers.model_}
        extra, own_meta = self._extra_parts()
        parts.update(extra)
        if self.edges.uses_klsh:
            parts["klsh"], parts["forest"] = self.edges.klsh, self.edges.forest
        if self.edges.uses_features:
            parts["edge_linear"] = self.edges.linear_
        mods = self.modifications
        if mods is not None:
            parts.update({f"modification_{t}": m for t, m in mods.models_.items()})
        from relx.learn.predictors import to_sklearn

        parts, coefs = strip_coefs(to_sklearn(parts))   # a loaded model: scikit-learn's again
        parts["compact_coef"] = coefs
        vocabularies = {"trigger_dictionary": self.triggers.dictionary_.to_json(),
                        "edge_vocab": self.edges.encoder_.to_dict()}
        parts["vocabularies_json"] = np.frombuffer(json.dumps(vocabularies).encode("utf-8"),
                                                   dtype=np.uint8)
        with atomic_open(directory / "models.skops", "wb") as fh:
            # LZMA: a quarter smaller than deflate for the forests (21 -> 15 MB shipped)
            fh.write(sio.dumps(parts, compression=zipfile.ZIP_LZMA))
        meta = {"format": "relx-ge-events",
                "format_version": own_meta.pop("format_version", FORMAT_VERSION),
                "relx_version": __version__, "config": self.config,
                "trigger_classes": self.triggers.classes_,
                "train_seconds": self.train_seconds_,
                "modification_thresholds": None if mods is None else mods.thresholds_,
                **own_meta, **(extra_meta or {})}
        with atomic_open(directory / "meta.json", "w") as fh:
            json.dump(meta, fh)
        return directory

    @classmethod
    def load(cls, directory: str | Path) -> GEExtractor:
        """Load a model saved by :meth:`save`; checks the format and its version."""
        kind = replace(EVENT_MODEL, readable_formats=cls.readable_formats)
        meta, parts = load_skops(directory, TRUSTED_TYPES, kind)
        meta_path = Path(directory) / "meta.json"
        with reading_model_file(Path(directory) / kind.skops_file, kind.name, kind.error):
            restore_coefs(parts, parts.pop("compact_coef", {}),   # they score hashed rows
                          column_major=("trigger_model", "edge_linear"))
            vocabularies = (json.loads(parts.pop("vocabularies_json").tobytes().decode("utf-8"))
                            if "vocabularies_json" in parts else meta)   # format <= 2: meta.json
            try:
                self = cls(meta["config"])
            except ConfigError as exc:   # e.g. a lab lever: not a setting relx ships
                raise GEModelError(f"{meta_path}: {exc}") from None
            self.triggers.model_ = parts["trigger_model"]
            self.triggers.classes_ = list(meta["trigger_classes"])
            self.triggers.dictionary_ = self.triggers.dictionary_from_json(
                vocabularies["trigger_dictionary"])
            self.edges.encoder_ = StructureEncoder.from_dict(vocabularies["edge_vocab"])
            if self.edges.uses_klsh:
                self.edges.klsh, self.edges.forest = parts["klsh"], parts["forest"]
            if self.edges.uses_features:
                self.edges.linear_ = parts["edge_linear"]
            self._restore_extra(parts, meta)
            if self.modifications is not None:
                self.modifications.thresholds_ = dict(meta.get("modification_thresholds") or {})
                self.modifications.models_ = {t: parts[f"modification_{t}"]
                                              for t in self.modifications.thresholds_}
        self.train_seconds_ = meta.get("train_seconds")
        self.meta = meta
        return self
