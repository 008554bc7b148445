"""What the stand-ins share: the held state, scikit-learn's input checks and helpers."""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

_FLOATS = (np.dtype(np.float64), np.dtype(np.float32))
#: the scikit-learn series whose state and arithmetic the stand-ins reproduce
SKLEARN_SERIES = "1.9."


class _Holder:
    """Holds the state scikit-learn pickles, attribute for attribute (``__getstate__``
    gives it back: without what the stand-in derives from it, ``_DERIVED``)."""

    _DERIVED: tuple[str, ...] = ()

    def __setstate__(self, state: dict[str, Any]) -> None:
        version = state.get("_sklearn_version")
        if version is not None and not str(version).startswith(SKLEARN_SERIES):
            # another series may keep other state or predict otherwise: scikit-learn's own
            raise NotImplementedError(f"{type(self).__name__} fitted by scikit-learn {version}")
        self.__dict__.update(state)

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in self._DERIVED}

    def __repr__(self) -> str:
        return f"{type(self).__name__}() [relx stand-in]"


def _expit(x: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    from scipy.special import expit

    return expit(x, out=out)


def _num_samples(X: Any) -> int:
    return X.shape[0] if hasattr(X, "shape") else len(X)


def _column_or_1d(y: Any, dtype: Any = None) -> np.ndarray:
    y = np.asarray(y, dtype=dtype)
    if y.ndim == 1 or (y.ndim == 2 and y.shape[1] == 1):
        return np.ascontiguousarray(y.reshape(-1))
    raise ValueError(f"y should be a 1d array, got an array of shape {y.shape} instead.")


def _softmax(X: np.ndarray, copy: bool = True) -> np.ndarray:
    """``sklearn.utils.extmath.softmax``."""
    X = np.array(X, copy=True) if copy else X
    X -= np.reshape(np.max(X, axis=1), (-1, 1))
    np.exp(X, out=X)
    X /= np.reshape(np.sum(X, axis=1), (-1, 1))
    return X


def _as_spmatrix(X: Any) -> Any:
    """A sparse result in scikit-learn's default sparse interface ("spmatrix")."""
    return X if isinstance(X, sp.spmatrix) else getattr(sp, X.format + "_matrix")(X)
