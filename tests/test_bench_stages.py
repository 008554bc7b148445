"""The load-stage benchmark names calls that exist (a renamed method must not break it)."""
import importlib
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _stages() -> tuple[str, ...]:
    spec = importlib.util.spec_from_file_location(
        "bench_load_stages", ROOT / "benchmarks" / "bench_load_stages.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.STAGES


def test_every_measured_stage_is_a_callable_of_relx_or_spacy():
    stages = _stages()
    assert len(stages) >= 10
    for stage in stages:
        module_name, _, qual = stage.partition(":")
        owner = importlib.import_module(module_name)
        for part in qual.split("."):
            owner = getattr(owner, part)   # AttributeError names the stale stage
        assert callable(owner), stage
