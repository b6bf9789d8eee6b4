"""What tests read from the repository's documents: the README's Python snippets and the table
of a ``results.md`` (shared by the env, CLI and package tests)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TRAINING_STEPS = 300  # instead of the README's 50_000: enough to run one learn() through
#: The final table in a run's ``results.md`` (and in the published ``docs/results`` files).
TABLE = re.compile(r"```text\n(?P<table>.*?)```", re.S)


def readme_snippets() -> list[str]:
    """The README's ```python blocks, the training one shortened to a few hundred steps."""
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    return [block.replace(".learn(50_000)", f".learn({TRAINING_STEPS})") for block in blocks]
