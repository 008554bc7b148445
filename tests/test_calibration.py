"""Calibrated probabilities (relx.ppi.calibration): the stored map, read and applied.
(Fitting it: tests/lab/test_lab_calibration.py.)"""

from __future__ import annotations

import json

import numpy as np
import pytest

from relx.ppi.calibration import CALIBRATION_FILE, Calibrator, load_calibration


def test_maps_round_trip_through_json() -> None:
    grid = np.linspace(0, 1, 11)
    for cal in (Calibrator("isotonic", x=[0.0, 0.5, 1.0], y=[0.0, 0.2, 1.0]),
                Calibrator("platt", a=2.0, b=-0.5)):
        q = cal(grid)
        assert np.all(np.diff(q) >= 0) and q.min() >= 0 and q.max() <= 1
        again = Calibrator.from_json(json.loads(json.dumps(cal.to_json())))
        assert np.allclose(again(grid), q)
    assert Calibrator("isotonic", x=[0.0, 0.5, 1.0], y=[0.0, 0.2, 1.0])(0.25) == \
        pytest.approx(0.1)


def test_bad_calibration_entries_are_refused() -> None:
    with pytest.raises(ValueError, match="method"):
        Calibrator.from_json({"method": "spline"})
    with pytest.raises(ValueError, match="non-decreasing"):
        Calibrator.from_json({"method": "isotonic", "x": [0.2, 0.1], "y": [0.0, 1.0]})


def test_load_calibration_from_a_model_dir(tmp_path) -> None:
    assert load_calibration(tmp_path) is None
    cal = Calibrator("isotonic", x=[0.0, 0.3, 1.0], y=[0.0, 0.1, 0.9])
    (tmp_path / CALIBRATION_FILE).write_text(json.dumps(
        {"calibrators": {"new_text": cal.to_json()}}), encoding="utf-8")
    got = load_calibration(tmp_path)
    assert got is not None and np.allclose(got([0.2, 0.7]), cal([0.2, 0.7]))
    assert load_calibration(tmp_path, "in_domain") is None


def test_shipped_calibration_is_monotone_and_small() -> None:
    from relx.model_store import models_dir
    from relx.ppi.model import DEFAULT_MODEL

    path = models_dir() / DEFAULT_MODEL / CALIBRATION_FILE
    if not path.is_file():
        pytest.skip("models/ppi-default/calibration.json not shipped")
    assert path.stat().st_size < 100_000
    obj = json.loads(path.read_text(encoding="utf-8"))
    assert obj["fitted_on"]["n_pairs"] > 0 and obj["ece_cross_fitted"]["new_text"] <= 0.05
    for mode in obj["calibrators"]:
        q = load_calibration(path.parent, mode)(np.linspace(0, 1, 201))
        assert np.all(np.diff(q) >= -1e-12) and 0 <= q.min() and q.max() <= 1
