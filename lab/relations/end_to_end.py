"""Gene relation models trained on relx's own mentions (end to end) against gold ones:
fit-split cross-validation (the protocol registered in docs/relations.md, "Training on
relx's own mentions").

    python -m lab.relations.end_to_end --views        # relx on the fit abstracts' raw text
    python -m lab.relations.end_to_end --cv [--json out.json]

``--views`` runs relx as ``relx extract`` does (tagger, grounding, every mention pair scored
and typed) and caches the document views, genes keyed as the gene relation extractor keys
them (:func:`relx.ppi.gene_relations.gene_key`). ``--cv`` compares, by 5-fold CV by document,
the setting of gene-relations 0.2.0 (:data:`SETTING`) trained on the gold-mention candidates (G),
on the end-to-end candidates (E) and on both (G+E); each outer fold's threshold comes from an
inner CV on that fold's training data; every model is scored on the held-out documents'
end-to-end gene pairs by NCBI Gene id and on their gold-mention candidates.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from lab.genes.biored import NcbiIds
from lab.relations.biored import MAX_PAIRS, SETTINGS, PairData, _baseline_threshold, pair_data
from lab.relations.corpus import RelDoc, fold_of, read_relations
from lab.relations.metrics import best_threshold, prf
from lab.relations.views import CACHE, load_views, write_views
from relx.doc import Document
from relx.ppi.doc_features import FEATURES, candidates
from relx.ppi.doc_model import DocRelationModel
from relx.ppi.doc_view import DocView

VARIANTS = ("G", "E", "G+E")
#: the setting compared (gene-relations 0.2.0's, as registered)
SETTING = "markers-types+aux-novelty-C10"


def e2e_cache(split: str = "fit") -> Path:
    return CACHE / f"e2e-views-{split}.jsonl"


def build_e2e_views(docs: list[RelDoc], log=print) -> list[DocView]:
    """The views of ``docs`` read from their raw text as ``relx extract`` reads them."""
    import relx
    from relx.ppi.doc_view import doc_view
    from relx.ppi.gene_relations import gene_key

    ex = relx.load(task="ppi", threshold=float("-inf"), same_gene_pairs=True,
                   pair_typer=False)   # typed as the gene relation task types
    out, t0 = [], time.time()
    for k, (doc, found, _) in enumerate(ex.annotate(Document(id=d.pmid, text=d.text)
                                                    for d in docs)):
        out.append(doc_view(doc, found, gene_key))
        if (k + 1) % 50 == 0:
            log(f"{k + 1}/{len(docs)} documents, {time.time() - t0:.0f} s")
    return out


@dataclass
class E2EData:
    """End-to-end candidates: as :class:`PairData` (``related``/``types``/``novel`` from the
    gold relation of the pair's NCBI Gene ids), with ``pair[i]`` those ids (None when a gene
    has none, or both have the same) and the gold gene pairs of each document."""

    X: np.ndarray
    texts: list[str]
    related: np.ndarray
    types: np.ndarray
    novel: np.ndarray
    groups: np.ndarray
    folds: np.ndarray
    pair: list[frozenset[str] | None]
    gold: dict[str, set[frozenset[str]]]


def e2e_data(docs: list[RelDoc], views: dict[str, DocView], ncbi: NcbiIds,
             max_pairs: int | None = MAX_PAIRS) -> E2EData:
    def bare(gene: str) -> str | None:
        return gene if gene.isdigit() else ncbi.ncbi(gene)

    rows, texts, rel, typ, nov, grp, fld, pairs = [], [], [], [], [], [], [], []
    gold: dict[str, set[frozenset[str]]] = {}
    for d in docs:
        gold[d.pmid] = set(d.relations)
        c = candidates(views[d.pmid], max_pairs)
        for (x, y), feats, text in zip(c.keys, c.X, c.texts, strict=True):
            a, b = bare(x), bare(y)
            pair = frozenset((a, b)) if a and b and a != b else None
            g = d.relations.get(pair) if pair else None
            rows.append(feats)
            texts.append(text)
            rel.append(int(g is not None))
            typ.append(g.type if g else "")
            nov.append(int(bool(g and g.novel)))
            grp.append(d.pmid)
            fld.append(fold_of(d.pmid))
            pairs.append(pair)
    return E2EData(np.asarray(rows, np.float32).reshape(-1, len(FEATURES)), texts,
                   np.array(rel), np.array(typ), np.array(nov), np.array(grp),
                   np.array(fld), pairs, gold)


def _select(texts: list[str], mask: np.ndarray) -> list[str]:
    return [t for t, k in zip(texts, mask, strict=True) if k]


def _fit(variant: str, g: PairData, e: E2EData, folds: set[int], params: dict[str, Any],
         threshold: float = 0.5) -> DocRelationModel:
    """A model of ``variant`` fitted on the documents of ``folds``."""
    parts = []
    if "G" in variant:
        parts.append((g, np.isin(g.folds, list(folds))))
    if "E" in variant:
        parts.append((e, np.isin(e.folds, list(folds))))
    X = np.vstack([d.X[m] for d, m in parts])
    texts = [t for d, m in parts for t in _select(d.texts, m)]
    cat = lambda name: np.concatenate([getattr(d, name)[m] for d, m in parts])  # noqa: E731
    aux_docs = np.array([p for p in g.aux_groups if fold_of(p) in folds])
    return DocRelationModel(random_state=0, threshold=threshold, **params).fit(
        X, texts, cat("related"), cat("types"), cat("novel"), cat("groups"),
        aux=g.aux(aux_docs))


def _threshold_data(variant: str, g: PairData, e: E2EData, fold: int,
                    pg: np.ndarray, pe: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """(probabilities, labels, gold pairs) of fold ``fold``'s training-kind candidates:
    gold-mention ones and/or end-to-end ones that carry two NCBI Gene ids; each kind counts
    the fold's gold pairs once."""
    n_fold = sum(len(s) for p, s in e.gold.items() if fold_of(p) == fold)
    probs, ys, n_gold = [], [], 0
    if "G" in variant:
        m = g.folds == fold
        probs.append(pg[m])
        ys.append(g.related[m])
        n_gold += n_fold
    if "E" in variant:
        m = (e.folds == fold) & np.array([p is not None for p in e.pair])
        probs.append(pe[m])
        ys.append(e.related[m])
        n_gold += n_fold
    return np.concatenate(probs), np.concatenate(ys), n_gold


def inner_threshold(variant: str, g: PairData, e: E2EData, outer: int,
                    params: dict[str, Any]) -> float:
    """The F1-best threshold of the pooled inner out-of-fold probabilities on the outer
    fold's training folds (the variant's own kind of candidates)."""
    train = sorted(set(g.folds.tolist()) - {outer})
    probs, ys, n_gold = [], [], 0
    for inner in train:
        m = _fit(variant, g, e, set(train) - {inner}, params)
        pg = m.pair_probability(g.X, g.texts) if "G" in variant else np.zeros(0)
        pe = m.pair_probability(e.X, e.texts) if "E" in variant else np.zeros(0)
        p, y, n = _threshold_data(variant, g, e, inner, pg, pe)
        probs.append(p)
        ys.append(y)
        n_gold += n
    return best_threshold(np.concatenate(probs), np.concatenate(ys), n_gold)


def e2e_figures(e: E2EData, prob: np.ndarray, thresholds: dict[int, float]
                ) -> dict[str, Any]:
    """End-to-end gene pairs by NCBI Gene id over the out-of-fold predictions (each
    document's candidates over its fold's threshold, pairs counted once)."""
    pred: dict[str, set[frozenset[str]]] = {p: set() for p in e.gold}
    for k, pair in enumerate(e.pair):
        if pair is not None and prob[k] >= thresholds[int(e.folds[k])]:
            pred[e.groups[k]].add(pair)
    tp = sum(len(pred[p] & e.gold[p]) for p in e.gold)
    return prf(tp, sum(len(s) for s in pred.values()),
               sum(len(s) for s in e.gold.values()))


def gold_mention_figures(g: PairData, prob: np.ndarray, thresholds: dict[int, float]
                         ) -> dict[str, Any]:
    pred = prob >= np.array([thresholds[int(f)] for f in g.folds])
    return prf(int((pred & (g.related == 1)).sum()), int(pred.sum()), g.n_gold)


def run_cv(shared: str | None = None, variants: tuple[str, ...] = VARIANTS,
           log=print) -> dict[str, Any]:
    docs = read_relations(shared, "fit")
    g = pair_data(docs, load_views(), _baseline_threshold())
    e = e2e_data(docs, load_views(path=e2e_cache()), NcbiIds(shared))
    params = SETTINGS[SETTING]
    rep: dict[str, Any] = {"setting": SETTING, "documents": len(docs),
                           "gold_mention_candidates": len(g.related),
                           "e2e_candidates": len(e.related),
                           "e2e_candidates_related": int(e.related.sum()),
                           "gold_pairs": sum(len(s) for s in e.gold.values()),
                           "variants": {}}
    for variant in variants:
        t0 = time.time()
        pg, pe = np.zeros(len(g.related)), np.zeros(len(e.related))
        thresholds: dict[int, float] = {}
        for outer in sorted(set(g.folds.tolist())):
            thresholds[outer] = inner_threshold(variant, g, e, outer, params)
            m = _fit(variant, g, e, set(g.folds.tolist()) - {outer}, params)
            sel_g, sel_e = g.folds == outer, e.folds == outer
            pg[sel_g] = m.pair_probability(g.X[sel_g], _select(g.texts, sel_g))
            pe[sel_e] = m.pair_probability(e.X[sel_e], _select(e.texts, sel_e))
        rep["variants"][variant] = {
            "thresholds": thresholds, "end_to_end": e2e_figures(e, pe, thresholds),
            "gold_mentions": gold_mention_figures(g, pg, thresholds),
            "seconds": round(time.time() - t0, 1)}
        log(variant, json.dumps(rep["variants"][variant]))
    return rep


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    which = ap.add_mutually_exclusive_group(required=True)
    which.add_argument("--views", action="store_true", help="build the end-to-end views")
    which.add_argument("--cv", action="store_true", help="fit-split CV of G, E, G+E")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--shared", default=None)
    ap.add_argument("--json", type=Path)
    a = ap.parse_args(argv)
    if a.views:
        write_views(build_e2e_views(read_relations(a.shared, "fit")), e2e_cache())
        return 0
    rep = run_cv(a.shared, tuple(a.variants.split(",")))
    if a.json:
        a.json.write_text(json.dumps(rep, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
