"""Grounding to HGNC/FamPlex: normalisation, the lexicon builder (on tiny fixture files),
the shipped lexicon on real mentions, and abbreviation-aware ``ground_entities``."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from relx.doc import Abbreviation, Document, Entity, Sentence, Span
from relx.ground import (
    COLUMNS,
    Grounder,
    build_lexicon,
    compact_form,
    default_grounder,
    ground,
    main,
    normalize_key,
)
from tests.conftest import FIXTURES, ROOT, SHARED

LEX_SHARED = FIXTURES / "lex-shared"
SHIPPED = ROOT / "relx" / "data" / "lexicon.tsv.gz"


def ids(text: str, g: Grounder | None = None) -> list[str]:
    return [c.id for c in (g or default_grounder()).ground(text)]


# --- normalisation -----------------------------------------------------------------------


@pytest.mark.parametrize("text", ["IL-2", "IL2", "IL 2", "IL/2", "IL\u20112", "il-2"])
def test_separator_and_case_variants_share_a_key(text: str) -> None:
    assert normalize_key(text) == "il2"


def test_greek_letters_are_spelled_out() -> None:
    assert compact_form("NF-κB") == compact_form("NF-kappaB") == "NFkappaB"
    assert normalize_key("TNF-α") == normalize_key("TNF alpha") == "tnfalpha"
    assert normalize_key("IFN-Γ") == "ifngamma"
    assert normalize_key("TGF-ß1") == "tgfbeta1"  # sharp s used for beta
    assert compact_form("µ-calpain") == "mucalpain"  # micro sign via NFKC
    assert normalize_key(" - / ") == ""


# --- builder on fixture files ------------------------------------------------------------


@pytest.fixture(scope="module")
def mini(tmp_path_factory: pytest.TempPathFactory) -> tuple[Grounder, dict, Path]:
    out = tmp_path_factory.mktemp("lex") / "lexicon.tsv.gz"
    stats = build_lexicon(LEX_SHARED, out)
    return Grounder(out), stats, out


def test_build_from_fixtures(mini: tuple[Grounder, dict, Path]) -> None:
    g, stats, out = mini
    # 12 approved protein-coding genes (the withdrawn symbol and the pseudogene are left
    # out), 4 FamPlex entities, the UniProt ids map to HGNC; cAMP keeps its PubChem id.
    assert stats["hgnc_ids"] == 12
    assert stats["famplex_ids"] == 4
    assert stats["other_ids"] == 3  # PUBCHEM:6076 (cAMP), CHEBI:79091, UP:P04608 (Tat)
    assert set(stats["rows_by_source"]) == {"symbol", "alias", "previous", "name", "famplex"}
    assert stats["bytes"] == out.stat().st_size
    with gzip.open(out, "rt", encoding="utf-8") as fh:
        lines = [ln.rstrip("\n") for ln in fh if not ln.startswith("#")]
    assert tuple(lines[0].split("\t")) == COLUMNS
    rows = [ln.split("\t") for ln in lines[1:]]
    assert len(rows) == stats["rows"]
    assert all(len(r) == 5 for r in rows)
    assert ["il2", "HGNC:6001", "IL2", "symbol", "IL2"] in rows
    assert ["interleukin2", "HGNC:6001", "IL2", "name", ""] in rows
    assert not any(r[2] in ("AKTIPP1", "A1S9T") for r in rows)
    # deterministic output
    again = out.with_name("again.tsv.gz")
    build_lexicon(LEX_SHARED, again)
    assert again.read_bytes() == out.read_bytes()


def test_fixture_lexicon_grounding(mini: tuple[Grounder, dict, Path]) -> None:
    g, _, _ = mini
    assert ids("IL-2", g) == ["HGNC:6001"]
    assert g.ground("IL-2")[0].symbol == "IL2"
    assert ids("p53", g) == ids("TP53", g) == ["HGNC:11998"]
    assert ids("ERK", g) == ["FPLX:ERK", "HGNC:3393", "HGNC:6871"]  # famplex, previous, alias
    assert ids("ERK2", g) == ["HGNC:6871"]  # UniProt P28482 -> HGNC through the HGNC table
    assert ids("NF-κB", g)[0] == ids("NF-kappaB", g)[0] == "FPLX:NFkappaB"
    assert ids("NF-kappaB p65", g) == ["HGNC:9955"]  # grounding map's HGNC symbol
    assert ids("Tat", g) == ["UP:P04608"]  # non-human UniProt id kept as is
    assert set(ids("CAP", g)) == {"FPLX:CAP", "HGNC:20040", "HGNC:14565"}
    assert ids("AKTIPP1", g) == []


def test_cli_build_and_lookup(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "lex.tsv.gz"
    assert main(["build", "--shared", str(LEX_SHARED), "--out", str(out)]) == 0
    assert '"hgnc_ids": 12' in capsys.readouterr().out
    assert main(["lookup", "--lexicon", str(out), "IL-2", "nothing-here"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("IL-2\tHGNC:6001(IL2,symbol,1.0)")
    assert printed[1] == "nothing-here\t-"


def test_missing_hgnc_table(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        build_lexicon(tmp_path, tmp_path / "x.tsv.gz")


# --- the shipped lexicon -----------------------------------------------------------------


def test_shipped_lexicon_is_compact() -> None:
    assert SHIPPED.exists()
    assert SHIPPED.stat().st_size < 2_000_000
    g = default_grounder()
    assert len(g) > 50_000
    assert g.symbol("HGNC:6001") == "IL2"
    assert g.symbol("FPLX:ERK") == "ERK"


@pytest.mark.parametrize(
    ("text", "first"),
    [
        ("IL-2", "HGNC:6001"),
        ("IL 2", "HGNC:6001"),
        ("IL2", "HGNC:6001"),
        ("interleukin-2", "HGNC:6001"),
        ("p53", "HGNC:11998"),
        ("TP53", "HGNC:11998"),
        ("p53 protein", "HGNC:11998"),
        ("ERK", "FPLX:ERK"),
        ("ERKs", "FPLX:ERK"),
        ("ERK1", "HGNC:6877"),
        ("NF-kappaB", "FPLX:NFkappaB"),
        ("NF-κB", "FPLX:NFkappaB"),
        ("NF-kB", "FPLX:NFkappaB"),
        ("TNF-α", "HGNC:11892"),
        ("IL-1β", "HGNC:5992"),
        ("IFN-γ", "HGNC:5438"),
        ("β-catenin", "HGNC:2514"),
        ("Bcl-2", "HGNC:990"),
        ("c-Jun", "HGNC:6204"),
        ("caspases", "FPLX:Caspase"),
        ("MAP kinases", "FPLX:MAPK"),
        ("cyclin D1", "HGNC:1582"),
    ],
)
def test_real_mentions(text: str, first: str) -> None:
    assert ids(text)[0] == first


def test_exact_case_ranks_above_case_insensitive() -> None:
    exact, folded = ground("IL-2")[0], ground("il-2")[0]
    assert exact.id == folded.id == "HGNC:6001"
    assert exact.score > folded.score
    # cAMP is the chemical (FamPlex, exact case) before the CAMP gene (symbol, other case)
    camp = ground("cAMP")
    assert camp[0].id.startswith("PUBCHEM:")
    assert camp[1].id == "HGNC:1472" and camp[1].source == "symbol"
    assert camp[0].score > camp[1].score


def test_variants_only_when_nothing_matches_directly() -> None:
    p53 = ground("p53 protein")
    assert [c.id for c in p53] == ["HGNC:11998"]
    assert p53[0].score < ground("p53")[0].score
    assert ids("IkBa")[0] == "HGNC:7797"  # NFKBIA alias via alpha -> a is not needed here
    assert ids("IL-2Ralpha")[0] == "HGNC:6008"  # IL2RA via alpha -> a
    assert ground("XYZ-not-a-gene") == [] and ground("") == []


def test_ambiguous_alias_keeps_all_candidates_ranked() -> None:
    cands = ground("CAP")
    got = [c.id for c in cands]
    assert got[0] == "FPLX:CAP"  # the curated FamPlex grounding first
    assert {"HGNC:20040", "HGNC:14565", "HGNC:6656"} <= set(got)  # CAP1, SORBS1, LNPEP
    assert len(got) == len(set(got)) >= 5
    scores = [c.score for c in cands]
    assert scores == sorted(scores, reverse=True)
    assert {c.source for c in cands[1:]} == {"alias"}
    erk = ground("ERK")
    assert [c.id for c in erk][:3] == ["FPLX:ERK", "HGNC:3393", "HGNC:6871"]


# --- documents -----------------------------------------------------------------------------


def _doc(text: str, mentions: list[str], abbrevs: list[tuple[str, str]]) -> Document:
    ents = []
    pos = 0
    for i, m in enumerate(mentions):
        start = text.index(m, pos)
        pos = start + len(m)
        ents.append(Entity(id=f"T{i}", spans=[Span(start=start, end=pos)], text=m))
    abbreviations = []
    for short, long in abbrevs:
        ls = text.index(long)
        ss = text.index(short)
        abbreviations.append(
            Abbreviation(
                short=Span(start=ss, end=ss + len(short)),
                long=Span(start=ls, end=ls + len(long)),
                short_text=short,
                long_text=long,
            )
        )
    sent = Sentence(id="s0", start=0, end=len(text), text=text, entities=ents)
    return Document(id="d", text=text, sentences=[sent], abbreviations=abbreviations)


def test_ground_entities_fills_norm_ids() -> None:
    doc = _doc("IL-2 binds p53 and NF-κB.", ["IL-2", "p53", "NF-κB"], [])
    out = default_grounder().ground_entities(doc)
    assert [e.norm_ids[0] for e in out.sentences[0].entities] == [
        "HGNC:6001",
        "HGNC:11998",
        "FPLX:NFkappaB",
    ]
    assert doc.sentences[0].entities[0].norm_ids == []  # input left untouched


def test_abbreviation_long_form_resolves_ambiguous_and_unknown_short_forms() -> None:
    text = (
        "The progesterone receptor (PR) and cyclase-associated protein (CAP) bind "
        "interleukin-2 (XIL2); PR, CAP and XIL2 were measured, as was IL-2 (interleukin-9)."
    )
    doc = _doc(
        text,
        ["progesterone receptor", "PR", "CAP", "PR", "CAP", "XIL2", "IL-2"],
        [
            ("PR", "progesterone receptor"),
            ("CAP", "cyclase-associated protein"),
            ("XIL2", "interleukin-2"),
            ("IL-2", "interleukin-9"),
        ],
    )
    assert len(ids("PR")) > 1 and len(ids("CAP")) > 1 and ids("XIL2") == []
    ents = default_grounder().ground_entities(doc).sentences[0].entities
    got = {(e.text, tuple(e.norm_ids)) for e in ents}
    assert ("PR", ("HGNC:8910",)) in got  # PGR, from the long form
    assert ("CAP", ("FPLX:CAP",)) in got
    assert ("XIL2", ("HGNC:6001",)) in got  # the short form alone does not ground
    assert ("IL-2", ("HGNC:6001",)) in got  # unambiguous short form keeps its own grounding


def test_ground_entities_overwrite_flag_and_span_text() -> None:
    doc = _doc("p53 and IL-2", ["p53", "IL-2"], [])
    doc.sentences[0].entities[0].norm_ids = ["NCBIGene:7157"]
    doc.sentences[0].entities[1].text = ""  # text taken from the spans
    g = default_grounder()
    kept = g.ground_entities(doc, overwrite=False).sentences[0].entities
    assert kept[0].norm_ids == ["NCBIGene:7157"] and kept[1].norm_ids == ["HGNC:6001"]
    assert g.ground_entities(doc).sentences[0].entities[0].norm_ids == ["HGNC:11998"]
    merged = g.ground_entities(doc, keep_given=True).sentences[0].entities
    assert merged[0].norm_ids == ["NCBIGene:7157", "HGNC:11998"]
    assert merged[1].norm_ids == ["HGNC:6001"]
    doc.sentences[0].entities[0].norm_ids = ["HGNC:11998"]   # no repeats
    assert g.ground_entities(doc, keep_given=True).sentences[0].entities[0].norm_ids == \
        ["HGNC:11998"]


@pytest.mark.slow
def test_shipped_lexicon_matches_a_rebuild(tmp_path: Path) -> None:
    hgnc = SHARED / "lexicons" / "hgnc"
    if not hgnc.exists():
        pytest.skip(f"{hgnc} not available")
    out = tmp_path / "lexicon.tsv.gz"
    stats = build_lexicon(SHARED, out)
    assert stats["bytes"] < 2_000_000
    assert out.read_bytes() == SHIPPED.read_bytes(), "rebuild relx/data/lexicon.tsv.gz"
