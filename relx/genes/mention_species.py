"""What a gene mention's own words, and the words right after it, say about its species:
a species prefix (``hTERT``), a knockout marker and the animal it is made in (``Lep-/-
mice``), cells made so (``ATG7-deficient cells``); and the mention's name part, without
the class and attribute words around it (``kinase Syk``, ``hSOD1 protein``).
:func:`relx.genes.species.assign_species` reads them."""

from __future__ import annotations

import re
from collections.abc import Callable

from relx.genes.mention import MIRNA
from relx.ids import HUMAN, MOUSE, RAT

__all__ = ["KNOCKOUT_AFTER", "MADE_CELLS", "knockout_animal", "knockout_in_animals",
           "knockout_suffix", "name_part", "species_prefix"]

_PREFIX = re.compile(r"^(h|hs|Hs|m|mm|r|rn)-?(?=[A-Z0-9])(.{2,})$")
_PREFIX_TAXON = {"h": HUMAN, "m": MOUSE, "r": RAT}
#: miRBase's species prefix of a microRNA (``hsa-miR-21``, ``mmu-let-7a``; round 78)
_MIRNA = re.compile(MIRNA, re.IGNORECASE)
_MIRBASE_TAXON = {"hsa": HUMAN, "mmu": MOUSE, "rno": RAT}
#: a knockout marker: ``-/-``, ``+/-`` (ASCII, Unicode minus or en dash) or a word after
#: a hyphen or space (``-deficient``, `` knockout``)
_MINUS_PAIR = r"[-\u2212\u2013]/[-\u2212\u2013]|\+/[-\u2212\u2013]"
_MARKER_WORD = r"[-\s](?:deficient|null|knockout|knock-out|KO)"
KNOCKOUT_AFTER = re.compile(rf"^\s*(?:\(\s*)?(?:{_MINUS_PAIR}|{_MARKER_WORD}\b)", re.IGNORECASE)
#: what a marker, if any, is followed by: an animal (``leptin-deficient mice``) or cells
#: made so (``ATG7-deficient cells``: no animal)
_AFTER_MARKER = rf"\s*(?:\(\s*)?(?:{_MINUS_PAIR}|{_MARKER_WORD})?\s*\)?\s+"
_KNOCKOUT_ANIMAL = re.compile(rf"{_AFTER_MARKER}(?P<animal>mice|mouse|rats?)\b", re.IGNORECASE)
#: an animal, or its parts, a knockout is made in without naming the organism
#: (``c-raf-1(-/-) embryos``, ``Raf-1-deficient littermates``; round 99)
_KNOCKOUT_ANIMAL_PART = re.compile(
    rf"{_AFTER_MARKER}(?P<animal>embryos?|animals?|littermates?|pups?|offspring|"
    r"f(?:o)?etus(?:es)?|f(?:o)?etal|newborns?|neonates?|homozygotes?|heterozygotes?)\b",
    re.IGNORECASE)
MADE_CELLS = re.compile(rf"{_AFTER_MARKER}(?:cells?|clones?|cell lines?|organoids?)\b",
                        re.IGNORECASE)
_KNOCKOUT_IN = re.compile(rf"(?:\s*(?:\(\s*)?(?:{_MINUS_PAIR})\s*\)?|{_MARKER_WORD})$",
                          re.IGNORECASE)


def species_prefix(text: str, in_lexicon: Callable[[str, str], bool],
                   family_name: Callable[[str], bool] | None = None
                   ) -> tuple[str, str] | None:
    """(taxon, rest) when ``text`` is a species-prefixed gene name (``hTERT`` -> human,
    ``TERT``): the rest is in that species' lexicon and the whole text in no other's, nor,
    with ``family_name``, a FamPlex name as written (``mTORC1``).
    ``in_lexicon(text, taxon)`` says whether a text is in a species' own gene lexicon.
    miRBase's prefix of a microRNA (``mmu-miR-155``) names its species whatever the
    lexicons say."""
    mirna = _MIRNA.match(text.strip())
    if mirna is not None and mirna["prefix"]:
        return _MIRBASE_TAXON[mirna["prefix"].lower()], text.strip()[mirna.end("prefix") + 1:]
    m = _PREFIX.match(text.strip())
    if m is None or (family_name is not None and family_name(text.strip())):
        return None
    taxon = _PREFIX_TAXON[m.group(1)[0].lower()]
    if any(in_lexicon(text, t) for t in (HUMAN, MOUSE, RAT) if t != taxon):
        return None
    return (taxon, m.group(2)) if in_lexicon(m.group(2), taxon) else None


#: class words before a name and attribute words after it, not read where a species prefix
#: or a rodent symbol is (``kinase Syk``, ``hSOD1 protein``; round 51c)
_AROUND_NAME = re.compile(
    r"(?:(?:the|kinase|phosphatase|adaptor|receptor|ligand|enzyme)\s+)?(?P<name>.+?)"
    r"(?:\s+(?:proteins?|genes?|mRNAs?|transcripts?|levels?|expression))?")


def name_part(text: str) -> str:
    """``text`` (a mention) without :data:`_AROUND_NAME`'s words around its name."""
    m = _AROUND_NAME.fullmatch(text.strip())
    return m.group("name") if m else text.strip()


def knockout_suffix(text: str) -> str | None:
    """The knockout marker ending a mention (``Runx3-/-`` -> ``-/-``), or None."""
    m = _KNOCKOUT_IN.search(text)
    return m.group(0) if m and m.start() > 0 else None


def knockout_animal(text: str, mention: str, end: int) -> str | None:
    """The taxon of the animal a knockout-marked mention (ending at ``end`` in ``text``)
    is made in, written right after the marker (``Lep-/- mice``), else None."""
    m = _marked(_KNOCKOUT_ANIMAL, text, mention, end)
    if m is None:
        return None
    return RAT if m.group("animal").lower().startswith("rat") else MOUSE


def knockout_in_animals(text: str, mention: str, end: int) -> bool:
    """Whether a mention (ending at ``end`` in ``text``) is knocked out in animals the text
    does not name (``c-raf-1(-/-) embryos``): a marker, then an animal or its parts."""
    return _marked(_KNOCKOUT_ANIMAL_PART, text, mention, end) is not None


def _marked(pattern: re.Pattern[str], text: str, mention: str, end: int
            ) -> re.Match[str] | None:
    """``pattern``'s match right after a mention (ending at ``end``) when a knockout marker
    precedes its ``animal`` group or ends the mention, else None."""
    after = text[end:end + 40]
    m = pattern.match(after)
    if m is None or not (after[:m.start("animal")].strip(" ()") or knockout_suffix(mention)):
        return None
    return m
