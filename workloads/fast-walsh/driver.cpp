// fast-walsh: dyadic convolution of a long signal with a short kernel through fast
// Walsh-Hadamard transforms: transform both (kernel zero-padded), multiply pointwise, transform
// back, scale by 1/N (see fast-walsh.cu).
#include <cmath>

#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace fast_walsh {

constexpr int kSegmentLog = 10;  // SEGMENT_LOG of fast-walsh.cu: the strides done in shared memory
constexpr int kKernelLength = 128;
constexpr uint32_t kThreads = 256;

// The transform's kernels and the launch sequence of one in-place transform of n = 2^log2n.
struct Transform {
  runtime::Kernel segment, radix4, radix2;

  void run(WorkloadContext& ctx, uint64_t data, int log2n) const {
    const int n = 1 << log2n;
    launch(ctx, segment, {static_cast<uint32_t>(n >> kSegmentLog)}, {kThreads}, 0, data);
    int stage = kSegmentLog;
    for (; stage + 2 <= log2n; stage += 2) {
      // n / 4 groups of four elements, two per thread.
      launch(ctx, radix4, {ceilDiv(n / 8, kThreads)}, {kThreads}, 0, data, 1 << stage, n / 4);
    }
    if (stage < log2n) {
      launch(ctx, radix2, {ceilDiv(n / 2, kThreads)}, {kThreads}, 0, data, 1 << stage, n / 2);
    }
  }
};

// The transform in double, for the error bounds.
std::vector<double> walshHadamard(const std::vector<float>& x) {
  std::vector<double> y(x.begin(), x.end());
  for (size_t stride = 1; stride < y.size(); stride <<= 1) {
    for (size_t base = 0; base < y.size(); base += 2 * stride) {
      for (size_t i = base; i < base + stride; ++i) {
        double a = y[i], b = y[i + stride];
        y[i] = a + b;
        y[i + stride] = a - b;
      }
    }
  }
  return y;
}

double norm2(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}

double maxAbs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::fabs(x));
  return m;
}

// Checks a float vector against its reference with a bound B on the 2-norm of the error: first
// element by element (|e_i| <= ||e||_2 <= B, which names the first bad element), then the
// norm itself. `ratio` receives ||e||_2 / B.
std::string normMismatch(std::string_view what, const std::vector<float>& got,
                         const std::vector<double>& expect, double bound, double* ratio) {
  std::string bad = boundedMismatch(what, got, expect, std::vector<double>(expect.size(), bound));
  if (!bad.empty()) return bad;
  double err2 = 0;
  for (size_t i = 0; i < got.size(); ++i) err2 += std::pow(got[i] - expect[i], 2);
  *ratio = std::sqrt(err2) / bound;
  if (*ratio > 1) {
    return fmt::format("{}: error norm {:.3g} > tolerance {:.3g}", what, std::sqrt(err2), bound);
  }
  return {};
}

Outcome run(WorkloadContext& ctx) {
  const uint64_t n = ctx.size;
  if (n < (1u << kSegmentLog) || (n & (n - 1)) != 0) {
    throw runtime::Error(
        fmt::format("fast-walsh: the signal length must be a power of 2 of at least {}, not {}",
                    1u << kSegmentLog, n));
  }
  const int log2n = static_cast<int>(std::log2(static_cast<double>(n)));
  InputGenerator gen(ctx.seed);
  std::vector<float> signal(n), kernel(n, 0.0f);
  for (float& x : signal) x = static_cast<float>(uniformReal(gen, -1.0, 1.0));
  for (int j = 0; j < kKernelLength; ++j) {
    kernel[j] = static_cast<float>(uniformReal(gen, -1.0, 1.0));
  }

  // The reference result, straight from the definition: out[i] = sum_j kernel[j] signal[i ^ j].
  std::vector<double> expect(n);
  for (uint64_t i = 0; i < n; ++i) {
    double sum = 0;
    for (int j = 0; j < kKernelLength; ++j) sum += static_cast<double>(kernel[j]) * signal[i ^ j];
    expect[i] = sum;
  }

  // Tolerances, in the 2-norm where the transform is simple: H / sqrt(N) is orthogonal, so a
  // radix-2 stage multiplies the norm by sqrt(2) exactly. A stage's roundings (u = 2^-24 of
  // each output) have a norm of at most u times the stage's output, and the later stages
  // multiply it by sqrt(2) each: after the L = log2 N stages the error of a transform x^ is
  // below L u ||x^||. The product with a spectrum adds one rounding (u ||D^ K^||; the 1/N is
  // exact) and carries the transforms' errors as ||dD|| max|K^| + max|D^| ||dK||. The inverse
  // transform adds L u of its output's norm and scales the norm of the carried error by
  // sqrt(N) / N. Twice these first-order bounds, with the magnitudes from double transforms:
  const double u = kFloatUnit, L = log2n, rootN = std::sqrt(static_cast<double>(n));
  std::vector<double> signalHat = walshHadamard(signal), kernelHat = walshHadamard(kernel);
  std::vector<double> product(n);
  for (uint64_t i = 0; i < n; ++i) product[i] = signalHat[i] * kernelHat[i];
  const double signalBound = 2 * L * u * norm2(signalHat);
  const double kernelBound = 2 * L * u * norm2(kernelHat);
  const double outputBound =
      2 / rootN *
      (L * u * norm2(signalHat) * maxAbs(kernelHat) + maxAbs(signalHat) * L * u * norm2(kernelHat) +
       (L + 1) * u * norm2(product));

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("fast-walsh"), "fast-walsh.ptx");
  const Transform fwt{mod.kernel("fwt_segment"), mod.kernel("fwt_radix4"),
                      mod.kernel("fwt_radix2")};
  uint64_t dSignal = gpu.upload(signal), dKernel = gpu.upload(kernel);
  // Each transform is checked on its own, then the convolution.
  fwt.run(ctx, dSignal, log2n);
  fwt.run(ctx, dKernel, log2n);
  double worstSignal = 0, worstKernel = 0, worstOut = 0;
  std::string bad = normMismatch("signal spectrum", gpu.download<float>(dSignal, n), signalHat,
                                 signalBound, &worstSignal);
  if (bad.empty()) {
    bad = normMismatch("kernel spectrum", gpu.download<float>(dKernel, n), kernelHat, kernelBound,
                       &worstKernel);
  }
  if (!bad.empty()) return fail(bad);
  const int ni = static_cast<int>(n);
  launch(ctx, mod.kernel("fwt_modulate"), {ceilDiv(n, kThreads)}, {kThreads}, 0, dSignal, dKernel,
         ni, 1.0f / static_cast<float>(n));
  fwt.run(ctx, dSignal, log2n);
  bad =
      normMismatch("convolution", gpu.download<float>(dSignal, n), expect, outputBound, &worstOut);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{} samples * {}-tap kernel, error norms {:.2g} (signal spectrum), "
                            "{:.2g} (kernel spectrum), {:.2g} (convolution) of the bound",
                            n, kKernelLength, worstSignal, worstKernel, worstOut)};
}

}  // namespace fast_walsh

Workload fastWalshWorkload() {
  return {"fast-walsh",
          "science",
          "dyadic convolution by fast Walsh-Hadamard transforms: shared-memory and radix-4 passes",
          "samples (power of 2)",
          1u << 15,
          1u << 19,
          1u << 22,
          1u << 24,
          fast_walsh::run};
}

}  // namespace warpsim::workloads
