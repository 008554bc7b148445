"""Paper-level reading on the GE 2011 full-text documents (issue 42, part 2).

GE 2011 cuts each of its PMC papers into sections, one document each
(``PMC-1134658-00-TIAB``, ``...-02-Results-01``, ``...-caption-03``). Each paper is read
both ways:

- ``sections``: every section a document of its own, as the corpus has it;
- ``paper``: the sections joined in order into one document with their ``Section`` spans,
  as relx reads a paper (abbreviations, grounding, the parse's document see all of it);

and the two are compared, on the whole papers, by

- **events**: F1 of the shipped event model (gold ``.a1`` proteins; approximate recursive
  matching, :func:`relx.ge.evaluate.evaluate_events`);
- **silver pairs**: the shipped PPI model's reported pairs against the protein pairs the
  gold events connect (:mod:`relx.ge.ppi_pairs`), with the gold proteins (``input``) and
  with relx's tagger (``relx``: a reported pair counts when each mention overlaps a
  protein of a connected pair);
- **tagging and grounding**: the tagger's mentions found in one reading only, and
  mentions found in both grounded differently (a short form defined in another section).

    python -m lab.experiments.ge_papers_level [--split devel --split train] [--skip-events]
        [--out runs/papers-level.json]

GE 2011 train is the event model's training data (its figures are optimistic either way;
the comparison is what counts); the PPI model was trained on silver pairs of GE 2011 devel.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from relx.doc import (
    Document,
    Equiv,
    Event,
    Modification,
    Section,
    Span,
    StandoffDocument,
    StandoffRelation,
    TextBound,
)
from relx.io.papers import section_type
from relx.io.standoff import read_standoff_dir

GE = Path(__file__).resolve().parents[2].parent / "shared" / "corpora" / "bionlp-st-ge" / "2011"
_ID = re.compile(r"^([A-Z])(\d+)$")


def papers(split: str) -> dict[str, list[StandoffDocument]]:
    """The full-text documents of a GE 2011 split, by paper, in section order."""
    out: dict[str, list[StandoffDocument]] = defaultdict(list)
    for d in read_standoff_dir(GE / split):
        if d.id.startswith("PMC-"):
            out["-".join(d.id.split("-")[:2])].append(d)
    return dict(out)


def _section_of(doc_id: str) -> str:
    name = "-".join(doc_id.split("-")[3:])
    if name == "TIAB":
        return "ABSTRACT"
    if name.startswith("caption"):
        return "FIG"
    return section_type(re.sub(r"[-_]?\d+$", "", name).replace("_", " ")) or "OTHER"


def join(paper: str, parts: Sequence[StandoffDocument]) -> tuple[StandoffDocument,
                                                                 list[Section], list[int]]:
    """The sections as one standoff document (ids renumbered per section: ``T5`` of the
    third section is ``T300005``), its ``Section`` spans and each section's offset."""
    texts, offsets, sections = [], [], []
    pos = 0
    proteins, triggers, events, mods, equivs, rels = [], [], [], [], [], []
    for k, d in enumerate(parts, 1):
        def rid(x: str, k: int = k) -> str:
            m = _ID.match(x)
            return f"{m.group(1)}{k * 100000 + int(m.group(2))}" if m else f"{x}-{k}"

        def tb(t: TextBound, p: int = pos) -> TextBound:
            return TextBound(id=rid(t.id), type=t.type, text=t.text,
                             spans=[Span(start=s.start + p, end=s.end + p) for s in t.spans])

        offsets.append(pos)
        sections.append(Section(type=_section_of(d.id), start=pos, end=pos + len(d.text),
                                heading="-".join(d.id.split("-")[3:])))
        proteins += [tb(t) for t in d.proteins]
        triggers += [tb(t) for t in d.triggers]
        events += [Event(id=rid(e.id), type=e.type, trigger=rid(e.trigger), score=e.score,
                         arguments=[(r, rid(a)) for r, a in e.arguments]) for e in d.events]
        mods += [Modification(id=rid(m.id), type=m.type, event=rid(m.event))
                 for m in d.modifications]
        equivs += [Equiv(ids=[rid(i) for i in q.ids], type=q.type) for q in d.equivs]
        rels += [StandoffRelation(id=rid(r.id), type=r.type,
                                  arguments=[(a, rid(b)) for a, b in r.arguments])
                 for r in d.relations]
        texts.append(d.text)
        pos += len(d.text) + 1
    sd = StandoffDocument(id=paper, text="\n".join(texts), proteins=proteins,
                          triggers=triggers, events=events, modifications=mods,
                          equivs=equivs, relations=rels, source="bionlp-st")
    return sd, sections, offsets


def _input(sd: StandoffDocument, sections: list[Section] | None, given: bool) -> Document:
    doc = sd.to_document() if given else Document(id=sd.id, text=sd.text, source="text")
    return doc.model_copy(update={"sections": sections or []})


# ------------------------------------------------------------------ events

def events(split: str, by_paper: dict[str, list[StandoffDocument]]) -> dict:
    from relx.ge.evaluate import evaluate_events
    from relx.ge.extract import load

    ex = load(warm_up=False, ground=False)
    gold = {p: join(p, parts) for p, parts in by_paper.items()}
    out = {}
    for mode in ("sections", "paper"):
        t0 = time.perf_counter()
        preds = []
        for p, parts in by_paper.items():
            blank = [d.model_copy(update={"triggers": [], "events": [], "modifications": [],
                                          "relations": []}) for d in parts]
            if mode == "sections":
                found = [pred for _, _, pred in ex.annotate([_input(d, None, True)
                                                             for d in blank])]
                preds.append(join(p, found)[0])
            else:
                sd, sections, _ = join(p, blank)
                preds.append(next(ex.annotate([_input(sd, sections, True)]))[2])
        res = evaluate_events([g for g, _, _ in gold.values()], preds)
        out[mode] = {k: res[k] for k in ("precision", "recall", "f1", "gold", "pred")} | {
            "seconds": round(time.perf_counter() - t0, 1)}
    return out


# ------------------------------------------------------------------ silver pairs

def _overlapping(spans: dict[str, tuple[int, int]], start: int, end: int) -> set[str]:
    return {i for i, (a, b) in spans.items() if a < end and start < b}


def pairs(split: str, by_paper: dict[str, list[StandoffDocument]]) -> dict:
    import relx
    from relx.ge.ppi_pairs import interacting_pairs

    ex = relx.load(task="ppi", types=False, warm_up=False)
    out: dict = {}
    mentions: dict[str, dict[str, dict[tuple[int, int], list[str]]]] = {}
    for given in (True, False):
        ex.mentions = "input" if given else "relx"
        for mode in ("sections", "paper"):
            t0 = time.perf_counter()
            tp_pred = n_pred = found_gold = n_gold = 0
            ments: dict[tuple[int, int], list[str]] = {}
            for p, parts in by_paper.items():
                sd, sections, offsets = join(p, parts)
                gold = interacting_pairs(sd)
                spans = {t.id: (t.start, t.end) for t in sd.proteins}
                if mode == "sections":
                    docs = list(ex.annotate([_input(d, None, given) for d in parts]))
                    shift = offsets
                else:
                    docs = [next(ex.annotate([_input(sd, sections, given)]))]
                    shift = [0]
                hit: set[frozenset[str]] = set()
                for (doc, found, _), off in zip(docs, shift, strict=True):
                    for s in doc.sentences:
                        for e in s.entities:
                            ments[(p, e.start + off, e.end + off)] = [e.text, *e.norm_ids]
                    for r in found:
                        a = _overlapping(spans, r.entity1.start + off, r.entity1.end + off)
                        b = _overlapping(spans, r.entity2.start + off, r.entity2.end + off)
                        ok = {frozenset((x, y)) for x in a for y in b if x != y} & gold
                        n_pred += 1
                        tp_pred += bool(ok)
                        hit |= ok
                n_gold += len(gold)
                found_gold += len(hit)
            prec, rec = tp_pred / max(1, n_pred), found_gold / max(1, n_gold)
            key = f"{'gold' if given else 'relx'} mentions, {mode}"
            out[key] = {"precision": round(prec, 4), "recall": round(rec, 4),
                        "f1": round(2 * prec * rec / max(1e-9, prec + rec), 4),
                        "reported": n_pred, "silver_pairs": n_gold,
                        "seconds": round(time.perf_counter() - t0, 1)}
            if not given:
                mentions[mode] = ments
    a, b = mentions["sections"], mentions["paper"]
    both = set(a) & set(b)
    changed = sorted(k for k in both if a[k][1:2] != b[k][1:2])
    texts = defaultdict(int)
    for k in changed:
        texts[(a[k][0], a[k][1] if len(a[k]) > 1 else None, b[k][1] if len(b[k]) > 1
               else None)] += 1
    new = defaultdict(int)
    for k in set(b) - set(a):
        new[b[k][0]] += 1
    out["tagging and grounding (relx mentions)"] = {
        "mentions_sections": len(a), "mentions_paper": len(b),
        "only_in_sections": len(set(a) - set(b)), "only_in_paper": len(set(b) - set(a)),
        "grounded_differently": len(changed),
        "grounding_changes": sorted(([*k, n] for k, n in texts.items()),
                                    key=lambda x: -x[-1])[:12],
        "tagged_only_in_paper": sorted(new.items(), key=lambda x: -x[1])[:12]}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", action="append", choices=("devel", "train"))
    ap.add_argument("--skip-events", action="store_true", help="silver pairs only")
    ap.add_argument("--out", type=Path)
    a = ap.parse_args(argv)
    results = {}
    for split in a.split or ["devel", "train"]:
        by_paper = papers(split)
        results[split] = {"papers": len(by_paper),
                          "sections": sum(map(len, by_paper.values())),
                          "events": None if a.skip_events else events(split, by_paper),
                          "pairs": pairs(split, by_paper)}
        print(json.dumps({split: results[split]}, indent=1), flush=True)
    if a.out:
        a.out.parent.mkdir(parents=True, exist_ok=True)
        a.out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
