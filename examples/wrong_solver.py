#!/usr/bin/env python3
"""A deliberately wrong gridbench external solver, to test that every kind
of wrong answer is caught (tests/test_external.c).  Behaviour by query id:

  id % 10 == 0  a correct optimal path
             1  a path that ignores the model's corner rule (A* under 8-cutall)
             2  a valid but suboptimal path (a detour: start, next, start, next, ...)
             3  garbage text
             4  a wrong cell count (one more than the cells given)
             5  the wrong query id (id + 1)
             6  no answer: sleeps 60 s (past any sensible timeout)
             7  exits with status 3 without answering
             8  kills itself with SIGTERM
             9  'nopath' although the goal may be reachable
Otherwise it follows docs/protocol.md (reusing solver.py).
"""
import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from solver import astar, read_map, say  # noqa: E402


def cells(path):
    return " ".join(f"{x} {y}" for x, y in path)


def answer(qid, free, model, s, t):
    kind = qid % 10
    if kind == 6:
        time.sleep(60)
    if kind == 7:
        sys.exit(3)
    if kind == 8:
        os.kill(os.getpid(), signal.SIGTERM)
    if kind == 3:
        return "hello, gridbench"
    if kind == 9:
        return f"nopath {qid}"
    path = astar(free, "8-cutall" if kind == 1 else model, s, t)
    if path is None:
        return f"nopath {qid}"
    if kind == 2 and len(path) >= 2:
        path = [path[0], path[1]] + path     # start, next, start, next, ... goal
    if kind == 4:
        return f"path {qid} {len(path) + 1} {cells(path)}"
    if kind == 5:
        return f"path {qid + 1} {len(path)} {cells(path)}"
    return f"path {qid} {len(path)} {cells(path)}"


def main():
    free = model = None
    for line in iter(sys.stdin.readline, ""):
        f = line.split()
        if f and f[0] == "map":
            free, model = read_map(line)
            say("ready wrong-py")
        elif f and f[0] == "query":
            qid, (sx, sy, gx, gy) = int(f[1]), map(int, f[2:6])
            say(answer(qid, free, model, (sx, sy), (gx, gy)))
        elif f and f[0] == "quit":
            return


if __name__ == "__main__":
    main()
