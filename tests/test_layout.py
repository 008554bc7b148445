"""The layout shows the architecture: shared core -> task packages (ppi, ge) -> app.

No core module imports a task package or the app, and neither task imports the other
or the app (imports inside functions included)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RELX = Path(__file__).resolve().parents[1] / "relx"
TASKS = ("relx.ppi", "relx.ge")
APP = "relx.app"


def _module(path: Path) -> str:
    parts = path.relative_to(RELX.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every relx module ``path`` imports, at module level or inside a function."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
    return {m for m in out if m == "relx" or m.startswith("relx.")}


def _layer(module: str) -> str:
    for pkg in (*TASKS, APP):
        if module == pkg or module.startswith(pkg + "."):
            return pkg
    return "top" if module == "relx" else "core"


MODULES = sorted(p for p in RELX.rglob("*.py"))


def test_both_tasks_and_app_exist_as_packages():
    for pkg in ("ppi", "ge", "app"):
        assert (RELX / pkg / "__init__.py").is_file()
    # the modules the tasks used to scatter over the top level are gone from it
    for gone in ("extract", "evaluate", "model", "report", "results", "events", "ge_eval",
                 "event_report", "cli", "batch", "raw_eval", "results_chart"):
        assert not (RELX / f"{gone}.py").exists(), gone


@pytest.mark.parametrize("path", MODULES, ids=lambda p: _module(p))
def test_imports_only_run_down_the_layers(path: Path):
    here = _layer(_module(path))
    allowed = {
        "core": {"core", "top"},   # `from relx import __version__`
        "relx.ppi": {"core", "top", "relx.ppi"},
        "relx.ge": {"core", "top", "relx.ge"},
        "relx.app": {"core", "top", "relx.ppi", "relx.ge", "relx.app"},
        "top": {"core", "top", "relx.ppi", "relx.ge"},  # relx.load() reaches the tasks lazily
    }[here]
    bad = sorted(m for m in _imports(path) if _layer(m) not in allowed)
    assert not bad, f"{_module(path)} ({here}) imports {bad}"


def test_the_check_sees_a_back_import(tmp_path: Path):
    bad = tmp_path / "x.py"
    bad.write_text("def f():\n    from relx.ppi.extract import Extractor\n")
    assert "relx.ppi.extract" in _imports(bad)
    assert _layer("relx.ppi.extract") == "relx.ppi" and _layer("relx.structures") == "core"
