// monte-carlo: European calls priced by Monte Carlo, one option per CTA, normals from a
// counter-based hash and Box-Muller in the kernel (see monte-carlo.cu).
#include <cmath>

#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace monte_carlo {

constexpr int kOptions = 32;        // about two CTAs per SM of a 15-SM GPU
constexpr uint32_t kThreads = 256;  // THREADS of monte-carlo.cu
constexpr int kTreeLevels = 8;      // log2(kThreads)
constexpr int kMinPaths = 1024;
constexpr double kRate = 0.05;  // risk-free rate
constexpr double kPi = 3.14159265358979323846;

// The kernel's generator (monte-carlo.cu), bit for bit.
uint32_t mix(uint32_t h) {
  h ^= h >> 16;
  h *= 0x9e3779b1u;
  h ^= h >> 15;
  h *= 0xbb67ae85u;
  h ^= h >> 16;
  return h;
}

struct Option {
  float spot, strike, years, sigma;
  float drift, vol, discount;  // what the kernel gets, computed in double and rounded
  uint32_t key;
};

double blackScholesCall(const Option& o) {
  double s = o.spot, x = o.strike, t = o.years, sigma = o.sigma;
  double d1 = (std::log(s / x) + (kRate + 0.5 * sigma * sigma) * t) / (sigma * std::sqrt(t));
  double d2 = d1 - sigma * std::sqrt(t);
  auto cdf = [](double d) { return 0.5 * std::erfc(-d / std::sqrt(2.0)); };
  return s * cdf(d1) - x * std::exp(-kRate * t) * cdf(d2);
}

// The reference: the same paths in double, with the kernel's float inputs and uniforms, and
// bounds on how far the kernel's float results can be from them (u = 2^-24).
//
// One payoff. The kernel's library functions are within their documented errors: logf 1 ulp,
// sincospif 1 ulp, expf 2 ulp (an ulp of x is at most 2 u |x|); sqrtf and the arithmetic round
// correctly (u). So r = sqrt(-2 ln u1) is within 2 u r (half the logarithm's 2 u, and the
// square root's u), z = r cos within 5 u |z|, the exponent fma(vol, z, drift) within
// vol 5 u |z| + u |a|, exp within 4 u more, the product with the spot u more: S_T is within
// S_T (5 u vol |z| + u |a| + 5 u) =: dS. The payoff max(S_T - K, 0) moves by at most dS (max
// is 1-Lipschitz) plus the subtraction's u payoff. A path whose S_T is below K (1 - 1e-4) pays
// 0 on both sides (dS is under 1e-5 S_T), so only the others get a bound.
//
// The sums. A thread adds m = 2 ceil(paths / 2 / 256) payoffs in a chain and the tree adds 8
// levels, so the sum of payoffs is within (m + 8) u sum p + sum dp, and the sum of squares
// (FMAs) within (m + 8) u sum p^2 + sum 2 p dp. Everything below is twice its first-order
// bound.
struct Reference {
  double sum = 0, sumSq = 0, price = 0, confidence = 0, standardError = 0;
  double sumBound = 0, sumSqBound = 0, priceBound = 0, confidenceBound = 0;
};

Reference reference(const Option& o, int paths) {
  const double u = kFloatUnit;
  const double depth = 2.0 * ceilDiv(paths / 2, kThreads) + kTreeLevels;
  Reference ref;
  double dSum = 0, dSumSq = 0;
  for (int pair = 0; pair < paths / 2; ++pair) {
    uint32_t h1 = mix(o.key ^ (2u * pair)), h2 = mix(o.key ^ (2u * pair + 1u));
    double u1 = static_cast<float>((h1 >> 8) + 1u) * 0x1p-24;
    double u2 = static_cast<float>(h2 >> 8) * 0x1p-24;
    double r = std::sqrt(-2.0 * std::log(u1));
    const double z[2] = {r * std::cos(2 * kPi * u2), r * std::sin(2 * kPi * u2)};
    for (double zj : z) {
      double a = static_cast<double>(o.vol) * zj + o.drift;
      double st = o.spot * std::exp(a);
      double p = std::max(st - o.strike, 0.0);
      ref.sum += p;
      ref.sumSq += p * p;
      if (st >= o.strike * (1 - 1e-4)) {
        double dp = st * (5 * u * o.vol * std::fabs(zj) + u * std::fabs(a) + 5 * u) + u * p;
        dSum += dp;
        dSumSq += 2 * p * dp;
      }
    }
  }
  const double n = paths, df = o.discount, z95 = 1.96f;
  ref.sumBound = dSum + depth * u * ref.sum;
  ref.sumSqBound = dSumSq + depth * u * ref.sumSq;
  // price = df * (sum / n): two more roundings.
  ref.price = df * ref.sum / n;
  ref.priceBound = df * ref.sumBound / n + 2 * u * ref.price;
  // variance = (sumSq - sum * mean) / (n - 1), mean = sum / n (n - 1 is exact): the carried
  // errors, dQ + 2 mean dS, and four roundings, of mean, product, difference and quotient.
  const double mean = ref.sum / n;
  const double variance = std::max((ref.sumSq - ref.sum * mean) / (n - 1), 0.0);
  const double dVariance = (ref.sumSqBound + 2 * mean * ref.sumBound +
                            u * (2 * ref.sum * mean + std::fabs(ref.sumSq - ref.sum * mean))) /
                               (n - 1) +
                           u * variance;
  // confidence = 1.96 df sqrt(variance / n): |sqrt(a) - sqrt(b)| <= min(|a - b| / sqrt(b),
  // sqrt(|a - b|)), then four roundings (quotient, root, two products).
  ref.standardError = df * std::sqrt(variance / n);
  ref.confidence = z95 * ref.standardError;
  const double dRoot = variance > 0
                           ? std::min(dVariance / std::sqrt(variance), std::sqrt(dVariance))
                           : std::sqrt(dVariance);
  ref.confidenceBound = z95 * df * dRoot / std::sqrt(n) + 4 * u * ref.confidence;
  ref.sumBound *= 2;
  ref.sumSqBound *= 2;
  ref.priceBound *= 2;
  ref.confidenceBound *= 2;
  return ref;
}

Outcome run(WorkloadContext& ctx) {
  const int paths = static_cast<int>(ctx.size);
  // Box-Muller makes paths in pairs. Below about a thousand paths the payoff's skew makes the
  // sample mean too far from normal for the Black-Scholes check below.
  if (paths < kMinPaths || paths % 2 != 0) {
    throw runtime::Error(
        fmt::format("monte-carlo: the paths per option must be even and at least {}, not {}",
                    kMinPaths, paths));
  }
  // Equity-like options: spot 20-60, strike within 25% of it, 3 months to 3 years, volatility
  // 15%-45%; each option's random stream has its own key.
  InputGenerator gen(ctx.seed);
  std::vector<Option> options(kOptions);
  std::vector<float> spot(kOptions), strike(kOptions), drift(kOptions), vol(kOptions),
      discount(kOptions);
  std::vector<uint32_t> key(kOptions);
  for (int k = 0; k < kOptions; ++k) {
    Option& o = options[k];
    o.spot = static_cast<float>(uniformReal(gen, 20.0, 60.0));
    o.strike = static_cast<float>(o.spot * uniformReal(gen, 0.75, 1.25));
    o.years = static_cast<float>(uniformReal(gen, 0.25, 3.0));
    o.sigma = static_cast<float>(uniformReal(gen, 0.15, 0.45));
    const double t = o.years, sigma = o.sigma;
    o.drift = static_cast<float>((kRate - 0.5 * sigma * sigma) * t);
    o.vol = static_cast<float>(sigma * std::sqrt(t));
    o.discount = static_cast<float>(std::exp(-kRate * t));
    o.key = static_cast<uint32_t>(gen.next());
    spot[k] = o.spot;
    strike[k] = o.strike;
    drift[k] = o.drift;
    vol[k] = o.vol;
    discount[k] = o.discount;
    key[k] = o.key;
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("monte-carlo"), "monte-carlo.ptx");
  uint64_t dSpot = gpu.upload(spot), dStrike = gpu.upload(strike), dDrift = gpu.upload(drift);
  uint64_t dVol = gpu.upload(vol), dDiscount = gpu.upload(discount), dKey = gpu.upload(key);
  uint64_t dSums = gpu.malloc(2 * kOptions * sizeof(float));
  uint64_t dPrice = gpu.malloc(kOptions * sizeof(float));
  uint64_t dConfidence = gpu.malloc(kOptions * sizeof(float));
  launch(ctx, mod.kernel("monte_carlo_option"), {kOptions}, {kThreads}, 0, dSpot, dStrike, dDrift,
         dVol, dDiscount, dKey, dSums, dPrice, dConfidence, paths);
  std::vector<float> sums = gpu.download<float>(dSums, 2 * kOptions);
  std::vector<float> price = gpu.download<float>(dPrice, kOptions);
  std::vector<float> confidence = gpu.download<float>(dConfidence, kOptions);

  std::vector<float> gotSum(kOptions), gotSumSq(kOptions);
  std::vector<double> sum(kOptions), sumBound(kOptions), sumSq(kOptions), sumSqBound(kOptions);
  std::vector<double> expectPrice(kOptions), priceBound(kOptions), expectConf(kOptions),
      confBound(kOptions);
  double worstModel = 0;  // the largest |Monte Carlo - Black-Scholes| in standard errors
  for (int k = 0; k < kOptions; ++k) {
    Reference ref = reference(options[k], paths);
    gotSum[k] = sums[2 * k];
    gotSumSq[k] = sums[2 * k + 1];
    sum[k] = ref.sum;
    sumBound[k] = ref.sumBound;
    sumSq[k] = ref.sumSq;
    sumSqBound[k] = ref.sumSqBound;
    expectPrice[k] = ref.price;
    priceBound[k] = ref.priceBound;
    expectConf[k] = ref.confidence;
    confBound[k] = ref.confidenceBound;
    // The estimator itself (and so the generator and the transform): the exact price is within
    // a few standard errors of the sample mean. 5 of them: a normal deviate that large has
    // probability below 1e-6 per option; with 1024 paths, the fewest allowed, seeds 1-40 stay
    // within 3.9.
    double deviation = std::fabs(ref.price - blackScholesCall(options[k]));
    if (!(deviation <= 5 * ref.standardError)) {
      return fail(
          fmt::format("option {}: Monte Carlo price {} is {:.3g} from Black-Scholes, more "
                      "than 5 standard errors ({:.3g})",
                      k, ref.price, deviation, ref.standardError));
    }
    worstModel = std::max(worstModel, deviation / ref.standardError);
  }
  double worstSum = 0, worstSumSq = 0, worstPrice = 0, worstConf = 0;
  std::string bad = boundedMismatch("payoff sum", gotSum, sum, sumBound, &worstSum);
  if (bad.empty())
    bad = boundedMismatch("payoff square sum", gotSumSq, sumSq, sumSqBound, &worstSumSq);
  if (bad.empty()) bad = boundedMismatch("price", price, expectPrice, priceBound, &worstPrice);
  if (bad.empty())
    bad = boundedMismatch("confidence", confidence, expectConf, confBound, &worstConf);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{} options x {} paths, worst error {:.2g} (sums), {:.2g} (price), "
                            "{:.2g} (confidence) of the bound; within {:.2f} standard errors of "
                            "Black-Scholes",
                            kOptions, paths, std::max(worstSum, worstSumSq), worstPrice, worstConf,
                            worstModel)};
}

}  // namespace monte_carlo

Workload monteCarloWorkload() {
  return {"monte-carlo",
          "science",
          "European calls by Monte Carlo, one option per CTA: in-kernel hash RNG, Box-Muller, tree",
          "paths per option (32 options)",
          4096,
          65536,
          1u << 20,
          1u << 24,
          monte_carlo::run};
}

}  // namespace warpsim::workloads
