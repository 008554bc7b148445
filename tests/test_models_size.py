"""Shipped model weight (issue 30): the compact storage is lossless and models/ stays small.

Lossless means bitwise: the event model's linear weights (relx.learn.compact_linear) and the
spaCy pipeline's packed weights (relx.parse.compact_pipeline) decode to the very same floats.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest
import srsly

from relx.learn.compact_linear import (
    compact_coef,
    expand_coef,
    restore_coefs,
    strip_coefs,
)
from relx.model_store import models_dir
from relx.parse.compact_pipeline import decode_packed, pack_array, pack_weights

# the criterion: models/ (what every clone and the wheel carry) at most 40 MB
MAX_MODELS_BYTES = 40_000_000


def _bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a).view(np.uint64)


def _hashed_like(rng: np.random.Generator, k: int = 4, n: int = 4096) -> np.ndarray:
    """(k, n) weights shaped like a hashed-feature model's: zero columns, repeated columns."""
    w = np.zeros((k, n))
    cols = rng.choice(n, 300, replace=False)
    w[:, cols] = rng.normal(size=(k, 300))
    w[:, cols[:50]] = w[:, cols[50:100]]          # features that always occur together
    w[1, cols[100:150]] = 0.0                     # zeros inside non-zero columns
    return w


def test_compact_coef_round_trip_is_bitwise_with_signed_zeros_and_nan() -> None:
    w = _hashed_like(np.random.default_rng(0))
    w[0, 7], w[2, 9], w[3, 11] = -0.0, np.nan, 1e-300
    c = compact_coef(w)
    back = expand_coef(c)
    assert back.shape == w.shape and back.dtype == np.float64 and back.flags["C_CONTIGUOUS"]
    assert np.array_equal(_bits(back), _bits(w))
    assert int(c["n_distinct"][0]) < np.count_nonzero(np.any(w != 0, axis=0))  # columns once


def test_column_major_weights_score_sparse_rows_bitwise_the_same() -> None:
    """``restore_coefs(column_major=...)``: the same weights in column-major order, which
    scipy's sparse rows times ``coef_.T`` read without copying; the same scores."""
    import scipy.sparse as sp

    rng = np.random.default_rng(1)
    w = _hashed_like(rng)
    f = expand_coef(compact_coef(w), "F")
    assert f.flags["F_CONTIGUOUS"] and f.T.flags["C_CONTIGUOUS"]
    assert np.array_equal(_bits(f), _bits(w))
    X = sp.random(200, w.shape[1], density=0.002, format="csr", random_state=2)
    assert np.array_equal(_bits(X @ f.T), _bits(X @ w.T))


def test_compact_coef_of_an_all_zero_matrix() -> None:
    w = np.zeros((2, 64))
    assert np.array_equal(_bits(expand_coef(compact_coef(w))), _bits(w))


def test_strip_and_restore_give_a_model_with_the_same_decisions() -> None:
    from sklearn.feature_extraction import FeatureHasher
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(1)
    feats = [{f"w={rng.integers(0, 400)}": 1.0, f"p={rng.integers(0, 30)}": 1.0}
             for _ in range(300)]
    y = rng.integers(0, 3, 300)
    X = FeatureHasher(n_features=2 ** 14, input_type="dict", alternate_sign=False).transform(feats)
    model = LogisticRegression(max_iter=500).fit(X, y)
    parts, coefs = strip_coefs({"m": model, "other": "kept"})
    assert not hasattr(parts["m"], "coef_") and hasattr(model, "coef_")  # the input untouched
    assert parts["other"] == "kept"
    restore_coefs(parts, coefs)
    assert np.array_equal(_bits(parts["m"].coef_), _bits(model.coef_))
    assert np.array_equal(parts["m"].decision_function(X), model.decision_function(X))


def test_packed_spacy_weights_decode_bitwise(tmp_path) -> None:
    rng = np.random.default_rng(2)
    big = rng.normal(size=(300, 64)).astype(np.float32)
    small = rng.normal(size=(4, 4)).astype(np.float32)
    back = decode_packed(srsly.msgpack_loads(srsly.msgpack_dumps(pack_array(big))))
    assert back.dtype == np.float32 and back.shape == big.shape
    assert back.tobytes() == big.tobytes()
    file = tmp_path / "model"
    file.write_bytes(srsly.msgpack_dumps({"params": [{"E": big, "b": small}], "shims": []}))
    assert pack_weights(file) == 1                # the small array stays as it was
    msg = srsly.msgpack_loads(file.read_bytes())  # relx's decoder is registered on import
    assert msg["params"][0]["E"].tobytes() == big.tobytes()
    assert msg["params"][0]["b"].tobytes() == small.tobytes()


def test_shipped_models_fit_the_size_budget() -> None:
    root = models_dir()
    files = [f for f in root.rglob("*") if f.is_file() and "__pycache__" not in f.parts]
    if not files:
        pytest.skip(f"no shipped models in {root}")
    total = sum(f.stat().st_size for f in files)
    assert total <= MAX_MODELS_BYTES, f"{root}: {total:,} bytes"
    assert not (root / "eigenwords.npz").exists()  # a training input, not a shipped model


def test_shipped_event_model_loads_its_compact_weights() -> None:
    from relx.ge.pipeline import FORMAT_VERSION, GEExtractor

    path = models_dir() / "ge-events"
    if not (path / "models.skops").is_file():
        pytest.skip("shipped event model missing")
    model = GEExtractor.load(path)
    assert model.meta["format_version"] == FORMAT_VERSION
    coef = model.triggers.model_.coef_
    assert coef.dtype == np.float64 and coef.shape[0] == len(model.triggers.classes_)
    assert model.triggers.dictionary_ is not None and model.edges.encoder_ is not None


@pytest.mark.slow
def test_plain_spacy_load_reads_the_packed_pipeline() -> None:
    """A fresh process that never imports relx itself: spaCy finds relx's factories (and so
    its weights decoder) through the entry points, and the packed weights load."""
    path = models_dir() / "relx_bio_sm"
    if not (path / "config.cfg").is_file():
        pytest.skip("shipped pipeline missing")
    code = textwrap.dedent(f"""
        import sys, spacy
        nlp = spacy.load({str(path)!r})
        doc = nlp("IL-2 binds the IL-2 receptor in T cells.")
        print(" ".join(f"{{t.text}}/{{t.tag_}}/{{t.dep_}}" for t in doc))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "binds/VBZ/ROOT" in out.stdout


def test_missing_training_vectors_name_the_command_that_builds_them(tmp_path) -> None:
    from relx.vectors import VectorsFormatError, cached_vectors

    with pytest.raises(VectorsFormatError, match="relx train-vectors --out"):
        cached_vectors(tmp_path / "eigenwords.npz")


def test_sentences_parsed_by_the_previous_pipeline_version_are_not_parsed_again() -> None:
    """relx_bio_sm 0.3.2 is 0.3.1 saved compact (identical parses): a sentence 0.3.1 parsed
    keeps its parse (and is not re-parsed out of its document's context)."""
    import json

    from relx.doc import Sentence
    from relx.parse.pipeline import default_source
    from relx.parse.views import relx_view

    meta_file = models_dir() / "relx_bio_sm" / "meta.json"
    if not meta_file.is_file():
        pytest.skip("shipped pipeline missing")
    meta = json.loads(meta_file.read_text("utf-8"))
    older = [f"{meta['lang']}_{meta['name']}-{v}" for v in meta.get("same_parses_as", [])]
    assert older and default_source() not in older
    sents = [Sentence(id="s0", start=0, end=24, text="IL-2 binds its receptor.",
                      parse_source=src)
             for src in [*older, default_source()]]
    assert all(a is b for a, b in zip(relx_view(sents), sents, strict=True))
