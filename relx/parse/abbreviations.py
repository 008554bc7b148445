"""Abbreviations that scispacy's detector cannot see.

The tokenizer keeps a bracketed short form and the hyphenated word after it as one token
(``(TH)-positive``, ``(TNF-alpha)-induced``), and scispacy's ``AbbreviationDetector``
matches whole tokens, so ``tyrosine hydroxylase (TH)-positive neurons`` defines no
abbreviation. :func:`hyphen_abbreviations` finds them in the text, with the long-form match
scispacy uses (Schwartz and Hearst, 2003): the short form's letters and digits in order in
the words before the bracket, the first at the start of a word (docs/genes.md, round 35).
Nor does it see a short form followed in its brackets by another name
(``constitutive androstane receptor (CAR; NR1I3)``): :func:`listed_abbreviations` (round
51f).
"""

from __future__ import annotations

import re

from relx.doc import Abbreviation, Span

__all__ = ["hyphen_abbreviations", "listed_abbreviations", "long_form", "long_form_before"]

#: ``(SHORT)-word``: a short form of 2-12 characters, no space or bracket, with a letter
_BRACKET_HYPHEN = re.compile(r"(?<=\s)\((?P<short>[^\s()\[\]]{2,12})\)-(?=[a-z])")
#: ``(SHORT; other name)``: a short form first in brackets, another name after a
#: semicolon (a comma lists examples: ``insulin-related genes (InsR, IRS-1)``)
_BRACKET_LIST = re.compile(
    r"(?<=\s)\((?P<short>[^\s()\[\];,]{2,12});\s[^()\[\]]{1,40}\)")
#: how far back (characters) a long form is looked for
_REACH = 400
#: where a long form cannot reach back across: a sentence end, a bracket, a semicolon
_STOP = re.compile(r"[.;:()\[\]](?:\s|$)|[()\[\]]")


def long_form(short: str, before: str) -> str | None:
    """The shortest end of ``before`` (the words before the bracket) that is a long form of
    ``short`` by the Schwartz-Hearst match, or None. ``short`` must begin with a letter or
    digit and hold a letter; the long form is longer than the short form and has at most
    ``min(len(short) + 5, 2 * len(short))`` words (scispacy's bound)."""
    if not short[0].isalnum() or not any(c.isalpha() for c in short):
        return None
    words = before.split()
    words = words[-min(len(short) + 5, 2 * len(short)):]
    candidate = " ".join(words)
    s, i = len(short) - 1, len(candidate) - 1
    while s >= 0:
        c = short[s].lower()
        if not c.isalnum():
            s -= 1
            continue
        while i >= 0 and (candidate[i].lower() != c or
                          (s == 0 and i > 0 and candidate[i - 1].isalnum())):
            i -= 1
        if i < 0:
            return None
        i -= 1
        s -= 1
    start = candidate.rfind(" ", 0, i + 1) + 1
    found = candidate[start:]
    return found if len(found) > len(short) else None


def hyphen_abbreviations(text: str, base: int = 0) -> list[Abbreviation]:
    """The abbreviations defined as ``long form (SHORT)-word`` in ``text`` (offsets shifted
    by ``base``), in text order."""
    return _bracketed(_BRACKET_HYPHEN, text, base)


def listed_abbreviations(text: str, base: int = 0) -> list[Abbreviation]:
    """The abbreviations defined as ``long form (SHORT; other name)`` in ``text`` (offsets
    shifted by ``base``), in text order."""
    return _bracketed(_BRACKET_LIST, text, base)


def long_form_before(short: str, text: str, at: int, reach: int = _REACH
                     ) -> tuple[int, int] | None:
    """``(start, end)`` in ``text`` of ``short``'s long form (:func:`long_form`) in the words
    that end right before ``at`` (whitespace between), looked for at most ``reach``
    characters back and not across a sentence end, a bracket or a semicolon; None when there
    is none or its words are joined by other whitespace than the text's."""
    base_left = max(0, at - reach)   # a long form has at most 24 words
    left = text[base_left:at].rstrip()
    stops = [s.end() for s in _STOP.finditer(left)]
    found = long_form(short, left[stops[-1] if stops else 0:])
    if found is None:
        return None
    end = base_left + len(left)
    start = end - len(found)
    return (start, end) if text[start:end] == found else None


def _bracketed(pattern: re.Pattern[str], text: str, base: int) -> list[Abbreviation]:
    out = []
    for m in pattern.finditer(text):
        short = m.group("short")
        span = long_form_before(short, text, m.start())
        if span is None:
            continue
        start, end = span
        out.append(Abbreviation(
            short=Span(start=base + m.start("short"), end=base + m.end("short")),
            long=Span(start=base + start, end=base + end), short_text=short,
            long_text=text[start:end]))
    return out
