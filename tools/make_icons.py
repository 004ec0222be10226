"""Draw the app icons (static/icons/*.png) from the favicon's design with headless Chromium.

Run once after changing the design: ``.venv/bin/python tools/make_icons.py``. Maskable icons
keep the letter inside the central 80 % safe zone on a full-bleed background.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

OUT = Path(__file__).resolve().parent.parent / "static" / "icons"
GREEN = "#1b5e4a"


def svg(size: int, *, maskable: bool) -> str:
    radius = 0 if maskable else size * 3 // 16
    font = size * (0.5 if maskable else 0.69)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}">'
        f'<rect width="{size}" height="{size}" rx="{radius}" fill="{GREEN}"/>'
        f'<text x="50%" y="50%" dy="0.35em" font-size="{font}" text-anchor="middle" '
        f'fill="white" font-family="DejaVu Sans, sans-serif" font-weight="bold">M</text></svg>'
    )


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    icons = {
        "icon-192.png": (192, False),
        "icon-512.png": (512, False),
        "maskable-192.png": (192, True),
        "maskable-512.png": (512, True),
        "apple-touch-icon.png": (180, True),  # iOS rounds the corners itself
    }
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        page = browser.new_page()
        for name, (size, maskable) in icons.items():
            page.set_viewport_size({"width": size, "height": size})
            drawing = svg(size, maskable=maskable)
            page.set_content(f"<html><body style='margin:0'>{drawing}</body></html>")
            page.screenshot(path=str(OUT / name), omit_background=not maskable)
        browser.close()


if __name__ == "__main__":
    main()
