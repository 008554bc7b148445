"""Document-level gene relations the way BioRED annotates them: one record per related gene
pair of a document, with BioRED's type, a novel-vs-background flag and evidence sentences.

    from relx.ppi.gene_relations import load
    ex = load()                                      # models/gene-relations
    for rel in ex.extract("JAK1 phosphorylates STAT5. STAT5 then binds SOCS3."):
        print(rel.gene1.id, rel.gene2.id, rel.type, rel.novel, rel.probability)

The interaction extractor (:class:`relx.ppi.extract.Extractor`) scores every same-sentence
mention pair; :func:`relx.ppi.doc_features.candidates` gathers them by gene id with the
cross-sentence features; :class:`relx.ppi.doc_model.DocRelationModel` says whether each
gene pair is related, how (``type``, scheme ``BioRED``) and whether it is ``novel``. A gene
is its mention's best NCBI Gene id (all of an input's own ``NCBIGene:`` ids), else its
best id of any kind, else its lowercased text. Mention-level pairs stay the ``ppi`` task's.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, Field

from relx.api import GIVEN_OBJECT, StreamingExtractor, is_none
from relx.doc import Document, Entity, Sentence
from relx.errors import ConfigError
from relx.genes.family_genes import keyed_by_document
from relx.genes.members import learned_families
from relx.genes.slash_series import series_name
from relx.ids import gene_ids, gene_namespaced, namespaced_ids
from relx.model_store import ModelKind, find_model_dir, load_skops
from relx.ppi.doc_features import Candidates, candidates
from relx.ppi.doc_model import DocRelationModel
from relx.ppi.doc_view import DocView, doc_view
from relx.ppi.ligand_receptor import default_ligand_receptors

DEFAULT_GENE_MODEL = "gene-relations"
GENE_RELATION_MODEL = ModelKind("gene relation model", "model.skops", (1,),
                                format="relx-gene-relations")
#: the types a gene relation model file may hold (beyond relx.skops_reader's defaults)
TRUSTED_TYPES = [
    "relx.ppi.doc_model.DocRelationModel", "relx.ppi.doc_text.PairTextClassifier",
    "sklearn.calibration.CalibratedClassifierCV", "sklearn.calibration._CalibratedClassifier",
    "sklearn.isotonic.IsotonicRegression", "sklearn.calibration._SigmoidCalibration",
    "sklearn.feature_extraction.text.TfidfVectorizer",
    "sklearn.feature_extraction.text.TfidfTransformer",
    "sklearn.preprocessing._data.StandardScaler", "sklearn.model_selection._split.GroupKFold",
    "sklearn._loss.loss.HalfMultinomialLoss", "sklearn._loss.link.MultinomialLogit",
    "sklearn.utils._bunch.Bunch", "builtins.slice", "builtins.dict",
    "sklearn.ensemble._hist_gradient_boosting.predictor.TreePredictor",
    "numpy.dtypes.Float64DType", "numpy.dtypes.Int64DType", "numpy.dtypes.StrDType",
]


class Gene(BaseModel):
    """One side of a gene relation: its id, the names it goes by in the document, how many
    mentions it has; ``ids``: its namespaced ids (``NCBIGene:7157``, then the HGNC/MGI ids
    relx grounds its mentions to whose NCBI Gene id it is, most mentions first; see
    :func:`gene_xrefs`); ``no_id_reason``: for a gene known only by its name
    (``text:ptpmu``), why its first mention has no id (:data:`relx.genes.no_id.REASONS`;
    left out of JSON otherwise)."""

    id: str
    names: list[str]
    mentions: int
    ids: list[str] = []
    no_id_reason: str | None = Field(default=None, exclude_if=is_none)


class Evidence(BaseModel):
    """A sentence holding both genes (document offsets, end exclusive); ``score``: the best
    interaction-model score of the genes' mention pairs in it; that pair's mentions of
    ``gene1`` and ``gene2`` (``gene1_mention``, ``gene2_mention``: the document's entity
    ids, as the BioC and brat outputs' annotations have them) and relx's GENIA-derived
    ``event_type`` (``Interaction``: no event supports it) and ``direction``
    (``gene1->gene2``, ``gene2->gene1``, None: undirected), ``negated``, ``speculated``
    (all None when the genes have no mention pair in the sentence)."""

    sentence_id: str
    sentence: str
    start: int
    end: int
    score: float | None = None
    gene1_mention: str | None = None
    gene2_mention: str | None = None
    event_type: str | None = None
    direction: str | None = None
    negated: bool | None = None
    speculated: bool | None = None


class GeneRelation(BaseModel):
    """A document-level relation between two genes: ``probability`` calibrated (reported
    when at least ``threshold``), ``type`` in ``type_scheme`` (BioRED's Association,
    Positive_Correlation, Negative_Correlation, Bind) with ``type_probability``, ``novel``
    (the paper's finding, not cited background) with ``novel_probability``, ``evidence``
    sentences best first (none when the genes never share a sentence). Beside BioRED's type,
    relx's mention-level reading in ``event_type_scheme`` GENIA: ``event_type`` and
    ``direction`` (``gene1->gene2``: gene1 acts on gene2; None: undirected) of the
    strongest (interaction score; an asserted one before a negated one) of the genes'
    mention pairs an event types (``Phosphorylation``, ``Activation``, ``Complex``...;
    ``Interaction`` when none is typed, or typing is off), its ``event_score`` and sentence
    (``event_sentence_id``)."""

    document_id: str
    gene1: Gene
    gene2: Gene
    probability: float
    threshold: float
    type: str
    type_scheme: str = "BioRED"
    type_probability: float
    novel: bool
    novel_probability: float
    evidence: list[Evidence]
    model: str
    model_version: str
    event_type: str = "Interaction"
    event_type_scheme: str = "GENIA"
    direction: str | None = None
    event_score: float | None = None
    event_sentence_id: str | None = None


def gene_key(e: Entity) -> tuple[str, ...]:
    """The gene ids a mention stands for (see the module's docstring;
    :func:`relx.ids.gene_ids`)."""
    return gene_ids(e.norm_ids, e.ncbi_ids, e.text)


def save_gene_model(model: DocRelationModel, folder: str | Path, meta: dict[str, Any]) -> Path:
    """Write ``model`` as a model folder: ``meta.json`` + ``model.skops`` (no pickle;
    deflated: its n-gram vocabulary makes a 13 MB schema, 1.6 MB compressed)."""
    import zipfile

    import skops.io

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    from relx.learn.predictors import to_sklearn

    skops.io.dump(to_sklearn(model), folder / GENE_RELATION_MODEL.skops_file,
                  compression=zipfile.ZIP_DEFLATED, compresslevel=9)
    meta = {**meta, "format": GENE_RELATION_MODEL.format, "format_version": 1}
    (folder / "meta.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    return folder


def load_gene_model(model: str | Path | None = None
                    ) -> tuple[dict[str, Any], DocRelationModel]:
    """``(meta, model)`` of a gene relation model folder or installed name."""
    folder = find_model_dir(str(model or DEFAULT_GENE_MODEL), what=GENE_RELATION_MODEL.name,
                            error=GENE_RELATION_MODEL.error)
    meta, fitted = load_skops(folder, TRUSTED_TYPES, GENE_RELATION_MODEL)
    if not isinstance(fitted, DocRelationModel):
        raise GENE_RELATION_MODEL.error(f"{folder}: not a gene relation model")
    return meta, fitted


def gene_relations(view: DocView, model: DocRelationModel, meta: dict[str, Any],
                   sentence_ids: list[str], names: dict[str, list[str]],
                   max_pairs: int | None = 300) -> tuple[list[GeneRelation], int]:
    """The related gene pairs of one document view (and its number of candidates)."""
    return documents_gene_relations([(view, sentence_ids, names)], model, meta, max_pairs)[0]


#: one document for :func:`documents_gene_relations`: its view, sentence ids, gene names
DocInput = tuple[DocView, list[str], dict[str, list[str]]]
#: the reported gene pairs of each document -> its views with those pairs' sentences typed
TypeReported = Callable[[list[list[tuple[str, str]]]], list[DocView]]


def documents_gene_relations(docs: list[DocInput], model: DocRelationModel,
                             meta: dict[str, Any], max_pairs: int | None = 300,
                             typed: TypeReported | None = None
                             ) -> list[tuple[list[GeneRelation], int]]:
    """:func:`gene_relations` of each document, the model run once on all their candidates
    (each row's probabilities are its own: the same as one document at a time). ``typed``:
    for a model whose pair classifier reads no event types, the views again once the
    sentences of each document's reported gene pairs are typed (see
    :meth:`GeneRelationExtractor._annotate`); the type and novelty classifiers read those."""
    cands = [candidates(view, max_pairs) for view, _, _ in docs]
    rows = [c for c in cands if c.keys]
    if not rows:
        return [([], 0) for _ in docs]
    X = np.concatenate([c.X for c in rows])
    texts = [t for c in rows for t in c.texts]
    prob = model.pair_probability(X, texts)
    if typed is None:
        types, type_p = model.predict_type(X, texts)
        novel_p = model.novel_probability(X, texts)
    else:    # the type and novelty classifiers read the reported pairs, typed
        reported, offsets, at = [], [], 0
        for c in cands:
            reported.append({k for k, q in zip(c.keys, prob[at:at + len(c.keys)], strict=True)
                             if q >= model.threshold})
            offsets.append(at)
            at += len(c.keys)
        views = typed([sorted(r) for r in reported])
        docs = [(v, sentence_ids, names) for v, (_, sentence_ids, names)
                in zip(views, docs, strict=True)]
        again = [candidates(v, max_pairs, only=r) if r else None
                 for v, r in zip(views, reported, strict=True)]
        rows = [c for c in again if c is not None]
        types = np.full(len(prob), "", dtype=object)
        type_p, novel_p = np.zeros(len(prob)), np.zeros(len(prob))
        if rows:
            where = [off + c.keys.index(k) for c, a, off in zip(cands, again, offsets,
                                                                strict=True)
                     if a is not None for k in a.keys]
            X2, texts2 = np.concatenate([c.X for c in rows]), [t for c in rows for t in c.texts]
            types[where], type_p[where] = model.predict_type(X2, texts2)
            novel_p[where] = model.novel_probability(X2, texts2)
    rule = meta.get("ligand_receptor_bind")
    if rule:   # round 7b: a ligand and its receptor are typed Bind
        table = default_ligand_receptors()
        bind = np.array([k in table for c in cands for k in c.keys], bool)
        types[bind], type_p[bind] = "Bind", float(rule["precision"])
    out, at = [], 0
    for (view, sentence_ids, names), c in zip(docs, cands, strict=True):
        if not c.keys:
            out.append(([], 0))
            continue
        part = slice(at, at + len(c.keys))
        at += len(c.keys)
        out.append((_related(view, c, prob[part], types[part], type_p[part], novel_p[part],
                             model, meta, sentence_ids, names), len(c.keys)))
    return out


def _related(view: DocView, cands: Candidates, prob: np.ndarray, types: np.ndarray,
             type_p: np.ndarray, novel_p: np.ndarray, model: DocRelationModel,
             meta: dict[str, Any], sentence_ids: list[str], names: dict[str, list[str]]
             ) -> list[GeneRelation]:
    """The gene relations of one document's scored candidates, most probable first."""
    counts = {g: sum(g in m.ids for m in view.mentions) for k in cands.keys for g in k}
    out = []
    for i, (x, y) in enumerate(cands.keys):
        if prob[i] < model.threshold:
            continue
        sx = {m.id for m in view.mentions if x in m.ids}
        sy = {m.id for m in view.mentions if y in m.ids}
        best: dict[int, tuple[float, str, str]] = {}   # sentence -> (score, x's, y's mention)
        for p in view.pairs:
            if p.a in sx and p.b in sy:
                found = (p.score, p.a, p.b)
            elif p.a in sy and p.b in sx:
                found = (p.score, p.b, p.a)
            else:
                continue
            if p.sentence not in best or p.score > best[p.sentence][0]:
                best[p.sentence] = found
        evidence = [Evidence(sentence_id=sentence_ids[k], sentence=view.sentence_text(k),
                             start=view.sentences[k][0], end=view.sentences[k][1],
                             score=round(best[k][0], 4) if k in best else None,
                             gene1_mention=best[k][1] if k in best else None,
                             gene2_mention=best[k][2] if k in best else None)
                    for k in cands.evidence[i]]
        out.append(GeneRelation(
            document_id=view.id,
            gene1=Gene(id=x, names=names.get(x, []), mentions=counts[x]),
            gene2=Gene(id=y, names=names.get(y, []), mentions=counts[y]),
            probability=round(float(prob[i]), 4), threshold=round(model.threshold, 4),
            type=str(types[i]), type_probability=round(float(type_p[i]), 4),
            novel=bool(novel_p[i] >= model.novel_threshold),
            novel_probability=round(float(novel_p[i]), 4), evidence=evidence,
            model=str(meta.get("name", DEFAULT_GENE_MODEL)),
            model_version=str(meta.get("version", "0"))))
    out.sort(key=lambda r: -r.probability)
    return out


def gene_xrefs(doc: Document, key: Callable[[Entity], tuple[str, ...]] = gene_key
               ) -> dict[str, list[str]]:
    """Per gene id of a document's mentions (``key``, default :func:`gene_key`), its
    namespaced ids: the id itself (``NCBIGene:7157``; :func:`relx.ids.gene_namespaced`),
    then each HGNC/MGI id that is a mention's top grounding and whose NCBI Gene id is this
    gene's, most mentions first (so INDRA agents, network nodes' labels and the report get
    the gene's symbol)."""
    from relx.genes.ncbi_gene import default_ncbi_gene

    table = default_ncbi_gene()
    counts: dict[str, dict[str, int]] = {}
    for s in doc.sentences:
        for e in s.entities:
            keys = key(e)
            for g in keys:
                counts.setdefault(g, {})
            top = next((i for i in namespaced_ids(e.norm_ids, e.type)
                        if not i.startswith("NCBIGene:")), None)
            if top is None or not top.startswith(("HGNC:", "MGI:")):
                continue
            for g in keys:
                if f"NCBIGene:{g}" in table.of(top):
                    counts[g][top] = counts[g].get(top, 0) + 1
    out = {}
    for g, found in counts.items():
        own = gene_namespaced(g)
        out[g] = ([own] if own else []) + sorted(found, key=lambda i: (-found[i], i))
    return out


def _acting(direction: str | None, flipped: bool) -> str | None:
    """A mention pair's ``entity1->entity2`` direction as the genes' (``gene1->gene2``...);
    ``flipped``: its entity1 is gene2."""
    if direction not in ("entity1->entity2", "entity2->entity1"):
        return None
    first = (direction == "entity1->entity2") != flipped
    return "gene1->gene2" if first else "gene2->gene1"


def add_event_types(rels: list[GeneRelation], found: list[Any], view: DocView) -> None:
    """Set, in place, relx's GENIA-derived reading of each relation and of its evidence
    sentences (see :class:`GeneRelation`, :class:`Evidence`) from the document's scored
    mention pairs ``found`` (:class:`relx.ppi.extract.ExtractedRelation`)."""
    ids = {m.id: m.ids for m in view.mentions}
    wanted = {(r.gene1.id, r.gene2.id) for r in rels}
    pairs: dict[tuple[str, str], list[tuple[Any, bool]]] = {}
    for r in found:
        if r.same_gene is not None:         # two names of one gene: no interaction
            continue
        a, b = ids.get(r.entity1.id, ()), ids.get(r.entity2.id, ())
        for x in a:
            for y in b:
                if x == y or (x in b and y in a):
                    continue
                if (x, y) in wanted:
                    pairs.setdefault((x, y), []).append((r, False))
                elif (y, x) in wanted:
                    pairs.setdefault((y, x), []).append((r, True))
    for rel in rels:
        found_here = pairs.get((rel.gene1.id, rel.gene2.id), [])
        best: dict[str, tuple[Any, bool]] = {}
        for r, flipped in found_here:
            if r.sentence_id not in best or r.score > best[r.sentence_id][0].score:
                best[r.sentence_id] = (r, flipped)
        for ev in rel.evidence:
            if ev.sentence_id in best:
                r, flipped = best[ev.sentence_id]
                ev.event_type, ev.direction = r.type, _acting(r.direction, flipped)
                ev.negated, ev.speculated = bool(r.negated), bool(r.speculated)
        typed = [(r, f) for r, f in found_here if r.type != "Interaction"]
        if typed:
            r, flipped = max(typed, key=lambda t: (not t[0].negated, t[0].score))
            rel.event_type, rel.direction = r.type, _acting(r.direction, flipped)
            rel.event_score = None if r.event_score is None else round(float(r.event_score), 4)
            rel.event_sentence_id = r.sentence_id


class GeneRelationExtractor(StreamingExtractor):
    """Documents -> their related gene pairs (:class:`GeneRelation`), through the interaction
    extractor (every candidate pair scored: ``threshold=-inf``) and a gene relation model;
    when the model's pair classifier reads no event types (``pair_events=False``), the event
    typer types only the sentences of the pairs it reports (``typer``), else every pair.
    ``options`` go to :func:`relx.load_interactions` (``types``, ``mentions``, ``ground``,
    ``orthologs``...); ``threshold`` and ``same_gene_pairs`` are the model's business (a
    :class:`~relx.errors.ConfigError` when given: they are options of task ``ppi``)."""

    def __init__(self, model: str | Path | None = None, *, warm_up: bool = False,
                 max_pairs: int | None = 300, **options: Any) -> None:
        from relx import load_interactions
        from relx.model_store import in_background

        given = [k for k in ("threshold", "same_gene_pairs") if options.get(k) is not None]
        if given:
            raise ConfigError(f"{' and '.join(given)}: an option of task ppi (mention-level "
                              "pairs: relx.load(task='ppi', ...)); gene relations use "
                              "their model's threshold")
        options = {k: v for k, v in options.items()
                   if k not in ("threshold", "same_gene_pairs")}
        self._model_ref = GIVEN_OBJECT if isinstance(model, DocRelationModel) else model
        self._options = {**options, "max_pairs": max_pairs}
        loading = in_background(load_gene_model, model)    # beside the interaction models
        self.pairs = load_interactions(threshold=float("-inf"), same_gene_pairs=True,
                                       pair_typer=False,   # its model reads event types
                                       warm_up=warm_up, **options)
        self.meta, self.model = loading.result()
        self.max_pairs = max_pairs
        self.threshold = self.model.threshold
        self.typer = None     # typing only the reported pairs' sentences (pair_events=False)
        if not getattr(self.model, "pair_events", True) and self.pairs.typer is not None:
            self.typer, self.pairs.typer = self.pairs.typer, None
        self.ground = False          # the interaction extractor grounds
        self.max_doc_chars = self.pairs.max_doc_chars   # checked by annotate, before it

    def _annotate(self, docs: list[Document]
                  ) -> Iterator[tuple[Document, list[GeneRelation], int]]:
        """The batch's documents with their gene relations, the gene relation model run
        once on the batch's candidates (:func:`documents_gene_relations`); with a typer of
        its own (a model whose pair classifier reads no event types), only the sentences of
        the gene pairs it reports are typed."""
        done, inputs = [], []
        learned = learned_families()
        for doc, found, _ in self.pairs._annotate(docs):
            key = keyed_by_document(doc, gene_key, learned)   # a family: the members named
            view = doc_view(doc, found, key)
            done.append([doc, found, view, key])
            inputs.append((view, [s.id for s in doc.sentences], gene_names(doc, key)))

        def typed(reported: list[list[tuple[str, str]]]) -> list[DocView]:
            parts = []       # per document: its sentences to type, as a document
            for (doc, _, view, _), pairs in zip(done, reported, strict=True):
                chosen = reported_sentences(doc, view, pairs)
                parts.append(doc.model_copy(update={"sentences": chosen}) if chosen else None)
            if any(parts):   # one call for the batch, as a typed run makes
                self.typer.type_relations([d for d in parts if d is not None])
            for item, part in zip(done, parts, strict=True):
                if part is not None:
                    item[1] = with_types(item[1], part.sentences)
                    item[2] = retyped_view(item[2], item[0], item[1])
            return [view for _, _, view, _ in done]

        related = documents_gene_relations(inputs, self.model, self.meta, self.max_pairs,
                                           typed if self.typer is not None else None)
        for (doc, found, view, key), (rels, n) in zip(done, related, strict=True):
            add_event_types(rels, found, view)
            xrefs, reasons = gene_xrefs(doc, key), no_id_reasons(doc, key)
            for rel in rels:
                for gene in (rel.gene1, rel.gene2):
                    gene.ids = xrefs.get(gene.id, [])
                    gene.no_id_reason = None if gene.ids else reasons.get(gene.id)
            for s in doc.sentences:          # the document carries no mention-level pairs
                s.relations = []
            yield doc, rels, n


def no_id_reasons(doc: Document, key: Callable[[Entity], tuple[str, ...]] = gene_key
                  ) -> dict[str, str]:
    """Per gene id (``key``) of a document's mentions without an id, the reason of its
    first such mention (``Entity.norm_reason``)."""
    out: dict[str, str] = {}
    for s in doc.sentences:
        for e in s.entities:
            if e.norm_reason:
                for g in key(e):
                    out.setdefault(g, e.norm_reason)
    return out


def gene_names(doc: Document, key: Callable[[Entity], tuple[str, ...]] = gene_key
               ) -> dict[str, list[str]]:
    """Per gene id (``key``), the texts of its mentions in text order (the ``2`` of
    ``ERK1/2`` as ``ERK2``), a gene's own mentions before those of a family that stands for
    it (``Sp3`` before ``Sp proteins``)."""
    own: dict[str, list[str]] = {}
    through: dict[str, list[str]] = {}
    for s in doc.sentences:
        for e in s.entities:
            text = series_name(doc.text, e.start, e.end) or e.text or doc.text[e.start:e.end]
            mine = gene_key(e)
            for g in key(e):
                names = (own if g in mine else through).setdefault(g, [])
                if text not in names:
                    names.append(text)
    return {g: [*own.get(g, []), *(t for t in through.get(g, []) if t not in own.get(g, []))]
            for g in dict.fromkeys([*own, *through])}


def retyped_view(view: DocView, doc: Document, found: list[Any]) -> DocView:
    """``view`` with its mention pairs' event types from ``found`` (the same records, some
    typed since): what :func:`relx.ppi.doc_view.doc_view` of ``found`` gives, without
    parsing the dependency paths again."""
    typed = {(r.sentence_id, r.entity1.id, r.entity2.id): r for r in found
             if r.type != "Interaction"}
    sids = [s.id for s in doc.sentences]
    pairs = []
    for p in view.pairs:
        r = typed.get((sids[p.sentence], p.a, p.b))
        pairs.append(p if r is None else replace(p, type=r.type, event_score=r.event_score))
    return replace(view, pairs=pairs)


def reported_sentences(doc: Document, view: DocView, pairs: list[tuple[str, str]]
                       ) -> list[Sentence]:
    """The sentences of ``doc`` holding a scored mention pair of one of the gene pairs
    ``pairs`` (what their features and evidence read)."""
    genes = {m.id: m.ids for m in view.mentions}
    wanted = {frozenset(k) for k in pairs}
    keep = {p.sentence for p in view.pairs
            if any(frozenset((x, y)) in wanted for x in genes.get(p.a, ())
                   for y in genes.get(p.b, ()) if x != y)}
    return [s for k, s in enumerate(doc.sentences) if k in keep and s.relations]


def with_types(found: list[Any], sentences: list[Sentence]) -> list[Any]:
    """``found`` (a document's scored mention-pair records) with the event types the typer
    set on the relations of ``sentences``."""
    typed = {(s.id, r.arg1, r.arg2): r for s in sentences for r in s.relations
             if r.type not in (None, "PPI")}
    out = []
    for rec in found:
        r = typed.get((rec.sentence_id, rec.entity1.id, rec.entity2.id))
        out.append(rec if r is None else rec.model_copy(update={
            "type": r.type, "direction": r.direction, "event_score": r.event_score}))
    return out


#: the gene relation extractor for a model (default: the shipped ``gene-relations``)
load = GeneRelationExtractor.loaded
