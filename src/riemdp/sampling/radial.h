// Exact sampling of isotropic laws on a manifold (methods article, "Samplers"): the direction is
// uniform on the unit sphere of T_eta M and r = dist(eta, x) has density
// exp(h(r)), h(r) = log k(r) + log A(r), with k the mechanism's kernel and A the
// area of geodesic spheres. On every space here h is concave on (0, inj), so
// r is drawn exactly by rejection from a piecewise-exponential envelope built
// from tangents of h (a fixed-abscissae adaptive-rejection sampler).
// The envelope is built in the scaled distance t = r / tau (tau = sigma, or
// inj when sigma exceeds it), where the law has scale O(1) for every
// representable sigma (5e-324 to 1.8e308); every search has a bounded number
// of steps, and draws that double precision cannot hold are domain errors.
#ifndef RIEMDP_SAMPLING_RADIAL_H
#define RIEMDP_SAMPLING_RADIAL_H

#include <algorithm>
#include <limits>
#include <vector>

#include "../geometry/manifold.h"
#include "../interrupt.h"

namespace riemdp {

// Kernel of the mechanism in r: Laplace exp(-r/sigma) (Reimherr, Bharath & Soto 2021, Def. 3) or
// Gaussian exp(-r^2/(2 sigma^2)) (Jiang et al. 2023, Def. 3.3), times exp(tilt * r): the
// mechanisms use tilt = 0; the SPD envelope (spd_exact.h) tilts by the volume
// growth rate.
struct RadialKernel {
  enum Kind { laplace, gaussian } kind;
  double sigma;
  double tilt = 0.0;
  // In r / sigma, so that sigma^2 never under- or overflows; the tilt term is
  // skipped when 0 (0 * inf would be NaN at r = inf).
  double h(double r) const {
    return (kind == laplace ? -r / sigma : -0.5 * (r / sigma) * (r / sigma)) + (tilt != 0.0 ? tilt * r : 0.0);
  }
  double dh(double r) const { return (kind == laplace ? -1.0 / sigma : -(r / sigma) / sigma) + tilt; }
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

  // One draw of r = dist(eta, x): t = r / tau from the envelope, accepted by
  // the squeeze or by the exact log-density, then r = tau t.
  template <class Rng>
  double draw(Rng& rng) const {
    // The envelope hugs the log-concave density (acceptance near 1), so this
    // many rejections in a row only happen if the envelope is wrong.
    constexpr long max_rejections = 10000000;
    for (long tries = 0; tries < max_rejections; ++tries) {
      check_interrupt();
      const double u = rng.unif() * cum_.back();
      const std::size_t j = std::upper_bound(cum_.begin(), cum_.end(), u) - cum_.begin();
      const std::size_t s = std::min(j, x_.size() - 1);
      const double a = z_[s], b = z_[s + 1], g = g_[s];
      double t;
      const double v = rng.unif();
      if (std::isinf(b)) t = a + std::log(v) / g;
      else if (std::abs(g * (b - a)) < 1e-12) t = a + v * (b - a);
      else t = (g > 0.0 ? b : a) + std::log1p(v * em1_[s]) / g;  // inverse CDF from the segment's higher end
      const double r = tau_ * t;
      if (!std::isfinite(r))
        throw domain_error("a draw of the radial law on " + M_.name() + " lies beyond the largest double (sigma = " +
                           num::fmt(k_.sigma) + "); use a smaller sigma");
      const double env = h_[s] + g * (t - x_[s]);
      const double lu = std::log(rng.unif());
      // Squeeze: by concavity h lies above its chords between abscissae, so
      // most draws are accepted without evaluating h.
      const std::size_t c = t < x_[s] ? s - (s > 0) : s;
      bool accept = false;
      if (c + 1 < x_.size() && t >= x_[c] && t <= x_[c + 1]) {
        const double w = (t - x_[c]) / (x_[c + 1] - x_[c]);
        accept = lu <= (1.0 - w) * h_[c] + w * h_[c + 1] - env;
      }
      if (accept || lu <= scaled_log_density(t) - shift_ - env) return std::min(r, hi_);
    }
    throw domain_error("internal error: the envelope of the radial law on " + M_.name() + " (sigma = " +
                       num::fmt(k_.sigma) + ") rejected " + std::to_string(max_rejections) +
                       " draws in a row; please report this");
  }

  // Envelope acceptance rate (for diagnostics and tests).
  double envelope_mass() const { return cum_.back(); }

 private:
  const Manifold& M_;
  RadialKernel k_;
  double lo_, hi_;
  // The envelope lives in the scaled variable t = r / tau (tau_ = sigma, or
  // the injectivity radius when sigma exceeds it), so that it is built the
  // same way for every representable sigma: t is O(1) wherever the law is
  // concentrated, and sigma^2 is never formed (it under- or overflows).
  double tau_ = 1.0, rho_ = 1.0, tmax_ = 0.0;  // rho_ = tau / sigma <= 1; t < tmax_ = inj / tau
  // Below r_flat_ the area of geodesic spheres is C r^{dim-1} to double
  // precision (A(r) = r^{dim-1} (1 + O(kappa r^2))); log_c_ = log C, measured
  // at r_flat_ so that both branches of scaled_log_density() meet.
  double r_flat_ = 0.0, log_c_ = 0.0;
  std::vector<double> x_, h_, g_, z_, cum_, em1_;  // em1_: expm1(-|g| (b - a)) per segment [a, b]
  double shift_ = 0.0;

  static double inf() { return std::numeric_limits<double>::infinity(); }

  // log of the density of t (up to a constant): kernel(tau t) + log A(tau t)
  // - (dim - 1) log tau, and its derivative in t.
  double scaled_log_density(double t) const {
    const int d = M_.dim();
    if (!(t > 0.0) || !(t < tmax_)) return t == 0.0 && d == 1 ? log_c_ : -inf();
    // the kernel in t (RadialKernel::h at r = tau t, without forming sigma^2)
    const double kern = (k_.kind == RadialKernel::laplace ? -rho_ * t : -0.5 * (rho_ * t) * (rho_ * t)) +
                        (k_.tilt != 0.0 ? k_.tilt * tau_ * t : 0.0);
    const double r = tau_ * t;
    if (r <= r_flat_) return kern + (d > 1 ? (d - 1.0) * std::log(t) : 0.0) + log_c_;
    return kern + M_.log_volume_density(r) - (d - 1.0) * std::log(tau_);
  }
  double d_scaled_log_density(double t) const {
    const int d = M_.dim();
    const double dkern = (k_.kind == RadialKernel::laplace ? -rho_ : -rho_ * (rho_ * t)) + k_.tilt * tau_;
    const double r = tau_ * t;
    if (r <= r_flat_) return dkern + (d - 1.0) / t;
    return dkern + tau_ * M_.d_log_volume_density(r);
  }

  // Midpoint of a bracket [a, b], a >= 0: geometric while b/a is large, so
  // that a point anywhere in (1e-300, 1e300) is reached in a few dozen halvings.
  static double mid(double a, double b) {
    if (a > 0.0 && b > 4.0 * a && std::isfinite(b)) return std::sqrt(a) * std::sqrt(b);
    if (a == 0.0 && b > 1.0) return std::min(1.0, 0.5 * b);
    return 0.5 * a + 0.5 * b;
  }
  static bool resolved(double a, double b) { return !(b - a > 4.0 * std::numeric_limits<double>::epsilon() * b); }

  // Point on (a, b) where the concave h crosses level, h(a) >= level > h(b)
  // (or the reverse), by bisection to relative precision (bounded steps).
  double cross(double a, double b, double level) const {
    const bool a_above = scaled_log_density(a) >= level;
    for (int i = 0; i < 2200 && !resolved(a, b); ++i) {
      const double m = mid(a, b);
      if (m <= a || m >= b) break;
      if ((scaled_log_density(m) >= level) == a_above) a = m;
      else b = m;
    }
    return mid(a, b);
  }

  // The density still increases where t (or r = tau t) reaches the largest
  // double. Volume grows at most exponentially here (Bishop-Gromov), so the
  // Gaussian law always exists and is then out of range; the Laplace law does
  // not exist when its rate is below the volume growth rate.
  [[noreturn]] void not_integrable() const {
    if (k_.kind == RadialKernel::gaussian)
      throw domain_error("the radial law on " + M_.name() + " for sigma = " + num::fmt(k_.sigma) +
                         " is concentrated beyond the largest double; use a smaller sigma");
    throw domain_error("the radial law on " + M_.name() + " is not integrable for sigma = " + num::fmt(k_.sigma) +
                       ": its density does not decay (sigma too large)");
  }

  void build() {
    const int d = M_.dim();
    const double sigma = k_.sigma;
    if (!(sigma > 0.0) || !std::isfinite(sigma))
      throw domain_error("the rate sigma must be a finite number > 0 (got " + num::fmt(sigma) + ")");
    tau_ = std::min(sigma, hi_);
    rho_ = tau_ == sigma ? 1.0 : tau_ / sigma;
    tmax_ = std::isinf(hi_) ? inf() : hi_ / tau_;  // >= 1; may overflow to inf for tiny sigma
    const double kappa = std::max(std::abs(M_.curvature_min()), std::abs(M_.curvature_max()));
    r_flat_ = kappa > 0.0 ? std::sqrt(std::numeric_limits<double>::epsilon() / (2.0 * kappa * d)) : inf();
    const double r_c = std::isfinite(r_flat_) ? r_flat_ : 1.0;
    log_c_ = M_.log_volume_density(r_c) - (d - 1.0) * std::log(r_c);
    if (!std::isfinite(log_c_)) throw domain_error("the volume density of " + M_.name() + " is not finite near 0");

    // Mode: where the decreasing h' changes sign.
    const double tiny = 1e-300;
    double right = tmax_;
    if (std::isinf(right)) {
      right = 1.0;
      // h' < 0 is reached after at most ~1030 doublings unless it never is.
      while (d_scaled_log_density(right) >= 0.0) {
        right *= 2.0;
        if (std::isinf(right)) not_integrable();
      }
    }
    double mode;
    if (d == 1 && !(d_scaled_log_density(tiny) > 0.0)) mode = 0.0;
    else if (std::isfinite(tmax_) && d_scaled_log_density(right * (1 - 1e-15)) >= 0.0) mode = right;
    else {
      double a = tiny, b = right;
      for (int i = 0; i < 2200 && !resolved(a, b); ++i) {
        const double m = mid(a, b);
        if (m <= a || m >= b) break;
        if (d_scaled_log_density(m) > 0.0) a = m;
        else b = m;
      }
      mode = mid(a, b);
    }
    const bool interior = mode > 0.0 && mode < tmax_;
    const double hm = interior ? scaled_log_density(mode) : scaled_log_density(mode == 0.0 ? 0.0 : right * (1 - 1e-12));
    // Far modes (e.g. the Gaussian on H^d at sigma >> 1, mode near (d-1) sigma^2):
    // beyond ~1e13 the log-density has no digits left at the scale of the law.
    if (!std::isfinite(tau_ * mode) || !std::isfinite(hm) || std::abs(hm) > 1e13)
      throw domain_error("the radial law on " + M_.name() + " for sigma = " + num::fmt(sigma) +
                         " is concentrated at distance about " + num::fmt(tau_ * mode) +
                         " from the footprint, beyond what double precision can represent; use a smaller sigma");
    std::vector<double> pts;
    if (interior) pts.push_back(mode);
    const double levels[] = {0.1, 0.5, 1.5, 3.0, 6.0, 12.0, 25.0, 50.0};
    for (double c : levels) {
      const double level = hm - c;
      if (mode > 0.0 && scaled_log_density(tiny) < level) pts.push_back(cross(tiny, mode, level));
      double far = tmax_;
      if (std::isinf(far)) {
        far = std::max(2.0 * mode, 1.0);
        while (scaled_log_density(far) >= level) {
          far *= 2.0;
          if (std::isinf(far)) not_integrable();
        }
      }
      if (mode < tmax_ && scaled_log_density(far * (1 - 1e-12)) < level)
        pts.push_back(cross(mode, far * (1 - 1e-12), level));
    }
    if (pts.empty()) pts.push_back(std::isinf(tmax_) ? 1.0 : 0.5 * tmax_);
    std::sort(pts.begin(), pts.end());
    pts.erase(std::unique(pts.begin(), pts.end(),
                          [](double a, double b) { return std::abs(a - b) <= 1e-13 * std::max(a, b); }),
              pts.end());
    for (double p : pts) {
      const double hp = scaled_log_density(p), gp = d_scaled_log_density(p);
      if (!std::isfinite(hp) || !std::isfinite(gp)) continue;
      x_.push_back(p);
      h_.push_back(hp);
      g_.push_back(gp);
    }
    if (x_.empty())
      throw domain_error("could not build the envelope of the radial law on " + M_.name() + " for sigma = " +
                         num::fmt(sigma));
    if (std::isinf(tmax_) && !(g_.back() < 0.0)) not_integrable();
    const std::size_t K = x_.size();
    z_.assign(K + 1, 0.0);
    z_[0] = 0.0;
    z_[K] = tmax_;
    for (std::size_t j = 0; j + 1 < K; ++j) {
      const double dg = g_[j] - g_[j + 1];
      double z = dg > 0.0 ? (h_[j + 1] - h_[j] - x_[j + 1] * g_[j + 1] + x_[j] * g_[j]) / dg
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
      // Mass of exp(h_j + g (t - x_j)) on [a, b], from its higher end so that
      // steep segments neither overflow nor cancel.
      const double a = z_[j], b = z_[j + 1], g = g_[j];
      const double top = std::exp(h_[j] + g * ((g > 0.0 ? b : a) - x_[j]));
      em1_[j] = std::isinf(b) ? -1.0 : std::expm1(-std::abs(g) * (b - a));
      double mass;
      if (std::isinf(b)) mass = top / (-g);
      else if (std::abs(g * (b - a)) < 1e-12) mass = top * (b - a);
      else mass = top * -em1_[j] / std::abs(g);
      total += mass;
      cum_[j] = total;
    }
    if (!(total > 0.0) || !std::isfinite(total))
      throw domain_error("could not build the envelope of the radial law on " + M_.name() + " for sigma = " +
                         num::fmt(sigma));
  }
};

}  // namespace riemdp

#endif
