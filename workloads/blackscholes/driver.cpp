// blackscholes: call and put prices of n European options, four options per thread.
#include <cmath>

#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace blackscholes {

// The kernel's normal CDF approximation (Abramowitz and Stegun 26.2.17), in double.
double normalCdf(double d) {
  const double p = 0.2316419;
  const double b1 = 0.319381530, b2 = -0.356563782, b3 = 1.781477937, b4 = -1.821255978,
               b5 = 1.330274429;
  double t = 1.0 / (1.0 + p * std::fabs(d));
  double poly = t * (b1 + t * (b2 + t * (b3 + t * (b4 + t * b5))));
  double tail = 0.398942280401432678 * std::exp(-0.5 * d * d) * poly;
  return d > 0 ? 1.0 - tail : tail;
}

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  const float rate = 0.02f, volatility = 0.30f;
  InputGenerator gen(ctx.seed);
  std::vector<float> spot(n), strike(n), years(n);
  for (int i = 0; i < n; ++i) {
    spot[i] = static_cast<float>(uniformReal(gen, 5.0, 30.0));
    strike[i] = static_cast<float>(uniformReal(gen, 1.0, 100.0));
    years[i] = static_cast<float>(uniformReal(gen, 0.25, 10.0));
  }

  // Reference in double from the same float inputs. Tolerance: the float d1 and d2 carry an
  // absolute error of a few roundings of the terms they are built from (logf and expf are
  // within 2 ulp), divided by vol*sqrt(t):
  //   dd = 16 u (|ln(s/x)| + (r + vol^2/2) t + 1) / (vol sqrt(t)) + 8 u |d1|   (u = 2^-24);
  // a normal CDF moves by at most 0.4 dd and its float evaluation adds a few u, so each price,
  // a difference of terms below s and x, is within (s + x) (0.4 dd + 32 u).
  std::vector<double> callRef(n), putRef(n), bound(n);
  const double r = rate, v = volatility;
  for (int i = 0; i < n; ++i) {
    double s = spot[i], x = strike[i], t = years[i];
    double volSqrtT = v * std::sqrt(t);
    double logRatio = std::log(s / x);
    double d1 = (logRatio + (r + 0.5 * v * v) * t) / volSqrtT;
    double d2 = d1 - volSqrtT;
    double discounted = x * std::exp(-r * t);
    callRef[i] = s * normalCdf(d1) - discounted * normalCdf(d2);
    putRef[i] = discounted * (1.0 - normalCdf(d2)) - s * (1.0 - normalCdf(d1));
    double dd = 16 * kFloatUnit * (std::fabs(logRatio) + (r + 0.5 * v * v) * t + 1.0) / volSqrtT +
                8 * kFloatUnit * std::fabs(d1);
    bound[i] = (s + x) * (0.4 * dd + 32 * kFloatUnit);
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("blackscholes"), "blackscholes.ptx");
  uint64_t dSpot = gpu.upload(spot), dStrike = gpu.upload(strike), dYears = gpu.upload(years);
  uint64_t dCall = gpu.malloc(n * sizeof(float)), dPut = gpu.malloc(n * sizeof(float));
  launch(ctx, mod.kernel("blackscholes"), {ceilDiv(n, 256 * 4)}, {256}, 0, dSpot, dStrike, dYears,
         dCall, dPut, n, rate, volatility);

  double worstCall = 0, worstPut = 0;
  std::string bad =
      boundedMismatch("call", gpu.download<float>(dCall, n), callRef, bound, &worstCall);
  if (bad.empty()) {
    bad = boundedMismatch("put", gpu.download<float>(dPut, n), putRef, bound, &worstPut);
  }
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{} options, worst error {:.2g} (call) and {:.2g} (put) of the bound",
                            n, worstCall, worstPut)};
}

}  // namespace blackscholes

Workload blackscholesWorkload() {
  return {"blackscholes",
          "streaming",
          "Black-Scholes call and put prices (logf, expf, sqrtf, divisions)",
          "options",
          1u << 15,
          1u << 19,
          1u << 21,
          1u << 26,
          blackscholes::run};
}

}  // namespace warpsim::workloads
