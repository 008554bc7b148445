"""A class name that heads a numbered or lettered series of gene names stands for a member.

``superoxide dismutase``, ``nitric oxide synthase``, ``presenilin``, ``cyclooxygenase``: no
lexicon lists the class name itself, but the lexicon has names that are the class name and
a member number (``superoxide dismutase 1``, ``... 2``, ``... 3``). Curators (BioRED)
annotate such a mention with the series' first member, or with the member the document
names elsewhere; :func:`series_member` does the same for a mention that grounds to nothing.
Names come from the curated sources (``SOURCES``). A mouse or rat mention takes the member
of its own lexicon, else the human member's ortholog.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from relx.genes.lexicon import GENE_NAMESPACE, HUMAN, Grounder, normalize_key, taxon_id
from relx.genes.mention import name_parts

__all__ = ["GREEK", "LETTERS", "MAX_MEMBER", "MIN_LETTERS", "MIN_WORDS_NCBI", "SERIES_FACTOR",
           "SOURCES", "member_inside", "series_member"]

#: the shortest class name (compact, letters only) a series is looked up for (round 70:
#: five, for ``talin``, ``filamin``; eight before)
MIN_LETTERS = 5
#: member numbers looked at for the document's own member
MAX_MEMBER = 12
#: the letters of a lettered series, member A first (``lactate dehydrogenase A``, ``B``...)
LETTERS = "abcdefgh"
#: the Greek letters of a series lettered so, alpha first (``retinoic acid receptor alpha``)
GREEK = ("alpha", "beta", "gamma", "delta", "epsilon")
#: last words of a class name not read as a Greek-lettered series: what it says of other
#: things (``protein kinase inhibitor`` is mostly a drug, not PKIA)
_NOT_GREEK_HEAD = frozenset({"inhibitor", "antagonist", "agonist", "ligand", "blocker",
                             "activator"})
#: the confidence of a series member (a guess by convention, as a family's first member)
SERIES_FACTOR = 0.5
_LETTERS = re.compile(r"^[a-z]+$")
_GREEK_SPLIT = re.compile(r"[\s-]+")
#: the curated lexicon sources of a series member's name; NCBI's other designations and
#: synonyms hold class phrases too (``cysteine protease 1`` is one of LGMN's), so a name
#: from them counts only for a class name of ``MIN_WORDS_NCBI`` words or more (``cAMP
#: response element-binding protein``)
SOURCES = frozenset({"symbol", "name", "alias", "previous", "ncbi_name"})
MIN_WORDS_NCBI = 3


def _members(g: Grounder, key: str, taxon: str, any_source: bool) -> list[str]:
    """The genes of ``taxon`` with the lexicon key ``key`` (a member's name), from
    ``SOURCES`` or, with ``any_source``, any gene source."""
    rows = g.index if taxon == HUMAN else g.species_index(taxon)
    prefix = f"{GENE_NAMESPACE[taxon]}:" if taxon in GENE_NAMESPACE else None
    ids = [cid for cid, source, _form in rows.get(key, ())
           if prefix and cid.startswith(prefix) and (any_source or source in SOURCES)]
    if not ids and taxon != HUMAN and prefix:
        ids = [o for h in _members(g, key, HUMAN, any_source)
               for o in g.orthologs.from_human(h, taxon)]
    return list(dict.fromkeys(ids))


def _series(text: str) -> list[list[str]]:
    """The lexicon keys of the members of the series ``text`` may head, one list per way
    of numbering, each in member order: the number after the name (``superoxide dismutase
    1``), a letter after it (``lactate dehydrogenase A``), a Greek letter after it
    (``retinoic acid receptor alpha``), a number before its last word
    (``melanocortin 1 receptor``) or, for a Greek letter and one word, that letter and a
    number after the word (``alpha-actinin``: ``actinin alpha 1``); a plural's singular
    too."""
    words = [normalize_key(w) for w in text.split()]
    parts = [normalize_key(w) for w in _GREEK_SPLIT.split(text.strip())]
    if words and words[-1].endswith("s"):
        singular = [*words[:-1], words[-1][:-1]]
        forms = [words, singular] if len(words[-1]) > 3 else [words]
    else:
        forms = [words]
    out = []
    for ws in forms:
        key = "".join(ws)
        out.append([f"{key}{n}" for n in range(1, MAX_MEMBER + 1)])
        out.append([f"{key}{c}" for c in LETTERS])      # lactate dehydrogenase A, B...
        if len(ws) >= 2 and ws is words and not ws[-1].endswith("s") and \
                ws[-1] not in _NOT_GREEK_HEAD:   # not a class: "protein tyrosine phosphatases"
            out.append([f"{key}{c}" for c in GREEK])    # retinoic acid receptor alpha...
        if len(ws) >= 2:
            head, last = "".join(ws[:-1]), ws[-1]
            out.append([f"{head}{n}{last}" for n in range(1, MAX_MEMBER + 1)])
    if len(parts) == 2 and parts[0] in GREEK and len(parts[1]) >= MIN_LETTERS:
        out.append([f"{parts[1]}{parts[0]}{n}" for n in range(1, MAX_MEMBER + 1)])
    return out


def series_member(g: Grounder, text: str, taxon: str | None,
                  document_ids: Iterable[str] = ()) -> str | None:
    """The gene a class name ``text`` stands for in ``taxon`` (human by default): the one
    member of its series (:func:`_series`) that ``document_ids`` (the ids of the
    document's other mentions) name, else member 1 when that is one
    gene; None when ``text`` heads no series (fewer than ``MIN_LETTERS`` letters, a digit,
    or no first member in the lexicon)."""
    taxon = taxon_id(taxon) or HUMAN
    key = normalize_key(text)
    if len(key) < MIN_LETTERS or not _LETTERS.match(key):
        return None
    wordy = len(text.split()) >= MIN_WORDS_NCBI
    in_document = set(document_ids)
    for keys in _series(text):
        first = _members(g, keys[0], taxon, wordy)
        if not first:
            continue
        named = {i for k in keys for i in _members(g, k, taxon, wordy)
                 if i in in_document} if in_document else set()
        if len(named) == 1:
            return named.pop()
        return first[0] if len(first) == 1 else None
    return None


def member_inside(g: Grounder, text: str, taxon: str | None,
                  document_ids: Iterable[str] = ()) -> str | None:
    """:func:`series_member` of the first name inside ``text`` that heads a series
    (:func:`relx.genes.mention.name_parts`: ``serum lactate dehydrogenase`` -> LDHA,
    ``superoxide dismutase activity`` -> SOD1; round 107); None for a drug class (``protein
    kinase inhibitor``) or when no part heads one."""
    words = text.lower().split()
    if words and (words[-1] in _NOT_GREEK_HEAD or words[-1].removesuffix("s") in _NOT_GREEK_HEAD):
        return None
    ids = list(document_ids)
    return next((m for start, end in name_parts(text)
                 if (m := series_member(g, text[start:end], taxon, ids))), None)
