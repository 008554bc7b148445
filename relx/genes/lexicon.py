"""Grounding of protein/gene mentions to HGNC (human), MGI (mouse) and RGD (rat) genes and
FamPlex families/complexes.

:func:`lab.lexicon_build.build_lexicon` derives the compact lexicon relx ships
(``relx/data/lexicon.tsv.gz``) from the HGNC, MGI, RGD tables and the FamPlex files; ``Grounder``
looks mentions up in it; :func:`relx.genes.document.ground_document` grounds each gene
mention of a document in its species (:mod:`relx.genes.species`) through it. (Those modules
import this one, not the other way round.)

Lexicon file: gzip TSV, ``#`` comment lines, then a column header and one row per
(key, id, form): ``key`` the normalised lookup key (see ``normalize_key``), ``id`` the
candidate id (``HGNC:6001``, ``MGI:96548``, ``RGD:620047``, ``FPLX:ERK``, or another
namespace the FamPlex grounding map uses, e.g. ``CHEBI:...``), ``symbol`` the id's display
symbol (on the id's first row only), ``source`` the kind of entry
(``symbol``/``alias``/``previous``/``name``/``famplex``, and NCBI Gene's ``ncbi_name``/
``ncbi_synonym``/``designation``: :data:`NCBI_SOURCES`), ``form`` the entry's
case-preserving compact form, and ``taxon`` the NCBI Taxonomy id of a gene's species
(``9606``, ``10090``, ``10116``; empty for families, complexes and chemicals). The key is
always the lower-cased form, so one of them is left empty: ``form`` when it equals the key,
else ``key``. Human and shared rows come first, then mouse, then rat rows. (The
``relx-lexicon/1`` format had no ``taxon`` column and always gave the key.)

Rebuild: ``make lexicon`` (``python -m lab.lexicon build --shared ../shared --out
relx/data/lexicon.tsv.gz``; also writes ``orthologs.tsv.gz`` and ``famplex_relations.tsv.gz``
beside it).
"""

from __future__ import annotations

import math
import os
import re
import threading
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from relx.errors import ConfigError
from relx.genes.lexicon_table import COLUMNS, LexiconFile, LexiconRows
from relx.ids import GENE_NAMESPACES, HUMAN, MOUSE, RAT, namespace_of

if TYPE_CHECKING:  # kept out of the import path: grounding loads fast without them
    from relx.doc import Document, Entity
    from relx.genes.orthologs import Orthologs

__all__ = [
    "CLASS_NOUN",
    "COLUMNS",
    "GREEK_TABLE",
    "HUMAN",
    "MOUSE",
    "NCBI_SOURCES",
    "RAT",
    "Grounder",
    "Grounding",
    "GroundingCandidate",
    "compact_form",
    "confidence",
    "default_grounder",
    "ground",
    "is_family_name",
    "normalize_key",
    "taxon_id",
]

LEXICON_FORMAT = "relx-lexicon/2"

#: (shared folder name, namespace, taxon) of the non-human gene lexicons
SPECIES_LEXICONS = (("mgi", "MGI", MOUSE), ("rgd", "RGD", RAT))
#: the gene namespace of each species with a lexicon
GENE_NAMESPACE = {HUMAN: "HGNC", MOUSE: "MGI", RAT: "RGD"}

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

#: Names from NCBI Gene ``gene_info`` (human and mouse genes with an HGNC/MGI id): the
#: nomenclature authority's full name, NCBI synonyms, other designations (protein names).
NCBI_SOURCES = ("ncbi_name", "ncbi_synonym", "designation")
#: Source kinds, best first (ties in score are broken in this order).
SOURCES = ("symbol", "famplex", "name", "previous", "alias", *NCBI_SOURCES)
_SOURCE_RANK = {s: i for i, s in enumerate(SOURCES)}
#: Prior reliability of a match through each kind of entry (NCBI's names at most an HGNC
#: alias's: they rank below the curated symbols and names).
SOURCE_WEIGHT = {"famplex": 1.0, "symbol": 1.0, "name": 0.95, "previous": 0.8, "alias": 0.75,
                 "ncbi_name": 0.75, "ncbi_synonym": 0.72, "designation": 0.7}
#: Multiplier when the match ignores case (exact-case matches score 1.0).
CASE_FACTOR = 0.9
#: Multiplier for matches found only through a variant (suffix/plural stripping, α -> a).
VARIANT_FACTOR = 0.85
#: Multiplier for a mouse/rat candidate found through the human entry of its ortholog.
ORTHOLOG_FACTOR = 0.9
#: Temperature of the confidence's share of the best candidate (see ``confidence``).
CONFIDENCE_T = 0.08

#: a class noun ending a mention (``the cysteine protease``, ``kinases``): a generic
#: class, not a gene name
CLASS_NOUN = re.compile(
    r"\b(?:proteases?|proteinases?|peptidases?|kinases?|phosphatases?|ligases?|GTPases?|"
    r"ATPases?|enzymes?|receptors?|cytokines?|chemokines?|hormones?|transcription factors?|"
    r"factors?|channels?|transporters?|proteins?|family|members?|isoforms?|subunits?|"
    r"molecules?|adaptors?|adapters?|regulators?|inhibitors?|activators?)$", re.IGNORECASE)

# --- normalisation ----------------------------------------------------------------------

_GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ϵ": "epsilon",
    "ζ": "zeta", "η": "eta", "θ": "theta", "ι": "iota", "κ": "kappa", "ϰ": "kappa",
    "λ": "lambda", "μ": "mu", "ν": "nu", "ξ": "xi", "ο": "omicron", "π": "pi", "ρ": "rho",
    "σ": "sigma", "ς": "sigma", "τ": "tau", "υ": "upsilon", "φ": "phi", "ϕ": "phi",
    "χ": "chi", "ψ": "psi", "ω": "omega",
}  # fmt: skip
#: ``str.translate`` table: each Greek letter (either case) -> its spelled-out name
GREEK_TABLE = {ord(k): v for k, v in _GREEK.items()}
GREEK_TABLE.update({ord(k.upper()): v for k, v in _GREEK.items() if k.upper() != k})
GREEK_TABLE[ord("ß")] = "beta"  # German sharp s, a frequent stand-in for beta in abstracts
_NON_ALNUM = re.compile(r"[\W_]+")
_GREEK_WORD = re.compile(r"(alpha|beta|gamma|delta|epsilon|kappa)", re.IGNORECASE)
_SUFFIX = re.compile(r"(proteins?|genes?|mrnas?)$", re.IGNORECASE)
_ISOFORM = re.compile(r"(?<=[0-9])[A-Za-z]$")   # an isoform letter: synphilin-1A, BPAG1e
#: a Greek letter written onto the end of a name, and a ``t`` after it (``CREMalpha``,
#: ``RORgammat``): an isoform of the name before it (round 51b)
_GREEK_ISOFORM = re.compile(r"(?<=[A-Za-z0-9]{3})(alpha|beta|gamma|delta|epsilon|kappa)(t?)$",
                            re.IGNORECASE)
_SUBUNIT_FIRST = re.compile(   # a subunit named before its family: beta4 integrin
    r"^((?:alpha|beta|gamma|delta|epsilon|[\u03b1-\u03b5])[0-9]*[a-z]?)[\s-]+([A-Za-z]{3,})$",
    re.IGNORECASE)
_RECEPTOR = re.compile(r"^(.+?)[\s-]+receptors?$", re.IGNORECASE)   # CB2 receptor


def compact_form(text: str) -> str:
    """Case-preserving compact form: NFKC, Greek letters spelled out, separators removed.

    ``IL-2``, ``IL 2`` and ``IL/2`` all give ``IL2``; ``NF-κB`` gives ``NFkappaB``.
    """
    text = unicodedata.normalize("NFKC", text).translate(GREEK_TABLE)
    return _NON_ALNUM.sub("", text)


def normalize_key(text: str) -> str:
    """The lexicon's lookup key: the compact form, lower-cased."""
    return compact_form(text).lower()


def _variants(form: str, text: str = "") -> set[str]:
    """Fallback forms of a compact form: without a protein/gene suffix, de-pluralised,
    without an isoform letter after a number (``BPAG1e`` -> ``BPAG1``), with spelled-out
    Greek letters abbreviated (``TNFalpha`` -> ``TNFa``); combinations too. From the mention
    ``text``: a subunit written before its family put after it (``beta4 integrin`` ->
    ``integrinbeta4``)."""
    out: set[str] = set()
    todo = [form]
    m = _SUBUNIT_FIRST.match(text.strip())
    if m:
        todo.append(compact_form(f"{m.group(2)} {m.group(1)}"))
        out.add(todo[-1])
    while todo:
        f = todo.pop()
        nxt = []
        m = _SUFFIX.search(f)
        if m and m.start() >= 2:
            nxt.append(f[: m.start()])
        if len(f) >= 4 and f[-1] in "sS" and f[-2] not in "sS":
            nxt.append(f[:-1])
        elif len(f) >= 4 and _ISOFORM.search(f):
            nxt.append(f[:-1])
        short = _GREEK_WORD.sub(lambda m: m.group(0)[0], f)
        if short != f:
            nxt.append(short)
        for v in nxt:
            if v and v != form and v not in out:
                out.add(v)
                todo.append(v)
    return out


def _isoform_fallback(form: str, match: Callable[..., None]) -> dict[str, GroundingCandidate]:
    """Candidates of a name written with a Greek isoform letter at its end, where nothing
    else grounds it (round 51b): the name without its ``t`` (``RORgammat`` -> ``RORgamma``),
    then without the letter (``CREMalpha`` -> ``CREM``), each with its variants; none when
    the best is no gene (a FamPlex family: ``PKAalpha`` is no PKA; a GO term)."""
    m = _GREEK_ISOFORM.search(form)
    if not m:
        return {}
    for base in ([form[:-1]] if m.group(2) else []) + [form[: m.start()]]:
        found: dict[str, GroundingCandidate] = {}
        for f in (base, *sorted(_variants(base))):
            match(f, VARIANT_FACTOR, found)
            if found:
                break
        if found:
            best = _rank(found.values())[0].id
            return found if namespace_of(best) in GENE_NAMESPACES else {}
    return {}


def _receptor_forms(text: str) -> list[str]:
    """``X receptor``: the compact forms ``XR`` and ``X`` (``AT1 receptor`` -> ``AT1R``,
    ``AT1``), to be kept only where they name a receptor; none for other texts."""
    m = _RECEPTOR.match(text.strip())
    base = compact_form(m.group(1)) if m else ""
    return [base + "R", base] if base else []


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
    ns_rank = {"HGNC": 0, "MGI": 0, "RGD": 0, "FPLX": 1}.get(ns, 2)
    return ns_rank, int(local) if local.isdigit() else 0, cid


#: immunoglobulin and T-cell receptor gene segments (``IGKV1-27``, ``Igkv1-117``): among
#: equal candidates, after the genes of a protein (``A20``: TNFAIP3 before IGKV1-27)
_GENE_SEGMENT = re.compile(r"^(?:IG[HKL]|TR[ABDG])[VDJC]\d", re.IGNORECASE)


def _rank(cands: Iterable[GroundingCandidate]) -> list[GroundingCandidate]:
    return sorted(cands, key=lambda c: (-c.score, _SOURCE_RANK[c.source],
                                        bool(_GENE_SEGMENT.match(c.symbol)), _id_order(c.id)))


def confidence(cands: list[GroundingCandidate]) -> float:
    """Confidence in [0, 1] that the first of ranked candidates is right: its score times
    its share of the candidates' weights ``exp((score - best) / CONFIDENCE_T)``, so a clear
    winner keeps its score, two equal candidates get half of it; 0 when there is none."""
    if not cands:
        return 0.0
    top = cands[0].score
    share = 1.0 / sum(math.exp((c.score - top) / CONFIDENCE_T) for c in cands)
    return round(min(1.0, top * share), 3)


@dataclass(frozen=True, slots=True)
class Grounding:
    """The grounding of one mention: ``ids`` ranked (best first; empty: not grounded),
    ``confidence`` of the best in [0, 1], the ``taxon`` it was grounded in and the ``route``
    that found it (``lexicon``, ``abbreviation``, ``affix``, ``coordination``, ``spelling``,
    ``bracket``, ``part``, ``class``, ``given``, ``none``); ``span``, the ``(start, end)`` of the mention text that was
    grounded when not all of it (``FGFR3`` of ``FGFR3 G380R mutation``)."""

    ids: tuple[str, ...]
    confidence: float
    taxon: str | None = None
    route: str = "lexicon"
    span: tuple[int, int] | None = None

    @property
    def grounded(self) -> bool:
        """True when some lexicon knows the mention."""
        return bool(self.ids)

    @property
    def best(self) -> str | None:
        """The best id, or None."""
        return self.ids[0] if self.ids else None


def taxon_id(taxon: str | int | None) -> str | None:
    """``NCBITaxon:<id>`` from ``10090``, ``"10090"``, ``"ncbitaxon:10090"`` (None stays)."""
    if taxon is None:
        return None
    t = str(taxon).strip()
    local = t.partition(":")[2] if ":" in t else t
    if not local.isdigit():
        raise ConfigError(f"not an NCBI Taxonomy id: {taxon!r}")
    return f"NCBITaxon:{local}"


_Row = tuple[str, str, str]  # (id, source, form)
_NO_ROWS: Mapping[str, list[_Row]] = MappingProxyType({})


class Grounder:
    """Looks mentions up in a lexicon file (the shipped one by default), loaded lazily.

    Human and shared (FamPlex, chemical) rows load on first use; mouse and rat rows only
    when a mention is first grounded in those species. ``orthologs`` (default: the shipped
    table, :mod:`relx.genes.orthologs`) maps human entries to mouse/rat genes.
    ``exclude_sources``: rows of these kinds are not loaded (e.g. :data:`NCBI_SOURCES`, to
    measure what NCBI Gene's names add).
    """

    def __init__(self, path: Path | str | None = None, *,
                 orthologs: Orthologs | None = None,
                 exclude_sources: Iterable[str] = ()) -> None:
        self.path = Path(path) if path is not None else None
        self.exclude_sources = frozenset(exclude_sources)
        unknown = self.exclude_sources - set(SOURCES)
        if unknown:
            raise ConfigError(f"unknown lexicon sources {sorted(unknown)} (known: {SOURCES})")
        self._index: LexiconRows | None = None
        self._lexicon_file: LexiconFile | None = None
        self._lexicon_name: str | None = None   # the file's start-up cache name, kept
        self._derived: dict[str, frozenset[str]] = {}   # derived_strings, by derivation
        self._symbols: dict[str, str] = {}
        self._lock = threading.Lock()
        self._cache: dict[str, list[GroundingCandidate]] = {}
        self._species: dict[str, LexiconRows] | None = None
        self._species_cache: dict[tuple[str, str], list[GroundingCandidate]] = {}
        self._orthologs = orthologs
        #: (word, taxon) -> ids whose name has the word (``receptor``, ``kinase``)
        self._named: dict[tuple[str, str], frozenset[str]] = {}

    # loading
    def _file(self) -> LexiconFile:
        if self._lexicon_file is None:
            if self.path is not None:
                data = self.path.read_bytes()
            else:
                data = resources.files("relx").joinpath("data/lexicon.tsv.gz").read_bytes()
            self._lexicon_file = LexiconFile(data, SOURCES, self.exclude_sources)
            self._lexicon_name = self._lexicon_file.name
        return self._lexicon_file

    def derived_strings(self, what: str, build: Callable[[], Iterable[str]]
                        ) -> frozenset[str]:
        """Strings derived from this grounder's lexicon alone by ``build`` (``what`` names
        the derivation and its code's version: a digest of the module that derives them),
        made once per grounder and read from the start-up cache (:mod:`relx.array_cache`)
        when a process made them before."""
        found = self._derived.get(what)
        if found is None:
            from relx.array_cache import load_or_build
            from relx.packed_strings import pack_named, unpack_named

            name = f"{self._lexicon_name or self._file().name}-{what}"
            found = self._derived.setdefault(what, frozenset(load_or_build(
                name, lambda: pack_named("strings", sorted(build())),
                lambda a: unpack_named(a, "strings"))))
        return found

    def _load(self) -> LexiconRows:
        from relx.heap import paused_gc  # ~200,000 rows of long-lived strings

        with self._lock, paused_gc():
            if self._index is None:
                self._index, self._symbols = self._file().human()
            return self._index

    def _load_species(self) -> dict[str, LexiconRows]:
        if self._species is not None:   # every lookup comes here: no lock, no paused_gc
            return self._species
        from relx.heap import paused_gc

        _ = self.index
        with self._lock, paused_gc():
            if self._species is None:
                tables, symbols = self._file().species()
                for cid, symbol in symbols.items():   # a human row's symbol comes first
                    self._symbols.setdefault(cid, symbol)
                self._lexicon_file = None
                self._species = tables
            return self._species

    @property
    def index(self) -> LexiconRows:
        """normalised key -> [(id, source, form)] of the human and shared rows (loads the
        lexicon on first use; a read-only mapping, :class:`LexiconRows`)."""
        return self._index if self._index is not None else self._load()

    def species_index(self, taxon: str | int) -> Mapping[str, list[_Row]]:
        """normalised key -> [(id, source, form)] of one species' genes (empty if none)."""
        return self._load_species().get(taxon_id(taxon) or "", _NO_ROWS)

    @property
    def orthologs(self) -> Orthologs:
        """The ortholog table (loaded on first use)."""
        if self._orthologs is None:
            from relx.genes.orthologs import default_orthologs

            self._orthologs = default_orthologs()
        return self._orthologs

    def symbol(self, cid: str) -> str | None:
        """Display symbol of an id known to the lexicon."""
        _ = self.index
        if cid not in self._symbols and cid.startswith(("MGI:", "RGD:")):
            self._load_species()
        return self._symbols.get(cid)

    def __len__(self) -> int:
        return len(self.index)

    def is_family_name(self, text: str) -> bool:
        """True when ``text`` is written as a FamPlex family/complex name (``NF-kappaB``,
        ``PI3K``, ``ERK1/2``): its compact form, case kept, is a form of an ``FPLX`` row."""
        form = compact_form(text)
        return any(cid.startswith("FPLX:") and row_form == form
                   for cid, _, row_form in self.index.get(form.lower(), ()))

    # lookup
    def _add(self, best: dict[str, GroundingCandidate], cid: str, source: str,
             score: float) -> None:
        old = best.get(cid)
        if old is None or (score, -_SOURCE_RANK[source]) > (old.score, -_SOURCE_RANK[old.source]):
            best[cid] = GroundingCandidate(cid, self._symbols[cid], source, round(score, 4))

    def _match(self, form: str, factor: float, best: dict[str, GroundingCandidate]) -> None:
        for cid, source, row_form in self.index.get(form.lower(), ()):
            score = SOURCE_WEIGHT[source] * factor * (1.0 if row_form == form else CASE_FACTOR)
            self._add(best, cid, source, score)

    def ground(self, text: str, taxon: str | int | None = None) -> list[GroundingCandidate]:
        """Ranked candidate groundings of a mention text (empty when nothing matches).

        The text's compact form is looked up first; exact-case matches score above
        case-insensitive ones. Only when that finds nothing are variants tried (trailing
        ``protein``/``gene``/``mRNA`` and plural ``s`` stripped, ``alpha`` -> ``a``).
        Ambiguous texts return every candidate, best first. A name with a Greek isoform
        letter at its end that grounds no other way is grounded without it, unless that
        names a family (:func:`_isoform_fallback`).

        ``taxon`` (``NCBITaxon:10090``...) grounds in that species: human (the default)
        gives HGNC, FamPlex and chemical candidates; mouse and rat give MGI/RGD genes,
        FamPlex and chemicals, and when the mouse/rat entries have no match, the mouse/rat
        orthologs of the human candidates (scores times ``ORTHOLOG_FACTOR``); any other
        species gives FamPlex and chemical candidates only (no gene lexicon: never a
        human id for a yeast gene).
        """
        taxon = taxon_id(taxon)
        if taxon is not None and taxon != HUMAN:
            return self._ground_taxon(text, taxon)
        cached = self._cache.get(text)
        if cached is not None:
            return list(cached)
        form = compact_form(text)
        best: dict[str, GroundingCandidate] = {}
        if form:
            self._match(form, 1.0, best)
            if not best:
                for v in sorted(_variants(form, text)):
                    self._match(v, VARIANT_FACTOR, best)
            if not best:
                best = self._receptor_fallback(text, self._match, HUMAN)
            if not best:
                best = _isoform_fallback(form, self._match)
        result = _rank(best.values())
        if len(self._cache) < 100_000:
            self._cache[text] = result
        return list(result)

    def _ground_taxon(self, text: str, taxon: str) -> list[GroundingCandidate]:
        cached = self._species_cache.get((text, taxon))
        if cached is not None:
            return list(cached)
        form = compact_form(text)
        own = GENE_NAMESPACE.get(taxon)
        best: dict[str, GroundingCandidate] = {}
        if form:
            for forms, factor in (([form], 1.0), (sorted(_variants(form, text)), VARIANT_FACTOR)):
                for f in forms:
                    self._match_taxon(f, factor, taxon, best)
                if own and not any(c.startswith(own + ":") for c in best):
                    for f in forms:
                        self._match_orthologs(f, factor * ORTHOLOG_FACTOR, taxon, best)
                if best:
                    break
            if not best:
                best = self._receptor_fallback(
                    text, lambda f, x, b: self._match_taxon(f, x, taxon, b), taxon)
            if not best and own:
                best = self._receptor_fallback(
                    text, lambda f, x, b: self._match_orthologs(f, x * ORTHOLOG_FACTOR,
                                                                taxon, b), taxon)
            if not best:
                best = _isoform_fallback(
                    form, lambda f, x, b: self._match_taxon(f, x, taxon, b))
            if not best and own:
                best = _isoform_fallback(
                    form, lambda f, x, b: self._match_orthologs(f, x * ORTHOLOG_FACTOR,
                                                                taxon, b))
        result = _rank(best.values())
        if len(self._species_cache) < 100_000:
            self._species_cache[(text, taxon)] = result
        return list(result)

    def _match_taxon(self, form: str, factor: float, taxon: str,
                     best: dict[str, GroundingCandidate]) -> None:
        """Shared rows (FamPlex, chemicals; FamPlex-curated human genes as their orthologs)
        and the species' own rows."""
        key = form.lower()
        for cid, source, row_form in self.index.get(key, ()):
            score = SOURCE_WEIGHT[source] * factor * (1.0 if row_form == form else CASE_FACTOR)
            if not cid.startswith("HGNC:"):
                self._add(best, cid, source, score)
            elif source == "famplex":
                for oid in self._orthologs_in(cid, taxon):
                    self._add(best, oid, source, score)
        for cid, source, row_form in self.species_index(taxon).get(key, ()):
            score = SOURCE_WEIGHT[source] * factor * (1.0 if row_form == form else CASE_FACTOR)
            self._add(best, cid, source, score)

    def _match_orthologs(self, form: str, factor: float, taxon: str,
                         best: dict[str, GroundingCandidate]) -> None:
        for cid, source, row_form in self.index.get(form.lower(), ()):
            if cid.startswith("HGNC:") and source != "famplex":
                score = SOURCE_WEIGHT[source] * factor * (
                    1.0 if row_form == form else CASE_FACTOR)
                for oid in self._orthologs_in(cid, taxon):
                    self._add(best, oid, source, score)

    def _receptor_fallback(self, text: str, match: Callable[..., None],
                           taxon: str) -> dict[str, GroundingCandidate]:
        """Candidates of ``X receptor`` from ``XR`` / ``X`` (:func:`_receptor_forms`), kept
        where the gene's name (in the ``taxon``'s lexicon, or its human ortholog's) says
        receptor: ``AT1 receptor`` is AGTR1, not the AT1 alias of SLC33A1; ``EGF receptor``
        never EGF."""
        found: dict[str, GroundingCandidate] = {}
        for f in _receptor_forms(text):
            match(f, VARIANT_FACTOR, found)
        if not found:
            return found
        receptors = self._named_ids("receptor", HUMAN)
        if taxon != HUMAN:
            receptors = receptors | self._named_ids("receptor", taxon)
        return {cid: c for cid, c in found.items() if cid in receptors or any(
            h in receptors for h in self.orthologs.to_human(cid))}   # MGI/RGD: few names

    def _named_ids(self, word: str, taxon: str) -> frozenset[str]:
        """Ids of the ``taxon``'s own lexicon rows (human: the human and shared rows) whose
        name has ``word`` (lower case), found once per word and taxon."""
        ids = self._named.get((word, taxon))
        if ids is None:
            rows = self.index if taxon == HUMAN else self.species_index(taxon)
            ids = self._named[word, taxon] = frozenset(
                cid for key in rows if word in key
                for cid, source, _ in rows[key] if source == "name")
        return ids

    def name_says(self, cid: str, word: str) -> bool:
        """True when the name of gene ``cid``, or of its human ortholog, has ``word`` (lower
        case): ``name_says("HGNC:6190", "kinase")`` (Janus kinase 1)."""
        named = self._named_ids(word, HUMAN)
        return cid in named or any(h in named for h in self.orthologs.to_human(cid))

    def _orthologs_in(self, hgnc_id: str, taxon: str) -> list[str]:
        """``hgnc_id``'s orthologs in ``taxon`` that the lexicon knows."""
        return [o for o in self.orthologs.from_human(hgnc_id, taxon) if self.symbol(o)]

    def in_lexicon(self, text: str, taxon: str | int) -> bool:
        """True when ``text`` matches an entry of the species' own gene lexicon (HGNC, MGI,
        RGD) directly, without orthologs."""
        taxon = taxon_id(taxon) or HUMAN
        own = GENE_NAMESPACE.get(taxon)
        if own is None:
            return False
        key = compact_form(text).lower()
        rows = self.index.get(key, ()) if taxon == HUMAN else self.species_index(taxon).get(
            key, ())
        return any(cid.startswith(own + ":") for cid, _, _ in rows)

    def best(self, text: str, taxon: str | int | None = None) -> Grounding:
        """The grounding of one mention text in a species: ranked ids and confidence."""
        cands = self.ground(text, taxon)
        return Grounding(tuple(c.id for c in cands), confidence(cands), taxon_id(taxon),
                         "lexicon" if cands else "none")


def with_entity_updates(doc: Document, update: Callable[[Entity], dict[str, object]], *,
                        overwrite: bool = True, copy_unchanged: bool = True) -> Document:
    """A copy of ``doc`` whose entities carry ``update(entity)``'s fields (an entity that
    has ids already keeps them unless ``overwrite``). Only what changes is copied: a deep
    copy of tokens and parses costs more than grounding. Without ``copy_unchanged`` an
    entity ``update`` leaves as it is (``{}``) is not copied but shared with ``doc``: for a
    ``doc`` whose entities are copies already (a later pass of one grounding)."""
    sentences = []
    for sent in doc.sentences:
        ents = []
        for e in sent.entities:
            if e.norm_ids and not overwrite:
                ents.append(e)
                continue
            fields = update(e)
            ents.append(e if not fields and not copy_unchanged else
                        e.model_copy(update=fields))
        sentences.append(sent.model_copy(update={"entities": ents}))
    return doc.model_copy(update={"sentences": sentences})


_default: Grounder | None = None


#: environment variable naming lexicon sources the default grounder leaves out
#: (``,``-separated, e.g. ``ncbi_name,ncbi_synonym,designation``; for measurements)
EXCLUDE_ENV = "RELX_LEXICON_EXCLUDE"


def default_grounder() -> Grounder:
    """The process-wide grounder over the shipped lexicon (without the sources named in
    ``$RELX_LEXICON_EXCLUDE``)."""
    global _default
    if _default is None:
        skip = [s.strip() for s in os.environ.get(EXCLUDE_ENV, "").split(",") if s.strip()]
        _default = Grounder(exclude_sources=skip)
    return _default


def is_family_name(text: str) -> bool:
    """``Grounder.is_family_name`` with the shipped lexicon."""
    return default_grounder().is_family_name(text)


def ground(text: str, taxon: str | int | None = None) -> list[GroundingCandidate]:
    """Ranked candidates for ``text`` (in species ``taxon``) from the shipped lexicon."""
    return default_grounder().ground(text, taxon)
