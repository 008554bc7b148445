"""Treebank reading, Stanford -> CRAFT conversion, DocBin corpora and parser scoring."""

from __future__ import annotations

import gzip
import itertools
import shutil
from pathlib import Path

import pytest

from relx.parse.treebanks import (
    PTB_TO_UPOS,
    SD_ONLY,
    SD_TO_CRAFT,
    attribute_ruler_patterns,
    merge_hyphens,
    read_conll,
    stanford_to_craft,
    to_docs,
    write_conllu,
)
from tests.conftest import FIXTURES, ROOT, SHARED

spacy = pytest.importorskip("spacy")

CRAFT_FIX = FIXTURES / "tb-craft.conllu"
SD_FIX = FIXTURES / "tb-stanford.conllu"
#: Dependency labels of CRAFT (ClearNLP scheme, as in spaCy's English parsers).
CRAFT_LABELS = set(
    "acl acomp advcl advmod agent amod appos attr aux auxpass case cc ccomp compound conj "
    "csubj csubjpass dative dep det dobj expl intj mark meta neg nmod npadvmod nsubj "
    "nsubjpass nummod oprd parataxis pcomp pobj poss preconj predet prep prt punct quantmod "
    "relcl root xcomp".split()
)


def _tree(sent) -> list[tuple[str, int, str]]:
    return [(t.form, t.head, t.dep) for t in sent]


def _is_tree(sent) -> bool:
    if sum(t.head < 0 for t in sent) != 1:
        return False
    for i in range(len(sent)):
        seen, j = set(), i
        while j >= 0:
            if j in seen:
                return False
            seen.add(j)
            j = sent[j].head
    return True


def test_read_conllu_skips_multiword_and_empty_nodes(tmp_path: Path) -> None:
    sents = list(read_conll(CRAFT_FIX))
    assert [d for d, _ in sents] == ["doc1", "doc1", "doc2"]
    first = sents[0][1]
    assert [t.form for t in first] == ["IL", "-", "2", "receptors", "ca", "n't", "bind", "."]
    assert [t.space for t in first][:7] == [False, False, True, True, False, True, False]
    assert first[6].head == -1 and first[0].head == 2 and first[0].dep == "compound"
    assert (first[0].tag, first[0].pos) == ("NN", "NOUN")
    gz = tmp_path / "x.conllu.gz"
    with gzip.open(gz, "wt", encoding="utf-8") as fh:
        fh.write(CRAFT_FIX.read_text(encoding="utf-8"))
    assert [_tree(s) for _, s in read_conll(gz)] == [_tree(s) for _, s in sents]


def test_read_conllx_ptb_columns_get_upos() -> None:
    sent = next(read_conll(SD_FIX))[1]
    assert [(t.tag, t.pos) for t in sent[:4]] == [
        ("DT", "DET"), ("NN", "NOUN"), ("NN", "NOUN"), ("VBZ", "VERB")]


def test_read_rejects_wrong_column_count(tmp_path: Path) -> None:
    bad = tmp_path / "bad.conllu"
    bad.write_text("1\tx\tx\tNN\n\n")
    with pytest.raises(ValueError):
        list(read_conll(bad))


def test_copula_becomes_head() -> None:
    sent = stanford_to_craft(next(read_conll(SD_FIX))[1])
    assert _tree(sent) == [
        ("The", 2, "det"), ("IL-2", 2, "compound"), ("gene", 3, "nsubj"), ("is", -1, "root"),
        ("also", 3, "advmod"), ("essential", 3, "acomp"), ("for", 5, "prep"),
        ("T", 8, "compound"), ("cells", 6, "pobj"), (".", 3, "punct")]


def test_coordination_chain_labels_and_escapes() -> None:
    sent = stanford_to_craft(list(read_conll(SD_FIX))[1][1])
    forms = [t.form for t in sent]
    assert forms[7] == "(" and forms[9] == ")"
    got = {t.form: (forms[t.head] if t.head >= 0 else None, t.dep) for t in sent}
    assert got["p65"] == ("p50", "conj")  # first conjunct keeps the second
    assert got["RelB"] == ("p65", "conj")  # chained, not flat
    assert got["and"] == ("p65", "cc") and got[","] == ("p50", "punct")
    assert got["3"] == ("RelB", "nummod")
    assert got["induced"] == ("p50", "acl") and got["by"] == ("induced", "agent")


def test_mwe_possessive_and_to() -> None:
    sent = stanford_to_craft(list(read_conll(SD_FIX))[2][1])
    forms = [t.form for t in sent]
    rows = [(t.form, forms[t.head] if t.head >= 0 else None, t.dep, t.tag) for t in sent]
    assert rows[1][:3] == ("such", "as", "amod")
    assert rows[5] == ("to", "bind", "prep", "IN")  # prepositional "to" is IN as in CRAFT
    assert rows[7][:3] == ("as", "as", "advmod") and rows[8][:3] == ("well", "as", "advmod")
    assert sent[9].dep == "cc" and forms[sent[9].head] == "DNA"
    assert rows[12][:3] == ("'s", "cell", "case")
    assert forms[sent[14].head] == "DNA" and sent[14].dep == "conj"


def test_brackets_wh_pronouns_and_no() -> None:
    sent = stanford_to_craft(list(read_conll(SD_FIX))[3][1])
    forms = [t.form for t in sent]
    got = [(t.form, forms[t.head] if t.head >= 0 else None, t.dep) for t in sent]
    assert got[1] == ("(", "GM-CSF", "punct") and got[3] == (")", "GM-CSF", "punct")
    assert got[2] == ("CSF2", "GM-CSF", "appos")
    assert got[5] == ("which", "has", "dep") and got[6] == ("has", "GM-CSF", "relcl")
    assert got[7] == ("no", "effect", "det")


def test_converted_fixture_uses_craft_labels_only() -> None:
    for _, raw in read_conll(SD_FIX):
        sent = stanford_to_craft(raw)
        assert _is_tree(sent)
        assert {t.dep for t in sent} <= CRAFT_LABELS


def test_label_map_targets_are_craft_labels() -> None:
    assert set(SD_TO_CRAFT.values()) <= CRAFT_LABELS
    assert {"nn", "num", "cop", "rcmod", "vmod", "possessive", "mwe"} <= SD_ONLY
    assert not SD_ONLY & CRAFT_LABELS


def test_merge_hyphens_joins_subtrees_only() -> None:
    sents = [s for _, s in read_conll(CRAFT_FIX)]
    il = merge_hyphens(sents[0])
    assert [t.form for t in il][:2] == ["IL-2", "receptors"]
    assert (il[0].head, il[0].dep, il[0].tag) == (1, "compound", "NN")
    assert il[1].head == 4 and _is_tree(il)
    cre = merge_hyphens(sents[1])
    assert (cre[0].form, cre[0].tag, cre[0].pos, cre[0].dep, cre[0].head) == (
        "Cre-mediated", "JJ", "ADJ", "amod", 1)
    assert len(merge_hyphens(sents[2])) == 5  # spaced hyphen: not a word-internal one


def test_to_docs_groups_sentences(tmp_path: Path) -> None:
    nlp = spacy.blank("en")
    sents = list(read_conll(CRAFT_FIX))
    docs = list(to_docs(sents, nlp.vocab, per_doc=10))
    assert [len(list(d.sents)) for d in docs] == [2, 1]  # never across documents
    d = docs[0]
    assert d.has_unknown_spaces and d[6].dep_ == "ROOT" and d[0].head.i == 2
    assert d[8].head.i == 10 and d[8].tag_ == "NNP" and d[8].pos_ == "PROPN"
    assert len(list(to_docs([(None, s) for _, s in sents], nlp.vocab, per_doc=2))) == 2
    out = tmp_path / "x.conllu"
    write_conllu([s for _, s in sents], out)
    assert [_tree(s) for _, s in read_conll(out)] == [_tree(s) for _, s in sents]


def test_parser_config_and_tag_map() -> None:
    cfg = spacy.util.load_config(ROOT / "configs" / "parser.cfg")
    assert cfg["nlp"]["pipeline"][0] == "tok2vec" and "parser" in cfg["nlp"]["pipeline"]
    assert cfg["components"]["tok2vec"]["model"]["embed"]["include_static_vectors"] is False
    assert cfg["paths"]["vectors"] is None
    pats = attribute_ruler_patterns()
    assert {p["patterns"][0][0]["TAG"]: p["attrs"]["POS"] for p in pats} == PTB_TO_UPOS


_ORACLES = itertools.count()


def _oracle(sents, tag_of=None, head_first=False):
    """A pipeline whose one component writes the gold (or a fixed wrong) analysis."""
    from spacy.language import Language

    gold = iter(sents)
    name = f"relx_test_oracle_{next(_ORACLES)}"

    @Language.component(name)
    def oracle(doc):
        sent = next(gold)
        for tok, g in zip(doc, sent, strict=True):
            tok.tag_ = tag_of or g.tag
            if head_first:
                tok.head, tok.dep_ = doc[0], "dep" if tok.i else "ROOT"
            else:
                tok.head = doc[g.head] if g.head >= 0 else tok
                tok.dep_ = "ROOT" if g.head < 0 else g.dep
        return doc

    nlp = spacy.blank("en")
    nlp.add_pipe(name)
    return nlp


def test_evaluate_conllu_scores(tmp_path: Path) -> None:
    from relx.parse.evaluate_parser import evaluate_conllu

    gold = [stanford_to_craft(s) for _, s in read_conll(SD_FIX)]
    perfect = evaluate_conllu(_oracle(gold), SD_FIX)
    n_words = sum(t.dep != "punct" for s in gold for t in s)
    assert perfect == {"uas": 1.0, "las": 1.0, "pos_acc": 1.0, "uas_all": 1.0, "las_all": 1.0,
                       "sentences": 4, "tokens": 53, "words": n_words}
    assert n_words < 53
    wrong = evaluate_conllu(_oracle(gold, tag_of="NN", head_first=True), SD_FIX)
    first = [t.head == 0 or (t.head < 0 and s[0].head < 0) for s in gold for t in s]
    is_word = [t.dep != "punct" for s in gold for t in s]
    n_nn = sum(t.tag == "NN" for s in gold for t in s)
    assert wrong["uas_all"] == pytest.approx(sum(first) / 53) and wrong["pos_acc"] == n_nn / 53
    assert wrong["uas"] == pytest.approx(
        sum(f and w for f, w in zip(first, is_word, strict=True)) / n_words)
    # scheme="craft": the SD labels are scored as they are, so the oracle's LAS drops
    assert evaluate_conllu(_oracle(gold), SD_FIX, scheme="craft")["las"] < 1.0


# --- real data (skipped when ../shared is absent) -----------------------------------------
TB = SHARED / "treebanks"


def _need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"{path} not available (set RELX_DATA to the shared data folder)")
    return path


@pytest.mark.slow
def test_real_genia_conversion_and_no_dev_leak() -> None:
    sd = _need(TB / "genia" / "stanford_basic")
    dev = [stanford_to_craft(s) for _, s in read_conll(sd / "dev.conllu.stanford")]
    train = [stanford_to_craft(s) for _, s in read_conll(sd / "future_use.conllu.stanford")]
    assert len(dev) == 1361 and sum(map(len, dev)) == 36180
    assert all(_is_tree(s) for s in dev + train)
    assert {t.dep for s in dev + train for t in s} <= CRAFT_LABELS
    key = lambda s: "".join(t.form for t in s).lower()  # noqa: E731
    assert not {key(s) for s in dev} & {key(s) for s in train}


def test_real_craft_reads_and_merges() -> None:
    path = _need(TB / "craft" / "conllu" / "11319941.conllu.gz")
    sents = [s for _, s in read_conll(path)]
    assert sents and all(_is_tree(s) for s in sents)
    merged = [merge_hyphens(s) for s in sents]
    assert all(_is_tree(s) for s in merged)
    assert sum(map(len, merged)) < sum(map(len, sents))
    assert {t.dep for s in sents for t in s} <= CRAFT_LABELS


@pytest.mark.slow
def test_real_build_corpus(tmp_path: Path) -> None:
    from relx.parse.treebanks import build_corpus

    _need(TB / "craft")
    stats = build_corpus(SHARED, tmp_path)
    assert stats["dev_sentences_in_train"] == 0 and stats["genia_dev_sentences"] == 1361
    assert (tmp_path / "train.spacy").exists() and (tmp_path / "dev.spacy").exists()
    shutil.rmtree(tmp_path)
