// Checks shared by the CUDA test programs: CHECK(call) ends the program (status 1) when a
// runtime call fails; EXPECT(cond, what) prints "ok <what>" or "FAIL <what>" and ends it.
#pragma once
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                      \
  do {                                                                                   \
    cudaError_t e_ = (call);                                                             \
    if (e_ != cudaSuccess) {                                                             \
      std::printf("FAIL %s: %s (%s)\n", #call, cudaGetErrorName(e_), cudaGetErrorString(e_)); \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

#define EXPECT(cond, what)            \
  do {                                \
    if (!(cond)) {                    \
      std::printf("FAIL %s\n", what); \
      std::exit(1);                   \
    }                                 \
    std::printf("ok %s\n", what);     \
  } while (0)
