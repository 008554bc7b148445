"""CoNLL-U output of relx parses (one block per sentence, ``# text`` / ``# sent_id``)."""

from __future__ import annotations

from typing import TextIO

from relx.doc import Document, Sentence

UPOS_OF_PTB = {"NN": "NOUN", "NNS": "NOUN", "NNP": "PROPN", "NNPS": "PROPN", "VB": "VERB",
               "VBD": "VERB", "VBG": "VERB", "VBN": "VERB", "VBP": "VERB", "VBZ": "VERB",
               "MD": "AUX", "JJ": "ADJ", "JJR": "ADJ", "JJS": "ADJ", "RB": "ADV", "RBR": "ADV",
               "RBS": "ADV", "WRB": "ADV", "IN": "ADP", "TO": "PART", "DT": "DET",
               "PDT": "DET", "WDT": "DET", "PRP": "PRON", "PRP$": "PRON", "WP": "PRON",
               "WP$": "PRON", "CC": "CCONJ", "CD": "NUM", "RP": "ADP", "EX": "PRON",
               "POS": "PART", "UH": "INTJ", "SYM": "SYM", "FW": "X", "LS": "X"}


def _clean(s: str | None) -> str:
    return (s or "_").replace("\t", " ").replace("\n", " ") or "_"


def sentence_conllu(sent: Sentence) -> str:
    """One sentence as a CoNLL-U block (1-based ids; head 0 = root; entity ids in MISC)."""
    head = {d.dependent: (d.head, d.label) for d in sent.dependencies}
    ents: dict[int, list[str]] = {}
    for e in sent.entities:
        for t in sent.tokens:
            if any(t.start < s.end and s.start < t.end for s in e.spans):
                ents.setdefault(t.index, []).append(e.id)
    lines = [f"# sent_id = {sent.id}", f"# text = {_clean(sent.text)}"]
    for i, t in enumerate(sent.tokens):
        h, lab = head.get(t.index, (-1, "root"))
        space = i + 1 < len(sent.tokens) and sent.tokens[i + 1].start > t.end
        misc = [f"start={t.start}", f"end={t.end}"]
        if not space:
            misc.append("SpaceAfter=No")
        if t.index in ents:
            misc.append("Entity=" + ",".join(ents[t.index]))
        upos = UPOS_OF_PTB.get(t.pos or "", "PUNCT" if t.pos and not t.pos[0].isalpha() else "X")
        lines.append("\t".join([str(t.index + 1), _clean(t.text), _clean(t.lemma), upos,
                                _clean(t.pos), "_", str(h + 1), lab, "_", "|".join(misc)]))
    return "\n".join(lines) + "\n\n"


def write_conllu(doc: Document, fh: TextIO) -> None:
    """Write every sentence of ``doc`` (a ``# newdoc id`` line first)."""
    fh.write(f"# newdoc id = {doc.id}\n")
    for s in doc.sentences:
        fh.write(sentence_conllu(s))
