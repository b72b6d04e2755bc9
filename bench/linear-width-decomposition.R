## Where the width of confint() of a private linear regression comes from,
## at n = 500, epsilon = 0.5 (the configuration of
## bench/confint-linear-coverage.R whose mean width is about 1.8 times the
## oracle's): the same releases' slope intervals with the private moments,
## with the private predictor moments and the true residual sd, with the
## true predictor moments and the private residual sd, and with the true
## moments, against the oracle (the 2.5%-97.5% spread of the release's
## error over fresh data sets).
##
##   Rscript bench/linear-width-decomposition.R [--trials 30] [--B 200]
##       [--oracle 1000] [--seed 5]
##
## Data: y = 1 + 0.5 x + N(0, 1), x uniform on [0, 10]; release epsilon =
## 0.5, tau = 2, beta_max = 20; moments at a quarter of epsilon.
suppressPackageStartupMessages(library(riemdp))
args <- commandArgs(TRUE)
arg_value <- function(name, default) {
  i <- match(name, args)
  if (is.na(i)) default else args[i + 1L]
}
trials <- as.integer(arg_value("--trials", "30"))
B <- as.integer(arg_value("--B", "200"))
n_oracle <- as.integer(arg_value("--oracle", "1000"))
seed <- as.integer(arg_value("--seed", "5"))
n <- 500
eps <- 0.5
simulate <- function() {
  x <- runif(n, 0, 10)
  data.frame(x = x, y = 1 + 0.5 * x + rnorm(n))
}
release <- function(d) dp_linear_regression(y ~ x, d, epsilon = eps, tau = 2, beta_max = 20, x_range = c(0, 10))
set.seed(seed)
err <- replicate(n_oracle, release(simulate())$coefficients[[2]] - 0.5)
oracle <- diff(quantile(err, c(0.025, 0.975), names = FALSE))
truth <- list(sd = 1, x_mean = 5, x_sd = sqrt(100 / 12))
W <- t(replicate(trials, {
  d <- simulate()
  rel <- release(d)
  mom <- dp_regression_moments(rel, d, epsilon = eps / 4)
  width <- function(m) unname(diff(confint(rel, moments = m, B = B)[2, ]))
  x_priv <- list(x_mean = mom$x_mean[[1]], x_sd = sqrt(mom$x_cov[1, 1]))
  # the residual scale about the release against the one about the
  # population line (no random numbers: the widths are unchanged)
  r_rel <- d$y - drop(cbind(1, d$x) %*% rel$coefficients)
  inflation <- mean(pmin(abs(r_rel), 8)) / mean(pmin(abs(d$y - 1 - 0.5 * d$x), 8))
  c(private = width(mom), `private x, true sd` = width(c(list(sd = 1), x_priv)),
    `true x, private sd` = width(c(list(sd = mom$residual_sd), truth[-1])), true = width(truth),
    inflation = inflation)
}))
inflation <- W[, "inflation"]
W <- W[, colnames(W) != "inflation"]
cat(sprintf("oracle width of the slope's 95%% interval: %.3f (%d releases); release error quantiles 1%%, 99%%: %.3f, %.3f\n",
            oracle, n_oracle, quantile(err, 0.01), quantile(err, 0.99)))
cat(sprintf("interval width / oracle over %d trials (B = %d):\n", trials, B))
print(round(rbind(apply(W / oracle, 2, quantile, c(0.1, 0.5, 0.9)), mean = colMeans(W / oracle)), 2))
cat(sprintf("mean clipped absolute residual about the release / about the population line: median %.3f (10%%: %.3f, 90%%: %.3f)\n",
            median(inflation), quantile(inflation, 0.1), quantile(inflation, 0.9)))
