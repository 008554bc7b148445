"""Round 79's experiment, not kept: a learned choice between human and mouse for a gene
mention, beside relx's species rules (docs/genes.md, naming round 79).

    python -m lab.genes.species_model [--shared ../shared] [--report runs/genes/species-model.json]

Examples: relx's own gene mentions (its tagger on the raw fit-split abstracts) that overlap
gold gene mentions of one species, human or mouse, and that the rules
(:func:`relx.genes.species.assign_species`) call human or mouse; features of each mention's
context (:func:`mention_features`: the species the document, its sentence, the sentence
before and its paragraph name, its own writing, cue phrases; no rule's output). ``C`` is
chosen from :data:`C_GRID` by accuracy in 5-fold cross-validation by document, averaged
over three assignments of documents to folds; the rules' accuracy on the same mentions is
in-sample (they were written on these documents). The development split is never read.
The version wired into relx's grounding (and judged on the probes, LocText, GNAT-100 and GE
2011) is on the branch ``lab/round79-species-model``.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from bisect import bisect_right
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LogisticRegression
from sklearn.utils.validation import check_is_fitted

from lab.genes.biored import NcbiIds, _overlap, _span, read_biored
from relx.doc import Document
from relx.genes import species as sp
from relx.genes.lexicon import default_grounder
from relx.genes.mention_species import (
    KNOCKOUT_AFTER,
    knockout_animal,
    knockout_suffix,
    name_part,
    species_prefix,
)
from relx.genes.species import assign_species, find_species
from relx.genes.symbol_sets import rodent_symbols
from relx.ids import HUMAN, MOUSE

ROOT = Path(__file__).resolve().parents[2]
C_GRID = (0.03, 0.1, 0.3, 1.0)
SEEDS = (0, 1, 2)
FOLDS = 5
#: the rules whose choice between human and mouse the model would make instead
LEARNED_EVIDENCE = frozenset({"sentence", "paragraph", "document", "default", "inherited",
                              "mammal", "nomenclature"})
#: the model's two classes (``predict_proba`` columns)
CLASSES = ("human", "mouse")
_GROUPS = ("human", "mouse", "other")
#: kinds of organism mention counted per document
_KINDS = ("name", "cell_line", "xenograft", "host", "genetics")
_MOUSE_STYLE = re.compile(r"^[A-Z][a-z][a-z0-9]*$|^[A-Z][a-z]*\d+[a-z0-9]*$")
_CAPS = re.compile(r"^[A-Z0-9-]+$")

InLexicon = Callable[[str, str], bool]


def _group(taxon: str | None) -> str:
    return {HUMAN: "human", MOUSE: "mouse"}.get(taxon or "", "other")


def mention_features(doc: Document, hits: Sequence[sp.SpeciesHit], *,
                     in_lexicon: InLexicon, rodent_symbol: Callable[[str], bool],
                     family_name: Callable[[str], bool] | None = None,
                     only: set[str] | None = None) -> dict[str, dict[str, float]]:
    """Entity id -> feature name -> value, for ``doc``'s gene mentions (those in ``only``
    when given). ``hits``: the document's organism mentions (:func:`find_species`)."""
    text = doc.text
    found = sorted([*hits, *sp.mouse_genetics(text), *sp.abbreviated_cells(doc, list(hits))],
                   key=lambda h: h.start)
    found = sp.tumour_hosts(text, found)
    used = [h for h in found if h.kind in sp.GENE_KINDS]
    sents, paras = sp._spans(doc)
    ents = [e for s in doc.sentences for e in s.entities if sp._is_gene(e.type)]
    names = [sp._entity_text(doc, e).strip() for e in ents]
    n = len(ents) or 1
    doc_f: dict[str, float] = {
        "rod_share": sum(bool(rodent_symbol(name_part(t))) for t in names) / n,
        "mstyle_share": sum(bool(_MOUSE_STYLE.match(t)) for t in names) / n}
    counts = Counter(_group(h.taxon) for h in used)
    kinds = Counter((h.kind, _group(h.taxon)) for h in found)
    title_end = sents[0][1]
    in_title = Counter(_group(h.taxon) for h in used if h.start < title_end)
    total = sum(counts.values()) or 1
    for g in _GROUPS:
        doc_f[f"doc_{g}"] = math.log1p(counts[g])
        doc_f[f"docshare_{g}"] = counts[g] / total
        doc_f[f"title_{g}"] = float(in_title[g] > 0)
        for k in _KINDS:
            if kinds[k, g]:
                doc_f[f"kind_{k}_{g}"] = math.log1p(kinds[k, g])
    focus = sp.document_focus(used)
    doc_f[f"first={_group(used[0].taxon) if used else 'none'}"] = 1.0
    doc_f[f"focus={_group(focus) if focus else 'none'}"] = 1.0
    out: dict[str, dict[str, float]] = {}
    for e, t in zip(ents, names, strict=True):
        if only is not None and e.id not in only:
            continue
        f = dict(doc_f)
        _context(f, text, e.start, e.end, used, sents, paras)
        name = name_part(t)
        pre = species_prefix(name, in_lexicon, family_name)
        if pre is not None:
            f[f"prefix={_group(pre[0])}"] = 1.0
        animal = knockout_animal(text, t, e.end)
        if animal is not None:
            f[f"ko_animal={_group(animal)}"] = 1.0
        if knockout_suffix(t) or KNOCKOUT_AFTER.match(text[e.end:e.end + 20]):
            f["ko_marker"] = 1.0
        if rodent_symbol(name):
            f["rodent_symbol"] = 1.0
        f["mouse_style"] = float(bool(_MOUSE_STYLE.match(t)))
        f["caps"] = float(bool(_CAPS.match(t)))
        f["in_human"] = float(in_lexicon(t, HUMAN))
        f["in_mouse"] = float(in_lexicon(t, MOUSE))
        f["in_title"] = float(e.start < title_end)
        out[e.id] = f
    return out


def _context(f: dict[str, float], text: str, start: int, end: int,
             used: list[sp.SpeciesHit], sents: list[tuple[int, int]],
             paras: list[tuple[int, int]]) -> None:
    """Add the features of the species named around a mention at ``start:end``."""
    sa, sb = sp._span_at(sents, start)
    in_sentence = [h for h in used if sa <= h.start < sb]
    for g in _GROUPS:
        f[f"sent_{g}"] = float(any(_group(h.taxon) == g for h in in_sentence))
    near = sp._nearest(in_sentence, start, end, False)
    if near is not None:
        f[f"sent_near={_group(near.taxon)}"] = 1.0
        if 0 <= start - near.end <= 2:    # "human H-Ras": the species of this gene
            f[f"modifier={_group(near.taxon)}"] = 1.0
        if near.end <= start:
            f[f"sent_near_before={_group(near.taxon)}"] = 1.0
    pa, _ = sp._span_at(paras, start)
    before = [h for h in used if pa <= h.start and h.end <= start]
    if before:
        f[f"para_before={_group(before[-1].taxon)}"] = 1.0
        for g in _GROUPS:
            f[f"last3_{g}"] = sum(_group(h.taxon) == g for h in before[-3:]) / 3
    i = bisect_right(sents, (start, len(text) + 1)) - 1
    if i > 0:
        pa2, pb2 = sents[i - 1]
        for g in _GROUPS:
            if any(_group(h.taxon) == g for h in used if pa2 <= h.start < pb2):
                f[f"prev_{g}"] = 1.0
    if sp._INHERITED.search(text, sa, sb):
        f["inherited"] = 1.0
    if sp._STUDY_OPENER.match(text, sa):
        f["study_opener"] = 1.0
    if sp._MAMMAL.search(text, sa, sb):
        f["mammal"] = 1.0


class SpeciesModel(ClassifierMixin, BaseEstimator):
    """Human or mouse from a mention's features (:func:`mention_features`): a logistic
    regression over feature dicts. ``C``: inverse regularisation strength.

    Learned: ``features_`` (names, sorted), ``coef_`` (n_features,), ``intercept_``,
    ``classes_`` (``("human", "mouse")``)."""

    def __init__(self, C: float = 0.03, random_state: int | None = 0) -> None:
        self.C = C
        self.random_state = random_state

    def _matrix(self, X: Sequence[Mapping[str, float]]) -> np.ndarray:
        col = {name: j for j, name in enumerate(self.features_)}
        out = np.zeros((len(X), len(col)))
        for i, f in enumerate(X):
            for k, v in f.items():
                j = col.get(k)
                if j is not None:
                    out[i, j] = v
        return out

    def fit(self, X: Sequence[Mapping[str, float]], y: Sequence[str]) -> SpeciesModel:
        """Learn from feature dicts ``X`` and labels ``y`` (``"human"``/``"mouse"``)."""
        labels = np.asarray(y)
        if not set(labels) <= set(CLASSES):
            raise ValueError(f"labels must be {CLASSES}, got {sorted(set(labels))}")
        self.features_ = sorted({k for f in X for k in f})
        lr = LogisticRegression(C=self.C, max_iter=5000, random_state=self.random_state)
        lr.fit(self._matrix(X), labels == "mouse")
        self.coef_ = lr.coef_[0].copy()
        self.intercept_ = float(lr.intercept_[0])
        self.classes_ = np.array(CLASSES)
        return self

    def predict_proba(self, X: Sequence[Mapping[str, float]]) -> np.ndarray:
        """(n, 2) probabilities of human and mouse."""
        check_is_fitted(self, "coef_")
        mouse = 1.0 / (1.0 + np.exp(-(self._matrix(X) @ self.coef_ + self.intercept_)))
        return np.column_stack([1.0 - mouse, mouse])

    def predict(self, X: Sequence[Mapping[str, float]]) -> np.ndarray:
        return self.classes_[(self.predict_proba(X)[:, 1] >= 0.5).astype(int)]

    def to_json(self) -> dict:
        check_is_fitted(self, "coef_")
        return {"format": "relx-species-model/1", "C": self.C, "random_state": self.random_state,
                "intercept": self.intercept_,
                "coef": {k: float(c) for k, c in zip(self.features_, self.coef_, strict=True)}}


def examples(shared: Path | None) -> list[dict]:
    """One row per example: document, mention text, features, gold and rule species, the
    rule's evidence."""
    import relx

    ncbi = NcbiIds(shared)
    g = default_grounder()
    rodent = rodent_symbols(g).__contains__
    golds = read_biored(shared, "fit")
    ex = relx.load(task="ppi", types=False, ground=False)
    taxa = {HUMAN: "human", MOUSE: "mouse"}
    rows = []
    docs = [Document(id=d.pmid, text=d.text) for d in golds]
    for gold, (doc, _, _) in zip(golds, ex.annotate(docs), strict=True):
        hits = find_species(doc.text)
        rules = assign_species(doc, hits, in_lexicon=g.in_lexicon, rodent_symbol=rodent,
                               family_name=g.is_family_name)
        feats = mention_features(doc, hits, in_lexicon=g.in_lexicon, rodent_symbol=rodent,
                                 family_name=g.is_family_name)
        for s in doc.sentences:
            for e in s.entities:
                if e.id not in feats or e.id not in rules:
                    continue
                ids = {i for m in gold.genes if _overlap(_span(e), (m.start, m.end))
                       for i in m.ids}
                species = {ncbi.species(i) for i in ids}
                rule = taxa.get(rules[e.id].taxon)
                if len(species) != 1 or rule is None or not species <= {"human", "mouse"}:
                    continue
                rows.append({"doc": doc.id, "text": doc.text[e.start:e.end],
                             "features": feats[e.id], "gold": species.pop(), "rule": rule,
                             "evidence": rules[e.id].evidence})
    return rows


def cross_validated(rows: list[dict], C: float, seed: int) -> np.ndarray:
    """Out-of-fold predictions (``"human"``/``"mouse"``), documents in :data:`FOLDS` folds."""
    docs = sorted({r["doc"] for r in rows})
    order = np.random.RandomState(seed).permutation(len(docs))
    fold_of = {docs[i]: k % FOLDS for k, i in enumerate(order)}
    fold = np.array([fold_of[r["doc"]] for r in rows])
    X = [r["features"] for r in rows]
    y = np.array([r["gold"] for r in rows])
    pred = np.empty(len(rows), dtype=object)
    for k in range(FOLDS):
        train, test = np.where(fold != k)[0], np.where(fold == k)[0]
        model = SpeciesModel(C=C).fit([X[i] for i in train], y[train])
        pred[test] = model.predict([X[i] for i in test])
    return pred


def report(rows: list[dict]) -> dict:
    """Cross-validated accuracy per ``C`` beside the rules', and by the rules' evidence."""
    y = np.array([r["gold"] for r in rows])
    rule = np.array([r["rule"] for r in rows])
    by_c = {}
    preds = {}
    for C in C_GRID:
        runs = [cross_validated(rows, C, s) for s in SEEDS]
        preds[C] = runs[0]
        by_c[str(C)] = round(float(np.mean([(p == y).mean() for p in runs])), 4)
    best = max(C_GRID, key=lambda c: (by_c[str(c)], -c))
    evidence: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for r, p in zip(rows, preds[best], strict=True):
        ev = evidence[r["evidence"]]
        ev[0] += 1
        ev[1] += p == r["gold"]
        ev[2] += r["rule"] == r["gold"]
    confusion = Counter((g, p) for g, p in zip(y, preds[best], strict=True))
    return {"mentions": len(rows), "documents": len({r["doc"] for r in rows}),
            "mouse_share": round(float((y == "mouse").mean()), 4),
            "rules_in_sample": round(float((rule == y).mean()), 4),
            "cv_accuracy_by_C": by_c, "C": best,
            "cv_human_as_mouse": confusion["human", "mouse"],
            "cv_mouse_as_human": confusion["mouse", "human"],
            "rules_human_as_mouse": int(((rule == "mouse") & (y == "human")).sum()),
            "rules_mouse_as_human": int(((rule == "human") & (y == "mouse")).sum()),
            "by_evidence": {k: {"mentions": n, "cv": round(a / n, 4), "rules": round(b / n, 4)}
                            for k, (n, a, b) in sorted(evidence.items(),
                                                       key=lambda kv: -kv[1][0])}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", type=Path)
    ap.add_argument("--out", type=Path, help="write the model trained on the whole fit split")
    ap.add_argument("--report", type=Path)
    a = ap.parse_args(argv)
    rows = examples(a.shared)
    rep = report(rows)
    print(json.dumps(rep, indent=1))
    model = SpeciesModel(C=rep["C"]).fit([r["features"] for r in rows],
                                         [r["gold"] for r in rows])
    if a.out:
        a.out.write_text(json.dumps(model.to_json(), indent=1, sort_keys=True) + "\n",
                         encoding="utf-8")
    if a.report:
        a.report.parent.mkdir(parents=True, exist_ok=True)
        a.report.write_text(json.dumps(rep, indent=1) + "\n", encoding="utf-8")
    print(f"C {rep['C']}, {len(model.features_)} features", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
