// Entry.h -- the GPPC classic-track API, as every entry declares it, for
// gridbench's own test entry (tests/test_gppc.c builds this folder with
// `gridbench gppc build`).
#ifndef GB_TEST_ENTRY_H
#define GB_TEST_ENTRY_H

#include <cstdint>
#include <string>
#include <vector>

struct xyLoc {
    int16_t x;
    int16_t y;
};

void PreprocessMap(const std::vector<bool> &bits, int width, int height, const std::string &filename);
void *PrepareForSearch(const std::vector<bool> &bits, int width, int height, const std::string &filename);
// true when the path is complete (also when there is none); false asks
// for another call, which appends more waypoints to path
bool GetPath(void *data, xyLoc s, xyLoc g, std::vector<xyLoc> &path);
std::string GetName();

#endif
