# Gaussian differential privacy accounting (Jiang, Chang, Liu, Ding, Kong &
# Jiang et al. 2023; article "Methods and corrections", section "Gaussian DP
# accounting"). The kernels (delta_mu, its inversion, the privacy
# profiles, the supremum over epsilon and mu beyond the sigmas where the
# profile is evaluated) are in src/riemdp/privacy/gdp.h; this file validates,
# dispatches and builds the S3 objects. gdp_sigma()'s root finding lives here.

# A privacy parameter (mu, epsilon) as text with `digits` significant digits,
# rounded up (down = TRUE: down, for a remaining budget or an epsilon that
# must imply a mu), so that the printed number never states a stronger
# guarantee than the stored one: the nearest decimal is read back and moved
# by one unit of its last digit when it fell on the wrong side.
format_guarantee <- function(x, digits = 4, down = FALSE, ulps = 8) {
  vapply(as.double(x), function(v) {
    if (is.na(v) || !is.finite(v) || v == 0) return(format(v))
    s <- trimws(formatC(v, digits = digits, format = "g"))
    for (k in 1:3) {
      back <- as.numeric(s)
      # a few ulps apart is the floating-point error of an exact decimal
      # share (0.2 * 0.4 = 0.08000000000000002), not a weaker guarantee
      if (abs(back - v) <= ulps * .Machine$double.eps * abs(v)) return(s)
      if (if (down) back <= v else back >= v) return(s)
      step <- 10^(floor(log10(abs(back))) - digits + 1)
      s <- trimws(formatC(if (down) back - step else back + step, digits = digits, format = "g"))
    }
    s
  }, character(1), USE.NAMES = FALSE)
}

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
#' \eqn{\delta_\mu(\varepsilon) = \Phi(-\varepsilon/\mu + \mu/2) - e^\varepsilon \Phi(-\varepsilon/\mu - \mu/2)}{delta_mu(epsilon) = Phi(-epsilon/mu + mu/2) - e^epsilon Phi(-epsilon/mu - mu/2)}
#' (Jiang et al. 2023, Def. 3.1; Dong et al. 2022, Cor. 1): a mechanism is
#' \eqn{\mu}{mu}-GDP if and only if it is \eqn{(\varepsilon, \delta_\mu(\varepsilon))}{(epsilon, delta_mu(epsilon))}-DP for every \eqn{\varepsilon \ge 0}{epsilon >= 0}.
#'
#' Evaluated without overflow or cancellation for every \eqn{\varepsilon}{epsilon}
#' (tested up to 500 and beyond): the second term as
#' \eqn{\exp(\varepsilon + \log\Phi(\cdot))}{exp(epsilon + log Phi(*))}, and, where the two terms would
#' cancel, as the positive integral
#' \eqn{\phi(z_0)\int_0^\infty e^{-z_0 s - s^2/2}(1 - e^{-\mu s})\,ds}{phi(z_0)int_0^Inf e^(-z_0 s - s^2/2)(1 - e^(-mu s)) ds},
#' \eqn{z_0 = \varepsilon/\mu - \mu/2}{z_0 = epsilon/mu - mu/2} (the Gaussian privacy loss). At
#' \eqn{\varepsilon = 0}{epsilon = 0} it is \eqn{2\Phi(\mu/2) - 1}{2 Phi(mu/2) - 1}. The result is
#' rounded up by 4 units of \eqn{2^{-52}}{2^-52} (relative): it is a guarantee.
#' A \eqn{\mu}{mu}-GDP mechanism is \eqn{(\varepsilon, \delta_\mu(\varepsilon))}{(epsilon, delta_mu(epsilon))}-DP
#' for every \eqn{\varepsilon}{epsilon} at once, and \eqn{\varepsilon}{epsilon}-DP for none.
#'
#' @param epsilon Numbers \eqn{\ge 0}{>= 0} (`Inf` gives 0).
#' @param mu Numbers \eqn{> 0}{> 0}; `Inf` is allowed (a release without privacy:
#'   \eqn{\delta = 1}{delta = 1} for every finite \eqn{\varepsilon}{epsilon}). `epsilon` and `mu`
#'   are recycled when one of them has length 1, otherwise their lengths must
#'   agree; both infinite at once is an error.
#' @return A numeric vector.
#' @seealso [gdp_mu()], [gdp_from_dp()].
#' @references Jiang, Chang, Liu, Ding, Kong and Jiang (2023), Gaussian
#'   differential privacy on Riemannian manifolds, NeurIPS 2023, Def. 3.1.
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
  # rounded up by 4 units of 2^-52 (a delta is a guarantee: never below the truth)
  pmin(gdp_delta_cpp(r[[1]], r[[2]]) * (1 + 4 * .Machine$double.eps), 1)
}

#' Conversions between epsilon-DP and mu-GDP, and composition
#'
#' * `gdp_from_dp(epsilon)`: an \eqn{\varepsilon}{epsilon}-DP mechanism is
#'   \eqn{\mu}{mu}-GDP with \eqn{\mu = -2\Phi^{-1}(1/(1+e^\varepsilon))}{mu = -2 qnorm(1 / (1 + exp(epsilon)))}
#'   (Dong, Roth & Su 2022; Liu et al. 2022, as cited by Jiang et al. 2023,
#'   Sec. 5), computed on the log scale
#'   (`qnorm(log.p = TRUE)`), exact for large \eqn{\varepsilon}{epsilon}, and
#'   rounded up: its \eqn{\log\Phi(\mu/2) - \log\Phi(-\mu/2)}{log(pnorm(mu/2)) - log(pnorm(-mu/2))}
#'   is at least `epsilon`.
#' * `dp_from_gdp(mu)`: the inverse, \eqn{\varepsilon = \log\Phi(\mu/2) - \log\Phi(-\mu/2)}{epsilon = log(pnorm(mu/2)) - log(pnorm(-mu/2))}
#'   in a stable form, rounded down: the largest \eqn{\varepsilon}{epsilon}
#'   for which every \eqn{\varepsilon}{epsilon}-DP mechanism is
#'   \eqn{\mu}{mu}-GDP. Use it to calibrate an \eqn{\varepsilon}{epsilon}-DP
#'   mechanism (Laplace, KNG) to a \eqn{\mu}{mu} budget, as Jiang, Chang,
#'   Liu, Ding, Kong and Jiang (2023, Sec. 5.2) do to compare the Laplace with
#'   the Gaussian mechanism. **It is not an \eqn{\varepsilon}{epsilon} that a
#'   \eqn{\mu}{mu}-GDP mechanism satisfies**: \eqn{\mu}{mu}-GDP implies
#'   \eqn{\varepsilon}{epsilon}-DP for no finite \eqn{\varepsilon}{epsilon}
#'   (the Gaussian mechanism is not pure DP). It implies
#'   \eqn{(\varepsilon, \delta_\mu(\varepsilon))}{(epsilon, delta_mu(epsilon))}-DP
#'   for every \eqn{\varepsilon \ge 0}{epsilon >= 0} at once, with
#'   \eqn{\delta_\mu}{delta_mu} from [gdp_delta()] (Dong et al. 2022, Cor. 1).
#' * `gdp_compose(...)`: \eqn{\mu}{mu}-GDP mechanisms compose as
#'   \eqn{\sqrt{\sum_i \mu_i^2}}{sqrt(sum(mu_i^2))} (Dong et al. 2022,
#'   Cor. 3.3), rounded up.
#'
#' @param epsilon Numbers \eqn{\ge 0}{>= 0} (`Inf` gives `Inf`).
#' @param mu Numbers \eqn{\ge 0}{>= 0}.
#' @param ... Numbers \eqn{\ge 0}{>= 0}, vectors, or [gdp_mu()] results; all are
#'   composed together.
#' @return A numeric vector (`gdp_compose()`: one number).
#' @seealso [gdp_delta()] for the \eqn{(\varepsilon, \delta)}{(epsilon, delta)}
#'   guarantees that \eqn{\mu}{mu}-GDP implies.
#' @references Dong, Roth and Su (2022), Gaussian differential privacy, JRSS B.
#'   Jiang, Chang, Liu, Ding, Kong and Jiang (2023), Gaussian differential
#'   privacy on Riemannian manifolds, NeurIPS 2023.
#' @examples
#' gdp_from_dp(c(0.1, 1, 10, 800))
#' dp_from_gdp(gdp_from_dp(2))
#' # 1-GDP is (epsilon, delta)-DP for every epsilon, with delta = gdp_delta(epsilon, 1):
#' gdp_delta(c(0.5, 1, 2, 4), mu = 1)
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
  # rounded up: raise mu until its epsilon reaches epsilon with a margin of
  # 8 units of 2^-52 (the relative error of dp_from_gdp_raw)
  pos <- is.finite(epsilon) & epsilon > 0
  for (k in seq_len(64L)) {
    low <- pos & dp_from_gdp_raw(mu) < epsilon * (1 + 8 * .Machine$double.eps)
    if (!any(low)) break
    mu[low] <- mu[low] * (1 + 4 * .Machine$double.eps)
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
  # rounded down by 8 units of 2^-52 (the relative error of the stable form)
  dp_from_gdp_raw(check_gdp_numbers(mu, "mu", FALSE, call)) * (1 - 8 * .Machine$double.eps)
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
  if (length(mus) == 1L) return(s)
  # rounded up: n + 4 roundings of relative 2^-53 at most (scaling, squares,
  # the sum, the square root and the product)
  s * sqrt(sum((mus / s)^2)) * (1 + (length(mus) + 4) * .Machine$double.eps)
}

#' Settings for the GDP accounting methods
#'
#' @param n,m Monte Carlo sample size and number of replicates ("MCMC
#'   samples" in the paper's Algorithm 2): `monte_carlo` and `algorithm2`
#'   draw `n * m` exact points about each footprint they need. Memory: about
#'   `24 * n * m` bytes for `monte_carlo` (the losses and two running sums),
#'   `16 * n * m` for `algorithm2` (the losses about both footprints). A
#'   setting that needs more than the memory available (where the system
#'   tells it, as Linux does) is refused before anything is allocated:
#'   `gdp_control()` checks the smaller need, [gdp_mu()] and
#'   [privacy_profile()] the method's. The draws, the sort of the losses and
#'   the passes over them stop at Ctrl-C.
#' @param n_epsilon Size of the \eqn{\varepsilon}{epsilon} grid \eqn{k, 2k, \dots, n_\varepsilon k}{k, 2k, ..., n_epsilon k},
#'   \eqn{k = \varepsilon_{max}/n_\varepsilon}{k = epsilon_max/n_epsilon} (Algorithms 1 and 2). `algorithm1`
#'   and `monte_carlo` add \eqn{\varepsilon = 0}{epsilon = 0} and refine the supremum by golden section
#'   between the neighbours of the best grid point; `quadrature` uses
#'   \eqn{\min(n_\varepsilon, 40) + 1}{min(n_epsilon, 40) + 1} points \eqn{\varepsilon_{max}(j/K)^2}{epsilon_max(j/K)^2} (denser near 0) and refines likewise.
#' @param epsilon_max Largest \eqn{\varepsilon}{epsilon} of the grid; `NULL` for the
#'   method's default: on \eqn{S^d}{S^d} \eqn{\Delta(2\pi - \Delta)/(2\sigma^2)}{Delta(2 pi - Delta)/(2 sigma^2)},
#'   where the profile vanishes (`profile = "paper"`: \eqn{\pi\Delta/(2\sigma^2)}{pi Delta/(2 sigma^2)},
#'   Algorithm 1 step 1); on \eqn{R^d}{R^d}
#'   \eqn{\max\{10, 5\Delta/\sigma + \Delta^2/(2\sigma^2)\}}{max(10, 5 Delta/sigma + Delta^2/(2 sigma^2))} (the paper's choice for
#'   \eqn{\Delta = 1}{Delta = 1}); on \eqn{H^d}{H^d} the larger of that and the largest privacy
#'   loss \eqn{\Delta(2r_b + \Delta)/(2\sigma^2)}{Delta(2r_b + Delta)/(2 sigma^2)} on the radial window
#'   \eqn{r \le r_b}{r <= r_b} that holds all but \eqn{e^{-40}}{e^(-40)} of the peak radial density.
#' @param profile `"corrected"` (the closed-form S^1 profile that corrects Jiang et al. (2023),
#'   Cor. 3.2.1; see "The privacy profile on the circle" in
#'   `vignette("methods", package = "riemdp")`) or `"paper"`:
#'   Cor. 3.2.1 as printed, with Algorithm 1 exactly as published (grid without
#'   0, maximum read off the grid), to reproduce the paper's Fig. 1. Only for
#'   `method = "algorithm1"`.
#' @param tol Relative tolerance of every inversion \eqn{\delta_\mu(\varepsilon) = l}{delta_mu(epsilon) = l}
#'   (the upper end of the bracket is returned: \eqn{\mu}{mu} is rounded up).
#' @param verbose `TRUE` or `FALSE`: show a [cli][cli::cli_progress_bar]
#'   progress bar ("Monte Carlo for mu") of the `n * m` loss draws of
#'   `monte_carlo` (`2 n m` for `algorithm2`) in [gdp_mu()] and
#'   [privacy_profile()]. cli draws it only after
#'   `getOption("cli.progress_show_after")` seconds (2 by default) and removes
#'   it when the call ends, also on an error and after Ctrl-C (see
#'   [mcmc_control()], "Progress"). The default,
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
  check_settings_known(list(...), "gdp_control",
                       c("n", "m", "n_epsilon", "epsilon_max", "profile", "tol", "verbose"), call)
  n <- check_count(n, "n", 1, call)
  m <- check_count(m, "m", 1, call)
  if (as.double(n) * m > 2^31 - 1) abort("`n` * `m` must be at most 2^31 - 1 draws", call)
  gdp_check_memory(n, m, NULL, call)
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

# Bytes per draw of the Monte Carlo methods: "monte_carlo" keeps the n m
# losses and two running sums (3 doubles each, the sums serving as the sort's
# buffer first); "algorithm2" the losses about both footprints (2 doubles).
gdp_bytes_per_draw <- c(monte_carlo = 24, algorithm2 = 16)

# Refuses, before anything is allocated, n * m draws whose memory exceeds
# what the system has available (Linux: MemAvailable; unknown elsewhere):
# R would be killed, or the machine swap, rather than stop with an error.
# method = NULL: the smaller need of the two (gdp_control() does not know the
# method yet).
gdp_check_memory <- function(n, m, method, call, available = available_memory()) {
  per <- if (is.null(method)) min(gdp_bytes_per_draw) else gdp_bytes_per_draw[[method]]
  bytes <- per * as.double(n) * m
  if (!is.na(available) && bytes > available)
    abort(sprintf("`n` * `m` = %.0f draws of gdp_control() need %s %.1f GB %s, more than the %.1f GB of memory available; use smaller `n` or `m` (the standard error falls as 1/sqrt(n m): four times the draws halve it), or average the mu of several smaller runs",
                  as.double(n) * m, if (is.null(method)) "at least" else "about", bytes / 1e9,
                  if (is.null(method)) "(16 bytes a draw for method \"algorithm2\", 24 for \"monte_carlo\")"
                  else sprintf("for method \"%s\"", method),
                  available / 1e9), call)
  invisible(bytes)
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
  # the profile on a curved space needs the radial law at sigma = sensitivity/6
  if (M$type != "euclidean" && !(M$type == "hyperbolic" && M$dim < 2) && sensitivity < gdp_min_sensitivity)
    abort(sprintf("`sensitivity` = %s is below %s, where the profile of the Riemannian Gaussian on %s cannot be evaluated in double precision (its radial law is not resolved at the sigmas that matter)",
                  format(sensitivity), format(gdp_min_sensitivity), manifold_label(M)), call)
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
gdp_min_sensitivity <- 1e-50

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

# The computation behind gdp_mu() and privacy_profile(): mu with the profile
# l(eval) at the requested epsilons. mu is defined for every sigma > 0: Inf
# where it cannot be computed (no privacy is claimed), never an error or a
# number below the truth for the deterministic methods (see ?gdp_mu).
gdp_compute <- function(M, sigma, sensitivity, method, control, eval, call) {
  sp <- gdp_space(M, call)
  sigma <- check_positive(sigma, "sigma", call)
  sensitivity <- gdp_check_sensitivity(M, sensitivity, call)
  check_gdp_control(control, call)
  method <- gdp_resolve_method(method, sp, M, control, call)
  paper <- method == "algorithm1" && control$profile == "paper"
  eps_max <- control$epsilon_max %||% 0
  n <- m <- NA_integer_
  se <- NA_real_
  l_se <- rep(NA_real_, length(eval))
  accuracy <- NA_real_
  regime <- "profile"
  sigma_ref <- sigma
  if (method == "closed_form") {
    mu <- gdp_div_up_cpp(sensitivity, sigma)
    eps_sup <- 0
    if (eps_max == 0) eps_max <- core_call(gdp_eps_max_cpp(sp$type, sp$d, sensitivity, sigma, FALSE), call)
    l <- gdp_delta_cpp(eval, rep(mu, length(eval)))
    accuracy <- 0
  } else if (method %in% c("algorithm1", "quadrature")) {
    res <- core_call(gdp_det_cpp(sp$type, sp$d, sensitivity, sigma, method, paper, control$n_epsilon, eps_max,
                                 control$tol, eval), call)
    mu <- res$mu
    eps_sup <- res$epsilon_sup
    eps_max <- res$epsilon_max
    accuracy <- res$accuracy
    regime <- res$regime
    sigma_ref <- res$sigma_ref
    l <- res$l
  } else {
    n <- control$n
    m <- control$m
    gdp_check_memory(n, m, method, call)
    res <- core_call(gdp_mc_cpp(sp$type, sp$d, sensitivity, sigma, method, n, m, control$n_epsilon, eps_max,
                                control$tol, eval, isTRUE(control$verbose)), call)
    mu <- res$mu
    eps_sup <- res$epsilon_sup
    eps_max <- res$epsilon_max
    se <- res$se
    regime <- res$regime
    sigma_ref <- res$sigma_ref
    l <- res$l
    l_se <- res$l_se
  }
  nan_na <- function(x) if (is.nan(x)) NA_real_ else x
  fit <- structure(list(mu = mu, method = method, manifold = M, sigma = sigma, sensitivity = sensitivity,
                        epsilon_sup = nan_na(eps_sup), se = se, accuracy = nan_na(accuracy),
                        regime = regime, sigma_ref = sigma_ref,
                        n = n, m = m, n_epsilon = control$n_epsilon, epsilon_max = nan_na(eps_max),
                        profile = if (method == "algorithm1") control$profile else NA_character_,
                        call = call),
                   class = "riemdp_gdp")
  list(fit = fit, epsilon = eval, l = l, l_se = l_se)
}

#' mu of a Riemannian Gaussian release
#'
#' The smallest \eqn{\mu}{mu} for which the Riemannian Gaussian mechanism
#' \eqn{N_M(f(D), \sigma^2)}{N_M(f(D), sigma^2)} with sensitivity
#' \eqn{\Delta}{Delta} is \eqn{\mu}{mu}-GDP (Jiang, Chang, Liu, Ding, Kong and
#' Jiang 2023, Thm 3.2 and Thm 4.1):
#' \eqn{\mu = \sup_{\varepsilon \ge 0}\mu_\varepsilon}{mu = sup over epsilon >= 0 of mu_epsilon}
#' with \eqn{\delta_{\mu_\varepsilon}(\varepsilon) = l(\varepsilon)}{delta_{mu_epsilon}(epsilon) = l(epsilon)}, where
#' \eqn{l(\varepsilon) = E_{Y \sim \eta_1}[(1 - e^{\varepsilon - L(Y)})_+]}{l(epsilon) = E[(1 - exp(epsilon - L(Y)))_+], Y ~ N_M(eta_1, sigma^2)},
#' \eqn{L(y) = (d(\eta_2, y)^2 - d(\eta_1, y)^2)/(2\sigma^2)}{L(y) = (d(eta_2, y)^2 - d(eta_1, y)^2) / (2 sigma^2)},
#' \eqn{d(\eta_1,\eta_2) = \Delta}{d(eta_1, eta_2) = Delta}
#' (the change-of-measure form of the paper's
#' \eqn{P_{\eta_1}(A) - e^\varepsilon P_{\eta_2}(A)}{P_eta_1(A) - exp(epsilon) P_eta_2(A)}).
#'
#' Methods:
#' * `"closed_form"`: \eqn{R^d}{R^d} (and \eqn{H^1}{H^1}, isometric to
#'   \eqn{R}{R}): \eqn{\mu = \Delta/\sigma}{mu = Delta / sigma}, rounded up.
#' * `"algorithm1"`: \eqn{S^1}{S^1}, the paper's Algorithm 1 with the corrected
#'   closed-form profile of `vignette("methods", package = "riemdp")`,
#'   "The privacy profile on the circle" (Cor. 3.2.1's set \eqn{A}{A} is wrong for
#'   \eqn{\varepsilon > 0}{epsilon > 0}), \eqn{\varepsilon = 0}{epsilon = 0}
#'   included and the supremum refined; `gdp_control(profile = "paper")` runs
#'   the paper's version as printed.
#' * `"quadrature"`: deterministic, on \eqn{S^d}{S^d}, \eqn{H^d}{H^d} and
#'   \eqn{R^d}{R^d} for every \eqn{d}{d}: geodesic polar coordinates
#'   \eqn{(r, \varphi)}{(r, phi)} about \eqn{\eta_1}{eta_1}, the law of
#'   cosines for \eqn{d(\eta_2, y)}{d(eta_2, y)}, Gauss-Legendre over
#'   \eqn{\{L \ge \varepsilon\}}{{L >= epsilon}} only. Stated relative
#'   accuracy: 1e-6 for \eqn{\mu \le 8}{mu <= 8}, 1e-4 up to 12, 1e-3 beyond
#'   (tested against `algorithm1`, the closed form, higher orders and Monte
#'   Carlo), or 4 times the relative difference to the same quadrature with
#'   twice the orders (at \eqn{\varepsilon = 0}{epsilon = 0} and at the
#'   supremum), whichever is larger. Where that difference exceeds 1e-3
#'   (large \eqn{\Delta}{Delta} on \eqn{H^d}{H^d}) the orders are doubled
#'   once; if it still does, or where \eqn{l(0)}{l(0)} rounds to 1 (nearly
#'   disjoint laws), \eqn{\mu}{mu} cannot be computed: `Inf`.
#' * `"monte_carlo"`: `n * m` exact draws about \eqn{\eta_1}{eta_1}, the
#'   change-of-measure estimator with its standard error (delta method at the supremum).
#' * `"algorithm2"`: the paper's Algorithm 2 as published (frequencies of
#'   `n * m` draws about each footprint,
#'   \eqn{l = \hat P_1(A) - e^\varepsilon \hat P_2(A)}{l = P1hat(A) - exp(epsilon) P2hat(A)}
#'   on the grid \eqn{k, \dots, n_\varepsilon k}{k, ..., n_epsilon k}, maximum
#'   read off the grid), kept to reproduce the paper's Fig. 1. Its mean over
#'   runs is biased upward (the rare-event frequency times
#'   \eqn{e^\varepsilon}{exp(epsilon)} and the maximum over a noisy grid;
#'   "Algorithm 2 overestimates mu" in `vignette("methods", package =
#'   "riemdp")`), but single runs scatter on both sides of the truth: on
#'   \eqn{S^1}{S^1} and \eqn{S^2}{S^2} with \eqn{\Delta = 1}{Delta = 1} and
#'   the paper's budget, runs fall up to 11% below the exact \eqn{\mu}{mu} at
#'   large \eqn{\sigma}{sigma} (`vignette("gdp")`). A single run is no upper
#'   bound. Its standard error is the binomial one and ignores the bias.
#' * `"auto"`: `closed_form` on \eqn{R^d}{R^d} and \eqn{H^1}{H^1},
#'   `algorithm1` on \eqn{S^1}{S^1}, `quadrature` on \eqn{S^d}{S^d} and
#'   \eqn{H^d}{H^d}, \eqn{d \ge 2}{d >= 2}.
#'
#' **Every \eqn{\sigma > 0}{sigma > 0}.** The deterministic methods report an
#' upper bound, rounded up, for every \eqn{\sigma}{sigma}, non-increasing in
#' \eqn{\sigma}{sigma}; `Inf` (no privacy claimed) where none can be
#' computed, never an error or a number below the truth. Every inversion of
#' \eqn{\delta_\mu(\varepsilon) = l}{delta_mu(epsilon) = l} rounds
#' \eqn{\mu}{mu} up, the result is raised by its accuracy and rounded up to
#' 33 significant bits (steps of about 1.2e-10, far above the rounding noise
#' of the quadrature, which then seldom shows as a \eqn{\mu}{mu} that grows
#' with \eqn{\sigma}{sigma}).
#' The profile is evaluated for \eqn{\sigma}{sigma} in \eqn{[\Delta/6, h]}{[Delta/6, h]}
#' (`regime` `"profile"`; the value there is at least the one at \eqn{h}{h}):
#' \eqn{h = 10^4}{h = 1e4} on \eqn{S^d}{S^d}, \eqn{10^8\Delta}{1e8 Delta} on
#' \eqn{R^d}{R^d}, and on \eqn{H^d}{H^d}
#' \eqn{h = \max(\sqrt{20\max(1, \Delta/10)/(d-1)}, \Delta/3)}{h = max(sqrt(20 max(1, Delta/10) / (d-1)), Delta/3)},
#' where \eqn{\mu}{mu} is within about \eqn{10^{-5}}{1e-5} of its limit for
#' \eqn{\Delta \le 10}{Delta <= 10}. Outside:
#' * \eqn{\sigma < \Delta/6}{sigma < Delta/6} (`"small_sigma"`): the laws at
#'   the two footprints are nearly disjoint (\eqn{l(0)}{l(0)} rounds to 1 from
#'   \eqn{\Delta/\sigma \approx 16}{Delta/sigma ~ 16} on) and the geometry at
#'   their scale nearly Euclidean, so \eqn{\mu}{mu} tends to the Euclidean
#'   \eqn{\Delta/\sigma}{Delta/sigma}:
#'   \eqn{\mu = \Delta/\sigma + c\,\sigma/\Delta + o(\sigma)}{mu = Delta/sigma + c sigma/Delta + o(sigma)},
#'   with \eqn{c \le 0}{c <= 0} on spheres and \eqn{c > 0}{c > 0}, shrinking as
#'   \eqn{\sigma}{sigma} decreases, on hyperbolic spaces (checked
#'   numerically). The bound reported is
#'   \eqn{\max(\mu_0, \Delta/\sigma + c_0\sigma/\Delta)}{max(mu0, Delta/sigma + c0 sigma/Delta)},
#'   \eqn{c_0 = \max(0, 6(\mu_0 - 6))}{c0 = max(0, 6 (mu0 - 6))} with
#'   \eqn{\mu_0}{mu0} the reported \eqn{\mu}{mu} at \eqn{\sigma = \Delta/6}{sigma = Delta/6}
#'   (the two agree there), rounded up; `Inf` when it overflows or
#'   \eqn{\mu_0}{mu0} cannot be computed.
#' * \eqn{\sigma > h}{sigma > h} (`"large_sigma"`):
#'   \eqn{\mu(\sigma) \le \mu(h)(h/\sigma)^p}{mu(sigma) <= mu(h) (h/sigma)^p},
#'   \eqn{p = 2}{p = 2} on \eqn{S^d}{S^d} (\eqn{\mu\sigma^2}{mu sigma^2}
#'   increases to its limit), \eqn{p = 0}{p = 0} on \eqn{H^d}{H^d}
#'   (\eqn{\mu}{mu} decreases to a positive limit), \eqn{p = 1}{p = 1} on
#'   \eqn{R^d}{R^d}; a bound below the smallest normal double is reported as
#'   that number, never 0.
#'
#' The Monte Carlo methods estimate; they give `Inf` without drawing when
#' \eqn{\Delta/\sigma > 40}{Delta/sigma > 40} (no draw could fall where the
#' loss is \eqn{\le 0}{<= 0}, so the estimate is `Inf`), and above \eqn{h}{h}
#' the estimate at \eqn{h}{h} scaled as above. An estimate of 0 (every
#' estimated \eqn{l(\varepsilon)}{l(epsilon)} on the grid \eqn{\le 0}{<= 0},
#' as Algorithm 2 gives with few draws) says nothing about \eqn{\mu}{mu} and
#' is reported as `Inf`. Deterministic methods do not
#' use the random number generator.
#'
#' @param M A manifold of constant curvature: [manifold_euclidean()],
#'   [manifold_sphere()] or [manifold_hyperbolic()].
#' @param sigma Rate of the Riemannian Gaussian (a finite number > 0).
#' @param sensitivity Global sensitivity \eqn{\Delta > 0}{Delta > 0} (at most
#'   \eqn{\pi}{pi} on a sphere, at most 700 on \eqn{H^d}{H^d},
#'   \eqn{d \ge 2}{d >= 2}, where \eqn{\cosh\Delta}{cosh(Delta)} still fits a
#'   double; at least \eqn{10^{-50}}{1e-50} on spheres and on \eqn{H^d}{H^d},
#'   \eqn{d \ge 2}{d >= 2}, where the radial law at
#'   \eqn{\sigma = \Delta/6}{sigma = Delta/6} is still resolved).
#' @param method One of the methods above.
#' @param control [gdp_control()] settings.
#' @return An object of class `riemdp_gdp`: a list with `mu` (`Inf` where no
#'   finite \eqn{\mu}{mu} could be computed), `method`, `manifold`, `sigma`,
#'   `sensitivity`, `epsilon_sup` (where the supremum sits; `NA` outside the
#'   profile regime), `se` (Monte Carlo standard error of `mu`, `NA` for
#'   deterministic methods), `accuracy` (stated relative accuracy of a
#'   deterministic `mu`, by which it was raised; `NA` for Monte Carlo and for
#'   the bounds outside the profile regime), `regime` (`"profile"`,
#'   `"small_sigma"` or `"large_sigma"`, above), `sigma_ref` (the
#'   \eqn{\sigma}{sigma} at which the profile was evaluated), `n`, `m`,
#'   `n_epsilon`, `epsilon_max` (the inputs used; `NA` when no grid was
#'   evaluated at `sigma`), `profile` and `call`. `as.numeric()` gives `mu`.
#' @seealso [gdp_sigma()], [privacy_profile()], [gdp_delta()].
#' @references Jiang, Chang, Liu, Ding, Kong and Jiang (2023), Gaussian
#'   differential privacy on Riemannian manifolds, NeurIPS 2023: Thm 3.2,
#'   Cor. 3.2.1, Thm 4.1, Algorithms 1 and 2.
#' @examples
#' gdp_mu(manifold_euclidean(2), sigma = 0.5, sensitivity = 1)
#' gdp_mu(manifold_sphere(1), sigma = 2, sensitivity = 1)
#' fit <- gdp_mu(manifold_sphere(2), sigma = 0.5, sensitivity = 0.3)
#' as.numeric(fit)
#' # a near-exact release: the Euclidean asymptote, rounded up
#' gdp_mu(manifold_sphere(2), sigma = 1e-100, sensitivity = 0.1)
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
  mc <- x$method %in% c("monte_carlo", "algorithm2")
  how <- if (mc && !is.na(x$se)) sprintf("Monte Carlo standard error %s (n * m = %.0f draws%s)", format(x$se, digits = 3),
                                         as.double(x$n) * x$m,
                                         if (x$method == "algorithm2") "; its mean is biased upward and single runs scatter on both sides of the truth, see ?gdp_mu" else "")
         else if (mc) sprintf("Monte Carlo (n * m = %.0f draws)", as.double(x$n) * x$m)
         else if (x$method == "closed_form") "exact, rounded up"
         else if (identical(x$profile, "paper")) "Cor. 3.2.1 as printed in the paper (not a valid bound for epsilon > 0)"
         else if (x$regime == "profile") sprintf("relative accuracy %s, rounded up by it", format(x$accuracy, digits = 3))
         else "an upper bound, rounded up"
  where <- switch(x$regime,
    profile = sprintf("  supremum over epsilon at epsilon = %s (grid up to %s)", format(x$epsilon_sup, digits = 4),
                      format(x$epsilon_max, digits = 4)),
    small_sigma = if (mc) "  sensitivity/sigma > 40: no draw can fall where the privacy loss is <= 0, so the estimate is Inf"
                  else sprintf("  sigma < sensitivity/6: the Euclidean asymptote Delta/sigma + c sigma/Delta, c from the profile at sigma = %s (see ?gdp_mu)",
                               format(x$sigma_ref, digits = 6)),
    large_sigma = sprintf("  sigma beyond %s: %s at sigma = %s, scaled (see ?gdp_mu)", format(x$sigma_ref, digits = 6),
                          if (mc) "the estimate" else "mu", format(x$sigma_ref, digits = 6)))
  c(sprintf("<riemdp GDP> mu = %s for the Riemannian Gaussian on %s", gdp_format_mu(x$mu, 7), manifold_label(x$manifold)),
    sprintf("  sigma = %s, sensitivity Delta = %s; method \"%s\": %s", format(x$sigma, digits = 6),
            format(x$sensitivity, digits = 6), x$method, how),
    where)
}

# mu as printed: rounded up; Inf says that no privacy is claimed.
gdp_format_mu <- function(mu, digits = 4) {
  if (is.infinite(mu)) "Inf (no finite mu could be computed: no privacy is claimed)" else format_guarantee(mu, digits)
}

#' @export
print.riemdp_gdp <- function(x, ...) {
  writeLines(format(x, ...))
  invisible(x)
}

#' sigma for a target mu
#'
#' The smallest rate \eqn{\sigma}{sigma} whose Riemannian Gaussian release
#' with sensitivity \eqn{\Delta}{Delta} is \eqn{\mu}{mu}-GDP by [gdp_mu()]
#' (see "Gaussian DP accounting" in `vignette("methods", package = "riemdp")`).
#' [gdp_mu()] is non-increasing in \eqn{\sigma}{sigma}: the root
#' of \eqn{\log\mu(\sigma) = \log\mu}{log mu(sigma) = log mu} is bracketed by
#' steps on \eqn{\log\sigma}{log sigma} that double, from the Euclidean value
#' \eqn{\Delta/\mu}{Delta/mu}, and refined (Illinois steps with bisection);
#' the upper end of the final bracket is returned: `gdp_mu(M, sigma,
#' sensitivity)` is at most `mu` (the safe side) and `sigma` is within
#' relative `tol` of the root. A target that cannot be met that way (not
#' attainable, a jump of \eqn{\mu(\sigma)}{mu(sigma)} across the target, or no
#' convergence) is an error that says which. Only the deterministic methods
#' (`closed_form`, `algorithm1`, `quadrature`).
#'
#' On \eqn{S^d}{S^d} every \eqn{\mu > 0}{mu > 0} is attainable
#' (\eqn{\mu \to 0}{mu -> 0} as \eqn{\sigma \to \infty}{sigma -> Inf}). On
#' \eqn{H^d}{H^d}, \eqn{d \ge 2}{d >= 2}, it is not: the law moves out to
#' distance about \eqn{(d-1)\sigma^2}{(d-1) sigma^2}, where the privacy loss
#' tends to \eqn{-(d-1)\Delta\cos\varphi}{-(d-1) Delta cos(phi)}, so
#' \eqn{\mu}{mu} decreases to a positive limit (about 0.786 on \eqn{H^2}{H^2}
#' and 1.232 on \eqn{H^3}{H^3} at \eqn{\Delta = 1}{Delta = 1}); a smaller
#' target is an error.
#'
#' @inheritParams gdp_mu
#' @param mu Target \eqn{\mu > 0}{mu > 0}.
#' @param method `"auto"`, `"closed_form"`, `"algorithm1"` or `"quadrature"`.
#' @param tol Relative tolerance on \eqn{\sigma}{sigma}.
#' @return \eqn{\sigma}{sigma} (a number) with attributes `mu` (the achieved
#'   \eqn{\mu}{mu}, at most the target and at least `mu * (1 - 4 * tol)`) and `method`.
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
  if (tol >= 0.1 || tol < 1e-14) abort("`tol` must lie in [1e-14, 0.1)", call)
  check_gdp_control(control, call)
  method <- gdp_resolve_method(method, sp, M, control, call)
  if (method %in% c("monte_carlo", "algorithm2"))
    abort(sprintf("`method` = \"%s\" is random: gdp_sigma() needs a deterministic mu (\"closed_form\", \"algorithm1\" or \"quadrature\")",
                  method), call)
  out <- function(s, m) structure(s, mu = m, method = method)
  if (method == "closed_form") {
    s <- sensitivity / mu
    if (!is.finite(s) || s <= 0) abort("`mu` and `sensitivity` give no representable sigma", call)
    while (gdp_div_up_cpp(sensitivity, s) > mu) s <- s * (1 + .Machine$double.eps)
    return(out(s, gdp_div_up_cpp(sensitivity, s)))
  }
  f <- function(s) gdp_compute(M, s, sensitivity, method, control, numeric(0), call)$fit$mu
  fmt <- function(x) format(x, digits = 6)
  # bracket lo < hi with f(lo) > mu >= f(hi), by steps on log sigma that
  # double, inside the doubles (sigma in [1e-300, 1e300])
  hi <- min(max(sensitivity / mu, 1e-300), 1e300)
  fhi <- f(hi)
  step <- log(2)
  if (fhi > mu) {
    repeat {
      lo <- hi
      flo <- fhi
      if (lo >= 1e300)
        abort(sprintf("`mu` = %s is not attainable on %s with sensitivity %s: mu stays above it up to sigma = %s (on hyperbolic space mu decreases to a positive limit as sigma grows, see ?gdp_sigma)",
                      fmt(mu), manifold_label(M), fmt(sensitivity), fmt(lo)), call)
      hi <- min(exp(log(lo) + step), 1e300)
      step <- 2 * step
      fhi <- f(hi)
      if (fhi <= mu) break
    }
  } else {
    repeat {
      lo <- max(exp(log(hi) - step), 1e-300)
      step <- 2 * step
      flo <- f(lo)
      if (flo > mu) break
      if (lo <= 1e-300)
        abort(sprintf("`mu` = %s is not attainable on %s with sensitivity %s: mu stays below it down to sigma = %s",
                      fmt(mu), manifold_label(M), fmt(sensitivity), fmt(lo)), call)
      hi <- lo
      fhi <- flo
    }
  }
  # Illinois on g(t) = log mu(e^t) - log mu, t = log sigma, bisection whenever
  # the bracket did not halve (or g is infinite at an end).
  a <- log(lo); b <- log(hi)
  ga <- log(flo) - log(mu); gb <- log(fhi) - log(mu)
  side <- 0L
  width <- b - a
  for (it in seq_len(300L)) {
    if (exp(b) - exp(a) <= tol * exp(b)) break
    t <- if (is.finite(ga) && ga != gb) b - gb * (b - a) / (gb - ga) else (a + b) / 2
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
      a <- t; ga <- gt; flo <- ft
      if (side == -1L) gb <- gb / 2
      side <- -1L
    }
  }
  if (exp(b) - exp(a) > tol * exp(b))
    abort(sprintf("gdp_sigma() did not bracket the sigma for `mu` = %s within `tol` = %s on %s with sensitivity %s (bracket [%s, %s])",
                  fmt(mu), format(tol), manifold_label(M), fmt(sensitivity), fmt(exp(a)), fmt(exp(b))), call)
  if (fhi < mu * (1 - 4 * tol))
    abort(sprintf("`mu` = %s cannot be met within `tol` on %s with sensitivity %s: mu(sigma) jumps across it at sigma = %s, from %s to %s%s",
                  fmt(mu), manifold_label(M), fmt(sensitivity), fmt(exp(b)), gdp_format_mu(flo, 6), fmt(fhi),
                  if (is.infinite(flo)) " (below that sigma no finite mu can be computed)" else ""), call)
  out(exp(b), fhi)
}

#' Privacy profile of a Riemannian Gaussian release
#'
#' \eqn{l(\varepsilon) = \sup_A P_{\eta_1}(A) - e^\varepsilon P_{\eta_2}(A)}{l(epsilon) = sup over A of P_eta_1(A) - exp(epsilon) P_eta_2(A)}
#' of Jiang, Chang, Liu, Ding, Kong and Jiang (2023), Thm 3.2 / 4.1, on a grid of \eqn{\varepsilon}{epsilon}, computed
#' by the method of [gdp_mu()], beside \eqn{\delta_\mu(\varepsilon)}{delta_mu(epsilon)} of the
#' reported \eqn{\mu}{mu}: the release is \eqn{\mu}{mu}-GDP exactly when the profile
#' stays below that curve.
#'
#' @inheritParams gdp_mu
#' @param epsilon Numbers \eqn{\ge 0}{>= 0}, or `NULL`: `n_epsilon + 1` points
#'   on \eqn{[0, \varepsilon_{max}]}{[0, epsilon_max]}.
#' @return An object of class `riemdp_privacy_profile`: a list with
#'   `epsilon`, `l`, `se` (Monte Carlo standard errors of `l`, `NA` otherwise),
#'   `delta` (\eqn{\delta_\mu(\varepsilon)}{delta_mu(epsilon)} of the reported \eqn{\mu}{mu}), `mu`
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
    if (!is.finite(em))
      abort(sprintf("`sigma` = %s is so small that the default epsilon grid of the profile overflows (its end is about sensitivity^2 / (2 sigma^2)); give `epsilon`",
                    format(sigma, digits = 6)), call)
    epsilon <- seq(0, em, length.out = control$n_epsilon + 1L)
  }
  k <- length(epsilon)
  # the supremum's epsilon is only known after the call: evaluate at a
  # provisional grid, then the profile at epsilon_sup (deterministic methods
  # cheaply; Monte Carlo from the same draws would need them kept, so the
  # mark there is the profile interpolated on the grid).
  res <- gdp_compute(M, sigma, sensitivity, method, control, epsilon, call)
  fit <- res$fit
  l_sup <- if (is.na(fit$epsilon_sup)) NA_real_
           else if (fit$method %in% c("algorithm1", "quadrature"))
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
            gdp_format_mu(x$mu$mu, 7), format(x$mu$epsilon_sup, digits = 4),
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
                              sprintf("delta_mu(epsilon), mu = %s", format_guarantee(x$mu$mu, 4)),
                              "supremum"))
  invisible(x)
}
