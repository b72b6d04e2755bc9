#' Geodesic regression
#'
#' Fits the geodesic \eqn{x \mapsto Exp_p(x v)}{x -> Exp_p(x v)} that minimises
#' \deqn{E(p, v) = \frac{1}{2n}\sum_{i=1}^n d(Exp_p(x_i v), y_i)^2}{E(p, v) = 1/(2n) sum_(i=1)^n d(Exp_p(x_i v), y_i)^2}
#' over the footpoint \eqn{p}{p} (the fitted value at \eqn{x = 0}{x = 0}) and the
#' shooting vector \eqn{v \in T_pM}{v in T_p M} (Fletcher 2011; Kulkarni &
#' Soto 2025, eq. 3-8). With several covariates (a matrix
#' `x`) the model is multiple geodesic regression,
#' \eqn{Exp_p(\sum_j x_{ij} v_j)}{Exp_p(sum_j x_ij v_j)} (Kim et al. 2014),
#' with one shooting vector per covariate. On
#' [`manifold_euclidean(d)`][manifold_euclidean] it is ordinary least squares,
#' `lm(Y ~ x)`: the footpoint is the intercept and the shooting vectors are
#' the slopes.
#'
#' The gradients are the adjoint Jacobi fields along the fitted geodesics
#' (analytic, for every manifold: constant curvature on euclidean, sphere and
#' hyperbolic; three curvature blocks on Kendall's space; the whitened
#' eigenbasis of the shooting vector on spd). The fit starts from the
#' least-squares line in the tangent space at the Fréchet mean of `Y`
#' (regressing \eqn{Log_{\bar y}(y_i)}{Log_ybar(y_i)} on \eqn{(1, x_i)}{(1, x_i)}), and descends on the
#' tangent bundle: \eqn{p \leftarrow Exp_p(t d_p)}{p <- Exp_p(t d_p)},
#' \eqn{v_j \leftarrow \Gamma_{p \to p'}(v_j + t d_{v_j})}{v_j <- Gamma_(p -> p')(v_j + t d_(v_j))}, where the direction
#' \eqn{(d_p, d_v)}{(d_p, d_v)} is the gradient preconditioned by the inverse Gram matrix
#' of the design \eqn{(1, x_i)}{(1, x_i)} (so that one step solves the Euclidean case
#' exactly, and a covariate far from 0 does not slow the descent), and
#' \eqn{t}{t} starts at 1 with Armijo backtracking. It stops when the norm of the
#' gradient falls below `tol` or to the level of rounding noise (both count as
#' converged), or after `max_iter` steps, or when no step reduces the energy
#' any more above that level (both with a warning). With one covariate the
#' descent runs in the centred covariate \eqn{x - \bar x}{x - xbar}, an exact
#' reparametrisation of the same geodesics (the fit is re-based at
#' \eqn{x = 0}{x = 0} at the end), so a covariate far from 0 costs nothing; the
#' reported gradient norm is that of the centred fit. With several
#' covariates such a shift changes the model, and centring them is left to
#' the user.
#'
#' **Robust losses** (Shin & Oh 2022, as in the GeodRegr package): with
#' `loss` other than `"l2"` the fit minimises
#' \eqn{E = \frac{1}{n}\sum_i \rho(d(\hat y_i, y_i))}{E = 1/n sum_i rho(d(yhat_i, y_i))} with
#' \itemize{
#'   \item `"huber"`: \eqn{\rho(t) = t^2/2}{rho(t) = t^2/2} for \eqn{t \le k}{t <= k},
#'     \eqn{k t - k^2/2}{k t - k^2/2} beyond;
#'   \item `"tukey"` (biweight): \eqn{\rho(t) = \frac{k^2}{6}(1 - (1 - t^2/k^2)^3)}{rho(t) = (k^2/6)(1 - (1 - t^2/k^2)^3)}
#'     for \eqn{t < k}{t < k}, \eqn{k^2/6}{k^2/6} beyond;
#'   \item `"l1"`: \eqn{\rho(t) = t}{rho(t) = t}, smoothed at 0 as \eqn{t^2/(2\delta)}{t^2/(2 delta)} for
#'     \eqn{t \le \delta}{t <= delta} (\eqn{t - \delta/2}{t - delta/2} beyond), \eqn{\delta}{delta} = 1e-6 times the
#'     root mean squared residual of the start: the weight \eqn{1/t}{1/t} below is
#'     undefined at 0, where a least-absolute-deviations fit often passes
#'     exactly through points (GeodRegr drops residuals below 1e-6 instead).
#'     The fit's mean absolute residual exceeds the minimum by at most
#'     \eqn{\delta/2}{delta/2}; `energy` is the unsmoothed \eqn{\frac{1}{n}\sum_i d_i}{1/n sum_i d_i}.
#' }
#' The cutoff is \eqn{k = c\,\sigma}{k = c sigma}. With `scale = NULL` (GeodRegr's rule),
#' \eqn{\sigma}{sigma} is estimated with the fit:
#' \eqn{\hat\sigma = \mathrm{median}_i\, d(\hat y_i, y_i) / \sqrt{\chi^2_{d;\,0.5}}}{hat(sigma) = median_i d(yhat_i, y_i) / sqrt(chi^2_(d; 0.5))}
#' (the median residual distance over the median of \eqn{\chi_d}{chi_d}, its value for
#' standard Gaussian tangent errors in dimension \eqn{d}{d} = `M$dim`), and the
#' fit and \eqn{\hat\sigma}{hat(sigma)} are iterated to their joint fixed point (the
#' estimate GeodRegr's `geo_reg()` converges to). A number `scale` fixes
#' \eqn{\sigma}{sigma}: `loss = "huber", c = tau, scale = 1` is the fit with
#' residuals clipped at \eqn{\tau}{tau}, which is what [dp_geodesic_regression()]
#' estimates. The descent is iteratively reweighted: the gradient is the
#' least-squares one with residual \eqn{i}{i} weighted by
#' \eqn{\psi(t_i)/t_i}{psi(t_i)/t_i}, \eqn{\psi = \rho'}{psi = rho'}, and the Gauss-Newton operator is
#' weighted alike (weights frozen for each step, Armijo backtracking on
#' \eqn{E}{E}). Tukey's loss is not convex, and the start matters: by default
#' the Tukey fit starts from the Huber fit (at its 95% default `c`; in
#' dimension 10 and above at Tukey's `c` times 1.345/4.685). GeodRegr starts
#' from its intercept-only fit and may stop at another joint fixed point
#' (on its 44 `calvaria` shapes, `c = 6`: fitted shapes 0.088 apart, the
#' objective about 5% higher than riemdp's at either scale); pass its
#' estimate as `init` to reproduce it.
#'
#' The default `c` gives 95% asymptotic efficiency relative to least squares
#' under Gaussian tangent errors \eqn{e \sim N(0, \sigma^2 I_d)}{e ~ N(0, sigma^2 I_d)}: for a radial
#' \eqn{\psi}{psi} the M-estimator's asymptotic covariance is
#' \eqn{A^{-1}BA^{-1}}{A^(-1)BA^(-1)} (Huber & Ronchetti 2009) with
#' \eqn{A = E[\psi'(r)/d + (d-1)\psi(r)/(d r)] I_d}{A = E[psi'(r)/d + (d-1)psi(r)/(d r)] I_d},
#' \eqn{B = E[\psi(r)^2]/d\, I_d}{B = E[psi(r)^2]/d I_d}, \eqn{r = |e|/\sigma \sim \chi_d}{r = |e|/sigma ~ chi_d}, so
#' the efficiency is \eqn{d\,a^2 / E[\psi(r)^2]}{d a^2 / E[psi(r)^2]}; it is computed in closed
#' form (truncated \eqn{\chi_d}{chi_d} moments) and solved for `c` with
#' [uniroot()]. In dimension 1 this gives the classical 1.345 (Huber) and
#' 4.685 (Tukey); in dimension 2, 1.501 and 5.123. The efficiency depends on
#' \eqn{d}{d}: in dimension 10 and above even the L1 loss is more than 95%
#' efficient (its efficiency is
#' \eqn{\Gamma((d+1)/2)^2 / (\Gamma(d/2)\Gamma(d/2+1))}{Gamma((d+1)/2)^2 / (Gamma(d/2)Gamma(d/2+1))}), no Huber `c` gives
#' 95%, and `c` must be given.
#'
#' Fletcher's \eqn{R^2 = 1 - \sum_i d(\hat y_i, y_i)^2 / \sum_i d(\bar y, y_i)^2}{R^2 = 1 - sum_i d(yhat_i, y_i)^2 / sum_i d(ybar, y_i)^2},
#' \eqn{\bar y}{ybar} the Fréchet mean, is part of the result. On positively curved
#' spaces the fit is unique only when the data and the fitted geodesic stay
#' well inside the injectivity radius.
#'
#' @inheritParams geometry
#' @param x The covariate: a numeric vector with one value per point of `Y`,
#'   or a numeric matrix (or data frame) with one row per point and one
#'   column per covariate. Each column must vary, and the columns must not be
#'   collinear (together with the intercept).
#' @param Y The responses: at least two points in the manifold's layout (rows
#'   of a matrix; a `k x k x n` array on spd; a `k x 2 x n` array of
#'   configurations on kendall).
#' @param init Optional start: a list with `footpoint` (a point) and
#'   `shooting` (the shooting vector(s) at the footpoint, in the layout of
#'   [coef()]'s `shooting`). By default the tangent least-squares line.
#' @param max_iter Maximum number of descent steps.
#' @param tol Tolerance on the norm of the gradient
#'   \eqn{(\|\nabla_p E\|^2 + \sum_j \|\nabla_{v_j} E\|^2)^{1/2}}{(||grad_p E||^2 + sum_j ||grad_(v_j) E||^2)^(1/2)}, with the
#'   covariates rescaled by powers of 2 to unit size (an exact
#'   reparametrisation, so that the stopping rule does not depend on the
#'   covariates' units).
#' @param loss The loss \eqn{\rho}{rho} of the residual distances: `"l2"` (least
#'   squares, the default), `"huber"`, `"tukey"` or `"l1"` (see Details).
#' @param c The tuning constant of `"huber"` and `"tukey"`, in units of the
#'   scale: a number > 0, or `NULL` for 95% asymptotic efficiency under
#'   Gaussian tangent errors in dimension `M$dim` (see Details).
#' @param scale The scale \eqn{\sigma}{sigma} of `"huber"` and `"tukey"` (the cutoff
#'   is `c * scale`, in distance units): `NULL` to estimate it with the fit
#'   as GeodRegr does, or a number > 0.
#' @return An object of class `c("riemdp_geodesic_regression", "riemdp_fit")`:
#'   a list with `manifold`, `footpoint` (a point), `shooting` (one tangent
#'   vector at the footpoint in the manifold's layout; with `m > 1`
#'   covariates an `m x D` matrix with one vector per row on the vector
#'   manifolds, a `k x k x m` or `k x 2 x m` array on spd and kendall),
#'   `x` (the covariates as an `n x m` matrix), `data` (`Y` as given),
#'   `fitted.values`, `residuals` (the tangent vectors
#'   \eqn{Log_{\hat y_i}(y_i)}{Log_(yhat_i)(y_i)} at the fitted points), `residual_norms`
#'   (the geodesic distances \eqn{d(\hat y_i, y_i)}{d(yhat_i, y_i)}), `energy`,
#'   `loss`, `c`, `scale`, `cutoff` and `scale_estimated` (the last four
#'   `NULL` for `"l2"` and `"l1"`),
#'   `frechet_mean`, `frechet_energy` (\eqn{\frac{1}{2n}\sum_i d(\bar y, y_i)^2}{1/(2n) sum_i d(ybar, y_i)^2}),
#'   `r_squared` (`NA` when the responses coincide), `n`, `m`, `iterations`, `grad_norm`, `converged` and
#'   `call`. Methods: `print()`, `summary()`, `coef()` (a list with
#'   `footpoint` and `shooting`), `fitted()`, `residuals()`, `predict()` and
#'   `plot()`. On kendall, points are returned as preshapes (centred, unit
#'   size) and fitted shapes along the geodesic are aligned with each other.
#' @references Fletcher, P. T. (2011). Geodesic regression on Riemannian
#'   manifolds. In *Proceedings of the Third International Workshop on
#'   Mathematical Foundations of Computational Anatomy*, 75-86.
#'
#'   Shin, H.-Y. and Oh, H.-S. (2022). Robust geodesic regression.
#'   *International Journal of Computer Vision*, 130, 478-503.
#'
#'   Huber, P. J. and Ronchetti, E. M. (2009). *Robust Statistics*, 2nd ed.
#'   Wiley.
#'
#'   Kim, H. J., Adluru, N., Collins, M. D., Chung, M. K., Bendlin, B. B.,
#'   Johnson, S. C., Davidson, R. J. and Singh, V. (2014). Multivariate
#'   general linear models (MGLM) on Riemannian manifolds with applications
#'   to statistical analysis of diffusion weighted images. *CVPR*, 2705-2712.
#' @seealso [frechet_mean()], [predict.riemdp_geodesic_regression()],
#'   [plot.riemdp_geodesic_regression()].
#' @examples
#' # Earthquake location against depth on the sphere
#' S2 <- manifold_sphere(2)
#' depth <- datasets::quakes$depth / 1000   # in 1000 km
#' fit <- geodesic_regression(S2, depth, fiji_quakes)
#' fit
#' summary(fit)
#' predict(fit, c(0.1, 0.4))
#'
#' # On euclidean space it is lm()
#' E2 <- manifold_euclidean(2)
#' Y <- cbind(a = cars$dist, b = cars$dist / 2 + rnorm(50))
#' fit_e <- geodesic_regression(E2, cars$speed, Y)
#' coef(fit_e)
#' coef(lm(Y ~ cars$speed))
#'
#' # Covariance matrices against time
#' P3 <- manifold_spd(3)
#' time <- seq(0, 1, length.out = dim(eustock_cov)[3])
#' fit_s <- geodesic_regression(P3, time, eustock_cov)
#' fit_s$r_squared
#'
#' # Robust fits: a few gross outliers
#' Yo <- fiji_quakes
#' Yo[1:20, ] <- rep(c(0, 0, 1), each = 20)
#' geodesic_regression(S2, depth, Yo, loss = "huber")
#' coef(geodesic_regression(S2, depth, Yo, loss = "tukey"))$footpoint
#' coef(geodesic_regression(S2, depth, fiji_quakes))$footpoint
#' @export
geodesic_regression <- function(M, x, Y, init = NULL, max_iter = 1000L, tol = 1e-10,
                                loss = c("l2", "huber", "tukey", "l1"), c = NULL, scale = NULL) {
  call <- sys.call()
  check_manifold(M, call)
  loss <- arg_match(loss, c("l2", "huber", "tukey", "l1"), "loss", call)
  robust <- regression_loss_args(loss, c, scale, M$dim, call)
  S <- as_points(M, Y, "Y", call)
  if (S$n < 2L) abort("`Y` must hold at least 2 points", call)
  # a vector covariate is named after the argument as passed, as lm() names
  # its variables (e.g. `depth`, `quakes$depth`; `x` for a long expression)
  x_name <- covariate_label(substitute(x), is.null(dim(x)))
  X <- regression_covariates(x, S$n, call, name = x_name)
  max_iter <- check_count(max_iter, "max_iter", 0, call)
  tol <- check_positive(tol, "tol", call)
  start <- if (is.null(init)) list(p = NULL, V = NULL) else regression_start(M, init, ncol(X), call)
  if (!is.null(init)) {
    # The start's fitted points must exist: an error here is init's, not Y's.
    W <- list(x = as.double(start$V %*% t(X)), n = S$n, by_row = FALSE)
    core_call(geom_exp(M, start$P, W, is.null(M$point_shape)), call, "`init`")
  }
  # The core fits the covariates rescaled by powers of 2 (exact; v_j scales
  # inversely): its least-squares start and stopping rule are not invariant
  # to the covariates' units (a spread of 1e-16 gave v = 0 at iteration 0).
  k <- covariate_exponents(X)
  if (!is.null(start$V)) start$V <- times_pow2(start$V, rep(-k, each = nrow(start$V)))
  Xs <- times_pow2(X, rep(k, each = nrow(X)))
  if (loss == "tukey" && is.null(init)) {
    # Tukey's loss is not convex: start from the Huber fit (95% efficiency).
    h <- regression_loss_args("huber", huber_start_constant(robust$c, M$dim), scale, M$dim, call)
    r0 <- core_call(stat_geodesic_regression(M, S, Xs, initial_mean(M, S), NULL, NULL, max_iter, tol,
                                             "huber", h$c_core, h$xi), call, "`Y`")
    start <- list(p = r0$footpoint, V = r0$shooting)
  }
  r <- core_call(stat_geodesic_regression(M, S, Xs, initial_mean(M, S),
                                          start$p, start$V, max_iter, tol, loss, robust$c_core, robust$xi),
                 call, "`Y`")
  r$shooting <- times_pow2(r$shooting, rep(k, each = nrow(r$shooting)))
  if (!is.finite(r$energy) || !is.finite(r$frechet_energy) || !all(is.finite(r$residual_norms)))
    abort("`Y`: the squared geodesic distances of the fit overflow double precision; rescale the data", call)
  if (!r$frechet_converged)
    warning("the Fr\u00e9chet mean behind R^2 did not converge in 1000 iterations; R^2 is approximate", call. = FALSE)
  if (ncol(X) == 1L && M$type != "euclidean") {
    offset <- abs(mean(X)) * sqrt(sum(geom_inner(M, list(x = r$footpoint, n = 1L, by_row = TRUE),
                                                 list(x = as.double(r$shooting), n = 1L, by_row = TRUE),
                                                 list(x = as.double(r$shooting), n = 1L, by_row = TRUE))))
    if (offset > 1e6)
      warning(sprintf(paste("the footpoint (x = 0) lies %s along the fitted geodesic from the data's mean covariate:",
                            "it and predict() carry rounding errors of about %s; centre `x`"),
                      format(offset, digits = 3), format(offset * .Machine$double.eps, digits = 2)), call. = FALSE)
  }
  if (!r$scale_converged)
    warning("the scale of the residuals and the fit did not settle in 100 refits; the cutoff is approximate",
            call. = FALSE)
  if (!r$converged) {
    if (r$iterations >= max_iter)
      warning(sprintf("geodesic_regression() did not converge in %d iterations (gradient norm %s); increase `max_iter` or `tol`%s",
                      max_iter, format(r$grad_norm, digits = 3),
                      if (ncol(X) > 1L) ", or centre the covariates (the descent is slow when they are far from 0)" else ""),
              call. = FALSE)
    else
      warning(sprintf(paste("geodesic_regression() stopped after %d iterations without converging: no step reduces the",
                            "energy any more at gradient norm %s (rounding: data far from the origin or ill-conditioned);",
                            "increase `tol` to accept this fit"),
                      r$iterations, format(r$grad_norm, digits = 3)), call. = FALSE)
  }
  n <- S$n
  energy_l2 <- if (loss == "l2") r$energy else sum(r$residual_norms^2) / (2 * n)
  fit <- list(manifold = M,
              footpoint = from_values(M, r$footpoint, 1L, TRUE, Y),
              shooting = shooting_layout(M, r$shooting, colnames(X), Y),
              x = X, data = Y,
              fitted.values = columns_layout(M, r$fitted, n, Y),
              residuals = columns_layout(M, r$residuals, n, Y),
              residual_norms = r$residual_norms,
              energy = r$energy,
              loss = loss, c = robust$c,
              scale = if (loss %in% c("huber", "tukey")) (if (is.null(scale)) r$scale else robust$scale) else NULL,
              cutoff = if (loss %in% c("huber", "tukey")) r$cutoff else NULL,
              scale_estimated = loss %in% c("huber", "tukey") && is.null(scale),
              frechet_mean = from_values(M, r$frechet_mean, 1L, TRUE, Y),
              frechet_energy = r$frechet_energy,
              r_squared = fletcher_r_squared(energy_l2, r$frechet_energy),
              n = n, m = ncol(X),
              iterations = r$iterations, grad_norm = r$grad_norm, converged = r$converged,
              call = call)
  structure(fit, class = c("riemdp_geodesic_regression", "riemdp_fit"))
}

# The loss arguments, checked: c the tuning constant (in units of the scale),
# c_core and xi as stat_geodesic_regression() takes them (xi > 0: the core
# estimates the scale as median residual distance / xi; xi = 0: c_core is
# the cutoff itself).
regression_loss_args <- function(loss, c, scale, d, call) {
  if (loss %in% c("l2", "l1")) {
    if (!is.null(c)) abort(sprintf("`c` is used by the \"huber\" and \"tukey\" losses only, not by \"%s\"", loss), call)
    if (!is.null(scale))
      abort(sprintf("`scale` is used by the \"huber\" and \"tukey\" losses only, not by \"%s\"", loss), call)
    return(list(c = NULL, c_core = if (loss == "l1") 1 else Inf, xi = 0, scale = NULL))
  }
  c <- if (is.null(c)) robust_tuning_constant(loss, d, call = call) else check_positive(c, "c", call)
  if (is.null(scale)) return(list(c = c, c_core = c, xi = sqrt(stats::qchisq(0.5, d)), scale = NULL))
  scale <- check_positive(scale, "scale", call)
  if (!is.finite(c * scale)) abort("`c` times `scale` must be finite", call)
  list(c = c, c_core = c * scale, xi = 0, scale = scale)
}

# The Huber constant of a Tukey fit's start: the 95% default where it exists
# (dimension < 10), else Tukey's c scaled by the ratio of the dimension-1
# defaults, 1.345 / 4.685.
huber_start_constant <- function(c_tukey, d) {
  tryCatch(robust_tuning_constant("huber", d), riemdp_error = function(e) c_tukey * 1.345 / 4.685)
}

# Asymptotic relative efficiency (to least squares) of the M-estimator of a
# location in R^d with radial psi, psi(e) = psi(|e|) e/|e|, under standard
# Gaussian errors e ~ N(0, I_d) (r = |e| ~ chi_d): with A = E[Dpsi(e)] =
# a I_d, a = E[psi'(r)/d + (d - 1)/d psi(r)/r], and B = E[psi psi^T] =
# E[psi(r)^2]/d I_d, the asymptotic covariance is A^-1 B A^-1 (Huber &
# Ronchetti 2009, Sec. 6.2 and 8.2), so ARE = d a^2 / E[psi(r)^2] (1 for
# least squares). Shin & Oh (2022) use the same criterion for the tangent
# errors of geodesic regression (d the manifold's dimension). The
# expectations in closed form with the truncated moments of chi_d,
# m_k = E[r^(2k); r < c] = d (d + 2) ... (d + 2k - 2) P(chi^2_(d+2k) < c^2),
# and E[1/r; r > c] = Gamma((d-1)/2) / (sqrt(2) Gamma(d/2)) P(chi^2_(d-1) > c^2).
robust_efficiency <- function(loss, c, d) {
  m <- function(k) prod(d + 2 * seq_len(k) - 2) * stats::pchisq(c^2, d + 2 * k)
  if (loss == "huber") {
    # psi = min(r, c): a = P(r < c) + (d - 1)/d c E[1/r; r > c]
    tail_inv <- if (d > 1) exp(lgamma((d - 1) / 2) - lgamma(d / 2)) / sqrt(2) *
      stats::pchisq(c^2, d - 1, lower.tail = FALSE) else 0
    a <- m(0) + (d - 1) / d * c * tail_inv
    b <- m(1) + c^2 * stats::pchisq(c^2, d, lower.tail = FALSE)
  } else if (loss == "tukey") {
    # psi = r (1 - u)^2, u = r^2/c^2, r < c: psi'/d + (d-1)/d psi/r =
    # 1 - (2 + 4/d) u + (1 + 4/d) u^2, psi^2 = r^2 (1 - u)^4
    a <- m(0) - (2 + 4 / d) * m(1) / c^2 + (1 + 4 / d) * m(2) / c^4
    b <- m(1) - 4 * m(2) / c^2 + 6 * m(3) / c^4 - 4 * m(4) / c^6 + m(5) / c^8
  } else {
    stop("robust_efficiency: huber or tukey")
  }
  d * a^2 / b
}

# The tuning constant c of a loss with the given asymptotic efficiency in
# dimension d (robust_efficiency(); uniroot). d = 1 gives the classical
# 1.345 (Huber) and 4.685 (Tukey).
robust_tuning_constant <- function(loss, d, efficiency = 0.95, call = NULL) {
  f <- function(c) robust_efficiency(loss, c, d) - efficiency
  lo <- if (loss == "tukey") 1 else 1e-3  # Tukey's efficiency falls to 0 as c -> 0
  if (f(lo) >= 0)
    abort(sprintf(paste("`c`: in dimension %d the %s loss is more than %g%% efficient for every c",
                        "(the L1 loss already is); give `c`"), d, loss, 100 * efficiency), call)
  hi <- sqrt(d) + 10
  while (f(hi) < 0) hi <- 2 * hi
  stats::uniroot(f, c(lo, hi), tol = 1e-12)$root
}

# Fletcher's R^2 = 1 - E / E_F; NA when the responses coincide to rounding
# (root mean squared distance to their mean below 1e-10: E_F is then noise).
fletcher_r_squared <- function(energy, frechet_energy) {
  if (!(sqrt(2 * frechet_energy) > 1e-10)) return(NA_real_)
  1 - energy / frechet_energy
}

# The name of a covariate argument: the expression as passed when it is a
# name, or (for a vector) a short call; else "x".
covariate_label <- function(expr, vector) {
  text <- if (is.name(expr) || (vector && is.call(expr))) paste(deparse(expr, width.cutoff = 500L), collapse = " ") else ""
  if (nzchar(text) && nchar(text) <= 20L) text else "x"
}

# The covariates as an n x m double matrix with column names, checked.
regression_covariates <- function(x, n, call, arg = "x", name = arg) {
  if (is.data.frame(x)) {
    if (!all(vapply(x, is.numeric, logical(1))))
      abort(sprintf("`%s` must be numeric: a data frame of covariates must have numeric columns only", arg), call)
    x <- as.matrix(x)
  }
  if (!is.numeric(x) || (!is.null(dim(x)) && length(dim(x)) != 2L))
    abort(sprintf("`%s` must be a numeric vector or a numeric matrix with one row per point", arg), call)
  check_finite_numeric(x, arg, call)
  X <- if (is.null(dim(x))) matrix(as.double(x), ncol = 1L, dimnames = list(NULL, name)) else x
  storage.mode(X) <- "double"
  if (nrow(X) != n)
    abort(sprintf("`%s` must hold one covariate value per point: it has %d %s but `Y` holds %d points",
                  arg, nrow(X), if (is.null(dim(x))) "values" else "rows", n), call)
  m <- ncol(X)
  if (m < 1L) abort(sprintf("`%s` must hold at least one covariate", arg), call)
  if (is.null(colnames(X))) colnames(X) <- if (m == 1L) name else paste0(name, seq_len(m))
  rownames(X) <- NULL
  constant <- which(apply(X, 2L, function(col) all(col == col[1L])))
  if (length(constant))
    abort(sprintf("`%s` must vary: %s constant, so the shooting vector is not identified",
                  arg, if (m == 1L) "it is" else sprintf("column %d is", constant[1L])), call)
  # (on the covariates rescaled to unit size: scale() overflows or underflows
  # on covariates near 1e300 or 1e-200)
  if (m > 1L && qr(cbind(1, scale(times_pow2(X, rep(covariate_exponents(X), each = n)))))$rank < m + 1L)
    abort(sprintf("`%s`: the covariates are collinear (with the intercept); drop or combine columns", arg), call)
  X
}

# Exponents k_j such that the covariate columns x_j 2^k_j have unit size:
# half-range in [1/2, 1) for one covariate (the core centres it), largest
# |x_ij| in [1/2, 1) for several (the model is not shift invariant).
covariate_exponents <- function(X) {
  size <- if (ncol(X) == 1L) max(X) / 2 - min(X) / 2 else apply(abs(X), 2L, max)
  -(floor(log2(size)) + 1)
}

# x 2^k, exactly (two factors: 2^k alone overflows for |k| > 1023).
times_pow2 <- function(x, k) {
  h <- trunc(k / 2)
  x * 2^h * 2^(k - h)
}

# A user's start list(footpoint, shooting) as the core's p (a vector) and V
# (D x m).
regression_start <- function(M, init, m, call) {
  if (!is.list(init) || !all(c("footpoint", "shooting") %in% names(init)))
    abort("`init` must be NULL or a list with elements `footpoint` and `shooting`", call)
  P <- as_points(M, init$footpoint, "init$footpoint", call)
  if (P$n != 1L) abort("`init$footpoint` must be a single point", call)
  V <- as_tangents(M, P, init$shooting, "init$shooting", call)
  if (V$n != m)
    abort(sprintf("`init$shooting` must hold %d tangent vector%s (one per covariate); got %d",
                  m, if (m == 1L) "" else "s", V$n), call)
  list(p = P$x, V = set_columns(M, V), P = P)
}

# The points of a set as the columns of a D x n matrix.
set_columns <- function(M, S) {
  if (S$by_row) t(matrix(S$x, S$n, M$ambient)) else matrix(S$x, M$ambient, S$n)
}

# n points stored one per column (D x n) in the manifold's layout.
columns_layout <- function(M, values, n, like = NULL) {
  if (is.null(M$point_shape)) return(from_values(M, as.double(t(matrix(values, M$ambient, n))), n, FALSE, like))
  from_values(M, as.double(values), n, FALSE, like)
}

# The shooting vectors (D x m) in the layout of coef(): one tangent vector,
# or m of them named after the covariates.
shooting_layout <- function(M, V, names, like = NULL) {
  m <- ncol(V)
  if (m == 1L) return(from_values(M, as.double(V), 1L, TRUE, like))
  out <- columns_layout(M, V, m, like)
  if (is.null(M$point_shape)) {
    rownames(out) <- names
  } else {
    dn <- dimnames(out)
    if (is.null(dn)) dn <- list(NULL, NULL, NULL)
    dn[[3L]] <- names
    dimnames(out) <- dn
  }
  out
}

# E(p, V) (Huber-type with residuals clipped to norm tau; least squares when
# tau = Inf; or another loss of cutoff tau, l1's smoothing radius) and its Riemannian gradients in the layouts of footpoint and
# shooting (tests; see stat_regression_energy).
regression_energy <- function(M, footpoint, shooting, x, Y, tau = Inf, loss = "huber") {
  S <- as_points(M, Y, "Y")
  X <- regression_covariates(x, S$n, NULL)
  st <- regression_start(M, list(footpoint = footpoint, shooting = shooting), ncol(X), NULL)
  use_threads()
  r <- stat_regression_energy(M, S, X, st$p, st$V, tau, loss)
  list(energy = r$energy, grad_footpoint = from_values(M, r$grad_p, 1L, TRUE, Y),
       grad_shooting = shooting_layout(M, r$grad_V, colnames(X), Y))
}

#' Methods for geodesic regression fits
#'
#' `coef()` returns the footpoint and the shooting vector(s); `fitted()` the
#' fitted points \eqn{\hat y_i = Exp_p(\sum_j x_{ij} v_j)}{yhat_i = Exp_p(sum_j x_ij v_j)}; `residuals()` the
#' tangent residuals \eqn{Log_{\hat y_i}(y_i)}{Log_(yhat_i)(y_i)} at the fitted points
#' (`type = "tangent"`, in the manifold's layout) or their norms, the
#' geodesic distances \eqn{d(\hat y_i, y_i)}{d(yhat_i, y_i)} (`type = "distance"`);
#' `predict()` the points of the fitted geodesic at new covariate values;
#' `summary()` Fletcher's \eqn{R^2}{R^2}, the quantiles of the residual distances
#' and the convergence of the fit.
#'
#' @param object,x A fit from [geodesic_regression()].
#' @param newx New covariate values: a vector (one covariate) or a matrix
#'   (or data frame) with one column per covariate; with several covariates,
#'   columns (or the elements of a vector of one value per covariate) named
#'   after the covariates are matched to them by name, columns with other
#'   names or none are taken in order. `NULL` gives the fitted values.
#' @param newdata The same as `newx`, under the name [stats::predict.lm()]
#'   uses: a data frame with columns named after the covariates (as in
#'   `colnames(fit$x)`; other columns are ignored) or with one column per
#'   covariate (taken in order), or a vector or matrix as for `newx`. Give
#'   `newx` or `newdata`, not both.
#' @param type `"tangent"` or `"distance"`.
#' @param digits Significant digits to print.
#' @param ... Not used. `predict()` refuses any other argument with an error
#'   (a misspelt `newdata` is not silently ignored), and `interval`, `level`
#'   and `se.fit` too: the fit holds no standard errors.
#' @return `coef()`: a list with `footpoint` and `shooting`. `fitted()`,
#'   `predict()`: points in the manifold's layout. `residuals()`: tangent
#'   vectors in the manifold's layout, or a numeric vector.
#' @examples
#' S2 <- manifold_sphere(2)
#' fit <- geodesic_regression(S2, datasets::quakes$depth / 1000, fiji_quakes)
#' coef(fit)
#' head(fitted(fit))
#' summary(residuals(fit, type = "distance"))
#' predict(fit, seq(0, 0.7, by = 0.1))
#' @name geodesic_regression_methods
NULL

#' @rdname geodesic_regression_methods
#' @export
coef.riemdp_geodesic_regression <- function(object, ...) {
  list(footpoint = object$footpoint, shooting = object$shooting)
}

#' @rdname geodesic_regression_methods
#' @export
fitted.riemdp_geodesic_regression <- function(object, ...) object$fitted.values

#' @rdname geodesic_regression_methods
#' @export
residuals.riemdp_geodesic_regression <- function(object, type = c("tangent", "distance"), ...) {
  type <- arg_match(type, c("tangent", "distance"), "type", sys.call())
  if (type == "tangent") object$residuals else object$residual_norms
}

#' @rdname geodesic_regression_methods
#' @export
predict.riemdp_geodesic_regression <- function(object, newx = NULL, newdata = NULL, ...) {
  call <- sys.call()
  new <- predict_new_values(newdata, newx, list(...), call)
  if (is.null(new$value)) return(object$fitted.values)
  arg <- new$arg
  newx <- regression_newdata_matrix(new$value, colnames(object$x), arg, call)
  M <- object$manifold
  X <- if (is.null(dim(newx)) && object$m > 1L && length(newx) == object$m)
    matrix(newx, 1L, dimnames = list(NULL, names(newx))) else newx
  if (is.data.frame(X)) X <- as.matrix(X)
  X <- match_covariate_names(X, colnames(object$x), call, arg)
  if (!is.numeric(X)) abort(sprintf("`%s` must be numeric", arg), call)
  check_finite_numeric(X, arg, call)
  if (is.null(dim(X))) X <- matrix(X, ncol = 1L)
  if (length(dim(X)) != 2L || ncol(X) != object$m)
    abort(sprintf("`%s` must have %d column%s (one per covariate)", arg, object$m, if (object$m == 1L) "" else "s"), call)
  if (nrow(X) < 1L) abort(sprintf("`%s` must hold at least one value", arg), call)
  storage.mode(X) <- "double"
  P <- as_points(M, object$footpoint, "footpoint", call)
  V <- set_columns(M, as_set(M, object$shooting, "shooting", call))
  W <- list(x = as.double(V %*% t(X)), n = nrow(X), by_row = FALSE)
  by_row <- is.null(M$point_shape)
  out <- core_call(geom_exp(M, P, W, by_row), call, sprintf("`%s`", arg))
  from_values(M, out, nrow(X), FALSE, object$footpoint)
}

# With several covariates, columns of newx named after the fit's covariates
# are matched to them by name (as predict.lm does); columns with other names
# or none are taken in order; a mixture is an error.
match_covariate_names <- function(X, covariates, call, arg = "newx") {
  given <- colnames(X)
  if (length(covariates) < 2L || !any(given %in% covariates) || identical(given, covariates)) return(X)
  if (length(given) != length(covariates) || anyDuplicated(given) || !setequal(given, covariates))
    abort(sprintf("`%s` has columns %s, but the covariates of the fit are %s; name the columns so, or unname them to use them in order",
                  arg, paste0("\"", given, "\"", collapse = ", "), paste0("\"", covariates, "\"", collapse = ", ")), call)
  X[, match(covariates, given), drop = FALSE]
}

#' @rdname geodesic_regression_methods
#' @export
print.riemdp_geodesic_regression <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat(sprintf("Geodesic regression on %s: n = %d points, %d covariate%s\n", manifold_label(x$manifold),
              x$n, x$m, if (x$m == 1L) "" else "s"))
  cat(sprintf("%s after %d iteration%s (gradient norm %s); R^2 = %s\n",
              if (x$converged) "Converged" else "Did NOT converge", x$iterations,
              if (x$iterations == 1L) "" else "s", format(x$grad_norm, digits = 3),
              format(x$r_squared, digits = digits)))
  if (!is.null(x$loss) && x$loss != "l2") cat(regression_loss_label(x, digits), "\n", sep = "")
  cat("Footpoint (the fit at x = 0):\n")
  print(x$footpoint, digits = digits)
  cat(if (x$m == 1L) "Shooting vector:\n" else "Shooting vectors:\n")
  print(x$shooting, digits = digits)
  invisible(x)
}

#' @rdname geodesic_regression_methods
#' @export
summary.riemdp_geodesic_regression <- function(object, ...) {
  V <- as_set(object$manifold, object$shooting, "shooting")
  P <- as_points(object$manifold, object$footpoint, "footpoint")
  speeds <- geom_norm_at(object$manifold, P, V)
  names(speeds) <- colnames(object$x)
  structure(list(manifold = object$manifold, n = object$n, m = object$m, call = object$call,
                 energy = object$energy, frechet_energy = object$frechet_energy,
                 loss = if (is.null(object$loss)) "l2" else object$loss,
                 loss_label = if (is.null(object$loss) || object$loss == "l2") NULL else regression_loss_label(object, 4L),
                 r_squared = object$r_squared, dist_quantiles = stats::quantile(object$residual_norms),
                 speeds = speeds, x_range = apply(object$x, 2L, range),
                 iterations = object$iterations, converged = object$converged, grad_norm = object$grad_norm,
                 footpoint = object$footpoint, shooting = object$shooting),
            class = "summary.riemdp_geodesic_regression")
}

# One line naming a robust fit's loss, tuning constant, scale and cutoff.
regression_loss_label <- function(x, digits) {
  f <- function(v) format(v, digits = digits)
  switch(x$loss,
         l1 = "Loss: l1 (least absolute distances)",
         sprintf("Loss: %s with c = %s x scale %s (%s) = cutoff %s", x$loss, f(x$c), f(x$scale),
                 if (isTRUE(x$scale_estimated)) "median residual distance / median of chi_d" else "given",
                 f(x$cutoff)))
}

# |v_j| at the footpoint.
geom_norm_at <- function(M, P, V) sqrt(pmax(0, geom_inner(M, P, V, V)))

#' @rdname geodesic_regression_methods
#' @export
print.summary.riemdp_geodesic_regression <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("Call:\n")
  print(x$call)
  cat(sprintf("\nManifold: %s\n", manifold_description(x$manifold)))
  cat(sprintf("Points: %d; covariates: %s\n", x$n, paste(names(x$speeds), collapse = ", ")))
  if (x$loss == "l2") {
    cat(sprintf("Energy E = (1/2n) sum d(fitted, y)^2: %s (Fr\u00e9chet mean: %s)\n",
                format(x$energy, digits = digits), format(x$frechet_energy, digits = digits)))
  } else {
    cat(x$loss_label, "\n", sep = "")
    cat(sprintf("Energy E = (1/n) sum rho(d(fitted, y)): %s\n", format(x$energy, digits = digits)))
  }
  cat(sprintf("R^2 (Fletcher): %s\n", format(x$r_squared, digits = digits)))
  cat("Quantiles of the residual geodesic distances:\n")
  print(x$dist_quantiles, digits = digits)
  cat("Speed |v| of the fitted geodesic per unit of each covariate (covariate range):\n")
  for (j in seq_along(x$speeds))
    cat(sprintf("  %s: %s  [%s, %s]\n", names(x$speeds)[j], format(x$speeds[j], digits = digits),
                format(x$x_range[1L, j], digits = digits), format(x$x_range[2L, j], digits = digits)))
  cat(sprintf("Gradient descent: %s, %d iterations, final gradient norm %s\n",
              if (x$converged) "converged" else "not converged", x$iterations, format(x$grad_norm, digits = 3)))
  cat("Footpoint (x = 0):\n")
  print(x$footpoint, digits = digits)
  invisible(x)
}
