# Inference for a private linear regression (dp_linear_regression()): the
# private moments of its data, and intervals and tests by the parametric
# bootstrap from the release (Ferrando, Wang & Sheldon 2022).

#' Private moments of a regression's data, for its intervals and tests
#'
#' Releases what the intervals and tests of a private regression need to
#' know about the data beyond the release itself. For [dp_linear_regression()]:
#' the means and covariances of the predictors and the mean absolute
#' residual about the release; for [dp_geodesic_regression()]: the
#' covariate's mean and variance and the mean geodesic distance of the
#' points from the released geodesic. Each is an average of values that lie
#' in \eqn{[0, 1]}{[0, 1]}, so one Laplace mechanism releases them together
#' at a cost of `epsilon`, which [dp_budget()] adds to the release's.
#'
#' **What is released.** With \eqn{u_{ij}}{u_ij} predictor \eqn{j}{j} of
#' record \eqn{i}{i} mapped onto \eqn{[0, 1]}{[0, 1]} by its public range
#' (`x_range` of the release; dummies of factors as they are),
#' \eqn{r_i}{r_i} the residual of record \eqn{i}{i} about the released
#' coefficients and \eqn{c}{c} = `residual_bound`: the \eqn{k = m + m(m+1)/2
#' + 1}{k = m + m (m + 1) / 2 + 1} averages of \eqn{u_{ij}}{u_ij},
#' the products about the middle of the ranges mapped onto \eqn{[0, 1]}{[0, 1]}
#' (\eqn{4(u_{ij} - 1/2)^2}{4 (u_ij - 1/2)^2}, and \eqn{(4(u_{ij} -
#' 1/2)(u_{il} - 1/2) + 1)/2}{(4 (u_ij - 1/2)(u_il - 1/2) + 1) / 2} for
#' \eqn{j < l}{j < l}) and
#' \eqn{\min(|r_i|, c)/c}{min(|r_i|, c) / c}, each plus Laplace
#' noise of scale \eqn{k/(n\varepsilon)}{k / (n epsilon)}. For a geodesic
#' release \eqn{k = 3}{k = 3}: \eqn{u_i}{u_i}, \eqn{4(u_i - 1/2)^2}{4 (u_i - 1/2)^2} and
#' \eqn{\min(d_i, c)/c}{min(d_i, c) / c}, \eqn{d_i}{d_i} the distance of point
#' \eqn{i}{i} from the released geodesic at its covariate. Replacing one
#' record moves each average by at most \eqn{1/n}{1/n}, so the vector's
#' \eqn{L_1}{L1} sensitivity is \eqn{k/n}{k / n} and the release is
#' \eqn{\varepsilon}{epsilon}-DP (Dwork & Roth 2014, Thm 3.6). The residuals
#' are taken about the release, public once released (post-processing).
#'
#' @param object A release of [dp_linear_regression()] or
#'   [dp_geodesic_regression()] (public bounds; for a geodesic regression
#'   `scheme = "joint"`).
#' @param data For a linear release: the data frame it was computed from.
#' @param epsilon The privacy budget of the moments (a single finite number
#'   \eqn{> 0}{> 0}); a tenth to a quarter of the release's is typical.
#' @param residual_bound The public clip \eqn{c > 0}{c > 0} of the residuals'
#'   absolute values (linear: in the units of the response; geodesic: of the
#'   distances). The default, four times the release's `tau`, keeps Gaussian
#'   residuals whose standard deviation is below `tau` essentially
#'   unclipped; a clip below the residuals' spread makes the residual scale,
#'   and the intervals, too small, and a larger clip adds noise in
#'   proportion.
#' @param x,Y For a geodesic release: the covariate and the points it was
#'   computed from.
#' @return An object of class `c("riemdp_moments_release", "riemdp_release")`
#'   (geodesic: with `"riemdp_geodesic_moments_release"` first). Linear:
#'   `x_mean` and `x_cov` (the predictors' private mean and covariance, in
#'   their own units; a covariance within two noise standard deviations of 0
#'   is taken as 0, and the matrix projected onto the positive semidefinite
#'   ones), `residual_sd` (the residuals' standard
#'   deviation, \eqn{\sqrt{\pi/2}}{sqrt(pi / 2)} times their private mean
#'   absolute value clipped at `residual_bound`, as for Gaussian residuals),
#'   `dummy`. Geodesic: `x_mean`, `x_sd` and `residual_rms` (the root mean
#'   square of an isotropic Gaussian tangent residual with the private mean
#'   distance). Both: `raw` (the noisy averages), `about` (the release's
#'   parameters), `scale` (the Laplace scale), `residual_bound`, `x_range`,
#'   `epsilon`, `sensitivity`, `n`, `guarantee`, `guarantee_kind` and
#'   `call`. It is the `moments` of
#'   [confint()][confint.riemdp_linear_release] and
#'   [summary()][summary.riemdp_linear_release] of a linear release and of
#'   [summary()][summary.riemdp_regression_release] of a geodesic one.
#' @references Dwork, C. and Roth, A. (2014). The algorithmic foundations of
#'   differential privacy. *Foundations and Trends in Theoretical Computer
#'   Science* 9; Ferrando, C., Wang, S. and Sheldon, D. (2022). Parametric
#'   bootstrap for differentially private confidence intervals. *AISTATS*.
#' @seealso [confint()][confint.riemdp_linear_release],
#'   [summary()][summary.riemdp_regression_release], [dp_budget()].
#' @examples
#' rel <- dp_linear_regression(dist ~ speed, cars, epsilon = 2, tau = 30,
#'                             x_range = c(0, 30), beta_max = 200)
#' mom <- dp_regression_moments(rel, cars, epsilon = 0.5)
#' mom
#' dp_budget(rel, mom)
#' @export
dp_regression_moments <- function(object, data, epsilon, residual_bound = 4 * object$tau, x, Y) {
  call <- call_without_data(match.call(), c("data", "x", "Y"), "dp_regression_moments")
  geodesic <- inherits(object, "riemdp_regression_release")
  if (!inherits(object, "riemdp_linear_release") && !geodesic)
    abort("`object` must be a release of dp_linear_regression() or dp_geodesic_regression() (the moments are taken about it)", call)
  if (!is.null(object$bounds_stages))
    abort("`object` found its bounds privately: intervals and tests for such a release are not available yet; release with public bounds", call)
  if (geodesic && !identical(object$scheme, "joint"))
    abort("`object` was released with scheme = \"paper\", which is not differentially private: its tests would have no meaning; release with scheme = \"joint\"", call)
  if (missing(epsilon)) abort("`epsilon` is required: the privacy budget of the moments (a single finite number > 0)", call)
  epsilon <- check_positive(epsilon, "epsilon", call)
  residual_bound <- check_positive(residual_bound, "residual_bound", call)
  if (geodesic) {
    if (!missing(data))
      abort("`data` is for a linear release: for a geodesic release pass the covariate and the points as `x` and `Y`, as to dp_geodesic_regression()", call)
    if (missing(x) || missing(Y)) abort("`x` and `Y` are required: the covariate and the points the release was computed from", call)
    return(geodesic_moments(object, x, Y, epsilon, residual_bound, call))
  }
  if (!missing(x) || !missing(Y)) abort("`x` and `Y` are for a geodesic release: for a linear release pass `data`", call)
  if (missing(data) || !is.data.frame(data)) abort("`data` must be the data frame the release was computed from", call)
  md <- linear_release_model_data(object, data, call)
  R <- object$x_range
  m <- ncol(R)
  n <- length(md$y)
  U <- md$X
  for (j in seq_len(m)) U[, j] <- (U[, j] - R[1L, j]) / (R[2L, j] - R[1L, j])
  pairs <- moment_pairs(m)
  k <- m + nrow(pairs) + 1L
  scale <- k / (n * epsilon)
  if (!is.finite(scale)) abort(sprintf("`epsilon` = %s is too small: the noise scale overflows double precision", format(epsilon)), call)
  # The data enter only here: the averages, then the noise.
  r <- md$y - drop(cbind(1, md$X) %*% object$coefficients)
  e <- pmin(abs(r), residual_bound) / residual_bound
  avg <- c(colMeans(U), colMeans(centred_products(U, pairs)), mean(e))
  raw <- avg + scale * (stats::rexp(k) - stats::rexp(k))
  rm(md, U, r, e, avg)
  mom <- moments_from_raw(raw, m, pairs, R, residual_bound, scale)
  structure(list(x_mean = mom$x_mean, x_cov = mom$x_cov, residual_sd = mom$residual_sd, raw = raw, scale = scale,
                 residual_bound = residual_bound, x_range = R, dummy = object$dummy %||% rep(FALSE, m),
                 about = object$coefficients,
                 guarantee = "epsilon-DP", guarantee_kind = "exact", epsilon = epsilon, sensitivity = k / n,
                 n = n, call = call),
            class = c("riemdp_moments_release", "riemdp_release"))
}

# The pairs (j, l), j <= l, of the predictors' second moments, in the
# order of the released averages.
moment_pairs <- function(m) {
  pairs <- which(upper.tri(diag(m), diag = TRUE), arr.ind = TRUE)
  pairs[order(pairs[, "row"], pairs[, "col"]), , drop = FALSE]
}

# The second moments about the middle of the public ranges, mapped onto
# [0, 1]: 4 (u_j - 1/2)^2 for j = l, (4 (u_j - 1/2)(u_l - 1/2) + 1) / 2
# otherwise. About the middle, the covariance's error from the noise of the
# means is small, and the map spends the whole of [0, 1] (4 and 2 times less
# noise than raw products u_j u_l).
centred_products <- function(U, pairs) {
  V <- U - 1 / 2
  P <- V[, pairs[, 1L], drop = FALSE] * V[, pairs[, 2L], drop = FALSE]
  diag_pair <- pairs[, 1L] == pairs[, 2L]
  P[, diag_pair] <- 4 * P[, diag_pair]
  P[, !diag_pair] <- (4 * P[, !diag_pair] + 1) / 2
  P
}

# The model matrix (without intercept) and response of `data` for the
# release's formula, levels and contrasts, with its NA handling; the rows
# must be the release's n, inside the public ranges.
linear_release_model_data <- function(object, data, call) {
  tt <- stats::terms(object$formula)
  environment(tt) <- baseenv()
  na <- if (is.null(object$na.action)) stats::na.pass else stats::na.omit
  mf <- tryCatch(stats::model.frame(tt, data, na.action = na, xlev = object$xlevels),
                 error = function(e) abort("`data` must hold the variables of the release's formula, with factor levels among the release's", call))
  if (!all(stats::complete.cases(mf))) abort("`data` has missing values (NA) in the variables of the release's formula", call)
  y <- stats::model.response(mf)
  X <- stats::model.matrix(attr(mf, "terms"), mf, contrasts.arg = object$contrasts)[, -1L, drop = FALSE]
  if (length(y) != object$n || !identical(colnames(X), colnames(object$x_range)))
    abort(sprintf("`data` must be the data of the release: it gives %d complete records and the predictors %s, the release %d and %s",
                  length(y), paste(colnames(X), collapse = ", "), object$n, paste(colnames(object$x_range), collapse = ", ")), call)
  R <- object$x_range
  for (j in seq_len(ncol(X)))
    if (any(X[, j] < R[1L, j] | X[, j] > R[2L, j]))
      abort(sprintf("predictor `%s` has values outside its public range in `x_range` = [%s, %s]: `data` must be the data of the release",
                    colnames(X)[j], format(R[1L, j]), format(R[2L, j])), call)
  if (!all(is.finite(X)) || !all(is.finite(y))) abort("`data` must hold finite values of the variables of the release's formula", call)
  list(X = X, y = as.double(y))
}

# Post-processing of the noisy averages (every value clamped to what the
# averaged quantity can take): the mean and covariance of the mapped
# predictors (covariances within the noise's reach of 0 set to 0, then
# projected onto the positive semidefinite matrices,
# each variance at most mean (1 - mean), the largest on [0, 1]), in the
# predictors' own units, and the residuals' standard deviation from their
# clipped mean absolute value (sqrt(pi / 2) times it: Gaussian residuals).
moments_from_raw <- function(raw, m, pairs, R, residual_bound, scale) {
  mu <- pmin(pmax(raw[seq_len(m)], 0), 1)
  prod <- pmin(pmax(raw[m + seq_len(nrow(pairs))], 0), 1)
  diag_pair <- pairs[, 1L] == pairs[, 2L]
  # undo centred_products(): E (u_j - 1/2)(u_l - 1/2)
  ev <- ifelse(diag_pair, prod / 4, (2 * prod - 1) / 4)
  S <- matrix(0, m, m)
  S[pairs] <- ev
  S[pairs[, c(2L, 1L), drop = FALSE]] <- ev
  C <- S - tcrossprod(mu - 1 / 2)
  # a covariance within two noise standard deviations of 0 (the Laplace
  # noise of a decoded product has sd scale sqrt(2) / 2) is taken as 0: a
  # correlation that is mostly noise would make the bootstrap's design
  # nearly collinear
  off <- row(C) != col(C)
  C[off & abs(C) <= sqrt(2) * scale] <- 0
  C <- moments_psd(C, mu * (1 - mu))
  w <- R[2L, ] - R[1L, ]
  x_mean <- stats::setNames(R[1L, ] + w * mu, colnames(R))
  x_cov <- C * tcrossprod(w)
  dimnames(x_cov) <- list(colnames(R), colnames(R))
  mad <- min(max(raw[length(raw)], 0), 1) * residual_bound
  list(mu = mu, C = C, x_mean = x_mean, x_cov = x_cov, residual_sd = sqrt(pi / 2) * mad)
}

# A symmetric matrix projected onto the positive semidefinite ones
# (eigenvalues floored at 0), then its variances capped at `vmax`.
moments_psd <- function(C, vmax) {
  e <- eigen((C + t(C)) / 2, symmetric = TRUE)
  C <- e$vectors %*% (pmax(e$values, 0) * t(e$vectors))
  v <- pmax(diag(C), 0)
  s <- ifelse(v > 0, sqrt(pmin(v, vmax) / v), 0)
  C * tcrossprod(s)
}

#' @export
print.riemdp_moments_release <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat(sprintf("<riemdp release> private moments of a linear regression's data (n = %d)\n", x$n))
  cat(strwrap(sprintf("Guarantee: %s-DP (pure epsilon-DP): the Laplace mechanism with scale %s = k/(n epsilon) on k = %d averages of values in [0, 1] (predictors mapped by their public ranges, their products about the middle of the ranges, and absolute residuals about the release clipped at %s). %s Guarantee kind: exact.",
                      format_guarantee(x$epsilon, 4), format(x$scale, digits = 4), length(x$raw),
                      format(x$residual_bound, digits = 4), implied_mu_sentence(x$epsilon)),
              exdent = 2), sep = "\n")
  cat("Private predictor means:\n")
  print(x$x_mean, digits = digits)
  cat("Private predictor standard deviations:\n")
  print(sqrt(diag(x$x_cov)), digits = digits)
  cat(sprintf("Private residual standard deviation about the release: %s (sqrt(pi/2) times the mean absolute residual)\n", format(x$residual_sd, digits = digits)))
  invisible(x)
}

#' Confidence intervals and tests for a private linear regression
#'
#' Intervals for the coefficients of the population behind a release of
#' [dp_linear_regression()], and tests that a coefficient is zero, by the
#' parametric bootstrap from the release (Ferrando, Wang & Sheldon 2022).
#' `confint()` returns the matrix of [confint.lm()][stats::confint]; `summary(object,
#' moments = )` adds a coefficient table with bootstrap standard errors and
#' p-values, and a joint test that every slope is zero.
#'
#' **What the intervals use.** The release, its public parameters and a
#' model of the data: the release's coefficients, the predictors' means and
#' covariance, and the residuals' standard deviation, taken from `moments`.
#' That is either a [dp_regression_moments()] release on the same data
#' (charged by [dp_budget()]), or a public statement in the form
#' [dp_accuracy()] takes: `list(sd = , x_mean = , x_sd = )` (the residual
#' standard deviation, and the predictors' means and standard deviations,
#' one per column of the model matrix; uncorrelated; without `x_mean` and
#' `x_sd` uniform on the public ranges). Everything after is
#' post-processing: no budget is spent, and the data are not read again.
#'
#' **Construction.** `B` synthetic data sets of the release's size are drawn
#' from the model at the released coefficients (each predictor from the Beta
#' law on its public range with the stated mean and standard deviation,
#' dummies Bernoulli with the stated proportions, joined by a Gaussian copula
#' with the stated correlations; Gaussian residuals), and each is released again with the same public
#' parameters and mechanism. With \eqn{\beta^*_b}{beta*_b} the bootstrap
#' releases, the interval is the percentile bootstrap interval
#' \eqn{[q^*_{\alpha/2}, q^*_{1-\alpha/2}]}{[q*_(alpha/2), q*_(1-alpha/2)]} of
#' their coefficient \eqn{j}{j} (the basic interval, reflected about the
#' release, covered the population's coefficients only about half the time
#' at \eqn{n = 50}{n = 50} in the coverage matrix); the p-value of
#' \eqn{\beta_j = 0}{beta_j = 0} is the smallest \eqn{\alpha}{alpha} whose
#' interval excludes 0. The joint test takes the squared Mahalanobis
#' distance of zero slopes from the bootstrap releases' slopes (their mean
#' and covariance) and the share of bootstrap releases at least as far: the
#' smallest \eqn{\alpha}{alpha} whose elliptical percentile region excludes
#' zero slopes. The private moments enter as they are (their noise is part
#' of what the coverage matrix measures).
#'
#' **Calibration.** The coverage and the tests' size are measured over a
#' matrix of sample sizes and budgets, on data from the model and from
#' heavy-tailed residuals: `vignette("accuracy", package = "riemdp")`. The
#' intervals assume the model (linear, homoscedastic); the sampling part of
#' their width is that of the Huber fit under Gaussian residuals. The
#' synthetic design matches the stated means and covariances only: an
#' interaction's column is drawn as a variable of its own, not as the
#' product of its parents, and the dummies of one factor are drawn each on
#' its own (two can be 1 in one row). The bootstrap releases use the default
#' chain for the release's size, whatever `control` the release had.
#'
#' The bootstrap runs under a fixed seed (`seed`), so the same call gives the
#' same intervals, and the session's random numbers are left as they were.
#'
#' @param object A release of [dp_linear_regression()] (with public
#'   `x_range`, `tau` and `beta_max`).
#' @param parm The coefficients: names or indices (all by default).
#' @param level The confidence level, a number in (0, 1).
#' @param moments A [dp_regression_moments()] release on the same data, or a
#'   public `list(sd = , x_mean = , x_sd = )` (see Details).
#' @param B The number of bootstrap releases (at least 100; each costs about
#'   as much as the release).
#' @param seed The seed of the bootstrap (an integer).
#' @param ... Not used.
#' @return `confint()`: a matrix with one row per coefficient and the
#'   columns of [confint.lm()][stats::confint]. `summary()`: with `moments`, a
#'   `summary.riemdp_linear_release` whose `coefficients` has the columns
#'   `Estimate`, `Boot SE`, the interval's bounds and `Pr(>|z|)` (the
#'   bootstrap p-value), and `slopes_test` the joint test (`statistic`, `df`,
#'   `p.value`).
#' @references Ferrando, C., Wang, S. and Sheldon, D. (2022). Parametric
#'   bootstrap for differentially private confidence intervals. *AISTATS*;
#'   Efron, B. and Tibshirani, R. (1993). *An Introduction to the Bootstrap*.
#'   Chapman & Hall.
#' @seealso [dp_regression_moments()], [dp_accuracy()].
#' @examples
#' rel <- dp_linear_regression(dist ~ speed, cars, epsilon = 2, tau = 30,
#'                             x_range = c(0, 30), beta_max = 200)
#' mom <- dp_regression_moments(rel, cars, epsilon = 0.5)
#' confint(rel, moments = mom, B = 200)
#' confint(lm(dist ~ speed, cars))
#' summary(rel, moments = mom, B = 200)
#' # a public statement instead: residual sd at most 20, speeds uniform
#' confint(rel, moments = list(sd = 20), B = 200)
#' @name confint.riemdp_linear_release
#' @export
confint.riemdp_linear_release <- function(object, parm, level = 0.95, moments = NULL, B = 400L, seed = 1L, ...) {
  call <- sys.call()
  call[[1L]] <- as.name("confint")
  check_no_dots(list(...), call)
  which <- linear_parm(object, parm, call)
  boot <- linear_bootstrap(object, level, moments, B, seed, call)
  ci <- linear_percentile_intervals(object$coefficients, boot$draws, level)
  ci[which, , drop = FALSE]
}

#' @rdname confint.riemdp_linear_release
#' @export
summary.riemdp_linear_release <- function(object, moments = NULL, level = 0.95, B = 400L, seed = 1L, ...) {
  call <- sys.call()
  call[[1L]] <- as.name("summary")
  check_no_dots(list(...), call)
  out <- list(release = object, guarantee = linear_guarantee_sentence(object))
  check_level(level, call)
  check_boot_args(B, seed, call)
  if (!is.null(moments)) {
    boot <- linear_bootstrap(object, level, moments, B, seed, call)
    est <- object$coefficients
    ci <- linear_percentile_intervals(est, boot$draws, level)
    p <- vapply(seq_along(est), function(j) linear_boot_p(boot$draws[, j]), numeric(1))
    out$coefficients <- cbind(Estimate = est, `Boot SE` = apply(boot$draws, 2L, stats::sd), ci, `Pr(>|z|)` = p)
    out$slopes_test <- linear_slopes_test(boot$draws[, -1L, drop = FALSE])
    out$bootstrap <- list(B = B, level = level, moments = boot$source, private = boot$private)
  }
  structure(out, class = "summary.riemdp_linear_release")
}

check_level <- function(level, call) {
  if (!(is.numeric(level) && length(level) == 1L && is.finite(level) && level > 0 && level < 1))
    abort("`level` must be a single number in (0, 1), e.g. 0.95", call)
}

# The fields of a moments release that the bootstrap reads: `raw` (k finite
# numbers) and `residual_bound` (finite, > 0).
check_moments_fields <- function(moments, k, call) {
  raw <- moments$raw
  if (!(is.numeric(raw) && length(raw) == k && all(is.finite(raw))))
    abort(sprintf("`moments$raw` must be the %d finite averages dp_regression_moments() released; the object has been altered", k), call)
  rb <- moments$residual_bound
  if (!(is.numeric(rb) && length(rb) == 1L && is.finite(rb) && rb > 0))
    abort("`moments$residual_bound` must be the finite positive clip dp_regression_moments() used; the object has been altered", call)
  b <- moments$scale
  if (!(is.numeric(b) && length(b) == 1L && is.finite(b) && b > 0))
    abort("`moments$scale` must be the finite positive Laplace scale dp_regression_moments() used; the object has been altered", call)
}

check_no_dots <- function(dots, call) {
  if (length(dots))
    abort(sprintf("unknown argument%s %s", if (length(dots) > 1L) "s" else "",
                  paste0("`", names(dots) %||% rep("", length(dots)), "`", collapse = ", ")), call)
}

# The coefficients named or indexed by `parm` (all when missing).
linear_parm <- function(object, parm, call) {
  nms <- names(object$coefficients)
  if (missing(parm) || is.null(parm)) return(nms)
  if (is.numeric(parm) && all(parm %in% seq_along(nms))) return(nms[parm])
  if (is.character(parm) && all(parm %in% nms)) return(parm)
  abort(sprintf("`parm` must name coefficients of the release (%s) or index them (1 to %d)",
                paste(nms, collapse = ", "), length(nms)), call)
}

# Percentile bootstrap intervals: the a/2 and 1 - a/2 quantiles of the
# bootstrap releases, a = 1 - level; columns named as confint.lm() names
# them.
linear_percentile_intervals <- function(est, draws, level) {
  a <- (1 - level) / 2
  q <- apply(draws, 2L, stats::quantile, probs = c(a, 1 - a), names = FALSE, type = 6)
  ci <- cbind(q[1L, ], q[2L, ])
  dimnames(ci) <- list(names(est), paste(format(100 * c(a, 1 - a), trim = TRUE, scientific = FALSE, digits = 3), "%"))
  ci
}

# The bootstrap p-value of beta_j = 0: the smallest alpha whose percentile
# interval (type-6 quantiles: the draw of rank r sits at probability
# r / (B + 1), linear in between) excludes 0, so 2 min(F(0), 1 - F(0)) with
# F that interpolated distribution function, kept within [1, B] / (B + 1)
# so that it is never 0.
linear_boot_p <- function(draws) {
  B <- length(draws)
  x <- sort(draws)
  r <- if (0 <= x[1L]) 1 else if (0 >= x[B]) B else {
    j <- findInterval(0, x)
    j + if (x[j + 1L] > x[j]) (0 - x[j]) / (x[j + 1L] - x[j]) else 0
  }
  f <- min(max(r, 1), B) / (B + 1)
  min(1, 2 * min(f, 1 - f))
}

# Joint test that every slope is zero, consistent with the percentile
# intervals: the squared Mahalanobis distance of 0 from the bootstrap
# releases' slopes (their mean and covariance), against the same distance
# of each bootstrap release; the p-value is the smallest alpha whose
# elliptical percentile region excludes 0.
linear_slopes_test <- function(D) {
  mu <- colMeans(D)
  V <- stats::cov(D)
  Vi <- tryCatch(solve(V), error = function(e) ginv_symmetric(V))
  stat <- drop(crossprod(mu, Vi %*% mu))
  C <- sweep(D, 2L, mu)
  boot <- rowSums((C %*% Vi) * C)
  list(statistic = stat, df = ncol(D), p.value = (1 + sum(boot >= stat)) / (nrow(D) + 1))
}

# The Moore-Penrose inverse of a symmetric matrix (a singular bootstrap
# covariance: a slope that never moves, e.g. pinned at the public box).
ginv_symmetric <- function(V) {
  e <- eigen(V, symmetric = TRUE)
  keep <- e$values > max(e$values) * 1e-12
  e$vectors[, keep, drop = FALSE] %*% (t(e$vectors[, keep, drop = FALSE]) / e$values[keep])
}

# The parametric bootstrap: B releases of synthetic data from the model at
# the released coefficients, with the release's public parameters.
linear_bootstrap <- function(object, level, moments, B, seed, call) {
  if (!is.null(object$bounds_stages))
    abort("intervals are not available yet for a release that found its bounds privately: the bootstrap would need the law of the private bounds too; release with public `x_range`, `tau` and `beta_max`", call)
  check_level(level, call)
  check_boot_args(B, seed, call)
  if (is.null(moments))
    abort("`moments` is required: a dp_regression_moments() release on the same data (a share of the budget), or a public statement list(sd = , x_mean = , x_sd = ) of the residual standard deviation and the predictors' means and standard deviations", call)
  R <- object$x_range
  m <- ncol(R)
  dummy <- object$dummy %||% rep(FALSE, m)
  if (inherits(moments, "riemdp_geodesic_moments_release"))
    abort("`moments` is the moments of a geodesic release: for a linear release use dp_regression_moments(object, data)", call)
  if (inherits(moments, "riemdp_moments_release")) {
    if (!identical(moments$n, object$n) || !identical(moments$x_range, R) || !identical(moments$about, object$coefficients))
      abort("`moments` was released on other data or for another release: it must come from dp_regression_moments(object, data) of this release", call)
    check_moments_fields(moments, m + nrow(moment_pairs(m)) + 1L, call)
    mom <- moments_from_raw(moments$raw, m, moment_pairs(m), R, moments$residual_bound, moments$scale)
    model <- list(mu = mom$mu, C = mom$C, sd = mom$residual_sd)
    source <- "private"
  } else {
    model <- linear_public_model(moments, R, dummy, call)
    source <- "public"
  }
  if (level > 1 - 2 / B)
    abort(sprintf("`level` = %s needs more bootstrap releases: with B = %d the tail quantiles rest on fewer than one draw; raise `B` or lower `level`",
                  format(level, digits = 6), B), call)
  w <- R[2L, ] - R[1L, ]
  est <- object$coefficients
  beta_u <- c(est[1L] + sum(est[-1L] * R[1L, ]), est[-1L] * w)
  sds <- sqrt(pmax(diag(model$C), 0))
  Corr <- model$C / tcrossprod(ifelse(sds > 0, sds, 1))
  diag(Corr) <- 1
  ev <- eigen(Corr, symmetric = TRUE)
  Lc <- ev$vectors %*% diag(sqrt(pmax(ev$values, 0)), m)
  marginals <- lapply(seq_len(m), function(j) linear_marginal(model$mu[j], sds[j], dummy[j]))
  n <- object$n
  meta <- list(terms = object$terms, formula = object$formula, xlevels = object$xlevels, contrasts = object$contrasts,
               na.action = NULL, response = object$response, dummy = dummy)
  draws <- with_preserved_seed(seed, {
    out <- matrix(NA_real_, B, m + 1L, dimnames = list(NULL, names(est)))
    for (b in seq_len(B)) {
      Z <- matrix(stats::rnorm(n * m), n, m) %*% t(Lc)
      U <- Z
      for (j in seq_len(m)) U[, j] <- marginals[[j]](Z[, j])
      y <- drop(beta_u[1L] + U %*% beta_u[-1L]) + stats::rnorm(n, 0, model$sd)
      X <- sweep(sweep(U, 2L, w, `*`), 2L, R[1L, ], `+`)
      for (j in seq_len(m)) X[, j] <- pmin(pmax(X[, j], R[1L, j]), R[2L, j])
      colnames(X) <- colnames(R)
      rel <- linear_release_core(X, y, R, object$epsilon, object$tau, object$beta_max, NULL, FALSE, meta, call)
      out[b, ] <- rel$coefficients
    }
    out
  })
  list(draws = draws, source = source, private = source == "private")
}

# The map from a standard Gaussian coordinate to a predictor on [0, 1] with
# mean mu and sd s: a dummy is Bernoulli(mu); a numeric predictor follows the
# Beta law with that mean and sd (uniform for mean 1/2 and sd sqrt(1/12)).
# Its limits where the Beta law's shapes leave what qbeta() resolves: the
# two-point law Bernoulli(mu) when a shape is below 0.05 (the variance near
# mu (1 - mu)), the Gaussian clipped to [0, 1] when both exceed 1e6, the
# constant mu when the variance is 0.
# The shapes c(a, b) of the Beta law on [0, 1] with mean mu and sd s
# (s^2 < mu (1 - mu); at or above it, 0: the two-point limit).
beta_shapes <- function(mu, s) {
  k <- max(mu * (1 - mu) / s^2 - 1, 0)
  c(mu * k, (1 - mu) * k)
}

linear_marginal <- function(mu, s, dummy) {
  v <- s^2
  two_point <- function() {
    thr <- stats::qnorm(mu)
    function(z) as.double(z < thr)
  }
  if (dummy) return(two_point())
  if (!(v > 0) || mu <= 0 || mu >= 1) return(function(z) rep(mu, length(z)))
  ab <- beta_shapes(mu, s)
  a <- ab[1]
  b <- ab[2]
  if (min(a, b) < 0.05) return(two_point())
  if (min(a, b) > 1e6) return(function(z) pmin(pmax(mu + s * z, 0), 1))
  function(z) stats::qbeta(stats::pnorm(z), a, b)
}

# A public statement of the data's spread, as dp_accuracy() takes it:
# list(sd = , x_mean = , x_sd = ), on the mapped scale [0, 1]; uncorrelated
# predictors; uniform on the public ranges where the predictors' moments
# are not given (dummies: proportion 1/2).
linear_public_model <- function(moments, R, dummy, call) {
  if (!is.list(moments) && !(is.numeric(moments) && !is.null(names(moments))))
    abort("`moments` must be a dp_regression_moments() release or a public list(sd = , x_mean = , x_sd = )", call)
  spread <- acc_spread(as.list(moments), c("sd", "x_mean", "x_sd"), "sd", call, "moments")
  if (length(spread$sd) != 1L) abort("`moments$sd` must be a single number: the residual standard deviation", call)
  m <- ncol(R)
  w <- R[2L, ] - R[1L, ]
  per <- function(v, what, default) {
    if (is.null(v)) return(default)
    if (length(v) != m) abort(sprintf("`moments$%s` must hold one value per column of the model matrix (%d: %s)", what, m,
                                      paste(colnames(R), collapse = ", ")), call)
    if (!is.null(names(v))) {
      if (!setequal(names(v), colnames(R))) abort(sprintf("`moments$%s` must be named after the columns of the model matrix (%s)", what, paste(colnames(R), collapse = ", ")), call)
      v <- v[colnames(R)]
    }
    as.double(v)
  }
  mu <- (per(spread$x_mean, "x_mean", R[1L, ] + w / 2) - R[1L, ]) / w
  if (any(!(mu > 0 & mu < 1)))
    abort("`moments$x_mean` must lie strictly inside the public ranges of the predictors (a dummy's mean is its proportion, strictly between 0 and 1)", call)
  s <- per(spread$x_sd, "x_sd", ifelse(dummy, w / 2, w * sqrt(1 / 12))) / w
  s[dummy] <- sqrt(mu[dummy] * (1 - mu[dummy]))
  if (any(s^2 > mu * (1 - mu)))
    abort("`moments$x_sd` must be at most sqrt((mean - lower) (upper - mean)) for each predictor, the largest standard deviation of a law on its public range with that mean", call)
  list(mu = mu, C = diag(s^2, m), sd = spread$sd)
}
