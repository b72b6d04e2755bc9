## Coverage of confint() for dp_linear_regression() releases (issue 34):
## percentile parametric-bootstrap intervals (Ferrando, Wang & Sheldon 2022;
## what confint() returns) and basic ones (reflected about the release) from
## the same bootstrap releases, against the population coefficients; the
## width against an oracle (the spread between the 2.5% and 97.5% quantiles
## of release - truth over the trials; the two intervals have the same
## width); and the size at 5% of each construction's test at the true slope.
##
##   Rscript bench/confint-linear-coverage.R [--n 50,500] [--epsilon 0.5,2,10]
##       [--law model|heavy] [--slope 0.5] [--trials 400] [--B 200]
##       [--share 0.25] [--seed 1] [--csv PATH] [--moments private|public]
##
## Model: x uniform on [0, 10] (public range), y = 1 + slope x + e, e
## Gaussian with sd 1 ("model") or t with 3 degrees of freedom scaled to
## sd 1 ("heavy"); tau = 2, beta_max = 20 (public). The moments are a
## dp_regression_moments() release at `share` times epsilon (its own
## budget, on top of the release's), or the public truth (sd 1, x uniform).
suppressPackageStartupMessages(library(riemdp))
args <- commandArgs(TRUE)
arg_value <- function(name, default) {
  i <- match(name, args)
  if (is.na(i)) default else args[i + 1L]
}
n_set <- as.integer(strsplit(arg_value("--n", "50,500"), ",")[[1]])
eps_set <- as.numeric(strsplit(arg_value("--epsilon", "0.5,2,10"), ",")[[1]])
law <- arg_value("--law", "model")
slope <- as.numeric(arg_value("--slope", "0.5"))
trials <- as.integer(arg_value("--trials", "400"))
B <- as.integer(arg_value("--B", "200"))
share <- as.numeric(arg_value("--share", "0.25"))
seed <- as.integer(arg_value("--seed", "1"))
csv <- arg_value("--csv", "confint-linear-coverage.csv")
mom_kind <- arg_value("--moments", "private")
beta <- c(1, slope)
tau <- 2
level <- 0.95
rows <- list()
for (n in n_set) for (eps in eps_set) {
  set.seed(seed + 1000 * n + round(100 * eps))
  t0 <- proc.time()[["elapsed"]]
  res <- matrix(NA_real_, trials, 12, dimnames = list(NULL, c("rel0", "rel1", "b_lo0", "b_hi0", "b_lo1", "b_hi1",
                                                            "p_lo0", "p_hi0", "p_lo1", "p_hi1", "p_basic", "p_pct")))
  for (t in seq_len(trials)) {
    x <- runif(n, 0, 10)
    e <- if (law == "heavy") rt(n, 3) / sqrt(3) else rnorm(n)
    d <- data.frame(x = x, y = beta[1] + beta[2] * x + e)
    rel <- dp_linear_regression(y ~ x, d, epsilon = eps, tau = tau, x_range = c(0, 10), beta_max = 20)
    mom <- if (mom_kind == "private") dp_regression_moments(rel, d, epsilon = share * eps) else list(sd = 1)
    bt <- riemdp:::linear_bootstrap(rel, level, mom, B, seed + t, quote(confint()))
    est <- coef(rel)
    a <- (1 - level) / 2
    q <- apply(bt$draws, 2, quantile, probs = c(a, 1 - a), names = FALSE, type = 6)
    W <- sweep(bt$draws, 2, est)
    res[t, ] <- c(est, 2 * est[1] - q[2, 1], 2 * est[1] - q[1, 1], 2 * est[2] - q[2, 2], 2 * est[2] - q[1, 2],
                  q[1, 1], q[2, 1], q[1, 2], q[2, 2],
                  min(1, 2 * (1 + min(sum(W[, 2] >= est[2] - beta[2]), sum(W[, 2] <= est[2] - beta[2]))) / (B + 1)),
                  min(1, 2 * (1 + min(sum(bt$draws[, 2] <= beta[2]), sum(bt$draws[, 2] >= beta[2]))) / (B + 1)))
  }
  secs <- proc.time()[["elapsed"]] - t0
  cover <- function(lo, hi, b) mean(res[, lo] <= b & b <= res[, hi])
  width <- function(lo, hi) mean(res[, hi] - res[, lo])
  oracle <- function(j) diff(quantile(res[, j] - beta[sub("rel", "", j) == c("0", "1")], c(0.025, 0.975), names = FALSE))
  row <- data.frame(law = law, n = n, epsilon = eps, slope = slope, moments = mom_kind, share = share, trials = trials, B = B,
                    cover_basic_int = cover("b_lo0", "b_hi0", beta[1]), cover_basic_slope = cover("b_lo1", "b_hi1", beta[2]),
                    cover_pct_int = cover("p_lo0", "p_hi0", beta[1]), cover_pct_slope = cover("p_lo1", "p_hi1", beta[2]),
                    width_basic_slope = width("b_lo1", "b_hi1") / oracle("rel1"),
                    width_pct_slope = width("p_lo1", "p_hi1") / oracle("rel1"),
                    width_basic_int = width("b_lo0", "b_hi0") / oracle("rel0"),
                    size_basic = mean(res[, "p_basic"] <= 0.05), size_pct = mean(res[, "p_pct"] <= 0.05),
                    secs = round(secs), seed = seed, stringsAsFactors = FALSE)
  print(row)
  rows[[length(rows) + 1L]] <- row
  utils::write.csv(do.call(rbind, rows), csv, row.names = FALSE)
}
