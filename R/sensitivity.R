#' Sensitivity of the Fréchet mean
#'
#' The global sensitivity of the sample Fréchet mean of `n` points lying in a
#' ball of radius `radius` (Reimherr et al. 2021, Thm 2):
#' \deqn{\Delta = \frac{2r(2 - h(r,\kappa))}{n\,h(r,\kappa)},\qquad
#' h(r,\kappa) = 2r\sqrt\kappa\cot(2r\sqrt\kappa)\ (\kappa>0),\ 1\ (\kappa\le0),}
#' with \eqn{\kappa} the upper bound of the sectional curvature. The bound
#' holds for radii below
#' \eqn{r^* = \frac12\min\{inj, \pi/(2\sqrt\kappa)\}}: \eqn{\pi/4} on the
#' sphere, \eqn{\pi/8} on Kendall's shape space, unbounded on flat and
#' negatively curved spaces. It depends only on public parameters.
#'
#' `sensitivity_frechet_gradient()` bounds the change of the Fréchet gradient
#' \eqn{\frac1n\sum_i Log_x(x_i)} when one point is replaced, the sensitivity
#' of the K-norm gradient mechanism: \eqn{2r(2-h)/n} for \eqn{\kappa > 0}
#' (supplement of Reimherr et al. 2021, Lemma 1), \eqn{2r/n} otherwise.
#'
#' @inheritParams geometry
#' @param n Sample size (public): a whole number >= 1 (any size; it only
#'   enters the bound).
#' @param radius Radius of the public ball containing the data, below
#'   \eqn{r^*}.
#' @return A single number.
#' @examples
#' sensitivity_frechet_mean(manifold_sphere(2), n = 100, radius = pi / 8)
#' sensitivity_frechet_mean(manifold_spd(2), n = 100, radius = 1)   # 2r/n
#' sensitivity_frechet_gradient(manifold_sphere(2), n = 100, radius = pi / 8)
#' @export
sensitivity_frechet_mean <- function(M, n, radius) {
  frechet_sensitivities(M, n, radius, sys.call())$mean
}

#' @rdname sensitivity_frechet_mean
#' @export
sensitivity_frechet_gradient <- function(M, n, radius) {
  frechet_sensitivities(M, n, radius, sys.call())$gradient
}

frechet_sensitivities <- function(M, n, radius, call) {
  check_manifold(M, call)
  n <- check_whole_number(n, "n", 1, call)  # a number in the bound, not a count of anything stored
  radius <- check_positive(radius, "radius", call)
  s <- priv_frechet_sensitivity(M, n, radius)
  if (!(radius < s$radius_max))
    abort(sprintf("`radius` = %s must be below r* = %s on %s (r* = 1/2 min{inj, pi/(2 sqrt(kappa))}, Reimherr et al. 2021, Assumption 1)",
                  format(radius), format(s$radius_max, digits = 6), manifold_label(M)), call)
  s
}
