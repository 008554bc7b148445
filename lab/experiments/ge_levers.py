"""GENIA event levers of issue 32, measured on the validation split of GE 2011 train.

The split and fit are the shipped recipe's: GE 2011 train less a seeded 20% of its documents
(``lab.ge.tune.split_docs``, seed 0: 182 validation documents) plus GE 2013 train (its
repeats of GE 2011 train papers skipped). Scores come from relx's scorer
(``relx.ge.evaluate.evaluate_events``: approximate recursive, task 1); trigger scores are
per type over token nodes (head token, type) against the gold trigger heads. GE 2011 devel
is never read here.

    python -m lab.experiments.ge_levers fit        # the base model of the split -> runs/ge-levers/base
    python -m lab.experiments.ge_levers misses     # where the regulation trigger / event misses are
    python -m lab.experiments.ge_levers oracle     # gold triggers + predicted edges, + gold edges
    python -m lab.experiments.ge_levers typebias   # per-type trigger bias for the regulations
    python -m lab.experiments.ge_levers lexicon    # stems / compound tails / EigenWord neighbours
    python -m lab.experiments.ge_levers balanced   # class-balanced trigger SVM, none_bias re-swept
    python -m lab.experiments.ge_levers binding    # Binding groupings, learned unmerging included
    python -m lab.experiments.ge_levers edgebias   # edge bias for regulation sources apart, cause bias
    python -m lab.experiments.ge_levers joint [--crossfit]   # joint decoding (over cross-fitted edges)
    python -m lab.experiments.ge_levers stack      # stacked (second-stage) trigger classifier
    python -m lab.experiments.ge_levers stackedges # stacked (second-stage) edge model
    python -m lab.experiments.ge_levers stackslack # stacked triggers: the edge-score slack (speed)

Parses come from ``--cache-dir`` (default ``runs/events/cache``; built once, then reused).
Every command prints one line per setting: per-class F1 (SVT, BIND, REG and the three
regulation types) and P / R / F1 of all events.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from lab.ge.decode import crossfit_trigger_nodes, joint_decode, nodes_of, trigger_candidates
from lab.ge.extractor import LabGEExtractor
from lab.ge.stacked_edges import StackedEdgeDetector, margin_lookup
from lab.ge.stacking import (
    CrossFit,
    StackedTriggerDetector,
    crossfit_stage1,
    stage1_outputs,
    type_margins,
)
from lab.ge.triggers import LeverTriggerDetector, biased, decide
from lab.ge.tune import split_docs
from relx.doc import REGULATION_TYPES
from relx.ge.assemble import assemble_document
from relx.ge.data import GEDoc, cache_path, load_ge
from relx.ge.edges import EdgeDetector, candidates, decide_edges, gold_labels
from relx.ge.evaluate import _DocMatcher, evaluate_events
from relx.ge.sentences import SentenceView, build_views
from relx.ge.triggers import NONE_LABEL, _key
from relx.registry import build_component, load_config

GE = Path(__file__).resolve().parents[2].parent / "shared" / "corpora" / "bionlp-st-ge"
REG = ("Regulation", "Positive_regulation", "Negative_regulation")
SVT_BIND = ("Gene_expression", "Transcription", "Protein_catabolism", "Phosphorylation",
            "Localization", "Binding")


def load_split(cache_dir: str) -> tuple[list[GEDoc], list[GEDoc]]:
    """(fit, validation): 726 GE 2011 train + GE 2013 train documents, 182 held out."""
    tr11 = load_ge(GE / "2011" / "train", cache_path(cache_dir, GE / "2011" / "train"))
    fit, val = split_docs(tr11, 0.2, 0)
    tr13 = load_ge(GE / "2013" / "train", cache_path(cache_dir, GE / "2013" / "train"),
                   skip_ids={d.id for d in tr11})
    return fit + tr13, val


def base_model(a: argparse.Namespace, fit: Sequence[GEDoc]) -> LabGEExtractor:
    """The shipped config fitted on the split (saved once under ``--out``)."""
    path = Path(a.out) / "base"
    if (path / "meta.json").is_file():
        return LabGEExtractor.load(path)
    model = LabGEExtractor(load_config(a.config)).fit(fit, verbose=True)
    model.save(path)
    return model


def line(r: dict[str, Any]) -> str:
    pt = r["per_type"]
    return (" ".join(f"{k}={pt[k]['f1']:.3f}" for k in ("SVT", "BIND", "REG", *REG))
            + f" | P={r['precision']:.3f} R={r['recall']:.3f} F1={r['f1']:.3f}")


def trigger_prf(views: Sequence[SentenceView], pred: Sequence[dict[int, set[str]]]
                ) -> dict[str, tuple[float, float, float, int]]:
    """Per type (and ALL): node precision, recall, F1 and the gold count."""
    tp, fp, fn = Counter(), Counter(), Counter()
    for v, p in zip(views, pred, strict=True):
        g = {(t, ty) for t, tys in v.gold_triggers.items() for ty in tys}
        q = {(t, ty) for t, tys in p.items() for ty in tys}
        for bag, nodes in ((tp, g & q), (fp, q - g), (fn, g - q)):
            bag.update(ty for _, ty in nodes)
    out = {}
    for ty in [*sorted(set(tp) | set(fn)), "ALL"]:
        a, b, c = ((sum(x.values()) for x in (tp, fp, fn)) if ty == "ALL"
                   else (tp[ty], fp[ty], fn[ty]))
        p, r = a / max(a + b, 1), a / max(a + c, 1)
        out[ty] = (p, r, 2 * p * r / max(p + r, 1e-9), a + c)
    return out


class Validation:
    """The validation documents, their views and a scorer for per-view edge decisions."""

    def __init__(self, model: LabGEExtractor, val: Sequence[GEDoc]) -> None:
        self.model, self.val = model, list(val)
        self.views = [build_views(d, gold=False) for d in val]
        self.flat = [v for vs in self.views for v in vs]
        self.gold_views = [v for d in val for v in build_views(d, gold=True)]
        self.gold = [d.standoff for d in val]
        self.scores, self.index = model.triggers.scores(self.flat)

    def score(self, edges, binding=None) -> dict[str, Any]:
        per_view: list[list] = [[] for _ in self.flat]
        for c, role in edges:
            per_view[c.view].append((c, role))
        preds, k = [], 0
        group = self.model.grouping(binding or self.model.binding)
        for d, vs in zip(self.val, self.views, strict=True):
            preds.append(assemble_document(d.standoff, vs, per_view[k:k + len(vs)], group))
            k += len(vs)
        return evaluate_events(self.gold, preds)

    def pipeline(self, type_bias=None, edge_bias=None):
        m = self.model
        nodes = decide(self.scores, self.index, m.triggers.classes_, len(self.flat),
                       m.triggers.none_bias, type_bias)
        cands = candidates(self.flat, nodes)
        proba = m.edges.proba(self.flat, cands)
        eb = m.edges.none_bias if edge_bias is None else edge_bias
        return nodes, cands, proba, decide_edges(proba, cands, eb, m.edges.cause_bias)


def cmd_misses(a, fit, val) -> None:
    m = base_model(a, fit)
    gv = [v for d in val for v in build_views(d, gold=True)]
    scores, index = m.triggers.scores(gv)
    cls = m.triggers.classes_
    s = biased(scores, cls, m.triggers.none_bias, m.triggers.type_bias)
    row = {vi_tok: k for k, vi_tok in enumerate(index)}
    lex, near = defaultdict(Counter), defaultdict(list)
    d = m.triggers.dictionary_
    for vi, v in enumerate(gv):
        for tok, types in v.gold_triggers.items():
            for ty in set(types) & set(REG):
                k = row.get((vi, tok))
                if k is None:
                    lex[ty]["not a candidate"] += 1
                    continue
                won = cls[int(s[k].argmax())]
                key = _key(v, tok)
                known = d.types.get(key, {})
                if ty in won.split("|"):
                    lex[ty]["found"] += 1
                    continue
                lex[ty]["lemma unseen" if not d.total.get(key) else
                        "lemma never a trigger" if not known else
                        "lemma a trigger of other types only" if not known.get(ty) else
                        f"known, scored {'None' if won == NONE_LABEL else 'another type'}"] += 1
                own = max((s[k, j] for j, c in enumerate(cls) if ty in c.split("|")),
                          default=-9.0)
                near[ty].append(own - s[k].max())
    for ty in REG:
        print(ty, dict(lex[ty].most_common()))
        q = np.quantile(near[ty], [0.25, 0.5, 0.75]).round(2) if near[ty] else []
        print("   margin of the missed to the winner (quartiles):", q)
    preds = m.predict(val)
    why = defaultdict(Counter)
    for doc, p in zip(val, preds, strict=True):
        dm = _DocMatcher(doc.standoff, p, "approx-recursive", 1)
        for g in dm.unique_events(doc.standoff)[0]:
            if g.type not in REG:
                continue
            if any(dm.event_match(q.id, g.id) for q in p.events if q.type == g.type):
                why[g.type]["matched"] += 1
            elif not any(t.type == g.type and dm.tb_match(t, dm.g_tb[g.trigger])
                         for t in dm.p_tb.values()):
                why[g.type]["no output trigger"] += 1
            else:
                why[g.type]["trigger, arguments wrong"] += 1
    for ty in REG:
        print(ty, "gold events:", dict(why[ty].most_common()))


def cmd_oracle(a, fit, val) -> None:
    m = base_model(a, fit)
    views = [build_views(d, gold=True) for d in val]
    flat = [v for vs in views for v in vs]
    ev = Validation(m, val)
    ev.views, ev.flat = views, flat   # gold views: the trigger nodes are the gold ones
    cands = candidates(flat, [v.gold_triggers for v in flat])
    proba = m.edges.proba(flat, cands)
    print("gold triggers, predicted edges:",
          line(ev.score(decide_edges(proba, cands, m.edges.none_bias, m.edges.cause_bias))))
    gold_edges = [(c, flat[c.view].gold_edges[(c.src, c.dst)]) for c in cands
                  if (c.src, c.dst) in flat[c.view].gold_edges]
    print("gold triggers, gold edges:", line(ev.score(gold_edges)))


def cmd_typebias(a, fit, val) -> None:
    ev = Validation(base_model(a, fit), val)
    for reg, other in [(0.0, 0.0), (0.0, -0.1), (0.0, 0.1), (0.1, 0.0), (0.2, 0.0),
                       (0.3, 0.0), (0.4, 0.0)]:
        tb = {**{t: reg for t in REG}, **{t: other for t in SVT_BIND}}
        nodes, _, _, edges = ev.pipeline(type_bias=tb)
        tr = trigger_prf(ev.gold_views, nodes)
        print(f"regulation bias {reg:+.1f} others {other:+.1f}: trigger R "
              + " ".join(f"{t}={tr[t][1]:.3f}" for t in REG), "|", line(ev.score(edges)))


def cmd_lexicon(a, fit, val) -> None:
    m = base_model(a, fit)
    fit_views = [build_views(d, gold=True) for d in fit]
    tcfg = dict(load_config(a.config)["triggers"])
    for tag, extra in [("stems + compound tail", {"lexicon_variants": True}),
                       ("EigenWord neighbours", {"vectors": "runs/vectors/eigenwords.npz"}),
                       ("both", {"lexicon_variants": True, "vectors": "runs/vectors/eigenwords.npz"})]:
        m.triggers = LeverTriggerDetector(**tcfg, **extra, random_state=0).fit(fit_views)
        ev = Validation(m, val)
        nodes, _, _, edges = ev.pipeline()
        tr = trigger_prf(ev.gold_views, nodes)
        print(f"{tag}: trigger P/R/F1 {tr['ALL'][0]:.3f}/{tr['ALL'][1]:.3f}/{tr['ALL'][2]:.3f}",
              "|", line(ev.score(edges)), flush=True)


def cmd_balanced(a, fit, val) -> None:
    m = base_model(a, fit)
    tcfg = {**load_config(a.config)["triggers"], "class_weight": "balanced"}
    m.triggers = LeverTriggerDetector(**tcfg, random_state=0).fit(
        [build_views(d, gold=True) for d in fit])
    ev = Validation(m, val)
    for tb in (-0.6, -0.3, 0.0):
        m.triggers.none_bias = tb
        nodes, _, _, edges = ev.pipeline()
        tr = trigger_prf(ev.gold_views, nodes)
        print(f"balanced, none_bias {tb:+.1f}: trigger R "
              + " ".join(f"{t}={tr[t][1]:.3f}" for t in REG), "|", line(ev.score(edges)),
              flush=True)


def cmd_binding(a, fit, val) -> None:
    ev = Validation(base_model(a, fit), val)
    _, _, _, edges = ev.pipeline()
    for b in ("side", "learned", "each", "conj", "side_conj"):
        print(f"binding {b}:", line(ev.score(edges, b)))
    for th in (0.3, 0.4, 0.6, 0.7):
        ev.model.grouper.threshold = th
        print(f"binding learned, threshold {th}:", line(ev.score(edges, "learned")))


def cmd_edgebias(a, fit, val) -> None:
    ev = Validation(base_model(a, fit), val)
    _, cands, proba, _ = ev.pipeline()
    is_reg = np.array([c.src[1] in REGULATION_TYPES for c in cands])
    for ebr, ebo, cb in itertools.product((-0.35, -0.3, -0.25, -0.2, -0.15, -0.1),
                                          (-0.25, -0.2, -0.15), (0.3, 0.4, 0.5)):
        edges = []
        for sel, eb in ((is_reg, ebr), (~is_reg, ebo)):
            idx = np.flatnonzero(sel)
            edges += decide_edges(proba[idx], [cands[i] for i in idx], eb, cb)
        print(f"regulation edge bias {ebr:+.2f} others {ebo:+.2f} cause bias {cb:.1f}:",
              line(ev.score(edges)), flush=True)


def cmd_joint(a, fit, val) -> None:
    m = base_model(a, fit)
    if a.crossfit:
        cfg = load_config(a.config)
        docs_views = [build_views(d, gold=True) for d in fit]
        t0 = time.perf_counter()
        nodes = crossfit_trigger_nodes(docs_views, LeverTriggerDetector(**cfg["triggers"]), 0.5)
        views = [v for vs in docs_views for v in vs]
        cands = candidates(views, nodes)
        ecfg = dict(cfg["edges"])
        for part in ("klsh", "forest"):
            ecfg[part] = build_component(cfg, ecfg[part])
        m.edges = EdgeDetector(**ecfg, random_state=0).fit(views, cands,
                                                           gold_labels(views, cands))
        print(f"edges refitted on {len(cands)} candidates ({time.perf_counter() - t0:.0f}s)")
    ev = Validation(m, val)
    edge_biases = (0.0, 0.1, 0.2, 0.3) if a.crossfit else (-0.3, -0.2, -0.1)
    cls, cb = m.triggers.classes_, m.edges.cause_bias
    for slack in (0.0, 0.25, 0.5):
        margins = trigger_candidates(ev.scores, ev.index, cls, len(ev.flat),
                                     m.triggers.none_bias, m.triggers.type_bias, slack)
        cands = candidates(ev.flat, nodes_of(margins))
        proba = m.edges.proba(ev.flat, cands)
        if slack == 0.0:
            for eb in edge_biases:
                print(f"pipeline edge bias {eb:+.2f}:",
                      line(ev.score(decide_edges(proba, cands, eb, cb))))
        for w, eb in itertools.product((0.5, 1.0, 2.0), edge_biases):
            t0 = time.perf_counter()
            edges = joint_decode(margins, cands, proba, eb, cb, w)
            dt = time.perf_counter() - t0
            print(f"joint slack {slack} weight {w} edge bias {eb:+.2f} ({dt:.1f}s):",
                  line(ev.score(edges)), flush=True)


def cmd_stack(a, fit, val) -> None:
    """Decision 4: stage-2 trigger classifier over cross-fitted stage-1 outputs; grid
    stage-2 C x feature set x stage-2 none_bias x edge bias; base edges and assembly."""
    m = base_model(a, fit)
    base = Validation(m, val)
    print("refitted base (shipped settings):", line(base.score(base.pipeline()[3])), flush=True)
    cfg = load_config(a.config)
    tcfg = dict(cfg["triggers"])
    ecfg = cfg["edges"]
    t0 = time.perf_counter()
    probe = StackedTriggerDetector(triggers=tcfg, edge_C=ecfg["C"])
    td, ed = probe.stage1_templates()
    docs_views = [build_views(d, gold=True) for d in fit]
    held = crossfit_stage1(docs_views, td, ed, probe.folds, probe.slack, 0, verbose=True)
    print(f"stage 1 cross-fitted ({time.perf_counter() - t0:.0f}s)", flush=True)
    # stage 1 on all fit documents = the base model's trigger model and its edge
    # logistic regression (same config, data and seed)
    full_edges = EdgeDetector(method="features", C=ecfg["C"])
    full_edges.linear_ = m.edges.linear_
    stage1 = (m.triggers, full_edges)
    base_triggers, cb = m.triggers, m.edges.cause_bias
    for C, use_edges in itertools.product((0.03, 0.1), (True, False)):
        t0 = time.perf_counter()
        st = StackedTriggerDetector(triggers=tcfg, edge_C=ecfg["C"], C=C,
                                    edge_scores=use_edges).fit_from(held, stage1)
        m.triggers = st
        ev = Validation(m, val)
        print(f"stage 2 C {C} edge scores {use_edges} fitted and scored "
              f"({time.perf_counter() - t0:.0f}s)", flush=True)
        for nb in (0.3, 0.5, 0.7, 0.9, 1.1):
            nodes = decide(ev.scores, ev.index, st.classes_, len(ev.flat), nb)
            tr = trigger_prf(ev.gold_views, nodes)
            cands = candidates(ev.flat, nodes)
            proba = m.edges.proba(ev.flat, cands)
            for eb in (-0.3, -0.2, -0.1):
                print(f"stack C {C} edges {int(use_edges)} none_bias {nb} edge bias {eb:+.1f}: "
                      f"trigger P/R {tr['ALL'][0]:.3f}/{tr['ALL'][1]:.3f} R "
                      + " ".join(f"{t[:3]}={tr[t][1]:.3f}" for t in REG), "|",
                      line(ev.score(decide_edges(proba, cands, eb, cb))), flush=True)
        m.triggers = base_triggers


def cmd_stackedges(a, fit, val) -> None:
    """Decision 5: stage-2 edge model over cross-fitted stage-1 edge scores; grid C x
    scope (regulation sources / all) x KLSH-RF weight x edge bias; base triggers."""
    m = base_model(a, fit)
    ev = Validation(m, val)
    nodes, cands, base_proba, edges = ev.pipeline()
    print("refitted base (shipped settings):", line(ev.score(edges)), flush=True)
    cfg = load_config(a.config)
    t0 = time.perf_counter()
    td, ed = StackedTriggerDetector(triggers=dict(cfg["triggers"]),
                                    edge_C=cfg["edges"]["C"]).stage1_templates()
    held = crossfit_stage1([build_views(d, gold=True) for d in fit], td, ed, verbose=True)
    print(f"stage 1 cross-fitted ({time.perf_counter() - t0:.0f}s)", flush=True)
    # stage 1 on all fit documents = the base model's trigger model and edge regression
    pk, p1 = m.edges.proba(ev.flat, cands, parts=True)
    t = m.triggers
    margins = margin_lookup(ev.index, type_margins(ev.scores, t.classes_, t.none_bias,
                                                   t.type_bias))
    is_reg = np.array([c.src[1] in REGULATION_TYPES for c in cands])
    cb = m.edges.cause_bias
    for C in (0.3, 1.0):
        t0 = time.perf_counter()
        p2 = StackedEdgeDetector(C=C).fit_from(held).proba(ev.flat, cands, p1, margins)
        print(f"stage 2 edges C {C} ({time.perf_counter() - t0:.0f}s)", flush=True)
        for scope, w in itertools.product(("reg", "all"), (0.0, 0.3)):
            mixed = w * pk + (1 - w) * p2
            sel = is_reg if scope == "reg" else np.ones(len(cands), dtype=bool)
            proba = np.where(sel[:, None], mixed, base_proba)
            for eb in (-0.3, -0.2, -0.1, 0.0):
                print(f"stacked edges C {C} scope {scope} klsh weight {w} edge bias {eb:+.1f}:",
                      line(ev.score(decide_edges(proba, cands, eb, cb))), flush=True)


def cmd_stackslack(a, fit, val) -> None:
    """Decision 6: decision 4's point at edge-score slack 1.5 / 1.0 / 0.5 (speed trade)."""
    m = base_model(a, fit)
    cfg = load_config(a.config)
    tcfg, ecfg = dict(cfg["triggers"]), cfg["edges"]
    td, ed = StackedTriggerDetector(triggers=tcfg, edge_C=ecfg["C"]).stage1_templates()
    t0 = time.perf_counter()
    held = crossfit_stage1([build_views(d, gold=True) for d in fit], td, ed, verbose=True)
    print(f"stage 1 cross-fitted ({time.perf_counter() - t0:.0f}s)", flush=True)
    full_edges = EdgeDetector(method="features", C=ecfg["C"])
    full_edges.linear_ = m.edges.linear_
    base_triggers, cb = m.triggers, m.edges.cause_bias
    for slack in (1.5, 1.0, 0.5):
        refit = [CrossFit(cf.views, stage1_outputs(cf.views, cf.triggers, cf.edges, slack),
                          cf.triggers, cf.edges) for cf in held]
        st = StackedTriggerDetector(triggers=tcfg, edge_C=ecfg["C"], slack=slack, C=0.03,
                                    none_bias=0.7).fit_from(refit, (base_triggers, full_edges))
        m.triggers = st
        c0 = time.process_time()
        ev = Validation(m, val)   # scores the validation candidates once
        cpu = time.process_time() - c0
        nodes = decide(ev.scores, ev.index, st.classes_, len(ev.flat), st.none_bias)
        cands = candidates(ev.flat, nodes)
        edges = decide_edges(m.edges.proba(ev.flat, cands), cands, -0.2, cb)
        print(f"slack {slack} (validation views + stacked scores {cpu:.1f}s CPU):",
              line(ev.score(edges)), flush=True)
        m.triggers = base_triggers


COMMANDS = {"fit": None, "misses": cmd_misses, "oracle": cmd_oracle, "typebias": cmd_typebias,
            "lexicon": cmd_lexicon, "balanced": cmd_balanced, "binding": cmd_binding,
            "edgebias": cmd_edgebias, "joint": cmd_joint,
            "stack": cmd_stack, "stackedges": cmd_stackedges,
            "stackslack": cmd_stackslack}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("command", choices=sorted(COMMANDS))
    ap.add_argument("--config", default="configs/ge-events.toml")
    ap.add_argument("--cache-dir", default="runs/events/cache")
    ap.add_argument("--out", default="runs/ge-levers")
    ap.add_argument("--crossfit", action="store_true",
                    help="joint: edges refitted on gold + cross-fitted trigger candidates")
    a = ap.parse_args(argv)
    fit, val = load_split(a.cache_dir)
    print(f"{len(fit)} fit documents, {len(val)} validation documents", flush=True)
    if a.command == "fit":
        base_model(a, fit)
    else:
        COMMANDS[a.command](a, fit, val)
    return 0


if __name__ == "__main__":
    sys.exit(main())
