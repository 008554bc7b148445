"""Building the data files relx grounds with, from the shared lexicons (see :mod:`relx.genes.lexicon`).

* ``lexicon.tsv.gz`` (:func:`build_lexicon`): HGNC and FamPlex rows (human and shared), then
  MGI (mouse) and RGD (rat) rows, each group sorted by key (``Grounder`` relies on the order:
  it parses the mouse/rat rows only when a mouse or rat mention is grounded).
* ``orthologs.tsv.gz`` (:func:`build_orthologs`): human gene -> mouse and rat orthologs, from
  the HGNC table's MGI/RGD columns, rat ones it lacks from HCOP (read by
  :mod:`relx.genes.orthologs`).
* ``famplex_relations.tsv.gz`` (:func:`build_famplex_relations`): FamPlex ``isa``/``partof``
  edges between namespaced ids (``HGNC:6871 isa FPLX:ERK``; read by :mod:`relx.genes.same_gene`).
* ``ncbi_gene.tsv.gz`` (:func:`build_ncbi_gene`): HGNC/MGI id -> NCBI Gene id, from NCBI
  Gene ``gene_info`` dbXrefs, and RGD id -> rat NCBI Gene id through the RGD symbol in HCOP's
  rat orthologs (:func:`lab.hcop.hcop_rat_links`; read by :mod:`relx.genes.ncbi_gene`).

With NCBI Gene's ``gene_info`` tables (``lexicons/ncbi-gene/``), the lexicon also has their
names of the human and mouse genes it knows (:data:`relx.genes.lexicon.NCBI_SOURCES`): the
nomenclature authority's full name, the synonyms and the other designations (protein names:
``hepatocyte nuclear factor 6``), without uninformative ones (:func:`lab.ncbi_names.informative`:
``hypothetical protein``, ``putative ...``, pseudogene and clone names, longer than 80
characters, one character or no letter, a class noun phrase of one or two lower-case words
such as ``cysteine protease`` unless it says one thing of one gene, ``ghrelin receptor``) and
without a name NCBI gives to more than :data:`NCBI_MAX_GENES` genes of a species.
``keep`` (``--keep-rows``) carries over the rows of an earlier lexicon that are not NCBI's
(the shipped file's HGNC alias/previous names, whose HGNC complete set is not in
``../shared``), so the shipped file can be rebuilt without that set.

HGNC's long non-coding RNA genes (``H19``, ``MALAT1``, ``CDKN2B-AS1``) are in it by their
approved symbols, and by previous symbols and approved names no other gene has
(:func:`_lncrna_entries`; not by aliases or NCBI's names); NCBI synonyms papers use for
another gene are left out (:data:`MISLEADING_SYNONYMS`: ACTA1's ``ASMA``).

Mouse/rat genes without an Ensembl gene id (transgenes, QTLs, markers) and predicted or
non-coding ones by name (``Gm12345``, ``...Rik``, ``LOC...``, ``Mir...``, ``...-ps``,
``AABR07...``, EST names) are left out to keep the lexicon small, as are clone-id synonyms.
"""

from __future__ import annotations

import csv
import gzip
import io
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from lab.lexicon_famplex import famplex_entries, famplex_gene_named, qualify
from lab.ncbi_names import SKIP_SYNONYM, generic, informative
from relx.genes.lexicon import (
    COLUMNS,
    LEXICON_FORMAT,
    NCBI_SOURCES,
    PROTEIN_LOCUS_TYPES,
    SOURCES,
    SPECIES_LEXICONS,
    compact_form,
    normalize_key,
)
from relx.io.atomic import atomic_open

__all__ = ["build_famplex_relations", "build_lexicon", "build_ncbi_gene", "build_orthologs",
           "lexicon_ids", "ncbi_gene_links"]

_SOURCE_RANK = {s: i for i, s in enumerate(SOURCES)}
#: taxon column value of each namespace's rows ("" for ids shared by every species)
_TAXON_OF = {"HGNC": "9606", "MGI": "10090", "RGD": "10116"}
#: gene symbols of mouse/rat entries left out (predicted, non-coding, unplaced, clone names)
_SKIP_SYMBOL = re.compile(
    r"^(Gm\d+|LOC\d+|RGD\d+|MGC\d+|AABR\d.*|ENS[A-Z]*G\d+|AC\d+.*|[A-Z]{1,2}\d{5,}|.*Rik\d*"
    r"|Mir\d.*|Mirlet.*|Snor[ad]\d.*|Snhg\d.*|Scarna\d.*|Rny\d.*|Rn\d+s.*|n-[A-Z].*|.*-ps\d*"
    r"|Tg\(.*|.*-as\d*)$")


#: NCBI Gene tables (in ``lexicons/ncbi-gene/``) and the namespace their dbXrefs link to
NCBI_GENE_INFO = (("Homo_sapiens.gene_info.gz", "HGNC"), ("Mus_musculus.gene_info.gz", "MGI"))
#: an NCBI name of more genes than this in one species is left out (``histone H4``)
NCBI_MAX_GENES = 3


def _split_list(value: str | None, sep: str = ",") -> list[str]:
    return [v.strip() for v in (value or "").split(sep) if v.strip()]


def _find(shared: Path, name: str) -> Path | None:
    folder = shared / "lexicons" / name
    files = sorted(folder.glob(f"*{name}*.tsv.gz")) or sorted(folder.glob("*.tsv*"))
    return files[-1] if files else None


def _find_hgnc(shared: Path) -> Path:
    path = _find(shared, "hgnc")
    if path is None:
        raise FileNotFoundError(f"no HGNC table (*.tsv.gz) in {shared / 'lexicons' / 'hgnc'}")
    return path


def _read_tsv(path: Path, quoting: int = csv.QUOTE_MINIMAL) -> list[dict[str, str]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t", quoting=quoting))


def _read_hgnc(path: Path) -> list[dict[str, str]]:
    return [r for r in _read_tsv(path) if r.get("Status") == "Approved"]


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


#: HGNC's locus type of the long non-coding RNA genes (naming round 76)
LNCRNA_LOCUS_TYPE = "RNA, long non-coding"
#: NCBI synonyms left out of one gene's names: papers mean another gene by them
#: (``ASMA``, ``alpha-SMA``: the smooth-muscle actin ACTA2, not the skeletal ACTA1)
MISLEADING_SYNONYMS = {"ACTA1": frozenset({"ASMA"})}


def _lncrna_entries(rows: list[dict[str, str]], taken: set[str]
                    ) -> Iterator[tuple[str, str, str]]:
    """(text, id, source) of the long non-coding RNA genes of the HGNC rows: each approved
    symbol (it ranks above another gene's alias or previous symbol, as HGNC's symbols do:
    ``H19``, ``MEG3``), and its previous symbols and approved name where no gene of
    ``taken`` (keys of the lexicon's other human and shared rows) has the key; no alias
    (H19's include ``ASM`` and ``BWS``)."""
    for r in rows:
        if r.get("Locus type") != LNCRNA_LOCUS_TYPE:
            continue
        cid = r["HGNC ID"]
        yield r["Approved symbol"], cid, "symbol"
        more = [(t, "previous") for t in _split_list(r.get("Previous symbols"))]
        if r.get("Approved name"):
            more.append((r["Approved name"], "name"))
        yield from ((t, cid, source) for t, source in more
                    if compact_form(t).lower() not in taken)


_QUALIFIER = re.compile(r"\s*\([^()]*\)|\bsubunit\b|,", re.IGNORECASE)


def _name_core(text: str) -> str:
    """A name without bracketed qualifiers, ``subunit`` and commas, as text cites it
    (``hypoxia-inducible factor 1, alpha subunit (basic helix-loop-helix ...)`` ->
    ``hypoxia-inducible factor 1 alpha``); names of one word are left as they are."""
    if " " not in text.strip():
        return text
    core = _QUALIFIER.sub(" ", text)
    return core if len(core.split()) >= 2 else text


def _hgnc_name_entries(
    path: Path, ids: set[str]
) -> Iterator[tuple[str, str, str]]:
    """(text, id, source) of an HGNC complete set's ``alias_name`` (as ``alias``) and
    ``prev_name`` (as ``previous``) of the genes ``ids`` (names joined by ``|``)."""
    for r in _read_tsv(path):
        cid = r.get("hgnc_id", "")
        if cid not in ids:
            continue
        for col, source in (("alias_name", "alias"), ("prev_name", "previous")):
            for name in (r.get(col) or "").split("|"):
                if name.strip():
                    yield name.strip(), cid, source


def _species_entries(
    path: Path, ns: str, symbols: dict[str, str]
) -> Iterator[tuple[str, str, str]]:
    """(text, id, source) of an MGI or RGD gene table (``ID symbol synonyms ensembl``):
    symbols, and synonyms as ``name`` (several words) or ``alias``; fills ``symbols``."""
    for r in _read_tsv(path, csv.QUOTE_NONE):  # quotes are part of names there
        symbol = (r.get("symbol") or "").strip()
        if not symbol or not (r.get("ensembl") or "").strip() or _SKIP_SYMBOL.match(symbol):
            continue
        cid = f"{ns}:{r['ID'].strip()}"
        symbols[cid] = symbol
        yield symbol, cid, "symbol"
        raw = r.get("synonyms") or ""
        for s in _split_list(raw, "|" if "|" in raw else ";"):
            if s != symbol and not SKIP_SYNONYM.match(s):
                yield s, cid, "name" if " " in s else "alias"


def _hgnc_maps(hgnc_rows: list[dict[str, str]]) -> tuple[dict[str, str], dict[str, str]]:
    by_symbol: dict[str, str] = {}
    by_previous: dict[str, str] = {}
    for r in hgnc_rows:
        by_symbol[r["Approved symbol"]] = r["HGNC ID"]
        for s in _split_list(r.get("Previous symbols")):
            by_previous.setdefault(s, r["HGNC ID"])
    return by_symbol, by_previous


def _read_gene_info(path: Path) -> Iterator[dict[str, str]]:
    """The rows of an NCBI Gene ``gene_info`` table (header ``#tax_id GeneID ...``)."""
    with gzip.open(path, "rt", encoding="utf-8", newline="") as fh:
        header = fh.readline().lstrip("#").rstrip("\n").split("\t")
        for line in fh:
            yield dict(zip(header, line.rstrip("\n").split("\t"), strict=False))


def _xrefs(value: str, ns: str) -> list[str]:
    """The ``ns`` ids of a dbXrefs field (``MIM:1|HGNC:HGNC:5|Ensembl:E`` -> ``HGNC:5``)."""
    out = []
    for x in value.split("|"):
        db, _, local = x.partition(":")
        if db == ns and local:
            out.append(qualify(ns, local))
    return out


def _gene_info_paths(shared: Path) -> list[tuple[Path, str]]:
    folder = shared / "lexicons" / "ncbi-gene"
    return [(folder / name, ns) for name, ns in NCBI_GENE_INFO if (folder / name).exists()]


def ncbi_gene_links(shared: Path) -> dict[str, list[str]]:
    """HGNC/MGI id -> its NCBI Gene ids (digits, ascending) from the ``gene_info`` dbXrefs."""
    links: dict[str, set[str]] = {}
    for path, ns in _gene_info_paths(Path(shared)):
        for r in _read_gene_info(path):
            for cid in _xrefs(r.get("dbXrefs", ""), ns):
                links.setdefault(cid, set()).add(r["GeneID"])
    return {k: sorted(v, key=int) for k, v in links.items()}


def _ncbi_entries(shared: Path, ids: set[str]) -> Iterator[tuple[str, str, str]]:
    """(text, id, source) of NCBI Gene's names (:data:`NCBI_SOURCES`) of the genes ``ids``
    (HGNC/MGI ids the lexicon has), informative ones that name few genes of a species."""
    for path, ns in _gene_info_paths(shared):
        found: list[tuple[str, str, str]] = []
        for r in _read_gene_info(path):
            cids = [c for c in _xrefs(r.get("dbXrefs", ""), ns) if c in ids]
            if not cids:
                continue
            names = [(r.get("Full_name_from_nomenclature_authority", "-"), "ncbi_name")]
            names += [(s, "ncbi_synonym") for s in r.get("Synonyms", "").split("|")]
            names += [(s, "designation") for s in r.get("Other_designations", "").split("|")]
            skip = MISLEADING_SYNONYMS.get(r.get("Symbol", ""), frozenset())
            for text, source in names:
                text = text.strip()
                if text and text != "-" and informative(text) and text not in skip:
                    found += [(text, cid, source) for cid in cids]
        genes: dict[str, set[str]] = {}
        for text, cid, _ in found:
            genes.setdefault(normalize_key(text), set()).add(cid)
        yield from (e for e in found if len(genes[normalize_key(e[0])])
                    <= (1 if generic(e[0]) else NCBI_MAX_GENES))


_MIR_SYMBOL = re.compile(r"^(?:MIR|Mir)(\d+[A-Za-z]?\d*|LET7[A-Z]\d*|let7[a-z]\d*)$")


def _mirna_entries(shared: Path) -> tuple[list[tuple[str, str, str]], dict[str, str]]:
    """(text, id, source) entries of the human and mouse microRNA genes (``MIR21``,
    ``Mir146b``, ``MIRLET7A1``: HGNC/MGI ids from NCBI Gene, whose protein-only HGNC and
    MGI entries leave them out), written as papers write them (``miR-21``,
    ``microRNA-21``, ``let-7a``; a mouse ``Mir21a`` without a ``Mir21`` also as
    ``miR-21``), and their symbols."""
    entries: list[tuple[str, str, str]] = []
    symbols: dict[str, str] = {}
    for path, ns in _gene_info_paths(shared):
        rows = [r for r in _read_gene_info(path) if r.get("type_of_gene") == "ncRNA"
                and _MIR_SYMBOL.match(r.get("Symbol", ""))]
        have = {r["Symbol"].lower() for r in rows}
        for r in rows:
            sym = r["Symbol"]
            rest = _MIR_SYMBOL.match(sym).group(1).lower()
            if rest.startswith("let7"):
                names = [f"let-7{rest[4:]}", f"microRNA let-7{rest[4:]}"]
            else:
                names = [f"miR-{rest}", f"microRNA-{rest}"]
                if ns == "MGI" and re.fullmatch(r"\d+a", rest) and f"mir{rest[:-1]}" not in have:
                    names += [f"miR-{rest[:-1]}", f"microRNA-{rest[:-1]}"]
            for cid in _xrefs(r.get("dbXrefs", ""), ns):
                symbols[cid] = sym
                entries.append((sym, cid, "symbol"))
                entries += [(n, cid, "ncbi_synonym") for n in names]
    return entries, symbols


def _kept_rows(path: Path) -> tuple[list[tuple[str, str, str]], dict[str, str], list[str]]:
    """The rows of an earlier lexicon that are not NCBI's, as (form, id, source) entries,
    its ids' symbols and the sources its header names."""
    entries: list[tuple[str, str, str]] = []
    symbols: dict[str, str] = {}
    sources: list[str] = []
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("# sources: "):
                sources = line[len("# sources: "):].rstrip("\n").split("; ")
            if line.startswith("#") or line.startswith("key\t"):
                continue
            key, cid, symbol, source, form, *_ = line.rstrip("\n").split("\t")
            if symbol:
                symbols.setdefault(cid, symbol)
            if source not in NCBI_SOURCES:
                entries.append((form or key, cid, source))
    return entries, symbols, sources


def _write_gz(path: Path, text: str) -> int:
    """Write ``text`` gzip-compressed (deterministic bytes) to ``path`` atomically."""
    data = gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)
    with atomic_open(path, "wb") as fh:
        fh.write(data)
    return len(data)


def build_lexicon(
    shared: Path,
    out: Path,
    *,
    locus_types: frozenset[str] | None = PROTEIN_LOCUS_TYPES,
    species: bool = True,
    hgnc_names: Path | None = None,
    ncbi: bool = True,
    keep: Path | None = None,
    lncrna: bool = True,
) -> dict:
    """Write the compact grounding lexicon to ``out`` and return its statistics.

    ``shared`` is the shared data folder holding ``lexicons/hgnc/*.tsv.gz`` (approved HGNC
    entries of ``locus_types`` are used; ``None`` keeps all), ``lexicons/famplex/`` and, with
    ``species``, ``lexicons/mgi/`` and ``lexicons/rgd/`` (skipped when absent).
    ``hgnc_names``, an HGNC complete set (``hgnc_complete_set.txt``, gzip or not), adds the
    genes' alias and previous names (``estrogen receptor alpha``). With ``ncbi``, NCBI Gene's
    names of the human and mouse genes (``lexicons/ncbi-gene/``, when there). ``keep``: an
    earlier lexicon whose rows other than NCBI's are kept (see the module docstring).
    ``lncrna``: the long non-coding RNA genes too (:func:`_lncrna_entries`).
    """
    shared, out = Path(shared), Path(out)
    hgnc_path = _find_hgnc(shared)
    hgnc_rows = _read_hgnc(hgnc_path)
    symbols: dict[str, str] = {r["HGNC ID"]: r["Approved symbol"] for r in hgnc_rows}
    entries = list(_hgnc_entries(hgnc_rows, locus_types))
    by_symbol, by_previous = _hgnc_maps(hgnc_rows)
    by_uniprot: dict[str, str] = {}
    for r in hgnc_rows:
        for u in _split_list(r.get("UniProt ID(supplied by UniProt)")):
            by_uniprot.setdefault(u, r["HGNC ID"])
    entries += list(famplex_entries(shared / "lexicons" / "famplex", by_symbol, by_previous,
                                    by_uniprot, symbols))
    sources = [f"HGNC {hgnc_path.name}", "FamPlex entities.csv, grounding_map.csv"]
    if hgnc_names is not None:
        entries += list(_hgnc_name_entries(Path(hgnc_names), {c for _, c, _ in entries}))
        sources.append(f"HGNC alias/previous names {Path(hgnc_names).name}")
    for name, ns, _ in SPECIES_LEXICONS if species else ():
        path = _find(shared, name)
        if path is not None:
            entries += list(_species_entries(path, ns, symbols))
            sources.append(f"{ns} {path.name}")
    if ncbi:
        gene_info = _gene_info_paths(shared)
        known = {c for _, c, _ in entries if c.startswith(("HGNC:", "MGI:"))}
        entries += list(_ncbi_entries(shared, known))
        mirna, mirna_symbols = _mirna_entries(shared)
        entries += mirna
        for cid, symbol in mirna_symbols.items():
            symbols.setdefault(cid, symbol)
        sources += [f"NCBI Gene {p.name}" for p, _ in gene_info]
    if lncrna:
        taken = {compact_form(t).lower() for t, c, _ in entries
                 if not c.startswith(("MGI:", "RGD:"))}
        entries += list(_lncrna_entries(hgnc_rows, taken))
        sources.append("HGNC long non-coding RNA genes: symbols, previous symbols, names")
    if keep is not None:
        kept, kept_symbols, kept_sources = _kept_rows(Path(keep))
        gene_named = {f"FPLX:{n}": n for n in
                      famplex_gene_named(shared / "lexicons" / "famplex")}
        entries += [(t, c, s) for t, c, s in kept
                    if gene_named.get(c) is None or compact_form(t) != gene_named[c]]
        for cid, symbol in kept_symbols.items():
            symbols.setdefault(cid, symbol)
        sources += [s for s in kept_sources if s not in sources]

    # one row per (key, id, form), keeping the best source
    best: dict[tuple[str, str, str], str] = {}
    for text, cid, source in entries:
        core = _name_core(text)
        for form in {compact_form(text), compact_form(core)} if core != text else \
                (compact_form(text),):
            if not form:
                continue
            k = (form.lower(), cid, form)
            old = best.get(k)
            if old is None or _SOURCE_RANK[source] < _SOURCE_RANK[old]:
                best[k] = source

    def group(item: tuple[tuple[str, str, str], str]) -> tuple[int, tuple[str, str, str]]:
        ns = item[0][1].partition(":")[0]
        return [n for _, n, _ in SPECIES_LEXICONS].index(ns) + 1 if ns in ("MGI", "RGD") \
            else 0, item[0]

    buf = io.StringIO()
    buf.write(f"# {LEXICON_FORMAT} grounding lexicon for relx.genes.lexicon\n")
    buf.write(f"# sources: {'; '.join(sources)}\n")
    buf.write("# key: empty when form is given (key = form lower-cased); symbol: on an id's "
              "first row only; taxon: NCBI Taxonomy id of a gene (empty: family, complex, "
              "chemical)\n")
    buf.write("\t".join(COLUMNS) + "\n")
    seen: set[str] = set()
    for (key, cid, form), source in sorted(best.items(), key=group):
        symbol = "" if cid in seen else symbols[cid]
        seen.add(cid)
        key, form = ("", form) if form != key else (key, "")
        buf.write(f"{key}\t{cid}\t{symbol}\t{source}\t{form}\t"
                  f"{_TAXON_OF.get(cid.partition(':')[0], '')}\n")
    size = _write_gz(out, buf.getvalue())

    by_source = Counter(best.values())
    ids = {cid for _, cid, _ in best}
    ids_per_key = Counter(key for key, _ in {(k, c) for k, c, _ in best})
    return {
        "path": str(out),
        "bytes": size,
        "rows": len(best),
        "keys": len({k for k, _, _ in best}),
        "ids": len(ids),
        "hgnc_ids": sum(1 for c in ids if c.startswith("HGNC:")),
        "famplex_ids": sum(1 for c in ids if c.startswith("FPLX:")),
        "mgi_ids": sum(1 for c in ids if c.startswith("MGI:")),
        "rgd_ids": sum(1 for c in ids if c.startswith("RGD:")),
        "other_ids": sum(1 for c in ids if not c.startswith(("HGNC:", "FPLX:", "MGI:", "RGD:"))),
        "ambiguous_keys": sum(1 for n in ids_per_key.values() if n > 1),
        "rows_by_source": dict(sorted(by_source.items())),
    }


def _kept_rat_orthologs(path: Path) -> dict[str, str]:
    """HGNC local id -> the rat column of an earlier ortholog table."""
    out = {}
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            cols = line.rstrip("\n").split("\t")
            if len(cols) == 3 and cols[0].isdigit() and cols[2]:
                out[cols[0]] = cols[2]
    return out


def build_orthologs(shared: Path, out: Path, hcop: Path | None = None,
                    keep: Path | None = None) -> dict:
    """Write the human -> mouse/rat ortholog table (``hgnc mgi rgd``, local ids, several
    joined by ``,``) from the HGNC table's MGI and RGD columns, a rat gene the HGNC table
    gives none taken from an HCOP ortholog table (``hcop``; without it, from an earlier
    table ``keep``); return its statistics."""
    rows = _read_hgnc(_find_hgnc(Path(shared)))
    extra: dict[str, str] = {}
    if hcop is not None:
        from lab.hcop import hcop_rat_orthologs

        extra = hcop_rat_orthologs(Path(shared), Path(hcop))
    elif keep is not None and Path(keep).exists():
        extra = _kept_rat_orthologs(Path(keep))
    lines = ["# relx-orthologs/1 human HGNC -> mouse MGI, rat RGD (from the HGNC table; "
             "rat genes it lacks from HCOP)", "hgnc\tmgi\trgd"]
    pairs = Counter()
    for r in sorted(rows, key=lambda r: int(r["HGNC ID"].partition(":")[2])):
        local = r["HGNC ID"].partition(":")[2]
        cols = []
        for col, ns in (("Mouse genome database ID(supplied by MGI)", "MGI"),
                        ("Rat genome database ID(supplied by RGD)", "RGD")):
            ids = [qualify(ns, i).partition(":")[2] for i in _split_list(r.get(col))]
            if ns == "RGD" and not ids and local in extra:
                ids = extra[local].split(",")
                pairs["RGD from HCOP"] += len(ids)
            pairs[ns] += len(ids)
            cols.append(",".join(ids))
        if any(cols):
            lines.append(f"{local}\t{cols[0]}\t{cols[1]}")
    size = _write_gz(Path(out), "\n".join(lines) + "\n")
    return {"path": str(out), "bytes": size, "human_genes": len(lines) - 2,
            "mouse_pairs": pairs["MGI"], "rat_pairs": pairs["RGD"],
            "rat_pairs_from_hcop": pairs["RGD from HCOP"]}


def lexicon_ids(path: Path) -> set[str]:
    """The ids of a lexicon file's rows."""
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return {ln.split("\t", 2)[1] for ln in fh if not ln.startswith(("#", "key\t"))}


def _kept_rat_links(path: Path) -> dict[str, list[str]]:
    """The ``RGD:`` rows of an earlier NCBI Gene table."""
    links: dict[str, list[str]] = {}
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("RGD:"):
                cid, gene = line.rstrip("\n").split("\t")
                links.setdefault(cid, []).append(gene)
    return links


def build_ncbi_gene(shared: Path, out: Path, ids: set[str] | None = None,
                    hcop: Path | None = None, keep: Path | None = None) -> dict:
    """Write the HGNC/MGI/RGD id -> NCBI Gene id table (``id ncbi``, one row per pair, by
    namespace and number) from the ``gene_info`` dbXrefs and, for rat, an HCOP ortholog table
    (``hcop``; without it the ``RGD:`` rows of an earlier table ``keep``), for the ids
    ``ids`` (those of the lexicon; None: all); return its statistics."""
    links = ncbi_gene_links(Path(shared))
    if hcop is not None:
        from lab.hcop import hcop_rat_links

        links.update(hcop_rat_links(Path(shared), hcop))
    elif keep is not None and Path(keep).exists():
        links.update(_kept_rat_links(Path(keep)))
    if ids is not None:
        links = {k: v for k, v in links.items() if k in ids}

    def order(cid: str) -> tuple[str, int]:
        ns, _, local = cid.partition(":")
        return ns, int(local) if local.isdigit() else 0

    lines = ["# relx-ncbi-gene/1 HGNC/MGI/RGD id -> NCBI Gene id (NCBI Gene gene_info "
             "dbXrefs; rat: RGD symbol -> HCOP rat orthologs)", "id\tncbi"]
    lines += [f"{cid}\t{g}" for cid in sorted(links, key=order) for g in links[cid]]
    size = _write_gz(Path(out), "\n".join(lines) + "\n")
    return {"path": str(out), "bytes": size, "pairs": len(lines) - 2,
            "hgnc_ids": sum(1 for c in links if c.startswith("HGNC:")),
            "mgi_ids": sum(1 for c in links if c.startswith("MGI:")),
            "rgd_ids": sum(1 for c in links if c.startswith("RGD:"))}


def build_famplex_relations(shared: Path, out: Path) -> dict:
    """Write FamPlex's ``isa``/``partof`` edges as ``child relation parent`` rows of
    namespaced ids (HGNC symbols mapped to HGNC ids); return its statistics."""
    shared = Path(shared)
    by_symbol, by_previous = _hgnc_maps(_read_hgnc(_find_hgnc(shared)))
    path = shared / "lexicons" / "famplex" / "relations.csv"
    edges: set[tuple[str, str, str]] = set()
    if path.exists():
        with path.open(encoding="utf-8", newline="") as fh:
            for row in csv.reader(fh):
                if len(row) < 5 or row[2] not in ("isa", "partof"):
                    continue
                ends = []
                for ns, local in ((row[0], row[1]), (row[3], row[4])):
                    if ns == "HGNC":
                        ends.append(by_symbol.get(local) or by_previous.get(local))
                    else:
                        ends.append(f"{ns}:{local}" if ns == "FPLX" else None)
                if ends[0] and ends[1]:
                    edges.add((ends[0], row[2], ends[1]))
    lines = ["# relx-famplex-relations/1 child relation parent (FamPlex relations.csv)",
             "child\trelation\tparent", *("\t".join(e) for e in sorted(edges))]
    size = _write_gz(Path(out), "\n".join(lines) + "\n")
    return {"path": str(out), "bytes": size, "edges": len(edges)}
