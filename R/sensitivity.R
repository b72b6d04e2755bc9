#' Sensitivity of the Fréchet mean
#'
#' The global sensitivity of the sample Fréchet mean of `n` points lying in a
#' ball of radius `radius` (Reimherr et al. 2021, Thm 2):
#' \deqn{\Delta = \frac{2r(2 - h(r,\kappa))}{n\,h(r,\kappa)},\qquad
#' h(r,\kappa) = 2r\sqrt\kappa\cot(2r\sqrt\kappa)\ (\kappa>0),\ 1\ (\kappa\le0),}{Delta = (2r(2 - h(r,kappa)))/(n h(r,kappa)), h(r,kappa) = 2rsqrt(kappa)cot(2rsqrt(kappa)) (kappa>0), 1 (kappa <=0),}
#' with \eqn{\kappa}{kappa} the upper bound of the sectional curvature. The bound
#' holds for radii below
#' \eqn{r^* = \frac12\min\{inj, \pi/(2\sqrt\kappa)\}}{r^* = min(inj, pi/(2 sqrt(kappa)))/2}: \eqn{\pi/4}{pi/4} on the
#' sphere, \eqn{\pi/8}{pi/8} on Kendall's shape space, unbounded on flat and
#' negatively curved spaces. It depends only on public parameters.
#'
#' `sensitivity_frechet_gradient()` bounds the change of the Fréchet gradient
#' \eqn{\frac1n\sum_i Log_x(x_i)}{1/n sum_i Log_x(x_i)} when one point is replaced, the sensitivity
#' of the K-norm gradient mechanism: \eqn{2r(2-h)/n}{2r(2-h)/n} for \eqn{\kappa > 0}{kappa > 0}
#' (supplement of Reimherr et al. 2021, Lemma 1), \eqn{2r/n}{2r/n} otherwise.
#'
#' @inheritParams geometry
#' @param n Sample size (public): a whole number >= 1 (any size; it only
#'   enters the bound).
#' @param radius Radius of the public ball containing the data, below
#'   \eqn{r^*}{r^*}.
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

#' @rdname sensitivity_frechet_mean
#' @details `sensitivity_radius_max()` is \eqn{r^*}{r*}, the supremum of the
#'   admissible radii (a radius must be strictly below it), for every
#'   Frechet-mean release (Laplace, Gaussian and K-norm gradient):
#'   \eqn{r^* = \frac12\min\{inj, \pi/(2\sqrt{\kappa})\}}{r* = 1/2 min(inj, pi/(2 sqrt(kappa)))}
#'   with \eqn{\kappa}{kappa} the upper curvature bound (Reimherr, Bharath &
#'   Soto 2021, Assumption 1): \eqn{\pi/4}{pi/4} on spheres of dimension 2 or
#'   more, \eqn{\pi/2}{pi/2} on the flat circle, \eqn{\pi/8}{pi/8} on
#'   Kendall's shape space, `Inf` where the curvature is at most 0. Near
#'   \eqn{r^*}{r*} the bound grows without limit on positively curved spaces.
#' @export
sensitivity_radius_max <- function(M) {
  check_manifold(M, sys.call())
  priv_frechet_sensitivity(M, 1, 0)$radius_max
}

# Noise of the public radius against that of a radius 10% smaller (the
# sensitivity's ratio, public): the steep part of the bound near r*.
radius_cost_ratio <- function(M, n, radius, what = c("mean", "gradient")) {
  what <- match.arg(what)
  a <- priv_frechet_sensitivity(M, n, radius)[[what]]
  b <- priv_frechet_sensitivity(M, n, 0.9 * radius)[[what]]
  a / b
}

frechet_sensitivities <- function(M, n, radius, call) {
  check_manifold(M, call)
  n <- check_whole_number(n, "n", 1, call)  # a number in the bound, not a count of anything stored
  radius <- check_positive(radius, "radius", call)
  s <- priv_frechet_sensitivity(M, n, radius)
  if (!(radius < s$radius_max)) {
    shown <- format_distinct(radius, s$radius_max)
    abort(sprintf("`radius` = %s %s r* = %s on %s, and must be strictly below it (r* = 1/2 min{inj, pi/(2 sqrt(kappa))}, Reimherr, Bharath & Soto 2021, Assumption 1): the sensitivity grows without limit as the radius approaches r*, so choose a radius well below it (sensitivity_radius_max(M) gives r*)%s",
                  shown[1], if (radius == s$radius_max) "equals" else "exceeds", shown[2], manifold_label(M),
                  radius_units_note(M)), call)
  }
  s
}

# What a radius is measured in, for the errors about one: a geodesic
# distance of M, an angle in radians on the sphere and Kendall's shape space
# (a user thinking in degrees reads why 30 is refused).
radius_units_note <- function(M) {
  switch(M$type,
         sphere = , kendall = ". A radius is a geodesic distance: an angle in radians (pi/6 = 30 degrees; on Earth, km / 6371)",
         spd = ". A radius is a geodesic distance: the affine-invariant distance (the norm of the log-eigenvalues relative to `center`)",
         hyperbolic = ". A radius is a geodesic distance: in units of the curvature radius (curvature -1)",
         "")
}

# Two numbers printed with as few significant digits (at least 6) as make
# them read differently, where they differ.
format_distinct <- function(a, b) {
  for (digits in 6:17) {
    out <- c(format(a, digits = digits), format(b, digits = digits))
    if (out[1] != out[2] || a == b) return(out)
  }
  out
}

#' Sensitivity of private geodesic regression
#'
#' Bounds on how much the gradient of the geodesic-regression energy can move
#' when one data point is replaced: the sensitivity of the K-norm gradient
#' mechanism that releases the footpoint \eqn{p}{p} and the shooting vector
#' \eqn{v}{v} (Kulkarni & Soto, poster (2026), Table 1; Kulkarni & Soto (2025),
#' Lemma 3.3 and Thm D.1, with the corrections of the section below). It depends only on public
#' parameters: the sample size `n`, the residual clip `tau`, the bound
#' `tau_m` on the length of the shooting vector, and the lower curvature
#' bound \eqn{\kappa_l}{kappa_l} = `M$curvature[1]`.
#'
#' @section The setting:
#' The covariates are mapped from a public range to \eqn{x_i \in [0, 1]}{x_i in [0, 1]}, the
#' shooting vector is restricted to \eqn{|v| \le \tau_m}{|v| <= tau_m}, and every residual
#' \eqn{\varepsilon_i = Log_{\hat y_i}(y_i)}{epsilon_i = Log_(yhat_i)(y_i)}, \eqn{\hat y_i = Exp_p(x_i v)}{yhat_i = Exp_p(x_i v)}, is
#' clipped to norm \eqn{\tau}{tau} inside the gradient:
#' \eqn{\tilde\varepsilon_i = \min(1, \tau/|\varepsilon_i|)\,\varepsilon_i}{tilde(epsilon)_i = min(1, tau/|epsilon_i|) epsilon_i}
#' (this is the gradient of a Huber-type loss, equal to the least-squares
#' energy \eqn{\frac{1}{2n}\sum_i d(\hat y_i, y_i)^2}{1/(2n) sum_i d(yhat_i, y_i)^2} when every residual is
#' below \eqn{\tau}{tau}). The gradients are
#' \deqn{\nabla_p E = -\frac1n\sum_{i=1}^n J_{p,i}^*\tilde\varepsilon_i,\qquad
#' \nabla_v E = -\frac1n\sum_{i=1}^n J_{v,i}^*\tilde\varepsilon_i,}{grad_p E = -1/n sum_(i=1)^n J_(p,i)^*tilde(epsilon)_i, grad_v E = -1/n sum_(i=1)^n J_(v,i)^*tilde(epsilon)_i,}
#' with \eqn{J_{p,i}^*}{J_(p,i)^*} and \eqn{J_{v,i}^*}{J_(v,i)^*} the adjoints of the derivatives of
#' \eqn{(p, v) \mapsto Exp_p(x_i v)}{(p, v) -> Exp_p(x_i v)} (adjoint Jacobi fields along the geodesic
#' from \eqn{p}{p} to \eqn{\hat y_i}{yhat_i}, of length \eqn{\ell_i = x_i|v| \le \tau_m}{l_i = x_i|v| <= tau_m}).
#' Replacing one point changes one term of each sum, so at every \eqn{(p, v)}{(p, v)}
#' \deqn{|\nabla_p E(D) - \nabla_p E(D')| \le \frac{2\tau}{n}\sup\|J_p^*\|,
#' \qquad |\nabla_v E(D) - \nabla_v E(D')| \le \frac{2\tau}{n}\sup\|J_v^*\|,}{|grad_p E(D) - grad_p E(D')| <= (2 tau)/n sup||J_p^*||, |grad_v E(D) - grad_v E(D')| <= (2 tau)/n sup||J_v^*||,}
#' the suprema over the geodesics the domain allows.
#'
#' @section The Jacobi bounds:
#' Split a residual transported back to \eqn{p}{p} into its component along the
#' geodesic and the rest. Along the geodesic, \eqn{J_p^*}{J_p^*} is the identity and
#' \eqn{J_v^*}{J_v^*} multiplies by \eqn{x}{x}. Across it, on an eigenvector of the
#' curvature operator with sectional curvature \eqn{K}{K}, they multiply by
#' \eqn{c_K(\ell) = \cos(\sqrt K\ell)}{c_K(l) = cos(sqrt(K)l)} and
#' \eqn{x\,sn_K(\ell)/\ell = x\sin(\sqrt K\ell)/(\sqrt K\ell)}{x sn_K(l)/l = x sin(sqrt(K)l)/(sqrt(K)l)} (cosh and sinh
#' for \eqn{K < 0}{K < 0}; Fletcher 2013). On every manifold of the package (all
#' symmetric spaces) the Jacobi equation decouples along these eigenvectors;
#' on a general manifold the same comparison is Rauch's theorem. Lower
#' curvature makes both scalings larger, so the LOWER bound \eqn{\kappa_l}{kappa_l}
#' gives the upper bound:
#' \itemize{
#'   \item \eqn{\kappa_l \ge 0}{kappa_l >= 0} (euclidean, sphere, Kendall): \eqn{|\cos| \le 1}{|cos| <= 1}
#'     and \eqn{x|\sin(\sqrt K\ell)/(\sqrt K\ell)| \le x \le 1}{x|sin(sqrt(K)l)/(sqrt(K)l)| <= x <= 1}, and the
#'     component along the geodesic is not shrunk, so
#'     \eqn{\sup\|J_p^*\| = \sup\|J_v^*\| = 1}{sup||J_p^*|| = sup||J_v^*|| = 1} and
#'     \deqn{\Delta_p = \Delta_v = 2\tau/n.}{Delta_p = Delta_v = 2 tau/n.}
#'   \item \eqn{\kappa_l < 0}{kappa_l < 0} (hyperbolic, spd): with
#'     \eqn{s = \sqrt{-\kappa_l}}{s = sqrt(-kappa_l)}, \eqn{\cosh(s\ell) \le \cosh(sL)}{cosh(sl) <= cosh(sL)} and
#'     \eqn{x\sinh(s\ell)/(s\ell) \le \sinh(sL)/(sL)}{x sinh(sl)/(sl) <= sinh(sL)/(sL)} for
#'     \eqn{\ell = x|v| \le L}{l = x|v| <= L}, so
#'     \deqn{\Delta_p = \frac{2\tau}{n}\cosh(sL),\qquad
#'     \Delta_v = \frac{2\tau}{n}\frac{\sinh(sL)}{sL}.}{Delta_p = (2 tau)/n cosh(sL), Delta_v = (2 tau)/n sinh(sL)/sL.}
#'     `bound = "jacobi"` (the default) takes the length the domain allows,
#'     \eqn{L = \tau_m}{L = tau_m}: the bound is attained (a residual across the
#'     geodesic, \eqn{x = 1}{x = 1}, \eqn{|v| = \tau_m}{|v| = tau_m}, flipped by the replaced
#'     point), and the package's tests search the domain adversarially on
#'     \eqn{H^2}{H^2}, \eqn{H^3}{H^3}, `spd(2)` and `spd(3)` without finding a
#'     pair of adjacent datasets that exceeds it. `bound = "poster"` is Table 1 of Kulkarni & Soto's poster (2026) as printed,
#'     \eqn{L = 2(\tau_m + \tau)}{L = 2(tau_m + tau)}: valid (both scalings increase with
#'     \eqn{L}{L}) but conservative (on `manifold_spd(3)` with n = 92, `tau = 0.5`,
#'     `tau_m = 1`: \eqn{\Delta}{Delta} 0.051 against 0.018), kept to reproduce
#'     the poster's numbers.
#' }
#' The joint sensitivity of \eqn{(p, v)}{(p, v)}, in the norm
#' \eqn{\|\nabla E\|^2 = |\nabla_p E|^2 + |\nabla_v E|^2}{||grad E||^2 = |grad_p E|^2 + |grad_v E|^2}, is
#' \eqn{\Delta = \sqrt{\Delta_p^2 + \Delta_v^2}}{Delta = sqrt(Delta_p^2 + Delta_v^2)}: one term
#' \eqn{(J_p^*\tilde\varepsilon, J_v^*\tilde\varepsilon)}{(J_p^*tilde(epsilon), J_v^*tilde(epsilon))} has norm at most
#' \eqn{\tau\sqrt{\|J_p^*\|^2 + \|J_v^*\|^2}}{tau sqrt(||J_p^*||^2 + ||J_v^*||^2)}. On
#' [`manifold_euclidean(d)`][manifold_euclidean] it is attained: \eqn{x = 1}{x = 1}
#' and a residual \eqn{\tau u}{tau u} replaced by \eqn{-\tau u}{-tau u} move the gradient by
#' exactly \eqn{2\sqrt2\,\tau/n}{2sqrt(2) tau/n}.
#'
#' @section Two slips in Kulkarni & Soto (2025):
#' Its Thm 3.4 compares with the UPPER curvature bound, which by Rauch's
#' theorem bounds the Jacobi fields from below, not from above; the poster's
#' \eqn{\kappa_l}{kappa_l} is the right one. Kulkarni & Soto (2025), App. A, use \eqn{\|J_p(1)\| = \cos 1}{||J_p(1)|| = cos 1}
#' and \eqn{\|J_v(1)\| = \sin 1}{||J_v(1)|| = sin 1} on \eqn{S^2}{S^2}: those are the components
#' across the geodesic only; along it the scalings are 1 (and \eqn{x}{x}), so the
#' supremum is 1 and the paper's sphere sensitivities are too small by
#' \eqn{1/\cos 1 \approx 1.85}{1/cos 1 ~= 1.85} and \eqn{1/\sin 1 \approx 1.19}{1/sin 1 ~= 1.19}. The bounds
#' here use the corrected statements; `vignette("methods", package = "riemdp")`
#' shows the numbers ("Kulkarni & Soto (2025): private geodesic regression").
#'
#' @inheritParams geometry
#' @param n Sample size (public): a whole number >= 1.
#' @param tau The public clip of the residual norms, > 0.
#' @param tau_m The public bound on the length \eqn{|v|}{|v|} of the shooting
#'   vector, > 0. Required when the lower curvature bound is negative
#'   (hyperbolic, spd); not used (but checked if given) otherwise.
#' @param bound `"jacobi"` (the default: geodesic length
#'   \eqn{\tau_m}{tau_m}, tight) or `"poster"` (length
#'   \eqn{2(\tau_m + \tau)}{2(tau_m + tau)}, Table 1 of Kulkarni & Soto,
#'   poster (2026), as printed: to reproduce the poster). The two agree when
#'   the lower curvature bound is \eqn{\ge 0}{>= 0}.
#' @return A named numeric vector: `footpoint` (\eqn{\Delta_p}{Delta_p}), `shooting`
#'   (\eqn{\Delta_v}{Delta_v}) and `joint` (\eqn{\sqrt{\Delta_p^2 + \Delta_v^2}}{sqrt(Delta_p^2 + Delta_v^2)}).
#' @references Kulkarni, A. and Soto, C. (2026). Differentially private
#'   geodesic regression. Poster, Table 1. Kulkarni, A. and Soto, C. (2025).
#'   Differentially private geodesic and linear regression. arXiv:2504.11304v1.
#' @examples
#' sensitivity_geodesic_regression(manifold_sphere(2), n = 100, tau = 0.5)
#' H <- manifold_hyperbolic(2)
#' sensitivity_geodesic_regression(H, n = 100, tau = 0.5, tau_m = 1)   # "jacobi"
#' sensitivity_geodesic_regression(H, n = 100, tau = 0.5, tau_m = 1, bound = "poster")
#' @export
sensitivity_geodesic_regression <- function(M, n, tau, tau_m = NULL, bound = c("jacobi", "poster")) {
  regression_sensitivity(M, n, tau, tau_m, bound, m = 1, call = sys.call())
}

# c(footpoint, shooting, joint) for m covariates: Delta_v per shooting vector,
# joint = sqrt(Delta_p^2 + m Delta_v^2) (one point changes one term of each of
# the m + 1 gradients). For m > 1 the length bound is that of the geodesic
# Exp_p(sum_j x_j v_j): exact on euclidean (dp_linear_regression), where the
# Jacobi maps do not depend on it.
regression_sensitivity <- function(M, n, tau, tau_m = NULL, bound = c("jacobi", "poster"), m = 1,
                                   call = sys.call(-1)) {
  check_manifold(M, call)
  n <- check_whole_number(n, "n", 1, call)
  tau <- check_positive(tau, "tau", call)
  bound <- arg_match(bound, c("jacobi", "poster"), "bound", call)
  m <- check_count(m, "m", 1, call)
  kappa_l <- M$curvature[1]
  if (!is.null(tau_m)) {
    tau_m <- check_positive(tau_m, "tau_m", call)
  } else if (kappa_l < 0) {
    abort(sprintf(paste0("`tau_m` (the public bound on the length of the shooting vector, |v| <= tau_m) is ",
                         "required on %s: its lower curvature bound %s is negative, so the sensitivity grows ",
                         "with the length of the fitted geodesics"),
                  manifold_label(M), format(kappa_l)), call)
  }
  s <- priv_regression_sensitivity(M, n, tau, if (is.null(tau_m)) 0 else tau_m, bound)
  # sqrt(a^2 + b^2) without squaring a huge a
  big <- max(s[["footpoint"]], sqrt(m) * s[["shooting"]])
  joint <- if (big > 0) big * sqrt((s[["footpoint"]] / big)^2 + m * (s[["shooting"]] / big)^2) else 0
  s <- c(s, joint = joint)
  if (!all(is.finite(s))) {
    hint <- if (kappa_l >= 0) "choose a smaller `tau`"
            else if (bound == "poster") "choose a smaller `tau_m` (or bound = \"jacobi\", geodesic length tau_m instead of 2 (tau_m + tau))"
            else "choose a smaller `tau_m`"
    abort(sprintf("the sensitivity overflows double precision on %s with `tau` = %s%s: %s", manifold_label(M),
                  format(tau), if (is.null(tau_m)) "" else sprintf(" and `tau_m` = %s", format(tau_m)), hint), call)
  }
  s
}
