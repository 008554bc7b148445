"""relx.array_cache: arrays derived from relx's files, kept on disk between processes; and
what is kept there (the lexicon's tables and n-gram index, the PPI model's walked trees)
read back equal to what building them gives."""

from __future__ import annotations

import os

import numpy as np
import pytest

from relx import array_cache
from relx.array_cache import digest, load, load_or_build, store


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("RELX_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(array_cache, "SHIPPED", tmp_path / "shipped")   # none shipped
    return tmp_path / "cache"


def test_an_entry_the_cache_lacks_is_read_from_the_shipped_ones(cache, monkeypatch) -> None:
    """A wheel's entries (``relx/_arrays``, :mod:`lab.array_ship`) are read when the cache
    folder has none of that name, never written to, and not read with the cache off."""
    shipped = array_cache.SHIPPED
    shipped.mkdir()
    np.savez(shipped / "lexicon-x.npz", a=np.arange(3))
    assert load("lexicon-x")["a"].tolist() == [0, 1, 2]
    assert not (cache / "lexicon-x.npz").exists() and load("other") is None
    store("lexicon-x", {"a": np.arange(2)})             # the cache folder's entry first
    assert load("lexicon-x")["a"].tolist() == [0, 1]
    monkeypatch.setenv("RELX_CACHE_DIR", "0")
    assert load("lexicon-x") is None


def test_entries_round_trip_with_their_dtypes(cache) -> None:
    arrays = {"a": np.arange(5, dtype=np.uint16), "b": np.linspace(0, 1, 7, dtype=np.float32),
              "c": np.zeros((2, 3), dtype=np.int64)}
    path = store("x-1", arrays)
    assert path == cache / "x-1.npz" and path.is_file()
    back = load("x-1")
    assert back.keys() == arrays.keys()
    for k, v in arrays.items():
        assert back[k].dtype == v.dtype and back[k].shape == v.shape
        assert back[k].tobytes() == v.tobytes()
    assert load("x-2") is None
    assert not [p for p in cache.iterdir() if p.name.endswith(".tmp")]   # renamed into place


def test_entries_are_mapped_aligned_and_copy_on_write(cache) -> None:
    """store() lays each array's data at a multiple of ALIGN bytes, so load() views them in
    a copy-on-write map: equal to np.load's, aligned, writable, and writing one leaves the
    file as it was."""
    arrays = {"a": np.arange(7, dtype=np.uint16), "f": np.asfortranarray(
        np.arange(6.0).reshape(2, 3)), "z": np.array(2.5), "e": np.zeros(0, dtype=np.int32),
        "s": np.array(["ab", "c"]), "b": np.arange(10**5, dtype=np.int64)}
    path = store("m", arrays)
    mapped = array_cache._mapped(path)
    assert mapped is not None and mapped.keys() == arrays.keys()
    with np.load(path, allow_pickle=False) as npz:          # still a plain .npz
        for k, v in arrays.items():
            back = mapped[k]
            assert back.dtype == v.dtype and back.shape == v.shape
            assert np.array_equal(back, v) and np.array_equal(npz[k], v)
            assert back.flags.writeable and back.flags.aligned
            assert back.ctypes.data % array_cache.ALIGN == 0 or back.size == 0
            assert back.flags.f_contiguous == v.flags.f_contiguous
    mapped["b"][:] = -1
    assert load("m")["b"][-1] == 10**5 - 1


def test_entries_laid_out_otherwise_are_read_with_np_load(cache) -> None:
    """An entry written by np.savez (an older relx: unaligned) or compressed is not mapped
    and reads as before."""
    cache.mkdir(parents=True)
    np.savez(cache / "old.npz", a=np.arange(5, dtype=np.int64), b=np.ones(3, np.float32))
    np.savez_compressed(cache / "packed.npz", a=np.arange(5, dtype=np.int64))
    assert array_cache._mapped(cache / "packed.npz") is None
    assert load("old")["a"].tolist() == [0, 1, 2, 3, 4]
    assert load("old")["b"].dtype == np.float32
    assert load("packed")["a"].tolist() == [0, 1, 2, 3, 4]
    (cache / "empty.npz").write_bytes(b"")
    assert load("empty") is None


def test_digest_tells_contents_and_order_apart() -> None:
    a = np.arange(4, dtype=np.int32)
    assert digest(b"x", a) == digest(b"x", a.copy())
    assert digest(b"x", a) != digest(b"x", a.astype(np.int64))    # dtype
    assert digest(b"x", a) != digest(b"x", a.reshape(2, 2))       # shape
    assert digest(b"x", a) != digest(a, b"x")
    assert digest("ab", "c") != digest("a", "bc")


def test_a_broken_or_refused_entry_is_rebuilt(cache) -> None:
    calls = []

    def build():
        calls.append(1)
        return {"v": np.array([1, 2, 3])}

    def read(arrays):
        if arrays["v"].shape != (3,):
            raise ValueError("not this")
        return arrays["v"].tolist()

    assert load_or_build("e", build, read) == [1, 2, 3] and len(calls) == 1
    assert load_or_build("e", build, read) == [1, 2, 3] and len(calls) == 1   # read back
    (cache / "e.npz").write_bytes(b"not a zip file")
    assert load("e") is None
    assert load_or_build("e", build, read) == [1, 2, 3] and len(calls) == 2
    store("e", {"v": np.array([1, 2])})                                   # refused by read
    assert load_or_build("e", build, read) == [1, 2, 3] and len(calls) == 3
    assert load("e")["v"].tolist() == [1, 2, 3]                           # and replaced


def test_off_and_unwritable_settings(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("RELX_CACHE_DIR", "0")
    assert array_cache.cache_dir() is None
    assert store("x", {"a": np.zeros(1)}) is None and load("x") is None
    assert load_or_build("x", lambda: {"a": np.ones(2)}, lambda a: a["a"].sum()) == 2.0
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder would be")
    monkeypatch.setenv("RELX_CACHE_DIR", str(blocked / "cache"))
    folder = array_cache.cache_dir()
    assert folder is not None and folder.name.startswith("relx-cache-")   # the temp folder


def _tables(g) -> list:
    return [list(g.index.items()), sorted(g._symbols.items()),
            {t: list(rows.items()) for t, rows in g._load_species().items()}]


def test_lexicon_tables_read_back_equal_the_built_ones(cache, monkeypatch) -> None:
    from relx.genes.lexicon import Grounder
    from relx.genes.lexicon_table import LexiconFile

    built = Grounder()
    want = _tables(built)
    array_cache.wait()   # the entries are written in the background
    names = sorted(p.name for p in cache.iterdir())
    assert len(names) == 2 and names[0].endswith("-human.npz") and names[1].endswith(
        "-species.npz")

    def no_build(self):
        raise AssertionError("built again")

    monkeypatch.setattr(LexiconFile, "_build_human", no_build)
    monkeypatch.setattr(LexiconFile, "_build_species", no_build)
    again = Grounder()
    assert _tables(again) == want
    assert again.symbol("MGI:96548") == built.symbol("MGI:96548") is not None
    # another set of sources is another entry, built afresh
    with pytest.raises(AssertionError, match="built again"):
        _ = Grounder(exclude_sources={"designation"}).index


def test_a_truncated_lexicon_entry_is_rebuilt(cache) -> None:
    from relx.genes.lexicon import Grounder

    want = _tables(Grounder())
    array_cache.wait()   # the entries are written in the background
    human = next(cache.glob("*-human.npz"))
    human.write_bytes(human.read_bytes()[: human.stat().st_size // 2])
    assert _tables(Grounder()) == want
    assert load(human.stem) is not None                   # written whole again


def test_ngram_index_read_back_searches_the_same(cache, monkeypatch) -> None:
    from relx.genes.ngrams import NgramIndex

    keys = ["interleukin6", "interleukin8", "interleukin6receptor", "tumornecrosisfactor",
            "caspase3", "caspase9", "mitogenactivatedproteinkinase1", "il6", "\u03b1actinin"]
    built = NgramIndex(keys)
    first = NgramIndex.cached(keys)       # built, and stored
    array_cache.wait()   # the entries are written in the background
    assert [p.name.startswith("ngrams-") for p in cache.iterdir()] == [True]

    def no_build(self, keys):
        raise AssertionError("built again")

    monkeypatch.setattr(NgramIndex, "__init__", no_build)
    again = NgramIndex.cached(keys)
    assert again.keys == built.keys == first.keys   # short and non-ASCII keys left out
    for query in ("interleukin6", "interleukin", "caspase", "proteinkinase", "xyz"):
        assert again.search(query, k=3, min_dice=0.3) == built.search(query, k=3, min_dice=0.3)
    assert again.search("interleukin6")[0] == ("interleukin6", 1.0)
    with pytest.raises(ValueError):
        NgramIndex.from_arrays({**built.to_arrays(), "sizes": np.zeros(1, np.int32)})


def test_symbol_and_name_sets_read_back_equal(cache, monkeypatch) -> None:
    from relx.genes import more_mentions
    from relx.genes.lexicon import Grounder
    from relx.genes.lexicon_table import LexiconRows

    built = Grounder()
    want = (more_mentions.approved_symbols(built), more_mentions.single_gene_names(built))
    assert "FASN" in want[0] and "ghrelin" in want[1]
    array_cache.wait()   # the entries are written in the background
    names = [p.name for p in cache.iterdir()]
    assert any("-approved-symbols-" in n for n in names)
    assert any("-single-gene-names-" in n for n in names)

    def no_build(*args, **kwargs):
        raise AssertionError("built again")

    monkeypatch.setattr(more_mentions, "_single_gene_name", no_build)
    monkeypatch.setattr(LexiconRows, "rows_of_sources", no_build)
    again = Grounder()      # another grounder: nothing of the first one's in memory
    assert (more_mentions.approved_symbols(again),
            more_mentions.single_gene_names(again)) == want


def test_walked_trees_read_back_predict_bitwise_the_same(cache, monkeypatch) -> None:
    import relx.learn.packed_trees as packed
    from relx.learn.packed_trees import WALK_ATTRIBUTES, PackedExtraTrees

    rng = np.random.default_rng(0)
    X = rng.random((400, 6)).astype(np.float32)
    y = (X[:, 0] + 0.3 * rng.random(400) > 0.6).astype(int)
    state = PackedExtraTrees(n_estimators=10, random_state=0).fit(X, y).__getstate__()
    first = PackedExtraTrees.__new__(PackedExtraTrees)
    first.__setstate__(dict(state))
    array_cache.wait()   # the entries are written in the background
    assert len(list(cache.glob("trees-*.npz"))) == 1

    def no_walk(c):
        raise AssertionError("expanded again")

    monkeypatch.setattr(packed, "walk_from_compact", no_walk)
    second = PackedExtraTrees.__new__(PackedExtraTrees)
    second.__setstate__(dict(state))
    for a in ("roots_", *WALK_ATTRIBUTES):
        assert getattr(second, a).dtype == getattr(first, a).dtype
        assert getattr(second, a).tobytes() == getattr(first, a).tobytes()
    Xq = rng.random((200, 6)).astype(np.float32)
    assert first.predict_proba(Xq).tobytes() == second.predict_proba(Xq).tobytes()


def test_relx_models_names_the_cache_and_clears_it(cache) -> None:
    from typer.testing import CliRunner

    from relx.app.cli import app

    store("a", {"x": np.zeros(1000)})
    store("b", {"x": np.zeros(10)})
    shown = CliRunner().invoke(app, ["models"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    assert f"start-up cache: {cache} (2 entries, 0 MB)" in shown.output
    cleared = CliRunner().invoke(app, ["models", "--clear-cache"], env={"COLUMNS": "200"})
    assert cleared.exit_code == 0 and "deleted 2 start-up cache entries" in cleared.output
    assert array_cache.entries() == [] and load("a") is None


def test_entries_unused_for_a_month_go_when_another_is_written(cache) -> None:
    import os
    import time

    for name in ("old", "read", "fresh"):
        store(name, {"x": np.zeros(3)})
    month_ago = time.time() - (array_cache.UNUSED_DAYS + 1) * 86400
    for name in ("old", "read"):
        os.utime(cache / f"{name}.npz", (month_ago, month_ago))
    assert load("read") is not None          # reading marks it as in use
    store("new", {"x": np.ones(2)})
    assert sorted(p.stem for p in array_cache.entries()) == ["fresh", "new", "read"]


def test_entries_written_in_the_background_are_whole_when_read_or_at_exit(cache) -> None:
    """store_soon writes in a thread: load() of that name waits for it, and a process that
    exits right after store_soon leaves the whole entry (its writer is no daemon)."""
    import subprocess
    import sys

    big = np.arange(4_000_000, dtype=np.int64)          # 32 MB: not written in an instant
    array_cache.store_soon("soon", {"a": big})
    assert load("soon")["a"].tobytes() == big.tobytes()
    array_cache.store_soon("soon", {"a": big[:10]})     # replaced in order
    array_cache.store_soon("soon", {"a": big[:3]})
    assert load("soon")["a"].tolist() == [0, 1, 2]
    code = ("import numpy as np; from relx import array_cache; "
            "array_cache.store_soon('exit', {'a': np.arange(4_000_000)})")
    subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ})
    assert load("exit")["a"].tobytes() == np.arange(4_000_000).tobytes()
    array_cache.wait()
    assert sorted(p.name for p in cache.iterdir()) == ["exit.npz", "soon.npz"]   # no .tmp
