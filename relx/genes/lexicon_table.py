"""The rows of a gene lexicon by lookup key, stored compactly (:class:`LexiconRows`), and
read from a lexicon file (:class:`LexiconFile`).

A lexicon of ~200,000 rows held as a dict of lists of ``(id, source, form)`` tuples took
~90 MB of small Python objects per species (a list, a tuple and two or three strings a
row). Here the keys stay in one dict (key -> key number, first-seen order), and the rows,
grouped by key, are three flat arrays: the id's number in a table of distinct ids, the
source's number and the form ("" where it is the key itself). A lookup builds the key's
``(id, source, form)`` tuples afresh: the same values, in the same order, as the dict of
lists had.

Parsing the file's ~200,000 human and shared rows takes ~0.7 s, its mouse and rat rows
another ~0.5 s; :class:`LexiconFile` keeps the tables it builds in relx's array cache
(:mod:`relx.array_cache`), by the file's digest, and later processes read them back.
"""

from __future__ import annotations

import gzip
import re
from array import array
from collections.abc import ItemsView, Iterable, Iterator, Mapping
from typing import Any

from relx.errors import ConfigError
from relx.packed_strings import pack_named, unpack_named

__all__ = ["COLUMNS", "LexiconFile", "LexiconRows", "RowsBuilder"]

Row = tuple[str, str, str]  # (id, source, form)

COLUMNS = ("key", "id", "symbol", "source", "form", "taxon")
_COLUMNS_V1 = COLUMNS[:5]
#: the words of class phrases: a name made only of them (``transcription factor``, ``E3
#: ubiquitin ligase``, ``zinc finger protein``) names a kind of protein, not one gene, when
#: it comes from one of :data:`CLASS_PHRASE_SOURCES` (docs/genes.md, round 41c); ``statin``
#: names a class of drugs (EEF1A2's previous symbol; round 51a)
CLASS_WORDS = frozenset("""
    transcription factor factors protein proteins kinase receptor binding domain family member
    subunit enzyme ligase phosphatase channel transporter antigen regulator inhibitor activator
    ubiquitin e3 nuclear cell surface membrane adhesion glycoprotein zinc finger homeobox
    repressor coactivator oncogene tumor suppressor gene product serine threonine tyrosine
    hormone peptide molecule cytokine statin statins bh3only""".split())
CLASS_PHRASE_SOURCES = frozenset({"alias", "previous", "designation", "ncbi_synonym"})
_CLASS_PHRASE = re.compile(
    "(?:" + "|".join(sorted(CLASS_WORDS, key=lambda w: (-len(w), w))) + ")+")
#: NCBI designations cut to ``protein`` and a letter or two (``protein A`` of CALHM3,
#: ``protein C`` of two protein kinase C genes): no name of theirs (round 54)
_BARE_PROTEIN = re.compile(r"protein[a-z0-9]{1,2}")
_SPECIES_ROW = re.compile(r"\t(?!9606$)\d+$", re.MULTILINE)  # a row of a non-human gene


def is_class_phrase(key: str) -> bool:
    """``key`` (a lexicon key: compact, lower-case) is :data:`CLASS_WORDS` run together
    (one regular expression: a lexicon's 400,000 keys in 0.07 s, on a first run)."""
    return _CLASS_PHRASE.fullmatch(key) is not None


class LexiconRows(Mapping[str, list[Row]]):
    """normalised key -> ``[(id, source, form)]``, in the order the rows were added; keys
    in the order first added. Built by :class:`RowsBuilder`."""

    __slots__ = ("_keys", "_starts", "_ids", "_sources", "_cid", "_src", "_forms")

    def __init__(self, keys: dict[str, int], starts: array, ids: list[str],
                 sources: tuple[str, ...], cid: array, src: array,
                 forms: list[str]) -> None:
        self._keys, self._starts = keys, starts
        self._ids, self._sources = ids, sources
        self._cid, self._src, self._forms = cid, src, forms

    def _rows(self, key: str, k: int) -> list[Row]:
        ids, sources, cid, src, forms = self._ids, self._sources, self._cid, self._src, self._forms
        return [(ids[cid[j]], sources[src[j]], forms[j] or key)
                for j in range(self._starts[k], self._starts[k + 1])]

    def __getitem__(self, key: str) -> list[Row]:
        return self._rows(key, self._keys[key])

    def get(self, key: str, default: Any = None) -> Any:
        k = self._keys.get(key)
        return default if k is None else self._rows(key, k)

    def __contains__(self, key: object) -> bool:
        return key in self._keys

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def keys(self) -> Any:
        return self._keys.keys()

    def items(self) -> ItemsView[str, list[Row]]:
        return _Items(self)

    @property
    def n_rows(self) -> int:
        return len(self._cid)

    def to_arrays(self, prefix: str = "") -> dict[str, Any]:
        """The table as NumPy arrays named ``<prefix><part>`` (:meth:`from_arrays` reads them)."""
        import numpy as np

        return {**pack_named(f"{prefix}keys", self._keys),
                **pack_named(f"{prefix}ids", self._ids),
                **pack_named(f"{prefix}sources", self._sources),
                **pack_named(f"{prefix}forms", self._forms),
                f"{prefix}starts": np.frombuffer(self._starts, dtype=np.int64),
                f"{prefix}cid": np.frombuffer(self._cid, dtype=np.int32),
                f"{prefix}src": np.frombuffer(self._src, dtype=np.uint8)}

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, Any], prefix: str = "") -> LexiconRows:
        """The table :meth:`to_arrays` stored (``ValueError`` when the parts disagree)."""
        keys = unpack_named(arrays, f"{prefix}keys")
        forms = unpack_named(arrays, f"{prefix}forms")
        starts = array("q", arrays[f"{prefix}starts"].astype("<i8").tobytes())
        cid = array("i", arrays[f"{prefix}cid"].astype("<i4").tobytes())
        src = array("B", arrays[f"{prefix}src"].astype("u1").tobytes())
        if len(starts) != len(keys) + 1 or not len(cid) == len(src) == len(forms) == starts[-1]:
            raise ValueError("cached lexicon table: sizes disagree")
        return cls(dict(zip(keys, range(len(keys)), strict=True)), starts,
                   unpack_named(arrays, f"{prefix}ids"),
                   tuple(unpack_named(arrays, f"{prefix}sources")), cid, src, forms)

    def rows_of_sources(self, sources: Iterable[str], *, one_id: bool = False
                        ) -> Iterator[tuple[str, Row]]:
        """``(key, row)`` of every row from one of ``sources``, by key (what iterating
        :meth:`items` and filtering the rows gives, without building the others); with
        ``one_id``, only of the keys whose rows all name one id."""
        import numpy as np

        codes = [i for i, s in enumerate(self._sources) if s in set(sources)]
        picked = np.flatnonzero(np.isin(np.frombuffer(self._src, dtype=np.uint8), codes))
        starts = np.frombuffer(self._starts, dtype=np.int64)
        key_no = np.searchsorted(starts, picked, side="right") - 1
        if one_id and len(picked):
            cid = np.frombuffer(self._cid, dtype=self._cid.typecode)
            single = (np.minimum.reduceat(cid, starts[:-1]) ==
                      np.maximum.reduceat(cid, starts[:-1]))
            keep = single[key_no]
            picked, key_no = picked[keep], key_no[keep]
        keys = list(self._keys)
        ids, names, cid, src, forms = self._ids, self._sources, self._cid, self._src, self._forms
        for j, k in zip(picked.tolist(), key_no.tolist(), strict=True):
            key = keys[k]
            yield key, (ids[cid[j]], names[src[j]], forms[j] or key)


class _Items(ItemsView):
    """``LexiconRows.items()``, iterated without a key lookup per key."""

    _mapping: LexiconRows

    def __iter__(self) -> Iterator[tuple[str, list[Row]]]:
        rows = self._mapping._rows
        for key, k in self._mapping._keys.items():
            yield key, rows(key, k)


class RowsBuilder:
    """Collects lexicon rows (:meth:`add`) into a :class:`LexiconRows` (:meth:`build`).
    ``ids``: id -> number, shared with other builders (the first string of each id is the
    one kept)."""

    def __init__(self, sources: tuple[str, ...], ids: dict[str, int] | None = None) -> None:
        self.sources = sources
        self._source_no = {s: i for i, s in enumerate(sources)}
        self.ids: dict[str, int] = {} if ids is None else ids
        self._keys: dict[str, int] = {}
        self._row_key = array("i")
        self._cid = array("i")
        self._src = array("B")
        self._forms: list[str] = []

    def intern_id(self, cid: str) -> str:
        """Add id ``cid`` to the id table (a row of it left out still numbers it)."""
        self.ids.setdefault(cid, len(self.ids))
        return cid

    def add(self, key: str, cid: str, source: str, form: str) -> str:
        """One row (``form`` empty when it is ``key``); returns ``cid``."""
        ids, keys = self.ids, self._keys
        self._cid.append(ids.setdefault(cid, len(ids)))
        self._row_key.append(keys.setdefault(key, len(keys)))
        self._src.append(self._source_no[source])
        self._forms.append(form)
        return cid

    def build(self) -> LexiconRows:
        """The rows grouped by key (each key's in the order added); the builder is emptied."""
        import numpy as np  # not on the import path of grounding

        row_key = np.frombuffer(self._row_key, dtype=np.int32) if self._row_key else \
            np.zeros(0, np.int32)
        order = np.argsort(row_key, kind="stable")
        starts = np.zeros(len(self._keys) + 1, dtype=np.int64)
        np.cumsum(np.bincount(row_key, minlength=len(self._keys)), out=starts[1:])
        cid = np.frombuffer(self._cid, dtype=np.int32)[order] if self._cid else row_key
        src = np.frombuffer(self._src, dtype=np.uint8)[order] if self._src else row_key
        forms = self._forms
        table = LexiconRows(self._keys, array("q", starts.tobytes()), list(self.ids),
                            self.sources, array("i", cid.astype(np.int32).tobytes()),
                            array("B", src.astype(np.uint8).tobytes()),
                            [forms[j] for j in order.tolist()])
        self._keys, self._forms = {}, []
        self._row_key, self._cid, self._src = array("i"), array("i"), array("B")
        return table


class LexiconFile:
    """A lexicon file's tables (``data``: the file's gzip bytes; rows of ``exclude`` sources
    left out): :meth:`human` (human genes, families and chemicals) and :meth:`species`
    (mouse and rat genes, parsed only when asked for), each built once per file and kept in
    the array cache."""

    def __init__(self, data: bytes, sources: tuple[str, ...],
                 exclude: Iterable[str] = ()) -> None:
        from relx.array_cache import digest

        self.data, self.sources = data, sources
        self.exclude = frozenset(exclude)
        self.name = "lexicon-" + digest(data, "\t".join(sources), "\t".join(sorted(self.exclude)),
                                        " ".join(sorted(CLASS_WORDS)), _BARE_PROTEIN.pattern)
        self._parts: tuple[str, str] | None = None   # (human rows, species rows) text

    def _text_parts(self) -> tuple[str, str]:
        """The rows' text: the human and shared rows, then the species rows ("" for none)."""
        if self._parts is None:
            text = gzip.decompress(self.data).decode("utf-8")
            pos = 0
            while text.startswith("#", pos):
                pos = text.index("\n", pos) + 1
            end = text.find("\n", pos)
            header = tuple(text[pos:end if end >= 0 else None].split("\t"))
            if header not in (COLUMNS, _COLUMNS_V1):
                raise ConfigError(f"not a relx lexicon: header {text[pos:end]!r}")
            if end < 0:
                self._parts = ("", "")
            else:
                m = _SPECIES_ROW.search(text, end) if header == COLUMNS else None
                cut = text.rfind("\n", 0, m.start()) + 1 if m else len(text)
                self._parts = (text[end + 1:cut], text[cut:])
        return self._parts

    def _add(self, rows: RowsBuilder, key: str, cid: str, source: str, form: str) -> str:
        key = key or form.lower()
        if source in self.exclude or (source in CLASS_PHRASE_SOURCES and is_class_phrase(key)) \
                or (source == "designation" and _BARE_PROTEIN.fullmatch(key)):
            return rows.intern_id(cid)
        return rows.add(key, cid, source, form)

    def _build_human(self) -> dict[str, Any]:
        rows = RowsBuilder(self.sources)
        symbols: dict[str, str] = {}
        human, species = self._text_parts()
        self._parts = ("", species)      # the human rows' text is not needed again
        for line in human.splitlines():
            fields = line.split("\t")
            cid = self._add(rows, *fields[:2], *fields[3:5])
            if fields[2] and cid not in symbols:
                symbols[cid] = fields[2]
        return {**rows.build().to_arrays(), **_symbol_arrays(symbols)}

    def _build_species(self) -> dict[str, Any]:
        builders: dict[str, RowsBuilder] = {}
        ids: dict[str, int] = {}
        symbols: dict[str, str] = {}
        for line in self._text_parts()[1].splitlines():
            key, cid, symbol, source, form, taxon = line.split("\t")
            if not taxon or taxon == "9606":
                raise ConfigError(f"lexicon rows out of order at {line!r}")
            rows = builders.get(taxon)
            if rows is None:
                rows = builders[taxon] = RowsBuilder(self.sources, ids)
            cid = self._add(rows, key, cid, source, form)
            if symbol and cid not in symbols:
                symbols[cid] = symbol
        arrays = pack_named("taxa", builders)
        for i, rows in enumerate(builders.values()):
            arrays.update(rows.build().to_arrays(f"{i}."))
        return {**arrays, **_symbol_arrays(symbols)}

    def human(self) -> tuple[LexiconRows, dict[str, str]]:
        """The human and shared rows' table, and the symbol of each of their ids."""
        from relx.array_cache import load_or_build

        return load_or_build(f"{self.name}-human", self._build_human,
                             lambda a: (LexiconRows.from_arrays(a), _symbols(a)))

    def species(self) -> tuple[dict[str, LexiconRows], dict[str, str]]:
        """``NCBITaxon:<id>`` -> that species' table (in the file's order), and the symbol
        of each of their ids (the first row's)."""
        from relx.array_cache import load_or_build

        def read(arrays: Mapping[str, Any]) -> tuple[dict[str, LexiconRows], dict[str, str]]:
            taxa = unpack_named(arrays, "taxa")
            return ({f"NCBITaxon:{t}": LexiconRows.from_arrays(arrays, f"{i}.")
                     for i, t in enumerate(taxa)}, _symbols(arrays))

        return load_or_build(f"{self.name}-species", self._build_species, read)


def _symbol_arrays(symbols: dict[str, str]) -> dict[str, Any]:
    return {**pack_named("symbol_ids", symbols), **pack_named("symbols", symbols.values())}


def _symbols(arrays: Mapping[str, Any]) -> dict[str, str]:
    return dict(zip(unpack_named(arrays, "symbol_ids"), unpack_named(arrays, "symbols"),
                    strict=True))
