// Geodesic regression (Fletcher 2011; Kulkarni & Soto 2025, eq. 3-8;
// methods article, "Fitting"), with several covariates as multiple geodesic regression (Kim et al. 2014):
// minimise E(p, V) = 1/(2n) sum_i dist(Exp_p(w_i), y_i)^2, w_i = sum_j x_ij v_j,
// over the footpoint p and the shooting vectors v_j in T_p.
#ifndef RIEMDP_STATISTICS_REGRESSION_H
#define RIEMDP_STATISTICS_REGRESSION_H

#include <limits>

#include "../geometry/manifold.h"

namespace riemdp {

// The data of a regression: n points y_i (columns of Y) and an n x m matrix of
// covariates.
struct RegressionData {
  const PointSet& Y;
  const Mat& x;
  int n() const { return static_cast<int>(Y.cols()); }
  int m() const { return static_cast<int>(x.cols()); }
};

// A parameter (p, V): V holds the shooting vectors v_1..v_m as columns.
struct RegressionParameter {
  Vec p;
  Mat V;
};

// The energy and its Riemannian gradients at a parameter, with the residuals
// behind them (methods article, "Fitting"): grad_p = -(1/n) sum_i adj_p(eps_i),
// grad_V(:, j) = -(1/n) sum_i x_ij adj_w(eps_i).
struct RegressionEvaluation {
  double energy = 0.0;
  Vec grad_p;
  Mat grad_V;
  Vec dist;             // |eps_i|
  Vec weight;           // the loss's IRLS weights psi(d_i)/d_i (empty: least squares)
  Mat fitted, residual;  // filled on request only
};

// Tangent vectors w_i = V x_i as the columns of a D x n matrix.
inline Mat regression_shooting(const RegressionParameter& z, const Mat& x) { return z.V * x.transpose(); }

// huber_loss() and huber_weight(): the Huber-type loss of clip tau, in
// geometry/manifold.h (the fused gradient passes use the weight).

// One evaluation of E = (1/n) sum_i rho(|eps_i|) and its gradient, with
// rho a RegressionLoss (the private release's: Huber of clip tau, least
// squares when tau = Inf, see the overload below); the
// pass over the data runs on two threads for large n (every column depends
// on its own point only, so the result does not depend on the number of
// threads). keep = true also fills fitted and residual.
RegressionEvaluation regression_evaluate(const Manifold& M, const RegressionData& data, const RegressionParameter& z,
                                         bool keep, const RegressionLoss& loss);

// The Huber-type energy of clip tau (least squares when tau = Inf): the
// private release's target (methods article, "The joint release of a geodesic regression").
RegressionEvaluation regression_evaluate(const Manifold& M, const RegressionData& data, const RegressionParameter& z,
                                         bool keep = false, double tau = std::numeric_limits<double>::infinity());

// Buffers of regression_gradient(), sized on first use and then reused (no
// allocation per evaluation): per block of the data, the manifold's scratch
// and the partial sums.
struct RegressionGradientWorkspace {
  static constexpr int max_blocks = 2;
  RegressionScratch scratch[max_blocks];
  Vec part_p[max_blocks], chunk_p[max_blocks], grad_p, buf;
  Mat part_V[max_blocks], chunk_V[max_blocks], grad_V;
};

// Tells the passes of ws the chain's public domain (RegressionScratch).
inline void set_public_domain(RegressionGradientWorkspace& ws, const Vec& center, double radius, double tau_m) {
  for (RegressionScratch& s : ws.scratch) {
    s.domain_center = center;
    s.domain_radius = radius;
    s.domain_tau_m = tau_m;
  }
}

// The clipped gradient (grad_p, grad_V) of E_tau at z into ws.grad_p and
// ws.grad_V, without the energy: the same field as regression_evaluate(M,
// data, z, false, tau) (to rounding), through Manifold::regression_gradient
// on fixed blocks of the data, each in chunks (an interrupt check between
// chunks), summed in a fixed order.
void regression_gradient(const Manifold& M, const RegressionData& data, const RegressionParameter& z, double tau,
                         RegressionGradientWorkspace& ws);

// |(grad_p, grad_V)| in the product metric of T_p^(m+1).
double regression_grad_norm(const Manifold& M, const RegressionParameter& z, const RegressionEvaluation& ev);

// The Gram matrix H = (1/n) sum_i (1, x_i)(1, x_i)^T of the design: the
// Hessian of E on euclidean spaces (block (j, l) times the identity), whose
// inverse preconditions the gradient (one step solves least squares exactly).
// With IRLS weights h: (1/n) sum_i h_i (1, x_i)(1, x_i)^T.
Mat regression_design_gram(const Mat& x, const Vec& h = Vec());

// Start (methods article, "Fitting"): the least-squares line in the tangent space at the
// Frechet mean ybar, u_i = Log_ybar(y_i) ~ b_0 + sum_j x_ij b_j; then
// p = Exp_ybar(b_0) and v_j = Gamma_{ybar -> p}(b_j).
RegressionParameter regression_tangent_start(const Manifold& M, const RegressionData& data, CVecRef ybar);

struct RegressionResult {
  RegressionParameter z;
  RegressionEvaluation ev;  // at z, with fitted values and residuals
  int iterations = 0;
  double grad_norm = 0.0;
  bool converged = false;
  double cutoff = std::numeric_limits<double>::infinity();  // the loss's cutoff c (distance units)
  double scale = std::numeric_limits<double>::quiet_NaN();  // the MAD scale when estimated
  int scale_iterations = 0;
  bool scale_converged = true;
};

// Rounding floor of the gradient norm (as frechet_gradient_floor, with the
// covariates' scale: the shooting gradient sums x_i times residuals). With
// IRLS weights h_i the gradient sums h_i eps_i: the rounding of eps_i is
// amplified by the mean weight when it exceeds 1 (l1: up to 1/radius).
double regression_gradient_floor(const Manifold& M, const RegressionParameter& z, double data_scale, double energy,
                                 double x_scale, const Vec& weight = Vec());

// The descent direction at z (columns: footpoint, shooting vectors):
// Gauss-Newton with one covariate (Manifold::regression_gauss_newton,
// IRLS-weighted), else the gradient G preconditioned by the IRLS-weighted Gram
// matrix of the design (H, the plain one, where that is singular).
void regression_direction(const Manifold& M, const RegressionData& data, const RegressionParameter& z,
                          const RegressionEvaluation& ev, const Eigen::LDLT<Mat>& H, Mat& G, Mat& Dir);

// zn = z moved by t Dir: p' = Exp_p(t d_p), v_j' = Gamma_{p->p'}(v_j + t d_vj),
// retracted onto the manifold and its tangent space; false where a result is
// not representable.
bool regression_step(const Manifold& M, const RegressionParameter& z, const Mat& Dir, double t, RegressionParameter& zn,
                     Vec& step, Vec& buf);

// Riemannian descent on the tangent bundle. With one covariate the direction
// is Gauss-Newton's (Manifold::regression_gauss_newton: curvature-aware, one
// 2 x 2 block per eigenspace of the curvature operator along v); with several
// it is the gradient preconditioned by the design's Gram matrix,
// (d_p, d_V) = -H^{-1} (grad_p, grad_V) (a linear combination of vectors of
// T_p; both are Newton's step on euclidean). Step p' = Exp_p(t d_p),
// v_j' = Gamma_{p->p'}(v_j + t d_vj), t = 1 halved until the Armijo condition
// E' <= E + 1e-4 t <g, d> holds. Near the minimum, where that decrease
// is lost in the rounding of E, a step is accepted when it reduces the
// gradient norm (as in frechet_mean). Stops when |g| <= tol or at the
// rounding floor, when no step makes progress (a stall), or after max_iter
// steps; iterates are retracted onto the manifold and its tangent spaces.
RegressionResult regression_descent(const Manifold& M, const RegressionData& data, RegressionParameter z, int max_iter,
                                    double tol, const RegressionLoss& loss = RegressionLoss());

// A fixed amount of work towards the fit, for a proposal that may use the data
// but whose run time must not depend on them (sampling/kng_chain.h): the
// Frechet mean by `steps` full steps x <- Exp_x(mean Log_x(y_i)), the tangent
// least-squares start, then `steps` undamped IRLS Gauss-Newton steps (the
// directions of regression_descent(), length capped at half the injectivity
// radius), with no stopping rule and no line search. A step that cannot be
// represented is skipped.
RegressionParameter regression_fixed_steps(const Manifold& M, const RegressionData& data, int steps,
                                           const RegressionLoss& loss);

// The geodesic x -> Exp_p(x v) (one covariate) re-based at x = s: the
// footpoint Exp_p(s v) and the geodesic's velocity there.
RegressionParameter regression_rebase(const Manifold& M, const RegressionParameter& z, double s);

// The median of the residual distances (GeodRegr's scale: the MAD about 0).
double regression_median_dist(const Vec& dist);

// Geodesic regression from a start z (or, when null, the tangent least-squares
// line at the Frechet mean ybar). With one covariate the descent runs in the
// centred covariate x - xbar, an exact reparametrisation of the same
// geodesics (footpoint Exp_p(xbar v), the velocity there) under which the
// design's Gram matrix is diagonal: p and v do not couple, and a covariate
// far from 0 (a footpoint far along the geodesic) costs nothing. The result
// is mapped back to x = 0; its grad_norm is the centred fit's. With several
// covariates the model is not invariant under such shifts, and the
// preconditioner alone handles the coupling.
//
// Robust losses (RegressionLoss; Shin & Oh 2022): IRLS, i.e. the same
// descent with the weights psi(d_i)/d_i frozen per step in the Gauss-Newton
// operator. With xi > 0 the cutoff is loss.c times GeodRegr's concurrent
// scale sigma = median_i d(yhat_i, y_i) / xi (xi = the median of chi_d, the
// residual norm of standard Gaussian tangent errors): the fit and sigma are
// iterated to their joint fixed point (at most 100 refits, each warm-started;
// sigma relative change <= 1e-12). With xi = 0, loss.c is the cutoff itself.
// For l1, loss.c is ignored: the smoothing radius is l1_smoothing = 1e-6
// times the start's root mean squared residual (at 1e-9 the IRLS weights
// 1/d_i of interpolated points, up to 1/radius, amplify the rounding of d_i
// above the gradient tolerance: the descent stalled). The smoothed minimiser's
// L1 objective exceeds the minimum by at most radius/2; the reported energy
// is the L1 objective itself.
constexpr double l1_smoothing = 1e-6;
RegressionResult geodesic_regression(const Manifold& M, const RegressionData& data, const RegressionParameter* start,
                                     CVecRef ybar, int max_iter, double tol, RegressionLoss loss = RegressionLoss(),
                                     double xi = 0.0);

}  // namespace riemdp

#endif
