"""relx.model_store.load_skops: one loader for every model kind (meta.json, format version,
skops file under the kind's allow-list), and the one check of a model folder's files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import skops.io as sio

from relx.errors import ModelError
from relx.model_store import ModelKind, check_model_folder, load_skops, resolve_model
from relx.structures import Vocab


class _KindError(ModelError):
    """The error of the test kind."""


KIND = ModelKind("test model", "parts.skops", (1, 2), format="relx-test", error=_KindError)


def _folder(tmp_path: Path, meta: object, parts: object = None) -> Path:
    (tmp_path / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    if parts is not None:
        (tmp_path / "parts.skops").write_bytes(sio.dumps(parts))
    return tmp_path


def test_a_model_folder_loads_with_its_meta(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {"format": "relx-test", "format_version": 2},
                     {"vocab": Vocab(["a", "b"])})
    meta, parts = load_skops(folder, ["relx.structures.Vocab"], KIND)
    assert meta["format_version"] == 2
    assert parts["vocab"].itos == ["<none>", "a", "b"]


@pytest.mark.parametrize(("meta", "parts", "says"), [
    ({"format": "relx-test", "format_version": 1}, None, "not a relx test model "
                                                         r"\(parts.skops missing\)"),
    ({"format": "other", "format_version": 1}, {}, "format 'other' is not relx-test"),
    ({"format": "relx-test", "format_version": 9}, {}, "model format 9, this relx reads "
                                                       "formats 1, 2"),
    ([1], {}, "meta.json: cannot read this test model file, it is damaged"),
    ({"format": "relx-test", "format_version": 1}, {"v": Vocab(["a"])},
     r"parts.skops: refusing to load untrusted types .*relx.structures.Vocab"),
])
def test_what_is_wrong_is_the_kinds_error_naming_the_file(tmp_path: Path, meta: object,
                                                          parts: object, says: str) -> None:
    folder = _folder(tmp_path, meta, parts)
    with pytest.raises(_KindError, match=says):
        load_skops(folder, [], KIND)


def test_resolve_model_returns_an_object_and_loads_a_folder(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {"format": "relx-test", "format_version": 1}, {"x": 1})
    assert resolve_model("given", str, "unused", KIND, lambda p: "loaded") == "given"
    assert resolve_model(None, str, str(folder), KIND, str) == str(folder)
    assert resolve_model(folder, str, "unused", KIND, str) == str(folder)
    with pytest.raises(_KindError, match="no test model '.*nowhere'"):
        resolve_model(str(tmp_path / "nowhere"), dict, "unused", KIND, dict)


def test_the_folder_check_names_a_damaged_file_and_the_fix(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {"format": "relx-test", "format_version": 1}, {"x": 1})
    (folder / "config.toml").write_text("[pipeline]\nname = \"x\"\n", encoding="utf-8")
    check_model_folder(folder, "test model", "do this")   # whole: no error
    (folder / "parts.skops").write_bytes(b"PK\x03\x04broken")
    with pytest.raises(ModelError, match=r"parts.skops: cannot read this test model file, "
                                         r"it is damaged or incomplete .*; do this$"):
        check_model_folder(folder, "test model", "do this")
    (folder / "parts.skops").unlink()
    (folder / "config.toml").write_text("[pipeline\n", encoding="utf-8")
    with pytest.raises(ModelError, match="config.toml: .*TOMLDecodeError"):
        check_model_folder(folder, "test model", "do this")
