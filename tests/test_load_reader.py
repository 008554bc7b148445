"""relx.skops_reader builds the objects skops.io.load builds, trusts no more than skops
does, and hands what it does not read to skops."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
import skops.io as sio

from relx import skops_reader
from relx.ge.pipeline import TRUSTED_TYPES as EVENT_TRUSTED
from relx.ppi.model import TRUSTED_TYPES as PPI_TRUSTED
from relx.structures import NONE, Vocab

MODELS = Path(__file__).resolve().parents[1] / "models"


def assert_same(a: Any, b: Any, path: str = "", seen: set[int] | None = None) -> None:
    """``a`` and ``b`` hold the same types and bitwise equal values, recursively."""
    seen = set() if seen is None else seen
    if id(a) in seen:
        return
    seen.add(id(a))
    assert type(a) is type(b), path
    if isinstance(a, np.ndarray):
        assert (a.dtype, a.shape, a.flags.writeable, a.flags.c_contiguous) == \
            (b.dtype, b.shape, b.flags.writeable, b.flags.c_contiguous), path
        if a.dtype == object:
            for i, (x, y) in enumerate(zip(a.ravel(), b.ravel(), strict=True)):
                assert_same(x, y, f"{path}[{i}]", seen)
        else:
            assert a.tobytes() == b.tobytes(), path
    elif isinstance(a, dict):
        assert list(a) == list(b), path
        for k in a:
            assert_same(a[k], b[k], f"{path}.{k}", seen)
    elif isinstance(a, list | tuple):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_same(x, y, f"{path}[{i}]", seen)
    elif isinstance(a, float):
        assert repr(a) == repr(b), path
    elif isinstance(a, str | int | bool | type(None) | np.generic | type):
        assert a == b, path
    elif isinstance(a, np.random.Generator):
        assert a.bit_generator.state == b.bit_generator.state, path
    elif hasattr(a, "__dict__"):
        assert_same(vars(a), vars(b), f"{path}/{type(a).__name__}", seen)
    else:
        assert a.__reduce__() == b.__reduce__(), path


@pytest.mark.parametrize(("file", "trusted"), [
    ("ppi-default/pipeline.skops", PPI_TRUSTED), ("ge-events/models.skops", EVENT_TRUSTED)])
@pytest.mark.slow
def test_shipped_models_read_as_skops_loads_them(file: str, trusted: list[str]) -> None:
    path = MODELS / file
    if not path.exists():
        pytest.skip(f"{path} not shipped in this checkout")
    assert_same(skops_reader.read(path, trusted), sio.load(path, trusted=trusted))


def test_reader_trusts_only_what_skops_trusts_by_default() -> None:
    from skops.io._sklearn import ALLOWED_LOSSES
    from skops.io._trusted_types import SKLEARN_ESTIMATOR_TYPE_NAMES, SKLEARN_INTERNAL_TYPE_NAMES
    from skops.io._utils import get_type_name

    assert skops_reader.SKLEARN_TYPES <= set(SKLEARN_ESTIMATOR_TYPE_NAMES) | set(
        SKLEARN_INTERNAL_TYPE_NAMES)
    assert skops_reader.LOSS_TYPES <= {get_type_name(t) for t in ALLOWED_LOSSES}


def test_other_files_go_to_skops() -> None:
    from sklearn.tree import DecisionTreeClassifier

    tree = DecisionTreeClassifier(max_depth=3).fit([[0.0], [1.0], [2.0]], [0, 1, 1])
    data = sio.dumps(tree)   # a type skops trusts and this reader does not know
    with pytest.raises(skops_reader.Unsupported):
        skops_reader.read(data, [])
    loaded = skops_reader.load(data, ["sklearn.tree._tree.Tree"])
    assert loaded.predict([[0.0], [2.0]]).tolist() == [0, 1]


def test_untrusted_type_is_refused() -> None:
    data = sio.dumps({"vocab": Vocab(["JAK1", "STAT5"])})
    with pytest.raises(skops_reader.Unsupported):
        skops_reader.read(data, [])
    with pytest.raises(skops_reader.UntrustedTypes, match="relx.structures.Vocab"):
        skops_reader.load(data, [])
    vocab = skops_reader.read(data, ["relx.structures.Vocab"])["vocab"]
    assert vocab.itos == [NONE, "JAK1", "STAT5"]
    assert vocab.stoi == {NONE: 0, "JAK1": 1, "STAT5": 2}


@pytest.mark.slow
def test_loading_the_shipped_models_does_not_import_skops() -> None:
    """``import skops.io`` imports all of scikit-learn (``all_estimators``); loading relx's
    own models must not need it."""
    code = ("import sys\n"
            "from relx.ppi.extract import resolve_model\n"
            "from relx.ge.extract import resolve_event_model\n"
            "resolve_model(None); resolve_event_model(None)\n"
            "print(sorted(m for m in sys.modules if m.startswith('skops')))\n")
    assert _fresh_process(code, "ppi-default", "ge-events")[-1] == "[]"


def _fresh_process(code: str, *models: str) -> list[str]:
    """The lines ``code`` prints in a new Python process (skipped without ``models``)."""
    import subprocess
    import sys

    if not all((MODELS / m).exists() for m in models):
        pytest.skip("shipped models not in this checkout")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    return out.stdout.strip().splitlines()


@pytest.mark.slow
def test_extracting_with_the_default_task_imports_no_scikit_learn() -> None:
    """A process that only predicts (``relx.load()`` and an extraction with the default
    task: tagger, grounding, gene relations, event typing) never imports scikit-learn, nor
    what it would import (``scipy.stats``, pandas): ~0.8 s of every start
    (:mod:`relx.estimator`, :mod:`relx.learn.predictors`)."""
    code = ("import sys, relx\n"
            "nlp = relx.load()\n"
            "found = nlp.extract('IL-2 binds the IL-2 receptor and activates STAT5 in "
            "human T cells. TRAF2 interacts with RIP1.')\n"
            "print(len(found))\n"
            "print(sorted({m.split('.')[0] if m.startswith(('sklearn', 'pandas')) else m "
            "for m in sys.modules if m.startswith(('sklearn', 'scipy.stats', 'pandas'))}))\n")
    found, imported = _fresh_process(code, "gene-relations", "ge-events")[-2:]
    assert int(found) > 0   # it did extract
    assert imported == "[]"


def test_compressed_arrays_are_read_back_from_the_array_cache(tmp_path, monkeypatch) -> None:
    """A compressed array member is decoded once: the next read takes its bytes from the
    array cache, builds an equal object, and a damaged entry only means decoding again."""
    import zipfile

    from relx import array_cache

    monkeypatch.setenv("RELX_CACHE_DIR", str(tmp_path / "cache"))
    rng = np.random.default_rng(0)
    value = {"big": rng.random(20_000), "small": np.arange(5)}
    path = tmp_path / "m.skops"
    sio.dump(value, path, compression=zipfile.ZIP_LZMA)
    first = skops_reader.read(path, [])
    array_cache.wait()                             # written in the background
    (entry,) = array_cache.entries()
    assert entry.name.startswith("skops-")
    assert len(np.load(entry).files) == 1          # the large member only

    read = zipfile.ZipFile.read

    def no_decoding(self, name, pwd=None):
        assert name == "schema.json" or self.getinfo(name).file_size < 1 << 16, name
        return read(self, name, pwd)

    monkeypatch.setattr(zipfile.ZipFile, "read", no_decoding)
    assert_same(skops_reader.read(path, []), first)
    monkeypatch.setattr(zipfile.ZipFile, "read", read)
    assert_same(first, sio.load(path, trusted=[]))
    entry.write_bytes(b"not a zip")
    assert_same(skops_reader.read(path, []), first)
    array_cache.wait()
    assert len(np.load(entry).files) == 1          # written again


def test_stand_ins_where_they_predict_as_scikit_learn_else_its_objects() -> None:
    """``predictors=True`` builds relx's stand-ins for scikit-learn's classes; a file with a
    setting they do not reproduce (an English stop list) or a state from another
    scikit-learn series is read with scikit-learn's objects, whole."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler

    from relx.learn import predictors
    from relx.ppi.gene_relations import TRUSTED_TYPES as trusted

    rng = np.random.default_rng(0)
    X = np.c_[rng.normal(size=(80, 2)), rng.integers(0, 3, 80)]
    y = (X[:, 0] + X[:, 2] > 1).astype(int)
    pipe = Pipeline([("s", StandardScaler()), ("lr", LogisticRegression())]).fit(X, y)
    light = skops_reader.read(sio.dumps(pipe), trusted, predictors=True)
    assert type(light) is predictors.Pipeline and type(light[-1]) is predictors.LogisticRegression
    assert np.array_equal(light.predict_proba(X), pipe.predict_proba(X))
    assert type(skops_reader.read(sio.dumps(pipe), trusted)) is Pipeline   # the default: faithful

    texts = ["the kinase binds the receptor", "a receptor and its kinase", "binds it"]
    tfidf = TfidfVectorizer(stop_words="english").fit(texts)   # stand-ins: no stop list
    both = {"pipe": pipe, "words": tfidf}
    back = skops_reader.read(sio.dumps(both), trusted, predictors=True)
    assert type(back["words"]) is TfidfVectorizer and \
        type(back["pipe"]) is Pipeline   # the whole file, not a mix
    assert (back["words"].transform(texts) != tfidf.transform(texts)).nnz == 0

    stand_in = predictors.LogisticRegression.__new__(predictors.LogisticRegression)
    with pytest.raises(NotImplementedError):   # so the reader reads that file with sklearn's
        stand_in.__setstate__({**pipe[-1].__getstate__(), "_sklearn_version": "1.5.2"})
