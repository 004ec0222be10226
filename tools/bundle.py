"""Bundle the pages' scripts and styles with esbuild (``make bundle``; see app/web/bundle.py).

The entry points are the sources the templates name with ``asset("…")``: each script becomes
one minified ES module holding every module it imports (whatever modules exist now), each
stylesheet one minified file, all in ``bundle/`` with a content hash in the name, each beside
its Brotli-compressed copy (``.br``, Node's zlib at its best quality: about a sixth smaller
than the gzip the app makes on the fly), and ``bundle/manifest.json`` maps each source to its
file and records the sources' digest.

    .venv/bin/python tools/bundle.py      # needs node_modules (make bundle runs npm ci first)
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from app.web import bundle  # noqa: E402

STATIC = ROOT / "static"
TEMPLATES = ROOT / "templates"
ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"
ASSET = re.compile(r"""asset\(\s*["']([^"']+)["']\s*\)""")
# Node's own zlib: each file named on the command line gets its .br beside it.
BROTLI = """
const { readFileSync, writeFileSync } = require("node:fs");
const zlib = require("node:zlib");
const { BROTLI_PARAM_QUALITY, BROTLI_MAX_QUALITY } = zlib.constants;
const best = { params: { [BROTLI_PARAM_QUALITY]: BROTLI_MAX_QUALITY } };
for (const path of process.argv.slice(1)) {
  writeFileSync(path + ".br", zlib.brotliCompressSync(readFileSync(path), best));
}
"""


def entries() -> list[str]:
    """Every source a template names with ``asset("…")``, relative to ``static/``."""
    named = {
        match
        for path in TEMPLATES.rglob("*.html")
        for match in ASSET.findall(path.read_text("utf-8"))
    }
    missing = [name for name in named if not (STATIC / name).is_file()]
    if missing:
        raise SystemExit(f"templates name missing files: {missing}")
    return sorted(named)


def build(out: Path) -> dict[str, str]:
    """Run esbuild into ``out``; source (relative to ``static/``) → the output's name."""
    metafile = out / "meta.json"
    subprocess.run(
        [
            str(ESBUILD),
            *(f"static/{name}" for name in entries()),
            "--bundle",
            "--format=esm",
            "--minify",
            "--legal-comments=none",
            # What the sources name by its URL (a stylesheet's fonts) stays where the app serves it.
            "--external:/static/*",
            "--log-level=warning",
            "--entry-names=[name]-[hash]",
            f"--outdir={out}",
            f"--metafile={metafile}",
        ],
        cwd=ROOT,
        check=True,
    )
    outputs = json.loads(metafile.read_text())["outputs"]
    metafile.unlink()
    subprocess.run(
        ["node", "-e", BROTLI, *(str(out / Path(name).name) for name in outputs)], check=True
    )
    return {
        Path(meta["entryPoint"]).relative_to("static").as_posix(): Path(output).name
        for output, meta in outputs.items()
        if "entryPoint" in meta
    }


def main() -> None:
    if not ESBUILD.exists():
        raise SystemExit("esbuild is missing: run `npm ci` (make bundle does)")
    digest = bundle.sources_digest(STATIC)
    target = ROOT / "bundle"
    with tempfile.TemporaryDirectory(
        dir=ROOT, prefix=".bundle-", ignore_cleanup_errors=True
    ) as folder:
        out = Path(folder)
        files = build(out)
        manifest = {"sources": digest, "files": files}
        (out / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
        if bundle.sources_digest(STATIC) != digest:
            raise SystemExit("a source changed while bundling: run make bundle again")
        out.chmod(0o755)
        # Swap the whole folder at once: a running server never sees half a bundle.
        old = ROOT / ".bundle-old"
        shutil.rmtree(old, ignore_errors=True)
        if target.exists():
            target.rename(old)
        out.rename(target)
        shutil.rmtree(old, ignore_errors=True)
    for name, file in sorted(files.items()):
        size, brotli = ((target / f).stat().st_size for f in (file, file + ".br"))
        print(f"{size:8d} {brotli:7d} br  bundle/{file}  (static/{name})")


if __name__ == "__main__":
    main()
