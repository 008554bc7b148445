"""Gene NER training data from the JSONL gene corpora (relx.parse.ner_corpora, docs/genes.md)."""

from __future__ import annotations

import gzip
import json
from collections import Counter
from pathlib import Path

import pytest

from relx.errors import ConfigError
from relx.parse.ner_corpora import (
    TRAIN_CORPORA,
    CorpusSpec,
    biored_docs,
    biored_part,
    biored_pieces,
    doc_spans,
    excluded_pmids,
    famplex_missing,
    famplex_pattern,
    gene_training_pieces,
    norm_pmid,
    parse_weights,
    pieces,
    read_pubtator,
    weighted,
)
from tests.conftest import SHARED

GENES = SHARED / "corpora" / "genes"


def _write_famplex(d: Path) -> Path:
    d.mkdir(parents=True, exist_ok=True)
    (d / "grounding_map.csv").write_text(
        'NF-kappaB,FPLX,NFkappaB,,,,\nAP-1,FPLX,AP1,,,,\n"PI3K, class I",FPLX,PI3K_I,,,,\n'
        "IkappaBalpha,UP,P25963,,,,\n", encoding="utf-8")
    (d / "entities.csv").write_text("MAPK\nNFkappaB\n", encoding="utf-8")
    return d


def _jsonl(path: Path, docs: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")


def _m(text: str, word: str, typ: str, nth: int = 0) -> dict:
    start = -1
    for _ in range(nth + 1):
        start = text.index(word, start + 1)
    return {"start": start, "end": start + len(word), "text": word, "type": typ}


def test_parse_weights():
    assert parse_weights("bc2gm=0.5, craft=0") == {"bc2gm": 0.5, "craft": 0.0}
    assert parse_weights(None) == {} == parse_weights("")
    for bad in ("bc2gm", "bc2gm=x"):
        with pytest.raises(ConfigError):
            parse_weights(bad)


def test_norm_pmid():
    assert norm_pmid("PMID-00123") == "123" == norm_pmid("0123")
    assert norm_pmid("PMC-2791889-04-Results") is None and norm_pmid(None) is None


def test_famplex_pattern_variants(tmp_path):
    pat = famplex_pattern(_write_famplex(tmp_path / "famplex"))
    text = ("NF-kappa B, NFkappaB-dependent, NF kappaB, AP-1, AP1, MAPKs, MAPK, p38 MAPK, "
            "PI3K, class I, IkappaBalpha")
    found = [m.group() for m in pat.finditer(text)]
    # FPLX groundings and entity names; spaces/hyphens optional; not inside a word (MAPKs);
    # UniProt groundings (IkappaBalpha) are genes, not families
    assert found == ["NF-kappa B", "NFkappaB", "NF kappaB", "AP-1", "AP1", "MAPK", "MAPK",
                     "PI3K, class I"]
    assert famplex_missing(text, [(0, 10)], pat)[0] == (12, 20)   # gold NF-kappa B kept
    assert famplex_missing(text, [], None) == []


def test_doc_spans_jnlpba_mapping():
    spec = TRAIN_CORPORA["jnlpba"]
    text = "IL-2 gene and transcription factors bind NF-kappa B in Jurkat cells."
    doc = {"id": "1", "text": text, "mentions": [
        _m(text, "IL-2 gene", "DNA"), _m(text, "transcription factors", "protein"),
        _m(text, "NF-kappa B", "protein"), _m(text, "kappa B", "protein"),
        _m(text, "Jurkat cells", "cell_line")]}
    stats: Counter = Counter()
    genes, missing = doc_spans(doc, spec, stats)
    assert [text[s:e] for s, e in genes] == ["NF-kappa B"]        # nested kappa B dropped
    assert sorted(text[s:e] for s, e in missing) == ["IL-2 gene", "transcription factors"]
    assert stats["overlap_dropped"] == 1 and stats["generic_missing"] == 1
    assert stats["missing_DNA"] == 1 and stats["mentions"] == 3   # cell line: outside


def test_pieces_clip_missing_and_drop_crossing():
    text = "Title p53.\nAbstract MDM2 binds\np53 here."
    spans = [(6, 9), (20, 24), (25, 34)]            # p53, MDM2, "binds\np53" crosses
    stats: Counter = Counter()
    out = list(pieces(text, spans, [(15, 30)], stats))
    assert [p[0] for p in out] == ["Title p53.", "Abstract MDM2 binds", "p53 here."]
    assert [p[1:] for p in out] == [([(6, 9)], []), ([(9, 13)], [(4, 19)]), ([], [])]
    assert stats["crossing_newline"] == 1


def test_weighted_whole_and_fraction():
    items = [(f"d{i}", (f"t{i}", [], [])) for i in range(200)]
    stats: Counter = Counter()
    twice = list(weighted(items, 2, stats))
    assert len(twice) == 400 and stats["pieces_read"] == 200
    half = list(weighted(items, 0.5, Counter()))
    assert 70 < len(half) < 130 and half == list(weighted(items, 0.5, Counter()))
    assert list(weighted(items, 0, Counter())) == []
    with pytest.raises(ConfigError):
        list(weighted(items, -1, Counter()))


def _fake_genes(root: Path) -> Path:
    t1 = "MDM2 binds p53.\nNF-kappaB and IL-2 gene."
    t2 = "BRCA1 in MCF-7 cells."
    _jsonl(root / "bc2gm" / "train.jsonl", [
        {"id": "S1", "text": t2, "pmid": "11", "mentions": [_m(t2, "BRCA1", "GENE")]},
        {"id": "S2", "text": t2, "pmid": "2", "mentions": [_m(t2, "BRCA1", "GENE")]}])
    _jsonl(root / "bc2gm" / "devel.jsonl", [
        {"id": "S3", "text": t2, "pmid": "12", "mentions": [_m(t2, "BRCA1", "GENE")]},
        {"id": "S4", "text": t2, "pmid": "1", "mentions": []}])          # a GE train doc
    _jsonl(root / "jnlpba" / "train.jsonl", [
        {"id": "J1", "text": t1, "pmid": "21", "mentions": [
            _m(t1, "MDM2", "protein"), _m(t1, "p53", "protein"),
            _m(t1, "NF-kappaB", "protein"), _m(t1, "IL-2 gene", "DNA")]},
        {"id": "J2", "text": t1, "pmid": "1", "mentions": []}])           # GE train: dropped
    _jsonl(root / "jnlpba" / "devel.jsonl", [])
    _jsonl(root / "bionlp13cg" / "train.jsonl", [
        {"id": "C1", "text": t2, "pmid": "31", "mentions": [
            _m(t2, "BRCA1", "Gene_or_gene_product"), _m(t2, "MCF-7 cells", "Cell")]},
        {"id": "C3", "text": t2, "pmid": "33", "mentions": [
            _m(t2, "BRCA1", "Gene_or_gene_product")]}])
    _jsonl(root / "bionlp13cg" / "devel.jsonl", [
        {"id": "C2", "text": t2, "pmid": "32", "mentions": [
            _m(t2, "BRCA1", "Gene_or_gene_product")]}])
    _jsonl(root / "craft" / "train.jsonl", [
        {"id": "41", "text": t1, "pmid": "41", "mentions": [_m(t1, "p53", "PR")]}])
    _jsonl(root / "bionlp13pc" / "test.jsonl", [
        {"id": "P1", "text": t2, "pmid": "11", "mentions": []}])          # also bc2gm train
    _jsonl(root / "loctext" / "train.jsonl", [
        {"id": "L1", "text": t2, "pmid": "31", "mentions": []}])          # also CG train
    return root


@pytest.mark.slow
def test_build_with_fake_genes(tmp_path):
    pytest.importorskip("spacy")
    pytest.importorskip("scispacy")
    from spacy.tokens import DocBin

    from relx.parse.ner import blank_nlp, build_ner_corpus
    from tests.test_ner import _fake_shared

    shared = _fake_shared(tmp_path / "shared")
    _write_famplex(shared / "lexicons" / "famplex")
    genes = _fake_genes(tmp_path / "genes")
    ex = excluded_pmids(shared, genes)
    assert ex["external"] == {"11", "31"} and ex["dev"] == {"12", "1", "32"}
    assert ex["ge_devel"] == {"2"} and ex["ge_train"] == {"1"}
    stats = build_ner_corpus(shared, tmp_path / "out", genes=genes,
                             weights={"bionlp13cg": 2, "craft": 1})
    assert stats["bc2gm"]["dropped_pmid"] == 2            # PC (external), GE devel
    assert stats["jnlpba"]["dropped_pmid"] == 1           # GE train copy
    assert stats["bionlp13cg"]["dropped_pmid"] == 1       # LocText (external)
    assert stats["jnlpba"]["missing_DNA"] == 1
    assert stats["bc2gm_dev"]["dropped_pmid"] == 1        # S4: a GE train document
    assert stats["bionlp13cg_dev"]["documents"] == 1
    assert stats["ge_train"]["famplex_missing"] == 0      # ner-mini's NF-kappa B is gold
    nlp = blank_nlp()
    train = list(DocBin().from_disk(tmp_path / "out" / "train.spacy").get_docs(nlp.vocab))
    jn = [d for d in train if d.text == "NF-kappaB and IL-2 gene."]
    # JNLPBA's (DNA missing) and CRAFT's (no mention: outside) copies of the same text
    assert sorted([t.text for t in d if t.ent_iob_ == ""] for d in jn) == [[], ["IL-2", "gene"]]
    assert stats["bionlp13cg"]["pieces_written"] == 2
    dev = list(DocBin().from_disk(tmp_path / "out" / "dev.spacy").get_docs(nlp.vocab))
    assert len(dev) == 2 + 1 + 1   # GE devel pieces + BC2GM S3 + CG C2
    again = build_ner_corpus(shared, tmp_path / "out2", genes=genes, famplex=False,
                             ge_repeat=2, weights={"bc2gm": 0, "jnlpba": 0, "craft": 0})
    assert again["ge_train"]["docs"] == 2 * stats["ge_train"]["docs"]
    assert "famplex_missing" not in again["ge_train"] and "bc2gm" not in again


def test_unknown_weight_refused(tmp_path):
    with pytest.raises(ConfigError, match="unknown gene corpora"):
        list(gene_training_pieces(tmp_path, {}, {"bc5cdr": 1.0}, {}))


def test_spec_defaults():
    assert CorpusSpec(frozenset({"x"})).train == ("train",)


# -- the real corpora (skipped when absent) ----------------------------------------------------

@pytest.fixture(scope="module")
def real_excluded():
    if not (GENES / "bc2gm" / "devel.jsonl").exists():
        pytest.skip(f"{GENES} not available")
    return excluded_pmids(SHARED, GENES)


def test_real_exclusions(real_excluded):
    ex = real_excluded
    # GE 2011 devel: 150 abstracts with a PMID, the rest PMC full-text pieces
    assert len(ex["ge_devel"]) == 150 and len(ex["external"]) == 525 + 100
    from relx.parse.ner_corpora import split_docs

    jn = {norm_pmid(d.get("pmid")) for s in ("train", "devel")
          for d in split_docs(GENES, "jnlpba", s)}
    assert len(jn & ex["ge_devel"]) == 150          # README: JNLPBA holds 150 GE devel docs
    stats: dict[str, Counter] = {}
    n = sum(1 for _ in gene_training_pieces(
        GENES, ex, {"bc2gm": 0, "craft": 0, "bionlp13cg": 0, "jnlpba": 1}, stats))
    j = stats["jnlpba"]
    assert j["dropped_pmid"] >= 150 + 797 and n == j["pieces_written"] > 0


# -- BioRED (issue 50, NER round 3) ------------------------------------------------------------

def _pubtator(path: Path) -> Path:
    """Three documents: 101 fit-train, 102 fit-held, 100 dev (sha1 % 5 = 0); 103 fit-train
    but kept (a BioRED Dev/Test PMID)."""
    lines = []
    for pmid in ("101", "102", "100", "103"):
        title, abstract = "HNF-6 and diabetes.", "Insulin binds INSR; glucose V600E."
        lines += [f"{pmid}|t|{title}", f"{pmid}|a|{abstract}"]
        off = len(title) + 1
        lines += [f"{pmid}\t0\t5\tHNF-6\tGeneOrGeneProduct\t3175",
                  f"{pmid}\t10\t18\tdiabetes\tDiseaseOrPhenotypicFeature\tD003920",
                  f"{pmid}\t{off}\t{off + 7}\tInsulin\tGeneOrGeneProduct\t3630",
                  f"{pmid}\t{off + 14}\t{off + 18}\tINSR\tGeneOrGeneProduct\t3643",
                  f"{pmid}\t{off + 20}\t{off + 27}\tglucose\tChemicalEntity\tD005947",
                  f"{pmid}\t{off + 28}\t{off + 33}\tV600X\tSequenceVariant\trs1",  # mismatch
                  f"{pmid}\tBind\t3630\t3643\tNovel", ""]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress("\n".join(lines).encode("utf-8")))
    return path


def test_biored_parts_are_the_registered_hash():
    assert [biored_part(p) for p in ("100", "101", "102")] == ["dev", "fit-train", "fit-held"]
    parts = Counter(biored_part(str(p)) for p in range(1000, 6000))
    assert 900 < parts["dev"] < 1100 and 900 < parts["fit-held"] < 1100


def test_read_pubtator_title_newline_abstract(tmp_path):
    stats: Counter = Counter()
    docs = read_pubtator(_pubtator(tmp_path / "b.gz"), stats)
    assert [d["pmid"] for d in docs] == ["101", "102", "100", "103"]
    d = docs[0]
    assert d["text"] == "HNF-6 and diabetes.\nInsulin binds INSR; glucose V600E."
    assert [d["text"][m["start"]:m["end"]] for m in d["mentions"]] == [
        "HNF-6", "diabetes", "Insulin", "INSR", "glucose"]
    assert stats["mention_mismatch"] == 4


def test_biored_docs_never_dev_and_drop_kept(tmp_path):
    path = _pubtator(tmp_path / "b.gz")
    stats: Counter = Counter()
    assert [d["pmid"] for d in biored_docs(path, "fit-train", {"103"}, stats)] == ["101"]
    assert stats["dropped_kept_pmid"] == 1
    assert [d["pmid"] for d in biored_docs(path, "fit-held", set())] == ["102"]
    with pytest.raises(ConfigError, match="development split"):
        biored_docs(path, "dev", set())
    stats = Counter()
    got = list(biored_pieces(path, "fit-train", {"103"}, 2, stats))
    # title and abstract pieces, twice; genes only (diabetes, glucose outside)
    assert [(t, spans) for t, spans, _ in got[::2]] == [
        ("HNF-6 and diabetes.", [(0, 5)]),
        ("Insulin binds INSR; glucose V600E.", [(0, 7), (14, 18)])]
    assert len(got) == 4 and stats["mentions"] == 3


@pytest.mark.slow
def test_build_with_biored(tmp_path):
    pytest.importorskip("spacy")
    pytest.importorskip("scispacy")
    from spacy.tokens import DocBin

    from relx.parse.ner import blank_nlp, build_ner_corpus
    from tests.test_ner import _fake_shared

    shared = _fake_shared(tmp_path / "shared")
    biored = _pubtator(shared / "corpora" / "biored" / "Train.PubTator.gz")
    (shared / "corpora" / "biored" / "kept-pmids.txt").write_text("103\n")
    plain = build_ner_corpus(shared, tmp_path / "plain")
    stats = build_ner_corpus(shared, tmp_path / "out", biored=biored, biored_weight=3)
    assert stats["biored"]["documents"] == 1 and stats["biored"]["dropped_kept_pmid"] == 1
    assert stats["biored"]["pieces_written"] == 6 and stats["biored_dev"]["documents"] == 1
    assert stats["train_docs"] == plain["train_docs"] + 6
    assert stats["dev_docs"] == plain["dev_docs"] + 2
    nlp = blank_nlp()
    dev = list(DocBin().from_disk(tmp_path / "out" / "dev.spacy").get_docs(nlp.vocab))
    assert [e.text for e in dev[-1].ents] == ["Insulin", "INSR"]
    assert all(t.ent_iob_ == "O" for t in dev[-1] if t.text == "glucose")


def test_real_biored_parts():
    path = SHARED / "corpora" / "biored" / "Train.PubTator.gz"
    if not path.exists():
        pytest.skip("BioRED train not in ../shared")
    from relx.parse.ner_corpora import kept_pmids

    kept = kept_pmids(SHARED)
    train, held = biored_docs(path, "fit-train", kept), biored_docs(path, "fit-held", kept)
    assert len(train) + len(held) == 314 and 60 < len(held) < 100
    assert not kept & {d["pmid"] for d in train + held}
