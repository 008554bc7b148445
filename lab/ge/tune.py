"""Choosing GE settings on a validation split of the *training* documents.

:func:`paper_id` names the paper of a GE document; :func:`split_docs` holds out a seeded
fraction of papers and :func:`paper_folds` deals papers into cross-validation folds; :func:`sweep` fits the
extractor once on the rest and scores a grid of decision settings on the held-out part --
the trigger ``none_bias``, the edge ``none_bias`` and ``cause_bias``, the KLSH/feature mixing weight
``klsh_weight`` (0 = features only, 1 = KLSH-RF only) and the Binding grouping -- reusing
trigger scores across the grid and edge probabilities across the edge settings.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from relx.doc import StandoffDocument
from relx.ge.assemble import assemble_document
from relx.ge.data import GEDoc
from relx.ge.edges import EdgeCandidate, candidates, combine, decide_edges
from relx.ge.evaluate import evaluate_events
from relx.ge.pipeline import GEExtractor
from relx.ge.sentences import build_views
from relx.ge.triggers import decide


def paper_id(doc_id: str) -> str:
    """The paper a GE document comes from: a full-text section ``PMC-1310901-05-...`` ->
    ``PMC-1310901``; a PubMed abstract ``PMID-9361033`` is its own paper."""
    parts = doc_id.split("-")
    return "-".join(parts[:2]) if parts[0] == "PMC" and len(parts) > 2 else doc_id


def _papers_by_kind(docs: Sequence[GEDoc]) -> tuple[list[str], list[str]]:
    """The papers of ``docs`` (sorted): (abstracts, full-text papers)."""
    papers = sorted({paper_id(d.id) for d in docs})
    return ([p for p in papers if not p.startswith("PMC-")],
            [p for p in papers if p.startswith("PMC-")])


def split_docs(docs: Sequence[GEDoc], fraction: float = 0.2, seed: int = 0
               ) -> tuple[list[GEDoc], list[GEDoc]]:
    """(train, validation): ``fraction`` of the papers held out, by kind.

    All sections of one full-text paper (:func:`paper_id`) fall on one side -- GE 2013 train
    repeats GE 2011 train's papers under other section ids, so a split by document would
    validate on text the model was fitted on. Abstracts and full-text papers are held out
    apart, ``round(fraction * n)`` of each kind (at least one paper in all).
    """
    rng = np.random.RandomState(seed)
    held: set[str] = set()
    for group in _papers_by_kind(docs):
        order = rng.permutation(len(group))
        held.update(group[i] for i in order[:round(fraction * len(group))])
    if not held:
        papers = sorted({paper_id(d.id) for d in docs})
        held.add(papers[int(rng.randint(len(papers)))])
    return ([d for d in docs if paper_id(d.id) not in held],
            [d for d in docs if paper_id(d.id) in held])


def paper_folds(docs: Sequence[GEDoc], k: int = 5, seed: int = 0) -> list[int]:
    """The fold (0 .. k-1) of each document: papers (:func:`paper_id`) dealt round-robin in a
    seeded order, abstracts and full-text papers apart, so each fold holds ~1/k of each."""
    rng = np.random.RandomState(seed)
    fold: dict[str, int] = {}
    for group in _papers_by_kind(docs):
        start = len(fold)
        for n, i in enumerate(rng.permutation(len(group))):
            fold[group[i]] = (start + n) % k
    return [fold[paper_id(d.id)] for d in docs]


def _short(r: dict[str, Any]) -> dict[str, Any]:
    return {"precision": r["precision"], "recall": r["recall"], "f1": r["f1"],
            "per_type": {k: {m: v[m] for m in ("precision", "recall", "f1", "gold", "pred")}
                         for k, v in r["per_type"].items()}}


def sweep_predictions(model: GEExtractor, val: Sequence[GEDoc],
                      trigger_biases: Sequence[float], edge_biases: Sequence[float],
                      klsh_weights: Sequence[float], bindings: Sequence[str],
                      cause_biases: Sequence[float] = (0.0,), log=print
                      ) -> Iterator[tuple[dict[str, Any], list[StandoffDocument]]]:
    """The events of ``val`` at every combination of the decision settings (fitted
    ``model``): (settings, predicted documents), one trigger pass and one edge pass per
    trigger bias."""
    all_views = [build_views(d, gold=False) for d in val]
    flat = [v for vs in all_views for v in vs]
    scores, index = model.triggers.scores(flat)
    for tb in trigger_biases:
        nodes = decide(scores, index, model.triggers.classes_, len(flat), tb)
        cands = candidates(flat, nodes)
        t0 = time.perf_counter()
        # edge features depend on the other triggers of a sentence: no reuse across biases
        pk, pf = model.edges.proba(flat, cands, parts=True)  # type: ignore[misc]
        log(f"trigger bias {tb}: {len(cands)} edge candidates ({time.perf_counter() - t0:.0f}s)")
        for w in klsh_weights:
            if (w > 0 and pk is None) or (w < 1 and pf is None):
                continue
            proba = combine(pk if w > 0 else None, pf if w < 1 else None, w, len(cands))
            for eb, cb, binding in itertools.product(edge_biases, cause_biases, bindings):
                per_view: list[list[tuple[EdgeCandidate, str]]] = [[] for _ in flat]
                for c, role in decide_edges(proba, cands, eb, cb):
                    per_view[c.view].append((c, role))
                preds, k = [], 0
                for d, vs in zip(val, all_views, strict=True):
                    preds.append(assemble_document(d.standoff, vs, per_view[k:k + len(vs)],
                                                   model.grouping(binding)))
                    k += len(vs)
                yield ({"trigger_bias": tb, "edge_bias": eb, "cause_bias": cb, "klsh_weight": w,
                        "binding": binding}, preds)


def sweep(model: GEExtractor, val: Sequence[GEDoc], trigger_biases: Sequence[float],
          edge_biases: Sequence[float], klsh_weights: Sequence[float],
          bindings: Sequence[str], cause_biases: Sequence[float] = (0.0,),
          log=print) -> list[dict[str, Any]]:
    """Score every combination of the decision settings on ``val`` (fitted ``model``)."""
    gold = [d.standoff for d in val]
    results = []
    for setting, preds in sweep_predictions(model, val, trigger_biases, edge_biases,
                                            klsh_weights, bindings, cause_biases, log):
        r = evaluate_events(gold, preds)
        results.append({**setting, **_short(r)})
        log(f"tb={setting['trigger_bias']:+.2f} eb={setting['edge_bias']:+.2f} "
            f"cb={setting['cause_bias']:+.2f} w={setting['klsh_weight']:.2f} "
            f"{setting['binding']:5s} P={r['precision']:.3f} R={r['recall']:.3f} F={r['f1']:.3f}")
    return results
