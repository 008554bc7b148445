"""Ligand and receptor genes, read off their names (gene relations round 7,
docs/relations.md): a receptor's NCBI full name is its ligand's name followed by
*receptor* (``interleukin 6 receptor`` / ``interleukin 6``), or a ligand's is its
receptor's followed by *ligand* (``CD40 ligand`` / ``CD40``; round 7c), and chemokines are
named as pairs of classes (``CCL2`` / ``CCR2``). BioRED types such a pair ``Bind``.

Table file (``relx/data/ligand_receptor.tsv.gz``, built by
:mod:`lab.relations.ligand_receptor` from NCBI Gene ``gene_info``, human and mouse): gzip
TSV, ``#`` comments, header ``ligand receptor``, one row per pair of bare NCBI Gene ids.
"""

from __future__ import annotations

import gzip
import re
import threading
from collections.abc import Iterable, Iterator
from importlib import resources
from pathlib import Path

from relx.errors import ConfigError

__all__ = ["LigandReceptors", "default_ligand_receptors", "named_pairs"]

TABLE = "ligand_receptor.tsv.gz"
_HEADER = "ligand\treceptor"
#: a name's words: lower case, split at spaces, hyphens, slashes and commas
_SPLIT = re.compile(r"[\s,/-]+")
#: words after "receptor" that make another thing of a receptor's name
_NOT_A_RECEPTOR = frozenset({"associated", "accessory", "interacting", "like", "binding",
                             "activity", "regulator", "antagonist", "adaptor", "adapter",
                             "kinase", "modulator", "chaperone", "protein", "pseudogene",
                             "homolog", "domain", "containing", "substrate", "pathway"})
#: a member's number, letter or Greek letter after a ligand's name (``... beta 1``)
_MEMBER = re.compile(r"\d+[a-z]?|[a-z]|alpha|beta|gamma|delta")
#: chemokine ligands and receptors by class (``CCL2`` / ``CCR2``, ``CX3CL1`` / ``CX3CR1``)
_CHEMOKINE = re.compile(r"^(CC|CXC|CX3C|XC)(L|R)\d+$", re.IGNORECASE)


def _words(name: str) -> tuple[str, ...]:
    return tuple(w for w in _SPLIT.split(name.lower()) if w)


def named_pairs(genes: Iterable[tuple[str, str, str]]) -> Iterator[tuple[str, str]]:
    """``(ligand, receptor)`` id pairs among ``genes`` (``(id, symbol, full name)`` of one
    species' protein-coding genes): the ligand's full name is, word for word, the
    receptor's full name before its *receptor* (a receptor: not ``receptor associated``,
    ``receptor antagonist``... :data:`_NOT_A_RECEPTOR`), maybe followed by a member's
    number or letter (:data:`_MEMBER`); a ligand named after its receptor, the receptor's
    full name or symbol then *ligand* (``CD40 ligand``, ``Fas ligand``; round 7c); or a
    chemokine ligand and a receptor of its class."""
    genes = list(genes)
    by_words: dict[tuple[str, ...], list[str]] = {}
    for i, _, n in genes:
        w = _words(n)
        if "receptor" not in w:
            by_words.setdefault(w, []).append(i)
            if len(w) > 1 and _MEMBER.fullmatch(w[-1]):
                by_words.setdefault(w[:-1] + ("*",), []).append(i)
    for rid, _, name in genes:
        w = _words(name)
        if "receptor" not in w:
            continue
        k = w.index("receptor")
        if k == 0 or (k + 1 < len(w) and w[k + 1] in _NOT_A_RECEPTOR):
            continue
        for lid in dict.fromkeys([*by_words.get(w[:k], ()), *by_words.get(w[:k] + ("*",), ())]):
            if lid != rid:
                yield lid, rid
    by_name: dict[tuple[str, ...], list[str]] = {}   # round 7c: "CD40 ligand" / CD40
    for i, symbol, n in genes:
        for w in {_words(n), (symbol.lower(),)}:
            by_name.setdefault(w, []).append(i)
    for lid, _, name in genes:
        w = _words(name)
        if "ligand" not in w:
            continue
        k = w.index("ligand")
        if k == 0 or w[k + 1:] and not (len(w) == k + 2 and _MEMBER.fullmatch(w[-1])):
            continue
        for rid in dict.fromkeys(by_name.get(w[:k], ())):
            if rid != lid:
                yield lid, rid
    by_class: dict[str, tuple[list[str], list[str]]] = {}
    for i, symbol, _ in genes:
        m = _CHEMOKINE.match(symbol)
        if m:
            lig, rec = by_class.setdefault(m.group(1).upper(), ([], []))
            (lig if m.group(2).upper() == "L" else rec).append(i)
    for lig, rec in by_class.values():
        yield from ((a, b) for a in lig for b in rec)


class LigandReceptors:
    """The ligand-receptor table (the shipped one by default), loaded on first use."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self._lock = threading.Lock()
        self._pairs: frozenset[frozenset[str]] | None = None

    def _load(self) -> frozenset[frozenset[str]]:
        if self._pairs is not None:
            return self._pairs
        with self._lock:
            if self._pairs is None:
                f = self.path or resources.files("relx").joinpath(f"data/{TABLE}")
                with f.open("rb") as raw, gzip.open(raw, "rt", encoding="utf-8") as fh:
                    rows = [line.rstrip("\n") for line in fh if not line.startswith("#")]
                if not rows or rows[0] != _HEADER:
                    raise ConfigError(f"not a ligand-receptor table: {f}")
                self._pairs = frozenset(frozenset(r.split("\t")) for r in rows[1:] if r)
        return self._pairs

    def __contains__(self, pair: tuple[str, str]) -> bool:
        """Whether the two bare NCBI Gene ids are a ligand and its receptor."""
        return frozenset(pair) in self._load()

    def __len__(self) -> int:
        return len(self._load())


_DEFAULT: LigandReceptors | None = None


def default_ligand_receptors() -> LigandReceptors:
    """The shipped table, one per process."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = LigandReceptors()
    return _DEFAULT
