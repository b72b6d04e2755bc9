// Numerical helpers shared by every manifold: stable small-argument forms,
// clamped angles and symmetric matrix functions. Pure C++17 + Eigen.
#ifndef RIEMDP_NUMERICS_H
#define RIEMDP_NUMERICS_H

#include <Eigen/Core>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <string>

// Inlines every call in a hot function (GCC, clang): at -O2 GCC leaves the
// loops of Eigen's fixed-size array expressions as separate calls.
#if defined(__GNUC__)
#define RIEMDP_FLATTEN __attribute__((flatten))
#else
#define RIEMDP_FLATTEN
#endif

namespace riemdp {

using Vec = Eigen::VectorXd;
using Mat = Eigen::MatrixXd;
using CVecRef = Eigen::Ref<const Eigen::VectorXd>;
using VecRef = Eigen::Ref<Eigen::VectorXd>;
// A set of points stored as columns, with arbitrary strides: an R matrix whose
// rows are points maps onto it without a copy (inner stride n, outer stride 1).
using PointSet = Eigen::Map<const Eigen::MatrixXd, 0, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>>;

// Error raised by the core for domain problems (cut locus, undefined laws, ...).
struct domain_error : public std::runtime_error {
  explicit domain_error(const std::string& what) : std::runtime_error(what) {}
};

namespace num {

constexpr double pi = 3.14159265358979323846;

// max(x, 0) that propagates NaN (std::max(0.0, NaN) returns 0).
inline double clamp0(double x) { return x < 0.0 ? 0.0 : x; }

// sin(x)/x with a Taylor branch near 0, given sin_x = sin(x) (hot loops
// that need the sine anyway), and sinc(x) itself.
inline double sinc_of(double x, double sin_x) {
  const double x2 = x * x;
  if (std::abs(x) < 1e-4) return 1.0 - x2 / 6.0 + x2 * x2 / 120.0;
  return sin_x / x;
}
inline double sinc(double x) { return sinc_of(x, std::sin(x)); }

// sinh(x)/x with a Taylor branch near 0, given sinh_x = sinh(x), and sinhc(x).
inline double sinhc_of(double x, double sinh_x) {
  const double x2 = x * x;
  if (std::abs(x) < 1e-4) return 1.0 + x2 / 6.0 + x2 * x2 / 120.0;
  return sinh_x / x;
}
inline double sinhc(double x) { return sinhc_of(x, std::sinh(x)); }

// x/sin(x) for |x| < pi, Taylor branch near 0.
inline double inv_sinc(double x) {
  const double x2 = x * x;
  if (std::abs(x) < 1e-4) return 1.0 + x2 / 6.0 + 7.0 * x2 * x2 / 360.0;
  return x / std::sin(x);
}

// x/sinh(x), Taylor branch near 0.
inline double inv_sinhc(double x) {
  const double x2 = x * x;
  if (std::abs(x) < 1e-4) return 1.0 - x2 / 6.0 + 7.0 * x2 * x2 / 360.0;
  return x / std::sinh(x);
}

// Angle between unit vectors from the chord lengths |p - q| and |p + q|:
// 2 atan2(|p-q|, |p+q|) is accurate near 0 and near pi (acos is not).
inline double chord_angle(double minus_norm, double plus_norm) {
  return 2.0 * std::atan2(minus_norm, plus_norm);
}

// A number for an error message, 6 significant digits.
inline std::string fmt(double x) {
  std::ostringstream os;
  os << std::setprecision(6) << x;
  return os.str();
}

template <class Solver, class MatK>
inline void sym_eigen(Solver& es, const MatK& A) {
  if constexpr (MatK::RowsAtCompileTime == 2 && MatK::ColsAtCompileTime == 2) es.computeDirect(A);
  else es.compute(A);
}

// Symmetric part, to remove rounding asymmetry after products.
inline Mat sym(const Mat& A) { return 0.5 * (A + A.transpose()); }

}  // namespace num
}  // namespace riemdp

#endif
