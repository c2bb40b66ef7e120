#!/usr/bin/env python3
"""Reference gridbench external solver: A* with the octile heuristic.

Speaks the line protocol of docs/protocol.md on stdin/stdout; standard
library only.  Try it:  ./gridbench run --external 'python3 examples/solver.py' SCEN
Honours the movement model it is told (8-nocut, 8-cut1, 8-cutall, 4).
"""
import heapq
import sys
import time

SQRT2 = 2 ** 0.5
STRAIGHT = [(0, -1), (1, 0), (0, 1), (-1, 0)]
DIAGONAL = [(1, -1), (1, 1), (-1, 1), (-1, -1)]


def astar(free, model, s, t):
    """Shortest path from s to t as a list of (x, y), or None."""
    def h(x, y):
        dx, dy = abs(x - t[0]), abs(y - t[1])
        return dx + dy if model == "4" else max(dx, dy) + (SQRT2 - 1) * min(dx, dy)

    steps = [(dx, dy, 1.0) for dx, dy in STRAIGHT]
    if model != "4":
        steps += [(dx, dy, SQRT2) for dx, dy in DIAGONAL]
    g, parent, closed = {s: 0.0}, {s: None}, set()
    heap = [(h(*s), 0.0, s)]                # (f, -g, cell): ties go to larger g
    while heap:
        c = heapq.heappop(heap)[2]
        if c in closed:
            continue                         # stale entry (lazy deletion)
        if c == t:
            path = []
            while c is not None:
                path.append(c)
                c = parent[c]
            return path[::-1]
        closed.add(c)
        x, y = c
        for dx, dy, cost in steps:
            if not free(x + dx, y + dy):
                continue
            if dx and dy:                    # diagonal: the corner rule of the model
                a, b = free(x + dx, y), free(x, y + dy)
                if (model == "8-nocut" and not (a and b)) or (model == "8-cut1" and not (a or b)):
                    continue
            n, gn = (x + dx, y + dy), g[c] + cost
            if gn < g.get(n, float("inf")):
                g[n], parent[n] = gn, c
                heapq.heappush(heap, (gn + h(*n), -gn, n))
    return None


def read_map(first):
    """Read the rows after 'map W H MODEL' and the closing 'end'."""
    _, w, h, model = first.split()
    w, h = int(w), int(h)
    rows = [sys.stdin.readline().rstrip("\r\n") for _ in range(h)]
    if sys.stdin.readline().strip() != "end" or any(len(r) != w for r in rows):
        sys.exit("solver.py: malformed map block")
    cells = {(x, y) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch in ".GS"}
    return (lambda x, y: (x, y) in cells), model


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()                       # every answer must be flushed


def main():
    free = model = None
    for line in iter(sys.stdin.readline, ""):   # "" = EOF: gridbench is gone
        f = line.split()
        if not f:
            continue
        if f[0] == "map":
            free, model = read_map(line)
            say("ready astar-octile-py")
        elif f[0] == "query":
            qid, (sx, sy, gx, gy) = f[1], map(int, f[2:6])
            t0 = time.perf_counter_ns()
            path = astar(free, model, (sx, sy), (gx, gy))
            dt = time.perf_counter_ns() - t0
            if path is None:
                say(f"nopath {qid} time_ns {dt}")
            else:
                cells = " ".join(f"{x} {y}" for x, y in path)
                say(f"path {qid} {len(path)} {cells} time_ns {dt}")
        elif f[0] == "quit":
            return
        else:
            sys.exit(f"solver.py: unknown message {f[0]!r}")


if __name__ == "__main__":
    main()
