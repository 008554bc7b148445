"""FamPlex's part of relx's lexicon (:mod:`lab.lexicon_build`): entity names and the
grounding map's texts as lexicon entries, and the entity names FamPlex's own map sends to
one gene (naming round 93, docs/genes.md)."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path


def qualify(ns: str, local: str) -> str:
    """A namespaced id (``GO`` + ``GO:0042769`` -> ``GO:0042769``, ``UP`` + ``P01375`` ->
    ``UP:P01375``)."""
    return local if local.upper().startswith(ns.upper() + ":") else f"{ns}:{local}"


def famplex_gene_named(folder: Path) -> frozenset[str]:
    """FamPlex entity names that FamPlex's own ``grounding_map.csv`` sends, as written, to a
    gene (``UP`` or ``HGNC``) and to no family: ``TNF`` (the cytokine, not the TNF family),
    ``SRC``, ``PARP`` (PARP1). Their entity-name key is left out of the lexicon (naming
    round 93); a map entry that is no gene (``DDR``: a GO process) keeps the family name."""
    entities_csv, gmap = folder / "entities.csv", folder / "grounding_map.csv"
    if not (entities_csv.exists() and gmap.exists()):
        return frozenset()
    with entities_csv.open(encoding="utf-8", newline="") as fh:
        names = {row[0].strip() for row in csv.reader(fh) if row and row[0].strip()}
    namespaces: dict[str, set[str]] = {}
    with gmap.open(encoding="utf-8", newline="") as fh:
        for row in csv.reader(fh):
            if row and row[0].strip() in names:
                namespaces.setdefault(row[0].strip(), set()).update(
                    row[i].strip() for i in range(1, len(row) - 1, 2)
                    if row[i].strip() and row[i + 1].strip())
    return frozenset(n for n, ns in namespaces.items()
                     if ns & {"UP", "HGNC"} and "FPLX" not in ns)


def famplex_entries(
    folder: Path, by_symbol: dict[str, str], by_previous: dict[str, str],
    by_uniprot: dict[str, str], symbols: dict[str, str]
) -> Iterator[tuple[str, str, str]]:
    """(text, id, source) from FamPlex entity names and the grounding map.

    Grounding-map rows take their HGNC (``by_symbol``, then ``by_previous``: symbol -> HGNC
    id), FPLX or UniProt (``by_uniprot``: accession -> HGNC id) grounding in that order of
    preference, else the first one given. ``symbols`` is filled with display symbols of ids
    outside HGNC. Entity names in :func:`famplex_gene_named` are left out.
    """
    gene_named = famplex_gene_named(folder)
    entities_csv = folder / "entities.csv"
    if entities_csv.exists():
        with entities_csv.open(encoding="utf-8", newline="") as fh:
            for row in csv.reader(fh):
                if row and row[0].strip():
                    name = row[0].strip()
                    symbols[f"FPLX:{name}"] = name
                    if name not in gene_named:
                        yield name, f"FPLX:{name}", "famplex"
    gmap = folder / "grounding_map.csv"
    if not gmap.exists():
        return
    with gmap.open(encoding="utf-8", newline="") as fh:
        for row in csv.reader(fh):
            if not row or not row[0].strip():
                continue
            text = row[0].strip()
            pairs = [
                (row[i].strip(), row[i + 1].strip())
                for i in range(1, len(row) - 1, 2)
                if row[i].strip() and row[i + 1].strip()
            ]
            cid = None
            for ns, local in pairs:
                if ns == "HGNC":
                    cid = by_symbol.get(local) or by_previous.get(local)
                    if cid is None and local.isdigit():
                        cid = f"HGNC:{local}"
                elif ns == "FPLX":
                    cid = f"FPLX:{local}"
                    symbols.setdefault(cid, local)
                if cid:
                    break
            if cid is None:
                for ns, local in pairs:
                    if ns == "UP":
                        cid = by_uniprot.get(local.split("-")[0])
                        if cid:
                            break
            if cid is None and pairs:
                ns, local = pairs[0]
                cid = qualify(ns, local)
                symbols.setdefault(cid, text)
            if cid:
                yield text, cid, "famplex"
