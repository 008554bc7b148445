"""Human <-> mouse/rat gene orthologs, from the HGNC table's MGI and RGD columns.

Ids stay namespaced: ``HGNC:6001`` <-> ``MGI:96548`` (mouse) and ``RGD:620047`` (rat).
``map_ids(ids, "human")`` is what an ``--orthologs human`` option needs: each mouse/rat id
replaced by its human ortholog(s), other ids kept.

Table file (``relx/data/orthologs.tsv.gz``, :func:`lab.lexicon_build.build_orthologs`):
gzip TSV, ``#`` comments, header ``hgnc mgi rgd``, one row per human gene with local ids,
several joined by ``,``.
"""

from __future__ import annotations

import gzip
import threading
from collections.abc import Iterable
from importlib import resources
from pathlib import Path

from relx.errors import ConfigError
from relx.genes.species import HUMAN, MOUSE, RAT

__all__ = ["Orthologs", "default_orthologs", "map_ids", "to_human"]

_NS = {HUMAN: "HGNC", MOUSE: "MGI", RAT: "RGD"}
_TARGETS = {"human": HUMAN, "mouse": MOUSE, "rat": RAT, "9606": HUMAN, "10090": MOUSE,
            "10116": RAT, HUMAN.lower(): HUMAN, MOUSE.lower(): MOUSE, RAT.lower(): RAT}


def _target(taxon: str) -> str:
    t = _TARGETS.get(str(taxon).strip().lower())
    if t is None:
        raise ConfigError(f"no orthologs for {taxon!r} (human, mouse or rat)")
    return t


class Orthologs:
    """The ortholog table (the shipped one by default), loaded on first use."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self._lock = threading.Lock()
        self._from_human: dict[str, dict[str, tuple[str, ...]]] | None = None
        self._to_human: dict[str, tuple[str, ...]] = {}

    def _load(self) -> dict[str, dict[str, tuple[str, ...]]]:
        if self._from_human is not None:   # every lookup comes here: no lock, no paused_gc
            return self._from_human
        from relx.heap import paused_gc  # tens of thousands of long-lived objects

        with self._lock, paused_gc():
            if self._from_human is None:
                if self.path is not None:
                    data = self.path.read_bytes()
                else:
                    data = resources.files("relx").joinpath("data/orthologs.tsv.gz").read_bytes()
                lines = [ln for ln in gzip.decompress(data).decode("utf-8").splitlines()
                         if ln and not ln.startswith("#")]
                if lines[:1] != ["hgnc\tmgi\trgd"]:
                    raise ConfigError(f"not a relx ortholog table: {lines[:1]}")
                from_human: dict[str, dict[str, tuple[str, ...]]] = {MOUSE: {}, RAT: {}}
                to_human: dict[str, list[str]] = {}
                for line in lines[1:]:
                    hgnc, *cols = line.split("\t")
                    human = f"HGNC:{hgnc}"
                    for taxon, col in zip((MOUSE, RAT), cols, strict=True):
                        ids = tuple(f"{_NS[taxon]}:{i}" for i in col.split(",") if i)
                        if ids:
                            from_human[taxon][human] = ids
                        for i in ids:
                            to_human.setdefault(i, []).append(human)
                self._to_human = {k: tuple(v) for k, v in to_human.items()}
                self._from_human = from_human
            return self._from_human

    def from_human(self, hgnc_id: str, taxon: str) -> tuple[str, ...]:
        """The mouse/rat orthologs of a human gene (``taxon`` ``mouse``/``rat`` or an
        ``NCBITaxon`` id); empty when none or for other species."""
        t = _TARGETS.get(str(taxon).strip().lower())
        if t not in (MOUSE, RAT):
            return ()
        return self._load()[t].get(hgnc_id, ())

    def to_human(self, cid: str) -> tuple[str, ...]:
        """The human orthologs of a mouse (``MGI:``) or rat (``RGD:``) gene id."""
        self._load()
        return self._to_human.get(cid, ())

    def map_id(self, cid: str, taxon: str) -> tuple[str, ...]:
        """``cid`` in species ``taxon``: itself when already there or not a gene id of
        HGNC/MGI/RGD (``FPLX:ERK``), else its orthologs there (through human), else ()."""
        t = _target(taxon)
        ns = cid.partition(":")[0]
        if ns not in ("HGNC", "MGI", "RGD") or ns == _NS[t]:
            return (cid,)
        human = (cid,) if ns == "HGNC" else self.to_human(cid)
        if t == HUMAN:
            return human
        return tuple(dict.fromkeys(o for h in human for o in self.from_human(h, t)))

    def map_ids(self, ids: Iterable[str], taxon: str = "human") -> list[str]:
        """Ids mapped to species ``taxon``, order kept, repeats dropped; a gene id without an
        ortholog there is kept as it is (so nothing is lost)."""
        out: list[str] = []
        for cid in ids:
            out.extend(self.map_id(cid, taxon) or (cid,))
        return list(dict.fromkeys(out))


_default: Orthologs | None = None


def default_orthologs() -> Orthologs:
    """The process-wide ortholog table shipped with relx."""
    global _default
    if _default is None:
        _default = Orthologs()
    return _default


def to_human(cid: str) -> tuple[str, ...]:
    """Human orthologs of a mouse/rat id from the shipped table."""
    return default_orthologs().to_human(cid)


def map_ids(ids: Iterable[str], taxon: str = "human") -> list[str]:
    """``Orthologs.map_ids`` with the shipped table."""
    return default_orthologs().map_ids(ids, taxon)
