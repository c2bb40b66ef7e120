#!/usr/bin/env python3
"""check-doc-links.py -- every relative link of the documentation resolves.

    scripts/check-doc-links.py [--allow PATH]... [FILE.md...]

Checks README.md and docs/**/*.md (or the files given): every relative
link [text](target) must name an existing file or folder, relative to the
page, and a #fragment must name a heading of the target page (GitHub's
anchors: lower case, punctuation dropped, spaces to hyphens, -1, -2 ... for
repeats).  --allow PATH accepts a target that does not exist yet (a page
being written elsewhere).  Links inside code blocks and code spans are
ignored.  Prints one line per broken link (FILE:LINE: ...) and exits 1 if
there is any.
"""
import os
import re
import sys


def slugs(path):
    """GitHub's anchors of the headings of a markdown file."""
    out, seen, fence = set(), {}, False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.lstrip().startswith("```"):
                fence = not fence
                continue
            m = None if fence else re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
            if not m:
                continue
            text = m.group(2)
            text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)   # links: their text
            text = text.replace("\\", "")
            s = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
            n = seen.get(s, 0)
            seen[s] = n + 1
            out.add(s if n == 0 else f"{s}-{n}")
    return out


def links(path):
    """(line number, target) of every inline link outside code."""
    fence = False
    with open(path, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            if line.lstrip().startswith("```"):
                fence = not fence
                continue
            if fence or line.startswith("    "):
                continue
            line = re.sub(r"`[^`]*`", "", line)
            for m in re.finditer(r"\]\(([^)\s]+)\)", line):
                yield no, m.group(1)


def main(argv):
    allow, files = set(), []
    i = 0
    while i < len(argv):
        if argv[i] == "--allow":
            allow.add(os.path.normpath(argv[i + 1]))
            i += 2
        else:
            files.append(argv[i])
            i += 1
    if not files:
        files = ["README.md"]
        for d, _, names in os.walk("docs"):
            files += [os.path.join(d, n) for n in sorted(names) if n.endswith(".md")]
    bad = 0
    for page in files:
        for no, target in links(page):
            if re.match(r"^[a-z]+:", target):      # http:, https:, mailto:
                continue
            file, _, frag = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(page), file)) if file else page
            if not os.path.exists(dest):
                if dest not in allow:
                    print(f"{page}:{no}: {target}: no such file {dest}")
                    bad = 1
                continue
            if frag and dest.endswith(".md") and frag not in slugs(dest):
                print(f"{page}:{no}: {target}: no heading #{frag} in {dest}")
                bad = 1
    if not bad:
        print(f"links: every relative link of {len(files)} pages resolves")
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
