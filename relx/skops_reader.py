"""A fast reader of relx's own skops model files, without importing skops.

``import skops.io`` lists every scikit-learn estimator (``all_estimators()`` imports all of
scikit-learn: ~0.7 s CPU) and its loader builds and audits a tree of node objects before
constructing anything; relx's model files hold a few thousand nodes of nine kinds. This
module reads the same files (``schema.json`` + ``.npy`` arrays in a zip, skops protocol 2)
and constructs the same objects, node for node as ``skops.io.load`` does (one object per
``__id__``, ``__new__`` + ``__setstate__``), under a *narrower* allow-list: the caller's
``trusted`` names plus skops' own default trust restricted to the builtins, numpy types and
the few scikit-learn classes relx's models contain (:data:`SKLEARN_TYPES`, each one that
skops trusts by default). A file with anything else (another node kind, protocol, type, or
a malformed state) is not read here: :func:`load` hands it to ``skops.io.load``, which
trusts or refuses it as before. Nothing is imported and no object is built before the whole
schema has passed the check.

The arrays a file keeps compressed (LZMA or deflate: ~0.4 s of a start for relx's three
shipped models) are decoded once and kept in relx's array cache (:mod:`relx.array_cache`)
under a digest of the file's bytes, so a later process reads them back instead.
"""

from __future__ import annotations

import importlib
import io
import json
import zipfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from relx.errors import ModelError

__all__ = ["SKLEARN_TYPES", "Unsupported", "UntrustedTypes", "load", "read"]

#: the skops protocol this reader implements
PROTOCOL = 2

#: scikit-learn classes in relx's models that skops trusts by default (its estimators and
#: internal loss/link/binning types; ``tests/test_load_reader.py`` checks each one is)
SKLEARN_TYPES = frozenset({
    "sklearn.pipeline.Pipeline", "sklearn.pipeline.FeatureUnion",
    "sklearn.linear_model._logistic.LogisticRegression", "sklearn.svm._classes.LinearSVC",
    "sklearn.preprocessing._label.LabelEncoder",
    "sklearn.ensemble._hist_gradient_boosting.gradient_boosting."
    "HistGradientBoostingClassifier",
    "sklearn.ensemble._hist_gradient_boosting.binning._BinMapper",
    "sklearn._loss.loss.HalfBinomialLoss", "sklearn._loss.link.LogitLink",
    "sklearn._loss.link.Interval",
})
#: compiled loss classes skops rebuilds from ``__reduce__`` (its ``ALLOWED_LOSSES``)
LOSS_TYPES = frozenset({"sklearn._loss._loss.CyHalfBinomialLoss"})
_BUILTIN_TYPES = frozenset(f"builtins.{t}" for t in
                           ("int", "float", "str", "bool", "list", "set", "map", "tuple"))
_NUMPY_TYPES = frozenset(f"numpy.{t.__name__}" for t in set(np.sctypeDict.values()))
#: a compressed array member at least this large is kept decoded in the array cache
_KEEP_DECODED_BYTES = 1 << 16
_BIT_GENERATORS = frozenset({"MT19937", "PCG64", "PCG64DXSM", "Philox", "SFC64"})



def _read_header(header: Any, fp: io.BytesIO) -> tuple[tuple[int, ...], bool, np.dtype]:
    """``header(fp)`` (numpy's npy header reader, which parses the header with ``ast``),
    read once more after a ``SystemError``: CPython 3.11 before 3.11.8 can raise a spurious
    "AST constructor recursion depth mismatch" when garbage collection runs another
    thread in the middle of a parse (python/cpython gh-106905); the second parse succeeds."""
    start = fp.tell()
    try:
        return header(fp)
    except SystemError:
        fp.seek(start)
        return header(fp)

class Unsupported(ModelError):
    """A file (or node) this reader does not handle; ``skops.io`` may."""


class UntrustedTypes(ModelError):
    """A file with types neither this reader nor ``skops.io`` trusts (skops' message)."""


def _default_trust(loader: str) -> frozenset[str]:
    """The type names each node kind trusts besides the caller's (a subset of skops')."""
    return {
        "DictNode": frozenset({"builtins.dict", "collections.OrderedDict"}),
        "ListNode": frozenset({"builtins.list"}),
        "TupleNode": frozenset({"builtins.tuple"}),
        "TypeNode": _BUILTIN_TYPES | _NUMPY_TYPES,
        "NdArrayNode": _NUMPY_TYPES | {"numpy.ndarray"},
        "ObjectNode": SKLEARN_TYPES,
        "RandomGeneratorNode": frozenset({"numpy.random._generator.Generator"}),
        "LossNode": LOSS_TYPES,
    }[loader]


def _children(state: dict[str, Any]) -> list[dict[str, Any]]:
    """A node's child states, in the order skops builds its tree."""
    loader = state["__loader__"]
    if loader == "DictNode":
        return [state["key_types"], *state["content"].values()]
    if loader in ("ListNode", "TupleNode"):
        return list(state["content"])
    if loader == "ObjectNode":
        return [state["content"]] if state.get("content") is not None else []
    if loader == "NdArrayNode":
        return [*state["content"], state["shape"]] if state["type"] == "json" else []
    if loader == "RandomGeneratorNode":
        return [state["content"]["bit_generator"], state["content"]["seed_seq"]]
    if loader == "LossNode":
        return [state["content"], state["__reduce__"]["args"]]
    return []


class _Reader:
    """One schema's audit (:meth:`check`) and construction (:meth:`build`); with
    ``substitutes`` (scikit-learn class name -> class), those classes are built instead."""

    def __init__(self, zf: zipfile.ZipFile, trusted: frozenset[str],
                 decoded: Mapping[str, np.ndarray] | None = None,
                 substitutes: Mapping[str, type] | None = None) -> None:
        self.zf = zf
        self.substitutes = substitutes or {}
        self.trusted = trusted
        self.decoded = decoded or {}   # member -> its bytes, decoded by an earlier process
        self.fresh: dict[str, bytes] = {}   # compressed members decoded here (to keep)
        self.first: dict[int, dict[str, Any]] = {}   # __id__ -> the state skops keeps
        self.built: dict[int, Any] = {}
        self.files: dict[str, tuple[bytes, np.dtype, tuple[int, ...], bool, int]] = {}

    def check(self, root: dict[str, Any]) -> None:
        """Raise :class:`Unsupported` unless every node is of a kind and type this reader
        trusts (walked as skops walks it: a repeated ``__id__`` is the first one's node)."""
        stack = [root]
        while stack:
            state = stack.pop()
            if not isinstance(state, dict) or "__loader__" not in state:
                raise Unsupported("malformed node")
            sid = state.get("__id__")
            if sid:
                if sid in self.first:
                    continue
                self.first[sid] = state
            loader = state["__loader__"]
            if loader == "JsonNode":
                continue
            if loader == "CachedNode":
                raise Unsupported("CachedNode")
            name = f"{state['__module__']}.{state['__class__']}"
            try:
                allowed = name in self.trusted or name in _default_trust(loader)
            except KeyError:
                raise Unsupported(f"node kind {loader}") from None
            if not allowed:
                raise Unsupported(f"type {name}")
            if loader == "NdArrayNode" and state["type"] not in ("numpy", "json"):
                raise Unsupported(f"array type {state['type']}")
            if loader == "RandomGeneratorNode":
                gen = state["content"]["bit_generator"]["content"]["bit_generator"]
                if gen.get("__loader__") != "JsonNode" or \
                        json.loads(gen["content"]) not in _BIT_GENERATORS:
                    raise Unsupported("bit generator")
            if loader == "LossNode":
                args = state["__reduce__"]["args"]
                if args.get("__loader__") != "TupleNode":
                    raise Unsupported("loss arguments")
            # children pushed in reverse: popped (and memoised) in skops' order
            stack.extend(reversed(_children(state)))

    def _array(self, file: str) -> np.ndarray:
        """A new array with the contents of ``file`` (``np.load``'s result; its header
        parsed once per file however many nodes name it)."""
        got = self.files.get(file)
        if got is None:
            data = self.decoded.get(file)
            if data is None:
                data = self.zf.read(file)
                if self.zf.getinfo(file).compress_type != zipfile.ZIP_STORED and \
                        len(data) >= _KEEP_DECODED_BYTES:
                    self.fresh[file] = data
            fp = io.BytesIO(data)
            version = np.lib.format.read_magic(fp)
            header = {(1, 0): np.lib.format.read_array_header_1_0,
                      (2, 0): np.lib.format.read_array_header_2_0}.get(version)
            if header is None:
                raise Unsupported(f"{file}: npy format {version}")
            shape, fortran, dtype = _read_header(header, fp)
            if dtype.hasobject:
                raise Unsupported(f"{file}: object array")
            got = self.files[file] = (data, dtype, shape, fortran, fp.tell())
        data, dtype, shape, fortran, offset = got
        count = int(np.prod(shape, dtype=np.int64))
        flat = np.frombuffer(data, dtype=dtype, count=count, offset=offset).copy() \
            if count else np.empty(0, dtype=dtype)
        if fortran:
            flat.shape = shape[::-1]
            return flat.transpose()
        flat.shape = shape
        return flat

    def build(self, state: dict[str, Any]) -> Any:
        """The object of ``state``, as ``skops.io`` constructs it."""
        sid = state.get("__id__")
        if sid:
            if sid in self.built:
                return self.built[sid]
            state = self.first[sid]
        obj = self._construct(state)
        if sid:
            self.built[sid] = obj
        return obj

    def _class(self, module: str, name: str) -> Any:
        return self.substitutes.get(f"{module}.{name}") or _import(module, name)

    def _construct(self, state: dict[str, Any]) -> Any:
        loader, module, name = state["__loader__"], state["__module__"], state["__class__"]
        if loader == "JsonNode":
            return json.loads(state["content"])
        if loader == "TypeNode":
            return _import(module, name)
        if loader == "DictNode":
            out = self._class(module, name)()
            key_types = self.build(state["key_types"])
            for k_type, (key, value) in zip(key_types, state["content"].items(),
                                            strict=False):   # as skops
                out[k_type(key)] = self.build(value)
            return out
        if loader == "ListNode":
            return _import(module, name)([self.build(v) for v in state["content"]])
        if loader == "TupleNode":
            cls = _import(module, name)
            content = tuple(self.build(v) for v in state["content"])
            return cls(*content) if _is_namedtuple(cls) else content
        if loader == "NdArrayNode":
            return self._ndarray(state)
        if loader == "ObjectNode":
            cls = self._class(module, name)
            instance = cls.__new__(cls)
            if state.get("content") is None:
                return instance
            attrs = self.build(state["content"])
            if attrs is not None:
                if hasattr(instance, "__setstate__"):
                    instance.__setstate__(attrs)
                else:
                    instance.__dict__.update(attrs)
            return instance
        if loader == "RandomGeneratorNode":
            return self._generator(state)
        if loader == "LossNode":
            args = self.build(state["__reduce__"]["args"])
            instance = self._class(module, name)(*args)
            attrs = self.build(state["content"])
            if attrs:
                if not hasattr(instance, "__setstate__"):
                    raise Unsupported(f"{module}.{name} without __setstate__")
                instance.__setstate__(attrs)
            return instance
        raise Unsupported(f"node kind {loader}")   # pragma: no cover (check refuses it)

    def _ndarray(self, state: dict[str, Any]) -> Any:
        if state["type"] == "numpy":
            content = self._array(state["file"])
            if f"{state['__module__']}.{state['__class__']}" != "numpy.ndarray":
                content = _import(state["__module__"], state["__class__"])(content)
            return content
        shape = self.build(state["shape"])
        items = [self.build(o) for o in state["content"]]
        if len(shape) == 1:
            out = np.ndarray(shape=len(items), dtype="O")
            for i, v in enumerate(items):
                out[i] = v
            return out
        return np.array(items, dtype="O")

    def _generator(self, state: dict[str, Any]) -> np.random.Generator:
        seed_seq = np.random.SeedSequence(**self.build(state["content"]["seed_seq"]))
        bit_state = self.build(state["content"]["bit_generator"])
        cls = getattr(np.random, bit_state["bit_generator"])
        if not (isinstance(cls, type) and issubclass(cls, np.random.BitGenerator)):
            raise Unsupported("bit generator")   # pragma: no cover (check refuses it)
        bit_generator = cls(seed_seq)
        bit_generator.state = bit_state
        return _import(state["__module__"], state["__class__"])(bit_generator=bit_generator)


def _import(module: str, name: str) -> Any:
    return getattr(importlib.import_module(module), name)


def _is_namedtuple(t: type) -> bool:
    b = t.__bases__
    fields = getattr(t, "_fields", None)
    return len(b) == 1 and b[0] is tuple and isinstance(fields, tuple) and \
        all(isinstance(n, str) for n in fields)


def read(file: str | Path | bytes, trusted: Iterable[str], *, predictors: bool = False) -> Any:
    """The object in a skops file (path or bytes), built by this reader; raises
    :class:`Unsupported` (before building anything) where it does not handle the file.

    ``predictors``: build relx's stand-ins (:mod:`relx.learn.predictors`: the same state,
    scikit-learn's predictions without importing scikit-learn) for the scikit-learn classes
    they replace, or the scikit-learn objects for the whole file where one stand-in cannot
    take its object's state (``NotImplementedError``). What such a model predicts equals
    the scikit-learn objects' predictions; it is not refitted (saving it writes
    scikit-learn's objects again: :func:`relx.learn.predictors.to_sklearn`)."""
    from relx import array_cache

    raw = bytes(file) if isinstance(file, bytes | bytearray) else Path(file).read_bytes()
    entry = "skops-" + array_cache.digest(raw, array_cache.code_version(__file__))
    with zipfile.ZipFile(io.BytesIO(raw)) as zf:
        try:
            schema = json.loads(zf.read("schema.json"))
        except (KeyError, ValueError) as exc:
            raise Unsupported(f"schema: {exc}") from None
        if not isinstance(schema, dict) or schema.get("protocol") != PROTOCOL:
            raise Unsupported("protocol")
        substitutes = None
        if predictors:
            from relx.learn.predictors import SUBSTITUTES as substitutes
        reader = _Reader(zf, frozenset(trusted), array_cache.load(entry), substitutes)
        try:
            reader.check(schema)
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            if isinstance(exc, Unsupported):
                raise
            raise Unsupported(f"malformed node: {exc!r}") from None
        try:
            built = reader.build(schema)
        except NotImplementedError:   # a setting no stand-in predicts: scikit-learn's
            if not reader.substitutes:
                raise
            reader.substitutes, reader.built = {}, {}
            built = reader.build(schema)
    if reader.fresh:   # with what was read back: an entry holds every member it kept
        array_cache.store_soon(entry, {**reader.decoded, **{
            k: np.frombuffer(v, np.uint8) for k, v in reader.fresh.items()}})
    return built


def load(file: str | Path | bytes, trusted: Iterable[str], *, predictors: bool = False) -> Any:
    """:func:`read` (``predictors`` as there), or ``skops.io.load`` / ``loads`` (same
    ``trusted``; scikit-learn's objects) for a file it does not handle; raises
    :class:`UntrustedTypes` where skops refuses the file's types."""
    trusted = list(trusted)
    try:
        return read(file, trusted, predictors=predictors)
    except Unsupported:
        pass
    import skops.io as sio
    from skops.io.exceptions import UntrustedTypesFoundException

    try:
        if isinstance(file, bytes | bytearray):
            return sio.loads(bytes(file), trusted=trusted)
        return sio.load(file, trusted=trusted)
    except UntrustedTypesFoundException as exc:
        raise UntrustedTypes(str(exc)) from None
