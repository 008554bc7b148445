"""Which of NCBI Gene's names (full names, synonyms, other designations) the lexicon build
(:mod:`lab.lexicon_build`) keeps: :func:`informative`."""

from __future__ import annotations

import re

from relx.genes.lexicon import CLASS_NOUN, compact_form

__all__ = ["NCBI_MAX_CHARS", "SKIP_SYNONYM", "generic", "informative", "one_thing"]

#: synonyms left out (clone and locus ids)
SKIP_SYNONYM = re.compile(r"^(LOC\d+|MGC\d+|RGD\d+|Gm\d+|.*Rik\d*|[A-Z]{1,2}\d{5,}|ENS\w+)$")
#: longest NCBI name kept, in characters
NCBI_MAX_CHARS = 80
#: NCBI names that name no gene in particular
_NCBI_SKIP = re.compile(
    r"^(hypothetical|uncharacteri[sz]ed|putative|predicted|probable|unnamed|novel|unknown)\b"
    r"|pseudogene|open reading frame|\bcDNA\b|\bRIKEN\b|\bclone\b|\bEST\b|^HEL-"
    r"|\bepididymis\b|\btesticular tissue protein\b|\bprotein Li \d"
    r"|^(LOC|FLJ|KIAA|DKFZ|MGC|PRO)\d", re.IGNORECASE)


def generic(name: str) -> bool:
    """A class noun phrase of one or two lower-case words (``cysteine protease``,
    ``tyrosine kinase``): what text says of many genes (:mod:`relx.genes.same_gene`)."""
    words = name.split()
    return (len(words) <= 2 and all(w.replace("-", "").replace("/", "").isalpha()
                                    and w.islower() for w in words)
            and bool(CLASS_NOUN.search(name)))


#: the first word of a two-word class phrase that says no one thing: relational adjectives
#: (``ras-related protein``) and generic modifiers (``adapter protein``, ``serine protease``)
_RELATIONAL = re.compile(
    r"-(?:like|related|associated|binding|interacting|induced|inducible|stimulating|specific|"
    r"expressed|containing|dependent|activated|regulated|sensitive|rich|type|anchored|linked|"
    r"coupled|responsive|derived|enriched|repressed|activating|regulating|inhibiting|forming|"
    r"protein)$")
_GENERIC_FIRST = frozenset(
    "protein adapter adaptor ubiquitin-protein neurotransmitter ribonuclear transcription "
    "nuclear membrane cell serine threonine tyrosine cysteine aspartic zinc metallo "
    "dual-specificity serine/threonine receptor signal signaling signalling cytoplasmic "
    "mitochondrial secreted transmembrane orphan immune growth heat stress tumor tumour kinase "
    "phosphatase channel gene cell-surface surface plasma intracellular extracellular "
    "regulatory hormone peptide lipid sugar amino acid ion cation anion sodium potassium "
    "calcium chloride proton water glucose sodium/phosphate glycolytic ubiquitin dipeptidyl "
    "monoamine interferon immunoglobulin leukocyte casein bicarbonate sulfate urate olfactory "
    "myosin phosphoprotein phosphotyrosine polynucleotide erythrocyte kinesin rosette "
    "heptahelix decapping glycogen collagen".split())
#: nouns of a class phrase that name a role, not a gene (``calpain inhibitor``)
_ROLE_NOUNS = frozenset(
    "inhibitor inhibitors activator activators regulator regulators molecule molecules member "
    "members family factor factors subunit subunits isoform isoforms protein proteins".split())


def one_thing(name: str) -> bool:
    """A two-word class phrase whose first word names one thing (``ghrelin receptor``,
    ``angiotensin-converting enzyme``, ``capsaicin receptor``): kept when it names one gene
    of its species (docs/genes.md, round 58)."""
    words = name.split()
    return (len(words) == 2 and not _RELATIONAL.search(words[0])
            and words[0] not in _GENERIC_FIRST and words[1] not in _ROLE_NOUNS)


def informative(name: str) -> bool:
    """An NCBI name worth a lexicon row (see :mod:`lab.lexicon_build`)."""
    form = compact_form(name)
    return (len(form) >= 2 and len(name) <= NCBI_MAX_CHARS and not form.isdigit()
            and any(c.isalpha() for c in form) and not _NCBI_SKIP.search(name)
            and not SKIP_SYNONYM.match(name) and (not generic(name) or one_thing(name)))
