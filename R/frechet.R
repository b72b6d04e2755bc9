#' Fréchet mean
#'
#' The minimiser of \eqn{F(x) = \frac{1}{2n}\sum_i d(x, x_i)^2} by Riemannian
#' gradient descent: \eqn{x \leftarrow Exp_x(t \cdot \frac1n \sum_i Log_x(x_i))}
#' with \eqn{t = 1} and Armijo backtracking, stopping when the gradient norm
#' \eqn{|\frac1n \sum_i Log_x(x_i)|_x} falls below `tol` (design notes §2)
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
#' (dominant eigenvector of \eqn{\sum z_i z_i^*}) on Kendall's space.
#' On positively curved spaces the data should lie in a ball of radius below
#' \eqn{\pi/4} (sphere) for the mean to be unique.
#'
#' @inheritParams geometry
#' @param X Data points in the manifold's layout (rows of a matrix, or a
#'   `k x k x n` / `k x 2 x n` array).
#' @param init Optional starting point.
#' @param max_iter Maximum number of gradient steps.
#' @param tol Tolerance on the Riemannian gradient norm.
#' @return An object of class `c("riemdp_frechet_mean", "riemdp_fit")`: a list
#'   with `manifold`, `estimate` (a point in the manifold's layout),
#'   `iterations`, `grad_norm`, `converged`, `cost` (the value of \eqn{F}),
#'   `n`, `data` (the input points) and `call`. Methods: `print()`,
#'   `summary()` (with quantiles of the geodesic distances to the mean),
#'   `coef()`, `residuals()` (the tangent vectors \eqn{Log_{\bar x}(x_i)} at
#'   the mean, in the manifold's layout) and `plot()` (histogram of the
#'   distances to the mean).
#' @examples
#' S2 <- manifold_sphere(2)
#' fit <- frechet_mean(S2, fiji_quakes)
#' fit
#' coef(fit)
#'
#' fit_spd <- frechet_mean(manifold_spd(3), eustock_cov)
#' summary(fit_spd)
#' plot(fit_spd)
#' @export
frechet_mean <- function(M, X, init = NULL, max_iter = 100L, tol = 1e-10) {
  call <- sys.call()
  check_manifold(M, call)
  S <- as_points(M, X, "X", call)
  max_iter <- check_count(max_iter, "max_iter", 0, call)
  tol <- check_positive(tol, "tol", call)
  I <- if (is.null(init)) initial_mean(M, S) else as_points(M, init, "init", call)
  if (I$n != 1L) abort("`init` must be a single point", call)
  r <- core_call(stat_frechet_mean(M, S, I, max_iter, tol), call, "`X`")
  structure(list(manifold = M, estimate = from_values(M, r$mean, 1L, TRUE, X),
                 iterations = r$iterations, grad_norm = r$grad_norm, converged = r$converged,
                 cost = r$cost, n = S$n, data = X, call = call),
            class = c("riemdp_frechet_mean", "riemdp_fit"))
}

# Extrinsic starting points (see frechet_mean's details).
initial_mean <- function(M, S) {
  x <- S$x
  start <- switch(M$type,
    euclidean = colMeans(matrix(x, S$n)),
    sphere = {
      m <- colMeans(matrix(x, S$n))
      if (sqrt(sum(m^2)) > 1e-8) m / sqrt(sum(m^2)) else matrix(x, S$n)[1, ]
    },
    hyperbolic = {
      m <- colMeans(matrix(x, S$n))
      s <- (m[1] - sqrt(sum(m[-1]^2))) * (m[1] + sqrt(sum(m[-1]^2)))  # -<m,m>_L >= 1
      # far from the origin -<m,m>_L is lost to rounding: lift the spatial mean
      if (m[1] < 1e4 && s >= 1) m / sqrt(s) else c(sqrt(1 + sum(m[-1]^2)), m[-1])
    },
    spd = rowMeans(matrix(x, M$ambient)),
    kendall = {
      k <- M$k
      A <- matrix(x, 2L * k)
      Z <- A[seq_len(k), , drop = FALSE] + 1i * A[k + seq_len(k), , drop = FALSE]
      e <- eigen(Z %*% Conj(t(Z)), symmetric = TRUE)$vectors[, 1]
      c(Re(e), Im(e))
    })
  list(x = as.double(start), n = 1L, by_row = TRUE)
}

#' @export
print.riemdp_fit <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat(sprintf("Fr\u00e9chet mean on %s of n = %d points\n", manifold_label(x$manifold), x$n))
  cat(sprintf("%s after %d iteration%s (gradient norm %s)\n",
              if (x$converged) "Converged" else "Did NOT converge", x$iterations,
              if (x$iterations == 1L) "" else "s", format(x$grad_norm, digits = 3)))
  cat("Estimate:\n")
  print(x$estimate, digits = digits)
  invisible(x)
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
