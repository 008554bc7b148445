"""The compact lexicon rows (relx.genes.lexicon_table) answer as the dict of lists did."""

from __future__ import annotations

import gzip
import string
from importlib import resources

from relx.genes.lexicon import SOURCES, Grounder
from relx.genes.lexicon_table import (
    CLASS_PHRASE_SOURCES,
    CLASS_WORDS,
    RowsBuilder,
    is_class_phrase,
)


def test_rows_keep_key_order_row_order_and_forms() -> None:
    b = RowsBuilder(SOURCES)
    b.add("il2", "HGNC:6001", "symbol", "IL2")
    b.add("tcgf", "HGNC:6001", "alias", "TCGF")
    b.add("il2", "FPLX:IL2", "famplex", "")          # form empty: the key itself
    b.add("il2", "HGNC:6001", "alias", "Il2")
    t = b.build()
    assert list(t) == ["il2", "tcgf"] and len(t) == 2 and t.n_rows == 4
    assert t["il2"] == [("HGNC:6001", "symbol", "IL2"), ("FPLX:IL2", "famplex", "il2"),
                        ("HGNC:6001", "alias", "Il2")]
    assert t.get("tcgf") == [("HGNC:6001", "alias", "TCGF")]
    assert t.get("nope", ()) == () and "nope" not in t and "il2" in t
    assert dict(t.items()) == {k: t[k] for k in t}
    assert t["il2"][0][0] is t["tcgf"][0][0]          # one string per id


def _dict_of_lists(exclude: frozenset[str] = frozenset()) -> dict[str, dict[str, list]]:
    """The shipped lexicon read as Grounder kept it before the compact rows: per taxon
    (``""``: human and shared rows), key -> [(id, source, form)] in file order."""
    text = gzip.decompress(resources.files("relx").joinpath("data/lexicon.tsv.gz")
                           .read_bytes()).decode("utf-8")
    lines = [ln for ln in text.splitlines() if ln and not ln.startswith("#")][1:]
    out: dict[str, dict[str, list]] = {}
    for line in lines:
        key, cid, _, source, form, taxon = line.split("\t")
        if source in exclude:
            continue
        taxon = "" if taxon in ("", "9606") else f"NCBITaxon:{taxon}"
        key = key or form.lower()
        if source in CLASS_PHRASE_SOURCES and _class_phrase(key) or \
                source == "designation" and _bare_protein(key):
            continue
        out.setdefault(taxon, {}).setdefault(key, []).append((cid, source, form or key))
    return out


def _bare_protein(key: str) -> bool:
    """``protein`` and one or two letters or digits (an NCBI designation cut short)."""
    rest = key[len("protein"):]
    return key.startswith("protein") and 1 <= len(rest) <= 2 and all(
        c in string.ascii_lowercase + string.digits for c in rest)


def _class_phrase(key: str) -> bool:
    """Class words run together, found word by word (the table uses a pattern)."""
    ends = {0}
    for i in range(len(key)):
        if i in ends:
            ends.update(i + len(w) for w in CLASS_WORDS if key.startswith(w, i))
    return bool(key) and len(key) in ends


def test_designations_cut_to_protein_and_a_letter_name_no_gene() -> None:
    """Round 54: NCBI's designation ``protein A`` of CALHM3 named ``Surfactant protein A``
    through a part; HGNC's ``protein C`` (PROC) and ``protein S`` (PROS1) stay."""
    g = Grounder()
    assert [c.id for c in g.ground("protein A")] == []
    assert [c.id for c in g.ground("protein C")][:1] == ["HGNC:9451"]
    assert [c.id for c in g.ground("protein S")][:1] == ["HGNC:9456"]


def test_class_phrases_name_no_gene() -> None:
    """``transcription factor`` (an alias of SUPT20H) and ``E3 ubiquitin ligase`` (NCBI
    designations) name kinds of protein (round 41c); a gene's own full name stays."""
    assert is_class_phrase("transcriptionfactor") and is_class_phrase("e3ubiquitinligase")
    assert not is_class_phrase("") and not is_class_phrase("transcriptionfactorx")
    g = Grounder()
    assert g.index.get("transcriptionfactor") is None and g.index.get("zincfinger") is None
    assert [c.id for c in g.ground("growth hormone receptor")][:1] == ["HGNC:4263"]
    assert [c.id for c in g.ground("E3 ubiquitin ligase")] == ["FPLX:E3_Ub_ligase"]  # a family


def _same(table, want: dict[str, list]) -> None:
    assert list(table) == list(want)                   # keys in the same order
    assert len(table) == len(want)
    for key, rows in table.items():
        assert rows == want[key]
    for key in list(want)[::97]:
        assert table.get(key) == want[key] and table[key] == want[key] and key in table
    for sources in ({"symbol"}, {"famplex", "previous"}):
        assert list(table.rows_of_sources(sources)) == [
            (k, r) for k, rows in want.items() for r in rows if r[1] in sources]


def test_shipped_lexicon_rows_equal_the_dict_of_lists() -> None:
    """Every key and row of the shipped lexicon, human and each species, as before."""
    want = _dict_of_lists()
    g = Grounder()
    _same(g.index, want.pop(""))
    assert want   # mouse and rat
    for taxon, rows in want.items():
        _same(g.species_index(taxon), rows)
    assert g.species_index("NCBITaxon:7227") == {}


def test_excluded_sources_are_left_out_as_before() -> None:
    skip = frozenset({"ncbi_name", "ncbi_synonym", "designation"})
    want = _dict_of_lists(skip)
    g = Grounder(exclude_sources=skip)
    _same(g.index, want.pop(""))
    for taxon, rows in want.items():
        _same(g.species_index(taxon), rows)
