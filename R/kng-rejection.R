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
# Hyperbolic space H^d (curvature -1). Hess (1/2) d^2(., x) has eigenvalues
# 1 and s coth(s) at distance s, so on Omega mu = 1 and Hess F_D <= L I with
# L = rho coth(rho): (1) holds with mu = 1, the proposal is the Laplace law
# of scale sigma (it exists for sigma < 1/(d - 1)), and |G(z)| <= L d(z, z*)
# gives a_0 with exp(-L d(z, z*)/sigma) in the integral (the rearrangement
# holds on H^d too; Baernstein 1994). The fit takes steps of length 1/L^3
# along the mean Log (the bound of the contraction is in
# kng_rejection_plan()), and g_K = L r (1 - 1/L^3)^(K/2).
#
# Release: K + 1 + N gradient passes whatever the data; the first accepted
# of N proposals, all evaluated, else the public centre. Its law is
# (1 - phi_D) f_D + phi_D delta_c with phi_D = (1 - a(D))^N <= delta_f =
# (1 - a_min)^N, so it is (epsilon + log(1 / (1 - delta_f)), delta_f)-DP
# (Seeman, Reimherr & Slavkovic 2021 make the same accounting for exact
# samplers of the exponential mechanism with a finite run time).

# Largest number of proposals of the rejection route (beyond: the chain).
kng_rejection_max_proposals <- 1e5

# Smallest sigma / radius of the rejection route (the chain below it).
kng_rejection_min_sigma <- 1e-9

# Largest number of fit steps searched for (the best total work is far below
# it wherever the route is worth taking).
kng_rejection_max_fit <- 5000L

# The rejection route's manifolds: spheres (constant curvature 1, or the flat
# circle) and hyperbolic space H^d, d >= 2 (curvature -1). Kendall's shape
# space (curvature in [1, 4]) and SPD (curvature in [-1/2, 0], not constant)
# stay on the chain.
kng_rejection_supported <- function(M) identical(M$type, "sphere") || (identical(M$type, "hyperbolic") && M$d >= 2L)

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
#' \eqn{K + 1 + N}{K + 1 + N}. On hyperbolic space \eqn{\mu = 1}{mu = 1},
#' the Hessian is at most \eqn{L = \rho\coth\rho}{L = rho coth(rho)}, the
#' fit's steps have length \eqn{1/L^3}{1/L^3} along the mean Log, and
#' \eqn{g = L r (1 - 1/L^3)^{K/2}}{g = L r (1 - 1/L^3)^(K/2)}.
#'
#' @param M A sphere, [manifold_sphere()], or hyperbolic space,
#'   [manifold_hyperbolic()] of dimension at least 2.
#' @param n Sample size (public).
#' @param epsilon Privacy budget.
#' @param radius The public radius of the data ball and of the support.
#' @param delta_target Largest failure probability \eqn{\delta_f}{delta_f}.
#' @return A list: `mu`, `L`, `sigma`, `Delta`, `a0`, `a_min`, `N`, `delta_f`,
#'   `fit_iter`, `fit_step`, `fit_bound` (g), `passes` (\eqn{K + 1 + N}{K + 1 + N}),
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
  out <- list(available = FALSE, reason = NULL, mu = NA_real_, L = NA_real_, fit_step = NA_real_,
              sigma = 2 * s$gradient / epsilon, Delta = s$gradient, a0 = NA_real_, a_min = NA_real_, N = NA_real_, delta_f = NA_real_,
              fit_iter = NA_integer_, fit_bound = NA_real_, passes = NA_real_, epsilon_total = NA_real_)
  if (!kng_rejection_supported(M)) {
    out$reason <- sprintf("the rejection route is implemented on spheres and hyperbolic space only (not on %s)", manifold_label(M))
    return(out)
  }
  kappa <- M$curvature[2]
  rho <- 2 * radius
  sigma <- out$sigma
  if (M$type == "hyperbolic") {
    # curvature -1: Hess F_D >= I (mu = 1) and <= L = rho coth(rho) on the
    # ball (every point within rho of every data point). The proposal is the
    # Riemannian Laplace law of scale sigma, which exists for sigma < 1/(d-1).
    mu <- 1
    L <- rho / tanh(rho)
    if (!(sigma < laplace_sigma_max(M))) {
      out$reason <- sprintf("its Laplace proposal of scale sigma = %s needs sigma < 1/(d - 1) = %s on %s",
                            format(sigma, digits = 4), format(laplace_sigma_max(M), digits = 4), manifold_label(M))
      return(out)
    }
    # The fit: z <- Exp_z(eta mean Log_z(x_i)), clipped to the ball (a
    # projection onto a convex set: no farther from z*). With c = d(z, z*),
    # <-G, Log_z z*> >= c^2 (Hess >= 1), |G| <= L c, and the law of cosines
    # with distortion zeta = L at sides <= rho (Zhang & Sra 2016, Lemma 5):
    # d(z+, z*)^2 <= (1 - 2 eta + L^3 eta^2) c^2, least at eta = 1/L^3, so
    # d(z_K, z*)^2 <= (1 - 1/L^3)^K r^2 and |G(z_K)| <= L r (1 - 1/L^3)^(K/2).
    step <- 1 / L^3
    contraction <- 1 - 1 / L^3
    g_of <- function(K) L * radius * exp(K / 2 * log(contraction))
  } else {
    if (kappa > 0 && !(rho * sqrt(kappa) < pi / 2)) {
      out$reason <- sprintf("it needs 2 radius sqrt(kappa) < pi/2 (here %s)", format(rho * sqrt(kappa), digits = 4))
      return(out)
    }
    # mu is the h of the sensitivity formula (frechet_h(), at the radius r:
    # 2 r sqrt(kappa) cot(2 r sqrt(kappa)), 1 on the flat circle); Hess <= I
    mu <- s$h
    L <- 1
    step <- 1
    g_of <- function(K) {
      g <- radius * exp(K / 2 * log1p(-min(mu, 1)))
      g[K > 0 & mu >= 1] <- 0
      g
    }
  }
  if (!is.finite(sigma) || !(mu > 0)) {
    out$reason <- "sigma or mu is not a finite positive number"
    return(out)
  }
  # Below this the acceptance ratio exp(-(|G| - mu d + |G(zhat)|)/sigma)
  # divides the rounding of |G| (a few ulps of the coordinates) by sigma:
  # the proposals stop being accepted although a_min says otherwise.
  if (sigma < kng_rejection_min_sigma * radius) {
    out$reason <- sprintf("sigma = %s is below %s times the radius, where double precision no longer resolves the acceptance ratio",
                          format(sigma, digits = 3), format(kng_rejection_min_sigma))
    return(out)
  }
  a0 <- kng_rejection_acceptance(M$dim, kappa, sigma, mu, radius, radius, L = L)
  if (!is.finite(a0) || !(a0 > 0)) {
    # e.g. a radius or a sigma so small that the bound's integrals underflow
    out$reason <- sprintf("its acceptance bound is not a positive number in double precision at radius %s and sigma %s",
                          format(radius, digits = 3), format(sigma, digits = 3))
    return(out)
  }
  # K fit steps: g_K bounds |G| at the fit; the total work K + 1 + N is minimised
  K <- 0:kng_rejection_max_fit
  g <- g_of(K)
  a <- exp(-g / sigma) * a0
  a[!is.finite(a)] <- 0
  N <- ceiling(log(delta_target) / log1p(-pmin(a, 1 - 1e-16)))
  N[!(a > 0) | is.na(N)] <- Inf
  total <- K + 1 + N
  best <- which.min(total)
  out$mu <- mu
  out$L <- L
  out$fit_step <- step
  out$a0 <- a0
  out$fit_iter <- K[best]
  out$fit_bound <- g[best]
  out$a_min <- a[best]
  out$N <- N[best]
  # rounded up, as all accounting: the exponent N log1p(-a) carries a
  # relative error of a few ulps, i.e. an absolute one of a few ulps times
  # its size, which exp() turns into that relative error of delta_f; and a
  # subnormal or underflowed delta_f gets the smallest double added
  out$delta_f <- if (is.finite(N[best])) {
    L <- N[best] * log1p(-a[best])
    min(1, exp(L) * (1 + (16 + 4 * abs(L)) * .Machine$double.eps) + 2^-1074)
  } else 1
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
kng_rejection_acceptance <- function(d, kappa, sigma, mu, r, R, cells = 4000L, L = 1) {
  a <- r
  hyperbolic <- kappa < 0
  if (kappa > 0) {
    # unit curvature: distances scaled by sqrt(kappa)
    k <- sqrt(kappa)
    sigma <- sigma * k
    a <- a * k
    R <- R * k
    inj <- pi
  } else if (hyperbolic) {
    if (kappa != -1) stop("kng_rejection_acceptance: hyperbolic space of curvature -1 only")
    if (!(d >= 2L && (d - 1) * sigma / mu < 1)) return(NA_real_)
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
    if (hyperbolic) {
      # cos(phi) >= t = (cosh s cosh a - cosh R) / (sinh s sinh a)
      #            = 1 + (cosh(s - a) - cosh R) / (sinh s sinh a)
      t <- 1 + 2 * sinh((s - a + R) / 2) * sinh((s - a - R) / 2) / (sinh(s) * sinh(a))
    } else {
      # cos R - cos s cos a without cancellation
      num <- -2 * sin((R + a) / 2) * sin((R - a) / 2) + 2 * cos(a) * sin(s / 2)^2
      t <- num / (sin(s) * sin(a))
    }
    t <- pmin(1, pmax(-1, t))
    stats::pbeta((1 - t) / 2, (d - 1) / 2, (d - 1) / 2)
  }
  # (sn(s)/s)^(d-1): decreasing on the sphere, increasing on H^d
  sn_ratio <- function(s) {
    if (d == 1L || kappa == 0) return(rep(1, length(s)))
    f <- if (hyperbolic) sinh(s) / s else sin(s) / s
    ifelse(s == 0, 1, f^(d - 1))
  }
  s_num <- grid(R + a)
  # lower bound: the decreasing factors at the cells' right ends, the
  # increasing one (H^d) at their left ends
  num <- sum(cell_mass(s_num, sigma / L) * frac(s_num[-1L]) *
               sn_ratio(if (hyperbolic) s_num[-length(s_num)] else s_num[-1L]))
  if (hyperbolic) {
    # upper bound of int_0^Inf e^{-mu s/sigma} sinh^{d-1}(s) ds: cells up to
    # T with the increasing factor at the right ends, and the tail beyond T
    # with sinh(s) <= e^s / 2, in the same units (Gamma(d) (sigma/mu)^d)
    rate <- mu / sigma - (d - 1)
    top <- min(600 / (d - 1), max(2 * (R + a), 60 / rate))
    s_den <- grid(top)
    den <- sum(cell_mass(s_den, sigma / mu) * sn_ratio(s_den[-1L]))
    log_tail <- -(d - 1) * log(2) - rate * top - log(rate) - lgamma(d) - d * log(sigma / mu)
    den <- den + exp(log_tail)
  } else {
    s_den <- grid(inj)
    den <- sum(cell_mass(s_den, sigma / mu) * sn_ratio(s_den[-length(s_den)]))
  }
  # num carries Gamma(d) (sigma/L)^d, den Gamma(d) (sigma/mu)^d
  out <- (mu / L)^d * num / den
  if (is.finite(out)) max(0, out) else NA_real_
}
