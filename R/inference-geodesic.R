# Tests for a private geodesic regression (dp_geodesic_regression()): the
# private moments of its data, and the test of no effect of the covariate by
# the parametric bootstrap under the null (Ferrando, Wang & Sheldon 2022).

# dp_regression_moments() of a geodesic release: the mapped covariate's mean
# and second moment about 1/2 (4 (u - 1/2)^2, in [0, 1]), and the mean geodesic distance of the points from the
# released geodesic, clipped at c; k = 3 averages in [0, 1], one Laplace
# mechanism of scale 3 / (n epsilon).
geodesic_moments <- function(object, x, Y, epsilon, residual_bound, call) {
  M <- object$manifold
  S <- release_points(M, Y, call, "Y")
  n <- S$n
  if (n != object$n)
    abort(sprintf("`Y` must be the data of the release: it holds %d points, the release %d", n, object$n), call)
  u <- map_to_unit(x, object$x_range, n, "x", call)
  k <- 3L
  scale <- k / (n * epsilon)
  if (!is.finite(scale)) abort(sprintf("`epsilon` = %s is too small: the noise scale overflows double precision", format(epsilon)), call)
  fp <- as.double(as_points(M, object$footpoint_range, "footpoint", call)$x)
  sv <- as.double(as_tangents(M, as_points(M, object$footpoint_range, "footpoint", call), object$shooting_range, "shooting", call)$x)
  # The data enter only here: the averages, then the noise.
  G <- acc_exp(M, fp, matrix(sv, ncol = 1L) %*% t(u))
  d <- pmin(as.vector(geom_dist(M, acc_set(G), S)), residual_bound) / residual_bound
  avg <- c(mean(u), mean(4 * (u - 1 / 2)^2), mean(d))
  raw <- avg + scale * (stats::rexp(k) - stats::rexp(k))
  rm(S, u, G, d, avg)
  mom <- geodesic_moments_from_raw(raw, object$x_range, residual_bound, M$dim)
  structure(list(x_mean = mom$x_mean, x_sd = mom$x_sd, residual_rms = mom$rms, raw = raw, scale = scale,
                 residual_bound = residual_bound, x_range = object$x_range, manifold = M,
                 about = list(footpoint = object$footpoint_range, shooting = object$shooting_range),
                 guarantee = "epsilon-DP", guarantee_kind = "exact", epsilon = epsilon, sensitivity = k / n,
                 n = n, call = call),
            class = c("riemdp_geodesic_moments_release", "riemdp_moments_release", "riemdp_release"))
}

# Post-processing of the noisy averages: the covariate's mean and sd on the
# mapped scale and in its units (variance at most mean (1 - mean)), and the
# root mean square rms of the isotropic Gaussian tangent residual whose mean
# norm is the clipped mean distance: E|z| = rms sqrt(2 / d) Gamma((d+1)/2) / Gamma(d/2).
geodesic_moments_from_raw <- function(raw, x_range, residual_bound, d) {
  mu <- min(max(raw[1L], 0), 1)
  v <- min(max(min(max(raw[2L], 0), 1) / 4 - (mu - 1 / 2)^2, 0), mu * (1 - mu))
  w <- x_range[2] - x_range[1]
  mean_d <- min(max(raw[3L], 0), 1) * residual_bound
  chi_mean <- sqrt(2 / d) * exp(lgamma((d + 1) / 2) - lgamma(d / 2))
  list(mu = mu, s = sqrt(v), x_mean = x_range[1] + w * mu, x_sd = w * sqrt(v), rms = mean_d / chi_mean)
}

#' @export
print.riemdp_geodesic_moments_release <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat(sprintf("<riemdp release> private moments of a geodesic regression's data on %s (n = %d)\n",
              manifold_label(x$manifold), x$n))
  cat(strwrap(sprintf("Guarantee: %s-DP (pure epsilon-DP): the Laplace mechanism with scale %s = 3/(n epsilon) on 3 averages of values in [0, 1] (the covariate mapped by its public range, 4 (u - 1/2)^2, and the points' distances from the released geodesic clipped at %s). %s Guarantee kind: exact.",
                      format_guarantee(x$epsilon, 4), format(x$scale, digits = 4), format(x$residual_bound, digits = 4),
                      implied_mu_sentence(x$epsilon)), exdent = 2), sep = "\n")
  cat(sprintf("Private covariate mean %s, standard deviation %s\n", format(x$x_mean, digits = digits), format(x$x_sd, digits = digits)))
  cat(sprintf("Private residual root mean square distance from the release: %s (isotropic Gaussian in the tangent space)\n",
              format(x$residual_rms, digits = digits)))
  invisible(x)
}

#' Test of no effect for a private geodesic regression
#'
#' Does the covariate move the points? `summary(release, moments = )` of a
#' [dp_geodesic_regression()] release adds the test of \eqn{v = 0}{v = 0}
#' (the geodesic does not move over the covariate's range): a p-value from
#' the parametric bootstrap under the null (Ferrando, Wang & Sheldon 2022).
#'
#' **What the test uses.** The release, its public parameters and a model of
#' the data under the null: the points scattered isotropically (Gaussian in
#' the tangent space) around one point, with the covariate independent of
#' them. The point is the released geodesic at the covariate's mean; the
#' covariate's mean and standard deviation and the scatter's root mean
#' square come from `moments`: a [dp_regression_moments()] release on the
#' same data (`x =`, `Y =`; charged by [dp_budget()]), or a public statement
#' `list(noise = , x_mean = , x_sd = )` in the form [dp_accuracy()] takes
#' (`noise` the root mean square distance of the points from the geodesic;
#' without `x_mean` and `x_sd` the covariate is uniform on its public range).
#' Private moments are noisy at small \eqn{n \epsilon}{n epsilon}, and a
#' null law built on their values alone is too narrow whenever the scatter
#' comes out low (a size of 8% at n = 50, epsilon = 2 on the sphere): so
#' each bootstrap data set draws its own moments, the released averages plus
#' fresh Laplace noise of the same scale, as `confint()` of the release does.
#'
#' **Construction.** `B` synthetic data sets of the release's size are drawn
#' from that null model (the covariate from the Beta law with the stated
#' mean and standard deviation on its public range) and released again with
#' the same public parameters. The statistic is the released shooting
#' vector's length over the covariate's range, \eqn{|v|}{|v|} (the distance
#' the geodesic moves across `x_range`); the p-value is \eqn{(1 + \#\{b:
#' |v^*_b| \ge |v|\})/(B + 1)}{(1 + #{b: |v*_b| >= |v|}) / (B + 1)}. It is
#' post-processing: no budget is spent, and the data are not read again. The
#' bootstrap runs under a fixed `seed`, and the session's random numbers are
#' left as they were.
#'
#' **Calibration.** The test's size is measured at 5% over a matrix of
#' sample sizes and budgets: `vignette("accuracy", package = "riemdp")`,
#' with its power curve.
#'
#' @param object A release of [dp_geodesic_regression()] (`scheme =
#'   "joint"`, public bounds).
#' @param moments A [dp_regression_moments()] release on the same data, or a
#'   public `list(noise = , x_mean = , x_sd = )`; `NULL` for the summary
#'   without the test.
#' @param B The number of bootstrap releases (at least 100).
#' @param seed The seed of the bootstrap (an integer).
#' @param ... Not used.
#' @return A `summary.riemdp_regression_release`; with `moments`, its
#'   `no_effect_test` holds `statistic` (\eqn{|v|}{|v|}), `p.value`, `B` and
#'   `null_quantiles` (the 50%, 90% and 95% quantiles of \eqn{|v^*|}{|v*|}).
#' @references Ferrando, C., Wang, S. and Sheldon, D. (2022). Parametric
#'   bootstrap for differentially private confidence intervals. *AISTATS*.
#' @seealso [dp_regression_moments()], [dp_geodesic_regression()].
#' @examples
#' S2 <- manifold_sphere(2)
#' north <- c(0, 0, 1)
#' set.seed(1)
#' x <- runif(300)
#' G <- riem_geodesic(S2, north, c(0.3, 0, 0), x)   # moves 0.3 over [0, 1]
#' Y <- riem_project(S2, G + matrix(rnorm(900, sd = 0.03), 300))
#' rel <- dp_geodesic_regression(S2, x, Y, epsilon = 2, tau = 0.2, tau_m = 1,
#'                               x_range = c(0, 1), center = north, radius = 0.5)
#' mom <- dp_regression_moments(rel, x = x, Y = Y, epsilon = 0.5)
#' summary(rel, moments = mom, B = 100)
#' @name summary.riemdp_regression_release
#' @export
summary.riemdp_regression_release <- function(object, moments = NULL, B = 400L, seed = 1L, ...) {
  call <- sys.call()
  call[[1L]] <- as.name("summary")
  check_no_dots(list(...), call)
  out <- list(release = object, guarantee = regression_guarantee_sentence(object))
  check_boot_args(B, seed, call)
  if (!is.null(moments)) out$no_effect_test <- geodesic_no_effect_test(object, moments, B, seed, call)
  structure(out, class = "summary.riemdp_regression_release")
}

geodesic_no_effect_test <- function(object, moments, B, seed, call) {
  check_boot_args(B, seed, call)
  # the private moments are redrawn for each bootstrap data set, as in
  # confint(): their plug-in values gave a size of 8% at n = 50, epsilon = 2
  model <- geodesic_boot_model(object, moments, call, draw_moments = TRUE)
  M <- object$manifold
  fp <- model$footpoint
  sv <- model$shooting
  stat <- sqrt(max(0, geom_inner(M, acc_set(fp), acc_set(sv), acc_set(sv))))
  # the null model's point: the released geodesic at the covariate's mean
  p0 <- as.double(acc_exp(M, fp, matrix(sv * model$mu, ncol = 1L)))
  Bas <- geom_tangent_basis(M, acc_set(p0))
  null_v <- with_preserved_seed(seed, vapply(seq_len(B), function(b) {
    rel <- geodesic_boot_release(object, model, p0, NULL, Bas, call)
    Pb <- as_points(M, rel$footpoint_range, "footpoint", call)
    Vb <- as_tangents(M, Pb, rel$shooting_range, "shooting", call)
    sqrt(max(0, geom_inner(M, Pb, Vb, Vb)))
  }, numeric(1)))
  list(statistic = stat, p.value = (1 + sum(null_v >= stat)) / (B + 1), B = B, source = model$source,
       null_quantiles = stats::quantile(null_v, c(0.5, 0.9, 0.95), names = TRUE, type = 6), rms = model$rms)
}

# The data model of the parametric bootstrap of a geodesic release
# (Ferrando, Wang & Sheldon 2022): the covariate's mean mu and sd s on the
# mapped scale [0, 1] (a Beta law, linear_marginal()), and the residuals
# isotropic Gaussian in the tangent space with root mean square rms; from a
# dp_regression_moments() release of the same data or a public statement.
# Also the release's (p, v) at x_range[1] over the mapped covariate.
geodesic_boot_model <- function(object, moments, call, draw_moments = FALSE) {
  if (!is.null(object$bounds_stages))
    abort("inference is not available yet for a release that found its bounds privately: the bootstrap would need the law of the private bounds too; release with public bounds", call)
  if (!identical(object$scheme, "joint"))
    abort("`object` was released with scheme = \"paper\", which is not differentially private: its inference would have no meaning", call)
  if (is.null(moments))
    abort("`moments` is required: a dp_regression_moments() release on the same data (its budget is charged by dp_budget()), or a public list(noise = , x_mean = , x_sd = ) with `noise` the root mean square distance of the points from the geodesic", call)
  M <- object$manifold
  xr <- object$x_range
  if (inherits(moments, "riemdp_geodesic_moments_release")) {
    if (!identical(moments$n, object$n) || !identical(moments$x_range, xr) ||
        !identical(moments$about, list(footpoint = object$footpoint_range, shooting = object$shooting_range)))
      abort("`moments` was released on other data or for another release: it must come from dp_regression_moments(object, x = , Y = ) of this release", call)
    check_moments_fields(moments, 3L, call)
    mom <- geodesic_moments_from_raw(moments$raw, xr, moments$residual_bound, M$dim)
    model <- list(mu = mom$mu, s = mom$s, rms = mom$rms, source = "private")
    # draw_moments: each bootstrap data set draws its own moments, the
    # released averages plus fresh Laplace noise of the moments' scale, so
    # that the bootstrap carries their uncertainty
    if (draw_moments) {
      model$draw <- function() {
        raw <- moments$raw + moments$scale * (stats::rexp(3L) - stats::rexp(3L))
        mb <- geodesic_moments_from_raw(raw, xr, moments$residual_bound, M$dim)
        list(rms = min(mb$rms, geodesic_scatter_max(M)), marginal = linear_marginal(mb$mu, mb$s, FALSE))
      }
    }
  } else if (inherits(moments, "riemdp_moments_release")) {
    abort("`moments` is the moments of a linear release: for a geodesic release use dp_regression_moments(object, x = , Y = )", call)
  } else {
    if (!is.list(moments) && !(is.numeric(moments) && !is.null(names(moments))))
      abort("`moments` must be a dp_regression_moments() release or a public list(noise = , x_mean = , x_sd = )", call)
    spread <- acc_spread(as.list(moments), c("noise", "x_mean", "x_sd"), "noise", call, "moments")
    for (nm in names(spread)) if (length(spread[[nm]]) != 1L) abort(sprintf("`moments$%s` must be a single number", nm), call)
    w <- xr[2] - xr[1]
    mu <- if (is.null(spread$x_mean)) 0.5 else (spread$x_mean - xr[1]) / w
    s <- if (is.null(spread$x_sd)) sqrt(1 / 12) else spread$x_sd / w
    if (!(mu > 0 && mu < 1)) abort("`moments$x_mean` must lie strictly inside the public range `x_range` of the release", call)
    if (s^2 > mu * (1 - mu))
      abort("`moments$x_sd` must be at most sqrt((mean - lower) (upper - mean)), the largest standard deviation of a law on `x_range` with that mean", call)
    model <- list(mu = mu, s = s, rms = spread$noise, source = "public")
  }
  rms_max <- geodesic_scatter_max(M)
  if (model$rms > rms_max)
    abort(sprintf("the bootstrap model's scatter, root mean square %s, exceeds %s, the largest riemdp simulates on %s: %s",
                  format(model$rms, digits = 4), format(rms_max, digits = 4), manifold_label(M),
                  if (model$source == "public") "state a smaller `moments$noise`"
                  else "release the moments with a smaller `residual_bound` (the clip of the distances)"), call)
  P <- as_points(M, object$footpoint_range, "footpoint", call)
  model$footpoint <- as.double(P$x)
  model$shooting <- as.double(as_tangents(M, P, object$shooting_range, "shooting", call)$x)
  model$marginal <- linear_marginal(model$mu, model$s, FALSE)
  model
}

# One release on synthetic data of the release's size from the bootstrap
# model: covariates from the model's law, points on the geodesic
# x -> Exp_p(u v) (v NULL: all at p) moved by isotropic Gaussian tangent
# vectors (drawn in the basis Bas of T_p M, transported to each point),
# released with the release's public parameters.
geodesic_boot_release <- function(object, model, p, v, Bas, call) {
  M <- object$manifold
  n <- object$n
  xr <- object$x_range
  d <- ncol(Bas)
  drawn <- if (is.null(model$draw)) model else model$draw()
  rms <- drawn$rms
  marginal <- drawn$marginal
  u <- marginal(stats::rnorm(n))
  Z <- Bas %*% (matrix(stats::rnorm(d * n), d) * (rms / sqrt(d)))
  if (is.null(v)) {
    Y <- acc_layout(M, acc_exp(M, p, Z))
  } else {
    G <- acc_exp(M, p, matrix(v, ncol = 1L) %*% t(u))
    Y <- acc_layout(M, acc_exp(M, G, acc_transport(M, p, G, Z)))
  }
  x <- pmin(pmax(xr[1] + u * (xr[2] - xr[1]), xr[1]), xr[2])
  pub <- list(epsilon = object$epsilon, tau = object$tau, tau_m = object$tau_m, x_range = xr, center = object$center,
              radius = object$radius, bound = object$bound %||% "poster")
  tryCatch(do.call(dp_geodesic_regression, c(list(M, x, Y), pub)),
           riemdp_error = function(e) abort(sprintf("a bootstrap release failed: %s", conditionMessage(e)), call))
}

# The largest root mean square scatter the null model simulates: the
# diameter on compact spaces (M$inj), 20 elsewhere (points e^20 times the
# centre's scale away on SPD and hyperbolic space: far beyond any data).
geodesic_scatter_max <- function(M) min(M$inj, 20)

# B and seed of a bootstrap.
check_boot_args <- function(B, seed, call) {
  if (!(is.numeric(B) && length(B) == 1L && is.finite(B) && B >= 100 && B <= 1e5 && B == round(B)))
    abort("`B` must be a whole number of bootstrap releases from 100 to 100000 (each costs about as much as the release)", call)
  if (!(is.numeric(seed) && length(seed) == 1L && is.finite(seed) && seed == round(seed) &&
        abs(seed) <= .Machine$integer.max))
    abort(sprintf("`seed` must be a single whole number of at most %d in absolute value", .Machine$integer.max), call)
}

#' Confidence sets for the geodesic behind a private regression release
#'
#' A region of geodesics around a release of [dp_geodesic_regression()] that
#' covers the population geodesic (the model's footpoint and shooting
#' vector) with probability about `level`: an ellipsoid in the tangent
#' space at the release, built by the parametric bootstrap (Ferrando, Wang &
#' Sheldon 2022). Test a geodesic with [dp_contains()].
#'
#' **What the set uses.** The release, its public parameters, the law of
#' its mechanism and a model of the data: the covariate's mean and standard
#' deviation and the points' scatter about the geodesic, from `moments`: a
#' [dp_regression_moments()] release on the same data (`x =`, `Y =`; charged
#' by [dp_budget()]), or a public statement `list(noise = , x_mean = , x_sd
#' = )` in the form [dp_accuracy()] takes (`noise` the root mean square
#' distance of the points from the geodesic; without `x_mean` and `x_sd` the
#' covariate is uniform on its public range). Private moments are noisy at
#' small \eqn{n \epsilon}{n epsilon}, and a set built on their values alone
#' is too small whenever they come out low (80% coverage at n = 50,
#' epsilon = 2 on the sphere): so each bootstrap data set draws its own
#' moments, the released averages plus fresh Laplace noise of the same
#' scale, and the bootstrap carries their uncertainty. The set is
#' post-processing: no budget is spent beyond that of the
#' releases, and the data are not read again.
#'
#' **Construction.** Write the release as \eqn{(\hat p, \hat v)}{(phat,
#' vhat)}, its footpoint at `x_range[1]` and its shooting vector over the
#' whole covariate range. `B` synthetic data sets of the release's size are
#' drawn from the model around the released geodesic (the covariate from the
#' Beta law with the stated mean and standard deviation on its public range;
#' each point moved off the geodesic by an isotropic Gaussian tangent vector
#' of the stated root mean square) and released again with the same public
#' parameters. Each bootstrap release \eqn{(p^*, v^*)}{(p*, v*)} is read in
#' an orthonormal basis of the tangent space at \eqn{\hat p}{phat}, in
#' \eqn{2d}{2 d} coordinates: \eqn{Log_{\hat p}(p^*)}{Log_phat(p*)} and
#' \eqn{\Gamma_{p^* \to \hat p}(v^*) - \hat v}{Gamma_{p* -> phat}(v*) - vhat}
#' (parallel transport). With \eqn{m}{m} and \eqn{S}{S} the mean and
#' covariance of these deviations, a geodesic \eqn{(p, v)}{(p, v)} is in the
#' set when its own deviation from the release, \eqn{\zeta}{zeta}, satisfies
#' \eqn{(\zeta - m)^T S^{-1} (\zeta - m) \le r^2}{(zeta - m)' S^-1 (zeta -
#' m) <= r^2}, \eqn{r^2}{r^2} the \eqn{\lceil level (B + 1) \rceil}{ceiling(level
#' (B + 1))}-th smallest of the bootstrap deviations' own Mahalanobis
#' distances: the percentile bootstrap, the region where the bootstrap
#' releases fall. (The basic bootstrap, which reflects that region through
#' the release, fails where the noise is large against the public ball: the
#' releases are confined to it, a release near its edge has its bootstrap
#' releases pulled back inside, and the reflection moves the set further
#' out; on Kendall(8) at n = 100, epsilon = 2 it covered none of 20
#' population geodesics.) The bootstrap runs under a fixed `seed`, and the
#' session's random numbers are left as they were.
#'
#' **Approximations, and where they bite.** The model's residuals are
#' isotropic and Gaussian: anisotropic or heavy-tailed scatter, a private
#' root mean square that underestimates the true one, and geodesics far
#' from the release (where the bootstrap law is not the same) make the set
#' too small. Its coverage and size against the oracle set are measured
#' over a matrix of manifolds, sample sizes and budgets: where the private
#' moments are mostly noise the set is conservative (up to 100% coverage at
#' 1.7 times the oracle's size). Where the noise is small it can fall short:
#' a 95% set from 100 bootstrap releases covered 89.8% (± 1.5) of
#' population geodesics on the sphere at n = 5000, epsilon = 2, at the
#' oracle's size (use the default `B = 400` or more there). With the fit
#' near the edge of the public ball it covered 92.8%; see
#' `vignette("accuracy", package = "riemdp")`. The radius is the quantile of
#' the bootstrap releases' own Mahalanobis distances, which a new release
#' exceeds more often, the more so in more coordinates: for an ideal
#' Gaussian law a 95% set covers 95% with `B = 400` in 4 coordinates (the
#' sphere, hyperbolic plane and Euclidean plane), 94% in 6 (SPD(2)), but 90%
#' in 24 (Kendall(8), where `B = 100` gives 63%). Raise `B` with the
#' dimension there.
#'
#' @param object A release of [dp_geodesic_regression()] (`scheme =
#'   "joint"`, public bounds).
#' @param parm Not used (the set is joint for the footpoint and the
#'   shooting vector); must be missing.
#' @param level The confidence level, a number in (0, 1).
#' @param moments A [dp_regression_moments()] release on the same data, or a
#'   public `list(noise = , x_mean = , x_sd = )`.
#' @param B The number of bootstrap releases (at least 100, and more than
#'   \eqn{4d}{4 d} for a well-estimated covariance).
#' @param seed The seed of the bootstrap (an integer).
#' @param ... Not used.
#' @return An object of class `c("riemdp_geodesic_confset",
#'   "riemdp_confset")`: `footpoint` and `shooting` (the release, at
#'   `x_range[1]` over the covariate's range), `basis` (the tangent basis
#'   at the footpoint), `mean` and `cov` (of the bootstrap deviations),
#'   `radius2` (\eqn{r^2}{r^2}), `footpoint_extent` and `shooting_extent`
#'   (how far the set reaches from the release in footpoint distance and in
#'   shooting vector), `level`, `B`, `seed`, `source` (`"private"` or
#'   `"public"` moments), `rms`, `x_range`, `n`, `manifold` and `method`.
#' @references Ferrando, C., Wang, S. and Sheldon, D. (2022). Parametric
#'   bootstrap for differentially private confidence intervals. *AISTATS*.
#' @seealso [dp_contains()], [dp_regression_moments()],
#'   [summary.riemdp_regression_release()] for the test of no effect.
#' @examples
#' S2 <- manifold_sphere(2)
#' north <- c(0, 0, 1)
#' set.seed(1)
#' x <- runif(300)
#' G <- riem_geodesic(S2, north, c(0.3, 0, 0), x)   # moves 0.3 over [0, 1]
#' Y <- riem_project(S2, G + matrix(rnorm(900, sd = 0.03), 300))
#' rel <- dp_geodesic_regression(S2, x, Y, epsilon = 2, tau = 0.2, tau_m = 1,
#'                               x_range = c(0, 1), center = north, radius = 0.5)
#' mom <- dp_regression_moments(rel, x = x, Y = Y, epsilon = 0.5)
#' ci <- confint(rel, moments = mom, B = 100)
#' ci
#' dp_contains(ci, list(footpoint = north, shooting = c(0.3, 0, 0)))
#' @name confint.riemdp_regression_release
#' @export
confint.riemdp_regression_release <- function(object, parm, level = 0.95, moments = NULL, B = 400L, seed = 1L, ...) {
  call <- sys.call()
  call[[1L]] <- as.name("confint")
  check_no_dots(list(...), call)
  if (!missing(parm))
    abort("`parm` is not used: the set is one region for the footpoint and the shooting vector together; test a geodesic with dp_contains()", call)
  check_level(level, call)
  check_boot_args(B, seed, call)
  model <- geodesic_boot_model(object, moments, call, draw_moments = TRUE)
  M <- object$manifold
  fp <- model$footpoint
  sv <- model$shooting
  Bas <- geom_tangent_basis(M, acc_set(fp))
  d <- ncol(Bas)
  if (B <= 4 * d)
    abort(sprintf("`B` = %d is too small for the %d coordinates of a geodesic on %s: the covariance of the bootstrap releases needs B > %d", as.integer(B), 2L * d, manifold_label(M), 4L * d), call)
  D <- with_preserved_seed(seed, t(vapply(seq_len(B), function(b) {
    rel <- geodesic_boot_release(object, model, fp, sv, Bas, call)
    geodesic_deviation(M, fp, sv, Bas, as.double(as_points(M, rel$footpoint_range, "footpoint", call)$x),
                       as.double(rel$shooting_range))
  }, numeric(2L * d))))
  m <- colMeans(D)
  S <- stats::cov(D)
  Sinv <- tryCatch(solve(S), error = function(e) NULL)
  if (is.null(Sinv) || !all(is.finite(Sinv)))
    abort("the bootstrap releases do not vary in every direction (their covariance is singular): the public bounds pin the release down; no ellipsoid can be formed", call)
  C <- sweep(D, 2L, m)
  q <- sort(rowSums((C %*% Sinv) * C))
  r2 <- q[min(B, ceiling(level * (B + 1)))]
  blk <- list(seq_len(d), d + seq_len(d))
  extent <- vapply(blk, function(j) sqrt(sum(m[j]^2)) + sqrt(r2 * max(eigen(S[j, j, drop = FALSE], symmetric = TRUE, only.values = TRUE)$values)),
                   numeric(1))
  structure(list(footpoint = object$footpoint_range, shooting = object$shooting_range, basis = Bas, mean = m, cov = S,
                 cov_inverse = Sinv, radius2 = r2, footpoint_extent = extent[1], shooting_extent = extent[2],
                 level = level, B = as.integer(B), seed = seed, source = model$source, rms = model$rms,
                 x_range = object$x_range, n = object$n, manifold = M,
                 method = "the parametric bootstrap's ellipsoid in the tangent space at the release"),
            class = c("riemdp_geodesic_confset", "riemdp_confset"))
}

# The deviation of a geodesic (p, v) (at x_range[1], over the mapped
# covariate) from (fp, sv), in the orthonormal basis Bas of T_fp M:
# c(Log_fp(p), Gamma_{p -> fp}(v) - sv). On Kendall's space (p, v) is first
# rotated into optimal alignment with fp.
geodesic_deviation <- function(M, fp, sv, Bas, p, v) {
  if (M$type == "kendall") {
    a <- kendall_align(M, fp, p, v)
    p <- a$p
    v <- a$v
  }
  xi <- matrix(geom_log(M, acc_set(fp), acc_set(p), FALSE), M$ambient)
  eta <- acc_transport(M, p, fp, v) - sv
  Fp <- acc_set(fp)
  c(geom_inner(M, Fp, acc_set(Bas), acc_set(xi)), geom_inner(M, Fp, acc_set(Bas), acc_set(eta)))
}

# Geodesics on the boundary of a geodesic set, for plot(): the deviations
# mean + r L w (S = L L^T by its eigenvectors) for w = +/- each principal
# axis and (+/- e_i +/- e_j)/sqrt(2) over the four longest, mapped back by
# p = Exp_fp(Bas a), v = Gamma_{fp -> p}(sv + Bas b). Each is list(p, v) at
# x_range[1] over the mapped covariate. Deterministic (no random numbers).
geodesic_set_boundary <- function(set, call) {
  M <- set$manifold
  fp <- as.double(as_points(M, set$footpoint, "footpoint", call)$x)
  sv <- as.double(set$shooting)
  Bas <- set$basis
  d <- ncol(Bas)
  k <- 2L * d
  e <- eigen(set$cov, symmetric = TRUE)
  L <- e$vectors %*% diag(sqrt(pmax(e$values, 0)), k)
  W <- cbind(diag(k), -diag(k))
  top <- seq_len(min(k, 4L))
  if (length(top) >= 2L) {
    for (ij in utils::combn(top, 2L, simplify = FALSE)) {
      for (s in list(c(1, 1), c(1, -1), c(-1, 1), c(-1, -1))) {
        w <- numeric(k)
        w[ij] <- s / sqrt(2)
        W <- cbind(W, w)
      }
    }
  }
  Z <- set$mean + sqrt(set$radius2) * (L %*% W)
  lapply(seq_len(ncol(Z)), function(j) {
    p <- as.double(acc_exp(M, fp, Bas %*% Z[seq_len(d), j]))
    v <- as.double(acc_transport(M, fp, p, sv + Bas %*% Z[d + seq_len(d), j]))
    list(p = p, v = v)
  })
}

# A preshape p (and a vector v at it) rotated into optimal alignment with
# the preshape ref (Kendall's space of planar shapes: the first k
# coordinates are the real parts, the last k the imaginary parts).
kendall_align <- function(M, ref, p, v) {
  k <- M$k
  cz <- function(a) complex(real = a[seq_len(k)], imaginary = a[k + seq_len(k)])
  z <- cz(p)
  rot <- exp(-1i * Arg(sum(Conj(cz(ref)) * z)))
  z <- z * rot
  w <- cz(v) * rot
  list(p = c(Re(z), Im(z)), v = c(Re(w), Im(w)))
}

# dp_contains() for a geodesic's set: x is a geodesic as coef() gives it
# (list(footpoint = , shooting = ): the point at x = 0 and the velocity per
# unit of x), or a fit or release whose coef() does.
geodesic_contains <- function(set, x, call) {
  if (inherits(x, c("riemdp_geodesic_regression", "riemdp_regression_release"))) x <- stats::coef(x)
  if (!is.list(x) || !all(c("footpoint", "shooting") %in% names(x)))
    abort("`x` must be a geodesic: list(footpoint = , shooting = ) as coef() of a geodesic fit gives it (the point at x = 0 and the velocity per unit of the covariate), or such a fit", call)
  M <- set$manifold
  P <- as_points(M, x$footpoint, "x$footpoint", call)
  if (P$n != 1L) abort("`x$footpoint` must be a single point", call)
  V <- as_tangents(M, P, x$shooting, "x$shooting", call)
  xr <- set$x_range
  w <- xr[2] - xr[1]
  r <- core_call(stat_regression_rebase(M, as.double(P$x), matrix(as.double(V$x) * w, ncol = 1L), xr[1] / w), call)
  fp <- as.double(as_points(M, set$footpoint, "footpoint", call)$x)
  sv <- as.double(set$shooting)
  z <- geodesic_deviation(M, fp, sv, set$basis, as.double(r$footpoint), as.double(r$shooting)) - set$mean
  sum(z * drop(set$cov_inverse %*% z)) <= set$radius2
}

#' @export
print.riemdp_geodesic_confset <- function(x, digits = 4, ...) {
  cat(sprintf("<riemdp confidence set> %s%% region for the population geodesic on %s (n = %d)\n",
              format(100 * x$level), manifold_label(x$manifold), x$n))
  cat(strwrap(sprintf("An ellipsoid in the %d tangent coordinates of the footpoint (at x = %s) and the shooting vector (over the covariate's range [%s, %s]) at the release, from B = %d parametric-bootstrap releases (Ferrando, Wang & Sheldon 2022).",
                      length(x$mean), format(x$x_range[1], digits = digits), format(x$x_range[1], digits = digits),
                      format(x$x_range[2], digits = digits), x$B), exdent = 2), sep = "\n")
  cat(sprintf("It reaches at most %s from the release's footpoint and %s from its shooting vector.\n",
              format(x$footpoint_extent, digits = digits), format(x$shooting_extent, digits = digits)))
  cat(strwrap(sprintf("Model: isotropic Gaussian scatter of root mean square %s about the geodesic (%s). Post-processing of the releases: no budget spent beyond theirs. Test a geodesic with dp_contains().",
                      format(x$rms, digits = digits),
                      if (x$source == "private") "from dp_regression_moments()" else "a public statement"), exdent = 2), sep = "\n")
  invisible(x)
}
