#include "mech/caba/routines/caba_routines.h"
#include "mech/caba/routines/routine_text.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "mech/caba/compression/bdi.h"
#include "mech/caba/routines/bdi_routines.h"
#include "mech/caba/routines/cpack_routines.h"
#include "mech/caba/routines/fpc_routines.h"
#include "compiler/register_allocation.h"
#include "ptx/parser.h"

namespace warpsim::mech::caba {

namespace {

// The store's PTX, register-allocated like a compiler would (the fewest registers without
// spills): its routines' register counts are what they add per thread.
timing::AssistRoutineStore buildStore(uint32_t lineBytes) {
  const std::string text = kRoutineModuleHeader + bdiRoutines(lineBytes) +
                           fpcRoutines(lineBytes) + cpackRoutines(lineBytes);
  ir::Module m = ptx::parseModule(text, "caba-assist-warp-store.ptx");
  const compiler::ModuleAllocation a =
      compiler::allocateRegisters(m, compiler::RegisterBudget::minimal());
  std::vector<uint32_t> registers;
  for (const compiler::FunctionAllocation& f : a.functions) registers.push_back(f.registers);
  return timing::AssistRoutineStore(std::move(m), std::move(registers));
}

uint32_t maskOf(uint32_t lanes) { return lanes >= 32 ? ~0u : (1u << lanes) - 1; }

}  // namespace

CabaRoutines::CabaRoutines(uint32_t lineBytes)
    : lineBytes_(lineBytes),
      store_(buildStore(lineBytes)),
      bdiDecompress_(2 * kBdiEncodingCount),
      bdiDirectLoad_(2 * kBdiEncodingCount) {
  for (uint8_t id = 0; id < kBdiEncodingCount; ++id) {
    const auto e = static_cast<BdiEncoding>(id);
    if (!bdiCabaKeeps(e, lineBytes)) continue;
    for (bool mask : {false, true})
    {
      const uint32_t r = store_.require(bdiDecompressName(e, mask));
      bdiDecompress_[id * 2 + mask] = {r, maskOf(bdiLanes(e, lineBytes))};
      decompressionRegisters_ = std::max(decompressionRegisters_, store_.registers(r));
      const uint32_t d = store_.require(bdiDirectLoadName(e, mask));
      bdiDirectLoad_[id * 2 + mask] = {d, maskOf(bdiLanes(e, lineBytes))};
      decompressionRegisters_ = std::max(decompressionRegisters_, store_.registers(d));
    }
  }
  bdiCompress_ = {store_.require(kBdiCompressName), ~0u};
  fpcDecompress_ = {store_.require(kFpcDecompressName), maskOf(fpcLanes(lineBytes))};
  fpcCompress_ = {store_.require(kFpcCompressName), ~0u};
  cpackDecompress_ = {store_.require(kCPackDecompressName), maskOf(cpackLanes(lineBytes))};
  cpackCompress_ = {store_.require(kCPackCompressName), ~0u};
  for (const RoutineChoice& r : {fpcDecompress_, cpackDecompress_})
    decompressionRegisters_ = std::max(decompressionRegisters_, store_.registers(r.routine));
}

RoutineChoice CabaRoutines::decompression(const CompressedLine& c, const uint8_t* encoded) const {
  if (c.algorithm == Algorithm::BdiCaba) {
    const uint8_t id = encoded[0] & 0xF;
    const bool mask = (encoded[0] & 0x10) != 0;
    if (id < kBdiEncodingCount && bdiCabaKeeps(static_cast<BdiEncoding>(id), lineBytes_))
      return bdiDecompress_[id * 2 + mask];
  }
  if (c.algorithm == Algorithm::Fpc) return fpcDecompress_;
  if (c.algorithm == Algorithm::CPack) return cpackDecompress_;
  throw std::runtime_error(std::string("internal error: no assist routine decompresses ") +
                           std::string(algorithmName(c.algorithm)) + " encoding " +
                           encodingName(c.algorithm, c.encoding));
}

RoutineChoice CabaRoutines::directLoad(const uint8_t* encoded) const {
  const uint8_t id = encoded[0] & 0xF;
  const bool mask = (encoded[0] & 0x10) != 0;
  if (id >= kBdiEncodingCount || !bdiCabaKeeps(static_cast<BdiEncoding>(id), lineBytes_))
    throw std::runtime_error("internal error: no Direct-Load routine for BDI encoding " +
                             std::to_string(id));
  return bdiDirectLoad_[id * 2 + mask];
}

RoutineChoice CabaRoutines::compression(Algorithm algorithm) const {
  switch (algorithm) {
    case Algorithm::Fpc: return fpcCompress_;
    case Algorithm::CPack: return cpackCompress_;
    default: return bdiCompress_;
  }
}

}  // namespace warpsim::mech::caba
