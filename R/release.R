#' Differentially private Fréchet mean
#'
#' Releases the Fréchet mean of data lying in a public ball
#' \eqn{B_r(c)}{B_r(c)} under differential privacy, with one of three mechanisms:
#'
#' * `"laplace"`: a draw from the Riemannian Laplace law with footprint the
#'   sample Fréchet mean and rate \eqn{\sigma = 2\Delta/\epsilon}{sigma = 2 Delta/epsilon}, where
#'   \eqn{\Delta}{Delta} is [sensitivity_frechet_mean()] (Reimherr et al. 2021,
#'   Thm 1-2): \eqn{\epsilon}{epsilon}-DP. With `normalizer = "footprint_free"`,
#'   \eqn{\sigma = \Delta/\epsilon}{sigma = Delta/epsilon}, valid because the law is unrestricted and
#'   the space homogeneous, so its normalising constant does not depend on the
#'   footprint.
#' * `"kng"`: the K-norm gradient mechanism (Reimherr & Awan 2019) with
#'   density \eqn{\propto \exp(-\|\frac1n\sum_i Log_x(x_i)\|_x/\sigma)}{propto exp(-||1/n sum_i Log_x(x_i)||_x/sigma)}
#'   on the ball, \eqn{\sigma = 2\Delta_g/\epsilon}{sigma = 2 Delta_g/epsilon} with \eqn{\Delta_g}{Delta_g} from
#'   [sensitivity_frechet_gradient()]; the normalising constant depends on
#'   the data, so `"footprint_free"` is refused. On [manifold_euclidean()] it
#'   is drawn exactly (see Exact KNG on Euclidean space), on spheres and
#'   hyperbolic space exactly by rejection with a fixed public run time (see
#'   Exact KNG by rejection on spheres and hyperbolic space: an \eqn{(\epsilon', \delta)}{(epsilon', delta)}-DP guarantee with
#'   \eqn{\delta \le 10^{-15}}{delta <= 1e-15}); elsewhere by
#'   Metropolis-Hastings started at the public centre. Every chain iteration
#'   evaluates the gradient, one pass over all \eqn{n}{n} points, and the
#'   chain's length is fixed by the dimension and `control`, so the run time
#'   grows linearly in \eqn{n}{n} (on \eqn{S^2}{S^2}, default chain, a shared
#'   two-core machine: 10 ms at \eqn{n = 1000}{n = 1000}, 0.24 s at \eqn{n = 10^4}{n = 10^4},
#'   1.1 s at \eqn{n = 10^5}{n = 10^5}).
#' * `"gaussian"`: a draw from the Riemannian Gaussian law with footprint the
#'   Fréchet mean (Jiang et al. 2023). Give the target `mu`: the rate is the
#'   smallest \eqn{\sigma}{sigma} whose release is \eqn{\mu}{mu}-GDP,
#'   [gdp_sigma()]`(M, mu, Delta)`. Or give `sigma`: the release then reports
#'   the \eqn{\mu}{mu} it achieves, [gdp_mu()]`(M, sigma, Delta)` (exactly
#'   \eqn{\Delta/\sigma}{Delta/sigma} on Euclidean space). Both need constant curvature
#'   (Thm 4.1: euclidean, sphere, hyperbolic); on spd and kendall only `sigma`
#'   can be given and \eqn{\mu}{mu} is not computed, so no privacy budget can
#'   account for such a release: [dp_budget()] and [dp_spend()] refuse it,
#'   and its print says so. It is allowed (its noise is the user's choice),
#'   but for a release to account on those manifolds use `"laplace"` or
#'   `"kng"` with `epsilon`.
#'
#' The Riemannian Laplace law exists on spd and on hyperbolic space only for
#' \eqn{\sigma}{sigma} below a bound set by the volume growth (e.g. 0.707 on
#' `manifold_spd(3)`, \eqn{1/(d - 1)}{1/(d - 1)} on \eqn{H^d}{H^d}). A Laplace
#' release whose \eqn{\sigma = 2\Delta/\epsilon}{sigma = 2 Delta / epsilon}
#' reaches it is an error that names the smallest `epsilon` that works with
#' the given `radius` and n (public numbers) and the mechanisms without that
#' limit (`"kng"`, and `"gaussian"` where \eqn{\mu}{mu} is computed).
#' Near the limit the law exists but its tail is heavy: the volume growth
#' leaves it decaying at rate \eqn{1/\sigma - 1/\sigma_{max}}{1/sigma -
#' 1/sigma_max}, so within a factor 2 of the limit (\eqn{\sigma \ge
#' \sigma_{max}/2}{sigma >= sigma_max/2}) its tail scale is more than twice
#' \eqn{\sigma}{sigma} and draws can land far beyond the data (on
#' `manifold_spd(3)` at \eqn{\sigma}{sigma} = 0.6, a tail scale of 4). The
#' release's print then says so and points to `"kng"` (on the ball) and
#' `"gaussian"`. It also says so when the noise scale exceeds the public
#' ball: when the draw's typical distance from the mean in flat space,
#' \eqn{\dim M \times \sigma}{dim(M) x sigma} for the Laplace and K-norm
#' laws (\eqn{\sqrt{\dim M}\,\sigma}{sqrt(dim(M)) sigma} for the Gaussian), is
#' more than `radius`: a Laplace or Gaussian release can then lie far outside
#' the region that holds the data, and a K-norm gradient release is close to
#' a uniform draw on the ball. Both notes use public quantities only
#' (\eqn{\sigma}{sigma}, `radius`, the manifold).
#'
#' An \eqn{\epsilon}{epsilon}-DP release (Laplace, KNG) is also \eqn{\mu}{mu}-GDP with
#' \eqn{\mu}{mu} = [gdp_from_dp()]`(epsilon)` (Dong et al. 2022); the release
#' records that \eqn{\mu}{mu} for budgets kept in \eqn{\mu}{mu}.
#'
#' The data must lie in \eqn{B_r(c)}{B_r(c)}: points outside are an error
#' (`outside = "error"`) or, with `outside = "clip"`, are moved to the boundary
#' along the geodesic to the centre, so the sensitivity bound holds for what
#' is released. The sensitivity comes from `radius` and `n` only, never from
#' the data. The returned object holds the private point and the public
#' parameters, never the non-private mean (nor how many points were clipped).
#' On [manifold_kendall()] the released shape is returned rotated into
#' optimal alignment with the public `center`, so that the stored
#' configuration carries no rotation of the private mean.
#'
#' A release depends on the data only through the mechanism: its errors hold
#' no data values (a point outside the ball or off the manifold is reported
#' without its index or coordinates, and the stored and reported call holds
#' `X` by name only), it emits no warnings, and the footprint's gradient
#' descent uses a scale-aware stopping rule with a public cap of 1000
#' iterations. The Laplace and Gaussian laws are drawn exactly by default
#' (`method = "auto"`) on every manifold, and so is the K-norm gradient
#' mechanism on Euclidean space where a public bound allows (below). With
#' `method = "mh"` (and for the K-norm gradient mechanism elsewhere) the draw is the
#' state of a Metropolis-Hastings chain started at the public `center` (or at
#' a public `control$init`), never at a point computed from the data (the
#' log-eigenvalue chain on SPD starts at a random draw of a public law and
#' ignores `control$init`). On SPD a release draws exactly wherever the exact
#' sampler's proven acceptance rate is at least 1e-6 (at most 10^6 expected
#' proposals for its one draw; a looser threshold than [riem_rlaplace()]'s
#' 1e-3 for bulk draws), and uses the log-eigenvalue chain only beyond; such a
#' release carries the guarantee of the exact law only approximately, to the
#' extent that the chain has converged.
#'
#' **Exact KNG on Euclidean space.** On \eqn{R^d}{R^d} the gradient of
#' \eqn{\frac1{2n}\sum_i |x - x_i|^2}{1/(2n) sum_i |x - x_i|^2} is \eqn{x - \bar x}{x - xbar}, so the K-norm
#' gradient law is the K-norm (Laplace) law \eqn{\propto \exp(-|x - \bar x|/\sigma)}{propto exp(-|x - xbar|/sigma)}
#' centred at the mean \eqn{\bar x}{xbar} of the (ball-checked or clipped) data,
#' truncated to the ball (Reimherr & Awan 2019). It is drawn exactly by
#' rejection, with one of two samplers: (a) proposals
#' \eqn{\bar x + R u}{xbar + R u}, \eqn{R \sim \sigma\,\mathrm{Gamma}(d)}{R ~ sigma Gamma(d)} and \eqn{u}{u}
#' uniform on the unit sphere, kept if inside the ball; its acceptance is at
#' least its value for a mean on the boundary,
#' \eqn{E[P(u \cdot n \ge R/(2r))]}{E[P(u * n >= R/(2r))]} (itself at least
#' \eqn{P(R \le r)\,\mathrm{pbeta}(3/4, (d-1)/2, 1/2)/2}{P(R <= r) pbeta(3/4, (d-1)/2, 1/2)/2}, or
#' \eqn{P(R \le r)/2}{P(R <= r)/2} for d = 1); (b) proposals uniform on the ball, kept
#' with probability \eqn{\exp(-|x - \bar x|/\sigma)}{exp(-|x - xbar|/sigma)}, acceptance at least
#' \eqn{e^{-2r/\sigma}}{e^(-2r/sigma)}. The sampler with the larger bound is used; the
#' choice depends only on d, \eqn{\sigma}{sigma} and the radius r. Proposals are
#' made in batches of \eqn{\lceil 10/\mathrm{bound} \rceil}{ceiling(10/bound)} (a public
#' number) until a batch holds an accepted one, and the first accepted
#' proposal is released: whatever the data, the work is one batch except
#' with probability below \eqn{e^{-10}}{e^(-10)}. After
#' \eqn{\lceil 50/\mathrm{bound} \rceil}{ceiling(50/bound)} proposals with none accepted
#' (probability below \eqn{e^{-50}}{e^(-50)}) the release stops with an error. Where both bounds are below
#' \eqn{10^{-3}}{10^(-3)} (\eqn{\sigma}{sigma} near \eqn{r/d}{r/d}, large d) `method = "auto"`
#' falls back to Metropolis-Hastings and `method = "exact"` is an error;
#' `method = "mh"` always uses the chain.
#'
#' @section Exact KNG by rejection on spheres and hyperbolic space:
#' On [manifold_sphere()] the K-norm gradient law
#' \eqn{f_D(z) \propto \exp(-|G_D(z)|/\sigma)}{f_D(z) propto exp(-|G_D(z)| / sigma)} on the
#' ball \eqn{B_r(c)}{B_r(c)}, \eqn{G_D(z) = -\frac1n\sum_i Log_z(x_i)}{G_D(z) = -(1/n) sum_i Log_z(x_i)},
#' is drawn exactly by rejection (`method = "auto"` or `"exact"`). Every point
#' of the ball is within \eqn{\rho = 2r < \pi/2}{rho = 2 r < pi/2} of every data point, so the
#' Hessian of the Fréchet cost lies between \eqn{\mu I}{mu I} and \eqn{I}{I} there, with
#' \eqn{\mu = \rho\cot\rho}{mu = rho cot(rho)}; hence
#' \eqn{|G_D(z)| \ge \mu\,d(z, \hat z) - |G_D(\hat z)|}{|G_D(z)| >= mu d(z, zhat) - |G_D(zhat)|}
#' for every \eqn{\hat z}{zhat} in the ball. The release fits \eqn{\hat z}{zhat} by a public,
#' fixed number K of unit gradient steps from `center` (each clipped to the
#' ball), proposes N points from the Riemannian Laplace law at
#' \eqn{\hat z}{zhat} with scale \eqn{\sigma/\mu}{sigma/mu} ([riem_rlaplace()]'s
#' convention: density \eqn{\propto \exp(-\mu d/\sigma)}{propto exp(-mu d / sigma)}), and keeps a proposal
#' \eqn{z}{z} in the ball with probability
#' \eqn{\exp(-(|G_D(z)| - \mu d(z, \hat z) + |G_D(\hat z)|)/\sigma) \le 1}{exp(-(|G_D(z)| - mu d(z, zhat) + |G_D(zhat)|) / sigma) <= 1}:
#' the kept proposals follow \eqn{f_D}{f_D} exactly, whatever \eqn{\hat z}{zhat} is. All N
#' proposals are evaluated and the first kept one is released; if none is
#' kept, the public `center`. The acceptance rate of every data set is at
#' least a public \eqn{a_{min}}{a_min} (the minimiser on the boundary of the ball is
#' the worst case; the fit's gradient is at most
#' \eqn{r(1-\mu)^{K/2}}{r (1 - mu)^(K/2)}), so the centre is released with probability
#' at most \eqn{\delta_f = (1 - a_{min})^N \le 10^{-15}}{delta_f = (1 - a_min)^N <= 1e-15}, and the release is
#' \eqn{(\epsilon + \ln(1/(1-\delta_f)), \delta_f)}{(epsilon + ln(1/(1 - delta_f)), delta_f)}-DP (the accounting of
#' Seeman, Reimherr & Slavkovic 2021 for exact samplers with a finite run
#' time). K and N depend on n, \eqn{\epsilon}{epsilon}, `radius` and the dimension only:
#' on \eqn{S^2}{S^2} with radius \eqn{\pi/8}{pi/8}, n = 1000 and \eqn{\epsilon = 1}{epsilon = 1}, K = 12 and N = 97
#' (\eqn{a_{min}}{a_min} = 0.30, 110 passes over the data, against 600 steps of the
#' chain). Where N would exceed \eqn{10^5}{1e5} (radius near \eqn{\pi/4}{pi/4} in
#' higher dimension) `"auto"` uses the chain and `"exact"` is an error.
#'
#' On [manifold_hyperbolic()] (\eqn{d \ge 2}{d >= 2}, curvature -1) the same
#' construction holds with \eqn{\mu = 1}{mu = 1} and the Hessian at most
#' \eqn{L = \rho\coth\rho}{L = rho coth(rho)}: proposals from the Laplace law of
#' scale \eqn{\sigma}{sigma} (which exists for \eqn{\sigma < 1/(d-1)}{sigma < 1/(d - 1)}; otherwise
#' `"auto"` uses the chain), the fit by K steps of length \eqn{1/L^3}{1/L^3} along
#' the mean Log (each clipped to the ball), whose gradient is then at most
#' \eqn{L r (1 - 1/L^3)^{K/2}}{L r (1 - 1/L^3)^(K/2)}. On \eqn{H^2}{H^2} with radius 0.5,
#' n = 1000 and \eqn{\epsilon = 2}{epsilon = 2}: K = 34, N = 105, \eqn{a_{min}}{a_min} = 0.28, 140
#' passes. Kendall's shape space and SPD stay on the chain.
#' With private `bounds` the mean is drawn by the chain (`method = "exact"`
#' is then an error). Floating point makes
#' any sampler only approximately the real-valued law.
#'
#' @section Choosing the public parameters:
#' `radius` is a geodesic distance of `M`: an angle in radians on the sphere
#' (on Earth, km / 6371), and on SPD the affine-invariant distance
#' \eqn{|\log(C^{-1/2} X C^{-1/2})|_F}{|log(C^(-1/2) X C^(-1/2))|_F}, the
#' norm of the log-eigenvalues of `X` relative to `center` (the
#' [eustock_cov] matrices lie 1.1 to 3.9 from the identity). Choose `center`
#' and `radius` from public knowledge (a region, a range of variances), never
#' from the data. The noise rate is \eqn{\sigma = 2\Delta/\epsilon}{sigma =
#' 2 Delta / epsilon}, \eqn{\Delta}{Delta} = [sensitivity_frechet_mean()]`(M,
#' n, radius)` (or [sensitivity_frechet_gradient()] for KNG): \eqn{2r/n}{2 r
#' / n} where the curvature is at most 0, and growing without limit as
#' `radius` nears [sensitivity_radius_max()] on positively curved spaces.
#' For the 795 Tonga epicentres (`quakes`, longitude > 175) on the sphere at
#' \eqn{\epsilon = 1}{epsilon = 1}: radius 10 degrees (0.175) gives
#' \eqn{\Delta}{Delta} = 4.8e-4 and \eqn{\sigma}{sigma} = 9.5e-4 (6.1 km; a
#' Laplace draw lies a median 1.7 sigma, 10 km, from the mean); 20 degrees
#' gives \eqn{\sigma}{sigma} = 2.5e-3 (16 km), 2.6 times more; 40 degrees 26
#' times more. For `eustock_cov` (n = 92) on `manifold_spd(3)` with radius 4
#' around the identity, \eqn{\sigma}{sigma} = 0.17 at \eqn{\epsilon = 1}{epsilon = 1}
#' (a Laplace draw's median distance from the mean is then about 1.0).
#' Points outside the ball are refused (`outside = "error"`, an error that
#' names no point) or, with `outside = "clip"`, moved to its boundary along
#' the geodesic to the centre: a smaller ball gives less noise but pulls far
#' points in, a bias the release does not report.
#' `vignette("choosing-bounds", package = "riemdp")` works through examples.
#'
#' @section Private bounds:
#' Users who cannot state where their data lie can have the bounds found
#' privately: `bounds = dp_bounds(share = 0.2, ...)` (see [dp_bounds()]).
#' Whichever of `center` and `radius` is given is used as given; the others
#' are found privately: on the sphere, Euclidean and
#' hyperbolic space the centre by an exponential mechanism over a public net
#' (McSherry & Talwar 2007); on spd by the same mechanism over the
#' 1-dimensional net of multiples of the public `region_center` (a net of
#' the whole region grows too fast with the dimension), or, with
#' `location = "coarse"`, by a coarse private Fréchet mean in the public
#' region; on Kendall's space by that coarse mean (`region_center`,
#' `region_radius` of [dp_bounds()] required on spd and Kendall's space);
#' the radius by a private quantile over a public grid (Smith 2011).
#' The stages together spend
#' \eqn{share \times \epsilon}{share x epsilon}, and the mean is released in the
#' private ball with \eqn{(1 - share) \times \epsilon}{(1 - share) x epsilon}. On this route
#' points outside the ball are always clipped to it (`outside = "clip"` is
#' forced: an error would depend on the data). The release records each
#' private bound with its \eqn{\epsilon}{epsilon} (`bounds_stages`), the mean's
#' \eqn{\epsilon}{epsilon} (`epsilon_mean`) and, in `epsilon`, the total: it prints one
#' guarantee, the sum by basic composition with the stages listed, and
#' [dp_budget()] charges the total. Laplace and KNG only (the accounting is
#' in \eqn{\epsilon}{epsilon}). Before the data are used, the release checks from
#' public numbers that the stages can localise with their budget, and that
#' the largest ball they can return admits the mechanism's law. Bounds found
#' once by [dp_find_bounds()] can also be given as public `center` and
#' `radius` of later releases (each charged on its own).
#'
#' @inheritParams geometry
#' @param X Data points in the manifold's layout.
#' @param epsilon Privacy budget \eqn{\epsilon > 0}{epsilon > 0} (Laplace and KNG);
#'   with `bounds`, the total of the bounds and the mean.
#' @param bounds `NULL` (the default: `center` and `radius` are public and
#'   required), or a [dp_bounds()] specification: the bounds not given are
#'   found privately with its `share` of `epsilon` (section Private bounds).
#' @param radius,center The public ball \eqn{B_r(c)}{B_r(c)} that holds the data;
#'   `radius` must be below \eqn{r^*}{r^*} (see [sensitivity_frechet_mean()]).
#'   With `bounds`, either may be left out and is then found privately.
#' @param mechanism `"laplace"`, `"kng"` or `"gaussian"`.
#' @param outside What to do with points outside the ball: `"error"` or `"clip"`.
#' @param normalizer `"conservative"` (\eqn{\sigma = 2\Delta/\epsilon}{sigma = 2 Delta/epsilon}) or
#'   `"footprint_free"` (\eqn{\Delta/\epsilon}{Delta/epsilon}, Laplace only).
#' @param sigma The rate of the Gaussian mechanism (give `sigma` or `mu`).
#' @param mu The target \eqn{\mu}{mu} of the Gaussian mechanism (give `sigma` or
#'   `mu`); \eqn{\sigma}{sigma} is then [gdp_sigma()]`(M, mu, Delta)`.
#' @param method Sampler for the Laplace and Gaussian laws, as in
#'   [riem_rlaplace()], and for the K-norm gradient mechanism on Euclidean
#'   space and on spheres (`"auto"`: exact where a public bound allows,
#'   `"exact"`, `"mh"`).
#' @param control `NULL` (the default) or settings from [mcmc_control()]: for
#'   `method = "mh"` and the spd log-eigenvalue chain, the random-walk chain;
#'   for the K-norm gradient mechanism off Euclidean space, the length of its
#'   chain (by default \eqn{(250 + 25d) k}{(250 + 25d) k} burn-in steps and as
#'   many after, \eqn{k = \min(20, \lceil 200/n \rceil)}{k = min(20, ceiling(200 / n))}: see [mcmc_control()]) and
#'   its public start `init` (default: `center`).
#' @param diagnostics If `TRUE` (K-norm gradient chain only: `mechanism =
#'   "kng"` off the exact Euclidean draw), three more chains run from other
#'   public starts (at half `radius` from `center`, inside the ball wherever
#'   `init` lies) and the release holds their diagnostics, as in
#'   [dp_geodesic_regression()]: split R-hat, the effective sample size and
#'   the trace of the level \eqn{|\nabla E|/\sigma}{|grad E|/sigma}, the acceptance of each kind of step,
#'   and the release's level against \eqn{Gamma(d, 1)}{Gamma(d, 1)}. They depend
#'   on the data beyond the guarantee: the object is then not a release to
#'   publish; use them on public or simulated data.
#' @return An object of class `c("riemdp_frechet_release", "riemdp_release")`:
#'   `estimate` (the private point), `manifold`, `mechanism`, `guarantee`
#'   (`"epsilon-DP"`, `"mu-GDP"`, or `"(epsilon, delta)-DP"` for the exact
#'   K-norm gradient draw by rejection), `guarantee_kind` (`"exact"`: an
#'   exact sampler; `"exact-rejection"`: exact by rejection with a fixed number
#'   of proposals, with `delta` = \eqn{\delta_f}{delta_f}, `epsilon_total` =
#'   \eqn{\epsilon + \ln(1/(1-\delta_f))}{epsilon + ln(1/(1 - delta_f))} and its public constants in
#'   `rejection`; `"empirical-chain"`: a Markov chain whose convergence is
#'   checked empirically, not proven), `delta` (0 unless
#'   `"exact-rejection"`), `epsilon`, `mu` (the Gaussian's
#'   \eqn{\mu}{mu}, `NA` where it needs constant curvature; for
#'   \eqn{\epsilon}{epsilon}-DP releases the \eqn{\mu}{mu} it implies), `sigma`, `sensitivity`,
#'   `normalizer`, `n`, `radius`, `center`, `outside`, `sampler`
#'   (`"exact"`, `"exact-rejection"`, `"kng-chain"`, `"mh"` or `"eigen-mh"`), `control`,
#'   `diagnostics` (`NULL` unless requested) and `call`. The
#'   estimate keeps the names of the data's layout (column names, or the
#'   matrices' dimnames on spd and kendall: public metadata), else the
#'   centre's. Methods: `print()`, `summary()`, `coef()`, `nobs()` (the
#'   public n); `fitted()` and `residuals()` are errors: a release holds no
#'   data.
#' @examples
#' S2 <- manifold_sphere(2)
#' north <- c(0, 0, 1)
#' set.seed(1)
#' X <- riem_rgaussian(S2, 100, north, 0.1)
#' X <- X[riem_dist(S2, north, X) < pi / 8, ]
#' rel <- dp_frechet_mean(S2, X, epsilon = 1, radius = pi / 8, center = north)
#' rel
#' coef(rel)
#' # the Gaussian mechanism at a target mu: sigma comes from gdp_sigma()
#' dp_frechet_mean(S2, X, radius = pi / 8, center = north, mechanism = "gaussian", mu = 1)
#' # no public ball: 20% of epsilon finds it privately (somewhere on the sphere)
#' set.seed(2)
#' Y <- riem_rgaussian(S2, 500, north, 0.1)
#' dp_frechet_mean(S2, Y, epsilon = 1, bounds = dp_bounds(share = 0.2))
#' @export
dp_frechet_mean <- function(M, X, epsilon, radius, center, mechanism = c("laplace", "kng", "gaussian"),
                            outside = c("error", "clip"), normalizer = c("conservative", "footprint_free"),
                            sigma = NULL, mu = NULL, method = c("auto", "exact", "mh"), control = NULL,
                            bounds = NULL, diagnostics = FALSE) {
  # Every error of a release is raised with this call, which holds no data.
  call <- call_without_data(match.call(), "X")
  diagnostics <- check_flag(diagnostics, "diagnostics", call)
  if (!is.null(bounds)) {
    if (diagnostics)
      abort("`diagnostics = TRUE` is not offered with `bounds`: run the release with the bounds' result as public `center` and `radius` (dp_find_bounds()) to see its chain's diagnostics", call)
    if (!is.null(sigma) || !is.null(mu))
      abort("`bounds` accounts in epsilon-DP: `sigma` and `mu` (the Gaussian mechanism) are not used with private bounds; give `epsilon`", call)
    return(frechet_release_with_bounds(M, X, epsilon, radius, center, mechanism, outside, normalizer, method,
                                       control, bounds, call,
                                       c(center = !missing(center), radius = !missing(radius),
                                         outside = !missing(outside))))
  }
  check_manifold(M, call)
  if (missing(center) || missing(radius)) {
    lacking <- c("`center`", "`radius`")[c(missing(center), missing(radius))]
    abort(sprintf("%s %s required: the release needs a public ball B(center, radius) that holds the data (its sensitivity comes from the radius). Give the public %s you know, or let the release find %s privately with part of `epsilon`: bounds = dp_bounds() (see ?dp_bounds)",
                  paste(lacking, collapse = " and "), if (length(lacking) == 1L) "is" else "are",
                  paste(lacking, collapse = " and "), if (length(lacking) == 1L) "it" else "them"), call)
  }
  mechanism <- arg_match(mechanism, c("laplace", "kng", "gaussian"), "mechanism", call)
  outside <- arg_match(outside, c("error", "clip"), "outside", call)
  normalizer <- arg_match(normalizer, c("conservative", "footprint_free"), "normalizer", call)
  method <- arg_match(method, c("auto", "exact", "mh"), "method", call)
  if (!is.null(control)) check_control(control, call)
  C <- as_points(M, center, "center", call)
  if (C$n != 1L) abort("`center` must be a single point", call)
  S <- release_points(M, X, call)
  n <- S$n
  kng_ctl <- if (mechanism == "kng") kng_chain_control(control, M$dim, n, call, allow_init = TRUE)
  control_given <- !is.null(control)
  if (is.null(control)) control <- mcmc_control()
  sens <- frechet_sensitivities(M, n, radius, call)
  check_ball_resolved(M, C, radius, call)
  noise <- frechet_release_noise(M, n, radius, sens, mechanism, normalizer, if (missing(epsilon)) NULL else epsilon,
                                 sigma, mu, call)
  epsilon <- noise$epsilon
  Delta <- noise$Delta
  sigma <- noise$sigma
  mu <- noise$mu
  factor <- noise$factor
  source <- noise$source
  by_row <- is.null(M$point_shape)
  ctl <- control
  ctl$thin <- control$n_iter  # a release is the state after burn_in + n_iter iterations
  # Metropolis-Hastings chains start at the public centre (or the user's public
  # control$init), never at a point computed from the data.
  init <- if (is.null(control$init)) C else as_points(M, control$init, "control$init", call)
  if (init$n != 1L) abort("`control$init` must be a single point", call)
  if (mechanism == "kng" && geom_dist(M, C, init) > radius)
    abort(sprintf("`control$init` must lie in the ball of radius %s around `center`, the support of the K-norm gradient mechanism",
                  format(radius, digits = 6)), call)

  # KNG on R^d: an exact draw by rejection, its sampler chosen from d, sigma
  # and radius only (NULL: the chain).
  plan <- if (mechanism == "kng" && M$type == "euclidean" && method != "mh") kng_euclid_plan(M$d, sigma, radius) else NULL
  if (!is.null(plan) && is.null(plan$proposal)) {
    if (method == "exact")
      abort(sprintf("`method = \"exact\"`: the exact K-norm gradient draw on %s is offered only where a proposal is accepted with probability at least %s, and here (sigma = %s, radius = %s) the proven bound is %s; use method = \"auto\" or \"mh\" (Metropolis-Hastings)",
                    manifold_label(M), format(kng_exact_min_acceptance), format(sigma, digits = 4),
                    format(radius, digits = 4), format(plan$bound, digits = 3)), call)
    plan <- NULL
  }
  # KNG on a sphere: an exact draw by rejection from a Riemannian Laplace
  # envelope with a fixed public run time (R/kng-rejection.R), its constants
  # from public numbers only (NULL: the chain).
  rej <- if (mechanism == "kng" && kng_rejection_supported(M) && method != "mh")
           kng_rejection_plan(M, n, epsilon, radius) else NULL
  if (!is.null(rej) && !rej$available) {
    if (method == "exact")
      abort(sprintf("`method = \"exact\"`: the exact K-norm gradient draw by rejection on %s is not available here (n = %d, epsilon = %s, radius = %s): %s; use method = \"auto\" or \"mh\" (the Metropolis-Hastings chain)",
                    manifold_label(M), n, format(epsilon, digits = 4), format(radius, digits = 4), rej$reason), call)
    rej <- NULL
  }
  if (control_given && (!is.null(plan) || !is.null(rej)))
    abort(sprintf("`control` sets the Metropolis-Hastings chain, and this K-norm gradient release on %s is an exact draw (%s, chosen from public n, epsilon and radius) that has no chain: drop `control`, or use method = \"mh\" for the chain",
                  manifold_label(M), if (method == "exact") "method = \"exact\"" else "method = \"auto\""), call)
  if (mechanism == "kng" && method == "exact" && is.null(plan) && is.null(rej) && M$type != "euclidean")
    abort(sprintf("`method = \"exact\"`: the K-norm gradient mechanism has an exact sampler on Euclidean space, spheres and hyperbolic space of dimension 2 or more only, not on %s; use method = \"auto\" or \"mh\" (the Metropolis-Hastings chain)",
                  manifold_label(M)), call)
  if (diagnostics && !(mechanism == "kng" && is.null(plan) && is.null(rej)))
    abort(sprintf("`diagnostics = TRUE` reports on the K-norm gradient chain, and this release is %s; use mechanism = \"kng\"%s, or leave diagnostics FALSE",
                  if (mechanism == "kng") "an exact draw (no chain)" else sprintf("drawn by the %s mechanism", mechanism),
                  if (M$type == "euclidean" || !is.null(rej)) " with method = \"mh\"" else ""), call)

  # The data enter only below: ball check / clipping, then the Frechet mean
  # (the footprint) or the KNG target.
  S <- bound_to_ball(M, S, C, radius, outside, call)
  diag_out <- NULL
  if (!is.null(plan)) {
    res <- core_call(samp_kng_euclid(S, C, radius, sigma, plan$proposal, plan$batch, plan$n_proposals), call)
    if (!res$found)
      abort(sprintf("the exact K-norm gradient draw made %s proposals and accepted none, an event of probability below e^-50 (acceptance at least %s); please report this",
                    format(plan$n_proposals, big.mark = ","), format(plan$bound, digits = 3)), call)
    estimate <- from_values(M, res$draw, 1L, TRUE, center)
    sampler <- "exact"
    rm(res)
  } else if (!is.null(rej)) {
    # fit_iter fit steps, one pass at the fit and N proposals, all evaluated,
    # whatever the data; no proposal accepted: the public centre
    res <- core_call(samp_kng_rejection(M, S, C, radius, sigma, rej$mu, rej$fit_iter, rej$N, rej$fit_step), call)
    estimate <- from_values(M, res$draw, 1L, TRUE, center)
    sampler <- "exact-rejection"
    rm(res)
  } else if (mechanism == "kng") {
    res <- kng_chain_draw(M, S, NULL, sigma, NULL, init$x, radius, NULL, kng_ctl, diagnostics, call, center = C$x)
    estimate <- from_values(M, res$p, 1L, TRUE, center)
    diag_out <- res$diagnostics
    sampler <- "kng-chain"
  } else {
    # The footprint: its stopping rule is scale-aware and its work capped by a
    # public number of iterations; a release emits no data-dependent condition.
    fm <- core_call(stat_frechet_mean(M, S, initial_mean(M, S), footprint_max_iter, 1e-12), call)
    footprint <- from_values(M, fm$mean, 1L, TRUE, center)
    # Generic MH starts at the public point; the SPD log-eigenvalue chain is
    # never given a start: one would be whitened by the footprint (an anchor
    # to the data), so it starts at a random draw of a public law.
    ctl$init <- if (method == "mh") from_values(M, init$x, 1L, TRUE, center) else NULL
    draw <- riem_rradial(M, 1L, footprint, sigma, method, ctl, mechanism, call, spd_exact_release_min_acceptance)
    sampler <- attr(draw, "method")
    estimate <- from_values(M, as.vector(draw), 1L, TRUE, center)
    rm(fm, footprint, draw)
  }
  # Kendall: report the shape in alignment with the public centre, so that the
  # stored configuration carries no rotation from the footprint (post-processing).
  # the layout's names (dimnames of the data, else of the centre) are public
  estimate <- from_values(M, geom_representative(M, C, as_set(M, estimate, "estimate"), by_row), 1L, TRUE,
                          release_layout(M, X, center))
  mark_release_diagnostics(structure(list(estimate = estimate, manifold = M, mechanism = mechanism,
                 guarantee = if (mechanism == "gaussian") "mu-GDP" else if (!is.null(rej)) "(epsilon, delta)-DP" else "epsilon-DP",
                 guarantee_kind = release_guarantee_kind(sampler),
                 epsilon = epsilon, mu = if (is.null(rej)) mu else NA_real_,
                 delta = if (is.null(rej)) 0 else rej$delta_f,
                 epsilon_total = if (is.null(rej)) epsilon else rej$epsilon_total,
                 rejection = if (is.null(rej)) NULL else rej[c("mu", "L", "a_min", "N", "delta_f", "fit_iter", "fit_step", "fit_bound", "passes")],
                 sigma = sigma, sensitivity = Delta, normalizer = normalizer,
                 n = n, radius = radius, center = from_values(M, C$x, 1L, TRUE, center),
                 outside = outside, sampler = sampler,
                 control = if (sampler %in% c("exact", "exact-rejection")) NULL
                           else if (sampler == "kng-chain") kng_ctl[c("n_iter", "burn_in", "adapt", "target_accept")]
                           else unclass(control)[c("n_iter", "burn_in", "adapt", "target_accept")],
                 diagnostics = diag_out, call = call),
            class = c("riemdp_frechet_release", "riemdp_release")))
}

# The noise of a Frechet-mean release from public numbers only (n, radius,
# epsilon, or the Gaussian mechanism's mu or sigma; epsilon NULL when not
# given), validated: epsilon, sigma, mu, the sensitivity Delta, the
# normalizer's factor and a sentence on where sigma comes from. Used by
# dp_frechet_mean() and dp_accuracy().
frechet_release_noise <- function(M, n, radius, sens, mechanism, normalizer, epsilon, sigma, mu, call) {
  factor <- NA_real_
  if (mechanism == "gaussian") {
    if (!is.null(epsilon))
      abort("`epsilon` is not used by the Gaussian mechanism: its guarantee is mu-GDP and its noise is set by `sigma`; drop `epsilon`, or use mechanism = \"laplace\" or \"kng\" for epsilon-DP", call)
    if (is.null(sigma) == is.null(mu))
      abort("the Gaussian mechanism needs exactly one of `mu` (the target mu-GDP; sigma is then calibrated by gdp_sigma()) and `sigma` (the rate of the Riemannian Gaussian law)", call)
    if (!is.null(sigma)) sigma <- check_positive(sigma, "sigma", call)
    if (!is.null(mu)) mu <- check_positive(mu, "mu", call)
    epsilon <- NA_real_
  } else {
    if (!is.null(mu)) abort(sprintf("`mu` sets the Gaussian mechanism's rate; the %s mechanism's budget is `epsilon`", mechanism), call)
    if (is.null(epsilon)) abort(sprintf("the %s mechanism needs `epsilon`, the privacy budget (a single finite number > 0)", mechanism), call)
    epsilon <- check_positive(epsilon, "epsilon", call)
    if (!is.null(sigma)) abort("`sigma` is set from `epsilon` for the Laplace and KNG mechanisms; leave it NULL", call)
  }
  if (normalizer == "footprint_free" && mechanism != "laplace")
    abort(sprintf("`normalizer = \"footprint_free\"` is valid only for the unrestricted Laplace mechanism: the normalising constant of the %s mechanism depends on the data",
                  if (mechanism == "kng") "K-norm gradient" else "Gaussian"), call)
  Delta <- if (mechanism == "kng") sens$gradient else sens$mean
  source <- "`sigma`"
  if (mechanism == "gaussian") {
    # mu and sigma from public parameters only (Delta from n and radius). No
    # two footprints on a sphere are further apart than its diameter pi.
    Delta_gdp <- if (M$type == "sphere") min(Delta, pi) else Delta
    if (is.null(sigma)) {
      sigma <- release_gdp(gdp_sigma(M, mu, Delta_gdp), call)
      source <- sprintf("sigma = gdp_sigma(M, mu = %s, Delta) = %s", format(mu, digits = 4), format(sigma, digits = 6))
      mu <- attr(sigma, "mu") %||% mu
      sigma <- as.double(sigma)
    } else {
      # A sigma so small that the two laws are numerically disjoint has no
      # computable finite mu: the release then claims none (mu = Inf).
      mu <- if (gdp_supported(M)) tryCatch(as.double(gdp_mu(M, sigma, Delta_gdp)), riemdp_error = function(e) Inf)
            else NA_real_
    }
  } else {
    mu <- gdp_from_dp(epsilon)
    factor <- if (normalizer == "conservative") 2 else 1
    sigma <- factor * Delta / epsilon
    source <- sprintf("sigma = %s*Delta/epsilon = %s (from `epsilon` = %s, `radius` = %s and n = %d)",
                      factor, format(sigma, digits = 4), format(epsilon, digits = 4), format(radius, digits = 4), n)
    if (!is.finite(sigma))
      abort(sprintf("`epsilon` = %s is too small: %s overflows double precision", format(epsilon, digits = 4), source), call)
  }
  if (mechanism == "laplace") check_laplace_exists(M, sigma, epsilon, factor, Delta, source, call)
  if (mechanism != "kng") check_rate(M, mechanism, sigma, call, source)
  list(epsilon = epsilon, sigma = sigma, mu = mu, Delta = Delta, factor = factor, source = source)
}

# The Riemannian Laplace law exists only for sigma below a bound set by the
# volume growth (spd, hyperbolic): a release whose sigma = factor * Delta /
# epsilon reaches it is refused with the remedies, in public numbers only.
check_laplace_exists <- function(M, sigma, epsilon, factor, Delta, source, call) {
  smax <- laplace_sigma_max(M)
  if (sigma < smax) return(invisible(TRUE))
  abort(sprintf("%s is too large: the Riemannian Laplace law on %s exists only for sigma < %s (volume growth). Use mechanism = \"kng\" (the K-norm gradient mechanism, on the ball: any sigma)%s, or lower sigma: a larger `epsilon` (above %s here), a larger n or a smaller `radius`",
                source, manifold_label(M), format(smax, digits = 6),
                if (gdp_supported(M)) " or mechanism = \"gaussian\" with `mu` (mu-GDP)" else "",
                format_guarantee(factor * Delta / smax, 3)), call)
}

# Smallest proven acceptance at which a KNG release on R^d is drawn exactly
# (below it, the chain): batches of at most 10000 proposals (about 1-5 ms at
# d = 10), at most 50000 proposals.
kng_exact_min_acceptance <- 1e-3

# Lower bounds on the acceptance of the two exact KNG samplers on R^d, for
# every mean in the ball B_radius(c) (public: d, sigma, radius only).
# knorm: proposals xbar + R u, R ~ Gamma(d, scale = sigma). |xbar + R u - c| <=
# radius iff u . n >= (a^2 + R^2 - radius^2) / (2 R a), n the inward direction,
# a = |xbar - c|; that threshold grows with a, so a mean on the boundary is the
# worst case, with threshold R / (2 radius). With s = R / (2 radius) and
# P(u . n >= s) = pbeta(1 - s^2, (d-1)/2, 1/2) / 2, integration by parts and
# s = sin(theta) give the worst case as
# int_0^{pi/2} P(s <= sin theta) cos^{d-2} theta dtheta / B((d-1)/2, 1/2)
# (d >= 2; P(R <= 2 radius) / 2 for d = 1). It is at least `simple`,
# P(R <= radius) P(u . n >= 1/2).
# uniform: proposals uniform on the ball, kept with probability
# exp(-|x - xbar| / sigma) >= exp(-2 radius / sigma).
kng_euclid_bounds <- function(d, sigma, radius) {
  rate <- 2 * radius / sigma
  p_s <- function(q) { # P(s <= q), 0 at q = 0 also for rate = Inf
    v <- stats::pgamma(q * rate, d)
    v[q == 0] <- 0
    v
  }
  if (d == 1L) {
    simple <- 0.5 * stats::pgamma(radius / sigma, 1)
    worst <- 0.5 * p_s(1)
  } else {
    simple <- 0.5 * stats::pgamma(radius / sigma, d) * stats::pbeta(0.75, (d - 1) / 2, 0.5)
    f <- function(th) p_s(sin(th)) * cos(th)^(d - 2)
    worst <- tryCatch(stats::integrate(f, 0, pi / 2, rel.tol = 1e-8, subdivisions = 1000L)$value / beta((d - 1) / 2, 0.5),
                      error = function(e) simple)
  }
  c(knorm = max(simple, min(worst, 0.5)), knorm_simple = simple, uniform = exp(-2 * radius / sigma))
}

# The exact sampler of a KNG release on R^d: the one with the larger bound.
# Proposals come in batches of ceiling(10 / bound) (a batch holds none
# accepted with probability below e^-10, so the work is one batch for all data
# but rarely), at most ceiling(50 / bound) (none accepted: below e^-50).
# `proposal` is NULL below the threshold.
kng_euclid_plan <- function(d, sigma, radius) {
  b <- kng_euclid_bounds(d, sigma, radius)
  proposal <- if (b[["knorm"]] >= b[["uniform"]]) "knorm" else "uniform"
  bound <- b[[proposal]]
  if (!(bound >= kng_exact_min_acceptance)) return(list(proposal = NULL, bound = bound, batch = NA_real_, n_proposals = NA_real_))
  list(proposal = proposal, bound = bound, batch = ceiling(10 / bound), n_proposals = ceiling(50 / bound))
}

# The radius around the point x within which double precision still resolves
# points (and so a Frechet mean) to a relative 1e-6: on spd, condition numbers
# up to cond(x) e^{2 r} <= 1e-6 / eps (eigenvalues of the whitened point in
# [e^-r, e^r]); on the hyperboloid, distances from the origin up to
# acosh(1e-6 / eps), since a point at distance a is located only to about
# eps sinh(a). Inf elsewhere. Public when x is.
resolved_reach <- function(M, x) {
  switch(M$type,
    spd = (log(1e-6 / .Machine$double.eps) - log(spd_condition(M, x))) / 2,
    hyperbolic = acosh(1e-6 / .Machine$double.eps) - acosh(max(1, x[1])),
    Inf)
}

spd_condition <- function(M, x) {
  lam <- eigen(matrix(x, M$k), symmetric = TRUE, only.values = TRUE)$values
  max(lam) / min(lam)
}

# The sensitivity bound is for the exact Frechet mean: the public ball must lie
# where double precision resolves points (resolved_reach()). Public
# parameters only.
check_ball_resolved <- function(M, C, radius, call, what = "the Fr\u00e9chet mean", args = c("radius", "center")) {
  if (isTRUE(radius <= resolved_reach(M, C$x))) return(invisible(TRUE))
  scale <- if (M$type == "spd") spd_condition(M, C$x) * exp(2 * radius) else cosh(acosh(max(1, C$x[1])) + radius)
  abort(sprintf("the public ball of radius %s around `%s` reaches %s, where double precision resolves points only to a relative %s: %s, and so the sensitivity bound, cannot be trusted there; use a smaller `%s` (at most %s here) or %s",
                format(radius, digits = 4), args[2],
                if (M$type == "spd") sprintf("matrices with condition number up to %s", format(scale, digits = 3))
                else sprintf("distance %s from the origin", format(acosh(scale), digits = 4)),
                format(.Machine$double.eps * scale, digits = 2), what, args[1],
                format(max(0, resolved_reach(M, C$x)), digits = 4),
                if (M$type == "spd") sprintf("a better-conditioned `%s` (rescale the data)", args[2])
                else sprintf("a `%s` nearer the origin (move the data by an isometry)", args[2])),
        call)
}

# Public cap on the gradient-descent iterations of a release's footprint.
footprint_max_iter <- 1000L

# The data of a release, validated with errors that carry no data values (no
# index, no coordinate); the layout error states only the public size.
release_points <- function(M, X, call, arg = "X") {
  data_free_report <- function(prob, set, what, call) {
    if (is.null(prob)) return(invisible(NULL))
    abort(sprintf("`%s` must hold finite points of %s (within tolerance %g); some do not. Find them with riem_check(M, %s), which names the first one",
                  arg, manifold_label(M), riemdp_tol(), arg), call)
  }
  as_points(M, X, arg, call, report = data_free_report)
}

# The call of a release, with data arguments that are not plain names (as
# under do.call() or lapply()) replaced by their argument name, so that the
# release never holds the data.
call_without_data <- function(call, args, fun = "dp_frechet_mean") {
  # under do.call(f, ...) the function itself stands in the call
  if (!is.name(call[[1L]]) && !is.call(call[[1L]])) call[[1L]] <- as.name(fun)
  for (a in intersect(args, names(call)))
    if (!is.name(call[[a]])) call[[a]] <- as.name(a)
  call
}

# Points outside B_radius(center): an error (outside = "error", the user's
# choice), or moved to the boundary along the geodesic to the centre. The
# clip always runs, over every point (a point inside is copied as it is):
# no data-dependent early return, so that whether a point lies outside does
# not decide which code runs (an early return when none did made a release
# with one far record measurably slower).
bound_to_ball <- function(M, S, C, radius, outside, call) {
  if (outside == "error") {
    d <- geom_dist(M, C, S)
    if (any(d > radius))
      abort(sprintf("`X` has points outside the ball of radius %s around `center`; find them with riem_dist(M, center, X) > radius, or use outside = \"clip\" to move them to its boundary",
                    format(radius, digits = 6)), call)
  }
  S$x <- priv_clip_to_ball(M, C, radius, S, S$by_row)
  S
}

# The exact KNG sampler of a release on R^d, recomputed from its public fields.
kng_exact_label <- function(x) {
  plan <- kng_euclid_plan(x$manifold$d, x$sigma, x$radius)
  if (identical(plan$proposal, "uniform")) "rejection from the uniform law on the ball"
  else "rejection from the K-norm law"
}

guarantee_sentence <- function(x) {
  # private bounds (dp_frechet_mean(bounds = )): one composed guarantee
  if (!is.null(x$bounds_stages)) return(bounds_release_sentence(x))
  sampler <- switch(x$sampler,
                    exact = if (x$mechanism == "kng") sprintf("an exact draw (%s)", kng_exact_label(x)) else "an exact draw",
                    mh = "a Metropolis-Hastings draw (the guarantee is that of the exact law, which the chain approximates)",
                    `kng-chain` = kng_chain_sentence(x$control, "(the centre, or control$init)"),
                    `eigen-mh` = "the eigen-decomposition construction with Metropolis-Hastings on the log-eigenvalues (the guarantee is that of the exact law, which the chain approximates)",
                    `exact-rejection` = "an exact draw by rejection")
  if (x$mechanism == "gaussian") {
    mu <- x$mu %||% NA_real_
    how <- if (is.infinite(mu)) "Inf (no finite mu is computable at this sigma: the laws at two footprints Delta apart are numerically disjoint; no privacy is claimed)"
           else if (x$manifold$type == "euclidean") sprintf("Delta/sigma = %s", format_guarantee(mu, 4))
           else sprintf("%s (gdp_mu(), Jiang et al. 2023 Thm 4.1%s)", format_guarantee(mu, 4),
                        if (x$sensitivity > pi && x$manifold$type == "sphere") ", with Delta capped at pi, the sphere's diameter" else "")
    return(paste(sprintf("%s: Riemannian Gaussian mechanism with sigma = %s and sensitivity Delta = %s (n = %d, radius %s; Reimherr et al. 2021 Thm 2, Jiang et al. 2023 Thm 3.2)%s; %s.",
                   if (is.na(mu)) "mu-GDP" else sprintf("mu-GDP with mu = %s", how),
                   format(x$sigma, digits = 4), format(x$sensitivity, digits = 4), x$n, format(x$radius, digits = 4),
                   if (is.na(mu)) sprintf("; mu is not computed on %s: it needs constant curvature (Jiang et al. 2023 Thm 4.1), so no privacy budget can account for this release (dp_budget() and dp_spend() refuse it; for an accountable release use mechanism = \"laplace\" or \"kng\" with `epsilon`)", x$manifold$type) else "",
                   sampler), guarantee_kind_sentence(x)))
  }
  mech <- if (x$mechanism == "laplace") "Riemannian Laplace mechanism" else "K-norm gradient mechanism"
  factor <- if (x$normalizer == "conservative") "2*Delta/epsilon" else "Delta/epsilon (footprint-free normaliser)"
  source <- if (x$mechanism == "laplace") "Reimherr et al. 2021 Thm 1-2" else "gradient sensitivity, Reimherr et al. 2021 suppl. Lemma 1"
  if (identical(x$sampler, "exact-rejection")) return(kng_rejection_sentence(x, factor, source))
  sprintf("%s-DP (pure epsilon-DP): %s with sigma = %s = %s, sensitivity Delta = %s from n = %d and radius %s (%s); %s. %s %s",
          format_guarantee(x$epsilon, 4), mech, factor, format(x$sigma, digits = 4), format(x$sensitivity, digits = 4),
          x$n, format(x$radius, digits = 4), source,
          sampler, implied_mu_sentence(x$epsilon), guarantee_kind_sentence(x))
}

# The kind of guarantee a release carries, from its sampler: "exact" (an
# exact sampler of the mechanism's law), "exact-rejection" (exact by
# rejection with a fixed number of proposals and a public fallback: an
# (epsilon', delta) guarantee) or "empirical-chain" (a Markov chain whose
# convergence to the law is checked empirically, not proven).
release_guarantee_kind <- function(sampler) {
  switch(sampler, exact = "exact", `exact-rejection` = "exact-rejection", "empirical-chain")
}

guarantee_kind_sentence <- function(x) {
  kind <- x$guarantee_kind %||% release_guarantee_kind(x$sampler)
  switch(kind,
         exact = "Guarantee kind: exact (the draw is an exact sample of the mechanism's law).",
         `exact-rejection` = "Guarantee kind: exact-rejection.",
         none = "Guarantee kind: none (no differential-privacy guarantee).",
         "Guarantee kind: empirical-chain (the epsilon above is that of the mechanism's exact law; that this chain's draw follows it is checked empirically, not proven).")
}

# The guarantee of a K-norm gradient release drawn exactly by rejection
# (R/kng-rejection.R): its law is the epsilon-DP K-norm gradient law mixed
# with an atom at the public centre of mass at most delta_f.
kng_rejection_sentence <- function(x, factor, source) {
  rj <- x$rejection
  sprintf("(epsilon', delta)-DP with epsilon' = epsilon + ln(1/(1 - delta_f)) = %s + %s and delta = delta_f = %s, exact by rejection: K-norm gradient mechanism with sigma = %s = %s, sensitivity Delta = %s from n = %d and radius %s (%s), whose law is %s-DP; drawn exactly by rejection from a Riemannian Laplace envelope of scale sigma/mu (mu = %s) at a fit of %d fixed gradient steps, with %s proposals all evaluated (%s gradient passes whatever the data; Seeman, Reimherr & Slavkovic 2021 for exact samplers with a fixed run time). Every data set has acceptance at least a_min = %s, so no proposal is accepted, and the public centre is released, with probability at most delta_f = (1 - a_min)^N. Guarantee kind: exact-rejection.",
          format_guarantee(x$epsilon, 4), format_guarantee(x$epsilon_total - x$epsilon, 3, ulps = 0),
          format_guarantee(rj$delta_f, 3),
          factor, format(x$sigma, digits = 4), format(x$sensitivity, digits = 4), x$n, format(x$radius, digits = 4),
          source, format_guarantee(x$epsilon, 4), format(rj$mu, digits = 4), as.integer(rj$fit_iter),
          format(rj$N, big.mark = ","), format(rj$passes, big.mark = ","), format_guarantee(rj$a_min, 3, down = TRUE, ulps = 0))
}

# The mu-GDP that a pure epsilon-DP release implies (Dong et al. 2022), for
# budgets kept in mu.
implied_mu_sentence <- function(epsilon) {
  sprintf("It is also %s-GDP (gdp_from_dp(epsilon)).", format_guarantee(gdp_from_dp(epsilon), 4))
}

#' @export
print.riemdp_release <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat(sprintf("<riemdp release> private Fr\u00e9chet mean on %s\n", manifold_label(x$manifold)))
  print_guarantee(x, guarantee_sentence(x))
  print_radius_cost(x)
  print_noise_notes(x)
  print_bounds_notes(x)
  cat("Private estimate:\n")
  print(x$estimate, digits = digits)
  print_release_diagnostics(x$diagnostics)
  invisible(x)
}

#' @export
summary.riemdp_release <- function(object, ...) {
  structure(list(release = object, guarantee = guarantee_sentence(object)), class = "summary.riemdp_release")
}

#' @export
print.summary.riemdp_release <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  r <- x$release
  cat("Call:\n")
  print(r$call)
  cat(sprintf("\nPrivate Fr\u00e9chet mean on %s\n", manifold_description(r$manifold)))
  print_guarantee(x$release, x$guarantee)
  print_noise_notes(r)
  print_bounds_notes(r)
  cat(sprintf("Mechanism: %s; sigma = %s; sensitivity = %s; normalizer: %s\n", r$mechanism,
              format(r$sigma, digits = digits), format(r$sensitivity, digits = digits), r$normalizer))
  if (is.null(r$bounds_stages))
    cat(sprintf("Public parameters: n = %d; ball of radius %s around the centre below; points outside: %s\n",
                r$n, format(r$radius, digits = digits), r$outside))
  else
    cat(sprintf("Public n = %d; ball found privately (%s): radius %s around the centre below; points outside: clipped (forced)\n",
                r$n, paste(r$private_bounds, collapse = " and "), format(r$radius, digits = digits)))
  print(r$center, digits = digits)
  cat(sprintf("Sampler: %s\n", if (r$sampler == "exact" && r$mechanism == "kng")
                                  sprintf("exact draw (%s)", kng_exact_label(r)) else r$sampler))
  cat("Private estimate:\n")
  print(r$estimate, digits = digits)
  invisible(x)
}

#' @export
coef.riemdp_release <- function(object, ...) object$estimate

# A release holds no data: no fitted values and no residuals, only n.
#' @export
fitted.riemdp_release <- function(object, ...) {
  abort(sprintf("a release holds no data (only its public parameters and the private %s), so it has no fitted values; %s",
                if (inherits(object, "riemdp_linear_release")) "coefficients" else "estimate",
                release_predict_hint(object)), sys.call())
}

#' @export
residuals.riemdp_release <- function(object, ...) {
  abort(sprintf("a release holds no data (only its public parameters and the private %s), so it has no residuals; %s",
                if (inherits(object, "riemdp_linear_release")) "coefficients" else "estimate",
                release_predict_hint(object)), sys.call())
}

release_predict_hint <- function(object) {
  if (inherits(object, "riemdp_linear_release"))
    return("predict(release, newdata) gives the private fit at the predictors in `newdata` (compute residuals from your data, which the guarantee does not cover)")
  if (inherits(object, "riemdp_regression_release"))
    return("predict(release, newdata) gives the private geodesic at the covariate values in `newdata`")
  "coef(release) gives the private estimate"
}

#' @export
nobs.riemdp_release <- function(object, ...) object$n

# No standard errors, intervals or residual scale yet: each is an error that
# says why (an lm() habit must not meet "no applicable method", or a method
# of another class answering from the data in the formula's environment).
# The sampling law of a release is the noise's law around the data's
# estimate; its spread is not the data's residual spread, which the
# guarantee does not cover.
release_no_inference <- function(object, what) {
  est <- if (inherits(object, "riemdp_linear_release")) "coefficients" else "estimate"
  ci <- if (inherits(object, "riemdp_linear_release")) "confint(release, moments = ) gives intervals for the coefficients (see ?confint.riemdp_linear_release)"
        else if (inherits(object, "riemdp_frechet_release")) "confint(release) gives a confidence ball (see ?confint.riemdp_frechet_release)"
        else if (inherits(object, "riemdp_regression_release")) "confint(release, moments = ) gives a confidence region for the geodesic (see ?confint.riemdp_regression_release), and summary(release, moments = ) tests that the covariate has no effect"
        else "riemdp does not compute its intervals yet"
  abort(sprintf("%s is not available for a release: a release holds no data (only its public parameters and the private %s), and its uncertainty is that of the privacy noise and the sampling together, not the data's residual spread, which the guarantee does not cover; %s. %s",
                what, est, ci, release_predict_hint(object)), sys.call(-1))
}

#' @export
confint.riemdp_release <- function(object, parm, level = 0.95, ...) {
  release_no_inference(object, "confint() (confidence intervals)")
}

#' @export
vcov.riemdp_release <- function(object, ...) {
  release_no_inference(object, "vcov() (a covariance matrix of the estimate)")
}

#' @export
sigma.riemdp_release <- function(object, ...) {
  release_no_inference(object, "sigma() (the residual standard deviation)")
}

#' @export
model.matrix.riemdp_release <- function(object, ...) {
  linear <- inherits(object, "riemdp_linear_release")
  abort(sprintf("model.matrix() is not available for a release: it holds no data (only its public parameters and the private %s).%s %s",
                if (linear) "coefficients" else "estimate",
                if (linear) " For your own data, use model.matrix(formula(release), data);" else "",
                release_predict_hint(object)), sys.call())
}

# The layout's names for a release's output: the data's column names or
# matrix dimnames (public metadata of the input, as frechet_mean() keeps
# them), else the centre's.
release_layout <- function(M, X, center) {
  if (is.null(M$point_shape)) {
    nm <- if (length(dim(X)) == 2L) colnames(X)
    if (is.null(nm) || length(nm) != M$ambient) return(center)
    return(matrix(0, 0L, length(nm), dimnames = list(NULL, nm)))
  }
  dn <- if (is.list(X) && !is.data.frame(X)) dimnames(X[[1L]]) else dimnames(X)[1:2]
  if (is.null(dn) || all(vapply(dn, is.null, logical(1)))) return(center)
  array(0, M$point_shape, dimnames = dn)
}

# mu-GDP accounting (gdp_mu, gdp_sigma) needs constant curvature (Jiang et
# al. 2023 Thm 4.1).
gdp_supported <- function(M) M$type %in% c("euclidean", "sphere", "hyperbolic")

# An accounting error inside a release, raised with the release's call (the
# accounting sees public parameters only, so its message holds no data).
release_gdp <- function(expr, call) {
  tryCatch(expr, error = function(e) abort(conditionMessage(e), call))
}

# Chain diagnostics depend on the data beyond a release's guarantee. An
# object that holds them is marked at creation, twice: the object carries the
# attribute "riemdp_diagnostics", and so does the diagnostics' value itself.
# release_has_diagnostics() (dp_spend(), dp_budget() and the prints) checks
# both, whatever the field is called: renaming the field or moving its value
# into an attribute or another field keeps the object marked. The mark is
# cleared only by removing the value (x$diagnostics <- NULL, or
# x[["diagnostics"]] <- NULL, the documented way) when no marked value is
# left anywhere in the object.
mark_release_diagnostics <- function(x) {
  d <- unclass(x)[["diagnostics"]]
  if (is.null(d)) return(x)
  attr(d, "riemdp_diagnostics") <- TRUE
  y <- unclass(x)
  y[["diagnostics"]] <- d
  attr(y, "riemdp_diagnostics") <- TRUE
  class(y) <- oldClass(x)
  y
}

release_has_diagnostics <- function(x) {
  isTRUE(attr(x, "riemdp_diagnostics")) || holds_marked_diagnostics(x)
}

# TRUE if a value marked as diagnostics lies anywhere in x: its elements and
# attributes, to a bounded depth (every loop bounded; a release nests a few
# levels only).
holds_marked_diagnostics <- function(x, depth = 0L) {
  if (depth > 8L) return(FALSE)
  if (!depth == 0L && isTRUE(attr(x, "riemdp_diagnostics"))) return(TRUE)
  a <- attributes(x)
  a <- a[setdiff(names(a), c("names", "class", "dim", "dimnames", "row.names", "riemdp_diagnostics"))]
  for (v in a) if (holds_marked_diagnostics(v, depth + 1L) || isTRUE(attr(v, "riemdp_diagnostics"))) return(TRUE)
  if (is.list(x)) for (v in unclass(x)) if (holds_marked_diagnostics(v, depth + 1L) || isTRUE(attr(v, "riemdp_diagnostics"))) return(TRUE)
  FALSE
}

release_assign <- function(x, name, value) {
  cl <- oldClass(x)
  y <- unclass(x)
  y[[name]] <- value
  if (is.null(value) && isTRUE(attr(y, "riemdp_diagnostics")) && !holds_marked_diagnostics(y))
    attr(y, "riemdp_diagnostics") <- NULL
  class(y) <- cl
  y
}

#' @method $<- riemdp_release
#' @export
`$<-.riemdp_release` <- function(x, name, value) release_assign(x, name, value)

#' @method [[<- riemdp_release
#' @export
`[[<-.riemdp_release` <- function(x, i, value) {
  if (!is.character(i) || length(i) != 1L) {
    cl <- oldClass(x)
    y <- unclass(x)
    y[[i]] <- value
    class(y) <- cl
    return(y)
  }
  release_assign(x, i, value)
}

# The guarantee line of a release's print. With chain diagnostics attached
# (diagnostics = TRUE), the guarantee covers the private values only: the
# diagnostics depend on the data beyond it, so the object as a whole is not
# a release to publish (and dp_spend() refuses it).
print_guarantee <- function(x, sentence) {
  if (release_has_diagnostics(x))
    sentence <- paste("for the private values only. This object also holds chain diagnostics, which depend on the data beyond the guarantee: it is not a release to publish as a whole (drop them with `x$diagnostics <- NULL`, or re-run with diagnostics = FALSE).",
                      sentence)
  cat(strwrap(paste("Guarantee:", sentence), exdent = 2), sep = "\n")
}

# Within this factor of the largest sigma for which the Riemannian Laplace
# law exists (spd, hyperbolic space), a Laplace release's print warns of its
# tail: the volume growth leaves it decaying at rate 1/sigma - 1/sigma_max,
# at most half of 1/sigma, i.e. a tail scale at least twice sigma.
laplace_limit_factor <- 2

# Notes on a Frechet-mean release's noise, from its public fields only
# (mechanism, sigma, radius, manifold; on the private-bounds route the
# private radius, a post-processed output): the Laplace law near its
# existence limit, and a noise scale beyond the public ball. A character
# vector (empty when there is nothing to say).
release_noise_notes <- function(x) {
  M <- x$manifold
  notes <- character(0)
  if (!is.numeric(x$sigma) || length(x$sigma) != 1L || !is.finite(x$sigma) || is.null(x$mechanism)) return(notes)
  sigma <- x$sigma
  alternatives <- if (gdp_supported(M)) "mechanism = \"kng\" (on the ball: any sigma) or mechanism = \"gaussian\" with `mu` (mu-GDP, a law for every sigma)"
                  else "mechanism = \"kng\" (on the ball: any sigma)"
  if (identical(x$mechanism, "laplace")) {
    smax <- laplace_sigma_max(M)
    if (is.finite(smax) && laplace_limit_factor * sigma >= smax) {
      tail <- 1 / (1 / sigma - 1 / smax)
      notes <- c(notes, sprintf("Note: sigma = %s is within a factor %s of %s, the largest sigma for which the Riemannian Laplace law on %s exists. Its volume growth leaves the tail decaying at rate 1/sigma - 1/%s: a tail scale of %s, %s times sigma, so a draw can land far beyond the data. Use %s, or a larger `epsilon` (or n, or a smaller `radius`) for sigma below %s.",
                                format(sigma, digits = 4), format(laplace_limit_factor), format(smax, digits = 4),
                                manifold_label(M), format(smax, digits = 4), format(tail, digits = 3),
                                format(tail / sigma, digits = 3), alternatives,
                                format(smax / laplace_limit_factor, digits = 4)))
    }
  }
  r <- x$radius
  if (is.numeric(r) && length(r) == 1L && is.finite(r) && r > 0) {
    # the draw's typical distance from the mean in flat space: dim x sigma
    # (Laplace and K-norm laws, radius Gamma(dim, sigma)); sqrt(dim) x sigma
    # (Gaussian)
    gaussian <- identical(x$mechanism, "gaussian")
    spread <- if (gaussian) sqrt(M$dim) * sigma else M$dim * sigma
    if (spread > r) {
      how <- sprintf("%s x sigma = %s", if (gaussian) sprintf("sqrt(%d)", M$dim) else format(M$dim), format(spread, digits = 3))
      notes <- c(notes, if (identical(x$mechanism, "kng"))
        sprintf("Note: the noise scale exceeds the public ball: the K-norm gradient law's typical distance from the mean, about dim x sigma = %s (flat space), is more than the radius %s, so the release is close to a uniform draw on the ball and says little about where in it the mean lies. A larger `epsilon` or n gives one that does (a smaller ball does not help much: sigma shrinks with the radius).",
                format(spread, digits = 3), format(r, digits = 4))
      else
        sprintf("Note: the noise scale exceeds the public ball: the draw's typical distance from the mean, about %s (flat space), is more than the radius %s, so the release can lie far outside the region that holds the data. Use mechanism = \"kng\" (its draw stays in the ball), or a larger %s or n%s.",
                how, format(r, digits = 4), if (gaussian) "`mu`" else "`epsilon`",
                if (gaussian) "" else " (a smaller ball does not help much: sigma shrinks with the radius)"))
    }
  }
  notes
}

print_noise_notes <- function(x) {
  for (note in release_noise_notes(x)) cat(strwrap(note, exdent = 2), sep = "\n")
  invisible(NULL)
}

# A note where the public radius sits on the steep part of the sensitivity
# bound (public parameters only): more than twice the noise of a radius 10%
# smaller.
print_radius_cost <- function(x) {
  if (is.null(x$radius) || is.null(x$n) || !is.numeric(x$radius)) return(invisible(NULL))
  ratio <- radius_cost_ratio(x$manifold, x$n, x$radius, if (identical(x$mechanism, "kng")) "gradient" else "mean")
  if (is.finite(ratio) && ratio > 2)
    cat(strwrap(sprintf("Note: radius %s costs %s times the noise of a radius 10%% smaller: it is close to the largest admissible radius r* = %s (sensitivity_radius_max()), where the bound grows without limit; a smaller public ball, if it still holds the data, gives much less noise.",
                        format(x$radius, digits = 4), format(ratio, digits = 3),
                        format(sensitivity_radius_max(x$manifold), digits = 6)), exdent = 2), sep = "\n")
  invisible(NULL)
}
