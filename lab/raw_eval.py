"""Extraction from raw sentence text scored against a PPI corpus's gold pairs.

The test sentences are given to the extractor as plain text (no entities, no parse):
relx's NER finds the proteins, relx's parser parses, every pair is scored. A predicted
pair is a true positive when its two mentions match the two entities of a gold
interacting pair (``match="exact"``: identical character spans; ``"overlap"``: each
mention overlaps its gold entity); each gold pair is matched at most once. The same model
on the gold entities (``--parses relx``) gives the figure to compare with
(:func:`gold_entity_report`, in the report as ``gold_entities_relx_parses``).

    python -m lab.raw_eval --config configs/ppi-klsh-rf.toml --train A.xml.gz \\
        --test B.xml.gz --report runs/raw/a2b.json
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from relx.doc import Document, Entity
from relx.io.atomic import atomic_open
from relx.ppi.evaluate import load_corpus
from relx.ppi.model import RelationModel, train_model
from relx.registry import load_config


def _match(a: Entity, b: Entity, how: str) -> bool:
    if how == "exact":
        return sorted((s.start, s.end) for s in a.spans) == sorted((s.start, s.end)
                                                                   for s in b.spans)
    return any(x.overlaps(y) for x in a.spans for y in b.spans)


def sentence_documents(docs: Sequence[Document]) -> list[Document]:
    """Each corpus sentence as its own raw-text document (offsets shifted to 0)."""
    return [Document(id=s.id, text=s.text) for d in docs for s in d.sentences]


def raw_text_report(model: RelationModel, test_docs: Sequence[Document], *,
                    match: str = "overlap", threshold: float | None = None) -> dict[str, Any]:
    """P/R/F1 of raw-text extraction against the gold interacting pairs of ``test_docs``."""
    from relx.ppi.extract import Extractor

    ex = Extractor(model, threshold=threshold, ground=False)
    gold: dict[str, list[tuple[Entity, Entity]]] = {}
    n_gold_entities = 0
    for d in test_docs:
        for s in d.sentences:
            n_gold_entities += len(s.entities)
            base = s.start
            shift = lambda e, b=base: e.model_copy(update={"spans": [  # noqa: E731
                sp.model_copy(update={"start": sp.start - b, "end": sp.end - b})
                for sp in e.spans]})
            gold[s.id] = [(shift(s.entity(r.arg1)), shift(s.entity(r.arg2)))
                          for r in s.relations if r.label]
    t0 = time.perf_counter()
    tp = fp = n_pred_entities = ent_hits = 0
    used: set[tuple[str, int]] = set()
    for doc, _, _ in ex.annotate(sentence_documents(test_docs)):
        pairs = gold.get(doc.id, [])
        gold_ents = [e for p in pairs for e in p]
        for s in doc.sentences:
            n_pred_entities += len(s.entities)
            ent_hits += sum(any(_match(e, g, match) for g in gold_ents) for e in s.entities)
            for r in s.relations:  # the reported (above-threshold) pairs
                a, b = s.entity(r.arg1), s.entity(r.arg2)
                hit = next((k for k, (g1, g2) in enumerate(pairs) if (doc.id, k) not in used
                            and ((_match(a, g1, match) and _match(b, g2, match))
                                 or (_match(a, g2, match) and _match(b, g1, match)))), None)
                if hit is None:
                    fp += 1
                else:
                    tp += 1
                    used.add((doc.id, hit))
    n_gold = sum(len(p) for p in gold.values())
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / n_gold if n_gold else 0.0
    return {"precision": p, "recall": r, "f1": 2 * p * r / (p + r) if p + r else 0.0,
            "tp": tp, "fp": fp, "fn": n_gold - tp, "gold_pairs": n_gold, "match": match,
            "sentences": len(gold), "predicted_entities": n_pred_entities,
            "gold_entities": n_gold_entities, "threshold": ex.threshold,
            "predict_seconds": round(time.perf_counter() - t0, 1)}


def gold_entity_report(model: RelationModel, test_docs: Sequence[Document]) -> dict[str, Any]:
    """P/R/F1/AUC of the same model on the test corpus's own entities and candidate pairs
    (``test_docs`` parsed as the model's training data was), at the model's threshold; each
    sentence is its own document, as in :func:`raw_text_report`."""
    from relx.ppi.evaluate import binary_metrics
    from relx.represent.instances import PairInstance, labels

    inst = [PairInstance(s.id, s, r) for d in test_docs for s in d.sentences
            for r in s.relations]
    score = model.scores(inst)
    return binary_metrics(labels(inst), (score > model.threshold).astype(int), score)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", type=Path, required=True)
    ap.add_argument("--train", type=Path, action="append", required=True)
    ap.add_argument("--test", type=Path, required=True)
    ap.add_argument("--report", type=Path, required=True)
    ap.add_argument("--match", default="overlap", choices=["overlap", "exact"])
    a = ap.parse_args(argv)
    cfg = load_config(a.config)
    train = [d for p in a.train for d in load_corpus(p, "relx")]
    model = train_model(cfg, train, name="raw-eval", trained_on=[p.name for p in a.train],
                        parse_source="relx")
    res = raw_text_report(model, load_corpus(a.test, "corpus"), match=a.match)
    res["gold_entities_relx_parses"] = gold_entity_report(model, load_corpus(a.test, "relx"))
    res.update(train=[str(p) for p in a.train], test=str(a.test), config=cfg,
               train_seconds=model.meta["train_seconds"], n_train=model.meta["n_train"])
    with atomic_open(a.report) as fh:
        json.dump(res, fh, indent=2)
    print(json.dumps({k: res[k] for k in ("precision", "recall", "f1", "tp", "fp", "fn")}))


if __name__ == "__main__":
    main()
