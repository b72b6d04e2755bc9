#' Settings for Metropolis-Hastings
#'
#' Controls the random-walk Metropolis-Hastings chains used by
#' [riem_rlaplace()], [riem_rgaussian()] (`method = "mh"`, and for the
#' log-eigenvalues on [manifold_spd()]), and the length of the chains of the
#' K-norm gradient releases.
#'
#' **Defaults and what they are tuned for.** For [riem_rlaplace()] and
#' [riem_rgaussian()] the defaults (1000 burn-in, 2000 iterations, thin 10)
#' suit laws started near their footprint, as there. The K-norm gradient
#' releases ([dp_geodesic_regression()], [dp_linear_regression()],
#' [dp_frechet_mean()] off Euclidean space) take `control = NULL` by default:
#' a chain of \eqn{(250 + 25D) k}{(250 + 25D) k} burn-in steps and as many
#' after, \eqn{D}{D} the dimension of the released parameter and
#' \eqn{k = \min(20, \lceil 200/n \rceil)}{k = min(20, ceiling(200 / n))}
#' for a sample of size \eqn{n}{n} (1 from 200 points on; below, the chain
#' does the work of one on 200 points, up to 20 times the base length,
#' because a small sample's law is wider and its linearisation proposes
#' less well: at \eqn{n = 20}{n = 20} and \eqn{\epsilon = 20}{epsilon = 20}
#' on Kendall's shape space the base length was measurably short), with independence
#' proposals from the linearised law (see [dp_geodesic_regression()]); that
#' length is set by public quantities only and was checked to reach the law
#' over manifolds, sample sizes from 20 to 5000, budgets from 0.5 to 20 and
#' fits up to 0.9 of the public radius from its centre
#' (`vignette("benchmarks", package = "riemdp")`, "The conformance matrix"). An `mcmc_control()` passed to
#' a release sets `burn_in`, `n_iter`, `adapt` and `target_accept` of that
#' chain; `thin` and `step` are not used there, and `init` (a public start)
#' only by [dp_frechet_mean()].
#'
#' For the random-walk chains, proposals are \eqn{Exp_x(v)}{Exp_x(v)} with
#' \eqn{v \sim N(0, s^2 I)}{v ~ N(0, s^2 I)} in an orthonormal basis of \eqn{T_x M}{T_x M}; steps with
#' \eqn{|v|}{|v|} at or beyond the injectivity radius are rejected. The step `s` is
#' adapted during burn-in only (Robbins-Monro on \eqn{\log s}{log s} towards
#' `target_accept`) and frozen afterwards, so the kept part of the chain is a
#' time-homogeneous Markov chain.
#'
#' Chains draw their randomness from R's generator (through a fast generator
#' seeded from it at each call), so `set.seed()` reproduces them. A chain is
#' resumed by passing the draws of a previous call as `resume`: it restarts
#' from the last state with the frozen step and no burn-in.
#'
#' **Progress.** With `verbose = TRUE` a long chain shows a [cli][cli::cli_progress_bar]
#' progress bar of its `burn_in + n_iter` (or `burn_in + n * thin`)
#' iterations, and so do long exact draws of [riem_rlaplace()] and
#' [riem_rgaussian()] (whose `control` is this object too). cli draws the
#' bar only once the computation has run for `getOption("cli.progress_show_after")`
#' seconds (2 by default) and removes it when the call ends, also on an
#' error and after Ctrl-C, which works as without a bar (only if Ctrl-C
#' comes in the moment cli redraws the bar does its last line stay on
#' screen in a terminal). The default,
#' `verbose = interactive()`, shows bars at the console and prints nothing
#' in scripts, `Rscript`, knitr or on `future` workers; `verbose = FALSE`
#' never shows one. The bar reports only iteration counts, their public
#' total and the elapsed time, never anything computed from the data, and
#' it neither draws random numbers nor changes the chain: the same seed
#' gives the same draws with either setting.
#'
#' @param n_iter Iterations after burn-in for a single release (the state after
#'   `burn_in + n_iter` iterations is released); a whole number from 1 to
#'   \eqn{2^{31} - 1}{2^31 - 1}.
#' @param burn_in Iterations discarded at the start (the step adapts here);
#'   from 0 to \eqn{2^{31} - 1}{2^31 - 1}.
#' @param thin Iterations between kept draws when several draws are returned;
#'   from 1 to \eqn{2^{31} - 1}{2^31 - 1}.
#' @param step Initial proposal standard deviation; `NULL` picks one from the
#'   law's scale.
#' @param adapt Adapt the step during burn-in?
#' @param target_accept Acceptance rate targeted by the adaptation.
#' @param init Optional starting point (default: the footprint, or the public
#'   centre of the ball for releases): finite numbers in the manifold's
#'   layout for a single point, checked to lie on the manifold where it is used.
#' @param resume Draws returned by an earlier call, to continue that chain.
#' @param verbose `TRUE` or `FALSE`: show a progress bar for long chains and
#'   exact draws (see Progress). Default `interactive()`.
#' @param ... Must be empty (an unknown or misspelt setting is an error that
#'   lists the valid ones).
#' @return An object of class `riemdp_mcmc_control`.
#' @examples
#' ctrl <- mcmc_control(burn_in = 500, thin = 5)
#' S2 <- manifold_sphere(2)
#' set.seed(1)
#' x <- riem_rgaussian(S2, 200, c(0, 0, 1), 0.3, method = "mh", control = ctrl)
#' attr(x, "acceptance")
#' y <- riem_rgaussian(S2, 200, c(0, 0, 1), 0.3, method = "mh",
#'                     control = mcmc_control(resume = x))
#' @export
mcmc_control <- function(n_iter = 2000L, burn_in = 1000L, thin = 10L, step = NULL, adapt = TRUE,
                         target_accept = 0.3, init = NULL, resume = NULL, verbose = interactive(), ...) {
  call <- sys.call()
  check_settings_known(list(...), "mcmc_control",
                       c("n_iter", "burn_in", "thin", "step", "adapt", "target_accept", "init", "resume", "verbose"), call)
  verbose <- check_flag(verbose, "verbose", call)
  n_iter <- check_count(n_iter, "n_iter", 1, call)
  burn_in <- check_count(burn_in, "burn_in", 0, call)
  thin <- check_count(thin, "thin", 1, call)
  if (!is.null(step)) step <- check_positive(step, "step", call)
  if (!is.logical(adapt) || length(adapt) != 1L || is.na(adapt)) abort("`adapt` must be TRUE or FALSE", call)
  if (!is.numeric(target_accept) || length(target_accept) != 1L || is.na(target_accept) ||
      !(target_accept > 0 && target_accept < 1))
    abort("`target_accept` must be a single number in (0, 1)", call)
  if (!is.null(init)) {
    if (!is.numeric(init) || !length(init))
      abort("`init` must be NULL or a single point: a numeric vector, matrix or array in the manifold's layout", call)
    check_finite_numeric(init, "init", call)
  }
  if (!is.null(resume)) {
    st <- attr(resume, "mcmc")
    if (is.null(st)) abort("`resume` must be draws returned by a Metropolis-Hastings call", call)
    init <- st$state
    step <- st$step
    burn_in <- 0L
    adapt <- FALSE
  }
  structure(list(n_iter = n_iter, burn_in = burn_in, thin = thin, step = step, adapt = adapt,
                 target_accept = as.double(target_accept), init = init, verbose = verbose,
                 resumed = !is.null(resume)),
            class = "riemdp_mcmc_control")
}

# Settings passed through `...` of a *_control() function are misspelt or
# unknown ones: an error that lists the valid settings.
check_settings_known <- function(dots, fun, settings, call) {
  if (!length(dots)) return(invisible(TRUE))
  nm <- names(dots) %||% character(length(dots))
  if (!all(nzchar(nm)))
    abort(sprintf("%s() takes its settings by name; the settings are %s", fun, paste(settings, collapse = ", ")), call)
  abort(sprintf("unknown setting%s %s for %s(); the settings are %s", if (length(nm) > 1L) "s" else "",
                paste0("`", nm, "`", collapse = ", "), fun, paste(settings, collapse = ", ")), call)
}

#' @export
print.riemdp_mcmc_control <- function(x, ...) {
  cat(sprintf("<riemdp MCMC control> burn-in %d (step %s during burn-in), thin %d, %d iterations per release; step %s\n",
              x$burn_in, if (x$adapt) "adapted" else "fixed", x$thin, x$n_iter,
              if (is.null(x$step)) "chosen from the law's scale" else format(x$step, digits = 4)))
  invisible(x)
}

check_control <- function(control, call) {
  if (!inherits(control, "riemdp_mcmc_control")) abort("`control` must come from mcmc_control()", call)
  control
}

#' Riemannian Laplace and Gaussian draws
#'
#' Draw from the Riemannian Laplace law, density proportional to
#' \eqn{\exp(-d(\eta, x)/\sigma)}{exp(-d(eta, x)/sigma)} with respect to the Riemannian volume
#' (Reimherr et al. 2021, Def. 3), or the Riemannian Gaussian law,
#' \eqn{\exp(-d(\eta, x)^2/(2\sigma^2))}{exp(-d(eta, x)^2/(2 sigma^2))} (Jiang et al. 2023, Def. 3.3), with
#' footprint \eqn{\eta}{eta}.
#'
#' `method = "exact"` (the default through `"auto"` wherever it exists):
#' isotropy makes the direction uniform on the unit sphere of
#' \eqn{T_\eta M}{T_eta M} and the distance \eqn{r = d(\eta, x)}{r = d(eta, x)} has density
#' \eqn{\propto k(r) A(r)}{propto k(r) A(r)}, with \eqn{A(r)}{A(r)} the area of geodesic spheres
#' (\eqn{r^{d-1}}{r^(d-1)}, \eqn{\sin^{d-1} r}{sin^(d-1) r}, \eqn{\sinh^{d-1} r}{sinh^(d-1) r},
#' \eqn{\sin^{2m-1} r \cos r}{sin^(2m-1) r cos r} on Kendall's space with \eqn{m = k - 2}{m = k - 2}); its
#' logarithm is concave, and \eqn{r}{r} is drawn exactly by rejection from a
#' piecewise-exponential envelope. On [manifold_spd()] (k >= 2) the law is
#' built by the eigen-decomposition construction
#' \eqn{x = \eta^{1/2} U \mathrm{diag}(e^{r}) U^\top \eta^{1/2}}{x = eta^(1/2) U diag(e^r) U^T eta^(1/2)} with `U`
#' exactly Haar-distributed and log-eigenvalues \eqn{r \in R^k}{r in R^k} of density
#' \eqn{k(|r|)\prod_{i<j}\sinh(|r_i-r_j|/2)}{k(|r|)prod_(i<j)sinh(|r_i-r_j|/2)}, drawn exactly by rejection:
#' \eqn{\sinh(y) \le y e^y}{sinh(y) <= y e^y} and \eqn{\sum_{i<j}|r_i-r_j|/2 \le c|r|}{sum_(i<j)|r_i-r_j|/2 <= c|r|},
#' \eqn{c = \sqrt{k(k^2-1)/12}}{c = sqrt(k(k^2-1)/12)}, give the envelope
#' \eqn{k(|r|) e^{c|r|} \prod_{i<j}|r_i-r_j|}{k(|r|) e^(c|r|) prod_(i<j)|r_i-r_j|}, whose radius has a log-concave
#' density (drawn as above) and whose direction has density
#' \eqn{\propto \prod_{i<j}|u_i-u_j|}{propto prod_(i<j)|u_i-u_j|} on the unit sphere (rejection from the
#' uniform law, bounded by the product's maximum at the scaled zeros of the
#' Hermite polynomial \eqn{H_k}{H_k}, or for k > 6 the normalised eigenvalues of a
#' GOE matrix); a proposal is accepted with probability
#' \eqn{\prod_{i<j}\mathrm{sinhc}(|r_i-r_j|/2)\, e^{-c|r|} \le 1}{prod_(i<j)sinhc(|r_i-r_j|/2) e^(-c|r|) <= 1}. The
#' acceptance rate tends to 1 as \eqn{\sigma \to 0}{sigma -> 0} and falls quickly with k
#' and \eqn{\sigma}{sigma}: it is at least
#' \eqn{E[e^{-cR}]}{E[e^(-cR)]} under the envelope's radius law (\eqn{(1-c\sigma)^{N+1}}{(1-c sigma)^(N+1)}
#' for Laplace, \eqn{N = k - 1 + k(k-1)/2}{N = k - 1 + k(k-1)/2}), a bound that depends on k,
#' \eqn{\sigma}{sigma} and the kernel only. `method = "auto"` uses the exact sampler
#' where this bound is at least 1e-3 (at most 1000 proposals per draw on
#' average): for the Gaussian law up to \eqn{\sigma}{sigma} = 4.0, 1.63, 0.86, 0.52,
#' 0.34, 0.10 on spd(k), k = 2, 3, 4, 5, 6, 10, and for the Laplace law up to
#' 1.27, 0.48, 0.22, 0.12, 0.067, 0.013 (existence bounds 1.41, 0.71, 0.45,
#' 0.32, 0.24, 0.11); and
#' beyond it Metropolis-Hastings on the log-eigenvalues (draws marked
#' `"eigen-mh"`, settings from `control`; the chain starts at a random draw of
#' the public law \eqn{\propto k(|r|)\prod_{i<j}|r_i-r_j|}{propto k(|r|)prod_(i<j)|r_i-r_j|} unless
#' `control` gives `init` or `resume`). `method = "exact"` on spd always runs
#' the exact sampler: beyond the `"auto"` threshold it may be slow (it can be
#' interrupted), and it stops with an error if \eqn{10^8}{10^8} proposals for one
#' draw are all rejected.
#'
#' `method = "mh"`: random-walk Metropolis-Hastings on the manifold (see
#' [mcmc_control()]), the papers' method and the cross-check of the exact
#' samplers.
#'
#' Draws by Metropolis-Hastings (`"mh"`, `"eigen-mh"`) follow the target law
#' only approximately (after burn-in, up to the chain's mixing); releases
#' built on them carry the privacy guarantee of the exact law only
#' approximately. The default `"auto"` uses an exact sampler wherever one is
#' available.
#'
#' The Laplace law exists on [manifold_hyperbolic()] only for
#' \eqn{\sigma < 1/(d-1)}{sigma < 1/(d-1)} and on [manifold_spd()] only for
#' \eqn{\sigma < 2/\sqrt{k(k^2-1)/3}}{sigma < 2/sqrt(k(k^2-1)/3)} (volume growth); larger values are an
#' error that states the bound.
#'
#' Supported `sigma`: every finite number > 0 (from about 5e-324 to
#' 1.8e308) for which the law exists. The exact sampler builds its envelope in
#' the scaled distance \eqn{r/\sigma}{r/sigma} (or \eqn{r}{r}/inj when \eqn{\sigma}{sigma}
#' exceeds a finite injectivity radius), so the radial law is drawn correctly
#' over the whole range: a tiny `sigma` gives draws that equal the footprint to
#' double precision, a huge one on the sphere or Kendall's space draws from the
#' volume measure. Draws that double precision cannot represent are an error
#' that says so (a distance beyond the largest double, or hyperboloid
#' coordinates that overflow: the Gaussian law on \eqn{H^d}{H^d} concentrates near
#' distance \eqn{(d-1)\sigma^2}{(d-1)sigma^2}, and coordinates overflow beyond about 710).
#' On spd, a draw whose whitened log-eigenvalues reach beyond 650 in absolute
#' value is an error (decided on the draw alone, whatever the footprint), and a
#' draw whose condition number double precision cannot hold as positive
#' definite with a margin (condition number beyond 1e12) comes back with its eigenvalues floored at
#' 1e-12 times the largest, as [riem_project()] does: whether that happens
#' depends on the footprint, which in a release is the data's, so it is never
#' an error.
#'
#' @inheritParams geometry
#' @param n Number of draws.
#' @param footprint The footprint \eqn{\eta}{eta}: a single point.
#' @param sigma The rate \eqn{\sigma > 0}{sigma > 0}.
#' @param method `"auto"`, `"exact"` or `"mh"`.
#' @param control Settings for Metropolis-Hastings, from [mcmc_control()].
#' @return `n` points in the manifold's many-point layout, with attributes
#'   `method` (`"exact"`, `"mh"` or `"eigen-mh"`), `law`, `sigma`, and for
#'   chains `acceptance` (after burn-in), `ess` (effective sample size of
#'   \eqn{d(\eta, x)}{d(eta, x)}, or of the log-eigenvalue chain's norm on spd) and
#'   `mcmc` (last state and step, for [mcmc_control()]'s `resume`).
#' @examples
#' S2 <- manifold_sphere(2)
#' set.seed(1)
#' x <- riem_rlaplace(S2, 1000, c(0, 0, 1), sigma = 0.2)
#' summary(riem_dist(S2, c(0, 0, 1), x))
#' y <- riem_rgaussian(manifold_spd(2), 100, diag(2), sigma = 0.5)
#' dim(y)
#' @export
riem_rlaplace <- function(M, n, footprint, sigma, method = c("auto", "exact", "mh"), control = mcmc_control()) {
  call <- sys.call()
  riem_rradial(M, n, footprint, sigma, arg_match(method, c("auto", "exact", "mh"), "method", call), control,
               "laplace", call)
}

#' @rdname riem_rlaplace
#' @export
riem_rgaussian <- function(M, n, footprint, sigma, method = c("auto", "exact", "mh"), control = mcmc_control()) {
  call <- sys.call()
  riem_rradial(M, n, footprint, sigma, arg_match(method, c("auto", "exact", "mh"), "method", call), control,
               "gaussian", call)
}

# Smallest proven acceptance rate at which method = "auto" uses the exact SPD
# sampler: at most 1000 proposals per draw on average, i.e. at most about
# 0.1-2 ms per draw for k <= 6 and 5-10 ms at k = 10 (bench/spd_exact.R),
# the order of one release by eigen-MH (3000 chain iterations), while bulk
# draws stay above about 500 per second.
spd_exact_min_acceptance <- 1e-3

# The same for a release, which makes one draw: the exact sampler wherever at
# most 10^6 proposals are expected (its proven bound; measured at that bound:
# 0.6-870 ms per draw for k = 3-8), the chain only beyond.
# The law of the log-eigenvalues does not depend on the data, so neither does
# the exact sampler's run time.
spd_exact_release_min_acceptance <- 1e-6

# Does "auto" use the exact SPD sampler? Its acceptance rate is at least
# exp(log_acceptance_bound) (spd_exact.h), which depends only on k, the
# kernel and sigma: the choice reveals nothing about the data.
spd_exact_preferred <- function(k, kernel, sigma, min_acceptance = spd_exact_min_acceptance) {
  priv_spd_exact_info(k, kernel, sigma)$log_acceptance_bound >= log(min_acceptance)
}

# Largest sigma for which the Laplace law exists (volume growth), Inf if any.
laplace_sigma_max <- function(M) {
  switch(M$type,
         hyperbolic = if (M$d >= 2L) 1 / (M$d - 1) else Inf,
         spd = priv_spd_laplace_sigma_max(M$k),
         Inf)
}

# The rate of the law `kernel` ("laplace" or "gaussian") on M: a finite
# number > 0 (the samplers support every positive double, see
# ?riem_rlaplace) below the Laplace existence bound. `source` describes where
# sigma came from, value included, for callers that computed it (e.g.
# "sigma = 2*Delta/epsilon = 1e-320 (from `epsilon` = 1e300, `radius` = 0.39,
# n = 20)"); the default names the user's `sigma`.
spd_sigma_storable <- 100

check_rate <- function(M, kernel, sigma, call, source = "`sigma`") {
  what <- if (identical(source, "`sigma`")) sprintf("`sigma` = %s", format(sigma)) else source
  if (!is.numeric(sigma) || length(sigma) != 1L || !is.finite(sigma) || sigma <= 0)
    abort(sprintf("%s must be a single finite number > 0", what), call)
  # SPD draws have log-eigenvalues spread over about sigma; a positive definite
  # matrix in double precision holds a spread of at most about 36 (condition
  # number 1e16), so beyond 100 no draw could be stored.
  if (M$type == "spd" && M$k >= 2L && sigma > spd_sigma_storable)
    abort(sprintf("%s is too large for %s: draws would have log-eigenvalues spread over about sigma, and a positive definite matrix in double precision holds a spread of at most about 36 (condition number 1e16)",
                  what, manifold_label(M)), call)
  if (kernel == "laplace") {
    smax <- laplace_sigma_max(M)
    if (!(sigma < smax))
      abort(sprintf("%s is too large: the Riemannian Laplace law on %s exists only for sigma < %s (volume growth)%s",
                    what, manifold_label(M), format(smax, digits = 6),
                    if (identical(source, "`sigma`")) "; use a smaller `sigma`, or the Riemannian Gaussian law (riem_rgaussian()), which exists for every sigma" else ""),
            call)
  }
  invisible(as.double(sigma))
}

riem_rradial <- function(M, n, footprint, sigma, method, control, kernel, call,
                         min_acceptance = spd_exact_min_acceptance) {
  check_manifold(M, call)
  n <- check_count(n, "n", 1, call)
  check_output_size(n, M$ambient, "n", call)
  E <- as_points(M, footprint, "footprint", call)
  if (E$n != 1L) abort("`footprint` must be a single point", call)
  sigma <- check_positive(sigma, "sigma", call)
  check_control(control, call)
  check_rate(M, kernel, sigma, call)
  eigen_route <- M$type == "spd" && M$k >= 2L
  # On spd "auto" is the exact sampler wherever its acceptance rate is proven
  # to be reasonable (a function of the public k, kernel and sigma only),
  # else Metropolis-Hastings on the log-eigenvalues ("eigen-mh", also
  # accepted here from internal callers and tests).
  if (method == "auto") method <- if (!eigen_route || spd_exact_preferred(M$k, kernel, sigma, min_acceptance)) "exact" else "eigen-mh"
  by_row <- is.null(M$point_shape)
  law <- if (kernel == "laplace") "Riemannian Laplace" else "Riemannian Gaussian"
  if (method == "exact") {
    verbose <- isTRUE(control$verbose)
    out <- from_values(M, core_call(if (eigen_route) samp_spd_exact(M, E, n, kernel, sigma, verbose)
                                    else samp_exact(M, E, n, kernel, sigma, by_row, verbose), call), n, FALSE)
    return(structure(out, method = "exact", law = law, sigma = sigma))
  }
  ctl <- control
  if (method == "eigen-mh") {
    if (is.null(ctl$step)) ctl$step <- sigma
    init <- if (is.null(ctl$init)) NULL else as_points(M, ctl$init, "control$init", call)
    res <- core_call(samp_spd(M, E, n, kernel, sigma, mcmc_settings(ctl), init), call)
  } else {
    if (is.null(ctl$step)) ctl$step <- min(sigma, M$inj / 4)
    init <- if (is.null(ctl$init)) E else as_points(M, ctl$init, "control$init", call)
    res <- core_call(samp_mh_radial(M, E, n, kernel, sigma, init, mcmc_settings(ctl), NULL, Inf, by_row), call)
  }
  out <- from_values(M, res$draws, n, FALSE)
  structure(out, method = method, law = law, sigma = sigma, acceptance = res$acceptance,
            ess = if (all(is.na(res$trace))) NA_real_ else effective_size(res$trace),
            mcmc = list(state = from_values(M, res$state, 1L, TRUE), step = res$step))
}

mcmc_settings <- function(ctl) {
  list(burn_in = ctl$burn_in, thin = ctl$thin, step = ctl$step, adapt = ctl$adapt,
       target_accept = ctl$target_accept, verbose = isTRUE(ctl$verbose))
}

# Sample autocorrelation at lags 0..n-1 (as stats::acf with demean = TRUE),
# by FFT with zero padding: O(n log n), where acf at every lag is O(n^2) and
# cannot be interrupted.
autocorrelation <- function(x) {
  n <- length(x)
  x <- x - mean(x)
  m <- stats::nextn(2L * n)
  f <- stats::fft(c(x, numeric(m - n)))
  ac <- Re(stats::fft(Mod(f)^2, inverse = TRUE))[seq_len(n)]
  ac / ac[1L]
}

# Effective sample size by Geyer's initial monotone sequence estimator.
effective_size <- function(x) {
  n <- length(x)
  if (n < 4L || stats::var(x) == 0) return(as.double(n))
  rho <- autocorrelation(x)
  k <- seq_len(floor(length(rho) / 2))
  gam <- rho[2 * k - 1] + rho[2 * k]  # Gamma_j = rho_{2j} + rho_{2j+1}, j = 0, 1, ...
  pos <- which(gam <= 0)
  gam <- gam[seq_len(if (length(pos)) pos[1] - 1L else length(gam))]
  if (!length(gam)) return(as.double(n))
  gam <- cummin(gam)
  tau <- -1 + 2 * sum(gam)
  n / max(tau, 1 / n)
}
