from __future__ import annotations

from relx.results import render, settings


def _r(f1, cv=False):
    r = {"precision": 0.5, "recall": 0.5, "f1": f1, "roc_auc": 0.7, "n_train": 10, "n_test": 5,
         "train_seconds": 1.0, "predict_seconds": 0.5}
    if cv:
        r.update(f1_mean=f1, f1_std=0.01)
    return r


def test_settings_cover_matrix_and_cv():
    s = settings()
    assert len(s) == 9 and ("AIMed", "BioInfer") in s and ("IEPA", None) in s


def test_render_places_cv_on_the_diagonal():
    page = render({("KLSH-RF", "AIMed", "BioInfer"): _r(0.512),
                   ("KLSH-RF", "AIMed", None): _r(0.601, cv=True)})
    row = next(line for line in page.splitlines() if line.startswith("| AIMed |"))
    assert row == "| AIMed | 0.601 | 0.512 | — |"
    assert "0.601 ± 0.010" in page and "How settings were chosen" in page
