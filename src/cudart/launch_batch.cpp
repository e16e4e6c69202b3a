#include "cudart/launch_batch.h"

#include <algorithm>
#include <utility>

#include "cudart/capture.h"

namespace warpsim::cudart {

void LaunchBatch::add(const runtime::Kernel& kernel, func::LaunchConfig config, StreamRecord& stream) {
  runtime::Device::ConcurrentLaunch launch;
  launch.kernel = &kernel;
  launch.config = std::move(config);
  launch.after = stream.batchTail;
  std::sort(launch.after.begin(), launch.after.end());
  launch.after.erase(std::unique(launch.after.begin(), launch.after.end()), launch.after.end());
  if (std::find(streams_.begin(), streams_.end(), &stream) == streams_.end()) streams_.push_back(&stream);
  stream.batchTail = {static_cast<uint32_t>(launches_.size())};
  launches_.push_back(std::move(launch));
}

void LaunchBatch::follow(StreamRecord& stream, const std::vector<uint32_t>& launches) {
  if (launches.empty()) return;
  if (std::find(streams_.begin(), streams_.end(), &stream) == streams_.end()) streams_.push_back(&stream);
  stream.batchTail.insert(stream.batchTail.end(), launches.begin(), launches.end());
}

std::vector<runtime::Device::ConcurrentLaunch> LaunchBatch::take() {
  for (StreamRecord* s : streams_) s->batchTail.clear();
  streams_.clear();
  return std::exchange(launches_, {});
}

}  // namespace warpsim::cudart
