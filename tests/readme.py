"""What tests read from the README: its Python snippets (shared by the env and package tests).
The table of a run's ``results.md`` is ``pagadores_train.run.reports.RESULTS_TABLE``."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TRAINING_STEPS = 300  # instead of the README's 50_000: enough to run one learn() through


def readme_snippets() -> list[str]:
    """The README's ```python blocks, the training one shortened to a few hundred steps."""
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    return [block.replace(".learn(50_000)", f".learn({TRAINING_STEPS})") for block in blocks]
