"""Conventions shared by every relx output: namespaced ids, one separator, PMIDs, and which
entity types are proteins and which relation types have a direction.

Every normalised id relx writes is ``NAMESPACE:local`` -- ``HGNC:6001``, ``FPLX:ERK``,
``NCBIGene:672``, ``MESH:D000077``, ``CHEBI:15377``, ``UniProt:P04637``, ``NCBITaxon:9606``
-- and the ids of one mention are joined by :data:`ID_SEPARATOR` (``;``) in every text
format (TSV column, BioC ``identifier`` infon, brat note, PubTator id column).

An input's own bare ids (a PubTator or BioC ``Gene`` annotation's ``672``) are namespaced
where they are read (:func:`namespaced_ids`), from the BioC infon key that held them or the
annotation type: gene/protein ids of digits are NCBI Gene ids, ``Chemical`` / ``Disease``
ids of MeSH form are MeSH ids, ``Species`` ids are NCBI Taxonomy ids. An id whose namespace
cannot be told is kept as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

__all__ = ["ANNOTATION_TYPES", "CHEMICAL_NAMESPACES", "CHEMICAL_TYPES", "FAMILY_TYPES", "HUMAN",
           "ID_SEPARATOR", "MOUSE", "PROTEIN_TYPES", "RAT", "READ_TYPES",
           "is_directed_type", "is_family_type",
           "is_protein_type", "join_ids", "namespace_of", "namespaced_id", "namespaced_ids",
           "pmid_of"]

ID_SEPARATOR = ";"

#: entity types that denote genes or their products (lower-case, ``-``/space as ``_``):
#: the PubTator/BioC gene types, relx's NER labels, the PPI corpora's protein types
PROTEIN_TYPES = frozenset({
    "protein", "gene", "geneorgeneproduct", "gene_or_gene_product", "geneproduct",
    "gene_product", "gene_protein", "ggp", "protein_mention", "protein_molecule",
    "individual_protein", "protein_family_or_group", "protein_complex", "complex", "family",
})
#: the gene/protein types that name a family or complex (same normalisation)
FAMILY_TYPES = frozenset({"protein_family_or_group", "protein_complex", "complex", "family"})
#: entity types of small molecules (same normalisation)
CHEMICAL_TYPES = frozenset({"chemical", "chemicalentity", "simple_chemical", "drug",
                            "chemical_entity", "small_molecule"})
#: annotation types the readers (PubTator, BioC) keep by default: genes/proteins and chemicals
#: (a chemical keeps its type in every output and is never paired as a protein)
READ_TYPES = PROTEIN_TYPES | CHEMICAL_TYPES
#: every entity type of PubTator, BioRED and BC5CDR files (lower-cased): a PubTator line with
#: a number in its third column and one of these in its fifth is an annotation with a bad
#: start offset (``PMID a 10 IL-2 Gene``), not a relation (whose fifth column is a score)
ANNOTATION_TYPES = READ_TYPES | frozenset({
    "disease", "diseaseorphenotypicfeature", "species", "organismtaxon", "mutation",
    "dnamutation", "proteinmutation", "snp", "variant", "sequencevariant", "cellline",
    "genus", "strain", "domainmotif"})
#: namespaces of small molecules: a mention grounded only to these is a chemical
CHEMICAL_NAMESPACES = frozenset({"CHEBI", "PUBCHEM", "HMDB", "CHEMBL", "DRUGBANK"})
#: namespaces of one organism's genes (human, mouse, rat), and with FamPlex's families
GENE_NAMESPACES = frozenset({"HGNC", "MGI", "RGD"})
NAME_NAMESPACES = GENE_NAMESPACES | {"FPLX"}
#: the taxa relx has gene lexicons of
HUMAN, MOUSE, RAT = "NCBITaxon:9606", "NCBITaxon:10090", "NCBITaxon:10116"

# canonical spelling of a namespace, by its lower-cased form (BioC infon keys included)
_CANONICAL = {
    "hgnc": "HGNC", "fplx": "FPLX", "famplex": "FPLX", "ncbigene": "NCBIGene",
    "ncbi gene": "NCBIGene", "ncbi_gene": "NCBIGene", "egid": "NCBIGene", "entrez": "NCBIGene",
    "entrezgene": "NCBIGene", "geneid": "NCBIGene", "mesh": "MESH", "chebi": "CHEBI",
    "uniprot": "UniProt", "up": "UniProt", "ncbitaxon": "NCBITaxon", "taxonomy": "NCBITaxon",
    "tax": "NCBITaxon", "go": "GO", "pubchem": "PUBCHEM", "pubchem.compound": "PUBCHEM",
    "hmdb": "HMDB", "chembl": "CHEMBL", "drugbank": "DRUGBANK", "omim": "OMIM",
    "ncit": "NCIT", "ip": "IP", "interpro": "IP", "pf": "PF", "pfam": "PF", "cvcl": "CVCL",
    "ensembl": "ENSEMBL", "text": "TEXT",
}
_MESH = re.compile(r"^[CD]\d{6,9}$")
_UNIPROT = re.compile(r"^([OPQ]\d[A-Z\d]{3}\d|[A-NR-Z]\d([A-Z][A-Z\d]{2}\d){1,2})(-\d+)?$")
_PMID = re.compile(r"^(?:pmid[:\-_ ]?)?(\d{1,9})$", re.IGNORECASE)


def namespace_of(cid: str) -> str | None:
    """The canonical namespace of a namespaced id (``"hgnc:6001"`` -> ``"HGNC"``), or None."""
    ns, sep, _ = cid.partition(":")
    return _CANONICAL.get(ns.strip().lower(), ns.strip() or None) if sep else None


def namespaced_id(cid: str, entity_type: str | None = None, key: str | None = None) -> str:
    """``cid`` as ``NAMESPACE:local``.

    A namespaced id gets its namespace's canonical spelling (``mesh:D0001`` ->
    ``MESH:D0001``; ``CHEBI:CHEBI:1`` -> ``CHEBI:1``). A bare id takes its namespace from
    ``key`` (the BioC infon that held it, e.g. ``NCBI Gene``) or from ``entity_type``
    (``Gene`` -> ``NCBIGene`` for digits, ``Chemical``/``Disease`` -> ``MESH`` for MeSH-form
    ids, ``Species`` -> ``NCBITaxon``); an id whose namespace cannot be told is returned
    unchanged.
    """
    cid = cid.strip()
    ns, sep, local = cid.partition(":")
    if sep and ns.lower() in _CANONICAL and local:
        canon = _CANONICAL[ns.lower()]
        if local.upper().startswith(canon.upper() + ":"):   # CHEBI:CHEBI:1, GO:GO:1
            local = local.partition(":")[2]
        return f"{canon}:{local}"
    if sep:
        return cid
    from_key = _CANONICAL.get((key or "").strip().lower())
    if from_key:
        return f"{from_key}:{cid}"
    kind = _type_key(entity_type)
    if kind in PROTEIN_TYPES:
        if cid.isdigit():
            return f"NCBIGene:{cid}"
        if _UNIPROT.match(cid):
            return f"UniProt:{cid}"
    elif kind in CHEMICAL_TYPES or kind in ("disease", "diseaseorphenotypicfeature"):
        if _MESH.match(cid):
            return f"MESH:{cid}"
    elif kind in ("species", "organismtaxon", "organism") and cid.isdigit():
        return f"NCBITaxon:{cid}"
    return cid


def namespaced_ids(ids: Iterable[str], entity_type: str | None = None,
                   key: str | None = None) -> list[str]:
    """:func:`namespaced_id` of each id, order kept, repeats dropped."""
    return list(dict.fromkeys(namespaced_id(i, entity_type, key) for i in ids if i.strip()))


def join_ids(ids: Iterable[str]) -> str:
    """The ids of one mention as one field: ``HGNC:6001;NCBIGene:3558``."""
    return ID_SEPARATOR.join(ids)


@lru_cache(maxsize=1024)   # a few type names, asked of every mention pair
def _type_key(entity_type: str | None) -> str:
    return re.sub(r"[-\s]+", "_", (entity_type or "").strip().lower())


def is_family_type(entity_type: str | None) -> bool:
    """True for family/complex entity types (``Protein_family_or_group``, ``Complex``...)."""
    return _type_key(entity_type) in FAMILY_TYPES


def is_protein_type(entity_type: str | None) -> bool:
    """True for gene/protein entity types (``Protein``, ``Gene``, ``GeneOrGeneProduct``...)."""
    return _type_key(entity_type) in PROTEIN_TYPES


_DIRECTED = frozenset({"activation", "inhibition", "increaseamount", "decreaseamount",
                       "regulation", "positive_regulation", "negative_regulation"})


def is_directed_type(relation_type: str | None) -> bool:
    """True for relation types with a direction (arg1 acts on arg2): modifications
    (``Phosphorylation``...) and regulations (``Activation``, ``Inhibition``...)."""
    t = (relation_type or "").strip().lower()
    return t in _DIRECTED or t.endswith(("ylation", "ination"))


def pmid_of(document_id: str | None) -> str | None:
    """The PubMed id a document id names (``12345``, ``PMID:12345``, ``PMID-12345``), else None."""
    m = _PMID.match((document_id or "").strip())
    return m.group(1) if m else None


def gene_ids(norm_ids: Iterable[str], ncbi_ids: Iterable[str] | None, text: str
             ) -> tuple[str, ...]:
    """The gene ids a mention stands for in document-level gene relations: all of an input's
    own ``NCBIGene:`` ids, bare (``7157``), when relx's grounding found none; else relx's
    best NCBI Gene id; else its best id of any kind (``HGNC:11998``, ``FPLX:ERK``); else
    ``text:`` + its lowercased text."""
    norm, ncbi = list(norm_ids), list(ncbi_ids or ())
    given = [i.split(":", 1)[1] for i in norm if i.startswith("NCBIGene:")]
    if given and not ncbi:
        return tuple(dict.fromkeys(given))
    if ncbi:
        return (ncbi[0].split(":", 1)[1],)
    if norm:
        return (norm[0],)
    return (f"text:{text.lower()}",)


def gene_namespaced(gene_id: str) -> str | None:
    """A gene relation's gene id as a namespaced id (``7157`` -> ``NCBIGene:7157``;
    ``HGNC:11998`` as it is); None for a ``text:`` gene (no id)."""
    if gene_id.startswith("text:"):
        return None
    return f"NCBIGene:{gene_id}" if gene_id.isdigit() else gene_id
