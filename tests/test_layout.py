"""The layout shows the architecture: shared core -> task packages (ppi, ge) -> app.

No core module imports a task package or the app, and neither task imports the other
or the app (imports inside functions included)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

RELX = Path(__file__).resolve().parents[1] / "relx"
TASKS = ("relx.ppi", "relx.ge")
APP = "relx.app"


def _module(path: Path) -> str:
    parts = path.relative_to(RELX.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _tree(path: Path) -> ast.AST:
    """``path`` parsed, once per version of the file (the checks below walk each module
    several times)."""
    st = path.stat()
    return _parsed(path, st.st_mtime_ns, st.st_size)


@functools.cache
def _parsed(path: Path, mtime_ns: int, size: int) -> ast.AST:
    return ast.parse(path.read_text("utf-8"))


def _imports(path: Path) -> set[str]:
    """Every relx module ``path`` imports, at module level or inside a function."""
    out: set[str] = set()
    for node in ast.walk(_tree(path)):
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


# -- import cycles ---------------------------------------------------------------------------

@functools.cache
def _is_module(name: str) -> bool:
    path = RELX.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _type_checking_only(tree: ast.AST) -> set[ast.AST]:
    """The import nodes under ``if TYPE_CHECKING:`` (not run, so not dependencies)."""
    out: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for stmt in node.body:
                out.update(ast.walk(stmt))
    return out


def _module_imports(path: Path, here: str | None = None) -> set[str]:
    """The relx modules ``path`` (module ``here``) imports when run (module level or inside
    a function; not under ``TYPE_CHECKING``): ``from p import x`` is module ``p.x`` when that
    is a module, else ``p``; relative imports resolved."""
    tree = _tree(path)
    skip = _type_checking_only(tree)
    here = _module(path) if here is None else here
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if node in skip:
            continue
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[:len(parts) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            for a in node.names:
                out.add(f"{base}.{a.name}" if _is_module(f"{base}.{a.name}") else base)
    return {m for m in out if m.startswith("relx.") and _is_module(m)}


@functools.cache
def import_graph() -> dict[str, set[str]]:
    """module -> the relx modules it imports. The package root ``relx`` is left out: it is
    the lazy facade (PEP 562; ``relx.load``), every module already imports it as its parent
    package, and ``from relx import __version__`` reads a constant."""
    return {_module(p): _module_imports(p) - {_module(p)} for p in MODULES
            if _module(p) != "relx"}


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (each sorted)."""
    import networkx as nx

    g = nx.DiGraph([(a, b) for a, bs in graph.items() for b in bs])
    return sorted(sorted(c) for c in nx.strongly_connected_components(g) if len(c) > 1)


def _in_app(module: str) -> bool:
    return module == APP or module.startswith(APP + ".")


def test_no_import_cycles_in_the_core_and_tasks():
    cycles = [c for c in import_cycles(import_graph()) if not any(map(_in_app, c))]
    assert not cycles, f"import cycles: {cycles}"


def test_no_import_cycles_in_the_app():
    cycles = [c for c in import_cycles(import_graph()) if any(map(_in_app, c))]
    assert not cycles, f"import cycles: {cycles}"


def test_the_cycle_check_sees_a_function_level_cycle(tmp_path: Path):
    a = tmp_path / "a.py"
    a.write_text("def f():\n    from relx.ge import pipeline\n    from . import edges\n"
                 "if TYPE_CHECKING:\n    from relx.ppi import model\n")
    assert _module_imports(a, "relx.ge.a") == {"relx.ge.pipeline", "relx.ge.edges"}
    graph = {"relx.x": {"relx.y"}, "relx.y": {"relx.z"}, "relx.z": {"relx.x"}, "relx.w": set()}
    assert import_cycles(graph) == [["relx.x", "relx.y", "relx.z"]]


# -- the batch walks one way -------------------------------------------------------------------

BATCH = "relx.app.batch"
#: the batch's modules in the order its run plan walks them (docs/architecture.md, "One
#: document"): each imports only those before it and hands them none of its own functions
#: to call (no call back up); ``folder``, the output folder's layout, takes paths, not the plan
BATCH_WALK = ("plan", "folder", "chunks", "worker", "engines", "finish", "__init__")


def _batch_module(name: str) -> str:
    return BATCH if name == "__init__" else f"{BATCH}.{name}"


def batch_walk_problems(sources: dict[str, Path]) -> list[str]:
    """What in ``sources`` (batch module -> its file) goes back up :data:`BATCH_WALK`: an
    import of a module at or after its own place, or one of its own functions or classes
    handed to a function of a module before it (which would call it back)."""
    rank = {_batch_module(m): i for i, m in enumerate(BATCH_WALK)}
    problems = []
    for module, path in sorted(sources.items()):
        here = rank[module]
        problems += [f"{module} imports {dep}" for dep in sorted(_module_imports(path, module))
                     if rank.get(dep, -1) >= here and dep != module]
        tree = _tree(path)
        own = {n.name for n in tree.body
               if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
        below = {a.asname or a.name: node.module for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and rank.get(node.module, here) < here
                 for a in node.names}
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in below):
                continue
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                if isinstance(arg, ast.Name) and arg.id in own:
                    problems.append(f"{module} hands its {arg.id} to "
                                    f"{below[node.func.id]}.{node.func.id}")
    return problems


def test_the_batch_walks_its_modules_one_way():
    """The batch's modules, in the order the run plan walks them: a module imports only the
    ones before it and never has them call it back (docs/architecture.md, "The batch")."""
    sources = {_module(p): p for p in MODULES if _module(p).startswith(BATCH)}
    assert set(sources) == {_batch_module(m) for m in BATCH_WALK}, \
        "a new batch module takes its place in BATCH_WALK (and in docs/architecture.md)"
    assert batch_walk_problems(sources) == []
    doc = " ".join((RELX.parent / "docs" / "architecture.md").read_text("utf-8").split())
    assert " → ".join(f"`{m}`" for m in BATCH_WALK[:-1]) in doc


def test_the_batch_walk_check_sees_a_call_back_up(tmp_path: Path):
    """Yesterday's batch: the engines finished an input through ``chunks`` after the chunk
    came back, handed ``chunks`` their own ``_no_extractor``, and ``chunks`` reached up."""
    engines = tmp_path / "engines.py"
    engines.write_text("from relx.app.batch.chunks import assemble_input, process_chunk\n"
                       "def _no_extractor(plan):\n    raise AssertionError\n"
                       "def _empty(unit, plan):\n"
                       "    return process_chunk(unit, plan, _no_extractor)\n")
    chunks = tmp_path / "chunks.py"
    chunks.write_text("def f():\n    from relx.app.batch.engines import Schedule\n")
    plan = tmp_path / "plan.py"
    plan.write_text("from relx.app.batch import RunPlan\n")
    problems = batch_walk_problems({f"{BATCH}.engines": engines, f"{BATCH}.chunks": chunks,
                                    f"{BATCH}.plan": plan})
    assert problems == [f"{BATCH}.chunks imports {BATCH}.engines",
                        f"{BATCH}.engines hands its _no_extractor to {BATCH}.chunks.process_chunk",
                        f"{BATCH}.plan imports {BATCH}"]


# -- relx stands alone: no lab, no dev, and the wheel holds relx only --------------------------

OUTSIDE = ("lab", "dev", "tests", "benchmarks")


@pytest.mark.parametrize("path", MODULES, ids=lambda p: _module(p))
def test_relx_never_imports_the_lab_or_dev(path: Path):
    bad = set()
    for node in ast.walk(_tree(path)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif (isinstance(node, ast.Call) and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and ast.unparse(node.func) in ("importlib.import_module", "import_module",
                                             "__import__")):
            names = [node.args[0].value]
        bad |= {n for n in names if n.split(".")[0] in OUTSIDE}
    assert not bad, f"{_module(path)} imports {sorted(bad)}"


def test_the_wheel_packages_are_relx_only(monkeypatch: pytest.MonkeyPatch):
    """setup.py's package list (what the wheel installs) holds relx and its models, no lab."""
    import setuptools

    seen: dict = {}
    monkeypatch.setattr(setuptools, "setup", lambda **kw: seen.update(kw))
    monkeypatch.chdir(RELX.parent)
    exec(compile((RELX.parent / "setup.py").read_text("utf-8"), "setup.py", "exec"), {})
    packages = seen["packages"]
    assert {"relx", "relx.ge", "relx.ppi", "relx.app", "relx.models"} <= set(packages)
    assert all(p == "relx" or p.startswith("relx.") for p in packages), packages
    assert (RELX.parent / "lab" / "__init__.py").is_file()   # lab is a package: it is left out


# -- errors: one base, caught by type ----------------------------------------------------------

#: exception classes under relx/ that must derive from something other than RelxError, with
#: the reason (none today)
OTHER_BASES: dict[str, str] = {}


def _classes() -> dict[str, tuple[str, list[str]]]:
    """class name -> (module, the last part of each base's name), over relx/."""
    out: dict[str, tuple[str, list[str]]] = {}
    for p in MODULES:
        for node in ast.walk(_tree(p)):
            if isinstance(node, ast.ClassDef):
                bases = [ast.unparse(b).rpartition(".")[2] for b in node.bases]
                out[node.name] = (_module(p), bases)
    return out


def _derives(name: str, target: set[str], classes: dict, seen: frozenset = frozenset()
             ) -> bool:
    if name in target:
        return True
    if name in seen or name not in classes:
        return False
    return any(_derives(b, target, classes, seen | {name}) for b in classes[name][1])


def _exception_classes(classes: dict) -> list[str]:
    """The classes deriving from a built-in exception (through relx classes or directly;
    a base from another library ending in ``Error``/``Exception`` counts too)."""
    import builtins

    builtin = {n for n, v in vars(builtins).items()
               if isinstance(v, type) and issubclass(v, BaseException)}
    foreign = {b for _, bases in classes.values() for b in bases
               if b not in classes and b.endswith(("Error", "Exception"))}
    return sorted(n for n in classes if _derives(n, builtin | foreign, classes))


def test_every_exception_class_derives_from_relx_error():
    classes = _classes()
    found = _exception_classes(classes)
    assert {"RelxError", "ModelError", "BatchLocked", "RunAborted"} <= set(found)
    bad = [f"{classes[n][0]}.{n}" for n in found if n not in OTHER_BASES
           and not _derives(n, {"RelxError"}, classes)]
    assert not bad, f"exception classes outside relx.errors.RelxError: {bad}"


def test_the_error_check_sees_a_stray_class():
    classes = {"RelxError": ("relx.errors", ["ValueError"]),
               "Good": ("relx.x", ["RelxError"]), "Stray": ("relx.x", ["RuntimeError"]),
               "Plain": ("relx.x", [])}
    assert _exception_classes(classes) == ["Good", "RelxError", "Stray"]
    assert not _derives("Stray", {"RelxError"}, classes)


def _name_matches(tree: ast.AST) -> list[str]:
    """Comparisons that test an exception's class name (``"X" in type(e).__name__``)."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                if any(isinstance(a, ast.Attribute) and a.attr == "__name__"
                       and ("type(" in ast.unparse(a.value) or "__class__" in ast.unparse(a.value))
                       for a in ast.walk(side)):
                    out.append(ast.unparse(node))
    return out


@pytest.mark.parametrize("path", MODULES, ids=lambda p: _module(p))
def test_no_exception_is_matched_by_its_name(path: Path):
    found = _name_matches(_tree(path))
    assert not found, f"{_module(path)} matches classes by name: {found}"


def test_the_name_check_sees_a_match():
    tree = ast.parse('if "Cancelled" in type(exc).__name__ or x:\n    pass\n'
                     'print(f"{type(exc).__name__}: {exc}")\n')
    assert _name_matches(tree) == ["'Cancelled' in type(exc).__name__"]


# -- every module is used by relx ------------------------------------------------------------

#: where relx is entered from outside: the CLI and the spaCy factories (pyproject.toml)
ENTRY_POINTS = ("relx.app.cli", "relx.parse.factories", "relx.app.spacy_components")


def _named_modules(path: Path) -> set[str]:
    """Modules named in ``"module:function"`` strings (the format and task tables, read
    with importlib on first use)."""
    out = set()
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            module, colon, _ = node.value.partition(":")
            if colon and module.startswith("relx.") and _is_module(module):
                out.add(module)
    return out


def test_every_relx_module_is_used_by_relx():
    """No module only lab/ (or tests) imports: each is imported by a relx module, named in
    one of relx's tables, an entry point, or a package's ``__init__``."""
    used = set(ENTRY_POINTS) | {m for deps in import_graph().values() for m in deps}
    for p in MODULES:
        used |= _named_modules(p) | (_module_imports(p) if _module(p) == "relx" else set())
    unused = sorted(_module(p) for p in MODULES
                    if p.name != "__init__.py" and _module(p) not in used)
    assert not unused, f"relx modules no relx module uses: {unused}"


def test_the_floors_picture_is_current():
    """docs/floors.svg is what dev/floors.py draws from today's imports."""
    import subprocess
    import sys

    root = RELX.parent
    done = subprocess.run([sys.executable, str(root / "dev" / "floors.py"), "--check"],
                          capture_output=True, text=True, cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
