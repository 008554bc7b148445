"""Character 3-gram search over lexicon keys: the names no exact key reaches.

:class:`NgramIndex` holds every key of one species' lexicon (compact, lower-case forms,
:func:`relx.genes.lexicon.normalize_key`) as a sorted array of (3-gram code, key number)
postings, built with NumPy in well under a second for the ~100,000 human keys.
:meth:`NgramIndex.search` gives the keys sharing the most 3-grams with a query, scored by the
Dice coefficient of their 3-gram sets: ``2 |A & B| / (|A| + |B|)`` in [0, 1].
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from relx.packed_strings import pack_named, unpack_named

__all__ = ["NgramIndex"]

#: keys shorter than this are symbols, left to exact matching
MIN_KEY = 5


def _codes(text: bytes) -> np.ndarray:
    """The distinct 3-gram codes of one key, shape (n,), int64."""
    a = np.frombuffer(text, dtype=np.uint8).astype(np.int64)
    if a.size < 3:
        return np.zeros(0, dtype=np.int64)
    return np.unique((a[:-2] << 16) | (a[1:-1] << 8) | a[2:])


class NgramIndex:
    """3-gram postings of ``keys`` (ASCII after compaction; other keys are skipped): the
    key numbers of each distinct 3-gram, in one int32 array sorted by 3-gram then key,
    ``_starts[i]:_starts[i + 1]`` those of 3-gram ``_codes[i]`` (4 bytes a posting)."""

    def __init__(self, keys: Iterable[str]) -> None:
        kept = [k for k in keys if len(k) >= MIN_KEY and k.isascii()]
        self.keys: list[str] = kept
        if not kept:
            self._codes = np.zeros(0, dtype=np.int32)
            self._starts = np.zeros(1, dtype=np.int64)
            self._owner = np.zeros(0, dtype=np.int32)
            self._sizes = np.zeros(0, dtype=np.int32)
            return
        # (3-gram << 20 | key) of each key's distinct 3-grams, a block of keys at a time
        # (the int64 temporaries of all keys at once took ~100 MB at the peak)
        blocks = [_postings(kept[i:i + _BLOCK], i) for i in range(0, len(kept), _BLOCK)]
        pairs = np.concatenate(blocks)
        del blocks
        pairs.sort()      # distinct values: keys do not repeat across blocks
        codes = pairs >> 20
        self._owner = (pairs & ((1 << 20) - 1)).astype(np.int32)
        del pairs
        first = np.flatnonzero(np.diff(codes)) + 1
        self._starts = np.concatenate([[0], first, [len(codes)]]).astype(np.int64)
        self._codes = codes[self._starts[:-1]].astype(np.int32)
        del codes
        self._sizes = np.bincount(self._owner, minlength=len(kept)).astype(np.int32)

    def __len__(self) -> int:
        return len(self.keys)

    def to_arrays(self) -> dict[str, np.ndarray]:
        """The index as named arrays (keys as packed UTF-8), for :meth:`from_arrays`."""
        return {**pack_named("keys", self.keys), "codes": self._codes, "starts": self._starts,
                "owner": self._owner, "sizes": self._sizes}

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, np.ndarray]) -> NgramIndex:
        """The index :meth:`to_arrays` wrote."""
        ix = cls.__new__(cls)
        ix.keys = unpack_named(arrays, "keys")
        ix._codes, ix._starts = arrays["codes"], arrays["starts"]
        ix._owner, ix._sizes = arrays["owner"], arrays["sizes"]
        if len(ix._sizes) != len(ix.keys) or len(ix._starts) != len(ix._codes) + 1:
            raise ValueError("an n-gram index whose arrays do not fit together")
        return ix

    @classmethod
    def cached(cls, keys: Iterable[str]) -> NgramIndex:
        """The index of ``keys``, read from the start-up cache (:mod:`relx.array_cache`)
        when a process built it before."""
        from relx.array_cache import digest, load_or_build

        kept = [k for k in keys if len(k) >= MIN_KEY and k.isascii()]
        name = "ngrams-" + digest("\x00".join(kept))
        return load_or_build(name, lambda: cls(kept).to_arrays(), cls.from_arrays)

    def search(self, key: str, k: int = 10, min_dice: float = 0.5) -> list[tuple[str, float]]:
        """Up to ``k`` keys most like ``key`` (compact lower-case form) with their Dice
        scores, best first, those under ``min_dice`` left out; ``key`` itself included when
        it is a key."""
        if not key.isascii() or len(key) < 3 or not self.keys:
            return []
        q = _codes(key.encode("ascii"))
        at = np.minimum(np.searchsorted(self._codes, q), len(self._codes) - 1)
        at = at[self._codes[at] == q]
        if not at.size:
            return []
        hits = np.concatenate([self._owner[self._starts[i]:self._starts[i + 1]] for i in at])
        counts = np.bincount(hits, minlength=len(self.keys))
        # a key shares at least min_dice * (q.size + 1) / 2 3-grams to reach min_dice
        owners = np.flatnonzero(counts >= min_dice * (q.size + 1) / 2 - 1e-9)
        dice = 2.0 * counts[owners] / (q.size + self._sizes[owners])
        near = np.flatnonzero(dice >= min_dice)   # the same top k as sorting them all
        order = near[np.argsort(-dice[near], kind="stable")[:k]]
        return [(self.keys[owners[i]], round(float(dice[i]), 4)) for i in order]


#: keys whose postings are made together
_BLOCK = 16_384


def _postings(keys: list[str], first: int) -> np.ndarray:
    """The distinct ``3-gram << 20 | key number`` of each of ``keys`` (numbered from
    ``first``), sorted, int64."""
    joined = np.frombuffer("\x00".join(keys).encode("ascii"), dtype=np.uint8)
    a = joined.astype(np.int64)
    codes = (a[:-2] << 16) | (a[1:-1] << 8) | a[2:]
    owner = np.cumsum(joined == 0, dtype=np.int32)[:-2] + first
    ok = (joined[:-2] != 0) & (joined[1:-1] != 0) & (joined[2:] != 0)
    return np.unique((codes[ok] << 20) | owner[ok].astype(np.int64))
