"""``pagadores serve`` (issue 48): without the ``web`` extra one line naming what to install;
with it, the URL with the port actually bound (``--port 0``), the page and its API answering
there, a warning and a token for a host beyond this machine, and Ctrl-C ending it in one line
with the live games saved."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from pagadores_cli import serve as serve_command
from pagadores_cli.main import main
from tests.processes import within

URL = re.compile(r"(http://\S+/)(\?token=\S+)?")


def test_without_the_web_extra_it_names_the_install_in_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    real = serve_command.importlib.util.find_spec
    monkeypatch.setattr(serve_command.importlib.util, "find_spec",
                        lambda name: None if name == "starlette" else real(name))
    assert main(["serve", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install 'pagadores-env[web]'" in err


def serve(args: list[str], folder: Path) -> tuple[subprocess.Popen, str, str]:
    """``pagadores serve ARGS`` in a subprocess; its URL and its first line of output."""
    pytest.importorskip("uvicorn")
    out = folder / "stdout.txt"
    process = subprocess.Popen([sys.executable, "-m", "pagadores_cli.main", "serve", *args],
                               stdout=out.open("wb"), stderr=subprocess.PIPE)
    assert within(60, lambda: "pagadores serve: http" in out.read_text()), \
        process.stderr.read().decode() if process.poll() is not None else "no URL"
    text = out.read_text()
    return process, URL.search(text).group(0), text


def test_it_serves_on_the_port_it_bound_and_ctrl_c_saves_the_live_games(tmp_path: Path) -> None:
    records = tmp_path / "records"
    process, url, _ = serve(["--port", "0", "--records", str(records), "--runs",
                             str(tmp_path / "runs")], tmp_path)
    try:
        assert url.startswith("http://127.0.0.1:") and not url.endswith(":0/")
        with urllib.request.urlopen(url) as page:
            assert b"<title>" in page.read()
        body = json.dumps({"game": "pagadores", "players": 2, "seat": 0,
                           "opponents": ["sensible"]}).encode()
        request = urllib.request.Request(url + "api/games", data=body, method="POST", headers={
            "Content-Type": "application/json", "Origin": url.rstrip("/")})
        with urllib.request.urlopen(request) as answer:
            assert answer.status == 201
        process.send_signal(signal.SIGINT)
        code = process.wait(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    err = process.stderr.read().decode()
    assert code == 130 and err.strip().splitlines()[-1] == "pagadores serve: interrupted"
    assert len(list(records.glob("*.json"))) == 1  # the unfinished game, saved on the way out


def test_another_host_is_warned_about_and_needs_the_token(tmp_path: Path) -> None:
    process, url, text = serve(["--host", "0.0.0.0", "--port", "0", "--records",
                                str(tmp_path)], tmp_path)
    try:
        assert text.startswith("warning: ") and "token" in text.splitlines()[0]
        bare, token = url.split("?")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(bare.replace("0.0.0.0", "127.0.0.1") + "api/catalog")
        assert refused.value.code == 403
        with urllib.request.urlopen(bare.replace("0.0.0.0", "127.0.0.1") + "api/catalog?"
                                    + token) as answer:
            assert answer.status == 200
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=60)
