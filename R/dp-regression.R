#' Differentially private geodesic regression
#'
#' Releases a geodesic regression fit \eqn{x \mapsto Exp_p(x v)}{x -> Exp_p(x v)} under
#' \eqn{\epsilon}{epsilon}-differential privacy with the K-norm gradient (KNG)
#' mechanism on the whole parameter \eqn{(p, v)}{(p, v)} (see "The joint release of a
#' geodesic regression" in `vignette("methods", package = "riemdp")`): one draw
#' from the density
#' \deqn{f(p, v) \propto \exp\left(-\|\nabla E_\tau(p, v; D)\| / \sigma\right),
#' \qquad \|\nabla E_\tau\|^2 = \|\nabla_p E_\tau\|_p^2 + \|\nabla_v E_\tau\|_p^2,}{f(p, v) propto exp (-||grad E_tau(p, v; D)|| / sigma), ||grad E_tau||^2 = ||grad_p E_tau||_p^2 + ||grad_v E_tau||_p^2,}
#' with respect to the Riemannian volume of \eqn{M}{M} times Lebesgue measure on
#' each tangent space, on the public domain \eqn{d(c, p) \le}{d(c, p) <=} `radius`,
#' \eqn{|v|_p \le}{|v|_p <=} `tau_m`. The gradient is that of geodesic regression
#' ([geodesic_regression()]) with the covariate mapped from the public
#' `x_range` to \eqn{[0, 1]}{[0, 1]} and each residual clipped to norm `tau`.
#'
#' **Privacy.** Replacing one data point changes one term of the clipped
#' gradient at every \eqn{(p, v)}{(p, v)} of the domain, by at most
#' \eqn{\Delta = (\Delta_p^2 + \Delta_v^2)^{1/2}}{Delta = (Delta_p^2 + Delta_v^2)^(1/2)} from
#' [sensitivity_geodesic_regression()] (public `n`, `tau`, `tau_m`); the
#' normalising constant of the density depends on the data, so
#' \eqn{\sigma = 2\Delta/\epsilon}{sigma = 2 Delta/epsilon} (Reimherr & Awan 2019), and the whole
#' release spends \eqn{\epsilon}{epsilon}. Everything else is public: the domain, the
#' covariate range, the clip. Covariates outside `x_range` are an error, and
#' so are responses that are not points of `M`; the errors carry no data
#' values.
#'
#' **Sampler.** The draw is the last state of a Metropolis-Hastings chain
#' started at the public point \eqn{(c, 0)}{(c, 0)}, never at the non-private fit,
#' whose length is a function of public quantities only (by default
#' \eqn{500 + 50D}{500 + 50D} steps, \eqn{D}{D} the dimension of \eqn{(p, v)}{(p, v)}; see
#' `control`). It runs in orthonormal coordinates of the tangent bundle at
#' the Huber fit \eqn{\hat z}{zhat}, where the gradient is about
#' \eqn{g_0 + H\delta}{g_0 + H delta} (\eqn{H}{H} by central differences), and mixes two
#' kernels: independence proposals from the linearised K-norm gradient law
#' \eqn{\delta = H^{-1}(u - g_0)}{delta = H^(-1)(u - g_0)}, \eqn{u}{u} with density
#' \eqn{\propto \exp(-|u|/(s\sigma))}{propto exp(-|u|/(s sigma))} for \eqn{s = 1, 2, 5}{s = 1, 2, 5}, and from the
#' uniform law on the public domain; and local random-walk steps
#' preconditioned by \eqn{H^{-1}}{H^(-1)}, their scale adapted during burn-in only.
#' The proposal may use the data: the chain's stationary law is the
#' mechanism's whatever the proposal, and its start and length are public.
#' Where the linearisation is exact (least squares on flat space with no
#' residual clipped), the first proposal is the law itself and nearly every
#' proposal is accepted. The release carries the guarantee of the exact law
#' to the extent that the chain has reached it: the conformance checks of
#' `vignette("benchmarks", package = "riemdp")` ("The conformance matrix")
#' check the defaults over manifolds, sample sizes, budgets and fits far from
#' the centre. The returned object holds the private parameter and public
#' parameters only; chain diagnostics depend on the data and are returned
#' only with `diagnostics = TRUE`, outside the guarantee.
#'
#' **Run time.** Every chain iteration evaluates the clipped gradient at the
#' proposal, one pass over all \eqn{n}{n} points. The number of iterations is
#' fixed by public quantities (\eqn{D}{D} and `control`), so the run time grows
#' linearly in \eqn{n}{n} and does not otherwise depend on the data. Measured on
#' \eqn{S^2}{S^2} with one covariate and the default chain, on a shared two-core
#' machine: 24 ms at \eqn{n = 1000}{n = 1000}, 0.23 s at \eqn{n = 10^4}{n = 10^4}, 1.6 s at
#' \eqn{n = 10^5}{n = 10^5}.
#'
#' When \eqn{n\epsilon}{n epsilon} is small the density is nearly flat (with clipped
#' residuals its largest contrast over the domain is of order
#' \eqn{n\epsilon/(4\sqrt2)}{n epsilon/(4sqrt(2))} nats), and the release is then close to a
#' uniform draw on the public domain: choose the domain as small as public
#' knowledge allows.
#'
#' **What it estimates.** A KNG with residuals clipped to norm \eqn{\tau}{tau} is
#' the KNG of the Huber-type loss \eqn{\rho_\tau(d) = d^2/2}{rho_tau(d) = d^2/2} for
#' \eqn{d \le \tau}{d <= tau} and \eqn{\tau d - \tau^2/2}{tau d - tau^2/2} beyond: the release
#' concentrates, as \eqn{n}{n} grows, on the Huber geodesic fit, which is the
#' least-squares fit of [geodesic_regression()] when every residual is below
#' \eqn{\tau}{tau}. That fit is `geodesic_regression(M, x, Y, loss = "huber",
#' c = tau, scale = 1)` (see [geodesic_regression()]; the map of `x` to
#' \eqn{[0, 1]}{[0, 1]} reparametrises the same geodesic): the non-private estimate
#' the release targets, to compare releases with.
#'
#' **The scheme of Kulkarni & Soto (2025).** `scheme = "paper"` runs the
#' two-block scheme of Kulkarni & Soto (2025), App. A, with the package's
#' sensitivities, residual clip, public domain and public starts. It is not
#' App. A as written and does not reproduce the paper's numbers (on the
#' paper's design at n = 20 its footpoints lie a mean 0.028 from the fit
#' against the paper's 0.01, its angles spread with sd 99 degrees against
#' 5.47, the mean absolute error of its geodesics is 0.71 against 0.11:
#' `vignette("private-geodesic-regression", package = "riemdp")`).
#' It draws the footpoint from
#' \eqn{\exp(-\|\nabla_p E(p, \Gamma_{\hat p \to p}\hat v)\|/\sigma_p)}{exp(-||grad_p E(p, Gamma_(phat -> p)vhat)||/sigma_p)}, with
#' \eqn{(\hat p, \hat v)}{(phat, vhat)} the non-private least-squares fit, then the shooting
#' vector in the tangent space of the private footpoint from
#' \eqn{\exp(-\|\nabla_v E(\tilde p, v)\|/\sigma_v)}{exp(-||grad_v E(ptilde, v)||/sigma_v)}, with
#' \eqn{\epsilon_p = }{epsilon_p =} `split`\eqn{\cdot\epsilon}{*epsilon},
#' \eqn{\epsilon_v = \epsilon - \epsilon_p}{epsilon_v = epsilon - epsilon_p} and \eqn{\sigma = \Delta/\epsilon}{sigma = Delta/epsilon}
#' per step as the paper has it (with the package's correct
#' \eqn{\Delta_p, \Delta_v}{Delta_p, Delta_v}). It is **not** differentially private: the
#' footpoint step's bound holds for a fixed shooting vector, but \eqn{\hat v}{vhat}
#' moves with the data (on \eqn{R^1}{R^1} with \eqn{n = 20}{n = 20} equally spaced covariates the
#' step is at best \eqn{3.7\epsilon_p}{3.7 epsilon_p}-DP: see "The footpoint step is not
#' differentially private" in `vignette("methods", package = "riemdp")`), and \eqn{\sigma = \Delta/\epsilon}{sigma = Delta/epsilon} ignores
#' the data-dependent normalising constant. Its printed statement says so.
#' Kulkarni & Soto's App. A as written (\eqn{\tau}{tau} read off the data, the paper's
#' Jacobi factors \eqn{\cos 1}{cos 1} and \eqn{\sin 1}{sin 1}, random walks
#' started at the fit; on the sphere, in plain R, not private either) is the
#' installed script `system.file("scripts", "app-a-as-written.R", package =
#' "riemdp")`, which the vignette uses to check the paper's numbers.
#'
#' @section Choosing the public parameters:
#' Distances are geodesic distances of `M`: radians on the sphere (on Earth,
#' km / 6371), the affine-invariant distance on SPD. `x_range` is the
#' covariate's public range in its own units, mapped to \eqn{[0, 1]}{[0, 1]};
#' so `tau_m` bounds how far the fit moves across the whole range (|v| per
#' unit of `x` times the width of `x_range`; in the Tonga example of
#' `vignette("riemdp")`: at most 1212 km
#' over 0 to 700 km of depth, `tau_m = 0.2`). `center` and `radius` bound the
#' fit at `x_range[1]`, not the data. `tau` is the largest residual distance
#' counted in full (Tonga: 0.1, 637 km). The noise rate is
#' \eqn{\sigma = 2\Delta/\epsilon}{sigma = 2 Delta / epsilon}, \eqn{\Delta}{Delta}
#' the `joint` of [sensitivity_geodesic_regression()]: \eqn{2\sqrt2\tau/n}{2
#' sqrt(2) tau / n} where the curvature is at least 0, linear in `tau` and free
#' of `radius`, `tau_m` and `x_range`. For the 795 Tonga epicentres against
#' depth at \eqn{\epsilon = 1}{epsilon = 1}, `tau = 0.1` gives
#' \eqn{\Delta}{Delta} = 3.6e-4 and \eqn{\sigma}{sigma} = 7.1e-4; `tau = 0.2`
#' doubles both. On hyperbolic space and SPD \eqn{\Delta}{Delta} also grows
#' with `tau_m`: on `manifold_spd(3)` with n = 92, `tau = 0.5`, `tau_m = 1` it
#' is 0.018 with the default tight bound (`bound = "jacobi"`), 0.051 with
#' `bound = "poster"` (Kulkarni & Soto's poster, 2026, Table 1, kept to
#' reproduce it). `radius`, `tau_m` and
#' `x_range` set the domain of the draw: when \eqn{n\epsilon}{n epsilon} is
#' small the release is nearly uniform on it, so a looser bound widens the
#' spread of releases directly. Covariates outside `x_range` are refused (an
#' error that names no value); responses are not bounded, but residuals
#' beyond `tau` are clipped in the gradient (the release then targets the
#' Huber fit); a fit outside the domain cannot be released, the draw stays
#' in it. `vignette("choosing-bounds", package = "riemdp")` measures these
#' effects on the Euclidean case, [dp_linear_regression()].
#'
#' @section Bounds found privately:
#' With `bounds = dp_regression_bounds(share = 0.2, x_limits = c(lower, upper))`
#' the bounds the user does not state are found privately (the stages and
#' public rules are in [dp_regression_bounds()]): the covariate's range by
#' private quartiles widened by Tukey's fences inside the public wide range
#' `x_limits`; the footpoint ball around the responses' private centre (soft
#' counts over a public net; on the sphere the whole sphere), with a radius
#' from their private median distance; `tau_m` as the diameter of the
#' responses' ball; `tau` from the responses' spread (or from the residuals
#' of a coarse private fit, `tau_method = "coarse"`). Covariates outside the
#' private range are clipped to it (a public rule: no error depends on the
#' data), and every check a private bound could fail is made at the worst
#' case of its public grid before the data are used. The release prints one
#' guarantee, the sum of the stages and the release, with the stages
#' listed; `bounds_stages` holds them, `epsilon` the total (charged by
#' [dp_budget()]) and `epsilon_release` the regression's part. Only
#' `scheme = "joint"` is supported. For the 795 Tonga epicentres at total
#' \eqn{\epsilon = 1}{epsilon = 1}, knowing only "somewhere on Earth" and
#' "depth 0 to 700 km" (the default `share = 0.2`), the median footpoint error over 100
#' releases is 1.36 times that of the hand-chosen bounds of the example in
#' `vignette("riemdp")` (141 km against 104 km), the direction error 1.27
#' times (13.0 against 10.2 degrees); the private `tau` is about 0.13
#' against the hand-chosen 0.1 (`vignette("choosing-bounds", package = "riemdp")`,
#' "Bounds found privately"). `tau` from the responses' spread overstates the
#' residual scale when the covariate explains much of the spread: state
#' `tau` if it is known.
#'
#' @inheritParams geodesic_regression
#' @param x The covariate: a numeric vector with one value per point, inside
#'   `x_range`.
#' @param Y The responses: points of `M` in its layout. On
#'   [`manifold_euclidean(d)`][manifold_euclidean], coordinates beyond
#'   \eqn{10^{150}}{10^150} in magnitude (where squared distances would
#'   overflow) are clipped to \eqn{\pm 10^{150}}{+-10^150}, a public rule for every
#'   record: their residuals are clipped to `tau` all the same, and no record
#'   decides between a release and an error.
#' @param epsilon Privacy budget \eqn{\epsilon > 0}{epsilon > 0} (the total, for both
#'   schemes).
#' @param tau Public clip of the residual norms, \eqn{\tau > 0}{tau > 0}.
#' @param tau_m Public bound on the length of the shooting vector per unit
#'   of the mapped covariate (i.e. across the whole `x_range`): the domain is
#'   \eqn{|v| \le}{|v| <=} `tau_m`.
#' @param x_range Public range of the covariate, `c(lower, upper)`; it is
#'   mapped to \eqn{[0, 1]}{[0, 1]}. Its width must be at least
#'   `sqrt(.Machine$double.eps)` (about 1.5e-8) times `max(abs(x_range))`, or
#'   the mapped covariate and the fit at \eqn{x = 0}{x = 0} lose their digits:
#'   shift the covariate by a public constant first.
#' @param center,radius The public ball that holds the footpoint of the
#'   mapped covariate, the fit at `x_range[1]`; `radius` at most the
#'   injectivity radius (\eqn{\pi}{pi} on the sphere, \eqn{\pi/2}{pi/2} on Kendall's
#'   space).
#' @param scheme `"joint"` (the package's release) or `"paper"`.
#' @param split The share of `epsilon` spent on the footpoint by
#'   `scheme = "paper"`.
#' @param bound The sensitivity bound, as in
#'   [sensitivity_geodesic_regression()]: `"jacobi"` (the default, the tight
#'   Jacobi-field bound at geodesic length `tau_m`) or `"poster"` (length
#'   \eqn{2(\tau_m + \tau)}{2(tau_m + tau)}, Table 1 of Kulkarni & Soto's
#'   poster (2026), to reproduce it). They differ only where the lower
#'   curvature bound is negative (hyperbolic space, spd); the print says
#'   which was used.
#' @param control `NULL` (the default) for the public default chain,
#'   \eqn{(250 + 25D) k}{(250 + 25D) k} burn-in steps and as many after, with
#'   \eqn{k = \min(20, \lceil 200/n \rceil)}{k = min(20, ceiling(200 / n))}
#'   (see [mcmc_control()]), or settings from
#'   [mcmc_control()]: the draw is the state after `burn_in + n_iter` steps;
#'   `adapt` and `target_accept` tune the local steps during burn-in. `init`
#'   and `resume` are refused (the chain starts at its public start).
#'   `scheme = "paper"` draws each of its two blocks by the same kind of
#'   chain on the block's own d coordinates (d the manifold's
#'   dimension), of the same default length.
#' @param bounds `NULL` (the default: every public parameter above is
#'   required, and the release is unchanged), or a specification from
#'   [dp_regression_bounds()] (or [dp_bounds()]): then any of `tau`,
#'   `tau_m`, `x_range`, `center` and `radius` may be left out and is found
#'   under differential privacy with `share` \eqn{\times}{x} `epsilon`, the
#'   release getting the rest; see "Bounds found privately".
#' @param diagnostics If `TRUE`, three more chains run from other public
#'   starts and the release holds their diagnostics: split R-hat and the
#'   effective sample size of the level \eqn{|\nabla E|/\sigma}{|grad E|/sigma} over the
#'   chains, the acceptance of each kind of step, and the release's level
#'   against \eqn{Gamma(D, 1)}{Gamma(D, 1)}, its law where the target is concentrated,
#'   and `trace`, the level at every kept step (one column per chain; the
#'   release is the last step of the first), e.g. for `matplot()`.
#'   They depend on the data beyond the guarantee: the object is then not a
#'   release to publish; use them on public or simulated data.
#' @return An object of class `c("riemdp_regression_release", "riemdp_release")`:
#'   `footpoint` and `shooting` (the private geodesic, parametrised as in
#'   [geodesic_regression()]: the point at \eqn{x = 0}{x = 0} and the velocity per
#'   unit of \eqn{x}{x}), `footpoint_range` and `shooting_range` (the same
#'   geodesic at \eqn{x = }{x =} `x_range[1]`, per unit of the mapped covariate:
#'   the sampled parameter), `manifold`, `scheme`, `guarantee`, `epsilon`,
#'   `split`, `sigma`, `sensitivity` (`c(footpoint, shooting, joint)`),
#'   `bound`, `tau`, `tau_m`, `x_range`, `center`, `radius`, `n`,
#'   `covariate_name` (the name of the argument passed as `x` when it is a
#'   name, else `"x"`; used in prints and plots), `sampler`,
#'   `guarantee_kind` (`"empirical-chain"`: the draw comes from a chain whose
#'   agreement with the mechanism's law is checked empirically, not proven;
#'   `"none"` for `scheme = "paper"`), `control`, `diagnostics` and `call`. Methods: `print()`, `summary()`, `coef()`,
#'   `predict()` (needs `newdata`: a vector of covariate values or a data
#'   frame with a column named after the covariate, or the same as `newx`;
#'   the release holds no data; any other argument, `interval` among them,
#'   is an error), `nobs()` (the public n), `plot()`; `fitted()` and
#'   `residuals()` are errors.
#' @references Kulkarni, A. and Soto, C. (2025). Differentially private
#'   geodesic and linear regression. arXiv:2504.11304v1; Reimherr, M. and
#'   Awan, J. (2019). KNG: the K-norm gradient mechanism. *NeurIPS*.
#' @seealso [sensitivity_geodesic_regression()], [dp_linear_regression()],
#'   [geodesic_regression()].
#' @examples
#' S2 <- manifold_sphere(2)
#' set.seed(1)
#' x <- runif(50)
#' truth <- riem_geodesic(S2, c(0, 0, 1), c(0.3, 0.2, 0), x)
#' Y <- riem_project(S2, truth + matrix(rnorm(150, sd = 0.02), 50))
#' rel <- dp_geodesic_regression(S2, x, Y, epsilon = 2, tau = 0.1, tau_m = 1,
#'                               x_range = c(0, 1), center = c(0, 0, 1), radius = 0.5,
#'                               control = mcmc_control(n_iter = 500, burn_in = 500))
#' rel
#' predict(rel, c(0, 0.5, 1))
#' @export
dp_geodesic_regression <- function(M, x, Y, epsilon, tau, tau_m, x_range, center, radius,
                                   scheme = c("joint", "paper"), split = 0.5, bound = c("jacobi", "poster"),
                                   control = NULL, diagnostics = FALSE, bounds = NULL) {
  call <- call_without_data(match.call(), c("x", "Y"), "dp_geodesic_regression")
  # the covariate's name for summaries and plots: the argument when it is a name
  covariate_name <- if (is.name(substitute(x))) as.character(substitute(x)) else "x"
  check_manifold(M, call)
  scheme <- arg_match(scheme, c("joint", "paper"), "scheme", call)
  bound <- arg_match(bound, c("jacobi", "poster"), "bound", call)
  if (!is.null(control)) check_control(control, call)
  if (!is.logical(diagnostics) || length(diagnostics) != 1L || is.na(diagnostics))
    abort("`diagnostics` must be TRUE or FALSE", call)
  if (!is.null(bounds)) {
    given <- list(tau = !missing(tau), tau_m = !missing(tau_m), x_range = !missing(x_range),
                  center = !missing(center), radius = !missing(radius))
    vals <- list(tau = if (given$tau) tau, tau_m = if (given$tau_m) tau_m, x_range = if (given$x_range) x_range,
                 center = if (given$center) center, radius = if (given$radius) radius)
    return(geodesic_release_with_bounds(M, x, Y, if (!missing(epsilon)) epsilon, vals, given, scheme, bound, control,
                                        diagnostics, bounds, call, covariate_name))
  }
  for (a in c("epsilon", "tau", "tau_m", "x_range", "center", "radius"))
    if (eval(call("missing", as.name(a)))) abort(sprintf("`%s` is required: a public parameter of the release", a), call)
  epsilon <- check_positive(epsilon, "epsilon", call)
  tau <- check_positive(tau, "tau", call)
  tau_m <- check_positive(tau_m, "tau_m", call)
  split <- check_split(split, call)
  x_range <- check_range(x_range, "x_range", call)
  C <- as_points(M, center, "center", call)
  if (C$n != 1L) abort("`center` must be a single point", call)
  radius <- check_positive(radius, "radius", call)
  if (!(radius <= M$inj))
    abort(sprintf("`radius` = %s must be at most the injectivity radius %s of %s%s", format(radius), format(M$inj, digits = 6),
                  manifold_label(M), radius_units_note(M)), call)
  if (M$type %in% c("spd", "hyperbolic")) check_ball_resolved(M, C, radius + tau_m, call, "the fitted geodesics")
  S <- release_points(M, Y, call, "Y")
  S <- check_squares_representable(M, S, list(tau = tau, tau_m = tau_m, radius = radius), call)
  n <- S$n
  U <- map_to_unit(x, x_range, n, "x", call)
  sens <- regression_sensitivity(M, n, tau, tau_m, bound, m = 1L, call = call)
  # A release is the state after burn_in + n_iter iterations; with
  # diagnostics the chain keeps every state after burn-in (the same chain:
  # thinning only selects what is returned) for the effective sample size.
  if (scheme == "joint") {
    sigma <- 2 * sens[["joint"]] / epsilon
    if (!is.finite(sigma)) abort(sprintf("`epsilon` = %s is too small: sigma = 2 Delta / epsilon overflows", format(epsilon)), call)
    ctl <- kng_chain_control(control, 2L * M$dim, n, call)
    # The data enter only here, through the mechanism's target.
    res <- kng_chain_draw(M, S, U, sigma, tau, C$x, radius, tau_m, ctl, diagnostics, call)
    last <- list(p = res$p, V = res$V)
    diag_out <- res$diagnostics
    sampler <- "kng-chain"
  } else {
    # Kulkarni & Soto's App. A: the non-private fit (the scheme's hole), then
    # the footpoint's block with the fitted shooting vector carried along,
    # then the shooting vector's block at the drawn footpoint; each block by
    # the KNG chain on its own coordinates (d of them), of the public length.
    ctl <- kng_chain_control(control, M$dim, n, call)
    sigma <- c(footpoint = sens[["footpoint"]] / (split * epsilon),
               shooting = sens[["shooting"]] / ((1 - split) * epsilon))
    if (!all(is.finite(sigma))) abort(sprintf("`epsilon` = %s is too small: sigma overflows", format(epsilon)), call)
    fit <- core_call(stat_geodesic_regression(M, S, U, initial_mean(M, S), NULL, NULL, 1000L, 1e-10, "l2", Inf, 0),
                     call)
    r1 <- kng_chain_draw(M, S, U, sigma[["footpoint"]], tau, C$x, radius, tau_m, ctl, diagnostics, call,
                         block = "footpoint", p_ref = fit$footpoint, V_ref = fit$shooting)
    rm(fit)
    r2 <- kng_chain_draw(M, S, U, sigma[["shooting"]], tau, r1$p, radius, tau_m, ctl, diagnostics, call,
                         center = C$x, block = "shooting")
    last <- list(p = r2$p, V = r2$V)
    diag_out <- if (diagnostics) list(footpoint = r1$diagnostics, shooting = r2$diagnostics) else NULL
    sampler <- "kng-chain"
  }
  p_range <- last$p
  v_range <- last$V
  if (M$type == "kendall") {
    # The chain's preshape carries a rotation picked up along its path (the
    # holonomy of horizontal steps): report (p, v) rotated into optimal
    # alignment with the public centre, as dp_frechet_mean() does.
    a <- kendall_align(M, C$x, p_range, v_range)
    p_range <- a$p
    v_range <- matrix(a$v, ncol = 1L)
  }
  # Post-processing: the same geodesic at x = 0, per unit of x.
  w <- x_range[2] - x_range[1]
  at0 <- core_call(stat_regression_rebase(M, p_range, v_range, -x_range[1] / w), call)
  layout <- release_layout(M, Y, center)  # public names of the layout
  mark_release_diagnostics(structure(list(footpoint = from_values(M, at0$footpoint, 1L, TRUE, layout),
                 shooting = from_values(M, as.double(at0$shooting) / w, 1L, TRUE, layout),
                 footpoint_range = from_values(M, p_range, 1L, TRUE, layout),
                 shooting_range = from_values(M, as.double(v_range), 1L, TRUE, layout),
                 manifold = M, scheme = scheme,
                 guarantee = if (scheme == "joint") "epsilon-DP" else "none (App. A scheme of Kulkarni & Soto 2025)",
                 epsilon = epsilon, split = if (scheme == "paper") split else NA_real_, sigma = sigma,
                 sensitivity = sens, bound = bound, tau = tau, tau_m = tau_m, x_range = x_range,
                 center = from_values(M, C$x, 1L, TRUE, center), radius = radius, n = n,
                 covariate_name = covariate_name, sampler = sampler,
                 guarantee_kind = if (scheme == "joint") release_guarantee_kind(sampler) else "none",
                 control = ctl[c("n_iter", "burn_in", "adapt", "target_accept")],
                 diagnostics = diag_out, call = call),
            class = c("riemdp_regression_release", "riemdp_release")))
}

# The public preconditioner of the chain on (p, v_1..v_m): near its mode the
# KNG density is about exp(-|H (theta - theta_hat)| / sigma), H the Gram
# matrix of the design (1, u_i), so theta has covariance ~ sigma^2 H^-2; the
# proposal mixes its isotropic tangent Gaussians by A = H^-1 for the public
# design u ~ U[0, 1]^m: H = E[(1, u)(1, u)^T] (1 on the diagonal for the
# intercept, 1/2 against each u_j, 1/3 on the other diagonal entries, 1/4
# off it). It depends on m only, never on the data.
# The release's terms, for predict(): without the response and without the
# formula's environment (which may hold the data; saveRDS() would write it).
public_terms <- function(tt) {
  tt <- stats::delete.response(tt)
  attr(tt, ".Environment") <- baseenv()
  tt
}

proposal_mixing <- function(m) {
  H <- matrix(1 / 4, m + 1L, m + 1L)
  H[1L, ] <- H[, 1L] <- 1 / 2
  H[1L, 1L] <- 1
  diag(H)[-1L] <- 1 / 3
  solve(H)
}

# Norms are computed from squares: public scales and, on euclidean, the data
# beyond 1e150 would overflow them (residual norms Inf, clipped gradients 0,
# a chain that cannot move). A public scale beyond is an error; a data value
# beyond is clipped to +-1e150, a public rule applied to every record (its
# residual is clipped to tau all the same), so that no record decides
# between a release and an error. Returns S, clipped.
check_squares_representable <- function(M, S, public, call, what = "`Y`") {
  big <- squares_limit
  for (a in names(public))
    if (public[[a]] > big) abort(sprintf("`%s` must be at most %g: squared distances beyond it overflow double precision; rescale the data", a, big), call)
  if (M$type == "euclidean") S$x <- pmin(pmax(S$x, -big), big)
  S
}
squares_limit <- 1e150

# A public range c(lower, upper), finite, lower < upper.
check_range <- function(r, arg, call) {
  if (!is.numeric(r) || length(r) != 2L || !all(is.finite(r)) || !(r[1] < r[2]) || !is.finite(r[2] - r[1]))
    abort(sprintf("`%s` must be c(lower, upper): two finite numbers with lower < upper and a finite width", arg), call)
  check_range_resolved(r[1], r[2], arg, "x", call)
  as.double(r)
}

# A range wide enough for double precision: width >= sqrt(eps) * max(|lower|,
# |upper|), a normal number. The release maps x to (x - lower) / width, so
# rounding x costs eps * max|x| / width of the mapped value, and reports the
# fit at x = 0 per unit of x, extrapolating by up to max|x| / width: the bound
# keeps the relative error of both within sqrt(eps) (half the digits). Privacy
# holds at any width (rounding keeps the mapped values in [0, 1]), but the
# release would mean nothing. `shift` formats the hint's shifted variable.
check_range_resolved <- function(lower, upper, arg, var, call, shift = "%s - %s") {
  w <- upper - lower
  need <- max(sqrt(.Machine$double.eps) * max(abs(lower), abs(upper)), .Machine$double.xmin)
  if (!(w >= need)) {
    hint <- if (need > .Machine$double.xmin)
      sprintf("shift `%s` by a public constant (e.g. %s, range c(0, %s)) or widen the range", var,
              sprintf(shift, var, format(lower, digits = 15)), format(w, digits = 3))
    else sprintf("rescale `%s` by a public constant", var)
    abort(sprintf(paste("`%s` is too narrow for double precision: its width %s must be at least",
                        "sqrt(.Machine$double.eps) * max(|lower|, |upper|) and a normal number, here %s; %s"),
                  arg, format(w, digits = 3), format(need, digits = 3), hint), call)
  }
  invisible(TRUE)
}

check_split <- function(split, call) {
  if (!is.numeric(split) || length(split) != 1L || !is.finite(split) || !(split > 0 && split < 1))
    abort("`split` must be a single number strictly between 0 and 1", call)
  as.double(split)
}

# Covariate values mapped from the public range to [0, 1] as an n x 1 matrix;
# values outside the range are an error that names no value (a release).
map_to_unit <- function(x, range, n, arg, call) {
  if (!is.numeric(x) || !is.null(dim(x)) && !(length(dim(x)) == 2L && ncol(x) == 1L))
    abort(sprintf("`%s` must be a numeric vector", arg), call)
  if (length(x) != n)
    abort(sprintf("`%s` must hold one value per point: it has %d values but there are %d points", arg, length(x), n), call)
  if (!all(is.finite(x))) abort(sprintf("`%s` must be finite (it contains NA, NaN or Inf)", arg), call)
  if (any(x < range[1] | x > range[2]))
    abort(sprintf("`%s` has values outside the public range `x_range` = [%s, %s]", arg, format(range[1]), format(range[2])), call)
  matrix((as.double(x) - range[1]) / (range[2] - range[1]), ncol = 1L)
}

regression_guarantee_sentence <- function(x) {
  # private bounds (bounds = ): one composed guarantee
  if (!is.null(x$bounds_stages)) return(regression_bounds_sentence(x, regression_guarantee_sentence))
  dom <- sprintf("public domain: footpoint at x = %s within %s of the centre, |v| <= tau_m = %s per x range [%s, %s]; residuals clipped to tau = %s",
                 format(x$x_range[1], digits = 4), format(x$radius, digits = 4), format(x$tau_m, digits = 4),
                 format(x$x_range[1], digits = 4), format(x$x_range[2], digits = 4), format(x$tau, digits = 4))
  src <- regression_bound_label(x)
  mh <- release_sampler_sentence(x, "(centre, 0)")
  if (x$scheme == "joint")
    return(sprintf("%s-DP (pure epsilon-DP): K-norm gradient mechanism on (footpoint, shooting vector) with sigma = 2*Delta/epsilon = %s, Delta = %s (footpoint %s, shooting %s; n = %d, %s); %s; %s. %s %s",
                   format_guarantee(x$epsilon, 4), format(x$sigma, digits = 4), format(x$sensitivity[["joint"]], digits = 4),
                   format(x$sensitivity[["footpoint"]], digits = 4), format(x$sensitivity[["shooting"]], digits = 4),
                   x$n, src, dom, mh, implied_mu_sentence(x$epsilon), guarantee_kind_sentence(x)))
  sprintf("NOT a differential-privacy guarantee: the two-step scheme of Kulkarni & Soto (2025), App. A (epsilon = %s split %s / %s, sigma = Delta/epsilon = %s / %s, Delta from %s) samples the footpoint given the non-private fitted shooting vector, which changes with the data, so the footpoint step's bound does not hold, and sigma = Delta/epsilon ignores the data-dependent normalising constant; use scheme = \"joint\" for a guarantee; %s; %s.",
          format(x$epsilon, digits = 4), format(x$split * x$epsilon, digits = 4), format((1 - x$split) * x$epsilon, digits = 4),
          format(x$sigma[["footpoint"]], digits = 4), format(x$sigma[["shooting"]], digits = 4), src, dom,
          if (identical(x$sampler, "kng-chain"))
            sprintf("each block drawn by a chain of the joint release's kind (%d steps, %d burn-in) on its own coordinates, the footpoint's from the public centre, the shooting vector's from 0 at the drawn footpoint",
                    as.integer(x$control$burn_in + x$control$n_iter), as.integer(x$control$burn_in))
          else mh)
}

# Which sensitivity bound a release used (its public `bound`), and whether
# the choice mattered (only where the lower curvature bound is negative).
regression_bound_label <- function(x) {
  b <- x$bound %||% "poster"   # releases made before the field existed
  what <- if (b == "poster") "bound = \"poster\": Kulkarni & Soto, poster (2026), Table 1, geodesic length 2 (tau_m + tau)"
          else "bound = \"jacobi\": the tight Jacobi-field bound at geodesic length tau_m"
  if (x$manifold$curvature[1] >= 0) paste0(what, ", the same value as the other bound at curvature >= 0")
  else what
}

#' @export
print.riemdp_regression_release <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat(sprintf("<riemdp release> private geodesic regression on %s (n = %d)\n", manifold_label(x$manifold), x$n))
  print_guarantee(x, regression_guarantee_sentence(x))
  print_bounds_notes(x, "dp_regression_bounds()")
  cat("Private footpoint (the fit at x = 0):\n")
  print(x$footpoint, digits = digits)
  cat(sprintf("Private shooting vector (per unit of %s):\n", x$covariate_name %||% "x"))
  print(x$shooting, digits = digits)
  print_release_diagnostics(x$diagnostics)
  invisible(x)
}

# Diagnostics of either sampler of a release.
print_release_diagnostics <- function(d) {
  if (!is.null(d$sampler) && d$sampler == "kng-chain") return(print_kng_diagnostics(d))
  if (!is.null(d$footpoint$sampler)) {  # the two blocks of the App. A scheme
    for (nm in names(d)) {
      cat(sprintf("[%s block]\n", nm))
      print_kng_diagnostics(d[[nm]])
    }
    return(invisible(NULL))
  }
  print_chain_diagnostics(d)
}

# The sampler of a regression release, in its guarantee and summary.
release_sampler_sentence <- function(x, start) {
  if (identical(x$sampler, "kng-chain")) return(kng_chain_sentence(x$control, start))
  sprintf("a random-walk Metropolis-Hastings draw of %d steps started at the public %s (the guarantee is that of the exact law, which the chain approximates)",
          as.integer(x$control$burn_in + x$control$n_iter), start)
}
release_sampler_name <- function(x) {
  if (identical(x$sampler, "kng-chain")) "K-norm gradient chain (linearised-law independence and local steps)"
  else "random-walk Metropolis-Hastings"
}

print_chain_diagnostics <- function(d) {
  if (is.null(d)) return(invisible(NULL))
  cat("Chain diagnostics (data-dependent, outside the guarantee):\n")
  for (nm in names(d))
    cat(sprintf("  %s chain: acceptance %s, step %s, effective sample size %s of %d iterations (log density)\n", nm,
                format(d[[nm]]$acceptance, digits = 3), format(d[[nm]]$step, digits = 3),
                format(d[[nm]]$ess, digits = 3), d[[nm]]$iterations))
}

#' @export
print.summary.riemdp_regression_release <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  r <- x$release
  cat("Call:\n")
  print(r$call)
  cat(sprintf("\nPrivate geodesic regression on %s; scheme: %s\n", manifold_description(r$manifold), r$scheme))
  print_guarantee(x$release, x$guarantee)
  cat(sprintf("Sensitivity (%s): footpoint %s, shooting %s, joint %s\n", r$bound,
              format(r$sensitivity[["footpoint"]], digits = digits), format(r$sensitivity[["shooting"]], digits = digits),
              format(r$sensitivity[["joint"]], digits = digits)))
  cat(sprintf("%s: n = %d, tau = %s, tau_m = %s, x_range = [%s, %s], radius %s around the centre:\n",
              if (is.null(r$bounds_stages)) "Public parameters"
              else sprintf("Parameters (found privately: %s; the rest public)", paste(r$private_bounds, collapse = ", ")),
              r$n, format(r$tau, digits = digits), format(r$tau_m, digits = digits), format(r$x_range[1], digits = digits),
              format(r$x_range[2], digits = digits), format(r$radius, digits = digits)))
  print(r$center, digits = digits)
  cat(sprintf("Sampler: %s, burn-in %d, %d further steps\n", release_sampler_name(r), r$control$burn_in, r$control$n_iter))
  cat("Private footpoint (x = 0):\n")
  print(r$footpoint, digits = digits)
  cat(sprintf("Private shooting vector (per unit of %s):\n", r$covariate_name %||% "x"))
  print(r$shooting, digits = digits)
  t <- x$no_effect_test
  if (is.null(t)) {
    if (identical(r$scheme, "joint") && is.null(r$bounds_stages))
      cat("(a test of no effect: summary(object, moments = ), with moments from dp_regression_moments() or a public statement)\n")
    return(invisible(x))
  }
  cat(strwrap(sprintf("Test of no effect of %s (v = 0): the geodesic moves %s over x_range; under the null, %d bootstrap releases (Ferrando, Wang & Sheldon 2022) from a model with %s moments move a median %s (95%% quantile %s); p-value %s",
                      r$covariate_name %||% "x", format(t$statistic, digits = digits), t$B,
                      if (t$source == "private") "private (dp_regression_moments())" else "publicly stated",
                      format(t$null_quantiles[[1L]], digits = digits), format(t$null_quantiles[[3L]], digits = digits),
                      format.pval(t$p.value, digits = digits, eps = 1 / (t$B + 1))), exdent = 2), sep = "\n")
  cat("Post-processing of the releases: no budget spent beyond theirs.\n")
  invisible(x)
}

#' @export
coef.riemdp_regression_release <- function(object, ...) {
  list(footpoint = object$footpoint, shooting = object$shooting)
}

#' @export
predict.riemdp_regression_release <- function(object, newx = NULL, newdata = NULL, ...) {
  call <- sys.call()
  new <- predict_new_values(newdata, newx, list(...), call)
  if (is.null(new$value))
    abort("`newdata` (or `newx`) is required: a release holds no data (only its public parameters and the private geodesic), so it has no fitted values; pass `newdata`, the covariate values at which to evaluate the private geodesic (a vector, or a data frame with a column named after the covariate)", call)
  arg <- new$arg
  covariate <- object$covariate_name %||% "x"
  newx <- regression_newdata_matrix(new$value, covariate, arg, call)
  if (is.matrix(newx) && ncol(newx) == 1L) newx <- newx[, 1L]
  if (!is.numeric(newx) || !length(newx) || !is.null(dim(newx)))
    abort(sprintf("`%s` must be a numeric vector of covariate values (or a data frame with a column `%s`)", arg, covariate), call)
  check_finite_numeric(newx, arg, call)
  M <- object$manifold
  P <- as_points(M, object$footpoint_range, "footpoint", call)
  u <- (as.double(newx) - object$x_range[1]) / (object$x_range[2] - object$x_range[1])
  W <- list(x = as.double(outer(as.double(object$shooting_range), u)), n = length(u), by_row = FALSE)
  out <- core_call(geom_exp(M, P, W, is.null(M$point_shape)), call, sprintf("`%s`", arg))
  from_values(M, out, length(u), FALSE, object$footpoint)
}

#' Plot a private geodesic regression
#'
#' Draws the released (private) geodesic over the public covariate range with
#' the pictures of [plot.riemdp_geodesic_regression()]. The release holds no
#' data: pass the covariate and the responses to draw them too (the picture
#' then depends on the data, which the release's guarantee does not cover).
#'
#' @param x A release from [dp_geodesic_regression()].
#' @param covariate,Y Optional data to draw with the private geodesic: the
#'   covariate values (inside the release's `x_range`) and the responses.
#' @param data The same data as one argument, as the other releases' `plot()`
#'   methods take it: a list of the covariate values and the responses,
#'   named (the covariate as `x`, `covariate` or the release's
#'   `covariate_name`; the responses as `Y`) or in that order. Give `data`
#'   or `covariate` and `Y`, not both.
#' @param main Title.
#' @param set `NULL`, or a confidence set of the release from
#'   [confint()][confint.riemdp_regression_release]: drawn as a fan of
#'   geodesics on its boundary (the ends of its principal axes, and their
#'   diagonals over the four longest), in grey under the release. On the
#'   sphere and hyperbolic plane of dimension 2 and on Euclidean space with
#'   one covariate; the set's region of geodesics has no such picture on the
#'   other manifolds (test a geodesic with [dp_contains()] there).
#' @param ... Passed to [plot.riemdp_geodesic_regression()] (`view`,
#'   `n_along`, graphical parameters).
#' @return `x`, invisibly.
#' @examples
#' S2 <- manifold_sphere(2)
#' set.seed(1)
#' x <- runif(50)
#' Y <- riem_project(S2, riem_geodesic(S2, c(0, 0, 1), c(0.3, 0.2, 0), x) +
#'                     matrix(rnorm(150, sd = 0.02), 50))
#' rel <- dp_geodesic_regression(S2, x, Y, epsilon = 2, tau = 0.1, tau_m = 1,
#'                               x_range = c(0, 1), center = c(0, 0, 1), radius = 0.5,
#'                               control = mcmc_control(n_iter = 500, burn_in = 500))
#' plot(rel)
#' plot(rel, covariate = x, Y = Y)
#' plot(rel, data = list(x = x, Y = Y))  # the same
#'
#' # with a 95% confidence set (moments stated publicly: no budget spent)
#' ci <- confint(rel, moments = list(noise = 0.03), B = 100)
#' plot(rel, set = ci)
#' @export
plot.riemdp_regression_release <- function(x, covariate = NULL, Y = NULL, main = NULL, data = NULL, set = NULL, ...) {
  call <- sys.call()
  M <- x$manifold
  if (!is.null(set)) {
    if (!inherits(set, "riemdp_geodesic_confset") || !identical(set$footpoint, x$footpoint_range) ||
        !identical(set$shooting, x$shooting_range))
      abort("`set` must be NULL or a confidence set of this release, confint(x, moments = )", call)
    if (!(is.numeric(set$radius2) && length(set$radius2) == 1L && is.finite(set$radius2) && set$radius2 >= 0 &&
          is.numeric(set$cov) && all(is.finite(set$cov)) && is.numeric(set$mean) && all(is.finite(set$mean)) &&
          is.numeric(set$level) && length(set$level) == 1L && isTRUE(set$level > 0 && set$level < 1)))
      abort("`set` has been altered: its radius, covariance, mean or level is not what confint() returns; compute it again with confint(x, moments = )", call)
    if (!((M$type %in% c("sphere", "hyperbolic") && M$d == 2L) || M$type == "euclidean"))
      abort(sprintf("`set` is drawn on the sphere and hyperbolic plane of dimension 2 and on Euclidean space only; on %s the set is a region of geodesics with no such picture: test a geodesic with dp_contains(set, )",
                    manifold_label(M)), call)
  }
  if (!is.null(data)) {
    if (!is.null(covariate) || !is.null(Y))
      abort("give the data once: as `data = list(x = , Y = )`, or as `covariate` and `Y`, not both", call)
    parts <- regression_plot_data(data, x$covariate_name %||% "x", call)
    covariate <- parts$covariate
    Y <- parts$Y
  }
  if (is.null(covariate) != is.null(Y)) abort("pass both `covariate` and `Y` to draw the data, or neither", call)
  dots <- list(...)
  show <- !is.null(Y)
  if (!is.null(dots$show_data)) {
    show <- show && check_flag(dots$show_data, "show_data", call)
    dots$show_data <- NULL
  }
  if (show) {
    S <- as_points(M, Y, "Y", call)
    covariate <- as.double(map_to_unit(covariate, x$x_range, S$n, "covariate", call)) *
      diff(x$x_range) + x$x_range[1]
  } else {
    covariate <- seq(x$x_range[1], x$x_range[2], length.out = 50L)
    Y <- stats::predict(x, covariate)
  }
  fitted <- stats::predict(x, covariate)
  # the residuals of the data about the private geodesic, for the pictures
  # that draw them (not part of the release)
  residual_norms <- if (show) as.double(riem_dist(M, fitted, Y)) else NULL
  pseudo <- structure(list(manifold = M, footpoint = x$footpoint, shooting = x$shooting,
                           residual_norms = residual_norms,
                           energy = if (show) sum(residual_norms^2) / (2 * length(residual_norms)),
                           x = matrix(covariate, ncol = 1L, dimnames = list(NULL, x$covariate_name %||% "x")), data = Y,
                           fitted.values = fitted, n = length(covariate), m = 1L, r_squared = NA_real_,
                           private = TRUE, release_n = x$n, epsilon = x$epsilon, call = x$call,
                           set_geodesics = if (!is.null(set))
                             list(curves = geodesic_set_boundary(set, call), x_range = x$x_range, level = set$level)),
                      class = c("riemdp_geodesic_regression", "riemdp_fit"))
  if (is.null(main)) main <- sprintf("Private geodesic regression on %s", manifold_label(M))
  do.call(plot, c(list(pseudo, show_data = show, main = main), dots))
  invisible(x)
}

# `data` of plot() of a geodesic release: list(covariate, Y), by name or in
# order.
regression_plot_data <- function(data, covariate_name, call) {
  if (is.data.frame(data) || !is.list(data) || length(data) != 2L)
    abort(sprintf("`data` must be a list of the covariate values and the responses: list(%s = , Y = ) (a data frame cannot hold the responses' points; or pass `covariate` and `Y`)",
                  covariate_name), call)
  nm <- names(data)
  if (is.null(nm) || all(!nzchar(nm))) return(list(covariate = data[[1L]], Y = data[[2L]]))
  ykey <- which(nm == "Y")
  xkey <- which(nm %in% unique(c("x", "covariate", covariate_name)))
  if (length(ykey) != 1L || length(xkey) != 1L)
    abort(sprintf("`data` must name its elements `%s` (the covariate; or `x`, `covariate`) and `Y` (the responses), or leave both unnamed in that order; it has names %s",
                  covariate_name, paste0("\"", nm, "\"", collapse = ", ")), call)
  list(covariate = data[[xkey]], Y = data[[ykey]])
}

#' Differentially private linear regression
#'
#' Releases the coefficients of a linear regression of a numeric response on
#' one or several numeric predictors under \eqn{\epsilon}{epsilon}-differential
#' privacy: the Euclidean case of [dp_geodesic_regression()] (the K-norm
#' gradient mechanism on the whole coefficient vector, residuals clipped to
#' `tau`), with one shooting vector per predictor.
#'
#' Each predictor is mapped from its public range to \eqn{[0, 1]}{[0, 1]},
#' \eqn{u_{ij} = (x_{ij} - a_j)/(b_j - a_j)}{u_ij = (x_ij - a_j)/(b_j - a_j)}; the mechanism samples
#' \eqn{\theta = (\beta^u_0, \beta^u_1, \dots, \beta^u_m)}{theta = (beta^u_0, beta^u_1, ..., beta^u_m)}, the fit at the
#' lower corner of the ranges and the changes of the response across each
#' range, from the density
#' \eqn{\propto \exp(-\|\nabla E_\tau(\theta)\|/\sigma)}{propto exp(-||grad E_tau(theta)||/sigma)} with
#' \eqn{E_\tau(\theta) = \frac1n\sum_i \rho_\tau(y_i - \beta^u_0 - \sum_j u_{ij}\beta^u_j)}{E_tau(theta) = 1/n sum_i rho_tau(y_i - beta^u_0 - sum_j u_ij beta^u_j)}
#' and \eqn{\rho_\tau}{rho_tau} the Huber-type loss (\eqn{r^2/2}{r^2/2} for \eqn{|r| \le \tau}{|r| <= tau},
#' \eqn{\tau|r| - \tau^2/2}{tau|r| - tau^2/2} beyond), on the public box
#' \eqn{|\beta^u_j| \le}{|beta^u_j| <=} `beta_max` for every \eqn{j}{j}.
#'
#' **Sensitivity.** \eqn{\nabla E_\tau(\theta) = -\frac1n\sum_i \psi_\tau(r_i)(1, u_i)}{grad E_tau(theta) = -1/n sum_i psi_tau(r_i)(1, u_i)},
#' with \eqn{|\psi_\tau| \le \tau}{|psi_tau| <= tau} and \eqn{u_i \in [0, 1]^m}{u_i in [0, 1]^m}, so
#' \eqn{\|(1, u_i)\| \le \sqrt{1 + m}}{||(1, u_i)|| <= sqrt(1 + m)}. Replacing one observation changes
#' one term, at every \eqn{\theta}{theta}, by at most
#' \eqn{\Delta = 2\tau\sqrt{1 + m}/n}{Delta = 2 tau sqrt(1 + m)/n}; the normalising constant depends on
#' the data, so \eqn{\sigma = 2\Delta/\epsilon}{sigma = 2 Delta/epsilon}. With \eqn{m = 1}{m = 1} this is the
#' joint bound \eqn{(\Delta_p^2 + \Delta_v^2)^{1/2}}{(Delta_p^2 + Delta_v^2)^(1/2)} of
#' [sensitivity_geodesic_regression()] on flat space.
#'
#' The released coefficients are returned as `lm()` has them (intercept at
#' \eqn{x = 0}{x = 0}, slopes per unit of each predictor): \eqn{\beta_j = \beta^u_j/(b_j - a_j)}{beta_j = beta^u_j/(b_j - a_j)},
#' \eqn{\beta_0 = \beta^u_0 - \sum_j \beta_j a_j}{beta_0 = beta^u_0 - sum_j beta_j a_j} (post-processing). The
#' release concentrates on the Huber regression fit with clip `tau`, which is
#' the least-squares fit when every residual is below `tau`. The draw is the
#' last state of a Metropolis-Hastings chain started at the public point 0,
#' of \eqn{500 + 50(m + 1)}{500 + 50(m + 1)} steps by default; see [dp_geodesic_regression()]
#' for the sampler and `diagnostics`.
#' Every step evaluates the clipped gradient over all \eqn{n}{n} records, and the
#' number of steps is fixed by \eqn{m}{m} and `control`, so the run time grows
#' linearly in \eqn{n}{n} (one predictor, default chain, a shared two-core
#' machine: 9 ms at \eqn{n = 1000}{n = 1000}, 0.13 s at \eqn{n = 10^4}{n = 10^4}, 1.1 s at
#' \eqn{n = 10^5}{n = 10^5}).
#'
#' @section Choosing the public parameters:
#' All three are in the data's units. `x_range` is each predictor's public
#' range (1974 cars weigh 1000 to 6000 lbs: `x_range = c(1, 6)` for `wt` in
#' 1000 lbs); values outside are refused (an error that names no value):
#' widen the range, or transform with public constants. `tau` clips each
#' absolute residual, in the response's units (5 mpg below); the release
#' targets the Huber fit with that clip, which is the `lm()` fit when no
#' residual exceeds `tau`. `beta_max` bounds, in the response's units, the
#' fit at the lower corner of the ranges and the change of the fit across
#' each range, not the slope per unit: with mpg at most 50, the fit at 1000
#' lbs and its change up to 6000 lbs are at most 50 (`beta_max = 50`, slopes
#' up to 10 mpg per 1000 lbs); centre a response far from 0 with a public
#' constant, e.g. `I(y - 100)`. The noise rate of the gradient is
#' \eqn{\sigma = 2\Delta/\epsilon}{sigma = 2 Delta / epsilon} with
#' \eqn{\Delta = 2\tau\sqrt{1 + m}/n}{Delta = 2 tau sqrt(1 + m) / n}: linear
#' in `tau` (`tau = 5`, m = 1, n = 32, \eqn{\epsilon = 1}{epsilon = 1}:
#' \eqn{\Delta}{Delta} = 0.44, \eqn{\sigma}{sigma} = 0.88), free of `x_range`
#' and `beta_max`. Those two set the box the draw lives on: a wider range
#' packs the data into less of \eqn{[0, 1]}{[0, 1]} (a less determined slope),
#' and when \eqn{n\epsilon}{n epsilon} is small the release is nearly uniform
#' on the box, whose half-width is `beta_max`.
#'
#' @section How large n must be:
#' With few observations the density is nearly flat over the box and the
#' release is close to a uniform draw on it. For `mpg ~ wt` with the bounds
#' above (`tau = 5`, `x_range = c(1, 6)`, `beta_max = 50`), 50 releases per
#' cell on `mtcars` (n = 32) and on simulated data of the same design
#' (fixed seeds): the median absolute error of the intercept
#' and of the slope against `lm()` (37.3 and -5.34 on `mtcars`), the median
#' ratio of the release's in-sample mean squared error to `lm()`'s, and the
#' range of the 50 intercepts.
#'
#' | n | epsilon | intercept error | slope error | MSE ratio | intercepts |
#' |---:|---:|---:|---:|---:|---:|
#' | 32 (mtcars) | 0.5 | 31 | 8.8 | 22 | -51 to 56 |
#' | 32 (mtcars) | 1 | 23 | 6.2 | 8.7 | -50 to 55 |
#' | 32 (mtcars) | 2 | 21 | 6.1 | 5.4 | -15 to 51 |
#' | 100 | 0.5 | 26 | 7.4 | 17 | -27 to 49 |
#' | 100 | 1 | 13 | 4.0 | 3.8 | -19 to 54 |
#' | 100 | 2 | 3.1 | 0.92 | 1.2 | 0 to 50 |
#' | 1000 | 0.5 | 0.62 | 0.17 | 1.0 | 34 to 42 |
#' | 1000 | 1 | 0.34 | 0.096 | 1.0 | 35 to 40 |
#' | 1000 | 2 | 0.31 | 0.089 | 1.0 | 36 to 38 |
#' | 10000 | 0.5 | 0.048 | 0.014 | 1.0 | 37 to 38 |
#' | 10000 | 1 | 0.054 | 0.016 | 1.0 | 37 to 38 |
#' | 10000 | 2 | 0.020 | 0.006 | 1.0 | 37 to 37 |
#'
#' Here a useful release needs \eqn{n\epsilon}{n epsilon} of about 200 or
#' more (n = 100 at \eqn{\epsilon = 2}{epsilon = 2}, n = 1000 at 0.5); at
#' n = 32 and \eqn{\epsilon = 1}{epsilon = 1} the intercepts span nearly the
#' whole box. `vignette("choosing-bounds", package = "riemdp")` shows how the
#' error grows as each bound loosens.
#'
#' @param formula A model formula `response ~ predictors` with numeric,
#'   factor or logical predictors and an intercept. The response and each predictor must be
#'   computed from its own record with public constants, so that one record
#'   changes only its own row: they may use the columns of `data`, numeric
#'   literals, `+ - * / ^`, parentheses, `I()`, `log()`, `exp()` and `sqrt()`
#'   (e.g. `log(y) ~ I((x - 60) / 10) + sqrt(z) + x:z`), evaluated with base
#'   R's functions. Anything else is refused, naming the term: functions of
#'   all the records (`rank()`, `scale()`, `poly()`, `splines::ns()`,
#'   `I(x / max(x))`), other functions, `factor()`, names that are not
#'   columns of `data` (write public constants as numbers) and `offset()`.
#'   The release keeps the formula without its environment.
#'
#'   **Factors.** A factor (or logical) column enters as treatment dummies
#'   (0/1, first level as the baseline, whatever `options("contrasts")`
#'   says), so its public range is \eqn{[0, 1]}{[0, 1]}, set automatically:
#'   `x_range` gives the ranges of the numeric columns only. Its levels are
#'   public: they are taken from `levels()`, never from the values present
#'   (an unused level keeps its dummy, whose coefficient is then noise
#'   within `beta_max`), and a character column is refused (make it a
#'   factor with its public levels). Each dummy's coefficient is the
#'   difference from the baseline level, bounded by `beta_max`. An
#'   interaction of a factor with a numeric predictor (e.g. `x:f`) is a
#'   numeric column, named as `lm()` names it (`x:fb`), and needs its range.
#' @param data A data frame holding the variables of `formula`, with at
#'   least one row; if missing, the variables are taken from the formula's
#'   environment, as `lm()` does (each must then hold one value per record).
#'   A response beyond \eqn{10^{150}}{10^150} in magnitude (where squares would
#'   overflow) is clipped to \eqn{\pm 10^{150}}{+-10^150}, a public rule for every
#'   record: its residual is clipped to `tau` all the same, and no record
#'   decides between a release and an error.
#' @param na.action `NULL` (the default): missing values in the variables of
#'   `formula` are an error. `na.omit` or `na.exclude` (or their names) drop
#'   the incomplete rows, as `lm()` does by default; the number of complete
#'   rows then counts as public: it is the `n` of the sensitivity
#'   \eqn{\Delta}{Delta} and is printed. Replacing a record can change that
#'   number, so pass `na.omit` only where the count of complete rows may be
#'   published (for instance when missingness is known to the public);
#'   otherwise fill the missing values with public ones first. `na.fail` is
#'   the default's error.
#' @param epsilon Privacy budget \eqn{\epsilon > 0}{epsilon > 0}.
#' @param tau Public clip of the absolute residuals.
#' @param x_range Public ranges of the predictors: `c(lower, upper)` for one
#'   predictor; for several, a matrix with two rows and one column per
#'   predictor (named after them, or in the order of the model matrix) or a
#'   named list of `c(lower, upper)` pairs. Every numeric column of the
#'   model matrix is a predictor here, named as `lm()` names it: an
#'   interaction of numeric predictors (`x:z`) or a term such as `I(x^2)` is
#'   a column of its own and needs its own pair (e.g.
#'   `list(x = c(0, 1), z = c(0, 2), "x:z" = c(0, 2))`; the range of a
#'   product is public when the ranges of its factors are: here
#'   \eqn{[0, 1] \times [0, 2]}{[0, 1] x [0, 2]} gives \[0, 2\]). Values outside are an error, and
#'   so is a range narrower than `sqrt(.Machine$double.eps)` times its
#'   largest endpoint magnitude (centre the predictor with a public constant,
#'   e.g. `I(x - 1000)`).
#' @param beta_max Public bound on the fit at the lower corner of the ranges
#'   and on the change of the fitted response across each range (in the
#'   response's units).
#' @param control,diagnostics As in [dp_geodesic_regression()].
#' @param bounds `NULL` (the default: `tau`, `x_range` and `beta_max` are
#'   required, and the release is unchanged), or a specification from
#'   [dp_regression_bounds()] (or [dp_bounds()]): then any of them may be
#'   left out and is found privately with `share` \eqn{\times}{x}
#'   `epsilon`, the release getting the rest: each numeric predictor's range
#'   by private quartiles widened by Tukey's fences inside its public wide
#'   range (`x_limits`), the response's range likewise inside `y_limits`,
#'   `beta_max` from the response's range and `tau` from its spread (or
#'   from a coarse private fit), by the public rules of
#'   [dp_regression_bounds()]. Predictors outside their ranges are then
#'   clipped (no data-dependent error). The release prints one guarantee,
#'   the sum of its stages, which [dp_budget()] charges. On
#'   `mag ~ stations + depth` of `quakes` (n = 1000, total
#'   \eqn{\epsilon = 1}{epsilon = 1}, `share = 0.5`) the median in-sample MSE
#'   over 100 releases is 1.20 times `lm()`'s, against 1.13 with
#'   hand-chosen bounds (`vignette("choosing-bounds", package = "riemdp")`,
#'   "Bounds found privately").
#' @return An object of class `c("riemdp_linear_release", "riemdp_release")`
#'   with `coefficients` (named as `lm()` names them), `epsilon`, `sigma`,
#'   `sensitivity`, `tau`, `x_range` (the 2 x m matrix), `beta_max`, `n`,
#'   `terms`, `formula`, `xlevels` (the public levels of factor predictors),
#'   `contrasts`, `na.action`, `response` (the response's expression, as a
#'   string), `sampler`, `guarantee_kind` (`"empirical-chain"`, as for
#'   [dp_geodesic_regression()]), `control`, `diagnostics` and `call`. Methods:
#'   `print()`, `summary()`, `coef()`, `predict()` (needs `newdata`: a data
#'   frame with the predictors, or with one predictor a vector of its values;
#'   `newx` is taken as the same; the release holds no data; any other
#'   argument, `interval` and `se.fit` among them, is an error: a release has
#'   no intervals yet), `formula()`, `nobs()` (the public n), `plot()`;
#'   `confint()` and `summary()` with intervals and p-values from the
#'   parametric bootstrap ([confint.riemdp_linear_release()], with
#'   [dp_regression_moments()]); `fitted()` and `residuals()` are errors, as
#'   the release holds no data; so are `vcov()`, `sigma()` and
#'   `model.matrix()` (the release's uncertainty is the privacy noise's and
#'   the sampling's together, which `confint()` reports).
#' @seealso [dp_geodesic_regression()], [sensitivity_geodesic_regression()].
#' @examples
#' rel <- dp_linear_regression(dist ~ speed, cars, epsilon = 1, tau = 30,
#'                             x_range = c(0, 30), beta_max = 200)
#' rel
#' coef(lm(dist ~ speed, cars))
#' predict(rel, data.frame(speed = c(10, 20)))
#' @export
dp_linear_regression <- function(formula, data, epsilon, tau, x_range, beta_max,
                                 control = NULL, diagnostics = FALSE, na.action = NULL, bounds = NULL) {
  call <- call_without_data(match.call(), "data", "dp_linear_regression")
  # under do.call() the call holds the formula object, with its environment
  # (which may hold the data): keep the bare expression
  if (inherits(call$formula, "formula")) call$formula <- `attributes<-`(call$formula, NULL)
  if (!inherits(formula, "formula")) abort("`formula` must be a model formula, e.g. y ~ x", call)
  # without `data`, the variables come from the formula's environment, as in lm()
  if (missing(data)) data <- formula_variables(formula, call)
  if (!is.data.frame(data)) abort("`data` must be a data frame", call)
  if (!is.null(control)) check_control(control, call)
  if (!is.logical(diagnostics) || length(diagnostics) != 1L || is.na(diagnostics))
    abort("`diagnostics` must be TRUE or FALSE", call)
  na_action <- check_na_action(na.action, call)
  if (!is.null(bounds)) check_bounds_spec(bounds, call)
  for (a in if (is.null(bounds)) c("epsilon", "tau", "beta_max") else "epsilon")
    if (eval(call("missing", as.name(a)))) abort(sprintf("`%s` is required: a public parameter of the release", a), call)
  epsilon <- check_positive(epsilon, "epsilon", call)
  tau <- if (missing(tau)) NULL else check_positive(tau, "tau", call)
  beta_max <- if (missing(beta_max)) NULL else check_positive(beta_max, "beta_max", call)
  if (nrow(data) < 1L) abort("`data` must hold at least one row (it has none)", call)
  # the variables are evaluated with base R's functions only (the allow-list
  # below), never ones found in the caller's environment
  environment(formula) <- baseenv()
  tt <- tryCatch(stats::terms(formula, data = data),
                 error = function(e) abort("`formula` must be a model formula, e.g. y ~ x", call))
  # formula(release), as formula(lm) gives it (a `.` expanded), in the
  # global environment: never the caller's frame, which may hold data
  formula_public <- stats::formula(tt)
  environment(formula_public) <- globalenv()
  if (attr(tt, "intercept") != 1L) abort("`formula` must keep the intercept (the release fits one)", call)
  # model.matrix() drops offsets: the fit would silently ignore them
  if (!is.null(attr(tt, "offset")))
    abort("`formula` must not have an offset(): the release fits no offset; subtract it from the response instead", call)
  check_row_transforms(attr(tt, "variables"), names(data), call)
  check_public_levels(data, all.vars(formula), call)
  mf <- tryCatch(stats::model.frame(tt, data, na.action = stats::na.pass),
                 error = function(e) abort("`data` must hold the variables of `formula`", call))
  if (!all(stats::complete.cases(mf))) {
    if (is.null(na_action) || na_action == "na.fail")
      abort("`data` has missing values (NA) in the variables of `formula`; pass na.action = na.omit to drop the incomplete rows (their number is then public: the release uses the count n of complete rows for its sensitivity and prints it), or fill them with public values first", call)
    mf <- stats::model.frame(tt, data, na.action = stats::na.omit)
    if (nrow(mf) < 1L) abort("`data` has no complete row in the variables of `formula`", call)
  }
  tt <- attr(mf, "terms")
  y <- stats::model.response(mf)
  if (!is.numeric(y) || !is.null(dim(y))) abort("`formula` must have one numeric response", call)
  classes <- attr(tt, "dataClasses")[-1L]
  if (!all(classes %in% c("numeric", "factor", "ordered", "logical")))
    abort(sprintf("`formula` predictor `%s` is of class %s: the predictors must be numeric (with a public range in `x_range`), factors or logical",
                  names(classes)[!classes %in% c("numeric", "factor", "ordered", "logical")][1L],
                  classes[!classes %in% c("numeric", "factor", "ordered", "logical")][1L]), call)
  # factors and logicals enter as treatment dummies (0/1), whatever the
  # contrasts option: their public range is [0, 1]
  discrete <- names(classes)[classes != "numeric"]
  contrasts <- if (length(discrete)) stats::setNames(rep(list("contr.treatment"), length(discrete)), discrete)
  X <- stats::model.matrix(tt, mf, contrasts.arg = contrasts)
  m <- ncol(X) - 1L
  if (m < 1L) abort("`formula` must have at least one predictor", call)
  dummy <- dummy_columns(tt, X, discrete)
  X <- X[, -1L, drop = FALSE]
  if (!all(is.finite(X)) || !all(is.finite(y))) abort("`data` must hold finite values of the variables of `formula`", call)
  numeric_cols <- colnames(X)[!dummy]
  meta <- list(terms = public_terms(tt), formula = formula_public, xlevels = stats::.getXlevels(tt, mf),
               contrasts = contrasts, na.action = na_action, response = paste(deparse(formula[[2L]]), collapse = " "),
               dummy = dummy)
  if (!is.null(bounds)) {
    if (length(numeric_cols) && !missing(x_range) && !is.null(x_range))
      check_ranges_not_for_dummies(x_range, colnames(X)[dummy], discrete, numeric_cols, call)
    return(linear_release_with_bounds(X, as.double(y), dummy, numeric_cols, epsilon,
                                      if (missing(x_range)) NULL else x_range, tau, beta_max, bounds, control,
                                      diagnostics, meta, call))
  }
  R <- matrix(c(0, 1), 2L, m, dimnames = list(c("lower", "upper"), colnames(X)))
  if (length(numeric_cols)) {
    if (missing(x_range)) abort("`x_range` is required: a public parameter of the release", call)
    check_ranges_not_for_dummies(x_range, colnames(X)[dummy], discrete, numeric_cols, call)
    R[, numeric_cols] <- predictor_ranges(x_range, numeric_cols, call)
  } else if (!missing(x_range) && !is.null(x_range)) {
    abort(sprintf("`x_range` is not used: the predictors (%s) are all factors or logical, whose dummies lie in [0, 1], a public range set automatically; drop `x_range`",
                  paste0("`", discrete, "`", collapse = ", ")), call)
  }
  for (j in seq_len(m))
    if (any(X[, j] < R[1L, j] | X[, j] > R[2L, j]))
      abort(sprintf("predictor `%s` has values outside its public range in `x_range` = [%s, %s]", colnames(X)[j],
                    format(R[1L, j]), format(R[2L, j])), call)
  linear_release_core(X, y, R, epsilon, tau, beta_max, control, diagnostics, meta, call)
}

# The release itself, from the model matrix X (without intercept; every
# value inside its public range in R), the response y and the public bounds.
linear_release_core <- function(X, y, R, epsilon, tau, beta_max, control, diagnostics, meta, call) {
  m <- ncol(X)
  n <- length(y)
  U <- X
  for (j in seq_len(m)) U[, j] <- (X[, j] - R[1L, j]) / (R[2L, j] - R[1L, j])
  E1 <- manifold_euclidean(1)
  sens <- regression_sensitivity(E1, n, tau, beta_max, "poster", m = m, call = call)
  sigma <- 2 * sens[["joint"]] / epsilon
  if (!is.finite(sigma)) abort(sprintf("`epsilon` = %s is too small: sigma = 2 Delta / epsilon overflows", format(epsilon)), call)
  ctl <- kng_chain_control(control, m + 1L, n, call)
  S <- list(x = as.double(y), n = n, by_row = TRUE)
  S <- check_squares_representable(E1, S, list(tau = tau, beta_max = beta_max), call, "the response")
  storage.mode(U) <- "double"
  # The data enter only here, through the mechanism's target.
  res <- kng_chain_draw(E1, S, unname(U), sigma, tau, 0, beta_max, beta_max, ctl, diagnostics, call)
  theta_u <- c(res$p, as.double(res$V))
  slopes <- theta_u[-1L] / (R[2L, ] - R[1L, ])
  coefficients <- c(theta_u[1L] - sum(slopes * R[1L, ]), slopes)
  names(coefficients) <- c("(Intercept)", colnames(X))
  mark_release_diagnostics(structure(list(coefficients = coefficients, epsilon = epsilon, sigma = sigma, sensitivity = sens[["joint"]],
                 tau = tau, x_range = R, beta_max = beta_max, n = n, m = m, terms = meta$terms,
                 formula = meta$formula, xlevels = meta$xlevels, contrasts = meta$contrasts,
                 na.action = meta$na.action,
                 response = meta$response, dummy = unname(meta$dummy),
                 guarantee = "epsilon-DP", sampler = "kng-chain", guarantee_kind = "empirical-chain",
                 control = ctl[c("n_iter", "burn_in", "adapt", "target_accept")],
                 diagnostics = res$diagnostics,
                 call = call),
            class = c("riemdp_linear_release", "riemdp_release")))
}

# The variables of a formula read from its environment (dp_linear_regression()
# without `data`, as lm()): each must hold one value per record (a public
# constant must be written as a number in the formula).
formula_variables <- function(formula, call) {
  env <- environment(formula) %||% globalenv()
  vars <- all.vars(formula)
  if (!length(vars)) abort("`formula` has no variables", call)
  vals <- lapply(vars, function(v) {
    if (!exists(v, envir = env))
      abort(sprintf("`formula` variable `%s` is not found: pass `data`, a data frame holding the variables", v), call)
    x <- get(v, envir = env)
    if (!(is.atomic(x) || is.factor(x)) || !is.null(dim(x)))
      abort(sprintf("`formula` variable `%s` must be a vector (one value per record); pass `data`, a data frame holding the variables", v), call)
    x
  })
  len <- lengths(vals)
  if (any(len != len[1L]))
    abort(sprintf("`formula` variables must hold one value per record each: %s; write public constants as numbers in the formula, e.g. I(x - 60), or pass `data`",
                  paste(sprintf("`%s` has %d", vars, len), collapse = ", ")), call)
  structure(stats::setNames(vals, vars), class = "data.frame", row.names = seq_len(len[1L]))
}

# na.action: NULL (missing values are refused), or na.omit / na.exclude /
# na.fail, as a function or its name.
check_na_action <- function(na.action, call) {
  if (is.null(na.action)) return(NULL)
  known <- list(na.omit = stats::na.omit, na.exclude = stats::na.exclude, na.fail = stats::na.fail)
  if (is.character(na.action) && length(na.action) == 1L && na.action %in% names(known)) return(na.action)
  if (is.function(na.action))
    for (nm in names(known)) if (identical(na.action, known[[nm]])) return(nm)
  abort("`na.action` must be NULL (missing values are an error), na.omit or na.exclude (incomplete rows are dropped, and their number is then public) or na.fail", call)
}

# Factors used by the formula must carry their levels (public): a character
# column would take its levels from the values present.
check_public_levels <- function(data, vars, call) {
  for (v in intersect(vars, names(data))) {
    x <- data[[v]]
    if (is.character(x))
      abort(sprintf("`data` column `%s` is character: its levels would come from the values present; make it a factor with its public levels, e.g. factor(%s, levels = c(...))", v, v), call)
    if (is.factor(x) && nlevels(x) < 2L)
      abort(sprintf("`data` column `%s` is a factor with fewer than two levels: it has no dummy to fit; drop it from `formula`", v), call)
  }
  invisible(TRUE)
}

# Columns of the model matrix (intercept first) that come from factors and
# logicals only: treatment dummies, in [0, 1].
dummy_columns <- function(tt, X, discrete) {
  fac <- attr(tt, "factors")
  term_discrete <- vapply(seq_len(ncol(fac)), function(j) all(rownames(fac)[fac[, j] > 0] %in% discrete), logical(1))
  assign <- attr(X, "assign")[-1L]
  term_discrete[assign]
}

# x_range names only numeric columns: a name that is a factor or a dummy is
# refused with what to do.
check_ranges_not_for_dummies <- function(x_range, dummy_cols, discrete, numeric_cols, call) {
  nm <- if (is.list(x_range)) names(x_range) else if (is.matrix(x_range)) colnames(x_range)
  bad <- intersect(nm, c(discrete, dummy_cols))
  if (length(bad))
    abort(sprintf("`x_range` names %s, a factor or logical (or its dummy): dummies lie in [0, 1], a public range set automatically; give ranges for %s only",
                  paste0("`", bad, "`", collapse = ", "), paste0("`", numeric_cols, "`", collapse = ", ")), call)
  invisible(TRUE)
}

# The functions a formula of dp_linear_regression() may apply. Each acts on
# one record with public constants, so replacing a record changes its own row
# of the model matrix only, as the sensitivity bound needs. Anything else
# (rank(), scale(), max(), poly(), a constant read from the caller) may make
# every row depend on every record: refused.
row_transforms <- c("+", "-", "*", "/", "^", "(", "I", "log", "exp", "sqrt")

# Each variable of a formula (response and predictors, as terms() lists them
# in `vars`, a call to list()) must be built from columns of `data` and
# numeric literals with row_transforms only; else an error naming the term.
check_row_transforms <- function(vars, columns, call) {
  # the first part of `e` outside the allow-list (a call, a name or a
  # non-finite number), or NULL
  offending <- function(e, columns) {
    if (is.numeric(e) && length(e) == 1L) return(if (is.finite(e)) NULL else e)
    if (is.name(e)) return(if (as.character(e) %in% columns) NULL else e)
    f <- if (is.call(e) && is.name(e[[1L]])) as.character(e[[1L]]) else ""
    args <- as.list(e)[-1L]
    nm <- names(args) %||% character(length(args))
    arity <- switch(f, "+" = , "-" = 1:2, "*" = , "/" = , "^" = 2L, log = 1:2, 1L)
    if (!f %in% row_transforms || !length(args) %in% arity || any(nzchar(nm) & !(f == "log" & nm == "base")))
      return(e)
    # log()'s base is a constant: no columns
    base <- f == "log" & (nm == "base" | !any(nm == "base") & seq_along(args) == 2L)
    for (i in seq_along(args)) {
      bad <- offending(args[[i]], if (base[i]) character(0) else columns)
      if (!is.null(bad)) return(bad)
    }
    NULL
  }
  text <- function(e) paste(deparse(e, width.cutoff = 500L), collapse = " ")
  for (v in as.list(vars)[-1L]) {
    bad <- offending(v, columns)
    if (is.null(bad)) next
    what <- if (identical(bad, v)) "" else sprintf(" (its part `%s`)", text(bad))
    if (is.name(bad) && !as.character(bad) %in% columns)
      abort(sprintf(paste("`formula` term `%s`%s is not a column of `data`: the formula may hold no other names;",
                          "write public constants as numbers, e.g. I(x - 60)"), text(v), what), call)
    abort(sprintf(paste("`formula` term `%s`%s is not allowed: the response and the predictors may use only the",
                        "columns of `data`, numeric literals, + - * / ^, parentheses, I(), log(), exp() and sqrt(),",
                        "so that one record changes only its own row; transform with public constants, e.g.",
                        "I((x - 60) / 10) rather than scale(x) or I(x / max(x))"), text(v), what), call)
  }
  invisible(TRUE)
}

# The public ranges of the predictors as a 2 x m matrix in the order of `names`.
predictor_ranges <- function(x_range, names, call, arg = "x_range") {
  m <- length(names)
  # a non-syntactic predictor is `my var` in the model matrix: matched with
  # or without its backticks
  unquote <- function(v) sub("^`(.*)`$", "\\1", v)
  plain <- unquote(names)
  bad <- function() abort(sprintf("`%s` must give c(lower, upper) (finite, lower < upper) for each predictor: %s; as a vector for one predictor, a 2 x %d matrix or a named list%s",
                                  arg, paste0("`", plain, "`", collapse = ", "), m,
                                  if (any(grepl(":", names, fixed = TRUE))) " (an interaction is a column of its own and needs its own pair)" else ""), call)
  R <- if (is.list(x_range)) {
    given <- unquote(names(x_range) %||% character(0))
    if (is.null(names(x_range)) || anyDuplicated(given) || !setequal(given, plain) || length(x_range) != m) bad()
    tryCatch(vapply(x_range[match(plain, given)], function(r) as.double(r), numeric(2)), error = function(e) bad())
  } else if (is.numeric(x_range) && is.null(dim(x_range)) && length(x_range) == 2L && m == 1L) {
    matrix(as.double(x_range), 2L, 1L)
  } else if (is.numeric(x_range) && is.matrix(x_range) && all(dim(x_range) == c(2L, m))) {
    if (!is.null(colnames(x_range))) {
      given <- unquote(colnames(x_range))
      if (anyDuplicated(given) || !setequal(given, plain)) bad()
      x_range[, match(plain, given), drop = FALSE]
    } else x_range
  } else bad()
  if (!all(is.finite(R)) || !all(R[1L, ] < R[2L, ]) || !all(is.finite(R[2L, ] - R[1L, ]))) bad()
  for (j in seq_len(m))
    check_range_resolved(R[1L, j], R[2L, j], if (m == 1L) arg else sprintf("%s` for `%s", arg, names[j]),
                         names[j], call, "I(%s - %s)")
  dimnames(R) <- list(c("lower", "upper"), names)
  R
}

linear_guarantee_sentence <- function(x) {
  if (!is.null(x$bounds_stages)) return(regression_bounds_sentence(x, linear_guarantee_sentence))
  sprintf("%s-DP (pure epsilon-DP): K-norm gradient mechanism on the %d coefficients with sigma = 2*Delta/epsilon = %s, Delta = 2*tau*sqrt(1 + m)/n = %s (n = %s, tau = %s, m = %d); public domain: predictors in `x_range`, |fit at the lower corner| and |change across each range| <= beta_max = %s; %s. %s %s",
          format_guarantee(x$epsilon, 4), x$m + 1L, format(x$sigma, digits = 4), format(x$sensitivity, digits = 4),
          if (is.null(x$na.action) || x$na.action == "na.fail") sprintf("%d", x$n)
          else sprintf("%d complete rows, a count taken as public (na.action = %s)", x$n, x$na.action),
          format(x$tau, digits = 4), x$m, format(x$beta_max, digits = 4), release_sampler_sentence(x, "0"),
          implied_mu_sentence(x$epsilon), guarantee_kind_sentence(x))
}

#' @export
print.riemdp_linear_release <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat(sprintf("<riemdp release> private linear regression (n = %d)\n", x$n))
  print_guarantee(x, linear_guarantee_sentence(x))
  cat("Private coefficients:\n")
  print(x$coefficients, digits = digits)
  print_release_diagnostics(x$diagnostics)
  invisible(x)
}

#' @export
print.summary.riemdp_linear_release <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  r <- x$release
  cat("Call:\n")
  print(r$call)
  cat("\n")
  print_guarantee(x$release, x$guarantee)
  if (!is.null(r$bounds_stages))
    cat(sprintf("Found privately: %s (tau = %s, beta_max = %s)\n", paste(r$private_bounds, collapse = ", "),
                format(r$tau, digits = digits), format(r$beta_max, digits = digits)))
  cat(if (is.null(r$bounds_stages) || !"x_range" %in% r$private_bounds) "Public ranges of the predictors:\n"
      else "Ranges of the predictors (found privately):\n")
  print(r$x_range, digits = digits)
  cat(sprintf("Sampler: %s, burn-in %d, %d further steps\n", release_sampler_name(r), r$control$burn_in, r$control$n_iter))
  if (is.null(x$coefficients)) {
    cat("Private coefficients:\n")
    print(r$coefficients, digits = digits)
    cat("(intervals and p-values: summary(object, moments = ), with moments from dp_regression_moments() or a public statement)\n")
    return(invisible(x))
  }
  bs <- x$bootstrap
  cat(strwrap(sprintf("Private coefficients, with intervals at level %s and p-values from %d bootstrap releases (Ferrando, Wang & Sheldon 2022) of a model with %s moments:",
                      format(bs$level), bs$B, if (bs$private) "private (dp_regression_moments())" else "publicly stated"),
              exdent = 2), sep = "\n")
  stats::printCoefmat(x$coefficients, digits = digits, P.values = TRUE, has.Pvalue = TRUE,
                      cs.ind = 1:2, tst.ind = integer(0), eps.Pvalue = 1 / (bs$B + 1))
  st <- x$slopes_test
  cat(sprintf("Every slope zero: squared Mahalanobis distance %s from the bootstrap releases (%d slope%s), bootstrap p-value %s\n",
              format(st$statistic, digits = digits), st$df, if (st$df == 1L) "" else "s",
              format.pval(st$p.value, digits = digits, eps = 1 / (bs$B + 1))))
  cat("Post-processing of the releases: no budget spent beyond theirs.\n")
  invisible(x)
}

#' @export
predict.riemdp_linear_release <- function(object, newdata = NULL, newx = NULL, ...) {
  call <- sys.call()
  new <- predict_new_values(newdata, newx, list(...), call)
  if (is.null(new$value))
    abort("`newdata` is required: a release holds no data (only its public parameters and the private coefficients), so it has no fitted values to return as lm() does; pass `newdata`, a data frame with the predictors", call)
  newdata <- linear_newdata_frame(new$value, object$terms, new$arg, call)
  # the release's terms hold no environment: functions of the formula are
  # looked up from the caller
  tt <- object$terms
  environment(tt) <- parent.frame()
  # factors take the release's public levels (unknown levels are an error)
  mf <- tryCatch(stats::model.frame(tt, newdata, na.action = stats::na.pass, xlev = object$xlevels),
                 error = function(e) abort(sprintf("`%s` must hold the predictors of the release%s", new$arg,
                                                   if (length(object$xlevels)) ", with factor levels among the release's" else ""),
                                           call))
  drop(stats::model.matrix(tt, mf, contrasts.arg = object$contrasts) %*% object$coefficients)
}

# `newdata` (or `newx`) of a linear release as a data frame: a data frame
# as it is; a matrix with column names as the data frame of its columns; a
# vector when the formula has one predictor variable, as that variable.
linear_newdata_frame <- function(value, tt, arg, call) {
  if (is.data.frame(value)) return(value)
  vars <- all.vars(tt)
  if (is.matrix(value) && !is.null(colnames(value))) return(as.data.frame(value))
  if (is.null(dim(value)) && is.atomic(value) && length(value) && length(vars) == 1L)
    return(stats::setNames(data.frame(value), vars))
  abort(sprintf("`%s` must be a data frame with the predictor%s %s%s", arg, if (length(vars) == 1L) "" else "s",
                paste0("`", vars, "`", collapse = ", "),
                if (length(vars) == 1L) " (or a vector of its values)" else " (or a matrix with columns named so)"), call)
}

#' @export
formula.riemdp_linear_release <- function(x, ...) {
  if (!is.null(x$formula)) return(x$formula)
  # releases made before the formula was stored: rebuilt from the terms
  stats::reformulate(attr(x$terms, "term.labels"), response = str2lang(x$response), env = globalenv())
}

#' @export
coef.riemdp_linear_release <- function(object, ...) object$coefficients
