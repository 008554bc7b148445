"""Types and directions of reported pairs from the pair scorer's own features.

:class:`PairTyper` reads the feature dicts the pair scorer computes for every candidate
(:func:`relx.represent.pair_features.pair_feature_dict`: dependency path, words between,
competition; relx's parse) with a multinomial logistic regression over the typed
interactions GENIA events give (``Complex``, ``Activation:12``, ``Inhibition:21``...: the
type, and whether entity 1 or entity 2 is the agent). :class:`HybridTyper` is the typed
PPI pass's typer: a pair the pair typer gives a class with probability at least ``tau``
takes that class, every other reported pair is typed by the event model
(:class:`relx.ge.interactions.EventTyper`), which then runs only on the sentences holding
such pairs. Chosen and measured in docs/relations.md (pair typer round 2): on GE 2011
devel's gold-connected pairs, type F1 0.652 and direction F1 0.828 against the event
typer's 0.630 and 0.756.

A pair typer folder holds ``meta.json`` and ``model.npz`` (weights, classes, vocabulary;
read with ``allow_pickle=False``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from relx.doc import Document, Relation
from relx.errors import ModelError
from relx.estimator import BaseEstimator, ClassifierMixin, check_is_fitted
from relx.packed_strings import pack_named, unpack_named
from relx.represent.instances import PairInstance
from relx.represent.pair_features import PairFeatureExtractor, _name_array

__all__ = ["DEFAULT_PAIR_TYPER", "HybridTyper", "PairTyper", "load_pair_typer",
           "pair_typer_features", "split_label"]

#: the shipped pair typer (``models/pair-typer``)
DEFAULT_PAIR_TYPER = "pair-typer"
FORMAT = "relx-pair-typer"
FORMAT_VERSION = 1
#: the class of a pair no typed interaction was seen for (never typed)
UNTYPED = "Interaction"


def pair_typer_features(min_documents: int = 2) -> PairFeatureExtractor:
    """The scorer's shared feature dicts (same options as ``ppi-default``'s members, so a
    window the scorer has just scored is not computed again)."""
    return PairFeatureExtractor(second_parse="relx", competition=True, path_structure=True,
                                min_documents=min_documents)


def split_label(label: str) -> tuple[str, str | None]:
    """``"Activation:12"`` -> ``("Activation", "entity1->entity2")``; undirected classes
    (``"Complex"``) -> ``(label, None)``."""
    typ, _, d = label.partition(":")
    return typ, {"12": "entity1->entity2", "21": "entity2->entity1"}.get(d)


class PairTyper(ClassifierMixin, BaseEstimator):
    """Multinomial logistic regression over the pair scorer's feature dicts.

    ``C``: inverse regularisation; ``tau``: the probability a class needs to be used
    (below it :class:`HybridTyper` asks the event model); ``min_documents``: a feature is
    kept when seen in at least this many training documents; ``random_state`` for the
    solver. Learned: ``features_`` (the fitted :class:`PairFeatureExtractor`), ``coef_``
    (n_classes, n_features), ``intercept_`` (n_classes,), ``classes_``.
    """

    def __init__(self, C: float = 0.3, tau: float = 0.5, min_documents: int = 2,
                 random_state: int | None = 0) -> None:
        self.C = C
        self.tau = tau
        self.min_documents = min_documents
        self.random_state = random_state

    def fit(self, X: Sequence[PairInstance], y: Sequence[str]) -> PairTyper:
        """``X``: pairs (relx's parse); ``y``: their classes (``Type`` or ``Type:12`` /
        ``Type:21``)."""
        from sklearn.linear_model import LogisticRegression

        self.features_ = pair_typer_features(self.min_documents).fit(list(X))
        lr = LogisticRegression(C=self.C, max_iter=3000, random_state=self.random_state)
        lr.fit(self.features_.transform(list(X)), np.asarray(y))
        self.classes_ = lr.classes_
        self.coef_ = lr.coef_.astype(np.float32)
        self.intercept_ = lr.intercept_.astype(np.float32)
        return self

    def _proba(self, M: Any) -> np.ndarray:
        z = np.asarray(M @ self.coef_.T, dtype=np.float64) + self.intercept_
        if z.shape[1] == 1:   # two classes: one logit, the second class's (sigmoid)
            z = np.column_stack([np.zeros(len(z)), z[:, 0]])
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)

    def predict_proba(self, X: Sequence[PairInstance]) -> np.ndarray:
        """(N, n_classes) class probabilities."""
        check_is_fitted(self, "coef_")
        if not len(X):
            return np.zeros((0, len(self.classes_)))
        return self._proba(self.features_.transform(list(X)))

    def predict(self, X: Sequence[PairInstance]) -> np.ndarray:
        return self.classes_[self.predict_proba(X).argmax(axis=1)]

    def proba_of_rows(self, window: Sequence[PairInstance], rows: Sequence[int]) -> np.ndarray:
        """(len(rows), n_classes) for ``window[rows]``: the features of the whole ``window``
        as the scorer computed them (its cached dicts when it has just scored it)."""
        check_is_fitted(self, "coef_")
        if not len(rows):
            return np.zeros((0, len(self.classes_)))
        return self._proba(self.features_.transform(list(window))[np.asarray(rows)])

    def save(self, path: str | Path, meta: dict[str, Any] | None = None) -> Path:
        """``meta.json`` and ``model.npz`` in folder ``path``."""
        check_is_fitted(self, "coef_")
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        arrays = {"coef": self.coef_, "intercept": self.intercept_,
                  **pack_named("classes", [str(c) for c in self.classes_]),
                  **pack_named("features", self.features_.feature_names_.tolist())}
        with open(path / "model.npz", "wb") as fh:
            np.savez_compressed(fh, **arrays)
        info = {"format": FORMAT, "format_version": FORMAT_VERSION, **(meta or {}),
                "params": {"C": self.C, "tau": self.tau, "min_documents": self.min_documents,
                           "random_state": self.random_state}}
        (path / "meta.json").write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
        return path

    @classmethod
    def load(cls, path: str | Path) -> PairTyper:
        path = Path(path)
        meta = json.loads((path / "meta.json").read_text(encoding="utf-8"))
        if meta.get("format") != FORMAT or meta.get("format_version") != FORMAT_VERSION:
            raise ModelError(f"{path} is not a relx pair typer of format {FORMAT_VERSION}")
        with np.load(path / "model.npz", allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
        model = cls(**meta["params"])
        model.meta = meta
        model.features_ = pair_typer_features(model.min_documents)
        model.features_.feature_names_ = _name_array(unpack_named(arrays, "features"))
        model.features_.n_features_out_ = len(model.features_.feature_names_)
        model.classes_ = np.array(unpack_named(arrays, "classes"), dtype=object)
        model.coef_, model.intercept_ = arrays["coef"], arrays["intercept"]
        return model


def load_pair_typer(model: str | Path | PairTyper | None = None) -> PairTyper:
    """A pair typer from an object, a folder or an installed model's name (default
    :data:`DEFAULT_PAIR_TYPER`)."""
    from relx.model_store import find_model_dir

    if isinstance(model, PairTyper):
        return model
    return PairTyper.load(find_model_dir(str(model or DEFAULT_PAIR_TYPER), what="pair typer"))


class HybridTyper:
    """The typed PPI pass's typer: the pair typer where it is sure (probability >= its
    ``tau``), the event model on the sentences of the other reported pairs.

    ``events``: the event typer (:class:`relx.ge.interactions.EventTyper`; ``relx.load``
    builds it); ``pair_typer``: a :class:`PairTyper`, folder or name (default the shipped
    one). A relation typed by the pair typer carries ``type_source = "pair"`` and the class
    probability as ``event_score``; one typed by the events ``type_source = "events"``.
    """

    def __init__(self, events: Any, pair_typer: str | Path | PairTyper | None = None
                 ) -> None:
        self.events = events
        self._pair_ref = None if isinstance(pair_typer, PairTyper) else pair_typer
        self.pair_typer = load_pair_typer(pair_typer)

    @property
    def model(self) -> Any:
        """The event model (loaded, or its loading error raised)."""
        return self.events.model

    @property
    def name(self) -> str:
        return self.events.name

    @property
    def version(self) -> str:
        return self.events.version

    def __reduce__(self) -> tuple:
        """Pickled as its models' names or folders: a worker process loads its own copies."""
        return (HybridTyper, (self.events, self._pair_ref))

    def type_relations(self, docs: Iterable[Document],
                       instances: Sequence[PairInstance] | None = None) -> None:
        """Type the relations on ``docs``' sentences (in place). ``instances``: the pairs
        the scorer has just scored for these documents (a superset of the reported ones,
        in its order), whose features it has computed already."""
        docs = list(docs)
        reported = [(d, s, r) for d in docs for s in d.sentences for r in s.relations]
        if not reported:
            return
        window = list(instances or ())
        at = {id(x.relation): i for i, x in enumerate(window)}
        rows = [at.get(id(r), -1) for _, _, r in reported]
        if not window or min(rows) < 0:   # pairs the scorer did not score: their own features
            window = [PairInstance(d.id, s, r) for d, s, r in reported]
            rows = list(range(len(window)))
        proba = self.pair_typer.proba_of_rows(window, rows)
        best, p_best = proba.argmax(axis=1), proba.max(axis=1)
        unsure: set[int] = set()
        for (_, _, r), b, p in zip(reported, best, p_best, strict=True):
            typ, direction = split_label(str(self.pair_typer.classes_[b]))
            if p >= self.pair_typer.tau and typ != UNTYPED:
                r.type, r.direction, r.event_score = typ, direction, round(float(p), 4)
                r.type_source = "pair"
            else:
                unsure.add(id(r))
        if unsure:
            self.events.type_relations(_only(docs, unsure))
            for _, _, r in reported:
                if id(r) in unsure and r.type != "PPI":
                    r.type_source = "events"


def _only(docs: Sequence[Document], keep: set[int]) -> list[Document]:
    """Copies of ``docs`` whose sentences hold only the relations in ``keep`` (by object
    id: the same relation objects, so typing a copy types the original); sentences left
    without a relation are dropped."""
    out = []
    for d in docs:
        sents = []
        for s in d.sentences:
            rels: list[Relation] = [r for r in s.relations if id(r) in keep]
            if rels:
                sents.append(s.model_copy(update={"relations": rels}))
        if sents:
            out.append(d.model_copy(update={"sentences": sents}))
    return out
