"""``pagadores serve``: play, watch and replay in the browser (``pagadores_web``). Without the
``web`` extra it says in one line what to install and exits with status 2."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections.abc import Sequence
from pathlib import Path

#: What the page needs beyond the package (the extra ``web``).
NEEDED = ("starlette", "uvicorn", "yaml")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pagadores serve",
        description="Play against agents, watch agents play and replay saved games in the "
                    "browser, served by one local process (docs: web.md).")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1, this machine only); "
                             "another one is warned about and gets a token in the URL")
    parser.add_argument("--port", type=int, default=8000,
                        help="port to listen on (default 8000; 0 picks a free one)")
    parser.add_argument("--runs", type=Path, default=Path("runs"),
                        help="run folders whose trained players and curves the page offers, "
                             "read-only (default runs)")
    parser.add_argument("--records", type=Path, default=Path("records"),
                        help="folder the finished games are saved into (default records)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    missing = [name for name in NEEDED if importlib.util.find_spec(name) is None]
    if missing:
        print(f"pagadores serve: error: the web page needs the web extra ({', '.join(missing)} "
              f"missing): pip install 'pagadores-env[web]'", file=sys.stderr)
        return 2
    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port must be 0–65535, got {args.port}")
    from pagadores_web.serve import serve

    serve(args.host, args.port, runs=args.runs, records=args.records)
    return 0
