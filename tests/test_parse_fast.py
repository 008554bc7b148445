"""relx.parse.fast: the speed-ups must not change a single annotation."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from conftest import SHARED

from relx.model_store import models_dir
from relx.parse.pipeline import load_nlp

pytest.importorskip("spacy")
if not (models_dir() / "relx_bio_sm" / "meta.json").exists():
    pytest.skip("shipped pipeline models/relx_bio_sm missing", allow_module_level=True)

TEXTS = [
    "Interleukin-2 (IL-2) binds to the IL-2 receptor alpha chain. STAT5 is phosphorylated "
    "by JAK1 and JAK3 (Fig. 2A), i.e. in activated T cells; cf. Smith et al. 1999.",
    "\n\nTitle line without a period\n\nThe p65 subunit of NF-kappa B (NF-kB) enters the "
    "nucleus. Dr. Lee showed it at 37 degrees C. vs. controls!  Two spaces here. E. coli.",
]


def _ge_texts(limit: int) -> list[str]:
    files = sorted((SHARED / "corpora" / "bionlp-st-ge" / "2011" / "devel").glob("PMID-*.txt"))
    return [f.read_text(encoding="utf-8") for f in files[:limit]]


def _annotations(docs) -> list[list[tuple]]:
    return [[(t.text, t.is_sent_start, t.tag_, t.pos_, t.dep_, t.head.i, t.lemma_, t.ent_iob_)
             for t in d] for d in docs]


@pytest.mark.parametrize("pieces", [2, 3, 4])
def test_maxout_matches_thinc(pieces: int) -> None:
    from thinc.api import NumpyOps

    from relx.parse.fast import FastNumpyOps

    x = np.random.default_rng(pieces).standard_normal((40, 7, pieces)).astype("float32")
    x[3, 2, :] = 1.5  # ties: the first piece wins in both
    x[5, 1, 1:] = x[5, 1, 0] + 1
    for y in (x, x[::2]):  # contiguous and strided
        best, which = FastNumpyOps().maxout(y)
        ref_best, ref_which = NumpyOps().maxout(np.ascontiguousarray(y))
        np.testing.assert_array_equal(best, ref_best)
        np.testing.assert_array_equal(which, ref_which)
        assert which.dtype == ref_which.dtype and best.dtype == ref_best.dtype


@pytest.mark.slow
def test_fast_pipeline_annotates_exactly_like_the_stock_one() -> None:
    """FastNumpyOps + relx_sentencizer + relx_pos_lemma vs blis + scispacy's
    pysbd_sentencizer + attribute_ruler + lemmatizer, on the
    fixture texts and real GE abstracts (when ../shared is present), but for the texts where
    relx_sentencizer splits a full stop from a name's last letter on purpose (below): those
    differ by splits only."""
    import spacy
    from thinc.api import NumpyOps, get_current_ops, set_current_ops

    from relx.parse.fast import FastNumpyOps

    fast = load_nlp()
    assert fast.get_pipe_meta("pysbd_sentencizer").factory == "relx_sentencizer"
    assert fast.get_pipe_meta("attribute_ruler").factory == "relx_pos_lemma"
    assert "lemmatizer" not in fast.pipe_names
    assert isinstance(fast.get_pipe("tok2vec").model.ops, FastNumpyOps)
    assert type(get_current_ops()) is NumpyOps  # the global backend is left as it was
    previous = get_current_ops()
    set_current_ops(NumpyOps(use_blis=True))
    try:
        stock = spacy.load(models_dir() / "relx_bio_sm")
    finally:
        set_current_ops(previous)
    assert stock.get_pipe_meta("pysbd_sentencizer").factory == "pysbd_sentencizer"
    texts = TEXTS + _ge_texts(25)
    a, b = _annotations(fast.pipe(texts)), _annotations(stock.pipe(texts))
    same = [k for k, (x, y) in enumerate(zip(a, b, strict=True))
            if [t[0] for t in x] == [t[0] for t in y]]
    # the texts where relx splits a stop from a name's last letter (below) differ on purpose
    assert len(same) >= len(texts) - 8 and sum(len(a[k]) for k in same) > 100
    assert [a[k] for k in same] == [b[k] for k in same]
    for k in set(range(len(texts))) - set(same):
        assert "".join(t[0] for t in a[k]) == "".join(t[0] for t in b[k])
        assert len(a[k]) > len(b[k])                  # only splits
    assert sum(t[1] for d in a for t in d) >= len(texts) * 2  # sentences were found
    assert {"NOUN", "VERB", "PUNCT"} <= {t[3] for d in a for t in d}
    assert ("phosphorylated", "phosphorylate") in {(t[0], t[6]) for d in a for t in d}


@pytest.mark.parametrize("text", [
    "IL-2 binds. IL-2 binds. IL-2 binds.",
    "A b.\u00a0\u2003A b. Cells. A b.\n\n  Cells.",
    "Cells. cells. Cells.Cells. x",
    "Short. Short is a prefix here. Short.",
])
def test_sentence_char_spans_match_pysbd(text: str) -> None:
    """relx's str.find version of pysbd's per-sentence regex span search gives the same
    spans, including repeated sentences and Unicode whitespace after a sentence."""
    import pysbd

    from relx.parse.fast import sentence_char_spans

    stock = pysbd.Segmenter(language="en", clean=False, char_span=True)
    stock.original_text = text
    sentences = stock.processor(text).process()
    sentences += ["", sentences[0]]  # an empty one and a repeat past every occurrence
    want = [(s.sent, s.start, s.end) for s in stock.sentences_with_char_spans(sentences)]
    assert sentence_char_spans(sentences, text) == want
    assert len(want) >= 2


@pytest.mark.slow
def test_segmenter_matches_stock_pysbd() -> None:
    """relx's pysbd segmenter (abbreviation pre-check, span search) gives the stock spans,
    on texts with abbreviations at line starts, mid-word look-alikes, the non-ASCII
    letters that IGNORECASE folds to ASCII, and real GE abstracts."""
    import pysbd

    from relx.parse.fast import _segmenter

    texts = TEXTS + _ge_texts(200) + [
        "Fig. 1 shows it. fig. 2 too. Al. et al. showed. Prof. X. vs. Y. Cf. Z. No. 5 is.",
        "ca. 5 mg. Approx. ten. inc. Ltd. Co. Jr. Sr. St. Mt. e.g. this. i.e. that.",
        "The \u212aelvin fig. and \u0130nc. and \u017ft. ext. and pp. 4. Dept. of X.",
        "viz. A\nfig. B\r\nno. 3\tetc. End.",
        # one abbreviation in several cases and contexts (memoised substitutions)
        "No. 5 vs. no. 6 and NO. 7. A. b. a. B. c. C. Ca. ca. 5 CA. x. Dr. Smith met dr. jones.",
        "Mr. A. vs B. vs. C. pp. 3-4. PP. 5. Fig. 2a. fig. 2B. FIG. 3 shows. al. et al. Al.",
    ]
    stock = pysbd.Segmenter(language="en", clean=False, char_span=True)
    fast = _segmenter()
    for text in texts:
        assert [(s.sent, s.start, s.end) for s in fast.segment(text)] == \
            [(s.sent, s.start, s.end) for s in stock.segment(text)], text[:80]


@functools.lru_cache(maxsize=1)
def _tokenizer():
    """The shipped pipeline's tokenizer (scispacy's rules: ``NF-kappaB.`` one token)."""
    return load_nlp().tokenizer


@pytest.mark.parametrize(("text", "sentences", "tokens"), [
    ("Bax and Bak release cytochrome c. Bcl-2 binds Bax.",
     ["Bax and Bak release cytochrome c.", "Bcl-2 binds Bax."], ["cytochrome", "c", "."]),
    ("It was blocked by protein kinase C. We next studied p53.",
     ["It was blocked by protein kinase C.", "We next studied p53."], ["kinase", "C", "."]),
    ("Cells lacking cyclin E.", ["Cells lacking cyclin E."], ["cyclin", "E", "."]),
    ("It needs cytochrome c.\nNext.", ["It needs cytochrome c.\n", "Next."],
     ["cytochrome", "c", "."]),
    ("Cells infected with S. Typhimurium and E. coli were lysed by J. Smith. The end.",
     ["Cells infected with S. Typhimurium and E. coli were lysed by J. Smith.", "The end."],
     ["S.", "E.", "J."]),
])
def test_a_name_ending_in_a_letter_ends_its_sentence(text: str, sentences: list[str],
                                                     tokens: list[str]) -> None:
    """``protein kinase C.`` ends its sentence with the letter as a token of its own (stock
    pysbd and spaCy keep ``C. We`` inside one sentence, ``C.`` one token); a line break stays
    with the sentence before it; initials and genus abbreviations stay as they were."""
    from relx.parse.fast import relx_sentencizer

    doc = relx_sentencizer(_tokenizer()(text))
    assert [s.text for s in doc.sents] == sentences
    words = [t.text for t in doc]
    assert all(w in words for w in tokens)
    assert "".join(t.text_with_ws for t in doc) == text
    if tokens[-1] == ".":
        i = words.index(tokens[-2])
        assert words[i + 2 - len(tokens):i + 2] == tokens


def test_greek_letters_read_as_their_spelled_out_names() -> None:
    """A word with Greek letters or Unicode hyphens has the NORM of its spelled-out form
    with ASCII hyphens, so the tagger finds ``TNF‐α`` as it finds ``TNF-alpha``; other words
    keep their norms."""
    from spacy.attrs import NORM

    from relx.parse.norms import spell_greek_features

    nlp = load_nlp()
    doc = nlp.tokenizer("TNF-α and IκBα bind NF-κB, not TNF-alpha.")
    norms = {t.text: t.norm_ for t in doc}
    assert norms["TNF-α"] == norms["TNF-alpha"] == "tnf-alpha"
    assert norms["IκBα"] == "ikappabalpha" and norms["and"] == "and"
    hyphens = {t.text: t.norm_ for t in nlp.tokenizer("IL\u20106 and NF\u2010\u03baB")}
    assert hyphens["IL\u20106"] == "il-6" and hyphens["NF\u2010\u03baB"] == "nf-kappab"
    found = [e.text for e in nlp("In HeLa cells, TNF-α activates NF-κB and IκBα is degraded.").ents]
    assert "TNF-α" in found and "IκBα" in found
    getter = nlp.vocab.lex_attr_getters[NORM]
    spell_greek_features(nlp)                               # idempotent
    assert nlp.vocab.lex_attr_getters[NORM] is getter


def test_greek_letters_read_as_spelled_out_in_every_feature() -> None:
    """Round 38: the tagger finds genes written with Greek letters as it finds them spelled
    out (NORM, PREFIX, SUFFIX and SHAPE of the spelled-out form)."""
    from relx.parse.pipeline import Parser

    nlp = Parser().nlp
    text = ("In patients, TRβ and TRα, ERα and ERβ, PKCδ, RXRα, PPARγ and LXRα were "
            "measured.")
    found = [e.text for e in nlp(text).ents]
    assert found == ["TRβ", "TRα", "ERα", "ERβ", "PKCδ", "RXRα", "PPARγ", "LXRα"]
    tok = nlp("TRα")[0]
    assert (tok.norm_, tok.prefix_, tok.suffix_, tok.shape_) == (
        "tralpha", "T", "pha", "XXxxxx")
