"""What tests read from the README: its Python snippets (shared by the env and package tests).
The table of a run's ``results.md`` is ``pagadores_train.run.reports.RESULTS_TABLE``."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TRAINING_STEPS = 300  # instead of the README's 10_000: enough to run one learn() through


def shortened(block: str) -> str:
    """A README block as the suite runs it: the training one shortened to a few hundred
    steps (the README says how long it takes as written)."""
    return block.replace(".learn(10_000)", f".learn({TRAINING_STEPS})")


def readme_snippets() -> list[str]:
    """The README's ```python blocks as the suite runs them (``shortened``)."""
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    return [shortened(block) for block in blocks]
