/*
 * gb_dijkstra.h -- single-source Dijkstra over a whole component: the
 * distance from one cell to every cell, for tables and tools (landmarks,
 * the scenario generator, the heuristic validator, the calibration
 * workload of `gridbench env`).
 *
 * A module of its own, below the workspace and the solver families: it
 * needs only the grid and a queue header, so gb_landmarks.c (which the
 * workspace calls) can use it without calling back into the workspace.
 */
#ifndef GB_DIJKSTRA_H
#define GB_DIJKSTRA_H

#include <stdint.h>

#include "gb_grid.h"

/* Single-source Dijkstra from src over the whole component (exact keys on
 * the bucket queue, gb_exact.h): dist[id] = shortest cost from src, or
 * INFINITY where unreachable (dist must hold g->ncells doubles).  0, or
 * -1 (ENOMEM; dist is then unspecified).  Each value is a + b*GB_SQRT2
 * for the step counts of a shortest path: bit for bit the cost the
 * `dijkstra` solver reports on any queue. */
int gb_dijkstra_all(const gb_grid *g, gb_model m, int32_t src, double *dist);

#endif
