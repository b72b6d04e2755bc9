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
  if (!is.null(object$bounds_stages))
    abort("tests are not available yet for a release that found its bounds privately: the bootstrap would need the law of the private bounds too; release with public bounds", call)
  if (!identical(object$scheme, "joint"))
    abort("`object` was released with scheme = \"paper\", which is not differentially private: its test would have no meaning", call)
  check_boot_args(B, seed, call)
  M <- object$manifold
  xr <- object$x_range
  if (inherits(moments, "riemdp_geodesic_moments_release")) {
    if (!identical(moments$n, object$n) || !identical(moments$x_range, xr) ||
        !identical(moments$about, list(footpoint = object$footpoint_range, shooting = object$shooting_range)))
      abort("`moments` was released on other data or for another release: it must come from dp_regression_moments(object, x = , Y = ) of this release", call)
    check_moments_fields(moments, 3L, call)
    mom <- geodesic_moments_from_raw(moments$raw, xr, moments$residual_bound, M$dim)
    model <- list(mu = mom$mu, s = mom$s, rms = mom$rms, source = "private")
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
    abort(sprintf("the null model's scatter, root mean square %s, exceeds %s, the largest riemdp simulates on %s: %s",
                  format(model$rms, digits = 4), format(rms_max, digits = 4), manifold_label(M),
                  if (model$source == "public") "state a smaller `moments$noise`"
                  else "release the moments with a smaller `residual_bound` (the clip of the distances)"), call)
  P <- as_points(M, object$footpoint_range, "footpoint", call)
  fp <- as.double(P$x)
  sv <- as.double(as_tangents(M, P, object$shooting_range, "shooting", call)$x)
  stat <- sqrt(max(0, geom_inner(M, acc_set(fp), acc_set(sv), acc_set(sv))))
  # the null model's point: the released geodesic at the covariate's mean
  p0 <- acc_exp(M, fp, matrix(sv * model$mu, ncol = 1L))
  Bas <- geom_tangent_basis(M, acc_set(p0))
  d <- ncol(Bas)
  marginal <- linear_marginal(model$mu, model$s, FALSE)
  n <- object$n
  pub <- list(epsilon = object$epsilon, tau = object$tau, tau_m = object$tau_m, x_range = xr, center = object$center,
              radius = object$radius, bound = object$bound %||% "poster")
  null_v <- with_preserved_seed(seed, vapply(seq_len(B), function(b) {
    u <- marginal(stats::rnorm(n))
    Z <- matrix(stats::rnorm(d * n), d) * (model$rms / sqrt(d))
    Y <- acc_layout(M, acc_exp(M, p0, Bas %*% Z))
    x <- pmin(pmax(xr[1] + u * (xr[2] - xr[1]), xr[1]), xr[2])
    rel <- tryCatch(do.call(dp_geodesic_regression, c(list(M, x, Y), pub)),
                    riemdp_error = function(e) abort(sprintf("a bootstrap release failed: %s", conditionMessage(e)), call))
    Pb <- as_points(M, rel$footpoint_range, "footpoint", call)
    Vb <- as_tangents(M, Pb, rel$shooting_range, "shooting", call)
    sqrt(max(0, geom_inner(M, Pb, Vb, Vb)))
  }, numeric(1)))
  list(statistic = stat, p.value = (1 + sum(null_v >= stat)) / (B + 1), B = B, source = model$source,
       null_quantiles = stats::quantile(null_v, c(0.5, 0.9, 0.95), names = TRUE, type = 6), rms = model$rms)
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
