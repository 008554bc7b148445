"""Fitting calibrated probabilities (lab.calibration): the calibrators, the ECE, the
reliability diagram."""

from __future__ import annotations

import json

import numpy as np
import pytest

from lab.calibration import (
    calibration_report,
    cross_fitted,
    expected_calibration_error,
    fit_calibrator,
    reliability_svg,
    reliability_table,
)
from relx.ppi.calibration import CALIBRATION_FILE, Calibrator, load_calibration


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


def test_an_unknown_method_is_refused() -> None:
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
