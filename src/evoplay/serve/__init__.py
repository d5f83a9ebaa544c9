"""``evoplay serve``: a local web app to play every game against evolved players and to watch runs live."""
from __future__ import annotations

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
#: seconds uvicorn waits for requests still running when the server stops (the agents' have been answered)
GRACE_SECONDS = 0.5


def serve(runs: str = "runs", host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, say=print,
          move_seconds: float | None = None) -> None:
    """Run the app with uvicorn until Ctrl-C; ``say`` gets the address to open. An agent has ``move_seconds``
    for a move (default ``evoplay.serve.app.MOVE_SECONDS``)."""
    from evoplay.serve.app import LOOPBACK_HOSTS, MOVE_SECONDS, make_app

    loopback = host in LOOPBACK_HOSTS or host.startswith("127.")
    app = make_app(runs, allowed_hosts=[*LOOPBACK_HOSTS, host] if loopback else None,
                   move_seconds=MOVE_SECONDS if move_seconds is None else move_seconds)
    shown = f"[{host}]" if ":" in host else host
    say(f"evoplay serve: open http://{shown}:{port}/ (runs from {app.state.runs}; agents think at most "
        f"{app.state.agents.move_seconds:g} s a move; Ctrl-C stops)")
    try:
        run_until_stopped(app, host, port)
    except KeyboardInterrupt:  # the signal uvicorn re-raises once it has shut down
        pass
    say("evoplay serve: stopped")


def run_until_stopped(app, host: str, port: int) -> None:
    """uvicorn until Ctrl-C or SIGTERM. The first signal stops the app at once (``evoplay.serve.app.stop``: the
    requests waiting for an agent are answered, every search is hurried); uvicorn then closes within
    GRACE_SECONDS, and the agents' daemon threads do not hold up the process."""
    import uvicorn

    from evoplay.serve.app import stop

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame) -> None:
            stop(app)
            super().handle_exit(sig, frame)

    config = uvicorn.Config(Quiet(app), host=host, port=port, log_level="warning",
                            timeout_graceful_shutdown=GRACE_SECONDS)
    Server(config).run()


class Quiet:
    """The app, with a request that uvicorn cancels while the server stops ended without a traceback."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        import asyncio

        try:
            await self.app(scope, receive, send)
        except asyncio.CancelledError:
            if not self.app.state.agents.stopping:
                raise


__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "run_until_stopped", "serve"]
