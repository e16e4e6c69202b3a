// libwarpsim_xmem: what a CUDA program links to call the XMem atom functions of
// include/warpsim/xmem.h. Under warpsim, the drop-in libcudart defines the same functions and
// these forward to it (the next definition in the process's search order); on a real GPU there
// is none: CreateAtom gives ids from 0 per call site as the simulator would (so a program's
// logic sees the same ids), and the other calls accept everything and do nothing. Atoms are
// hints: a program computes the same without them.
#include <dlfcn.h>

#include <mutex>
#include <string>
#include <unordered_map>

#include "warpsim/xmem.h"

namespace {

template <class Function>
Function next(const char* name, Function self) {
  void* found = dlsym(RTLD_NEXT, name);
  return found == nullptr || found == reinterpret_cast<void*>(self) ? nullptr : reinterpret_cast<Function>(found);
}

// Ids per call site without the simulator.
warpsimAtomId localId(const char* file, int line) {
  static std::mutex lock;
  static std::unordered_map<std::string, warpsimAtomId> ids;
  const std::lock_guard<std::mutex> hold(lock);
  const std::string site = std::string(file == nullptr ? "?" : file) + ":" + std::to_string(line);
  auto [it, added] = ids.emplace(site, static_cast<warpsimAtomId>(ids.size()));
  return it->second;
}

}  // namespace

extern "C" warpsimAtomId warpsimCreateAtomAt(const char* file, int line, uint32_t data_properties,
                                             warpsimAtomAccessPattern pattern, uint8_t reuse, int32_t rw) {
  using Create = warpsimAtomId (*)(const char*, int, uint32_t, warpsimAtomAccessPattern, uint8_t, int32_t);
  static const Create simulator = next<Create>("warpsimCreateAtomAt", &warpsimCreateAtomAt);
  return simulator != nullptr ? simulator(file, line, data_properties, pattern, reuse, rw) : localId(file, line);
}

extern "C" int warpsimAtomMap(warpsimAtomId atom, const void* start, size_t size, int map_or_unmap) {
  using Map = int (*)(warpsimAtomId, const void*, size_t, int);
  static const Map simulator = next<Map>("warpsimAtomMap", &warpsimAtomMap);
  return simulator != nullptr ? simulator(atom, start, size, map_or_unmap) : 0;
}

extern "C" int warpsimAtom2DMap(warpsimAtomId atom, const void* start, size_t lenX, size_t sizeX, size_t sizeY,
                                int map_or_unmap) {
  using Map = int (*)(warpsimAtomId, const void*, size_t, size_t, size_t, int);
  static const Map simulator = next<Map>("warpsimAtom2DMap", &warpsimAtom2DMap);
  return simulator != nullptr ? simulator(atom, start, lenX, sizeX, sizeY, map_or_unmap) : 0;
}

extern "C" int warpsimAtom3DMap(warpsimAtomId atom, const void* start, size_t lenX, size_t lenY, size_t sizeX,
                                size_t sizeY, size_t sizeZ, int map_or_unmap) {
  using Map = int (*)(warpsimAtomId, const void*, size_t, size_t, size_t, size_t, size_t, int);
  static const Map simulator = next<Map>("warpsimAtom3DMap", &warpsimAtom3DMap);
  return simulator != nullptr ? simulator(atom, start, lenX, lenY, sizeX, sizeY, sizeZ, map_or_unmap) : 0;
}

extern "C" int warpsimAtomActivate(warpsimAtomId atom) {
  using Switch = int (*)(warpsimAtomId);
  static const Switch simulator = next<Switch>("warpsimAtomActivate", &warpsimAtomActivate);
  return simulator != nullptr ? simulator(atom) : 0;
}

extern "C" int warpsimAtomDeactivate(warpsimAtomId atom) {
  using Switch = int (*)(warpsimAtomId);
  static const Switch simulator = next<Switch>("warpsimAtomDeactivate", &warpsimAtomDeactivate);
  return simulator != nullptr ? simulator(atom) : 0;
}
