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


def _check_array(X: Any, est: Any = None, *, dtype: tuple[np.dtype, ...] | None = None,
                 sparse: bool = True, finite: bool | str = True, copy: bool = False,
                 ensure_2d: bool = True) -> Any:
    """``check_array`` as these classes call it: CSR kept (other sparse formats converted),
    ``dtype`` the accepted dtypes (else the first; None: numeric), NaN / inf refused
    (``finite="allow-nan"``: inf), the width ``est.n_features_in_``."""
    if sp.issparse(X):
        if not sparse:
            raise TypeError("Sparse data was passed, but dense data is required.")
        changed = X.format != "csr"
        X = X.asformat("csr") if changed else X
        if dtype is not None and X.dtype not in dtype:
            X = X.astype(dtype[0])
        elif copy and not changed:
            X = X.copy()
        values = X.data
    else:
        orig, X = X, np.asarray(X)
        if dtype is None and X.dtype.kind == "O":
            X = X.astype(np.float64)
        elif dtype is not None and X.dtype not in dtype:
            X = X.astype(dtype[0])
        if copy and np.may_share_memory(X, orig):
            X = X.copy()
        if ensure_2d and X.ndim != 2:
            raise ValueError(f"Expected a 2D array, got {X.ndim}D array instead.")
        values = X
    if finite and values.dtype.kind in "fc":
        if finite != "allow-nan" and np.isnan(values).any():
            raise ValueError("Input X contains NaN.")
        if np.isinf(values).any():
            raise ValueError(f"Input X contains infinity or a value too large for {X.dtype}.")
    n_in = getattr(est, "n_features_in_", None)
    if ensure_2d and n_in is not None and X.shape[1] != n_in:
        raise ValueError(f"X has {X.shape[1]} features, but {type(est).__name__} is "
                         f"expecting {n_in} features as input.")
    return X


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
