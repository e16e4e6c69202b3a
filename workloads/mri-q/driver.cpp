// mri-q: the Q matrix of non-Cartesian MRI reconstruction, one voxel per thread, the K-space
// samples in constant memory a chunk per launch (see mri-q.cu).
#include <algorithm>
#include <cmath>

#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace mri_q {

constexpr uint32_t kThreads = 256;  // THREADS of mri-q.cu
constexpr int kChunk = 64;          // CHUNK: samples per launch
constexpr double kPi = 3.14159265358979323846;

struct KSample {  // as in mri-q.cu
  float kx, ky, kz, phiMag;
};

// A stack-of-spirals trajectory for an n^3 volume: `layers` planes of constant kz, each read
// along an Archimedean spiral from the centre out to the Nyquist radius n / 2 (in cycles per
// field of view, the voxel coordinates being in [-0.5, 0.5)), each plane's spiral rotated, with
// a little jitter for gradient imperfections. phi is the sample's complex value: a magnitude
// that falls off away from the centre of K-space, as the spectrum of a smooth object does,
// and a slowly varying phase, both with noise.
void makeSamples(InputGenerator& gen, int n, int count, std::vector<float>& kx,
                 std::vector<float>& ky, std::vector<float>& kz, std::vector<float>& phiR,
                 std::vector<float>& phiI) {
  const int layers = std::max(2, n / 4);
  const double kMax = n / 2.0, turns = std::max(2.0, n / 4.0);
  for (int k = 0; k < count; ++k) {
    int layer = k * layers / count;
    int first = (layer * count + layers - 1) / layers,
        next = ((layer + 1) * count + layers - 1) / layers;
    double t = static_cast<double>(k - first) / std::max(1, next - first);
    double radius = kMax * t, theta = 2 * kPi * (turns * t + static_cast<double>(layer) / layers);
    kx[k] = static_cast<float>(radius * std::cos(theta) + uniformReal(gen, -0.01, 0.01));
    ky[k] = static_cast<float>(radius * std::sin(theta) + uniformReal(gen, -0.01, 0.01));
    kz[k] = static_cast<float>(kMax * (2.0 * (layer + 0.5) / layers - 1.0) +
                               uniformReal(gen, -0.01, 0.01));
    double r2 = (kx[k] * kx[k] + ky[k] * ky[k] + kz[k] * kz[k]) / (kMax * kMax);
    double magnitude =
        std::exp(-r2 / (2 * 0.09)) * uniformReal(gen, 0.8, 1.2) + uniformReal(gen, 0.0, 0.02);
    double phase = 0.3 * kx[k] - 0.2 * ky[k] + 0.1 * kz[k] + uniformReal(gen, -0.2, 0.2);
    phiR[k] = static_cast<float>(magnitude * std::cos(phase));
    phiI[k] = static_cast<float>(magnitude * std::sin(phase));
  }
}

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  if (n < 2) {
    throw runtime::Error(fmt::format("mri-q: the grid edge must be at least 2, not {}", n));
  }
  const int voxels = n * n * n, samples = n * n;
  InputGenerator gen(ctx.seed);
  std::vector<float> kx(samples), ky(samples), kz(samples), phiR(samples), phiI(samples);
  makeSamples(gen, n, samples, kx, ky, kz, phiR, phiI);
  std::vector<float> x(voxels), y(voxels), z(voxels);
  for (int v = 0; v < voxels; ++v) {
    x[v] = static_cast<float>(v % n) / n - 0.5f;
    y[v] = static_cast<float>(v / n % n) / n - 0.5f;
    z[v] = static_cast<float>(v / (n * n)) / n - 0.5f;
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("mri-q"), "mri-q.ptx");
  uint64_t dPhiR = gpu.upload(phiR), dPhiI = gpu.upload(phiI);
  uint64_t dPhiMag = gpu.malloc(samples * sizeof(float));
  launch(ctx, mod.kernel("mriq_phimag"), {ceilDiv(samples, kThreads)}, {kThreads}, 0, dPhiR, dPhiI,
         dPhiMag, samples);
  std::vector<float> phiMag = gpu.download<float>(dPhiMag, samples);

  // |phi|^2 = re^2 + im^2 is a product and an FMA: within u im^2 + u |phi|^2 <= 2 u |phi|^2 of
  // the exact value (u = 2^-24); twice that for slack.
  std::vector<double> expectMag(samples), magBound(samples);
  for (int k = 0; k < samples; ++k) {
    expectMag[k] = static_cast<double>(phiR[k]) * phiR[k] + static_cast<double>(phiI[k]) * phiI[k];
    magBound[k] = 4 * kFloatUnit * expectMag[k];
  }
  double worstMag = 0;
  std::string bad = boundedMismatch("phiMag", phiMag, expectMag, magBound, &worstMag);
  if (!bad.empty()) return fail(bad);

  // Q, a launch per chunk of samples (the GPU's |phi|^2, as the reconstruction uses it).
  uint64_t dX = gpu.upload(x), dY = gpu.upload(y), dZ = gpu.upload(z);
  uint64_t dQr = gpu.upload(std::vector<float>(voxels, 0.0f));
  uint64_t dQi = gpu.upload(std::vector<float>(voxels, 0.0f));
  const uint64_t chunkAddress = mod.symbolAddress("c_samples");
  runtime::Kernel q = mod.kernel("mriq_q");
  int launches = 0;
  for (int first = 0; first < samples; first += kChunk) {
    const int count = std::min(kChunk, samples - first);
    std::vector<KSample> chunk(count);
    for (int k = 0; k < count; ++k) {
      chunk[k] = {kx[first + k], ky[first + k], kz[first + k], phiMag[first + k]};
    }
    gpu.memcpyHtoD(chunkAddress, chunk.data(), count * sizeof(KSample));
    launch(ctx, q, {ceilDiv(voxels, kThreads)}, {kThreads}, 0, dX, dY, dZ, dQr, dQi, voxels, count);
    ++launches;
  }
  std::vector<float> qr = gpu.download<float>(dQr, voxels), qi = gpu.download<float>(dQi, voxels);

  // Tolerance (u = 2^-24). A term phiMag * (cos, sin)(2 pi k.x), on the kernel's float inputs:
  //  * the dot product k.x is a product and two FMAs, within 3 u M with M = sum |k_i x_i|;
  //    the float 2 pi is within u of 2 pi (relative) and the product with it rounds once: the
  //    angle is within 2 pi M 5 u. sin and cos are 1-Lipschitz, so this much carries over;
  //  * sincosf is within 2 ulp, at most 4 u absolute for values of at most 1.
  // The terms are added in sample order (launch after launch, Qr and Qi stored exactly in
  // between), each by an FMA that rounds the running sum S_j once: u |S_j| per term. The
  // angle's error grows with |k| |x|, so the far samples dominate, and the order of the
  // accumulation makes the bound depend on the partial sums, not just on the total. Twice
  // this first-order bound.
  std::vector<double> expectR(voxels), expectI(voxels), boundR(voxels), boundI(voxels);
  const double u = kFloatUnit;
  double totalMag = 0;
  for (int k = 0; k < samples; ++k) totalMag += phiMag[k];
  for (int v = 0; v < voxels; ++v) {
    double re = 0, im = 0, termBound = 0, sumR = 0, sumI = 0;
    for (int k = 0; k < samples; ++k) {
      double dot = static_cast<double>(kx[k]) * x[v] + static_cast<double>(ky[k]) * y[v] +
                   static_cast<double>(kz[k]) * z[v];
      double m = std::fabs(static_cast<double>(kx[k]) * x[v]) +
                 std::fabs(static_cast<double>(ky[k]) * y[v]) +
                 std::fabs(static_cast<double>(kz[k]) * z[v]);
      double angle = 2 * kPi * dot;
      re += phiMag[k] * std::cos(angle);
      im += phiMag[k] * std::sin(angle);
      termBound += phiMag[k] * (2 * kPi * m * 5 * u + 4 * u);
      sumR += std::fabs(re);
      sumI += std::fabs(im);
    }
    expectR[v] = re;
    expectI[v] = im;
    boundR[v] = 2 * (termBound + u * sumR);
    boundI[v] = 2 * (termBound + u * sumI);
  }
  double worstR = 0, worstI = 0;
  bad = boundedMismatch("Qr", qr, expectR, boundR, &worstR);
  if (bad.empty()) bad = boundedMismatch("Qi", qi, expectI, boundI, &worstI);
  if (!bad.empty()) return fail(bad);
  double widest = 0;
  for (int v = 0; v < voxels; ++v) widest = std::max({widest, boundR[v], boundI[v]});
  return {true,
          fmt::format("{} voxels x {} K-space samples in {} launches, worst error {:.2g} "
                      "(|phi|^2), {:.2g} (Qr), {:.2g} (Qi) of the bound; the widest bound "
                      "is {:.2g} of sum |phi|^2",
                      voxels, samples, launches, worstMag, worstR, worstI, widest / totalMag)};
}

}  // namespace mri_q

Workload mriQWorkload() {
  return {"mri-q",
          "science",
          "MRI Q matrix: sincos over K-space samples in constant memory, one voxel per thread",
          "voxel grid edge (edge^3 voxels, edge^2 samples)",
          11,
          20,
          32,
          64,
          mri_q::run};
}

}  // namespace warpsim::workloads
