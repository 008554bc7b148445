"""What the format table says of itself, for help texts and the docs' format tables.

The docs' tables are generated between two markers and checked by a test
(``tests/test_format_docs.py``); ``python dev/format_tables.py`` rewrites them::

    <!-- formats table: jats pdf ... (none: every format) -->
    | format | ... |
    <!-- end of formats table -->
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from relx.io.registry import FORMATS, Format

BEGIN = "<!-- formats table"
END = "<!-- end of formats table -->"
_BLOCK = re.compile(rf"({re.escape(BEGIN)}(?P<names>[^>]*?)-->\n)(.*?)({re.escape(END)})",
                    re.S)


def names(where: Callable[[Format], object]) -> list[str]:
    """The names of the rows ``where`` holds for, in table order."""
    return [f.name for f in FORMATS.values() if where(f)]


def readable() -> list[str]:
    """The formats relx reads (``--input-format``)."""
    return names(lambda f: f.reader)


def with_mentions() -> list[str]:
    """The formats whose documents carry their own entity mentions."""
    return names(lambda f: f.reader and f.mentions)


def streams() -> list[str]:
    """The formats ``relx parse --format`` writes."""
    return names(lambda f: f.stream)


def taking(kinds: Iterable[str]) -> list[str]:
    """The batch output formats taking one of the item ``kinds`` (``relx extract --format``)."""
    kinds = tuple(kinds)
    return names(lambda f: any(k in f.parts for k in kinds))


def label(name: str) -> str:
    """The description of format ``name`` without its closing parenthesis (a short label)."""
    return re.sub(r" \([^()]*\)$", "", FORMATS[name].description)


def _code(xs: Iterable[str]) -> str:
    return ", ".join(f"`{x}`" for x in xs)


def _test_doc(f: Format) -> str:
    """The content test of ``f`` as its docstring says it (after ``Name:``)."""
    doc = (f.sniff.__doc__ or "").split("\n\n")[0] if f.sniff else ""
    return " ".join(doc.partition(": ")[2].split()).rstrip(".").replace("``", "`")


def files_cell(f: Format) -> str:
    """How files of ``f`` are named and told apart."""
    if f.xml_roots:
        return (f"XML ({_code(f.suffixes)}) whose root is "
                f"{' or '.join(f'`<{r}>`' for r in f.xml_roots)}")
    if f.companions:
        return (f"{_code(f.suffixes)} with {_code(f.companions[:1])} beside it"
                + (f" (and {_code(f.companions[1:])})" if f.companions[1:] else ""))
    named = [s for s in f.suffixes if s in f.by_suffix or f.sniff is None]
    tested = [s for s in f.suffixes if s not in named]
    out = [_code(named)] if named else []
    if f.sniff is not None and f.reader:
        where = f"{_code(tested)} or no suffix" if tested else "no suffix"
        out.append(f"{where}, when {_test_doc(f)}")
    elif tested:
        out.append(_code(tested))
    return "; ".join(out) or "(a stream)"


def read_cell(f: Format) -> str:
    if f.reader is None:
        return ""
    cell = f"`{f.reader.replace(':', '.')}`"
    if f.options:
        cell += f" ({_code(f.options)})"
    return cell + ("; own mentions" if f.mentions else "")


def written_cell(f: Format) -> str:
    out = []
    if f.writer:
        out.append("`relx.io.write`" + (f" ({_code(f.write_suffixes)})" if f.write_suffixes
                                        else ""))
    if f.parts:
        out.append(f"`extract --format` ({', '.join(f.parts)}) -> `{f.output}`")
    if f.stream:
        out.append("`parse --format`")
    return "; ".join(out)


def format_table(which: Sequence[str] = ()) -> str:
    """The markdown table of the formats ``which`` (none: every format), in table order."""
    rows = [f for f in FORMATS.values() if not which or f.name in which]
    lines = ["| format | what | files | read by | written by |", "|---|---|---|---|---|"]
    for f in rows:
        cells = [f"`{f.name}`", f.description, files_cell(f), read_cell(f), written_cell(f)]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines) + "\n"


def regenerate(text: str) -> str:
    """``text`` with every marked formats table rewritten from :data:`FORMATS`."""
    return _BLOCK.sub(lambda m: m[1] + format_table(m["names"].lstrip(":").split()) + m[4],
                      text)
