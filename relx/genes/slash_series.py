"""A number written after a slash names a sibling of the gene before it.

``ERK1/2``, ``JAK1/2``, ``LATS1/2``, ``Smad1/5/8``, ``CDK4/6``, ``IL-4/13``: papers write two
or three genes of one series as one word. relx's tokenizer splits at the slash (GE annotates
``p50/p65`` as two proteins), so the tagger tags ``ERK1`` and, at times, a mention ``2`` that
no lexicon knows, or leaves the ``2`` out. :func:`series_name` gives the name such a number
stands for (``ERK2``): :func:`relx.genes.document.ground_document` grounds a mention ``2``
through it, and :func:`relx.genes.more_mentions.more_mentions` adds the numbers the tagger
left out when their name is a gene's. Nothing here is fitted (docs/genes.md, round 16).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

__all__ = ["is_member_number", "member_numbers", "one_series_word", "series_name"]

#: a member number: one or two digits, perhaps one letter after (``2``, ``5a``)
_NUMBER = r"\d{1,2}[A-Za-z]?"
_IS_NUMBER = re.compile(rf"^{_NUMBER}$")
#: what comes before a member number: a name ending in a letter or hyphen (the stem), its
#: own number, the numbers of the series before this one, and the slash
_BEFORE = re.compile(
    rf"(?<![\w-])([A-Za-z](?:[\w-]*?[A-Za-z-])?)( ?)({_NUMBER})((?:/{_NUMBER})*)/$")
#: between two members of one series word: slashes and member numbers (``/``, ``/5/``)
_BETWEEN = re.compile(rf"^(?:/{_NUMBER})*/$")
#: a member number after a slash, ending the word
_AFTER = re.compile(rf"/({_NUMBER})(?![\w-])")
#: how far back the stem is looked for, in characters
LOOK_BACK = 40


def is_member_number(text: str) -> bool:
    """``text`` is written as a member number (``2``, ``5a``)."""
    return bool(_IS_NUMBER.match(text))


def series_name(text: str, start: int, end: int) -> str | None:
    """The gene name the member number ``text[start:end]`` stands for (``ERK2`` for the
    ``2`` of ``ERK1/2``, ``Smad8`` for the ``8`` of ``Smad1/5/8``), or None when it is not
    a number written after ``<name><number>/``."""
    if not is_member_number(text[start:end]) or (end < len(text) and (
            text[end].isalnum() or text[end] in "_-")):
        return None
    m = _BEFORE.search(text[max(0, start - LOOK_BACK):start])
    if m is None:
        return None
    stem, space = m.group(1), m.group(2)
    if space and stem.islower():   # "of 1/2" is no name; "ERK 1/2" is
        return None
    return f"{stem}{space}{text[start:end]}"


def member_numbers(text: str, end: int) -> Iterator[tuple[int, int]]:
    """The ``(start, end)`` spans of the member numbers written right after a name that
    ends at ``end`` (``/2`` after ``ERK1``; ``/5``, ``/8`` after ``Smad1``)."""
    pos = end
    while True:
        m = _AFTER.match(text, pos)
        if m is None:
            return
        yield m.span(1)
        pos = m.end()


def one_series_word(between: str, later: str) -> bool:
    """Two mentions are members of one series word (``ERK1`` and the ``2`` of ``ERK1/2``):
    only slashes and member numbers ``between`` them, and the ``later`` one's text a member
    number."""
    return bool(_BETWEEN.match(between)) and is_member_number(later)
