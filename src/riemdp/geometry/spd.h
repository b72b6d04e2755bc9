// Symmetric positive definite k x k matrices with the affine-invariant metric
// <u,v>_p = tr(p^-1 u p^-1 v) (methods article, "Manifolds and their formulas"). Points are stored column-major.
// Only symmetric eigensolvers are used.
#ifndef RIEMDP_GEOMETRY_SPD_H
#define RIEMDP_GEOMETRY_SPD_H

#include <Eigen/Eigenvalues>

#include "manifold.h"

namespace riemdp {

class SPD : public Manifold {
 public:
  explicit SPD(int k) : k_(k) {}
  std::string name() const override { return "spd"; }
  int dim() const override { return k_ * (k_ + 1) / 2; }
  int ambient() const override { return k_ * k_; }
  double injectivity_radius() const override { return std::numeric_limits<double>::infinity(); }
  double curvature_min() const override { return k_ >= 2 ? -0.5 : 0.0; }
  double curvature_max() const override { return 0.0; }
  bool isotropic() const override { return k_ == 1; }

  // p^{1/2} and p^{-1/2} from one eigendecomposition.
  struct Roots {
    Mat half, inv_half;
  };
  Roots roots(CVecRef p) const;

  // Exp_p(v) = p^{1/2} expm(p^{-1/2} v p^{-1/2}) p^{1/2}.
  // Not representable (Inf, see Manifold::exp) when e^lambda over- or
  // underflows for an eigenvalue lambda of the whitened v (|lambda| > 708).
  void exp(CVecRef p, CVecRef v, VecRef out) const override;

  // Log_p(q) = p^{1/2} logm(p^{-1/2} q p^{-1/2}) p^{1/2}.
  void log(CVecRef p, CVecRef q, VecRef out) const override;

  // dist = ||logm(p^{-1/2} q p^{-1/2})||_F.
  double dist(CVecRef p, CVecRef q) const override;

  double inner(CVecRef p, CVecRef u, CVecRef v) const override;

  // Gamma_{p->q}(v) = E v E^T, E = p^{1/2} (p^{-1/2} q p^{-1/2})^{1/2} p^{-1/2}.
  void transport(CVecRef p, CVecRef q, CVecRef v, VecRef out) const override;

  void to_tangent(CVecRef, CVecRef x, VecRef out) const override;

  // p^{1/2} B p^{1/2} for a Frobenius-orthonormal basis B of symmetric matrices.
  Mat tangent_basis(CVecRef p) const override;

  // L S L^T with p = L L^T (Cholesky) and S the symmetric matrix of z in the
  // Frobenius-orthonormal basis of tangent_basis() (S_ii = z_ii, S_ij = S_ji =
  // z_ij / sqrt 2): S -> L S L^T is an isometry from the symmetric matrices
  // (Frobenius) onto T_p (<u,v>_p = tr(p^-1 u p^-1 v)), as is p^{1/2} S p^{1/2},
  // so both give N(0, I) on T_p; the Cholesky factor is the cheaper one.
  double tangent_gaussian(CVecRef p, CVecRef z, VecRef out) const override;

  // Symmetrise and floor the eigenvalues at 1e-12 times the largest.
  void project(CVecRef x, VecRef out) const override;

  // Whitening by p^(-1/2) loses the relative precision cond(p) eps.
  double rounding_scale(CVecRef p) const override;

  std::string point_problem(CVecRef x, double tol) const override;

  std::string tangent_problem(CVecRef, CVecRef v, double tol) const override;

  // d/dt p^{1/2} e^{tW} p^{1/2} = p^{1/2} W e^{sW} p^{1/2} at t = s, W = p^{-1/2} v p^{-1/2}.
  void geodesic_velocity(CVecRef p, CVecRef v, double s, VecRef out) const override;

  // Blocks: the entries (a, b) of whitened vectors in the eigenbasis U of the
  // whitened v, curvature -1 over |lam_a - lam_b|/2 (kappa = -(lam_a - lam_b)^2/4).
  void regression_gauss_newton(CVecRef p, CVecRef v, CVecRef x, CVecRef h, CVecRef gp, CVecRef gv, VecRef dp,
                               VecRef dv) const override;

  // Geodesic regression in the whitened eigenbasis of the shooting vector
  // (methods article, "Fitting"): with W = p^{-1/2} w p^{-1/2} = U diag(lam) U^T, eps at
  // yhat = Exp_p(w) transported back to p and whitened is
  // e^{-W/2} (p^{-1/2} eps p^{-1/2}) e^{-W/2}; adj_eigenbasis() scales its
  // entries in the basis U and maps them back to T_p.
  void adjoint_jacobi(CVecRef p, CVecRef w, CVecRef, CVecRef eps, VecRef adj_p, VecRef adj_w) const override;

  // The same per point with p whitened once: in the basis U, the transported
  // whitened residual is logm(D Z D), Z = U^T p^{-1/2} y p^{-1/2} U and
  // D = e^{-diag(lam)/2} (affine invariance with yhat = G G^T, G = p^{1/2} U D^{-1}),
  // so each point costs two k x k symmetric eigendecompositions.
  void regression_residuals(CVecRef p, const PointSet& W, const PointSet& Y, VecRef dist, Mat& adj_p, Mat& adj_w,
                            Mat* yhat, Mat* eps) const override;

  // The clipped gradient sums (Manifold::regression_gradient) with one
  // covariate in one fused pass: every w_i = x_i v shares the eigenbasis U of
  // the whitened v (W = p^{-1/2} v p^{-1/2} = U diag(lam) U^T), so p and v are
  // whitened and W decomposed once per call, B = p^{-1/2} U. Per point, the
  // transported whitened residual in the basis U is E_i = logm(D Z D),
  // Z = B^T y_i B, D = e^{-x_i diag(lam)/2} (as in regression_residuals()),
  // from one Jacobi eigendecomposition of D Z D (jacobi_eigen() in spd.cpp);
  // the adjoint fields are E_i scaled entrywise (cosh and sinh(s)/s of
  // s = |x_i| |lam_a - lam_b|/2), summed in the basis U and mapped back to
  // T_p by p^{1/2} U . U^T p^{1/2} once. Several covariates: the default.
  void regression_gradient(CVecRef p, const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin,
                           Eigen::Index end, double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V,
                           RegressionScratch& scratch) const override;

  // Isotropic only for k = 1 (the positive half-line, isometric to R).
  double log_volume_density(double r) const override;
  double d_log_volume_density(double r) const override;

  // Jacobian of Exp_p at v: prod_{i<j} sinh(g/2)/(g/2), g = |l_i - l_j| for
  // the eigenvalues l of the whitened v (the polar volume of Said et al. 2017).
  double log_exp_jacobian(CVecRef p, CVecRef v) const override;

  // Batch forms: whiten by p^{-1/2} once per call.
  void dist_many(CVecRef p, const PointSet& X, VecRef out) const override;

  double mean_log(CVecRef p, const PointSet& X, VecRef mean) const override;

  // The weighted sum whitened once: p^{1/2} (sum_i w_i logm(p^{-1/2} x_i
  // p^{-1/2})) p^{1/2}, one eigendecomposition per point (the per-point log
  // and inner took three).
  double weighted_log_sum(CVecRef p, const PointSet& X, CVecRef w, VecRef sum) const override;

  // Log_p(x_i) = p^{1/2} logm(p^{-1/2} x_i p^{-1/2}) p^{1/2} with p's roots
  // computed once; |Log_p(x_i)| is the norm of the eigenvalues' logarithms.
  void log_many(CVecRef p, const PointSet& X, Eigen::Ref<Mat> logs, VecRef norms) const override;

 private:
  int k_;
  Eigen::Map<const Mat> as_mat(CVecRef x) const;
  void store(const Mat& A, VecRef out) const;

  // The eigendecomposition of a symmetric k x k matrix A (k >= 4) without
  // allocation (Eigen's dynamic solver allocates on every call): cyclic
  // Jacobi rotations in place (A is overwritten), eigenvalues ascending into
  // lam and the eigenvectors, in that order, into U; lam(0) is NaN when A
  // is not finite.
  static void sym_eigen_sorted(Mat& A, Mat& U, Vec& lam);

  // Calls f(i, lambda, U) with the eigendecomposition of the whitened point
  // sym(inv_half x_i inv_half) for every i with !skip(i), in matrices of
  // compile-time size K (2, 3: no allocation per point) or dynamic.
  template <int K, class Skip, class F>
  void each_whitened_k(const Mat& inv_half, const PointSet& X, Skip skip, F f) const {
    using MatK = Eigen::Matrix<double, K, K>;
    MatK ih, Q, T, W, Ws;
    ih.resize(k_, k_);
    Q.resize(k_, k_);
    T.resize(k_, k_);
    W.resize(k_, k_);
    Ws.resize(k_, k_);
    ih = inv_half;
    Eigen::SelfAdjointEigenSolver<MatK> es(K == Eigen::Dynamic ? 0 : k_);
    Mat U_dyn(K == Eigen::Dynamic ? k_ : 0, K == Eigen::Dynamic ? k_ : 0);
    Vec lam_dyn(K == Eigen::Dynamic ? k_ : 0);
    const Eigen::Index kk = static_cast<Eigen::Index>(k_) * k_;
    for (Eigen::Index i = 0; i < X.cols(); ++i) {
      if (skip(i)) continue;
      for (Eigen::Index a = 0; a < kk; ++a) Q.data()[a] = X(a, i);
      T.noalias() = ih * Q;  // two products: no hidden temporary
      W.noalias() = T * ih;
      Ws = 0.5 * (W + W.transpose());
      if constexpr (K == Eigen::Dynamic) {
        sym_eigen_sorted(Ws, U_dyn, lam_dyn);
        f(i, lam_dyn, U_dyn);
      } else {
        num::sym_eigen(es, Ws);
        f(i, es.eigenvalues(), es.eigenvectors());
      }
    }
  }
  template <class Skip, class F>
  void each_whitened(const Mat& inv_half, const PointSet& X, Skip skip, F f) const {
    if (k_ == 2) return each_whitened_k<2>(inv_half, X, skip, f);
    if (k_ == 3) return each_whitened_k<3>(inv_half, X, skip, f);
    each_whitened_k<Eigen::Dynamic>(inv_half, X, skip, f);
  }
  template <int K>
  void log_many_fixed(const Roots& r, const PointSet& X, Eigen::Ref<Mat> logs, VecRef norms) const {
    using MatK = Eigen::Matrix<double, K, K>;
    using VecK = Eigen::Matrix<double, K, 1>;
    MatK h, L, A, T;
    VecK l;
    h.resize(k_, k_);
    L.resize(k_, k_);
    A.resize(k_, k_);
    T.resize(k_, k_);
    l.resize(k_);
    h = r.half;
    each_whitened_k<K>(r.inv_half, X, [](Eigen::Index) { return false; },
                       [&](Eigen::Index i, const auto& lam, const auto& U) {
                         if (!(lam(0) > 0.0)) throw domain_error("a point is not positive definite");
                         l = lam.array().log();
                         norms[i] = l.norm();
                         T.noalias() = U * l.asDiagonal();  // two products each: no hidden temporary
                         L.noalias() = T * U.transpose();
                         T.noalias() = h * L;
                         A.noalias() = T * h;
                         for (Eigen::Index a = 0; a < k_; ++a)
                           for (Eigen::Index b = 0; b < k_; ++b) logs(a + b * k_, i) = 0.5 * (A(a, b) + A(b, a));
                       });
  }

  // Entry (a, b) of the whitened transported residual E (basis U) scaled by
  // the Jacobi scalings of curvature -1 at length |lam_a - lam_b|/2 (the
  // curvature operator of the geodesic in that basis), mapped back to T_p by
  // p^{1/2} U . U^T p^{1/2} (HU = p^{1/2} U).
  void adj_eigenbasis(const Mat& HU, const Vec& lam, const Mat& E, VecRef adj_p, VecRef adj_w) const;

  // regression_residuals() with K x K matrices: fixed-size for small k,
  // K = Eigen::Dynamic otherwise.
  template <int K>
  void residuals_sized(CVecRef p, const PointSet& W, const PointSet& Y, VecRef dist, Mat& adj_p, Mat& adj_w,
                       Mat* yhat, Mat* eps) const {
    using MK = Eigen::Matrix<double, K, K>;
    using VK = Eigen::Matrix<double, K, 1>;
    const int k = K == Eigen::Dynamic ? k_ : K;  // a constant for fixed K: loops unrolled
    const Roots r = roots(p);
    const MK half = r.half, inv_half = r.inv_half;
    // Every buffer sized once: no allocation per point for any k (products
    // of three matrices split in two; for k >= 4 the allocation-free
    // sym_eigen_sorted() instead of Eigen's dynamic solver)
    constexpr bool dyn = K == Eigen::Dynamic;
    Eigen::SelfAdjointEigenSolver<MK> es_w(dyn ? 0 : k), es_r(dyn ? 0 : k);
    MK w(k, k), y(k, k), A(k, k), S(k, k), T(k, k), Fp(k, k), Fw(k, k), HU(k, k), B(k, k), E(k, k), G(k, k);
    MK Uw(dyn ? k : 0, dyn ? k : 0), Ur(dyn ? k : 0, dyn ? k : 0);
    VK lam_dyn(dyn ? k : 0), mu_dyn(dyn ? k : 0), half_exp(k), logmu(k);
    const auto sym_into = [](const MK& X, MK& out) { out = 0.5 * (X + X.transpose()); };
    const auto put_sym = [k](const MK& X, Mat& out, Eigen::Index i) {
      for (int b = 0; b < k; ++b)
        for (int a = 0; a < k; ++a) out(a + k * b, i) = 0.5 * (X(a, b) + X(b, a));
    };
    // HX X HX^T into S (through T)
    const auto congruence = [&](const MK& HX, const MK& X) {
      T.noalias() = HX * X;
      S.noalias() = T * HX.transpose();
    };
    for (Eigen::Index i = 0; i < Y.cols(); ++i) {
      for (int b = 0; b < k; ++b)
        for (int a = 0; a < k; ++a) {
          w(a, b) = W(a + k * b, i);
          y(a, b) = Y(a + k * b, i);
        }
      T.noalias() = inv_half * w;
      A.noalias() = T * inv_half;
      sym_into(A, S);
      if constexpr (dyn) sym_eigen_sorted(S, Uw, lam_dyn);
      else num::sym_eigen(es_w, S);
      const VK& lam = dyn ? lam_dyn : es_w.eigenvalues();
      const MK& Uw_ = dyn ? Uw : es_w.eigenvectors();
      if (!(lam.cwiseAbs().maxCoeff() <= 708.0))
        throw domain_error("a fitted point Exp_p(x_i v) cannot be represented in double precision on spd");
      HU.noalias() = half * Uw_;     // p^{1/2} U
      B.noalias() = inv_half * Uw_;  // p^{-1/2} U
      half_exp = (-0.5 * lam).array().exp();
      T.noalias() = B.transpose() * y;
      A.noalias() = T * B;
      A = half_exp.asDiagonal() * A * half_exp.asDiagonal();  // diagonal scalings: no temporary
      sym_into(A, S);
      if constexpr (dyn) sym_eigen_sorted(S, Ur, mu_dyn);
      else num::sym_eigen(es_r, S);
      const VK& mu = dyn ? mu_dyn : es_r.eigenvalues();
      const MK& Ur_ = dyn ? Ur : es_r.eigenvectors();
      if (!(mu(0) > 0.0)) throw domain_error("a point is not positive definite");
      logmu = mu.array().log();
      T.noalias() = Ur_ * logmu.asDiagonal();
      E.noalias() = T * Ur_.transpose();
      dist[i] = logmu.norm();
      // adj_eigenbasis() on K x K matrices, one scaling per pair (1 on the
      // diagonal, where the curvature term vanishes)
      for (int b = 0; b < k; ++b) {
        Fp(b, b) = E(b, b);
        Fw(b, b) = E(b, b);
        for (int a = 0; a < b; ++a) {
          const JacobiScaling s = jacobi_scaling(-1.0, 0.5 * std::abs(lam(a) - lam(b)));
          Fp(a, b) = s.footpoint * E(a, b);
          Fw(a, b) = s.shooting * E(a, b);
          Fp(b, a) = s.footpoint * E(b, a);
          Fw(b, a) = s.shooting * E(b, a);
        }
      }
      congruence(HU, Fp);
      put_sym(S, adj_p, i);
      congruence(HU, Fw);
      put_sym(S, adj_w, i);
      if (yhat || eps) {
        G.noalias() = HU * half_exp.cwiseInverse().asDiagonal();  // yhat = G G^T
        if (yhat) {
          S.noalias() = G * G.transpose();
          put_sym(S, *yhat, i);
        }
        if (eps) {
          congruence(G, E);
          put_sym(S, *eps, i);
        }
      }
    }
  }

  // regression_gradient() with one covariate on K x K matrices (fixed-size
  // for k = 2, 3; K = Eigen::Dynamic otherwise). Defined in spd.cpp.
  template <int K>
  void gradient_sized(CVecRef p, CVecRef v, const PointSet& Y, const Mat& x, Eigen::Index begin, Eigen::Index end,
                      double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V) const;

  // sum_i w_i log(whitened x_i) into acc (whitened: p^{-1/2} x_i p^{-1/2});
  // returns sum_i w_i |log|^2 (w null: all 1). mean_log and weighted_log_sum.
  double whitened_log_sum(const Roots& r, const PointSet& X, const double* w, Mat& acc) const;

  Mat whitened_log(const Mat& inv_half, CVecRef q) const;
  double whitened_log_eigen_sq(const Mat& inv_half, CVecRef q) const;
};

}  // namespace riemdp

#endif
