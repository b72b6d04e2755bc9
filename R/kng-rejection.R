# The exact K-norm gradient release of a Frechet mean by rejection from a
# Riemannian Laplace envelope, with a fixed public run time
# (src/riemdp/privacy/kng_rejection.h; vignette("exact-kng-rejection")).
#
# Target: f_D(z) propto exp(-|G_D(z)| / sigma) on Omega = B_R(c), with
# G_D(z) = -(1/n) sum_i Log_z(x_i) the gradient of F_D(z) = (1/2n) sum_i
# d^2(z, x_i), the data in B_r(c), sigma = 2 Delta / epsilon and Delta =
# sensitivity_frechet_gradient(). The package has one radius for the data
# ball and the support, so R = r and rho = R + r = 2r.
#
# Envelope. On a space of constant curvature kappa >= 0 with
# rho sqrt(kappa) < pi/2, every z in Omega is within rho of every data point,
# so Hess F_D >= mu I on Omega with mu = rho sqrt(kappa) cot(rho sqrt(kappa))
# (the h of Reimherr, Bharath & Soto 2021, Thm 2, at radius r), and
# Hess F_D <= I. Along the geodesic from any zhat in Omega (a convex ball) to
# z in Omega, <G, gamma'> grows at rate >= mu, so
#   |G(z)| >= mu d(z, zhat) - |G(zhat)|                                  (1)
# for EVERY zhat in Omega, exact minimiser or not. Propose from the
# Riemannian Laplace law at zhat with scale sigma / mu (density propto
# exp(-mu d(z, zhat) / sigma)), accept a proposal in Omega with probability
#   alpha(z) = exp(-(|G(z)| - mu d(z, zhat) + |G(zhat)|) / sigma) <= 1    by (1),
# and the accepted law is propto exp(-mu d/sigma) alpha = exp(-|G(z)|/sigma)
# exp(-|G(zhat)|/sigma) on Omega: exactly f_D, whatever zhat is.
#
# Acceptance. With z* the exact minimiser (in B_r(c)) and Hess F_D <= I,
# |G(z)| <= d(z, z*), so
#   a(D) >= exp(-|G(zhat)| / sigma) int_Omega exp(-d(z, z*)/sigma) dz / Z_q,
# Z_q = int exp(-mu d(z, zhat)/sigma) dz over the whole space (the same for
# every zhat). The integral over Omega is a convolution of two radially
# decreasing functions and decreases as z* moves away from c (spherical
# rearrangement; Baernstein & Taylor 1976): its smallest value is at
# d(c, z*) = r, which kng_rejection_acceptance() bounds from below.
#
# The fit. zhat = K steps z <- Exp_z(-G(z)) from the public centre c (unit
# step, no stopping rule), each iterate clipped to B_r(c). On spaces of
# constant curvature >= 0 these steps stay in B_r(c) (Afsari, Tron & Vidal
# 2013; the clip is then a no-op, and it keeps zhat in Omega whatever
# happens). F_D is mu-strongly convex and 1-smooth there, so the descent
# lemma and the Polyak-Lojasiewicz inequality give
# F(z_K) - F* <= (1 - mu)^K (F(c) - F*) <= (1 - mu)^K r^2 / 2 and
#   |G(z_K)| <= sqrt(2 (F(z_K) - F*)) <= r (1 - mu)^(K/2) =: g_K,
# a public bound. a_min = exp(-g_K / sigma) a_0, a_0 the bound above.
#
# Release: K + 1 + N gradient passes whatever the data; the first accepted
# of N proposals, all evaluated, else the public centre. Its law is
# (1 - phi_D) f_D + phi_D delta_c with phi_D = (1 - a(D))^N <= delta_f =
# (1 - a_min)^N, so it is (epsilon + log(1 / (1 - delta_f)), delta_f)-DP
# (Seeman, Reimherr & Slavkovic 2021 make the same accounting for exact
# samplers of the exponential mechanism with a finite run time).

# Largest number of proposals of the rejection route (beyond: the chain).
kng_rejection_max_proposals <- 1e5

# Largest number of fit steps searched for (the best total work is far below
# it wherever the route is worth taking).
kng_rejection_max_fit <- 5000L

# The rejection route's manifolds: spheres (constant curvature 1, or the flat
# circle). Kendall's shape space (curvature in [1, 4]), hyperbolic space and
# SPD stay on the chain: see the issue note.
kng_rejection_supported <- function(M) identical(M$type, "sphere")

#' Public constants of the exact K-norm gradient release by rejection
#'
#' The constants of the exact K-norm gradient (KNG) release of a Fréchet mean
#' by rejection from a Riemannian Laplace envelope (see the section "Exact
#' KNG by rejection" of [dp_frechet_mean()]), computed from public
#' quantities only: the manifold (its dimension and curvature), `n`,
#' `epsilon`, `radius` and the target `delta_target`.
#'
#' With \eqn{\rho = 2r}{rho = 2 r} (the data ball and the support share the
#' radius r), \eqn{\mu = \rho\sqrt\kappa\cot(\rho\sqrt\kappa)}{mu = rho
#' sqrt(kappa) cot(rho sqrt(kappa))} bounds the Hessian of the Fréchet cost
#' from below on the support, \eqn{\sigma = 2\Delta/\epsilon}{sigma = 2
#' Delta / epsilon} with \eqn{\Delta}{Delta} from
#' [sensitivity_frechet_gradient()]. The fit takes `fit_iter` unit gradient
#' steps from the centre; its gradient norm is then at most
#' \eqn{g = r(1-\mu)^{K/2}}{g = r (1 - mu)^(K/2)}. The acceptance rate of
#' every data set is at least \eqn{a_{min} = e^{-g/\sigma} a_0}{a_min =
#' exp(-g / sigma) a_0}, with \eqn{a_0}{a_0} a lower bound (lower Riemann
#' sums with the exponential factor integrated exactly, not an estimate) of
#' the acceptance with the exact minimiser on the boundary of the ball. `N`
#' proposals make the release fail (and return the centre) with probability
#' at most \eqn{\delta_f = (1 - a_{min})^N \le}{delta_f = (1 - a_min)^N <=}
#' `delta_target`; `fit_iter` is chosen to minimise the gradient passes
#' \eqn{K + 1 + N}{K + 1 + N}.
#'
#' @param M A sphere, [manifold_sphere()].
#' @param n Sample size (public).
#' @param epsilon Privacy budget.
#' @param radius The public radius of the data ball and of the support.
#' @param delta_target Largest failure probability \eqn{\delta_f}{delta_f}.
#' @return A list: `mu`, `sigma`, `Delta`, `a0`, `a_min`, `N`, `delta_f`,
#'   `fit_iter`, `fit_bound` (g), `passes` (\eqn{K + 1 + N}{K + 1 + N}),
#'   `epsilon_total` (\eqn{\epsilon + \log(1/(1-\delta_f))}{epsilon +
#'   log(1/(1 - delta_f))}) and `available` (`FALSE` with a `reason` where the
#'   route does not apply).
#' @references Seeman, J., Reimherr, M. and Slavkovic, A. (2021). Exact
#'   privacy guarantees for Markov chain implementations of the exponential
#'   mechanism with artificial atoms. NeurIPS 2021.
#' @keywords internal
#' @noRd
kng_rejection_plan <- function(M, n, epsilon, radius, delta_target = 1e-15) {
  call <- sys.call()
  s <- frechet_sensitivities(M, n, radius, call)
  epsilon <- check_positive(epsilon, "epsilon", call)
  delta_target <- check_positive(delta_target, "delta_target", call)
  if (!(delta_target < 1)) abort("`delta_target` must be a number in (0, 1)", call)
  out <- list(available = FALSE, reason = NULL, mu = NA_real_, sigma = 2 * s$gradient / epsilon,
              Delta = s$gradient, a0 = NA_real_, a_min = NA_real_, N = NA_real_, delta_f = NA_real_,
              fit_iter = NA_integer_, fit_bound = NA_real_, passes = NA_real_, epsilon_total = NA_real_)
  if (!kng_rejection_supported(M)) {
    out$reason <- sprintf("the rejection route is implemented on spheres only (not on %s)", manifold_label(M))
    return(out)
  }
  kappa <- M$curvature[2]
  rho <- 2 * radius
  if (kappa > 0 && !(rho * sqrt(kappa) < pi / 2)) {
    out$reason <- sprintf("it needs 2 radius sqrt(kappa) < pi/2 (here %s)", format(rho * sqrt(kappa), digits = 4))
    return(out)
  }
  # mu is the h of the sensitivity formula (frechet_h(), at the radius r:
  # 2 r sqrt(kappa) cot(2 r sqrt(kappa)), 1 on the flat circle)
  mu <- s$h
  sigma <- out$sigma
  if (!is.finite(sigma) || !(mu > 0)) {
    out$reason <- "sigma or mu is not a finite positive number"
    return(out)
  }
  a0 <- kng_rejection_acceptance(M$dim, kappa, sigma, mu, radius, radius)
  # K fit steps: g_K = r (1 - mu)^(K/2); the total work K + 1 + N is minimised
  K <- 0:kng_rejection_max_fit
  g <- radius * exp(K / 2 * log1p(-min(mu, 1)))
  g[K > 0 & mu >= 1] <- 0
  a <- exp(-g / sigma) * a0
  N <- ceiling(log(delta_target) / log1p(-pmin(a, 1 - 1e-16)))
  N[!(a > 0)] <- Inf
  total <- K + 1 + N
  best <- which.min(total)
  out$mu <- mu
  out$a0 <- a0
  out$fit_iter <- K[best]
  out$fit_bound <- g[best]
  out$a_min <- a[best]
  out$N <- N[best]
  # rounded up, as all accounting: a few ulps of exp and log1p
  out$delta_f <- if (is.finite(N[best])) min(1, exp(N[best] * log1p(-a[best])) * (1 + 16 * .Machine$double.eps)) else 1
  out$passes <- total[best]
  out$epsilon_total <- (epsilon - log1p(-out$delta_f)) * (1 + 4 * .Machine$double.eps)
  if (!(out$N <= kng_rejection_max_proposals)) {
    out$reason <- sprintf("its proven acceptance rate %s needs %s proposals for delta_f <= %s, more than %s",
                          format(a[best], digits = 3), format(N[best], digits = 3),
                          format(delta_target, digits = 3), format(kng_rejection_max_proposals))
    return(out)
  }
  out$available <- TRUE
  out
}

# A lower bound on the acceptance rate of the rejection sampler with the exact
# minimiser z* at distance a = r from the centre (the worst case) and an exact
# fit: int_{B_R(c)} exp(-d(z, z*)/sigma) dz / Z_q, Z_q = int exp(-mu d(z, zhat)
# / sigma) dz over the whole space of constant curvature kappa (kappa > 0:
# the sphere of radius 1/sqrt(kappa), dimension d >= 2; kappa = 0 with d = 1:
# the circle of length 2 pi). In geodesic polar coordinates about z* (the
# area of the unit sphere S^{d-1} cancels):
#   num = int_0^{R+a} e^{-s/sigma} sn(s)^{d-1} frac(s) ds,
#   den = int_0^{inj} e^{-mu s/sigma} sn(s)^{d-1} ds,
# frac(s) the share of the geodesic sphere of radius s about z* inside
# B_R(c): by the spherical law of cosines the directions with
# cos(phi) >= t(s) = (cos R - cos s cos a) / (sin s sin a), phi the angle to
# the direction of c, i.e. pbeta((1 - t)/2, (d-1)/2, (d-1)/2). t increases in
# s (dt/ds = sin a (cos a - cos R cos s) / (sin s sin a)^2 >= 0 for a <= R,
# s <= pi/2), so frac decreases, and so does sn(s)/s (= sin(s)/s) on [0, pi].
# Writing each integrand as [e^{-c s} s^{d-1}] x [a decreasing factor],
# integrating the first factor exactly on each cell (regularised incomplete
# gamma) and taking the decreasing factor at the cell's right end (num) or
# left end (den) bounds num from below and den from above: no quadrature
# error enters the bound (floating point aside).
kng_rejection_acceptance <- function(d, kappa, sigma, mu, r, R, cells = 4000L) {
  a <- r
  if (kappa > 0) {
    # unit curvature: distances scaled by sqrt(kappa)
    k <- sqrt(kappa)
    sigma <- sigma * k
    a <- a * k
    R <- R * k
    inj <- pi
  } else {
    if (d != 1L) stop("kng_rejection_acceptance: kappa = 0 only for the circle (d = 1)")
    inj <- pi
  }
  # cells finer near 0, where the mass is when sigma is small
  grid <- function(top) top * (seq(0, cells) / cells)^2
  # int over cells of e^{-s/scale} s^{d-1} ds, up to the common factor
  # Gamma(d) scale^d: increments of pgamma (upper tails where they are small)
  cell_mass <- function(s, scale) {
    x <- s / scale
    lo <- stats::pgamma(x, d)
    up <- stats::pgamma(x, d, lower.tail = FALSE)
    use_up <- x[-length(x)] > d
    ifelse(use_up, up[-length(up)] - up[-1L], diff(lo))
  }
  frac <- function(s) {
    if (d == 1L) return(((s <= R - a) + (s <= R + a)) / 2)
    if (a == 0) return(as.numeric(s <= R))
    # cos R - cos s cos a without cancellation
    num <- -2 * sin((R + a) / 2) * sin((R - a) / 2) + 2 * cos(a) * sin(s / 2)^2
    t <- num / (sin(s) * sin(a))
    t <- pmin(1, pmax(-1, t))
    stats::pbeta((1 - t) / 2, (d - 1) / 2, (d - 1) / 2)
  }
  sinc_pow <- function(s) if (d == 1L || kappa == 0) rep(1, length(s)) else ifelse(s == 0, 1, (sin(s) / s)^(d - 1))
  s_num <- grid(R + a)
  right <- s_num[-1L]
  num <- sum(cell_mass(s_num, sigma) * sinc_pow(right) * frac(right))
  s_den <- grid(inj)
  left <- s_den[-length(s_den)]
  den <- sum(cell_mass(s_den, sigma / mu) * sinc_pow(left))
  # both carry Gamma(d) times scale^d: sigma^d in num, (sigma/mu)^d in den
  max(0, mu^d * num / den)
}
