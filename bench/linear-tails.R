## The tails of dp_linear_regression(mag ~ stations + depth, quakes) (n = 1000)
## at the settings of bench/kng-targets.R (tau = 0.5, stations in [0, 150],
## depth in [0, 700], beta_max = 6, the default chain), against the law they
## should follow. tau = 0.5 clips 13 of lm()'s residuals, so the gradient is
## not affine and the law is not exactly thetahat + H^-1 u; two references:
##   * "long": releases whose chains are 20 times the default length
##     (control = mcmc_control(burn_in = 20 * b, n_iter = 20 * b), b the
##     default half-length);
##   * "exact": draws from the exact KNG density exp(-|grad E|/sigma) on the
##     public box, by sampling-importance-resampling from a mixture of
##     linearised laws at the Huber fit (thetahat_tau + H^-1 w, w K-norm with
##     1, 4, 16 and 64 times the noise scale): no chain, independent of
##     riemdp's sampler (plain R).
## For each epsilon: quantiles (10%, 50%, 90%) of the in-sample MSE / lm()'s,
## the 90% quantile's bootstrap 95% CI, and two-sample KS tests of the MSE
## ratio, of each coordinate of theta^u (fit at the lower corner, change
## across each range) and of the level |grad E|/sigma, default against each
## reference; DPpack::LinearRegressionDP's quantiles as in bench/kng-targets.R.
## Run from the package root with riemdp installed (one core):
##     nice -n 10 Rscript bench/linear-tails.R [K] [K_long] [epsilons]
## defaults K = 1000 releases per epsilon, K_long = 1000 long-chain releases
## (at epsilon = 0.5 only; 0 skips), epsilons "0.5,1,2,5".
suppressPackageStartupMessages(library(riemdp))
options(riemdp.threads = 1L)
source("bench/ensure-package.R")
source("tests/testthat/helper-conformance.R")
args <- commandArgs(TRUE)
K <- if (length(args) >= 1L) as.integer(args[1]) else 1000L
K_long <- if (length(args) >= 2L) as.integer(args[2]) else 1000L
epsilons <- if (length(args) >= 3L) as.numeric(strsplit(args[3], ",")[[1]]) else c(0.5, 1, 2, 5)
t_all <- proc.time()[["elapsed"]]
has_dppack <- ensure_package("DPpack", "  ")
# DPpack may need newer versions of its imports (rlang) than an older library
# on the path holds: look in the private bench library first for them
if (has_dppack) {
  .libPaths(unique(c(bench_library(), .libPaths())))
  has_dppack <- isTRUE(tryCatch(requireNamespace("DPpack", quietly = TRUE), error = function(e) FALSE))
}

tau <- 0.5
beta_max <- 6
x_range <- list(stations = c(0, 150), depth = c(0, 700))
X <- as.matrix(quakes[, c("stations", "depth")])
y <- quakes$mag
n <- length(y)
U <- cbind((X[, 1] - 0) / 150, (X[, 2] - 0) / 700)
X1 <- cbind(1, U)
fit <- stats::lm(mag ~ stations + depth, quakes)
mse_lm <- mean(stats::resid(fit)^2)
mse_u <- function(Th) colMeans((y - X1 %*% t(Th))^2) / mse_lm     # Th: K x 3 (theta^u)
level_u <- function(Th) {
  psi <- pmin(pmax(y - X1 %*% t(Th), -tau), tau)
  sqrt(colSums((crossprod(X1, psi) / n)^2))                       # |grad E|; divide by sigma
}
cat(sprintf("quakes, n = %d: %d of lm()'s residuals beyond tau = %g\n", n, sum(abs(stats::resid(fit)) > tau), tau))

release <- function(eps, control = NULL)
  conf_theta_u(dp_linear_regression(mag ~ stations + depth, quakes, epsilon = eps, tau = tau, x_range = x_range,
                                    beta_max = beta_max, control = control))
releases <- function(eps, k, control = NULL) {
  t0 <- proc.time()[["elapsed"]]
  Th <- t(vapply(seq_len(k), function(i) release(eps, control), numeric(3)))
  list(theta = Th, secs = (proc.time()[["elapsed"]] - t0) / k)
}

## The Huber fit (the mode of the law): Newton steps on the clipped gradient.
huber_fit <- function() {
  th <- drop(solve(crossprod(X1), crossprod(X1, y)))
  for (it in 1:100) {
    r <- y - drop(X1 %*% th)
    g <- -crossprod(X1, pmin(pmax(r, -tau), tau)) / n
    Hc <- crossprod(X1[abs(r) < tau, , drop = FALSE]) / n
    step <- solve(Hc, g)
    th <- th - drop(step)
    if (max(abs(step)) < 1e-14) break
  }
  th
}
th_h <- huber_fit()
H_h <- crossprod(X1[abs(y - drop(X1 %*% th_h)) < tau, , drop = FALSE]) / n

## Exact law by sampling-importance-resampling: proposals theta = th_h + H_h^-1 w
## from a mixture of K-norm laws, |w| ~ c sigma Gamma(3) with uniform direction
## (density ∝ exp(-|w|/(c sigma)) / (c sigma)^3), c in `cs` with equal weights;
## weight exp(-|grad E(theta)|/sigma) / q_mix(theta) on the box (0 outside).
## The clipped gradient grows more slowly than H_h (theta - th_h) (its norm is
## at most tau times the mean of |(1, u_i)|), so the law's tail is far heavier than the
## linearised law's: a single component of twice its scale misses the tail
## (90% quantile of MSE/lm about 5.3 at epsilon 0.5, where the law's is 8.1; try
## cs = 2); the wide components
## cover the whole box.
exact_sir <- function(sigma, k, pool = 400L * k, cs = c(1, 4, 16, 64), chunk = 20000L) {
  Th <- matrix(0, 0, 3)
  lw <- numeric(0)
  while (nrow(Th) < pool) {
    dir <- matrix(stats::rnorm(chunk * 3), chunk)
    dir <- dir / sqrt(rowSums(dir^2))
    cc <- cs[sample.int(length(cs), chunk, replace = TRUE)]
    W <- dir * (cc * sigma * stats::rgamma(chunk, 3))
    T1 <- sweep(t(solve(H_h, t(W))), 2L, th_h, "+")
    ok <- apply(abs(T1) <= beta_max, 1L, all)
    T1 <- T1[ok, , drop = FALSE]
    r <- sqrt(rowSums(W[ok, , drop = FALSE]^2))
    lq <- log(rowMeans(sapply(cs, function(c) exp(-r / (c * sigma)) / c^3)))
    lw <- c(lw, -level_u(T1) / sigma - lq)
    Th <- rbind(Th, T1)
  }
  w <- exp(lw - max(lw))
  ess <- sum(w)^2 / sum(w^2)
  idx <- sample.int(nrow(Th), k, replace = TRUE, prob = w)
  list(theta = Th[idx, , drop = FALSE], ess = ess, pool = nrow(Th), mse_all = mse_u(Th), w = w / sum(w))
}
wquantile <- function(x, w, p) { o <- order(x); cw <- cumsum(w[o]); x[o][findInterval(p, cw) + 1L] }

q3 <- function(v) stats::quantile(v, c(0.1, 0.5, 0.9), names = FALSE)
boot90 <- function(v, B = 2000L) stats::quantile(replicate(B, stats::quantile(sample(v, replace = TRUE), 0.9, names = FALSE)),
                                             c(0.025, 0.975), names = FALSE)
summ <- function(lab, v, extra = "") {
  q <- q3(v); ci <- boot90(v)
  cat(sprintf("  %-34s MSE/lm 10%% %.3f  50%% %.3f  90%% %.3f (95%% CI %.3f-%.3f)%s\n", lab, q[1], q[2], q[3], ci[1], ci[2], extra))
}
ks <- function(a, b) suppressWarnings(stats::ks.test(a, b)$p.value)
compare <- function(lab, A, B, sigma, first = "default") {
  p <- c(mse = ks(mse_u(A), mse_u(B)), theta1 = ks(A[, 1], B[, 1]), theta2 = ks(A[, 2], B[, 2]),
         theta3 = ks(A[, 3], B[, 3]), level = ks(level_u(A), level_u(B)))
  cat(sprintf("  KS p, %s vs %-10s %s\n", first, lab, paste(sprintf("%s %.3f", names(p), p), collapse = "  ")))
}

dppack <- function(eps) {
  lr <- DPpack::LinearRegressionDP$new("l2", eps, 0, 1, function(coeff) coeff)
  lr$fit(data.frame(X), y, c(150, 700, 6.5), c(0, 0, 4), add.bias = TRUE)
  b <- as.double(lr$coeff)
  mean((y - cbind(1, X) %*% b)^2) / mse_lm
}

for (eps in epsilons) {
  sigma <- 2 * (2 * tau * sqrt(3) / n) / eps
  cat(sprintf("\n== epsilon %s (sigma %.5f)\n", format(eps), sigma))
  set.seed(20261128)
  d <- releases(eps, K)
  summ(sprintf("default chain (%d releases)", K), mse_u(d$theta), sprintf("; %.1f ms per release", 1000 * d$secs))
  set.seed(20261129)
  ex <- exact_sir(sigma, max(K, 2000L))
  cat(sprintf("  exact law: pool %d proposals, weight ESS %.0f; weighted MSE/lm quantiles %s\n", ex$pool, ex$ess,
              paste(sprintf("%.3f", wquantile(ex$mse_all, ex$w, c(0.1, 0.5, 0.9))), collapse = " / ")))
  summ(sprintf("exact law (%d resampled draws)", nrow(ex$theta)), mse_u(ex$theta))
  compare("exact", d$theta, ex$theta, sigma)
  if (K_long > 0L && eps == 0.5) {
    b <- riemdp:::kng_chain_length(3L, n)$burn_in
    ctl <- mcmc_control(burn_in = 20L * b, n_iter = 20L * b, verbose = FALSE)
    set.seed(20261130)
    lg <- releases(eps, K_long, ctl)
    summ(sprintf("20x chain (%d releases, %d + %d)", K_long, 20L * b, 20L * b), mse_u(lg$theta),
         sprintf("; %.0f ms per release", 1000 * lg$secs))
    compare("20x chain", d$theta, lg$theta, sigma)
    compare("exact", lg$theta, ex$theta, sigma, first = "20x chain")
  }
  if (has_dppack) {
    set.seed(20261131)
    summ(sprintf("DPpack (%d releases)", K), vapply(seq_len(K), function(i) dppack(eps), numeric(1)))
  }
}
cat(sprintf("\ntotal %.0f s\n", proc.time()[["elapsed"]] - t_all))
