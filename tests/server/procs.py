"""Real server processes for crash tests: start ``twentynine serve``, kill -9, start again."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx2


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    def __init__(self, data_dir: Path, port: int, database_url: str = "", redis_url: str = ""):
        self.data_dir = data_dir
        self.port = port
        self.database_url = database_url
        self.redis_url = redis_url
        self.proc: subprocess.Popen[bytes] | None = None
        self.url = f"http://127.0.0.1:{port}"

    def start(self) -> ServerProcess:
        env = {
            **os.environ,
            "TWENTYNINE_SECRET_KEY": "crash-test-secret",
            "TWENTYNINE_BOT_DELAY_MS": "0",
            "TWENTYNINE_NEXT_DEAL_SECONDS": "0.05",
            "TWENTYNINE_DATABASE_URL": self.database_url,
            "TWENTYNINE_REDIS_URL": self.redis_url,
        }
        log = open(self.data_dir / f"server-{self.port}.log", "ab")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "twentynine.cli",
                "serve",
                "--port",
                str(self.port),
                "--data-dir",
                str(self.data_dir),
                "--dev",
                "--log-level",
                "warning",
            ],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: see {self.data_dir}")
            try:
                if httpx2.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return self
            except httpx2.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError("server did not start in time")

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
