"""lab/genes/corpora.py: the converter on tiny folders, and the converted corpora when present
(``../shared/corpora/genes``; skipped when absent)."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path

import pytest
from conftest import ROOT, SHARED

GENES = SHARED / "corpora" / "genes"
SPLITS = ("train", "devel", "test")


def _load_converter():
    spec = importlib.util.spec_from_file_location("gene_corpora", ROOT / "lab" / "genes" / "corpora.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up there
    spec.loader.exec_module(mod)
    return mod


corpora = _load_converter()


# -- converter on small fixtures ---------------------------------------------------------------

def test_bc2gm_offsets_count_non_whitespace(tmp_path: Path):
    root = tmp_path / "bc2gm"
    for part, sid, sent, gene, alt in [
        ("train", "P00001606T0076", "Comparison with alkaline phosphatases and 5-nucleotidase",
         "P00001606T0076|14 33|alkaline phosphatases", "P00001606T0076|22 33|phosphatases"),
        ("test", "BC2GM000008491", "trio and  Abl cooperate", "BC2GM000008491|7 9|Abl", ""),
    ]:
        d = root / "original-data" / part
        d.mkdir(parents=True)
        (d / f"{part}.in").write_text(f"{sid} {sent}\n")
        (d / "GENE.eval").write_text(gene + "\n")
        (d / "ALTGENE.eval").write_text(alt + "\n")
    (root / "devel-split" / "devel").mkdir(parents=True)
    (root / "devel-split" / "devel" / "devel.in").write_text("")
    stats = Counter()
    out = corpora.convert_bc2gm([corpora.Source(root)], stats)
    (doc,) = out["train"]
    (m,) = doc.mentions
    assert doc.text[m["start"]:m["end"]] == "alkaline phosphatases"
    assert doc.alternatives[0]["text"] == "phosphatases" and doc.pmid == "1606"
    (doc,) = out["test"]
    assert doc.text[doc.mentions[0]["start"]:doc.mentions[0]["end"]] == "Abl"


def test_standoff_mentions_checked_merged_and_discontinuous_skipped():
    text = "Mus musculus p53 and TP53."
    ann = ("T1\tSpecies 0 12\tMus musculus\nN1\tReference T1 Taxonomy:10090\n"
           "T2\tGene 13 16\tp53\nT3\tGene 13 16\tp53\nT4\tGene 21 25\tTP5X\n"
           "T5\tGene 0 3;13 16\tMus p53\n")
    stats = Counter()
    doc = corpora.Doc("d", text, corpora.read_standoff(text, ann, stats, corpora._taxonomy_ref))
    corpora.check_mentions(doc, stats)
    assert [(m["text"], m["ids"], m["taxon"]) for m in doc.mentions] == [
        ("Mus musculus", ["NCBITaxon:10090"], "NCBITaxon:10090"), ("p53", [], None)]
    assert stats == {"discontinuous_skipped": 1, "mentions_mismatch": 1,
                     "mentions_duplicate_merged": 1}


def test_hash_split_is_deterministic_and_roughly_80_10_10():
    splits = Counter(corpora.hash_split(str(i)) for i in range(5000))
    assert corpora.hash_split("12345") == corpora.hash_split("12345")
    assert 0.75 < splits["train"] / 5000 < 0.85 and splits["devel"] > 350 and splits["test"] > 350


# -- converted corpora -----------------------------------------------------------------------------

def _converted() -> list[Path]:
    if not GENES.is_dir():
        return []
    return sorted(p for p in GENES.iterdir() if (p / "stats.json").exists())


@pytest.fixture(params=_converted() or [None], ids=lambda p: p.name if p else "absent")
def corpus_dir(request) -> Path:
    if request.param is None:
        pytest.skip(f"{GENES} not available (set RELX_DATA to the shared data folder)")
    return request.param


def test_converted_corpus(corpus_dir: Path):
    name = corpus_dir.name
    stats = json.loads((corpus_dir / "stats.json").read_text(encoding="utf-8"))
    assert (corpus_dir / "SOURCE.md").exists()
    seen: dict[str, str] = {}
    total_docs = total_annotations = 0
    for split in SPLITS:
        path = corpus_dir / f"{split}.jsonl"
        if not path.exists():
            assert split not in stats["splits"]
            continue
        n_docs = n_ments = 0
        with path.open(encoding="utf-8") as f:
            for line in f:
                d = json.loads(line)
                assert d["source"] == name and isinstance(d["text"], str)
                assert d["id"] not in seen, f"{d['id']} in {seen.get(d['id'])} and {split}"
                seen[d["id"]] = split
                for key in ("mentions", "alternatives"):
                    for m in d.get(key) or []:
                        assert 0 <= m["start"] < m["end"] <= len(d["text"])
                        assert d["text"][m["start"]:m["end"]] == m["text"], (d["id"], m)
                        assert isinstance(m["ids"], list) and "type" in m and "taxon" in m
                n_docs += 1
                n_ments += len(d["mentions"]) + len(d.get("doc_ids") or [])
        assert n_docs == stats["splits"][split]["docs"]
        total_docs += n_docs
        total_annotations += n_ments
    assert total_docs > 0 and total_annotations > 0
