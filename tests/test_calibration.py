"""Calibrated probabilities (relx.ppi.calibration): the calibrators, the ECE, the stored file."""

from __future__ import annotations

import json

import numpy as np
import pytest

from relx.ppi.calibration import (
    CALIBRATION_FILE,
    Calibrator,
    calibration_report,
    cross_fitted,
    expected_calibration_error,
    fit_calibrator,
    load_calibration,
    reliability_svg,
    reliability_table,
)


def _miscalibrated(n: int = 4000, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Scores s whose true positive rate is s**2 (over-confident), and labels drawn so."""
    rng = np.random.default_rng(seed)
    s = rng.uniform(0, 1, n)
    return s, (rng.uniform(0, 1, n) < s ** 2).astype(int)


def test_ece_by_hand() -> None:
    # bin [0.1, 0.2): p 0.1, 0.1 with rates 0/2 -> |0 - 0.1|; bin [0.9, 1]: p 0.9, 0.9, rate 1
    p = np.array([0.1, 0.1, 0.9, 0.9])
    y = np.array([0, 0, 1, 1])
    assert expected_calibration_error(p, y) == pytest.approx(0.5 * 0.1 + 0.5 * 0.1)
    assert expected_calibration_error(np.array([1.0]), np.array([1])) == 0.0  # p = 1 in last bin


@pytest.mark.parametrize("method", ["isotonic", "platt"])
def test_calibrators_fix_a_known_miscalibration(method: str) -> None:
    s, y = _miscalibrated()
    folds = np.arange(len(s)) % 5
    raw = expected_calibration_error(s, y)
    fixed = expected_calibration_error(cross_fitted(s, y, folds, method), y)
    assert raw > 0.1 and fixed < raw / 3
    cal = fit_calibrator(s, y, method)
    grid = np.linspace(0, 1, 101)
    q = cal(grid)
    assert np.all(np.diff(q) >= -1e-12) and q.min() >= 0 and q.max() <= 1   # monotone, in [0,1]
    # round trip through JSON gives the same map
    again = Calibrator.from_json(json.loads(json.dumps(cal.to_json())))
    assert np.allclose(again(grid), q, atol=1e-5)


def test_report_and_reliability() -> None:
    s, y = _miscalibrated(2000, seed=1)
    rep = calibration_report(s, y, np.arange(len(s)) % 4)
    assert set(rep) == {"raw", "isotonic", "platt"}
    assert rep["isotonic"]["brier"] < rep["raw"]["brier"]
    rows = reliability_table(s, y)
    assert sum(r["n"] for r in rows) == len(s) and all(r["lo"] <= r["p"] <= r["hi"] for r in rows)
    svg = reliability_svg({"raw": rows})
    assert svg.startswith("<svg") and svg.count("<circle") == len(rows)


def test_bad_calibration_entries_are_refused() -> None:
    with pytest.raises(ValueError, match="method"):
        Calibrator.from_json({"method": "spline"})
    with pytest.raises(ValueError, match="non-decreasing"):
        Calibrator.from_json({"method": "isotonic", "x": [0.2, 0.1], "y": [0.0, 1.0]})
    with pytest.raises(ValueError, match="method"):
        fit_calibrator(np.array([0.1, 0.9]), np.array([0, 1]), "spline")


def test_load_calibration_from_a_model_dir(tmp_path) -> None:
    assert load_calibration(tmp_path) is None
    cal = fit_calibrator(*_miscalibrated(500), "isotonic")
    (tmp_path / CALIBRATION_FILE).write_text(json.dumps(
        {"calibrators": {"new_text": cal.to_json()}}), encoding="utf-8")
    got = load_calibration(tmp_path)
    assert got is not None and np.allclose(got([0.2, 0.7]), cal([0.2, 0.7]), atol=1e-5)
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
