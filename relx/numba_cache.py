"""A place for numba to cache relx's compiled functions, wherever relx is installed.

relx's kernels, forests and parser ops are ``@njit(cache=True)``: compiling them takes
~10 s of CPU, loading them from numba's cache well under a second. numba caches beside the
source (``__pycache__``), else in the user's cache directory (``~/.cache/numba``,
``$XDG_CACHE_HOME/numba``), or where ``NUMBA_CACHE_DIR`` says; with none of these
writable (a read-only install and no writable home) the decorator raises ``RuntimeError:
cannot cache function ...: no locator available`` and relx cannot even be imported.
:func:`ensure_numba_cache` then points numba at a per-user folder in the temporary
directory instead.
"""

from __future__ import annotations

import os
import tempfile

__all__ = ["ensure_numba_cache"]


def _writable(directory: str) -> bool:
    """True when ``directory`` exists or can be made, and a file can be written in it (the
    test numba's cache locators apply)."""
    try:
        os.makedirs(directory, exist_ok=True)
        tempfile.TemporaryFile(dir=directory).close()
    except OSError:
        return False
    return True


def ensure_numba_cache(module_file: str) -> None:
    """Call before the ``@njit(cache=True)`` functions of ``module_file`` are defined: with
    ``NUMBA_CACHE_DIR`` unset and neither the module's ``__pycache__`` nor the user's numba
    cache directory writable, set numba's cache directory to
    ``<tempdir>/relx-numba-<uid>`` (else leave numba's choice alone)."""
    import numba

    if numba.config.CACHE_DIR:
        return
    if _writable(os.path.join(os.path.dirname(os.path.abspath(module_file)), "__pycache__")):
        return
    from numba.misc.appdirs import AppDirs

    if _writable(AppDirs(appname="numba", appauthor=False).user_cache_dir):
        return
    uid = getattr(os, "getuid", lambda: "user")()
    numba.config.CACHE_DIR = os.path.join(tempfile.gettempdir(), f"relx-numba-{uid}")
