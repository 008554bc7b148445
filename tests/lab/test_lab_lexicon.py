"""``python -m lab.lexicon build|lookup`` (make lexicon) on the tiny HGNC/FamPlex fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

from lab.lexicon import main
from tests.conftest import FIXTURES

LEX_SHARED = FIXTURES / "lex-shared"


def test_cli_build_and_lookup(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "lex.tsv.gz"
    assert main(["build", "--shared", str(LEX_SHARED), "--out", str(out)]) == 0
    assert '"hgnc_ids": 14' in capsys.readouterr().out   # 13 protein-coding genes, one lncRNA
    assert main(["lookup", "--lexicon", str(out), "IL-2", "nothing-here"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("IL-2\tHGNC:6001(IL2,symbol,1.0)")
    assert printed[1] == "nothing-here\t-"
