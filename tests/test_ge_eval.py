from __future__ import annotations

import random
import re

import pytest

from relx.doc import Event, Modification, Span, StandoffDocument, TextBound
from relx.ge.evaluate import MATCHINGS, eval_role, evaluate_events
from relx.io.standoff import parse_standoff, read_standoff_dir
from tests.conftest import SHARED

GE = SHARED / "corpora" / "bionlp-st-ge"
TEXT = ("The increased expression of IL-2 by TRAF2 was enhanced by STAT3 , "
        "and interleukin-2 (IL2) binds p53 at the promoter .\n")


def tb(tid: str, type_: str, s: str, nth: int = 0) -> str:
    """A T line for the ``nth`` occurrence of ``s`` in TEXT."""
    i = -1
    for _ in range(nth + 1):
        i = TEXT.index(s, i + 1)
    return f"{tid}\t{type_} {i} {i + len(s)}\t{s}\n"


A1 = (tb("T1", "Protein", "IL-2") + tb("T2", "Protein", "TRAF2") + tb("T3", "Protein", "STAT3")
      + tb("T4", "Protein", "interleukin-2") + tb("T5", "Protein", "IL2")
      + tb("T6", "Protein", "p53"))


def doc(*lines: str, doc_id: str = "d") -> StandoffDocument:
    return parse_standoff(doc_id, TEXT, A1, "".join(lines))


def ev(line: str) -> str:
    return line + "\n"


def score(gold, pred, matching="approx-recursive", **kw):
    return evaluate_events([gold], [pred], matching=matching, **kw)


def pr(result) -> tuple[float, float]:
    return round(result["precision"], 4), round(result["recall"], 4)


GE_T = tb("T10", "Gene_expression", "expression")
GOLD_GE = doc(GE_T, ev("E1\tGene_expression:T10 Theme:T1"))


@pytest.mark.parametrize("trigger,approx,strict", [
    ("expression", True, True),
    ("increased expression", True, False),      # one word to the left
    ("expression of", True, False),             # one word to the right
    ("xpressio", True, False),                  # inside the gold span
    ("The increased expression", False, False),  # two words to the left
    ("expression of IL-2", False, False),       # two words to the right
])
def test_approximate_span_matching(trigger, approx, strict):
    pred = doc(tb("T20", "Gene_expression", trigger), ev("E1\tGene_expression:T20 Theme:T1"))
    for matching in ("approx-span", "approx-recursive"):
        assert score(GOLD_GE, pred, matching)["f1"] == float(approx)
    assert score(GOLD_GE, pred, "strict")["f1"] == float(strict)


def test_span_extension_stops_at_proteins():
    gold = doc(tb("T10", "Binding", "binds"), ev("E1\tBinding:T10 Theme:T5"))
    for trigger, ok in [(") binds", True), ("IL2) binds", False), ("binds p53", False)]:
        pred = doc(tb("T20", "Binding", trigger), ev("E1\tBinding:T20 Theme:T5"))
        assert score(gold, pred, "approx-span")["f1"] == float(ok), trigger


def test_wrong_type_or_theme_never_matches():
    for lines in [(tb("T20", "Transcription", "expression"), ev("E1\tTranscription:T20 Theme:T1")),
                  (GE_T, ev("E1\tGene_expression:T10 Theme:T2")),
                  (GE_T, ev("E1\tGene_expression:T10 Theme:T1 Cause:T2"))]:
        for matching in MATCHINGS:
            assert score(GOLD_GE, doc(*lines), matching)["f1"] == 0.0


# "expression of IL-2 by TRAF2 was enhanced by STAT3": E1 expression, E2 TRAF2 -> E1
# (trigger "by", the first one), E3 STAT3 -> E2 (trigger "enhanced")
REG_T = (GE_T + tb("T11", "Positive_regulation", "by") + tb("T12", "Positive_regulation", "enhanced"))
GOLD_REG = doc(REG_T, ev("E1\tGene_expression:T10 Theme:T1"),
               ev("E2\tPositive_regulation:T11 Theme:E1 Cause:T2"),
               ev("E3\tPositive_regulation:T12 Theme:E2 Cause:T3"))


@pytest.mark.parametrize("e2,e3,expected", [
    # the nested E2 has a wrong Cause: E2 itself is wrong everywhere, E3 only needs E2's Theme
    ("Theme:E1 Cause:T3", "Theme:E2 Cause:T3",
     {"strict": 1, "approx-span": 1, "approx-recursive": 2}),
    # the nested E2 has no Cause at all
    ("Theme:E1", "Theme:E2 Cause:T3", {"strict": 1, "approx-span": 1, "approx-recursive": 2}),
    # the top-level E3 has the wrong Cause: never right
    ("Theme:E1 Cause:T2", "Theme:E2 Cause:T2",
     {"strict": 2, "approx-span": 2, "approx-recursive": 2}),
    # E3 without its Cause: the top level needs every argument
    ("Theme:E1 Cause:T2", "Theme:E2", {"strict": 2, "approx-span": 2, "approx-recursive": 2}),
    # the nested event's Theme is wrong: wrong under every criterion
    ("Theme:E1 Cause:T2", "Theme:E4 Cause:T3", {"strict": 2, "approx-span": 2,
                                                "approx-recursive": 2}),
])
def test_nested_regulation_and_approximate_recursive_matching(e2, e3, expected):
    pred = doc(REG_T, tb("T13", "Gene_expression", "binds"),
               ev("E1\tGene_expression:T10 Theme:T1"), ev("E4\tGene_expression:T13 Theme:T1"),
               ev(f"E2\tPositive_regulation:T11 {e2}"), ev(f"E3\tPositive_regulation:T12 {e3}"))
    for matching, correct in expected.items():
        r = score(GOLD_REG, pred, matching)
        assert (r["gold"], r["pred"]) == (3, 4)
        assert (r["gold_match"], r["pred_match"]) == (correct, correct), matching
        assert pr(r) == (round(correct / 4, 4), round(correct / 3, 4))
        assert r["per_type"]["REG"]["gold"] == 2 and r["per_type"]["SVT"]["pred"] == 2


EQ_T = tb("T10", "Binding", "binds")


def test_equivalent_proteins_are_interchangeable():
    gold = doc(EQ_T, ev("E1\tBinding:T10 Theme:T5 Theme2:T6"), "*\tEquiv T4 T5\n")
    pred = doc(EQ_T, ev("E1\tBinding:T10 Theme:T4 Theme2:T6"))
    for matching in MATCHINGS:
        assert score(gold, pred, matching)["f1"] == 1.0
    no_equiv = doc(EQ_T, ev("E1\tBinding:T10 Theme:T5 Theme2:T6"))
    assert score(no_equiv, pred)["f1"] == 0.0
    # the same event twice through equivalent proteins counts once
    both = doc(EQ_T, ev("E1\tBinding:T10 Theme:T4 Theme2:T6"), ev("E2\tBinding:T10 Theme:T5 Theme2:T6"))
    r = score(gold, both)
    assert (r["pred"], r["pred_match"], r["precision"]) == (1, 1, 1.0)


@pytest.mark.parametrize("args,ok", [
    ("Theme:T5 Theme2:T6", True),
    ("Theme:T6 Theme2:T5", True),                 # theme order does not matter
    ("Theme:T5", False),                          # a missing theme
    ("Theme:T5 Theme2:T6 Theme3:T3", False),      # an extra theme
    ("Theme:T5 Theme2:T5", False),                # one-to-one correspondence
])
def test_multi_theme_binding(args, ok):
    gold = doc(EQ_T, ev("E1\tBinding:T10 Theme:T5 Theme2:T6"))
    assert score(gold, doc(EQ_T, ev(f"E1\tBinding:T10 {args}")))["f1"] == float(ok)


def test_split_binding_is_two_false_positives():
    gold = doc(EQ_T, ev("E1\tBinding:T10 Theme:T5 Theme2:T6"))
    r = score(gold, doc(EQ_T, ev("E1\tBinding:T10 Theme:T5"), ev("E2\tBinding:T10 Theme:T6")))
    assert (r["gold"], r["gold_match"], r["pred"], r["pred_match"]) == (1, 0, 2, 0)
    assert r["per_type"]["BIND"]["pred"] == 2 and r["per_type"]["Binding"]["f1"] == 0.0


def test_sites_count_in_task_2_only():
    site = tb("T11", "Entity", "promoter")
    gold = doc(EQ_T, site, ev("E1\tBinding:T10 Theme:T6 Site:T11"))
    pred = doc(EQ_T, ev("E1\tBinding:T10 Theme:T6"))
    assert score(gold, pred, task=1)["f1"] == 1.0
    assert score(gold, pred, task=2)["f1"] == 0.0
    assert score(gold, gold, task=2)["f1"] == 1.0
    near = doc(EQ_T, tb("T11", "Entity", "the promoter"), ev("E1\tBinding:T10 Theme:T6 Site:T11"))
    assert score(gold, near, "approx-span", task=2)["f1"] == 1.0
    assert score(gold, near, "strict", task=2)["f1"] == 0.0
    assert [eval_role(r) for r in ("Theme2", "ToLoc", "AtLoc", "Site2")] == [
        "Theme", "Loc", "Loc", "Site2"]


def test_duplicate_matches_of_one_gold_event_count_once():
    pred = doc(GE_T, tb("T20", "Gene_expression", "increased expression"),
               ev("E1\tGene_expression:T10 Theme:T1"), ev("E2\tGene_expression:T20 Theme:T1"))
    r = score(GOLD_GE, pred)
    assert (r["gold"], r["gold_match"], r["pred"], r["pred_match"]) == (1, 1, 1, 1)
    assert score(GOLD_GE, pred, "strict")["pred"] == 2


def test_modifications_are_scored_separately():
    gold = doc(REG_T, ev("E1\tGene_expression:T10 Theme:T1"),
               ev("E2\tPositive_regulation:T11 Theme:E1 Cause:T2"), "M1\tNegation E2\n")
    right = doc(REG_T, ev("E1\tGene_expression:T10 Theme:T1"),
                ev("E2\tPositive_regulation:T11 Theme:E1 Cause:T2"), "M1\tNegation E2\n")
    wrong_type = right.model_copy(update={"modifications": [
        Modification(id="M1", type="Speculation", event="E2")]})
    no_cause = doc(REG_T, ev("E1\tGene_expression:T10 Theme:T1"),
                   ev("E2\tPositive_regulation:T11 Theme:E1"), "M1\tNegation E2\n")
    assert score(gold, right)["modifications"]["Negation"]["f1"] == 1.0
    r = score(gold, wrong_type)
    assert r["f1"] == 1.0 and r["modifications"]["ALL"]["f1"] == 0.0
    assert r["modifications"]["Speculation"]["pred"] == 1
    # the modified event is compared as a nested event (only Themes, approx-recursive)
    assert score(gold, no_cause)["modifications"]["ALL"]["f1"] == 1.0
    assert score(gold, no_cause, "approx-span")["modifications"]["ALL"]["f1"] == 0.0
    assert "modifications" not in score(gold, right, modifications=False)


def test_missing_and_invalid_predictions():
    r = evaluate_events([GOLD_REG], [])
    assert (r["gold"], r["pred"], r["recall"], r["f1"]) == (3, 0, 0.0, 0.0)
    with pytest.raises(ValueError, match="text differs"):
        evaluate_events([GOLD_GE], [StandoffDocument(id="d", text="other")])
    with pytest.raises(ValueError, match="without gold"):
        evaluate_events([GOLD_GE], [doc(doc_id="zz")])
    with pytest.raises(ValueError, match="matching"):
        evaluate_events([GOLD_GE], [], matching="loose")  # type: ignore[arg-type]
    cyclic = doc(REG_T, ev("E1\tPositive_regulation:T11 Theme:E2"),
                 ev("E2\tPositive_regulation:T12 Theme:E1"))
    assert evaluate_events([GOLD_REG], [cyclic])["pred_match"] == 0


# ---------------------------------------------------------------- the real corpora

def _split(split: str) -> list[StandoffDocument]:
    path = GE / split
    if not path.is_dir():
        pytest.skip(f"{path} not available (set RELX_DATA to the shared data folder)")
    return read_standoff_dir(path)


@pytest.fixture(scope="module")
def devel11() -> list[StandoffDocument]:
    return _split("2011/devel")


@pytest.mark.parametrize("matching", MATCHINGS)
@pytest.mark.parametrize("task", [1, 2])
def test_gold_scored_against_itself_is_perfect(devel11, matching, task):
    r = evaluate_events(devel11, devel11, matching=matching, task=task)
    assert r["precision"] == r["recall"] == r["f1"] == 1.0
    # the tool's gold count for GE 2011 devel, task 1 (duplicates removed): 3243 events
    assert r["gold"] == {1: 3243, 2: 3250}[task]
    for name, s in [*r["per_type"].items(), *r["modifications"].items()]:
        assert s["f1"] == (1.0 if s["gold"] else 0.0), name
    assert {"SVT", "BIND", "REG", "ALL"} <= set(r["per_type"])


def _perturb(d: StandoffDocument, rng: random.Random) -> StandoffDocument:
    """Predictions near the gold: shifted triggers, lost causes, swapped proteins, copies."""
    words = [(m.start(), m.end()) for m in re.finditer(r"\S+", d.text)]
    triggers, events, extra = {t.id: t for t in d.triggers}, [], []

    def shifted(t: TextBound) -> TextBound:
        s, e, r = t.start, t.end, rng.random()
        left = [w for w in words if w[1] <= s]
        if r < 0.3 and left:
            s = left[-1][0]
        elif r < 0.5:
            e = next((w[1] for w in words if w[0] >= e), e)
        elif r < 0.65 and len(left) > 1:
            s = left[-2][0]
        elif r < 0.8 and e - s > 2:
            e -= 1
        return t.model_copy(update={"spans": [Span(start=s, end=e)], "text": d.text[s:e]})

    for tid, t in list(triggers.items()):
        if rng.random() < 0.25:
            triggers[tid] = shifted(t)
    proteins = [p.id for p in d.proteins]
    for e in d.events:
        args, r = list(e.arguments), rng.random()
        if r < 0.1:
            args = [a for a in args if a[0] != "Cause"]
        elif r < 0.15:
            args = [(ro, rng.choice(proteins) if ref in proteins else ref) for ro, ref in args]
        events.append(e.model_copy(update={"arguments": args}))
        if rng.random() < 0.05:
            t = shifted(triggers[e.trigger]).model_copy(update={"id": f"TX{len(extra)}"})
            extra.append(t)
            events.append(Event(id=f"EX{len(extra)}", type=e.type, trigger=t.id, arguments=args))
    mods = [m.model_copy(update={"type": "Negation" if m.type == "Speculation" else "Speculation"})
            if rng.random() < 0.1 else m for m in d.modifications if rng.random() > 0.1]
    return StandoffDocument(id=d.id, text=d.text, proteins=d.proteins, equivs=d.equivs,
                            triggers=[*triggers.values(), *extra], events=events,
                            modifications=mods)


# (gold, matched gold, answers, matched answers) for ALL and MOD-TOTAL, as printed by the
# original a2-evaluate.pl (-t1 / -t3, with -s / -s -p) for the _perturb(seed 7) predictions
TOOL = {
    "strict": ((3243, 2180, 3366, 2180), (459, 239, 410, 239)),
    "approx-span": ((3243, 2633, 3305, 2632), (459, 294, 410, 294)),
    "approx-recursive": ((3243, 2644, 3305, 2640), (459, 327, 410, 317)),
}


@pytest.mark.parametrize("matching", MATCHINGS)
def test_agrees_with_the_shared_task_tool(devel11, matching):
    rng = random.Random(7)
    preds = [_perturb(d, rng) for d in devel11]
    r = evaluate_events(devel11, preds, matching=matching)
    got = [(s["gold"], s["gold_match"], s["pred"], s["pred_match"])
           for s in (r, r["modifications"]["ALL"])]
    assert tuple(got) == TOOL[matching]
