"""``guts view ... --serve PORT``: the page written is the page served, only it, until Ctrl-C."""
from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from guts.engine.extensive import solve_lp
from guts.studies.solve_game import load_game

#: Seconds to wait for the server's first line and for its exit after Ctrl-C.
WAIT = 60


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_serve_gives_the_written_page_and_nothing_else(tmp_path):
    solve_lp(load_game("openspiel:kuhn_poker")).save(tmp_path / "kuhn.npz")
    proc = subprocess.Popen([sys.executable, "-m", "guts", "view", str(tmp_path / "kuhn.npz"), "--game",
                             "openspiel:kuhn_poker", "--serve", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        written = proc.stdout.readline().strip()           # the page's path, then the URL
        url = re.search(r"http://127\.0\.0\.1:\d+/", proc.stdout.readline()).group(0)
        page = (tmp_path / "kuhn.html").read_bytes()
        assert written.endswith("kuhn.html")
        assert urllib.request.urlopen(url, timeout=WAIT).read() == page
        assert urllib.request.urlopen(url + "kuhn.html", timeout=WAIT).read() == page
        with pytest.raises(urllib.error.HTTPError) as info:
            urllib.request.urlopen(url + "kuhn.npz", timeout=WAIT)
        assert info.value.code == 404
    finally:
        proc.send_signal(signal.SIGINT)
        code = proc.wait(WAIT)
    assert code == 130 and "Traceback" not in proc.stderr.read()


def test_a_port_in_use_is_one_line(tmp_path, capsys):
    from guts.cli import main

    solve_lp(load_game("openspiel:kuhn_poker")).save(tmp_path / "kuhn.npz")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        code = main(["view", str(tmp_path / "kuhn.npz"), "--game", "openspiel:kuhn_poker", "--serve", str(port)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and f"--serve {port}" in err[0]
