"""Where GENIA regulation events are lost, on the paper split's validation documents.

Each gold Regulation / Positive_regulation / Negative_regulation event is matched
(approximate recursive) or put down to the first thing that failed: its trigger's head
token not predicted as a trigger, predicted as another type, predicted as the type but
without an event, or an event with wrong arguments. Recall is also split by argument shape
(Theme a protein or an event; Cause none, a protein or an event).

    python -m lab.experiments.ge_paper_split fit both              # -> runs/ge-paper/both
    python -m lab.experiments.ge_reg_misses [runs/ge-paper/both]
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence

from lab.experiments.ge_paper_split import load_split
from lab.ge.extractor import LabGEExtractor
from relx.doc import REGULATION_TYPES, Event, StandoffDocument
from relx.ge.evaluate import _DocMatcher
from relx.ge.sentences import SentenceView, build_views, trigger_head
from relx.ge.sentences import _sentence_of as sentence_of


def shape(e: Event, events: dict[str, Event]) -> str:
    args = {role.rstrip("0123456789"): ref for role, ref in e.arguments}
    theme = "event" if args.get("Theme") in events else "protein"
    cause = "none" if "Cause" not in args else "event" if args["Cause"] in events else "protein"
    return f"Theme {theme}, Cause {cause}"


def why(e: Event, gold: StandoffDocument, pred: StandoffDocument, m: _DocMatcher,
        views: Sequence[SentenceView], nodes: Sequence[dict[int, set[str]]]) -> str:
    if any(p.type == e.type and m.event_match(p.id, e.id) for p in pred.events):
        return "matched"
    tb = gold.textbounds()[e.trigger]
    vi = sentence_of(views, tb.start)
    tok = None if vi is None else trigger_head(views[vi], tb)
    if vi is None or tok is None:
        return "trigger not on a token"
    types = nodes[vi].get(tok, set())
    if not types:
        return "token not a trigger"
    if e.type not in types:
        return "another type"
    if not any(p.type == e.type and p.trigger in m.p_tb and m.tb_match(m.p_tb[p.trigger], tb)
               for p in pred.events):
        return "trigger, no event"
    return "event, wrong arguments"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    model = LabGEExtractor.load(args[0] if args else "runs/ge-paper/both")
    _, val = load_split("both", "runs/events/cache")
    reasons, total, hit = Counter(), Counter(), Counter()
    for d, pred in zip(val, model.predict(val), strict=True):
        gold = d.standoff
        views = build_views(d, gold=False)
        nodes = model.triggers.predict(views)
        m = _DocMatcher(gold, pred, "approx-recursive", 1)
        events = gold.event_map()
        for e in gold.events:
            if e.type in REGULATION_TYPES:
                r = why(e, gold, pred, m, views, nodes)
                reasons[r] += 1
                total[shape(e, events)] += 1
                hit[shape(e, events)] += r == "matched"
    n = sum(reasons.values())
    print(f"{n} gold regulation events")
    for r, c in reasons.most_common():
        print(f"  {r:24s} {c:5d} {c / n:.3f}")
    for s in sorted(total):
        print(f"  {s:30s} gold {total[s]:4d} recall {hit[s] / total[s]:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
