"""Evaluate species tagging and species-aware grounding on ../shared/corpora/genes.

    python -m lab.genes.eval_species [--shared ../shared] [--genes <gene corpora>]

1. Organism mentions (``relx.genes.species.find_species``) against S800, LINNAEUS (species and
   species clues), CRAFT (NCBITaxon) and LocText organisms, test splits: recall over gold
   mentions of the taxa relx knows, precision of relx's ``name`` hits (a hit is right when it
   overlaps a gold mention of the same taxon; CRAFT's genus-level Mus/Drosophila/Nematoda
   and yeast/pombe strains count as the species).
2. LocText proteins (all 100 abstracts; gold UniProt ids): a mention is human when one of its
   accessions is in the HGNC table. Human: species given, best id right / any id right
   (HGNC), of ``ground_document``. Others: species not human, and how often the best id is
   an HGNC id anyway (a wrong id). (The ``new_`` in the figures' names is from when they
   stood beside relx's older, human-only grounding.)
3. GNAT-100 (BioCreative I subset): the document focus against the gold genes' majority
   taxon; and end to end (relx's tagger, species and grounding) each document's best ids,
   as NCBI Gene ids, against its gold gene list, for human and (with an NCBI
   ``Mus_musculus.gene_info`` for MGI -> NCBI Gene) mouse genes.

None of these corpora was used to write relx's species or grounding rules.
"""

from __future__ import annotations

import argparse
import collections
import csv
import gzip
import json
from collections.abc import Iterator
from pathlib import Path

from relx.doc import Document, Entity, Sentence, Span
from relx.genes.document import ground_document
from relx.genes.lexicon import Grounder
from relx.genes.species import HUMAN, MOUSE, TAXON_NAMES, document_focus, find_species

SAME = {"NCBITaxon:559292": "NCBITaxon:4932", "NCBITaxon:284812": "NCBITaxon:4896",
        "NCBITaxon:10088": "NCBITaxon:10090", "NCBITaxon:7215": "NCBITaxon:7227",
        "NCBITaxon:6231": "NCBITaxon:6239"}


def norm(taxon: str | None) -> str:
    return SAME.get(taxon or "", taxon or "")


def docs(genes: Path, corpus: str, splits: tuple[str, ...]) -> Iterator[dict]:
    for split in splits:
        path = genes / corpus / f"{split}.jsonl"
        if path.exists():
            with path.open(encoding="utf-8") as fh:
                yield from (json.loads(line) for line in fh)


def species_mentions(genes: Path, corpus: str, types: set[str]) -> dict:
    gold_n = found = hits_n = hits_ok = 0
    for d in docs(genes, corpus, ("test",)):
        gold = [(m["start"], m["end"], norm(m["taxon"] or (m["ids"] or [""])[0]))
                for m in d["mentions"] if m["type"] in types]
        hits = find_species(d["text"])
        for s, e, t in gold:
            if t in TAXON_NAMES:
                gold_n += 1
                found += any(h.start < e and s < h.end and norm(h.taxon) == t for h in hits)
        for h in hits:
            if h.kind == "name":
                hits_n += 1
                hits_ok += any(h.start < e and s < h.end and norm(h.taxon) == t
                               for s, e, t in gold)
    return {"corpus": corpus, "gold": gold_n, "recall": round(found / max(gold_n, 1), 3),
            "name_hits": hits_n, "precision": round(hits_ok / max(hits_n, 1), 3)}


def _hgnc_rows(shared: Path) -> Iterator[dict[str, str]]:
    """The rows of the shared HGNC table."""
    path = next((shared / "lexicons" / "hgnc").glob("*.tsv.gz"))
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        yield from csv.DictReader(fh, delimiter="\t")


def uniprot_to_hgnc(shared: Path) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for r in _hgnc_rows(shared):
        if r["Status"] == "Approved":
            for u in r["UniProt ID(supplied by UniProt)"].split(","):
                if u.strip():
                    out.setdefault(u.strip(), set()).add(r["HGNC ID"])
    return out


def _accession(curie: str) -> str:
    """``UniProtKB:P12345-2`` -> ``P12345``; ``UniProtKB:uniprot:`` (no id) -> ``""``."""
    local = curie.split(":", 1)[1] if ":" in curie else curie
    return "" if not local or local.startswith("uniprot:") else local.split("-")[0]


def loctext_proteins(genes: Path, shared: Path,
                     splits: tuple[str, ...] = ("train", "devel", "test")) -> dict:
    up, g = uniprot_to_hgnc(shared), Grounder()
    st: collections.Counter[str] = collections.Counter()
    for d in docs(genes, "loctext", splits):
        prots = [m for m in d["mentions"] if m["type"] == "protein"]
        ents = [Entity(id=f"T{i}", spans=[Span(start=m["start"], end=m["end"])], text=m["text"])
                for i, m in enumerate(prots)]
        doc = Document(id=d["id"], text=d["text"], sentences=[Sentence(
            id="s", start=0, end=len(d["text"]), text=d["text"], entities=ents)])
        new = ground_document(doc, g).sentences[0].entities
        for m, n in zip(prots, new, strict=True):
            accessions = [a for a in (_accession(i) for i in m["ids"]) if a]
            if not accessions:  # LocText's "UniProtKB:uniprot:": a protein left unnormalised
                st["no_gold_id"] += 1
                continue
            gold = set().union(*(up.get(a, set()) for a in accessions))
            kind = "human" if gold else "other"
            st[f"{kind}.n"] += 1
            if gold:
                st["human.new_taxon_human"] += n.taxon == "NCBITaxon:9606"
                st["human.new_best_right"] += bool(n.norm_ids) and n.norm_ids[0] in gold
                st["human.new_any_right"] += bool(set(n.norm_ids) & gold)
            else:
                st["other.new_taxon_not_human"] += n.taxon != "NCBITaxon:9606"
                st["other.new_best_is_hgnc"] += n.norm_ids[:1] != [] and \
                    n.norm_ids[0].startswith("HGNC:")
    return dict(sorted(st.items()))


def gnat_focus(genes: Path) -> dict:
    ok = n = 0
    for d in docs(genes, "gnat100-bc1", ("test",)):
        taxa = collections.Counter(norm(t) for t in d["doc_taxa"].values())
        if taxa:
            n += 1
            focus = document_focus(find_species(d["text"])) or "NCBITaxon:9606"
            ok += norm(focus) == taxa.most_common(1)[0][0]
    return {"docs": n, "focus_accuracy": round(ok / max(n, 1), 3)}


def entrez_of(shared: Path, mouse_gene_info: Path | None) -> dict[str, str]:
    """HGNC and MGI ids -> ``NCBIGene:`` ids: HGNC's own column, and the ``MGI:MGI:...``
    cross-references of an NCBI ``Mus_musculus.gene_info`` file when one is given."""
    out: dict[str, str] = {}
    for r in _hgnc_rows(shared):
        if r["NCBI Gene ID(supplied by NCBI)"].strip():
            out[r["HGNC ID"]] = f"NCBIGene:{r['NCBI Gene ID(supplied by NCBI)'].strip()}"
    if mouse_gene_info is not None:
        with gzip.open(mouse_gene_info, "rt", encoding="utf-8") as fh:
            for line in fh:
                cols = line.split("\t")
                for x in cols[5].split("|") if len(cols) > 5 else ():
                    if x.startswith("MGI:MGI:"):
                        out[x[4:]] = f"NCBIGene:{cols[1]}"
    return out


def gnat_normalisation(genes: Path, shared: Path, mouse_gene_info: Path | None) -> dict:
    """GNAT-100 end to end, document level: relx's tagger and species-aware grounding on
    each abstract, each mention's best id (as NCBI Gene) against the document's gold gene
    list. Per species: gold genes found (recall) and predicted genes of that species in the
    gold list (precision). Mouse needs ``mouse_gene_info`` (MGI -> NCBI Gene)."""
    from relx.parse.pipeline import Parser

    entrez = entrez_of(shared, mouse_gene_info)
    items = list(docs(genes, "gnat100-bc1", ("test",)))
    parsed = Parser().parse_documents(
        [Document(id=d["id"], text=d["text"]) for d in items], min_entities=1)
    st: collections.Counter[str] = collections.Counter()
    for d, doc in zip(items, parsed, strict=True):
        gold = {g: norm(t) for g, t in d["doc_taxa"].items()}
        pred: dict[str, str] = {}
        for e in (e for s in ground_document(doc).sentences for e in s.entities):
            if e.norm_ids and e.norm_ids[0] in entrez:
                pred.setdefault(entrez[e.norm_ids[0]], norm(e.taxon))
        for taxon, name in ((HUMAN, "human"), (MOUSE, "mouse")):
            st[f"{name}.gold"] += sum(t == taxon for t in gold.values())
            st[f"{name}.found"] += sum(t == taxon and g in pred for g, t in gold.items())
            st[f"{name}.predicted"] += sum(t == taxon for t in pred.values())
            st[f"{name}.predicted_right"] += sum(t == taxon and g in gold
                                                 for g, t in pred.items())
    st["docs"] = len(items)
    return dict(sorted(st.items()))


LOCTEXT_SPLITS = (("all", ("train", "devel", "test")), ("train", ("train",)),
                  ("devel+test", ("devel", "test")))


def figures(genes: Path, shared: Path, mouse_gene_info: Path | None = None) -> dict:
    """Every figure of this module: organism mentions per corpus, LocText grounding per
    split (``train``: the development split; ``devel+test``: held out; ``all``), GNAT-100
    document focus and, when its corpus is there, GNAT-100 genes end to end."""
    out: dict = {"species_mentions": [
        species_mentions(genes, corpus, types)
        for corpus, types in (("s800", {"Species"}), ("linnaeus", {"species", "species_clue"}),
                              ("craft", {"NCBITaxon"}), ("loctext", {"organism"}))]}
    out["loctext_proteins"] = {name: loctext_proteins(genes, shared, splits)
                               for name, splits in LOCTEXT_SPLITS}
    out["gnat100_bc1"] = gnat_focus(genes)
    if (genes / "gnat100-bc1" / "test.jsonl").exists():
        out["gnat100_genes"] = gnat_normalisation(genes, shared, mouse_gene_info)
    return out


def markdown(fig: dict) -> str:
    """The figures as markdown tables (``benchmarks/bench_genes.py``, docs/results.md)."""
    lines = ["| organism mentions | gold | recall | relx name hits | precision |",
             "|---|---|---|---|---|"]
    lines += [f"| {r['corpus']} | {r['gold']} | {r['recall']:.3f} | {r['name_hits']} | "
              f"{r['precision']:.3f} |" for r in fig["species_mentions"]]
    lines += ["", "| LocText proteins | human | given human | best id right | any id right "
              "| other | given non-human | best id HGNC (wrong) |", "|---|---|---|---|---|---|---|---|"]
    for name, r in fig["loctext_proteins"].items():
        h, o = r.get("human.n", 0), r.get("other.n", 0)
        if not (h and o):
            continue
        lines.append(
            f"| {name} | {h} | {r['human.new_taxon_human'] / h:.3f} | "
            f"{r['human.new_best_right'] / h:.3f} | {r['human.new_any_right'] / h:.3f} | {o} | "
            f"{r['other.new_taxon_not_human'] / o:.3f} | {r['other.new_best_is_hgnc'] / o:.3f} |")
    g = fig["gnat100_bc1"]
    lines += ["", f"GNAT-100 (BioCreative I): document focus right for {g['focus_accuracy']:.3f}"
              f" of {g['docs']} documents"]
    n = fig.get("gnat100_genes")
    if n:
        lines += ["", "| GNAT-100 genes, end to end (document level) | gold genes | found | "
                  "predicted | predicted right |", "|---|---|---|---|---|"]
        lines += [f"| {sp} | {n[sp + '.gold']} | {n[sp + '.found']} | {n[sp + '.predicted']} | "
                  f"{n[sp + '.predicted_right']} |" for sp in ("human", "mouse")]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", type=Path, default=Path("../shared"))
    ap.add_argument("--genes", type=Path,
                    help="the JSONL gene corpora (default: <shared>/corpora/genes)")
    ap.add_argument("--mouse-gene-info", type=Path,
                    help="NCBI Mus_musculus.gene_info.gz (MGI -> NCBI Gene, for GNAT-100 mouse)")
    args = ap.parse_args()
    got = figures(args.genes or args.shared / "corpora" / "genes", args.shared,
                  args.mouse_gene_info)
    for row in got["species_mentions"]:
        print(json.dumps(row))
    for name, row in got["loctext_proteins"].items():
        print(json.dumps({"loctext_proteins": name, **row}))
    print(json.dumps({"gnat100_bc1": got["gnat100_bc1"]}))
    if "gnat100_genes" in got:
        print(json.dumps({"gnat100_genes": got["gnat100_genes"]}))


if __name__ == "__main__":
    main()
