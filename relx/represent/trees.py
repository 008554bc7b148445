"""Structure extraction with dependency subtrees (structure type ``subtree``).

:class:`TreeStructureExtractor` is :class:`~relx.represent.instances.StructureExtractor` plus
the ``subtree`` structure: for each pair, the dependency tree restricted to the two entity
heads' chains up to their lowest common ancestor (:func:`relx.structures.dependency_subtree`),
encoded as :class:`~relx.structures.EncodedTrees` with the same vocabularies as the other
structure types, for :class:`relx.kernels.structure.TreeKernel`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from relx.represent.instances import STRUCTURES, PairInstance, StructureExtractor, StructureSet
from relx.structures import (
    SUBTREE_CHILDREN,
    StructureEncoder,
    dependency_graph,
    dependency_subtree,
)

TREE_STRUCTURES = ("subtree",)


class TreeStructureExtractor(StructureExtractor):
    """Instances -> :class:`StructureSet` with any of the extractor's structure types and
    ``subtree``; ``subtree_children`` (``none``, ``entities``, ``all``) adds the direct
    dependents of the entity heads or of every subtree node (see ``dependency_subtree``)."""

    def __init__(self, structures: Sequence[str] = ("subtree",), window: int = 3,
                 subtree_children: str = "none") -> None:
        self.structures = structures
        self.window = window
        self.subtree_children = subtree_children

    def fit(self, X: Sequence[PairInstance], y=None) -> TreeStructureExtractor:
        unknown = set(self.structures) - set(STRUCTURES) - set(TREE_STRUCTURES)
        if unknown:
            raise ValueError(f"unknown structure types {sorted(unknown)}; choose from "
                             f"{sorted(set(STRUCTURES) | set(TREE_STRUCTURES))}")
        if self.subtree_children not in SUBTREE_CHILDREN:
            raise ValueError(f"subtree_children must be one of {SUBTREE_CHILDREN}, "
                             f"not {self.subtree_children!r}")
        self.encoder_ = StructureEncoder()
        return self

    def _transform(self, X: Sequence[PairInstance], grow: bool) -> StructureSet:
        parts = {}
        out = None
        other = [k for k in self.structures if k not in TREE_STRUCTURES]
        if other:  # the base extractor's structure types, encoded with the shared vocabularies
            base = StructureExtractor(structures=other, window=self.window)
            base.encoder_ = self.encoder_
            out = base._transform(X, grow)
            parts.update(out.parts)
        if "subtree" in self.structures:
            graphs: dict[object, object] = {}
            trees = []
            for x in X:
                s = x.sentence
                e1, e2 = s.entity(x.relation.arg1), s.entity(x.relation.arg2)
                if (e2.start, e2.end) < (e1.start, e1.end):  # as the base extractor:
                    e1, e2 = e2, e1  # PROT1 is the mention that comes first
                g = graphs.get(s.id)
                if g is None:
                    g = graphs[s.id] = dependency_graph(s)
                trees.append(dependency_subtree(s, e1, e2, g, self.subtree_children))
            parts["subtree"] = self.encoder_.encode_trees(trees, grow=grow)
        ordered = {k: parts[k] for k in self.structures}
        # keep whatever else the base extractor's StructureSet carries
        return (StructureSet(ordered, self.encoder_) if out is None
                else dataclasses.replace(out, parts=ordered))
