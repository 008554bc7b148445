"""Gene names as annotators grounded them: a dictionary learned from an annotated corpus.

A curated corpus says which gene each mention of a name means. :class:`AnnotatedNames` keeps,
per name (its lexicon key, :func:`relx.genes.lexicon.normalize_key`), the genes annotators
gave it and in how many documents, and names a mention in its species: each gene is stored
as its human HGNC id when it has one (a mouse or rat gene through its human ortholog), else
as its own MGI / RGD id, and is taken to the mention's species through the ortholog table,
so that a name learned in a mouse paper names the rat gene in a rat paper. The top gene is
given when the name was seen in at least ``min_docs`` documents and the gene holds at least
``min_share`` of them; with ``override_share``, a name's top gene also replaces a lexicon's
different best id when it holds that share.

Table file (``relx/data/annotated_names.tsv.gz``, :mod:`lab.genes.annotated_names`, from
BioRED train's fit split, docs/genes.md round 10): gzip TSV, ``#`` comments, one
``# settings {json}`` line (the settings above), header ``key gene docs name_docs``, one row
per (name, gene): the documents annotating the name with the gene, and with any gene.
"""

from __future__ import annotations

import gzip
import json
import threading
from collections.abc import Iterable, Mapping
from importlib import resources
from pathlib import Path

from relx.errors import ConfigError
from relx.genes.lexicon import normalize_key
from relx.genes.orthologs import Orthologs, default_orthologs
from relx.genes.species import HUMAN, MOUSE, RAT

__all__ = ["AnnotatedNames", "Entry", "default_annotated_names", "entries_from", "write_table"]

HEADER = "key\tgene\tdocs\tname_docs"
_SPECIES = (HUMAN, MOUSE, RAT)

#: name key -> (documents annotating the name, ((gene, documents), ...) most first)
Entry = tuple[int, tuple[tuple[str, int], ...]]


class AnnotatedNames:
    """The dictionary of annotated names (the shipped one by default, its settings from the
    file; ``entries`` instead of a file: an in-memory dictionary, as cross-validation
    builds), loaded on first use."""

    def __init__(self, path: Path | str | None = None, *,
                 entries: Mapping[str, Entry] | None = None, min_docs: int | None = None,
                 min_share: float | None = None, override_share: float | None = None,
                 orthologs: Orthologs | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self._given = {"min_docs": min_docs, "min_share": min_share,
                       "override_share": override_share}
        self._entries: dict[str, Entry] | None = dict(entries) if entries is not None else None
        self._settings: dict[str, object] = {"min_docs": 1, "min_share": 0.5,
                                             "override_share": None}
        self._ready = False
        self._orthologs = orthologs
        self._lock = threading.Lock()

    def _load(self) -> dict[str, Entry]:
        """The entries, the file's settings and then the given ones in force (once)."""
        if not self._ready:
            with self._lock:
                if not self._ready:
                    if self._entries is None:
                        data = (self.path.read_bytes() if self.path is not None else
                                resources.files("relx").joinpath(
                                    "data/annotated_names.tsv.gz").read_bytes())
                        self._entries, settings = _parse(gzip.decompress(data).decode("utf-8"))
                        self._settings.update(settings)
                    self._settings.update({k: v for k, v in self._given.items()
                                           if v is not None})
                    self._ready = True
        return self._entries   # type: ignore[return-value]

    @property
    def settings(self) -> dict[str, object]:
        """``min_docs``, ``min_share`` and ``override_share`` in force."""
        self._load()
        return dict(self._settings)

    def genes(self, text: str, taxon: str | None) -> tuple[int, list[tuple[str, int]]]:
        """The documents naming ``text`` and its genes in species ``taxon`` (human, mouse or
        rat; else none) with their documents, most first; a gene with no single ortholog
        there is left out."""
        entry = self._load().get(normalize_key(text))
        if entry is None or taxon not in _SPECIES:
            return 0, []
        orth = self._orthologs or default_orthologs()
        counts: dict[str, int] = {}
        for gene, docs in entry[1]:
            there = orth.map_id(gene, taxon)
            if len(there) == 1:
                counts[there[0]] = counts.get(there[0], 0) + docs
        return entry[0], sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))

    def best(self, text: str, taxon: str | None, share: float | None = None
             ) -> tuple[str, float] | None:
        """The top gene of ``text`` in ``taxon`` and its share of the name's documents, when
        the name was seen in ``min_docs`` documents and the share is at least ``share``
        (default ``min_share``); else None."""
        self._load()
        n, genes = self.genes(text, taxon)
        need = self._settings["min_share"] if share is None else share
        if not genes or n < int(self._settings["min_docs"]):   # type: ignore[call-overload]
            return None
        top, docs = genes[0]
        ratio = docs / n
        return (top, round(ratio, 3)) if ratio >= float(need) else None  # type: ignore[arg-type]

    def override(self, text: str, taxon: str | None) -> tuple[str, float] | None:
        """The gene that replaces a lexicon's best id for ``text`` (``override_share``), or
        None (no override setting, or the name is not sure enough)."""
        share = self.settings["override_share"]
        return None if share is None else self.best(text, taxon, float(share))  # type: ignore[arg-type]


def _parse(text: str) -> tuple[dict[str, Entry], dict[str, object]]:
    settings: dict[str, object] = {}
    rows: dict[str, list[tuple[str, int]]] = {}
    totals: dict[str, int] = {}
    header = None
    for line in text.splitlines():
        if line.startswith("# settings "):
            settings = json.loads(line[len("# settings "):])
            continue
        if not line or line.startswith("#"):
            continue
        if header is None:
            header = line
            if header != HEADER:
                raise ConfigError(f"not a relx annotated-names table: {header!r}")
            continue
        key, gene, docs, name_docs = line.split("\t")
        rows.setdefault(key, []).append((gene, int(docs)))
        totals[key] = int(name_docs)
    entries = {k: (totals[k], tuple(sorted(v, key=lambda kv: (-kv[1], kv[0]))))
               for k, v in rows.items()}
    return entries, settings


def write_table(path: str | Path, entries: Mapping[str, Entry], settings: dict[str, object],
                source: str) -> Path:
    """Write ``entries`` and their ``settings`` as a table file (sorted, reproducible)."""
    lines = [f"# relx-annotated-names/1 {source}",
             "# settings " + json.dumps(settings, sort_keys=True), HEADER]
    for key in sorted(entries):
        n, genes = entries[key]
        lines.extend(f"{key}\t{gene}\t{docs}\t{n}" for gene, docs in genes)
    path = Path(path)
    path.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode("utf-8"), mtime=0))
    return path


def entries_from(names: Iterable[tuple[str, str, str]]) -> dict[str, Entry]:
    """``(document, name, gene)`` triples -> entries: per name key, the documents naming it
    with each gene, and with any."""
    by_gene: dict[str, dict[str, set[str]]] = {}
    by_name: dict[str, set[str]] = {}
    for doc, name, gene in names:
        key = normalize_key(name)
        if not key:
            continue
        by_gene.setdefault(key, {}).setdefault(gene, set()).add(doc)
        by_name.setdefault(key, set()).add(doc)
    return {k: (len(by_name[k]), tuple(sorted(((g, len(d)) for g, d in genes.items()),
                                              key=lambda kv: (-kv[1], kv[0]))))
            for k, genes in by_gene.items()}


_default: AnnotatedNames | None = None


def default_annotated_names() -> AnnotatedNames:
    """The process-wide dictionary shipped with relx."""
    global _default
    if _default is None:
        _default = AnnotatedNames()
    return _default
