#!/usr/bin/env python3
"""Regenerates docs/algorithms.md's command outputs from the build.

    scripts/docs_algorithms.py [path/to/mpicoll]     (default: build/mpicoll)

Rewrites the code block after "`mpicoll list`" with `mpicoll list`, and each
block that starts with "$ mpicoll check C --algorithm all --np 1:256" with
that command's output (about two minutes). The check.* tests prove the same
algorithms; this keeps the page equal to what the commands print.
"""
import pathlib
import re
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parent.parent
mpicoll = sys.argv[1] if len(sys.argv) > 1 else str(root / "build" / "mpicoll")
page = root / "docs" / "algorithms.md"
text = page.read_text()


def run(*args):
    return subprocess.run([mpicoll, *args], capture_output=True, text=True, check=True).stdout


start = text.index("```\n", text.index("`mpicoll list`")) + 4
end = text.index("```\n", start)
text = text[:start] + run("list") + text[end:]
pattern = r"\$ mpicoll check (\S+) --algorithm all --np 1:256\n"
for m in reversed(list(re.finditer(pattern, text))):
    end = text.index("```\n", m.end())
    text = text[:m.end()] + run("check", m.group(1), "--algorithm", "all", "--np", "1:256") + \
        text[end:]
page.write_text(text)
