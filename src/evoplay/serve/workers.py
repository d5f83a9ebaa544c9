"""Where the web app's games live and its agents think: the open sessions (closed when idle) and the daemon
threads, queued and of lowered priority, in which every agent move is searched."""
from __future__ import annotations

import asyncio
import os
import threading
import time

from starlette.exceptions import HTTPException
from starlette.requests import Request

from evoplay.serve.play import GameSession

IDLE_SECONDS = 15 * 60.0
MAX_SESSIONS = 200
POLL_SECONDS = 0.1  # how often a request waiting for an agent looks whether its client left or the server stops
THREAD_NAME = "evoplay-serve-work"  # the daemon threads in which agents think and games are built
AGENT_NICENESS = 10  # how much lower the agents' threads run than the one answering requests
FAST_SECONDS = 0.05  # a game whose agents decide faster than this on average skips the agents' queue
QUEUE_SECONDS = 1.0  # how long a move waits for an agent thread before it is answered 503


class Sessions:
    """Open games and target rounds by id; one that is idle longer than ``idle`` seconds is closed."""

    def __init__(self, idle: float = IDLE_SECONDS, limit: int = MAX_SESSIONS):
        self.idle = idle
        self.limit = limit
        self._items: dict[str, object] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    def __len__(self) -> int:
        return len(self._items)

    def sweep(self) -> None:
        now = time.monotonic()
        for sid, s in list(self._items.items()):
            if now - s.last_used > self.idle and not s.streaming:
                self.remove(sid)

    def add(self, session) -> None:
        self.sweep()
        if len(self._items) >= self.limit:
            session_close(session)
            raise HTTPException(503, f"{self.limit} games are open; finish one, or wait for idle ones to close "
                                     f"({self.idle / 60:g} minutes without a move)")
        self._items[session.id] = session
        self._locks[session.id] = asyncio.Lock()

    def get(self, sid: str, kind: type):
        self.sweep()
        s = self._items.get(sid)
        if s is None or not isinstance(s, kind):
            raise HTTPException(404, f"no open {'game' if kind is GameSession else 'round'} {sid!r}; it ended or "
                                     f"expired after {self.idle / 60:g} idle minutes, start a new one")
        s.touch()
        return s

    def lock(self, sid: str) -> asyncio.Lock:
        return self._locks[sid]

    def remove(self, sid: str) -> None:
        s = self._items.pop(sid, None)
        self._locks.pop(sid, None)
        if s is not None:
            session_close(s)

    def close_all(self) -> None:
        for sid in list(self._items):
            self.remove(sid)

    def values(self):
        return list(self._items.values())


def session_close(session) -> None:
    close = getattr(session, "close", None)
    if close is not None:
        close()


class AgentThreads:
    """Where the agents think: every move's search in a daemon thread of its own, at most ``threads`` at once; a
    request finding them all busy waits for one, first come first served, at most QUEUE_SECONDS (and at most
    ``waiting`` requests wait); beyond that it gets 503, saying why.

    A game whose agents have so far decided in less than FAST_SECONDS on average (``random``, a Sevens level, a
    40 ms controller) does not queue: its moves run at once, at most ``4 x threads`` of them, so a person playing
    a quick agent is not held up by games of deep searches. (A game whose agent turns slow leaves that lane with
    its next moves: its average rises.)

    Each agent move has ``move_seconds`` (its ``deadline``, which the searches honour), in a thread of lowered
    priority (the event loop answering other requests comes first). A request whose client goes away hurries its
    game (the search in progress plays its best move so far), and so does the server stopping, which also answers
    the waiting requests at once; the threads are daemons, so none holds up the process."""

    def __init__(self, threads: int, waiting: int, move_seconds: float):
        self.threads, self.waiting, self.move_seconds = threads, waiting, move_seconds
        self.quick = 4 * threads  # moves of quick games running at once, outside the queue
        self.running = self.running_quick = 0
        self.queue: list[asyncio.Future] = []
        self.stopping = False

    def busy(self) -> HTTPException:
        return HTTPException(503, f"the agents are busy: {self.threads} moves are being searched and "
                                  f"{len(self.queue)} more wait for a thread, this one for {QUEUE_SECONDS:g} s in vain "
                                  f"(an agent takes at most {self.move_seconds:g} s a move); try again in a few "
                                  f"seconds")

    async def run(self, request: Request | None, session, fn, *args):
        """``fn(*args)`` in an agent thread; ``session`` is hurried when the client leaves."""
        if self.stopping:
            raise HTTPException(503, "the server is stopping")
        decided = getattr(session, "bot_ms", ())
        if decided and sum(decided) / len(decided) < FAST_SECONDS * 1000.0 and self.running_quick < self.quick:
            self.running_quick += 1
            try:
                return await self._in_thread(request, session, fn, args)
            finally:
                self.running_quick -= 1
        if self.running < self.threads and not self.queue:
            self.running += 1
        else:
            await self._wait_turn()
        try:
            if self.stopping:
                raise HTTPException(503, "the server is stopping")
            return await self._in_thread(request, session, fn, args)
        finally:
            self._release()

    async def _wait_turn(self) -> None:
        """Queue for a thread; raises 503 when none comes within QUEUE_SECONDS, the queue is full, or the server
        stops."""
        if len(self.queue) >= self.waiting:
            raise self.busy()
        turn = asyncio.get_running_loop().create_future()
        self.queue.append(turn)
        try:
            await asyncio.wait_for(turn, QUEUE_SECONDS)  # cancels the turn when the time is up
        except asyncio.TimeoutError:
            if turn in self.queue:
                self.queue.remove(turn)
            raise self.busy() from None
        except BaseException:
            if turn in self.queue:
                self.queue.remove(turn)
            elif turn.done() and not turn.cancelled() and turn.exception() is None:
                self._release()  # it was handed a thread just as it was cancelled: pass the thread on
            raise

    def _release(self) -> None:
        """A thread is free: to the first waiting request, else back to the pool."""
        while self.queue:
            turn = self.queue.pop(0)
            if not turn.done():
                turn.set_result(None)  # the thread passes to it; ``running`` is unchanged
                return
        self.running -= 1

    async def _in_thread(self, request, session, fn, args):
        left = False

        async def poll() -> None:
            nonlocal left
            if self.stopping:
                session_close(session)
                raise HTTPException(503, "the server is stopping")
            if not left and request is not None and await request.is_disconnected():
                left = True
                session.hurry()  # nobody waits for this move any more: the search plays its best so far

        return await in_daemon_thread(_niced, fn, *args, poll=poll)

    async def build(self, fn, *args):
        """``fn(*args)`` (building a game or a round: user code may run) in a daemon thread without an agent slot,
        so a stopping server does not wait for it either."""

        async def poll() -> None:
            if self.stopping:
                raise HTTPException(503, "the server is stopping")

        return await in_daemon_thread(fn, *args, poll=poll)

    def stop(self) -> None:
        self.stopping = True
        for turn in self.queue:
            if not turn.done():
                turn.set_exception(HTTPException(503, "the server is stopping"))
        self.queue.clear()


def _niced(fn, *args):
    """``fn(*args)`` at a lower priority than the event loop's thread (Linux sets a thread's niceness by its id)."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), AGENT_NICENESS)
    except (AttributeError, OSError):  # not Linux, or not allowed: the agents run at the process's priority
        pass
    return fn(*args)


async def in_daemon_thread(fn, *args, poll=None):
    """``fn(*args)`` in a daemon thread of its own (a thread that never holds up the process's exit), awaited;
    ``poll()`` is awaited every POLL_SECONDS while it runs (it may raise to stop waiting)."""
    loop = asyncio.get_running_loop()
    done = loop.create_future()

    def settle(result, error) -> None:
        if done.done():
            return
        if error is not None:
            done.set_exception(error)
        else:
            done.set_result(result)

    def work() -> None:
        try:
            result, error = fn(*args), None
        except BaseException as err:  # noqa: BLE001 - handed to the request, as run_in_threadpool does
            result, error = None, err
        try:
            loop.call_soon_threadsafe(settle, result, error)
        except RuntimeError:  # the event loop has closed: the server stopped meanwhile
            pass

    threading.Thread(target=work, name=THREAD_NAME, daemon=True).start()
    while not done.done():
        await asyncio.wait({done}, timeout=POLL_SECONDS)
        if not done.done() and poll is not None:
            await poll()
    return done.result()
