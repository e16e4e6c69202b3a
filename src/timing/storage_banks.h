// Storage banks shared by the register file and the SM's memory data path: one array of SRAM
// banks, in clusters, holding registers, shared memory and L1 data, each bank with one read and
// one write port. Register accesses win: the register file's model claims the ports it uses in
// a cycle (BankPorts does, when given this object), and the memory pipeline, which starts its
// access after the register file's arbitration of the same cycle, waits a cycle when a port its
// pass needs is held.
//
// Geometry: `clusters` clusters of `banksPerCluster` banks, rows of `rowBytes` bytes. Bank i of
// the register file's model (its global bank index, partition x banks per partition + bank) is
// storage bank i mod banks(), which is bank i mod banksPerCluster of cluster i / banksPerCluster.
// Memory data is striped row by row over the clusters: byte a (a shared-memory offset, or the
// address of cached data) lies in cluster (a / rowBytes) mod clusters, in bank
// (a / (rowBytes x clusters)) mod banksPerCluster of it; so a line of rowBytes x clusters bytes
// is one row of the same bank in every cluster.
//
// Configuration: [sm.storage_banks] shared_with_registers = true, clusters, banks_per_cluster,
// row_bytes (readStorageBanks in timing/sm/sm_params.h).
#pragma once
#include <cstdint>

#include "timing/sm_memory.h"

namespace warpsim::timing {

class StorageBanks {
 public:
  static constexpr uint32_t kMaxBanks = 64;
  StorageBanks(uint32_t clusters, uint32_t banksPerCluster, uint32_t rowBytes)
      : clusters_(clusters), banksPerCluster_(banksPerCluster), rowBytes_(rowBytes) {}

  uint32_t banks() const { return clusters_ * banksPerCluster_; }
  uint32_t clusters() const { return clusters_; }

  // The register file reads / writes its bank `registerBank` in cycle `now`.
  void claimRead(uint32_t registerBank, Cycle now) {
    roll(now);
    reads_ |= uint64_t{1} << (registerBank % banks());
  }
  void claimWrite(uint32_t registerBank, Cycle now) {
    roll(now);
    writes_ |= uint64_t{1} << (registerBank % banks());
  }
  // Whether a register access holds the read (write) port of a bank of `banks` in cycle `now`.
  bool readsHeld(uint64_t banks, Cycle now) const { return now == cycle_ && (reads_ & banks) != 0; }
  bool writesHeld(uint64_t banks, Cycle now) const { return now == cycle_ && (writes_ & banks) != 0; }

  // The bank (as a one-bit mask) holding memory byte `address`.
  uint64_t bankOf(uint64_t address) const {
    const uint64_t row = address / rowBytes_;
    const uint64_t cluster = row % clusters_;
    const uint64_t bank = (row / clusters_) % banksPerCluster_;
    return uint64_t{1} << (cluster * banksPerCluster_ + bank);
  }
  // The banks of the bytes [address, address + bytes).
  uint64_t banksOf(uint64_t address, uint32_t bytes) const {
    uint64_t mask = 0;
    const uint64_t last = address + (bytes == 0 ? 0 : bytes - 1);
    for (uint64_t row = address / rowBytes_; row <= last / rowBytes_; ++row) mask |= bankOf(row * rowBytes_);
    return mask;
  }

 private:
  void roll(Cycle now) {
    if (now != cycle_) {
      cycle_ = now;
      reads_ = writes_ = 0;
    }
  }

  uint32_t clusters_, banksPerCluster_, rowBytes_;
  Cycle cycle_ = kNever;
  uint64_t reads_ = 0, writes_ = 0;  // banks whose read / write port a register access holds
};

}  // namespace warpsim::timing
