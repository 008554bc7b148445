"""Parse stage: lemmas, dependency graphs (corpus parses now, relx's own parser later)."""
