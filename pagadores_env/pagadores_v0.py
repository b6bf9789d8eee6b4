"""Retired: the env is ``pagadores_v1`` (``from pagadores_env import pagadores_v1``). Importing this
module raises ``ImportError`` in one line saying so (``core.errors.retired``)."""

from .core.errors import retired

raise retired("pagadores_env.pagadores_v0", "pagadores_env.pagadores_v1")
