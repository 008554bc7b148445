"""Document-level gene relations on BioRED train: fit-split cross-validation and the one
development look (the protocol registered in docs/relations.md).

    python -m lab.relations.biored --cv [--json out.json]     # 5-fold CV by document, fit split
    python -m lab.relations.biored --dev [--json out.json]    # the registered dev look (refit on fit)

Needs the cached views (``python -m lab.relations.views``). Given the gold gene mentions:
candidates are gene-id pairs (:func:`relx.ppi.doc_features.candidates`), the model is
:class:`relx.ppi.doc_model.DocRelationModel` with :data:`CHOSEN` (picked by ``--cv``).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from lab.relations.corpus import RelDoc, any_type_pairs, fold_of, read_relations
from lab.relations.metrics import best_threshold, confusion_markdown, prf, score
from lab.relations.views import CACHE, load_views
from relx.ppi.doc_features import FEATURES, MARKER_END, candidates, pair_markers, pair_text
from relx.ppi.doc_model import DocRelationModel
from relx.ppi.doc_view import DocView

#: candidate pairs per document at most (counted when it cuts)
MAX_PAIRS = 300
#: the hyper-parameter settings compared by --cv (pair model; type / novelty follow)
SMALL = {"max_leaf_nodes": 7, "l2_regularization": 5.0}
#: the settings compared by --cv (earlier rounds, in docs/relations.md: isotonic vs sigmoid
#: calibration, slower / smaller trees, text classifiers for the pair and its type)
#: round 5 (gene-relations 0.2.0): types from the marker words (dependency path, cues with
#: negation, events, place, stance) with the common type unless another beats it by 0.1
MARKER_TYPES = {"type_model": "text", "type_words": "markers", "type_C": 1.0,
                "type_feature_weight": 0.0, "type_margin": 0.1}
AUX_NOVELTY = {"novel_model": "text-aux", "text_C": 10.0}
GRID: dict[str, dict[str, Any]] = {
    "markers-types+aux-novelty-C10": {**SMALL, **AUX_NOVELTY, **MARKER_TYPES},
}
#: earlier rounds' settings (docs/relations.md), kept so their figures can be remade
EARLIER: dict[str, dict[str, Any]] = {
    "hgb-small": SMALL,
    "hgb-small+aux-novelty-C3": {**SMALL, "novel_model": "text-aux", "text_C": 3.0},
    "hgb-small+aux-novelty-C10": {**SMALL, **AUX_NOVELTY},
    # the pair classifier without event types: met the CV rule, not shipped (its development
    # look fell by more than issue 52 allows; docs/relations.md)
    "markers-types+aux-novelty-C10+pair-untyped": {**SMALL, **AUX_NOVELTY, **MARKER_TYPES,
                                                   "pair_events": False},
}
#: every named setting, today's and earlier rounds'
SETTINGS: dict[str, dict[str, Any]] = {**EARLIER, **GRID}
#: the setting the --dev look uses, chosen on the fit split's CV (docs/relations.md)
CHOSEN = "markers-types+aux-novelty-C10"
#: the development look of the current CHOSEN (the second: the first, for 0.1.0, and the
#: third, for the unshipped pair-untyped model, are in docs/runs/gene-relations*.json and
#: docs/relations.md)
DEV_LOOK = CACHE / "dev-look-2.json"


@dataclass
class PairData:
    """Pooled candidates of documents: features, labels, doc index, gold pairs missed."""

    X: np.ndarray
    texts: list[str]
    related: np.ndarray
    types: np.ndarray
    novel: np.ndarray
    groups: np.ndarray          # the PMID of each candidate
    folds: np.ndarray
    n_gold: int
    not_candidate: int          # gold pairs with no candidate (counted misses)
    capped: int
    baseline_pred: np.ndarray   # relx today: a same-sentence mention pair over threshold
    aux_texts: list[str]        # relations of every entity type: masked text, type, novel
    aux_types: np.ndarray
    aux_novel: np.ndarray
    aux_groups: np.ndarray

    def aux(self, docs: np.ndarray) -> tuple[list[str], np.ndarray, np.ndarray]:
        """The other-entity relations of documents ``docs`` (PMIDs), gene pairs left out
        (they are the gene data's own)."""
        sel = np.isin(self.aux_groups, docs)
        return ([t for t, k in zip(self.aux_texts, sel, strict=True) if k],
                self.aux_types[sel], self.aux_novel[sel])


def pair_data(docs: list[RelDoc], views: dict[str, DocView], baseline_threshold: float,
              max_pairs: int | None = MAX_PAIRS) -> PairData:
    """The candidates of ``docs`` pooled."""
    rows, texts, rel, typ, nov, grp, fld, base = [], [], [], [], [], [], [], []
    aux_t, aux_y, aux_n, aux_g = [], [], [], []
    n_gold = not_cand = capped = 0
    i_max, i_same = FEATURES.index("score_max"), FEATURES.index("n_same_gene")
    for d in docs:
        c = candidates(views[d.pmid], max_pairs)
        capped += c.capped
        keys = {frozenset(k) for k in c.keys}
        n_gold += len(d.relations)
        not_cand += sum(k not in keys for k in d.relations)
        texts += c.texts
        view = views[d.pmid]
        for k, r, v in any_type_pairs(d, view.sentences):
            if k in d.relations:
                continue
            x, y = sorted(k)
            sent_of = {i: sorted({m.sentence for m in v.mentions if i in m.ids}) for i in k}
            both = sorted(set(sent_of[x]) & set(sent_of[y]))
            aux_t.append(pair_markers(v, x, y, [], both, sent_of) + MARKER_END
                         + pair_text(v, x, y, both, sent_of))
            aux_y.append(r.type)
            aux_n.append(int(r.novel))
            aux_g.append(d.pmid)
        for k, x in zip(c.keys, c.X, strict=True):
            g = d.relations.get(frozenset(k))
            rows.append(x)
            rel.append(int(g is not None))
            typ.append(g.type if g else "")
            nov.append(int(bool(g and g.novel)))
            grp.append(d.pmid)
            fld.append(fold_of(d.pmid))
            base.append(x[i_max] > baseline_threshold and x[i_same] == 0)
    return PairData(np.asarray(rows, np.float32).reshape(-1, len(FEATURES)), texts,
                    np.array(rel),
                    np.array(typ), np.array(nov), np.array(grp), np.array(fld), n_gold,
                    not_cand, capped, np.array(base, bool), aux_t, np.array(aux_y),
                    np.array(aux_n), np.array(aux_g))


def baseline_figures(data: PairData) -> dict[str, Any]:
    pred = data.baseline_pred
    return prf(int((pred & (data.related == 1)).sum()), int(pred.sum()), data.n_gold)


def cross_validate(data: PairData, params: dict[str, Any], random_state: int = 0,
                   bind: np.ndarray | None = None) -> dict[str, Any]:
    """Out-of-fold predictions over the fit split's 5 folds; figures at the F1-best threshold
    of the pooled out-of-fold probabilities (and at 0.5). ``bind``: candidates typed
    ``Bind`` whatever the type model says (round 7b: a ligand and its receptor)."""
    n = len(data.related)
    prob, novel_p = np.zeros(n), np.zeros(n)
    types = np.empty(n, dtype=object)
    for f in sorted(set(data.folds.tolist())):
        tr, te = data.folds != f, data.folds == f
        t_tr = [t for t, k in zip(data.texts, tr, strict=True) if k]
        t_te = [t for t, k in zip(data.texts, te, strict=True) if k]
        m = DocRelationModel(random_state=random_state, **params).fit(
            data.X[tr], t_tr, data.related[tr], data.types[tr], data.novel[tr],
            data.groups[tr],
            aux=data.aux(np.array([p for p in data.aux_groups if fold_of(p) != f])))
        prob[te] = m.pair_probability(data.X[te], t_te)
        types[te] = m.predict_type(data.X[te], t_te)[0]
        novel_p[te] = m.novel_probability(data.X[te], t_te)
    if bind is not None:
        types[bind] = "Bind"
    t = best_threshold(prob, data.related, data.n_gold)
    nt = params.get("novel_threshold", 0.5)
    out = score(prob, data.related, t, data.n_gold, data.types, types, data.novel, novel_p,
                nt)
    out["at_0.5"] = score(prob, data.related, 0.5, data.n_gold, data.types, types,
                          data.novel, novel_p, nt)["pairs"]
    return out


def run_cv(shared: str | None = None) -> dict[str, Any]:
    docs = read_relations(shared, "fit")
    data = pair_data(docs, load_views(), _baseline_threshold())
    rep: dict[str, Any] = {"split": "fit (5-fold CV by document)", "documents": len(docs),
                           "candidates": len(data.related), "gold_pairs": data.n_gold,
                           "gold_not_candidate": data.not_candidate, "capped": data.capped,
                           "baseline_relx_today": baseline_figures(data), "settings": {}}
    for name, params in GRID.items():
        rep["settings"][name] = cross_validate(data, params)
        _cv_cache(name).write_text(json.dumps({"params": params, **rep["settings"][name]})
                                   + "\n", encoding="utf-8")
        print(name, json.dumps(rep["settings"][name]["pairs"]), flush=True)
    return rep


def fit_final(shared: str | None = None, views: dict[str, DocView] | None = None
              ) -> tuple[DocRelationModel, dict[str, Any]]:
    """:data:`CHOSEN` refitted on the whole fit split, its threshold the one its fit-split CV
    chose; with the CV figures."""
    views = views or load_views()
    fit = pair_data(read_relations(shared, "fit"), views, _baseline_threshold())
    params = GRID[CHOSEN]
    cached = json.loads(_cv_cache(CHOSEN).read_text()) if _cv_cache(CHOSEN).exists() else {}
    if cached.get("params") == params:      # this very setting's --cv on the same views
        cv = {k: v for k, v in cached.items() if k != "params"}
    else:
        cv = cross_validate(fit, params)
    model = DocRelationModel(threshold=cv["threshold"], **params).fit(
        fit.X, fit.texts, fit.related, fit.types, fit.novel, fit.groups,
        aux=fit.aux(fit.aux_groups))
    return model, cv


def _cv_cache(name: str) -> Path:
    return CACHE / f"cv-{name}.json"


def run_dev(shared: str | None = None, force: bool = False) -> dict[str, Any]:
    """The registered development look: :func:`fit_final`, then score the dev split."""
    if DEV_LOOK.exists() and not force:
        raise SystemExit(f"the dev split was already looked at: {DEV_LOOK}")
    views = load_views()
    model, _ = fit_final(shared, views)
    docs = read_relations(shared, "dev")
    dev = pair_data(docs, views, _baseline_threshold())
    prob = model.pair_probability(dev.X, dev.texts)
    rep = {"split": "dev (second look, registered for gene-relations 0.2.0)",
           "setting": CHOSEN, "documents": len(docs),
           "candidates": len(dev.related), "gold_pairs": dev.n_gold,
           "gold_not_candidate": dev.not_candidate, "capped": dev.capped,
           "baseline_relx_today": baseline_figures(dev),
           **score(prob, dev.related, model.threshold, dev.n_gold, dev.types,
                   model.predict_type(dev.X, dev.texts)[0], dev.novel,
                   model.novel_probability(dev.X, dev.texts), model.novel_threshold)}
    DEV_LOOK.parent.mkdir(parents=True, exist_ok=True)
    DEV_LOOK.write_text(json.dumps(rep, indent=1) + "\n", encoding="utf-8")
    return rep


def _baseline_threshold() -> float:
    from relx.ppi.extract import resolve_model

    return float(resolve_model(None).threshold)


def markdown(rep: dict[str, Any]) -> str:
    """The figures of one report as markdown (CV: one row per setting)."""
    rows = rep["settings"] if "settings" in rep else {rep["setting"]: rep}
    b = rep["baseline_relx_today"]
    lines = [f"BioRED train, {rep['split']}: {rep['documents']} documents, "
             f"{rep['candidates']} candidate pairs, {rep['gold_pairs']} gold pairs "
             f"({rep['gold_not_candidate']} not candidates, {rep['capped']} capped)", "",
             "| model | threshold | pair P | pair R | pair F1 | type acc. (majority) | "
             "novelty F1 (all Novel) | novelty acc. (all Novel) | novelty AUC | ECE |",
             "|---|---|---|---|---|---|---|---|---|---|",
             f"| relx today (any mention pair over its threshold) | - | {b['precision']:.3f} |"
             f" {b['recall']:.3f} | {b['f1']:.3f} | - | - | - | - | - |"]
    for name, r in rows.items():
        p, nv = r["pairs"], r["novelty"]
        share = nv["share_novel"]
        auc = f"{nv['auc']:.3f}" if nv.get("auc") is not None else "-"
        lines.append(f"| {name} | {r['threshold']:.3f} | {p['precision']:.3f} | "
                     f"{p['recall']:.3f} | {p['f1']:.3f} | {r['type_accuracy']:.3f} "
                     f"({r['type_majority']:.3f}) | {nv['f1']:.3f} ({2 * share / (1 + share):.3f})"
                     f" | {nv['accuracy']:.3f} ({share:.3f}) | {auc} | {r['ece']:.3f} |")
    first = rows[CHOSEN] if CHOSEN in rows else next(iter(rows.values()))
    return "\n".join(lines) + "\n\nTypes on correctly found pairs:\n\n" + \
        confusion_markdown(first["confusion"])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    which = ap.add_mutually_exclusive_group(required=True)
    which.add_argument("--cv", action="store_true", help="fit-split cross-validation")
    which.add_argument("--dev", action="store_true", help="the one development look")
    ap.add_argument("--shared", default=None)
    ap.add_argument("--json", type=Path)
    a = ap.parse_args(argv)
    rep = run_cv(a.shared) if a.cv else run_dev(a.shared)
    print(markdown(rep))
    if a.json:
        a.json.write_text(json.dumps(rep, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
