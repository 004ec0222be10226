"""The browser's protocol constants are generated from the server's, and every refusal code the
server can send has a text in the client.

``static/js/protocol.js`` is written by ``tools/gen_protocol_js.py`` from
``app/protocol/inbound.py`` (close codes, ``ErrorCode``, reactions, limits) and the rules'
refusal codes; the client never types them itself.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

from app.protocol.inbound import ErrorCode

REPO = Path(__file__).resolve().parents[2]
JS = REPO / "static" / "js"


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "gen_protocol_js", REPO / "tools" / "gen_protocol_js.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_protocol_js_is_what_the_tool_writes() -> None:
    committed = (JS / "protocol.js").read_text(encoding="utf-8")
    assert committed == _generator().render(), (
        "static/js/protocol.js is out of date: run .venv/bin/python tools/gen_protocol_js.py"
    )


def test_the_generated_module_names_every_error_and_refusal_code() -> None:
    generator = _generator()
    source = generator.render()
    assert set(generator.error_codes()) == {str(code) for code in ErrorCode}
    for code in [*generator.error_codes(), *generator.refusal_codes()]:
        assert f'"{code}"' in source
    assert {"must_follow_suit", "not_started", "nothing_to_undo"} <= set(generator.refusal_codes())


def _client_error_texts() -> set[str]:
    source = (JS / "errors.js").read_text(encoding="utf-8")
    table = re.search(r"const ERROR_TEXT = \{(.*?)\n\};", source, re.DOTALL)
    assert table, "errors.js: no ERROR_TEXT table"
    return set(re.findall(r"^\s*(\w+):", table.group(1), re.MULTILINE))


def test_every_code_the_server_sends_has_a_text_in_the_client() -> None:
    generator = _generator()
    texts = _client_error_texts()
    missing = sorted({str(code) for code in ErrorCode} - texts)
    assert missing == [], f"static/js/errors.js has no text for {missing}"
    missing = sorted(set(generator.refusal_codes()) - texts)
    assert missing == [], f"static/js/errors.js has no text for {missing}"


def test_no_script_types_a_close_code_or_a_reaction_list_itself() -> None:
    generator = _generator()
    codes = {str(value) for value in generator.close_codes().values()}
    for path in sorted(JS.glob("*.js")):
        if path.name == "protocol.js":
            continue
        source = path.read_text(encoding="utf-8")
        assert not set(re.findall(r"\b\d{4}\b", source)) & codes, path.name
        assert "MAX_CHARS = " not in source, path.name
        assert not re.search(r'\["thumbs_up"', source), path.name
