from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from relx.doc import Equiv, Event, Modification, StandoffDocument, TextBound, id_key
from relx.io.errors import ReaderError
from relx.io.standoff import (
    format_a2,
    parse_standoff,
    read_standoff,
    read_standoff_dir,
    write_a2,
    write_standoff,
)
from tests.conftest import FIXTURES, SHARED

GE = SHARED / "corpora" / "bionlp-st-ge"
SPLITS = ["2009/train", "2009/devel", "2009/test", "2011/train", "2011/devel", "2011/test",
          "2013/train", "2013/test"]
MINI = FIXTURES / "st-mini.txt"


def test_reads_every_line_type():
    d = read_standoff(MINI)
    assert d.id == "st-mini"
    assert [p.id for p in d.proteins] == ["T1", "T2", "T3", "T4", "T5", "T6"]
    for tb in [*d.proteins, *d.triggers]:
        assert d.text[tb.start:tb.end] == tb.text
    assert [t.id for t in d.entities] == ["T10", "T12", "T15", "T16"]
    # canonical order: by id number, whatever the order in the file
    assert [e.id for e in d.events] == ["E1", "E2", "E3", "E4", "E5", "E10"]
    ev = d.event_map()
    assert ev["E3"].arguments == [("Theme", "T4"), ("Theme2", "T5"), ("Site2", "T10")]
    assert ev["E3"].refs("Theme") == ["T4", "T5"]
    assert ev["E10"].arguments == [("Theme", "E5"), ("Cause", "E4")]
    assert d.modifications == [Modification(id="M1", type="Negation", event="E2"),
                               Modification(id="M2", type="Speculation", event="E10")]
    assert d.equivs == [Equiv(ids=["T1", "T2"])]
    assert d.equiv_classes()["T2"] == {"T1", "T2"}
    assert d.relations[0].arguments == [("Subject", "T16"), ("Object", "T4")]


def test_to_document_puts_proteins_on_one_sentence():
    d = read_standoff(MINI)
    doc = d.to_document()
    assert doc.id == "st-mini" and doc.text == d.text
    (sent,) = doc.sentences
    assert (sent.start, sent.end, sent.text) == (0, len(d.text), d.text)
    assert [e.id for e in sent.entities] == [p.id for p in d.proteins]
    assert all(doc.text[e.start:e.end] == e.text for e in sent.entities)
    assert StandoffDocument(id="x", text="no proteins").to_document().sentences == []


def test_format_a2_is_canonical_and_round_trips(tmp_path):
    d = read_standoff(MINI)
    kinds = [line.split("\t")[0][0] for line in format_a2(d).splitlines()]
    assert kinds == sorted(kinds, key="TEM*R".index)
    write_a2(d, tmp_path / "out.a2")
    assert read_standoff(MINI, a2_path=tmp_path / "out.a2") == d
    txt = write_standoff(d, tmp_path / "dir")
    assert read_standoff(txt) == d
    assert read_standoff_dir(tmp_path / "dir") == [d]


def test_model_order_does_not_matter():
    tb = [TextBound(id=f"T{i}", type="Gene_expression", spans=[{"start": i, "end": i + 1}])
          for i in (10, 2, 1)]
    d = StandoffDocument(id="x", text="x" * 20, triggers=tb,
                         events=[Event(id="E10", type="Gene_expression", trigger="T10"),
                                 Event(id="E9", type="Gene_expression", trigger="T2")])
    assert [t.id for t in d.triggers] == ["T1", "T2", "T10"]
    assert [e.id for e in d.events] == ["E9", "E10"]
    assert id_key("T2") < id_key("T10") < id_key("TX")


def test_discontinuous_spans_and_whitespace_normalised_text():
    text = "IL-2\nreceptor  alpha and the IL-2 gene"
    a1 = "T1\tProtein 0 4;5 13\tIL-2 receptor\nT2\tProtein 5 20\treceptor alpha\n"
    d = parse_standoff("d", text, a1, None)
    assert [(s.start, s.end) for s in d.proteins[0].spans] == [(0, 4), (5, 13)]
    assert d.proteins[0].start == 0 and d.proteins[0].end == 13
    assert "T1\tProtein 0 4;5 13\tIL-2 receptor" in format_a2(
        d.model_copy(update={"triggers": d.proteins}))


def test_missing_a2_gives_no_events(tmp_path):
    for ext in ("txt", "a1"):
        shutil.copy(MINI.with_suffix(f".{ext}"), tmp_path / f"doc.{ext}")
    d = read_standoff(tmp_path / "doc.txt")
    assert len(d.proteins) == 6 and d.triggers == [] and d.events == []
    with pytest.raises(ReaderError, match="not found"):
        read_standoff(tmp_path / "doc.txt", a2_path=tmp_path / "nope.a2")
    with pytest.raises(ReaderError, match="not found"):
        read_standoff(tmp_path / "absent.txt")


BAD_A2 = [
    ("T7\tGene_expression 0 10\tExpressions", "line 2: T7 text 'Expressions' does not match"),
    ("T7\tGene_expression 0 999\tExpression", "line 2: offsets 0-999 outside the text"),
    ("T7\tGene_expression 0 x\tExpression", "line 2: bad offsets"),
    ("T7\tGene_expression 0 10", "line 2: T line needs 3 tab-separated fields"),
    ("T7\tGene_expression 10 0\tExpression", "line 2: offsets 10-0 outside"),
    ("E5\tGene_expression:T7 Theme:T99", "line 2: argument refers to unknown id 'T99'"),
    ("E5\tGene_expression:T7 Theme=T2", "line 2: bad argument 'Theme=T2'"),
    ("E5\tGene_expression T7", "line 2: bad event head"),
    ("E5\tGene_expression:T2 Theme:T2", "line 2: event trigger 'T2' is not an .a2 T line"),
    ("E5\tTranscription:T7 Theme:T2", "differs from its trigger T7 type Gene_expression"),
    ("M1\tNegation E7", "line 2: modification of unknown event 'E7'"),
    ("M1\tNegation", "line 2: modification needs 'Type EventId'"),
    ("*\tEquiv T1 T77", "line 2: Equiv names unknown text-bound 'T77'"),
    ("*\tEquiv T1", "line 2: bad equivalence line"),
    ("E1\tGene_expression:T7 Theme:T3", "line 3: duplicate id 'E1' (first at st-mini.a2 line 2)"),
    ("T3\tEntity 11 13\tof", "duplicate id 'T3' (first at st-mini.a1 line 3)"),
    ("N1\tReference T1 UniProt:P60568", "unsupported annotation line 'N1'"),
    ("\tfoo", "line starts with a tab"),
]


@pytest.mark.parametrize("line,message", BAD_A2)
def test_errors_name_file_and_line(tmp_path, line, message):
    for ext in ("txt", "a1"):
        shutil.copy(MINI.with_suffix(f".{ext}"), tmp_path / f"st-mini.{ext}")
    a2 = "T7\tGene_expression 0 10\tExpression\nE1\tGene_expression:T7 Theme:T2\n"
    lines = a2.splitlines(keepends=True)
    lines.insert(1, line + "\n")
    (tmp_path / "st-mini.a2").write_text("".join(lines))
    with pytest.raises(ReaderError, match="st-mini") as err:
        read_standoff(tmp_path / "st-mini.txt")
    assert message in str(err.value)


def test_a1_holds_only_text_bounds(tmp_path):
    shutil.copy(MINI, tmp_path / "d.txt")
    (tmp_path / "d.a1").write_text("T1\tProtein 14 27\tinterleukin-2\nE1\tBinding:T1\n")
    with pytest.raises(ReaderError, match=r"d\.a1: line 2: an \.a1 file holds T lines only"):
        read_standoff(tmp_path / "d.txt")


def test_whitespace_only_differences_are_accepted():
    text = "the IL-2\ngene"
    d = parse_standoff("d", text, "T1\tProtein 4 13\tIL-2 gene\n", None)
    assert d.proteins[0].text == "IL-2 gene"
    with pytest.raises(ReaderError, match="<a1>: line 1"):
        parse_standoff("d", text, "T1\tProtein 4 13\tIL-2 gane\n", None)


# ---------------------------------------------------------------- the real corpora

def _split_dir(split: str) -> Path:
    path = GE / split
    if not path.is_dir():
        pytest.skip(f"{path} not available (set RELX_DATA to the shared data folder)")
    return path


@pytest.mark.slow
@pytest.mark.parametrize("split", SPLITS)
def test_corpus_round_trip(split, tmp_path):
    """Every document: read, write .a2, re-read -> identical (first few through real files)."""
    docs = read_standoff_dir(_split_dir(split))
    assert docs
    for k, d in enumerate(docs):
        if k < 5:
            out = write_a2(d, tmp_path / f"{d.id}.a2")
            again = read_standoff(_split_dir(split) / f"{d.id}.txt", a2_path=out)
        else:
            again = parse_standoff(d.id, d.text, (GE / split / f"{d.id}.a1").read_text(),
                                   format_a2(d), source=d.source)
        assert again == d, d.id


def test_corpus_counts():
    docs = read_standoff_dir(_split_dir("2011/devel"))
    assert len(docs) == 259
    assert sum(len(d.proteins) for d in docs) == 4690
    assert sum(len(d.events) for d in docs) == 3250
    mods = Counter(m.type for d in docs for m in d.modifications)
    assert mods == {"Speculation": 242, "Negation": 217}
    coref = [r for d in read_standoff_dir(_split_dir("2013/train")) for r in d.relations]
    assert len(coref) == 178 and {r.type for r in coref} == {"Coreference"}
    assert all(d.events == [] for d in read_standoff_dir(_split_dir("2011/test")))
