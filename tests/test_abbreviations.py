"""relx.parse.abbreviations: abbreviations written onto the next word, which the tokenizer
keeps in one token and scispacy's detector does not see (docs/genes.md, round 35)."""

from __future__ import annotations

import pytest

from relx.parse.abbreviations import hyphen_abbreviations, long_form


def test_a_short_form_before_a_hyphenated_word_defines_an_abbreviation() -> None:
    text = ("In mice, tyrosine hydroxylase (TH)-positive neurons fell. Tumor necrosis factor "
            "alpha (TNF-alpha)-induced death needed caspase-8 (CASP8)-dependent cleavage.")
    got = hyphen_abbreviations(text, base=100)
    assert [(a.short_text, a.long_text) for a in got] == [
        ("TH", "tyrosine hydroxylase"), ("TNF-alpha", "Tumor necrosis factor alpha"),
        ("CASP8", "caspase-8")]
    for a in got:   # offsets in the document: the block starts at 100
        assert text[a.short.start - 100:a.short.end - 100] == a.short_text
        assert text[a.long.start - 100:a.long.end - 100] == a.long_text


@pytest.mark.parametrize("text", [
    "cells (A)-like were seen.",            # one character
    "the mutant (G12D)-cooperating genes",  # no long form before it
    "treated (2)-fold more",                # no letter
    "neurons. (TH)-positive",               # a sentence end between
])
def test_no_abbreviation_without_a_long_form(text: str) -> None:
    assert hyphen_abbreviations(text) == []


def test_long_form_is_the_schwartz_hearst_match() -> None:
    assert long_form("Iba1", "microglia expressed ionized calcium-binding adapter "
                     "molecule 1") == "ionized calcium-binding adapter molecule 1"
    assert long_form("TH", "the tyrosine hydroxylase") == "tyrosine hydroxylase"
    assert long_form("XYZ", "tyrosine hydroxylase") is None


def test_offsets_hold_far_into_a_long_text() -> None:
    """Each definition is looked for in a window before its bracket: offsets stay right in
    a long block with many of them."""
    text = "Tumour cells grew. " * 300 + "tyrosine hydroxylase (TH)-positive cells. " * 200
    got = hyphen_abbreviations(text)
    assert len(got) == 200
    assert all(text[a.long.start:a.long.end] == "tyrosine hydroxylase" and
               text[a.short.start:a.short.end] == "TH" for a in got)
