"""The ``evoplay serve`` web app: pages and JSON endpoints to play every game and watch and browse runs."""
from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from evoplay.errors import CheckpointError, ConfigError, EvoplayError, GameError, IllegalActionError, SpecError
from evoplay.serve import runs as run_pages
from evoplay.serve.play import SHARED_VIEWS, Drawings, GameSession, StaleMove, default_opponent, opponent_spec
from evoplay.spec import Param, parse_seat
from evoplay.serve.safety import OutsideRunsError, confine_agent_spec, confined_to, shown_names
from evoplay.serve.target import TargetSession, check_expression, level_list
from evoplay.serve.workers import IDLE_SECONDS, MAX_SESSIONS, AgentThreads, Sessions

STATIC = Path(__file__).with_name("static")
MAX_BODY = 16 * 1024  # bytes of a request body: a move, a spec or an expression is far smaller
MOVE_SECONDS = 2.0  # an agent's time for one move (``evoplay serve --move-seconds``)
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
#: path -> (page, title): each page is static/<page>.html (the inside of its <main>) and static/<page>.js, served
#: in the one shell static/page.html
PAGES = {"/": ("index", "play"), "/play": ("play", "game"), "/target": ("target", "target number"),
         "/runs": ("runs", "runs"), "/run": ("run", "run")}


class BodyTooLarge(Exception):
    pass


class WriteGuard:
    """Refuses a state-changing request (any method but GET, HEAD, OPTIONS) unless its ``Origin`` (when sent) is
    the app's own address and its body is declared JSON, even when empty: a page on another site can send neither
    without a CORS preflight, which the app never grants, so it cannot start games or searches here."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
            refused = write_refusal(scope["scheme"], Headers(scope=scope))
            if refused is not None:
                await error(*refused)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def write_refusal(scheme: str, headers: Headers) -> tuple[int, str] | None:
    """(status, reason) for a state-changing request this app does not accept, or None."""
    own = f"{scheme}://{headers.get('host', '')}"
    origin = headers.get("origin")
    if origin is not None and origin.rstrip("/").lower() != own.lower():
        return 403, (f"cross-site request refused: it comes from a page at {origin[:100]!r}, not from this app "
                     f"({own}); open the app's own pages to play")
    site = headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return 403, f"cross-site request refused (Sec-Fetch-Site: {site[:40]}); open the app's own pages to play"
    media = headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        return 415, ("send the request with Content-Type: application/json (also with an empty body): "
                     "a page on another site cannot, so requests that change anything need it")
    return None


# --------------------------------------------------------------------------------------------------------------
# Request helpers.
# --------------------------------------------------------------------------------------------------------------


async def read_json(request: Request) -> dict:
    """The request's JSON object ({} for an empty body), refusing bodies over MAX_BODY bytes before reading them
    whole. (WriteGuard has checked the content type.)"""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY:
        raise BodyTooLarge()
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise BodyTooLarge()
    if not body.strip():
        return {}
    try:
        data = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise SpecError(f"the request body is not JSON ({err})") from None
    except RecursionError:
        raise SpecError("the request body is JSON nested too deeply; send a flat object such as "
                        "{\"text\": \"3\", \"ply\": 4}") from None
    except ValueError:  # Python reads no integer of more than 4,300 digits (sys.set_int_max_str_digits)
        raise SpecError("the request body holds a number of more than 4,300 digits; send numbers of at most 40 "
                        "digits") from None
    if not isinstance(data, dict):
        raise SpecError("the request body must be a JSON object")
    return data


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body_too_large(request, exc):
    return error(413, f"request body over {MAX_BODY} bytes; moves, specs and expressions are far shorter")


async def _spec_error(request, exc):
    message = shown_names(request.app.state.runs, str(exc))
    if isinstance(exc, OutsideRunsError):
        return error(403, message)
    if isinstance(exc, (IllegalActionError, StaleMove)):
        return error(409, message)
    if isinstance(exc, CheckpointError):
        return error(404, message)
    if isinstance(exc, GameError):
        return error(422, message)
    return error(400, message)


async def _http_error(request, exc):
    if request.url.path.startswith("/api/"):
        return error(exc.status_code, exc.detail)
    return Response(exc.detail, status_code=exc.status_code, media_type="text/plain")


async def _not_found(request, exc):
    return error(404, shown_names(request.app.state.runs, str(exc)))


async def _os_error(request, exc):
    """A path the OS refuses (a name too long, a permission): the request named something unusable."""
    where = f"{shown_names(request.app.state.runs, str(exc.filename))[:80]}: " if exc.filename else ""
    return error(400, f"{where}{exc.strerror or exc}")


def _int(value, name: str, default: int | None = None, low: int = 0, high: int = 2**63 - 1):
    """An integer request field in low..high (a seed's range by default), or SpecError saying what is wrong."""
    if value is None or value == "":
        return default
    return Param(name, int, min=low, max=high, why=f"{name} is {low} to {high}").coerce("request", value)


def _float(value, name: str, default: float | None = None):
    if value is None or value == "":
        return default
    return Param(name, float, min=-1e9, max=1e9, why=f"{name} is a plain number").coerce("request", value)


# --------------------------------------------------------------------------------------------------------------
# Pages.
# --------------------------------------------------------------------------------------------------------------


async def page(request: Request):
    """A page: its body and script in the shell every page shares (the head, the stylesheet, the <main>)."""
    from string import Template

    name, title = PAGES[request.url.path]
    shell = Template((STATIC / "page.html").read_text(encoding="utf-8"))
    body = (STATIC / f"{name}.html").read_text(encoding="utf-8")
    return HTMLResponse(shell.substitute(name=name, title=title, body=body))


# --------------------------------------------------------------------------------------------------------------
# Playing.
# --------------------------------------------------------------------------------------------------------------


async def catalog(request: Request):
    """The games, the agents and the levels the play page offers."""
    from evoplay.agents import AGENTS
    from evoplay.games import CLASSES, DEFAULT_GAME, GAMES, Game

    games, levels = [], {}
    for e in GAMES.entries():
        cls = CLASSES.get(e.name, Game)
        players = cls().num_players if e.name in CLASSES else cls.num_players  # the seats of its default game
        games.append({"name": e.name, "help": e.help, "params": [p.describe() for p in e.params],
                      "default_opponent": default_opponent(cls), "suggestions": list(cls.suggested_opponents),
                      "players": players, "realtime": cls.view == "grid"})
        if cls.levels:  # a game's difficulty levels (Game.levels) as "<game>_levels"
            levels[f"{e.name}_levels"] = list(cls.levels)
    agents = [{"name": e.name, "help": e.help, "params": [p.describe() for p in e.params]}
              for e in AGENTS.entries() if e.name != "human"]
    return JSONResponse({"games": games, "default_game": DEFAULT_GAME, "agents": agents, **levels,
                         "target_levels": level_list(), "tick_ms": 150})


def _new_game(root: Path, body: dict, move_seconds: float) -> GameSession:
    """The game a page asks for, built inside ``confined_to(root)``: every file its game and agent specs name (and
    the game a best.json names) must lie in the runs folder, checked before anything is read or imported."""
    from evoplay.agents import make_agent
    from evoplay.games import DEFAULT_GAME, load_game

    game_text = body.get("game", DEFAULT_GAME)
    if not isinstance(game_text, str) or not game_text.strip():
        raise SpecError(f"game must be a spec string such as {DEFAULT_GAME!r} or 'file.py:MyGame'")
    opponent_text = body.get("opponent")
    if opponent_text is not None and not isinstance(opponent_text, str):
        raise SpecError("opponent must be an agent spec such as 'alphabeta(depth=4)'")
    with confined_to(root):
        game = load_game(game_text.strip())
        spec = confine_agent_spec(opponent_spec(game, opponent_text), root)
        you = parse_seat(body.get("seat", "first"), game.num_players)
        seed = _int(body.get("seed"), "seed", 0)
        tick = _float(body.get("tick_ms"), "tick_ms", None)
        session = GameSession(game, lambda: make_agent(spec, game), you, seed, tick, move_seconds)
    session.opponent_name = shown_names(root, session.opponent_name)
    session.game_name = shown_names(root, game.spec)
    return session


async def new_game(request: Request):
    body = await read_json(request)
    app = request.app
    session = await app.state.agents.build(_new_game, app.state.runs, body, app.state.agents.move_seconds)
    app.state.drawings.add(session.game)  # the page loads the game's drawing next: it must be there
    app.state.sessions.add(session)
    try:
        if session.agents_to_move():  # agents (or chance) move before the person: a thread of the agents'
            async with app.state.sessions.lock(session.id):
                await app.state.agents.run(request, session, session.advance)
    except BaseException:
        app.state.sessions.remove(session.id)  # a game whose first moves failed is not left open
        raise
    return JSONResponse(session.view())


async def drawing(request: Request):
    """A game's drawing by its view's name, ``/views/<name>.js`` (its script) or ``<name>.css`` (its stylesheet):
    the app's own for any game or a game's own from its package; a drawing without a stylesheet gets an empty one."""
    name, dot, suffix = request.path_params["file"].rpartition(".")
    if not dot or suffix not in ("js", "css"):
        return error(404, f"no drawing file {request.path_params['file']!r}: ask for /views/<view>.js or .css")
    drawings = request.app.state.drawings
    path = drawings.file(name, "." + suffix)
    media = "text/javascript" if suffix == "js" else "text/css"
    if path is not None:
        return FileResponse(path, media_type=media)
    if suffix == "css" and drawings.known(name):
        return Response("", media_type=media)
    return error(404, f"no drawing {name!r}: a game's view names one when the game ships its view.js, or one of "
                      f"the app's own ({', '.join(SHARED_VIEWS)})")


async def get_game(request: Request):
    session = request.app.state.sessions.get(request.path_params["sid"], GameSession)
    return JSONResponse(session.view())


async def move(request: Request):
    body = await read_json(request)
    app = request.app
    session = app.state.sessions.get(request.path_params["sid"], GameSession)
    async with app.state.sessions.lock(session.id):
        started = time.perf_counter()
        session.check_ply(body)  # a repeated or stale request is refused before anything is played
        await app.state.agents.run(request, session, session.play, body)
        view = session.view()
        view["server_ms"] = round((time.perf_counter() - started) * 1000.0, 2)
    return JSONResponse(view)


async def key(request: Request):
    body = await read_json(request)
    session = request.app.state.sessions.get(request.path_params["sid"], GameSession)
    session.press(body)
    return JSONResponse({"ok": True})


async def close_game(request: Request):
    await read_json(request)
    request.app.state.sessions.remove(request.path_params["sid"])
    return JSONResponse({"ok": True})


def _event(name: str, data: dict) -> str:
    return f"event: {name}\ndata: {json.dumps(data)}\n\n"


async def events(request: Request):
    """A real-time game's ticks as server-sent events; the game advances while one page listens."""
    app = request.app
    sessions = app.state.sessions
    session = sessions.get(request.path_params["sid"], GameSession)
    if not session.realtime:
        return error(409, f"{session.game.name} is turn-based; it has no ticks to stream")
    if session.streaming:
        return error(409, "this game is already running in another page")
    session.streaming = True
    lock = sessions.lock(session.id)
    delay = _float(request.query_params.get("delay_ms"), "delay_ms", 1000.0) / 1000.0

    async def ticks():
        try:
            yield _event("state", session.view())
            await asyncio.sleep(max(0.0, min(delay, 5.0)))
            next_tick = time.monotonic()
            while not session.state.is_terminal() and not app.state.agents.stopping:
                next_tick += session.tick_ms / 1000.0
                await asyncio.sleep(max(0.0, next_tick - time.monotonic()))
                try:
                    async with lock:
                        view = await app.state.agents.run(request, session, session.tick)
                except (HTTPException, EvoplayError) as err:  # busy agents, a stopping server, a broken game
                    yield _event("error", {"error": getattr(err, "detail", None) or str(err)})
                    return
                session.touch()
                yield _event("state", view)
                if time.monotonic() > next_tick + session.tick_ms / 1000.0:
                    next_tick = time.monotonic()  # the agent took longer than a tick: the next one starts now
            if session.state.is_terminal():
                yield _event("over", session.view())
        finally:
            session.streaming = False
            session.touch()

    return StreamingResponse(ticks(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def _same_game(spec: str, wanted: str | None) -> bool:
    return not wanted or spec == wanted or spec.split("(")[0] == wanted.split("(")[0]


async def opponents(request: Request):
    """The runs' best agents that play the game named in ``?game=`` (all of them without it), and the runs of that
    game whose best the browser cannot play (``unplayable``, each saying why; a file game matched by its file's
    name)."""
    root = request.app.state.runs
    wanted = (request.query_params.get("game") or "").strip() or None
    found, unplayable = [], []
    for path in await run_in_threadpool(run_pages.find_runs, root):
        s = await run_in_threadpool(run_pages.summary, root, path)
        opp = s.get("opponent")
        if not opp:
            continue
        if "why_not" in opp:
            name = opp.get("game_name")
            if not wanted or (name and _same_game(name, wanted.rsplit("/", 1)[-1])):
                unplayable.append({"path": s["path"], "recipe": s.get("recipe"), "why_not": opp["why_not"]})
        elif _same_game(opp["game"], wanted):
            found.append({"path": s["path"], "recipe": s.get("recipe"), **opp})
    return JSONResponse({"runs": found, "unplayable": unplayable})


# --------------------------------------------------------------------------------------------------------------
# The target-number game.
# --------------------------------------------------------------------------------------------------------------


async def new_round(request: Request):
    body = await read_json(request)
    level = _int(body.get("level"), "level", 3)
    seconds = _float(body.get("seconds"), "seconds", 60.0)
    mode = body.get("mode") or "mojbroj"
    if not isinstance(mode, str):
        raise SpecError("mode must be mojbroj or countdown")
    seed = _int(body.get("seed"), "seed", None)
    large = _int(body.get("large"), "large", None)
    session = await request.app.state.agents.build(TargetSession, level, seconds, mode, seed, large)
    request.app.state.sessions.add(session)
    return JSONResponse(session.view())


async def _round(request: Request) -> TargetSession:
    session = request.app.state.sessions.get(request.path_params["sid"], TargetSession)
    if not session.over and session.left() <= 0:
        await request.app.state.agents.build(session.finish)
    return session


async def get_round(request: Request):
    return JSONResponse((await _round(request)).view())


async def check(request: Request):
    body = await read_json(request)
    session = await _round(request)
    return JSONResponse(check_expression(body.get("text", ""), session.draw.numbers))


async def submit(request: Request):
    body = await read_json(request)
    session = await _round(request)
    text = body.get("text", "")
    result = await run_in_threadpool(session.submit, text)
    return JSONResponse({"answer": result, "round": session.view()})


async def finish_round(request: Request):
    await read_json(request)
    session = await _round(request)
    await request.app.state.agents.build(session.finish)
    return JSONResponse(session.view())


# --------------------------------------------------------------------------------------------------------------
# Runs.
# --------------------------------------------------------------------------------------------------------------


async def list_runs(request: Request):
    root = request.app.state.runs
    paths = await run_in_threadpool(run_pages.find_runs, root)
    items = [await run_in_threadpool(run_pages.summary, root, p) for p in paths]
    return JSONResponse({"root": str(root), "runs": items})


def _path_param(request: Request) -> str:
    name = request.query_params.get("path")
    if name is None:
        raise SpecError("name the run folder with ?path=NAME (relative to the runs folder)")
    return name


async def run_detail(request: Request):
    return JSONResponse(await run_in_threadpool(run_pages.detail, request.app.state.runs, _path_param(request)))


async def run_log(request: Request):
    since = _int(request.query_params.get("since"), "since", 0)
    data = await run_in_threadpool(run_pages.log_since, request.app.state.runs, _path_param(request), since)
    return JSONResponse(data)


async def run_file(request: Request):
    name = request.query_params.get("name", "")
    path = await run_in_threadpool(run_pages.run_file, request.app.state.runs, _path_param(request), name)
    media = "image/png" if path.suffix == ".png" else "text/plain; charset=utf-8"
    headers = {} if path.suffix == ".png" else {"Content-Disposition": f'attachment; filename="{path.name}"'}
    return FileResponse(path, media_type=media, headers=headers)


async def run_export(request: Request):
    lang = request.query_params.get("lang", "python")
    path = await request.app.state.agents.build(run_pages.export, request.app.state.runs, _path_param(request), lang)
    return FileResponse(path, media_type="text/plain; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{path.name}"'})


# --------------------------------------------------------------------------------------------------------------
# The app.
# --------------------------------------------------------------------------------------------------------------


LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")


def make_app(runs: str | Path = "runs", idle_seconds: float = IDLE_SECONDS,
             max_sessions: int = MAX_SESSIONS, allowed_hosts: list[str] | None = None,
             move_seconds: float = MOVE_SECONDS, agent_threads: int | None = None) -> Starlette:
    """The web app serving the runs under ``runs`` (created when missing, so the runs pages have a place).

    ``allowed_hosts`` limits the Host header (``evoplay serve`` on a loopback address accepts only loopback names,
    so a web page elsewhere cannot reach the app through a rebound DNS name); None accepts any. An agent has
    ``move_seconds`` for a move; ``agent_threads`` moves are searched at once (default: the cores, at least 2), and
    a move waits at most QUEUE_SECONDS for a thread before the app answers 503."""
    from starlette.middleware import Middleware

    from evoplay.arena.executors import available_cores

    if not 0 < move_seconds <= 3600:
        raise SpecError(f"--move-seconds {move_seconds:g}: give an agent's time for a move, more than 0 and at most "
                        f"3600 seconds (default {MOVE_SECONDS:g})")
    threads = agent_threads or max(2, available_cores())
    root = Path(runs).expanduser()
    root.mkdir(parents=True, exist_ok=True)
    routes = [Route(path, page) for path in PAGES]
    routes += [
        Route("/api/catalog", catalog),
        Route("/api/opponents", opponents),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{sid}", get_game),
        Route("/api/games/{sid}", close_game, methods=["DELETE"]),
        Route("/api/games/{sid}/move", move, methods=["POST"]),
        Route("/api/games/{sid}/key", key, methods=["POST"]),
        Route("/api/games/{sid}/events", events),
        Route("/api/target", new_round, methods=["POST"]),
        Route("/api/target/{sid}", get_round),
        Route("/api/target/{sid}/check", check, methods=["POST"]),
        Route("/api/target/{sid}/submit", submit, methods=["POST"]),
        Route("/api/target/{sid}/finish", finish_round, methods=["POST"]),
        Route("/api/runs", list_runs),
        Route("/api/run", run_detail),
        Route("/api/run/log", run_log),
        Route("/api/run/file", run_file),
        Route("/api/run/export", run_export),
        Route("/views/{file}", drawing),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    handlers = {BodyTooLarge: _body_too_large, SpecError: _spec_error, ConfigError: _spec_error,
                IllegalActionError: _spec_error, CheckpointError: _spec_error, EvoplayError: _spec_error,
                HTTPException: _http_error, FileNotFoundError: _not_found, OSError: _os_error}
    middleware = []
    if allowed_hosts is not None:
        from starlette.middleware.trustedhost import TrustedHostMiddleware

        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts)))
    middleware.append(Middleware(WriteGuard))
    app = Starlette(routes=routes, exception_handlers=handlers, middleware=middleware)
    app.state.runs = root.resolve()
    app.state.sessions = Sessions(idle_seconds, max_sessions)
    app.state.drawings = Drawings()
    app.state.agents = AgentThreads(threads, max_sessions, float(move_seconds))
    return app


def stop(app: Starlette) -> None:
    """The server is stopping: waiting requests are answered at once and every game's search is hurried."""
    app.state.agents.stop()
    app.state.sessions.close_all()
