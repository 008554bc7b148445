"""Relation-model files (model format 4): smaller on disk, the same scores after loading."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import Pipeline

from relx.io.ppi_xml import read_ppi_xml
from relx.learn.ensemble import ProbabilityEnsemble
from relx.learn.packed_trees import PackedExtraTrees
from relx.model_store import ModelError
from relx.ppi.model import FORMAT_VERSION, RelationModel, compact_skops, load_model
from relx.represent.instances import labels, pair_instances
from relx.represent.pair_features import PairFeatureExtractor

FIXTURES = Path(__file__).parent / "fixtures"
SHIPPED = Path(__file__).resolve().parents[1] / "models" / "ppi-default"


def _bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.float64).view(np.uint64)


def _ensemble_model() -> tuple[RelationModel, list]:
    """Two members with equal vocabularies (as ppi-default's pair-feature members)."""
    inst = pair_instances(read_ppi_xml(FIXTURES / "ppi-mini.xml")) * 3
    members = [Pipeline([("f", PairFeatureExtractor()), ("lr", LogisticRegression(C=c))])
               for c in (1.0, 0.1)]
    ens = ProbabilityEnsemble(members, cv=2, random_state=0).fit(inst, labels(inst))
    return RelationModel(Pipeline([("ensemble", ens)]), {"pipeline": {"name": "t"}},
                         {"name": "t", "version": "1.0.0"}), inst


def test_saved_model_scores_bitwise_the_same_without_training_only_state(tmp_path):
    model, inst = _ensemble_model()
    ens = model.pipeline[-1]
    model.save(tmp_path / "m")
    assert hasattr(ens, "oof_")  # the model in memory keeps it
    back = load_model(tmp_path / "m")
    assert not hasattr(back.pipeline[-1], "oof_")
    assert back.meta["format_version"] == FORMAT_VERSION
    np.testing.assert_array_equal(_bits(back.scores(inst)), _bits(model.scores(inst)))
    np.testing.assert_array_equal(_bits(back.scores(inst, in_domain=True)),
                                  _bits(model.scores(inst, in_domain=True)))
    assert back.threshold == model.threshold


def test_equal_arrays_are_stored_once(tmp_path):
    import skops.io as sio

    model, _ = _ensemble_model()
    plain = sio.dumps(model.pipeline)
    compact = compact_skops(plain)
    with zipfile.ZipFile(io.BytesIO(plain)) as z:
        contents = [z.read(n) for n in z.namelist() if n.endswith(".npy")]
    with zipfile.ZipFile(io.BytesIO(compact)) as z:
        stored = [z.read(n) for n in z.namelist() if n.endswith(".npy")]
        schema = json.loads(z.read("schema.json"))
    assert len(set(contents)) < len(contents)  # the two members' vocabularies
    assert sorted(stored) == sorted(set(contents))
    assert len(compact) < len(plain)
    files = json.dumps(schema).count('"file":')
    assert files == len(contents)  # every array node still names a file


def test_forest_model_round_trip_and_older_formats_refused_or_read(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 8)).astype(np.float32)
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    pipe = Pipeline([("et", PackedExtraTrees(n_estimators=10, random_state=0))]).fit(X, y)
    path = RelationModel(pipe, {}, {"name": "et"}).save(tmp_path / "m")
    Xq = rng.normal(size=(300, 8)).astype(np.float32)
    np.testing.assert_array_equal(_bits(load_model(path).pipeline.predict_proba(Xq)),
                                  _bits(pipe.predict_proba(Xq)))
    meta = json.loads((path / "meta.json").read_text(encoding="utf-8"))
    (path / "meta.json").write_text(json.dumps({**meta, "format_version": 99}),
                                    encoding="utf-8")
    with pytest.raises(ModelError, match="model format 99"):
        load_model(path)


@pytest.mark.slow
def test_shipped_model_survives_a_resave(tmp_path):
    """The shipped model saved again and reloaded scores the fixture pairs bitwise the same."""
    if not (SHIPPED / "pipeline.skops").is_file():
        pytest.skip("no shipped ppi-default model")
    inst = pair_instances(read_ppi_xml(FIXTURES / "ppi-mini.xml"))
    model = load_model(SHIPPED).sequential()
    before = model.scores(inst), model.scores(inst, in_domain=True)
    back = load_model(model.save(tmp_path / "m")).sequential()
    np.testing.assert_array_equal(_bits(back.scores(inst)), _bits(before[0]))
    np.testing.assert_array_equal(_bits(back.scores(inst, in_domain=True)), _bits(before[1]))
