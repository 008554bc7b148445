"""Grounding of protein/gene mentions to HGNC genes and FamPlex families/complexes.

``build_lexicon`` derives the compact lexicon relx ships (``relx/data/lexicon.tsv.gz``) from
the HGNC table and the FamPlex files; ``Grounder`` looks mentions up in it and
``ground_entities`` fills ``Entity.norm_ids`` of a document (abbreviation-aware).

Lexicon file: gzip TSV, ``#`` comment lines, then a column header and one row per
(key, id, form): ``key`` the normalised lookup key (see ``normalize_key``), ``id`` the
candidate id (``HGNC:6001``, ``FPLX:ERK``, or another namespace the FamPlex grounding map
uses, e.g. ``CHEBI:...``), ``symbol`` the id's display symbol, ``source`` the kind of entry
(``symbol``/``alias``/``previous``/``name``/``famplex``) and ``form`` the entry's
case-preserving compact form, left empty when it equals the key.

Rebuild: ``python -m relx.ground build --shared ../shared --out relx/data/lexicon.tsv.gz``.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import io
import json
import re
import sys
import threading
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from relx.errors import ConfigError
from relx.ids import CHEMICAL_NAMESPACES, is_protein_type, namespace_of, namespaced_ids
from relx.io.atomic import atomic_open

if TYPE_CHECKING:  # kept out of the import path: grounding loads fast without them
    from relx.doc import Document, Entity

__all__ = [
    "GroundingCandidate",
    "Grounder",
    "build_lexicon",
    "compact_form",
    "default_grounder",
    "ground",
    "ground_entities",
    "normalize_key",
]

LEXICON_FORMAT = "relx-lexicon/1"
COLUMNS = ("key", "id", "symbol", "source", "form")

#: HGNC locus types kept: the ones whose products can be proteins.
PROTEIN_LOCUS_TYPES = frozenset(
    {
        "gene with protein product",
        "immunoglobulin gene",
        "T cell receptor gene",
        "readthrough",
        "complex locus constituent",
        "unknown",
    }
)

#: Source kinds, best first (ties in score are broken in this order).
SOURCES = ("symbol", "famplex", "name", "previous", "alias")
_SOURCE_RANK = {s: i for i, s in enumerate(SOURCES)}
#: Prior reliability of a match through each kind of entry.
SOURCE_WEIGHT = {"famplex": 1.0, "symbol": 1.0, "name": 0.95, "previous": 0.8, "alias": 0.75}
#: Multiplier when the match ignores case (exact-case matches score 1.0).
CASE_FACTOR = 0.9
#: Multiplier for matches found only through a variant (suffix/plural stripping, α -> a).
VARIANT_FACTOR = 0.85

# --- normalisation ----------------------------------------------------------------------

_GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ϵ": "epsilon",
    "ζ": "zeta", "η": "eta", "θ": "theta", "ι": "iota", "κ": "kappa", "ϰ": "kappa",
    "λ": "lambda", "μ": "mu", "ν": "nu", "ξ": "xi", "ο": "omicron", "π": "pi", "ρ": "rho",
    "σ": "sigma", "ς": "sigma", "τ": "tau", "υ": "upsilon", "φ": "phi", "ϕ": "phi",
    "χ": "chi", "ψ": "psi", "ω": "omega",
}  # fmt: skip
_GREEK_TABLE = {ord(k): v for k, v in _GREEK.items()}
_GREEK_TABLE.update({ord(k.upper()): v for k, v in _GREEK.items() if k.upper() != k})
_GREEK_TABLE[ord("ß")] = "beta"  # German sharp s, a frequent stand-in for beta in abstracts
_NON_ALNUM = re.compile(r"[\W_]+")
_GREEK_WORD = re.compile(r"(alpha|beta|gamma|delta|epsilon|kappa)", re.IGNORECASE)
_SUFFIX = re.compile(r"(proteins?|genes?|mrnas?)$", re.IGNORECASE)


def compact_form(text: str) -> str:
    """Case-preserving compact form: NFKC, Greek letters spelled out, separators removed.

    ``IL-2``, ``IL 2`` and ``IL/2`` all give ``IL2``; ``NF-κB`` gives ``NFkappaB``.
    """
    text = unicodedata.normalize("NFKC", text).translate(_GREEK_TABLE)
    return _NON_ALNUM.sub("", text)


def normalize_key(text: str) -> str:
    """The lexicon's lookup key: the compact form, lower-cased."""
    return compact_form(text).lower()


def _variants(form: str) -> set[str]:
    """Fallback forms of a compact form: without a protein/gene suffix, de-pluralised,
    with spelled-out Greek letters abbreviated (``TNFalpha`` -> ``TNFa``); combinations too."""
    out: set[str] = set()
    todo = [form]
    while todo:
        f = todo.pop()
        nxt = []
        m = _SUFFIX.search(f)
        if m and m.start() >= 2:
            nxt.append(f[: m.start()])
        if len(f) >= 4 and f[-1] in "sS" and f[-2] not in "sS":
            nxt.append(f[:-1])
        short = _GREEK_WORD.sub(lambda m: m.group(0)[0], f)
        if short != f:
            nxt.append(short)
        for v in nxt:
            if v and v != form and v not in out:
                out.add(v)
                todo.append(v)
    return out


# --- candidates and the grounder ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GroundingCandidate:
    """One candidate grounding of a mention, ``score`` in (0, 1]."""

    id: str
    symbol: str
    source: str
    score: float


def _id_order(cid: str) -> tuple[int, int, str]:
    ns, _, local = cid.partition(":")
    ns_rank = {"HGNC": 0, "FPLX": 1}.get(ns, 2)
    return ns_rank, int(local) if local.isdigit() else 0, cid


def _rank(cands: Iterable[GroundingCandidate]) -> list[GroundingCandidate]:
    return sorted(cands, key=lambda c: (-c.score, _SOURCE_RANK[c.source], _id_order(c.id)))


_Row = tuple[str, str, str]  # (id, source, form)


class Grounder:
    """Looks mentions up in a lexicon file (the shipped one by default), loaded lazily."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self._index: dict[str, list[_Row]] | None = None
        self._symbols: dict[str, str] = {}
        self._lock = threading.Lock()
        self._cache: dict[str, list[GroundingCandidate]] = {}

    # loading
    def _read_text(self) -> str:
        if self.path is not None:
            data = self.path.read_bytes()
        else:
            data = resources.files("relx").joinpath("data/lexicon.tsv.gz").read_bytes()
        return gzip.decompress(data).decode("utf-8")

    def _load(self) -> dict[str, list[_Row]]:
        with self._lock:
            if self._index is None:
                index: dict[str, list[_Row]] = {}
                symbols: dict[str, str] = {}
                lines = iter(self._read_text().splitlines())
                for line in lines:
                    if not line.startswith("#"):
                        if tuple(line.split("\t")) != COLUMNS:
                            raise ConfigError(f"not a relx lexicon: header {line!r}")
                        break
                for line in lines:
                    key, cid, symbol, source, form = line.split("\t")
                    row = (cid, source, form or key)
                    rows = index.get(key)
                    if rows is None:
                        index[key] = [row]
                    else:
                        rows.append(row)
                    if cid not in symbols:
                        symbols[cid] = symbol
                self._symbols = symbols
                self._index = index
            return self._index

    @property
    def index(self) -> dict[str, list[_Row]]:
        """normalised key -> [(id, source, form)] (loads the lexicon on first use)."""
        return self._index if self._index is not None else self._load()

    def symbol(self, cid: str) -> str | None:
        """Display symbol of an id known to the lexicon."""
        _ = self.index
        return self._symbols.get(cid)

    def __len__(self) -> int:
        return len(self.index)

    # lookup
    def _match(self, form: str, factor: float, best: dict[str, GroundingCandidate]) -> None:
        for cid, source, row_form in self.index.get(form.lower(), ()):
            score = SOURCE_WEIGHT[source] * factor * (1.0 if row_form == form else CASE_FACTOR)
            old = best.get(cid)
            if old is None or (score, -_SOURCE_RANK[source]) > (
                old.score,
                -_SOURCE_RANK[old.source],
            ):
                best[cid] = GroundingCandidate(cid, self._symbols[cid], source, round(score, 4))

    def ground(self, text: str) -> list[GroundingCandidate]:
        """Ranked candidate groundings of a mention text (empty when nothing matches).

        The text's compact form is looked up first; exact-case matches score above
        case-insensitive ones. Only when that finds nothing are variants tried (trailing
        ``protein``/``gene``/``mRNA`` and plural ``s`` stripped, ``alpha`` -> ``a``).
        Ambiguous texts return every candidate, best first.
        """
        cached = self._cache.get(text)
        if cached is not None:
            return list(cached)
        form = compact_form(text)
        best: dict[str, GroundingCandidate] = {}
        if form:
            self._match(form, 1.0, best)
            if not best:
                for v in sorted(_variants(form)):
                    self._match(v, VARIANT_FACTOR, best)
        result = _rank(best.values())
        if len(self._cache) < 100_000:
            self._cache[text] = result
        return list(result)

    def ground_ids(self, text: str) -> list[str]:
        """Ranked candidate ids of a mention text."""
        return [c.id for c in self.ground(text)]

    def ground_entities(self, doc: Document, *, overwrite: bool = True,
                        keep_given: bool = False) -> Document:
        """A copy of ``doc`` with ``norm_ids`` (ranked candidate ids) on every entity.

        A mention equal to an abbreviation's short form defined in the document
        (``doc.abbreviations``) whose own grounding is empty or ambiguous takes the long
        form's grounding when that grounds. With ``overwrite=False`` entities that already
        carry ``norm_ids`` are kept as they are; with ``keep_given=True`` an entity's own ids
        (e.g. a PubTator or BioC input's gene ids), namespaced (:mod:`relx.ids`), come first
        and the lexicon's follow. A protein mention that came without ids and grounds only
        to small molecules (ChEBI, PubChem...: ``Nutlin-3``, mis-tagged by NER) is typed
        ``Chemical``, so it is not paired as a protein.
        """
        long_of: dict[str, str] = {}
        for ab in doc.abbreviations:
            long_of.setdefault(ab.short_text, ab.long_text)

        def update(e: Entity) -> dict[str, object]:
            found = self._entity_ids(_entity_text(doc, e), long_of)
            given = namespaced_ids(e.norm_ids, e.type) if keep_given else []
            out: dict[str, object] = {"norm_ids": list(dict.fromkeys([*given, *found]))}
            if not given and found and is_protein_type(e.type) and all(
                    namespace_of(i) in CHEMICAL_NAMESPACES for i in found):
                out["type"] = "Chemical"
            return out

        # copy only what changes (a deep copy of tokens and parses cost more than grounding)
        sentences = []
        for sent in doc.sentences:
            ents = [e if e.norm_ids and not overwrite else e.model_copy(update=update(e))
                    for e in sent.entities]
            sentences.append(sent.model_copy(update={"entities": ents}))
        return doc.model_copy(update={"sentences": sentences})

    def _entity_ids(self, text: str, long_of: dict[str, str]) -> list[str]:
        ids = self.ground_ids(text)
        long = long_of.get(text) or long_of.get(text.strip())
        if long is not None and len(ids) != 1:
            long_ids = self.ground_ids(long)
            if long_ids:
                return long_ids
        return ids


def _entity_text(doc: Document, ent: Entity) -> str:
    if ent.text:
        return ent.text
    return " ".join(doc.text[s.start : s.end] for s in ent.spans)


_default: Grounder | None = None


def default_grounder() -> Grounder:
    """The process-wide grounder over the shipped lexicon."""
    global _default
    if _default is None:
        _default = Grounder()
    return _default


def ground(text: str) -> list[GroundingCandidate]:
    """Ranked candidates for ``text`` from the shipped lexicon."""
    return default_grounder().ground(text)


def ground_entities(doc: Document, *, overwrite: bool = True, keep_given: bool = False
                    ) -> Document:
    """``Grounder.ground_entities`` with the shipped lexicon."""
    return default_grounder().ground_entities(doc, overwrite=overwrite, keep_given=keep_given)


# --- building the lexicon -------------------------------------------------------------


def _split_list(value: str | None) -> list[str]:
    return [v.strip() for v in (value or "").split(",") if v.strip()]


def _find_hgnc(shared: Path) -> Path:
    folder = shared / "lexicons" / "hgnc"
    files = sorted(folder.glob("*hgnc*.tsv.gz")) or sorted(folder.glob("*.tsv*"))
    if not files:
        raise FileNotFoundError(f"no HGNC table (*.tsv.gz) in {folder}")
    return files[-1]


def _read_hgnc(path: Path) -> list[dict[str, str]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8", newline="") as fh:
        return [r for r in csv.DictReader(fh, delimiter="\t") if r.get("Status") == "Approved"]


def _hgnc_entries(
    rows: list[dict[str, str]], locus_types: frozenset[str] | None
) -> Iterator[tuple[str, str, str]]:
    """(text, id, source) for the HGNC rows' symbols, names, previous symbols, aliases."""
    for r in rows:
        if locus_types is not None and r.get("Locus type") not in locus_types:
            continue
        cid = r["HGNC ID"]
        yield r["Approved symbol"], cid, "symbol"
        if r.get("Approved name"):
            yield r["Approved name"], cid, "name"
        for s in _split_list(r.get("Previous symbols")):
            yield s, cid, "previous"
        for s in _split_list(r.get("Alias symbols")):
            yield s, cid, "alias"


def _qualify(ns: str, local: str) -> str:
    return local if local.upper().startswith(ns.upper() + ":") else f"{ns}:{local}"


def _famplex_entries(
    folder: Path, hgnc_rows: list[dict[str, str]], symbols: dict[str, str]
) -> Iterator[tuple[str, str, str]]:
    """(text, id, source) from FamPlex entity names and the grounding map.

    Grounding-map rows take their HGNC, FPLX or UniProt (mapped to HGNC through the HGNC
    table) grounding in that order of preference, else the first one given. ``symbols`` is
    filled with display symbols of ids outside HGNC.
    """
    by_symbol: dict[str, str] = {}
    by_previous: dict[str, str] = {}
    by_uniprot: dict[str, str] = {}
    for r in hgnc_rows:
        by_symbol[r["Approved symbol"]] = r["HGNC ID"]
        for s in _split_list(r.get("Previous symbols")):
            by_previous.setdefault(s, r["HGNC ID"])
        for u in _split_list(r.get("UniProt ID(supplied by UniProt)")):
            by_uniprot.setdefault(u, r["HGNC ID"])
    entities_csv = folder / "entities.csv"
    if entities_csv.exists():
        with entities_csv.open(encoding="utf-8", newline="") as fh:
            for row in csv.reader(fh):
                if row and row[0].strip():
                    name = row[0].strip()
                    symbols[f"FPLX:{name}"] = name
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
                cid = _qualify(ns, local)
                symbols.setdefault(cid, text)
            if cid:
                yield text, cid, "famplex"


def _write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (see :func:`relx.io.atomic.atomic_open`)."""
    with atomic_open(path, "wb") as fh:
        fh.write(data)


def build_lexicon(
    shared: Path,
    out: Path,
    *,
    locus_types: frozenset[str] | None = PROTEIN_LOCUS_TYPES,
) -> dict:
    """Write the compact grounding lexicon to ``out`` and return its statistics.

    ``shared`` is the shared data folder holding ``lexicons/hgnc/*.tsv.gz`` (approved HGNC
    entries of ``locus_types`` are used; ``None`` keeps all) and ``lexicons/famplex/``.
    """
    shared, out = Path(shared), Path(out)
    hgnc_path = _find_hgnc(shared)
    hgnc_rows = _read_hgnc(hgnc_path)
    symbols: dict[str, str] = {r["HGNC ID"]: r["Approved symbol"] for r in hgnc_rows}
    entries = list(_hgnc_entries(hgnc_rows, locus_types))
    entries += list(_famplex_entries(shared / "lexicons" / "famplex", hgnc_rows, symbols))

    # one row per (key, id, form), keeping the best source
    best: dict[tuple[str, str, str], str] = {}
    for text, cid, source in entries:
        form = compact_form(text)
        if not form:
            continue
        k = (form.lower(), cid, form)
        old = best.get(k)
        if old is None or _SOURCE_RANK[source] < _SOURCE_RANK[old]:
            best[k] = source

    buf = io.StringIO()
    buf.write(f"# {LEXICON_FORMAT} grounding lexicon for relx.ground\n")
    buf.write(f"# sources: HGNC {hgnc_path.name}; FamPlex entities.csv, grounding_map.csv\n")
    buf.write("\t".join(COLUMNS) + "\n")
    for (key, cid, form), source in sorted(best.items(), key=lambda kv: kv[0]):
        buf.write(f"{key}\t{cid}\t{symbols[cid]}\t{source}\t{'' if form == key else form}\n")
    data = gzip.compress(buf.getvalue().encode("utf-8"), compresslevel=9, mtime=0)
    _write_atomic(out, data)

    by_source = Counter(best.values())
    ids = {cid for _, cid, _ in best}
    ids_per_key = Counter(key for key, _ in {(k, c) for k, c, _ in best})
    return {
        "path": str(out),
        "bytes": len(data),
        "rows": len(best),
        "keys": len({k for k, _, _ in best}),
        "ids": len(ids),
        "hgnc_ids": sum(1 for c in ids if c.startswith("HGNC:")),
        "famplex_ids": sum(1 for c in ids if c.startswith("FPLX:")),
        "other_ids": sum(1 for c in ids if not c.startswith(("HGNC:", "FPLX:"))),
        "ambiguous_keys": sum(1 for n in ids_per_key.values() if n > 1),
        "rows_by_source": dict(sorted(by_source.items())),
    }


def main(argv: list[str] | None = None) -> int:
    """``python -m relx.ground build|lookup``."""
    ap = argparse.ArgumentParser(prog="python -m relx.ground", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="derive the compact lexicon from HGNC + FamPlex")
    b.add_argument("--shared", type=Path, default=Path("../shared"))
    b.add_argument("--out", type=Path, default=Path("relx/data/lexicon.tsv.gz"))
    b.add_argument("--all-loci", action="store_true", help="keep non-protein HGNC loci too")
    q = sub.add_parser("lookup", help="ground mention texts")
    q.add_argument("texts", nargs="+")
    q.add_argument("--lexicon", type=Path, default=None)
    args = ap.parse_args(argv)
    if args.cmd == "build":
        stats = build_lexicon(
            args.shared, args.out, locus_types=None if args.all_loci else PROTEIN_LOCUS_TYPES
        )
        print(json.dumps(stats, indent=2))
    else:
        g = Grounder(args.lexicon)
        for t in args.texts:
            cands = [f"{c.id}({c.symbol},{c.source},{c.score})" for c in g.ground(t)]
            print(f"{t}\t{' '.join(cands) or '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
