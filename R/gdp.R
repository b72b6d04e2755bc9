# Gaussian differential privacy accounting (paper 004, Jiang et al. 2023;
# DESIGN §6). The kernels (delta_mu, its inversion, the privacy profiles and
# the supremum over epsilon) are in src/riemdp/privacy/gdp.h; this file
# validates, dispatches and builds the S3 objects. gdp_sigma()'s root finding
# lives here.

gdp_methods <- c("auto", "closed_form", "algorithm1", "monte_carlo", "algorithm2", "quadrature")

# A numeric vector with no NA; every element >= lower (or > lower when
# strict); Inf allowed.
check_gdp_numbers <- function(x, arg, strict, call, allow_inf = TRUE) {
  what <- if (strict) "> 0" else ">= 0"
  if (!is.numeric(x) || anyNA(x) || any(if (strict) x <= 0 else x < 0) || (!allow_inf && any(is.infinite(x))))
    abort(sprintf("`%s` must be numeric with every element %s%s (no NA or NaN)", arg, what,
                  if (allow_inf) "" else " and finite"), call)
  as.double(x)
}

# Two vectors recycled to a common length: one of them may have length 1.
gdp_recycle <- function(a, b, arg_a, arg_b, call) {
  na <- length(a)
  nb <- length(b)
  if (na != nb && na != 1L && nb != 1L)
    abort(sprintf("`%s` and `%s` must have the same length, or one of them length 1 (they have %d and %d)",
                  arg_a, arg_b, na, nb), call)
  n <- if (na == 0L || nb == 0L) 0L else max(na, nb)
  list(rep_len(a, n), rep_len(b, n))
}

#' The privacy curve of mu-GDP
#'
#' \eqn{\delta_\mu(\varepsilon) = \Phi(-\varepsilon/\mu + \mu/2) - e^\varepsilon \Phi(-\varepsilon/\mu - \mu/2)}
#' (Jiang et al. 2023, Def. 3.1; Dong et al. 2022, Cor. 1): a mechanism is
#' \eqn{\mu}-GDP if and only if it is \eqn{(\varepsilon, \delta_\mu(\varepsilon))}-DP for every \eqn{\varepsilon \ge 0}.
#'
#' Evaluated without overflow or cancellation for every \eqn{\varepsilon}
#' (tested up to 500 and beyond): the second term as
#' \eqn{\exp(\varepsilon + \log\Phi(\cdot))}, and, where the two terms would
#' cancel, as the positive integral
#' \eqn{\phi(z_0)\int_0^\infty e^{-z_0 s - s^2/2}(1 - e^{-\mu s})\,ds},
#' \eqn{z_0 = \varepsilon/\mu - \mu/2} (the Gaussian privacy loss). At
#' \eqn{\varepsilon = 0} it is \eqn{2\Phi(\mu/2) - 1}.
#'
#' @param epsilon Numbers \eqn{\ge 0} (`Inf` gives 0).
#' @param mu Numbers \eqn{> 0}; `Inf` is allowed (a release without privacy:
#'   \eqn{\delta = 1} for every finite \eqn{\varepsilon}). `epsilon` and `mu`
#'   are recycled when one of them has length 1, otherwise their lengths must
#'   agree; both infinite at once is an error.
#' @return A numeric vector.
#' @seealso [gdp_mu()], [gdp_from_dp()].
#' @references Jiang, Chen, Lin, Shi, Bertozzi (2023), Gaussian differential
#'   privacy on Riemannian manifolds, Def. 3.1.
#' @examples
#' gdp_delta(c(0, 1, 5, 500), 1)
#' gdp_delta(1, c(0.5, 1, 2))
#' @export
gdp_delta <- function(epsilon, mu) {
  call <- sys.call()
  epsilon <- check_gdp_numbers(epsilon, "epsilon", FALSE, call)
  mu <- check_gdp_numbers(mu, "mu", TRUE, call)
  r <- gdp_recycle(epsilon, mu, "epsilon", "mu", call)
  if (any(is.infinite(r[[1]]) & is.infinite(r[[2]])))
    abort("`epsilon` and `mu` cannot both be infinite at the same position (the limit is undefined)", call)
  gdp_delta_cpp(r[[1]], r[[2]])
}

#' Conversions between epsilon-DP and mu-GDP, and composition
#'
#' * `gdp_from_dp(epsilon)`: an \eqn{\varepsilon}-DP mechanism is \eqn{\mu}-GDP with
#'   \eqn{\mu = -2\Phi^{-1}(1/(1+e^\varepsilon))} (Dong et al. 2022; DESIGN §6),
#'   computed on the log scale (`qnorm(log.p = TRUE)`), exact for large \eqn{\varepsilon}.
#' * `dp_from_gdp(mu)`: the inverse, \eqn{\varepsilon = \log\Phi(\mu/2) - \log\Phi(-\mu/2)},
#'   the \eqn{\varepsilon} at which the \eqn{\mu}-GDP curve meets \eqn{\delta = 0}
#'   for a pure-DP mechanism (Jiang et al. 2023, Sec. 5.2), in a stable form.
#' * `gdp_compose(...)`: \eqn{\mu}-GDP mechanisms compose as
#'   \eqn{\sqrt{\sum_i \mu_i^2}} (Dong et al. 2022, Cor. 3.3).
#'
#' @param epsilon Numbers \eqn{\ge 0} (`Inf` gives `Inf`).
#' @param mu Numbers \eqn{\ge 0}.
#' @param ... Numbers \eqn{\ge 0}, vectors, or [gdp_mu()] results; all are
#'   composed together.
#' @return A numeric vector (`gdp_compose()`: one number).
#' @examples
#' gdp_from_dp(c(0.1, 1, 10, 800))
#' dp_from_gdp(gdp_from_dp(2))
#' gdp_compose(0.5, c(0.5, 1))
#' @export
gdp_from_dp <- function(epsilon) {
  call <- sys.call()
  epsilon <- check_gdp_numbers(epsilon, "epsilon", FALSE, call)
  # log(1/(1+e^eps)) = -log1p(e^eps), without overflow
  lp <- ifelse(epsilon > 0, -(epsilon + log1p(exp(-epsilon))), -log1p(exp(epsilon)))
  mu <- -2 * stats::qnorm(lp, log.p = TRUE)
  # one Newton step on dp_from_gdp(mu) = epsilon where qnorm near 1/2 loses
  # relative digits (small epsilon)
  small <- is.finite(epsilon) & epsilon > 0 & epsilon < 1
  if (any(small)) {
    m <- mu[small]
    f <- dp_from_gdp_raw(m) - epsilon[small]
    dm <- 0.5 * stats::dnorm(m / 2) * (1 / stats::pnorm(m / 2) + 1 / stats::pnorm(-m / 2))
    mu[small] <- m - f / dm
  }
  mu[epsilon == 0] <- 0
  mu
}

dp_from_gdp_raw <- function(mu) {
  # log Phi(mu/2) - log Phi(-mu/2) = log1p((2 Phi(mu/2) - 1)/Phi(-mu/2));
  # 2 Phi(mu/2) - 1 = delta_mu(0) = erf(mu/(2 sqrt 2)), exact for small mu.
  out <- stats::pnorm(mu / 2, log.p = TRUE) - stats::pnorm(-mu / 2, log.p = TRUE)
  small <- is.finite(mu) & mu < 1 & mu > 0
  if (any(small)) out[small] <- log1p(gdp_delta_cpp(rep(0, sum(small)), mu[small]) / stats::pnorm(-mu[small] / 2))
  out[mu == 0] <- 0
  out[is.infinite(mu)] <- Inf
  out
}

#' @rdname gdp_from_dp
#' @export
dp_from_gdp <- function(mu) {
  call <- sys.call()
  dp_from_gdp_raw(check_gdp_numbers(mu, "mu", FALSE, call))
}

#' @rdname gdp_from_dp
#' @export
gdp_compose <- function(...) {
  call <- sys.call()
  args <- list(...)
  if (length(args) == 0L) abort("`...` must hold at least one mu to compose", call)
  mus <- unlist(lapply(seq_along(args), function(i) {
    a <- args[[i]]
    if (inherits(a, "riemdp_gdp")) return(a$mu)
    check_gdp_numbers(a, sprintf("..%d", i), FALSE, call)
  }))
  if (length(mus) == 0L) abort("`...` must hold at least one mu to compose", call)
  if (any(is.infinite(mus))) return(Inf)
  s <- max(mus)
  if (s == 0) return(0)
  s * sqrt(sum((mus / s)^2))
}

#' Settings for the GDP accounting methods
#'
#' @param n,m Monte Carlo sample size and number of replicates ("MCMC
#'   samples" in the paper's Algorithm 2): `monte_carlo` and `algorithm2`
#'   draw `n * m` exact points about each footprint they need.
#' @param n_epsilon Size of the \eqn{\varepsilon} grid \eqn{k, 2k, \dots, n_\varepsilon k},
#'   \eqn{k = \varepsilon_{max}/n_\varepsilon} (Algorithms 1 and 2). `algorithm1`
#'   and `monte_carlo` add \eqn{\varepsilon = 0} and refine the supremum by golden section
#'   between the neighbours of the best grid point; `quadrature` uses
#'   \eqn{\min(n_\varepsilon, 40) + 1} points \eqn{\varepsilon_{max}(j/K)^2} (denser near 0) and refines likewise.
#' @param epsilon_max Largest \eqn{\varepsilon} of the grid; `NULL` for the
#'   method's default: on \eqn{S^d} \eqn{\Delta(2\pi - \Delta)/(2\sigma^2)},
#'   where the profile vanishes (`profile = "paper"`: \eqn{\pi\Delta/(2\sigma^2)},
#'   Algorithm 1 step 1); on \eqn{R^d}
#'   \eqn{\max\{10, 5\Delta/\sigma + \Delta^2/(2\sigma^2)\}} (the paper's choice for
#'   \eqn{\Delta = 1}); on \eqn{H^d} the larger of that and the largest privacy
#'   loss \eqn{\Delta(2r_b + \Delta)/(2\sigma^2)} on the radial window
#'   \eqn{r \le r_b} that holds all but \eqn{e^{-40}} of the peak radial density.
#' @param profile `"corrected"` (the S^1 profile of DESIGN §6) or `"paper"`:
#'   Cor. 3.2.1 as printed, with Algorithm 1 exactly as published (grid without
#'   0, maximum read off the grid), to reproduce the paper's Fig. 1. Only for
#'   `method = "algorithm1"`.
#' @param tol Relative tolerance of every inversion \eqn{\delta_\mu(\varepsilon) = l}
#'   (the upper end of the bracket is returned: \eqn{\mu} is rounded up).
#' @param verbose `TRUE` or `FALSE`: show a [cli][cli::cli_progress_bar]
#'   progress bar ("Monte Carlo for mu") of the `n * m` loss draws of
#'   `monte_carlo` (`2 n m` for `algorithm2`) in [gdp_mu()] and
#'   [privacy_profile()]. cli draws it only after
#'   `getOption("cli.progress_show_after")` seconds (2 by default) and removes
#'   it when the call ends, also on an error or an interrupt. The default,
#'   `interactive()`, shows it at the console and prints nothing in scripts,
#'   `Rscript` or knitr. The bar counts draws only (public numbers) and does
#'   not touch the random number generator: results are identical either way.
#'   The deterministic methods are fast and show no bar.
#' @param ... Must be empty (catches misspelt settings).
#' @return A list of class `riemdp_gdp_control`.
#' @examples
#' gdp_control(n = 2000, m = 50)
#' @export
gdp_control <- function(n = 1000, m = 100, n_epsilon = 1000, epsilon_max = NULL,
                        profile = c("corrected", "paper"), tol = 1e-10, verbose = interactive(), ...) {
  call <- sys.call()
  dots <- list(...)
  if (length(dots))
    abort(sprintf("unknown setting%s %s for gdp_control(); the settings are n, m, n_epsilon, epsilon_max, profile, tol, verbose",
                  if (length(dots) > 1L) "s" else "", paste0("`", names(dots), "`", collapse = ", ")), call)
  n <- check_count(n, "n", 1, call)
  m <- check_count(m, "m", 1, call)
  if (as.double(n) * m > 2^31 - 1) abort("`n` * `m` must be at most 2^31 - 1 draws", call)
  n_epsilon <- check_count(n_epsilon, "n_epsilon", 1, call, upper = 1e7)
  if (!is.null(epsilon_max)) epsilon_max <- check_positive(epsilon_max, "epsilon_max", call)
  profile <- arg_match(profile, c("corrected", "paper"), "profile", call)
  tol <- check_positive(tol, "tol", call)
  if (tol >= 0.1 || tol < 1e-15) abort("`tol` must lie in [1e-15, 0.1)", call)
  verbose <- check_flag(verbose, "verbose", call)
  structure(list(n = n, m = m, n_epsilon = n_epsilon, epsilon_max = epsilon_max, profile = profile, tol = tol,
                 verbose = verbose),
            class = "riemdp_gdp_control")
}

#' @export
print.riemdp_gdp_control <- function(x, ...) {
  cat(sprintf("<riemdp GDP settings> n = %d, m = %d, n_epsilon = %d, epsilon_max = %s, profile = \"%s\", tol = %g\n",
              x$n, x$m, x$n_epsilon, if (is.null(x$epsilon_max)) "default" else format(x$epsilon_max),
              x$profile, x$tol))
  invisible(x)
}

check_gdp_control <- function(control, call) {
  if (!inherits(control, "riemdp_gdp_control")) abort("`control` must come from gdp_control()", call)
  control
}

# The accounting space of M: list(type, d) for the C++ kernels, and the
# methods it supports (first = "auto"'s choice). hyperbolic(1) is isometric
# to R (the package reports curvature -1 for it, but a line is flat).
gdp_space <- function(M, call) {
  check_manifold(M, call)
  if (!M$type %in% c("euclidean", "sphere", "hyperbolic"))
    abort(sprintf("mu needs constant curvature (Jiang et al. 2023, Thm 4.1): %s is not supported; supported are manifold_euclidean(), manifold_sphere() and manifold_hyperbolic()",
                  manifold_label(M)), call)
  d <- M$d
  if (M$type == "euclidean" || (M$type == "hyperbolic" && d == 1L))
    return(list(type = "euclidean", d = d, methods = c("closed_form", "quadrature", "monte_carlo", "algorithm2")))
  if (M$type == "sphere" && d == 1L)
    return(list(type = "sphere", d = 1L, methods = c("algorithm1", "quadrature", "monte_carlo", "algorithm2")))
  list(type = M$type, d = d, methods = c("quadrature", "monte_carlo", "algorithm2"))
}

gdp_check_sensitivity <- function(M, sensitivity, call) {
  sensitivity <- check_positive(sensitivity, "sensitivity", call)
  if (M$type == "sphere" && sensitivity > pi)
    abort(sprintf("`sensitivity` = %s exceeds pi, the diameter of %s: no two footprints are that far apart",
                  format(sensitivity), manifold_label(M)), call)
  # cosh and sinh of the pair's distance overflow double precision past ~710
  if (M$type == "hyperbolic" && M$dim >= 2 && sensitivity > gdp_hyperbolic_max_sensitivity)
    abort(sprintf("`sensitivity` = %s is beyond what double precision resolves on %s (the law of cosines needs cosh(Delta)); the largest supported is %s",
                  format(sensitivity), manifold_label(M), format(gdp_hyperbolic_max_sensitivity)), call)
  sensitivity
}

gdp_hyperbolic_max_sensitivity <- 700

gdp_resolve_method <- function(method, sp, M, control, call) {
  method <- arg_match(method, gdp_methods, "method", call)
  if (method == "auto") method <- sp$methods[1L]
  if (!method %in% sp$methods)
    abort(sprintf("`method` = \"%s\" is not available on %s; available: %s", method, manifold_label(M),
                  paste0("\"", c("auto", sp$methods), "\"", collapse = ", ")), call)
  if (control$profile == "paper" && method != "algorithm1")
    abort("`control$profile` = \"paper\" is for method = \"algorithm1\" only (Cor. 3.2.1 as printed, on manifold_sphere(1))", call)
  method
}

# Stated relative accuracy of the deterministic methods.
gdp_quadrature_accuracy <- 1e-6

# The computation behind gdp_mu() and privacy_profile(): mu with the profile
# l(eval) at the requested epsilons.
gdp_compute <- function(M, sigma, sensitivity, method, control, eval, call, finite = TRUE) {
  sp <- gdp_space(M, call)
  sigma <- check_positive(sigma, "sigma", call)
  sensitivity <- gdp_check_sensitivity(M, sensitivity, call)
  check_gdp_control(control, call)
  method <- gdp_resolve_method(method, sp, M, control, call)
  paper <- method == "algorithm1" && control$profile == "paper"
  eps_max <- control$epsilon_max
  if (is.null(eps_max)) eps_max <- core_call(gdp_eps_max_cpp(sp$type, sp$d, sensitivity, sigma, paper), call)
  if (is.null(eval)) eval <- seq(0, eps_max, length.out = control$n_epsilon + 1L)
  n <- m <- NA_integer_
  se <- NA_real_
  l_se <- rep(NA_real_, length(eval))
  accuracy <- NA_real_
  if (method == "closed_form") {
    mu <- sensitivity / sigma
    eps_sup <- 0
    l <- gdp_delta_cpp(eval, rep(mu, length(eval)))
    accuracy <- 0
  } else if (method %in% c("algorithm1", "quadrature")) {
    res <- core_call(gdp_det_cpp(sp$type, sp$d, sensitivity, sigma, method, paper, control$n_epsilon, eps_max,
                                 control$tol, eval), call)
    # A profile that underflows to 0 (sigma far beyond the diameter on S^d)
    # certifies only mu < the smallest normal double: report that bound, never 0.
    mu <- max(res$mu, .Machine$double.xmin)
    eps_sup <- res$epsilon_sup
    l <- res$l
    accuracy <- if (method == "quadrature") max(if (mu <= 8) gdp_quadrature_accuracy else 1e-4, control$tol)
                else control$tol
  } else {
    n <- control$n
    m <- control$m
    res <- core_call(gdp_mc_cpp(sp$type, sp$d, sensitivity, sigma, method, n, m, control$n_epsilon, eps_max,
                                control$tol, eval, isTRUE(control$verbose)), call)
    mu <- res$mu
    eps_sup <- res$epsilon_sup
    se <- res$se
    l <- res$l
    l_se <- res$l_se
  }
  if (finite && !is.finite(mu))
    abort(sprintf("mu is not finite for sigma = %s and sensitivity = %s on %s (the two laws are numerically disjoint); use a larger sigma",
                  format(sigma), format(sensitivity), manifold_label(M)), call)
  fit <- structure(list(mu = mu, method = method, manifold = M, sigma = sigma, sensitivity = sensitivity,
                        epsilon_sup = eps_sup, se = se, accuracy = accuracy,
                        n = n, m = m, n_epsilon = control$n_epsilon, epsilon_max = eps_max,
                        profile = if (method == "algorithm1") control$profile else NA_character_,
                        call = call),
                   class = "riemdp_gdp")
  list(fit = fit, epsilon = eval, l = l, l_se = l_se)
}

#' mu of a Riemannian Gaussian release
#'
#' The smallest \eqn{\mu} for which the Riemannian Gaussian mechanism
#' \eqn{N_M(f(D), \sigma^2)} with sensitivity \eqn{\Delta} is \eqn{\mu}-GDP
#' (Jiang et al. 2023, Thm 3.2 and Thm 4.1): \eqn{\mu = \sup_{\varepsilon \ge 0}\mu_\varepsilon}
#' with \eqn{\delta_{\mu_\varepsilon}(\varepsilon) = l(\varepsilon)}, where
#' \eqn{l(\varepsilon) = E_{Y \sim \eta_1}[(1 - e^{\varepsilon - L(Y)})_+]},
#' \eqn{L(y) = (d(\eta_2, y)^2 - d(\eta_1, y)^2)/(2\sigma^2)}, \eqn{d(\eta_1,\eta_2) = \Delta}
#' (DESIGN §6: the change-of-measure form of the paper's
#' \eqn{P_{\eta_1}(A) - e^\varepsilon P_{\eta_2}(A)}).
#'
#' Methods:
#' * `"closed_form"`: \eqn{R^d} (and \eqn{H^1}, isometric to \eqn{R}): \eqn{\mu = \Delta/\sigma}.
#' * `"algorithm1"`: \eqn{S^1}, the paper's Algorithm 1 with the corrected
#'   closed-form profile of DESIGN §6 (Cor. 3.2.1's set \eqn{A} is wrong for
#'   \eqn{\varepsilon > 0}), \eqn{\varepsilon = 0} included and the supremum
#'   refined; `gdp_control(profile = "paper")` runs the paper's version as printed.
#' * `"quadrature"`: deterministic, on \eqn{S^d}, \eqn{H^d} and \eqn{R^d} for
#'   every \eqn{d}: geodesic polar coordinates \eqn{(r, \varphi)} about \eqn{\eta_1},
#'   the law of cosines for \eqn{d(\eta_2, y)}, Gauss-Legendre over
#'   \eqn{\{L \ge \varepsilon\}} only. Relative accuracy 1e-6 for \eqn{\mu \le 8}
#'   (tested against `algorithm1`, the closed form, higher orders and Monte
#'   Carlo), 1e-4 beyond (nearly disjoint laws: \eqn{l(0)} is within
#'   \eqn{10^{-5}} of 1). When \eqn{l} rounds to 1 (about \eqn{\mu > 16}) \eqn{\mu}
#'   cannot be computed and an error asks for a larger \eqn{\sigma}.
#' * `"monte_carlo"`: `n * m` exact draws about \eqn{\eta_1}, the
#'   change-of-measure estimator with its standard error (delta method at the supremum).
#' * `"algorithm2"`: the paper's Algorithm 2 as published (frequencies of
#'   `n * m` draws about each footprint, \eqn{l = \hat P_1(A) - e^\varepsilon \hat P_2(A)}
#'   on the grid \eqn{k, \dots, n_\varepsilon k}, maximum read off the grid). It is
#'   biased upward (the rare-event frequency times \eqn{e^\varepsilon};
#'   DESIGN §6): kept to reproduce the paper's Fig. 1. Its standard error is
#'   the binomial one and ignores that bias.
#' * `"auto"`: `closed_form` on \eqn{R^d} and \eqn{H^1}, `algorithm1` on
#'   \eqn{S^1}, `quadrature` on \eqn{S^d} and \eqn{H^d}, \eqn{d \ge 2}.
#'
#' Every inversion of \eqn{\delta_\mu(\varepsilon) = l} rounds \eqn{\mu} up.
#' Deterministic methods do not use the random number generator.
#'
#' @param M A manifold of constant curvature: [manifold_euclidean()],
#'   [manifold_sphere()] or [manifold_hyperbolic()].
#' @param sigma Rate of the Riemannian Gaussian (a finite number > 0).
#' @param sensitivity Global sensitivity \eqn{\Delta > 0} (at most \eqn{\pi} on a sphere, at most 700 on \eqn{H^d}, \eqn{d \ge 2}, where \eqn{\cosh\Delta} still fits a double). A \eqn{\mu} that underflows (\eqn{\sigma} far beyond a sphere's diameter) is reported as the smallest normal double, an upper bound, never 0.
#' @param method One of the methods above.
#' @param control [gdp_control()] settings.
#' @return An object of class `riemdp_gdp`: a list with `mu`, `method`,
#'   `manifold`, `sigma`, `sensitivity`, `epsilon_sup` (where the supremum
#'   sits), `se` (Monte Carlo standard error of `mu`, `NA` for deterministic
#'   methods), `accuracy` (stated relative accuracy of deterministic methods,
#'   `NA` for Monte Carlo), `n`, `m`, `n_epsilon`, `epsilon_max` (the inputs
#'   used), `profile` and `call`. `as.numeric()` gives `mu`.
#' @seealso [gdp_sigma()], [privacy_profile()], [gdp_delta()].
#' @references Jiang, Chen, Lin, Shi, Bertozzi (2023), Gaussian differential
#'   privacy on Riemannian manifolds: Thm 3.2, Cor. 3.2.1, Thm 4.1, Algorithms 1 and 2.
#' @examples
#' gdp_mu(manifold_euclidean(2), sigma = 0.5, sensitivity = 1)
#' gdp_mu(manifold_sphere(1), sigma = 2, sensitivity = 1)
#' fit <- gdp_mu(manifold_sphere(2), sigma = 0.5, sensitivity = 0.3)
#' as.numeric(fit)
#' set.seed(1)
#' gdp_mu(manifold_sphere(2), 0.5, 0.3, method = "monte_carlo", control = gdp_control(n = 1000, m = 10))
#' @export
gdp_mu <- function(M, sigma, sensitivity, method = c("auto", "closed_form", "algorithm1", "monte_carlo",
                                                    "algorithm2", "quadrature"),
                   control = gdp_control()) {
  call <- sys.call()
  gdp_compute(M, sigma, sensitivity, method, control, numeric(0), call)$fit
}

#' @export
as.double.riemdp_gdp <- function(x, ...) x$mu

#' @export
format.riemdp_gdp <- function(x, ...) {
  how <- if (!is.na(x$se)) sprintf("Monte Carlo standard error %s (n * m = %.0f draws%s)", format(x$se, digits = 3),
                                   as.double(x$n) * x$m,
                                   if (x$method == "algorithm2") "; biased upward by design, see ?gdp_mu" else "")
         else if (x$method == "closed_form") "exact"
         else if (identical(x$profile, "paper")) "Cor. 3.2.1 as printed in the paper (not a valid bound for epsilon > 0)"
         else sprintf("relative accuracy %s", format(x$accuracy, digits = 3))
  c(sprintf("<riemdp GDP> mu = %s for the Riemannian Gaussian on %s", format(x$mu, digits = 7), manifold_label(x$manifold)),
    sprintf("  sigma = %s, sensitivity Delta = %s; method \"%s\": %s", format(x$sigma, digits = 6),
            format(x$sensitivity, digits = 6), x$method, how),
    sprintf("  supremum over epsilon at epsilon = %s (grid up to %s)", format(x$epsilon_sup, digits = 4),
            format(x$epsilon_max, digits = 4)))
}

#' @export
print.riemdp_gdp <- function(x, ...) {
  writeLines(format(x, ...))
  invisible(x)
}

#' sigma for a target mu
#'
#' The smallest rate \eqn{\sigma} whose Riemannian Gaussian release with
#' sensitivity \eqn{\Delta} is \eqn{\mu}-GDP (DESIGN §6). \eqn{\mu} decreases in
#' \eqn{\sigma}: the root of \eqn{\log\mu(\sigma) = \log\mu} is bracketed from the
#' Euclidean value \eqn{\Delta/\mu} and refined on \eqn{\log\sigma} (Illinois
#' steps with bisection), and the upper end of the final bracket is returned:
#' `gdp_mu(M, sigma, sensitivity)` is at most `mu` (the safe side) and
#' `sigma` is within relative `tol` of the exact root. Only the deterministic
#' methods (`closed_form`, `algorithm1`, `quadrature`).
#'
#' On \eqn{S^d} every \eqn{\mu > 0} is attainable (\eqn{\mu \to 0} as
#' \eqn{\sigma \to \infty}). On \eqn{H^d}, \eqn{d \ge 2}, it is not: the law
#' moves out to distance about \eqn{(d-1)\sigma^2}, where the privacy loss
#' tends to \eqn{-(d-1)\Delta\cos\varphi}, so \eqn{\mu} decreases to a positive
#' limit (about 0.786 on \eqn{H^2} and 1.232 on \eqn{H^3} at \eqn{\Delta = 1});
#' a smaller target is an error.
#'
#' @inheritParams gdp_mu
#' @param mu Target \eqn{\mu > 0}.
#' @param method `"auto"`, `"closed_form"`, `"algorithm1"` or `"quadrature"`.
#' @param tol Relative tolerance on \eqn{\sigma}.
#' @return \eqn{\sigma} (a number) with attributes `mu` (the achieved
#'   \eqn{\mu \le} the target) and `method`.
#' @seealso [gdp_mu()].
#' @examples
#' gdp_sigma(manifold_euclidean(3), mu = 1, sensitivity = 0.5)
#' s <- gdp_sigma(manifold_sphere(2), mu = 1, sensitivity = 0.3)
#' s
#' gdp_mu(manifold_sphere(2), s, 0.3)
#' @export
gdp_sigma <- function(M, mu, sensitivity, method = "auto", tol = 1e-6, control = gdp_control()) {
  call <- sys.call()
  sp <- gdp_space(M, call)
  mu <- check_positive(mu, "mu", call)
  sensitivity <- gdp_check_sensitivity(M, sensitivity, call)
  tol <- check_positive(tol, "tol", call)
  if (tol >= 0.1) abort("`tol` must be below 0.1", call)
  check_gdp_control(control, call)
  method <- gdp_resolve_method(method, sp, M, control, call)
  if (method %in% c("monte_carlo", "algorithm2"))
    abort(sprintf("`method` = \"%s\" is random: gdp_sigma() needs a deterministic mu (\"closed_form\", \"algorithm1\" or \"quadrature\")",
                  method), call)
  if (method == "closed_form") {
    s <- sensitivity / mu
    if (!is.finite(s) || s <= 0) abort("`mu` and `sensitivity` give no representable sigma", call)
    while (sensitivity / s > mu) s <- s * (1 + 2 * .Machine$double.eps)
    return(structure(s, mu = sensitivity / s, method = method))
  }
  f <- function(s) gdp_compute(M, s, sensitivity, method, control, numeric(0), call, finite = FALSE)$fit$mu
  # bracket: mu(lo) > mu >= mu(hi)
  hi <- sensitivity / mu
  fhi <- f(hi)
  lo <- hi
  flo <- fhi
  k <- 0L
  if (fhi > mu) {
    repeat {
      lo <- hi
      flo <- fhi
      hi <- hi * 2
      fhi <- f(hi)
      k <- k + 1L
      if (fhi <= mu) break
      if (k >= 20L) abort(sprintf("`mu` = %s is not attainable on %s with sensitivity %s: mu stays above it up to sigma = %s (on hyperbolic space mu decreases to a positive limit as sigma grows, see ?gdp_sigma)",
                                  format(mu), manifold_label(M), format(sensitivity), format(hi)), call)
    }
  } else {
    lo <- hi / 1.25
    flo <- f(lo)
    while (flo <= mu) {
      hi <- lo
      fhi <- flo
      lo <- lo / 2
      k <- k + 1L
      if (k > 60L) abort(sprintf("`mu` = %s is not attainable on %s with sensitivity %s: mu stays below it down to sigma = %s",
                                 format(mu), manifold_label(M), format(sensitivity), format(lo)), call)
      flo <- f(lo)
    }
  }
  if (!(fhi > 0) || !is.finite(flo) || !(flo > 0))
    abort(sprintf("`mu` = %s with sensitivity %s on %s needs a sigma where mu cannot be computed in double precision",
                  format(mu), format(sensitivity), manifold_label(M)), call)
  # Illinois on g(t) = log mu(e^t) - log mu, t = log sigma, bisection whenever
  # the bracket did not halve.
  a <- log(lo); b <- log(hi)
  ga <- log(flo) - log(mu); gb <- log(fhi) - log(mu)
  side <- 0L
  width <- b - a
  for (it in seq_len(200L)) {
    if (exp(b) - exp(a) <= tol * exp(b)) break
    t <- if (ga != gb) b - gb * (b - a) / (gb - ga) else (a + b) / 2
    if (it %% 3L == 0L) {
      if (b - a > 0.5 * width) t <- (a + b) / 2
      width <- b - a
    }
    if (!(t > a && t < b)) t <- (a + b) / 2
    ft <- f(exp(t))
    gt <- log(ft) - log(mu)
    if (gt <= 0) {
      b <- t; gb <- gt; fhi <- ft
      if (side == 1L) ga <- ga / 2
      side <- 1L
    } else {
      a <- t; ga <- gt
      if (side == -1L) gb <- gb / 2
      side <- -1L
    }
  }
  structure(exp(b), mu = fhi, method = method)
}

#' Privacy profile of a Riemannian Gaussian release
#'
#' \eqn{l(\varepsilon) = \sup_A P_{\eta_1}(A) - e^\varepsilon P_{\eta_2}(A)}
#' of Jiang et al. (2023), Thm 3.2 / 4.1, on a grid of \eqn{\varepsilon}, computed
#' by the method of [gdp_mu()], beside \eqn{\delta_\mu(\varepsilon)} of the
#' reported \eqn{\mu}: the release is \eqn{\mu}-GDP exactly when the profile
#' stays below that curve.
#'
#' @inheritParams gdp_mu
#' @param epsilon Numbers \eqn{\ge 0}, or `NULL`: `n_epsilon + 1` points
#'   on \eqn{[0, \varepsilon_{max}]}.
#' @return An object of class `riemdp_privacy_profile`: a list with
#'   `epsilon`, `l`, `se` (Monte Carlo standard errors of `l`, `NA` otherwise),
#'   `delta` (\eqn{\delta_\mu(\varepsilon)} of the reported \eqn{\mu}), `mu`
#'   (the [gdp_mu()] result, from the same draws for Monte Carlo methods) and
#'   `l_sup` (the profile at the supremum). For `"algorithm2"` `l` is the
#'   paper's estimate and can be negative.
#' @examples
#' p <- privacy_profile(manifold_sphere(2), sigma = 0.5, sensitivity = 0.5)
#' p
#' plot(p)
#' @export
privacy_profile <- function(M, sigma, sensitivity, epsilon = NULL, method = "auto", control = gdp_control()) {
  call <- sys.call()
  if (!is.null(epsilon)) epsilon <- check_gdp_numbers(epsilon, "epsilon", FALSE, call, allow_inf = FALSE)
  check_gdp_control(control, call)
  if (is.null(epsilon)) {
    # the default grid needs epsilon_max first (a deterministic look-up)
    sp <- gdp_space(M, call)
    sigma <- check_positive(sigma, "sigma", call)
    sensitivity <- gdp_check_sensitivity(M, sensitivity, call)
    meth <- gdp_resolve_method(method, sp, M, control, call)
    em <- control$epsilon_max
    if (is.null(em)) em <- core_call(gdp_eps_max_cpp(sp$type, sp$d, sensitivity, sigma,
                                                     meth == "algorithm1" && control$profile == "paper"), call)
    epsilon <- seq(0, em, length.out = control$n_epsilon + 1L)
  }
  k <- length(epsilon)
  # the supremum's epsilon is only known after the call: evaluate at a
  # provisional grid, then the profile at epsilon_sup (deterministic methods
  # cheaply; Monte Carlo from the same draws would need them kept, so the
  # mark there is the profile interpolated on the grid).
  res <- gdp_compute(M, sigma, sensitivity, method, control, epsilon, call)
  fit <- res$fit
  l_sup <- if (fit$method %in% c("algorithm1", "quadrature"))
             gdp_compute(M, sigma, sensitivity, fit$method, control, fit$epsilon_sup, call)$l
           else if (fit$method == "closed_form") gdp_delta_cpp(fit$epsilon_sup, fit$mu)
           else if (k >= 2L) stats::approx(epsilon, res$l, fit$epsilon_sup, rule = 2)$y
           else res$l[1L]
  structure(list(epsilon = epsilon, l = res$l, se = res$l_se, delta = gdp_delta_cpp(epsilon, rep(fit$mu, k)),
                 mu = fit, l_sup = l_sup, call = call),
            class = "riemdp_privacy_profile")
}

#' @export
format.riemdp_privacy_profile <- function(x, ...) {
  above <- sum(x$l > x$delta * (1 + 1e-9) + 1e-15)
  c(sprintf("<riemdp privacy profile> %d epsilons in [%s, %s] on %s (sigma = %s, Delta = %s, method \"%s\")",
            length(x$epsilon), format(min(x$epsilon), digits = 4), format(max(x$epsilon), digits = 4),
            manifold_label(x$mu$manifold), format(x$mu$sigma, digits = 6), format(x$mu$sensitivity, digits = 6),
            x$mu$method),
    sprintf("  l(0) = %s; reported mu = %s with the supremum at epsilon = %s; %s",
            if (any(x$epsilon == 0)) format(x$l[x$epsilon == 0][1L], digits = 6) else "not on the grid",
            format(x$mu$mu, digits = 7), format(x$mu$epsilon_sup, digits = 4),
            if (above == 0L) "the profile stays below delta_mu(epsilon)"
            else sprintf("%d grid points lie above delta_mu(epsilon) (Monte Carlo or grid error)", above)))
}

#' @export
print.riemdp_privacy_profile <- function(x, ...) {
  writeLines(format(x, ...))
  invisible(x)
}

#' @param x A `riemdp_privacy_profile`.
#' @param ... Passed to [graphics::plot()].
#' @rdname privacy_profile
#' @export
plot.riemdp_privacy_profile <- function(x, ...) {
  ylim <- range(0, x$l, x$delta, finite = TRUE)
  graphics::plot(x$epsilon, x$l, type = "l", lwd = 2, xlab = expression(epsilon), ylab = expression(delta),
                 ylim = ylim, main = sprintf("Privacy profile, %s, sigma = %s", manifold_label(x$mu$manifold),
                                             format(x$mu$sigma, digits = 4)), ...)
  graphics::lines(x$epsilon, x$delta, lty = 2, col = "red")
  graphics::points(x$mu$epsilon_sup, x$l_sup, pch = 19, col = "red")
  graphics::legend("topright", bty = "n", lty = c(1, 2, NA), pch = c(NA, NA, 19), col = c("black", "red", "red"),
                   legend = c(sprintf("l(epsilon), %s", x$mu$method),
                              sprintf("delta_mu(epsilon), mu = %s", format(x$mu$mu, digits = 4)),
                              "supremum"))
  invisible(x)
}
