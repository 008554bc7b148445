"""Document-level gene-pair candidates and their features (multi-instance: a pair of gene ids
gathers every mention pair of the two genes, within a sentence and across sentences).

A candidate is an unordered pair of distinct gene ids of a document's mentions (all of a
mention's ids count). Its features (:data:`FEATURES`) aggregate the interaction model's
same-sentence mention-pair scores (max, mean, noisy-or, counts), the sentence distances
between the two genes' mentions (adjacent sentences, and any mention of the same id), title
co-occurrence, the genes' mention counts and ranks, the event typer's types, and trigger and
novelty cue words in the sentences holding both genes. :func:`candidates` caps the pairs of
one document (the closest first) and counts what the cap leaves out.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Collection
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from relx.ppi.doc_view import DocView

#: event typer types, grouped (``relx.ge.interactions``)
EVENT_GROUPS = {"Complex": "complex", "Activation": "up", "IncreaseAmount": "up",
                "Inhibition": "down", "DecreaseAmount": "down", "Regulation": "regulation"}
EVENT_GROUP_NAMES = ("complex", "up", "down", "regulation", "modification")

#: cue words (lowercased, regex on word starts) in the sentences holding both genes
CUES = {
    "bind": r"\b(bind|binds|binding|bound|interact\w*|complex\w*|associates? with|dimer\w*|"
            r"recruit\w*|co-?immunoprecipitat\w*|ligand|receptor)",
    "up": r"\b(increas\w*|induc\w*|activat\w*|up-?regulat\w*|enhanc\w*|promot\w*|"
          r"stimulat\w*|elevat\w*|potentiat\w*|augment\w*|restor\w*|mediat\w*|trigger\w*)",
    "down": r"\b(inhibit\w*|decreas\w*|suppress\w*|reduc\w*|down-?regulat\w*|block\w*|"
            r"attenuat\w*|abolish\w*|impair\w*|antagoni\w*|prevent\w*|repress\w*|lower\w*|"
            r"loss|deficien\w*|knock\w*|silenc\w*)",
    "assoc": r"\b(associat\w*|correlat\w*|polymorphism\w*|mutation\w*|variant\w*|"
             r"allele\w*|genotyp\w*|risk|linked|relationship)",
    "expression": r"\b(express\w*|level\w*|mrna|secret\w*|concentration\w*|serum|plasma)",
    "novel": r"\b(we|our|here|herein|this study|present study|found|find|show\w*|"
             r"demonstrat\w*|reveal\w*|identif\w*|results?|conclu\w*|suggest\w*|indicat\w*)",
    "known": r"\b(previous\w*|known|reported|has been|have been|is a|are a|well-?|"
             r"recent\w*|studies|it is|thought|believed|role of)",
    "negation": r"\b(not|no|neither|nor|without|fail\w*|unaffected|independent)\b",
}
_CUE_RE = {k: re.compile(v) for k, v in CUES.items()}
#: the cue classes a type model reads on a dependency path / between two mentions
TYPE_CUES = ("bind", "up", "down", "assoc", "expression")
_NEGATION = re.compile(r"\b(not|no|neither|nor|without|fail\w*|unaffected|independent|"
                       r"lack\w*|absen\w*)\b")
#: background (citing what is known) vs finding (this paper's result) phrases
STANCE = {
    "background": r"\b(is known|are known|well[- ]known|previous\w*|has been (shown|reported|"
                  r"implicated|suggested|identified|described)|have been (shown|reported|"
                  r"implicated|suggested|identified|described)|it is (known|established)|"
                  r"is thought|are thought|believed|recent (studies|reports)|et al|"
                  r"\[\d+\]|emerging evidence|growing evidence|plays? (a|an) (key|important|"
                  r"critical|central|essential) role)",
    "finding": r"\b(we (show|found|find|demonstrate|report|identif\w*|observ\w*|conclude|"
               r"propose|suggest|reveal\w*)|our (results|data|findings|study)|here,? we|"
               r"in this study|in the present study|these (results|data|findings)|"
               r"this study|herein|taken together|in conclusion|results (show|indicate|"
               r"suggest|demonstrate|reveal))",
}
_STANCE_RE = {k: re.compile(v) for k, v in STANCE.items()}
#: marks the start of the masked text after a pair's marker words (:func:`pair_markers`)
MARKER_END = " ||| "
#: two mentions with only a list between them ("IL-6, IL-8 and TNF"; "IL-6/IL-8")
_LISTED = re.compile(r"\s*(,|/|and|or|,\s*and|,\s*or|-)?\s*", re.IGNORECASE)

FEATURES: tuple[str, ...] = (
    "n_mentions_min", "n_mentions_max", "log_mentions_product", "rank_min", "rank_max",
    "top_gene", "n_genes", "n_sentences",
    "n_mention_pairs", "n_sentences_both", "share_sentences_both", "score_max", "score_mean",
    "score_top2", "prob_max", "prob_noisy_or", "n_prob_over_half", "n_same_gene",
    "share_negated", "share_speculated",
    "min_sentence_distance", "n_adjacent", "mean_min_distance",
    "title_x", "title_y", "title_both", "first_sentence_min", "first_sentence_max",
    "mean_position_both", "last_two_both", "min_char_gap",
    *(f"event_{g}" for g in EVENT_GROUP_NAMES),
    *(f"event_score_{g}" for g in EVENT_GROUP_NAMES),
    *(f"cue_{k}" for k in CUES),
    *(f"cue_between_{k}" for k in ("bind", "up", "down", "assoc")),
    "cue_adjacent_novel", "cue_adjacent_known",
    "degree_min", "degree_max", "best_partner_x", "best_partner_y", "share_listed",
)


@dataclass
class Candidates:
    """A document's candidate gene pairs: ``keys[i]`` = (id, id) sorted, ``X[i]`` its
    features (:data:`FEATURES`), ``evidence[i]`` the sentence indices holding both genes
    (best-scored first, then in text order), ``capped`` the pairs the cap left out."""

    doc_id: str
    keys: list[tuple[str, str]] = field(default_factory=list)
    X: np.ndarray = field(default_factory=lambda: np.zeros((0, len(FEATURES)), np.float32))
    evidence: list[list[int]] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    capped: int = 0


def _cues(text: str) -> dict[str, int]:
    low = text.lower()
    return {k: len(r.findall(low)) for k, r in _CUE_RE.items()}


def candidates(view: DocView, max_pairs: int | None = 300,
               only: Collection[tuple[str, str]] | None = None) -> Candidates:
    """The candidate gene pairs of ``view`` and their features; at most ``max_pairs``, the
    pairs whose genes come closest (sentence distance, then mention counts) kept; ``only``:
    of those, just these pairs (their features as among all of them)."""
    by_id: dict[str, list[int]] = defaultdict(list)          # gene id -> mention indices
    for k, m in enumerate(view.mentions):
        for i in m.ids:
            by_id[i].append(k)
    genes = sorted(by_id)
    if len(genes) < 2:
        return Candidates(view.id)
    count = {g: len(by_id[g]) for g in genes}
    ranked = sorted(genes, key=lambda g: -count[g])
    rank = {g: ranked.index(g) for g in genes}
    n_sent = max(len(view.sentences), 1)
    sent_of = {g: sorted({view.mentions[k].sentence for k in by_id[g]}) for g in genes}
    mention_at = {m.id: k for k, m in enumerate(view.mentions)}
    pair_by_genes: dict[tuple[str, str], list[int]] = defaultdict(list)
    for p_no, p in enumerate(view.pairs):
        ma, mb = view.mentions[mention_at[p.a]], view.mentions[mention_at[p.b]]
        for x in ma.ids:
            for y in mb.ids:
                if x != y:
                    pair_by_genes[tuple(sorted((x, y)))].append(p_no)
    sent_cues = [_cues(view.sentence_text(k)) for k in range(len(view.sentences))]
    stances: dict[int, list[str]] = {}

    def distance(x: str, y: str) -> int:
        return min(abs(a - b) for a in sent_of[x] for b in sent_of[y])

    partners: dict[str, set[str]] = defaultdict(set)
    best_score: dict[str, tuple[float, str]] = {}
    for (x, y), nos in pair_by_genes.items():
        partners[x].add(y)
        partners[y].add(x)
        top = max(view.pairs[i].score for i in nos)
        for a, b in ((x, y), (y, x)):
            if top > best_score.get(a, (-1e9, ""))[0]:
                best_score[a] = (top, b)
    gene_level = (partners, best_score)
    keys = [tuple(sorted(k)) for k in combinations(genes, 2)]
    capped = 0
    if max_pairs is not None and len(keys) > max_pairs:
        keys.sort(key=lambda k: (distance(*k), -count[k[0]] * count[k[1]]))
        capped = len(keys) - max_pairs
        keys = sorted(keys[:max_pairs])
    if only is not None:
        keys = [k for k in keys if k in only]
    rows, evidence, texts = [], [], []
    for x, y in keys:
        row, ev = _features(view, x, y, pair_by_genes.get((x, y), []), sent_of, count, rank,
                            len(genes), n_sent, sent_cues, mention_at, gene_level)
        rows.append(row)
        evidence.append(ev)
        texts.append(pair_markers(view, x, y, pair_by_genes.get((x, y), []), ev, sent_of,
                                  mention_at, stances) + MARKER_END
                     + pair_text(view, x, y, ev, sent_of))
    return Candidates(view.id, keys, np.asarray(rows, np.float32), evidence, texts, capped)


def _cue_words(prefix: str, text: str) -> list[str]:
    low = text.lower()
    neg = bool(_NEGATION.search(low))
    out = []
    for k in TYPE_CUES:
        if _CUE_RE[k].search(low):
            out.append(f"{prefix}{k}")
            if neg:
                out.append(f"{prefix}neg{k}")
    return out


def pair_markers(view: DocView, x: str, y: str, pair_nos: list[int], evidence: list[int],
                 sent_of: dict[str, list[int]], mention_at: dict[str, int] | None = None,
                 stances: dict[int, list[str]] | None = None) -> str:
    """Marker words of what the text says about a pair, for the type and novelty models:
    ``p<lemma>`` per dependency-path word between the two genes' mentions, ``pc<cue>`` /
    ``bc<cue>`` the cue classes (:data:`TYPE_CUES`, ``...neg...`` when negated) on the path
    / between the mentions, ``ev<type>`` the event typer's types, ``at<where>`` where the
    pair is said (title, first / last sentences, only adjacent sentences), ``st<stance>``
    background vs finding phrases (:data:`STANCE`) in its sentences and their
    neighbours. ``mention_at`` (mention id -> index) and ``stances`` (sentence -> its
    :data:`STANCE` classes, filled as they are found) are the document's, when kept."""
    if mention_at is None:
        mention_at = {m.id: k for k, m in enumerate(view.mentions)}
    words: list[str] = []
    for i in pair_nos:
        p = view.pairs[i]
        if p.same_gene:
            continue
        words += [f"p{w}" for w in p.path if w.isalpha() or w == "PROT"]
        words += _cue_words("pc", " ".join(p.path))
        ma, mb = view.mentions[mention_at[p.a]], view.mentions[mention_at[p.b]]
        lo, hi = sorted((ma, mb), key=lambda m: m.start)
        words += _cue_words("bc", view.text[lo.end:hi.start])
        if p.type != "Interaction":
            words.append(f"ev{p.type.lower()}")
    n = len(view.sentences)
    said = evidence or sorted(set(sent_of[x]) | set(sent_of[y]))
    if not evidence:
        words.append("atapart")
    for s in said:
        words.append("attitle" if s == 0 else "atfirst" if s <= 2 else
                     "atlast" if s >= n - 2 else "atmiddle")
    near = sorted({s + d for s in said for d in (-1, 0, 1) if 0 <= s + d < n})
    stances = {} if stances is None else stances
    for s in near:
        if s not in stances:
            low = view.sentence_text(s).lower()
            stances[s] = [k for k, r in _STANCE_RE.items() if r.search(low)]
        words += [f"st{k}{'' if s in said else 'near'}" for k in stances[s]]
    return " ".join(words)


def masked_sentence(view: DocView, k: int, x: str, y: str) -> str:
    """Sentence ``k`` with gene ``x``'s mentions as ``GENEA``, ``y``'s as ``GENEB``, other
    genes' as ``GENEO``."""
    a, b = view.sentences[k]
    out, at = [], a
    for m in sorted((m for m in view.mentions if m.sentence == k), key=lambda m: m.start):
        if m.start < at:
            continue
        tag = "GENEA" if x in m.ids else "GENEB" if y in m.ids else "GENEO"
        out += [view.text[at:m.start], f" {tag} "]
        at = m.end
    out.append(view.text[at:b])
    return "".join(out)


def pair_text(view: DocView, x: str, y: str, evidence: list[int],
              sent_of: dict[str, list[int]], most: int = 3) -> str:
    """The text a type / novelty model reads for a pair: its best evidence sentences, or
    (no sentence holds both) the closest sentence of each gene, masked."""
    if evidence:
        chosen = sorted(evidence[:most])
    else:
        _, a, b = min((abs(a - b), a, b) for a in sent_of[x] for b in sent_of[y])
        chosen = sorted({a, b})
    return " ".join(masked_sentence(view, k, x, y) for k in chosen)


def _features(view: DocView, x: str, y: str, pair_nos: list[int],
              sent_of: dict[str, list[int]], count: dict[str, int], rank: dict[str, int],
              n_genes: int, n_sent: int, sent_cues: list[dict[str, int]],
              mention_at: dict[str, int],
              gene_level: tuple[dict[str, set[str]], dict[str, tuple[float, str]]]
              ) -> tuple[list[float], list[int]]:
    partners, best_score = gene_level
    pairs = [view.pairs[i] for i in pair_nos]
    both = sorted(set(sent_of[x]) & set(sent_of[y]))
    scores = [p.score for p in pairs]
    probs = [p.probability if p.probability is not None else p.score for p in pairs]
    dists = [min(abs(a - b) for b in sent_of[y]) for a in sent_of[x]]
    events: Counter[str] = Counter()
    event_best: dict[str, float] = defaultdict(float)
    for p in pairs:
        g = EVENT_GROUPS.get(p.type, "modification" if p.type != "Interaction" else None)
        if g:
            events[g] += 1
            event_best[g] = max(event_best[g], p.event_score or 0.0)
    cues: Counter[str] = Counter()
    for s in both:
        cues.update(sent_cues[s])
    between: Counter[str] = Counter()
    gaps = []
    listed = 0
    for p in pairs:
        ma, mb = view.mentions[mention_at[p.a]], view.mentions[mention_at[p.b]]
        lo, hi = sorted((ma, mb), key=lambda m: m.start)
        gaps.append(max(hi.start - lo.end, 0))
        gap_text = view.text[lo.end:hi.start]
        between.update(_cues(gap_text))
        listed += bool(_LISTED.fullmatch(gap_text))
    adjacent = sorted({s + d for s in both for d in (-1, 1)} - set(both))
    adjacent = [s for s in adjacent if 0 <= s < len(view.sentences)]
    adj_cues: Counter[str] = Counter()
    for s in adjacent:
        adj_cues.update(sent_cues[s])
    n_both = len(both)
    noisy_or = 1.0 - math.prod(1.0 - min(max(q, 0.0), 1.0) for q in probs) if probs else 0.0
    top2 = sorted(scores, reverse=True)[:2]
    row = [
        min(count[x], count[y]), max(count[x], count[y]), math.log(count[x] * count[y]),
        min(rank[x], rank[y]), max(rank[x], rank[y]), float(min(rank[x], rank[y]) == 0),
        n_genes, n_sent,
        len(pairs), n_both, n_both / n_sent,
        max(scores, default=0.0), sum(scores) / len(scores) if scores else 0.0,
        sum(top2) / len(top2) if top2 else 0.0,
        max(probs, default=0.0), noisy_or, sum(q > 0.5 for q in probs),
        sum(p.same_gene for p in pairs),
        sum(p.negated for p in pairs) / len(pairs) if pairs else 0.0,
        sum(p.speculated for p in pairs) / len(pairs) if pairs else 0.0,
        min(dists), sum(d == 1 for d in dists), sum(dists) / len(dists),
        float(0 in sent_of[x]), float(0 in sent_of[y]),
        float(0 in sent_of[x] and 0 in sent_of[y]),
        min(sent_of[x][0], sent_of[y][0]) / n_sent, max(sent_of[x][0], sent_of[y][0]) / n_sent,
        (sum(both) / n_both / n_sent) if n_both else -1.0,
        float(any(s >= n_sent - 2 for s in both)),
        math.log1p(min(gaps)) if gaps else -1.0,
        *(events[g] for g in EVENT_GROUP_NAMES),
        *(event_best[g] for g in EVENT_GROUP_NAMES),
        *(cues[k] for k in CUES),
        *(between[k] for k in ("bind", "up", "down", "assoc")),
        adj_cues["novel"], adj_cues["known"],
        min(len(partners[x]), len(partners[y])), max(len(partners[x]), len(partners[y])),
        float(best_score.get(x, (0, ""))[1] == y), float(best_score.get(y, (0, ""))[1] == x),
        listed / len(pairs) if pairs else 0.0,
    ]
    best = {}
    for p in pairs:
        best[p.sentence] = max(best.get(p.sentence, -1e9), p.score)
    ev = sorted(both, key=lambda s: (-best.get(s, -1e9), s))
    return row, ev
