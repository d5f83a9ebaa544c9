"""``evoplay serve``: a local web app to play every game against evolved players and to watch runs live."""
from __future__ import annotations

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def serve(runs: str = "runs", host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, say=print) -> None:
    """Run the app with uvicorn until interrupted; ``say`` gets the address to open."""
    import uvicorn

    from evoplay.serve.app import LOOPBACK_HOSTS, make_app

    loopback = host in LOOPBACK_HOSTS or host.startswith("127.")
    app = make_app(runs, allowed_hosts=[*LOOPBACK_HOSTS, host] if loopback else None)
    shown = f"[{host}]" if ":" in host else host
    say(f"evoplay serve: open http://{shown}:{port}/ (runs from {app.state.runs}; Ctrl-C stops)")
    uvicorn.run(app, host=host, port=port, log_level="warning")


__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "serve"]
