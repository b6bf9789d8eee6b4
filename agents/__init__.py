"""Players for pagadores-env: scripted heuristics, the exact-optimal player, trained models."""
