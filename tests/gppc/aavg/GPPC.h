// GPPC.h -- the any-angle track's point type, as its entries declare it,
// for gridbench's own any-angle test entry (tests/test_gppcaa.c builds
// this folder with `gridbench gppc build`, which recognises the track by
// this double-valued xyLoc).
#ifndef GB_TEST_AA_GPPC_H
#define GB_TEST_AA_GPPC_H

namespace GPPC
{
struct xyLoc {
    double x;   // east, 0 at the map's left edge; cell x spans [x, x+1]
    double y;   // south, 0 at the map's top edge
};
}   // namespace GPPC

#endif
