"""Suite-wide test settings.

Hypothesis runs derandomized and without an example database, so every run of the suite
(local or CI) tries the same examples and a failure reproduces bit for bit. Set
``HYPOTHESIS_PROFILE=explore`` to search with fresh random examples instead.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
)
settings.register_profile("explore", deadline=None, max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
