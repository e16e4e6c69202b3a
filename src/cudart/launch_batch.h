// Kernels launched into streams, waiting to run together (timing mode): the order they were
// launched in, and for each the earlier ones it must follow (its stream's previous kernel, the
// kernels of the events its stream waits for). Context::runBatch runs them.
#pragma once
#include <cstdint>
#include <vector>

#include "runtime/device.h"

namespace warpsim::cudart {

struct StreamRecord;

class LaunchBatch {
 public:
  bool empty() const { return launches_.empty(); }
  // Adds a launch on `stream`, after the stream's tail; the stream's tail becomes this launch.
  void add(const runtime::Kernel& kernel, func::LaunchConfig config, StreamRecord& stream);
  // `stream`'s next work also follows `launches` (cudaStreamWaitEvent on an event recorded
  // behind batch kernels).
  void follow(StreamRecord& stream, const std::vector<uint32_t>& launches);
  // The launches, and the streams whose tails point into them (cleared by take()).
  std::vector<runtime::Device::ConcurrentLaunch> take();

 private:
  std::vector<runtime::Device::ConcurrentLaunch> launches_;
  std::vector<StreamRecord*> streams_;  // streams with a non-empty tail
};

}  // namespace warpsim::cudart
