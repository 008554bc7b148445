"""Character spans of mentions, shared by the NER corpus builders."""

from __future__ import annotations

from collections.abc import Iterable

#: a mention's ``(start, end)`` character offsets, end-exclusive
CharSpan = tuple[int, int]


def select_spans(spans: Iterable[CharSpan]) -> tuple[list[CharSpan], int]:
    """Longest non-overlapping spans (ties: earlier start), sorted; and how many were dropped.

    Duplicates of a kept span count as dropped.
    """
    kept: list[CharSpan] = []
    dropped = 0
    for s, e in sorted(spans, key=lambda x: (-(x[1] - x[0]), x[0], x[1])):
        if e <= s or any(s < ke and ks < e for ks, ke in kept):
            dropped += 1
        else:
            kept.append((s, e))
    return sorted(kept), dropped
