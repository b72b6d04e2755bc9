# Confidence sets from a private Frechet mean: post-processing of the release
# and its public parameters (and, for the population mean, of a dispersion
# bound that is public or released privately by dp_dispersion()).

#' Release a private dispersion of the data about a public centre
#'
#' The mean squared distance of the data from the public `center` (or from
#' a private release, `about`),
#' \eqn{V_c = \frac1n\sum_i d(x_i, c)^2}{V_c = (1/n) sum_i d(x_i, c)^2},
#' released by the Laplace mechanism. With the data in the public ball of
#' radius \eqn{r}{r} one record changes \eqn{V_c}{V_c} by at most
#' \eqn{r^2/n}{r^2/n}, so the noise has scale \eqn{r^2/(n\epsilon)}{r^2/(n epsilon)}
#' and the release is \eqn{\epsilon}{epsilon}-DP (Dwork & Roth 2014). It is what
#' [confint()][confint.riemdp_frechet_release] needs for a confidence set for the
#' population Fréchet mean: the Fréchet variance about the mean,
#' \eqn{E\,d^2(X, m)}{E d^2(X, m)}, is at most \eqn{E\,d^2(X, c)}{E d^2(X, c)} for any
#' point \eqn{c}{c} (the mean minimises it), so \eqn{V_c}{V_c} bounds it from above.
#' Spend a small share of the budget on it (e.g. 10%) and account both
#' releases with [dp_budget()].
#'
#' @param M A manifold.
#' @param X The data, as for [dp_frechet_mean()].
#' @param epsilon Privacy budget of this release, a single number > 0.
#' @param radius,center The public ball that holds the data, as for
#'   [dp_frechet_mean()].
#' @param outside `"error"` (the default) or `"clip"`: points farther than
#'   `radius` from `center` are an error, or moved to the ball's boundary.
#' @param about `NULL` (distances from `center`) or a release of
#'   [dp_frechet_mean()] on the same data: distances from its private
#'   estimate, which lies near the mean, so the bound is tighter. The data
#'   then lie within \eqn{R = r + d(c, z)}{R = r + d(c, z)} of it and the
#'   sensitivity is \eqn{R^2/n}{R^2/n}; the release `about` is public once
#'   released, so using it costs nothing more (its own budget is accounted
#'   with it).
#' @return An object of class `c("riemdp_dispersion_release",
#'   "riemdp_release")`: `estimate` (the private \eqn{V_c}{V_c}, clipped to
#'   \eqn{[0, r^2]}{[0, r^2]}), `raw` (before clipping), `scale` (the
#'   Laplace scale), `epsilon`, `guarantee` (`"epsilon-DP"`),
#'   `guarantee_kind` (`"exact"`), `n`, `radius`, `center`, `manifold`,
#'   `sensitivity` and `call`.
#' @references Dwork, C. and Roth, A. (2014). The algorithmic foundations of
#'   differential privacy. *Foundations and Trends in Theoretical Computer
#'   Science* 9.
#' @seealso [confint.riemdp_frechet_release()]
#' @examples
#' S2 <- manifold_sphere(2)
#' set.seed(1)
#' X <- riem_rgaussian(S2, 500, c(0, 0, 1), 0.05)
#' v <- dp_dispersion(S2, X, epsilon = 0.1, radius = 0.3, center = c(0, 0, 1))
#' v
#' # about a private mean: a tighter bound
#' rel <- dp_frechet_mean(S2, X, epsilon = 0.9, radius = 0.3, center = c(0, 0, 1))
#' dp_dispersion(S2, X, epsilon = 0.1, radius = 0.3, center = c(0, 0, 1), about = rel)
#' @export
dp_dispersion <- function(M, X, epsilon, radius, center, outside = c("error", "clip"), about = NULL) {
  call <- call_without_data(match.call(), "X", "dp_dispersion")
  check_manifold(M, call)
  if (missing(epsilon)) abort("`epsilon` is required: the privacy budget of the dispersion (a single finite number > 0)", call)
  if (missing(radius) || missing(center))
    abort("`radius` and `center` are required: the public ball that holds the data", call)
  epsilon <- check_positive(epsilon, "epsilon", call)
  radius <- check_positive(radius, "radius", call)
  outside <- arg_match(outside, c("error", "clip"), "outside", call)
  C <- as_points(M, center, "center", call)
  if (C$n != 1L) abort("`center` must be a single point", call)
  check_ball_resolved(M, C, radius, call)
  # the point the distances are taken from: the public centre, or a private
  # release (public once released: post-processing, Dwork & Roth 2014 Prop. 2.1)
  A <- C
  reach <- radius
  if (!is.null(about)) {
    if (!inherits(about, "riemdp_frechet_release"))
      abort("`about` must be NULL (the public centre) or a release of dp_frechet_mean() (its private estimate)", call)
    A <- as_points(M, about$estimate, "about$estimate", call)
    # every data point lies within radius + d(center, about) of it
    reach <- radius + as.vector(geom_dist(M, C, A))
  }
  S <- release_points(M, X, call)
  n <- S$n
  sens <- reach^2 / n
  scale <- sens / epsilon
  if (!is.finite(scale)) abort(sprintf("`epsilon` = %s is too small: the noise scale overflows double precision", format(epsilon)), call)
  # The data enter only here: the clipped distances' mean, then the noise.
  S <- bound_to_ball(M, S, C, radius, outside, call)
  d <- pmin(geom_dist(M, A, S), reach)
  raw <- mean(d^2) + scale * (stats::rexp(1) - stats::rexp(1))
  rm(d, S)
  structure(list(estimate = min(reach^2, max(0, raw)), raw = raw, scale = scale, reach = reach, manifold = M,
                 about = if (is.null(about)) "center" else "release",
                 guarantee = "epsilon-DP", guarantee_kind = "exact", epsilon = epsilon, sensitivity = sens,
                 n = n, radius = radius, center = from_values(M, C$x, 1L, TRUE, center), outside = outside,
                 call = call),
            class = c("riemdp_dispersion_release", "riemdp_release"))
}

#' @export
print.riemdp_dispersion_release <- function(x, ...) {
  cat(sprintf("<riemdp release> private dispersion about the %s on %s (n = %d)\n",
              if (identical(x$about, "release")) "private release's estimate" else "public centre",
              manifold_label(x$manifold), x$n))
  cat(strwrap(sprintf("Guarantee: %s-DP (pure epsilon-DP): the Laplace mechanism with scale %s = R^2/(n epsilon) (sensitivity R^2/n of the mean squared distance, every point within R = %s of the point it is taken from). %s Guarantee kind: exact.",
                      format_guarantee(x$epsilon, 4), format(x$scale, digits = 4), format(x$reach %||% x$radius, digits = 4),
                      implied_mu_sentence(x$epsilon)), exdent = 2, prefix = "", initial = ""), sep = "\n")
  cat(sprintf("Private mean squared distance: %s (root: %s)\n",
              format(x$estimate, digits = 4), format(sqrt(x$estimate), digits = 4)))
  invisible(x)
}

#' Confidence sets for the Fréchet mean behind a private release
#'
#' A geodesic ball around a release of [dp_frechet_mean()] that covers the
#' Fréchet mean with probability `level`: the non-private mean of the data
#' (`target = "estimate"`), or the population Fréchet mean
#' (`target = "population"`, the default when `dispersion` is given).
#'
#' **What the set uses.** The release, its public parameters and the law of
#' its mechanism, nothing else from the data: the set is post-processing and
#' costs no budget. For the population mean it also needs the data's
#' dispersion, either a public bound (`dispersion` a number: the root mean
#' square distance of the population from its mean, in the units of the
#' manifold's distance) or a private one ([dp_dispersion()] on the same data,
#' whose budget [dp_budget()] accounts).
#'
#' **Construction.** The release is \eqn{z = Exp_{\hat m}(P)}{z = Exp_mhat(P)},
#' \eqn{\hat m}{mhat} the Fréchet mean of the data and \eqn{P}{P} a tangent vector
#' with a radial law that depends only on \eqn{\sigma}{sigma} and the manifold (Laplace,
#' Gaussian; Reimherr, Bharath & Soto 2021; Jiang et al. 2023). For the
#' estimate the ball's radius is the `level` quantile of \eqn{|P|}{|P|}, exact for
#' the Laplace and Gaussian mechanisms. For the population mean \eqn{m}{m},
#' \eqn{\sqrt n\,Log_m(\hat m)}{sqrt(n) Log_m(mhat)} is approximately Gaussian
#' (Bhattacharya & Patrangenaru 2005); the set treats it as isotropic with
#' total variance \eqn{s^2/n}{s^2/n} in the tangent space, \eqn{s^2}{s^2} the
#' Fréchet variance, and takes the `level` quantile of \eqn{|S + P|}{|S + P|},
#' \eqn{S}{S} that Gaussian (a mixture of non-central chi-square laws over the
#' radial law of \eqn{P}{P}, computed by quadrature: no random numbers). A
#' private dispersion \eqn{\tilde V}{Vtilde} from [dp_dispersion()] enters as
#' the upper bound \eqn{s^2 \le \tilde V + b\log(1/(2\alpha_V))}{s^2 <= Vtilde + b log(1/(2 alpha_V))}
#' (\eqn{b}{b} its Laplace scale, \eqn{\alpha_V = (1 - level)/10}{alpha_V = (1 - level)/10}),
#' and the ball is then built at level \eqn{level + \alpha_V}{level + alpha_V}.
#'
#' **Approximations, and where they bite.** The flat treatment of the
#' sampling error holds when the data's spread is small against the
#' curvature radius; anisotropic data (e.g. epicentres along a trench) and
#' heavy tails make the isotropic Gaussian approximation too narrow at small
#' `n`; the private bound \eqn{E\,d^2(X, c) \ge E\,d^2(X, m)}{E d^2(X, c) >= E d^2(X, m)} is
#' conservative when the mean lies far from the public centre. With
#' `outside = "clip"` and points outside the ball the release perturbs the
#' mean of the clipped data, and so does the ball: it does not cover the
#' bias of the clipping. For the
#' K-norm gradient mechanism the law of \eqn{|P|}{|P|} is replaced by the
#' linearised one, the Laplace law of scale \eqn{\sigma/\mu}{sigma/mu} (an
#' approximation; the release lies in the public ball, so the estimate's
#' ball never needs a radius above \eqn{2r}{2 r}). \eqn{\mu}{mu} bounds the
#' Hessian of the Fréchet cost from below: on the whole ball for the
#' estimate; for the population mean on spheres and Kendall's space
#' (curvature at most \eqn{\kappa}{kappa}), the larger of that bound and
#' \eqn{1 - \kappa t^2/2}{1 - kappa t^2 / 2}, \eqn{t = s + 2q +
#' s\sqrt{\chi^2_{d}(level)/n}}{t = s + 2 q + s sqrt(chi2_d(level) / n)}
#' (\eqn{q}{q} the noise quantile with the first bound): \eqn{t}{t} bounds
#' the root mean square distance of the data from the points near the
#' release with probability \eqn{1 - \alpha_V}{1 - alpha_V} for a
#' [dp_dispersion()] release, and only approximately for a public
#' `dispersion` (the sample's spread about the population mean exceeds
#' \eqn{s}{s} about half the time). The same holds for the estimate's ball
#' when `dispersion` is given; without it the estimate's ball uses the whole
#' ball's bound, so it can be wider than the population's. On SPD the radial law is
#' estimated from 20000 exact draws under a fixed internal seed (the
#' session's random numbers are left as they were). Its coverage is
#' measured over a matrix of manifolds, sample sizes, budgets and mechanisms:
#' `vignette("accuracy", package = "riemdp")` reports it.
#'
#' @param object A release of [dp_frechet_mean()].
#' @param parm Not used (a Fréchet mean is one point); must be missing.
#' @param level The confidence level, a number in (0, 1).
#' @param dispersion `NULL`, a public bound on the root mean square distance
#'   of the population from its Fréchet mean (a number \eqn{\ge 0}{>= 0}), or a
#'   [dp_dispersion()] release on the same data. Needed for the population
#'   mean; for the estimate it is used only by the K-norm gradient mechanism
#'   on spheres and Kendall's space (the Hessian's bound near the release),
#'   and ignored otherwise.
#' @param target `"population"` (the population Fréchet mean; needs
#'   `dispersion`) or `"estimate"` (the Fréchet mean of the data). The
#'   default is `"population"` when `dispersion` is given, else `"estimate"`.
#' @param ... Not used.
#' @return An object of class `riemdp_confset`: `center` (the release),
#'   `radius` (of the geodesic ball), `level`, `target`, `manifold`,
#'   `noise_quantile` (the `level` quantile of the release's own noise, with
#'   the local Hessian bound where it applies),
#'   `dispersion` (the root mean square bound used, or `NA`),
#'   `approximate` (`TRUE` where the noise law is the linearised one) and
#'   `method`. Test points with [dp_contains()].
#' @references Bhattacharya, R. and Patrangenaru, V. (2005). Large sample
#'   theory of intrinsic and extrinsic sample means on manifolds II. *Annals
#'   of Statistics* 33; Reimherr, M., Bharath, K. and Soto, C. (2021).
#'   Differential privacy over Riemannian manifolds. *NeurIPS*; Jiang, Y. et
#'   al. (2023). Gaussian differential privacy on Riemannian manifolds.
#'   *NeurIPS*.
#' @seealso [dp_dispersion()], [dp_contains()], [dp_accuracy()] to plan
#'   before spending the budget.
#' @examples
#' S2 <- manifold_sphere(2)
#' north <- c(0, 0, 1)
#' set.seed(1)
#' X <- riem_rgaussian(S2, 500, north, 0.05)
#' rel <- dp_frechet_mean(S2, X, epsilon = 0.9, radius = 0.3, center = north)
#' confint(rel)                                 # covers the data's mean
#' v <- dp_dispersion(S2, X, epsilon = 0.1, radius = 0.3, center = north, about = rel)
#' ci <- confint(rel, dispersion = v)           # covers the population mean
#' ci
#' dp_contains(ci, north)
#' dp_budget(rel, v)                            # 1-DP in all
#' @export
confint.riemdp_frechet_release <- function(object, parm, level = 0.95, dispersion = NULL,
                                           target = NULL, ...) {
  call <- sys.call()
  call[[1L]] <- as.name("confint")
  if (!missing(parm)) abort("`parm` is not used: a Fr\u00e9chet mean is one point, and the set is a ball around it", call)
  check_level(level, call)
  if (!is.null(object$bounds_stages))
    abort("confint() is not available for a release with private bounds yet: the ball's radius would depend on the private radius; release with public `center` and `radius`", call)
  if (!(object$mechanism %in% c("laplace", "gaussian", "kng")) || !is.finite(object$sigma))
    abort("`object` has no mechanism with a known noise law (laplace, gaussian or kng with a finite sigma)", call)
  target <- if (is.null(target)) (if (is.null(dispersion)) "estimate" else "population") else
    arg_match(target, c("population", "estimate"), "target", call)
  M <- object$manifold
  d <- M$dim
  s <- NA_real_
  private_s <- FALSE
  if (!is.null(dispersion)) {
    if (inherits(dispersion, "riemdp_dispersion_release")) {
      if (!identical(dispersion$n, object$n))
        abort(sprintf("`dispersion` was released on %d points and `object` on %d: they must come from the same data", dispersion$n, object$n), call)
      if (!identical(dispersion$manifold$type, M$type) || !identical(dispersion$manifold$dim, M$dim))
        abort("`dispersion` was released on another manifold than `object`", call)
      private_s <- TRUE
    } else {
      if (!(is.numeric(dispersion) && length(dispersion) == 1L && is.finite(dispersion) && dispersion >= 0))
        abort("`dispersion` must be NULL, a single finite number >= 0 (a public bound on the root mean square distance of the population from its mean) or a dp_dispersion() release", call)
      s <- as.double(dispersion)
    }
  } else if (target == "population") {
    abort("`dispersion` is required for the population mean: a public bound on the root mean square distance of the population from its mean, or a dp_dispersion() release on the same data (or use target = \"estimate\" for the mean of the data)", call)
  }
  # The dispersion enters the population set's sampling error, and the K-norm
  # noise law on positively curved spaces through the local Hessian bound
  # (kng_local_curvature()); a private one as an upper bound that fails with
  # probability alpha_v, charged to the level.
  local_mu <- !is.null(dispersion) && object$mechanism == "kng" && M$type %in% c("sphere", "kendall")
  uses_s <- target == "population" || local_mu
  alpha_private <- (1 - level) / 10
  alpha_v <- if (private_s && uses_s) alpha_private else 0
  lev <- level + alpha_v
  if (lev > 1 - 1e-8)
    abort(sprintf("`level` = %s is too close to 1: the ball's quadrature resolves levels up to 1 - 1e-8%s", format(level, digits = 10),
                  if (alpha_v > 0) sprintf(" (here the level plus %s for the private dispersion)", format(alpha_v, digits = 3)) else ""), call)
  if (private_s) {
    v_up <- min((dispersion$reach %||% dispersion$radius)^2,
                max(0, dispersion$raw + dispersion$scale * log(1 / (2 * alpha_private))))
    s <- sqrt(v_up)
  }
  law <- release_noise_law(object)
  if (local_mu) law <- release_noise_law(object, mu = kng_local_curvature(M, s, radial_law_quantile(law, lev), object$n, lev))
  qn <- radial_law_quantile(law, level)
  radius <- if (target == "estimate") radial_law_quantile(law, lev) else confset_radius(law, lev, s / sqrt(object$n * d), d)
  if (object$mechanism == "kng" && target == "estimate") radius <- min(radius, 2 * object$radius)
  # a ball as wide as the space is the whole space: M$inj, the injectivity
  # radius, is also the diameter here (pi on spheres, pi / 2 on Kendall's space, else Inf)
  radius <- min(radius, M$inj)
  if (!is.finite(radius))
    abort(sprintf("`dispersion` (%s) is too large: the ball's radius overflows double precision; state a realistic bound on the root mean square distance of the population from its mean", format(s, digits = 3)), call)
  structure(list(center = object$estimate, radius = radius, level = level, target = target, manifold = M,
                 noise_quantile = qn, dispersion = s, private_dispersion = inherits(dispersion, "riemdp_dispersion_release"),
                 approximate = law$approximate, mechanism = object$mechanism, n = object$n,
                 method = if (target == "estimate") "the level quantile of the release's noise"
                          else "the level quantile of |S + P|: isotropic Gaussian sampling error and the release's noise"),
            class = "riemdp_confset")
}

# The lower bound of the Hessian of the Frechet cost F_D near the release,
# for the linearised K-norm law on a space of curvature at most kappa > 0.
# Hess (1/2) d^2(., x) at distance t < pi / sqrt(kappa) has the eigenvalue 1
# along the geodesic and at least sqrt(kappa) t cot(sqrt(kappa) t) across it
# (the Hessian comparison theorem; equality on spheres, and on Kendall's
# space in the direction of curvature 4), and u cot u >= 1 - u^2 / 2 for
# u <= 2.08 (every distance within the public ball: 2 r sqrt(kappa) <
# pi / 2). So Hess F_D(z) >= 1 - kappa mean_i d^2(z, x_i) / 2. The root mean
# square distance of the data from a point z within q of the release (q the
# noise quantile under the ball's bound) is at most s + 2 q plus the
# sampling error of the mean, s sqrt(chi2_d(level) / n): with probability
# 1 - alpha_V for a dp_dispersion() release, only approximately for a public
# dispersion s (the sample's spread about the population mean exceeds s about
# half the time; the slack of u cot u over 1 - u^2 / 2 absorbs it in the
# simulations). Used only where it exceeds the whole ball's bound.
kng_local_curvature <- function(M, s, q, n, level) {
  kappa <- M$curvature[2]
  if (!(kappa > 0)) return(1)
  spread <- min(s + 2 * q + s * sqrt(stats::qchisq(level, M$dim) / n), M$inj)
  1 - kappa * spread^2 / 2
}

# The law of |P|, the distance between a release and the mean it perturbs:
# support points r and weights w (a quadrature of the radial density, or
# exact draws on SPD), from public numbers only. For the K-norm gradient
# mechanism, the linearised law of scale sigma / mu, mu the public lower bound
# of the Hessian on the ball or a larger local one (kng_local_curvature()).
release_noise_law <- function(x, mu = NULL) {
  M <- x$manifold
  kernel <- if (x$mechanism == "gaussian") "gaussian" else "laplace"
  sigma <- x$sigma
  approximate <- x$mechanism == "kng"
  if (approximate) {
    mu_ball <- if (M$type %in% c("sphere", "kendall")) frechet_sensitivities(M, x$n, x$radius, NULL)$h else 1
    sigma <- sigma / max(mu_ball, mu)
  }
  if (M$type == "spd" && M$k >= 2L) {
    if (approximate && !(sigma < laplace_sigma_max(M))) return(flat_radial_law(M$dim, kernel, sigma, TRUE))
    draws <- with_preserved_seed(20250101L, {
      P <- riem_rradial(M, 20000L, diag(M$k), sigma, "auto", mcmc_control(), kernel, NULL,
                        spd_exact_release_min_acceptance)
      geom_dist(M, as_set(M, diag(M$k), "c"), as_set(M, P, "draws"))
    })
    return(list(r = sort(draws), w = rep(1 / length(draws), length(draws)), approximate = approximate))
  }
  if (approximate && !(sigma < laplace_sigma_max(M))) return(flat_radial_law(M$dim, kernel, sigma, TRUE))
  law <- radial_law_grid(M, kernel, sigma)
  law$approximate <- approximate
  law
}

# The flat radial law r^(d-1) times the kernel, on a grid.
flat_radial_law <- function(d, kernel, sigma, approximate) {
  g <- seq(0, if (kernel == "laplace") stats::qgamma(1 - 1e-12, d, scale = sigma)
              else sigma * sqrt(stats::qchisq(1 - 1e-12, d)), length.out = 20001)
  area <- if (d == 1L) 0 else (d - 1) * log(g)
  lf <- if (kernel == "laplace") -g / sigma + area else -g^2 / (2 * sigma^2) + area
  law <- grid_weights(g, lf, approximate)
  # the closed form of its quantiles: sigma Gamma(d, 1), sigma chi(d)
  law$quantile <- function(p) if (kernel == "laplace") stats::qgamma(p, d, scale = sigma)
                              else sigma * sqrt(stats::qchisq(p, d))
  law
}

grid_weights <- function(g, v, approximate = FALSE) {
  v[!is.finite(v)] <- -Inf
  w <- exp(v - max(v))
  # trapezoid masses at the cells' midpoints
  m <- (w[-1L] + w[-length(w)]) / 2 * diff(g)
  list(r = (g[-1L] + g[-length(g)]) / 2, w = m / sum(m), nodes = g, approximate = approximate)
}

# The radial law of the Laplace (exp(-r/sigma)) or Gaussian
# (exp(-r^2/(2 sigma^2))) mechanism on M, with the area of geodesic spheres,
# on a grid that ends where the log density has fallen 60 below its maximum
# (or at the end of the support: pi on the sphere, pi/2 on kendall).
radial_law_grid <- function(M, kernel, sigma) {
  d <- M$dim
  if (M$type == "euclidean" || (M$type == "hyperbolic" && d == 1L) || sigma < 1e-6)
    return(flat_radial_law(d, kernel, sigma, FALSE))
  lf <- function(r) radial_log_density(M, kernel, sigma, r)  # kernel + log area (C++ core)
  bound <- M$inj
  upper <- 4 * sigma
  for (i in seq_len(60L)) {
    if (upper >= bound) {
      upper <- bound
      break
    }
    v <- lf(seq(upper / 1000, upper, length.out = 1000))
    if (isTRUE(v[1000] < max(v, na.rm = TRUE) - 60)) break
    upper <- 2 * upper
  }
  g <- seq(0, upper, length.out = 20001)
  grid_weights(g, lf(g))
}

# The `lev` quantile of |S + P|, S ~ N(0, tau^2 I_d) and |P| of law `law`
# (uniform direction): the population ball's radius.
confset_radius <- function(law, lev, tau, d) {
  if (tau == 0) return(radial_law_quantile(law, lev))
  cl <- coarse_law(law, 200L)
  # The noise quantile widened by the sampling error's own quantile: close to
  # the answer where the sampling error is small against the spacing of the
  # merged law's support points, where the quadrature below sees them as
  # steps (and without it where tau is below 1e-8 of the noise).
  sum_bound <- radial_law_quantile(law, lev) + tau * sqrt(stats::qchisq(lev, d))
  if (tau < 1e-8 * max(cl$r)) return(sum_bound)
  # in units of tau, so that no bound overflows whatever the dispersion
  rho <- cl$r / tau
  cdf <- function(t) sum(cl$w * shifted_gaussian_norm_cdf(t, rho, 1, d))
  hi <- max(rho) + 2 * sqrt(stats::qchisq(1 - (1 - lev) / 10, d))
  min(sum_bound, tau * stats::uniroot(function(t) cdf(t) - lev, c(0, hi), tol = 1e-8 * hi)$root)
}

# P(|S + rho e| <= t) for S ~ N(0, tau^2 I_d), |e| = 1, at each rho: the
# first coordinate s of S by 48-point Gauss-Legendre quadrature over
# [-t - rho, t - rho] (within 9 tau of 0; Golub & Welsch 1969 for the nodes), the other d - 1 a central
# chi-square (the non-central chi-square law, without its slow series at
# large non-centrality).
shifted_gaussian_norm_cdf <- function(t, rho, tau, d) {
  if (d == 1L) return(stats::pnorm((t - rho) / tau) - stats::pnorm((-t - rho) / tau))
  lo <- pmax(-t - rho, -9 * tau)
  hi <- pmin(t - rho, 9 * tau)
  out <- numeric(length(rho))
  ok <- hi > lo
  if (!any(ok)) return(out)
  # s = mid + half sin(pi u / 2): smooth at the ends, where the chi-square
  # CDF behaves like a square root
  q <- gauss_legendre_48
  x <- sin(pi / 2 * q$x)
  wq <- q$w * pi / 2 * cos(pi / 2 * q$x)
  mid <- (hi[ok] + lo[ok]) / 2
  half <- (hi[ok] - lo[ok]) / 2
  s <- mid + outer(half, x)
  f <- stats::dnorm(s, 0, tau) * stats::pchisq(pmax(0, t^2 - (rho[ok] + s)^2) / tau^2, d - 1)
  out[ok] <- half * drop(f %*% wq)
  pmin(1, out)
}

# Gauss-Legendre nodes and weights on [-1, 1] (Golub & Welsch 1969).
gauss_legendre <- function(k) {
  j <- seq_len(k - 1L)
  b <- j / sqrt(4 * j^2 - 1)
  J <- matrix(0, k, k)
  J[cbind(j, j + 1L)] <- b
  J[cbind(j + 1L, j)] <- b
  e <- eigen(J, symmetric = TRUE)
  o <- order(e$values)
  list(x = e$values[o], w = 2 * e$vectors[1L, o]^2)
}
gauss_legendre_48 <- gauss_legendre(48L)

# At most k support points: consecutive cells merged into k groups of equal
# probability (weights summed, the weighted mean distance kept), for the
# mixture of non-central chi-square laws: narrow groups where the mass is,
# so that merging (which shrinks the spread within a group) moves the
# quantiles little.
coarse_law <- function(law, k) {
  m <- length(law$r)
  if (m <= k) return(law)
  g <- pmin(k, ceiling(cumsum(law$w) * k - 1e-9))
  g[g < 1] <- 1
  w <- tapply(law$w, g, sum)
  r <- tapply(law$w * law$r, g, sum) / w
  list(r = as.double(r), w = as.double(w))
}

radial_law_quantile <- function(law, p) {
  if (is.function(law$quantile)) return(law$quantile(p))
  # a grid: the CDF at the nodes, linear between them
  if (!is.null(law$nodes))
    return(stats::approx(c(0, cumsum(law$w)), law$nodes, p, ties = "ordered", rule = 2)$y)
  cum <- cumsum(law$w)
  i <- which(cum >= p)[1L]
  if (is.na(i)) return(max(law$r))
  # linear within the cell (the weights sit at the midpoints)
  lo <- if (i == 1L) 0 else cum[i - 1L]
  r0 <- if (i == 1L) 0 else law$r[i - 1L]
  r0 + (law$r[i] - r0) * (p - lo) / (cum[i] - lo)
}

# Evaluate expr with the RNG seeded at `seed` (R's default generators), then
# restore the session's generator kinds and state (or its absence).
with_preserved_seed <- function(seed, expr) {
  env <- globalenv()
  had <- exists(".Random.seed", envir = env, inherits = FALSE)
  old <- if (had) get(".Random.seed", envir = env, inherits = FALSE)
  kinds <- RNGkind()
  on.exit({
    RNGkind(kinds[1L], kinds[2L], kinds[3L])
    if (had) assign(".Random.seed", old, envir = env) else rm(".Random.seed", envir = env)
  })
  # R's default generators, so that the result does not depend on the
  # session's RNGkind()
  set.seed(seed, kind = "Mersenne-Twister", normal.kind = "Inversion", sample.kind = "Rejection")
  expr
}

#' Does a confidence set contain a point?
#'
#' @param set A set from [confint()][confint.riemdp_frechet_release] of a
#'   Fréchet mean release, or from
#'   [confint()][confint.riemdp_regression_release] of a geodesic
#'   regression release.
#' @param x For a Fréchet mean's ball: one point or several, in the layout
#'   of the manifold (a vector, or one row per point; SPD and Kendall as for
#'   [riem_dist()]). For a geodesic's set: one geodesic,
#'   `list(footpoint = , shooting = )` as [coef()] of a fit gives it (the
#'   point at \eqn{x = 0}{x = 0} and the velocity per unit of the
#'   covariate), or such a fit.
#' @return A logical vector: for a ball, one value per point, whether its
#'   geodesic distance to the set's centre is at most the set's radius; for
#'   a geodesic's set, whether the geodesic lies in the ellipsoid.
#' @examples
#' S2 <- manifold_sphere(2)
#' set.seed(2)
#' X <- riem_rgaussian(S2, 200, c(0, 0, 1), 0.05)
#' ci <- confint(dp_frechet_mean(S2, X, epsilon = 1, radius = 0.3, center = c(0, 0, 1)),
#'               dispersion = 0.1)
#' dp_contains(ci, rbind(c(0, 0, 1), c(1, 0, 0)))
#' @export
dp_contains <- function(set, x) {
  call <- sys.call()
  if (!inherits(set, "riemdp_confset")) abort("`set` must be a confidence set from confint() of a riemdp release", call)
  if (inherits(set, "riemdp_geodesic_confset")) return(geodesic_contains(set, x, call))
  P <- as_set(set$manifold, x, "x", call)
  C <- as_set(set$manifold, set$center, "center", call)
  as.vector(geom_dist(set$manifold, C, P) <= set$radius)
}

#' @export
print.riemdp_confset <- function(x, digits = 4, ...) {
  cat(sprintf("<riemdp confidence set> %s%% geodesic ball for the %s on %s\n",
              format(100 * x$level), if (x$target == "population") "population Fr\u00e9chet mean"
              else "Fr\u00e9chet mean of the data (the estimate the release perturbs)",
              manifold_label(x$manifold)))
  cat(sprintf("Centre: the release; radius %s (the release's noise alone: %s)\n",
              format(x$radius, digits = digits), format(x$noise_quantile, digits = digits)))
  if (x$target == "population")
    cat(strwrap(sprintf("Sampling error: isotropic Gaussian with total variance s^2/n, s = %s (%s), n = %d.",
                        format(x$dispersion, digits = digits),
                        if (x$private_dispersion) "a private upper bound from dp_dispersion()" else "a public bound",
                        x$n), exdent = 2), sep = "\n")
  cat(strwrap(paste0("Post-processing of the release and its public parameters: no budget spent.",
                     if (x$approximate) " The noise law is the linearised K-norm law (an approximation)." else ""),
              exdent = 2), sep = "\n")
  invisible(x)
}
