"""Organisms mentioned in a document, and the species of each of its gene mentions.

:func:`find_species` finds organism mentions in text -- scientific names (``Mus musculus``),
abbreviated binomials (``M. musculus``), common names and adjectives (``mice``, ``murine``,
``porcine``), people (``patients``, ``women`` -> human) and cell lines from a curated list
(``HeLa`` -> human, ``NIH 3T3`` -> mouse, ``PC12`` -> rat) -- each as an ``NCBITaxon`` id.
Mentions that do not say whose genes are studied are kept with their ``kind`` but not used
for genes: reagents (``rabbit anti-``, ``mouse monoclonal``, ``fetal bovine serum``),
expression hosts (``COS-7``, ``CHO``, ``Sf9``, ``expressed in E. coli``, ``Xenopus
oocytes``), techniques (``yeast two-hybrid``) and virus names (``murine leukemia virus``).
Mice and rats hosting human tumours (``nude mice``, ``NOD/SCID mice``, ``xenograft mice``;
``mice`` in a sentence that grows tumours in a document naming a human cell line:
:func:`tumour_hosts`) are of kind ``xenograft``: they name the species of genes in their own sentence only. In
:func:`assign_species`, once a species is a xenograft host in a document, its other plain
mentions there are too (``In vivo experiments were done in nude mice. Mice were treated``).

:func:`assign_species` gives every gene/protein entity a species, first rule that applies:

1. a species prefix of the mention (``hTERT``, ``mIL-2``, ``rGH``) when the rest of the
   mention is in that species' gene lexicon and the whole mention is in no other species'
   lexicon (``mTOR`` stays unprefixed: MTOR is a human symbol) -- needs ``in_lexicon``;
   budding yeast's own nomenclature: protein names ending in ``p`` (``Dnm1p``, ``Apg13p``)
   and systematic ORF names (``YJL184w``) -> *S. cerevisiae*;
2. the nearest species mentioned in the same sentence (xenograft hosts included); Cre-lox
   genetics (``Shh(CreERT2)``, ``(flox/-)``, ``loxP``: :func:`mouse_genetics`) counts as a
   mention of mouse here and below, and so is every occurrence of cells abbreviated after
   a species name (``human retinal microvascular ECs (hRMVECs)``: :func:`abbreviated_cells`);
3. a knockout marker (``Runx3-/-``, ``-deficient``, ``-null``, ``knockout``) -> the
   nearest non-human species of the paragraph, else a non-human document focus (a knockout
   in chicken DT40 cells), else mouse;
4. the nearest species mentioned before it in the same paragraph (text between line
   breaks; a species named only later, ``murine studies have shown``, does not reach back);
5. the document's focus: its most frequently mentioned species (ties: the first named);
   with no species named, budding yeast when a mention is written in its nomenclature;
6. human.

Two kinds of organism mention name genes of their own sentence only, are no focus and are
not taken by rules 3 and 4: an organism a gene is compared with (``the human homologue of
the Drosophila gene``: kind ``comparison``), and a microbe (``E. coli``, ``C. albicans``:
:data:`MICROBES`), which in its sentence names only genes the human lexicon does not
(``rpoS``; ``IL-10 was induced by C. albicans`` takes the sentence's other organism or the
rules that follow).

Rules 3-6 give way to rodent nomenclature: a mention written as a mouse or rat symbol
(``Tet2``, ``Il6ra``; the human symbol is ``TET2``) that they would make human is the gene of
the rodent the document names, when it names one (``rodent_symbol``).

In a worm context (rules 2-5), a mention written as a human symbol -- capitals and digits,
no hyphen (``RAB28`` beside the worm's ``RAB-28``) -- is the human gene.

Rules 3-5 take a species from beyond the sentence; when that species is not a mammal and
the sentence speaks of mammals (``Mammalian genomes encode five CBX proteins``), the
mention is human.
"""

from __future__ import annotations

import dataclasses
import re
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from relx.genes.cell_lines import CELL_LINES, HOST_LINES, NEED_CELLS
from relx.genes.mention_species import (
    KNOCKOUT_AFTER,
    MADE_CELLS,
    knockout_animal,
    knockout_in_animals,
    knockout_suffix,
    name_part,
    species_prefix,
)
from relx.genes.variants import SUBSTITUTION
from relx.ids import HUMAN, MOUSE, RAT, is_protein_type

if TYPE_CHECKING:
    from relx.doc import Document, Entity

__all__ = ["HUMAN", "MOUSE", "RAT", "TAXON_NAMES", "SpeciesAssignment", "SpeciesHit",
           "abbreviated_cells", "assign_species", "document_focus", "find_species", "knockout_suffix",
           "mouse_genetics", "species_prefix", "tumour_hosts"]


#: taxon -> (display name, terms naming it); common lower-case terms also match capitalised
_TERMS: dict[str, tuple[str, tuple[str, ...]]] = {
    "9606": ("human", ("Homo sapiens", "H. sapiens", "human", "humans", "patient", "patients",
                       "women", "woman", "men", "children", "child", "girls", "boys",
                       "infants", "volunteers", "proband", "probands", "kindred", "kindreds",
                       "participants")),
    "10090": ("mouse", ("Mus musculus", "M. musculus", "mouse", "mice", "murine")),
    "10116": ("rat", ("Rattus norvegicus", "R. norvegicus", "rat", "rats")),
    "4932": ("Saccharomyces cerevisiae", ("Saccharomyces cerevisiae", "S. cerevisiae",
                                          "budding yeast", "baker's yeast", "yeast", "yeasts")),
    "4896": ("Schizosaccharomyces pombe", ("Schizosaccharomyces pombe", "S. pombe",
                                           "fission yeast")),
    "7227": ("Drosophila melanogaster", ("Drosophila melanogaster", "D. melanogaster",
                                         "Drosophila", "fruit fly", "fruit flies", "flies")),
    "6239": ("Caenorhabditis elegans", ("Caenorhabditis elegans", "C. elegans", "nematode",
                                        "nematodes", "worm", "worms")),
    "7955": ("zebrafish", ("Danio rerio", "D. rerio", "zebrafish", "zebra fish")),
    "8355": ("Xenopus laevis", ("Xenopus laevis", "X. laevis", "Xenopus", "frog", "frogs")),
    "8364": ("Xenopus tropicalis", ("Xenopus tropicalis", "X. tropicalis")),
    "9031": ("chicken", ("Gallus gallus", "G. gallus", "chicken", "chickens", "chick",
                         "chicks")),
    "3702": ("Arabidopsis thaliana", ("Arabidopsis thaliana", "A. thaliana", "Arabidopsis")),
    "562": ("Escherichia coli", ("Escherichia coli", "E. coli")),
    "1423": ("Bacillus subtilis", ("Bacillus subtilis", "B. subtilis")),
    "5476": ("Candida albicans", ("Candida albicans", "C. albicans")),
    "9986": ("rabbit", ("Oryctolagus cuniculus", "rabbit", "rabbits")),
    "9823": ("pig", ("Sus scrofa", "pig", "pigs", "piglets", "porcine", "swine")),
    "9913": ("cattle", ("Bos taurus", "bovine", "cattle", "cow", "cows", "calf", "calves")),
    "9940": ("sheep", ("Ovis aries", "sheep", "ovine", "lambs")),
    "9615": ("dog", ("Canis familiaris", "Canis lupus familiaris", "dog", "dogs", "canine")),
    "9685": ("cat", ("Felis catus", "cat", "cats", "feline")),
    "9796": ("horse", ("Equus caballus", "horse", "horses", "equine")),
    "9544": ("rhesus macaque", ("Macaca mulatta", "rhesus monkey", "rhesus monkeys",
                                "rhesus macaque", "rhesus macaques", "macaque", "macaques",
                                "monkey", "monkeys")),
    "9534": ("African green monkey", ("Chlorocebus aethiops", "African green monkey")),
    "10036": ("golden hamster", ("Mesocricetus auratus", "Syrian hamster", "golden hamster",
                                 "hamster", "hamsters")),
    "10029": ("Chinese hamster", ("Cricetulus griseus", "Chinese hamster")),
    "10141": ("guinea pig", ("Cavia porcellus", "guinea pig", "guinea pigs")),
    "7108": ("Spodoptera frugiperda", ("Spodoptera frugiperda",)),
}
#: taxon -> display name
TAXON_NAMES = {f"NCBITaxon:{t}": name for t, (name, _) in _TERMS.items()}
#: kinds of mention that say whose genes are studied
GENE_KINDS = frozenset({"name", "cell_line", "genetics"})
#: microbes: the species of their own genes in their sentence, not of the host's
MICROBES = frozenset({"NCBITaxon:562", "NCBITaxon:1423", "NCBITaxon:5476"})


def _term_pattern(term: str) -> str:
    p = re.escape(term).replace(r"\ ", r"\s+")
    p = p.replace(r"\.\s+", r"\.\s?")  # "E. coli", "E.coli"
    if term[0].islower():
        p = f"[{term[0]}{term[0].upper()}]" + p[1:]
    return p


def _cell_pattern(name: str) -> str:
    p = re.sub(r"(?<=[A-Za-z])(?=\d)", "-", name) if "-" not in name else name
    p = re.escape(p).replace(r"\-", "[-\\s]?").replace(r"\ ", "[-\\s]?")
    return p.replace("/", "/?")


def _first_run(term: str) -> str:
    """The term's first run of letters or of digits, lower-cased (``HEK293`` -> ``hek``)."""
    m = _RUN.match(term)
    return m.group(0).lower() if m else ""


_RUN = re.compile(r"[A-Za-z]+|[0-9]+")


def _build() -> dict[str, tuple[str, dict[str, tuple[str, str]]]]:
    """Per first run of letters or digits (lower-cased): one alternation over the terms
    starting with it, longest first (its source: compiled on first use, :func:`_bucket`),
    and its group names -> (taxon, kind). Trying these only at word starts whose first run
    is a key is ~100 times faster than one alternation over every term."""
    items: list[tuple[str, str, str, str]] = []  # (term, pattern, taxon, kind)
    for taxon, (_, terms) in _TERMS.items():
        items += [(t, _term_pattern(t), taxon, "name") for t in terms]
    for table, kind in ((CELL_LINES, "cell_line"), (HOST_LINES, "host")):
        for taxon, names in table.items():
            for n in names:
                pat = _cell_pattern(n.removesuffix(" cells"))
                if n in NEED_CELLS or n.endswith(" cells"):
                    pat += r"(?=\s+cell)"
                items.append((n, pat, taxon, kind))
    items.sort(key=lambda it: -len(it[0]))
    buckets: dict[str, list[tuple[str, str, str]]] = {}
    for term, pat, taxon, kind in items:
        buckets.setdefault(_first_run(term), []).append((pat, taxon, kind))
    out = {}
    for c, entries in buckets.items():
        groups = {f"g{i}": (taxon, kind) for i, (_, taxon, kind) in enumerate(entries)}
        alt = "|".join(f"(?P<g{i}>{pat})" for i, (pat, _, _) in enumerate(entries))
        out[c] = (f"(?:{alt})(?![\\w])", groups)
    return out


_BUCKETS = _build()
_COMPILED: dict[str, tuple[re.Pattern[str], dict[str, tuple[str, str]]]] = {}


def _bucket(first_run: str) -> tuple[re.Pattern[str], dict[str, tuple[str, str]]] | None:
    """The compiled bucket of ``first_run`` (None: no term starts with it). Compiling all
    ~325 of them took ~0.2 s of every start; a document needs a few."""
    got = _COMPILED.get(first_run)
    if got is None:
        source = _BUCKETS.get(first_run)
        if source is None:
            return None
        got = _COMPILED[first_run] = (re.compile(source[0]), source[1])
    return got


_WORD_START = re.compile(r"(?<![\w-])(?:[A-Za-z]+|[0-9]+)")
_REAGENT_AFTER = re.compile(
    r"[\s-]*(?:anti[-\s]|polyclonal|monoclonal|antibod|antiser|antisera|secondary)",
    re.IGNORECASE)
_ANIMAL_REAGENT_AFTER = re.compile(  # "human serum", "human IgG" are human material
    r"[\s-]*(?:IgG|IgM|Ig\b|serum|sera\b|immunoglobulin)", re.IGNORECASE)
_REAGENT_BEFORE = re.compile(r"anti[-\s]?$", re.IGNORECASE)
_TECHNIQUE_AFTER = re.compile(r"[\s-]*(?:one|two|three|[123])[\s-]*hybrid", re.IGNORECASE)
_VIRUS_AFTER = re.compile(
    r"(?:[\s-]+(?!(?:infected|with|by|and|or|of|in|to|from|cells?)\b)[\w-]+){0,2}?"
    r"[\s-]+\w*(?:virus|viral)\b", re.IGNORECASE)
_HOST_AFTER = re.compile(r"[\s-]*(?:oocytes?|-?expressed|-?derived\s+recombinant)",
                         re.IGNORECASE)
MOUSE_TAXON, RAT_TAXON = "10090", "10116"
_HOST_TAXA = frozenset({"562", "1423", "4932", "7108", "8355"})
_HOST_BEFORE = re.compile(
    r"(?:express\w*|produc\w*|purif\w*|generat\w*|made|synthesi\w*)\s+(?:\w+\s+){0,2}"
    r"(?:in|from|using)\s+(?:the\s+)?$", re.IGNORECASE)
_NEGATED_BEFORE = re.compile(r"non[-\s]?$", re.IGNORECASE)
#: a gene compared with another organism's: ``the human homologue of the Drosophila gene``
_COMPARED_BEFORE = re.compile(r"\b(?:homolog|ortholog|paralog|counterpart)(?:ue)?s?\s+"
                              r"(?:of|to|in)\s+(?:the\s+|a\s+)?$", re.IGNORECASE)
#: mice and rats hosting human tumour cells: ``nude mice``, ``SCID mice``, ``xenograft mice``
_XENOGRAFT_BEFORE = re.compile(
    r"(?:\bnude|athymic|\bSCID|\bNSG|\bNOD|immuno-?deficient|immune-?deficient|xenograft(?:ed)?)"
    r"(?:[\s/-]+[\w/()-]+){0,2}?[\s/-]+$", re.IGNORECASE)
_XENOGRAFT_AFTER = re.compile(r"[\s-]*(?:xenograft|tumou?r\s+xenograft)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class SpeciesHit:
    """An organism mention: ``text[start:end]``, its ``taxon`` (``NCBITaxon:10090``) and
    ``kind``: ``name`` or ``cell_line`` (used for genes), ``xenograft`` or ``comparison``
    (for genes of its sentence), ``reagent``, ``host``, ``technique`` or ``virus`` (not
    used for genes)."""

    start: int
    end: int
    text: str
    taxon: str
    kind: str


def _kind(text: str, start: int, end: int, kind: str, taxon: str) -> str | None:
    before, after = text[max(0, start - 40):start], text[end:end + 40]
    if _NEGATED_BEFORE.search(before):
        return None
    if _VIRUS_AFTER.match(after):
        return "virus"
    if _REAGENT_BEFORE.search(before) or _REAGENT_AFTER.match(after) or (
            taxon != "9606" and _ANIMAL_REAGENT_AFTER.match(after)):
        return "reagent"
    if taxon in ("4932", "4896") and _TECHNIQUE_AFTER.match(after):
        return "technique"
    if kind == "name" and _COMPARED_BEFORE.search(before):
        return "comparison"
    if kind == "name" and taxon in (MOUSE_TAXON, RAT_TAXON) and (
            _XENOGRAFT_BEFORE.search(before) or _XENOGRAFT_AFTER.match(after)):
        return "xenograft"
    if kind == "name" and taxon in _HOST_TAXA and (
            _HOST_AFTER.match(after) or _HOST_BEFORE.search(before)):
        return "host"
    return kind


def find_species(text: str) -> list[SpeciesHit]:
    """Organism mentions in ``text``, in text order (see the module docstring)."""
    hits: list[SpeciesHit] = []
    done = 0
    for w in _WORD_START.finditer(text):
        pos = w.start()
        bucket = _bucket(w.group(0).lower()) if pos >= done else None
        m = bucket[0].match(text, pos) if bucket else None
        if m is None:
            continue
        done = m.end()
        taxon, kind = bucket[1][m.lastgroup or ""]
        k = _kind(text, m.start(), m.end(), kind, taxon)
        if k is not None:
            hits.append(SpeciesHit(m.start(), m.end(), m.group(0), f"NCBITaxon:{taxon}", k))
    return hits


# --- species of gene mentions ----------------------------------------------------------

_CRE_LOX = re.compile(r"\b(?:Cre(?:ER\w*)?|loxP|floxed)\b|\(flox\b|(?<=\w)\(?fl/fl\)?")


def mouse_genetics(text: str) -> list[SpeciesHit]:
    """Cre-lox genetics (``Shh(CreERT2)``, ``BmprIA(flox/-)``, ``loxP``), a mouse cue: hits of
    kind ``genetics``, used for genes as a mouse mention."""
    return [SpeciesHit(m.start(), m.end(), m.group(0), MOUSE, "genetics")
            for m in _CRE_LOX.finditer(text)]


YEAST = "NCBITaxon:4932"
WORM = "NCBITaxon:6239"
_YEAST_NAME = re.compile(r"^(?:[A-Z][a-z]{2}\d{1,3}p|Y[A-P][LR]\d{3}[WCwc](?:-[A-Z])?)$")
_MAMMAL = re.compile(r"\b(?:mammalian|mammals?)\b", re.IGNORECASE)
#: mammals among the taxa relx names
MAMMALS = frozenset(f"NCBITaxon:{t}" for t in (
    "9606", "10090", "10116", "9986", "9823", "9913", "9940", "9615", "9685", "9796", "9544",
    "9534", "10036", "10029", "10141"))
_CELL_WORD = re.compile(r"(?:cells?|ECs|[a-z]+(?:cytes|blasts|phages|phils)|neurons)$")


def abbreviated_cells(doc: Document, hits: list[SpeciesHit]) -> list[SpeciesHit]:
    """Cells abbreviated after a species name (``human retinal microvascular ECs
    (hRMVECs)``): every occurrence of the short form, as a ``cell_line`` of that species."""
    out: list[SpeciesHit] = []
    done: set[str] = set()
    for ab in doc.abbreviations:
        short, long = ab.short_text.strip(), ab.long_text.strip()
        if short in done or len(short) < 3 or not _CELL_WORD.search(long):
            continue
        first = next((h for h in hits if h.kind == "name" and ab.long.start <= h.start
                      < ab.long.start + 2), None)
        if first is None:
            continue
        done.add(short)
        out += [SpeciesHit(m.start(), m.end(), short, first.taxon, "cell_line")
                for m in re.finditer(rf"(?<![\w-]){re.escape(short)}(?![\w-])", doc.text)]
    return out


@dataclass(frozen=True, slots=True)
class SpeciesAssignment:
    """The species of a gene mention and the rule that gave it (``prefix``,
    ``nomenclature``, ``sentence``, ``knockout``, ``paragraph``, ``document``, ``mammal``,
    ``default``)."""

    taxon: str
    evidence: str


def _spans(doc: Document) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Sentence spans (relx sentences, split further at sentence ends) and paragraphs."""
    text = doc.text
    base = [(s.start, s.end) for s in doc.sentences] or [(0, len(text))]
    sents = []
    for start, end in base:
        cut = start
        for m in re.finditer(r"[.!?]\s+(?=[A-Z(\[])|\n", text[start:end]):
            sents.append((cut, start + m.end()))
            cut = start + m.end()
        sents.append((cut, end))
    paras, cut = [], 0
    for m in re.finditer(r"\n", text):
        paras.append((cut, m.end()))
        cut = m.end()
    paras.append((cut, len(text)))
    return sents, paras


#: a sentence that grows tumours in animals: ``tumor formation in mice``, ``injected into``
_TUMOUR_HOST = re.compile(
    r"\b(?:tumou?r(?:s)?\s+(?:formation|growth|bearing|burden)|tumou?r-bearing|transplant\w*|"
    r"implant\w*|inoculat\w*|injected\s+(?:\w+\s+){0,3}(?:into|in)|subcutaneous\w*|"
    r"orthotopic\w*|engraft\w*|metastas[ie]s\s+(?:in|of)\s+(?:\w+\s+){0,2}mice)",
    re.IGNORECASE)


#: a genetic change written before an animal (``Axl-/- mice``, ``knockout mice``,
#: ``MMTV-PyMT mice``): the animal is a gene organism, not a tumour host
_GENETIC_BEFORE = re.compile(
    r"(?:[-\u2212\u2013]/[-\u2212\u2013]\)?|\b(?i:knock-?out|knock-?in|transgenic|KO|cKO|Cre\w*|"
    r"flox(?:ed)?|fl/fl|deficient|null|mutant)|\b[A-Z][A-Za-z0-9]*-[A-Z][A-Za-z0-9]*)\s+$")


#: between a gene and the cell line it is written onto (``AXL-depleted MDA-MB-231``)
_ONTO_CELLS = re.compile(r"(?:-\w+|\s+(?i:knockdown|knockout|overexpressing|expressing|"
                         r"depleted|silenced|deficient|null|KO|mutant|transfected))?\s+")


def _genetic(text: str, h: SpeciesHit) -> bool:
    """A genetic change is written right before the organism mention ``h``."""
    return _GENETIC_BEFORE.search(text, max(0, h.start - 40), h.start) is not None


def tumour_hosts(text: str, hits: list[SpeciesHit]) -> list[SpeciesHit]:
    """``hits`` with each plain mouse or rat mention that hosts tumours grown from the
    document's human cell lines made a ``xenograft`` mention (``HeLa`` ... ``tumor
    formation in mice``): its sentence grows tumours (:data:`_TUMOUR_HOST`) and the
    document names a human cell line."""
    if not any(h.kind == "cell_line" and h.taxon == HUMAN for h in hits):
        return hits
    out = []
    for h in hits:
        if h.kind == "name" and h.taxon in (MOUSE, RAT) and not _genetic(text, h):
            start = max(text.rfind(". ", 0, h.start), 0)
            end = text.find(". ", h.end)
            if _TUMOUR_HOST.search(text, start, end if end >= 0 else len(text)):
                h = dataclasses.replace(h, kind="xenograft")
        out.append(h)
    return out


def _nearest(hits: list[SpeciesHit], start: int, end: int, prefer_before: bool
             ) -> SpeciesHit | None:
    def dist(h: SpeciesHit) -> tuple[int, int]:
        d = start - h.end if h.end <= start else h.start - end
        return (0 if h.end <= start else 1) if prefer_before else 0, max(d, 0)

    return min(hits, key=dist) if hits else None


def document_focus(hits: Iterable[SpeciesHit]) -> str | None:
    """The most frequently mentioned species (gene-relevant kinds; ties: the first)."""
    used = [h for h in hits if h.kind in GENE_KINDS]
    if not used:
        return None
    counts = Counter(h.taxon for h in used)
    first = {}
    for i, h in enumerate(used):
        first.setdefault(h.taxon, i)
    return min(counts, key=lambda t: (-counts[t], first[t]))


def _span_at(spans: list[tuple[int, int]], pos: int) -> tuple[int, int]:
    """The span of sorted, consecutive ``spans`` (sentences, paragraphs) holding ``pos``."""
    return spans[max(0, bisect_right(spans, (pos, float("inf"))) - 1)]


@lru_cache(maxsize=256)
def _is_gene(entity_type: str | None) -> bool:
    return is_protein_type(entity_type)


def _entity_text(doc: Document, e: Entity) -> str:
    return e.text or " ".join(doc.text[s.start:s.end] for s in e.spans)


def assign_species(doc: Document, hits: list[SpeciesHit] | None = None, *,
                   in_lexicon: Callable[[str, str], bool] | None = None,
                   rodent_symbol: Callable[[str], bool] | None = None,
                   family_name: Callable[[str], bool] | None = None,
                   default: str = HUMAN) -> dict[str, SpeciesAssignment]:
    """Entity id -> species of each gene/protein entity of ``doc`` (rules: module docstring).

    ``hits`` are the document's organism mentions (default: :func:`find_species` of its
    text); ``in_lexicon`` enables the prefix rule; ``rodent_symbol(text)`` says whether a
    text is written as a mouse or rat symbol and not as a human one (rodent nomenclature).
    Entity ids are unique in a document.
    """
    if hits is None:
        hits = find_species(doc.text)
    ents = [e for s in doc.sentences for e in s.entities if _is_gene(e.type)]
    inside = sorted((sp.start, sp.end) for e in ents for sp in e.spans)
    longest = max((b - a for a, b in inside), default=0)

    def in_name(h: SpeciesHit) -> bool:  # part of a gene name ("chicken ovalbumin ...")
        i = bisect_right(inside, (h.start, len(doc.text) + 1))
        j = bisect_left(inside, (h.start - longest, -1))
        return any(h.end <= b for _, b in inside[j:i])

    hits = sorted([*hits, *mouse_genetics(doc.text), *abbreviated_cells(doc, hits)],
                  key=lambda h: h.start)
    hits = tumour_hosts(doc.text, hits)
    grafted = {h.taxon for h in hits if h.kind == "xenograft"}
    hits = [dataclasses.replace(h, kind="xenograft") if h.kind == "name" and h.taxon in grafted
            and not _genetic(doc.text, h) else h for h in hits]
    hits = [dataclasses.replace(h, kind="microbe") if h.kind == "name" and h.taxon in MICROBES
            else h for h in hits]
    named = [h for h in hits
             if h.kind in (*GENE_KINDS, "xenograft", "microbe", "comparison")
             and not (inside and in_name(h))]
    used = [h for h in named if h.kind in GENE_KINDS]
    whole = [(0, len(doc.text))]
    sents, paras = _spans(doc) if named else (whole, whole)  # no species named: no need
    yeast_named = {e.id for e in ents if _YEAST_NAME.match(_entity_text(doc, e).strip())}
    focus = document_focus(used) or (YEAST if yeast_named else None)
    if focus is None and any(knockout_in_animals(doc.text, _entity_text(doc, e), e.end)
                             for e in ents):
        focus = MOUSE   # gene targeting in animals the text does not name (round 99)
    rodent = document_focus(h for h in used if h.taxon in (MOUSE, RAT)) \
        if rodent_symbol is not None else None
    starts = [h.start for h in used]
    named_starts = [h.start for h in named]

    def within(spans: list[tuple[int, int]], pos: int, among: list[SpeciesHit] = used,
               at: list[int] = starts) -> list[SpeciesHit]:
        a, b = _span_at(spans, pos)
        return among[bisect_left(at, a):bisect_left(at, b)]

    out: dict[str, SpeciesAssignment] = {}
    for e in ents:
        start, end = e.start, e.end
        text = _entity_text(doc, e)
        name = name_part(text)
        pre = species_prefix(name, in_lexicon, family_name) if in_lexicon is not None \
            else None
        if pre is not None:
            out[e.id] = SpeciesAssignment(pre[0], "prefix")
            continue
        if in_lexicon is not None and _changed(doc.text, start, end) and \
                in_lexicon(name.strip(), HUMAN):   # "KrasG12D" in mice: human KRAS (round 88)
            out[e.id] = SpeciesAssignment(HUMAN, "nomenclature")
            continue
        if e.id in yeast_named:
            out[e.id] = SpeciesAssignment(YEAST, "nomenclature")
            continue
        animal = knockout_animal(doc.text, text, end)
        if animal is not None:
            out[e.id] = SpeciesAssignment(animal, "knockout")
            continue
        in_sentence = within(sents, start, named, named_starts)
        near = next((h for h in in_sentence if h.kind == "cell_line" and h.start >= end
                     and _ONTO_CELLS.fullmatch(doc.text, end, h.start)), None) \
            or _nearest(in_sentence, start, end, False)
        if near is not None and near.kind == "microbe" and (
                in_lexicon is None or in_lexicon(text.strip(), HUMAN)):   # the host's gene
            near = _nearest([h for h in in_sentence if h.kind != "microbe"], start, end, False)
        if near is not None:
            got = SpeciesAssignment(near.taxon, "sentence")
            if rodent is not None and all(h.taxon == HUMAN for h in in_sentence) and \
                    rodent_symbol(name):   # "Tet2 ... in human AML"
                got = SpeciesAssignment(rodent, "nomenclature")
            out[e.id] = _human_style(got, text, in_lexicon)
            continue
        in_para = within(paras, start)
        if (knockout_suffix(text) or KNOCKOUT_AFTER.match(doc.text[end:end + 20])) and \
                not MADE_CELLS.match(doc.text[end:end + 40]):   # not "ATG7-null clones"
            animal = _nearest([h for h in in_para if h.taxon != HUMAN], start, end, True)
            taxon = animal.taxon if animal else focus if focus not in (None, HUMAN) else MOUSE
            got = SpeciesAssignment(taxon or MOUSE, "knockout")
        elif focus is not None and _STUDY_OPENER.match(doc.text, _span_at(sents, start)[0]):
            got = SpeciesAssignment(focus, "document")   # "These findings identify ..."
        elif _INHERITED.search(doc.text, *_span_at(sents, start)):
            got = SpeciesAssignment(HUMAN, "inherited")   # "Mutations in SOD1 cause ..."
        elif (near := _nearest([h for h in in_para if h.end <= start], start, end, True)
              ) is not None:
            got = SpeciesAssignment(near.taxon, "paragraph")
        elif focus is not None:
            got = SpeciesAssignment(focus, "document")
        else:
            got = SpeciesAssignment(default, "default")
        if got.taxon not in MAMMALS and _MAMMAL.search(doc.text, *_span_at(sents, start)):
            got = SpeciesAssignment(HUMAN, "mammal")
        if got.taxon == HUMAN and rodent is not None and rodent_symbol(name):
            got = SpeciesAssignment(rodent, "nomenclature")
        out[e.id] = _human_style(got, text, in_lexicon)
    return out


#: a protein substitution written onto the mention, in human protein numbering
#: (``KrasG12D``, ``SOD1G93A``): BioRED names the human gene, in mouse models too
_SUBSTITUTION_AFTER = re.compile("-?" + SUBSTITUTION + r"(?![\w-])")
#: the same joined before it by a hyphen (``G93A-SOD1``; round 102)
_SUBSTITUTION_BEFORE = re.compile(r"(?<![\w-])" + SUBSTITUTION + "-$")


def _changed(text: str, start: int, end: int) -> bool:
    """A protein substitution is written onto the mention at ``start:end`` of ``text``, or
    joined to it by a hyphen (``KrasG12D``, ``SOD1-G93A``, ``G93A-SOD1``)."""
    return bool(_SUBSTITUTION_AFTER.match(text, end) or
                _SUBSTITUTION_BEFORE.search(text, max(0, start - 8), start))
#: a sentence (naming no organism) that says mutations in a gene cause an inherited
#: disease speaks of people (round 51d)
_INHERITED = re.compile(
    r"\b(?:mutations?|variants?)\b[^.;]{0,120}?\b(?:cause[sd]?|underlies?|responsible for)"
    r"\b[^.;]{0,80}?\b(?:familial|inherited|hereditary|autosomal|congenital)\b",
    re.IGNORECASE)
#: a sentence that speaks for the study itself: it takes the document's focus, not the
#: species of the sentence before (``These findings identify ...``, ``We asked ...``)
_STUDY_OPENER = re.compile(
    r"\s*(?:We|Here|(?:These|Our)\s+(?:findings|results|data)|Together|Taken together|Thus|"
    r"In summary|In conclusion|Collectively)\b")


#: a symbol in human style: capitals and digits, no hyphen (``RAB28``, ``FAM161A``)
_HUMAN_STYLE = re.compile(r"^[A-Z][A-Z0-9]*[0-9][A-Z0-9]*$|^[A-Z]{3,}$")


def _human_style(got: SpeciesAssignment, text: str,
                 in_lexicon: Callable[[str, str], bool] | None) -> SpeciesAssignment:
    """A worm's genes are written with a hyphen (``rab-28``, ``RAB-28``): in a worm
    context, a mention written as a human symbol (``RAB28``) is the human gene."""
    if (got.taxon == WORM and in_lexicon is not None and _HUMAN_STYLE.match(text.strip())
            and in_lexicon(text.strip(), HUMAN)):
        return SpeciesAssignment(HUMAN, "nomenclature")
    return got
