"""Gene relations round 7 (docs/relations.md): the ligand-receptor table, and BioRED types
with and without the ``ligrec`` marker (fit-split 5-fold CV by document, the same views,
folds and setting).

    python -m lab.relations.ligand_receptor --table relx/data/ligand_receptor.tsv.gz
    python -m lab.relations.ligand_receptor --cv [--json out.json]
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path

from relx.ppi.ligand_receptor import named_pairs

SPECIES = ("Homo_sapiens", "Mus_musculus")


def gene_info_rows(path: Path):
    """``(GeneID, symbol, full name)`` of a ``gene_info`` file's protein-coding genes (the
    nomenclature authority's full name, else NCBI's description)."""
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("#"):
                continue
            p = line.rstrip("\n").split("\t")
            if p[9] != "protein-coding":
                continue
            name = p[11] if len(p) > 11 and p[11] != "-" else p[8]
            yield p[1], p[2], name


def build_table(shared: Path, out: Path) -> int:
    pairs = sorted({pair for sp in SPECIES for pair in named_pairs(
        gene_info_rows(shared / "lexicons" / "ncbi-gene" / f"{sp}.gene_info.gz"))})
    out.parent.mkdir(parents=True, exist_ok=True)
    with gzip.GzipFile(out, "wb", mtime=0) as raw:
        raw.write(("# relx-ligand-receptor/1 NCBI Gene ids of a ligand and its receptor, "
                   "read off NCBI gene_info names (human, mouse; lab.relations.ligand_receptor)"
                   "\nligand\treceptor\n" + "".join(f"{a}\t{b}\n" for a, b in pairs)
                   ).encode("utf-8"))
    return len(pairs)


def compare(shared: str | None = None) -> dict:
    """CV figures of :data:`lab.relations.biored.CHOSEN` without and with the marker."""
    from lab.relations.biored import CHOSEN, GRID, _baseline_threshold, cross_validate, pair_data
    from lab.relations.corpus import read_relations
    from lab.relations.views import load_views

    docs = read_relations(shared, "fit")
    views = load_views()
    out: dict = {"setting": CHOSEN}
    for name, flag in (("without", False), ("with the ligrec marker", True)):
        r = out[name] = cross_validate(pair_data(docs, views, _baseline_threshold(),
                                                 ligand_receptor=flag), GRID[CHOSEN])
        print(f"{name}: pairs {json.dumps(r['pairs'])} types {r['type_accuracy']} "
              f"(majority {r['type_majority']}) novelty F1 {r['novelty']['f1']} "
              f"ECE {r['ece']}", flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[3] / "shared")
    ap.add_argument("--table", type=Path, help="build the table here")
    ap.add_argument("--cv", action="store_true")
    ap.add_argument("--json", type=Path)
    a = ap.parse_args(argv)
    if a.table:
        print(f"{build_table(a.shared, a.table)} pairs -> {a.table}")
    if a.cv:
        rep = compare(str(a.shared))
        if a.json:
            a.json.write_text(json.dumps(rep, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
