"""The rows of a gene lexicon by lookup key, stored compactly (:class:`LexiconRows`).

A lexicon of ~200,000 rows held as a dict of lists of ``(id, source, form)`` tuples took
~90 MB of small Python objects per species (a list, a tuple and two or three strings a
row). Here the keys stay in one dict (key -> key number, first-seen order), and the rows,
grouped by key, are three flat arrays: the id's number in a table of distinct ids, the
source's number and the form ("" where it is the key itself). A lookup builds the key's
``(id, source, form)`` tuples afresh: the same values, in the same order, as the dict of
lists had.
"""

from __future__ import annotations

from array import array
from collections.abc import ItemsView, Iterable, Iterator, Mapping
from typing import Any

__all__ = ["LexiconRows", "RowsBuilder"]

Row = tuple[str, str, str]  # (id, source, form)


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
