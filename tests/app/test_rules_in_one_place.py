"""No rule is typed twice: the server and the client read the engine's catalog (issue 13).

The variants' names, the colours, what a trump kind is and the game-length limits and defaults
live in ``engine`` (``engine.rules_catalog()``, served as ``GET /api/rules``); these checks read
``app/`` and ``static/`` as text and fail where one of them is written out again.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from starlette.testclient import TestClient

import engine
from engine.bots import DEFAULT_LEVEL, LEVELS

REPO = Path(__file__).resolve().parents[2]
RULES = engine.rules_catalog()
VARIANT_NAMES = {str(variant.name) for variant in RULES.variants}
COLOUR_NAMES = {str(colour) for colour in RULES.colours}


def python_strings(path: Path) -> set[str]:
    """Every string constant of a module but its docstrings and the English words marked for
    translation (``N_("red")`` is a word people read, not the rules' name of a colour)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    prose = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    prose |= {
        id(arg)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "N_"
        for arg in node.args
    }
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose
    }


def test_the_app_names_no_variant_and_no_colour_itself() -> None:
    found = {
        str(path.relative_to(REPO)): names
        for path in sorted((REPO / "app").rglob("*.py"))
        if (names := python_strings(path) & (VARIANT_NAMES | COLOUR_NAMES))
    }
    assert found == {}


SCRIPTS = sorted((REPO / "static").rglob("*.js"))
QUOTED = re.compile(r"""["'`](\w+)["'`]""")


def test_the_scripts_name_no_variant_and_no_colour_list() -> None:
    for path in SCRIPTS:
        quoted = set(QUOTED.findall(path.read_text(encoding="utf-8")))
        assert not quoted & VARIANT_NAMES, path
        # A colour may be a key of a table of its translated names, never a list of colours.
        assert len(quoted & COLOUR_NAMES) in (0, len(COLOUR_NAMES)), path


def test_the_scripts_parse_no_trump_and_default_no_rule() -> None:
    kitty = {deal.kitty_size for variant in RULES.variants for deal in variant.deals} - {0}
    limits = {RULES.target_score.default, RULES.target_score.max, RULES.hands.max} | kitty
    for path in SCRIPTS:
        source = path.read_text(encoding="utf-8")
        assert "[0-9]" not in source, f"{path}: what a trump kind is, is the catalog's to say"
        fallbacks = {int(n) for n in re.findall(r"\?\?\s*(\d+)", source)}
        assert not fallbacks & limits, f"{path}: a rule's number as a fallback"


def test_the_catalog_is_served_with_titles_and_bot_levels(client: TestClient) -> None:
    german = client.get("/api/rules?lang=de")
    assert german.status_code == 200 and "max-age" in german.headers["cache-control"]
    served = german.json()
    assert served == {**served, **engine.to_json_object(RULES), "variants": served["variants"]}
    assert [v["name"] for v in served["variants"]] == [str(v.name) for v in RULES.variants]
    assert [v["title"] for v in served["variants"]][0] == "Klassisches Mü"
    english = client.get("/api/rules").json()
    assert english["variants"][0]["title"] == "Classic Mü"
    assert (served["bot_levels"], served["bot_level"]) == (list(LEVELS), DEFAULT_LEVEL)
    seven = next(kind for kind in served["trump_kinds"] if kind["kind"] == "7")
    assert seven == {"kind": "7", "colour": None, "number": 7}


def test_the_home_form_is_drawn_from_the_catalog(client: TestClient) -> None:
    page = client.get("/?lang=en").text
    for variant in RULES.variants:
        assert f'value="{variant.name}"' in page
    assert f'max="{RULES.target_score.max}"' in page and f'max="{RULES.hands.max}"' in page
    usual = RULES.variant(RULES.default_variant)
    assert f'name="hands" value="{usual.suggested_hands}"' in page


def test_table_options_are_judged_by_the_engines_limits(client: TestClient) -> None:
    too_long = {"players": 4, "hands": RULES.hands.max + 1}
    too_many = {"players": max(RULES.player_counts) + 1}
    for body in (too_long, too_many, {"players": 4, "variant": "pinochle"}):
        assert client.post("/api/tables", json=body).status_code == 422
    ok = client.post("/api/tables", json={"players": 4, "hands": RULES.hands.max})
    assert ok.status_code == 201
