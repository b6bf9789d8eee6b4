"""Retired: the env is ``perudo_v1`` (``from pagadores_env import perudo_v1``). Importing this
module raises ``ImportError`` in one line saying so (``core.errors.retired``)."""

from ..core.errors import retired

raise retired("pagadores_env.perudo.perudo_v0", "pagadores_env.perudo_v1")
