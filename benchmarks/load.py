"""Table-socket load: N tables × 4 WebSocket players at a set pace, against a real server.

Starts ``twentynine serve`` as its own process (a fresh SQLite database in a temporary folder,
development mode for the sign-in outbox, a free loopback port) unless ``--url`` is given. For
each table, four accounts sign in through the real email-code flow (``/dev/outbox``), one opens a
public table and three join it (no bots: the clients play every move). Then every table's four
sockets connect, each player's live channel (``/ws/me``, as every signed-in page keeps one open;
``--no-live`` leaves them out) beside its table socket, and a pacer lets the tables act at R
actions per second in total: whenever a seat may act (and all four seats have the table's latest
state) it sends the first legal action of its view (``--order``: the table ready longest, or
any ready table at random). The clients' sockets are a browser's: they send no keepalive pings
of their own (``open_socket``), and answer the server's. Measured:

- actions/s achieved: actions sent in the measured window whose resulting state reached all four
  seats (within 10 s; later ones count as timeouts), over the window's length;
- latency: from sending an action to the moment all four seats of the table have the state it
  produced (p50/p95/p99 ms), for every action sent in the window, and the p99 of each 10 s and
  of each second of it;
- errors: error messages, disconnects and timeouts;
- memory: the server's RSS (``/proc/PID/status``) before the sockets connect and with all of them
  connected and idle, per connection (table sockets and live channels alike);
- the FLOOR: a bare WebSocket broadcast server (``websockets``, same process shape: one process,
  N groups of 4, the actor's message answered by a state of the same size to its 4 clients)
  driven by the same clients and pacer; printed as our p99 divided by the floor's. Like our
  server it pings only quiet sockets and keeps its connected sockets' objects out of the
  collector's passes (see ``floor_server``: without that, its p99 over a run was set by
  when its keepalive pings and a collector pass happened to fall);
- with ``--stack-floor``, the floor's same work served by our own socket stack (uvicorn with
  ``twentynine serve``'s WebSocket protocol and synchronous write, a bare ASGI app in place of
  ours: ``stack_floor_server``), driven alike: what our stack costs against the floor, and what
  the tables' own work costs against the stack.

Everything stays on the loopback interface (sign-in requests are spread over loopback source
addresses 127.x.y.z because the server allows 30 sign-ins an hour per client address); every loop
is bounded in count and time.

    uv run python benchmarks/load.py [--tables N] [--rate R] [--seconds S] [--order fifo|random]
        [--json] [--url URL]
        [--pid PID] [--no-floor] [--stack-floor] [--no-compression] [--no-live]
        [--profile cpu|memory|timing] [--next-deal S] [--steadiness S]
        [--server-cpu N] [--client-cpu N]

``--server-cpu N --client-cpu M`` hold each server (ours, then the floor) to CPU N and this
client to CPU M, so that the client's work and the server's do not take turns on the same
core; by default each may run on any.

``--profile cpu`` runs the same app under cProfile, from the moment every socket is connected
until the measured window's last action is in (not the sockets closing after it), in a wrapper
process instead of ``twentynine serve`` (``--profile memory``: tracemalloc snapshots
before and after the sockets connect) and prints where the time (or the memory) goes, and the
time the garbage collector held the loop. ``--profile timing`` runs no profiler: it prints where
an action's latency goes (how long a message waits for its socket's reader, how long a
player's move takes from there until its states are written, how long a change waits for the
table store's writer, the writer's transactions, how late the event loop runs its timers, the
collector's pauses, each long one's CPU time, the CPU of each of the server's threads, the
statements run through SQLAlchemy, what the event loop's thread ran while the loop was held
up, sampled: ``StallSampler``)
and, for the first middle-generation passes, what they walk: objects by type, the
references followed by type, what made them (a coroutine's code, a timer's callback) and the
largest containers.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import gc
import json
import os
import platform
import random
import re
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
import orjson
import websockets
from websockets.asyncio.client import ClientConnection, connect

CODE = re.compile(r"code is (\d{6})")
SIGNINS_PER_ADDRESS = 25  # the server allows 30 an hour per client address
#: how long the setup's HTTP connections are kept for reuse while idle: well below the server's
#: own keep-alive (uvicorn's ``timeout_keep_alive``, 5 s), which closes an idle connection
#: just as the client may send on it again (httpx2's default, 5 s too: a setup once ended in
#: ``httpx2.ReadError`` part-way through its sign-ins)
KEEPALIVE_EXPIRY = 2.0
ACTION_TIMEOUT = 10.0  # an action whose state has not reached all four seats by then
PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


# -- the server process -------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def raise_open_files(wanted: int) -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard == resource.RLIM_INFINITY else min(max(soft, wanted), hard)
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return int(resource.getrlimit(resource.RLIMIT_NOFILE)[0])


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def _hold_to(cpu: int) -> Callable[[], None]:
    """For ``Popen``'s ``preexec_fn``: the child, and every thread it starts, on ``cpu`` only."""

    def hold() -> None:
        os.sched_setaffinity(0, {cpu})

    return hold


class Process:
    """A child process on a loopback port, stopped (SIGTERM, then SIGKILL) on exit; held to
    ``cpu`` when one is given (``--server-cpu``)."""

    def __init__(
        self, argv: list[str], port: int, env: dict[str, str], log: Path, cpu: int | None = None
    ) -> None:
        self.port = port
        self.log = log
        self.proc = subprocess.Popen(
            argv,
            env=env,
            stdout=log.open("ab"),
            stderr=subprocess.STDOUT,
            cwd=Path.cwd(),
            preexec_fn=None if cpu is None else _hold_to(cpu),
        )

    @property
    def pid(self) -> int:
        return self.proc.pid

    async def wait_ready(self, path: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        async with httpx2.AsyncClient(timeout=2) as c:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"the process exited; see {self.log}")
                with contextlib.suppress(httpx2.HTTPError):
                    if (await c.get(f"http://127.0.0.1:{self.port}{path}")).status_code == 200:
                        return
                await asyncio.sleep(0.2)
        raise RuntimeError(f"the process did not start in {timeout} s; see {self.log}")

    def signal(self, sig: int) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def start_server(
    data_dir: Path, port: int, next_deal: float, profile: str, cpu: int | None = None
) -> Process:
    env = {
        **os.environ,
        "TWENTYNINE_SECRET_KEY": uuid.uuid4().hex,
        "TWENTYNINE_NEXT_DEAL_SECONDS": str(next_deal),
        "TWENTYNINE_DATABASE_URL": "",
        "TWENTYNINE_REDIS_URL": "",
    }
    if profile:
        argv = [sys.executable, __file__, "--_profiled-server", profile]
        argv += ["--port", str(port), "--_data-dir", str(data_dir)]
    else:
        argv = [sys.executable, "-m", "twentynine.cli", "serve", "--port", str(port)]
        argv += ["--data-dir", str(data_dir), "--dev", "--log-level", "warning"]
    return Process(argv, port, env, data_dir / "server.log", cpu)


class GcPauses:
    """Time the cyclic garbage collector holds the loop, by generation (``gc.callbacks``)."""

    def __init__(self) -> None:
        import gc

        self.reset()
        self._start = 0.0
        self._cpu_start = 0.0
        self.on = True
        gc.callbacks.append(self._callback)

    def stop(self) -> None:
        self.on = False

    def reset(self) -> None:
        self.on = True
        self.seconds = 0.0
        self.longest = 0.0
        self.runs = [0, 0, 0]
        self.by_generation = [0.0, 0.0, 0.0]
        self.longest_by_generation = [0.0, 0.0, 0.0]
        #: (perf_counter at the end, generation, seconds) of the pauses over 10 ms
        self.long: list[tuple[float, int, float]] = []
        #: what each of those pauses found unreachable and freed, and the CPU time it took
        self.collected: list[tuple[int, float]] = []
        self.details: list[list[tuple[str, int]]] = []
        #: what the first middle-generation passes walk: (objects, the commonest types)
        self.census: list[
            tuple[int, list[tuple[str, int]], list[tuple[str, int]], list[tuple[int, str]]]
        ] = []

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if not self.on:
            return
        if phase == "start":
            if info["generation"] == 1 and len(self.census) < 3:
                self._count_young()  # before the clock starts: not part of the pause
            self._start = time.perf_counter()
            self._cpu_start = time.thread_time()
            return
        pause = time.perf_counter() - self._start
        cpu = time.thread_time() - self._cpu_start
        generation = info["generation"]
        self.seconds += pause
        self.longest = max(self.longest, pause)
        self.runs[generation] += 1
        self.by_generation[generation] += pause
        self.longest_by_generation[generation] = max(self.longest_by_generation[generation], pause)
        if pause > 0.01:
            self.long.append((time.perf_counter(), generation, pause))
            self.collected.append((info.get("collected", 0), round(cpu * 1000, 1)))

    def _count_young(self) -> None:
        """The objects a middle-generation pass is about to walk (generations 0 and 1), by
        type."""
        import gc

        found: Counter[str] = Counter()
        reach: Counter[str] = Counter()
        biggest: list[tuple[int, str]] = []
        detail: Counter[str] = Counter()
        for g in (0, 1):
            for o in gc.get_objects(g):
                name = type(o).__qualname__
                n = len(gc.get_referents(o))
                detail[f"{name}:{_detail(o)}"] += 1
                found[name] += 1
                reach[name] += n
                if n > 500:
                    biggest.append((n, f"{name}:{_describe(o)}"))
        biggest.sort(reverse=True)
        self.details.append(detail.most_common(40))
        self.census.append(
            (sum(found.values()), found.most_common(8), reach.most_common(8), biggest[:8])
        )

    def describe(self) -> str:
        lines = [
            f"garbage collector: {self.seconds:.3f} s in {sum(self.runs)} passes "
            f"(generations 0/1/2: {'/'.join(map(str, self.runs))} passes, "
            f"{'/'.join(f'{t * 1000:.0f}' for t in self.by_generation)} ms in all, longest "
            f"{'/'.join(f'{t * 1000:.1f}' for t in self.longest_by_generation)} ms)"
        ]
        for total, common, reach, biggest in self.census:
            kinds = ", ".join(f"{name} {n}" for name, n in common)
            lines.append(f"  a middle pass walked {total} objects: {kinds}")
            lines.append(f"    long pauses (objects freed, this thread's CPU ms): {self.collected}")
            kinds = ", ".join(f"{name} {n}" for name, n in reach)
            lines.append(f"    references followed, by type: {kinds}")
            lines.append("    details: " + "; ".join(f"{k} {n}" for k, n in self.details[0]))
            if biggest:
                kinds = ", ".join(f"{name} {n}" for n, name in biggest)
                lines.append(f"    the largest: {kinds}")
        return "\n".join(lines)


def _detail(o: Any) -> str:
    """What made an object: a coroutine's or frame's code, a timer's callback."""
    try:
        if hasattr(o, "cr_code"):
            return str(o.cr_code.co_qualname)
        if hasattr(o, "gi_code"):
            return str(o.gi_code.co_qualname)
        if hasattr(o, "f_code"):
            return str(o.f_code.co_qualname)
        if hasattr(o, "_callback"):
            return getattr(o._callback, "__qualname__", type(o._callback).__qualname__)
        if isinstance(o, list) and o:
            return "[" + type(o[0]).__qualname__ + f"]x{len(o)}"
        if isinstance(o, dict):
            return "{" + ",".join(list(map(str, o))[:3]) + "}"
        if hasattr(o, "__func__"):
            return str(o.__func__.__qualname__)
        if isinstance(o, tuple):
            return "(" + ",".join(type(i).__qualname__ for i in o[:3]) + ")"
    except Exception:
        return "?"
    return ""


def _describe(o: object) -> str:
    """A short hint of what a large container holds (its first items' types)."""
    try:
        items = list(o.values())[:3] if isinstance(o, dict) else list(o)[:3]  # type: ignore[call-overload]
    except Exception:
        return "?"
    return "/".join(type(i).__qualname__ for i in items)


class StallSampler:
    """What the event loop's thread runs while the loop is held up: a heartbeat on the loop
    every ``beat`` seconds, and a profiling timer (``SIGPROF``, every ``every`` seconds of the
    process's CPU) whose handler, when the last beat is over ``after`` seconds old, counts the
    stack it interrupted. The handler runs on the main thread (the event loop's, in the
    server) at its next bytecode, so a long call into C (SQLite, a socket write) is counted
    where it returns: no call is favoured for releasing the interpreter's lock, as a sampling
    thread would favour it. Start and stop it on the main thread."""

    def __init__(self, after: float = 0.015, every: float = 0.002, beat: float = 0.002) -> None:
        self.after, self.every, self.interval = after, every, beat
        self.stacks: Counter[tuple[str, ...]] = Counter()
        self.on = False
        self.last_beat = 0.0
        self.previous: Any = None

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self.on = True

        def beat() -> None:
            self.last_beat = time.perf_counter()
            if self.on:
                loop.call_later(self.interval, beat)

        beat()
        self.previous = signal.signal(signal.SIGPROF, self._sample)
        signal.setitimer(signal.ITIMER_PROF, self.every, self.every)

    def stop(self) -> None:
        if self.on:
            self.on = False
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, self.previous or signal.SIG_DFL)

    def _sample(self, _signum: int, frame: Any) -> None:
        if not self.on or time.perf_counter() - self.last_beat <= self.after:
            return
        stack: list[str] = []
        while frame is not None and len(stack) < 60:
            code = frame.f_code
            stack.append(f"{_short_path(code.co_filename)}:{code.co_name}")
            frame = frame.f_back
        self.stacks[tuple(reversed(stack))] += 1

    def describe(self, most: int = 15) -> str:
        total = sum(self.stacks.values())
        if not total:
            return "the loop held up: no samples"
        leaves: Counter[str] = Counter()
        within: Counter[str] = Counter()
        for stack, n in self.stacks.items():
            leaves[stack[-1]] += n
            for frame in set(stack):
                within[frame] += n
        return "\n".join(
            [
                f"the loop held up over {self.after * 1000:.0f} ms: {total} samples of its thread",
                "  running (innermost frame):",
                *(f"  {n:6d}  {f}" for f, n in leaves.most_common(most)),
                "  within (any frame of the stack):",
                *(f"  {n:6d}  {f}" for f, n in within.most_common(most * 2)),
            ]
        )


def _short_path(path: str) -> str:
    """A code file's path from the package (or the library) on."""
    for mark in ("/twentynine/", "/site-packages/", "/lib/python"):
        if mark in path:
            return path[path.index(mark) + 1 :]
    return path


class Timing:
    """Where an action's latency goes, measured inside the server from ``start()`` on: how
    long a message read from a socket waits for its reader, a player's move (the reader's
    ``act``, until every state is written) and the two together; the table store's ``save``
    (a change handed in until its transaction committed), the writer's transactions (changes
    in each, seconds each), the deal records written at each deal's end, the SQLite writes
    made on the event loop's thread and the checkpoints, the event loop's lateness (a 10 ms
    timer's overshoot) and the garbage collector's pauses; then a timeline of the stalls over
    20 ms (10 ms for the collector, 5 ms for a write on the event loop's thread)."""

    def __init__(self) -> None:
        from twentynine.server.tables.store import TableStore

        self.on = False
        self.t0 = 0.0
        self.wall0 = 0.0
        self.saves: list[float] = []
        self.writes: list[tuple[int, int, float]] = []  # changes, deal records, seconds
        self.deals: list[float] = []
        self.inline: list[float] = []  # SQLite writes on the event loop's thread
        self.moves: list[float] = []  # a player's move, from its socket until all are sent
        #: within moves: a change's messages built and written (``Broadcast._broadcast``), and
        #: each frame's write to its socket (``send_now``: a table's state, a live message)
        self.broadcasts: list[float] = []
        self.frame_writes: list[float] = []
        #: a message's wait in the server: from its socket's frame read until its reader took it
        self.waits: list[float] = []
        #: a move's whole time in the server: from its frame read until every state is sent
        self.in_server: list[float] = []
        self.read_at = 0.0  # the frame the reader took last: read then
        self.checkpoints: list[float] = []
        self.lags: list[float] = []
        #: (perf_counter at the end, what, seconds)
        self.stalls: list[tuple[float, str, float]] = []
        self.gc = GcPauses()
        self.sampler = StallSampler()
        timing = self
        save, write, add_deal = TableStore.save, TableStore._write, TableStore.add_deal

        async def timed_save(store: TableStore, *args: Any, **kwargs: Any) -> None:
            t0 = time.perf_counter()
            try:
                await save(store, *args, **kwargs)
            finally:
                if timing.on:
                    timing.saves.append(time.perf_counter() - t0)

        async def timed_write(
            store: TableStore, batch: list[Any], deals: list[Any]
        ) -> tuple[set[int], list[int]]:
            t0 = time.perf_counter()
            try:
                return await write(store, batch, deals)
            finally:
                if timing.on:
                    took = time.perf_counter() - t0
                    timing.writes.append((len(batch), len(deals), took))
                    if took > 0.02:
                        what = f"transaction of {len(batch)} changes, {len(deals)} deal records"
                        timing.stalls.append((t0 + took, what, took))

        async def timed_add_deal(store: TableStore, *args: Any, **kwargs: Any) -> int:
            t0 = time.perf_counter()
            try:
                return await add_deal(store, *args, **kwargs)
            finally:
                timing.took(t0, timing.deals, "deal record")

        from twentynine.server.tables.sqlite_writer import SqliteWriter

        checkpoint = SqliteWriter._checkpoint

        def timed_inline(write: Callable[..., Any]) -> Callable[..., Any]:
            """``write`` (a write on the event loop's thread), timed."""

            def timed(writer: SqliteWriter, *args: Any, **kwargs: Any) -> Any:
                t0 = time.perf_counter()
                try:
                    return write(writer, *args, **kwargs)
                finally:
                    timing.took(t0, timing.inline, "write on the event loop's thread", over=0.005)

            return timed

        def timed_checkpoint(writer: SqliteWriter) -> None:
            t0 = time.perf_counter()
            try:
                checkpoint(writer)
            finally:
                timing.took(t0, timing.checkpoints, "checkpoint (the store's thread, alongside)")

        from twentynine.server.tables.runtime import TableRuntime

        act = TableRuntime.act

        async def timed_act(runtime: TableRuntime, *args: Any, **kwargs: Any) -> None:
            t0, read_at = time.perf_counter(), timing.read_at  # (its reader took it just now)
            cpu0 = time.thread_time()
            try:
                await act(runtime, *args, **kwargs)
            finally:
                cpu = (time.thread_time() - cpu0) * 1000  # the loop's, whatever task it ran
                what = f"a player's move (the loop's CPU meanwhile {cpu:.1f} ms)"
                timing.took(t0, timing.moves, what, over=0.005)
                if timing.on and read_at:
                    timing.in_server.append(time.perf_counter() - read_at)

        TableRuntime.act = timed_act  # type: ignore[method-assign]

        from twentynine.server.sockets import LeanWebSocketProtocol
        from twentynine.server.tables.broadcast import Broadcast

        broadcast, send_now = Broadcast._broadcast, LeanWebSocketProtocol.send_now

        def timed_broadcast(table: Broadcast, *args: Any, **kwargs: Any) -> None:
            t0 = time.perf_counter()
            try:
                broadcast(table, *args, **kwargs)
            finally:
                if timing.on:
                    timing.broadcasts.append(time.perf_counter() - t0)

        def timed_send_now(protocol: LeanWebSocketProtocol, text: bytes) -> bool:
            t0 = time.perf_counter()
            try:
                return send_now(protocol, text)
            finally:
                if timing.on:
                    timing.frame_writes.append(time.perf_counter() - t0)

        Broadcast._broadcast = timed_broadcast  # type: ignore[method-assign]
        LeanWebSocketProtocol.send_now = timed_send_now  # type: ignore[method-assign]

        from twentynine.server import heap

        retire = heap.retire
        self.retires: list[float] = []

        def timed_retire() -> None:
            t0 = time.perf_counter()
            try:
                retire()
            finally:  # every one into the timeline: when they come matters, not only how long
                timing.took(t0, timing.retires, "the collector's survivors retired", over=0.0)

        heap.retire = timed_retire

        from twentynine.server.sockets import Inbox

        put_nowait, get = Inbox.put_nowait, Inbox.get

        def stamped_put_nowait(inbox: Inbox, item: Any) -> None:
            if timing.on and isinstance(item, dict) and item.get("type") == "websocket.receive":
                item["load.read_at"] = time.perf_counter()
            put_nowait(inbox, item)

        async def timed_get(inbox: Inbox) -> Any:
            item = await get(inbox)
            if isinstance(item, dict):
                read_at = item.pop("load.read_at", None)
                if read_at is not None and timing.on:
                    timing.waits.append(time.perf_counter() - read_at)
                timing.read_at = read_at or 0.0
            return item

        Inbox.put_nowait = stamped_put_nowait  # type: ignore[method-assign]
        Inbox.get = timed_get  # type: ignore[method-assign]

        from sqlalchemy import event
        from sqlalchemy.engine import Engine

        #: the statements run through SQLAlchemy while on (each on a connection's own thread
        #: with aiosqlite), by their first words
        self.statements: Counter[str] = Counter()
        self.threads_at_start: dict[int, tuple[str, float]] = {}
        self.threads_at_stop: dict[int, tuple[str, float]] = {}

        @event.listens_for(Engine, "before_cursor_execute")
        def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            if timing.on:
                timing.statements[" ".join(statement.split())[:70]] += 1

        SqliteWriter.write_now = timed_inline(SqliteWriter.write_now)  # type: ignore[method-assign]
        SqliteWriter.write_one_now = timed_inline(SqliteWriter.write_one_now)  # type: ignore[method-assign]
        SqliteWriter._checkpoint = timed_checkpoint  # type: ignore[method-assign,assignment]
        TableStore.save = timed_save  # type: ignore[method-assign,assignment]
        TableStore._write = timed_write  # type: ignore[method-assign,assignment]
        TableStore.add_deal = timed_add_deal  # type: ignore[method-assign,assignment]

    def took(self, t0: float, times: list[float], what: str, over: float = 0.02) -> None:
        """While on: the time since ``t0`` into ``times``, and into the stalls when over
        ``over`` seconds."""
        if self.on:
            took = time.perf_counter() - t0
            times.append(took)
            if took > over:
                self.stalls.append((t0 + took, what, took))

    def start(self) -> None:
        self.on = True
        self.t0 = time.perf_counter()
        self.wall0 = time.time()  # to line the timeline up with other records of the run
        self.gc.reset()
        self.sampler.start()
        self.threads_at_start = thread_cpu()
        asyncio.get_running_loop().create_task(self._ticks())

    def stop(self) -> None:
        """The measured window is over (the sockets closing after it are not counted)."""
        self.on = False
        self.gc.stop()
        self.sampler.stop()
        self.threads_at_stop = thread_cpu()

    async def _ticks(self) -> None:
        loop = asyncio.get_running_loop()
        while self.on:
            t0, all0 = loop.time(), time.process_time()
            r0 = resource.getrusage(resource.RUSAGE_THREAD)
            await asyncio.sleep(0.01)
            lag = loop.time() - t0 - 0.01
            self.lags.append(lag)
            if lag > 0.02:
                # the CPU over the tick, the loop's thread's (in the kernel too, and the page
                # faults) and the process's: the loop's near the tick's length, it was busy;
                # far below, it waited: for another of our threads (the process's CPU higher),
                # or for the kernel's scheduler or a disk
                r1 = resource.getrusage(resource.RUSAGE_THREAD)
                cpu = (r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime) * 1000
                others = (time.process_time() - all0) * 1000 - cpu
                what = (
                    f"event loop late (CPU in the {(lag + 0.01) * 1000:.0f} ms: its own"
                    f" {cpu:.0f} ms, {(r1.ru_stime - r0.ru_stime) * 1000:.0f} of it in the"
                    f" kernel, {r1.ru_minflt - r0.ru_minflt} page faults,"
                    f" {r1.ru_nivcsw - r0.ru_nivcsw} times preempted;"
                    f" other threads' {others:.0f} ms)"
                )
                self.stalls.append((time.perf_counter(), what, lag))

    def describe(self) -> str:
        def ms(values: list[float]) -> str:
            if not values:
                return "none"
            return (
                ", ".join(
                    f"{name} {percentile(values, q) * 1000:.2f}"  # type: ignore[operator]
                    for name, q in (("p50", 50), ("p95", 95), ("p99", 99), ("max", 100))
                )
                + f" ms, mean {sum(values) / len(values) * 1e6:.0f} µs ({len(values)})"
            )

        sizes = [n for n, _, _ in self.writes]
        deals = [d for _, d, _ in self.writes if d]
        stalls = sorted(
            self.stalls + [(t, f"collector, generation {g}", p) for t, g, p in self.gc.long]
        )
        timeline = [
            f"  {t - self.t0:7.3f} s  {p * 1000:6.1f} ms  {what}" for t, what, p in stalls[:150]
        ]
        return "\n".join(
            [
                f"messages waiting (read from a socket until its reader took it): {ms(self.waits)}",
                f"moves (a socket's message until every state is sent): {ms(self.moves)}",
                f"moves from their frame's read until every state is sent: {ms(self.in_server)}",
                f"  within them, each change's messages built and written: {ms(self.broadcasts)}",
                f"  each frame written to its socket (send_now): {ms(self.frame_writes)}",
                f"store save (handed in until committed): {ms(self.saves)}",
                f"store transactions: {ms([t for _, _, t in self.writes])}; changes in each: "
                f"mean {sum(sizes) / max(1, len(sizes)):.1f}, max {max(sizes, default=0)}; "
                f"{len(deals)} with deal records (mean {sum(deals) / max(1, len(deals)):.1f})",
                f"deal records: {ms(self.deals)}",
                f"writes on the event loop's thread: {ms(self.inline)}",
                f"checkpoints (the store's thread): {ms(self.checkpoints)}",
                f"the collector's survivors retired (server/heap.py): {ms(self.retires)}",
                f"event loop lateness (10 ms timer): {ms(self.lags)}",
                self.gc.describe(),
                "CPU by thread in the window (s): "
                + ", ".join(
                    f"{name} {cpu - self.threads_at_start.get(tid, (name, 0.0))[1]:.2f}"
                    for tid, (name, cpu) in sorted(self.threads_at_stop.items())
                ),
                f"statements through SQLAlchemy ({sum(self.statements.values())}):",
                *(f"  {n:7d}  {text}" for text, n in self.statements.most_common(15)),
                f"stalls (from the run's start, {self.wall0:.3f} in Unix time;"
                f" {len(stalls)} in all):",
                *timeline,
                self.sampler.describe(),
            ]
        )


def thread_cpu() -> dict[int, tuple[str, float]]:
    """This process's threads: id -> (name, CPU seconds so far), from ``/proc`` (Linux)."""
    out: dict[int, tuple[str, float]] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for task in Path("/proc/self/task").iterdir():
        with contextlib.suppress(OSError, ValueError, IndexError):
            stat = (task / "stat").read_text()
            name = stat[stat.index("(") + 1 : stat.rindex(")")]
            fields = stat[stat.rindex(")") + 2 :].split()
            out[int(task.name)] = (name, (int(fields[11]) + int(fields[12])) / tick)
    return out


def profiled_server(kind: str, port: int, data_dir: Path) -> None:
    """The app of ``twentynine serve --dev`` under cProfile or tracemalloc (``--profile``)."""
    import cProfile
    import pstats
    import tracemalloc

    import uvicorn

    from twentynine.server.app import create_app
    from twentynine.server.cli import uvicorn_options
    from twentynine.server.settings import load_settings

    settings = load_settings(port=port, data_dir=data_dir, dev_mode=True)
    app = create_app(settings)
    out = data_dir / "profile"
    out.mkdir(exist_ok=True)
    if kind == "memory":
        tracemalloc.start(12)
        taken: list[tracemalloc.Snapshot] = []

        def snap(_sig: int, _frame: Any) -> None:
            taken.append(tracemalloc.take_snapshot())
            if len(taken) >= 2:
                diff = taken[-1].compare_to(taken[-2], "lineno")
                (out / f"memory-{len(taken)}.txt").write_text(
                    "\n".join(str(s) for s in diff[:40]) + "\n"
                )
                tb = taken[-1].compare_to(taken[-2], "traceback")
                lines: list[str] = []
                for s in tb[:12]:
                    lines.append(str(s))
                    lines += ["    " + x for x in s.traceback.format()[-12:]]
                (out / f"memory-{len(taken)}-tracebacks.txt").write_text("\n".join(lines) + "\n")
            (out / f"snapshot-{len(taken)}.done").write_text("")

        signal.signal(signal.SIGUSR1, snap)
        uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", **uvicorn_options())
        return
    # uvicorn raises a captured SIGTERM again once it has shut down: make that a no-op so the
    # profile below is written
    signal.signal(signal.SIGTERM, lambda _sig, _frame: None)
    if kind == "timing":
        timing = Timing()
        signal.signal(signal.SIGUSR1, lambda _sig, _frame: timing.start())
        signal.signal(signal.SIGUSR2, lambda _sig, _frame: timing.stop())
        try:
            uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", **uvicorn_options())
        finally:
            (out / "timing.txt").write_text(timing.describe() + "\n")
        return
    gc_pauses = GcPauses()
    prof = cProfile.Profile()

    def start_run(_sig: int, _frame: Any) -> None:
        """The profile covers the measured run only: it starts once every socket is in."""
        gc_pauses.reset()
        prof.enable()

    def end_run(_sig: int, _frame: Any) -> None:
        prof.disable()
        gc_pauses.stop()

    signal.signal(signal.SIGUSR1, start_run)
    signal.signal(signal.SIGUSR2, end_run)
    try:
        uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", **uvicorn_options())
    finally:
        prof.disable()
        prof.dump_stats(out / "cpu.prof")
        (out / "gc.txt").write_text(gc_pauses.describe() + "\n")
        with (out / "cpu.txt").open("w") as f:
            stats = pstats.Stats(prof, stream=f)
            stats.sort_stats("tottime").print_stats(45)
            stats.sort_stats("cumulative").print_stats(60)
            f.write(gc_pauses.describe() + "\n")


# -- the floor: a bare broadcast server ---------------------------------------------------------
def server_deflate() -> bool:
    """Does our server take per-message deflate when a client offers it? The floor does the
    same, so both send frames of the same size."""
    from twentynine.server.cli import uvicorn_options

    return bool(uvicorn_options()["ws_per_message_deflate"])


#: the keepalive interval of uvicorn's WebSocket (our server's), and of the floor's
PING_INTERVAL = 20.0


def floor_state(version: int, seat: int, pad: int) -> str:
    """A floor's state of about ``pad`` bytes for ``seat`` at ``version``: the seat to act
    (``version % 4``) has one legal move."""
    legal = '[{"act":"go"}]' if version % 4 == seat else "[]"
    view = f'{{"legal_json":{legal}}}'
    return f'{{"type":"state","version":{version},"view":{view},"pad":"{_filler(pad)}"}}'


@functools.cache
def _filler(pad: int) -> str:
    return "x" * max(0, pad - 90)


def settle() -> str:
    """Keep what connecting made out of the collector's passes (see ``floor_server``)."""
    gc.collect()
    gc.freeze()
    return f"{gc.get_freeze_count()} objects kept out\n"


def stack_floor_server(port: int, pad: int, ping_interval: float = PING_INTERVAL) -> None:
    """The floor's groups and answers (see ``floor_server``) served by our own socket stack:
    uvicorn with ``twentynine serve``'s options (``cli.uvicorn_options``: our WebSocket
    protocol, ``server/sockets.py``) and its synchronous write (``send_now``), a bare ASGI app
    in place of ours. Against the floor, it shows what the stack costs; against our server,
    what the tables' own work (the engine, the store, the views) costs. ``/settle`` does as
    the floor's does."""
    import uvicorn

    from twentynine.server.cli import uvicorn_options
    from twentynine.server.sockets import SEND_NOW

    groups: dict[str, dict[int, Any]] = {}  # group: seat -> the socket's send_now
    versions: dict[str, int] = {}

    def state(version: int, seat: int) -> bytes:
        return floor_state(version, seat, pad).encode()

    async def http(scope: dict[str, Any], send: Any) -> None:
        status, body = 404, b"not found\n"
        if scope["path"] == "/healthz":
            status, body = 200, b"ok\n"
        elif scope["path"] == "/settle":
            status, body = 200, settle().encode()
        await send({"type": "http.response.start", "status": status, "headers": []})
        await send({"type": "http.response.body", "body": body})

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        if scope["type"] == "http":
            await http(scope, send)
            return
        _, _, group_id, seat_text = scope["path"].split("/")
        seat = int(seat_text)
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        send_now = scope["extensions"][SEND_NOW]
        socks = groups.setdefault(group_id, {})
        socks[seat] = send_now
        version = versions.setdefault(group_id, 0)

        async def write(to: Any, text: bytes) -> None:  # at once, else as the ASGI send
            if not to(text):
                await send({"type": "websocket.send", "text": text.decode()})

        await write(send_now, state(version, seat))
        while True:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                socks.pop(seat, None)
                return
            version = versions[group_id]
            if json.loads(message.get("text") or "{}").get("version") != version or (
                version % 4 != seat
            ):
                await write(send_now, b'{"type":"error","reason":"stale"}')
                continue
            versions[group_id] = version = version + 1
            for other, to in list(socks.items()):
                if not to(state(version, other)):
                    log = "a state could not be written at once (the socket was slow)"
                    print(log, file=sys.stderr, flush=True)

    options = {**uvicorn_options(), "ws_ping_interval": ping_interval}
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", **options)


def floor_server(
    port: int, pad: int, compression: bool, ping_interval: float = PING_INTERVAL
) -> None:
    """Groups of 4 sockets at ``/g/{group}/{seat}``; the seat whose turn it is sends
    ``{"version": v}``; the server answers all four with a state of ``pad`` bytes.

    Two things the bare library does otherwise are done as our server does them, or the floor
    measures an accident of when its sockets connected rather than a broadcast:

    - keepalive pings go only to a socket quiet for half the interval, about once an interval,
      as our server's do (``server/sockets.py``), one timer looking at every socket (see
      ``keepalive``). The library pings every socket every interval, and the floor's 4,000
      sockets connect within 2 s, so each interval's pings came together: its second 10 s had
      a p99 of 1.8-2.1 ms and a longest action of 31-37 ms against 0.8-0.9 ms and 3-5 ms
      (three runs each);
    - ``GET /settle``, asked once the sockets are connected and before the measured window,
      keeps what connecting made out of the collector's passes (``gc.freeze``, as our server's
      ``heap.py`` keeps its start-up heap and retires what its sockets' readers hold). Without
      it, with the pings as above, a collector pass over those objects came within the first
      10 s of three runs of three: p99 81-95 ms there, the longest action 169-183 ms.
    """
    from websockets.asyncio.server import ServerConnection, serve

    groups: dict[str, dict[str, Any]] = {}
    heard: dict[ServerConnection, float] = {}  # when each socket last sent anything

    def state(version: int, seat: int) -> str:
        return floor_state(version, seat, pad)

    async def handler(ws: ServerConnection) -> None:
        assert ws.request is not None
        _, _, group_id, seat_text = ws.request.path.split("/")
        seat = int(seat_text)
        group = groups.setdefault(group_id, {"version": 0, "socks": {}})
        group["socks"][seat] = ws
        loop = asyncio.get_running_loop()
        heard[ws] = loop.time()
        try:
            await ws.send(state(group["version"], seat))
            async for raw in ws:
                heard[ws] = loop.time()
                await answer(ws, group, seat, raw)
        except websockets.ConnectionClosed:
            pass  # a client gone without a closing handshake
        finally:
            heard.pop(ws, None)
            pinged.pop(ws, None)

    async def keepalive() -> None:
        """Every tenth of the interval, a ping to each socket quiet for half the interval or
        more and not pinged for an interval: our server's rule, with one timer for all rather
        than one a socket (re-armed timers are objects that live an interval: the young
        collector passes grew to 4-11 ms with them, and one middle pass held the floor 28-30 ms
        in each of two runs)."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(ping_interval / 10)
            now = loop.time()
            for ws, at in heard.items():  # nothing here awaits: the dict stays as it is
                last = pinged.get(ws)
                if now - at >= ping_interval / 2 and (last is None or now - last >= ping_interval):
                    pinged[ws] = now
                    task = asyncio.ensure_future(ping(ws))
                    pinging.add(task)
                    task.add_done_callback(pinging.discard)

    pinged: dict[ServerConnection, float] = {}  # when each quiet socket was last pinged
    pinging: set[asyncio.Future[None]] = set()

    async def ping(ws: ServerConnection) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            await ws.ping()

    async def answer(ws: ServerConnection, group: dict[str, Any], seat: int, raw: Any) -> None:
        message = json.loads(raw)
        if message.get("version") != group["version"] or group["version"] % 4 != seat:
            await ws.send('{"type":"error","reason":"stale"}')
            return
        group["version"] += 1
        v = group["version"]
        for s, other in list(group["socks"].items()):
            with contextlib.suppress(websockets.ConnectionClosed):
                await other.send(state(v, s))

    async def main() -> None:
        pinger = asyncio.ensure_future(keepalive())
        stop = asyncio.get_running_loop().create_future()
        for sig in (signal.SIGTERM, signal.SIGINT):
            asyncio.get_running_loop().add_signal_handler(sig, stop.set_result, None)
        async with serve(
            handler,
            "127.0.0.1",
            port,
            compression="deflate" if compression else None,
            max_size=65536,
            process_request=_floor_health,
            ping_interval=None,  # its own, above
        ):
            await stop
        pinger.cancel()

    try:  # the event loop uvicorn runs our server on when uvloop is installed: the same here
        import uvloop

        uvloop.run(main())
    except ImportError:
        asyncio.run(main())


def run_client(main: Coroutine[Any, Any, dict[str, Any]]) -> dict[str, Any]:
    """The load client on uvloop when it is installed (as the servers run): a client that
    spends less on each message runs late less often, and its late ticks send bursts."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def _floor_health(connection: Any, request: Any) -> Any:
    if request.path == "/healthz":
        return connection.respond(200, "ok\n")
    if request.path == "/settle":  # see floor_server
        return connection.respond(200, settle())
    return None


# -- accounts and tables over HTTP ------------------------------------------------------------
class Accounts:
    """Signs accounts in through the email-code flow; requests are spread over loopback source
    addresses so the per-address sign-in limit is not reached."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.run = uuid.uuid4().hex[:8]
        self.prefix = f"127.{random.randrange(1, 255)}"
        self.transports: dict[str, httpx2.AsyncHTTPTransport] = {}
        self.count = 0
        self.outbox_lock = asyncio.Lock()

    def _transport(self, n: int) -> httpx2.AsyncHTTPTransport:
        """The connections of sign-in ``n``'s source address (see the module's note)."""
        k = n // SIGNINS_PER_ADDRESS
        address = f"{self.prefix}.{k // 250}.{2 + k % 250}"
        if address not in self.transports:
            self.transports[address] = httpx2.AsyncHTTPTransport(
                local_address=address, limits=httpx2.Limits(keepalive_expiry=KEEPALIVE_EXPIRY)
            )
        return self.transports[address]

    async def sign_in(self, name: str) -> httpx2.AsyncClient:
        n = self.count
        self.count += 1
        email = f"load-{self.run}-{n}@example.com"
        c = httpx2.AsyncClient(transport=self._transport(n), base_url=self.base_url, timeout=60)
        r = await c.post("/api/auth/email", json={"email": email, "first_name": name})
        r.raise_for_status()
        code = None
        for _ in range(50):
            mails = (await c.get("/dev/outbox")).json()
            code = next(
                (
                    CODE.search(m["body"])
                    for m in mails
                    if m["to"] == email and CODE.search(m["body"])
                ),
                None,
            )
            if code:
                break
            await asyncio.sleep(0.05)
        if code is None:
            raise RuntimeError(f"no sign-in mail for {email} (is the server in --dev mode?)")
        r = await c.post("/api/auth/code", json={"email": email, "code": code.group(1)})
        r.raise_for_status()
        return c

    async def post(self, c: httpx2.AsyncClient, path: str, body: dict[str, Any]) -> Any:
        csrf = c.cookies.get("tn_csrf") or ""
        r = await c.post(path, json=body, headers={"x-csrf-token": csrf})
        if r.status_code >= 400:
            raise RuntimeError(f"{path}: {r.status_code} {r.text}")
        return r.json()

    async def close(self) -> None:
        for t in self.transports.values():
            await t.aclose()


async def make_table(accounts: Accounts, i: int) -> tuple[str, list[str]]:
    """One account opens a public table, three join it; returns the table and four cookies."""
    clients = [await accounts.sign_in(f"P{i}s{k}") for k in range(4)]
    table = await accounts.post(
        clients[0],
        "/api/tables",
        # no turn clock: its stand-ins would play while the thousands of sockets connect, and
        # the benchmark measures the players' own actions
        {
            "kind": "public",
            "name": f"load {i}",
            "seats": ["me", "open", "open", "open"],
            "turn_seconds": 0,
        },
    )
    seats = [0]
    for c in clients[1:]:
        seats.append(int((await accounts.post(c, f"/api/tables/{table['id']}/join", {}))["seat"]))
    cookies = [""] * 4
    for c, s in zip(clients, seats, strict=True):
        cookies[s] = "; ".join(f"{k}={v}" for k, v in c.cookies.items())
    return str(table["id"]), cookies


async def bounded(items: list[Callable[[], Awaitable[Any]]], limit: int) -> list[Any]:
    sem = asyncio.Semaphore(limit)

    async def one(job: Callable[[], Awaitable[Any]]) -> Any:
        async with sem:
            return await job()

    return list(await asyncio.gather(*(one(j) for j in items)))


# -- the players --------------------------------------------------------------------------------
@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    #: when each of those actions was sent (perf_counter seconds), for the tail over time
    sent_at: list[float] = field(default_factory=list)
    #: when the measured window began (perf_counter seconds)
    started: float = 0.0
    sent: int = 0
    completed: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    disconnects: int = 0
    timeouts: int = 0
    missed_ticks: int = 0
    state_bytes: int = 0
    state_messages: int = 0
    measuring: bool = False
    #: how late the client's own event loop ran a 10 ms timer during the run (seconds): time
    #: the client adds to every latency it measures
    client_lags: list[float] = field(default_factory=list)
    #: the live channel (``/ws/me``, one per player): messages received by type, and drops
    live_messages: Counter[str] = field(default_factory=Counter)
    live_disconnects: int = 0
    closing: bool = False


async def open_socket(url: str, cookie: str, compression: bool) -> ClientConnection:
    """A client socket as a browser opens one: the session cookie (if any), deflate offered or
    not, and no keepalive pings of its own (browsers send none; each server pings its quiet
    sockets, and the client's library answers). With the library's default, a ping from
    every socket every 20 s, the servers answered 400 (ours, 8,000 sockets) and 200 (the
    floor) pings a second that no browser sends; the floor's 4,000 sockets connect within
    about 3 s, so its came all together, 3 s in every 20."""
    return await connect(
        url,
        additional_headers={"Cookie": cookie} if cookie else {},
        compression="deflate" if compression else None,
        open_timeout=60,
        max_size=1 << 20,
        ping_interval=None,
    )


class LivePage:
    """A player's live channel (``/ws/me``), open beside the table socket as a browser's page
    keeps it: it reads (and counts) what comes, and sends nothing."""

    def __init__(self, stats: Stats) -> None:
        self.stats = stats
        self.ws: ClientConnection | None = None
        self.reader: asyncio.Task[None] | None = None

    async def connect(self, url: str, cookie: str, compression: bool) -> None:
        self.ws = await open_socket(url, cookie, compression)
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for raw in self.ws:
                self.stats.live_messages[orjson.loads(raw).get("type", "?")] += 1
        except websockets.ConnectionClosed:
            pass
        if not self.stats.closing:
            self.stats.live_disconnects += 1


STATE_HEAD = b'{"type":"state","version":'
_VERSION = re.compile(rb'\{"type":"state","version":(\d+)[,}]')
_LEGAL = b'"legal_json":'


def read_state(raw: bytes) -> tuple[int, list[dict[str, Any]]] | None:
    """A state message's version and legal actions read without decoding the whole message,
    when it says it has none (``"legal_json":[]``, three seats in four) or no view; None when
    the message must be decoded (another kind, or legal actions to read). Both servers begin
    a state with its type and version and put the view's actions under ``legal_json``, so the
    client spends about the same on a state of either and its own work stays out of the
    comparison (decoding every state in full, the client took 48.8% of a core against our
    server and 30.9% against the floor's padding in one 60-s run each; reading so, 33.3% and
    29.6%)."""
    head = _VERSION.match(raw)
    if head is None:
        return None
    at = raw.find(_LEGAL)
    if at >= 0 and raw.startswith(b"[]", at + len(_LEGAL)):
        return int(head.group(1)), []
    if at < 0 and raw.endswith(b'"view":null}'):
        return int(head.group(1)), []
    return None


class Player:
    def __init__(self, table: Table, seat: int, full_parse: bool = False) -> None:
        self.table = table
        self.seat = seat
        #: decode every message in full (as before ``read_state``), for comparing the two
        self.full_parse = full_parse
        self.ws: ClientConnection | None = None
        self.version = -1
        self.legal: list[dict[str, Any]] = []
        self.reader: asyncio.Task[None] | None = None

    async def connect(self, url: str, cookie: str, compression: bool) -> None:
        self.ws = await open_socket(url, cookie, compression)
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.ws is not None
        stats = self.table.stats
        try:
            while True:
                raw = await self.ws.recv(decode=False)
                assert isinstance(raw, bytes)
                if stats.measuring and raw.startswith(STATE_HEAD):
                    stats.state_bytes += len(raw)
                    stats.state_messages += 1
                state = None if self.full_parse else read_state(raw)
                if state is not None:
                    self.version, self.legal = state
                    self.table.on_state(self)
                    continue
                message = orjson.loads(raw)
                kind = message.get("type")
                if kind == "state":
                    view = message.get("view")
                    self.version = int(message["version"])
                    self.legal = list(view.get("legal_json") or []) if view else []
                    self.table.on_state(self)
                elif kind == "error":
                    self.table.on_error(self, str(message.get("reason")))
        except websockets.ConnectionClosed:
            pass
        if not self.table.closing:
            stats.disconnects += 1


class Table:
    def __init__(
        self, key: str, stats: Stats, ready: deque[Table], full_parse: bool = False
    ) -> None:
        self.key = key
        self.stats = stats
        self.ready = ready
        self.players = [Player(self, s, full_parse) for s in range(4)]
        #: the action on its way: (the version it makes, sent at, seats reached, measured)
        self.inflight: tuple[int, float, int, bool] | None = None
        self.queued = False
        self.closing = False

    def on_state(self, player: Player) -> None:
        if self.inflight is not None:
            expected, sent_at, acks, measured = self.inflight
            if player.version >= expected:
                acks |= 1 << player.seat
                if acks == 0b1111:
                    self.inflight = None
                    if measured:
                        self.stats.latencies.append(time.perf_counter() - sent_at)
                        self.stats.sent_at.append(sent_at)
                        self.stats.completed += 1
                else:
                    self.inflight = (expected, sent_at, acks, measured)
        self.check_ready()

    def on_error(self, player: Player, reason: str) -> None:
        self.stats.errors[reason] += 1  # any error counts, in the measured window or not
        if self.inflight is not None:
            self.inflight = None
        self.check_ready()

    def check_ready(self) -> None:
        if self.inflight is not None or self.queued or self.closing:
            return
        version = self.players[0].version
        if any(p.version != version for p in self.players):
            return
        if any(p.legal for p in self.players):
            self.queued = True
            self.ready.append(self)

    async def act(self) -> None:
        self.queued = False
        actor = next((p for p in self.players if p.legal), None)
        if actor is None or actor.ws is None or self.inflight is not None:
            return
        version = actor.version
        message = json.dumps({"type": "act", "version": version, **actor.legal[0]})
        self.inflight = (version + 1, time.perf_counter(), 0, self.stats.measuring)
        if self.stats.measuring:
            self.stats.sent += 1
        try:
            await actor.ws.send(message)
        except websockets.ConnectionClosed:
            self.inflight = None

    def expire(self, now: float) -> None:
        if self.inflight is not None and now - self.inflight[1] > ACTION_TIMEOUT:
            self.inflight = None
            self.stats.timeouts += 1
            self.check_ready()


async def pace(
    ready: deque[Table], tables: list[Table], rate: float, seconds: float, order: str = "fifo"
) -> None:
    """Let ready tables act at ``rate`` actions/s in total for ``seconds``; ticks that find no
    table ready are counted as missed (owed ticks are kept for at most 100 ms).

    ``order``: which ready table acts next. ``fifo``, the one ready longest: every table moves
    in step with the others, so all their deals end within the same second (the worst case for
    the server, whose deal's end costs several actions' work). ``random``, any of them alike, as
    independent players act: the tables drift apart, as tables that did not all sit down in
    the same second do, and their deals end spread over seconds."""
    pick = random.Random(7)
    stats = tables[0].stats
    start = time.perf_counter()
    end = start + seconds
    issued = 0
    owed = 0.0
    cap = max(1.0, rate * 0.1)
    last = start
    last_expire = start
    while True:
        now = time.perf_counter()
        if now >= end:
            break
        owed += (now - last) * rate
        last = now
        if owed > cap:
            stats.missed_ticks += int(owed - cap)
            owed = cap
        while owed >= 1 and ready:
            owed -= 1
            issued += 1
            if order == "random":
                ready.rotate(-pick.randrange(len(ready)))
            await ready.popleft().act()
        if now - last_expire > 0.5:
            last_expire = now
            for t in tables:
                t.expire(now)
        await asyncio.sleep(min(0.005, 1 / rate))
    del issued


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


@dataclass
class RunResult:
    seconds: float
    stats: Stats
    rss_before_kib: int | None
    rss_idle_kib: int | None
    rss_after_kib: int | None
    connections: int
    live_sockets: int
    connect_seconds: float
    server_cpu_seconds: float | None
    client_cpu_seconds: float

    def summary(self) -> dict[str, Any]:
        s = self.stats
        ms = [x * 1000 for x in s.latencies]
        per_conn = None
        if self.rss_before_kib is not None and self.rss_idle_kib is not None:
            per_conn = round((self.rss_idle_kib - self.rss_before_kib) / self.connections, 2)
        return {
            "actions_per_s": round(s.completed / self.seconds, 1),
            "sent_per_s": round(s.sent / self.seconds, 1),
            "actions": s.completed,
            "latency_ms": {
                "p50": _round(percentile(ms, 50)),
                "p95": _round(percentile(ms, 95)),
                "p99": _round(percentile(ms, 99)),
                "max": _round(max(ms) if ms else None),
            },
            # the tail over time: p99 of the actions sent in each 10 s of the window
            "p99_ms_by_10s": by_window(s.sent_at, ms, s.started, 10.0),
            # and each second's (a tail from a few bad seconds, or from all of them)
            "p99_ms_by_1s": by_window(s.sent_at, ms, s.started, 1.0),
            "errors": {
                "messages": dict(s.errors),
                "disconnects": s.disconnects,
                "timeouts": s.timeouts,
            },
            "missed_ticks": s.missed_ticks,
            "state_message_bytes": round(s.state_bytes / s.state_messages)
            if s.state_messages
            else 0,
            "connections": self.connections,
            "live_sockets": self.live_sockets,
            "live_messages": dict(s.live_messages),
            "live_disconnects": s.live_disconnects,
            "connect_seconds": round(self.connect_seconds, 1),
            "rss_kib": {
                "before_sockets": self.rss_before_kib,
                "sockets_idle": self.rss_idle_kib,
                "after_run": self.rss_after_kib,
            },
            "kib_per_idle_connection": per_conn,
            "server_cpu_percent": None
            if self.server_cpu_seconds is None
            else round(100 * self.server_cpu_seconds / self.seconds, 1),
            "server_cpu_ms_per_action": None
            if self.server_cpu_seconds is None or not s.completed
            else round(1000 * self.server_cpu_seconds / s.completed, 2),
            "client_cpu_percent": round(100 * self.client_cpu_seconds / self.seconds, 1),
            "client_loop_late_ms": {
                q: _round(None if (v := percentile(s.client_lags, n)) is None else v * 1000)
                for q, n in (("p50", 50), ("p99", 99), ("max", 100))
            },
        }


def by_window(sent_at: list[float], ms: list[float], start: float, width: float) -> list[float]:
    """p99 of ``ms`` in each ``width`` seconds after ``start``, by when each action was sent."""
    windows: dict[int, list[float]] = {}
    for at, x in zip(sent_at, ms, strict=True):
        windows.setdefault(int((at - start) // width), []).append(x)
    return [_round(percentile(windows[k], 99)) or 0.0 for k in sorted(windows)]


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 2)


def client_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


async def client_ticks(stats: Stats) -> None:
    loop = asyncio.get_running_loop()
    while True:
        t0 = loop.time()
        await asyncio.sleep(0.01)
        stats.client_lags.append(loop.time() - t0 - 0.01)


async def drive(
    endpoints: list[list[tuple[str, str]]],
    live_url: str | None,
    pid: int | None,
    rate: float,
    seconds: float,
    compression: bool,
    before_idle: Callable[[], Awaitable[None]] | None = None,
    after_idle: Callable[[], Awaitable[None]] | None = None,
    after_run: Callable[[], None] | None = None,
    order: str = "fifo",
    full_parse: bool = False,
) -> RunResult:
    """Connect 4 sockets per table (``endpoints[table][seat]`` is its URL and cookie) and, with
    ``live_url``, each player's live channel beside it; measure idle memory, then play at
    ``rate`` for ``seconds``."""
    stats = Stats()
    ready: deque[Table] = deque()
    tables = [Table(str(i), stats, ready, full_parse) for i in range(len(endpoints))]
    rss_before = rss_kib(pid) if pid else None
    if before_idle is not None:
        await before_idle()
    t0 = time.perf_counter()
    jobs: list[Callable[[], Awaitable[Any]]] = [
        functools.partial(p.connect, four[p.seat][0], four[p.seat][1], compression)
        for table, four in zip(tables, endpoints, strict=True)
        for p in table.players
    ]
    pages: list[LivePage] = []
    if live_url is not None:
        for four in endpoints:
            for _, cookie in four:
                page = LivePage(stats)
                pages.append(page)
                jobs.append(functools.partial(page.connect, live_url, cookie, compression))
    await bounded(jobs, 64)
    connect_seconds = time.perf_counter() - t0
    await asyncio.sleep(3)  # idle: every first message read, nothing moving
    rss_idle = rss_kib(pid) if pid else None
    if after_idle is not None:
        await after_idle()
    for t in tables:
        t.check_ready()
    cpu0 = cpu_seconds(pid) if pid else None
    ccpu0 = client_cpu()
    # The client's own garbage collector stays out of the measured window: with 4000 sockets
    # its full passes held this loop for up to half a second, and every latency measured
    # then (of either server) would carry the pause. Nothing is collected for those seconds.
    gc.collect()
    gc.freeze()
    gc.disable()
    stats.measuring = True
    started = stats.started = time.perf_counter()
    ticker = asyncio.create_task(client_ticks(stats))
    try:
        await pace(ready, tables, rate, seconds, order)
    finally:
        elapsed = time.perf_counter() - started
        stats.measuring = False
        ticker.cancel()
    server_cpu = cpu_seconds(pid) - cpu0 if pid and cpu0 is not None else None
    ccpu = client_cpu() - ccpu0
    deadline = time.monotonic() + ACTION_TIMEOUT
    while any(t.inflight for t in tables) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    gc.enable()  # once the last actions measured are in
    gc.unfreeze()
    if after_run is not None:
        after_run()
    rss_after = rss_kib(pid) if pid else None
    for t in tables:
        t.closing = True
    stats.closing = True
    closers = [p.ws.close() for t in tables for p in t.players if p.ws is not None]
    closers += [page.ws.close() for page in pages if page.ws is not None]
    for chunk in range(0, len(closers), 256):
        await asyncio.gather(*closers[chunk : chunk + 256], return_exceptions=True)
    readers = [p.reader for t in tables for p in t.players if p.reader is not None]
    readers += [page.reader for page in pages if page.reader is not None]
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*readers, return_exceptions=True), 30)
    return RunResult(
        elapsed,
        stats,
        rss_before,
        rss_idle,
        rss_after,
        4 * len(tables) + len(pages),
        len(pages),
        connect_seconds,
        server_cpu,
        ccpu,
    )


# -- the two runs -------------------------------------------------------------------------------
async def run_ours(
    args: argparse.Namespace, work: Path, log: Callable[[str], None]
) -> dict[str, Any]:
    server: Process | None = None
    pid: int | None = args.pid
    base = args.url.rstrip("/") if args.url else ""
    out: dict[str, Any] = {}
    try:
        if not base:
            port = free_port()
            server = start_server(work, port, args.next_deal, args.profile or "", args.server_cpu)
            base = f"http://127.0.0.1:{port}"
            await server.wait_ready("/healthz")
            pid = server.pid
        log(f"server {base} (pid {pid}); signing in {4 * args.tables} accounts")
        accounts = Accounts(base)
        t0 = time.perf_counter()
        made = await bounded(
            [functools.partial(make_table, accounts, i) for i in range(args.tables)],
            args.setup_concurrency,
        )
        await accounts.close()
        out["setup_seconds"] = round(time.perf_counter() - t0, 1)
        log(f"{args.tables} tables ready in {out['setup_seconds']} s; connecting sockets")
        ws_base = base.replace("http://", "ws://", 1)
        endpoints = [
            [(f"{ws_base}/ws/tables/{table_id}", cookie) for cookie in cookies]
            for table_id, cookies in made
        ]
        profile_dir = work / "profile"

        def after_run() -> None:
            if server is not None and args.profile in ("cpu", "timing"):
                server.signal(signal.SIGUSR2)  # stop profiling: the run is over

        async def snapshot(n: int) -> None:
            if server is not None and args.profile in ("cpu", "timing") and n == 2:
                server.signal(signal.SIGUSR1)  # start profiling: the run begins
            if server is not None and args.profile == "memory":
                server.signal(signal.SIGUSR1)
                for _ in range(600):
                    if (profile_dir / f"snapshot-{n}.done").exists():
                        return
                    await asyncio.sleep(0.1)

        result = await drive(
            endpoints,
            None if args.no_live else f"{ws_base}/ws/me",
            pid,
            args.rate,
            args.seconds,
            not args.no_compression,
            lambda: snapshot(1),
            lambda: snapshot(2),
            after_run,
            args.order,
            args.full_parse,
        )
        out.update(result.summary())
    except Exception:
        if server is not None:
            tail = server.log.read_text(errors="replace").splitlines()[-40:]
            print("\n".join(["server log (last lines):", *tail]), file=sys.stderr)
        raise
    finally:
        if server is not None:
            server.stop()
    if args.profile == "cpu" and (work / "profile" / "cpu.txt").exists():
        out["profile"] = str(work / "profile" / "cpu.txt")
    if args.profile == "memory" and (work / "profile" / "memory-2.txt").exists():
        out["profile"] = str(work / "profile" / "memory-2.txt")
    if args.profile == "timing" and (work / "profile" / "timing.txt").exists():
        out["profile"] = str(work / "profile" / "timing.txt")
    return out


async def run_floor(
    args: argparse.Namespace,
    work: Path,
    pad: int,
    log: Callable[[str], None],
    stack: bool = False,
) -> dict[str, Any]:
    """The floor's run; ``stack``: the floor's work served by our socket stack instead
    (``stack_floor_server``)."""
    port = free_port()
    argv = [sys.executable, __file__, "--_floor-server", str(port), "--_pad", str(pad)]
    if args.no_compression:
        argv.append("--no-compression")
    if stack:
        argv.append("--_stack")
    name = "stack-floor" if stack else "floor"
    floor = Process(argv, port, dict(os.environ), work / f"{name}.log", args.server_cpu)
    try:
        await floor.wait_ready("/healthz")
        log(f"{name} server on port {port} (pid {floor.pid}), states of {pad} bytes")
        endpoints = [
            [(f"ws://127.0.0.1:{port}/g/{i}/{seat}", "") for seat in range(4)]
            for i in range(args.tables)
        ]

        async def settle() -> None:  # see floor_server
            async with httpx2.AsyncClient(timeout=60) as client:
                (await client.get(f"http://127.0.0.1:{port}/settle")).raise_for_status()

        result = await drive(
            endpoints,
            None,
            floor.pid,
            args.rate,
            args.seconds,
            not args.no_compression,
            after_idle=settle,
            order=args.order,
            full_parse=args.full_parse,
        )
    finally:
        floor.stop()
    return result.summary()


def _steadiness_script() -> Any:
    """``benchmarks/cpu_steadiness.py``, a script beside this one, as a module."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    try:
        import cpu_steadiness
    finally:
        sys.path.pop(0)
    return cpu_steadiness


def cpu_steadiness(seconds: float) -> dict[str, Any]:
    """``benchmarks/cpu_steadiness.py``'s measure of this machine, without its windows: a
    run's figures are read against it (a CPU that slows for a tenth of a second at a time
    gives the server that nears a full core its bad seconds)."""
    out: dict[str, Any] = _steadiness_script().measure(seconds)
    out.pop("windows")
    return out


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    def log(text: str) -> None:
        if not args.json:
            print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)

    limit = raise_open_files(8 * 4 * args.tables + 1024)
    result: dict[str, Any] = {
        "tables": args.tables,
        "connections": 4 * args.tables,
        "target_rate": args.rate,
        "seconds": args.seconds,
        "order": args.order,
        "full_parse": args.full_parse,
        "compression": not args.no_compression,
        "server_deflate": server_deflate(),
        "open_files_limit": limit,
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
        "server_cpu": args.server_cpu,
        "client_cpu": args.client_cpu,
        "load_average_before": round(os.getloadavg()[0], 2),
    }
    if args.steadiness > 0:
        log(f"how steady this machine's CPU is: {args.steadiness:.0f} s")
        result["machine"]["cpu_steadiness"] = cpu_steadiness(args.steadiness)
    with tempfile.TemporaryDirectory(prefix="tn-load-") as tmp:
        work = Path(args.keep or tmp)
        work.mkdir(parents=True, exist_ok=True)
        result["ours"] = await run_ours(args, work, log)
        if args.profile and "profile" in result["ours"]:
            result["ours"]["profile_text"] = Path(result["ours"]["profile"]).read_text()
        pad = int(result["ours"].get("state_message_bytes") or 3000)
        ours_p99 = result["ours"]["latency_ms"]["p99"]
        # (the floor, whether on our socket stack, the key of its result, that of our ratio)
        floors = [(False, "floor", "p99_vs_floor")] if not args.no_floor else []
        floors += [(True, "stack_floor", "p99_vs_stack_floor")] if args.stack_floor else []
        for stack, key, ratio in floors:
            result[key] = await run_floor(args, work, pad, log, stack=stack)
            their_p99 = result[key]["latency_ms"]["p99"]
            if ours_p99 is not None and their_p99:
                result[ratio] = round(ours_p99 / their_p99, 2)
    result["load_average_after"] = round(os.getloadavg()[0], 2)
    ours = result["ours"]
    errors = ours["errors"]
    result["goal"] = {
        "p99_within_2x_floor": result.get("p99_vs_floor") is not None
        and result["p99_vs_floor"] <= 2,
        "rate_reached": ours["actions_per_s"] >= 0.95 * args.rate,
        "no_errors": not errors["messages"]
        and not errors["disconnects"]
        and not errors["timeouts"]
        and not ours["live_disconnects"],
        "memory_per_connection_ok": ours["kib_per_idle_connection"] is not None
        and ours["kib_per_idle_connection"] <= 25,
    }
    return result


def held_line(server_cpu: int | None, client_cpu: int | None) -> str:
    """The report's line for ``--server-cpu`` and ``--client-cpu``; empty when neither."""
    if server_cpu is None and client_cpu is None:
        return ""
    server, client = ("any" if cpu is None else cpu for cpu in (server_cpu, client_cpu))
    return f"held to CPUs: the servers {server}, this client {client}"


def report(result: dict[str, Any]) -> None:
    def server_lines(name: str, r: dict[str, Any]) -> None:
        lat = r["latency_ms"]
        err = r["errors"]
        print(f"{name}:")
        print(
            f"  actions/s {r['actions_per_s']} (sent {r['sent_per_s']}; {r['actions']} actions; "
            f"{r['missed_ticks']} ticks found no table ready)"
        )
        print(
            f"  latency to all 4 seats: p50 {lat['p50']} ms, p95 {lat['p95']} ms, "
            f"p99 {lat['p99']} ms, max {lat['max']} ms"
        )
        print(f"  p99 of each 10 s: {', '.join(f'{x} ms' for x in r['p99_ms_by_10s'])}")
        print(
            f"  errors: messages {err['messages'] or 0}, disconnects {err['disconnects']}, "
            f"timeouts {err['timeouts']}"
        )
        rss = r["rss_kib"]
        print(
            f"  server RSS: {rss['before_sockets']} KiB before sockets, {rss['sockets_idle']} KiB "
            f"with {r['connections']} idle sockets, {rss['after_run']} KiB after the run -> "
            f"{r['kib_per_idle_connection']} KiB per idle connection"
        )
        print(
            f"  CPU during the run: server {r['server_cpu_percent']}% of a core "
            f"({r['server_cpu_ms_per_action']} ms per action), client "
            f"{r['client_cpu_percent']}%; state messages {r['state_message_bytes']} bytes; "
            f"{r['connections']} sockets connected in {r['connect_seconds']} s"
        )
        late = r["client_loop_late_ms"]
        print(
            f"  the client's own event loop ran late (a 10 ms timer): p50 {late['p50']} ms, "
            f"p99 {late['p99']} ms, max {late['max']} ms"
        )
        if r["live_sockets"]:
            print(
                f"  live channels (/ws/me, among the sockets above): {r['live_sockets']}; "
                f"messages on them {r['live_messages']}, dropped {r['live_disconnects']}"
            )

    print(
        f"{result['tables']} tables, {result['connections']} sockets, target "
        f"{result['target_rate']} actions/s for {result['seconds']} s, the ready tables taken "
        f"{'in turn' if result['order'] == 'fifo' else 'at random'} "
        f"(clients offer deflate: {'yes' if result['compression'] else 'no'}, servers take it: "
        f"{'yes' if result['server_deflate'] else 'no'}; "
        f"{result['machine']['cpus']} CPUs, Python {result['machine']['python']}; "
        f"load average {result['load_average_before']} before, "
        f"{result['load_average_after']} after)"
    )
    held = held_line(result.get("server_cpu"), result.get("client_cpu"))
    if held:
        print(held)
    steady = result["machine"].get("cpu_steadiness")
    if steady:
        said = _steadiness_script().describe(steady, steady["seconds"], steady["factor"])
        print(f"this machine's CPU before the run (benchmarks/cpu_steadiness.py): {said}")
    if "setup_seconds" in result["ours"]:
        print(f"setup (sign-in, tables): {result['ours']['setup_seconds']} s")
    server_lines("ours", result["ours"])
    if "floor" in result:
        server_lines("floor (bare websockets broadcast)", result["floor"])
        print(f"p99 ours / floor: {result.get('p99_vs_floor')}")
    if "stack_floor" in result:
        server_lines(
            "the floor's work on our socket stack (uvicorn, server/sockets.py)",
            result["stack_floor"],
        )
        print(f"p99 ours / the floor on our stack: {result.get('p99_vs_stack_floor')}")
    print(f"goal: {result['goal']}")
    if "profile" in result["ours"]:
        print(f"\nprofile ({result['ours']['profile']}):\n{result['ours']['profile_text']}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--tables", type=int, default=50)
    p.add_argument("--rate", type=float, default=100.0, help="actions/s in total")
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument(
        "--order",
        choices=("fifo", "random"),
        default="fifo",
        help="which ready table acts next: the one ready longest (every table in step, their "
        "deals ending in the same second) or any alike (tables drifting apart)",
    )
    p.add_argument(
        "--full-parse",
        action="store_true",
        help="the clients decode every message in full, not only those with actions to read",
    )
    p.add_argument("--json", action="store_true")
    p.add_argument("--url", default="", help="a running server (development mode) instead")
    p.add_argument("--pid", type=int, default=None, help="that server's process id, for RSS")
    p.add_argument("--no-floor", action="store_true", help="skip the bare broadcast server")
    p.add_argument(
        "--stack-floor",
        action="store_true",
        help="also run the floor's work on our own socket stack (uvicorn, server/sockets.py)",
    )
    p.add_argument("--no-compression", action="store_true", help="no permessage-deflate")
    p.add_argument(
        "--no-live", action="store_true", help="no live channel (/ws/me) beside each table socket"
    )
    p.add_argument("--profile", choices=("cpu", "memory", "timing"), default=None)
    p.add_argument("--next-deal", type=float, default=0.5, help="the started server's pause")
    p.add_argument("--setup-concurrency", type=int, default=8)
    p.add_argument(
        "--steadiness",
        type=float,
        default=5.0,
        help="seconds of benchmarks/cpu_steadiness.py's measure before the run (0: none)",
    )
    p.add_argument(
        "--server-cpu",
        type=int,
        default=None,
        help="hold each server (ours, the floor) to this CPU (default: any)",
    )
    p.add_argument(
        "--client-cpu",
        type=int,
        default=None,
        help="hold this client to this CPU (default: any)",
    )
    p.add_argument("--keep", default="", help="a folder for the server's data and log, kept")
    p.add_argument("--_floor-server", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--_pad", type=int, default=3000, help=argparse.SUPPRESS)
    p.add_argument("--_stack", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--_ping-interval", type=float, default=PING_INTERVAL, help=argparse.SUPPRESS)
    p.add_argument("--_profiled-server", default=None, help=argparse.SUPPRESS)
    p.add_argument("--_data-dir", default=None, help=argparse.SUPPRESS)
    p.add_argument("--port", type=int, default=None, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args._floor_server is not None and args._stack:
        stack_floor_server(args._floor_server, args._pad, args._ping_interval)
        return
    if args._floor_server is not None:
        floor_server(
            args._floor_server,
            args._pad,
            not args.no_compression and server_deflate(),
            args._ping_interval,
        )
        return
    if args._profiled_server is not None:
        profiled_server(args._profiled_server, args.port, Path(args._data_dir))
        return
    if args.tables < 1 or args.rate <= 0 or not 0 < args.seconds <= 3600:
        p.error("--tables ≥ 1, --rate > 0 and 0 < --seconds ≤ 3600")
    if args.url and args.profile:
        p.error("--profile starts its own server; leave out --url")
    cpus = os.sched_getaffinity(0)
    for cpu in (args.server_cpu, args.client_cpu):
        if cpu is not None and cpu not in cpus:
            p.error(f"CPU {cpu} is not one of this machine's {sorted(cpus)}")
    if args.client_cpu is not None:  # before the client starts a thread, so they all follow
        os.sched_setaffinity(0, {args.client_cpu})
    result = run_client(main_async(args))
    if args.json:
        result["ours"].pop("profile_text", None)
        print(json.dumps(result))
    else:
        report(result)


if __name__ == "__main__":
    main()
