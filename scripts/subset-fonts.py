#!/usr/bin/env python3
"""Makes the app's Inter files in public/fonts/ from @fontsource-variable/inter 5.3.0 (decision 023, addendum 4).

    python3 scripts/subset-fonts.py        (Debian: apt-get install python3-fonttools python3-brotli)

Fontsource's latin file (48 kB) holds every weight from 100 to 900 and the fraction glyphs; the first screen of every
page waits for it on a slow phone connection. The files made here draw the same glyphs, with the same kerning, at
every weight the stylesheet uses, with less:

- the weight axis from 400 to 900: the stylesheets ask for 400 to 800, and `bolder` inside 600-800 text gives 900;
- the layout features a browser applies by default or the stylesheets ask for (`tabular-nums`); the fractions
  (frac, numr, dnom: `font-variant-numeric: diagonal-fractions`, never used) are left out;
- fontsource's latin range split in two: `inter-latin-basic` (ASCII, Latin-1 and the punctuation the app's and the
  spec's texts use, and the narrow no-break space Intl puts in times), which every page loads, and
  `inter-latin-rest` (the rest of that range: arrows, trade mark, ligature letters...), which a browser fetches only
  for a page that shows one of its characters. Their unicode-ranges, printed below, go in app/styles/app/fonts.css.
- `inter-latin-ext`: fontsource's latin-ext file with the same weight range and features.

The script checks its output: at weights 400 to 900 (every 50) each character's advance width must be within 1 unit of
2048 of the one fontsource's file gives and each outline point within 2 (a thousandth of an em: re-encoding rounds
what a variation moves to whole units), or it stops without writing.
"""
import hashlib
import io
import os
import subprocess
import sys
import tarfile
import tempfile

from fontTools import subset
from fontTools.pens.recordingPen import DecomposingRecordingPen
from fontTools.ttLib import TTFont
from fontTools.varLib import instancer

PACKAGE = "@fontsource-variable/inter@5.3.0"
SOURCES = {  # fontsource's files and their sha256, so a different package cannot slip in
    "inter-latin-wght-normal.woff2": "3100e775e8616cd2611beecfa23a4263d7037586789b43f035236a2e6fbd4c62",
    "inter-latin-ext-wght-normal.woff2": "34b9c504cab7a73e37b746343a449132e56cf7b5481af2cb81dc74dcff25c956",
}
WEIGHTS = (400, 900)
FEATURES = ["calt", "ccmp", "kern", "locl", "mark", "mkmk", "pnum", "tnum"]
# ASCII, Latin-1, and from General Punctuation and Currency: thin space, – — ‘ ’ “ ” • … narrow no-break space
# (Intl's times and ranges use these two spaces), €.
BASIC = set(range(0x20, 0x7F)) | set(range(0xA0, 0x100)) | {
    0x2009, 0x2013, 0x2014, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2026, 0x202F, 0x20AC,
}
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "public", "fonts")


def fetch_sources(tmp):
    subprocess.run(["npm", "pack", PACKAGE, "--silent", "--pack-destination", tmp], check=True, stdout=subprocess.DEVNULL)
    [tgz] = [f for f in os.listdir(tmp) if f.endswith(".tgz")]
    files = {}
    with tarfile.open(os.path.join(tmp, tgz)) as tar:
        for name, digest in SOURCES.items():
            data = tar.extractfile(f"package/files/{name}").read()
            if hashlib.sha256(data).hexdigest() != digest:
                sys.exit(f"{name} in {PACKAGE} is not the expected file")
            files[name] = data
    return files


def make(source, codepoints):
    font = TTFont(io.BytesIO(source), recalcTimestamp=False)  # keep fontsource's date: the same bytes on every run
    options = subset.Options()
    options.layout_features = FEATURES
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.glyph_names = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(codepoints))
    subsetter.subset(font)
    font = instancer.instantiateVariableFont(font, {"wght": WEIGHTS})
    out = io.BytesIO()
    font.flavor = "woff2"
    font.save(out)
    return out.getvalue()


def drawing(font, weight):
    """Each character's outline and advance width at this weight."""
    static = instancer.instantiateVariableFont(TTFont(io.BytesIO(font)), {"wght": weight})
    glyphs = static.getGlyphSet()
    result = {}
    for cp, name in static.getBestCmap().items():
        pen = DecomposingRecordingPen(glyphs)
        glyphs[name].draw(pen)
        result[cp] = (glyphs[name].width, [(op, [tuple(p) for p in args]) for op, args in pen.value])
    return result


def same(want, got, tolerance=2):
    if want is None or abs(want[0] - got[0]) > 1 or len(want[1]) != len(got[1]):
        return False
    for (op1, points1), (op2, points2) in zip(want[1], got[1]):
        if op1 != op2 or len(points1) != len(points2):
            return False
        if any(abs(a - b) > tolerance for p1, p2 in zip(points1, points2) for a, b in zip(p1, p2)):
            return False
    return True


def check(source, made):
    for weight in range(WEIGHTS[0], WEIGHTS[1] + 1, 50):
        want, got = drawing(source, weight), drawing(made, weight)
        for cp, shape in got.items():
            if not same(want.get(cp), shape):
                sys.exit(f"U+{cp:04X} differs from fontsource's at weight {weight}")


def unicode_range(codepoints):
    runs, cps = [], sorted(codepoints)
    start = prev = cps[0]
    for cp in cps[1:] + [None]:
        if cp is not None and cp == prev + 1:
            prev = cp
            continue
        runs.append(f"U+{start:04X}" if start == prev else f"U+{start:04X}-{prev:04X}")
        if cp is not None:
            start = prev = cp
    return ", ".join(runs)


def main():
    # The same bytes on every run: fontTools walks sets of glyph names, whose order follows Python's string hashing.
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"})
    with tempfile.TemporaryDirectory() as tmp:
        sources = fetch_sources(tmp)
    latin, ext = sources["inter-latin-wght-normal.woff2"], sources["inter-latin-ext-wght-normal.woff2"]
    latin_cps = set(TTFont(io.BytesIO(latin)).getBestCmap())
    ext_cps = set(TTFont(io.BytesIO(ext)).getBestCmap())
    outputs = {
        "inter-latin-basic-wght.woff2": (latin, BASIC & latin_cps),
        "inter-latin-rest-wght.woff2": (latin, latin_cps - BASIC - {0}),  # U+0000: nothing to draw
        "inter-latin-ext-wght.woff2": (ext, ext_cps - latin_cps),
    }
    made = {}
    for name, (source, cps) in outputs.items():
        made[name] = make(source, cps)
        check(source, made[name])
    for name, data in made.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
        print(f"{name}: {len(data)} bytes; unicode-range: {unicode_range(set(TTFont(io.BytesIO(data)).getBestCmap()))}")


if __name__ == "__main__":
    main()
