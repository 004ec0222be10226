"""No import circle: in the client's scripts (``static/``), in ``app/`` and in ``engine/``.

A circle (``a`` imports ``b`` imports ``a``) makes the order in which modules run decide what
exists when, and makes neither module understandable without the other. The imports are read
from the sources, nothing is run:

- the scripts: ``import … from "./x.js"``, ``export … from "./x.js"``, ``import "./x.js"`` and
  ``import("./x.js")``, relative to the importing file;
- Python (``ast``): ``import a.b`` and ``from a.b import c`` wherever they stand (in a function
  or under ``if TYPE_CHECKING:`` too). ``from a.b import c`` is an edge to the module ``a.b.c``
  when ``c`` is a module, else to ``a.b``. A package's ``__init__`` run on the way to a module
  is no edge (it is the same for every importer).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
STATIC = REPO / "static"
PYTHON_PACKAGES = ("app", "engine")

Graph = Mapping[str, set[str]]


# ----- reading the imports -----

_JS_COMMENT = re.compile(r"/\*.*?\*/|(?<![:\"'`\\])//[^\n]*", re.DOTALL)
# `from "./x.js"` (import and export), `import "./x.js"`, `import("./x.js")`.
_JS_IMPORT = re.compile(r"""\b(?:from|import)\s*\(?\s*["'](\.{1,2}/[^"']+)["']""")


def js_imports(path: Path, root: Path = STATIC) -> set[str]:
    """The scripts ``path`` imports, as paths relative to ``root``."""
    source = _JS_COMMENT.sub("", path.read_text(encoding="utf-8"))
    found = set()
    for spec in _JS_IMPORT.findall(source):
        target = (path.parent / spec).resolve()
        assert target.is_file(), f"{path}: imports {spec}, which is not there"
        found.add(target.relative_to(root).as_posix())
    return found


def js_graph() -> dict[str, set[str]]:
    return {
        path.relative_to(STATIC).as_posix(): js_imports(path)
        for path in sorted(STATIC.rglob("*.js"))
        if "vendor" not in path.parts
    }


def module_name(path: Path) -> str:
    relative = path.relative_to(REPO).with_suffix("")
    parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
    return ".".join(parts)


def python_modules() -> dict[str, Path]:
    return {
        module_name(path): path
        for package in PYTHON_PACKAGES
        for path in sorted((REPO / package).rglob("*.py"))
    }


def python_imports(name: str, path: Path, modules: Iterable[str]) -> set[str]:
    """The modules of ``modules`` that the module ``name`` (at ``path``) imports."""
    known = set(modules)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package, up level - 1
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.add(submodule if submodule in known else base)
    return (found & known) - {name}


def python_graph() -> dict[str, set[str]]:
    modules = python_modules()
    return {name: python_imports(name, path, modules) for name, path in modules.items()}


# ----- finding circles -----


def circles(graph: Graph) -> list[frozenset[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative:
    every circle lies within one of them)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[frozenset[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = set()
                    while (member := stack.pop()) != node:
                        on_stack.discard(member)
                        group.add(member)
                    on_stack.discard(node)
                    if group:
                        groups.append(frozenset(group | {node}))
            elif target not in index:
                index[target] = low[target] = len(index)
                stack.append(target)
                on_stack.add(target)
                work.append((target, iter(sorted(graph.get(target, ())))))
            elif target in on_stack:
                low[node] = min(low[node], index[target])
    return groups


def one_circle(graph: Graph, group: frozenset[str]) -> list[str]:
    """A shortest circle through the group's first module (by name), to name in a failure."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for target in sorted(graph.get(node, set()) & group):
                if target == start:
                    return [*paths[node], start]
                if target not in paths:
                    paths[target] = [*paths[node], target]
                    following.append(target)
        frontier = following
    raise AssertionError(f"no circle in {sorted(group)}")


def describe(graph: Graph, groups: Iterable[frozenset[str]]) -> str:
    return "; ".join(
        " -> ".join(one_circle(graph, group)) + f" (of {sorted(group)})" for group in groups
    )


# ----- the checks -----


def test_the_scripts_import_no_circle() -> None:
    graph = js_graph()
    found = circles(graph)
    assert not found, f"import circles in static/: {describe(graph, found)}"


def test_app_and_engine_import_no_circle() -> None:
    graph = python_graph()
    found = circles(graph)
    assert not found, f"import circles: {describe(graph, found)}"


def test_the_engine_imports_nothing_from_the_app() -> None:
    graph = python_graph()
    wrong = {
        name: sorted(targets)
        for name, targets in graph.items()
        if name.startswith("engine") and any(t.startswith("app") for t in targets)
    }
    assert wrong == {}


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
        ({"a": {"b"}, "b": {"a"}, "c": {"a"}}, [["a", "b", "a"]]),
        ({"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"d"}}, [["a", "b", "c", "a"]]),
    ],
)
def test_the_finder_names_each_circle(
    graph: dict[str, set[str]], expected: list[list[str]]
) -> None:
    assert [one_circle(graph, group) for group in circles(graph)] == expected


def test_the_readers_see_every_kind_of_import(tmp_path: Path) -> None:
    for name in ("a", "b", "c", "d", "e"):
        (tmp_path / f"{name}.js").write_text("")
    (tmp_path / "main.js").write_text(
        'import { x,\n  y } from "./a.js";\n'
        'export { z } from "./b.js";\n'
        'import "./c.js";\n'
        'const later = () => import("./d.js"); // see https://example.org\n'
        '/* import { no } from "./e.js"; */\n'
        '// import { no } from "./e.js";\n'
    )
    assert js_imports(tmp_path / "main.js", tmp_path) == {"a.js", "b.js", "c.js", "d.js"}
    # Lazy (in a function), ``from package import submodule`` and a package itself.
    graph = python_graph()
    assert "app.main" in graph["app.__main__"]
    assert {"app.web.i18n", "app.web.pages"} <= graph["app.web.router"]
    assert "engine" in graph["app.tables.options"]
