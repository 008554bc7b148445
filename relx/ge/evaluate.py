"""BioNLP-ST GENIA (GE) event evaluation, reimplementing the shared task's ``a2-evaluate.pl``.

Definitions follow the GE 2011 evaluation tool ``a2-evaluate.pl`` (J.-D. Kim, 13 Feb 2011;
options ``-t``, ``-s``, ``-p``) and Kim et al. 2009/2011 (BioNLP-ST overview papers). A
predicted event is correct or not *as a whole*:

Event equality -- equal event types, matching triggers and a one-to-one correspondence of
arguments with equal roles and matching values. Roles are compared as the tool does:
``Theme2..`` = ``Theme`` (Binding themes are unordered) and ``ToLoc``/``AtLoc``/``FromLoc``
= ``Loc``. A protein (``.a1``) matches by exact span; gold ``Equiv`` proteins are
interchangeable (an argument may name any protein of the gold class; the prediction's own
Equiv lines are ignored). An ``Entity`` argument (Site, location) matches like a trigger;
an event argument matches recursively.

``task`` -- 1 (the GE core task, ``-t1``): arguments whose role contains ``Site`` or
``Loc`` are dropped from gold and prediction alike; 2: all arguments are kept.

``matching`` --

* ``"strict"``: trigger and entity spans identical; nested events must equal fully.
* ``"approx-span"`` (``-s``, approximate boundary matching): a predicted trigger/entity
  matches a gold one of the same type when its span lies within the gold span extended by
  one word on each side. Extension (``expand_span``): from the gold start skip the one
  character before it, then move left while the character is not one of
  space ``. ! ? , " '`` and not covered by a gold annotation (any ``.a1`` protein or gold
  ``.a2`` text-bound); the same rightwards from the gold end. Proteins are never approximate.
* ``"approx-recursive"`` (``-s -p``, the shared task's primary criterion): approximate span
  matching plus approximate recursive matching -- an event referred to as an argument (a
  nested event, at any depth) matches when type, trigger and its Theme arguments match;
  its Cause/Site/... are not compared. The top-level event needs all its arguments.

Counting, as the tool does -- duplicates are removed first on each side: events with the
same type, trigger id and arguments (proteins by span with Equiv proteins as one, other
text-bounds by id, duplicate nested events as their kept copy) count once. Then recall =
gold events matched by at least one prediction / gold events; precision = predictions
matching at least one gold event / predictions, where per document and event type the
matched predictions in excess of matched gold events are discarded from both counts
(so several predictions matching one gold event count once).

Modifications (Negation/Speculation, ``-t3``) are scored separately: a predicted
modification is correct when its type equals a gold modification's and its event matches
that one's event *as a nested event* (so only Themes count under approx-recursive); the
``task`` argument filter applies to those events too (the tool uses task 1's).

Deviations from the tool, by choice: Equiv classes are merged transitively; proteins are
compared by span, not id (predictions may carry their own NER proteins); argument lists
are matched as multisets, not as the ordered lists ``a2-normalize`` produces. Checked
against the original ``a2-evaluate.pl`` on perturbed predictions for GE 2009/2011/2013
data: identical gold/matched/answer counts for every class, mode and task 1-3.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Literal

from relx.doc import (
    GE_EVENT_TYPES,
    MODIFICATION_TYPES,
    REGULATION_TYPES,
    Event,
    StandoffDocument,
    TextBound,
)
from relx.errors import ConfigError, ReaderError

Matching = Literal["strict", "approx-span", "approx-recursive"]
MATCHINGS: tuple[str, ...] = ("strict", "approx-span", "approx-recursive")
#: aggregate classes reported with the per-type scores; types outside the nine GE'09 ones
#: (2013: Protein_modification, Ubiquitination, ...) count as SVT, as in the tool
CLASSES = {
    "SVT": ("Gene_expression", "Transcription", "Protein_catabolism", "Phosphorylation",
            "Localization"),
    "BIND": ("Binding",),
    "REG": tuple(sorted(REGULATION_TYPES)),
}
_DELIMS = frozenset(' .!?,"\'')
_Key = tuple[str, tuple[tuple[int, int], ...]]


def eval_role(role: str) -> str:
    """A role as the evaluation compares it: ``Theme2`` -> ``Theme``, ``ToLoc`` -> ``Loc``."""
    return re.sub(r"^Theme\d+$", "Theme", re.sub(r"^.+Loc$", "Loc", role))


def _key(t: TextBound) -> _Key:
    return t.type, tuple((s.start, s.end) for s in t.spans)


class _DocMatcher:
    """Event equality between one predicted and one gold document."""

    def __init__(self, gold: StandoffDocument, pred: StandoffDocument, matching: str,
                 task: int) -> None:
        self.gold, self.pred, self.task = gold, pred, task
        self.approx_span = matching != "strict"
        self.approx_rec = matching == "approx-recursive"
        self.g_tb, self.p_tb = gold.textbounds(), pred.textbounds()
        self.g_ev, self.p_ev = gold.event_map(), pred.event_map()
        self.g_proteins = {p.id for p in gold.proteins}
        self.equiv = gold.equiv_classes()
        # text picture: characters under any gold text-bound stop the span extension
        self.picture = bytearray(len(gold.text))
        for t in self.g_tb.values():
            for s in t.spans:
                self.picture[s.start:s.end] = b"\1" * (s.end - s.start)
        # Equiv representative of each gold text-bound key (for duplicate removal)
        self.rep: dict[_Key, _Key] = {}
        for ids in self.equiv.values():
            keys = sorted(_key(self.g_tb[i]) for i in ids if i in self.g_tb)
            for k in keys:
                self.rep[k] = keys[0]
        self._expanded: dict[str, tuple[int, int]] = {}
        self._memo: dict[tuple[str, str, bool], bool] = {}

    def expand(self, tb: TextBound) -> tuple[int, int]:
        """The gold span extended by one word each side (``expand_span``)."""
        if tb.id not in self._expanded:
            text, pic = self.gold.text, self.picture
            beg = tb.start - 2
            while beg >= 0 and text[beg] not in _DELIMS and not pic[beg]:
                beg -= 1
            end = tb.end + 2
            while end <= len(text) and text[end - 1] not in _DELIMS and not pic[end - 1]:
                end += 1
            self._expanded[tb.id] = (max(beg + 1, 0), min(end - 1, len(text)))
        return self._expanded[tb.id]

    def tb_match(self, p: TextBound, g: TextBound) -> bool:
        if p.type != g.type:
            return False
        if not self.approx_span or g.id in self.g_proteins:
            return _key(p) == _key(g)
        beg, end = self.expand(g)
        return beg <= p.start and p.end <= end

    def args(self, ev: Event, nested: bool) -> list[tuple[str, str]]:
        out = []
        for role, ref in ev.arguments:
            if self.task == 1 and ("Site" in role or "Loc" in role):
                continue
            role = eval_role(role)
            if nested and self.approx_rec and role != "Theme":
                continue
            out.append((role, ref))
        return out

    def ref_match(self, p_ref: str, g_ref: str) -> bool:
        if g_ref in self.g_ev:
            return p_ref in self.p_ev and self.event_match(p_ref, g_ref, nested=True)
        p = self.p_tb.get(p_ref)
        if p is None or g_ref not in self.g_tb:
            return False
        return any(self.tb_match(p, self.g_tb[g]) for g in self.equiv.get(g_ref, (g_ref,))
                   if g in self.g_tb)

    def event_match(self, p_id: str, g_id: str, nested: bool = False) -> bool:
        key = (p_id, g_id, nested)
        if key not in self._memo:
            self._memo[key] = False   # guards against cyclic predictions
            p, g = self.p_ev.get(p_id), self.g_ev.get(g_id)
            self._memo[key] = p is not None and g is not None and self._match(p, g, nested)
        return self._memo[key]

    def _match(self, p: Event, g: Event, nested: bool) -> bool:
        if p.type != g.type or p.trigger not in self.p_tb or g.trigger not in self.g_tb:
            return False
        if not self.tb_match(self.p_tb[p.trigger], self.g_tb[g.trigger]):
            return False
        p_args, g_args = self.args(p, nested), self.args(g, nested)
        return len(p_args) == len(g_args) and self._assign(p_args, g_args, 0, set())

    def _assign(self, p_args: list[tuple[str, str]], g_args: list[tuple[str, str]], i: int,
                used: set[int]) -> bool:
        """Backtracking one-to-one assignment of gold arguments to predicted ones."""
        if i == len(g_args):
            return True
        role, g_ref = g_args[i]
        for j, (p_role, p_ref) in enumerate(p_args):
            if j not in used and p_role == role and self.ref_match(p_ref, g_ref):
                used.add(j)
                if self._assign(p_args, g_args, i + 1, used):
                    return True
                used.discard(j)
        return False

    def unique_events(self, doc: StandoffDocument) -> tuple[list[Event], dict[str, str]]:
        """Events of ``doc`` (gold or pred) without duplicates, and each event id -> kept id."""
        proteins = {p.id: _key(p) for p in doc.proteins}
        evs = doc.event_map()
        sigs: dict[str, object] = {}

        def sig(ref: str) -> object:
            if ref in proteins:   # by span, Equiv proteins as one
                return self.rep.get(proteins[ref], proteins[ref])
            if ref not in evs:   # other text-bounds by id, as the tool does
                return ("id", ref)
            if ref not in sigs:
                sigs[ref] = ("cycle", ref)   # a cyclic prediction stays distinct
                e = evs[ref]
                args = sorted(((role, sig(a)) for role, a in self.args(e, False)), key=repr)
                sigs[ref] = (e.type, e.trigger, tuple(args))
            return sigs[ref]

        first: dict[object, str] = {}
        kept, canon = [], {}
        for e in doc.events:
            s = sig(e.id)
            if s not in first:
                first[s] = e.id
                kept.append(e)
            canon[e.id] = first[s]
        return kept, canon


def _prf(gold: int, gold_match: int, pred: int, pred_match: int) -> dict[str, float | int]:
    p = pred_match / pred if pred else 0.0
    r = gold_match / gold if gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"precision": p, "recall": r, "f1": f, "gold": gold, "pred": pred,
            "tp": gold_match, "gold_match": gold_match, "pred_match": pred_match}


class _Tally:
    """Counts per type: [gold, gold matched, pred, pred matched]."""

    def __init__(self) -> None:
        self.counts: dict[str, list[int]] = {}

    def add_doc(self, gold: list[tuple[str, bool]], pred: list[tuple[str, bool]]) -> None:
        doc: dict[str, list[int]] = {}
        for col, items in ((0, gold), (2, pred)):
            for type_, matched in items:
                c = doc.setdefault(type_, [0, 0, 0, 0])
                c[col] += 1
                c[col + 1] += int(matched)
        for type_, c in doc.items():
            surplus = c[3] - c[1]   # predictions matching the same gold event: drop extras
            if surplus > 0:
                c[2] -= surplus
                c[3] -= surplus
            total = self.counts.setdefault(type_, [0, 0, 0, 0])
            for k in range(4):
                total[k] += c[k]

    def _sum(self, types: Iterable[str]) -> list[int]:
        tot = [0, 0, 0, 0]
        for t in types:
            for k, v in enumerate(self.counts.get(t, [0, 0, 0, 0])):
                tot[k] += v
        return tot

    def report(self, types: Iterable[str], classes: dict[str, tuple[str, ...]]) -> dict:
        types = list(types)
        out = {t: _prf(*self._sum([t])) for t in [*types, *sorted(set(self.counts) - set(types))]}
        grouped = {t for members in classes.values() for t in members}
        for name, members in classes.items():
            if name == "SVT":
                members = (*members, *sorted(t for t in self.counts if t not in grouped))
            out[name] = _prf(*self._sum(members))
        out["ALL"] = _prf(*self._sum(list(self.counts)))
        return out


def evaluate_events(gold_docs: Iterable[StandoffDocument], pred_docs: Iterable[StandoffDocument],
                    matching: Matching = "approx-recursive", task: int = 1,
                    modifications: bool = True,
                    wrong: Mapping[str, int] | None = None) -> dict:
    """Score predicted against gold documents (paired by id; a missing prediction is empty).

    ``wrong``: event type -> predictions counted as wrong on top of ``pred_docs``' (those
    of a predicted file that could not be read: :func:`score_event_dirs`).

    Returns ``precision``, ``recall``, ``f1``, counts ``gold``, ``pred``, ``gold_match``,
    ``pred_match`` (``tp`` = ``gold_match``), ``per_type`` {each type and SVT, BIND, REG, ALL:
    the same keys} and, with ``modifications``, ``modifications`` {Negation, Speculation, ALL}.
    """
    if matching not in MATCHINGS:
        raise ConfigError(f"matching must be one of {MATCHINGS}, not {matching!r}")
    if task not in (1, 2):
        raise ConfigError(f"task must be 1 or 2, not {task!r}")
    golds = {d.id: d for d in gold_docs}
    preds = {d.id: d for d in pred_docs}
    unknown = sorted(set(preds) - set(golds))
    if unknown:
        raise ConfigError(f"predictions for documents without gold: {unknown[:5]}")
    events, mods = _Tally(), _Tally()
    for doc_id, gold in golds.items():
        pred = preds.get(doc_id) or StandoffDocument(id=doc_id, text=gold.text)
        if pred.text != gold.text:
            raise ConfigError(f"document {doc_id}: predicted text differs from the gold text")
        m = _DocMatcher(gold, pred, matching, task)
        (g_events, g_canon), (p_events, p_canon) = m.unique_events(gold), m.unique_events(pred)
        events.add_doc(
            [(g.type, any(m.event_match(p.id, g.id) for p in p_events if p.type == g.type))
             for g in g_events],
            [(p.type, any(m.event_match(p.id, g.id) for g in g_events if g.type == p.type))
             for p in p_events])
        if modifications:
            g_mods = {(x.type, g_canon[x.event]) for x in gold.modifications if x.event in g_canon}
            p_mods = {(x.type, p_canon[x.event]) for x in pred.modifications if x.event in p_canon}
            mods.add_doc(
                [(t, any(pt == t and m.event_match(p, g, nested=True) for pt, p in p_mods))
                 for t, g in sorted(g_mods)],
                [(t, any(gt == t and m.event_match(p, g, nested=True) for gt, g in g_mods))
                 for t, p in sorted(p_mods)])
    for type_, n in (wrong or {}).items():
        events.counts.setdefault(type_, [0, 0, 0, 0])[2] += n
    per_type = events.report(GE_EVENT_TYPES, CLASSES)
    result: dict = dict(per_type["ALL"])
    result.update(matching=matching, task=task, per_type=per_type)
    if modifications:
        result["modifications"] = mods.report(MODIFICATION_TYPES, {})
    return result


def _event_lines(path: Path) -> Counter[str]:
    """Event type -> distinct ``E`` lines of an ``.a2`` file read as loosely as it can be."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return Counter()
    lines = {tuple(line.split("\t", 1)[1].split()) for line in text.splitlines()
             if line.startswith("E") and "\t" in line and line.split("\t", 1)[1].strip()}
    return Counter(fields[0].partition(":")[0] for fields in lines)


def score_event_dirs(gold_dir: str | Path, pred_dir: str | Path,
                     matching: Matching = "approx-recursive", task: int = 1) -> dict:
    """Score the predicted ``.a2`` files of ``pred_dir`` against the gold folder (``.txt``,
    ``.a1``, ``.a2``), paired by base name; a gold document without a predicted file
    predicts nothing. A bad gold folder raises.

    A predicted file that cannot be read (a malformed line, an argument naming an id that
    is not in the gold ``.a1``...) does not stop the scoring: its document's gold events
    count as missed and each of its distinct ``E`` lines as a wrong prediction of its type
    (so a broken file never raises the score), and it is listed in the result's
    ``unreadable``: [{``file``, ``where``, ``error``, ``events``}] (``events``: the
    predictions counted wrong). Otherwise returns :func:`evaluate_events`'s result.
    """
    from relx.io.standoff import read_standoff, read_standoff_dir

    gold_dir, pred_dir = Path(gold_dir), Path(pred_dir)
    gold_docs = read_standoff_dir(gold_dir)
    preds: list[StandoffDocument] = []
    wrong: Counter[str] = Counter()
    unreadable: list[dict] = []
    for g in gold_docs:
        a2 = pred_dir / f"{g.id}.a2"
        if not a2.exists():
            continue
        try:
            preds.append(read_standoff(gold_dir / f"{g.id}.txt", a2_path=a2))
        except ReaderError as exc:
            counted = _event_lines(a2)
            wrong.update(counted)
            unreadable.append({"file": exc.path, "where": exc.where, "error": exc.reason,
                               "events": sum(counted.values())})
    result = evaluate_events(gold_docs, preds, matching=matching, task=task, wrong=wrong)
    result["unreadable"] = unreadable
    return result
