// Entry.h -- the GPPC API of the any-angle track: the classic track's
// four functions, with real-valued waypoints (GPPC.h).
#ifndef GB_TEST_AA_ENTRY_H
#define GB_TEST_AA_ENTRY_H

#include <string>
#include <vector>

#include "GPPC.h"

typedef GPPC::xyLoc xyLoc;

void PreprocessMap(const std::vector<bool> &bits, int width, int height, const std::string &filename);
void *PrepareForSearch(const std::vector<bool> &bits, int width, int height,
                       const std::string &filename);
// true when the path is complete (also when there is none); false asks
// for another call, which appends more waypoints to path
bool GetPath(void *data, xyLoc s, xyLoc g, std::vector<xyLoc> &path);
std::string GetName();

#endif
