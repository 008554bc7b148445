"""relx's compiled functions get a numba cache even where nothing numba would pick is
writable (a read-only install without a writable home): relx.numba_cache."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

MODULE = textwrap.dedent("""
    from numba import njit
    {setup}

    @njit(cache=True)
    def plus_one(x):
        return x + 1
    """)


def _run(tmp_path: Path, setup: str) -> subprocess.CompletedProcess:
    """Import a module with one cached numba function from a folder whose ``__pycache__``
    cannot be made (a file of that name), with an unusable user cache directory."""
    pkg = tmp_path / "pkg"
    pkg.mkdir(exist_ok=True)
    (pkg / "__pycache__").write_text("")          # numba cannot cache beside the source
    (pkg / "cached.py").write_text(MODULE.format(setup=setup))
    blocked = tmp_path / "not-a-dir"
    blocked.write_text("")
    tmp = tmp_path / "tmp"
    tmp.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(XDG_CACHE_HOME=str(blocked / "cache"), HOME=str(blocked), TMPDIR=str(tmp),
               PYTHONDONTWRITEBYTECODE="1")
    code = (f"import sys; sys.path.insert(0, {str(pkg)!r})\n"
            "import cached; print(cached.plus_one(41))\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=tmp_path)


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX file permissions")
def test_numba_without_a_writable_cache_cannot_import(tmp_path: Path) -> None:
    out = _run(tmp_path, "")
    assert out.returncode != 0 and "no locator available" in out.stderr


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX file permissions")
def test_ensure_numba_cache_falls_back_to_the_temp_directory(tmp_path: Path) -> None:
    setup = "from relx.numba_cache import ensure_numba_cache; ensure_numba_cache(__file__)"
    out = _run(tmp_path, setup)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "42"
    cache = tmp_path / "tmp" / f"relx-numba-{os.getuid()}"
    assert list(cache.rglob("cached.plus_one-*.nbi"))   # compiled once, cached there
