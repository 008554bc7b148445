"""The one-pass decoding of packed vocabularies (relx.structures.unpack_strings) gives the
strings the per-string decoding gave, and a loaded Vocab the same ids."""

from __future__ import annotations

import numpy as np
import pytest

from relx.structures import NONE, Vocab, pack_strings, unpack_strings


def per_string(packed: dict[str, np.ndarray]) -> list[str]:
    """The former decoding: each string's bytes decoded on their own."""
    data, ends = np.asarray(packed["utf8"], dtype=np.uint8).tobytes(), packed["ends"].tolist()
    starts = [0, *ends][:len(ends)]
    return [data[a:b].decode("utf-8") for a, b in zip(starts, ends, strict=True)]


@pytest.mark.parametrize("strings", [
    [], [""], ["", ""], ["JAK1"], ["JAK1", "", "STAT5", ""],
    ["path_lemma=phosphorylate", "relx:between=bind", "é", "漢字", "IL-2Rα", "x\ty"],
    ["a\x00b", "c"],   # a NUL inside a string: the per-string path
])
def test_unpack_strings_equals_per_string_decoding(strings: list[str]) -> None:
    packed = pack_strings(strings)
    assert unpack_strings(packed) == per_string(packed) == strings


def test_unpack_random_unicode_strings() -> None:
    rng = np.random.default_rng(0)
    alphabet = list("abcXYZ019=:_-é漢αβ🧬 ")
    strings = ["".join(rng.choice(alphabet, size=rng.integers(0, 12))) for _ in range(2000)]
    packed = pack_strings(strings)
    assert unpack_strings(packed) == per_string(packed) == strings


def test_loaded_vocab_keeps_ids() -> None:
    v = Vocab(["JAK1", "STAT5", "JAK1", "bind"])      # a repeat keeps its first id
    loaded = Vocab.__new__(Vocab)
    loaded.__setstate__(v.__getstate__())
    assert loaded.itos == v.itos == [NONE, "JAK1", "STAT5", "bind"]
    assert loaded.stoi == v.stoi
    assert loaded.add("new") == len(v)


def test_vocab_state_with_repeats_loads_as_added() -> None:
    state = {"packed": pack_strings(["a", "b", "a", NONE, "c"])}   # not what save writes
    loaded = Vocab.__new__(Vocab)
    loaded.__setstate__(state)
    expected = Vocab(["a", "b", "a", NONE, "c"])
    assert (loaded.itos, loaded.stoi) == (expected.itos, expected.stoi)
