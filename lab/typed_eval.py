"""How well the typed pass types and directs interaction pairs, on BioNLP-ST GE gold events.

    python -m lab.typed_eval ../shared/corpora/bionlp-st-ge/2011/devel \\
        --out docs/runs/typed-pairs.json --cache runs/events/cache

Typer: the typed pass's (:class:`relx.ppi.pair_typer.HybridTyper`: the pair typer where
it is sure, the event model elsewhere), and the event model alone beside it.
Reference: the gold proteins' pairs that gold events connect (:mod:`relx.ge.ppi_pairs`),
each with its typed, directed interactions from the gold events
(:func:`relx.ge.interactions.typed_interactions`, closed under ``Equiv``). Every such pair
goes through :class:`relx.ge.interactions.EventTyper` on relx's parse (gold proteins), so
the figures do not depend on which pairs a PPI model finds; they are also given for the
subset a PPI model reports (``--ppi-model``; the shipped ``ppi-default`` trained on silver
pairs of GE 2011 devel too, so on that corpus this subset is optimistic - the type and
direction of a pair do not depend on it).

Type: the predicted type is right when it is one of the pair's gold types (an untyped pair
counts as predicted ``Interaction``, never right). Direction: among pairs with a directed
gold interaction, right when the predicted agent is a gold agent of the pair; a directed
prediction on a pair with only undirected gold interactions counts as a wrong direction.
Baselines: the majority gold type for every pair; the direction in text order (over all
gold-directed pairs, and over the pairs both gold and relx direct, beside relx's accuracy
there).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from relx.doc import Relation
from relx.ge.data import GEDoc, cache_path, load_ge
from relx.ge.interactions import (
    DIRECTED_TYPES,
    EventTyper,
    TypedInteraction,
    closed_under_equivs,
    typed_interactions,
)
from relx.ge.ppi_pairs import _overlap, interacting_pairs


def _gold_pairs(g: GEDoc) -> dict[frozenset[str], list[TypedInteraction]]:
    typed = closed_under_equivs(typed_interactions(g.standoff), g.standoff)
    return {p: typed.get(p, []) for p in interacting_pairs(g.standoff)}


def pair_outcomes(docs: Sequence[GEDoc], typer: EventTyper) -> list[dict[str, Any]]:
    """One row per gold-connected pair of ``docs``: gold types and agents, predicted type,
    direction and agent (``typer`` run on the sentences of those pairs)."""
    rows: list[dict[str, Any]] = []
    parsed = []
    for g in docs:
        gold = _gold_pairs(g)
        sents = []
        for s in g.parsed.sentences:
            rels = [Relation(id=f"{s.id}.g{k}", arg1=a.id, arg2=b.id, label=True)
                    for k, (a, b) in enumerate((a, b) for i, a in enumerate(s.entities)
                                               for b in s.entities[i + 1:])
                    if frozenset((a.id, b.id)) in gold and not _overlap(a, b)]
            sents.append(s.model_copy(update={"relations": rels}))
        parsed.append((g, gold, g.parsed.model_copy(update={"sentences": sents})))
    typer.type_relations([p for _, _, p in parsed])
    for g, gold, d in parsed:
        for s in d.sentences:
            for r in s.relations:
                ts = gold[frozenset((r.arg1, r.arg2))]
                agent = None if r.direction is None else (
                    r.arg1 if r.direction == "entity1->entity2" else r.arg2)
                rows.append({
                    "document": g.id, "sentence": s.id, "arg1": r.arg1, "arg2": r.arg2,
                    "gold_types": sorted({t.type for t in ts}),
                    "gold_best": ts[0].type if ts else None,
                    "gold_agents": sorted({t.agent for t in ts if t.agent}),
                    "type": "Interaction" if r.type == "PPI" else r.type,
                    "agent": agent, "event_score": r.event_score})
    return rows


def _prf(right: int, predicted: int, gold: int) -> dict[str, float | int]:
    p = right / predicted if predicted else 0.0
    r = right / gold if gold else 0.0
    return {"right": right, "predicted": predicted, "gold": gold, "precision": round(p, 4),
            "recall": round(r, 4), "f1": round(2 * p * r / (p + r), 4) if p + r else 0.0}


def _share(n: int, total: int) -> float:
    return round(n / total, 4) if total else 0.0


def score(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Type and direction precision/recall over ``rows`` (see the module doc), baselines and
    the confusion of gold (best) type vs predicted type."""
    typed = [r for r in rows if r["type"] != "Interaction"]
    type_ok = sum(r["type"] in r["gold_types"] for r in typed)
    directed_gold = [r for r in rows if r["gold_agents"]]
    directed_pred = [r for r in rows if r["agent"]]
    dir_ok = sum(r["agent"] in r["gold_agents"] for r in directed_pred)
    both = [r for r in directed_pred if r["gold_agents"]]   # directed in gold and predicted
    majority = Counter(r["gold_best"] for r in rows).most_common(1)
    major = majority[0][0] if majority else None
    text_order = sum(r["arg1"] in r["gold_agents"] for r in directed_gold)
    return {
        "pairs": len(rows),
        "type": {**_prf(type_ok, len(typed), len(rows)),
                 "accuracy": round(type_ok / len(rows), 4) if rows else 0.0},
        "direction": {**_prf(dir_ok, len(directed_pred), len(directed_gold)),
                      "both_directed": len(both),
                      "accuracy_on_both_directed": _share(
                          sum(r["agent"] in r["gold_agents"] for r in both), len(both))},
        "baseline": {
            "majority_type": major,
            "majority_type_accuracy": round(sum(major in r["gold_types"] for r in rows)
                                            / len(rows), 4) if rows else 0.0,
            "text_order_direction_accuracy": _share(text_order, len(directed_gold)),
            "text_order_on_both_directed": _share(
                sum(r["arg1"] in r["gold_agents"] for r in both), len(both))},
        "gold_directed_share": round(len(directed_gold) / len(rows), 4) if rows else 0.0,
        "confusion": {f"{g} -> {p}": n for (g, p), n in sorted(Counter(
            (r["gold_best"], r["type"]) for r in rows).items(), key=lambda x: -x[1])},
    }


def found_pairs(docs: Sequence[GEDoc], model: str | None) -> set[tuple[str, str, str]]:
    """``(document, arg1, arg2)`` of the candidate pairs ``model`` reports (its new-text
    threshold) on relx's parse of ``docs`` with the gold proteins."""
    from relx.ppi.extract import Extractor, candidate_pairs
    from relx.represent.instances import PairInstance

    ex = Extractor(model, ground=False)
    inst = [PairInstance(g.id, s, r) for g in docs for s in g.parsed.sentences
            for r in candidate_pairs(s)]
    scores = ex.model.scores(inst) if inst else []
    return {(i.document_id, i.relation.arg1, i.relation.arg2)
            for i, v in zip(inst, scores, strict=True) if v > ex.threshold}


def evaluate(directory: str | Path, cache: str | Path | None = None,
             event_model: str | None = None, ppi_model: str | None = "ppi-default"
             ) -> dict[str, Any]:
    """The report of one GE directory (``.txt/.a1/.a2``): the typed pass's typer (the pair
    typer where it is sure, the event model elsewhere), and the event model alone."""
    from relx.ppi.pair_typer import HybridTyper

    docs = load_ge(directory, cache=cache_path(cache, directory))
    events = EventTyper(event_model)
    typer = HybridTyper(events)
    rows = pair_outcomes(docs, typer)
    out: dict[str, Any] = {"corpus": str(directory), "documents": len(docs),
                           "event_model": events.name, "event_model_version": events.version,
                           "pair_typer": typer.pair_typer.meta.get("name", "pair-typer"),
                           "pair_typer_version": typer.pair_typer.meta.get("version"),
                           "gold_pairs": score(rows),
                           "events_only": score(pair_outcomes(docs, events))}
    if ppi_model:
        found = found_pairs(docs, ppi_model)
        sub = [r for r in rows if (r["document"], r["arg1"], r["arg2"]) in found
               or (r["document"], r["arg2"], r["arg1"]) in found]
        out["ppi_model"] = ppi_model
        out["found_pairs"] = score(sub)
    out["directed_types"] = sorted(DIRECTED_TYPES)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus", help="a BioNLP-ST GE directory with .txt/.a1/.a2")
    ap.add_argument("--out", required=True, help="JSON report")
    ap.add_argument("--cache", default=None, help="folder for the corpus parse (reused)")
    ap.add_argument("--event-model", default=None)
    ap.add_argument("--ppi-model", default="ppi-default",
                    help="also score the pairs this model reports ('' to skip)")
    args = ap.parse_args(argv)
    rep = evaluate(args.corpus, args.cache, args.event_model, args.ppi_model or None)
    Path(args.out).write_text(json.dumps(rep, indent=2) + "\n", encoding="utf-8")
    for k in ("gold_pairs", "events_only", "found_pairs"):
        if k in rep:
            r = rep[k]
            print(f"{k}: {r['pairs']} pairs; type P {r['type']['precision']} "
                  f"R {r['type']['recall']}; direction P {r['direction']['precision']} "
                  f"R {r['direction']['recall']}; baselines {r['baseline']}")


if __name__ == "__main__":
    main()
