"""Gene/protein NER, old vs new side by side (issue 41; protocol in docs/genes.md).

    python benchmarks/bench_genes.py [--old models/relx_bio_sm] [--new runs/<run>/model-best]
        [--genes ../shared/corpora/genes] [--shared ../shared] [--external] [--json out.json]
        [--parts ner grounding biored] [--biored-split dev|fit|fit-held]

Each model is a spaCy pipeline directory (the shipped pipeline, an assembled candidate or a
``spacy train`` output); only its tokenizer and ``ner`` run. Sets scored (PROTEIN spans
against gold, :func:`relx.parse.ner.score_spans`, exact and overlap P/R/F1):

- dev: ``ge11_devel`` (GE 2011 devel ``.a1`` Protein, the regression set),
  ``ge11_devel_famplex`` (the same, predictions on a FamPlex family/complex name that overlap
  no gold protein not counted), ``ge11_devel_proteins`` (the same gold, against the
  mentions relx types ``Protein``: a mention written as a FamPlex family/complex name is a
  ``Protein_family_or_group`` in relx's output, :func:`relx.parse.paper_mentions.mention_type`,
  the distinction GE's annotation makes), ``bc2gm_devel`` (``GENE``; ``bc2gm_devel_alt`` also accepts
  the ``ALTGENE`` boundaries, as the BioCreative II scorer does), ``cg_devel``
  (``Gene_or_gene_product``), ``craft_devel`` (``PR``, 7 full texts), ``biored_fit_held``
  (BioRED train's fit-split held-out part, ``sha1(pmid) % 5 == 1``, ``GeneOrGeneProduct``;
  title + space + abstract as relx reads them; when ``../shared`` has BioRED);
- external, only with ``--external``: ``pc_test`` (BioNLP-ST 2013 PC test,
  ``Gene_or_gene_product`` + ``Complex``), ``loctext`` (all 100 abstracts, ``protein``).

Grounding and species (``--parts grounding``, no model needed; ``lab/genes/eval_species.py``,
protocol in docs/genes.md): organism mentions found in S800, LINNAEUS, CRAFT and LocText;
LocText proteins -- human mentions (UniProt accession in HGNC) given human and best / any
HGNC id right, other mentions given a non-human species and kept off HGNC ids -- on the
development split (train), the held-out split (devel+test) and all; GNAT-100 document focus,
and its genes end to end (relx's tagger, species and grounding; best ids against each
document's gold gene list; mouse needs ``--mouse-gene-info``, an NCBI gene_info file).

``flat_ceiling``: the share of gold spans a non-overlapping tagging could match (gold spans
may nest). ``ner_seconds``: the ``ner`` component alone on the GE 2011 devel texts
(tokenised beforehand), CPU seconds (process time; run with one BLAS thread), median of
``--repeat`` runs, the two taggers taking turns.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from relx.parse.ner import CharSpan, gold_spans, score_spans  # noqa: E402
from relx.parse.ner_corpora import (  # noqa: E402
    EXTERNAL_CORPORA,
    TRAIN_CORPORA,
    biored_docs,
    dev_docs,
    excluded_pmids,
    famplex_pattern,
    gold_spans_jsonl,
    split_docs,
)
from relx.parse.paper_mentions import mention_span, mention_type  # noqa: E402

DEV_SETS = ("ge11_devel", "ge11_devel_famplex", "ge11_devel_proteins", "bc2gm_devel",
            "bc2gm_devel_alt", "cg_devel", "craft_devel", "biored_fit_held")
EXTERNAL_SETS = ("pc_test", "loctext")
FIGURES = ("precision", "recall", "f1", "precision_overlap", "recall_overlap", "f1_overlap")


def load_ner(path: Path):
    """The pipeline at ``path`` with only its tokenizer and ``ner`` enabled."""
    from spacy.util import load_config

    from relx.parse.ner import register
    from relx.parse.pipeline import load_nlp

    register()
    pipes = load_config(Path(path) / "config.cfg")["nlp"]["pipeline"]
    return load_nlp(path, exclude=[p for p in pipes if p != "ner"])


def predict(nlp, texts: list[str]) -> list[set[CharSpan]]:
    return [{mention_span(e) for e in doc.ents if e.label_ == "PROTEIN"}
            for doc in nlp.pipe(texts, batch_size=16)]


def flat_ceiling(gold: list[set[CharSpan]]) -> float:
    """Most gold spans a non-overlapping selection can hold (by earliest end), over all."""
    n = kept = 0
    for g in gold:
        n += len(g)
        end = -1
        for s, e in sorted(g, key=lambda x: (x[1], x[0])):
            if s >= end:
                kept, end = kept + 1, e
    return kept / n if n else 0.0


def alt_scores(docs: list[dict], pred: list[set[CharSpan]]) -> dict:
    """BioCreative II GM scoring: a prediction is correct when it equals a ``GENE`` span or
    an ``ALTGENE`` span of an overlapping gene (each gene found once)."""
    tp = fp = fn = 0
    for d, p in zip(docs, pred, strict=True):
        genes = sorted(gold_spans_jsonl(d, {"GENE"}))
        alts = [(a["start"], a["end"]) for a in d.get("alternatives", ())]
        accept = {g: {g} | {a for a in alts if a[0] < g[1] and g[0] < a[1]} for g in genes}
        found = set()
        for span in p:
            hit = next((g for g in genes if g not in found and span in accept[g]), None)
            if hit is None:
                fp += 1
            else:
                found.add(hit)
                tp += 1
        fn += len(genes) - len(found)
    prec = tp / (tp + fp) if tp + fp else 0.0
    rec = tp / (tp + fn) if tp + fn else 0.0
    return {"precision": prec, "recall": rec,
            "f1": 2 * prec * rec / (prec + rec) if prec + rec else 0.0,
            "gold": tp + fn, "predicted": tp + fp, "correct": tp}


def load_sets(shared: Path, genes: Path, external: bool) -> dict[str, tuple]:
    """name -> (texts, gold span sets, extra) for every set scored."""
    from relx.io.standoff import read_standoff_dir

    sets: dict[str, tuple] = {}
    ge = read_standoff_dir(shared / "corpora" / "bionlp-st-ge" / "2011" / "devel")
    sets["ge11_devel"] = ([d.text for d in ge], [gold_spans(d) for d in ge], None)
    excluded = excluded_pmids(shared, genes)
    for name, key in (("bc2gm", "bc2gm_devel"), ("bionlp13cg", "cg_devel")):
        docs = dev_docs(genes, excluded, name)
        sets[key] = ([d["text"] for d in docs],
                     [gold_spans_jsonl(d, TRAIN_CORPORA[name].gene) for d in docs], docs)
    craft = split_docs(genes, "craft", "devel")
    sets["craft_devel"] = ([d["text"] for d in craft],
                           [gold_spans_jsonl(d, {"PR"}) for d in craft], None)
    biored = shared / "corpora" / "biored" / "Train.PubTator.gz"
    if biored.exists():
        docs = biored_docs(biored, "fit-held", excluded["kept"])
        sets["biored_fit_held"] = ([d["text"].replace("\n", " ", 1) for d in docs],
                                   [gold_spans_jsonl(d, {"GeneOrGeneProduct"}) for d in docs],
                                   None)
    if external:
        for name, key in (("bionlp13pc", "pc_test"), ("loctext", "loctext")):
            spec = EXTERNAL_CORPORA[name]
            docs = [d for split in spec.train for d in split_docs(genes, name, split)]
            sets[key] = ([d["text"] for d in docs],
                         [gold_spans_jsonl(d, spec.gene) for d in docs], None)
    return sets


def famplex_adjusted(texts, gold, pred, pattern) -> dict:
    kept = []
    for t, g, p in zip(texts, gold, pred, strict=True):
        fam = [m.span() for m in pattern.finditer(t)]
        kept.append({(s, e) for s, e in p
                     if any(s < ge and gs < e for gs, ge in g)
                     or not any(s < fe and fs < e for fs, fe in fam)})
    return score_spans(gold, kept)


def ner_seconds(nlps: list, texts: list[str], repeat: int) -> list[float]:
    """CPU seconds of each pipeline's ``ner`` on ``texts`` (tokenised beforehand): the
    median of ``repeat`` runs, the pipelines taking turns (a shared machine's load then
    falls on both alike)."""
    docs = [nlps[0].make_doc(t) for t in texts]
    runs: list[list[float]] = [[] for _ in nlps]
    for _ in range(repeat):
        for k, nlp in enumerate(nlps):
            copies = [d.copy() for d in docs]
            t0 = time.process_time()
            for _ in nlp.get_pipe("ner").pipe(copies, batch_size=16):
                pass
            runs[k].append(time.process_time() - t0)
    return [statistics.median(r) for r in runs]


def score_model(nlp, path: Path, sets: dict, pattern) -> dict:
    out: dict = {"model": str(path)}
    for name, (texts, gold, extra) in sets.items():
        pred = predict(nlp, texts)
        r = score_spans(gold, pred)
        r["flat_ceiling"] = round(flat_ceiling(gold), 4)
        out[name] = r
        if name == "ge11_devel":
            out["ge11_devel_famplex"] = famplex_adjusted(texts, gold, pred, pattern)
            out["ge11_devel_proteins"] = score_spans(gold, [
                {(s, e) for s, e in p if mention_type(t[s:e]) == "Protein"}
                for t, p in zip(texts, pred, strict=True)])
        if name == "bc2gm_devel":
            out["bc2gm_devel_alt"] = alt_scores(extra, pred)
    return out


def table(results: list[dict]) -> str:
    names = [n for n in (*DEV_SETS, *EXTERNAL_SETS) if n in results[0]]
    lines = [f"{'set':22} {'model':5} {'P':>6} {'R':>6} {'F1':>6} | {'oP':>6} {'oR':>6} "
             f"{'oF1':>6} | {'gold':>6} {'pred':>6}"]
    for n in names:
        for label, r in zip(("old", "new"), results, strict=False):
            s = r[n]
            ov = " ".join(f"{s[k]:6.4f}" if k in s else "     -" for k in FIGURES[3:])
            lines.append(f"{n:22} {label:5} {s['precision']:6.4f} {s['recall']:6.4f} "
                         f"{s['f1']:6.4f} | {ov} | {s['gold']:6d} {s['predicted']:6d}")
    for label, r in zip(("old", "new"), results, strict=False):
        if "ner_seconds" in r:
            lines.append(f"ner component, GE 2011 devel texts ({label}): {r['ner_seconds']} CPU s")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", type=Path, default=ROOT / "models" / "relx_bio_sm")
    ap.add_argument("--new", type=Path, help="the new tagger (omitted: the old one alone)")
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    ap.add_argument("--genes", type=Path)
    ap.add_argument("--external", action="store_true",
                    help="also score the external test corpora (docs/genes.md: only for the "
                         "old and the one selected new tagger)")
    ap.add_argument("--repeat", type=int, default=3, help="ner timing runs (0: no timing)")
    ap.add_argument("--json", type=Path, help="write the figures here")
    ap.add_argument("--mouse-gene-info", type=Path,
                    help="NCBI Mus_musculus.gene_info.gz: MGI -> NCBI Gene for GNAT-100 mouse")
    ap.add_argument("--parts", nargs="+", choices=("ner", "grounding", "biored"),
                    default=["ner", "grounding"],
                    help="what to measure (default: ner and grounding; biored: gene naming "
                         "and end-to-end gene pairs on BioRED train, lab/genes/biored.py)")
    ap.add_argument("--gene-relations", action="store_true",
                    help="with --parts biored: also score end-to-end gene pairs with the "
                         "document-level gene relation model (models/gene-relations)")
    ap.add_argument("--intervals", type=int, default=0, metavar="N",
                    help="with --parts biored: 95%% intervals from N bootstrap resamples of "
                         "the split's documents (lab/genes/intervals.py)")
    ap.add_argument("--biored-split", choices=("dev", "fit", "fit-held"), default="dev",
                    help="BioRED train split for --parts biored (docs/genes.md: dev is scored "
                         "for reporting only)")
    a = ap.parse_args(argv)
    genes = a.genes or a.shared / "corpora" / "genes"
    out: dict = {}
    if "ner" in a.parts:
        out.update(ner_part(a, genes))
    if "grounding" in a.parts:
        from lab.genes.eval_species import figures, markdown

        out["grounding"] = figures(genes, a.shared, a.mouse_gene_info)
        print(markdown(out["grounding"]))
    if "biored" in a.parts:
        from lab.genes.biored import evaluate, evaluate_gene_relations, read_biored, wrong_markdown
        from lab.genes.biored import markdown as biored_markdown

        docs = read_biored(a.shared, a.biored_split)
        tally = evaluate(docs, shared=a.shared)
        out["biored"] = {"split": a.biored_split, **tally.report()}
        print(biored_markdown(out["biored"]))
        print("\nFound mentions whose best id is wrong, by kind:\n\n"
              + wrong_markdown(out["biored"]) + "\n")
        got = None
        if a.gene_relations:
            out["biored"]["gene_relations"] = got = evaluate_gene_relations(docs, shared=a.shared)
            print("with the gene relation model: gene pairs by NCBI Gene id P / R / F1 "
                  "{precision:.3f} / {recall:.3f} / {f1:.3f}".format(**got["pairs"]),
                  "(ceiling {f1:.3f})".format(**got["pairs_gold_ids"]))
        if a.intervals:
            from lab.genes.intervals import by_document, interval_markdown

            out["biored"]["intervals"] = by_document(
                tally.documents, got and got["documents"], resamples=a.intervals)
            print(interval_markdown(out["biored"]["intervals"]))
        if got:
            got.pop("documents")
    if a.json:
        a.json.write_text(json.dumps(out, indent=1))


def ner_part(a: argparse.Namespace, genes: Path) -> dict:
    """The taggers' figures (old, and new when given), printed as a table."""
    sets = load_sets(a.shared, genes, a.external)
    pattern = famplex_pattern(a.shared / "lexicons" / "famplex")
    paths = [a.old] if a.new is None else [a.old, a.new]
    nlps = [load_ner(p) for p in paths]
    results = [score_model(nlp, p, sets, pattern) for nlp, p in zip(nlps, paths, strict=True)]
    if a.repeat:
        for r, sec in zip(results, ner_seconds(nlps, sets["ge11_devel"][0], a.repeat),
                          strict=True):
            r["ner_seconds"] = round(sec, 3)
    print(table(results))
    return dict(zip(("old", "new"), results, strict=False))


if __name__ == "__main__":
    main()
