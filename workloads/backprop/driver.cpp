// backprop: training steps of a perceptron's input-to-hidden layer (forward layer with
// shared-memory trees, activation, weight adjustment); the host does the output layer. Every
// kernel is checked on the inputs the GPU gave it. XMem atoms written by hand describe every
// device structure (xmem_atoms.h).
#include <cmath>

#include "check.h"
#include "workload.h"
#include "xmem_atoms.h"

namespace warpsim::workloads {

namespace backprop {

constexpr int kHidden = 16, kChunk = 16, kSteps = 2;
constexpr float kMomentum = 0.3f;

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  const int chunks = static_cast<int>(ceilDiv(n, kChunk));
  InputGenerator gen(ctx.seed);
  std::vector<float> input(n), weights(static_cast<size_t>(n) * kHidden), bias(kHidden);
  std::vector<double> outWeights(kHidden);
  for (float& v : input) v = static_cast<float>(uniformReal(gen, 0.0, 1.0));
  for (float& v : weights) v = static_cast<float>(uniformReal(gen, -0.5, 0.5) / std::sqrt(n));
  for (float& v : bias) v = static_cast<float>(uniformReal(gen, -0.5, 0.5));
  for (double& v : outWeights) v = uniformReal(gen, -1.0, 1.0);
  const double target = 0.9;
  // A step moves a hidden unit's input by eta * delta * sum x^2 (about eta * delta * n / 3):
  // the learning rate is scaled by 1 / n to keep that independent of the size.
  const float eta = 4.0f / static_cast<float>(n);

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("backprop"), "backprop.ptx");
  runtime::Kernel forward = mod.kernel("bp_layer_forward");
  runtime::Kernel activate = mod.kernel("bp_hidden_activate");
  runtime::Kernel adjust = mod.kernel("bp_adjust_weights");
  uint64_t dInput = gpu.upload(input), dWeights = gpu.upload(weights), dBias = gpu.upload(bias);
  std::vector<float> zeros(weights.size(), 0.0f);
  uint64_t dChange = gpu.upload(zeros);
  uint64_t dPartial = gpu.malloc(static_cast<size_t>(chunks) * kHidden * sizeof(float));
  uint64_t dHidden = gpu.malloc(kHidden * sizeof(float));
  uint64_t dDelta = gpu.malloc(kHidden * sizeof(float));
  // XMem atoms (xmem_atoms.h), one per structure, before the first launch. Per step, in bytes
  // moved: weights 192 n (read by forward, read and written by adjust), change 128 n, input and
  // partial 8 n, the 64-byte vectors nothing (they stay in the caches).
  const uint64_t matrixBytes = weights.size() * sizeof(float), vectorBytes = kHidden * sizeof(float);
  // weights: a warp reads 2 rows of 16 (128 contiguous bytes); the hottest; read 4 times in 2 steps.
  describeStructure(gpu, "backprop:weights", dWeights, matrixBytes, WARPSIM_ATOM_FLOAT32, regularAccess(4, 255), 3,
                    WARPSIM_ATOM_READ_WRITE);
  // change: read and written by adjust only, as the weights (2/3 of their traffic); step 2 reads step 1's.
  describeStructure(gpu, "backprop:change", dChange, matrixBytes, WARPSIM_ATOM_FLOAT32, regularAccess(4, 170), 1,
                    WARPSIM_ATOM_READ_WRITE);
  // input: a word per 16 lanes, consecutive across the warp; 4 n bytes read twice a step (1/24).
  describeStructure(gpu, "backprop:input", dInput, uint64_t{4} * n, WARPSIM_ATOM_FLOAT32, regularAccess(4, 11), 3,
                    WARPSIM_ATOM_READ_ONLY);
  // partial: a row of 16 per chunk, written by forward and read once by activate (rows walked in order).
  describeStructure(gpu, "backprop:partial", dPartial, static_cast<uint64_t>(chunks) * vectorBytes,
                    WARPSIM_ATOM_FLOAT32, regularAccess(4, 11), 1, WARPSIM_ATOM_READ_WRITE);
  // bias: 64 bytes read by one CTA per step: no traffic to speak of.
  describeStructure(gpu, "backprop:bias", dBias, vectorBytes, WARPSIM_ATOM_FLOAT32, regularAccess(4, 0), 1,
                    WARPSIM_ATOM_READ_ONLY);
  // hidden: 64 bytes written once per step, read by the host.
  describeStructure(gpu, "backprop:hidden", dHidden, vectorBytes, WARPSIM_ATOM_FLOAT32, regularAccess(4, 0), 0,
                    WARPSIM_ATOM_WRITE_ONLY);
  // delta: 64 bytes (from the host) read by every warp of adjust: the most reuse, all in the L1.
  describeStructure(gpu, "backprop:delta", dDelta, vectorBytes, WARPSIM_ATOM_FLOAT32, regularAccess(4, 0), 255,
                    WARPSIM_ATOM_READ_ONLY);
  std::vector<float> change = zeros;
  double worstPartial = 0, worstHidden = 0, worstWeight = 0;

  for (int step = 0; step < kSteps; ++step) {
    launch(ctx, forward, {static_cast<uint32_t>(chunks)}, {kHidden, kChunk}, 0, dInput, dWeights,
           dPartial, n);
    launch(ctx, activate, {1}, {kHidden, 16}, 0, dPartial, chunks, dBias, dHidden);
    std::vector<float> partial =
        gpu.download<float>(dPartial, static_cast<size_t>(chunks) * kHidden);
    std::vector<float> hidden = gpu.download<float>(dHidden, kHidden);

    // Partial sums: 16 products summed by a 4-level tree, so within 2 * 6 u sum|x w| (u = 2^-24,
    // 2 for slack).
    std::vector<double> ref(partial.size()), bound(partial.size());
    for (int c = 0; c < chunks; ++c) {
      for (int j = 0; j < kHidden; ++j) {
        double s = 0, mag = 0;
        for (int i = c * kChunk; i < std::min(n, (c + 1) * kChunk); ++i) {
          double p = static_cast<double>(input[i]) * weights[static_cast<size_t>(i) * kHidden + j];
          s += p;
          mag += std::fabs(p);
        }
        ref[c * kHidden + j] = s;
        bound[c * kHidden + j] = 12 * kFloatUnit * mag;
      }
    }
    double w = 0;
    std::string bad = boundedMismatch("partial sum", partial, ref, bound, &w);
    worstPartial = std::max(worstPartial, w);
    // Hidden units from the GPU's partial sums: a float sum of chunks + 1 terms is within
    // (chunks / 16 + 6) u sum|terms| along its deepest path; the logistic function has slope at
    // most h (1 - h) and its float evaluation (expf, a division) adds a few ulp. Doubled, plus
    // 2^-126 for results below float's normal range.
    std::vector<double> hiddenRef(kHidden), hiddenBound(kHidden);
    for (int j = 0; j < kHidden; ++j) {
      double s = bias[j], mag = std::fabs(bias[j]);
      for (int c = 0; c < chunks; ++c) {
        s += partial[c * kHidden + j];
        mag += std::fabs(partial[c * kHidden + j]);
      }
      double h = sigmoid(s);
      hiddenRef[j] = h;
      hiddenBound[j] =
          2 * (h * (1 - h) * (chunks / 16.0 + 6) * kFloatUnit * mag + 8 * kFloatUnit * h) +
          0x1.0p-126;
    }
    if (bad.empty()) bad = boundedMismatch("hidden unit", hidden, hiddenRef, hiddenBound, &w);
    worstHidden = std::max(worstHidden, w);
    if (!bad.empty()) return fail(fmt::format("step {}: {}", step, bad));

    // Output layer and deltas on the host, from the GPU's hidden units.
    double o = 0;
    for (int j = 0; j < kHidden; ++j) o += hidden[j] * outWeights[j];
    o = sigmoid(o);
    double outDelta = o * (1 - o) * (target - o);
    std::vector<float> delta(kHidden);
    for (int j = 0; j < kHidden; ++j) {
      delta[j] = static_cast<float>(hidden[j] * (1 - hidden[j]) * outWeights[j] * outDelta);
      outWeights[j] += 0.3 * outDelta * hidden[j];
    }
    gpu.memcpyHtoD(dDelta, delta.data(), kHidden * sizeof(float));
    launch(ctx, adjust, {static_cast<uint32_t>(chunks)}, {kHidden, kChunk}, 0, dWeights, dChange,
           dInput, dDelta, n, eta, kMomentum);
    std::vector<float> newWeights = gpu.download<float>(dWeights, weights.size());
    std::vector<float> newChange = gpu.download<float>(dChange, weights.size());

    // change = eta delta x + momentum change' (four roundings on those terms), w += change
    // (one more on the result): bounds 4 u (|eta delta x| + |momentum change'|) and that plus
    // u |w|, doubled.
    std::vector<double> changeRef(weights.size()), changeBound(weights.size());
    std::vector<double> weightRef(weights.size()), weightBound(weights.size());
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < kHidden; ++j) {
        size_t at = static_cast<size_t>(i) * kHidden + j;
        double t1 = static_cast<double>(eta) * delta[j] * input[i];
        double t2 = static_cast<double>(kMomentum) * change[at];
        changeRef[at] = t1 + t2;
        changeBound[at] = 8 * kFloatUnit * (std::fabs(t1) + std::fabs(t2));
        weightRef[at] = weights[at] + changeRef[at];
        weightBound[at] = changeBound[at] + 2 * kFloatUnit * std::fabs(weightRef[at]);
      }
    }
    bad = boundedMismatch("weight change", newChange, changeRef, changeBound);
    if (bad.empty()) bad = boundedMismatch("weight", newWeights, weightRef, weightBound, &w);
    worstWeight = std::max(worstWeight, w);
    if (!bad.empty()) return fail(fmt::format("step {}: {}", step, bad));
    weights.swap(newWeights);
    change.swap(newChange);
  }
  return {true, fmt::format("{} inputs x {} hidden units, {} steps; worst error of the bound: "
                            "{:.2g} (partial sums), {:.2g} (hidden), {:.2g} (weights)",
                            n, kHidden, kSteps, worstPartial, worstHidden, worstWeight)};
}

}  // namespace backprop

Workload backpropWorkload() {
  return {"backprop",
          "science",
          "perceptron layer training: forward with shared trees, activation, weight adjust",
          "input units",
          4096,
          1u << 16,
          1u << 18,
          1u << 22,
          backprop::run};
}

}  // namespace warpsim::workloads
