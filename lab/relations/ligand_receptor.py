"""Gene relations rounds 7b and 7c (docs/relations.md): the ligand-receptor table, and BioRED
types with and without the rule that types its pairs Bind (fit-split 5-fold CV by document,
the same views, folds and setting); round 7's marker word was reverted.

    python -m lab.relations.ligand_receptor --table relx/data/ligand_receptor.tsv.gz
    python -m lab.relations.ligand_receptor --rule-cv [--json out.json]    # round 7b: Bind
    python -m lab.relations.ligand_receptor --release models/gene-relations --version 0.2.1
    python -m lab.relations.ligand_receptor --dev-look [--json out.json]   # registered look

``--release`` writes round 7b's rule into a gene relation model folder's ``meta.json``
(``ligand_receptor_bind``: the rule's precision on the fit split's gold pairs, its
``type_probability``), the classifiers untouched.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path

import numpy as np

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


def ligand_receptor_rows(docs, views, max_pairs: int | None = None) -> np.ndarray:
    """(n,) bool over :func:`lab.relations.biored.pair_data`'s candidates (same order):
    the pair is a ligand and its receptor."""
    from lab.relations.biored import MAX_PAIRS
    from relx.ppi.doc_features import candidates
    from relx.ppi.ligand_receptor import default_ligand_receptors

    table = default_ligand_receptors()
    return np.array([k in table for d in docs
                     for k in candidates(views[d.pmid], max_pairs or MAX_PAIRS).keys], bool)


def rule_precision(docs, views) -> dict:
    """Round 7b's rule on the fit split's gold pairs: of the related candidate pairs that
    are a ligand and its receptor, how many BioRED types ``Bind`` (the rule's
    ``type_probability``)."""
    from relx.ppi.doc_features import candidates
    from relx.ppi.ligand_receptor import default_ligand_receptors

    table = default_ligand_receptors()
    n = bind = 0
    for d in docs:
        for k in candidates(views[d.pmid], None).keys:
            rel = d.relations.get(frozenset(k))
            if rel is not None and k in table:
                n += 1
                bind += rel.type == "Bind"
    return {"related_pairs": n, "bind": bind, "precision": round(bind / n, 4) if n else 0.0}


def compare_rule(shared: str | None = None) -> dict:
    """CV figures of :data:`lab.relations.biored.CHOSEN` without and with round 7b's rule."""
    from lab.relations.biored import CHOSEN, GRID, _baseline_threshold, cross_validate, pair_data
    from lab.relations.corpus import read_relations
    from lab.relations.views import load_views

    docs = read_relations(shared, "fit")
    views = load_views()
    data = pair_data(docs, views, _baseline_threshold())
    bind = ligand_receptor_rows(docs, views)
    assert len(bind) == len(data.related)
    out: dict = {"setting": CHOSEN, "ligand_receptor_candidates": int(bind.sum()),
                 "rule_on_fit_gold": rule_precision(docs, views)}
    for name, mask in (("without", None), ("with the rule", bind)):
        r = out[name] = cross_validate(data, GRID[CHOSEN], bind=mask)
        print(f"{name}: pairs {json.dumps(r['pairs'])} types {r['type_accuracy']} "
              f"(majority {r['type_majority']}) novelty F1 {r['novelty']['f1']} "
              f"ECE {r['ece']}", flush=True)
    print(json.dumps(out["rule_on_fit_gold"]))
    return out


def release(folder: Path, version: str, shared: str | None = None) -> dict:
    """Round 7b's rule into ``folder``'s ``meta.json`` (the classifiers are not touched)."""
    from lab.relations.corpus import read_relations
    from lab.relations.views import load_views

    meta_file = folder / "meta.json"
    meta = json.loads(meta_file.read_text(encoding="utf-8"))
    rule = rule_precision(read_relations(shared, "fit"), load_views())
    meta["ligand_receptor_bind"] = {
        **rule, "table": "relx/data/ligand_receptor.tsv.gz",
        "note": "a reported pair of a ligand and its receptor (relx.ppi.ligand_receptor) is "
                "typed Bind with this precision as its type_probability (docs/relations.md, "
                "round 7b)"}
    meta["changes"] = {**meta.get("changes", {}), version: (
        f"{meta['version']} with round 7b's rule: ligand-receptor pairs typed Bind")}
    meta["version"] = version
    meta_file.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    return meta


def dev_look(shared: str | None = None) -> dict:
    """Issue 51's fourth development look (registered in docs/relations.md, round 7b): the
    *shipped* gene relation model (``models/gene-relations``: its classifiers as shipped,
    its ``meta.json`` rule) on the development split, given the gold gene mentions; needs
    the development views (``python -m lab.relations.views --split dev --out
    runs/relations/views-dev.jsonl``)."""
    from lab.relations.biored import _baseline_threshold, baseline_figures, pair_data
    from lab.relations.corpus import read_relations
    from lab.relations.metrics import score
    from lab.relations.views import load_views
    from relx.ppi.gene_relations import load_gene_model

    views = load_views(path=Path("runs/relations/views-dev.jsonl"))
    docs = read_relations(shared, "dev")
    meta, model = load_gene_model()
    dev = pair_data(docs, views, _baseline_threshold())
    types = model.predict_type(dev.X, dev.texts)[0].astype(object)
    if meta.get("ligand_receptor_bind"):
        types[ligand_receptor_rows(docs, views)] = "Bind"
    rep = {"split": "dev (fourth look, registered for gene-relations 0.2.1)",
           "setting": f"gene-relations {meta['version']} (ligand-receptor pairs Bind)",
           "documents": len(docs), "candidates": len(dev.related), "gold_pairs": dev.n_gold,
           "gold_not_candidate": dev.not_candidate, "capped": dev.capped,
           "baseline_relx_today": baseline_figures(dev),
           **score(model.pair_probability(dev.X, dev.texts), dev.related, model.threshold,
                   dev.n_gold, dev.types, types, dev.novel,
                   model.novel_probability(dev.X, dev.texts), model.novel_threshold)}
    print(json.dumps({k: rep[k] for k in ("pairs", "type_accuracy", "type_majority",
                                          "novelty", "ece", "confusion")}, indent=1))
    return rep


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[3] / "shared")
    ap.add_argument("--table", type=Path, help="build the table here")
    ap.add_argument("--rule-cv", action="store_true")
    ap.add_argument("--release", type=Path, help="a gene relation model folder")
    ap.add_argument("--dev-look", action="store_true")
    ap.add_argument("--version", default="0.2.1")
    ap.add_argument("--json", type=Path)
    a = ap.parse_args(argv)
    if a.table:
        print(f"{build_table(a.shared, a.table)} pairs -> {a.table}")
    if a.release:
        print(json.dumps(release(a.release, a.version, str(a.shared))["ligand_receptor_bind"]))
    if a.dev_look:
        rep = dev_look(str(a.shared))
        if a.json:
            a.json.write_text(json.dumps(rep, indent=1) + "\n", encoding="utf-8")
    if a.rule_cv:
        rep = compare_rule(str(a.shared))
        if a.json:
            a.json.write_text(json.dumps(rep, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
