"""Types from the pair scorer's features against the event typer (docs/relations.md, issue 52).

The split of :mod:`lab.experiments.typed_bias`: GE 2011 train less a seeded 20% of its
documents (182 validation documents) plus GE 2013 train to fit. Every gold-connected protein
pair (relx's parse, gold proteins) is labelled with its first gold typed interaction and
its direction in text order (``Activation:12``), or ``Interaction``. The pair typer: the
pair scorer's feature dicts (``PairFeatureExtractor``, the shipped model's options, a
vocabulary of features in >= 2 fitting documents) into a multinomial logistic regression;
``C`` and the abstention threshold chosen by 5-fold CV by document on the fitting documents,
then compared with the event typer (``runs/ge-levers/base``, biases 1.5 / 0.7) on the
validation documents. GE 2011 devel is read only with ``--devel`` (after the decision).
Result (docs/relations.md): validation +0.060 type F1, GE 2011 devel -0.049: not shipped.
Caution: this split leaks (GE 2013 train repeats the held-out full-text sections under
other ids; docs/ge-events.md, decision 6); ``lab.experiments.ge_paper_split`` holds out papers.

    python -m lab.experiments.pair_typer [--out runs/s23/pair-typer.json]
    python -m lab.experiments.pair_typer --devel   # refit on all GE train, score GE 2011 devel
    python -m lab.experiments.pair_typer --round2 [--devel] --out runs/s23/pair-typer-round2.json
    python -m lab.experiments.pair_typer --out runs/s23/pair-typer-round2.json --release models/pair-typer
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from lab.typed_eval import _gold_pairs, score
from relx.doc import Relation
from relx.ge.data import GEDoc
from relx.ge.ppi_pairs import _overlap
from relx.ppi.pair_typer import pair_typer_features, split_label
from relx.represent.instances import PairInstance

C_GRID = (0.03, 0.1, 0.3, 1.0)
T_GRID = (0.0, 0.3, 0.4, 0.5)


def labelled_pairs(docs: Sequence[GEDoc]) -> tuple[list[PairInstance], list[str], list[dict]]:
    """Every gold-connected pair of ``docs`` as a pair instance, its label and its gold row
    (the fields :func:`lab.typed_eval.score` reads)."""
    inst, labels, gold_rows = [], [], []
    for g in docs:
        gold = _gold_pairs(g)
        for s in g.parsed.sentences:
            ents = s.entities
            k = 0
            for i, a in enumerate(ents):
                for b in ents[i + 1:]:
                    key = frozenset((a.id, b.id))
                    if key not in gold or _overlap(a, b):
                        continue
                    r = Relation(id=f"{s.id}.g{k}", arg1=a.id, arg2=b.id, label=True)
                    k += 1
                    ts = gold[key]
                    inst.append(PairInstance(g.id, s, r))
                    labels.append(pair_label(ts[0].type, ts[0].agent, a.id) if ts
                                  else "Interaction")
                    gold_rows.append({"document": g.id, "arg1": a.id, "arg2": b.id,
                                      "gold_types": sorted({t.type for t in ts}),
                                      "gold_best": ts[0].type if ts else None,
                                      "gold_agents": sorted({t.agent for t in ts if t.agent})})
    return inst, labels, gold_rows


def pair_label(typ: str, agent: str | None, arg1: str) -> str:
    if agent is None:
        return typ
    return f"{typ}:{'12' if agent == arg1 else '21'}"


def rows_from(proba: np.ndarray, classes: Sequence[str], gold_rows: Sequence[dict],
              threshold: float) -> list[dict]:
    """``gold_rows`` with the predicted ``type`` and ``agent`` of each pair's best class
    (untyped when it is ``Interaction`` or below ``threshold``)."""
    out = []
    best = proba.argmax(axis=1)
    for g, b, p in zip(gold_rows, best, proba.max(axis=1), strict=True):
        typ, direction = split_label(classes[b])
        if typ == "Interaction" or p < threshold:
            typ, direction = "Interaction", None
        agent = {"entity1->entity2": g["arg1"], "entity2->entity1": g["arg2"]}.get(direction)
        out.append({**g, "type": typ, "agent": agent})
    return out


def features(fit_inst: Sequence[PairInstance]):
    """The pair typer's feature step (:func:`relx.ppi.pair_typer.pair_typer_features`)."""
    return pair_typer_features().fit(fit_inst)


def classifier(C: float):
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(C=C, max_iter=3000)


def cross_validate(inst, labels, gold_rows, folds: int = 5, seed: int = 0) -> list[dict]:
    docs = sorted({x.document_id for x in inst})
    fold_of = dict(zip(docs, np.random.RandomState(seed).permutation(len(docs)) % folds,
                       strict=True))
    fold = np.array([fold_of[x.document_id] for x in inst])
    y = np.array(labels)
    results = []
    oof = {C: [None] * len(inst) for C in C_GRID}
    for k in range(folds):
        tr, te = np.flatnonzero(fold != k), np.flatnonzero(fold == k)
        fx = features([inst[i] for i in tr])
        Xtr, Xte = fx.transform([inst[i] for i in tr]), fx.transform([inst[i] for i in te])
        for C in C_GRID:
            m = classifier(C).fit(Xtr, y[tr])
            p = m.predict_proba(Xte)
            for j, i in enumerate(te):
                oof[C][i] = dict(zip(m.classes_, p[j], strict=True))
        print(f"fold {k} done", flush=True)
    classes = sorted(set(labels))
    for C in C_GRID:
        P = np.array([[d.get(c, 0.0) for c in classes] for d in oof[C]])
        for t in T_GRID:
            rep = score(rows_from(P, classes, gold_rows, t))
            results.append({"C": C, "threshold": t, "type": rep["type"],
                            "direction": rep["direction"]})
            print(f"C {C} t {t}: type F1 {rep['type']['f1']:.4f} (P {rep['type']['precision']:.3f}"
                  f" R {rep['type']['recall']:.3f}) direction F1 {rep['direction']['f1']:.4f}",
                  flush=True)
    return results


def fit_typer(inst, labels, C: float):
    fx = features(inst)
    return fx, classifier(C).fit(fx.transform(inst), np.array(labels))


def evaluate(fx, model, inst, gold_rows, threshold: float) -> dict[str, Any]:
    t0 = time.process_time()
    P = model.predict_proba(fx.transform(inst))
    cpu = time.process_time() - t0
    return {**score(rows_from(P, list(model.classes_), gold_rows, threshold)),
            "cpu_s": round(cpu, 2)}


def devel(train: Sequence[GEDoc], a: argparse.Namespace) -> int:
    """The registered second step: the chosen setting refitted on all of GE train, GE 2011
    devel scored once for it and for the shipped event typer (same run)."""
    from lab.experiments.ge_levers import GE
    from lab.typed_eval import pair_outcomes
    from relx.ge.data import cache_path, load_ge
    from relx.ge.interactions import EventTyper

    chosen = json.loads(a.out.read_text(encoding="utf-8"))["chosen"]
    inst, labels, _ = labelled_pairs(train)
    fx, model = fit_typer(inst, labels, chosen["C"])
    docs = load_ge(GE / "2011" / "devel", cache_path(a.cache_dir, GE / "2011" / "devel"))
    dinst, _, dgold = labelled_pairs(docs)
    out = {"training_pairs": len(inst), "devel_pairs": len(dinst), "chosen": chosen,
           "devel": {"pair_typer": evaluate(fx, model, dinst, dgold, chosen["threshold"]),
                     "event_typer": score(pair_outcomes(docs, EventTyper()))}}
    for name, r in out["devel"].items():
        print(f"{name}: type P {r['type']['precision']:.3f} R {r['type']['recall']:.3f} "
              f"F1 {r['type']['f1']:.4f}; direction P {r['direction']['precision']:.3f} "
              f"R {r['direction']['recall']:.3f} F1 {r['direction']['f1']:.4f}", flush=True)
    path = a.out.with_name(a.out.stem + "-devel.json")
    path.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


TAU_GRID = (0.5, 0.6, 0.7, 0.8)


def hybrid_rows(proba: np.ndarray, classes: Sequence[str], gold_rows: Sequence[dict],
                event_rows: Sequence[dict], tau: float) -> list[dict]:
    """Round 2: the pair typer's class where its probability is at least ``tau``, else the
    event typer's type and agent for the pair (matched by document and arguments)."""
    ev = {(r["document"], r["arg1"], r["arg2"]): r for r in event_rows}
    mine = rows_from(proba, classes, gold_rows, 0.0)
    out = []
    for r, p in zip(mine, proba.max(axis=1), strict=True):
        if p < tau:
            e = ev[(r["document"], r["arg1"], r["arg2"])]
            r = {**r, "type": e["type"], "agent": e["agent"]}
        out.append(r)
    return out


def choose_c_by_paper(inst, labels, folds: int = 5) -> tuple[float, dict]:
    """``C`` by type accuracy (every pair typed) in ``folds``-fold CV by paper."""
    from lab.ge.tune import paper_id

    papers = sorted({paper_id(x.document_id) for x in inst})
    fold_of = dict(zip(papers, np.random.RandomState(0).permutation(len(papers)) % folds,
                       strict=True))
    fold = np.array([fold_of[paper_id(x.document_id)] for x in inst])
    y = np.array(labels)
    right = dict.fromkeys(C_GRID, 0)
    for k in range(folds):
        tr, te = np.flatnonzero(fold != k), np.flatnonzero(fold == k)
        fx = features([inst[i] for i in tr])
        Xtr, Xte = fx.transform([inst[i] for i in tr]), fx.transform([inst[i] for i in te])
        for C in C_GRID:
            pred = classifier(C).fit(Xtr, y[tr]).predict(Xte)
            right[C] += int((pred == y[te]).sum())
    acc = {C: round(n / len(y), 4) for C, n in right.items()}
    print(f"CV by paper, accuracy by C: {acc}", flush=True)
    return max(C_GRID, key=lambda C: (acc[C], -C)), acc


def _line(name: str, r: dict) -> str:
    return (f"{name}: type P {r['type']['precision']:.3f} R {r['type']['recall']:.3f} "
            f"F1 {r['type']['f1']:.4f}; direction P {r['direction']['precision']:.3f} "
            f"R {r['direction']['recall']:.3f} F1 {r['direction']['f1']:.4f}")


def round2(a: argparse.Namespace) -> int:
    """Round 2 on the validation papers: ``C`` by CV by paper, tau by the registered rule."""
    from lab.experiments.ge_paper_split import load_split as paper_split
    from lab.ge.extractor import LabGEExtractor
    from lab.typed_eval import pair_outcomes
    from relx.ge.interactions import EventTyper

    fit, val = paper_split("both", a.cache_dir)
    inst, labels, _ = labelled_pairs(fit)
    C, acc = choose_c_by_paper(inst, labels)
    fx, model = fit_typer(inst, labels, C)
    vinst, _, vgold = labelled_pairs(val)
    P = model.predict_proba(fx.transform(vinst))
    event_rows = pair_outcomes(val, EventTyper(LabGEExtractor.load("runs/ge-paper/both")))
    event = score(event_rows)
    print(_line("event typer", event), flush=True)
    grid = []
    for tau in TAU_GRID:
        r = score(hybrid_rows(P, list(model.classes_), vgold, event_rows, tau))
        share = float((P.max(axis=1) >= tau).mean())
        grid.append({"tau": tau, "pair_typer_share": round(share, 4), **r})
        print(_line(f"hybrid tau {tau} ({share:.0%} of pairs)", r), flush=True)
    ok = [g for g in grid if g["type"]["f1"] >= event["type"]["f1"] - 0.005
          and g["direction"]["f1"] >= event["direction"]["f1"] - 0.005]
    tau = min((g["tau"] for g in ok), default=None)
    print(f"chosen: C {C}, tau {tau}", flush=True)
    out = {"fitting_pairs": len(inst), "validation_pairs": len(vinst), "cv_accuracy": acc,
           "C": C, "tau": tau, "event_typer": event, "hybrid": grid,
           "pair_typer_alone": score(rows_from(P, list(model.classes_), vgold, 0.0))}
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


def devel2(a: argparse.Namespace) -> int:
    """Round 2's GE 2011 devel look: the pair typer refitted on all GE train at the chosen
    ``C``, the hybrid at the chosen tau beside the shipped event typer (one run)."""
    from lab.experiments.ge_levers import GE
    from lab.experiments.ge_paper_split import load_train
    from lab.typed_eval import pair_outcomes
    from relx.ge.data import cache_path, load_ge
    from relx.ge.interactions import EventTyper

    chosen = json.loads(a.out.read_text(encoding="utf-8"))
    tr11, tr13 = load_train(a.cache_dir)
    inst, labels, _ = labelled_pairs(tr11 + tr13)
    fx, model = fit_typer(inst, labels, chosen["C"])
    docs = load_ge(GE / "2011" / "devel", cache_path(a.cache_dir, GE / "2011" / "devel"))
    dinst, _, dgold = labelled_pairs(docs)
    P = model.predict_proba(fx.transform(dinst))
    event_rows = pair_outcomes(docs, EventTyper())
    sure = P.max(axis=1) >= chosen["tau"]
    sents = {}
    for x, k in zip(dinst, sure, strict=True):
        sents[(x.document_id, x.sentence.id)] = sents.get((x.document_id, x.sentence.id),
                                                          True) and bool(k)
    out = {"training_pairs": len(inst), "devel_pairs": len(dinst), "C": chosen["C"],
           "tau": chosen["tau"], "pair_typer_share": round(float(sure.mean()), 4),
           "sentences_left_to_the_event_model": round(
               sum(not v for v in sents.values()) / len(sents), 4),
           "event_typer": score(event_rows),
           "hybrid": score(hybrid_rows(P, list(model.classes_), dgold, event_rows,
                                       chosen["tau"]))}
    for name in ("event_typer", "hybrid"):
        print(_line(name, out[name]), flush=True)
    print(f"pairs to the pair typer {out['pair_typer_share']:.0%}, sentences left to the "
          f"event model {out['sentences_left_to_the_event_model']:.0%}")
    path = a.out.with_name(a.out.stem + "-devel.json")
    path.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


def release(a: argparse.Namespace) -> int:
    """Round 2's pair typer as a model folder: fitted on all GE 2011 train + GE 2013 train
    (as the devel look fitted it), ``C`` and tau as chosen, the looks' figures in meta."""
    from datetime import UTC, datetime

    from lab.experiments.ge_paper_split import load_train
    from relx.ppi.pair_typer import PairTyper

    chosen = json.loads(a.out.read_text(encoding="utf-8"))
    look = json.loads(a.out.with_name(a.out.stem + "-devel.json").read_text(encoding="utf-8"))
    tr11, tr13 = load_train(a.cache_dir)
    inst, labels, _ = labelled_pairs(tr11 + tr13)
    model = PairTyper(C=chosen["C"], tau=chosen["tau"]).fit(inst, labels)
    meta = {"name": "pair-typer", "version": a.version, "task": "ppi",
            "created": datetime.now(UTC).replace(microsecond=0).isoformat(),
            "trained_on": ["bionlp-st-ge/2011/train", "bionlp-st-ge/2013/train"],
            "n_train": len(inst), "classes": [str(c) for c in model.classes_],
            "n_features": int(model.coef_.shape[1]),
            "description": "types and directions of reported protein pairs from the pair "
                           "scorer's feature dicts (docs/relations.md, pair typer round 2)",
            "ge_2011_devel": {k: {"type_f1": look[k]["type"]["f1"],
                                  "direction_f1": look[k]["direction"]["f1"]}
                              for k in ("hybrid", "event_typer")},
            "recipe": "python -m lab.experiments.pair_typer --round2 --release models/pair-typer"}
    model.save(a.release, meta)
    print(f"{len(inst)} pairs, {model.coef_.shape} -> {a.release}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    from lab.experiments.ge_levers import load_split
    from lab.ge.extractor import LabGEExtractor
    from lab.typed_eval import pair_outcomes
    from relx.ge.interactions import EventTyper

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache-dir", default="runs/events/cache")
    ap.add_argument("--model", default="runs/ge-levers/base")
    ap.add_argument("--out", type=Path, default=Path("runs/s23/pair-typer.json"))
    ap.add_argument("--devel", action="store_true")
    ap.add_argument("--round2", action="store_true", help="round 2 on the validation papers")
    ap.add_argument("--release", type=Path, help="write round 2's pair typer to this folder")
    ap.add_argument("--version", default="0.1.0")
    a = ap.parse_args(argv)
    if a.release:
        return release(a)
    if a.round2:
        return devel2(a) if a.devel else round2(a)
    fit, val = load_split(a.cache_dir)
    if a.devel:
        return devel(fit + val, a)
    inst, labels, gold = labelled_pairs(fit)
    print(f"{len(inst)} fitting pairs, {len(set(labels))} classes", flush=True)
    cv = cross_validate(inst, labels, gold)
    best = max(cv, key=lambda r: (r["type"]["f1"], r["direction"]["f1"]))
    print(f"chosen: C {best['C']} threshold {best['threshold']}", flush=True)
    fx, model = fit_typer(inst, labels, best["C"])
    vinst, _, vgold = labelled_pairs(val)
    pair = evaluate(fx, model, vinst, vgold, best["threshold"])
    t0 = time.process_time()
    event = score(pair_outcomes(val, EventTyper(LabGEExtractor.load(a.model))))
    event["cpu_s"] = round(time.process_time() - t0, 2)
    out = {"fitting_pairs": len(inst), "validation_pairs": len(vinst), "cv": cv,
           "chosen": {"C": best["C"], "threshold": best["threshold"]},
           "validation": {"pair_typer": pair, "event_typer": event}}
    for name, r in out["validation"].items():
        print(f"{name}: type P {r['type']['precision']:.3f} R {r['type']['recall']:.3f} "
              f"F1 {r['type']['f1']:.4f}; direction P {r['direction']['precision']:.3f} "
              f"R {r['direction']['recall']:.3f} F1 {r['direction']['f1']:.4f}", flush=True)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
