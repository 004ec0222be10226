"""Fill the lessons' English catalog (msgstr = msgid) and report German entries still empty.

PYTHONPATH=. .venv/bin/python tools/fill_lessons_po.py
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1] / "app" / "lesson" / "translations"


def main() -> None:
    path = ROOT / "en" / "LC_MESSAGES" / "lessons.po"
    with path.open("rb") as file:
        catalog = read_po(file, locale="en")
    for message in catalog:
        if message.id:
            message.string = message.id
            message.flags.discard("fuzzy")
    with path.open("wb") as file:
        write_po(file, catalog, omit_header=False)
    with (ROOT / "de" / "LC_MESSAGES" / "lessons.po").open("rb") as file:
        german = read_po(file, locale="de")
    missing = [m.id for m in german if m.id and (not m.string or m.fuzzy)]
    print("\n".join(f"missing de: {m}" for m in missing) or "de complete")


if __name__ == "__main__":
    main()
