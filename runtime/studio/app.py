"""The studio's ASGI application (Starlette): the page, a JSON API and a websocket.

HTTP: the page and its script; /api/games, /api/file (read, write), /api/check,
/api/boards (open, state, move, undo, FEN, PGN), /api/diff, /api/reports.  The
websocket /ws carries what takes time and reports as it goes: builds (`open`, with
the compiler's progress) and the engine (`think`, with each depth's score and line).
"""

import asyncio
import os
from importlib import resources

from starlette.applications import Starlette
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocketDisconnect

from ..errors import DefinitionError, FairyforgeError
from .boards import Board, info_dict
from .compare import compare
from .workspace import MAX_TEXT, StudioError, Workspace, diagnostics_of

STATIC = {"studio.js": "text/javascript", "studio.css": "text/css",
          "index.html": "text/html"}
REPORT_TYPES = {".md": "text/plain; charset=utf-8", ".png": "image/png",
                ".svg": "image/svg+xml", ".json": "application/json"}


class Studio:
    """The state behind the app: the folder and the open boards."""

    def __init__(self, root):
        self.workspace = Workspace(root)
        self.boards = {}

    def open_board(self, source, fen=None, progress=None):
        game = self.workspace.load(source, progress=progress)
        board = Board(game, fen)
        self.boards[board.id] = board
        return board

    def board(self, board_id):
        board = self.boards.get(str(board_id))
        if board is None:
            raise StudioError(f"no board {board_id}", 404)
        return board


def create_app(root="."):
    studio = Studio(root)
    routes = [
        Route("/", lambda request: _static("index.html")),
        Route("/static/{name}", lambda request: _static(request.path_params["name"])),
        Route("/favicon.ico", lambda request: Response(status_code=204)),
        Route("/api/games", _handler(studio, _games)),
        Route("/api/file", _handler(studio, _file), methods=["GET", "PUT"]),
        Route("/api/source", _handler(studio, _bundled_source)),
        Route("/api/check", _handler(studio, _check), methods=["POST"]),
        Route("/api/boards", _handler(studio, _new_board), methods=["POST"]),
        Route("/api/boards/{id}", _handler(studio, _board_state)),
        Route("/api/boards/{id}/{action}", _handler(studio, _board_action),
              methods=["GET", "POST"]),
        Route("/api/diff", _handler(studio, _diff), methods=["POST"]),
        Route("/api/reports", _handler(studio, _reports)),
        Route("/api/reports/file", _report_file(studio)),
        WebSocketRoute("/ws", _websocket(studio)),
    ]
    app = Starlette(routes=routes)
    app.state.studio = studio
    return app


def _static(name):
    if name not in STATIC:
        return PlainTextResponse("not found", status_code=404)
    text = resources.files("fairyforge.studio").joinpath("static", name).read_text("utf-8")
    return Response(text, media_type=STATIC[name], headers={"Cache-Control": "no-store"})


def _handler(studio, function):
    """Wrap an API function: JSON in and out, errors as {"error": message}."""
    async def endpoint(request):
        try:
            body = await _json_body(request) if request.method in ("POST", "PUT") else {}
            result = await function(studio, request, body)
        except StudioError as err:
            return JSONResponse({"error": str(err)}, status_code=err.status)
        except DefinitionError as err:
            return JSONResponse({"error": "the definition has errors",
                                 "diagnostics": diagnostics_of(err, studio.workspace)},
                                status_code=422)
        except FairyforgeError as err:
            return JSONResponse({"error": str(err)}, status_code=400)
        if isinstance(result, Response):
            return result
        return JSONResponse(result)
    return endpoint


async def _json_body(request):
    """The request's JSON (or {"text": body} for plain text), at most MAX_TEXT bytes."""
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > MAX_TEXT + 4096:
        raise StudioError(f"the upload is larger than {MAX_TEXT // 1024} KiB", 413)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_TEXT + 4096:
            raise StudioError(f"the upload is larger than {MAX_TEXT // 1024} KiB", 413)
        chunks.append(chunk)
    raw = b"".join(chunks).decode("utf-8", errors="replace")
    if not raw:
        return {}
    if "json" not in request.headers.get("content-type", ""):
        return {"text": raw}
    import json
    try:
        data = json.loads(raw)
    except ValueError as err:
        raise StudioError(f"bad JSON: {err}") from None
    if not isinstance(data, dict):
        raise StudioError("a JSON object expected")
    return data


async def _games(studio, request, body):
    from .. import bundled_games
    return {"bundled": bundled_games(), "files": studio.workspace.definitions(),
            "root": studio.workspace.root}


async def _file(studio, request, body):
    relative = request.query_params.get("path", "")
    if request.method == "PUT":
        saved = studio.workspace.write(relative, body.get("text", ""))
        return {"path": saved}
    return {"path": relative, "text": studio.workspace.read(relative)}


async def _bundled_source(studio, request, body):
    from ..compiler import loader
    name = request.query_params.get("game", "")
    path = loader.bundled_path(name) if name in loader.bundled_names() else None
    if path is None:
        raise StudioError(f"no bundled game '{name}'", 404)
    with open(path, encoding="utf-8") as handle:
        return {"game": name, "text": handle.read()}


async def _check(studio, request, body):
    text = body.get("text", "")
    path = body.get("path") or "untitled.variant"
    diagnostics = await asyncio.to_thread(studio.workspace.check, text, path)
    return {"diagnostics": diagnostics}


async def _new_board(studio, request, body):
    board = await asyncio.to_thread(studio.open_board, _source(body), body.get("fen"))
    return board.state(flipped=bool(body.get("flipped")))


async def _board_state(studio, request, body):
    board = studio.board(request.path_params["id"])
    ply = request.query_params.get("ply")
    flipped = request.query_params.get("flipped") == "1"
    return board.state(int(ply) if ply and ply.isdigit() else None, flipped)


async def _board_action(studio, request, body):
    board = studio.board(request.path_params["id"])
    action = request.path_params["action"]
    flipped = bool(body.get("flipped")) or request.query_params.get("flipped") == "1"
    if action == "pgn" and request.method == "GET":
        return Response(board.pgn(), media_type="application/x-chess-pgn", headers={
            "Content-Disposition": f'attachment; filename="{board.game.name}.pgn"'})
    if action == "move":
        await asyncio.to_thread(board.push, str(body.get("move", "")).strip())
    elif action == "undo":
        board.stop.set()
        if board.position.move_stack:
            board.position.pop()
    elif action == "fen":
        fresh = Board(board.game, str(body.get("fen", "")).strip())
        board.position = fresh.position
    elif action == "pgn":
        from .. import pgn
        board.position = pgn.read_game(body.get("text", ""), game=board.game).position
    else:
        raise StudioError(f"unknown action '{action}'", 404)
    return board.state(flipped=flipped)


async def _diff(studio, request, body):
    a, b = _source(body.get("a") or {}), _source(body.get("b") or {})
    depth = body.get("depth", 3)
    if not isinstance(depth, int) or isinstance(depth, bool):
        raise StudioError("the depth must be a whole number")
    depth = min(max(depth, 0), 5)
    return await asyncio.to_thread(compare, studio.workspace, a, b, depth)


async def _reports(studio, request, body):
    root = studio.workspace.root
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "node_modules")
        if folder[len(root):].count(os.sep) > 3:
            dirs[:] = []
        if "report.md" in files:
            rel = studio.workspace.relative(folder)
            found.append({"folder": rel, "files": sorted(
                f for f in files if os.path.splitext(f)[1] in REPORT_TYPES)})
    return {"reports": found}


def _report_file(studio):
    async def endpoint(request):
        try:
            real = studio.workspace.path(request.query_params.get("path", ""))
        except StudioError as err:
            return JSONResponse({"error": str(err)}, status_code=err.status)
        kind = REPORT_TYPES.get(os.path.splitext(real)[1])
        if kind is None or not os.path.isfile(real):
            return JSONResponse({"error": "not a report file"}, status_code=404)
        return FileResponse(real, media_type=kind)
    return endpoint


def _source(body):
    """A definition source from a request: {"game"} | {"path"} | {"text", "path"}."""
    source = {k: body.get(k) for k in ("game", "path", "text") if body.get(k) is not None}
    if not source:
        raise StudioError("name a game, a file or give a definition text")
    return source


def _websocket(studio):
    async def endpoint(websocket):
        await websocket.accept()
        session = _Session(studio, websocket)
        try:
            while True:
                message = await websocket.receive_json()
                session.handle(message)
        except WebSocketDisconnect:
            pass
        finally:
            session.close()
    return endpoint


class _Session:
    """One page's websocket: runs builds and searches as tasks, sends their reports."""

    def __init__(self, studio, websocket):
        self.studio, self.websocket = studio, websocket
        self.loop = asyncio.get_running_loop()
        self.tasks = set()
        self.thinking = set()          # the boards this page's searches run on
        self.sending = asyncio.Lock()

    def handle(self, message):
        kind = message.get("type")
        if kind == "stop":
            board = self.studio.boards.get(str(message.get("board")))
            if board:
                board.stop.set()
            return
        job = {"open": self._open, "think": self._think}.get(kind)
        if job is None:
            self._spawn(self.send({"type": "error", "error": f"unknown message '{kind}'"}))
            return
        self._spawn(job(message))

    def _spawn(self, coroutine):
        task = self.loop.create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def send(self, data):
        async with self.sending:
            try:
                await self.websocket.send_json(data)
            except (WebSocketDisconnect, RuntimeError):
                pass                           # the page went away

    def from_thread(self, data):
        asyncio.run_coroutine_threadsafe(self.send(data), self.loop)

    async def _open(self, message):
        def progress(text):
            self.from_thread({"type": "progress", "text": text})
        try:
            source = _source(message)
            board = await asyncio.to_thread(self.studio.open_board, source,
                                            message.get("fen"), progress)
        except DefinitionError as err:
            await self.send({"type": "build-error", "error": "the definition has errors",
                             "diagnostics": diagnostics_of(err, self.studio.workspace)})
            return
        except FairyforgeError as err:
            await self.send({"type": "build-error", "error": str(err), "diagnostics": []})
            return
        await self.send({"type": "opened", "state": board.state()})

    async def _think(self, message):
        try:
            board = self.studio.board(message.get("board"))
        except StudioError as err:
            await self.send({"type": "error", "error": str(err)})
            return
        try:
            depth = int(message["depth"]) if message.get("depth") else None
            movetime = float(message["movetime"]) / 1000 if message.get("movetime") else None
        except (TypeError, ValueError):
            await self.send({"type": "error", "error": "depth and movetime must be numbers"})
            return
        start = len(board.position.move_stack)
        self.thinking.add(board)

        def on_info(info):
            self.from_thread({"type": "info", "board": board.id,
                              "info": info_dict(info, board.replay(start))})
        best, _ = await asyncio.to_thread(board.think, depth, movetime, on_info)
        reply = {"type": "bestmove", "board": board.id,
                 "move": best.uci if best else None}
        if best is not None and message.get("play") and \
                len(board.position.move_stack) == start:
            await asyncio.to_thread(board.push, best.uci)
            reply["state"] = board.state(flipped=bool(message.get("flipped")))
        await self.send(reply)

    def close(self):
        for board in self.thinking:
            board.stop.set()
        for task in list(self.tasks):
            task.cancel()
