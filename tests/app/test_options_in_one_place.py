"""Each table option is spelled once, in ``app/tables/options.py`` (issue 37).

The forms that open a table (the home page's, a group's) are rendered from
``options.form_options()``, the request schemas (``TableCreate``, the group's ``TableForm``)
take their defaults and bounds from the same names, and the scripts read the numbers from the
rendered form. The main check changes some lines of ``options.py`` (in memory, in a child
process, before anything imports it) and finds each change in the page, the OpenAPI document,
the validation and the stored table.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from app.tables import options

REPO = Path(__file__).resolve().parents[2]

# Each: a line of options.py as it is, and as the child process has it.
EDITS = {
    "MOVE_HOURS = engine.Limits(min=1, max=24 * 14, default=24)": (
        "MOVE_HOURS = engine.Limits(min=2, max=99, default=30)"
    ),
    "TARGET_SCORE = RULES.target_score": (
        "TARGET_SCORE = engine.Limits(min=10, max=900, default=300)"
    ),
    "FORM_PLAYERS = 4": "FORM_PLAYERS = 5",
    'default="live",': 'default="correspondence",',
}

# Runs in the child: options.py with the edits, then the app on a fresh SQLite database.
CHILD = """
import importlib.util, json, sys, warnings

edits, folder = json.loads(sys.argv[1]), sys.argv[2]
assert "app.tables.options" not in sys.modules
spec = importlib.util.find_spec("app.tables.options")
source = spec.loader.get_source(spec.name)
for old, new in edits.items():
    assert source.count(old) == 1, old
    source = source.replace(old, new)
module = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = module
exec(compile(source, spec.origin, "exec"), module.__dict__)

warnings.simplefilter("ignore")
from pydantic import ValidationError
from starlette.testclient import TestClient

from app.config import Settings
from app.groups.schemas import TableForm
from app.lobby.schemas import TableCreate
from app.main import create_app
from app.migrate import upgrade_head


def accepts(**fields):
    try:
        TableCreate(players=4, **fields)
    except ValidationError:
        return False
    return True


url = f"sqlite:///{folder}/mu.db"
upgrade_head(url)
app = create_app(Settings(database_url=url, review_workers=0))
with TestClient(app) as client:
    home = client.get("/?lang=en").text
    group = client.post("/g", data={"name": "Friends"}).text
    code = client.post("/api/tables", json={"players": 4}).json()["invite_code"]
    stored = client.get(f"/api/tables/{code}").json()["options"]
print(json.dumps({
    "home": home,
    "group": group,
    "schema": app.openapi()["components"]["schemas"]["TableCreate"]["properties"],
    "stored": stored,
    "form": TableForm().model_dump(),
    "accepts": {
        "move_hours": [accepts(move_hours=n) for n in (1, 2, 99, 100)],
        "target_score": [accepts(target_score=n) for n in (9, 10, 900, 901)],
    },
}))
"""


class Form(HTMLParser):
    """The controls of a page's forms: each input's attributes by name (a radio group: the
    checked one's value under ``checked``)."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.inputs: dict[str, dict[str, str | None]] = {}
        self.checked: dict[str, str | None] = {}
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        fields = dict(attrs)
        name = fields.get("name")
        if tag != "input" or name is None:
            return
        if fields.get("type") == "radio":
            if "checked" in fields:
                self.checked[name] = fields.get("value")
        else:
            self.inputs[name] = fields


def bounds(form: Form, name: str) -> tuple[str | None, ...]:
    field = form.inputs[name]
    return field.get("value"), field.get("min"), field.get("max")


@pytest.fixture(scope="module")
def changed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("options")
    run = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(EDITS), str(folder)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    result: dict[str, Any] = json.loads(run.stdout)
    return result


def test_a_changed_option_is_in_the_home_form(changed: dict[str, Any]) -> None:
    home = Form(changed["home"])
    assert bounds(home, "move_hours") == ("30", "2", "99")
    # The default rules end at their own score (the engine's); the bounds are the option's.
    assert bounds(home, "target_score")[1:] == ("10", "900")
    assert home.checked == {"players": "5", "ends": "target", "pace": "correspondence"}
    # The chosen pace's own fields are the ones shown (home.js sends those).
    assert re.search(r'data-pace="correspondence"\s*>', changed["home"])
    assert re.search(r'data-pace="live"\s+hidden', changed["home"])


def test_a_changed_option_is_in_the_group_form(changed: dict[str, Any]) -> None:
    group = Form(changed["group"])
    assert bounds(group, "target_score") == ("300", "10", "900")
    assert group.checked["players"] == "5"
    assert changed["form"]["players"] == 5


def test_a_changed_option_is_in_the_schema_and_its_validation(changed: dict[str, Any]) -> None:
    schema = changed["schema"]
    assert (schema["move_hours"]["minimum"], schema["move_hours"]["maximum"]) == (2, 99)
    assert schema["move_hours"]["default"] == 30
    assert schema["pace"]["default"] == "correspondence"
    number = next(kind for kind in schema["target_score"]["anyOf"] if kind["type"] == "integer")
    assert (number["minimum"], number["maximum"]) == (10, 900)
    assert changed["accepts"] == {
        "move_hours": [False, True, True, False],
        "target_score": [False, True, True, False],
    }
    # A request that leaves an option out gets the changed default.
    assert (changed["stored"]["pace"], changed["stored"]["move_hours"]) == ("correspondence", 30)


@pytest.mark.parametrize(
    ("lang", "names"), [("en", ("Live", "Over days")), ("de", ("Am Stück", "Über Tage"))]
)
def test_the_home_form_shows_the_options_as_they_are(
    client: TestClient, lang: str, names: tuple[str, str]
) -> None:
    page = client.get(f"/?lang={lang}").text
    home = Form(page)
    hours = options.MOVE_HOURS
    assert bounds(home, "move_hours") == tuple(map(str, (hours.default, hours.min, hours.max)))
    assert home.checked["pace"] == options.form_options()["pace"]
    assert home.checked["players"] == str(options.FORM_PLAYERS)
    for pace, name in zip(options.form_options()["paces"], names, strict=True):
        assert f'data-testid="pace-{pace}"> {name}</label>' in page


def test_the_home_script_types_no_option() -> None:
    """The home page's script reads every default and bound from its form."""
    source = (REPO / "static" / "js" / "home.js").read_text(encoding="utf-8")
    code = re.sub(r"//[^\n]*|\"[^\"]*\"|'[^']*'|`[^`]*`", "", source)
    assert set(re.findall(r"\b\d+\b", code)) <= {"0", "1"}
    paces = {f'"{pace}"' for pace in options.form_options()["paces"]}
    assert not {pace for pace in paces if pace in source}
