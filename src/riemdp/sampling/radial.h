// Exact sampling of isotropic laws on a manifold (DESIGN §3): the direction is
// uniform on the unit sphere of T_eta M and r = dist(eta, x) has density
// exp(h(r)), h(r) = log k(r) + log A(r), with k the mechanism's kernel and A the
// area of geodesic spheres. On every space here h is concave on (0, inj), so
// r is drawn exactly by rejection from a piecewise-exponential envelope built
// from tangents of h (a fixed-abscissae adaptive-rejection sampler).
#ifndef RIEMDP_SAMPLING_RADIAL_H
#define RIEMDP_SAMPLING_RADIAL_H

#include <algorithm>
#include <limits>
#include <vector>

#include "../geometry/manifold.h"

namespace riemdp {

// Kernel of the mechanism in r: Laplace exp(-r/sigma) (002 Def. 3) or
// Gaussian exp(-r^2/(2 sigma^2)) (004 Def. 3.3), times exp(tilt * r): the
// mechanisms use tilt = 0; the SPD envelope (spd_exact.h) tilts by the volume
// growth rate.
struct RadialKernel {
  enum Kind { laplace, gaussian } kind;
  double sigma;
  double tilt = 0.0;
  double h(double r) const {
    return (kind == laplace ? -r / sigma : -r * r / (2.0 * sigma * sigma)) + (tilt != 0.0 ? tilt * r : 0.0);
  }
  double dh(double r) const { return (kind == laplace ? -1.0 / sigma : -r / (sigma * sigma)) + tilt; }
};

inline RadialKernel::Kind kernel_kind(const std::string& s) {
  if (s == "laplace") return RadialKernel::laplace;
  if (s == "gaussian") return RadialKernel::gaussian;
  throw std::invalid_argument("unknown kernel '" + s + "'");
}

class RadialSampler {
 public:
  RadialSampler(const Manifold& M, RadialKernel k) : M_(M), k_(k), lo_(0.0), hi_(M.injectivity_radius()) {
    build();
  }

  double log_density(double r) const {
    if (!(r > lo_) || !(r < hi_)) return r == lo_ && M_.dim() == 1 ? k_.h(r) : -inf();
    return k_.h(r) + M_.log_volume_density(r);
  }
  double d_log_density(double r) const { return k_.dh(r) + M_.d_log_volume_density(r); }

  template <class Rng>
  double draw(Rng& rng) const {
    for (;;) {
      const double u = rng.unif() * cum_.back();
      const std::size_t j = std::upper_bound(cum_.begin(), cum_.end(), u) - cum_.begin();
      const std::size_t s = std::min(j, x_.size() - 1);
      const double a = z_[s], b = z_[s + 1], g = g_[s];
      double r;
      const double v = rng.unif();
      if (std::isinf(b)) r = a + std::log(v) / g;
      else if (std::abs(g * (b - a)) < 1e-12) r = a + v * (b - a);
      else r = a + std::log1p(v * em1_[s]) / g;
      const double env = h_[s] + g * (r - x_[s]);
      const double lu = std::log(rng.unif());
      // Squeeze: by concavity h lies above its chords between abscissae, so
      // most draws are accepted without evaluating h.
      const std::size_t c = r < x_[s] ? s - (s > 0) : s;
      if (c + 1 < x_.size() && r >= x_[c] && r <= x_[c + 1]) {
        const double w = (r - x_[c]) / (x_[c + 1] - x_[c]);
        if (lu <= (1.0 - w) * h_[c] + w * h_[c + 1] - env) return r;
      }
      if (lu <= log_density(r) - shift_ - env) return r;
    }
  }

  // Envelope acceptance rate (for diagnostics and tests).
  double envelope_mass() const { return cum_.back(); }

 private:
  const Manifold& M_;
  RadialKernel k_;
  double lo_, hi_;
  std::vector<double> x_, h_, g_, z_, cum_, em1_;  // em1_: expm1(g (b - a)) per segment
  double shift_ = 0.0;

  static double inf() { return std::numeric_limits<double>::infinity(); }

  // Point on (a, b) where the concave h crosses level, h(a) >= level > h(b)
  // (or the reverse), by bisection.
  double cross(double a, double b, double level) const {
    for (int i = 0; i < 200 && b - a > 1e-14 * std::max(1.0, std::abs(a)); ++i) {
      const double m = 0.5 * (a + b);
      if ((log_density(m) >= level) == (log_density(a) >= level)) a = m;
      else b = m;
    }
    return 0.5 * (a + b);
  }

  void build() {
    // Mode: where the decreasing h' changes sign.
    const double eps = 1e-300;
    double mode;
    double left = lo_ + eps;
    double right = hi_;
    if (std::isinf(right)) {
      right = 1.0;
      while (d_log_density(right) >= 0.0) {
        right *= 2.0;
        if (right > 1e8) throw domain_error("the law is not integrable: its density does not decay (sigma too large)");
      }
      // Beyond the mode h must keep decreasing at a rate bounded away from 0.
      if (!(d_log_density(1e6) < 0.0))
        throw domain_error("the law is not integrable: its density does not decay (sigma too large)");
    }
    if (d_log_density(left) <= 0.0) mode = lo_;
    else if (d_log_density(right * (1 - 1e-15)) >= 0.0) mode = right;
    else {
      double a = left, b = right;
      for (int i = 0; i < 200; ++i) {
        const double m = 0.5 * (a + b);
        if (d_log_density(m) > 0.0) a = m;
        else b = m;
      }
      mode = 0.5 * (a + b);
    }
    const bool interior = mode > lo_ && mode < hi_;
    const double hm = interior ? log_density(mode) : log_density(mode == lo_ ? lo_ + 1e-12 : hi_ - 1e-12);
    std::vector<double> pts;
    if (interior) pts.push_back(mode);
    const double levels[] = {0.1, 0.5, 1.5, 3.0, 6.0, 12.0, 25.0, 50.0};
    for (double c : levels) {
      const double level = hm - c;
      if (mode > lo_ && log_density(lo_ + 1e-300) < level) pts.push_back(cross(lo_ + 1e-300, mode, level));
      double far = hi_;
      if (std::isinf(far)) {
        far = std::max(2.0 * mode, 1.0);
        while (log_density(far) >= level) far *= 2.0;
      }
      if (mode < hi_ && log_density(far * (1 - 1e-12)) < level) pts.push_back(cross(mode, far * (1 - 1e-12), level));
    }
    if (pts.empty()) pts.push_back(std::isinf(hi_) ? lo_ + 1.0 : 0.5 * (lo_ + hi_));
    std::sort(pts.begin(), pts.end());
    pts.erase(std::unique(pts.begin(), pts.end(), [](double a, double b) { return std::abs(a - b) < 1e-13; }),
              pts.end());
    for (double p : pts) {
      const double hp = log_density(p), gp = d_log_density(p);
      if (!std::isfinite(hp) || !std::isfinite(gp)) continue;
      x_.push_back(p);
      h_.push_back(hp);
      g_.push_back(gp);
    }
    if (x_.empty()) throw domain_error("could not build the envelope of the radial law");
    if (std::isinf(hi_) && !(g_.back() < 0.0))
      throw domain_error("the law is not integrable: its density does not decay (sigma too large)");
    const std::size_t K = x_.size();
    z_.assign(K + 1, 0.0);
    z_[0] = lo_;
    z_[K] = hi_;
    for (std::size_t j = 0; j + 1 < K; ++j) {
      const double dg = g_[j] - g_[j + 1];
      double z = dg > 1e-300 ? (h_[j + 1] - h_[j] - x_[j + 1] * g_[j + 1] + x_[j] * g_[j]) / dg
                             : 0.5 * (x_[j] + x_[j + 1]);
      z_[j + 1] = std::min(std::max(z, x_[j]), x_[j + 1]);
    }
    const double H = *std::max_element(h_.begin(), h_.end());
    for (std::size_t j = 0; j < K; ++j) h_[j] -= H;  // envelope relative to H
    shift_ = H;  // h_ holds the envelope relative to H
    cum_.assign(K, 0.0);
    em1_.assign(K, 0.0);
    double total = 0.0;
    for (std::size_t j = 0; j < K; ++j) {
      const double a = z_[j], b = z_[j + 1], g = g_[j];
      if (!std::isinf(b)) em1_[j] = std::expm1(g * (b - a));
      const double ea = std::exp(h_[j] + g * (a - x_[j]));
      double mass;
      if (std::isinf(b)) mass = ea / (-g);
      else if (std::abs(g * (b - a)) < 1e-12) mass = ea * (b - a);
      else mass = ea * std::expm1(g * (b - a)) / g;
      total += mass;
      cum_[j] = total;
    }
  }
};

}  // namespace riemdp

#endif
