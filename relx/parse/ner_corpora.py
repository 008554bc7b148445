"""Gene/protein NER training and dev data from the JSONL gene corpora (``docs/genes.md``).

The corpora are the conversions in ``../shared/corpora/genes/<corpus>/{train,devel,test}.jsonl``
(format: ``lab/genes/corpora.py``). :data:`TRAIN_CORPORA` says which types of each become
``PROTEIN``, which are *missing* annotation (no gradient: JNLPBA ``DNA``/``RNA`` hold gene
names with gene/promoter/mRNA boundaries; JNLPBA generic lowercase ``protein`` mentions) and
which splits are trained on; every other type is outside. :data:`EXTERNAL_CORPORA` are the
held-out test corpora (never trained on, never used for selection).

Documents are removed by PMID (:func:`excluded_pmids`): from training, every document of GE
2011 devel, of the dev sets (BC2GM devel, CG devel) and of the external corpora (PC, LocText,
all splits), and the JNLPBA copies of GE train abstracts; from the dev sets, documents of
relx's existing training data (GE train, the PPI corpora) and of the external corpora.

In the GE and PPI training documents, whose guidelines annotate individual gene products
only, spans matching a FamPlex family/complex name (*NF-kappaB*, *AP-1*, *PKC*) that overlap
no gold mention are missing annotation (:func:`famplex_pattern`), so GE's negatives do not
fight the other corpora, which tag families and complexes.

BioRED train (``--biored <Train.PubTator.gz>``, issue 50, ``docs/genes.md`` "NER round 3"):
``GeneOrGeneProduct`` mentions are ``PROTEIN``, every other type is outside. Only its *fit*
split is read (:func:`biored_part`: the registered development split, ``sha1(pmid) % 5 ==
0``, never); the fit split's ``sha1(pmid) % 5 == 1`` part is held out as a dev set, the rest
is trained on. The PMIDs of BioRED's ``kept-pmids.txt`` (its Dev/Test documents,
``corpora/biored/kept-pmids.txt``) are removed from every training and dev corpus.

    relx ner build --shared ../shared --genes ../shared/corpora/genes \\
        --weights bc2gm=0.5,craft=0.3 --out runs/ner-genes/corpus
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from relx.errors import ConfigError
from relx.parse.spans import CharSpan, select_spans

#: (text, PROTEIN spans, missing spans)
Piece = tuple[str, list[CharSpan], list[CharSpan]]


@dataclass(frozen=True)
class CorpusSpec:
    """How one JSONL corpus becomes ``PROTEIN`` training or test data."""

    gene: frozenset[str]                     # mention types that are genes
    missing: frozenset[str] = frozenset()    # types whose spans are missing annotation
    train: tuple[str, ...] = ("train",)      # splits trained on
    dev: str | None = None                   # split used as a dev set
    generic_missing: bool = False            # gene mentions without uppercase/digit: missing


TRAIN_CORPORA: dict[str, CorpusSpec] = {
    "bc2gm": CorpusSpec(frozenset({"GENE"}), dev="devel"),
    "jnlpba": CorpusSpec(frozenset({"protein"}), frozenset({"DNA", "RNA"}),
                         train=("train", "devel"), generic_missing=True),
    "bionlp13cg": CorpusSpec(frozenset({"Gene_or_gene_product"}), dev="devel"),
    "craft": CorpusSpec(frozenset({"PR"})),
}
#: held-out corpora: gene types and the splits scored (docs/genes.md)
EXTERNAL_CORPORA: dict[str, CorpusSpec] = {
    "bionlp13pc": CorpusSpec(frozenset({"Gene_or_gene_product", "Complex"}), train=("test",)),
    "loctext": CorpusSpec(frozenset({"protein"}), train=("train", "devel", "test")),
}
#: corpus weight: whole copies plus a deterministic sample of the fraction (by piece)
DEFAULT_WEIGHTS = {"bc2gm": 0.5, "jnlpba": 1.0, "bionlp13cg": 2.0, "craft": 0.3}
_GENERIC = re.compile(r"^[^A-Z0-9]*$")
_CASE_CUT = re.compile(r"(?<=[a-z])(?=[A-Z0-9])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])")
_SEP = r"[\s\-]?"
BIORED_SPEC = CorpusSpec(frozenset({"GeneOrGeneProduct"}))
#: BioRED fit-split parts: trained on / held out as a dev set (docs/genes.md, NER round 3)
BIORED_PARTS = ("fit-train", "fit-held")


# -- reading -----------------------------------------------------------------------------------

def read_jsonl(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def norm_pmid(pmid: str | None) -> str | None:
    """``PMID-00123`` / ``00123`` -> ``123``; None for non-numeric ids (PMC documents)."""
    if not pmid:
        return None
    p = str(pmid).removeprefix("PMID-").lstrip("0")
    return p if p.isdigit() else None


def split_docs(genes: Path, corpus: str, split: str) -> list[dict]:
    path = Path(genes) / corpus / f"{split}.jsonl"
    if not path.exists():
        raise FileNotFoundError(f"no {path} (the JSONL gene corpora, see docs/genes.md)")
    return read_jsonl(path)


def _ppi_pmids(path: Path) -> set[str]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        text = f.read()
    return {norm_pmid(m) for m in re.findall(r'<document[^>]*?(?:origId|PMID)="(\d+)"', text)}


def kept_pmids(shared: Path) -> set[str]:
    """BioRED's Dev/Test PMIDs (``corpora/biored/kept-pmids.txt``; empty when absent)."""
    path = Path(shared) / "corpora" / "biored" / "kept-pmids.txt"
    if not path.exists():
        return set()
    return {norm_pmid(p) for p in path.read_text(encoding="ascii").split()} - {None}


def excluded_pmids(shared: Path, genes: Path) -> dict[str, set[str]]:
    """PMID sets: ``ge_devel``, ``dev`` (BC2GM devel, CG devel), ``external`` (PC, LocText,
    every split), ``ge_train`` (GE 2009/2011 train), ``ppi`` (AIMed, BioInfer, IEPA) and
    ``kept`` (BioRED Dev/Test, :func:`kept_pmids`)."""
    ge = Path(shared) / "corpora" / "bionlp-st-ge"
    out: dict[str, set[str]] = {"ge_devel": set(), "dev": set(), "external": set(),
                                "ge_train": set(), "ppi": set(), "kept": kept_pmids(shared)}
    out["ge_devel"] = {norm_pmid(p.stem) for p in (ge / "2011" / "devel").glob("*.txt")}
    for y in ("2009", "2011"):
        out["ge_train"] |= {norm_pmid(p.stem) for p in (ge / y / "train").glob("*.txt")}
    for name, spec in TRAIN_CORPORA.items():
        if spec.dev:
            out["dev"] |= {norm_pmid(d.get("pmid")) for d in split_docs(genes, name, spec.dev)}
    for name in EXTERNAL_CORPORA:
        for split in ("train", "devel", "test"):
            if (Path(genes) / name / f"{split}.jsonl").exists():
                out["external"] |= {norm_pmid(d.get("pmid"))
                                    for d in split_docs(genes, name, split)}
    for path in sorted((Path(shared) / "corpora" / "ppi").glob("*-learning-format.xml.gz")):
        out["ppi"] |= _ppi_pmids(path)
    return {k: v - {None} for k, v in out.items()}


# -- FamPlex -----------------------------------------------------------------------------------

def famplex_names(famplex: Path) -> set[str]:
    """FamPlex family/complex names: ``FPLX`` texts of ``grounding_map.csv`` (when present)
    and the entity names of ``entities.csv`` (``_`` read as a space)."""
    famplex = Path(famplex)
    names: set[str] = set()
    gmap = famplex / "grounding_map.csv"
    if gmap.exists():
        with open(gmap, encoding="utf-8", newline="") as f:
            for row in csv.reader(f):
                if len(row) > 2 and row[1] == "FPLX" and row[0].strip():
                    names.add(row[0].strip())
    with open(famplex / "entities.csv", encoding="utf-8") as f:
        names |= {line.strip().replace("_", " ") for line in f if line.strip()}
    return {n for n in names if len(n) > 1}


def famplex_pattern(famplex: Path) -> re.Pattern:
    """One regex for :func:`famplex_names`: case-sensitive, on alphanumeric boundaries;
    inside a name a space or hyphen is optional where the name has one and where letters
    turn to capitals or digits (``NF-kappaB`` = ``NF-kappa B`` = ``NFkappaB``)."""
    alts = set()
    for name in famplex_names(famplex):
        parts = [q for p in re.split(r"[\s\-]+", name) for q in _CASE_CUT.split(p) if q]
        if parts:
            alts.add(_SEP.join(re.escape(p) for p in parts))
    body = "|".join(sorted(alts, key=lambda a: (-len(a), a)))
    return re.compile(rf"(?<![A-Za-z0-9])(?:{body})(?![A-Za-z0-9])")


def famplex_missing(text: str, spans: Iterable[CharSpan], pattern: re.Pattern | None
                    ) -> list[CharSpan]:
    """FamPlex matches in ``text`` that overlap none of ``spans``."""
    if pattern is None:
        return []
    spans = list(spans)
    return [m.span() for m in pattern.finditer(text)
            if not any(m.start() < e and s < m.end() for s, e in spans)]


def with_famplex(texts: Iterable[tuple[str, list[CharSpan]]], pattern: re.Pattern | None,
                 stats: Counter) -> Iterator[Piece]:
    """``(text, spans)`` -> ``(text, spans, FamPlex matches outside spans)``."""
    for text, spans in texts:
        miss = famplex_missing(text, spans, pattern)
        stats["famplex_missing"] += len(miss)
        yield text, spans, miss


# -- JSONL documents -> pieces -----------------------------------------------------------------

def doc_spans(doc: dict, spec: CorpusSpec, stats: Counter) -> tuple[list[CharSpan],
                                                                     list[CharSpan]]:
    """Gene spans (overlaps: longest kept) and missing spans of a JSONL document."""
    genes, missing = [], []
    for m in doc.get("mentions", ()):
        t = m["type"]
        if t in spec.gene:
            stats["mentions"] += 1
            if spec.generic_missing and _GENERIC.match(m["text"]):
                stats["generic_missing"] += 1
                missing.append((m["start"], m["end"]))
            else:
                genes.append((m["start"], m["end"]))
        elif t in spec.missing:
            stats[f"missing_{t}"] += 1
            missing.append((m["start"], m["end"]))
    kept, dropped = select_spans(genes)
    stats["overlap_dropped"] += dropped
    return kept, missing


def pieces(text: str, spans: list[CharSpan], missing: list[CharSpan], stats: Counter
           ) -> Iterator[Piece]:
    """Cut at newlines (as :func:`relx.parse.ner._pieces`); spans crossing a newline are
    dropped (counted), missing spans are clipped to their piece."""
    start = 0
    for line in text.split("\n"):
        end = start + len(line)
        if line.strip():
            inside = [(s - start, e - start) for s, e in spans if start <= s and e <= end]
            miss = [(max(s, start) - start, min(e, end) - start) for s, e in missing
                    if s < end and start < e]
            yield line, inside, miss
        start = end + 1
    stats["crossing_newline"] += sum(1 for s, e in spans if "\n" in text[s:e])


def _fraction_keep(key: str, frac: float) -> bool:
    h = int(hashlib.sha1(key.encode("utf-8")).hexdigest()[:8], 16) / 0xFFFFFFFF
    return h < frac


def weighted(items: Iterable[tuple[str, Piece]], weight: float, stats: Counter
             ) -> Iterator[Piece]:
    """Each ``(key, piece)`` ``int(weight)`` times, plus once more when its key falls in the
    fraction ``weight - int(weight)`` (deterministic, by sha1 of the key)."""
    if weight < 0:
        raise ConfigError(f"corpus weight must be >= 0, got {weight}")
    whole, frac = int(weight), weight - int(weight)
    for key, piece in items:
        n = whole + (1 if frac and _fraction_keep(key, frac) else 0)
        stats["pieces_read"] += 1
        stats["pieces_written"] += n
        for _ in range(n):
            yield piece


def corpus_pieces(docs: Iterable[dict], spec: CorpusSpec, stats: Counter,
                  drop: set[str] = frozenset(), drop_reason: str = "dropped_pmid"
                  ) -> Iterator[tuple[str, Piece]]:
    """``(key, piece)`` of the documents whose PMID is not in ``drop``."""
    for doc in docs:
        if norm_pmid(doc.get("pmid")) in drop:
            stats[drop_reason] += 1
            continue
        stats["documents"] += 1
        spans, missing = doc_spans(doc, spec, stats)
        for i, piece in enumerate(pieces(doc["text"], spans, missing, stats)):
            yield f"{doc['id']}/{i}", piece


def gene_training_pieces(genes: Path, excluded: dict[str, set[str]],
                         weights: dict[str, float], counters: dict[str, Counter]
                         ) -> Iterator[tuple[str, Piece]]:
    """``(corpus, piece)`` for training, from :data:`TRAIN_CORPORA` (weights per corpus,
    default :data:`DEFAULT_WEIGHTS`; 0 leaves a corpus out). Counts per corpus go to
    ``counters[corpus]``."""
    unknown = set(weights) - set(TRAIN_CORPORA)
    if unknown:
        raise ConfigError(f"unknown gene corpora in weights: {sorted(unknown)}; "
                          f"known: {sorted(TRAIN_CORPORA)}")
    drop = (excluded["ge_devel"] | excluded["dev"] | excluded["external"]
            | excluded.get("kept", set()))
    for name, spec in TRAIN_CORPORA.items():
        w = weights.get(name, DEFAULT_WEIGHTS.get(name, 1.0))
        if not w:
            continue
        c = counters.setdefault(name, Counter())
        this_drop = drop | (excluded["ge_train"] if name == "jnlpba" else set())
        for split in spec.train:
            for piece in weighted(corpus_pieces(split_docs(genes, name, split), spec, c,
                                                this_drop), w, c):
                yield name, piece


def gene_dev_pieces(genes: Path, excluded: dict[str, set[str]],
                    counters: dict[str, Counter]) -> Iterator[tuple[str, Piece]]:
    """``("<corpus>_dev", piece)``: the ``dev`` split of each :data:`TRAIN_CORPORA` corpus
    that has one, without documents of relx's training data (GE train, PPI) or of the
    external corpora."""
    drop = (excluded["ge_train"] | excluded["ppi"] | excluded["external"]
            | excluded.get("kept", set()))
    for name, spec in TRAIN_CORPORA.items():
        if spec.dev:
            c = counters.setdefault(f"{name}_dev", Counter())
            for _, piece in corpus_pieces(split_docs(genes, name, spec.dev), spec, c, drop):
                yield f"{name}_dev", piece


def dev_docs(genes: Path, excluded: dict[str, set[str]], name: str) -> list[dict]:
    """The dev documents of ``name`` after the PMID removal (the benchmark's dev sets)."""
    drop = (excluded["ge_train"] | excluded["ppi"] | excluded["external"]
            | excluded.get("kept", set()))
    spec = TRAIN_CORPORA[name]
    split = spec.dev or "devel"
    return [d for d in split_docs(genes, name, split) if norm_pmid(d.get("pmid")) not in drop]


# -- BioRED (train split only) -----------------------------------------------------------------

def _sha1_mod5(pmid: str) -> int:
    return int(hashlib.sha1(pmid.encode("ascii")).hexdigest(), 16) % 5


def biored_part(pmid: str) -> str:
    """``dev`` (the registered development split, ``sha1(pmid) % 5 == 0``: never trained
    on or used for selection), ``fit-held`` (``% 5 == 1``: the NER's held-out part of the
    fit split) or ``fit-train``."""
    r = _sha1_mod5(pmid)
    return "dev" if r == 0 else "fit-held" if r == 1 else "fit-train"


@dataclass
class PubTatorBlock:
    """One PubTator document as its raw columns: ``mentions`` (the 6-column annotation
    lines) and ``relations`` (the other tab lines: ``PMID, type, id1, id2[, novelty]``)."""

    pmid: str
    title: str
    abstract: str
    mentions: list[list[str]] = field(default_factory=list)
    relations: list[list[str]] = field(default_factory=list)


def pubtator_blocks(path: Path) -> list[PubTatorBlock]:
    """The documents of a (gzipped) PubTator file such as BioRED's, in file order; lines of
    a PMID with no title and abstract before them are dropped."""
    docs: dict[str, PubTatorBlock] = {}
    titles: dict[str, str] = {}
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            line = line.rstrip("\n")
            head = line.split("|", 2)
            if len(head) == 3 and head[1] in ("t", "a") and head[0].isdigit():
                if head[1] == "t":
                    titles[head[0]] = head[2]
                else:
                    docs[head[0]] = PubTatorBlock(head[0], titles.pop(head[0]), head[2])
                continue
            cols = line.split("\t")
            if cols[0] not in docs:
                continue
            if len(cols) == 6 and cols[1].isdigit():
                docs[cols[0]].mentions.append(cols)
            elif len(cols) >= 4 and not cols[1].isdigit():
                docs[cols[0]].relations.append(cols)
    return list(docs.values())


def read_pubtator(path: Path, stats: Counter | None = None) -> list[dict]:
    """BioRED PubTator documents as JSONL-corpus dicts: ``text`` = title + newline +
    abstract (PubTator's offsets count one character between them), ``mentions`` with
    ``type`` the BioRED entity type. Mentions whose text differs from the span are dropped
    (``mention_mismatch``)."""
    stats = Counter() if stats is None else stats
    out = []
    for b in pubtator_blocks(path):
        doc = {"id": b.pmid, "pmid": b.pmid, "mentions": [], "text": b.title + "\n" + b.abstract}
        for cols in b.mentions:
            s, e = int(cols[1]), int(cols[2])
            if doc["text"][s:e] != cols[3]:
                stats["mention_mismatch"] += 1
                continue
            doc["mentions"].append({"start": s, "end": e, "text": cols[3], "type": cols[4]})
        out.append(doc)
    return out


def biored_docs(path: Path, part: str, kept: set[str], stats: Counter | None = None
                ) -> list[dict]:
    """The BioRED documents of ``part`` (:data:`BIORED_PARTS`), ``kept`` PMIDs dropped.
    The development split cannot be asked for."""
    if part not in BIORED_PARTS:
        raise ConfigError(f"BioRED part must be one of {BIORED_PARTS}, got {part!r} "
                          "(the development split is never read for the NER)")
    stats = Counter() if stats is None else stats
    out = []
    for doc in read_pubtator(path, stats):
        if doc["pmid"] in kept:
            stats["dropped_kept_pmid"] += 1
        elif biored_part(doc["pmid"]) == part:
            out.append(doc)
    return out


def biored_pieces(path: Path, part: str, kept: set[str], weight: float, stats: Counter
                  ) -> Iterator[Piece]:
    """Pieces of a BioRED ``part`` (``GeneOrGeneProduct`` -> ``PROTEIN``), ``weight``
    times (see :func:`weighted`)."""
    docs = biored_docs(path, part, kept, stats)
    yield from weighted(corpus_pieces(docs, BIORED_SPEC, stats), weight, stats)


def gold_spans_jsonl(doc: dict, types: Iterable[str]) -> set[CharSpan]:
    """Distinct ``(start, end)`` of a JSONL document's mentions of ``types``."""
    types = set(types)
    return {(m["start"], m["end"]) for m in doc.get("mentions", ()) if m["type"] in types}


def parse_weights(text: str | None) -> dict[str, float]:
    """``"bc2gm=0.5,craft=0.3"`` -> ``{"bc2gm": 0.5, "craft": 0.3}``."""
    out: dict[str, float] = {}
    for item in (text or "").split(","):
        if not item.strip():
            continue
        name, sep, val = item.partition("=")
        try:
            out[name.strip()] = float(val)
        except ValueError:
            raise ConfigError(f"weights: expected name=number, got {item!r}") from None
        if not sep:
            raise ConfigError(f"weights: expected name=number, got {item!r}")
    return out


def stats_summary(counters: dict[str, Counter]) -> dict[str, Any]:
    return {name: dict(sorted(c.items())) for name, c in counters.items()}
