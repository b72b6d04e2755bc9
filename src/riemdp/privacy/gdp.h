// Gaussian differential privacy accounting (Jiang, Chang, Liu, Ding, Kong &
// Jiang 2023; methods article, "Gaussian DP accounting"): delta_mu(eps) of Def. 3.1 and its inversion, and the privacy
// profile l(eps) of the Riemannian Gaussian (Thm 3.2 / 4.1) on spaces of
// constant curvature by closed form on S^1 (Cor. 3.2.1, corrected),
// deterministic quadrature, and Monte Carlo (Algorithm 2 and the
// change-of-measure estimator). Pure C++17, no R headers: Phi and log Phi are
// implemented here (std::erfc and a continued fraction for the far tail).
// The inversion delta_mu(eps) = l and the supremum over eps run here (they
// are the hot loops); root finding for sigma lives in R (gdp_sigma()).
#ifndef RIEMDP_PRIVACY_GDP_H
#define RIEMDP_PRIVACY_GDP_H

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "../interrupt.h"
#include "../parallel.h"
#include "../numerics.h"

namespace riemdp {
namespace gdp {

constexpr double sqrt2 = 1.41421356237309504880;
constexpr double sqrt2pi = 2.50662827463100050242;
constexpr double log_sqrt2pi = 0.91893853320467274178;
inline double inf() { return std::numeric_limits<double>::infinity(); }

// ---------------------------------------------------------------- normal law

// Phi(x): relative accuracy in the lower tail, absolute 1e-16 above.
inline double Phi(double x) { return 0.5 * std::erfc(-x / sqrt2); }
inline double phi(double x) { return std::exp(-0.5 * x * x) / sqrt2pi; }

// Mills ratio R(z) = Phi(-z) / phi(z), z > -5; continued fraction
// R(z) = 1/(z + 1/(z + 2/(z + 3/(z + ...)))) (modified Lentz) for z >= 5.
inline double mills(double z) {
  if (z < 5.0) return 0.5 * std::erfc(z / sqrt2) * sqrt2pi * std::exp(0.5 * z * z);
  const double tiny = 1e-300;
  double f = z, C = z, D = 0.0;
  for (int j = 1; j < 1000; ++j) {
    D = z + j * D;
    if (D == 0.0) D = tiny;
    D = 1.0 / D;
    C = z + j / C;
    if (C == 0.0) C = tiny;
    const double dl = C * D;
    f *= dl;
    if (std::abs(dl - 1.0) < 1e-16) break;
  }
  return 1.0 / f;
}

// Phi(u) - Phi(v), u >= v, without the cancellation of two values near 1/2
// (erf is relatively accurate near 0) or near 1 (upper tails).
inline double Phi_diff(double u, double v) {
  if (std::abs(u) < 1.0 && std::abs(v) < 1.0) return 0.5 * (std::erf(u / sqrt2) - std::erf(v / sqrt2));
  if (u <= 0.0) return Phi(u) - Phi(v);
  if (v >= 0.0) return Phi(-v) - Phi(-u);
  return 1.0 - Phi(-u) - Phi(v);
}

// log Phi(x) without underflow (x down to -1e150) or cancellation.
inline double log_Phi(double x) {
  if (x > 0.0) return std::log1p(-Phi(-x));
  if (x > -5.0) return std::log(Phi(x));
  return -0.5 * x * x - log_sqrt2pi + std::log(mills(-x));
}

// ---------------------------------------------------------------- Gauss-Legendre

struct GaussLegendre {
  std::vector<double> x, w;  // on [-1, 1]
  explicit GaussLegendre(int n) : x(n), w(n) {
    for (int i = 0; i < n; ++i) {
      double z = std::cos(num::pi * (i + 0.75) / (n + 0.5)), dp = 0.0;
      for (int it = 0; it < 100; ++it) {
        double p0 = 1.0, p1 = z;
        for (int k = 2; k <= n; ++k) {
          const double p2 = ((2.0 * k - 1.0) * z * p1 - (k - 1.0) * p0) / k;
          p0 = p1;
          p1 = p2;
        }
        dp = n * (z * p1 - p0) / (z * z - 1.0);
        const double dz = p1 / dp;
        z -= dz;
        if (std::abs(dz) < 1e-16) break;
      }
      x[i] = z;
      w[i] = 2.0 / ((1.0 - z * z) * dp * dp);
    }
  }
};

inline const GaussLegendre& gauss_legendre(int n) {
  static std::vector<std::unique_ptr<GaussLegendre>> cache(129);
  if (n < 1 || n > 128) throw domain_error("Gauss-Legendre order must be in 1..128");
  if (!cache[n]) cache[n] = std::make_unique<GaussLegendre>(n);
  return *cache[n];
}

// ---------------------------------------------------------------- delta_mu

// integral_0^inf exp(-z0 s - s^2/2) (1 - exp(-mu s)) ds, z0 > 0: a positive
// integrand, Gauss-Legendre on 8 panels up to where the exponent reaches 40.
inline double delta_tail_integral(double z0, double mu) {
  const double S = 80.0 / (z0 + std::sqrt(z0 * z0 + 80.0));
  const GaussLegendre& g = gauss_legendre(16);
  const int P = 8;
  const double h = S / P;
  double sum = 0.0;
  for (int p = 0; p < P; ++p) {
    const double a = p * h;
    for (std::size_t i = 0; i < g.x.size(); ++i) {
      const double s = a + 0.5 * h * (g.x[i] + 1.0);
      sum += g.w[i] * std::exp(-z0 * s - 0.5 * s * s) * -std::expm1(-mu * s);
    }
  }
  return 0.5 * h * sum;
}

// delta_mu(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) (Jiang et
// al. 2023, Def. 3.1). The second term as exp(eps + log Phi) (no overflow);
// where the difference cancels (z0 = eps/mu - mu/2 >> mu, or mu tiny) the
// change-of-measure form delta = phi(z0) * int_0^inf e^{-z0 s - s^2/2} (1 - e^{-mu s}) ds
// (the Gaussian privacy loss, a positive integrand; its range covers z0 > -1).
// eps = 0: erf(mu/(2 sqrt 2)).
inline double delta(double eps, double mu) {
  if (std::isinf(mu)) return std::isinf(eps) ? std::numeric_limits<double>::quiet_NaN() : 1.0;
  if (std::isinf(eps)) return 0.0;
  if (!(mu > 0.0)) return 0.0;
  if (eps == 0.0) return std::erf(mu / (2.0 * sqrt2));
  const double z0 = eps / mu - 0.5 * mu;
  const double p = Phi(-z0);
  const double q = std::exp(eps + log_Phi(-z0 - mu));
  const double d = p - q;
  if (z0 <= -1.0 || d >= 1e-2 * p) return d > 0.0 ? d : 0.0;
  const double v = phi(z0) * delta_tail_integral(z0, mu);
  return v > 0.0 ? v : 0.0;
}

// d delta_mu(eps) / d mu = phi(mu/2 - eps/mu) (delta method for the MC se).
inline double delta_dmu(double eps, double mu) { return phi(0.5 * mu - eps / mu); }

// The smallest mu with delta_mu(eps) >= l (delta increases in mu), to
// relative tolerance rtol, ROUNDED UP: the upper end of the final bracket
// (methods article, "Gaussian DP accounting": rounding mu down would understate the privacy loss).
// l <= 0 gives 0 (no constraint at this eps); l >= 1 gives inf.
inline double mu_from_delta(double eps, double l, double rtol) {
  if (!(l > 0.0)) return 0.0;
  if (l >= 1.0) return inf();
  double lo, hi, flo, fhi;
  double m = 1.0, f = delta(eps, m) - l;
  if (f >= 0.0) {
    hi = m, fhi = f, lo = 0.5 * m, flo = delta(eps, lo) - l;
    for (int i = 0; i < 2100 && flo >= 0.0; ++i) {
      hi = lo, fhi = flo, lo *= 0.5;
      if (lo < 1e-300) return hi;
      flo = delta(eps, lo) - l;
    }
  } else {
    lo = m, flo = f, hi = 2.0 * m, fhi = delta(eps, hi) - l;
    for (int i = 0; i < 2100 && fhi < 0.0; ++i) {
      lo = hi, flo = fhi, hi *= 2.0;
      if (hi > 1e300) return inf();
      fhi = delta(eps, hi) - l;
    }
  }
  // Illinois regula falsi, with a bisection whenever the bracket did not
  // halve; every iterate keeps delta(lo) < l <= delta(hi).
  int side = 0;
  double width = hi - lo;
  for (int it = 0; it < 300 && hi - lo > rtol * hi; ++it) {
    double x = (fhi - flo) > 0.0 ? hi - fhi * (hi - lo) / (fhi - flo) : 0.5 * (lo + hi);
    if (it % 3 == 2 && hi - lo > 0.5 * width) x = 0.5 * (lo + hi);
    if (it % 3 == 2) width = hi - lo;
    if (!(x > lo && x < hi)) x = 0.5 * (lo + hi);
    const double fx = delta(eps, x) - l;
    if (fx >= 0.0) {
      hi = x, fhi = fx;
      if (side == 1) flo *= 0.5;
      side = 1;
    } else {
      lo = x, flo = fx;
      if (side == -1) fhi *= 0.5;
      side = -1;
    }
  }
  return hi;
}

// ---------------------------------------------------------------- safe-side rounding

inline double next_up(double x) { return std::nextafter(x, inf()); }

// x raised by k relative units of 2^-52 and one ulp: at or above the exact
// value of a computation with at most k roundings that gave x.
inline double bump_up(double x, int k = 4) { return next_up(x * (1.0 + k * 0x1p-52)); }

// a / b rounded up (a, b > 0): the rounded quotient, or the next double when
// the exact residual q b - a (fma, with b scaled into [1/2, 1) by a power of
// 2) shows it below a / b; one step up where the residual could underflow.
inline double div_up(double a, double b) {
  int eb;
  std::frexp(b, &eb);
  const double as = std::ldexp(a, -eb), bs = std::ldexp(b, -eb);
  const double q = as / bs;
  if (std::isinf(q)) return q;
  if (!(q >= 0x1p-960) || !(as >= 0x1p-1000)) return next_up(a / b);
  return std::fma(q, bs, -as) < 0.0 ? next_up(q) : q;
}

// ---------------------------------------------------------------- S^1, Cor. 3.2.1

// Corrected S^1 profile (methods article, "Gaussian DP accounting"), eta1 = -Delta/2, eta2 = Delta/2:
// l = {Phi(x2-x1) - Phi(x2-x3+a) - e^eps[Phi(-x1-x2) + Phi(x2-x3-a) - 2 Phi(-x3)]}/C,
// x1 = sigma eps/Delta, x2 = Delta/(2 sigma), x3 = pi/sigma,
// a = sigma eps/(2 pi - Delta), C = 2 Phi(x3) - 1; zero beyond
// eps = Delta (2 pi - Delta)/(2 sigma^2). The Euclidean part
// Phi(x2-x1) - e^eps Phi(-x1-x2) is delta_{Delta/sigma}(eps), evaluated stably.
// For sigma > pi (every Phi near 1/2, l ~ Delta/sigma^2, eps < 1) W is summed
// as [Phi(x2-x3+a) - Phi(-x3)] + e^eps [Phi(x2-x3-a) - Phi(-x3)] - expm1(eps) Phi(-x3).
inline double s1_profile_corrected(double eps, double sigma, double Delta) {
  const double evan = Delta / sigma * ((2.0 * num::pi - Delta) / sigma) * 0.5;
  if (!(eps < evan)) return 0.0;
  const double x2 = Delta / (2.0 * sigma), x3 = num::pi / sigma, a = sigma * eps / (2.0 * num::pi - Delta);
  const double C = std::erf(x3 / sqrt2);
  const double E = delta(eps, Delta / sigma);
  double W;
  if (x3 > 1.0) {
    W = Phi(x2 - x3 + a) + std::exp(eps + log_Phi(x2 - x3 - a)) - 2.0 * std::exp(eps + log_Phi(-x3));
  } else {
    const double ee = std::exp(eps);
    W = Phi_diff(x2 - x3 + a, -x3) +
        (x2 >= a ? ee * Phi_diff(x2 - x3 - a, -x3) : -ee * Phi_diff(-x3, x2 - x3 - a)) - std::expm1(eps) * Phi(-x3);
  }
  const double l = (E - W) / C;
  return l > 0.0 ? l : 0.0;
}

// Cor. 3.2.1 exactly as printed in Jiang et al. (2023) (its set A is wrong for eps > 0,
// methods article, "Gaussian DP accounting"); kept to reproduce the paper's Fig. 1.
inline double s1_profile_paper(double eps, double sigma, double Delta) {
  const double x1 = sigma * eps / Delta, x2 = Delta / (2.0 * sigma), x3 = num::pi / sigma;
  const double C = Phi(x3) - Phi(-x3);
  const bool small = eps <= Delta * Delta / (2.0 * sigma * sigma);
  const double ee = std::exp(eps);
  const double h = (Phi(-x1 + x2) - ee * Phi(-x1 - x2)) / C -
                   (Phi(x1 + x2 - x3) - ee * Phi(x1 - x2 + (small ? x3 : -x3))) / C - (small ? ee : 0.0);
  return std::isfinite(h) ? h : 0.0;
}

// ---------------------------------------------------------------- geometry of the pair

// Constant curvature kappa in {1, 0, -1}, dimension d, eta1 and eta2 at
// distance Delta. In geodesic polar coordinates (r, phi) about eta1 (phi the
// angle to the direction of eta2) the law of cosines in haversine form,
// hav(d2) = hav(r - Delta) + s(r) s(Delta) sin^2(phi/2), is accurate near
// d2 = 0; on the sphere d2 = 2 atan2(sqrt(hav), sqrt(cohav)) also near pi.
struct PairGeometry {
  int kappa, d;
  double Delta, sigma;
  PairGeometry(int kappa_, int d_, double Delta_, double sigma_)
      : kappa(kappa_), d(d_), Delta(Delta_), sigma(sigma_), sD_(s(Delta_)), sh_(std::sin(0.5 * Delta_)),
        ch_(std::cos(0.5 * Delta_)) {}
  double s(double x) const { return kappa > 0 ? std::sin(x) : kappa < 0 ? std::sinh(x) : x; }
  double half2(double x) const {  // S(x/2)^2: sin^2, sinh^2 or (x/2)^2
    const double h = kappa > 0 ? std::sin(0.5 * x) : kappa < 0 ? std::sinh(0.5 * x) : 0.5 * x;
    return h * h;
  }
  // log of the radial weight exp(-r^2/(2 sigma^2)) s(r)^{d-1}
  double log_w(double r) const {
    double v = -0.5 * (r / sigma) * (r / sigma);
    if (d > 1) {
      double ls;
      if (kappa > 0) ls = std::log(std::sin(r));
      else if (kappa < 0) ls = r < 1.0 ? std::log(std::sinh(r)) : r + std::log1p(-std::exp(-2.0 * r)) - std::log(2.0);
      else ls = std::log(r);
      v += (d - 1.0) * ls;
    }
    return v;
  }
  double d_log_w(double r) const {
    double v = -r / (sigma * sigma);
    if (d > 1) v += (d - 1.0) * (kappa > 0 ? std::cos(r) / std::sin(r) : kappa < 0 ? 1.0 / std::tanh(r) : 1.0 / r);
    return v;
  }
  double r_max() const { return kappa > 0 ? num::pi : inf(); }
  // On H^d far out (r > 20; the law sits near (d-1) sigma^2) sinh r
  // overflows: there d2 - r from the exact identity
  // e^{d2-r}(1 + e^{-2 d2}) = e^-Delta + e^{Delta-2r} + 2 sinh(Delta) sin^2(phi/2) (1 - e^{-2r}).
  static constexpr double far_r = 20.0;
  // That first value dd0 loses a tiny Delta next to e^{-2r}: refined by the
  // excess() identity divided by e^r/2 (no cancellation),
  // sinh(dd/2) = [2 (1 + e^{-2r}) sinh^2(Delta/2) - (1 - e^{-2r}) sinh(Delta) cos phi] / [2 (e^{dd0/2} - e^{-2r-dd0/2})].
  double far_excess(double r, double sh2) const {
    const double e2r = std::exp(-2.0 * r);
    const double Am1 = std::expm1(-Delta) + std::exp(Delta - 2.0 * r) + 2.0 * std::sinh(Delta) * sh2 * (1.0 - e2r);
    double dd = std::log1p(Am1);
    dd -= std::log1p(std::exp(-2.0 * (r + dd)));
    const double shh = std::sinh(0.5 * Delta);
    const double num = 2.0 * (1.0 + e2r) * shh * shh - (1.0 - e2r) * sD_ * (1.0 - 2.0 * sh2);
    const double den = 2.0 * (std::exp(0.5 * dd) - std::exp(-2.0 * r - 0.5 * dd));
    if (den > 0.0 && std::isfinite(num) && std::isfinite(den)) dd = 2.0 * std::asinh(num / den);
    return dd;
  }
  // dist(eta2, y) from (r, sin^2(phi/2), cos^2(phi/2)).
  double d2(double r, double sh2, double ch2) const {
    if (kappa < 0 && r > far_r) return r + far_excess(r, sh2);
    if (kappa > 0) {
      // one sin/cos pair of r/2: sin((r-D)/2), cos((r+D)/2) and sin r sin D
      // by the addition formulas (absolute error a few ulp, as the direct forms)
      const double sa = std::sin(0.5 * r), ca = std::cos(0.5 * r);
      const double sm = sa * ch_ - ca * sh_, cp = ca * ch_ - sa * sh_;
      const double k = 2.0 * sa * ca * sD_;
      const double hv = sm * sm + k * sh2, chv = cp * cp + k * ch2;
      return 2.0 * std::atan2(std::sqrt(std::max(hv, 0.0)), std::sqrt(std::max(chv, 0.0)));
    }
    const double hv = half2(r - Delta) + s(r) * sD_ * sh2;
    if (kappa < 0) return 2.0 * std::asinh(std::sqrt(std::max(hv, 0.0)));
    return 2.0 * std::sqrt(std::max(hv, 0.0));
  }
  // privacy loss L = (d2^2 - r^2)/(2 sigma^2); on R^d Delta (Delta - 2 r cos phi)/(2 sigma^2)
  // (d2 - r loses Delta when r >> Delta)
  double loss(double r, double sh2, double ch2) const {
    if (kappa == 0) return Delta / sigma * ((Delta - 2.0 * r * (ch2 - sh2)) / sigma) * 0.5;
    if (kappa < 0 && r > far_r) {
      const double dd = far_excess(r, sh2);
      return dd / sigma * ((2.0 * r + dd) / sigma) * 0.5;
    }
    const double e = d2(r, sh2, ch2);
    return excess(r, e, sh2, ch2) / sigma * ((e + r) / sigma) * 0.5;
  }
  // d2 - r without cancellation (r >> Delta, or both tiny): from
  // cos r - cos d2 = 2 sin((d2+r)/2) sin((d2-r)/2) = 2 cos r sin^2(Delta/2) - sin r sin(Delta) cos phi
  // (cosh d2 - cosh r and sinh on H^d); e - r where that cannot be evaluated.
  double excess(double r, double e, double sh2, double ch2) const {
    const double cphi = ch2 - sh2;
    if (kappa > 0) {
      const double num = 2.0 * std::cos(r) * sh_ * sh_ - std::sin(r) * sD_ * cphi;
      const double den = 2.0 * std::sin(0.5 * (e + r));
      if (den > 1e-300 && std::isfinite(num)) return 2.0 * std::asin(std::max(-1.0, std::min(1.0, num / den)));
    } else {
      const double shh = std::sinh(0.5 * Delta);
      const double num = 2.0 * std::cosh(r) * shh * shh - std::sinh(r) * sD_ * cphi;
      const double den = 2.0 * std::sinh(0.5 * (e + r));
      if (den > 1e-300 && std::isfinite(num) && std::isfinite(den)) return 2.0 * std::asinh(num / den);
    }
    return e - r;
  }
  // sin^2(phi*/2) at which L(r, phi*) = eps (L increases in phi): < 0 means
  // every phi is in A, > 1 none. Uses S(a)^2 - S(b)^2 = S(a-b) S(a+b) (sin,
  // sinh) with a - b computed without cancellation.
  double sh2_star(double r, double eps) const {
    const double D = std::sqrt(r * r + 2.0 * sigma * sigma * eps);
    if (kappa > 0 && D >= num::pi) return 2.0;
    if (kappa < 0 && r > far_r) {
      // invert far_excess: e^{dd}(1 + e^{-2D}) = e^-Delta + e^{Delta-2r} + 2 sinh(Delta) t (1 - e^{-2r})
      const double dd = 2.0 * sigma * sigma * eps / (D + r);
      const double e2r = std::exp(-2.0 * r);
      // e^{dd - 2D} - e^{Delta - 2r} = e^{-2r} (expm1(-dd) - expm1(Delta)), D = r + dd
      return (std::expm1(dd) - std::expm1(-Delta) + e2r * (std::expm1(-dd) - std::expm1(Delta))) /
             (2.0 * std::sinh(Delta) * (1.0 - e2r));
    }
    const double b2 = std::abs(r - Delta);
    const double amb = (2.0 * sigma * sigma * eps + 2.0 * r * Delta - Delta * Delta) / (D + b2);  // D - |r - Delta|
    const double apb = D + b2;
    double num;
    if (kappa > 0) num = std::sin(0.5 * amb) * std::sin(0.5 * apb);
    else if (kappa < 0) num = std::sinh(0.5 * amb) * std::sinh(0.5 * apb);
    else num = 0.25 * amb * apb;
    const double k = s(r) * sD_;
    if (!(k > 0.0)) return num <= 0.0 ? -1.0 : 2.0;
    return num / k;
  }

 private:
  double sD_, sh_, ch_;  // s(Delta), sin(Delta/2), cos(Delta/2)
};

// ---------------------------------------------------------------- quadrature

// l(eps) = E_{eta1}[(1 - e^{eps - L})_+] (methods article, "Gaussian DP accounting", change-of-measure form)
// by Gauss-Legendre in r (radial weight) and phi (weight sin^{d-2} phi) over
// {L >= eps} only: phi from phi*(r) to pi, r split where phi* reaches 0 or pi
// and at pi - Delta on the sphere (d2 = pi there). Each r-panel uses the map
// r = a + (b-a) u^2 (3 - 2u), which makes the square-root behaviour at those
// breakpoints smooth. The radial window holds all mass above 1e-17 of the
// peak (the density peaks near (d-1) sigma^2 on H^d).
class QuadratureProfile {
 public:
  // Orders <= 0: chosen from mu0 = Delta/sigma. Near-disjoint laws (large
  // mu0) put l(0) near 1, where mu reacts to tiny absolute errors in l: the
  // orders grow there (relative accuracy of mu checked against orders
  // 40/40/30: below 1e-6 up to mu = 8, below 1e-4 up to mu = 12).
  QuadratureProfile(int kappa, int d, double Delta, double sigma, int nr = 0, int nphi = 0, int panels = 0)
      : G_{kappa, d, Delta, sigma}, nr_(nr), nphi_(nphi), panels_(panels) {
    const double mu0 = Delta / sigma;
    if (nr_ <= 0) nr_ = mu0 <= 5.0 ? 12 : mu0 <= 8.0 ? 16 : 20;
    if (nphi_ <= 0) nphi_ = mu0 <= 5.0 ? 14 : mu0 <= 8.0 ? 16 : 20;
    if (panels_ <= 0) panels_ = mu0 <= 5.0 ? 10 : mu0 <= 8.0 ? 12 : 16;
    window();
    if (d >= 2) log_B_ = 0.5 * std::log(num::pi) + std::lgamma(0.5 * (d - 1.0)) - std::lgamma(0.5 * d);
    // normaliser on the same panels (no eps breakpoints: smooth)
    Z_ = 0.0;
    for (int p = 0; p < panels_; ++p)
      Z_ += integrate_r(ra_ + (rb_ - ra_) * p / panels_, ra_ + (rb_ - ra_) * (p + 1) / panels_,
                        [](double) { return 1.0; });
  }

  double r_lo() const { return ra_; }
  double r_hi() const { return rb_; }
  int orders_r() const { return nr_; }
  int orders_phi() const { return nphi_; }
  int orders_panels() const { return panels_; }
  const PairGeometry& geometry() const { return G_; }

  // Largest loss on the radial window: l vanishes beyond it (sphere:
  // Delta (2 pi - Delta) / (2 sigma^2) exactly).
  double loss_max() const {
    if (G_.kappa > 0) return G_.Delta * (2.0 * num::pi - G_.Delta) / (2.0 * G_.sigma * G_.sigma);
    return G_.Delta * (2.0 * rb_ + G_.Delta) / (2.0 * G_.sigma * G_.sigma);
  }

  double operator()(double eps) const {
    const double Dl = G_.Delta, s2 = G_.sigma * G_.sigma;
    double lo = std::max(ra_, eps * s2 / Dl - 0.5 * Dl);  // phi* < pi beyond r_pi
    double hi = rb_;
    if (G_.kappa > 0) hi = std::min(hi, 0.5 * (2.0 * num::pi - Dl) - s2 * eps / (2.0 * num::pi - Dl));
    if (!(hi > lo)) return 0.0;
    std::vector<double> br;
    br.push_back(lo);
    for (int p = 1; p < panels_; ++p) br.push_back(ra_ + (rb_ - ra_) * p / panels_);
    br.push_back(0.5 * Dl - s2 * eps / Dl);  // r0: phi* = 0 below
    if (G_.kappa > 0) br.push_back(num::pi - Dl);
    br.push_back(hi);
    std::sort(br.begin(), br.end());
    double total = 0.0;
    for (std::size_t j = 0; j + 1 < br.size(); ++j) {
      const double a = std::max(br[j], lo), b = std::min(br[j + 1], hi);
      if (!(b > a)) continue;
      total += integrate_r(a, b, [&](double r) { return angular(r, eps); });
    }
    const double l = total / Z_;
    return l > 0.0 ? (l < 1.0 ? l : 1.0) : 0.0;
  }

 private:
  PairGeometry G_;
  int nr_, nphi_, panels_;
  double ra_ = 0.0, rb_ = 0.0, lw_max_ = 0.0, Z_ = 1.0, log_B_ = 0.0;

  template <class F>
  double integrate_r(double a, double b, F f) const {
    const GaussLegendre& g = gauss_legendre(nr_);
    double sum = 0.0;
    for (std::size_t i = 0; i < g.x.size(); ++i) {
      const double u = 0.5 * (g.x[i] + 1.0);
      const double r = a + (b - a) * u * u * (3.0 - 2.0 * u);
      const double jac = (b - a) * 6.0 * u * (1.0 - u);
      const double w = std::exp(G_.log_w(r) - lw_max_);
      if (w == 0.0) continue;
      sum += 0.5 * g.w[i] * jac * w * f(r);
    }
    return sum;
  }

  // (1/B) int_{phi*}^{pi} sin^{d-2}(phi) (1 - e^{eps - L(r, phi)}) dphi; for
  // d = 1 the two directions phi = 0, pi with weight 1/2 each.
  double angular(double r, double eps) const {
    if (G_.d == 1) {
      const double l0 = G_.loss(r, 0.0, 1.0), lp = G_.loss(r, 1.0, 0.0);
      return 0.5 * ((l0 > eps ? -std::expm1(eps - l0) : 0.0) + (lp > eps ? -std::expm1(eps - lp) : 0.0));
    }
    const double t = G_.sh2_star(r, eps);
    if (t >= 1.0) return 0.0;
    const double ps = t <= 0.0 ? 0.0 : 2.0 * std::asin(std::sqrt(t));
    const GaussLegendre& g = gauss_legendre(nphi_);
    const double half = 0.5 * (num::pi - ps);
    double sum = 0.0;
    for (std::size_t i = 0; i < g.x.size(); ++i) {
      const double ph = ps + half * (g.x[i] + 1.0);
      const double sh = std::sin(0.5 * ph), ch = std::cos(0.5 * ph);
      const double L = G_.loss(r, sh * sh, ch * ch);
      if (!(L > eps)) continue;
      double wt = g.w[i];
      if (G_.d > 2) wt *= std::pow(std::sin(ph), G_.d - 2);
      sum += wt * -std::expm1(eps - L);
    }
    return half * sum * std::exp(-log_B_);
  }

  // Mode of the radial weight and the window where it is above e^-40 of it.
  void window() {
    const double R = G_.r_max();
    double mode = 0.0;
    if (G_.d > 1) {
      double a = 0.0, b = std::isinf(R) ? 1.0 : R;
      if (std::isinf(R))
        for (int i = 0; i < 2000 && G_.d_log_w(b) > 0.0; ++i) b *= 2.0;
      for (int i = 0; i < 200; ++i) {
        const double m = 0.5 * (a + b);
        if (G_.d_log_w(m) > 0.0) a = m;
        else b = m;
      }
      mode = 0.5 * (a + b);
    }
    lw_max_ = G_.log_w(mode);
    if (!std::isfinite(lw_max_) || !std::isfinite(mode))
      throw domain_error("the radial law of the Riemannian Gaussian cannot be represented for sigma = " +
                         num::fmt(G_.sigma));
    const double level = lw_max_ - 40.0;
    ra_ = 0.0;
    if (mode > 0.0 && G_.log_w(1e-300) < level) {
      double a = 0.0, b = mode;
      for (int i = 0; i < 200; ++i) {
        const double m = 0.5 * (a + b);
        if (G_.log_w(m) < level) a = m;
        else b = m;
      }
      ra_ = a;
    }
    double far = R;
    if (std::isinf(far)) {
      far = std::max(2.0 * mode, G_.sigma);
      for (int i = 0; i < 2000 && G_.log_w(far) >= level; ++i) far *= 2.0;
    }
    if (G_.log_w(far * (1 - 1e-15)) < level) {
      double a = mode, b = far;
      for (int i = 0; i < 200; ++i) {
        const double m = 0.5 * (a + b);
        if (G_.log_w(m) >= level) a = m;
        else b = m;
      }
      rb_ = b;
    } else {
      rb_ = far;
    }
  }
};

// ---------------------------------------------------------------- Monte Carlo losses

// Sorts v ascending and can be interrupted (std::sort cannot): runs of 2^15
// sorted by std::sort, then merged bottom-up through buf (resized to
// v.size(); its capacity is kept), with an interrupt check every 4096 moves.
inline void sort_interruptible(std::vector<double>& v, std::vector<double>& buf) {
  const std::size_t n = v.size(), run = std::size_t(1) << 15;
  InterruptPoller poll;
  for (std::size_t a = 0; a < n; a += run) {
    poll();
    std::sort(v.begin() + a, v.begin() + std::min(n, a + run));
  }
  if (n <= run) return;
  buf.resize(n);
  double *src = v.data(), *dst = buf.data();
  for (std::size_t w = run; w < n; w *= 2) {
    for (std::size_t a = 0; a < n; a += 2 * w) {
      const std::size_t mid = std::min(n, a + w), b = std::min(n, a + 2 * w);
      std::size_t i = a, j = mid, k = a;
      while (k < b) {
        poll();
        const std::size_t stop = std::min(b, k + 4096);
        while (k < stop) dst[k++] = (j >= b || (i < mid && src[i] <= src[j])) ? src[i++] : src[j++];
      }
    }
    std::swap(src, dst);
  }
  if (src != v.data()) v.swap(buf);
}

// Empirical profile of n sorted privacy losses: l(eps) = mean((1 - e^{eps-L_i})_+)
// read off the sorted array. With L ascending and k the first index with
// L_k >= eps, sum_{i>=k} (1 - e^{eps - L_i}) = T_k + (1 - e^{eps - L_k}) S_k,
// S_k = sum_{i>=k} e^{L_k - L_i}, T_k = sum_{i>=k} (1 - e^{L_k - L_i}), both
// built backwards from non-negative terms: no overflow, no cancellation.
// Memory: the losses, S and T (3 n doubles; S is the sort's buffer first).
class EmpiricalProfile {
 public:
  explicit EmpiricalProfile(std::vector<double> L) : L_(std::move(L)) {
    const std::size_t n = L_.size();
    S_.reserve(n + 1);
    sort_interruptible(L_, S_);
    S_.assign(n + 1, 0.0);
    T_.assign(n + 1, 0.0);
    if (n == 0) return;
    S_[n - 1] = 1.0;
    T_[n - 1] = 0.0;
    InterruptPoller poll;
    for (std::size_t k = n - 1; k-- > 0;) {
      poll();
      const double g = L_[k] - L_[k + 1];           // <= 0
      const double e = g == g ? std::exp(g) : 1.0;  // inf - inf: equal losses
      S_[k] = 1.0 + e * S_[k + 1];
      T_[k] = T_[k + 1] + (g == g ? -std::expm1(g) : 0.0) * S_[k + 1];
    }
  }
  std::size_t size() const { return L_.size(); }
  const std::vector<double>& losses() const { return L_; }
  std::size_t first_at_least(double eps) const {
    return std::lower_bound(L_.begin(), L_.end(), eps) - L_.begin();
  }
  double operator()(double eps) const {
    const std::size_t k = first_at_least(eps);
    if (k >= L_.size()) return 0.0;
    const double v = (T_[k] + -std::expm1(eps - L_[k]) * S_[k]) / static_cast<double>(L_.size());
    return v > 0.0 ? v : 0.0;
  }
  // Monte Carlo standard error of l(eps) (O(n) at one eps).
  double se(double eps) const {
    const std::size_t k = first_at_least(eps), n = L_.size();
    double s1 = 0.0, s2 = 0.0;
    InterruptPoller poll;
    for (std::size_t i = k; i < n; ++i) {
      poll();
      const double h = -std::expm1(eps - L_[i]);
      s1 += h;
      s2 += h * h;
    }
    const double m = s1 / n;
    const double var = std::max(s2 / n - m * m, 0.0) * n / std::max<double>(n - 1.0, 1.0);
    return std::sqrt(var / n);
  }
  // Fraction with L >= eps (the indicator form of Algorithm 2).
  double survival(double eps) const {
    return static_cast<double>(L_.size() - first_at_least(eps)) / static_cast<double>(L_.size());
  }

 private:
  std::vector<double> L_, S_, T_;
};

// Survival counts of n losses on the uniform grid eps_j = eps_max j / K,
// j = 1..K (Jiang et al. 2023, Algorithm 2, reads frequencies there only),
// and at the given eps_eval: #{L_i >= eps} by bucket passes, O(n + K) and
// O(n log m) for m eps_eval, with exactly the counts (and the ">=") of a
// sort; the losses are not kept.
class GridSurvival {
 public:
  GridSurvival(std::vector<double> L, double eps_max, int K, const std::vector<double>& eps_eval)
      : n_(L.size()), grid_(K + 1), count_(K + 2, 0), eval_(eps_eval.size(), 0) {
    for (int j = 0; j <= K; ++j) grid_[j] = eps_max * j / K;
    // bucket b(L) = #{j >= 1 : eps_j <= L}: a guess from L K / eps_max, then
    // corrected against the grid values themselves (rounding at the ends)
    const double scale = K / eps_max;
    InterruptPoller poll;
    for (double v : L) {
      poll();
      const double t = v * scale;
      int b = t > 0.0 ? (t < K ? static_cast<int>(t) : K) : 0;
      while (b < K && grid_[b + 1] <= v) ++b;
      while (b > 0 && !(grid_[b] <= v)) --b;
      ++count_[b];
    }
    for (int b = K; b-- > 0;) count_[b] += count_[b + 1];  // count_[j] = #{L >= eps_j}, j >= 1
    if (eps_eval.empty()) return;
    // the same at eps_eval: bucket c(L) = #{sorted eps_eval <= L}
    const std::size_t m = eps_eval.size();
    std::vector<std::size_t> order(m);
    for (std::size_t i = 0; i < m; ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return eps_eval[a] < eps_eval[b]; });
    std::vector<double> sorted(m);
    for (std::size_t i = 0; i < m; ++i) sorted[i] = eps_eval[order[i]];
    std::vector<long> c(m + 1, 0);
    for (double v : L) {
      poll();
      ++c[std::upper_bound(sorted.begin(), sorted.end(), v) - sorted.begin()];
    }
    long above = 0;  // #{L : c(L) > i} = #{L >= sorted[i]}
    for (std::size_t i = m; i-- > 0;) {
      above += c[i + 1];
      eval_[order[i]] = above;
    }
  }
  // eps_j of the grid (j = 1..K), as the caller's grid computes it
  double grid(int j) const { return grid_[j]; }
  // Fraction with L >= eps_j.
  double at(int j) const { return static_cast<double>(count_[j]) / static_cast<double>(n_); }
  // Fraction with L >= eps_eval[i].
  double eval_at(std::size_t i) const { return static_cast<double>(eval_[i]) / static_cast<double>(n_); }

 private:
  std::size_t n_;
  std::vector<double> grid_;
  std::vector<long> count_, eval_;
};

// The direction's part of the loss: (sin^2(phi/2), cos^2(phi/2)) for phi the
// angle between a uniform unit vector of R^d and a fixed one. d = 1: phi = 0
// or pi; d = 2: (x, y) uniform in the unit disc (rejection) has angle theta
// uniform, and phi = 2 theta mod 2 pi is uniform too, with sin^2(phi/2) =
// y^2/(x^2 + y^2); d = 3: cos phi uniform on [-1, 1] (Archimedes); d > 3:
// cos phi = z_1/|z| for z ~ N(0, I_d).
template <class Rng>
inline void draw_half_angle(int d, Rng& rng, double& sh2, double& ch2) {
  if (d == 1) {
    const bool back = rng.unif() < 0.5;
    sh2 = back ? 1.0 : 0.0;
    ch2 = 1.0 - sh2;
  } else if (d == 2) {
    double x, y, q;
    do {
      x = 2.0 * rng.unif() - 1.0;
      y = 2.0 * rng.unif() - 1.0;
      q = x * x + y * y;
    } while (!(q < 1.0) || q == 0.0);
    sh2 = y * y / q;
    ch2 = x * x / q;
  } else if (d == 3) {
    const double u = rng.unif();
    sh2 = 1.0 - u;
    ch2 = u;
  } else {
    const double z1 = rng.norm();
    double ss = z1 * z1;
    for (int j = 1; j < d; ++j) {
      const double z = rng.norm();
      ss += z * z;
    }
    const double c = z1 / std::sqrt(ss);
    sh2 = 0.5 * (1.0 - c);
    ch2 = 0.5 * (1.0 + c);
  }
}

// Exact draws of r from the radial law w(r) = exp(-r^2/(2 sigma^2)) s(r)^{d-1}
// of PairGeometry (log-concave on S^d, R^d, H^d) by rejection from a
// piecewise envelope: K equal bins on [ra, rb] with height the largest w on
// the bin (an end, or the mode inside), and below ra and above rb the
// exponential tangent lines of log w (log w lies below its tangents). A
// squeeze (w >= the smaller end value on a bin, w unimodal) accepts most
// draws without evaluating w; pieces are chosen by Walker's alias table.
// ok() is false when the envelope cannot be built (the caller then uses the
// general sampler).
class TableRadial {
 public:
  TableRadial(const PairGeometry& G, double ra, double rb, int K = 512) : G_(G), ra_(ra), rb_(rb), K_(K) {
    R_ = G.r_max();
    if (!(rb > ra) || !(ra >= 0.0) || !std::isfinite(rb) || rb > R_) return;
    h_ = (rb - ra) / K;
    // peak of w: log w at the mode (bisection on the decreasing d log w)
    double lo = ra, hi = rb;
    if (G.d > 1 || ra > 0.0) {
      if (!(G.d_log_w(hi) < 0.0) && rb < R_) return;
      for (int i = 0; i < 200 && G.d_log_w(lo) > 0.0 && hi - lo > 0.0; ++i) {
        const double m = 0.5 * (lo + hi);
        if (G.d_log_w(m) > 0.0) lo = m;
        else hi = m;
      }
    }
    lw_max_ = G.log_w(lo);
    if (!std::isfinite(lw_max_)) return;
    top_.resize(K);
    bot_.resize(K);
    std::vector<double> mass(K + 2, 0.0);
    for (int i = 0; i < K; ++i) {
      const double a = ra + h_ * i, b = i + 1 == K ? rb : ra + h_ * (i + 1);
      const double wa = w(a), wb = w(b);
      double top = std::max(wa, wb);
      if (G.d_log_w(a) > 0.0 && G.d_log_w(b) < 0.0) top = std::max(top, 1.0);  // the mode (w = 1 there)
      top_[i] = top * (1.0 + 1e-9);
      bot_[i] = std::min(wa, wb) * (1.0 - 1e-9);
      mass[i] = top_[i] * (b - a);
    }
    if (ra > 0.0) {  // tangent at ra (w increases below it)
      ga_ = G.d_log_w(ra);
      wa_ = w(ra) * (1.0 + 1e-9);
      if (!(ga_ > 0.0) || !std::isfinite(ga_)) return;
      ema_ = std::expm1(-ga_ * ra);
      mass[K] = wa_ * -ema_ / ga_;
    }
    if (rb < R_) {  // tangent at rb (w decreases beyond it)
      gb_ = G.d_log_w(rb);
      wb_ = w(rb) * (1.0 + 1e-9);
      if (!(gb_ < 0.0) || !std::isfinite(gb_)) return;
      mass[K + 1] = wb_ / -gb_;
    }
    // Walker's alias table (Vose's construction)
    const int P = K + 2;
    double total = 0.0;
    for (double v : mass) total += v;
    if (!(total > 0.0) || !std::isfinite(total)) return;
    prob_.assign(P, 0.0);
    alias_.assign(P, 0);
    std::vector<double> q(P);
    std::vector<int> small, large;
    for (int i = 0; i < P; ++i) {
      q[i] = mass[i] / total * P;
      (q[i] < 1.0 ? small : large).push_back(i);
    }
    while (!small.empty() && !large.empty()) {
      const int sm = small.back(), lg = large.back();
      small.pop_back();
      prob_[sm] = q[sm];
      alias_[sm] = lg;
      q[lg] -= 1.0 - q[sm];
      if (q[lg] < 1.0) {
        large.pop_back();
        small.push_back(lg);
      }
    }
    for (int i : large) prob_[i] = 1.0, alias_[i] = i;
    for (int i : small) prob_[i] = 1.0, alias_[i] = i;  // rounding leftovers
    ok_ = true;
  }
  bool ok() const { return ok_; }

  template <class Rng>
  double draw(Rng& rng) const {
    const int P = K_ + 2;
    for (long tries = 0; tries < 10000000; ++tries) {
      const double u = rng.unif() * P;
      int i = static_cast<int>(u);
      if (i >= P) i = P - 1;
      if (!(u - i < prob_[i])) i = alias_[i];
      if (i < K_) {
        const double a = ra_ + h_ * i, b = i + 1 == K_ ? rb_ : ra_ + h_ * (i + 1);
        const double r = a + (b - a) * rng.unif();
        const double v = rng.unif() * top_[i];
        if (v <= bot_[i] || v <= w(r)) return r;
      } else if (i == K_) {
        const double r = ra_ + std::log1p(rng.unif() * ema_) / ga_;
        if (rng.unif() * wa_ * std::exp(ga_ * (r - ra_)) <= w(r)) return r;
      } else {
        const double r = rb_ + std::log(rng.unif()) / gb_;
        if (r < R_ && rng.unif() * wb_ * std::exp(gb_ * (r - rb_)) <= w(r)) return r;
      }
    }
    throw domain_error("internal error: the tabulated radial envelope rejected 1e7 draws in a row; please report this");
  }

 private:
  PairGeometry G_;
  double ra_, rb_, R_ = 0.0, h_ = 0.0, lw_max_ = 0.0;
  int K_;
  double ga_ = 0.0, wa_ = 0.0, ema_ = 0.0, gb_ = 0.0, wb_ = 0.0;
  std::vector<double> top_, bot_, prob_;
  std::vector<int> alias_;
  bool ok_ = false;
  double w(double r) const { return r > 0.0 || G_.d == 1 ? std::exp(G_.log_w(r) - lw_max_) : 0.0; }
};

// Number of independent generator streams of draw_losses (fixed: the draws
// depend on the seed only, not on the number of threads).
constexpr int loss_streams = 4;

// n draws of the privacy loss L(Y), Y ~ N_M(eta1, sigma^2): r from the exact
// radial sampler, the angle phi to the direction of eta2 from its exact law
// (draw_half_angle). The draws are split into loss_streams contiguous
// blocks, block t using the generator jumped t times, shared out among at
// most `threads` threads (parallel_blocks; threads < 1: thread_limit()); rng
// is left jumped loss_streams times, past every block.
template <class RadialDraw, class Rng>
std::vector<double> draw_losses(const PairGeometry& G, long n, const RadialDraw& radial, Rng& rng, int threads = 1) {
  std::vector<double> L(n);
  std::vector<Rng> gens;
  for (int t = 0; t < loss_streams; ++t) {
    gens.push_back(rng);
    rng.jump();
  }
  if (threads < 1) threads = thread_limit();
  if (n < 20000) threads = 1;  // starting a thread costs more
  parallel_blocks(loss_streams, [&](int t) {
    InterruptPoller poll(count_progress);
    Rng& g = gens[t];
    const long begin = n * t / loss_streams, end = n * (t + 1) / loss_streams;
    for (long k = begin; k < end; ++k) {
      poll();
      const double r = radial.draw(g);
      double sh2, ch2;
      draw_half_angle(G.d, g, sh2, ch2);
      L[k] = G.loss(r, sh2, ch2);
    }
  }, threads);
  return L;
}

// ---------------------------------------------------------------- supremum over eps

struct SupResult {
  double mu = 0.0, eps = 0.0;
};

// max of f on [a, b] by golden section (f continuous; endpoints included).
template <class F>
SupResult golden_max(F f, double a, double b, double fa, double fb, int iters) {
  SupResult best{fa, a};
  if (fb > best.mu) best = {fb, b};
  const double g = 0.5 * (std::sqrt(5.0) - 1.0);
  double x1 = b - g * (b - a), x2 = a + g * (b - a);
  double f1 = f(x1), f2 = f(x2);
  for (int i = 0; i < iters && b - a > 1e-12 * std::max(1.0, b); ++i) {
    check_interrupt(1);
    if (f1 >= f2) {
      b = x2, x2 = x1, f2 = f1;
      x1 = b - g * (b - a);
      f1 = f(x1);
    } else {
      a = x1, x1 = x2, f1 = f2;
      x2 = a + g * (b - a);
      f2 = f(x2);
    }
    if (f1 > best.mu) best = {f1, x1};
    if (f2 > best.mu) best = {f2, x2};
  }
  return best;
}

// sup over eps of mu_eps = f(eps) on the grid eps[0..K-1] (ascending), then
// refined by golden section between the neighbours of the best grid point.
template <class F>
SupResult sup_refined(F f, const std::vector<double>& grid, int iters) {
  std::vector<double> v(grid.size());
  std::size_t jb = 0;
  InterruptPoller poll;
  for (std::size_t j = 0; j < grid.size(); ++j) {
    poll();
    v[j] = f(grid[j]);
    if (v[j] > v[jb]) jb = j;
  }
  SupResult best{v[jb], grid[jb]};
  if (grid.size() < 2 || iters <= 0) return best;
  const std::size_t ja = jb > 0 ? jb - 1 : 0, jc = jb + 1 < grid.size() ? jb + 1 : jb;
  if (ja < jb) {
    SupResult s = golden_max(f, grid[ja], grid[jb], v[ja], v[jb], iters);
    if (s.mu > best.mu) best = s;
  }
  if (jc > jb) {
    SupResult s = golden_max(f, grid[jb], grid[jc], v[jb], v[jc], iters);
    if (s.mu > best.mu) best = s;
  }
  return best;
}

// ---------------------------------------------------------------- sigma beyond the numerical range

// The profile is evaluated numerically only for sigma in [lo, hi] (methods article, "Gaussian DP accounting").
// Outside, mu comes from the numerical mu at lo or hi (rounded up by its
// accuracy), as an upper bound:
// * sigma < lo = Delta/6 (mu0 = Delta/sigma > 6): the laws become nearly
//   disjoint (l(0) rounds to 1 from mu0 ~ 16 on) and the pair nearly
//   Euclidean: mu = Delta/sigma + c sigma/Delta + o(sigma), c <= 0 on S^d and
//   R^d, c > 0 on H^d and shrinking as sigma decreases (checked numerically).
//   Bound: max(mu(lo), Delta/sigma + c_lo sigma/Delta), c_lo = max(0, 6 (mu(lo) - 6))
//   (equal to mu(lo) at lo; the max keeps it non-increasing in sigma).
// * sigma > hi: mu(sigma) <= mu(hi) (hi/sigma)^p with p = 2 on S^d (mu sigma^2
//   increases to its limit), 0 on H^d (mu decreases to a positive limit), 1
//   on R^d (mu = Delta/sigma). hi = 1e4 on S^d and 1e8 Delta on R^d. On H^d
//   the law sits near distance (d-1) sigma^2 and mu is within about 1e-5 of
//   its limit once (d-1) sigma^2 > 20 (Delta <= 10; checked numerically):
//   hi = max(sqrt(20 max(1, Delta/10) / (d-1)), 2 lo), beyond which the
//   profile would add rounding noise to a nearly constant mu.
// Inside [lo, hi] the reported mu is at least the one at hi (mu does not
// increase with sigma), so that rounding noise cannot break the order there.
struct SigmaRange {
  double lo, hi;
  int power;
};
constexpr double euclidean_mu0 = 6.0;
inline SigmaRange sigma_range(int kappa, int d, double Delta) {
  const double lo = Delta / euclidean_mu0;
  if (kappa > 0) return {lo, 1e4, 2};
  if (kappa < 0) return {lo, std::max(std::sqrt(20.0 * std::max(1.0, Delta / 10.0) / std::max(d - 1, 1)), 2.0 * lo), 0};
  return {lo, 1e8 * Delta, 1};
}

enum class Regime { profile, small_sigma, large_sigma };

// A numerical mu with the eps of its supremum and its relative accuracy.
struct MuValue {
  double mu = 0.0, eps = 0.0, accuracy = 0.0;
};

// A deterministic mu: its value (rounded up), the eps of the supremum (NaN
// outside the profile regime), its relative accuracy (NaN for a bound), the
// regime and the sigma of the numerical value it comes from.
struct SafeMu {
  double mu = 0.0, eps = 0.0, accuracy = 0.0, sigma_ref = 0.0;
  Regime regime = Regime::profile;
};

// x rounded up to 33 significant bits (relative steps of 2^-33 ~ 1.2e-10):
// rounding noise below that step does not reach the reported mu.
inline double quantize_up(double x) {
  if (!(x > 0.0) || !std::isfinite(x)) return x;
  int e;
  const double f = std::frexp(x, &e);
  return std::ldexp(std::ceil(std::ldexp(f, 33)), e - 33);
}

// mu at any sigma > 0, rounded up, from numeric(s) -> MuValue, evaluated at
// sigma itself inside [lo, hi] and at lo or hi outside. A numerical mu that is
// not finite or not > 0 (the profile rounds to 1 or to 0) gives inf: mu
// cannot be computed.
template <class F>
SafeMu mu_any_sigma(F numeric, int kappa, int d, double Delta, double sigma) {
  const SigmaRange R = sigma_range(kappa, d, Delta);
  SafeMu out;
  out.regime = sigma < R.lo ? Regime::small_sigma : sigma > R.hi ? Regime::large_sigma : Regime::profile;
  out.sigma_ref = out.regime == Regime::small_sigma ? R.lo : out.regime == Regime::large_sigma ? R.hi : sigma;
  auto rounded = [](const MuValue& v) {
    return std::isfinite(v.mu) && v.mu > 0.0 ? quantize_up(bump_up(v.mu * (1.0 + v.accuracy))) : inf();
  };
  const MuValue v = numeric(out.sigma_ref);
  const double m = rounded(v);
  if (out.regime == Regime::profile) {
    out.mu = std::max(m, rounded(numeric(R.hi)));
    out.eps = v.eps, out.accuracy = v.accuracy;
    return out;
  }
  out.eps = out.accuracy = std::numeric_limits<double>::quiet_NaN();
  if (std::isinf(m)) {
    out.mu = m;
  } else if (out.regime == Regime::small_sigma) {
    const double c = std::max(0.0, euclidean_mu0 * (m - euclidean_mu0));
    out.mu = std::max(m, quantize_up(bump_up(div_up(Delta, sigma) + c * (sigma / Delta))));
  } else {
    const double x = R.hi / sigma;
    double b = m;
    for (int k = 0; k < R.power; ++k) b *= x;
    // at most mu(hi) (the rounding must not lift it above); below the
    // smallest normal double: that number, an upper bound
    out.mu = std::max(std::min(m, quantize_up(bump_up(b, 6))), std::numeric_limits<double>::min());
  }
  return out;
}

}  // namespace gdp
}  // namespace riemdp

#endif
