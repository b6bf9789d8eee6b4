"""Opening the ``.npz`` files the solver keeps (its solutions) and the search player's value
nets and learner states are kept in: ``open_npz`` refuses a file that is no ``.npz`` archive
in words of its own. ``numpy.load`` reads such a file as a pickle and, refused that, advises
loading it "unsafely using the allow_pickle= keyword argument": advice never to pass on about
a file the program did not write (unpickling runs whatever code the file holds).
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np

#: Why a file is no ``.npz`` archive, for the loaders' one-line errors.
NOT_NPZ = "not an .npz file (no zip archive; damaged or cut off?)"


def open_npz(path: str | Path) -> np.lib.npyio.NpzFile:
    """``numpy.load`` of the ``.npz`` archive at ``path``, arrays only (no pickles);
    ``FileNotFoundError`` if there is no such file, ``ValueError`` (``NOT_NPZ``) if it is no
    zip archive."""
    path = Path(path)
    with path.open("rb"):  # a missing file is numpy's FileNotFoundError, as before
        pass
    if not zipfile.is_zipfile(path):
        raise ValueError(NOT_NPZ)
    return np.load(path, allow_pickle=False)
