"""Compiled code shipped with relx (relx.numba_cache.cached_jit, lab/jit_cache.py): a new
environment loads it instead of compiling, for the portable CPU level it was built for."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# one of relx's compiled functions, called; prints the compilations numba made and the result
CALL = textwrap.dedent("""
    import numpy as np
    from numba.core import event
    with event.install_recorder("numba:compile") as compiled:
        from relx.parse.fast import _maxout
        best, which = _maxout((np.arange(24, dtype=np.float32) * 7 % 11).reshape(2, 3, 4))
    print(len(compiled.buffer) // 2, best.sum(), which.sum())
    """)


def _call(cache: Path, **env: str) -> tuple[int, str]:
    """Run CALL with numba's cache in ``cache``: (compilations, result)."""
    cache.mkdir(parents=True, exist_ok=True)
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "RELX_SHIPPED"))}
    environ.update(NUMBA_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT), **env)
    out = subprocess.run([sys.executable, "-c", CALL], capture_output=True, text=True,
                         env=environ, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    n, *result = out.stdout.split()
    return int(n), " ".join(result)


def test_cpu_levels_start_generic_and_run_in_order() -> None:
    from relx.numba_cache import X86_LEVELS, cpu_levels

    levels = cpu_levels()
    names = [name for name, _ in X86_LEVELS]
    assert levels[0] == "generic" and levels == names[:len(levels)]


@pytest.mark.slow
def test_a_new_environment_loads_the_shipped_code_without_compiling(tmp_path: Path) -> None:
    from lab.jit_cache import collect

    n, built = _call(tmp_path / "build", NUMBA_CPU_NAME="generic", NUMBA_CPU_FEATURES="",
                     RELX_SHIPPED_JIT="0")
    assert n >= 1                                            # compiled for the generic CPU
    shipped = tmp_path / "jit"
    assert collect(tmp_path / "build", shipped / "generic") == 1
    assert (shipped / "generic" / "parse").is_dir()

    n, result = _call(tmp_path / "fresh", RELX_SHIPPED_JIT=str(shipped))
    assert (n, result) == (0, built)                         # loaded, same answer
    assert not list((tmp_path / "fresh").rglob("*.nbi"))     # nothing compiled to cache

    n, result = _call(tmp_path / "off", RELX_SHIPPED_JIT="0")
    assert n >= 1 and result == built                       # without it: compiled on use
    assert list((tmp_path / "off").rglob("*.nbi"))
