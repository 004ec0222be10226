"""The browser tests wait with a function, never with a bare expression.

Playwright's ``wait_for_function`` evaluates a string that is not a function's source with
``eval`` while it polls. Our pages' Content-Security-Policy (``script-src 'self'``) refuses that:
the wait fails with an ``EvalError`` whenever its condition does not already hold at the first
look, which on a loaded machine is exactly when it matters. So every condition is written
``() => …`` (or ``v => …`` with an argument). Read from the sources (``ast``), nothing is run.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

BROWSER_TESTS = Path(__file__).resolve().parent / "browser"
_FUNCTION = re.compile(r"^\s*(\(|async\b|function\b|[A-Za-z_$][\w$]*\s*=>)")


def _strings(tree: ast.Module) -> dict[str, str]:
    """The string constants a file names (``NAME = "…"``, anywhere in it)."""
    named: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            if isinstance(node.value.value, str):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        named[target.id] = node.value.value
    return named


def _source(argument: ast.expr, named: dict[str, str]) -> str | None:
    """The condition's text as far as the file shows it (an f-string's literal start)."""
    if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
        return argument.value
    if isinstance(argument, ast.JoinedStr):
        first = argument.values[0] if argument.values else None
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return first.value
        return ""  # starts with a placeholder: no function's source
    if isinstance(argument, ast.Name):
        return named.get(argument.id)  # None for a parameter: not read here
    return None


def bare_expressions(path: Path, named: dict[str, str]) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    named = {**named, **_strings(tree)}
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "wait_for_function"
            and node.args
        ):
            text = _source(node.args[0], named)
            if text is not None and not _FUNCTION.match(text):
                found.append(f"{path.name}:{node.lineno}: {text[:60]!r}")
    return found


def test_every_wait_for_function_polls_a_function() -> None:
    files = sorted(BROWSER_TESTS.glob("*.py"))
    shared: dict[str, str] = {}
    for path in files:  # constants one test module imports from another (driver.MY_TURN)
        shared.update(_strings(ast.parse(path.read_text(encoding="utf-8"))))
    found = [line for path in files for line in bare_expressions(path, shared)]
    assert found == []


def test_the_check_finds_a_bare_expression(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        'READY = "document.body.dataset.ready"\n'
        "page.wait_for_function(READY)\n"
        'page.wait_for_function(f"{READY} && true")\n'
        'page.wait_for_function("() => window.ok")\n'
        'page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=3)\n'
        'page.wait_for_function(f"() => {READY}")\n'
    )
    assert bare_expressions(sample, {}) == [
        "sample.py:2: 'document.body.dataset.ready'",
        "sample.py:3: ''",
    ]
