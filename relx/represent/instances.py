"""From documents to candidate instances and their encoded structures.

``PairInstance`` is the X element the PPI pipelines take; ``StructureExtractor`` (the
pipeline's first step) turns instances into a :class:`StructureSet` of integer-encoded
structures that the kernels read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from relx.doc import Document, Relation, Sentence
from relx.estimator import BaseEstimator, TransformerMixin
from relx.structures import (
    EncodedStructures,
    StructureEncoder,
    shortest_path,
    token_sequence,
)

STRUCTURES = {"path", "sequence", "amr", "relx_path"}


@dataclass(frozen=True)
class PairInstance:
    """One candidate pair: the sentence it lives in and the (possibly labelled) relation;
    ``context``: its document-context features
    (:func:`relx.represent.pair_features.document_context_features`) when they were
    computed over more pairs than are scored together (a long document scored in
    windows); None: computed from the pairs scored with it."""

    document_id: str
    sentence: Sentence
    relation: Relation
    context: dict[str, float] | None = field(default=None, compare=False)

    @property
    def label(self) -> bool | None:
        return self.relation.label


def pair_instances(docs: Iterable[Document]) -> list[PairInstance]:
    """Every candidate relation of every sentence, in document order."""
    return [PairInstance(d.id, s, r) for d in docs for s in d.sentences for r in s.relations]


def labels(instances: Sequence[PairInstance]) -> np.ndarray:
    """(N,) int array of gold labels (1 = interaction)."""
    return np.array([int(bool(x.label)) for x in instances], dtype=np.int64)


@dataclass
class StructureSet:
    """Encoded structures of N instances, one :class:`EncodedStructures` per structure type."""

    parts: dict[str, EncodedStructures]
    encoder: StructureEncoder | None = field(default=None, repr=False, compare=False)

    def __len__(self) -> int:
        return len(next(iter(self.parts.values())))

    def __getitem__(self, idx) -> StructureSet:
        return StructureSet({k: v[idx] for k, v in self.parts.items()}, self.encoder)

    @property
    def shape(self) -> tuple[int]:  # lets sklearn utilities count samples
        return (len(self),)


class StructureExtractor(TransformerMixin, BaseEstimator):
    """Instances -> :class:`StructureSet` (shortest dependency path, token sequence, AMR-style
    semantic path, and ``relx_path``: the shortest path in relx's own parse of the sentence,
    :func:`relx.parse.views.relx_view`, next to a corpus's parse).

    The label vocabularies live in ``encoder_``; they are built by ``fit_transform`` and
    frozen afterwards (unseen labels get call-local ids, see ``StructureEncoder.encode``),
    which is sound because the kernels only compare ids for equality.
    """

    def __init__(self, structures: Sequence[str] = ("path",), window: int = 3) -> None:
        self.structures = structures
        self.window = window

    def fit(self, X: Sequence[PairInstance], y=None) -> StructureExtractor:
        unknown = set(self.structures) - STRUCTURES
        if unknown:
            raise ValueError(f"unknown structure types {sorted(unknown)}; choose from {sorted(STRUCTURES)}")
        self.encoder_ = StructureEncoder()
        return self

    def fit_transform(self, X: Sequence[PairInstance], y=None, **fit_params) -> StructureSet:
        return self.fit(X, y)._transform(X, grow=True)

    def transform(self, X: Sequence[PairInstance]) -> StructureSet:
        """Structures of new instances; the fitted vocabularies are not extended."""
        return self._transform(X, grow=False)

    def _transform(self, X: Sequence[PairInstance], grow: bool) -> StructureSet:
        raw: dict[str, list] = {k: [] for k in self.structures}
        graphs: dict[object, object] = {}
        view: dict[int, Sentence] = {}
        if "relx_path" in raw:  # the same sentences in relx's own parse
            from relx.parse.views import relx_view_by_sentence

            view = relx_view_by_sentence(X)
        for x in X:
            s = x.sentence
            e1, e2 = s.entity(x.relation.arg1), s.entity(x.relation.arg2)
            if (e2.start, e2.end) < (e1.start, e1.end):  # PPI pairs are unordered:
                e1, e2 = e2, e1  # PROT1 is always the mention that comes first
            if "path" in raw:
                raw["path"].append(shortest_path(s, e1, e2))
            if "sequence" in raw:
                raw["sequence"].append(token_sequence(s, e1, e2, self.window))
            if "relx_path" in raw:
                r = view[id(s)]
                raw["relx_path"].append(shortest_path(r, r.entity(e1.id), r.entity(e2.id)))
            if "amr" in raw:
                from relx.parse.amr import semantic_graph, semantic_path

                key = ("amr", s.id)
                if key not in graphs:
                    graphs[key] = semantic_graph(s)
                raw["amr"].append(semantic_path(s, e1, e2, graphs[key]))
        return StructureSet({k: self.encoder_.encode(v, grow=grow) for k, v in raw.items()},
                            self.encoder_)
