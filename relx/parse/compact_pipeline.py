"""A smaller saved spaCy pipeline that parses exactly the same (``models/relx_bio_sm`` 0.3.2).

:func:`compact_pipeline` rewrites a pipeline directory written by ``nlp.to_disk`` in place:

- **weights**: spaCy stores each component's thinc weights as msgpack, float32 arrays as raw
  bytes (srsly's numpy maps ``{nd, type, kind, shape, data}``). Every float32 array of at least
  :data:`MIN_PACKED_BYTES` becomes ``{relx_planes: 1, type, shape, data}`` with ``data`` the
  zlib-compressed byte planes (byte j of every float in row j: the exponent bytes repeat),
  about 15% smaller (22.6 -> 19.1 MB for relx_bio_sm). :func:`decode_packed` turns such a
  map back into the same array, bitwise; it is a srsly msgpack decoder, registered when this
  module is imported (``relx.parse.factories`` imports it, and spaCy imports that module
  through relx's ``spacy_factories`` entry points before it reads any weights, so a plain
  ``spacy.load`` of the directory works too);
- **strings**: ``vocab/strings.json`` (74k strings, 1.0 MB) becomes ``[]``: spaCy hashes
  strings, and every string a parse needs (labels, lemmas, words) is added as it is made;
- **lemma index**: the rule lemmatizer keeps a candidate form when ``form in index or not
  form.isalpha()``, so the index words that are not alphabetic can never decide anything;
  they are dropped (5,790 of 91k words).

GE 2011 train and devel parse to byte-identical documents before and after (given proteins
and raw text through the NER; ``python -m lab.repack_models parses`` / ``compare-parses``).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import srsly

MIN_PACKED_BYTES = 65536  # smaller arrays stay as srsly writes them
PACKED_KEY = b"relx_planes"
WEIGHT_FILES = ("tok2vec/model", "tagger/model", "parser/model", "ner/model")


def _planes(a: np.ndarray) -> bytes:
    """Byte planes of a C-ordered array: (itemsize, n) bytes, byte j of every item in row j."""
    flat = np.ascontiguousarray(a).reshape(-1)
    return flat.view(np.uint8).reshape(len(flat), flat.dtype.itemsize).T.tobytes()


def pack_array(a: np.ndarray) -> dict[bytes, Any]:
    """A float32 array as the msgpack map :func:`decode_packed` reads."""
    return {PACKED_KEY: 1, b"type": a.dtype.str, b"shape": list(a.shape),
            b"data": zlib.compress(_planes(a), 9)}


def decode_packed(obj: Any, chain: Callable[[Any], Any] | None = None) -> Any:
    """srsly msgpack decoder: a :func:`pack_array` map -> the (writable) numpy array; any
    other object goes on to ``chain``."""
    if isinstance(obj, dict) and obj.get(PACKED_KEY) == 1:
        dtype = np.dtype(obj[b"type"])
        planes = np.frombuffer(zlib.decompress(obj[b"data"]), np.uint8)
        flat = np.ascontiguousarray(planes.reshape(dtype.itemsize, -1).T).view(dtype)
        return flat.reshape(obj[b"shape"])
    return obj if chain is None else chain(obj)


srsly.msgpack_decoders.register("relx_planes", func=decode_packed)


def _pack_tree(obj: Any) -> tuple[Any, int]:
    """``obj`` with each large float32 array packed; the number packed."""
    if isinstance(obj, np.ndarray):
        if obj.dtype == np.float32 and obj.nbytes >= MIN_PACKED_BYTES:
            return pack_array(obj), 1
        return obj, 0
    if isinstance(obj, dict):
        out, n = {}, 0
        for k, v in obj.items():
            out[k], m = _pack_tree(v)
            n += m
        return out, n
    if isinstance(obj, list | tuple):
        items = [_pack_tree(v) for v in obj]
        return type(obj)(v for v, _ in items), sum(m for _, m in items)
    return obj, 0


def _same(a: Any, b: Any) -> bool:
    """Deep equality, arrays compared by dtype, shape and bytes."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.dtype == b.dtype
                and a.shape == b.shape and a.tobytes() == b.tobytes())
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def pack_weights(file: Path) -> int:
    """Rewrite one thinc ``model`` file with its large float32 arrays packed (checked to
    decode to the same values); the number of arrays packed."""
    data = file.read_bytes()
    msg = srsly.msgpack_loads(data)
    packed, n = _pack_tree(msg)
    out = srsly.msgpack_dumps(packed)
    if not _same(srsly.msgpack_loads(out), msg):
        raise AssertionError(f"{file}: packed weights do not decode to the same values")
    if n:
        file.write_bytes(out)
    return n


def trim_lemma_index(lookups_dir: Path) -> int:
    """Drop the ``lemma_index`` words that are not alphabetic; the number dropped."""
    from spacy.lookups import Lookups

    lookups = Lookups().from_disk(lookups_dir)
    if not lookups.has_table("lemma_index"):
        return 0
    table, dropped = lookups.get_table("lemma_index"), 0
    for key in list(table.keys()):
        words = list(table[key])
        kept = [w for w in words if w.isalpha()]
        dropped += len(words) - len(kept)
        table[key] = kept
    lookups.to_disk(lookups_dir)
    return dropped


def compact_pipeline(directory: Path) -> dict[str, int]:
    """Compact a saved pipeline in place (see the module docstring); what was done."""
    directory = Path(directory)
    done = {"packed_arrays": sum(pack_weights(directory / f) for f in WEIGHT_FILES
                                 if (directory / f).is_file())}
    strings = directory / "vocab" / "strings.json"
    if strings.is_file():
        done["strings_dropped"] = len(srsly.read_json(strings))
        strings.write_text("[]", encoding="utf-8")
    lookups = directory / "lemmatizer" / "lookups"
    if lookups.is_dir():
        done["lemma_index_dropped"] = trim_lemma_index(lookups)
    return done
