"""Score a spaCy tagger + parser on a gold CoNLL-U / CoNLL-X treebank with gold tokenisation.

    relx parser evaluate --spacy-model runs/parser/model/model-best \\
        --conllu runs/parser/corpus/genia-dev.craft.conllu
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from relx.errors import ConfigError
from relx.parse.treebanks import SD_ONLY, Sentence, read_conll, stanford_to_craft

# sentence splitters would overrule the gold boundaries; NER and abbreviations are not scored
NOT_SCORED = frozenset({"pysbd_sentencizer", "senter", "sentencizer", "ner",
                        "abbreviation_detector"})


def _gold_sentences(path: str | Path, scheme: str) -> list[Sentence]:
    sents = [s for _, s in read_conll(path)]
    if scheme == "auto":
        scheme = "stanford" if any(t.dep in SD_ONLY for s in sents for t in s) else "craft"
    if scheme == "stanford":
        sents = [stanford_to_craft(s) for s in sents]
    elif scheme != "craft":
        raise ConfigError(f"unknown scheme {scheme!r} (auto, craft or stanford)")
    return sents


def _docs(nlp, sents: Iterable[Sentence]):
    from spacy.tokens import Doc

    for sent in sents:
        spaces = [t.space for t in sent]
        spaces[-1] = False
        doc = Doc(nlp.vocab, words=[t.form for t in sent], spaces=spaces)
        for i, tok in enumerate(doc):  # gold sentence: one tree per doc
            tok.is_sent_start = i == 0
        yield doc


def evaluate_conllu(nlp, path: str | Path, *, scheme: str = "auto",
                    batch_size: int = 64) -> dict:
    """Tag and parse every gold sentence of ``path`` and score the result.

    Each sentence becomes a ``Doc`` built from the gold words (gold tokenisation and gold
    sentence boundaries; the parser is not allowed to split a sentence) and goes through all
    components of ``nlp``. Scores:

    - ``uas``: fraction of words with the gold head (a root must be predicted as root),
      punctuation (gold label ``punct``) excluded as in spaCy's and scispacy's scores;
    - ``las``: head and dependency label both correct (``ROOT``/``root`` compared
      case-insensitively, other labels exactly), punctuation excluded;
    - ``uas_all``, ``las_all``: the same over all tokens, punctuation included;
    - ``pos_acc``: accuracy of ``token.tag_`` (the fine-grained PTB tag the tagger predicts)
      against the gold XPOS column (column 5; CoNLL-X files carry the PTB tag there too),
      over all tokens.

    ``scheme``: ``"stanford"`` converts gold basic Stanford dependencies to the CRAFT scheme
    with :func:`relx.parse.treebanks.stanford_to_craft`; ``"craft"`` uses the labels as they
    are; ``"auto"`` picks ``stanford`` when SD-only labels (``nn``, ``cop``...) occur.
    Returns ``{"uas", "las", "pos_acc", "uas_all", "las_all", "sentences", "tokens",
    "words"}``.
    """
    gold = _gold_sentences(path, scheme)
    n = heads = labels = tags = 0
    nw = wheads = wlabels = 0  # words: punctuation excluded
    off = [p for p in nlp.pipe_names if p in NOT_SCORED]
    for sent, doc in zip(gold, nlp.pipe(_docs(nlp, gold), batch_size=batch_size, disable=off),
                         strict=True):
        for g, tok in zip(sent, doc, strict=True):
            n += 1
            head = tok.head.i if tok.head.i != tok.i else -1
            gdep, pdep = g.dep, tok.dep_
            if g.head < 0:
                gdep, pdep = gdep.lower(), pdep.lower()
            hit, lhit = head == g.head, head == g.head and gdep == pdep
            heads += hit
            labels += lhit
            tags += tok.tag_ == g.tag
            if g.dep != "punct":
                nw += 1
                wheads += hit
                wlabels += lhit
    total, words = max(n, 1), max(nw, 1)
    return {"uas": wheads / words, "las": wlabels / words, "pos_acc": tags / total,
            "uas_all": heads / total, "las_all": labels / total,
            "sentences": len(gold), "tokens": n, "words": nw}
