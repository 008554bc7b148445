"""Where numba keeps relx's compiled functions, and the compiled code relx ships.

relx's kernels, forests and parser ops are compiled with numba: compiling them takes
~20 s of CPU, loading compiled code well under a second. Two places hold it:

- numba's own cache, written on first use: beside the source (``__pycache__``), else in
  the user's cache directory (``~/.cache/numba``, ``$XDG_CACHE_HOME/numba``), or where
  ``NUMBA_CACHE_DIR`` says. With none of these writable (a read-only install and no
  writable home) numba's decorator raises ``RuntimeError: cannot cache function ...: no
  locator available``; :func:`ensure_numba_cache` then points numba at a per-user folder
  in the temporary directory instead.
- the code compiled when the wheel is built (``make jit-cache``, ``lab/jit_cache.py``),
  shipped as ``relx/_jit/<cpu level>/<package folder>/`` in numba's cache format, for
  portable CPU levels (``generic``, and the x86-64 micro-architecture levels such as
  ``x86-64-v3``) rather than the build machine's CPU. :func:`cached_jit` functions read it when
  numba's own cache has nothing for a signature, taking the highest level this CPU runs,
  so a new environment, container or Dask worker does not compile on its first call.

A shipped entry is used only for the numba version, Python version, source file (its
content hash) and bytecode it was compiled from, as numba's own cache entries are;
anything else (another numba, an edited module, a signature the build did not meet)
compiles as before and lands in numba's own cache. ``RELX_SHIPPED_JIT=0`` turns the
shipped code off (``lab/jit_cache.py`` does, to compile it afresh); ``RELX_SHIPPED_JIT=<folder>``
reads it from another folder of the same layout.
"""

from __future__ import annotations

import inspect
import os
import tempfile
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

__all__ = ["SHIPPED_DIR", "cpu_levels", "ensure_numba_cache", "cached_jit", "shipped_dir"]

#: the compiled code shipped with relx: ``<cpu level>/<folder under relx>/<numba cache files>``
SHIPPED_DIR = Path(__file__).resolve().parent / "_jit"
PACKAGE_DIR = SHIPPED_DIR.parent

#: x86-64 micro-architecture levels (the psABI's), lowest first: the LLVM CPU name and the
#: host features (LLVM's names) each needs beyond the level below it
X86_LEVELS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("generic", ()),
    ("x86-64-v2", ("cx16", "sahf", "popcnt", "sse3", "sse4.1", "sse4.2", "ssse3")),
    ("x86-64-v3", ("avx", "avx2", "bmi", "bmi2", "f16c", "fma", "lzcnt", "movbe", "xsave")),
    ("x86-64-v4", ("avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl")),
)


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


def cpu_levels() -> list[str]:
    """The portable CPU levels this machine runs, lowest first (``generic`` always; the
    x86-64 levels whose features the host CPU has, each needing the one below)."""
    import llvmlite.binding as ll

    levels = ["generic"]
    if not ll.get_process_triple().startswith("x86_64"):
        return levels
    host = {name for name, on in ll.get_host_cpu_features().items() if on}
    for name, needs in X86_LEVELS[1:]:
        if not set(needs) <= host:
            break
        levels.append(name)
    return levels


@lru_cache(maxsize=1)
def shipped_dir() -> Path | None:
    """The folder of shipped code at the highest CPU level this machine runs (None: none
    shipped, or ``RELX_SHIPPED_JIT=0``)."""
    setting = os.environ.get("RELX_SHIPPED_JIT", "")
    if setting == "0":
        return None
    root = Path(setting) if setting else SHIPPED_DIR
    if not root.is_dir():
        return None
    levels = [level for level in cpu_levels() if (root / level).is_dir()]
    return root / levels[-1] if levels else None


def _shipped_cache_class() -> type:
    """numba's per-function cache, reading the shipped code when its own has nothing."""
    from numba.core.caching import FunctionCache, IndexDataCacheFile

    class ShippedFirstCache(FunctionCache):
        """numba's cache of one function (found and written where numba would), then the
        shipped code of its level, looked up under that level's codegen (CPU name and no
        extra features: what ``NUMBA_CPU_NAME=<level> NUMBA_CPU_FEATURES=`` compiled)."""

        def __init__(self, py_func: Callable[..., Any]) -> None:
            super().__init__(py_func)
            self._shipped: Any = None
            shipped = shipped_dir()
            source = Path(inspect.getfile(py_func)).resolve()
            if shipped is None or PACKAGE_DIR not in source.parents:
                return
            folder = shipped / source.parent.relative_to(PACKAGE_DIR)
            if not (folder / f"{self._impl.filename_base}.nbi").is_file():
                return
            self._level = shipped.name
            self._shipped = IndexDataCacheFile(
                cache_path=str(folder), filename_base=self._impl.filename_base,
                source_stamp=self._impl.locator.get_source_stamp())

        def _load_overload(self, sig: Any, target_context: Any) -> Any:
            data = super()._load_overload(sig, target_context)
            if data is not None or self._shipped is None or not self._enabled:
                return data
            key = self._index_key(sig, target_context.codegen())
            triple = key[1][0]
            data = self._shipped.load((key[0], (triple, self._level, ""), key[2]))
            return None if data is None else self._impl.rebuild(target_context, data)

    return ShippedFirstCache


@lru_cache(maxsize=1)
def _cache_class() -> type:
    return _shipped_cache_class()


def cached_jit(**options: Any) -> Callable[[Callable[..., Any]], Any]:
    """``numba.njit(cache=True, **options)`` whose cache also reads the compiled code relx
    ships (:data:`SHIPPED_DIR`). Call :func:`ensure_numba_cache` first in the module."""
    from numba import njit

    def compile_later(fn: Callable[..., Any]) -> Any:
        dispatcher = njit(**options)(fn)
        dispatcher._cache = _cache_class()(dispatcher.py_func)   # what enable_caching sets
        return dispatcher

    return compile_later
