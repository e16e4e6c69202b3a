// The XMem atom calls of include/warpsim/xmem.h. A program links libwarpsim_xmem (src/userlib),
// whose functions forward here when this library is loaded and do nothing on a real GPU; atoms
// and their operations go to the Device's hint store and from there with the launches.
#include <string>

#include "cudart/api_util.h"
#include "hints/atoms.h"
#include "warpsim/xmem.h"

using namespace warpsim::cudart;
using warpsim::hints::AtomOp;

namespace {

int issue(const char* api, const AtomOp& op) {
  return apiCallKeepingBatch(api, cudaErrorInvalidValue, [&](Context& cx) {
    cx.device().issueAtomOp(op);
    return cudaSuccess;
  });
}

uint32_t atomId(warpsimAtomId atom) { return atom < 0 ? warpsim::hints::kMaxAtoms : static_cast<uint32_t>(atom); }

AtomOp mapping(warpsimAtomId atom, const void* start, int mapOrUnmap) {
  AtomOp op;
  op.kind = mapOrUnmap != 0 ? AtomOp::Kind::Map : AtomOp::Kind::Unmap;
  op.atom = atomId(atom);
  op.base = reinterpret_cast<uint64_t>(start);
  return op;
}

}  // namespace

extern "C" warpsimAtomId warpsimCreateAtomAt(const char* file, int line, uint32_t data_properties,
                                             warpsimAtomAccessPattern pattern, uint8_t reuse, int32_t rw) {
  warpsimAtomId id = -1;
  apiCallKeepingBatch("warpsimCreateAtom", cudaErrorInvalidValue, [&](Context& cx) {
    if (std::string why = warpsim::hints::checkAtom(data_properties, pattern, rw); !why.empty()) {
      throw warpsim::runtime::Error(why);
    }
    const std::string site = std::string(file == nullptr ? "?" : file) + ":" + std::to_string(line);
    id = static_cast<warpsimAtomId>(
        cx.device().createAtom(site, warpsim::hints::atomAttributes(data_properties, pattern, reuse, rw)));
    return cudaSuccess;
  });
  return id;
}

extern "C" int warpsimAtomMap(warpsimAtomId atom, const void* start, size_t size, int map_or_unmap) {
  AtomOp op = mapping(atom, start, map_or_unmap);
  op.lenX = op.sizeX = size;
  return issue("warpsimAtomMap", op);
}

extern "C" int warpsimAtom2DMap(warpsimAtomId atom, const void* start, size_t lenX, size_t sizeX, size_t sizeY,
                                int map_or_unmap) {
  AtomOp op = mapping(atom, start, map_or_unmap);
  op.lenX = lenX;
  op.sizeX = sizeX;
  op.lenY = op.sizeY = sizeY;
  return issue("warpsimAtom2DMap", op);
}

extern "C" int warpsimAtom3DMap(warpsimAtomId atom, const void* start, size_t lenX, size_t lenY, size_t sizeX,
                                size_t sizeY, size_t sizeZ, int map_or_unmap) {
  AtomOp op = mapping(atom, start, map_or_unmap);
  op.lenX = lenX;
  op.lenY = lenY;
  op.sizeX = sizeX;
  op.sizeY = sizeY;
  op.sizeZ = sizeZ;
  return issue("warpsimAtom3DMap", op);
}

extern "C" int warpsimAtomActivate(warpsimAtomId atom) {
  AtomOp op;
  op.kind = AtomOp::Kind::Activate;
  op.atom = atomId(atom);
  return issue("warpsimAtomActivate", op);
}

extern "C" int warpsimAtomDeactivate(warpsimAtomId atom) {
  AtomOp op;
  op.kind = AtomOp::Kind::Deactivate;
  op.atom = atomId(atom);
  return issue("warpsimAtomDeactivate", op);
}
