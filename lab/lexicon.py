"""The grounding lexicon relx ships (``relx/data/lexicon.tsv.gz``, with ``orthologs.tsv.gz``,
``famplex_relations.tsv.gz`` and ``ncbi_gene.tsv.gz`` beside it), rebuilt from HGNC, MGI, RGD,
FamPlex and NCBI Gene with
:mod:`lab.lexicon_build` (``make lexicon``), and
looked up.

    python -m lab.lexicon build --shared ../shared --out relx/data/lexicon.tsv.gz \
        --keep-rows relx/data/lexicon.tsv.gz
    python -m lab.lexicon lookup IL-2 STAT5 [--lexicon FILE] [--taxon 10090]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from lab.lexicon_build import (
    build_famplex_relations,
    build_lexicon,
    build_ncbi_gene,
    build_orthologs,
    lexicon_ids,
)
from relx.genes.lexicon import PROTEIN_LOCUS_TYPES, Grounder


def main(argv: list[str] | None = None) -> int:
    """``python -m lab.lexicon build|lookup``."""
    ap = argparse.ArgumentParser(prog="python -m lab.lexicon", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="derive the compact lexicon from HGNC, MGI, RGD, FamPlex")
    b.add_argument("--shared", type=Path, default=Path("../shared"))
    b.add_argument("--out", type=Path, default=Path("relx/data/lexicon.tsv.gz"))
    b.add_argument("--all-loci", action="store_true", help="keep non-protein HGNC loci too")
    b.add_argument("--hgnc-names", type=Path, default=None,
                   help="an HGNC complete set (hgnc_complete_set.txt[.gz]): add alias and "
                        "previous names")
    b.add_argument("--no-ncbi-names", action="store_true",
                   help="leave out NCBI Gene's names (ncbi_name, ncbi_synonym, designation)")
    b.add_argument("--keep-rows", type=Path, default=None,
                   help="an earlier lexicon whose rows other than NCBI's are kept (the "
                        "shipped HGNC alias/previous names when no --hgnc-names is given)")
    b.add_argument("--hcop", type=Path, default=None,
                   help="an HCOP ortholog table (python -m lab.hcop): rat NCBI Gene ids for "
                        "RGD ids and rat orthologs the HGNC table lacks; without it the "
                        "shipped tables' rat rows are kept")
    b.add_argument("--lexicon-only", action="store_true",
                   help="do not write orthologs.tsv.gz, famplex_relations.tsv.gz, "
                        "ncbi_gene.tsv.gz beside it")
    q = sub.add_parser("lookup", help="ground mention texts")
    q.add_argument("texts", nargs="+")
    q.add_argument("--lexicon", type=Path, default=None)
    q.add_argument("--taxon", default=None, help="NCBI Taxonomy id, e.g. 10090 (mouse)")
    args = ap.parse_args(argv)
    if args.cmd == "build":
        stats = build_lexicon(
            args.shared, args.out, locus_types=None if args.all_loci else PROTEIN_LOCUS_TYPES,
            hgnc_names=args.hgnc_names, ncbi=not args.no_ncbi_names, keep=args.keep_rows)
        if not args.lexicon_only:
            folder = args.out.parent
            stats["orthologs"] = build_orthologs(args.shared, folder / "orthologs.tsv.gz",
                                                 hcop=args.hcop,
                                                 keep=folder / "orthologs.tsv.gz")
            stats["famplex_relations"] = build_famplex_relations(
                args.shared, folder / "famplex_relations.tsv.gz")
            stats["ncbi_gene"] = build_ncbi_gene(
                args.shared, folder / "ncbi_gene.tsv.gz", lexicon_ids(args.out),
                hcop=args.hcop, keep=folder / "ncbi_gene.tsv.gz")
        print(json.dumps(stats, indent=2))
    else:
        g = Grounder(args.lexicon)
        for t in args.texts:
            cands = [f"{c.id}({c.symbol},{c.source},{c.score})"
                     for c in g.ground(t, args.taxon)]
            print(f"{t}\t{' '.join(cands) or '-'}")
    return 0

if __name__ == "__main__":
    sys.exit(main())
