"""Dependency treebanks (CoNLL-U / CoNLL-X) -> spaCy ``DocBin`` corpora for relx's own parser.

Training data: all of CRAFT (ClearNLP labels, the scheme of spaCy's English parsers) plus the
GENIA ``future_use`` split in basic Stanford dependencies, converted to the CRAFT scheme by
:func:`stanford_to_craft`. Development data: GENIA ``dev`` (converted the same way), never
trained on. CRAFT splits hyphenated words (``IL - 2``) where GENIA and scispacy's tokenizer do
not (``IL-2``); :func:`merge_hyphens` re-joins them in most CRAFT sentences.

    python -m lab.parser corpus --shared ../shared --out runs/parser/corpus   (make parser-corpus)
"""

from __future__ import annotations

import gzip
import html
import json
import random
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from relx.errors import ConfigError

UPOS = frozenset(
    "ADJ ADP ADV AUX CCONJ DET INTJ NOUN NUM PART PRON PROPN PUNCT SCONJ SYM VERB X".split()
)
#: PTB tag -> UPOS exactly as in CRAFT (deterministic there; no AUX/SCONJ, PRP$ -> DET).
PTB_TO_UPOS: dict[str, str] = {tag: upos for upos, tags in {
    "PUNCT": "'' , -LRB- -RRB- . : `` HYPH NFP", "ADJ": "AFX JJ JJR JJS", "CCONJ": "CC",
    "NUM": "CD", "DET": "DT PDT PRP$ WDT WP$", "PRON": "EX PRP WP", "X": "FW LS ADD XX",
    "ADP": "IN RP", "VERB": "MD VB VBD VBG VBN VBP VBZ", "NOUN": "NN NNS",
    "PROPN": "NNP NNPS", "PART": "POS TO", "ADV": "RB RBR RBS WRB", "SYM": "SYM $ #",
    "INTJ": "UH"}.items() for tag in tags.split()}
PUNCT_TAGS = frozenset({"''", ",", "-LRB-", "-RRB-", ".", ":", "``", "HYPH", "NFP"})
_PTB_ESCAPES = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{",
                "-RCB-": "}"}
_ESCAPE_RE = re.compile("|".join(re.escape(k) for k in _PTB_ESCAPES))

#: Dependency labels of CRAFT (ClearNLP, as in spaCy's English parsers; ``ROOT`` there).
CRAFT_LABELS = frozenset(
    "acl acomp advcl advmod agent amod appos attr aux auxpass case cc ccomp compound conj "
    "csubj csubjpass dative dep det dobj expl intj mark meta neg nmod npadvmod nsubj "
    "nsubjpass nummod oprd parataxis pcomp pobj poss preconj predet prep prt punct quantmod "
    "relcl root xcomp".split()
)
#: Basic Stanford dependency labels (SD 3.x, incl. older ones) -> CRAFT/ClearNLP labels.
#: Labels shared by both schemes map to themselves; ``nn``, ``vmod``, ``number``, ``cop``,
#: ``mwe`` and ``prep`` (agent) are refined structurally in :func:`stanford_to_craft`.
SD_TO_CRAFT: dict[str, str] = {
    **{lab: lab for lab in CRAFT_LABELS},
    "ROOT": "root", "nn": "compound", "num": "nummod", "number": "compound",
    "rcmod": "relcl", "vmod": "acl", "partmod": "acl", "infmod": "acl",
    "possessive": "case", "tmod": "npadvmod", "iobj": "dative", "abbrev": "appos",
    "complm": "mark", "purpcl": "advcl", "rel": "dep", "discourse": "intj",
    "goeswith": "dep", "pred": "attr", "mwe": "advmod", "cop": "dep",
}
#: Labels that only occur in (basic) Stanford dependencies, used to detect the scheme.
SD_ONLY = frozenset(SD_TO_CRAFT) - frozenset(SD_TO_CRAFT.values()) - {"ROOT"}
#: Adverbs that CRAFT attaches to the copula rather than to its predicate (majority in CRAFT).
CLAUSAL_ADVERBS = frozenset(
    "also still therefore thus hence likely often currently generally always already indeed "
    "now simply probably however apparently again usually typically frequently mainly "
    "normally potentially sometimes yet initially previously certainly nevertheless "
    "otherwise thereby presumably possibly actually consequently furthermore moreover "
    "never rarely perhaps".split()
)
_BE = frozenset("be is are was were been being am 's 're".split())
_END_PUNCT = frozenset(".,;:!?")
_BRACKETS = {"(": ")", "[": "]", "{": "}"}
_SUBJ = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass", "expl"})


@dataclass
class Token:
    """One word of a sentence; ``head`` is a 0-based index into the sentence, -1 for root."""

    form: str
    tag: str
    pos: str
    head: int
    dep: str
    space: bool = True
    lemma: str = "_"


Sentence = list[Token]


def _open(path: Path):
    opener = gzip.open if path.suffix == ".gz" else open
    return opener(path, "rt", encoding="utf-8")


def read_conll(path: str | Path) -> Iterator[tuple[str | None, Sentence]]:
    """Yield ``(doc_id, sentence)`` from a 10-column CoNLL-U or CoNLL-X file (plain or .gz).

    Multiword-token ranges (``3-4``) and empty nodes (``5.1``) are skipped; a range's
    ``SpaceAfter=No`` goes to its last word. When column 4 is not a UPOS tag (CoNLL-X with
    PTB tags in both columns) the UPOS comes from :data:`PTB_TO_UPOS`. ``doc_id`` is the
    latest ``# newdoc id`` (``None`` if the file has none).
    """
    doc_id: str | None = None
    rows: list[list[str]] = []
    mwt_end, mwt_space = 0, True
    with _open(Path(path)) as fh:
        for line in fh:
            line = line.rstrip("\n")
            if not line.strip():
                if rows:
                    yield doc_id, _sentence(rows)
                rows, mwt_end = [], 0
                continue
            if line.startswith("#"):
                m = re.match(r"#\s*newdoc(?:\s+id)?\s*=?\s*(\S+)", line)
                if m:
                    doc_id = m.group(1)
                continue
            cols = line.split("\t")
            if len(cols) != 10:
                raise ConfigError(f"{path}: expected 10 columns: {line!r}")
            if "." in cols[0]:
                continue
            if "-" in cols[0]:
                mwt_end = int(cols[0].split("-")[1])
                mwt_space = "SpaceAfter=No" not in cols[9]
                continue
            idx = int(cols[0])
            if idx < mwt_end:
                cols[9] = "SpaceAfter=No"
            elif idx == mwt_end:
                cols[9] = "_" if mwt_space else "SpaceAfter=No"
            rows.append(cols)
    if rows:
        yield doc_id, _sentence(rows)


def _sentence(rows: list[list[str]]) -> Sentence:
    out = []
    for cols in rows:
        col4, col5 = cols[3], cols[4]
        tag = col5 if col5 != "_" else col4
        pos = col4 if col4 in UPOS else PTB_TO_UPOS.get(tag, "X")
        head = int(cols[6]) - 1 if cols[6].isdigit() else -1
        out.append(Token(cols[1], tag, pos, head, cols[7], "SpaceAfter=No" not in cols[9],
                         cols[2]))
    return out


def ptb_unescape(form: str) -> str:
    """Undo PTB/HTML escapes in a token: ``-LRB-`` -> ``(``, ````/''`` -> ``"``, ``&lt;``."""
    if form in ("``", "''"):
        return '"'
    form = _ESCAPE_RE.sub(lambda m: _PTB_ESCAPES[m.group(0)], form)
    return html.unescape(form) if "&" in form else form


def _children(sent: Sentence) -> list[list[int]]:
    kids: list[list[int]] = [[] for _ in sent]
    for i, tok in enumerate(sent):
        if tok.head >= 0:
            kids[tok.head].append(i)
    return kids


def _restructure_mwe(sent: Sentence) -> None:
    """Re-attach SD ``mwe`` expressions the CRAFT way (``as well as``, ``rather than``...)."""
    low = [t.form.lower() for t in sent]
    for i, tok in enumerate(sent):
        h = tok.head
        if tok.dep != "mwe":
            continue
        pair = (low[i], low[h])
        if pair in {("as", "well"), ("than", "rather"), ("least", "at"), ("because", "of")}:
            # the mwe dependent becomes the head: as(2) of "as well as", than, least, because
            tok.head, tok.dep = sent[h].head, sent[h].dep
            sent[h].head, sent[h].dep = i, "pcomp" if low[i] == "because" else "advmod"
            for j, other in enumerate(sent):  # "as well as": as(1) moves too
                if j != i and other.head == h and low[i] != "because":
                    other.head = i
        elif pair == ("such", "as") or (low[i] in ("more", "less") and low[h] == "than"):
            tok.dep = "amod"
            tok.head = h if low[i] == "such" else sent[h].head
        else:
            tok.dep = "advmod"
    for tok in sent:  # "due to": due = prep, to = pcomp
        if tok.form.lower() == "to" and tok.dep == "prep" and low[tok.head] == "due":
            tok.dep = "pcomp"
            if sent[tok.head].dep in ("amod", "dep"):
                sent[tok.head].dep = "prep"


def _restructure_copula(sent: Sentence) -> None:
    """SD makes the predicate head of ``be``; CRAFT makes ``be`` head, predicate attr/acomp."""
    cop_of = {}
    for i, tok in enumerate(sent):
        if tok.dep == "cop" and tok.head >= 0 and tok.head not in cop_of:
            cop_of[tok.head] = i

    def clausal(i: int, kids: list[list[int]]) -> bool:
        return (i in cop_of or sent[i].tag.startswith(("VB", "MD"))
                or any(sent[k].dep in _SUBJ for k in kids[i]))

    for p, c in sorted(cop_of.items()):
        kids = _children(sent)
        pred, cop = sent[p], sent[c]
        cop.head, cop.dep = pred.head, pred.dep
        pred.head = c
        pred.dep = "acomp" if pred.tag.startswith(("JJ", "RB", "VBN", "VBG")) else "attr"
        stay, punct = [], []
        for d in kids[p]:
            t = sent[d]
            if d == c or t.dep == "cop":
                continue
            if d < c:
                move = True
            elif d < p:
                move = t.dep in ("neg", "aux", "auxpass") or t.dep in _SUBJ or (
                    t.dep == "advmod" and t.form.lower() in CLAUSAL_ADVERBS)
            elif t.dep in ("punct", "cc"):
                punct.append(d)
                continue
            else:
                move = (t.dep in ("parataxis", "advcl", "ccomp", "mark")
                        or (t.dep == "advmod" and t.form.lower() in CLAUSAL_ADVERBS)
                        or (t.dep in ("vmod", "partmod") and sent[d - 1].form == ",")
                        or (t.dep == "conj" and clausal(d, kids)))
            if move:
                t.head = c
            else:
                stay.append(d)
        for d in punct:  # right punct/cc go to the copula unless the predicate continues
            if all(k < d for k in stay) and (sent[d].dep == "cc" or sent[d].form in _END_PUNCT):
                sent[d].head = c
        for k in kids[p]:
            if sent[k].dep == "cop" and k != c:
                sent[k].dep = "dep"


def _chain_coordination(sent: Sentence) -> None:
    """SD attaches all conjuncts to the first; CRAFT chains each to the previous one."""
    kids = _children(sent)
    for ks in kids:
        conjs = [k for k in ks if sent[k].dep == "conj"]
        for prev, nxt in zip(conjs, conjs[1:], strict=False):
            sent[nxt].head = prev
            for k in ks:
                if prev < k < nxt and sent[k].dep in ("cc", "punct"):
                    sent[k].head = prev


def _craft_conventions(sent: Sentence) -> None:
    """CRAFT habits (counted there): brackets around an appositive attach outside it, to the
    appositive's head; relative/wh-pronoun subjects and objects are ``dep``; ``no`` is ``det``.
    """
    for tok in sent:
        if tok.tag in ("WDT", "WP") and tok.dep in ("nsubj", "nsubjpass", "dobj"):
            tok.dep = "dep"
        elif tok.dep == "neg" and tok.tag == "DT":
            tok.dep = "det"
    for i, tok in enumerate(sent):
        if tok.form not in _BRACKETS:
            continue
        depth, j = 0, None
        for k in range(i, len(sent)):  # the matching closing bracket
            depth += {tok.form: 1, _BRACKETS[tok.form]: -1}.get(sent[k].form, 0)
            if depth == 0:
                j = k
                break
        if j is None or not (i < tok.head < j and i < sent[j].head < j):
            continue
        roots = [k for k in range(i + 1, j) if not i < sent[k].head < j]
        if len(roots) == 1 and sent[roots[0]].dep == "appos":
            tok.head = sent[j].head = sent[roots[0]].head


def stanford_to_craft(sent: Sentence) -> Sentence:
    """Convert a basic-Stanford-dependency sentence to the CRAFT/ClearNLP scheme (a copy).

    Besides the label map :data:`SD_TO_CRAFT`: copulas become heads (predicate ``attr`` /
    ``acomp``), conjuncts are chained, existential ``there is X`` makes X ``attr``, ``by``
    under a VBN is ``agent``, ``vmod`` is ``acl`` under nominals and ``advcl`` under verbs,
    ``nn`` is ``compound`` unless separated from its head (then ``nmod``, as in CRAFT), and
    ``mwe`` expressions are re-attached, plus :func:`_craft_conventions`. Forms are
    PTB-unescaped; a prepositional ``to`` is tagged IN (GENIA tags every ``to`` TO, CRAFT
    only the infinitive marker).
    """
    sent = [replace(t, form=ptb_unescape(t.form)) for t in sent]
    _restructure_mwe(sent)
    _restructure_copula(sent)
    kids, new = _children(sent), []
    for i, tok in enumerate(sent):
        dep, head = tok.dep, tok.head
        htag = sent[head].tag if head >= 0 else ""
        if head < 0:
            lab = "root"
        elif dep == "nn":  # CRAFT: nmod when right of / separated from its head by non-nn
            lab = "compound" if i < head and all(
                sent[b].head == head and sent[b].dep == "nn" for b in range(i + 1, head)
            ) else "nmod"
        elif dep == "number":
            lab = "compound" if htag == "CD" else "nummod"
        elif dep in ("vmod", "partmod", "infmod"):
            lab = "advcl" if htag.startswith(("VB", "MD")) else "acl"
        elif dep == "prep" and tok.form.lower() == "by" and htag == "VBN":
            lab = "agent"
        elif dep == "nsubj" and sent[head].form.lower() in _BE and i > head and any(
                sent[k].dep == "expl" for k in kids[head]):
            lab = "attr"
        else:
            lab = SD_TO_CRAFT.get(dep, "dep")
        new.append(lab)
    for tok, lab in zip(sent, new, strict=True):
        tok.dep = lab
        if tok.tag == "TO" and lab != "aux":  # CRAFT: TO only for the infinitive marker
            tok.tag, tok.pos = "IN", "ADP"
    _chain_coordination(sent)
    _craft_conventions(sent)
    return sent


def merge_hyphens(sent: Sentence) -> Sentence:
    """Join CRAFT's split hyphenated words (``IL`` ``-`` ``2`` -> ``IL-2``), GENIA style.

    A run ``w (HYPH w)+`` without spaces is merged when it forms one subtree; the new token
    takes the label, head and tag of its piece attached outside (an ``amod`` VBN/VBG becomes
    JJ, as GENIA tags ``IL-2-induced``).
    """
    n, spans, i = len(sent), [], 0
    while i < n:
        j = i
        while (sent[j].tag not in PUNCT_TAGS and j + 2 < n and not sent[j].space
               and sent[j + 1].tag == "HYPH" and not sent[j + 1].space
               and sent[j + 2].tag not in PUNCT_TAGS):
            j += 2
        if j > i:
            span = range(i, j + 1)
            outside = [k for k in span if sent[k].head not in span]
            if len({sent[k].head for k in outside}) == 1:
                spans.append((i, j, [k for k in outside if sent[k].dep != "punct"] or outside))
        i = j + 1
    if not spans:
        return sent
    new_index, out, pos = {}, [], 0
    for a, b, roots in spans:
        for k in range(pos, a):
            new_index[k] = len(out)
            out.append(replace(sent[k]))
        root = sent[roots[-1]]
        tag, upos = root.tag, root.pos
        if root.dep == "amod" and tag in ("VBN", "VBG"):
            tag, upos = "JJ", "ADJ"
        for k in range(a, b + 1):
            new_index[k] = len(out)
        out.append(Token("".join(sent[k].form for k in range(a, b + 1)), tag, upos,
                         root.head, root.dep, sent[b].space))
        pos = b + 1
    for k in range(pos, n):
        new_index[k] = len(out)
        out.append(replace(sent[k]))
    for tok in out:
        tok.head = new_index[tok.head] if tok.head >= 0 else -1
    return out


def write_conllu(sentences: Iterable[Sentence], path: str | Path) -> None:
    """Write sentences as CoNLL-U (UPOS in column 4, PTB tag in column 5)."""
    with Path(path).open("w", encoding="utf-8") as fh:
        for sent in sentences:
            for i, t in enumerate(sent, 1):
                misc = "_" if t.space else "SpaceAfter=No"
                fh.write(f"{i}\t{t.form}\t{t.lemma}\t{t.pos}\t{t.tag}\t_\t{t.head + 1}\t"
                         f"{t.dep}\t_\t{misc}\n")
            fh.write("\n")


def to_docs(sentences: Iterable[tuple[str | None, Sentence]], vocab, per_doc: int = 10):
    """Group sentences into spaCy ``Doc``s of ``per_doc`` sentences (never across documents).

    Docs are built without whitespace information (``has_unknown_spaces``), so ``spacy train``
    keeps the gold tokens instead of re-tokenising the text.
    """
    from spacy.tokens import Doc

    def build(group: list[Sentence]) -> Doc:
        words, tags, pos, heads, deps = [], [], [], [], []
        for sent in group:
            off = len(words)
            for t in sent:
                words.append(t.form)
                tags.append(t.tag)
                pos.append(t.pos if t.pos in UPOS else "X")
                heads.append(t.head + off if t.head >= 0 else len(heads))
                deps.append("ROOT" if t.head < 0 else t.dep)
        return Doc(vocab, words=words, tags=tags, pos=pos, heads=heads, deps=deps)

    group: list[Sentence] = []
    last: object = object()
    for doc_id, sent in sentences:
        if group and (len(group) >= per_doc or doc_id != last):
            yield build(group)
            group = []
        group.append(sent)
        last = doc_id
    if group:
        yield build(group)


def attribute_ruler_patterns() -> list[dict]:
    """spaCy ``attribute_ruler`` patterns setting ``pos_`` from ``tag_`` (:data:`PTB_TO_UPOS`)."""
    return [{"patterns": [[{"TAG": tag}]], "attrs": {"POS": upos}}
            for tag, upos in PTB_TO_UPOS.items()]


def _text_key(sent: Sentence) -> str:
    return "".join(ptb_unescape(t.form) for t in sent).lower()


def build_corpus(shared: str | Path, out: str | Path, *, per_doc: int = 10,
                 genia_repeat: int = 3, hyphen_merge: float = 0.8, seed: int = 0) -> dict:
    """Write ``train.spacy`` (CRAFT + GENIA future_use) and ``dev.spacy`` (GENIA dev) to ``out``.

    Also writes the converted GENIA files as CoNLL-U (``genia-dev.craft.conllu`` is the gold
    for :func:`relx.parse.evaluate_parser.evaluate_conllu`), ``stats.json`` and the tag ->
    UPOS patterns ``attribute_ruler.json`` read by ``configs/parser.cfg``. GENIA
    future_use is repeated ``genia_repeat`` times (in-domain weight); ``hyphen_merge`` is the
    fraction of CRAFT sentences whose hyphenated words are re-joined. Raises if a dev sentence
    (compared by its text without spaces) occurs in the training data.
    """
    import spacy
    from spacy.tokens import DocBin

    shared, out = Path(shared), Path(out)
    tb = shared / "treebanks"
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    craft: list[tuple[str | None, Sentence]] = []
    for path in sorted((tb / "craft" / "conllu").glob("*.conllu*")):
        for _, sent in read_conll(path):
            sent = merge_hyphens(sent) if rng.random() < hyphen_merge else sent
            craft.append((path.name.split(".")[0], sent))
    sd = tb / "genia" / "stanford_basic"
    genia_train = [stanford_to_craft(s) for _, s in read_conll(sd / "future_use.conllu.stanford")]
    genia_dev = [stanford_to_craft(s) for _, s in read_conll(sd / "dev.conllu.stanford")]
    train_keys = {_text_key(s) for s in [s for _, s in craft] + genia_train}
    leaked = {_text_key(s) for s in genia_dev} & train_keys
    if leaked:
        raise ConfigError(f"{len(leaked)} GENIA dev sentences occur in the training data")
    write_conllu(genia_dev, out / "genia-dev.craft.conllu")
    vocab = spacy.blank("en").vocab
    genia_items = [(f"genia-{r}", s) for r in range(genia_repeat) for s in genia_train]
    train = DocBin(docs=to_docs(craft + genia_items, vocab, per_doc), store_user_data=False)
    dev = DocBin(docs=to_docs(((None, s) for s in genia_dev), vocab, per_doc),
                 store_user_data=False)
    train.to_disk(out / "train.spacy")
    dev.to_disk(out / "dev.spacy")
    labels = Counter(t.dep for _, s in craft + genia_items for t in s)
    stats = {
        "craft_sentences": len(craft), "craft_tokens": sum(len(s) for _, s in craft),
        "genia_train_sentences": len(genia_train), "genia_repeat": genia_repeat,
        "genia_dev_sentences": len(genia_dev),
        "genia_dev_tokens": sum(len(s) for s in genia_dev),
        "train_docs": len(train), "dev_docs": len(dev), "hyphen_merge": hyphen_merge,
        "dev_sentences_in_train": len(leaked),
        "train_labels": dict(labels.most_common()),
    }
    (out / "stats.json").write_text(json.dumps(stats, indent=1))
    pats = ",\n".join(json.dumps(p) for p in attribute_ruler_patterns())
    (out / "attribute_ruler.json").write_text(f"[\n{pats}\n]\n")
    return stats
