#' Fréchet mean
#'
#' The minimiser of \eqn{F(x) = \frac{1}{2n}\sum_i d(x, x_i)^2}{F(x) = 1/(2n) sum_i d(x, x_i)^2} by Riemannian
#' gradient descent: \eqn{x \leftarrow Exp_x(t \cdot \frac1n \sum_i Log_x(x_i))}{x <- Exp_x(t * 1/n sum_i Log_x(x_i))}
#' with \eqn{t = 1}{t = 1} and Armijo backtracking, stopping when the gradient norm
#' \eqn{|\frac1n \sum_i Log_x(x_i)|_x}{|1/n sum_i Log_x(x_i)|_x} falls below `tol`
#' or below the level at which it is rounding noise (a small multiple of the
#' machine epsilon, times the scale of the coordinates at the estimate and
#' the spread of the data: far from the origin of the hyperboloid, or at an
#' ill-conditioned SPD matrix, double precision cannot resolve a smaller
#' gradient); both count as converged. Each iterate is retracted onto the
#' manifold, so the estimate is a valid point however spread the data.
#' Uses the manifold's exponential and logarithm. On [manifold_euclidean()]
#' it is `colMeans(X)`.
#'
#' The default start is a cheap extrinsic mean: the normalised ambient mean on
#' the sphere (or the first point when that mean is 0) and the hyperboloid
#' (far from the origin, where that normalisation is lost to rounding, the
#' mean of the spatial coordinates lifted onto the hyperboloid),
#' the arithmetic mean of the matrices on spd, and the full Procrustes mean
#' (dominant eigenvector of \eqn{\sum z_i z_i^*}{sum z_i z_i^*}) on Kendall's space.
#' On positively curved spaces the data should lie in a ball of radius below
#' \eqn{\pi/4}{pi/4} (sphere) for the mean to be unique.
#'
#' @inheritParams geometry
#' @param X Data points in the manifold's layout (rows of a matrix, or a
#'   `k x k x n` / `k x 2 x n` array).
#' @param weights Optional non-negative weights, one per point of `X`
#'   (never recycled), finite and not all zero: the weighted mean minimises
#'   \eqn{\sum_i w_i d(x, x_i)^2 / (2 \sum_i w_i)}{sum_i w_i d(x, x_i)^2 / (2 sum_i w_i)}. Integer weights give the
#'   mean of the data with rows repeated; points of weight 0 are dropped.
#'   Equal weights give the unweighted mean.
#' @param init Optional starting point.
#' @param max_iter Maximum number of gradient steps.
#' @param tol Tolerance on the Riemannian gradient norm.
#' @return An object of class `c("riemdp_frechet_mean", "riemdp_fit")`: a list
#'   with `manifold`, `estimate` (a point in the manifold's layout),
#'   `iterations`, `grad_norm`, `converged`, `cost` (the value of \eqn{F}{F}),
#'   `n`, `weights`, `data` (the input points) and `call`. Methods: `print()`,
#'   `summary()` (with quantiles of the geodesic distances to the mean),
#'   `coef()`, `residuals()` (the tangent vectors \eqn{Log_{\bar x}(x_i)}{Log_xbar(x_i)} at
#'   the mean, in the manifold's layout) and `plot()` (histogram of the
#'   distances to the mean).
#' @examples
#' S2 <- manifold_sphere(2)
#' fit <- frechet_mean(S2, fiji_quakes)
#' fit
#' coef(fit)
#'
#' # weights: integer weights are repeated rows
#' w <- rep(1:2, length.out = nrow(fiji_quakes))
#' coef(frechet_mean(S2, fiji_quakes, weights = w))
#'
#' fit_spd <- frechet_mean(manifold_spd(3), eustock_cov)
#' summary(fit_spd)
#' plot(fit_spd)
#' @export
frechet_mean <- function(M, X, weights = NULL, init = NULL, max_iter = 100L, tol = 1e-10) {
  call <- sys.call()
  check_manifold(M, call)
  S <- as_points(M, X, "X", call)
  w <- check_weights(weights, S$n, call)
  if (is_uniform(w)) w <- NULL  # equal weights: the unweighted path (the same result, bit for bit)
  max_iter <- check_count(max_iter, "max_iter", 0, call)
  tol <- check_positive(tol, "tol", call)
  I <- start_point(M, S, w, init, call)
  s <- I$scale
  r <- core_call(stat_frechet_mean(M, rescaled(S, s), I, max_iter,
                                   if (is.null(s)) tol else min(tol / s, .Machine$double.xmax), w),
                 call, "`X`")
  if (!is.null(s)) {  # back to the data's units: F scales as s^2, the gradient as s
    r$mean <- r$mean * s
    r$cost <- r$cost * s^2
    r$grad_norm <- r$grad_norm * s
  }
  finite_or_abort(r$cost, "the Fr\u00e9chet function F (half the mean squared distance)", call)
  finite_or_abort(r$grad_norm, "the gradient norm", call)
  structure(list(manifold = M, estimate = from_values(M, r$mean, 1L, TRUE, X),
                 iterations = r$iterations, grad_norm = r$grad_norm, converged = r$converged,
                 cost = r$cost, n = S$n, weights = weights, data = X, call = call),
            class = c("riemdp_frechet_mean", "riemdp_fit"))
}

# Weights of n points: NULL, or a numeric vector of length n exactly (never
# recycled), finite, non-negative, not all zero. Returned as doubles (NULL
# stays NULL).
check_weights <- function(weights, n, call = NULL) {
  if (is.null(weights)) return(NULL)
  if (!is.numeric(weights) || !is.null(dim(weights)) && length(dim(weights)) > 1L)
    abort("`weights` must be a numeric vector (one weight per point) or NULL", call)
  if (length(weights) != n)
    abort(sprintf("`weights` must have one weight per point of `X` (%d); got length %d (weights are never recycled)",
                  n, length(weights)), call)
  if (!all(is.finite(weights))) abort("`weights` must be finite (it contains NA, NaN or Inf)", call)
  if (any(weights < 0)) abort("`weights` must be non-negative", call)
  if (!any(weights > 0)) abort("`weights` must not be all zero", call)
  # scaled to a largest weight of 1: their sum cannot overflow, nor tiny
  # (subnormal) weights lose precision in the core's sums
  w <- as.double(weights)
  w / max(w)
}

# Euclidean coordinates divided by a power of 2 (exact) to at most 2 in
# absolute value: the core's sums of squares neither overflow nor underflow,
# and its rounding thresholds (relative to max(1, |x|)) are relative to the
# data. The scale of the sets given (NULL when not Euclidean or all zero).
euclidean_scale <- function(M, ...) {
  if (M$type != "euclidean") return(NULL)
  m <- max(vapply(list(...), function(S) if (is.null(S)) 0 else max(abs(S$x)), 0))
  if (!(m > 0)) NULL else 2^floor(log2(m))
}
rescaled <- function(S, s) {
  if (!is.null(s)) S$x <- S$x / s
  S
}

# The starting point (`init`, or the extrinsic mean), in the coordinates of
# the data divided by `scale` (euclidean_scale of the data and `init`).
start_point <- function(M, S, w, init, call) {
  I <- if (!is.null(init)) as_points(M, init, "init", call)
  if (!is.null(I) && I$n != 1L) abort("`init` must be a single point", call)
  s <- euclidean_scale(M, S, I)
  I <- if (is.null(I)) initial_mean(M, rescaled(S, s), w) else rescaled(I, s)
  I$scale <- s
  I
}

# A fit's value that must be finite (the estimate, F, the gradient norm).
finite_or_abort <- function(v, what, call) {
  if (!all(is.finite(v)))
    abort(sprintf("`X`: %s exceeds the largest double (1.8e308); rescale the data", what), call)
  v
}

is_uniform <- function(w) is.null(w) || all(w == w[1L])

# Extrinsic starting points (see frechet_mean's details), weighted when `w`
# is given (points of weight 0 play no part).
initial_mean <- function(M, S, w = NULL) {
  x <- S$x
  wmean <- function(A) {  # weighted mean of the rows of A
    if (is.null(w)) colMeans(A) else colSums(A[w > 0, , drop = FALSE] * w[w > 0]) / sum(w)
  }
  first <- if (is.null(w)) 1L else which(w > 0)[1L]
  start <- switch(M$type,
    euclidean = wmean(matrix(x, S$n)),
    sphere = {
      m <- wmean(matrix(x, S$n))
      if (sqrt(sum(m^2)) > 1e-8) m / sqrt(sum(m^2)) else matrix(x, S$n)[first, ]
    },
    hyperbolic = {
      m <- wmean(matrix(x, S$n))
      s <- (m[1] - sqrt(sum(m[-1]^2))) * (m[1] + sqrt(sum(m[-1]^2)))  # -<m,m>_L >= 1
      # far from the origin -<m,m>_L is lost to rounding: lift the spatial mean
      if (m[1] < 1e4 && s >= 1) m / sqrt(s) else c(sqrt(1 + sum(m[-1]^2)), m[-1])
    },
    spd = wmean(t(matrix(x, M$ambient))),
    kendall = {
      k <- M$k
      A <- matrix(x, 2L * k)
      Z <- A[seq_len(k), , drop = FALSE] + 1i * A[k + seq_len(k), , drop = FALSE]
      if (!is.null(w)) Z <- Z * rep(sqrt(w), each = k)
      e <- eigen(Z %*% Conj(t(Z)), symmetric = TRUE)$vectors[, 1]
      c(Re(e), Im(e))
    })
  list(x = as.double(start), n = 1L, by_row = TRUE)
}

#' @export
print.riemdp_fit <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat(sprintf("%s on %s of n = %d points\n", location_label(x), manifold_label(x$manifold), x$n))
  cat(sprintf("%s after %d iteration%s (gradient norm %s)\n",
              if (x$converged) "Converged" else "Did NOT converge", x$iterations,
              if (x$iterations == 1L) "" else "s", format(x$grad_norm, digits = 3)))
  cat("Estimate:\n")
  print(x$estimate, digits = digits)
  invisible(x)
}

# "Frechet mean", "Weighted Frechet median", ... for printing a location fit.
location_label <- function(x) {
  what <- if (inherits(x, "riemdp_frechet_median")) "Fr\u00e9chet median" else "Fr\u00e9chet mean"
  if (is.null(x$weights)) what else paste("Weighted", what)
}

#' @export
summary.riemdp_fit <- function(object, ...) {
  d <- riem_dist(object$manifold, object$estimate, object$data)
  structure(list(manifold = object$manifold, n = object$n, estimate = object$estimate,
                 iterations = object$iterations, converged = object$converged,
                 grad_norm = object$grad_norm, cost = object$cost,
                 rms_dist = sqrt(2 * object$cost), dist_quantiles = stats::quantile(d),
                 call = object$call),
            class = "summary.riemdp_fit")
}

#' @export
residuals.riemdp_fit <- function(object, ...) {
  riem_log(object$manifold, object$estimate, object$data)
}

#' @export
plot.riemdp_fit <- function(x, main = NULL, xlab = "geodesic distance to the Fr\u00e9chet mean", ...) {
  d <- riem_dist(x$manifold, x$estimate, x$data)
  if (is.null(main)) main <- sprintf("Fr\u00e9chet mean on %s (n = %d)", manifold_label(x$manifold), x$n)
  graphics::hist(d, main = main, xlab = xlab, ...)
  graphics::abline(v = sqrt(2 * x$cost), lty = 2)
  graphics::legend("topright", legend = "root mean squared distance", lty = 2, bty = "n")
  invisible(x)
}

#' @export
print.summary.riemdp_fit <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("Call:\n")
  print(x$call)
  cat(sprintf("\nManifold: %s\n", manifold_description(x$manifold)))
  cat(sprintf("Points: %d\n", x$n))
  cat(sprintf("Fr\u00e9chet function F = (1/2n) sum d^2: %s\n", format(x$cost, digits = digits)))
  cat(sprintf("Root mean squared geodesic distance to the mean: %s\n", format(x$rms_dist, digits = digits)))
  cat("Quantiles of the geodesic distances to the mean:\n")
  print(x$dist_quantiles, digits = digits)
  cat(sprintf("Gradient descent: %s, %d iterations, final gradient norm %s\n",
              if (x$converged) "converged" else "not converged", x$iterations,
              format(x$grad_norm, digits = 3)))
  cat("Estimate:\n")
  print(x$estimate, digits = digits)
  invisible(x)
}

#' @export
coef.riemdp_fit <- function(object, ...) object$estimate

#' Fréchet (geometric) median
#'
#' The minimiser of \eqn{F(x) = \sum_i w_i d(x, x_i) / \sum_i w_i}{F(x) = sum_i w_i d(x, x_i) / sum_i w_i} (all
#' \eqn{w_i = 1}{w_i = 1} by default), a robust location: unlike the Fréchet mean it is
#' not dragged far by a fraction of gross outliers. Computed by the
#' Riemannian Weiszfeld algorithm (Fletcher, Venkatasubramanian and Joshi
#' 2009, eq. 4-5): \eqn{x \leftarrow Exp_x(R/S)}{x <- Exp_x(R/S)} with
#' \eqn{R = \sum_i w_i Log_x(x_i)/d_i}{R = sum_i w_i Log_x(x_i)/d_i} and \eqn{S = \sum_i w_i / d_i}{S = sum_i w_i / d_i},
#' \eqn{d_i = d(x, x_i)}{d_i = d(x, x_i)}; a step that does not decrease \eqn{F}{F} is halved.
#' Where an iterate lands on data points (the set \eqn{K}{K}, of weight
#' \eqn{W_K}{W_K}) the step is the modification of Vardi and Zhang (2000): the
#' iterate is the median when \eqn{|R| \le W_K}{|R| <= W_K} (with \eqn{R}{R} summed over the
#' other points), and otherwise steps off with the step scaled by
#' \eqn{1 - W_K/|R|}{1 - W_K/|R|}. When one data point dominates the Weiszfeld average,
#' that point is tested with the same condition, so a median at a data point
#' is found in a few steps (plain Weiszfeld converges to it only slowly).
#'
#' Convergence is judged on the norm of the minimal subgradient of \eqn{F}{F},
#' \eqn{\max(0, |R| - W_K)/\sum_i w_i}{max(0, |R| - W_K)/sum_i w_i} (dimensionless: at most 1, whatever
#' the scale of the data): below `tol`, or below its rounding floor (each unit
#' vector \eqn{Log_x(x_i)/d_i}{Log_x(x_i)/d_i} is resolved to about the machine epsilon times
#' the scale of the coordinates over \eqn{d_i}{d_i}), or when no step decreases
#' \eqn{F}{F} any more within a small multiple of that floor; near data points
#' that dominate the floor (an iterate a hair's breadth from a data point
#' that is not the median) the floor is not trusted and the steps go on. Each
#' iterate is retracted onto the manifold. The start is the (weighted)
#' extrinsic mean of [frechet_mean()]'s details. On [manifold_euclidean()] it
#' is the spatial median, computed on the data divided by a power of 2 (an
#' exact scaling), so that any finite scale of the data gives the same
#' relative accuracy. On positively curved spaces the data should lie in a ball
#' of radius below \eqn{\pi/4}{pi/4} (sphere) for the median to be unique.
#'
#' @inheritParams frechet_mean
#' @param weights Optional non-negative weights, one per point of `X` (never
#'   recycled), finite and not all zero. Points of weight 0 are dropped.
#' @param max_iter Maximum number of Weiszfeld steps.
#' @param tol Tolerance on the subgradient norm (see details).
#' @return An object of class `c("riemdp_frechet_median", "riemdp_fit")`: a
#'   list with `manifold`, `estimate` (a point in the manifold's layout),
#'   `iterations`, `grad_norm` (the subgradient norm), `converged`, `cost`
#'   (the value of \eqn{F}{F}, the weighted mean distance to the median),
#'   `data_point` (the index of a data point the median coincides with, or
#'   `NA`), `n`, `weights`, `data` and `call`. Methods: `print()`,
#'   `summary()` (with quantiles of the distances to the median), `coef()`,
#'   `residuals()` (the tangent vectors \eqn{Log_m(x_i)}{Log_m(x_i)} at the median) and
#'   `plot()` (histogram of the distances to the median).
#' @references Fletcher, P. T., Venkatasubramanian, S. and Joshi, S. (2009).
#'   The geometric median on Riemannian manifolds with application to robust
#'   atlas estimation. NeuroImage 45, S143-S152.
#'
#'   Vardi, Y. and Zhang, C.-H. (2000). The multivariate L1-median and
#'   associated data depth. PNAS 97, 1423-1426.
#' @examples
#' S2 <- manifold_sphere(2)
#' fit <- frechet_median(S2, fiji_quakes)
#' fit
#' # robust: add 50 gross outliers (5%) near the north pole, about 12 000 km away;
#' # the median moves by about 26 km, the mean by about 590 km
#' set.seed(1)
#' far <- riem_project(S2, matrix(c(0, 0, 1), 50, 3, byrow = TRUE) +
#'                         matrix(rnorm(150, sd = 0.01), 50))
#' X <- rbind(fiji_quakes, far)
#' riem_dist(S2, coef(fit), coef(frechet_median(S2, X))) * 6371  # km
#' riem_dist(S2, coef(frechet_mean(S2, fiji_quakes)), coef(frechet_mean(S2, X))) * 6371
#'
#' summary(frechet_median(manifold_spd(3), eustock_cov))
#' @export
frechet_median <- function(M, X, weights = NULL, init = NULL, max_iter = 1000L, tol = 1e-10) {
  call <- sys.call()
  check_manifold(M, call)
  S <- as_points(M, X, "X", call)
  w <- check_weights(weights, S$n, call)
  if (is_uniform(w)) w <- NULL
  max_iter <- check_count(max_iter, "max_iter", 0, call)
  tol <- check_positive(tol, "tol", call)
  I <- start_point(M, S, w, init, call)
  s <- I$scale
  r <- core_call(stat_frechet_median(M, rescaled(S, s), I, max_iter, tol, w), call, "`X`")
  if (!is.null(s)) {  # back to the data's units (the subgradient norm is dimensionless)
    r$median <- r$median * s
    r$cost <- r$cost * s
  }
  finite_or_abort(r$cost, "the mean distance to the median", call)
  structure(list(manifold = M, estimate = from_values(M, r$median, 1L, TRUE, X),
                 iterations = r$iterations, grad_norm = r$grad_norm, converged = r$converged,
                 cost = r$cost, data_point = if (r$data_point > 0L) r$data_point else NA_integer_,
                 n = S$n, weights = weights, data = X, call = call),
            class = c("riemdp_frechet_median", "riemdp_fit"))
}

#' @export
summary.riemdp_frechet_median <- function(object, ...) {
  out <- summary.riemdp_fit(object, ...)
  out$rms_dist <- NULL
  out$data_point <- object$data_point
  out$weighted <- !is.null(object$weights)
  class(out) <- c("summary.riemdp_frechet_median", class(out))
  out
}

#' @export
print.summary.riemdp_frechet_median <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("Call:\n")
  print(x$call)
  cat(sprintf("\nManifold: %s\n", manifold_description(x$manifold)))
  cat(sprintf("Points: %d\n", x$n))
  cat(sprintf("%s distance to the median F: %s\n", if (x$weighted) "Weighted mean" else "Mean",
              format(x$cost, digits = digits)))
  if (!is.na(x$data_point)) cat(sprintf("The median is data point %d\n", x$data_point))
  cat("Quantiles of the geodesic distances to the median:\n")
  print(x$dist_quantiles, digits = digits)
  cat(sprintf("Weiszfeld iterations: %s, %d steps, final subgradient norm %s\n",
              if (x$converged) "converged" else "not converged", x$iterations,
              format(x$grad_norm, digits = 3)))
  cat("Estimate:\n")
  print(x$estimate, digits = digits)
  invisible(x)
}

#' @export
plot.riemdp_frechet_median <- function(x, main = NULL, xlab = "geodesic distance to the Fr\u00e9chet median", ...) {
  d <- riem_dist(x$manifold, x$estimate, x$data)
  if (is.null(main)) main <- sprintf("Fr\u00e9chet median on %s (n = %d)", manifold_label(x$manifold), x$n)
  graphics::hist(d, main = main, xlab = xlab, ...)
  graphics::abline(v = x$cost, lty = 2)
  graphics::legend("topright", legend = if (is.null(x$weights)) "mean distance" else "weighted mean distance",
                   lty = 2, bty = "n")
  invisible(x)
}
