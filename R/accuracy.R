# An accuracy plan before spending epsilon: the law of the distance between a
# release and the non-private estimate it perturbs, predicted from public
# parameters, n and an assumed spread of the data. Public computation only:
# it takes no data, so it spends no budget.

accuracy_releases <- c("frechet_mean", "geodesic_regression", "linear_regression")

# The public arguments each release accepts here; data arguments are refused.
accuracy_public_args <- list(
  frechet_mean = c("epsilon", "radius", "center", "mechanism", "outside", "normalizer", "sigma", "mu",
                   "method", "control"),
  geodesic_regression = c("epsilon", "tau", "tau_m", "x_range", "center", "radius", "scheme", "split",
                          "bound", "control"),
  linear_regression = c("epsilon", "tau", "x_range", "beta_max", "control"))
accuracy_data_args <- c("X", "Y", "x", "data", "formula", "weights", "na.action")

#' Predict the error of a release before spending the budget
#'
#' An accuracy plan: how far a release of [dp_frechet_mean()],
#' [dp_geodesic_regression()] or [dp_linear_regression()] will lie from the
#' non-private estimate that its mechanism perturbs, for a given sample size
#' `n`, budget and set of public bounds, and an *assumed* spread of the data.
#' It returns the median, the 90% quantile and other quantiles of that
#' error, so that `n`, `epsilon` and the bounds can be chosen before any
#' budget is spent (for instance the smallest `n` for which the median error
#' is below a target).
#'
#' **Public computation only.** `dp_accuracy()` takes no data (it has no
#' argument for them, and refuses `X`, `Y`, `x`, `data` or `formula` in
#' `...`). It calls the release function itself, with the public parameters
#' given in `...`, on synthetic data that it draws inside the public bounds
#' with the assumed spread, `reps` times, and measures each release's error
#' against the non-private estimate of the same synthetic data. Nothing
#' here touches private data, so nothing is charged to a budget.
#'
#' **What is measured.**
#' * `"frechet_mean"`: `distance`, the geodesic distance between the release
#'   and the Fréchet mean of the data (for KNG, of the data in the ball).
#' * `"geodesic_regression"`: the release targets the Huber geodesic fit
#'   with clip `tau` (the least-squares fit of [geodesic_regression()] when
#'   no residual exceeds `tau`), computed with the covariate mapped from
#'   `x_range` to \eqn{[0, 1]}{[0, 1]}. Measures: `footpoint`, the distance between
#'   the two geodesics at `x_range[1]`; `endpoint`, at `x_range[2]`;
#'   `shooting`, the norm of the difference of their velocities across the
#'   whole range, after parallel transport of the fit's to the release's
#'   footpoint; `prediction`, the root mean square distance between the two
#'   geodesics over 21 equally spaced covariate values across `x_range`.
#' * `"linear_regression"`: the release targets the Huber regression fit
#'   with clip `tau` (the `lm()` fit when no residual exceeds `tau`).
#'   Measures: `prediction`, the root mean square difference of the two
#'   fitted responses over covariates uniform on the box of public ranges
#'   (in the response's units; exact, from the coefficients), and the absolute
#'   error of each coefficient as `lm()` reports it.
#'
#' Distances are multiplied by `scale` (e.g. 6371 for kilometres on the
#' Earth, whose radius is 6371 km) and labelled with `units`; the
#' coefficients of a linear regression are never scaled.
#'
#' **Exact route.** For the Laplace and Gaussian mechanisms of
#' [dp_frechet_mean()] the release is a draw from an isotropic law centred
#' at the Fréchet mean, and the law of its distance from the centre does not
#' depend on where the centre is (the spaces are homogeneous): the error's
#' law does not depend on the data at all. There `spread` is not used and the
#' prediction is `reps` exact draws of the radial part (the samplers of
#' [riem_rlaplace()] and [riem_rgaussian()] at the release's own
#' \eqn{\sigma}{sigma}, computed from `n`, `radius` and `epsilon` or `mu`
#' or `sigma` as the release computes it), no synthetic data and no release
#' loop. Where the release draws by a chain instead (on SPD where the exact
#' sampler is slow, or with `method = "mh"`), the prediction is `reps` draws
#' of that chain, each after as many steps as a release takes (route
#' `"chain"`). `spread`, if given, must still be a single number. On Euclidean space the
#' Laplace error is exactly \eqn{\sigma}{sigma} times a Gamma(d, 1) variable,
#' \eqn{\sigma = 2\Delta/\epsilon}{sigma = 2 Delta/epsilon} (Reimherr et al. 2021).
#' The K-norm gradient mechanism (Reimherr & Awan 2019) and the regressions
#' have an error law that depends on the data (through the curvature of the
#' loss, the truncation to the public domain and the clipped residuals):
#' they are simulated.
#'
#' **Synthetic data.** All draws are inside the public bounds:
#' * Fréchet mean (KNG): `n` points \eqn{Exp_c(z)}{Exp_c(z)}, \eqn{z}{z} an isotropic
#'   Gaussian tangent vector at `location` (default `center`) with
#'   \eqn{E|z|^2 =}{E|z|^2 =} `spread`^2 (so `spread` is the root mean square
#'   distance of the points from their centre, in the units of the manifold's
#'   distance: radians on the sphere; at most `radius`), redrawn while
#'   outside the public ball (at most 100 times, then moved to its boundary,
#'   as `outside = "clip"` does).
#' * Geodesic regression: covariates on `x_range` (uniform, or a scaled Beta
#'   law with the assumed mean and standard deviation `x_mean`, `x_sd`), the
#'   geodesic from `location` (default `center`) in a uniformly random
#'   direction with length `slope` across the whole `x_range` (the units of
#'   `tau_m`), and each response the geodesic's point moved by an isotropic
#'   Gaussian tangent vector with root mean square length `noise` (the units
#'   of `tau`).
#' * Linear regression: each predictor independently on its public range
#'   (uniform, or a scaled Beta law with mean `x_mean` and standard deviation
#'   `x_sd`), the response the linear predictor of `location` (the
#'   coefficients as `lm()` reports them; default all 0, the centre of the
#'   public box) plus Gaussian noise of standard deviation `sd` (the residual
#'   standard error that an `lm()` user would state).
#'
#' The prediction is as good as the assumed spread: a smaller `n`, a smaller
#' budget or a wider public domain are captured exactly, a spread that does
#' not describe the data is not. The error of a regression depends mostly on
#' the covariate's spread (its standard deviation on `x_range`) and on how
#' many residuals exceed `tau`, and little on the slope; anisotropic
#' residuals (e.g. epicentres spread along a trench) are replaced by
#' isotropic ones with the same root mean square.
#'
#' **Monte Carlo error.** Each quantile comes with a 95% interval from the
#' order statistics (the binomial law of the number of draws below the
#' quantile), printed as a relative half-width; more `reps` narrow it as
#' \eqn{1/\sqrt{reps}}{1/sqrt(reps)}.
#'
#' **Random numbers and run time.** The draws use R's random number
#' generator, as the releases do: `set.seed()` before the call reproduces the
#' result, and the call advances `.Random.seed` (it is not restored). A
#' simulation costs `reps` releases on `n` synthetic points plus their
#' non-private fits, so its run time grows linearly in `n` and `reps`; with
#' `verbose = TRUE` a [cli][cli::cli_progress_bar] progress bar appears after
#' two seconds, and the loop stops at once on an interrupt (Ctrl-C).
#'
#' @param M The manifold of the release (for `"linear_regression"`, `NULL`
#'   or `manifold_euclidean(1)`, the response's space).
#' @param release Which release: `"frechet_mean"`, `"geodesic_regression"`
#'   or `"linear_regression"`, or the function itself ([dp_frechet_mean],
#'   [dp_geodesic_regression], [dp_linear_regression]).
#' @param n The planned sample size, a whole number (at least 2 for the
#'   regressions; at most \eqn{10^8}{1e8} on the exact route and
#'   \eqn{10^6}{1e6} where releases are simulated).
#' @param ... The release's public parameters, named as in the release
#'   function: for the Fréchet mean `epsilon`, `radius`, `center`,
#'   `mechanism`, `outside`, `normalizer`, `sigma`, `mu`, `method`,
#'   `control`; for the geodesic regression `epsilon`, `tau`, `tau_m`,
#'   `x_range`, `center`, `radius`, `scheme`, `split`, `bound`, `control`;
#'   for the linear regression `epsilon`, `tau`, `x_range`, `beta_max`,
#'   `control` (the predictors are named after `x_range`: a named list, a
#'   2-row matrix with column names, or one pair for one predictor). No data
#'   and no private bounds (`bounds`).
#' @param spread The assumed spread of the data (not used by the exact
#'   route): for `"frechet_mean"` a single number, the root mean square
#'   distance of the points from their centre; for `"geodesic_regression"` a
#'   named list or vector with `noise` (required: the root mean square
#'   residual distance from the geodesic), `slope` (the distance the
#'   geodesic moves across `x_range`, default 0, at most `tau_m`), and
#'   optionally `x_mean`, `x_sd` (the covariate's mean and standard
#'   deviation, in its units); for `"linear_regression"` a named list with
#'   `sd` (required: the residual standard deviation) and optionally
#'   `x_mean`, `x_sd` (one value per predictor, in the order or with the names
#'   of `x_range`).
#' @param location Where the synthetic data are centred: for the Fréchet
#'   mean and the geodesic regression a point of `M` within `radius` of
#'   `center` (default `center`); for the linear regression the coefficients
#'   as `lm()` reports them, intercept first (default 0). An assumption, like
#'   `spread`: it matters where the estimate lies near the edge of the
#'   public domain.
#' @param reps The number of simulated releases (or exact draws), a whole
#'   number from 2 to \eqn{10^7}{1e7}. `NULL` (the default): 10000 exact draws
#'   on the exact route, 200 otherwise. A 95% Monte Carlo interval needs
#'   enough draws on each side of a quantile: with fewer, its bound is `NA`
#'   (e.g. the median needs at least 6 draws, the 90% quantile 36).
#' @param probs The quantiles to report, numbers in (0, 1); the median and
#'   the 90% quantile are always included.
#' @param scale A number > 0 that multiplies every distance (e.g. 6371 for km
#'   on the Earth); not applied to linear-regression coefficients.
#' @param units `NULL` or a label for the scaled distances (e.g. `"km"`).
#' @param verbose `TRUE` or `FALSE`: show a progress bar for long simulations.
#' @return An object of class `riemdp_accuracy`: `quantiles` (a matrix, one
#'   row per measure, one column per probability), `lower` and `upper` (the
#'   Monte Carlo 95% intervals of those quantiles), `errors` (the `reps`
#'   simulated errors, one column per measure, scaled), `measures`, `target`
#'   (the non-private estimate the errors are measured against), `route`
#'   (`"exact"` or `"simulation"`), `release`, `manifold`, `n`, `public` (the
#'   public parameters), `spread`, `location`, `reps`, `probs`, `scale`,
#'   `units`, `sigma` (the release's noise rate) and `call`. Methods:
#'   `print()`, `format()`, `summary()` (the quantile table), `quantile()`
#'   (any quantile of the simulated errors), `plot()` (their empirical
#'   distribution with the median and the 90% quantile).
#' @references Reimherr, M., Bharath, K. and Soto, C. (2021). Differential
#'   privacy over Riemannian manifolds. *NeurIPS*; Reimherr, M. and Awan, J.
#'   (2019). KNG: the K-norm gradient mechanism. *NeurIPS*; Kulkarni, A. and
#'   Soto, C. (2025). Differentially private geodesic and linear regression.
#'   arXiv:2504.11304v1.
#' @seealso [dp_frechet_mean()], [dp_geodesic_regression()],
#'   [dp_linear_regression()], [dp_replicate()] to measure the errors on
#'   data one may use.
#' @examples
#' S2 <- manifold_sphere(2)
#' north <- c(0, 0, 1)
#' # Laplace mean of 500 points in a 10-degree ball at epsilon = 1, in km:
#' # exact draws, no data needed
#' set.seed(1)
#' dp_accuracy(S2, "frechet_mean", n = 500, epsilon = 1, radius = 10 * pi / 180,
#'             center = north, scale = 6371, units = "km")
#' # the smallest n (of a few) with a median error below 5 km
#' ns <- c(250, 500, 1000, 2000)
#' med <- sapply(ns, function(n) dp_accuracy(S2, "frechet_mean", n = n, epsilon = 1,
#'   radius = 10 * pi / 180, center = north, scale = 6371, reps = 2000)$quantiles[1, "50%"])
#' ns[med < 5][1]
#' # a linear regression: residual sd 0.4, one predictor on [0, 700]
#' set.seed(2)
#' dp_accuracy(NULL, "linear_regression", n = 1000, epsilon = 1, tau = 1,
#'             x_range = list(depth = c(0, 700)), beta_max = 10,
#'             spread = list(sd = 0.4), reps = 20)
#' @export
dp_accuracy <- function(M, release = c("frechet_mean", "geodesic_regression", "linear_regression"), n, ...,
                        spread = NULL, location = NULL, reps = NULL, probs = c(0.1, 0.25, 0.5, 0.75, 0.9),
                        scale = 1, units = NULL, verbose = TRUE) {
  call <- accuracy_call(match.call())
  release <- accuracy_release_name(release, call)
  if (release == "linear_regression") {
    if (!is.null(M) && !(inherits(M, "riemdp_manifold") && M$type == "euclidean" && M$d == 1L))
      abort("`M` must be NULL or manifold_euclidean(1) for a linear regression (the response's space)", call)
    M <- manifold_euclidean(1)
  } else {
    check_manifold(M, call)
  }
  if (missing(n)) abort("`n` is required: the planned sample size", call)
  n <- check_count(n, "n", if (release == "frechet_mean") 1 else 2, call, upper = 1e8)
  pub <- accuracy_public(list(...), release, call)
  if (!is.null(reps)) reps <- check_count(reps, "reps", 2, call, upper = 1e7)
  probs <- accuracy_probs(probs, call)
  scale <- check_positive(scale, "scale", call)
  if (!is.null(units) && !(is.character(units) && length(units) == 1L && !is.na(units)))
    abort("`units` must be NULL or a single string, e.g. \"km\"", call)
  verbose <- check_flag(verbose, "verbose", call)

  res <- switch(release,
    frechet_mean = accuracy_frechet(M, n, pub, spread, location, reps, verbose, call),
    geodesic_regression = accuracy_geodesic(M, n, pub, spread, location, reps, verbose, call),
    linear_regression = accuracy_linear(n, pub, spread, location, reps, verbose, call))
  E <- res$errors
  # distances are scaled; linear coefficients are in their own units
  scaled <- rep(release != "linear_regression", ncol(E))
  E[, scaled] <- E[, scaled] * scale
  qs <- accuracy_quantiles(E, probs)
  structure(list(quantiles = qs$q, lower = qs$lower, upper = qs$upper, errors = E, measures = colnames(E),
                 target = res$target, route = res$route, release = release, manifold = M, n = n,
                 public = pub, spread = res$spread, location = res$location, reps = nrow(E), probs = probs,
                 scale = scale, units = units, scaled = stats::setNames(scaled, colnames(E)),
                 sigma = res$sigma, mechanism = res$mechanism, call = call),
            class = "riemdp_accuracy")
}

# The call as stored and shown in errors: under do.call() its arguments are
# values, and any but a short atomic one (a matrix passed as `spread`, say)
# is replaced by its argument's name.
accuracy_call <- function(call) {
  if (!is.name(call[[1L]]) && !is.call(call[[1L]])) call[[1L]] <- as.name("dp_accuracy")
  nms <- names(call) %||% rep("", length(call))
  for (i in seq_along(call)[-1L]) {
    v <- call[[i]]
    if (is.name(v) || is.call(v) || (is.atomic(v) && length(v) <= 4L)) next
    call[[i]] <- as.name(if (nzchar(nms[i])) nms[i] else sprintf("..%d", i - 1L))
  }
  call
}

accuracy_release_name <- function(release, call) {
  if (is.function(release)) {
    for (nm in accuracy_releases)
      if (identical(release, get(paste0("dp_", nm), envir = asNamespace("riemdp")))) return(nm)
    abort("`release` must be one of \"frechet_mean\", \"geodesic_regression\", \"linear_regression\" (or dp_frechet_mean, dp_geodesic_regression, dp_linear_regression)", call)
  }
  arg_match(release, accuracy_releases, "release", call)
}

accuracy_public <- function(pub, release, call) {
  nms <- names(pub)
  if (length(pub) && (is.null(nms) || any(!nzchar(nms))))
    abort("the public parameters in `...` must be named, as in the release function (e.g. epsilon = 1)", call)
  data_given <- intersect(nms, accuracy_data_args)
  if (length(data_given))
    abort(sprintf("dp_accuracy() takes no data: %s %s not accepted. It predicts the error from public parameters, n and an assumed `spread` only; pass those, and run the release itself on the data",
                  paste0("`", data_given, "`", collapse = ", "), if (length(data_given) == 1L) "is" else "are"), call)
  if ("bounds" %in% nms)
    abort("`bounds` (bounds found privately) is not supported by dp_accuracy(): state the public bounds (e.g. `center`, `radius`, `tau`) you plan to use, or the ones dp_find_bounds() would give", call)
  if ("diagnostics" %in% nms)
    abort("`diagnostics` is not used by dp_accuracy(): drop it", call)
  allowed <- accuracy_public_args[[release]]
  bad <- setdiff(nms, allowed)
  if (length(bad))
    abort(sprintf("%s %s not a public parameter of dp_%s() known to dp_accuracy(); use %s",
                  paste0("`", bad, "`", collapse = ", "), if (length(bad) == 1L) "is" else "are", release,
                  paste0("`", allowed, "`", collapse = ", ")), call)
  if (anyDuplicated(nms)) abort("the public parameters in `...` must be named once each", call)
  pub
}

# Column labels of the quantiles: "50%", "97.5%" (each formatted alone).
accuracy_prob_labels <- function(probs) {
  vapply(probs, function(p) paste0(format(100 * p, digits = 15, trim = TRUE), "%"), character(1))
}

accuracy_probs <- function(probs, call) {
  if (!is.numeric(probs) || !length(probs) || !all(is.finite(probs)) || any(probs <= 0 | probs >= 1))
    abort("`probs` must be numbers strictly between 0 and 1", call)
  sort(unique(c(probs, 0.5, 0.9)))
}

# Quantiles with 95% Monte Carlo intervals from the order statistics: the
# number B of draws below the q-quantile is Binomial(reps, q), and
# [X_(l), X_(u)] with l = qbinom(0.025), u = qbinom(0.975) + 1 covers it with
# probability P(l <= B < u) >= 0.95; a bound beyond the draws (l = 0 or
# u > reps) is NA.
accuracy_quantiles <- function(E, probs) {
  R <- nrow(E)
  lab <- accuracy_prob_labels(probs)
  q <- lower <- upper <- matrix(NA_real_, ncol(E), length(probs), dimnames = list(colnames(E), lab))
  for (j in seq_len(ncol(E))) {
    s <- sort(E[, j])
    q[j, ] <- stats::quantile(s, probs, names = FALSE, type = 7)
    lo <- stats::qbinom(0.025, R, probs)
    hi <- stats::qbinom(0.975, R, probs) + 1
    lower[j, ] <- ifelse(lo >= 1, s[pmax(lo, 1)], NA_real_)
    upper[j, ] <- ifelse(hi <= R, s[pmin(hi, R)], NA_real_)
  }
  list(q = q, lower = lower, upper = upper)
}

# The simulation routes release on n synthetic points `reps` times: n is
# capped so that a call cannot run for hours (the error shrinks like 1/n:
# predict at the cap and scale).
accuracy_max_sim_n <- 1e6
accuracy_check_sim_n <- function(n, call) {
  if (n > accuracy_max_sim_n)
    abort(sprintf("`n` = %s is above %s, the largest sample size dp_accuracy() simulates (each of `reps` releases runs on n synthetic points; at 1e6 one release takes about a minute). The errors shrink like 1/n: predict at n = %s and scale by %s / n",
                  format(n, big.mark = ","), format(accuracy_max_sim_n, big.mark = ","),
                  format(accuracy_max_sim_n, scientific = FALSE), format(accuracy_max_sim_n, scientific = FALSE)), call)
}

# Rethrow an error of a release (on synthetic data) with dp_accuracy()'s call.
accuracy_try <- function(expr, call) {
  tryCatch(expr, riemdp_error = function(e) abort(conditionMessage(e), call))
}

# The loop of simulations: `one()` returns a named numeric vector of errors.
accuracy_loop <- function(reps, one, verbose, what) {
  out <- NULL
  if (verbose) {
    cli::cli_progress_bar(sprintf("Simulating %s", what), total = reps, .envir = environment())
  }
  for (i in seq_len(reps)) {
    e <- one()
    if (is.null(out)) out <- matrix(NA_real_, reps, length(e), dimnames = list(NULL, names(e)))
    out[i, ] <- e
    if (verbose) cli::cli_progress_update(.envir = environment())
  }
  out
}

## --- point sets as D x n matrices (one column per point) --------------------

acc_set <- function(x) {
  x <- as.matrix(x)
  storage.mode(x) <- "double"
  list(x = x, n = ncol(x), by_row = FALSE)
}
acc_exp <- function(M, P, V) matrix(geom_exp(M, acc_set(P), acc_set(V), FALSE), M$ambient)
acc_transport <- function(M, P, Q, V) matrix(geom_transport(M, acc_set(P), acc_set(Q), acc_set(V), FALSE), M$ambient)
acc_layout <- function(M, Xc) {
  if (is.null(M$point_shape)) t(Xc) else array(Xc, c(M$point_shape, ncol(Xc)))
}
acc_point <- function(M, p, arg, call) {
  P <- as_points(M, p, arg, call)
  if (P$n != 1L) abort(sprintf("`%s` must be a single point", arg), call)
  as.double(P$x)
}

# n points Exp_base(z), z isotropic Gaussian in T_base M with E|z|^2 = rms^2,
# redrawn while farther than `radius` from C, for at most 100 rounds; what
# is still outside then is moved to the ball's boundary (as outside =
# "clip" does), so the call never fails at random.
acc_cloud <- function(M, base, rms, n, C, radius, call) {
  B <- geom_tangent_basis(M, acc_set(base))
  d <- ncol(B)
  out <- matrix(NA_real_, M$ambient, n)
  need <- seq_len(n)
  for (round in 1:100) {
    k <- length(need)
    Z <- matrix(stats::rnorm(d * k), d) * (rms / sqrt(d))
    P <- acc_exp(M, base, B %*% Z)
    ok <- geom_dist(M, acc_set(C), acc_set(P)) <= radius
    out[, need[ok]] <- P[, ok, drop = FALSE]
    need <- need[!ok]
    if (!length(need)) return(out)
  }
  rest <- acc_set(P[, !ok, drop = FALSE])
  out[, need] <- priv_clip_to_ball(M, acc_set(C), radius, rest, FALSE)
  out
}

# Covariate design on [0, 1]: uniform, or a Beta law with mean m and sd s
# (on the mapped scale).
acc_design <- function(n, m, s, arg, call) {
  if (is.null(m) && is.null(s)) return(stats::runif(n))
  if (is.null(m)) m <- 0.5
  if (is.null(s)) s <- sqrt(1 / 12)
  if (!(m > 0 && m < 1 && s > 0 && s^2 < m * (1 - m)))
    abort(sprintf("`spread$x_mean` and `spread$x_sd` %s must describe a law inside the public range: a mean strictly inside it and a standard deviation below sqrt((mean - lower) (upper - mean))",
                  arg), call)
  ab <- beta_shapes(m, s)
  stats::rbeta(n, ab[1], ab[2])
}

acc_spread <- function(spread, names_ok, required, call, arg = "spread") {
  if (is.null(spread)) abort(sprintf("`%s` is required: a list with %s (the assumed spread of the data)", arg,
                                     paste0("`", required, "`", collapse = ", ")), call)
  if (is.numeric(spread) && !is.null(names(spread))) spread <- as.list(spread)
  if (!is.list(spread) || is.null(names(spread)) || any(!nzchar(names(spread))))
    abort(sprintf("`%s` must be a named list with %s", arg, paste0("`", c(required, setdiff(names_ok, required)), "`", collapse = ", ")), call)
  bad <- setdiff(names(spread), names_ok)
  if (length(bad)) abort(sprintf("`%s` has unknown entries %s; use %s", arg, paste0("`", bad, "`", collapse = ", "),
                                 paste0("`", names_ok, "`", collapse = ", ")), call)
  for (r in required) if (is.null(spread[[r]])) abort(sprintf("`%s$%s` is required", arg, r), call)
  for (nm in names(spread)) {
    v <- spread[[nm]]
    if (!is.numeric(v) || !length(v) || !all(is.finite(v)) || any(v < 0))
      abort(sprintf("`%s$%s` must be finite numbers >= 0", arg, nm), call)
  }
  spread
}

## --- Fréchet mean -------------------------------------------------------------

accuracy_frechet <- function(M, n, pub, spread, location, reps, verbose, call) {
  for (a in c("center", "radius"))
    if (is.null(pub[[a]])) abort(sprintf("`%s` is required: a public parameter of the release", a), call)
  mech <- arg_match(pub$mechanism %||% "laplace", c("laplace", "kng", "gaussian"), "mechanism", call)
  pub$mechanism <- mech
  C <- acc_point(M, pub$center, "center", call)
  radius <- check_positive(pub$radius, "radius", call)
  loc <- if (is.null(location)) C else acc_point(M, location, "location", call)
  if (geom_dist(M, acc_set(C), acc_set(loc)) > radius)
    abort(sprintf("`location` must lie within `radius` = %s of `center`: the public ball holds the data", format(radius, digits = 4)), call)
  if (!is.null(spread) && !(is.numeric(spread) && length(spread) == 1L && is.finite(spread) && spread >= 0))
    abort("`spread` must be NULL or a single finite number >= 0 for a Fr\u00e9chet mean: the assumed root mean square distance of the points from their centre", call)
  if (mech != "kng") {
    # The error's law does not depend on the data: the release's sigma from
    # public numbers (n, radius, epsilon or mu or sigma), then draws of the
    # law the release draws from (its exact sampler, or its chain on spd
    # where the exact one is too slow), centred at `location`.
    normalizer <- arg_match(pub$normalizer %||% "conservative", c("conservative", "footprint_free"), "normalizer", call)
    method <- arg_match(pub$method %||% "auto", c("auto", "exact", "mh"), "method", call)
    if (!is.null(pub$outside)) arg_match(pub$outside, c("error", "clip"), "outside", call)
    if (!is.null(pub$control)) check_control(pub$control, call)
    check_ball_resolved(M, acc_set(C), radius, call)
    sens <- frechet_sensitivities(M, n, radius, call)
    noise <- frechet_release_noise(M, n, radius, sens, mech, normalizer, pub$epsilon, pub$sigma, pub$mu, call)
    ctl <- pub$control %||% mcmc_control()
    ctl$thin <- ctl$n_iter  # as a release: the state after burn_in + n_iter iterations
    exact_route <- method == "exact" ||
      (method == "auto" && (!(M$type == "spd" && M$k >= 2L) ||
                              spd_exact_preferred(M$k, mech, noise$sigma, spd_exact_release_min_acceptance)))
    if (is.null(reps)) reps <- if (exact_route) 10000L else 200L
    draws <- accuracy_try(riem_rradial(M, reps, acc_layout(M, matrix(loc, M$ambient, 1L)), noise$sigma, method, ctl,
                                       mech, call, spd_exact_release_min_acceptance), call)
    D <- matrix(geom_dist(M, acc_set(loc), as_set(M, draws, "draws", call)), ncol = 1L,
                dimnames = list(NULL, "distance"))
    route <- if (identical(attr(draws, "method"), "exact")) "exact" else "chain"
    return(list(errors = D, route = route, sigma = noise$sigma, mechanism = mech, spread = NULL,
                location = loc, target = "the Fr\u00e9chet mean of the data"))
  }
  accuracy_check_sim_n(n, call)
  rel_fun <- function(X) accuracy_try(do.call(dp_frechet_mean, c(list(M, X), pub)), call)
  if (is.null(spread))
    abort("`spread` is required for the K-norm gradient mechanism: the assumed root mean square distance of the points from their centre", call)
  if (spread > radius)
    abort(sprintf("`spread` = %s exceeds `radius` = %s: the data are assumed to lie in the public ball, so their root mean square distance from its centre is at most the radius; assume a smaller spread (or a larger radius)",
                  format(spread, digits = 4), format(radius, digits = 4)), call)
  if (is.null(reps)) reps <- 200L
  sigma <- NA_real_
  one <- function() {
    Xc <- acc_cloud(M, loc, spread, n, C, radius, call)
    X <- acc_layout(M, Xc)
    fm <- accuracy_try(frechet_mean(M, X), call)
    rel <- rel_fun(X)
    sigma <<- rel$sigma
    c(distance = geom_dist(M, as_set(M, coef(fm), "fit"), as_set(M, coef(rel), "release")))
  }
  D <- accuracy_loop(reps, one, verbose, "releases")
  list(errors = D, route = "simulation", sigma = sigma, mechanism = mech, spread = c(rms = unname(spread)),
       location = loc, target = "the Fr\u00e9chet mean of the data (in the ball)")
}

## --- geodesic regression ------------------------------------------------------

accuracy_geodesic <- function(M, n, pub, spread, location, reps, verbose, call) {
  accuracy_check_sim_n(n, call)
  for (a in c("epsilon", "tau", "tau_m", "x_range", "center", "radius"))
    if (is.null(pub[[a]])) abort(sprintf("`%s` is required: a public parameter of the release", a), call)
  xr <- check_range(pub$x_range, "x_range", call)
  tau <- check_positive(pub$tau, "tau", call)
  tau_m <- check_positive(pub$tau_m, "tau_m", call)
  radius <- check_positive(pub$radius, "radius", call)
  C <- acc_point(M, pub$center, "center", call)
  loc <- if (is.null(location)) C else acc_point(M, location, "location", call)
  if (geom_dist(M, acc_set(C), acc_set(loc)) > radius)
    abort(sprintf("`location` must lie within `radius` = %s of `center`: the fit at `x_range[1]` lies in that ball", format(radius, digits = 4)), call)
  spread <- acc_spread(spread, c("noise", "slope", "x_mean", "x_sd"), "noise", call)
  for (nm in names(spread)) if (length(spread[[nm]]) != 1L) abort(sprintf("`spread$%s` must be a single number", nm), call)
  slope <- spread$slope %||% 0
  if (slope > tau_m)
    abort(sprintf("`spread$slope` = %s exceeds `tau_m` = %s: the release's domain holds no such fit", format(slope), format(tau_m)), call)
  w <- xr[2] - xr[1]
  xm <- if (!is.null(spread$x_mean)) (spread$x_mean - xr[1]) / w
  xs <- if (!is.null(spread$x_sd)) spread$x_sd / w
  if (!is.null(xm) || !is.null(xs)) acc_design(1L, xm, xs, "", call)  # check once, before the loop
  if (is.null(reps)) reps <- 200L
  B <- geom_tangent_basis(M, acc_set(loc))
  d <- ncol(B)
  grid <- seq(0, 1, length.out = 21)
  sigma <- NA_real_
  one <- function() {
    u <- acc_design(n, xm, xs, "", call)
    dir <- stats::rnorm(d)
    v0 <- B %*% (dir / sqrt(sum(dir^2))) * slope
    G <- acc_exp(M, loc, v0 %*% t(u))
    Z <- matrix(stats::rnorm(d * n), d) * (spread$noise / sqrt(d))
    W <- acc_transport(M, loc, G, B %*% Z)
    Y <- acc_layout(M, acc_exp(M, G, W))
    x <- pmin(pmax(xr[1] + u * w, xr[1]), xr[2])
    fit <- accuracy_try(geodesic_regression(M, u, Y, loss = "huber", c = tau, scale = 1), call)
    rel <- accuracy_try(do.call(dp_geodesic_regression, c(list(M, x, Y), pub)), call)
    sigma <<- rel$sigma
    accuracy_geodesic_errors(M, fit$footpoint, fit$shooting, rel$footpoint_range, rel$shooting_range, grid)
  }
  D <- accuracy_loop(reps, one, verbose, "releases")
  list(errors = D, route = "simulation", sigma = sigma, mechanism = "kng", spread = unlist(spread),
       location = loc, target = "the Huber geodesic fit with clip tau (least squares when no residual exceeds tau)")
}

# Errors of a released geodesic (p1, v1) against the fit (p0, v0), both at the
# mapped covariate 0 with velocities across the whole range (see
# ?dp_accuracy); used by dp_accuracy() and by bench/accuracy-validation.R.
accuracy_geodesic_errors <- function(M, p0, v0, p1, v1, grid = seq(0, 1, length.out = 21)) {
  f0 <- riem_geodesic(M, p0, v0, grid)
  f1 <- riem_geodesic(M, p1, v1, grid)
  dd <- riem_dist(M, f0, f1)
  vt <- riem_transport(M, p0, p1, v0)
  if (M$type == "kendall") {
    # riem_transport() returns a vector at the preshape of p1 aligned with p0;
    # rotate the release's (p1, v1) into that representative.
    q <- riem_exp(M, p0, riem_log(M, p0, p1))
    zc <- function(A) { A <- as.matrix(A); complex(real = A[, 1], imaginary = A[, 2]) }
    P1 <- as_points(M, p1, "p1")
    z1 <- zc(from_values(M, P1$x, 1L, TRUE))
    rot <- exp(1i * Arg(sum(Conj(z1) * zc(q))))
    w <- zc(v1) * rot
    v1 <- cbind(Re(w), Im(w))
    p1 <- q
  }
  dv <- vt
  dv[] <- as.double(vt) - as.double(v1)
  c(footpoint = dd[1L], endpoint = dd[length(dd)],
    shooting = sqrt(max(0, riem_inner(M, p1, dv, dv))),
    prediction = sqrt(mean(dd^2)))
}

## --- linear regression --------------------------------------------------------

accuracy_linear <- function(n, pub, spread, location, reps, verbose, call) {
  accuracy_check_sim_n(n, call)
  for (a in c("epsilon", "tau", "x_range", "beta_max"))
    if (is.null(pub[[a]])) abort(sprintf("`%s` is required: a public parameter of the release", a), call)
  tau <- check_positive(pub$tau, "tau", call)
  R <- accuracy_linear_ranges(pub$x_range, call)
  m <- ncol(R)
  pnames <- colnames(R)
  spread <- acc_spread(spread, c("sd", "x_mean", "x_sd"), "sd", call)
  if (length(spread$sd) != 1L) abort("`spread$sd` must be a single number", call)
  per_pred <- function(v, what) {
    if (is.null(v)) return(rep(list(NULL), m))
    if (length(v) != m) abort(sprintf("`spread$%s` must hold one value per predictor (%d)", what, m), call)
    if (!is.null(names(v))) {
      if (!setequal(names(v), pnames)) abort(sprintf("`spread$%s` must be named after the predictors of `x_range` (%s)", what, paste(pnames, collapse = ", ")), call)
      v <- v[pnames]
    }
    as.list(as.double(v))
  }
  w <- R[2L, ] - R[1L, ]
  xm <- per_pred(spread$x_mean, "x_mean")
  xs <- per_pred(spread$x_sd, "x_sd")
  for (j in seq_len(m)) {
    if (!is.null(xm[[j]])) xm[[j]] <- (xm[[j]] - R[1L, j]) / w[j]
    if (!is.null(xs[[j]])) xs[[j]] <- xs[[j]] / w[j]
    if (!is.null(xm[[j]]) || !is.null(xs[[j]])) acc_design(1L, xm[[j]], xs[[j]], sprintf("(predictor `%s`)", pnames[j]), call)
  }
  beta <- if (is.null(location)) rep(0, m + 1L) else location
  if (!is.numeric(beta) || length(beta) != m + 1L || !all(is.finite(beta)))
    abort(sprintf("`location` must be %d finite coefficients, intercept first, as lm() reports them", m + 1L), call)
  # the release's box: the fit at the lower corner and the change across
  # each range, |beta^u_j| <= beta_max (?dp_linear_regression)
  beta_max <- check_positive(pub$beta_max, "beta_max", call)
  beta_u <- c(beta[1L] + sum(beta[-1L] * R[1L, ]), beta[-1L] * w)
  if (any(abs(beta_u) > beta_max))
    abort(sprintf("`location` lies outside the release's public box: the fit at the lower corner of `x_range` and its change across each range are %s, and `beta_max` = %s bounds each in absolute value; assume coefficients inside the box (or a larger beta_max)",
                  paste(format(beta_u, digits = 4, trim = TRUE), collapse = ", "), format(beta_max, digits = 4)), call)
  if (is.null(reps)) reps <- 200L
  resp <- if (".y" %in% pnames) "..y" else ".y"
  fml <- stats::reformulate(sprintf("`%s`", pnames), response = resp)
  mid <- (R[1L, ] + R[2L, ]) / 2
  sigma <- NA_real_
  one <- function() {
    U <- vapply(seq_len(m), function(j) acc_design(n, xm[[j]], xs[[j]], "", call), numeric(n))
    U <- matrix(U, n, m)
    X <- sweep(sweep(U, 2L, w, `*`), 2L, R[1L, ], `+`)
    for (j in seq_len(m)) X[, j] <- pmin(pmax(X[, j], R[1L, j]), R[2L, j])
    y <- drop(beta[1L] + X %*% beta[-1L]) + stats::rnorm(n, 0, spread$sd)
    df <- data.frame(X, y, check.names = FALSE)
    names(df) <- c(pnames, resp)
    rel <- accuracy_try(do.call(dp_linear_regression, c(list(fml, df), pub[names(pub) != "x_range"],
                                                        list(x_range = R))), call)
    sigma <<- rel$sigma
    b_hat <- huber_linear_fit(cbind(1, X), y, tau)
    accuracy_linear_errors(coef(rel) - b_hat, R, c("(Intercept)", pnames))
  }
  D <- accuracy_loop(reps, one, verbose, "releases")
  list(errors = D, route = "simulation", sigma = sigma, mechanism = "kng", spread = unlist(spread),
       location = stats::setNames(beta, c("(Intercept)", pnames)),
       target = "the Huber regression fit with clip tau (the lm() fit when no residual exceeds tau)")
}

# The public ranges as a 2 x m matrix with the predictors' names.
accuracy_linear_ranges <- function(x_range, call) {
  if (is.list(x_range)) {
    if (is.null(names(x_range)) || any(!nzchar(names(x_range))))
      abort("`x_range` must name its predictors, e.g. list(depth = c(0, 700))", call)
    R <- vapply(names(x_range), function(nm) check_range(x_range[[nm]], sprintf("x_range$%s", nm), call), numeric(2))
  } else if (is.matrix(x_range)) {
    if (nrow(x_range) != 2L) abort("`x_range` must be c(lower, upper), a matrix with two rows (one column per predictor) or a named list", call)
    R <- vapply(seq_len(ncol(x_range)), function(j) check_range(x_range[, j], "x_range", call), numeric(2))
    colnames(R) <- colnames(x_range) %||% paste0("x", seq_len(ncol(x_range)))
  } else {
    R <- matrix(check_range(x_range, "x_range", call), 2L, 1L, dimnames = list(NULL, "x"))
  }
  R <- matrix(R, 2L, dimnames = list(c("lower", "upper"), colnames(R)))
  if (anyDuplicated(colnames(R))) abort("`x_range` must name each predictor once", call)
  R
}

# The Huber regression fit (clip tau, scale 1) by Newton steps from least
# squares: the estimate dp_linear_regression() concentrates on.
huber_linear_fit <- function(X1, y, tau, max_iter = 200L) {
  loss <- function(th) {
    a <- abs(drop(y - X1 %*% th))
    sum(ifelse(a <= tau, a^2 / 2, tau * a - tau^2 / 2))
  }
  th <- qr.coef(qr(X1), y)
  th[is.na(th)] <- 0
  f <- loss(th)
  for (it in seq_len(max_iter)) {
    r <- drop(y - X1 %*% th)
    inside <- abs(r) < tau
    g <- crossprod(X1, pmin(pmax(r, -tau), tau))
    H <- crossprod(X1[inside, , drop = FALSE])
    # Newton step on the clipped normal equations, damped until the Huber
    # loss decreases (plain Newton can overshoot when many residuals clip)
    step <- tryCatch(drop(solve(H, g)), error = function(e) drop(g) / max(1, sum(X1^2)))
    t <- 1
    repeat {
      cand <- th + t * step
      fc <- loss(cand)
      if (fc <= f || t < 1e-10) break
      t <- t / 2
    }
    done <- max(abs(cand - th)) <= 1e-12 * (1 + max(abs(th)))
    th <- cand
    f <- fc
    if (done) break
  }
  unname(drop(th))
}

# Errors of released coefficients: `delta` = release - fit (lm() layout).
# prediction: root mean square of delta_0 + sum_j delta_j x_j over x uniform
# on the box of public ranges R (exact); then |delta_j|.
accuracy_linear_errors <- function(delta, R, nms) {
  delta <- as.double(delta)
  mid <- (R[1L, ] + R[2L, ]) / 2
  w <- R[2L, ] - R[1L, ]
  pred <- sqrt((delta[1L] + sum(delta[-1L] * mid))^2 + sum(delta[-1L]^2 * w^2) / 12)
  stats::setNames(c(pred, abs(delta)), c("prediction", nms))
}

## --- methods ----------------------------------------------------------------

#' @export
format.riemdp_accuracy <- function(x, digits = 3L, ...) {
  tab <- signif(x$quantiles, digits)
  # (NA where a bound is missing, or the quantile is 0: no relative width)
  mc <- signif(100 * pmax(x$upper - x$quantiles, x$quantiles - x$lower) / abs(x$quantiles), 2)
  mc[!is.finite(mc)] <- NA_real_
  out <- as.data.frame(tab, check.names = FALSE)
  out[["MC +-% (median)"]] <- mc[, "50%"]
  out
}

#' @export
print.riemdp_accuracy <- function(x, digits = 3L, ...) {
  rel <- switch(x$release, frechet_mean = "dp_frechet_mean()", geodesic_regression = "dp_geodesic_regression()",
                linear_regression = "dp_linear_regression()")
  cat(sprintf("<riemdp accuracy plan> %s on %s, n = %s%s\n", rel,
              if (x$release == "linear_regression") "R (linear model)" else manifold_label(x$manifold),
              format(x$n, big.mark = ","),
              if (!is.null(x$mechanism) && x$release == "frechet_mean") sprintf(", mechanism \"%s\"", x$mechanism) else ""))
  pubs <- x$public[!names(x$public) %in% c("center", "control", "mechanism")]
  fmt <- vapply(pubs, function(v) {
    if (is.list(v)) v <- unlist(v)
    paste(format(v, digits = 4), collapse = " ")
  }, character(1))
  if (length(fmt)) cat(strwrap(paste("Public parameters:", paste(names(fmt), fmt, sep = " = ", collapse = "; ")),
                               exdent = 2), sep = "\n")
  if (is.finite(x$sigma %||% NA_real_)) cat(sprintf("Noise rate sigma = %s (the release's own)\n", format(x$sigma, digits = 4)))
  if (x$route == "exact") {
    cat(strwrap(sprintf("Route: exact. The error's law does not depend on the data; %s exact draws of the radial part of the mechanism's law (no synthetic data).",
                        format(x$reps, big.mark = ",")), exdent = 2), sep = "\n")
  } else if (x$route == "chain") {
    cat(strwrap(sprintf("Route: the error's law does not depend on the data; %s draws of the mechanism's law by the chain the release uses (no synthetic data).", format(x$reps, big.mark = ",")), exdent = 2), sep = "\n")
  } else {
    sp <- paste(names(x$spread), format(x$spread, digits = 4), sep = " = ", collapse = ", ")
    cat(strwrap(sprintf("Route: %s simulated releases on synthetic data with the assumed spread (%s) inside the public bounds.",
                        x$reps, sp), exdent = 2), sep = "\n")
  }
  cat(strwrap(sprintf("Error: against %s; distances%s. Public computation only: no data used, no budget spent.",
                      x$target,
                      if (x$release == "linear_regression") " in the response's units (coefficients in theirs)"
                      else if (x$scale == 1 && is.null(x$units)) " in the manifold's distance"
                      else sprintf(" x %s%s", format(x$scale), if (is.null(x$units)) "" else sprintf(" (%s)", x$units))),
              exdent = 2), sep = "\n")
  cat("Predicted quantiles of the error:\n")
  print(format(x, digits = digits), row.names = TRUE)
  cat(sprintf("(MC +-%%: half-width of the 95%% Monte Carlo interval of the median, in %% of it%s)\n",
              if (anyNA(format(x, digits = digits)[["MC +-% (median)"]])) "; NA: too few `reps` for that interval, or a median of 0" else ""))
  invisible(x)
}

#' @export
summary.riemdp_accuracy <- function(object, ...) {
  list(quantiles = object$quantiles, lower = object$lower, upper = object$upper, reps = object$reps,
       route = object$route)
}

#' @export
quantile.riemdp_accuracy <- function(x, probs = c(0.5, 0.9), ...) {
  t(apply(x$errors, 2L, stats::quantile, probs = probs, names = TRUE, ...))
}

#' @export
plot.riemdp_accuracy <- function(x, measure = x$measures[1L], main = NULL, ...) {
  if (!(is.character(measure) && length(measure) == 1L && measure %in% x$measures))
    abort(sprintf("`measure` must be one of %s", paste0("\"", x$measures, "\"", collapse = ", ")), sys.call())
  e <- x$errors[, measure]
  unit <- if (x$scaled[[measure]] && !is.null(x$units)) sprintf(" (%s)", x$units) else ""
  graphics::plot(stats::ecdf(e), main = main %||% sprintf("Predicted error: %s, n = %s", measure, x$n),
                 xlab = paste0(measure, unit), ylab = "probability", do.points = FALSE, verticals = TRUE, ...)
  q <- x$quantiles[measure, c("50%", "90%")]
  graphics::abline(v = q, lty = c(1, 2), col = "red3")
  graphics::legend("bottomright", bty = "n", lty = c(1, 2), col = "red3",
                   legend = sprintf(c("median %s", "90%% quantile %s"), format(q, digits = 3)))
  invisible(x)
}
