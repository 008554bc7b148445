"""Species-aware grounding of a document's mentions, with confidence
(:func:`ground_document`, the path every extractor grounds through).

Each gene/protein entity gets a species (:func:`relx.genes.species.assign_species`, or human with
``species=False``) and is grounded in that species' lexicon plus FamPlex
(``Grounder.ground(text, taxon)``; a mammal with no lexicon here -- sheep, dog, pig -- in the
human one: its gene's human ortholog, confidence times ``ORTHOLOG_FACTOR``, the entity keeps
its own species), trying in order:

1. **coordinations and ranges** -- ``IL-2/4``, ``ERK1 and 2``, ``MMP-2 and -9``,
   ``STAT5a/b``, ``NOD2/CARD15``, ``Smad1-3`` -- unless the whole mention is a curated
   FamPlex entry (``ERK1/2``) or a symbol as written (``NKX2-5``). When every member
   grounds: the FamPlex family whose members are exactly those genes (``ERK1 and 2`` ->
   ``FPLX:ERK``, ``Smad2/3`` -> ``FPLX:SMAD2_3``), else each member's best id in text order
   (``IL-2/4`` -> IL2, IL4: then ``norm_ids`` lists co-referents, not alternatives), and
   one id when all members are synonyms (``NOD2/CARD15``);
2. **the mention as written** (exact case, no variant);
3. **affixes** stripped, when the stripped form grounds better than the mention: knockout
   and knockdown markers (``-/-``, ``-deficient``, ``-null``, ``KO``, ``siRNA``), tags
   (``GST-``, ``FLAG-``, ``HA-``, ``-GFP``), states (``phospho-``, ``p-ERK`` -- not
   ``P-selectin``) and a species prefix matching the species (``mIL-2`` in mouse: Il2,
   not the gene with the alias ``MIL2``);
4. **the mention** in another case or through a variant (``Grounder.ground``);
5. **other spellings** (:func:`relx.genes.mention.spelling_forms`): ``b-catenin`` as
   beta-catenin, ``melanocortin receptor type 4`` as melanocortin 4 receptor;
6. **orthologs**: a human mention no human entry knows that a mouse or rat entry does
   (``P-selectin``, an MGI alias of Selp) takes that gene's human ortholog (SELP);
7. **the name inside the mention** (:func:`relx.genes.mention.name_parts`): ``FGFR3`` of
   ``FGFR3 G380R mutation``, ``SLCO1B1`` of ``SLCO1B1*5``, each part resolved as above;
   else the longest run of words a lexicon key names exactly, as a gene or FamPlex entry
   (:func:`relx.genes.mention.sub_name`: the mention's head, ``Stat3`` of ``Jak-Stat3``,
   or one symbol, ``mTOR`` of ``mTOR-Ragulator complex``; never a family from one
   lower-case word). The part grounded is ``Grounding.span`` and the entity's
   ``norm_span``.

A mention that still grounds to nothing and heads a numbered series of gene names
(``superoxide dismutase``: SOD1, SOD2, SOD3) takes the member the document names, else
member 1 (:mod:`relx.genes.series`); then the learned ranker tries the rest.

Around these, **abbreviations** defined in the document: a short form whose grounding is
empty or ambiguous takes its long form's when that grounds; a long form that
does not ground takes its short form's when that is unambiguous.

A long form with its abbreviation written inside, the member after the brackets
(``cyclooxygenase (COX)-2``, ``Toll-like receptor`` followed by ``(TLR) 4``, ``NOD`` inside
``nucleotide oligomerisation domain (NOD) 2``: :func:`relx.genes.mention.bracket_names`),
is grounded as ``cyclooxygenase-2`` (else ``COX-2``), route ``bracket``; the document's
other mentions of either name (``COX-2``) take that grounding.

One grounding per surface form (normalised text) and species per document. A mention
without a letter or no lexicon knows gets ``norm_ids=[]``, ``grounded=False`` -- never a guessed id. Confidence is
:func:`relx.genes.lexicon.confidence` of the candidates (weak: alias, other case, variant, ortholog,
ambiguous), times 0.9 through an affix and 0.8 for mentions of two characters or fewer.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from relx.doc import Document, Entity, Span, SpeciesMention
from relx.genes.annotated_names import AnnotatedNames, default_annotated_names
from relx.genes.case_ties import by_rodent_case, matched_as_written
from relx.genes.class_words import (
    CLASS_FIRST,
    by_class_word,
    by_name_number,
    generic_class,
    mass_named,
    mass_only,
)
from relx.genes.confidence import ConfidenceMap, calibrated, default_confidence_map
from relx.genes.coordination import coordination, coordination_members
from relx.genes.famplex import FamPlex, default_famplex
from relx.genes.lexicon import (
    HUMAN,
    MOUSE,
    ORTHOLOG_FACTOR,
    RAT,
    Grounder,
    Grounding,
    GroundingCandidate,
    compact_form,
    confidence,
    default_grounder,
    normalize_key,
    taxon_id,
    with_entity_updates,
)
from relx.genes.lexicon_species import lexicon_taxon
from relx.genes.members import FamilyMembers, default_members, with_members
from relx.genes.mention import (
    MIRNA,
    abbreviated,
    american_spelling,
    bracket_names,
    name_parts,
    spelling_forms,
    sub_name,
)
from relx.genes.name_forms import other_form_candidates
from relx.genes.ncbi_gene import NcbiGene, default_ncbi_gene
from relx.genes.no_id import no_id_reason, with_reasons
from relx.genes.ranker import NameRanker, candidates, default_ranker
from relx.genes.series import SERIES_FACTOR, member_inside, series_member
from relx.genes.slash_series import is_member_number, series_name
from relx.genes.species import GENE_KINDS, assign_species, find_species
from relx.genes.symbol_sets import approved_symbols, rodent_symbols
from relx.genes.variants import VARIANT_TYPE, is_variant
from relx.genes.word_order import word_order
from relx.ids import (
    CHEMICAL_NAMESPACES,
    GENE_NAMESPACES,
    NAME_NAMESPACES,
    is_family_type,
    is_protein_type,
    namespace_of,
    namespaced_ids,
)

if TYPE_CHECKING:
    from relx.genes.species import SpeciesAssignment

__all__ = ["coordination_members", "ground_document", "resolve"]

AFFIX_FACTOR = 0.9
#: a short form grounded below this confidence (a variant of an alias or synonym) takes
#: the gene of the long form its document defines it by (round 71)
WEAK_SHORT_FORM = 0.6
#: mentions with a shorter key are left to exact matching (no 3-gram search)
MIN_RANKED = 4
SHORT_FACTOR = 0.8

_PREFIXES = re.compile(
    r"^(?:GST|FLAG|Flag|HA|His6?|6xHis|GFP|EGFP|eGFP|YFP|CFP|RFP|mCherry|Myc|myc|MBP|V5|"
    r"SUMO|phospho|Phospho|pro|Pro|recombinant|Recombinant|rh|Rh|wild-type|wt|WT|"
    r"mutant|activated|active|total|endogenous|exogenous)[-\s]+(?=\S{2})"
    r"|^[pP]-(?=[A-Z]|p\d|c-)")  # phospho: p-ERK, p-p38, p-c-Jun (not P-selectin)
_SUFFIXES = re.compile(
    r"(?:\s*\(?\s*[-\u2212\u2013+]/[-\u2212\u2013]\s*\)?|[-\s](?:deficient|null|knockout|"
    r"knock-out|KO|KD|knockdown|siRNA|shRNA|transgenic|Tg|fusion|tagged|GFP|EGFP|mutant|"
    r"mutants|WT|wt))$")
_SPECIES_PREFIX = re.compile(r"^(h|m|r)-?(?=[A-Z0-9].)")
_PREFIX_TAXON = {"h": HUMAN, "m": MOUSE, "r": RAT}
_SPECIES_WORD = re.compile(r"^(human|mouse|murine|rat)\s", re.IGNORECASE)
#: GENIA's type for protein domains and sites, given to a gene mention that names only a
#: domain or motif (``SH2 domain``, ``PDZ domains``) and grounds to no gene
DOMAIN_TYPE = "Entity"
_DOMAIN = re.compile(r"[\s-](?:domains?|motifs?)$", re.IGNORECASE)
#: grounding routes that do not make a two-word domain mention a gene's own name (round 91)
_NOT_OWN_NAME = frozenset({"part", "ortholog"})
_WORDS = re.compile(r"[\s-]+")
_WORD = re.compile(r"[^\s/()\-]+")
_SYMBOL_WORD = re.compile(r"^(?=(?:.*[A-Z]){2})[A-Za-z][A-Za-z0-9]{2,}$")


def _grounding(cands: list[GroundingCandidate], taxon: str | None, route: str,
               factor: float = 1.0) -> Grounding:
    conf = round(confidence(cands) * factor, 3)
    return Grounding(tuple(c.id for c in cands), conf if cands else 0.0, taxon,
                     route if cands else "none")


def _prefer_whole(text: str, cands: list[GroundingCandidate]) -> bool:
    """The whole mention is curated (FamPlex) or written as its best candidate's symbol."""
    return bool(cands) and (cands[0].source == "famplex" or
                            re.sub(r"\s+", "", text).lower() == cands[0].symbol.lower())


def _affix_forms(text: str, taxon: str | None) -> list[str]:
    """The mention without its affixes, one stripped at a time, then all."""
    forms = []
    t = text.strip()
    for _ in range(3):
        s = _SUFFIXES.sub("", t)
        p = _PREFIXES.sub("", s)
        m = _SPECIES_PREFIX.match(p)
        if m and _PREFIX_TAXON[m.group(1)] == (taxon or HUMAN):
            p = p[m.end():]
        for f in (s, p):
            if f and f != t and f not in forms:
                forms.append(f)
        if p == t:
            break
        t = p
    return forms


_RESOLVED: WeakKeyDictionary[Grounder, dict[tuple[str, str | None, int], Grounding]] = \
    WeakKeyDictionary()


def resolve(text: str, taxon: str | int | None = None, *, grounder: Grounder | None = None,
            famplex: FamPlex | None = None) -> Grounding:
    """The grounding of one mention out of context: coordinations, the mention, affixes,
    orthologs (cached per grounder)."""
    g = grounder if grounder is not None else default_grounder()
    fam = famplex or default_famplex()
    taxon = taxon_id(taxon)
    cache = _RESOLVED.setdefault(g, {})
    key = (text, taxon, id(fam))
    found = cache.get(key)
    if found is None:
        found = _resolve(g, fam, text, taxon)
        if len(cache) < 100_000:
            cache[key] = found
    return found


_MIRNA = re.compile(MIRNA, re.IGNORECASE)


def _resolve(g: Grounder, famplex: FamPlex, text: str, taxon: str | None) -> Grounding:
    if not re.search(r"[^\W\d_]", text):  # "4" of "IL-2, -4": no name without a letter
        return Grounding((), 0.0, taxon, "none")
    if mass_only(text):   # "a 95-kDa protein": not named yet (round 103)
        return Grounding((), 0.0, taxon, "none")
    named = mass_named(text)   # "70-kDa heat shock protein": HSP70 (round 104)
    if named is not None:
        return _resolve(g, famplex, named, taxon)
    mirna = _MIRNA.fullmatch(text)   # "hsa-miR-21-5p": the gene is MIR21 (round 74)
    if mirna is not None and (mirna["prefix"] or mirna["arm"]):
        return _resolve(g, famplex, mirna["gene"], taxon)
    direct = by_name_number(text, g.ground(text, taxon))
    if taxon in (None, HUMAN):
        direct = by_rodent_case(g, text, direct)   # "PrP": PRNP, not PRDX2 (round 84)
    if not _prefer_whole(text, direct):
        coord = coordination(g, famplex, text, taxon)
        if coord is not None:
            return coord
    short = SHORT_FACTOR if len(compact_form(text)) <= 2 else 1.0
    if direct and matched_as_written(direct[0]):
        return _grounding(direct, taxon, "lexicon", short)
    for form in _affix_forms(text, taxon):  # "p-ERK" is not PERK, "mIL-2" not Mil2
        cands = g.ground(form, taxon)
        if cands and (not direct or cands[0].score > direct[0].score):
            return _grounding(cands, taxon, "affix", AFFIX_FACTOR * short)
    if direct:
        return _grounding(direct, taxon, "lexicon", short)
    for form in spelling_forms(text):   # "b-catenin": beta-catenin
        cands = g.ground(form, taxon)
        if cands:
            return _grounding(cands, taxon, "spelling", AFFIX_FACTOR * short)
    if taxon in (None, HUMAN) and len(compact_form(text)) >= 3:  # in MGI/RGD only
        # ("P-selectin"), as written or spelled as lexicons spell: their human orthologs
        for form in dict.fromkeys((text, american_spelling(text), abbreviated(text))):
            cands = _from_orthologs(g, form)
            if cands:
                return _grounding(cands, taxon, "ortholog", short)
    gene = word_order(g).gene(text, taxon)   # "alpha-smooth muscle actin": ACTA2
    if gene is not None:
        return Grounding((gene,), round(AFFIX_FACTOR * AFFIX_FACTOR, 3), taxon, "order")
    cands = other_form_candidates(g, text, taxon)   # "serotonin 2C receptor", "type I X"
    if cands:
        return _grounding(cands, taxon, "affix", AFFIX_FACTOR)
    return _from_parts(g, famplex, text, taxon)


_KINASE_AFTER = re.compile(r"\s+kinases?\b", re.IGNORECASE)


def _from_parts(g: Grounder, famplex: FamPlex, text: str, taxon: str | None) -> Grounding:
    """The first part of the mention (:func:`relx.genes.mention.name_parts`) that grounds,
    with its span in ``text``; in the species a word before it names (``human H-Ras``)."""
    said = _SPECIES_WORD.match(text)
    if said:
        taxon = _PREFIX_TAXON[said.group(1)[0].lower()]
    for start, end in name_parts(text):
        found = resolve(text[start:end], taxon, grounder=g, famplex=famplex)
        if found.grounded and _KINASE_AFTER.match(text, end) and not any(
                g.name_says(m, "kinase") for m in (
                    famplex.members(found.ids[0]) if found.ids[0].startswith("FPLX:")
                    else (found.ids[0],))):
            continue   # "NDP kinase", "CaM kinase": the kinase of a gene, not the gene
        if found.grounded and not all(namespace_of(i) in CHEMICAL_NAMESPACES
                                      for i in found.ids):
            inner = found.span or (0, end - start)
            return Grounding(found.ids, round(found.confidence * AFFIX_FACTOR, 3), taxon,
                             "part", (start + inner[0], start + inner[1]))
    words = [(m.start(), m.end()) for m in _WORD.finditer(text)]
    for size in range(len(words) - 1, 0, -1):   # the longest run of words a key names
        for i in range(len(words) - size, -1, -1):   # the rightmost first: the head
            start, end = words[i][0], words[i + size - 1][1]
            if not sub_name(text, words, i, i + size):
                continue
            cands = g.ground(text[start:end], taxon)
            generic = size == 1 and text[start:end].islower()   # "phosphatase", "actin"
            # the last word written as a symbol may match in another case ("glucose
            # transporter GLUT2": Glut2 in mouse)
            head_symbol = size == 1 and i == len(words) - 1 and text[start - 1:start].isspace() \
                and bool(_SYMBOL_WORD.match(text[start:end]))
            if (cands and (matched_as_written(cands[0]) or head_symbol)
                    and len(compact_form(text[start:end])) >= 3
                    and namespace_of(cands[0].id) in NAME_NAMESPACES and
                    not (generic and cands[0].id.startswith("FPLX:"))):
                found = _grounding(cands, taxon, "part", AFFIX_FACTOR * AFFIX_FACTOR)
                return dataclasses.replace(found, span=(start, end))
    if len(words) > 2 and _DOMAIN.search(text):   # "VWF A2 domain": the protein named first
        first = text[:words[0][1]]
        found = resolve(first, taxon, grounder=g, famplex=famplex)
        if found.grounded and len(compact_form(first)) >= 3:
            return Grounding(found.ids, round(found.confidence * AFFIX_FACTOR, 3), taxon,
                             "part", (0, len(first)))
    return Grounding((), 0.0, taxon, "none")


#: how a pass over ungrounded gene mentions names one: (text, taxon, the ids of the
#: document's grounded mentions) -> (id, confidence), or None
_Namer = Callable[[str, str | None, frozenset[str]], tuple[str, float] | None]


def _name_ungrounded(doc: Document, to_ncbi: NcbiGene, name: _Namer,
                     eligible: Callable[[str], bool] = lambda text: True) -> Document:
    """``doc`` (whose entities are the first grounding pass's copies) with each gene mention
    that has no id (and whose text is ``eligible``) given the id ``name`` finds for it, once
    per surface form and species."""
    ents = [e for s in doc.sentences for e in s.entities]
    if not any(_is_gene(e.type) and not e.norm_ids for e in ents):
        return doc
    context = frozenset(e.norm_ids[0] for e in ents if e.norm_ids)
    memo: dict[tuple[str, str | None], tuple[str, float] | None] = {}

    def update(e: Entity) -> dict[str, object]:
        if e.norm_ids or not _is_gene(e.type):
            return {}
        text = _text(doc, e)
        if not eligible(text):
            return {}
        key = (_key(text), e.taxon)
        if key not in memo:
            memo[key] = name(text, e.taxon, context)
        hit = memo[key]
        if hit is None:
            return {}
        return {"norm_ids": [hit[0]], "grounded": True, "norm_confidence": hit[1],
                "ncbi_ids": to_ncbi.ncbi_ids([hit[0]])}

    return with_entity_updates(doc, update, copy_unchanged=False)


def _annotated_names(doc: Document, names: AnnotatedNames, to_ncbi: NcbiGene) -> Document:
    """``doc`` with its gene mentions that have no id named from the dictionary of annotated
    names, and, with its ``override_share``, a grounded mention's best id replaced by the
    name's annotated gene (:mod:`relx.genes.annotated_names`)."""
    doc = _name_ungrounded(doc, to_ncbi, lambda text, taxon, _: names.best(
        text, lexicon_taxon(taxon)))
    if names.settings["override_share"] is None:
        return doc

    def update(e: Entity) -> dict[str, object]:
        if not e.norm_ids or not _is_gene(e.type) or e.norm_confidence is None:
            return {}       # no id, not a gene, or ids the input gave
        hit = names.override(_text(doc, e), lexicon_taxon(e.taxon))
        if hit is None or hit[0] == e.norm_ids[0]:
            return {}
        ids = [hit[0], *(i for i in e.norm_ids if i != hit[0])]
        return {"norm_ids": ids, "norm_confidence": hit[1], "ncbi_ids": to_ncbi.ncbi_ids(ids)}

    return with_entity_updates(doc, update, copy_unchanged=False)


def _rank_ungrounded(doc: Document, g: Grounder, ranker: NameRanker,
                     to_ncbi: NcbiGene, searched: dict[tuple[str, str | None], bool]
                     ) -> Document:
    """``doc`` with its gene mentions that no lexicon key grounds given the ranker's best
    candidate, when it is sure enough (:mod:`relx.genes.ranker`); ``searched`` gets, per
    mention text and species, whether the search found candidates."""
    def name(text: str, taxon: str | None, context: frozenset[str]
             ) -> tuple[str, float] | None:
        found = candidates(g, text, taxon, context)
        searched[(text, taxon)] = bool(found)
        hit = ranker.best(found)
        return None if hit is None else (hit[0].id, round(hit[1], 3))

    return _name_ungrounded(doc, to_ncbi, name, lambda text: len(_key(text)) >= MIN_RANKED
                            and not generic_class(text))


def _series_ungrounded(doc: Document, g: Grounder, to_ncbi: NcbiGene) -> Document:
    """``doc`` with its gene mentions that ground to nothing and head a numbered name series
    (``superoxide dismutase``), or whose name inside does (``serum lactate dehydrogenase``),
    given the member they stand for
    (:func:`relx.genes.series.series_member`), at ``SERIES_FACTOR`` confidence."""
    def name(text: str, taxon: str | None, context: frozenset[str]
             ) -> tuple[str, float] | None:
        said = _SPECIES_WORD.match(text)      # "human growth hormone" in a mouse study
        found = series_member(g, text, taxon, context) or member_inside(
            g, text, _PREFIX_TAXON[said.group(1)[0].lower()] if said else taxon, context)
        return None if found is None else (found, SERIES_FACTOR)

    return _name_ungrounded(doc, to_ncbi, name)


def _from_orthologs(g: Grounder, text: str) -> list[GroundingCandidate]:
    best: dict[str, GroundingCandidate] = {}
    for other in (MOUSE, RAT):
        for c in g.ground(text, other):
            for h in g.orthologs.to_human(c.id):
                score = round(c.score * ORTHOLOG_FACTOR, 4)
                symbol = g.symbol(h)
                if symbol and (h not in best or best[h].score < score):
                    best[h] = GroundingCandidate(h, symbol, c.source, score)
    return sorted(best.values(), key=lambda c: (-c.score, c.id))


def _member_of_series(text: str, span: Span, taxon: str | None,
                      ground: Callable[[str, str | None], Grounding]) -> Grounding | None:
    """The grounding of a member number written after a slash (the ``2`` of ``ERK1/2``
    as ``ERK2``: :mod:`relx.genes.slash_series`), or None."""
    name = series_name(text, span.start, span.end)
    if name is None:
        return None
    via = ground(name, taxon)
    return Grounding(via.ids, via.confidence, taxon, "series") if via.ids else None


@lru_cache(maxsize=256)
def _is_gene(entity_type: str | None) -> bool:
    return is_protein_type(entity_type)


@lru_cache(maxsize=65536)
def _key(text: str) -> str:
    return normalize_key(text)


def _text(doc: Document, e: Entity) -> str:
    return e.text or " ".join(doc.text[s.start:s.end] for s in e.spans)


def ground_document(doc: Document, grounder: Grounder | None = None, *, species: bool = True,
                    overwrite: bool = True, keep_given: bool = False,
                    famplex: FamPlex | None = None, ncbi: NcbiGene | None = None,
                    ranker: NameRanker | bool | None = None,
                    members: FamilyMembers | bool | None = None,
                    calibration: ConfidenceMap | bool | None = None,
                    annotated: AnnotatedNames | bool | None = None) -> Document:
    """A copy of ``doc`` whose entities carry ``norm_ids`` (best first), ``norm_confidence``,
    ``grounded``, ``ncbi_ids`` (the NCBI Gene ids of ``norm_ids``, from ``ncbi``, default
    the shipped table) and, for genes/proteins, ``taxon``; ``doc.species`` lists the
    organisms named (with ``species``). An entity that has ids already keeps them unless
    ``overwrite``; with ``keep_given`` an entity's own ids (e.g. a PubTator or BioC input's
    gene ids), namespaced (:mod:`relx.ids`), come first and relx's follow, and then its
    confidence is None. A gene mention that came without ids and grounds only to small
    molecules (``Nutlin-3`` mis-tagged by NER) is typed ``Chemical``; one that names only a
    domain and grounds to nothing (``SH2 domain``) is typed ``Entity``.
    ``ranker``: the learned ranker for mentions no lexicon key grounds
    (:mod:`relx.genes.ranker`; None: the shipped one, False: none); ``members``: the
    member a family name stands for (:mod:`relx.genes.members`; None: the shipped table,
    False: none); ``calibration``: the map of raw confidences to probabilities
    (:mod:`relx.genes.confidence`; None: the shipped one, False: raw scores);
    ``annotated``: the names annotators gave ids (:mod:`relx.genes.annotated_names`; None:
    the shipped dictionary, False: none), before the ranker.
    """
    g = grounder or default_grounder()
    fam = famplex or default_famplex()
    to_ncbi = ncbi or default_ncbi_gene()
    symbols = approved_symbols(g)     # what a variant notation may also look like (F11R)
    hits = find_species(doc.text) if species else []
    assigned: dict[str, SpeciesAssignment] = (
        assign_species(doc, hits, in_lexicon=g.in_lexicon,
                       rodent_symbol=rodent_symbols(g).__contains__,
                       family_name=g.is_family_name) if species else {})
    human_named = any(h.taxon == HUMAN and h.kind in GENE_KINDS for h in hits)
    long_of: dict[str, str] = {}
    short_of: dict[str, str] = {}
    for ab in doc.abbreviations:
        long_of.setdefault(ab.short_text.strip(), ab.long_text)
        short_of.setdefault(ab.long_text.strip(), ab.short_text)
    memo: dict[tuple[str, str | None], Grounding] = {}

    def mention(text: str, taxon: str | None) -> Grounding:
        key = (_key(text), taxon)
        if key not in memo:
            memo[key] = resolve(text, taxon, grounder=g, famplex=fam)
        return memo[key]

    def entity_grounding(text: str, taxon: str | None) -> Grounding:
        found = mention(text, taxon)
        long = long_of.get(text.strip())
        if long is not None and (len(found.ids) != 1 or found.confidence < WEAK_SHORT_FORM):
            via = mention(long, taxon)
            weak = via.route not in ("part", "none") and \
                via.ids[:1] != found.ids[:1]   # "α-SMA" of "α-smooth muscle actin"
            if (len(found.ids) != 1 or weak) and via.grounded and (
                    via.route != "part" or not found.ids or set(via.ids) & set(found.ids)):
                return Grounding(via.ids, via.confidence, taxon, "abbreviation")
        short = short_of.get(text.strip())
        if short is not None and (not found.grounded or found.route == "part"):
            via = mention(short, taxon)
            if len(via.ids) == 1 or (found.grounded and via.grounded and via.route != "part"
                                     and namespace_of(via.ids[0]) in GENE_NAMESPACES):
                return Grounding(via.ids, round(via.confidence * AFFIX_FACTOR, 3), taxon,
                                 "abbreviation")
        return found

    def taxon_of(e: Entity) -> str | None:
        if not _is_gene(e.type):
            return None
        return assigned[e.id].taxon if e.id in assigned else HUMAN

    # a long form with its abbreviation inside ("cyclooxygenase (COX)-2"): the mention and
    # the document's later uses of the short form ("COX-2") take its grounding
    bracketed: dict[str, Grounding] = {}
    senses: dict[tuple[str, str | None], Grounding] = {}
    for sent in doc.sentences:
        for e in sent.entities:
            if not _is_gene(e.type) or len(e.spans) != 1:
                continue
            start, end = e.spans[0].start, e.spans[0].end
            names = bracket_names(doc.text[start:end], doc.text[max(0, start - 3):start],
                                  doc.text[end:end + 40])
            own = taxon_of(e)
            taxon = lexicon_taxon(own, human_named, doc.text[start:end])
            for name in names:
                found = mention(name, taxon)
                if found.grounded:
                    bracketed[e.id] = Grounding(found.ids, found.confidence, taxon, "bracket")
                    for other in names:
                        senses.setdefault((_key(other), taxon), bracketed[e.id])
                    break

    def update(e: Entity) -> dict[str, object]:
        protein = _is_gene(e.type)
        own = taxon_of(e)
        text = _text(doc, e)
        taxon = lexicon_taxon(own, human_named, text)
        if protein and not (keep_given and e.norm_ids) and is_variant(
                text, symbols):   # "F508del", "G12D": not a gene
            return {"norm_ids": [], "grounded": False, "norm_confidence": None,
                    "taxon": None, "ncbi_ids": [], "type": VARIANT_TYPE}
        found = bracketed.get(e.id) or senses.get((_key(text), taxon)) or \
            entity_grounding(text, taxon)
        if protein and len(e.spans) == 1 and len(found.ids) > 1:
            found = by_class_word(g, found, text, doc.text[max(0, e.spans[0].start - 80):
                                                            e.spans[0].start])
            if found.route == "class":   # later uses keep it, "kinase MST1": "MST1" too
                for name in (text, CLASS_FIRST.sub("", text)):
                    senses.setdefault((_key(name), taxon), found)
        if not found.ids and protein and len(e.spans) == 1 and is_member_number(text):
            found = _member_of_series(doc.text, e.spans[0], taxon, entity_grounding) or found
        if own != taxon and found.ids:   # a sheep gene as its human ortholog
            found = dataclasses.replace(found, confidence=round(
                found.confidence * ORTHOLOG_FACTOR, 3), route="ortholog")
        if found.ids and is_family_type(e.type):   # a family: its FamPlex id first
            found = dataclasses.replace(found, ids=tuple(sorted(
                found.ids, key=lambda i: not i.startswith("FPLX:"))))
        given = namespaced_ids(e.norm_ids, e.type) if keep_given else []
        ids = list(dict.fromkeys([*given, *found.ids]))
        out: dict[str, object] = {"norm_ids": ids, "grounded": bool(ids),
                                  "norm_confidence": None if given else found.confidence,
                                  "taxon": own, "ncbi_ids": to_ncbi.ncbi_ids(ids)}
        if not given and found.ids and protein and all(
                namespace_of(i) in CHEMICAL_NAMESPACES for i in found.ids):
            out["type"] = "Chemical"
            out["taxon"] = None
        if not given and protein and _DOMAIN.search(text) and (not found.ids or (
                found.route in _NOT_OWN_NAME and len(_WORDS.split(text.strip())) == 2)):
            # "SH2 domain": a part of proteins, not a gene; also where the domain's name is
            # a gene's synonym reached only through the part or an ortholog (round 91)
            out.update(type=DOMAIN_TYPE, taxon=None, norm_ids=[], grounded=False,
                       ncbi_ids=[], norm_confidence=0.0)
            return out
        if found.span is not None and not given:
            out["norm_span"] = _norm_span(doc, e, text, found, taxon)
        return out

    def _norm_span(doc: Document, e: Entity, text: str, found: Grounding,
                   taxon: str | None) -> Span | None:
        """The grounded part of ``e`` in document offsets (one grounding per surface form:
        the part is found again in this mention's own text)."""
        own = resolve(text, taxon, grounder=g, famplex=fam)
        if own.span is None or own.ids != found.ids or len(e.spans) != 1:
            return None
        s = e.spans[0]
        if doc.text[s.start:s.end] != text:
            return None
        return Span(start=s.start + own.span[0], end=s.start + own.span[1])

    grounded = with_entity_updates(doc, update, overwrite=overwrite)
    grounded = _series_ungrounded(grounded, g, to_ncbi)
    names = (default_annotated_names() if annotated is None or annotated is True
             else annotated or None)
    if names is not None:
        grounded = _annotated_names(grounded, names, to_ncbi)
    rank = default_ranker() if ranker is None or ranker is True else ranker or None
    searched: dict[tuple[str, str | None], bool] = {}
    if rank is not None:
        grounded = _rank_ungrounded(grounded, g, rank, to_ncbi, searched)
    family = default_members() if members is None or members is True else members or None
    if family is not None:
        grounded = with_members(grounded, family, to_ncbi)
    cmap = (default_confidence_map() if calibration is None or calibration is True
            else calibration or None)
    if cmap is not None:
        grounded = calibrated(grounded, cmap)
    grounded = with_reasons(grounded, lambda text, taxon, context: no_id_reason(
        g, rank, text, lexicon_taxon(taxon, human_named, text), context,
        min_ranked=MIN_RANKED, class_name=generic_class, searched=searched.get((text, taxon))),
        lambda e: _text(grounded, e))
    if not species:
        return grounded
    grounded.species = [SpeciesMention(start=h.start, end=h.end, text=h.text, taxon=h.taxon,
                                       kind=h.kind) for h in hits]
    return grounded
