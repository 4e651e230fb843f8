#!/usr/bin/env python3
"""Regenerate the tables of docs/scale.md from tools/sim/results/*.csv.

  python3 tools/sim/docs_tables.py [--check] [PAGE.md ...]

Run from anywhere; paths are relative to the repository root. Default page:
docs/scale.md. Each generated block of a page sits between two marker lines:

  <!-- generated: tools/sim/sim.py table [--summary | --newest C/A ...] tools/sim/results/*.csv -->
  ...
  <!-- end generated -->

The command in the first marker is run (its globs expanded, sorted, from the
repository root) and its output replaces the lines between the markers.
`sim.py table` without --summary or --newest also prints the simulations'
wall times; that part is left out of the page. Only `tools/sim/sim.py table`
commands are run: they read CSV files and simulate nothing.

--check: change nothing; exit 1 if a page's generated blocks are out of date.
"""

import glob
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
BEGIN = re.compile(r"^<!-- generated: (.*?) -->$")
END = "<!-- end generated -->"
WALL = "\nSimulation wall time"


def run(command):
    """The Markdown a marker's command prints, without the wall times."""
    words = shlex.split(command)
    if words[:2] != ["tools/sim/sim.py", "table"]:
        sys.exit("docs_tables.py: not a `tools/sim/sim.py table` command: " + command)
    args = []
    for w in words[1:]:
        if any(c in w for c in "*?["):
            found = sorted(glob.glob(w, root_dir=ROOT))
            if not found:
                sys.exit("docs_tables.py: no file matches " + w)
            args += found
        else:
            args.append(w)
    out = subprocess.run([sys.executable, os.path.join(ROOT, words[0])] + args,
                         cwd=ROOT, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("docs_tables.py: %s failed:\n%s" % (command, out.stderr))
    text = out.stdout
    if WALL in text:
        text = text[:text.index(WALL)]
    return text.strip("\n")


def regenerate(text):
    """The page with every generated block rebuilt; the number of blocks."""
    lines = text.split("\n")
    out, blocks, i = [], 0, 0
    while i < len(lines):
        m = BEGIN.match(lines[i])
        out.append(lines[i])
        i += 1
        if not m:
            continue
        try:
            end = lines.index(END, i)
        except ValueError:
            sys.exit("docs_tables.py: no %r after %r" % (END, m.group(0)))
        out += ["", run(m.group(1)), "", END]
        i = end + 1
        blocks += 1
    return "\n".join(out), blocks


def main():
    args = sys.argv[1:]
    if "-h" in args or "--help" in args:
        print(__doc__.strip())
        return 0
    check = "--check" in args
    pages = [a for a in args if a != "--check"] or ["docs/scale.md"]
    if any(a.startswith("-") for a in pages):
        sys.exit(__doc__)
    stale = 0
    for page in pages:
        path = os.path.join(ROOT, page)
        with open(path, encoding="utf-8") as f:
            old = f.read()
        new, blocks = regenerate(old)
        if new == old:
            print("%s: %d generated blocks, up to date" % (page, blocks))
        elif check:
            print("%s: generated blocks out of date" % page)
            stale = 1
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
            print("%s: %d generated blocks rewritten" % (page, blocks))
    return stale


if __name__ == "__main__":
    sys.exit(main())
