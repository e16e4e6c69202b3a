// libor: Monte Carlo pricing of a swaption portfolio under the LIBOR market model, one thread per
// path (see libor.cu), each path's value checked against a double-precision reference on the
// same Gaussian draws within a bound the reference propagates alongside its values.
#include <algorithm>
#include <cmath>

#include "check.h"
#include "locality_hints.h"
#include "workload.h"

namespace warpsim::workloads {

namespace libor {

constexpr int kRates = 80, kSteps = 40, kSwaps = kRates - kSteps;  // as in libor.cu
constexpr double kDelta = 0.25;                                      // quarterly accruals
constexpr uint32_t kThreads = 64;                                    // paths per CTA
constexpr double kPi = 3.14159265358979323846;

// A value with a bound on its absolute error against the exact result of the float program:
// running error analysis, first order. Each float operation rounds once, within u of its result
// (IEEE add, multiply, divide; a fused multiply-add rounds once where the bound assumes two).
// expf is within 8 u relative of exp of its float argument: nvcc's expansion splits the
// argument with fused operations and ex2.approx (at most 2 ulp, 4 u) times a power of two, one
// more rounding; 8 u leaves slack.
struct Bounded {
  double v = 0, e = 0;
};
Bounded exact(double v) { return {v, 0}; }
Bounded operator+(Bounded a, Bounded b) {
  double r = a.v + b.v;
  return {r, a.e + b.e + kFloatUnit * std::fabs(r)};
}
Bounded operator-(Bounded a, Bounded b) { return a + Bounded{-b.v, b.e}; }
Bounded operator*(Bounded a, Bounded b) {
  double r = a.v * b.v;
  return {r, std::fabs(a.v) * b.e + std::fabs(b.v) * a.e + a.e * b.e + kFloatUnit * std::fabs(r)};
}
Bounded operator/(Bounded a, Bounded b) {  // b well away from 0 (here 1 + delta L, L > 0)
  double r = a.v / b.v;
  return {r, (a.e + std::fabs(r) * b.e) / (std::fabs(b.v) - b.e) + kFloatUnit * std::fabs(r)};
}
Bounded expBounded(Bounded x) {
  double r = std::exp(x.v);
  return {r, r * (std::expm1(x.e) + 8 * kFloatUnit)};
}

// The market: an upward-sloping initial forward curve (3% rising towards 5.5%, as a yield
// curve does), a humped volatility term structure (12% at both ends of the curve, 22% for
// rates about two years from fixing), and a portfolio of payer swaptions: swaps of 1, 2, 3, 5,
// 7 and 10 years starting in 10 years, each at strikes of 4.5%, 5% and 5.5%.
std::vector<float> initialCurve() {
  std::vector<float> l(kRates);
  for (int i = 0; i < kRates; ++i) l[i] = static_cast<float>(0.03 + 0.025 * (1 - std::exp(-i / 24.0)));
  return l;
}
std::vector<float> volatilities() {
  std::vector<float> lambda(kRates);
  for (int k = 0; k < kRates; ++k) {
    double x = (k + 1) / 10.0;
    lambda[k] = static_cast<float>(0.12 + 0.10 * x * std::exp(1 - x));
  }
  return lambda;
}

Outcome run(WorkloadContext& ctx) {
  const int paths = static_cast<int>(ctx.size);
  InputGenerator gen(ctx.seed);
  // Standard normal draws by Box-Muller from the seed's uniforms, z[step * paths + path].
  std::vector<float> z(static_cast<size_t>(kSteps) * paths);
  for (size_t k = 0; k < z.size(); k += 2) {
    double u1 = uniformReal(gen, 0x1.0p-53, 1.0), u2 = uniformReal(gen, 0.0, 1.0);
    double radius = std::sqrt(-2 * std::log(u1));
    z[k] = static_cast<float>(radius * std::cos(2 * kPi * u2));
    if (k + 1 < z.size()) z[k + 1] = static_cast<float>(radius * std::sin(2 * kPi * u2));
  }
  const std::vector<float> l0 = initialCurve(), lambda = volatilities();
  std::vector<int> maturities;
  std::vector<float> strikes;
  for (int years : {1, 2, 3, 5, 7, 10}) {
    for (float strike : {0.045f, 0.05f, 0.055f}) {
      maturities.push_back(4 * years);
      strikes.push_back(strike);
    }
  }
  const int options = static_cast<int>(maturities.size());

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("libor"), "libor.ptx");
  const uint32_t ctas = ceilDiv(paths, kThreads);
  uint64_t dZ = gpu.upload(z), dL0 = gpu.upload(l0), dLambda = gpu.upload(lambda);
  uint64_t dMat = gpu.upload(maturities), dStrike = gpu.upload(strikes);
  uint64_t dWork = gpu.malloc(static_cast<size_t>(ctas) * kRates * kThreads * sizeof(float));
  uint64_t dValue = gpu.malloc(static_cast<size_t>(paths) * sizeof(float));

  // Locality descriptor (the thesis's Table 4 gives LIBOR INTRA_THREAD): the forward rates. Each
  // thread rewrites its own kRates rates at every one of the kSteps steps, and the reuse
  // distance (every other thread of the SM walks its own rates in between) thrashes the L1.
  // The work area is kThreads x kRates floats per CTA, CTAs one after another (dims x = thread,
  // y = rate, z = CTA): the D-Tile of a CTA is its kThreads x kRates block, its C-Tile the CTA
  // itself; a thread's successive rates are kThreads floats apart. The private B and S arrays
  // are in local memory, which no descriptor can name; z and the market data are read once per
  // step or broadcast, and Table 4 gives them none.
  setLocalityDescriptors(ctx, "libor_paths",
                         {intraThread({dWork, {kThreads, uint32_t(kRates), ctas}, 4},
                                      {{kThreads, uint32_t(kRates), 1}, {1, 1, 1}, {1, 0, 0}},
                                      kThreads)});
  launch(ctx, mod.kernel("libor_paths"), {ctas}, {kThreads}, 0, paths, options, dZ, dL0, dLambda,
         dMat, dStrike, dWork, dValue);
  const std::vector<float> value = gpu.download<float>(dValue, paths);

  // The reference repeats each path's float operations in double, in the kernel's order, with
  // a running bound on the float program's error (Bounded); the tolerance is twice the bound.
  // The payoff max(-swap, 0) is 1-Lipschitz, so its error is at most the swap's, whichever side
  // of 0 either program lands on.
  std::vector<double> expect(paths), bound(paths);
  double sum = 0;
  for (int p = 0; p < paths; ++p) {
    std::vector<Bounded> rate(kRates);
    for (int i = 0; i < kRates; ++i) rate[i] = exact(l0[i]);
    for (int n = 0; n < kSteps; ++n) {
      const Bounded shock = exact(0.5 * z[static_cast<size_t>(n) * paths + p]);
      Bounded drift;
      for (int i = n + 1; i < kRates; ++i) {
        const Bounded lam = exact(lambda[i - n - 1]), con = exact(kDelta * lambda[i - n - 1]);
        drift = drift + con * rate[i] / (exact(1) + exact(kDelta) * rate[i]);
        rate[i] = rate[i] * expBounded(con * drift + lam * (shock - exact(0.5) * con));
      }
    }
    Bounded b = exact(1), s;
    std::vector<Bounded> discount(kSwaps), annuity(kSwaps);
    for (int m = 0; m < kSwaps; ++m) {
      b = b / (exact(1) + exact(kDelta) * rate[kSteps + m]);
      s = s + exact(kDelta) * b;
      discount[m] = b;
      annuity[m] = s;
    }
    Bounded v;
    for (int k = 0; k < options; ++k) {
      const int m = maturities[k] - 1;
      const Bounded swap = discount[m] + exact(strikes[k]) * annuity[m] - exact(1);
      const double payoff = 100 * std::max(-swap.v, 0.0);  // 100 (-swap), rounded once
      v = v + Bounded{payoff, 100 * swap.e + kFloatUnit * payoff};
    }
    for (int n = 0; n < kSteps; ++n) v = v / (exact(1) + exact(kDelta) * rate[n]);
    expect[p] = v.v;
    bound[p] = 2 * v.e;
    sum += v.v;
  }
  double worst = 0;
  std::string bad = boundedMismatch("path value", value, expect, bound, &worst);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{} paths, {} swaptions, portfolio value {:.4f}, worst error {:.2g} of "
                            "the bound",
                            paths, options, sum / paths, worst)};
}

}  // namespace libor

Workload liborWorkload() {
  return {"libor",
          "science",
          "swaption portfolio under the LIBOR market model by Monte Carlo, a thread per path of 80 "
          "forward rates over 40 steps",
          "paths",
          128,
          2048,
          16384,
          1u << 20,
          libor::run};
}

}  // namespace warpsim::workloads
