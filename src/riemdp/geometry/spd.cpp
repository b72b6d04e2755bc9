// The methods of SPD(k) with the affine-invariant metric (spd.h), compiled once, here.
#include "spd.h"

#include <Eigen/Eigenvalues>
#include <limits>
#include <type_traits>
#include <utility>

#include "../lanes.h"

namespace riemdp {

namespace {

// f(A) = U f(Lambda) U^T for a symmetric matrix A (symmetric eigensolver only).
template <class F>
Mat sym_fun(const Mat& A, F f) {
  Eigen::SelfAdjointEigenSolver<Mat> es(A);
  if (es.info() != Eigen::Success) throw domain_error("symmetric eigendecomposition failed");
  Vec lam = es.eigenvalues().unaryExpr(f);
  return es.eigenvectors() * lam.asDiagonal() * es.eigenvectors().transpose();
}

// Eigendecomposition of a symmetric matrix into es (an
// Eigen::SelfAdjointEigenSolver of A's type): Eigen's closed form for fixed
// 2 x 2 matrices (computeDirect: shifted by the mean eigenvalue and scaled;
// eigenvalues within 4e-16 |A| on matrices of condition up to 1e12, as the
// iterative solver's 7e-16, at a third of its time), the iterative solver
// otherwise (Eigen's closed form for 3 x 3 loses accuracy on ill-conditioned
// matrices).

// Loops over the (few) indices of fixed-size matrices unrolled, so that the
// matrices stay in registers (GCC's -O2 does not unroll them by itself).
#if defined(__GNUC__) && !defined(__clang__)
#define RIEMDP_UNROLL _Pragma("GCC unroll 4")
#else
#define RIEMDP_UNROLL
#endif

// Cyclic Jacobi on a symmetric K x K matrix A (both triangles kept): A
// becomes diagonal (its eigenvalues), R the product of the rotations (its
// eigenvectors: A_in = R diag(A_out) R^T). Each rotation zeroes A(p, q) with
// tan(theta) = 2 b sgn(d) / (|d| + sqrt(d^2 + 4 b^2)), b = A(p, q),
// d = A(q, q) - A(p, p) (the smaller of the two angles, Golub & Van Loan,
// "sym.schur2"), branch-free (b = d = 0: no rotation). Sweeps: one for
// k = 2 (exact); four for k = 3, where the off-diagonal falls to <= 5e-21
// relative on 2.1 million random matrices (random, near-identity, nearly
// and exactly degenerate spectra, condition 1e6: quadratic convergence),
// then more only while it is above 1e-18 relative (never seen: the one
// data-dependent exit of the pass); larger k sweeps until that test holds.
// Eigenvalues and log(A) agree with Eigen's iterative solver to rounding,
// unlike Eigen's 3 x 3 closed form (computeDirect: 1e-7 relative on
// log(A) for nearly degenerate spectra, the typical residual).
template <class MK>
inline void jacobi_rotate(MK& A, MK& R, int p, int q) {
  const int k = static_cast<int>(A.rows());
  const double b = A(p, q), d = A(q, q) - A(p, p);
  // with rho = sqrt(d^2 + 4 b^2), den = |d| + rho: cos(2 theta) = |d|/rho, so
  // cos(theta) = sqrt(den/(2 rho)) (shorter dependent chain than 1/sqrt(1 + t^2))
  const double rho = std::sqrt(d * d + 4.0 * b * b), den = std::abs(d) + rho;
  const bool rot = den > 0.0;
  const double t = (2.0 * b) * std::copysign(1.0, d) / (rot ? den : 1.0);
  const double c = std::sqrt(rot ? den / (2.0 * rho) : 1.0), s = t * c;
  A(p, p) -= t * b;
  A(q, q) += t * b;
  A(p, q) = A(q, p) = 0.0;
  RIEMDP_UNROLL
  for (int r = 0; r < k; ++r) {
    if (r != p && r != q) {
      const double ap = A(r, p), aq = A(r, q);
      A(r, p) = A(p, r) = c * ap - s * aq;
      A(r, q) = A(q, r) = s * ap + c * aq;
    }
    const double rp = R(r, p), rq = R(r, q);
    R(r, p) = c * rp - s * rq;
    R(r, q) = s * rp + c * rq;
  }
}
#if defined(RIEMDP_LANES)
// jacobi_eigen() for fixed K on lanes of points (used for k = 3: 8 points,
// T = Twin<Twin<V2>> on the compiler's default instruction set or
// Twin<V4> where the CPU has AVX2, the same bits):
// the same rotations entry by entry, branch-free (at d = -0 the sign of the
// angle may differ from the scalar rotation's: either diagonalises); the
// square roots from Ops. 253 -> 198 ns per point of SPD(3) against the
// scalar rotations on 4 interleaved points; for k = 2 (one rotation) packing
// the lanes costs more than it saves.
template <class T, class Ops, int K>
struct LaneJacobi {
  T a[K][K], r[K][K];
  void rotate(int p, int q) {
    const T zero = lanes::constant<T>(0.0), one = lanes::constant<T>(1.0);
    const T b = a[p][q], d = a[q][q] - a[p][p];
    const T rho = Ops::sqrt(d * d + 4.0 * b * b), den = lanes::abs(d) + rho;
    const auto rot = lanes::lt(zero, den);
    const T tb = 2.0 * b;
    const T t = lanes::select(lanes::lt(d, zero), -tb, tb) / lanes::select(rot, den, one);
    const T c = Ops::sqrt(lanes::select(rot, den / (2.0 * lanes::select(rot, rho, one)), one)), s = t * c;
    a[p][p] = a[p][p] - t * b;
    a[q][q] = a[q][q] + t * b;
    a[p][q] = a[q][p] = zero;
    RIEMDP_UNROLL
    for (int m = 0; m < K; ++m) {
      if (m != p && m != q) {
        const T ap = a[m][p], aq = a[m][q];
        a[m][p] = a[p][m] = c * ap - s * aq;
        a[m][q] = a[q][m] = s * ap + c * aq;
      }
      const T rp = r[m][p], rq = r[m][q];
      r[m][p] = c * rp - s * rq;
      r[m][q] = s * rp + c * rq;
    }
  }
  // off-diagonal above 1e-18 relative in some lane (or NaN)
  bool unconverged() const {
    T off = lanes::constant<T>(0.0), diag = off;
    for (int q = 0; q < K; ++q) {
      diag = diag + a[q][q] * a[q][q];
      for (int p = 0; p < q; ++p) off = off + a[p][q] * a[p][q];
    }
    return lanes::any(lanes::negate(lanes::le(off, 1e-36 * diag)));
  }
  template <class MK>
  void run(MK* A, MK* R) {
    constexpr int G = lanes::lane_count<T>::value;
    for (int p = 0; p < K; ++p)
      for (int q = 0; q < K; ++q) {
        for (int j = 0; j < G; ++j) lanes::set_lane(a[p][q], j, A[j](p, q));
        r[p][q] = lanes::constant<T>(p == q ? 1.0 : 0.0);
      }
    const int min_sweeps = K == 2 ? 1 : 4;
    for (int sweep = 0; sweep < 60; ++sweep) {
      if (sweep >= min_sweeps && !unconverged()) break;
      RIEMDP_UNROLL
      for (int p = 0; p < K - 1; ++p) {
        RIEMDP_UNROLL
        for (int q = p + 1; q < K; ++q) rotate(p, q);
      }
    }
    for (int p = 0; p < K; ++p)
      for (int q = 0; q < K; ++q)
        for (int j = 0; j < G; ++j) {
          A[j](p, q) = lanes::lane(a[p][q], j);
          R[j](p, q) = lanes::lane(r[p][q], j);
        }
  }
};
#endif

#if defined(RIEMDP_LANES)
// Eight 3 x 3 matrices on lanes: two pairs of 2-lane vectors (the compiler's
// default instruction set), or two 4-lane vectors where the CPU has AVX2
// (the same operations in the same order: the same bits).
using Mat3 = Eigen::Matrix<double, 3, 3>;
RIEMDP_FLATTEN void jacobi_eigen3_default(Mat3* A, Mat3* R) {
  LaneJacobi<lanes::Twin<lanes::Twin<lanes::V2>>, lanes::TwinOps<lanes::TwinOps<lanes::Ops2>>, 3> lj;
  lj.run(A, R);
}
#if defined(RIEMDP_LANES_DISPATCH)
__attribute__((target("avx2"), flatten)) void jacobi_eigen3_avx2(Mat3* A, Mat3* R) {
  LaneJacobi<lanes::Twin<lanes::V4>, lanes::TwinOps4Avx2, 3> lj;
  lj.run(A, R);
}
#endif
#endif

// N matrices at once, rotation by rotation: N independent chains of square
// roots and divisions side by side, which the out-of-order core overlaps (a
// single matrix is bound by their latency).
template <int N, class MK>
void jacobi_eigen(MK* A, MK* R) {
#if defined(RIEMDP_LANES)
  if constexpr (MK::RowsAtCompileTime == 3 && N == 8) {
#if defined(RIEMDP_LANES_DISPATCH)
    if (lanes::isa() == 1) return jacobi_eigen3_avx2(A, R);
#endif
    return jacobi_eigen3_default(A, R);
  }
#endif
  const int k = static_cast<int>(A[0].rows());
  const int min_sweeps = k == 2 ? 1 : k == 3 ? 4 : 1;
  for (int j = 0; j < N; ++j) R[j].setIdentity();
  for (int sweep = 0; sweep < 60; ++sweep) {
    if (sweep >= min_sweeps) {
      bool done = true;
      for (int j = 0; j < N; ++j) {
        double off = 0.0, diag = 0.0;
        for (int b = 0; b < k; ++b) {
          diag += A[j](b, b) * A[j](b, b);
          for (int a = 0; a < b; ++a) off += A[j](a, b) * A[j](a, b);
        }
        done = done && !(off > 1e-36 * diag);  // also on NaN: the caller checks
      }
      if (done) break;
    }
    RIEMDP_UNROLL
    for (int p = 0; p < k - 1; ++p) {
      RIEMDP_UNROLL
      for (int q = p + 1; q < k; ++q) {
        RIEMDP_UNROLL
        for (int j = 0; j < N; ++j) jacobi_rotate(A[j], R[j], p, q);
      }
    }
  }
}

}  // namespace

void SPD::sym_eigen_sorted(Mat& A, Mat& U, Vec& lam) {
  const Eigen::Index k = A.rows();
  if (!A.allFinite()) {
    lam.setConstant(std::numeric_limits<double>::quiet_NaN());
    U.setIdentity();
    return;
  }
  jacobi_eigen<1>(&A, &U);
  lam = A.diagonal();
  for (Eigen::Index a = 0; a + 1 < k; ++a) {  // selection sort, columns swapped in place
    Eigen::Index m = a;
    for (Eigen::Index b = a + 1; b < k; ++b)
      if (lam(b) < lam(m)) m = b;
    if (m != a) {
      std::swap(lam(a), lam(m));
      U.col(a).swap(U.col(m));
    }
  }
}

SPD::Roots SPD::roots(CVecRef p) const {
  Eigen::SelfAdjointEigenSolver<Mat> es(as_mat(p));
  const Vec lam = es.eigenvalues();
  if (!(lam(0) > 0.0)) throw domain_error("a base point is not positive definite");
  const Mat& U = es.eigenvectors();
  return {U * lam.cwiseSqrt().asDiagonal() * U.transpose(),
          U * lam.cwiseSqrt().cwiseInverse().asDiagonal() * U.transpose()};
}

void SPD::exp(CVecRef p, CVecRef v, VecRef out) const {
  const Roots r = roots(p);
  const Mat W = num::sym(r.inv_half * as_mat(v) * r.inv_half);
  const double big = W.allFinite() ? W.cwiseAbs().maxCoeff() : std::numeric_limits<double>::infinity();
  if (!(big <= 708.0 / k_)) {  // ||W||_2 <= k max|W_ij|: else decide on the eigenvalues
    const bool representable =
        W.allFinite() &&
        Eigen::SelfAdjointEigenSolver<Mat>(W, Eigen::EigenvaluesOnly).eigenvalues().cwiseAbs().maxCoeff() <= 708.0;
    if (!representable) {
      out.setConstant(std::numeric_limits<double>::infinity());
      return;
    }
  }
  const Mat E = sym_fun(W, [](double x) { return std::exp(x); });
  store(num::sym(r.half * E * r.half), out);
}

void SPD::log(CVecRef p, CVecRef q, VecRef out) const {
  const Roots r = roots(p);
  store(num::sym(r.half * whitened_log(r.inv_half, q) * r.half), out);
}

double SPD::dist(CVecRef p, CVecRef q) const {
  return std::sqrt(whitened_log_eigen_sq(roots(p).inv_half, q));
}

double SPD::inner(CVecRef p, CVecRef u, CVecRef v) const {
  Eigen::LLT<Mat> llt(as_mat(p));
  const Mat A = llt.solve(as_mat(u)), B = llt.solve(as_mat(v));
  return A.cwiseProduct(B.transpose()).sum();
}

void SPD::transport(CVecRef p, CVecRef q, CVecRef v, VecRef out) const {
  const Roots r = roots(p);
  const Mat W = sym_fun(num::sym(r.inv_half * as_mat(q) * r.inv_half), [](double x) { return std::sqrt(x); });
  const Mat E = r.half * W * r.inv_half;
  store(num::sym(E * as_mat(v) * E.transpose()), out);
}

void SPD::to_tangent(CVecRef, CVecRef x, VecRef out) const { store(num::sym(as_mat(x)), out); }

Mat SPD::tangent_basis(CVecRef p) const {
  const Roots r = roots(p);
  Mat basis(k_ * k_, dim());
  int c = 0;
  for (int j = 0; j < k_; ++j)
    for (int i = j; i < k_; ++i) {
      Mat B = Mat::Zero(k_, k_);
      if (i == j) B(i, i) = 1.0;
      else B(i, j) = B(j, i) = std::sqrt(0.5);
      const Mat V = r.half * B * r.half;
      basis.col(c++) = Eigen::Map<const Vec>(V.data(), k_ * k_);
    }
  return basis;
}

double SPD::tangent_gaussian(CVecRef p, CVecRef z, VecRef out) const {
  Eigen::LLT<Mat> llt(as_mat(p));
  if (llt.info() != Eigen::Success) throw domain_error("a base point is not positive definite");
  Mat S(k_, k_);
  int c = 0;
  for (int j = 0; j < k_; ++j)
    for (int i = j; i < k_; ++i, ++c) S(i, j) = S(j, i) = i == j ? z[c] : z[c] * std::sqrt(0.5);
  const Mat L = llt.matrixL();
  store(num::sym(L * S * L.transpose()), out);
  return z.norm();
}

void SPD::project(CVecRef x, VecRef out) const {
  if (!x.allFinite()) { out = x; return; }  // see Manifold::project
  Eigen::SelfAdjointEigenSolver<Mat> es(num::sym(as_mat(x)));
  Vec lam = es.eigenvalues();
  const double top = lam(k_ - 1);
  if (!(top > 0.0)) throw domain_error("cannot project a matrix with no positive eigenvalue onto the SPD cone");
  lam = lam.cwiseMax(1e-12 * top);
  store(es.eigenvectors() * lam.asDiagonal() * es.eigenvectors().transpose(), out);
  if (!out.allFinite()) throw domain_error("the projection of a matrix this large overflows double precision");
}

double SPD::rounding_scale(CVecRef p) const {
  Eigen::SelfAdjointEigenSolver<Mat> es(num::sym(as_mat(p)), Eigen::EigenvaluesOnly);
  const Vec& lam = es.eigenvalues();
  return lam(0) > 0.0 ? std::max(1.0, lam(k_ - 1) / lam(0)) : std::numeric_limits<double>::infinity();
}

std::string SPD::point_problem(CVecRef x, double tol) const {
  const Mat A = as_mat(x);
  const double scale = A.cwiseAbs().maxCoeff();
  const double asym = (A - A.transpose()).cwiseAbs().maxCoeff();
  if (asym > tol * scale) return "is not symmetric (largest asymmetry " + num::fmt(asym) + ")";
  Eigen::SelfAdjointEigenSolver<Mat> es(num::sym(A), Eigen::EigenvaluesOnly);
  if (!(es.eigenvalues()(0) > 0.0))
    return "is not positive definite (smallest eigenvalue " + num::fmt(es.eigenvalues()(0)) + ")";
  return "";
}

std::string SPD::tangent_problem(CVecRef, CVecRef v, double tol) const {
  const Mat V = as_mat(v);
  const double asym = (V - V.transpose()).cwiseAbs().maxCoeff();
  if (asym > tol * std::max(1.0, V.cwiseAbs().maxCoeff()))
    return "is not a tangent vector: it is not symmetric (largest asymmetry " + num::fmt(asym) + ")";
  return "";
}

void SPD::geodesic_velocity(CVecRef p, CVecRef v, double s, VecRef out) const {
  const Roots r = roots(p);
  Eigen::SelfAdjointEigenSolver<Mat> es(num::sym(r.inv_half * as_mat(v) * r.inv_half));
  const Vec f = es.eigenvalues().array() * (s * es.eigenvalues()).array().exp();
  const Mat HU = r.half * es.eigenvectors();
  store(num::sym(HU * f.asDiagonal() * HU.transpose()), out);
}

void SPD::regression_gauss_newton(CVecRef p, CVecRef v, CVecRef x, CVecRef h, CVecRef gp, CVecRef gv, VecRef dp,
                                  VecRef dv) const {
  const Roots r = roots(p);
  Eigen::SelfAdjointEigenSolver<Mat> es(num::sym(r.inv_half * as_mat(v) * r.inv_half));
  const Mat B = r.inv_half * es.eigenvectors(), HU = r.half * es.eigenvectors();
  const Mat Gp = B.transpose() * as_mat(gp) * B, Gv = B.transpose() * as_mat(gv) * B;
  const Vec& lam = es.eigenvalues();
  Mat Dp = Mat::Zero(k_, k_), Dv = Mat::Zero(k_, k_);
  const GaussNewtonBlock flat = gauss_newton_block(0.0, x, h);
  Vec one_p(1), one_v(1);
  for (int b = 0; b < k_; ++b)
    for (int a = 0; a <= b; ++a) {
      const double half_gap = 0.5 * (lam(a) - lam(b));
      const GaussNewtonBlock blk = half_gap == 0.0 ? flat : gauss_newton_block(-half_gap * half_gap, x, h);
      one_p.setZero();
      one_v.setZero();
      blk.apply(Vec::Constant(1, Gp(a, b)), Vec::Constant(1, Gv(a, b)), one_p, one_v);
      Dp(a, b) = Dp(b, a) = one_p[0];
      Dv(a, b) = Dv(b, a) = one_v[0];
    }
  store(num::sym(HU * Dp * HU.transpose()), dp);
  store(num::sym(HU * Dv * HU.transpose()), dv);
}

void SPD::adjoint_jacobi(CVecRef p, CVecRef w, CVecRef, CVecRef eps, VecRef adj_p, VecRef adj_w) const {
  const Roots r = roots(p);
  Eigen::SelfAdjointEigenSolver<Mat> es(num::sym(r.inv_half * as_mat(w) * r.inv_half));
  const Mat B = r.inv_half * es.eigenvectors();  // p^{-1/2} U
  const Vec half_exp = (-0.5 * es.eigenvalues()).array().exp();
  const Mat E = half_exp.asDiagonal() * (B.transpose() * as_mat(eps) * B) * half_exp.asDiagonal();
  adj_eigenbasis(r.half * es.eigenvectors(), es.eigenvalues(), E, adj_p, adj_w);
}

void SPD::regression_residuals(CVecRef p, const PointSet& W, const PointSet& Y, VecRef dist, Mat& adj_p, Mat& adj_w,
                               Mat* yhat, Mat* eps) const {
  // Fixed-size matrices for k = 2 and 3: no allocation per point. (Each
  // fixed size costs about 10 CPU-s of compile time; k >= 4 shares the
  // dynamic instantiation.)
  switch (k_) {
    case 2: return residuals_sized<2>(p, W, Y, dist, adj_p, adj_w, yhat, eps);
    case 3: return residuals_sized<3>(p, W, Y, dist, adj_p, adj_w, yhat, eps);
    default: return residuals_sized<Eigen::Dynamic>(p, W, Y, dist, adj_p, adj_w, yhat, eps);
  }
}

void SPD::regression_gradient(CVecRef p, const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin,
                              Eigen::Index end, double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V,
                              RegressionScratch& scratch) const {
  if (V.cols() != 1) return Manifold::regression_gradient(p, V, Y, x, begin, end, tau, sum_p, sum_V, scratch);
  switch (k_) {
    case 2: return gradient_sized<2>(p, V.col(0), Y, x, begin, end, tau, sum_p, sum_V);
    case 3: return gradient_sized<3>(p, V.col(0), Y, x, begin, end, tau, sum_p, sum_V);
    default: return gradient_sized<Eigen::Dynamic>(p, V.col(0), Y, x, begin, end, tau, sum_p, sum_V);
  }
}

template <int K>
void SPD::gradient_sized(CVecRef p, CVecRef v, const PointSet& Y, const Mat& x, Eigen::Index begin,
                         Eigen::Index end, double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V) const {
  using MK = Eigen::Matrix<double, K, K>;
  using VK = Eigen::Matrix<double, K, 1>;
  const int k = K == Eigen::Dynamic ? k_ : K;  // a constant for fixed K: loops unrolled
  const Roots r = roots(p);
  const Eigen::SelfAdjointEigenSolver<Mat> es(num::sym(r.inv_half * as_mat(v) * r.inv_half));
  const MK B = r.inv_half * es.eigenvectors();  // p^{-1/2} U
  const VK lam = es.eigenvalues();
  const double lam_max = lam.cwiseAbs().maxCoeff();
  MK gap(k, k), inv_gap(k, k), y(k, k), C(k, k), T(k, k), Sp(k, k), Sv(k, k);
  VK l(k), d_inv(k);
  for (int b = 0; b < k; ++b)
    for (int a = 0; a < k; ++a) {
      gap(a, b) = 0.5 * std::abs(lam(a) - lam(b));
      inv_gap(a, b) = 1.0 / gap(a, b);  // used only where s = |x_i| gap >= 1/4
    }
  Sp.setZero();
  Sv.setZero();
  // A = D Z D of point i (Z = B^T sym(y_i) B, D = diag(d), d = e^{-x_i lam/2})
  // as C^T sym(y_i) C with C = B D, upper triangle mirrored
  const auto whiten = [&](Eigen::Index i, MK& A, VK& d) {
    const double xi = x(i, 0);
    if (!(std::abs(xi) * lam_max <= 708.0))
      throw domain_error("a fitted point Exp_p(x_i v) cannot be represented in double precision on spd");
    RIEMDP_UNROLL
    for (int b = 0; b < k; ++b) {
      d(b) = std::exp(-0.5 * xi * lam(b));
      RIEMDP_UNROLL
      for (int a = 0; a < k; ++a) {
        y(a, b) = 0.5 * (Y(a + k * b, i) + Y(b + k * a, i));
        C(a, b) = B(a, b) * d(b);
      }
    }
    RIEMDP_UNROLL
    for (int b = 0; b < k; ++b)
      RIEMDP_UNROLL
      for (int a = 0; a < k; ++a) {
        double t = 0.0;
        RIEMDP_UNROLL
        for (int c = 0; c < k; ++c) t += y(a, c) * C(c, b);
        T(a, b) = t;
      }
    RIEMDP_UNROLL
    for (int b = 0; b < k; ++b)
      RIEMDP_UNROLL
      for (int a = 0; a <= b; ++a) {
        double t = 0.0;
        RIEMDP_UNROLL
        for (int c = 0; c < k; ++c) t += C(c, a) * T(c, b);
        A(a, b) = A(b, a) = t;
      }
  };
  // E = R diag(log mu) R^T of point i (A = diag(mu) after jacobi_eigen),
  // scaled entrywise into the sums: entry (a, b) by cosh(s) and sinh(s)/s,
  // s = |x_i| |lam_a - lam_b|/2, from e^{+-s} = d_a/d_b, d_b/d_a (no libm
  // call; sinh(s)/s by its Taylor series below s = 1/4, where the difference
  // of the two would cancel)
  const auto accumulate = [&](Eigen::Index i, const MK& A, const MK& R, const VK& d) {
    const double xi = x(i, 0), ax = std::abs(xi), inv_ax = 1.0 / ax;
    if (!(A.diagonal().minCoeff() > 0.0)) throw domain_error("a point is not positive definite");
    RIEMDP_UNROLL
    for (int c = 0; c < k; ++c) {
      l(c) = std::log(A(c, c));
      d_inv(c) = 1.0 / d(c);
    }
    const double h = huber_weight(l.norm(), tau), hx = h * xi;
    RIEMDP_UNROLL
    for (int b = 0; b < k; ++b)
      RIEMDP_UNROLL
      for (int a = 0; a <= b; ++a) {
        double e = 0.0;
        RIEMDP_UNROLL
        for (int c = 0; c < k; ++c) e += R(a, c) * l(c) * R(b, c);
        if (a == b) {
          Sp(a, a) += h * e;
          Sv(a, a) += hx * e;
        } else {
          const double s = ax * gap(a, b), s2 = s * s;
          const double r1 = d(a) * d_inv(b), r2 = d(b) * d_inv(a);
          const double series = 1.0 + s2 / 6.0 * (1.0 + s2 / 20.0 * (1.0 + s2 / 42.0 * (1.0 + s2 / 72.0 * (1.0 + s2 / 110.0))));
          const double shc = s < 0.25 ? series : 0.5 * std::abs(r1 - r2) * inv_gap(a, b) * inv_ax;
          Sp(a, b) += h * (0.5 * (r1 + r2)) * e;
          Sv(a, b) += hx * shc * e;
        }
      }
  };
  // Points in groups of G (jacobi_eigen<G>: 8 on lanes for k = 3, else 4
  // scalar rotations side by side); the last group is padded with
  // copies of its first point whose results are dropped, so every group
  // costs the same.
  constexpr int G = K == 3 ? 8 : 4;
  MK Ag[G], Rg[G];
  VK dg[G];
  for (int j = 0; j < G; ++j) {
    Ag[j].resize(k, k);
    Rg[j].resize(k, k);
    dg[j].resize(k);
  }
  for (Eigen::Index i = begin; i < end; i += G) {
    for (int j = 0; j < G; ++j) whiten(i + j < end ? i + j : i, Ag[j], dg[j]);
    jacobi_eigen<G>(Ag, Rg);
    for (int j = 0; j < G && i + j < end; ++j) accumulate(i + j, Ag[j], Rg[j], dg[j]);
  }
  for (int b = 0; b < k; ++b)
    for (int a = 0; a < b; ++a) {
      Sp(b, a) = Sp(a, b);
      Sv(b, a) = Sv(a, b);
    }
  const Mat HU = r.half * es.eigenvectors();  // p^{1/2} U
  store(num::sym(HU * Mat(Sp) * HU.transpose()), sum_p);
  Vec col(k * k);
  store(num::sym(HU * Mat(Sv) * HU.transpose()), col);
  sum_V.col(0) = col;
}

double SPD::log_volume_density(double r) const {
  if (k_ == 1) return 0.0;
  return Manifold::log_volume_density(r);
}

double SPD::d_log_volume_density(double r) const {
  if (k_ == 1) return 0.0;
  return Manifold::d_log_volume_density(r);
}

double SPD::log_exp_jacobian(CVecRef p, CVecRef v) const {
  if (k_ == 1) return 0.0;
  const Roots r = roots(p);
  const Vec l = Eigen::SelfAdjointEigenSolver<Mat>(num::sym(r.inv_half * as_mat(v) * r.inv_half),
                                                   Eigen::EigenvaluesOnly).eigenvalues();
  double s = 0.0;
  for (int i = 0; i < k_; ++i)
    for (int j = i + 1; j < k_; ++j) {
      const double x = 0.5 * std::abs(l[i] - l[j]);
      s += x < 1.0 ? std::log(num::sinhc(x)) : x + std::log(-std::expm1(-2.0 * x)) - std::log(2.0 * x);
    }
  return s;
}

void SPD::dist_many(CVecRef p, const PointSet& X, VecRef out) const {
  const Mat ih = roots(p).inv_half;
  Vec buf(k_ * k_);
  for (Eigen::Index i = 0; i < X.cols(); ++i) {
    buf = X.col(i);
    out[i] = std::sqrt(whitened_log_eigen_sq(ih, buf));
  }
}

double SPD::mean_log(CVecRef p, const PointSet& X, VecRef mean) const {
  const Roots r = roots(p);
  Mat acc;
  const double cost = whitened_log_sum(r, X, nullptr, acc);
  const double n = static_cast<double>(X.cols());
  store(num::sym(r.half * (acc / n) * r.half), mean);
  return cost / (2.0 * n);
}

double SPD::weighted_log_sum(CVecRef p, const PointSet& X, CVecRef w, VecRef sum) const {
  const Roots r = roots(p);
  Mat acc;
  const double cost = whitened_log_sum(r, X, w.data(), acc);
  store(num::sym(r.half * acc * r.half), sum);
  return cost;
}

// One pass for both (one instantiation of each_whitened per size): with w
// null every point has weight 1 (1 * l == l, so the sums are those of the
// unweighted formula to the bit) and no check; with weights, points of
// weight 0 are skipped and the others must be positive definite.
double SPD::whitened_log_sum(const Roots& r, const PointSet& X, const double* w, Mat& acc) const {
  acc = Mat::Zero(k_, k_);
  double cost = 0.0;
  Vec l_dyn(k_ > 3 ? k_ : 0);
  Mat UL_dyn(k_ > 3 ? k_ : 0, k_ > 3 ? k_ : 0);
  each_whitened(r.inv_half, X, [&](Eigen::Index i) { return w && w[i] == 0.0; },
                [&](Eigen::Index i, const auto& lam, const auto& U) {
                  if (w && !(lam(0) > 0.0)) throw domain_error("a point is not positive definite");
                  const double wi = w ? w[i] : 1.0;
                  if constexpr (std::decay_t<decltype(U)>::RowsAtCompileTime == Eigen::Dynamic) {
                    // k >= 4: into buffers sized once, no temporary per point
                    l_dyn = lam.array().log();
                    UL_dyn.noalias() = U * (wi * l_dyn).asDiagonal();
                    acc.noalias() += UL_dyn * U.transpose();
                    cost += wi * l_dyn.squaredNorm();
                  } else {
                    const auto l = lam.array().log().matrix().eval();
                    acc.noalias() += U * (wi * l).asDiagonal() * U.transpose();
                    cost += wi * l.squaredNorm();
                  }
                });
  return cost;
}

void SPD::log_many(CVecRef p, const PointSet& X, Eigen::Ref<Mat> logs, VecRef norms) const {
  const Roots r = roots(p);
  if (k_ == 2) return log_many_fixed<2>(r, X, logs, norms);
  if (k_ == 3) return log_many_fixed<3>(r, X, logs, norms);
  log_many_fixed<Eigen::Dynamic>(r, X, logs, norms);
}

Eigen::Map<const Mat> SPD::as_mat(CVecRef x) const { return Eigen::Map<const Mat>(x.data(), k_, k_); }

void SPD::store(const Mat& A, VecRef out) const { out = Eigen::Map<const Vec>(A.data(), k_ * k_); }

void SPD::adj_eigenbasis(const Mat& HU, const Vec& lam, const Mat& E, VecRef adj_p, VecRef adj_w) const {
  Mat Fp(k_, k_), Fw(k_, k_);
  for (int b = 0; b < k_; ++b)
    for (int a = 0; a < k_; ++a) {
      const JacobiScaling s = jacobi_scaling(-1.0, 0.5 * std::abs(lam(a) - lam(b)));
      Fp(a, b) = s.footpoint * E(a, b);
      Fw(a, b) = s.shooting * E(a, b);
    }
  store(num::sym(HU * Fp * HU.transpose()), adj_p);
  store(num::sym(HU * Fw * HU.transpose()), adj_w);
}

Mat SPD::whitened_log(const Mat& inv_half, CVecRef q) const {
  return sym_fun(num::sym(inv_half * as_mat(q) * inv_half), [](double x) {
    if (!(x > 0.0)) throw domain_error("a point is not positive definite");
    return std::log(x);
  });
}

double SPD::whitened_log_eigen_sq(const Mat& inv_half, CVecRef q) const {
  Eigen::SelfAdjointEigenSolver<Mat> es(num::sym(inv_half * as_mat(q) * inv_half), Eigen::EigenvaluesOnly);
  return es.eigenvalues().array().log().square().sum();
}

}  // namespace riemdp
