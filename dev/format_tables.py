"""Rewrite the format tables of the README and docs/ from ``relx.io.registry.FORMATS``.

    python dev/format_tables.py           # rewrite every marked table
    python dev/format_tables.py --check   # exit 1 when a page's table is out of date
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from relx.io.format_docs import BEGIN, regenerate  # noqa: E402


def pages() -> list[Path]:
    """The pages holding a marked formats table."""
    return [p for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
            if BEGIN in p.read_text("utf-8")]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="only say which pages differ")
    a = ap.parse_args(argv)
    stale = []
    for page in pages():
        text = page.read_text("utf-8")
        new = regenerate(text)
        if new != text:
            stale.append(page.relative_to(ROOT))
            if not a.check:
                page.write_text(new, "utf-8")
    for page in stale:
        print(f"{page}: {'out of date' if a.check else 'rewritten'}")
    return 1 if a.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
