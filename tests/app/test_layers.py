"""The layers of app/: which part may import which, read from the source with ``ast``.

    jobs      (lowest)  the job queue: its table, rows, claims with leases, the runner
    tables              models, repository, the writer, tokens, the live table, the replay,
                        the jobs a change makes due                             -> jobs
    protocol            what crosses a wire: parsers, frames, views, notes      -> tables
    room                one live table per process: room, hub, connections, seating, talk,
                        undo, hints, the socket endpoint, the changes          -> protocol, tables
    cluster             several processes on one database: fan-out, presence, catch-up,
                        carried notes (sees rooms only as a listener)  -> room, protocol, tables
    lobby               the tables' HTTP API                               -> room, protocol, tables
    bots                the bot runner and its route                       -> room, protocol, tables
    history             history pages and API, the review handler          -> jobs, tables, web
    groups              groups of friends: pages, standings, ratings   -> lobby, history, room,
                                                                          protocol, tables, web
    web                 pages, i18n (the home page's form: the table options)   -> tables
    lesson              the lessons (issue 27): pages and their stateless API   -> web, protocol
    host                the host's table: remove, hand over, close, delete, display
                                  -> bots, lobby, room, protocol, tables, jobs, web
    notify              Web Push: keys, subscriptions, sender, reminders -> jobs, room,
                                                                          protocol, tables, web
    practice            practice tables on a finished hand (issue 39)    -> lobby, room, tables

Beside them sit the shared modules every part may use (config, db, logging, resources and
``app.http``, the HTTP shell: error bodies, request rates, security headers, body and head
limits, compression, health, metrics, the offline API docs; tables and jobs use only config,
db and logging), ``app.deps`` (the route dependencies: the hub, sessions, tokens),
``app.models`` (every package's models, for Alembic) and the shell that wires the app
(``app.main``, ``app.__main__``, the job worker ``app.worker`` and a process's job loop
``app.background``), which may import anything.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import app

APP = Path(app.__file__).parent
PACKAGES = {"tables", "jobs", "lobby", "bots", "history", "web", "groups", "notify"}
PACKAGES |= {"protocol", "room", "cluster"}  # issue 37: app/realtime in three
PACKAGES |= {"lesson", "host"}  # issues 27 and 28
PACKAGES |= {"practice"}  # issue 39
SHARED = {"app.config", "app.db", "app.logging", "app.http", "app.resources"}

# Between the domain packages: exactly these edges.
DOMAIN_EDGES = {
    "jobs": set(),
    "tables": {"jobs"},
    "protocol": {"tables"},
    "room": {"protocol", "tables"},
    "cluster": {"room", "protocol", "tables"},
    "lobby": {"room", "protocol", "tables"},
    "bots": {"room", "protocol", "tables"},
    "history": {"jobs", "tables", "web"},
    "web": {"tables"},
    "lesson": {"web", "protocol"},
    "notify": {"jobs", "room", "protocol", "tables", "web"},
    "groups": {"lobby", "history", "room", "tables", "web"},
    "host": {"bots", "jobs", "lobby", "room", "protocol", "tables", "web"},
    "practice": {"lobby", "room", "tables"},
}
# Everything a part may import (None: anything).
ALLOWED: dict[str, set[str] | None] = {
    "tables": {"jobs", "app.config", "app.db", "app.logging"},
    "jobs": {"app.config", "app.db", "app.logging"},
    # What crosses a wire holds values and their encodings: no logs, no metrics, no database.
    "protocol": {"tables"},
    "room": {"protocol", "tables"} | SHARED,
    "cluster": {"room", "protocol", "tables"} | SHARED,
    "lobby": {"room", "protocol", "tables", "app.deps"} | SHARED,
    "bots": {"room", "protocol", "tables", "app.deps"} | SHARED,
    "history": {"jobs", "tables", "web"} | SHARED,
    "web": {"tables"} | SHARED,
    "lesson": {"web", "protocol"} | SHARED,
    "notify": {"jobs", "room", "protocol", "tables", "web", "app.deps"} | SHARED,
    "groups": {"lobby", "history", "room", "protocol", "tables", "web", "app.deps"} | SHARED,
    "host": {"bots", "lobby", "room", "protocol", "tables", "jobs", "web", "app.deps"} | SHARED,
    "practice": {"lobby", "room", "tables", "app.deps"} | SHARED,
    "app.config": set(),
    "app.db": {"app.config"},
    "app.logging": set(),
    "app.deps": {"room", "tables", "app.config", "app.db"},
    "app.migrate": {"app.resources"},
    "app.resources": set(),
    "app.models": {"tables", "groups", "history", "jobs", "notify"},
    # The HTTP shell: errors, request rates, headers, limits, compression, health, metrics,
    # API docs; on the logs only, so that every part may use its errors and metrics.
    "app.http": {"app.logging"},
    "app": set(),
    "app.main": None,
    "app.__main__": None,
    "app.worker": None,
    "app.background": None,
}


def part_of(module: str) -> str:
    """``app.tables.live`` -> ``tables``; ``app.config`` -> ``app.config``."""
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in PACKAGES:
        return parts[1]
    return ".".join(parts[:2])


def module_name(path: Path) -> str:
    relative = path.relative_to(APP.parent).with_suffix("")
    parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
    return ".".join(parts)


def imported(path: Path) -> Iterator[str]:
    """Every module that ``path`` imports (at any depth: lazy imports count too)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: a relative import (app/ imports absolutely)"
            base = node.module or ""
            # ``from app import logging`` names the module app.logging.
            yield from (f"{base}.{alias.name}" if base == "app" else base for alias in node.names)


def edges() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in sorted(APP.rglob("*.py")):
        source = part_of(module_name(path))
        targets = {part_of(name) for name in imported(path) if name.split(".")[0] == "app"}
        found.setdefault(source, set()).update(targets - {source})
    return found


def test_every_part_of_app_has_a_place_in_the_layers() -> None:
    assert set(edges()) <= set(ALLOWED), "a new part of app/: give it a place in ALLOWED"


def test_the_domain_packages_import_each_other_as_drawn() -> None:
    found = edges()
    drawn = {part: found.get(part, set()) & PACKAGES for part in PACKAGES}
    assert drawn == DOMAIN_EDGES


def test_no_part_imports_what_its_layer_may_not() -> None:
    wrong = {
        part: sorted(targets - allowed)
        for part, targets in edges().items()
        if (allowed := ALLOWED[part]) is not None and targets - allowed
    }
    assert wrong == {}


def test_the_allowed_imports_have_no_cycle() -> None:
    graph = {part: allowed for part, allowed in ALLOWED.items() if allowed is not None}
    done: set[str] = set()

    def visit(part: str, path: tuple[str, ...]) -> None:
        assert part not in path, f"cycle: {' -> '.join((*path, part))}"
        if part not in done:
            for target in sorted(graph.get(part, set())):
                visit(target, (*path, part))
            done.add(part)

    for part in sorted(graph):
        visit(part, ())


def test_the_import_reader_sees_every_kind_of_import() -> None:
    # ``from app import logging``, ``from app.config import …``, ``from app.protocol import …``
    # and the lazy ``from app.main import app`` inside a function.
    names = set(imported(APP / "__main__.py"))
    assert {"app.logging", "app.config", "app.migrate", "app.protocol", "app.main"} <= names


# -- the one door into a live table ------------------------------------------------------------

ROOM = APP / "room" / "room.py"


def reaches_into_a_room(path: Path) -> list[str]:
    """Where ``path`` takes a room's lock or commits through it: a ``_lock`` or ``_commit`` of
    anything but ``self``, a ``lock`` or ``commit`` of a room, or the writer's ``commit``
    reached through a store (``store.writer.commit``) anywhere but in the room."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if not isinstance(node, ast.Attribute):
            continue
        owner = node.value
        if node.attr in {"_lock", "_commit"} and not (
            isinstance(owner, ast.Name) and owner.id == "self"  # an object's own
        ):
            found.append(f"{path.name}:{node.lineno}: .{node.attr}")
        elif node.attr == "lock" and isinstance(owner, ast.Name) and "room" in owner.id:
            found.append(f"{path.name}:{node.lineno}: {owner.id}.lock")
        elif node.attr == "commit" and isinstance(owner, ast.Attribute) and owner.attr == "writer":
            if path != ROOM:
                found.append(f"{path.name}:{node.lineno}: writer.commit")
        elif node.attr == "commit" and isinstance(owner, ast.Name) and "room" in owner.id:
            found.append(f"{path.name}:{node.lineno}: {owner.id}.commit")
    return found


def test_only_the_room_takes_its_lock_and_commits() -> None:
    """``Room.apply`` is the one way to change a live table: no module outside the room takes
    a room's lock or commits through it (or past it, through the writer)."""
    reached = [where for path in sorted(APP.rglob("*.py")) for where in reaches_into_a_room(path)]
    assert reached == []


def test_the_door_check_sees_the_ways_in(tmp_path: Path) -> None:
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text(
        "async def f(room, store):\n"
        "    async with room.lock:\n"
        "        await room.commit(None, None)\n"
        "        await room._commit(None, None)\n"
        "    async with room._lock:\n"
        "        await store.writer.commit(table_id=1, expected_version=0, change=None)\n"
    )
    assert len(reaches_into_a_room(sneaky)) == 5
