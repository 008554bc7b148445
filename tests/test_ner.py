"""Protein NER: training-corpus construction (alignment, overlaps) and span scoring."""

from __future__ import annotations

import gzip
import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from relx.io.standoff import read_standoff
from relx.parse.ner import (
    LABEL,
    build_ner_corpus,
    ge_texts,
    gold_spans,
    ppi_texts,
    score_spans,
    select_spans,
)
from tests.conftest import FIXTURES, SHARED, corpus_file

spacy = pytest.importorskip("spacy")
pytest.importorskip("scispacy")

from relx.parse.ner import (  # noqa: E402
    annotate,
    blank_nlp,
    evaluate_ner,
    ner_app,
    propagate_mentions,
    register,
)

NER_TXT = FIXTURES / "ner-mini.txt"
GE = SHARED / "corpora" / "bionlp-st-ge"


@pytest.fixture(scope="module")
def nlp():
    return blank_nlp(protein_splits=False)   # scispacy's tokenizer alone


@pytest.fixture
def standoff_dir(tmp_path: Path) -> Path:
    d = tmp_path / "ge"
    d.mkdir()
    for suffix in (".txt", ".a1"):
        shutil.copy(NER_TXT.with_suffix(suffix), d / f"ner-mini{suffix}")
    return d


def _fixture_pieces() -> list[tuple[str, list[tuple[int, int]]]]:
    from relx.parse.ner import _pieces as pieces
    from relx.parse.ner import _standoff_spans

    stats: Counter = Counter()
    doc = read_standoff(NER_TXT)
    return list(pieces(doc.text, _standoff_spans(doc, stats), stats))


def _ents(doc) -> list[str]:
    return [e.text for e in doc.ents]


def test_select_spans_keeps_longest_non_overlapping():
    kept, dropped = select_spans([(0, 5), (2, 4), (4, 9), (10, 12), (10, 12), (11, 13)])
    assert kept == [(0, 5), (10, 12)]   # (0, 5) and (4, 9) tie: the earlier start wins
    assert dropped == 4
    assert select_spans([(3, 5), (0, 2)]) == ([(0, 2), (3, 5)], 0)
    assert select_spans([(0, 2), (1, 3)]) == ([(0, 2)], 1)   # tie: the earlier start


def test_pieces_cut_at_newlines_with_local_offsets():
    pieces = _fixture_pieces()
    assert len(pieces) == 2
    (t1, s1), (t2, s2) = pieces
    assert [t1[a:b] for a, b in s1] == ["p50", "p65", "IL-2"]
    # "kappa B" lies inside "NF-kappa B": the longer mention is kept
    assert [t2[a:b] for a, b in s2] == ["IL-2", "NF-kappa B", "CD4", "c-Rel", "CD3",
                                        "TNF-alpha"]


@pytest.mark.parametrize("mode", ["missing", "expand", "skip"])
def test_annotate_misaligned_modes(nlp, mode):
    (t1, s1), (t2, s2) = _fixture_pieces()
    stats: Counter = Counter()
    d1 = annotate(nlp, t1, s1, stats, mode)
    d2 = annotate(nlp, t2, s2, stats, mode)
    # scispacy keeps p50/p65, IL-2-induced and Anti-CD3 as single tokens
    assert stats["entities"] == 9 and stats["aligned"] == 5 and stats["misaligned"] == 4
    aligned = ["NF-kappa B", "CD4", "c-Rel", "TNF-alpha"]
    tok = {t.text: t for t in d2}
    if mode == "expand":
        assert stats["misaligned_collisions"] == 1           # p65 lands on p50's token
        assert _ents(d1) == ["p50/p65", "IL-2"]
        assert _ents(d2) == ["IL-2-induced", "NF-kappa B", "CD4", "c-Rel", "Anti-CD3",
                             "TNF-alpha"]
    else:
        assert _ents(d1) == ["IL-2"]
        assert _ents(d2) == aligned
        missing = "" if mode == "missing" else "O"
        assert d1[0].text == "p50/p65" and d1[0].ent_iob_ == missing
        assert tok["IL-2-induced"].ent_iob_ == missing and tok["Anti-CD3"].ent_iob_ == missing
    assert tok["requires"].ent_iob_ == "O"
    assert all(e.label_ == LABEL for e in [*d1.ents, *d2.ents])


@pytest.mark.slow
def test_protein_splits_align_the_fixture():
    (t1, s1), (t2, s2) = _fixture_pieces()
    nlp = blank_nlp()
    stats: Counter = Counter()
    d1, d2 = annotate(nlp, t1, s1, stats), annotate(nlp, t2, s2, stats)
    assert stats["aligned"] == 9 and stats["misaligned"] == 0
    assert _ents(d1) == ["p50", "p65", "IL-2"]
    assert _ents(d2)[0] == "IL-2" and "CD3" in _ents(d2)
    assert [t.text for t in nlp.make_doc("c-myc CD4(+) Runx3-/-")] == [
        "c-myc", "CD4", "(", "+", ")", "Runx3", "-", "/", "-"]


def _fake_shared(root: Path) -> Path:
    ge = root / "corpora" / "bionlp-st-ge"
    for year, split, name in [("2011", "train", "PMID-1"), ("2009", "train", "1"),
                              ("2011", "devel", "PMID-2")]:
        d = ge / year / split
        d.mkdir(parents=True)
        for suffix in (".txt", ".a1"):
            shutil.copy(NER_TXT.with_suffix(suffix), d / f"{name}{suffix}")
    ppi = root / "corpora" / "ppi"
    ppi.mkdir(parents=True)
    data = (FIXTURES / "ppi-mini.xml").read_bytes()
    for name in ("AImed", "BioInfer", "IEPA"):
        (ppi / f"{name}-learning-format.xml.gz").write_bytes(gzip.compress(data))
    return root


@pytest.mark.slow
def test_build_ner_corpus(tmp_path):
    shared = _fake_shared(tmp_path / "shared")
    stats = build_ner_corpus(shared, tmp_path / "out", protein_splits=False)
    ge = stats["ge_train"]
    assert ge["documents"] == 1 and ge["duplicate_documents"] == 1   # 2009 copy of PMID-1
    assert (ge["mentions"], ge["overlap_dropped"], ge["entities"]) == (10, 1, 9)
    assert (ge["aligned"], ge["misaligned"], ge["docs"]) == (5, 4, 2)
    assert stats["ge_dev"]["documents"] == 1
    ppi = stats["AImed"]
    assert ppi["discontinuous"] == 1 and ppi["entities"] + ppi["discontinuous"] + \
        ppi["overlap_dropped"] == ppi["mentions"]
    assert stats["train_docs"] == 2 + 3 * ppi["docs"] and stats["dev_docs"] == 2
    assert json.loads((tmp_path / "out" / "stats.json").read_text()) == stats
    from spacy.tokens import DocBin

    nlp = blank_nlp(protein_splits=False)
    docs = list(DocBin().from_disk(tmp_path / "out" / "train.spacy").get_docs(nlp.vocab))
    assert _ents(docs[0]) == ["IL-2"]
    assert [t.text for t in docs[1]] == [t.text for t in nlp.make_doc(docs[1].text)]
    split = build_ner_corpus(shared, tmp_path / "out2")   # default: protein splits
    assert split["protein_splits"] and split["ge_train"]["misaligned"] == 0


@pytest.mark.slow
def test_build_refuses_dev_documents_in_train(tmp_path):
    shared = _fake_shared(tmp_path / "shared")
    d = shared / "corpora" / "bionlp-st-ge" / "2011" / "devel"
    for suffix in (".txt", ".a1"):
        (d / f"PMID-2{suffix}").rename(d / f"PMID-1{suffix}")
    with pytest.raises(ValueError, match="development document"):
        build_ner_corpus(shared, tmp_path / "out")


def test_full_text_pieces_repeated(tmp_path):
    d = tmp_path / "train"
    d.mkdir()
    for name in ("PMC-9-00-TIAB", "PMID-1"):
        for suffix in (".txt", ".a1"):
            shutil.copy(NER_TXT.with_suffix(suffix), d / f"{name}{suffix}")
    stats: Counter = Counter()
    pieces = list(ge_texts([d], stats, full_text_repeat=3))
    assert len(pieces) == 3 * 2 + 2 and stats["full_text_documents"] == 1
    assert stats["documents"] == 2 and stats["mentions"] == 20


@pytest.mark.slow
def test_propagate_mentions():
    from spacy.tokens import Span

    register()
    nlp = blank_nlp()
    doc = nlp.make_doc("Nmi binds Vif; Vif and Nmi and NF-kappa B bind NF-kappa B")
    words = [t.text for t in doc]
    nf = words.index("NF-kappa")
    doc.set_ents([Span(doc, 0, 1, label=LABEL), Span(doc, 2, 3, label="OTHER"),
                  Span(doc, nf, nf + 2, label=LABEL)])
    ents = [(e.text, e.label_, e.start) for e in propagate_mentions(doc).ents]
    assert ents == [("Nmi", LABEL, 0), ("Vif", "OTHER", 2), ("Nmi", LABEL, 6),
                    ("NF-kappa B", LABEL, nf), ("NF-kappa B", LABEL, len(words) - 2)]
    pipe = blank_nlp()
    pipe.add_pipe("relx_protein_propagation")
    assert pipe("no mentions").ents == ()


def _fake_nlp():
    """Scispacy tokenizer + entity_ruler: deterministic PROTEIN (and one OTHER) mentions."""
    nlp = blank_nlp(protein_splits=False)
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns([{"label": LABEL, "pattern": p} for p in
                        ("IL-2", "NF-kappa B", "c-Rel", "Anti-CD3", "T cells", "p50/p65")]
                       + [{"label": "OTHER", "pattern": "TNF-alpha"}])
    return nlp


EXPECTED = {
    # predicted: IL-2 (title), NF-kappa B, c-Rel exact; Anti-CD3 and p50/p65 overlap gold;
    # T cells wrong. Gold: 10 distinct spans (kappa B included).
    "precision": 3 / 6, "recall": 3 / 10, "f1": 2 * 0.5 * 0.3 / 0.8,
    "precision_overlap": 5 / 6, "recall_overlap": 7 / 10,
    "f1_overlap": 2 * (5 / 6) * 0.7 / (5 / 6 + 0.7),
    "gold": 10, "predicted": 6, "correct": 3, "documents": 1, "gold_token_aligned": 5,
}


def test_evaluate_ner_exact_numbers(standoff_dir):
    scores = evaluate_ner(_fake_nlp(), standoff_dir)
    for key, value in EXPECTED.items():
        assert scores[key] == pytest.approx(value), key
    every = evaluate_ner(_fake_nlp(), standoff_dir, label=None)
    assert every["predicted"] == 7 and every["correct"] == 4


def test_score_spans_edge_cases():
    s = score_spans([set(), {(0, 3)}], [{(5, 6)}, set()])
    assert (s["precision"], s["recall"], s["f1"], s["f1_overlap"]) == (0.0, 0.0, 0.0, 0.0)
    s = score_spans([{(0, 3), (4, 8)}], [{(0, 8)}])   # one wide prediction covers both
    assert s["precision_overlap"] == 1.0 and s["recall_overlap"] == 1.0 and s["f1"] == 0.0
    assert gold_spans(read_standoff(NER_TXT)) >= {(0, 3), (60, 70), (63, 70)}


@pytest.mark.slow
def test_cli_evaluate_json(standoff_dir, tmp_path):
    from typer.testing import CliRunner

    model = tmp_path / "model"
    _fake_nlp().to_disk(model)
    res = CliRunner().invoke(ner_app, ["evaluate", "--standoff", str(standoff_dir),
                                       "--model", str(model), "--json"])
    assert res.exit_code == 0, res.output
    scores = json.loads(res.output)
    assert scores["f1"] == pytest.approx(EXPECTED["f1"]) and scores["gold"] == 10
    res = CliRunner().invoke(ner_app, ["evaluate", "--standoff", str(standoff_dir),
                                       "--model", str(model)])
    assert res.exit_code == 0 and "overlap" in res.output
    res = CliRunner().invoke(ner_app, ["evaluate", "--standoff", str(standoff_dir),
                                       "--model", str(model), "--json", "--propagate"])
    scores = json.loads(res.output)
    assert scores["pipeline"] == ["entity_ruler", "relx_protein_propagation"]
    assert scores["predicted"] == 6   # no tagged name recurs in the fixture


@pytest.mark.slow
def test_real_corpora_readers():
    """GE 2009 train is a subset of GE 2011 train; every IEPA mention is accounted for."""
    if not (GE / "2011" / "train").is_dir():
        pytest.skip(f"{GE} not available (set RELX_DATA to the shared data folder)")
    stats: Counter = Counter()
    pieces = list(ge_texts([GE / "2011" / "train", GE / "2009" / "train"], stats,
                           exclude=[p.stem for p in (GE / "2011" / "devel").glob("*.txt")]))
    assert stats["documents"] == 908 and stats["duplicate_documents"] == 800
    assert stats["mentions"] == sum(len(s) for _, s in pieces) + stats["overlap_dropped"] \
        + stats["discontinuous"]
    ppi: Counter = Counter()
    docs = list(ppi_texts([corpus_file("IEPA")], ppi))
    assert ppi["documents"] == len(docs) == 200
    assert ppi["mentions"] == sum(len(s) for _, s in docs) + ppi["overlap_dropped"]
    nlp = blank_nlp()
    sample: Counter = Counter()
    for text, spans in pieces[:50]:
        doc = annotate(nlp, text, spans, sample)
        assert all(e.label_ == LABEL for e in doc.ents)
    assert sample["aligned"] + sample["misaligned"] == sample["entities"] > 0
