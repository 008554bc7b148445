"""Gene naming on BioRED's training split: mentions, ids by species, end-to-end gene pairs.

    python -m lab.genes.biored [--split dev|fit|all|fit-train|fit-held] [--shared ../shared] [--json out.json]
        [--errors errors.tsv]

The protocol is registered in docs/genes.md ("Naming genes on today's annotation"): a PMID is
in the development split when ``sha1(pmid) % 5 == 0`` (86 abstracts), else in the fit split
(314); rules and thresholds are chosen on the fit split only, errors are read there only.
Never BioRED Dev/Test: only ``Train.PubTator.gz`` is read, and documents listed in
``kept-pmids.txt`` are dropped.

relx runs as a user runs it (``relx.load(task="ppi")`` on the raw title + abstract): its tagger,
species, grounding and relation model. Scored against the gold ``GeneOrGeneProduct``
mentions (NCBI Gene ids) and gene--gene relations:

- ``mentions``: P / R of relx's gene mentions, exact and overlap;
- ``ids``: of the gold mentions a relx mention overlaps (``found``), the share whose relx
  mention's best id, as an NCBI Gene id, is a gold id (``best_right``), by the gold gene's
  species (``human``, ``mouse``, ``other``); ``no_id``: found mentions whose relx mention has
  no gene id at all (a FamPlex family counts as an id, never as right);
- ``pairs``: document-level gene pairs by NCBI Gene id, the unordered id pairs of the
  reported relations (best ids) against BioRED's gene--gene relations (any type);
  ``pairs_gold_ids``: the same relation scores with every found mention given its gold id
  (the ceiling the names allow).
"""

from __future__ import annotations

import argparse
import collections
import gzip
import hashlib
import json
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from relx.doc import Document, Entity

GENE_TYPE = "GeneOrGeneProduct"
HUMAN_TAXON, MOUSE_TAXON = "9606", "10090"


def shared_dir(shared: str | Path | None = None) -> Path:
    return Path(shared or os.environ.get("RELX_DATA") or
                Path(__file__).resolve().parents[2].parent / "shared")


def in_dev(pmid: str) -> bool:
    """The registered development split: ``sha1(pmid) % 5 == 0``."""
    return int(hashlib.sha1(pmid.encode("ascii")).hexdigest(), 16) % 5 == 0


#: splits of read_biored: the registered dev / fit split, all, and the fit split's two NER
#: parts (``relx.parse.ner_corpora.biored_part``: ``fit-held`` = ``sha1(pmid) % 5 == 1``)
SPLITS = ("dev", "fit", "all", "fit-train", "fit-held")


@dataclass
class GoldMention:
    start: int
    end: int
    text: str
    ids: frozenset[str]          # bare NCBI Gene ids ("3175")


@dataclass
class GoldDoc:
    pmid: str
    text: str
    genes: list[GoldMention] = field(default_factory=list)
    gene_pairs: set[frozenset[str]] = field(default_factory=set)


def read_biored(shared: str | Path | None = None, split: str = "dev") -> list[GoldDoc]:
    """BioRED train's documents of ``split`` (:data:`SPLITS`), kept PMIDs dropped, with
    their gene mentions and gene--gene relation pairs."""
    from relx.parse.ner_corpora import biored_part, pubtator_blocks

    base = shared_dir(shared) / "corpora" / "biored"
    kept = set((base / "kept-pmids.txt").read_text().split())
    docs: dict[str, GoldDoc] = {}
    for block in pubtator_blocks(base / "Train.PubTator.gz"):
        d = docs[block.pmid] = GoldDoc(block.pmid, block.title + " " + block.abstract)
        for cols in block.mentions:
            if cols[4] == GENE_TYPE:
                ids = frozenset(i.strip() for i in cols[5].replace(";", ",").split(",")
                                if i.strip() and i.strip() != "-")
                d.genes.append(GoldMention(int(cols[1]), int(cols[2]), cols[3], ids))
        gene_ids = {i for m in d.genes for i in m.ids}
        for cols in block.relations:
            a, b = cols[2], cols[3]
            if a in gene_ids and b in gene_ids and a != b:
                d.gene_pairs.add(frozenset((a, b)))
    want = {"dev": lambda p: in_dev(p), "fit": lambda p: not in_dev(p),
            "all": lambda p: True, "fit-train": lambda p: biored_part(p) == "fit-train",
            "fit-held": lambda p: biored_part(p) == "fit-held"}[split]
    return [d for p, d in docs.items() if p not in kept and want(p)]


class NcbiIds:
    """HGNC / MGI ids -> NCBI Gene ids, and each NCBI Gene id's species, from the NCBI
    ``gene_info`` tables of ``../shared/lexicons/ncbi-gene``."""

    def __init__(self, shared: str | Path | None = None) -> None:
        self.to_ncbi: dict[str, str] = {}
        self.taxon: dict[str, str] = {}
        folder = shared_dir(shared) / "lexicons" / "ncbi-gene"
        for name in ("Homo_sapiens.gene_info.gz", "Mus_musculus.gene_info.gz"):
            with gzip.open(folder / name, "rt", encoding="utf-8") as fh:
                for line in fh:
                    if line.startswith("#"):
                        continue
                    cols = line.split("\t")
                    self.taxon[cols[1]] = cols[0]
                    for x in cols[5].split("|"):
                        if x.startswith(("HGNC:HGNC:", "MGI:MGI:")):
                            self.to_ncbi[x.split(":", 1)[1]] = cols[1]

    def ncbi(self, cid: str) -> str | None:
        """The bare NCBI Gene id of a relx id (``NCBIGene:7157``, ``HGNC:11998``)."""
        if cid.startswith("NCBIGene:"):
            return cid.split(":", 1)[1]
        return self.to_ncbi.get(cid)

    def species(self, ncbi_id: str) -> str:
        return {HUMAN_TAXON: "human", MOUSE_TAXON: "mouse"}.get(self.taxon.get(ncbi_id, ""), "other")


def gene_ids(e: Entity, ncbi: NcbiIds) -> list[str]:
    """An entity's NCBI Gene ids, best first (its ``ncbi_ids`` when relx set them)."""
    given = getattr(e, "ncbi_ids", None)
    if given:
        return [i.split(":", 1)[1] for i in given]
    return [n for n in (ncbi.ncbi(i) for i in e.norm_ids) if n]


def _entities(doc: Document) -> Iterator[Entity]:
    for s in doc.sentences:
        yield from s.entities


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _span(e: Entity) -> tuple[int, int]:
    return e.spans[0].start, e.spans[-1].end


def _prf(tp: int, n_pred: int, n_gold: int) -> dict[str, float]:
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 0.0
    return {"precision": round(p, 4), "recall": round(r, 4),
            "f1": round(2 * p * r / (p + r), 4) if p + r else 0.0, "tp": tp,
            "predicted": n_pred, "gold": n_gold}


@dataclass
class Tally:
    """Counts over documents; :meth:`report` turns them into the figures."""

    exact_tp: int = 0
    overlap_pred: int = 0
    overlap_gold: int = 0
    n_pred: int = 0
    n_gold: int = 0
    found: collections.Counter = field(default_factory=collections.Counter)
    right: collections.Counter = field(default_factory=collections.Counter)
    no_id: int = 0
    #: why found mentions have no id (``Entity.norm_reason``; ``-``: relx gave none)
    no_id_reasons: collections.Counter = field(default_factory=collections.Counter)
    #: (gold species, kind) -> found mentions whose best id is wrong (:func:`wrong_kind`)
    wrong: collections.Counter = field(default_factory=collections.Counter)
    pair_tp: int = 0
    pair_pred: int = 0
    pair_gold: int = 0
    ceil_tp: int = 0
    ceil_pred: int = 0
    errors: list[tuple[str, ...]] = field(default_factory=list)
    #: per document (pmid -> its counts), for intervals by document (lab/genes/intervals.py)
    documents: dict[str, dict[str, int]] = field(default_factory=dict)

    def report(self) -> dict[str, object]:
        found = sum(self.found.values())
        return {
            "mentions": {
                "exact": _prf(self.exact_tp, self.n_pred, self.n_gold),
                "overlap": {"precision": round(self.overlap_pred / self.n_pred, 4)
                            if self.n_pred else 0.0,
                            "recall": round(self.overlap_gold / self.n_gold, 4)
                            if self.n_gold else 0.0}},
            "ids": {"found": found,
                    "best_right": round(sum(self.right.values()) / found, 4) if found else 0.0,
                    "no_id": round(self.no_id / found, 4) if found else 0.0,
                    "no_id_reasons": dict(self.no_id_reasons.most_common()),
                    **{sp: {"found": self.found[sp],
                            "best_right": round(self.right[sp] / self.found[sp], 4)
                            if self.found[sp] else None,
                            "wrong": {k: self.wrong[sp, k] for k in WRONG_KINDS}}
                       for sp in ("human", "mouse", "other")}},
            "pairs": _prf(self.pair_tp, self.pair_pred, self.pair_gold),
            "pairs_gold_ids": _prf(self.ceil_tp, self.ceil_pred, self.pair_gold),
        }


#: why a found mention's best id is wrong, in the order :func:`wrong_kind` tests
WRONG_KINDS = ("no id", "family", "no NCBI id", "other species", "same species")


def wrong_kind(e: Entity, ids: list[str], species: str, ncbi: NcbiIds) -> str:
    """Why ``e``'s best id is not its gold gene (of ``species``): no id at all, a FamPlex
    family, another id without an NCBI Gene id (RGD without a rat ortholog), an NCBI id of
    another species than the gold gene's, or another gene of the same species."""
    if not e.norm_ids:
        return "no id"
    if not ids:
        return "family" if e.norm_ids[0].startswith("FPLX:") else "no NCBI id"
    return "other species" if ncbi.species(ids[0]) != species else "same species"


def wrong_markdown(rep: dict) -> str:
    """The found mentions with a wrong best id, by gold species and :data:`WRONG_KINDS`."""
    ids = rep["ids"]
    lines = ["| gold species | found | " + " | ".join(WRONG_KINDS) + " |",
             "|---" * (len(WRONG_KINDS) + 2) + "|"]
    for sp in ("human", "mouse", "other"):
        wrong = ids[sp].get("wrong") or {}
        lines.append(f"| {sp} | {ids[sp]['found']} | "
                     + " | ".join(str(wrong.get(k, 0)) for k in WRONG_KINDS) + " |")
    reasons = ids.get("no_id_reasons") or {}
    if reasons:
        lines += ["", "Found mentions without an id, by reason (`relx.genes.no_id`): "
                  + ", ".join(f"{k} {n}" for k, n in reasons.items())]
    return "\n".join(lines)


def score_document(gold: GoldDoc, doc: Document, relations: Iterable, ncbi: NcbiIds,
                   tally: Tally) -> None:
    """Add one document's mention, id and pair counts to ``tally``."""
    before = {"no_id": tally.no_id, "pair_tp": tally.pair_tp, "pair_pred": tally.pair_pred,
              "pair_gold": tally.pair_gold, **{f"found_{sp}": tally.found[sp]
                                               for sp in ("human", "mouse", "other")},
              **{f"right_{sp}": tally.right[sp] for sp in ("human", "mouse", "other")}}
    _score_document(gold, doc, relations, ncbi, tally)
    after = {"no_id": tally.no_id, "pair_tp": tally.pair_tp, "pair_pred": tally.pair_pred,
             "pair_gold": tally.pair_gold, **{f"found_{sp}": tally.found[sp]
                                              for sp in ("human", "mouse", "other")},
             **{f"right_{sp}": tally.right[sp] for sp in ("human", "mouse", "other")}}
    tally.documents[gold.pmid] = {k: after[k] - before[k] for k in after}


def _score_document(gold: GoldDoc, doc: Document, relations: Iterable, ncbi: NcbiIds,
                    tally: Tally) -> None:
    from relx.ids import is_protein_type

    ents = [e for e in _entities(doc) if is_protein_type(e.type)]
    pred = [(_span(e), e) for e in ents]
    gold_spans = [((m.start, m.end), m) for m in gold.genes]
    tally.n_pred += len(pred)
    tally.n_gold += len(gold_spans)
    tally.exact_tp += len({s for s, _ in pred} & {s for s, _ in gold_spans})
    tally.overlap_pred += sum(any(_overlap(s, g) for g, _ in gold_spans) for s, _ in pred)
    gold_of: dict[str, frozenset[str]] = {}      # relx entity id -> gold ids it overlaps
    for gspan, m in gold_spans:
        hits = [e for s, e in pred if _overlap(s, gspan)]
        if not hits:
            tally.errors.append((gold.pmid, "missed", m.text, ",".join(sorted(m.ids)), ""))
            continue
        tally.overlap_gold += 1
        e = min(hits, key=lambda h: abs(_span(h)[0] - gspan[0]) + abs(_span(h)[1] - gspan[1]))
        gold_of[e.id] = gold_of.get(e.id, frozenset()) | m.ids
        species = ncbi.species(min(m.ids)) if m.ids else "other"
        tally.found[species] += 1
        ids = gene_ids(e, ncbi)
        if not e.norm_ids:
            tally.no_id += 1
            tally.no_id_reasons[e.norm_reason or "-"] += 1
        ok = bool(ids) and ids[0] in m.ids
        tally.right[species] += ok
        if not ok:
            tally.wrong[species, wrong_kind(e, ids, species, ncbi)] += 1
            tally.errors.append((gold.pmid, species, m.text, ",".join(sorted(m.ids)),
                                 f"{e.text} -> {','.join(e.norm_ids[:3]) or '-'}"))
    predicted: set[frozenset[str]] = set()
    ceiling: set[frozenset[str]] = set()
    for r in relations:
        a, b = gene_ids(r.entity1, ncbi), gene_ids(r.entity2, ncbi)
        if a and b and a[0] != b[0]:
            predicted.add(frozenset((a[0], b[0])))
        ga, gb = gold_of.get(r.entity1.id), gold_of.get(r.entity2.id)
        if ga and gb:
            ceiling |= {frozenset((x, y)) for x in ga for y in gb if x != y}
    tally.pair_pred += len(predicted)
    tally.pair_gold += len(gold.gene_pairs)
    tally.pair_tp += len(predicted & gold.gene_pairs)
    tally.ceil_pred += len(ceiling)
    tally.ceil_tp += len(ceiling & gold.gene_pairs)


def gene_mentions(shared: str | Path | None = None, split: str = "fit",
                  **ground_options: object
                  ) -> Iterator[tuple[int, list[Entity], list[list[frozenset[str]]]]]:
    """Per document of ``split``: its number, relx's gene mentions (its tagger on the raw
    text, then ``ground_document(doc, **ground_options)``) and, for each mention, the id
    sets of the gold gene mentions it overlaps -- what the learned naming parts
    (``lab/genes/ranker.py``, ``family_members.py``, ``confidence.py``) learn from."""
    import relx
    from relx.genes.document import ground_document
    from relx.ids import is_protein_type

    docs = read_biored(shared, split)
    ex = relx.load(task="ppi", types=False, ground=False)
    for d_no, (gold, (doc, _, _)) in enumerate(zip(docs, ex.annotate(
            [Document(id=d.pmid, text=d.text) for d in docs]), strict=True)):
        ents = [e for e in _entities(ground_document(doc, **ground_options))
                if is_protein_type(e.type)]
        yield d_no, ents, [[m.ids for m in gold.genes if _overlap(_span(e), (m.start, m.end))]
                           for e in ents]


def evaluate(docs: list[GoldDoc], extractor=None, ncbi: NcbiIds | None = None,
             shared: str | Path | None = None) -> Tally:
    """Run ``extractor`` (default ``relx.load(task="ppi")``) on the raw texts and score them."""
    import relx

    ex = extractor or relx.load(task="ppi")
    ncbi = ncbi or NcbiIds(shared)
    tally = Tally()
    inputs = [Document(id=d.pmid, text=d.text) for d in docs]
    by_id = {d.pmid: d for d in docs}
    for doc, found, _ in ex.annotate(inputs):
        score_document(by_id[doc.id], doc, found, ncbi, tally)
    return tally


def evaluate_gene_relations(docs: list[GoldDoc], model: str | None = None,
                            ncbi: NcbiIds | None = None, shared: str | Path | None = None
                            ) -> dict[str, dict[str, float]]:
    """End to end with the document-level gene relation model (``relx.ppi.gene_relations``,
    default ``models/gene-relations``): gene pairs by NCBI Gene id from the raw texts, and the
    ceiling -- the same mention pairs with every found mention given its gold ids (a mention
    overlapping no gold gene keeps its own)."""
    from relx.genes.family_genes import keyed_by_document
    from relx.genes.members import learned_families
    from relx.ppi.doc_view import doc_view
    from relx.ppi.gene_relations import gene_key, gene_relations, load

    ex = load(model)
    ncbi = ncbi or NcbiIds(shared)
    by_id = {d.pmid: d for d in docs}
    counts = collections.Counter()
    per_doc: dict[str, dict[str, int]] = {}
    for doc, found, _ in ex.pairs._annotate([Document(id=d.pmid, text=d.text) for d in docs]):
        gold = by_id[doc.id]
        gold_ids = {e.id: sorted({i for m in gold.genes if _overlap(_span(e), (m.start, m.end))
                                  for i in m.ids}) for e in _entities(doc)}

        def given(e: Entity, gold_ids: dict[str, list[str]] = gold_ids) -> tuple[str, ...]:
            return tuple(gold_ids.get(e.id) or ()) or gene_key(e)

        def bare(gene: str) -> str | None:
            return gene if gene.isdigit() else ncbi.ncbi(gene)

        sids = [s.id for s in doc.sentences]
        by_doc = keyed_by_document(doc, gene_key, learned_families())   # members named
        for name, key in (("pairs", by_doc), ("pairs_gold_ids", given)):
            rels, _ = gene_relations(doc_view(doc, found, key), ex.model, ex.meta, sids, {},
                                     ex.max_pairs)
            pred = {frozenset(ids) for r in rels
                    if None not in (ids := (bare(r.gene1.id), bare(r.gene2.id)))
                    and ids[0] != ids[1]}
            counts[name, "tp"] += len(pred & gold.gene_pairs)
            counts[name, "pred"] += len(pred)
            per_doc.setdefault(doc.id, {})[f"{name}_tp"] = len(pred & gold.gene_pairs)
            per_doc[doc.id][f"{name}_pred"] = len(pred)
        counts["gold"] += len(gold.gene_pairs)
        per_doc[doc.id]["gold"] = len(gold.gene_pairs)
    return {**{name: _prf(counts[name, "tp"], counts[name, "pred"], counts["gold"])
               for name in ("pairs", "pairs_gold_ids")}, "documents": per_doc}


def markdown(rep: dict) -> str:
    """The figures of :meth:`Tally.report` (plus ``split``) as a short markdown table."""
    head = f"BioRED train, {rep.get('split', '?')} split\n\n"
    return head + compare_markdown({"relx": rep})


def rows(rep: dict) -> list[tuple[str, str]]:
    """(figure, value) rows of one :meth:`Tally.report`."""
    m, ids = rep["mentions"], rep["ids"]
    out = [("gene mentions, exact P / R", f"{m['exact']['precision']:.3f} / "
            f"{m['exact']['recall']:.3f}"),
           ("gene mentions, overlap P / R", f"{m['overlap']['precision']:.3f} / "
            f"{m['overlap']['recall']:.3f}")]
    for sp in ("human", "mouse", "other"):
        if ids[sp]["found"]:
            out.append((f"{sp} mentions found: best id right",
                        f"{ids[sp]['best_right']:.3f} of {ids[sp]['found']}"))
    return out + [("found mentions without an id", f"{ids['no_id']:.3f}"),
                  ("gene pairs by NCBI Gene id, P / R / F1",
                   "{precision:.3f} / {recall:.3f} / {f1:.3f}".format(**rep["pairs"])),
                  ("the same with gold ids (ceiling), P / R / F1",
                   "{precision:.3f} / {recall:.3f} / {f1:.3f}".format(**rep["pairs_gold_ids"])),
                  *_gene_relation_rows(rep.get("gene_relations"))]


def _gene_relation_rows(got: dict | None) -> list[tuple[str, str]]:
    fmt = "{precision:.3f} / {recall:.3f} / {f1:.3f}"
    if not got:
        return [("gene pairs, gene relation model, P / R / F1", "-"),
                ("the same with gold ids (ceiling), gene relation model", "-")]
    return [("gene pairs, gene relation model, P / R / F1", fmt.format(**got["pairs"])),
            ("the same with gold ids (ceiling), gene relation model",
             fmt.format(**got["pairs_gold_ids"]))]


def compare_markdown(reports: dict[str, dict]) -> str:
    """Several reports (column name -> :meth:`Tally.report`) side by side, as markdown."""
    names = list(reports)
    columns = [dict(rows(r)) for r in reports.values()]
    lines = ["| figure | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    for figure, _ in rows(next(iter(reports.values()))):
        lines.append(f"| {figure} | " + " | ".join(c.get(figure, "-") for c in columns) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", choices=SPLITS, default="fit")
    ap.add_argument("--shared", type=Path, default=None)
    ap.add_argument("--json", type=Path, help="write the figures here")
    ap.add_argument("--errors", type=Path, help="write the id errors here (fit split only)")
    ap.add_argument("--gene-relations", action="store_true",
                    help="also score gene pairs with the document-level gene relation model")
    ap.add_argument("--intervals", type=int, default=0, metavar="N",
                    help="95%% intervals from N bootstrap resamples of the split's documents")
    ap.add_argument("--written-sources", metavar="S,S",
                    help="lexicon sources of the previous/alias symbols taken as written "
                         "(relx.genes.more_mentions.WRITTEN_SOURCES; 'none': none)")
    a = ap.parse_args(argv)
    if a.written_sources is not None:
        from relx.genes import more_mentions

        more_mentions.WRITTEN_SOURCES = tuple(
            s for s in a.written_sources.split(",") if s and s != "none")
    if a.errors and a.split not in ("fit", "fit-train", "fit-held"):
        ap.error("errors are read on the fit split only (docs/genes.md)")
    tally = evaluate(read_biored(a.shared, a.split), shared=a.shared)
    rep = {"split": a.split, **tally.report()}
    if a.gene_relations:
        rep["gene_relations"] = evaluate_gene_relations(read_biored(a.shared, a.split),
                                                        shared=a.shared)
        print("gene relation model: pairs {f1:.3f}".format(**rep["gene_relations"]["pairs"]),
              "ceiling {f1:.3f}".format(**rep["gene_relations"]["pairs_gold_ids"]))
    if a.intervals:
        from lab.genes.intervals import by_document, interval_markdown

        rep["intervals"] = by_document(tally.documents, (rep.get("gene_relations") or {})
                                       .get("documents"), resamples=a.intervals)
    documents = {"documents": tally.documents,
                 "gene_relation_documents": rep.get("gene_relations", {}).pop("documents", None)}
    text = json.dumps({**rep, **documents}, indent=1)
    print(markdown(rep))
    print("\nFound mentions whose best id is wrong, by kind:\n\n" + wrong_markdown(rep))
    if a.intervals:
        print("\n" + interval_markdown(rep["intervals"]))
    if a.json:
        a.json.write_text(text + "\n", encoding="utf-8")
    if a.errors:
        a.errors.write_text("".join("\t".join(e) + "\n" for e in tally.errors), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
