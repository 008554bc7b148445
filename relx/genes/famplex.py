"""FamPlex families and complexes and their members (``isa`` / ``partof`` edges).

Table file (``relx/data/famplex_relations.tsv.gz``, built by
:func:`lab.lexicon_build.build_famplex_relations`): gzip TSV, ``#`` comments, header
``child relation parent``, namespaced ids (``HGNC:6871  isa  FPLX:ERK``).
"""

from __future__ import annotations

import gzip
import threading
from collections.abc import Iterable
from importlib import resources
from pathlib import Path

from relx.errors import ConfigError

__all__ = ["FamPlex", "default_famplex"]


class FamPlex:
    """FamPlex relations (the shipped table by default), loaded on first use."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self._lock = threading.Lock()
        self._up: dict[str, list[tuple[str, str]]] | None = None
        self._down: dict[str, list[tuple[str, str]]] = {}
        self._by_members: dict[frozenset[str], str] = {}

    def _load(self) -> dict[str, list[tuple[str, str]]]:
        if self._up is not None:   # every lookup comes here: no lock, no paused_gc
            return self._up
        from relx.heap import paused_gc  # tens of thousands of long-lived objects

        with self._lock, paused_gc():
            if self._up is None:
                if self.path is not None:
                    data = self.path.read_bytes()
                else:
                    data = resources.files("relx").joinpath(
                        "data/famplex_relations.tsv.gz").read_bytes()
                lines = [ln for ln in gzip.decompress(data).decode("utf-8").splitlines()
                         if ln and not ln.startswith("#")]
                if lines[:1] != ["child\trelation\tparent"]:
                    raise ConfigError(f"not a relx FamPlex table: {lines[:1]}")
                up: dict[str, list[tuple[str, str]]] = {}
                down: dict[str, list[tuple[str, str]]] = {}
                for line in lines[1:]:
                    child, rel, parent = line.split("\t")
                    up.setdefault(child, []).append((parent, rel))
                    down.setdefault(parent, []).append((child, rel))
                by_members: dict[frozenset[str], str] = {}
                for parent in sorted(down):
                    kids = frozenset(c for c, r in down[parent] if r == "isa")
                    if len(kids) >= 2 and all(k.startswith("HGNC:") for k in kids):
                        by_members.setdefault(kids, parent)
                self._down, self._by_members = down, by_members
                self._up = up
            return self._up

    def parents(self, cid: str, relation: str | None = None) -> set[str]:
        """Every family/complex above ``cid`` (transitively), through ``relation`` edges
        (``isa``, ``partof``; None: both)."""
        up = self._load()
        out: set[str] = set()
        todo = [cid]
        while todo:
            for parent, rel in up.get(todo.pop(), ()):
                if (relation is None or rel == relation) and parent not in out:
                    out.add(parent)
                    todo.append(parent)
        return out

    def members(self, fplx_id: str, relation: str | None = None) -> set[str]:
        """Every member below a family/complex (transitively), sub-families included."""
        self._load()
        out: set[str] = set()
        todo = [fplx_id]
        while todo:
            for child, rel in self._down.get(todo.pop(), ()):
                if (relation is None or rel == relation) and child not in out:
                    out.add(child)
                    todo.append(child)
        return out

    def family_of(self, ids: Iterable[str]) -> str | None:
        """The FamPlex family whose direct ``isa`` members are exactly these HGNC genes
        (``{MAPK1, MAPK3}`` -> ``FPLX:ERK``), else None."""
        self._load()
        return self._by_members.get(frozenset(ids))


_default: FamPlex | None = None


def default_famplex() -> FamPlex:
    """The process-wide FamPlex table shipped with relx."""
    global _default
    if _default is None:
        _default = FamPlex()
    return _default
