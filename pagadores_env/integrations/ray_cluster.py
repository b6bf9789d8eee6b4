"""Joining a Ray cluster, or starting a local Ray, for the exact passes' and the benchmark's
Ray backends and RLlib training: one place for the call and its one-line errors (Ray is
imported only here, lazily)."""

from __future__ import annotations

import logging
import os
import re
import socket

#: Ray (since 2.5x) starts clusters with token authentication; a client that is not told so
#: fails to connect with only "Failed to connect", so the error says what to set.
AUTH_HINT = ("if the cluster uses token authentication (Ray's default for `ray start`), set "
             "RAY_AUTH_MODE=token here, with its token in ~/.ray/auth_token or RAY_AUTH_TOKEN")


#: Seconds to wait for a cluster's head to answer before saying nothing does (Ray itself
#: waits without end for a GCS address where nothing listens).
CONNECT_TIMEOUT_S = 10.0


def check_reachable(address: str, error: type[Exception]) -> None:
    """Raise ``error`` if ``HOST:PORT`` accepts no connection (other address forms, such as
    ``auto`` or ``ray://…``, are left to Ray)."""
    match = re.fullmatch(r"([\w.\-]+|\[[0-9a-fA-F:]+\]):(\d+)", address)
    if match is None:
        return
    host, port = match.group(1).strip("[]"), int(match.group(2))
    try:
        socket.create_connection((host, port), timeout=CONNECT_TIMEOUT_S).close()
    except OSError as err:
        raise error(f"cannot join Ray at {address}: nothing answers there ({err.strerror or err}"
                    "); start the cluster's head with `ray start --head` and give its "
                    "address") from None


def join_or_start(address: str | None, num_cpus: int | None,
                  error: type[Exception]) -> bool:
    """Join the Ray cluster at ``address`` (None: ``RAY_ADDRESS`` if set, else start a local
    Ray with ``num_cpus``), unless this process is already connected. True if this call
    connected (the caller then disconnects). Failing raises ``error`` with one line saying
    where and why."""
    try:
        import ray
    except ImportError:
        raise error("Ray is not installed: pip install 'pagadores-env[ray]'") from None
    if ray.is_initialized():
        return False
    joining = address or os.environ.get("RAY_ADDRESS")
    if joining:
        check_reachable(joining, error)
    try:
        # "local": a Ray of our own even where `ray start` left one running on this machine,
        # which address=None would join (ignoring num_cpus).
        ray.init(address=joining or "local", num_cpus=None if joining else num_cpus,
                 include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    except (ConnectionError, ValueError, RuntimeError) as err:
        reason = (str(err).strip().splitlines() or [type(err).__name__])[0]
        hint = f"; {AUTH_HINT}" if joining and "RAY_AUTH_MODE" not in os.environ else ""
        raise error(f"cannot {'join Ray at ' + joining if joining else 'start a local Ray'}: "
                    f"{reason}{hint}") from None
    return True
