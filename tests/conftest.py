"""Shared fixtures: small files written for relx, and the real corpora when present."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# relx's array cache (relx.array_cache) for the test run, not the user's: shared by the
# workers and runs (entries are named by their content, so sharing is safe)
os.environ.setdefault("RELX_CACHE_DIR", str(Path(tempfile.gettempdir()) / (
    f"relx-test-cache-{getattr(os, 'getuid', lambda: 'user')()}")))
FIXTURES = Path(__file__).parent / "fixtures"
SHARED = Path(os.environ.get("RELX_DATA", ROOT.parent / "shared"))
PPI = SHARED / "corpora" / "ppi"
CORPUS_FILES = {
    "AIMed": PPI / "AImed-learning-format.xml.gz",
    "BioInfer": PPI / "BioInfer-learning-format.xml.gz",
    "IEPA": PPI / "IEPA-learning-format.xml.gz",
}


@pytest.fixture
def mini_xml() -> Path:
    return FIXTURES / "ppi-mini.xml"


def corpus_file(name: str) -> Path:
    path = CORPUS_FILES[name]
    if not path.exists():
        pytest.skip(f"{path} not available (set RELX_DATA to the shared data folder)")
    return path


GE_FIXTURE_NAMES = ("ge-1", "ge-2", "ge-3")


def ge_fixture_docs() -> list:
    """The GE fixture documents (``GEDoc``s) with their parses stored beside them (no parser
    needed)."""
    from relx.ge.data import GEDoc
    from relx.io.jsonl import read_jsonl
    from relx.io.standoff import read_standoff

    parsed = {d.id: d for d in read_jsonl(FIXTURES / "ge-parsed.jsonl")}
    return [GEDoc(read_standoff(FIXTURES / f"{n}.txt"), parsed[n]) for n in GE_FIXTURE_NAMES]
