// binomial-options: European calls on Cox-Ross-Rubinstein binomial trees, one option per CTA,
// the backward induction in shared-memory windows (see binomial-options.cu).
#include <cmath>

#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace binomial_options {

constexpr int kOptions = 32;  // about two CTAs per SM of a 15-SM GPU
constexpr double kRate = 0.06, kVolatility = 0.10;

struct Option {
  double spot, strike, years;
};

// The tree's per-step constants, in double.
struct Tree {
  double vDt, puByDf, pdByDf;
};

Tree treeConstants(const Option& o, int steps) {
  double dt = o.years / steps;
  double vDt = kVolatility * std::sqrt(dt);
  double up = std::exp(vDt), down = std::exp(-vDt);
  double pu = (std::exp(kRate * dt) - down) / (up - down);  // risk-neutral: E[move] = e^(r dt)
  double df = std::exp(-kRate * dt);
  return {vDt, pu * df, (1.0 - pu) * df};
}

// The tree price in double.
double binomialCall(const Option& o, const Tree& t, int steps) {
  std::vector<double> v(steps + 1);
  for (int i = 0; i <= steps; ++i) {
    v[i] = std::max(o.spot * std::exp(t.vDt * (2 * i - steps)) - o.strike, 0.0);
  }
  for (int n = steps; n > 0; --n) {
    for (int i = 0; i < n; ++i) v[i] = t.puByDf * v[i + 1] + t.pdByDf * v[i];
  }
  return v[0];
}

// The Black-Scholes price the tree converges to (error O(1/steps)), reported as a sanity check
// of the reference.
double blackScholesCall(const Option& o) {
  double sqrtT = std::sqrt(o.years);
  double d1 = (std::log(o.spot / o.strike) + (kRate + 0.5 * kVolatility * kVolatility) * o.years) /
              (kVolatility * sqrtT);
  double d2 = d1 - kVolatility * sqrtT;
  auto cdf = [](double d) { return 0.5 * std::erfc(-d / std::sqrt(2.0)); };
  return o.spot * cdf(d1) - o.strike * std::exp(-kRate * o.years) * cdf(d2);
}

Outcome run(WorkloadContext& ctx) {
  const int steps = static_cast<int>(ctx.size);
  // Below 4 steps a 10-year step is so long that the up-probability leaves (0, 1).
  if (steps < 4) {
    throw runtime::Error(fmt::format("binomial-options: at least 4 time steps, not {}", steps));
  }
  InputGenerator gen(ctx.seed);
  std::vector<Option> options(kOptions);
  std::vector<float> spot(kOptions), strike(kOptions), vDt(kOptions), pu(kOptions), pd(kOptions);
  std::vector<double> expect(kOptions), bound(kOptions);
  double worstBlackScholes = 0;
  for (int k = 0; k < kOptions; ++k) {
    spot[k] = static_cast<float>(uniformReal(gen, 5.0, 30.0));
    strike[k] = static_cast<float>(uniformReal(gen, 1.0, 100.0));
    float years = static_cast<float>(uniformReal(gen, 0.25, 10.0));
    options[k] = {spot[k], strike[k], years};
    Tree t = treeConstants(options[k], steps);
    vDt[k] = static_cast<float>(t.vDt);
    pu[k] = static_cast<float>(t.puByDf);
    pd[k] = static_cast<float>(t.pdByDf);
    expect[k] = binomialCall(options[k], t, steps);
    worstBlackScholes =
        std::max(worstBlackScholes, std::fabs(expect[k] - blackScholesCall(options[k])));
    // Tolerance (u = 2^-24). Every value in the tree is >= 0 and the weights are positive, so
    // an error anywhere reaches the root scaled by that node's weight w (its discounted
    // risk-neutral probability), and sum over a level of w V = the price: the tree is a
    // discounted expectation.
    //  * A backward step rounds both weights (float constants), both products and the sum: at
    //    most 3 u V at every node, so 3 u price per level and 3 N u price in all.
    //  * A leaf S e^a - X, a = vDt (2i - N): vDt and the product round (2 u |a| after expf),
    //    expf is within 2 ulp (4 u), then a product and a difference: (2 |a| + 5) u S e^a +
    //    u V. The discounted expectation of S e^a is S, and |a| <= vDt N.
    // Twice this first-order bound. (Against Black-Scholes, the tree itself is off by
    // O(1 / N): the message reports the worst difference, not part of the check.)
    bound[k] =
        2 * kFloatUnit * (3.0 * steps * expect[k] + (2 * t.vDt * steps + 5) * spot[k] + expect[k]);
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("binomial-options"), "binomial-options.ptx");
  uint64_t dSpot = gpu.upload(spot), dStrike = gpu.upload(strike), dVdt = gpu.upload(vDt);
  uint64_t dPu = gpu.upload(pu), dPd = gpu.upload(pd);
  uint64_t dTree = gpu.malloc(static_cast<size_t>(kOptions) * (steps + 1) * sizeof(float));
  uint64_t dPrice = gpu.malloc(kOptions * sizeof(float));
  launch(ctx, mod.kernel("binomial_option"), {kOptions}, {256}, 0, dSpot, dStrike, dVdt, dPu, dPd,
         dTree, dPrice, steps);

  double worst = 0;
  std::string bad =
      boundedMismatch("price", gpu.download<float>(dPrice, kOptions), expect, bound, &worst);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{} options, {} steps, worst error {:.2g} of the bound; the tree is "
                            "within {:.2g} of Black-Scholes",
                            kOptions, steps, worst, worstBlackScholes)};
}

}  // namespace binomial_options

Workload binomialOptionsWorkload() {
  return {"binomial-options",
          "science",
          "European calls on binomial trees, one option per CTA, backward steps in shared memory",
          "time steps",
          128,
          1024,
          2048,
          8192,
          binomial_options::run};
}

}  // namespace warpsim::workloads
