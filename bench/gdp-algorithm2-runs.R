## Single runs of Algorithm 2 (Jiang, Chang, Liu, Ding, Kong and Jiang 2023,
## as published: method = "algorithm2") against the exact mu: how often, and
## by how much, one run understates mu (understating mu understates the
## privacy loss). The mean over runs is biased upward (vignette("gdp")); this
## measures the other tail.
##
## Usage (from the package root, riemdp installed in a library on .libPaths()
## or in R_LIBS):
##   Rscript bench/gdp-algorithm2-runs.R [runs]
## runs: Algorithm 2 runs per (manifold, sigma) (default 100). The paper's
## budget (n = 1000, m = 100, n_epsilon = 1000), Delta = 1, and its
## epsilon_max on S^1 (pi/(2 sigma^2)) and R (max{10, 5/sigma + 1/(2 sigma^2)});
## the package default on S^2. Exact mu: algorithm1 (S^1), 1/sigma (R),
## quadrature (S^2). Fixed seed; about 1 minute at 100 runs.

suppressPackageStartupMessages(library(riemdp))
args <- commandArgs(trailingOnly = TRUE)
runs <- if (length(args) >= 1) as.integer(args[1]) else 100L
sigmas <- c(0.25, 1, 2, 3, 4)
Delta <- 1
ctl <- function(epsilon_max = NULL)
  gdp_control(n = 1000, m = 100, n_epsilon = 1000, epsilon_max = epsilon_max, verbose = FALSE)
cases <- list(
  S1 = list(M = manifold_sphere(1), em = function(s) pi * Delta / (2 * s^2),
            exact = function(s) as.numeric(gdp_mu(manifold_sphere(1), s, Delta, method = "algorithm1"))),
  R = list(M = manifold_euclidean(1), em = function(s) max(10, 5 / s + 1 / (2 * s^2)),
           exact = function(s) Delta / s),
  S2 = list(M = manifold_sphere(2), em = function(s) NULL,
            exact = function(s) as.numeric(gdp_mu(manifold_sphere(2), s, Delta, method = "quadrature")))
)
set.seed(20231)
t0 <- proc.time()[["elapsed"]]
rows <- list()
for (nm in names(cases)) {
  cs <- cases[[nm]]
  for (s in sigmas) {
    ex <- cs$exact(s)
    mu <- vapply(seq_len(runs), function(i)
      as.numeric(gdp_mu(cs$M, s, Delta, method = "algorithm2", control = ctl(cs$em(s)))), 0)
    rel <- mu / ex - 1
    rows[[length(rows) + 1L]] <- data.frame(
      manifold = nm, sigma = s, exact = ex, runs = runs,
      below = mean(rel < 0), min_pct = 100 * min(rel), q05_pct = 100 * unname(stats::quantile(rel, 0.05)),
      mean_pct = 100 * mean(rel), max_pct = 100 * max(rel))
  }
}
tab <- do.call(rbind, rows)
cat(sprintf("riemdp %s; Algorithm 2 single runs against the exact mu (Delta = 1; n = 1000, m = 100, n_epsilon = 1000); %d runs per row; %.0f s\n\n",
            format(utils::packageVersion("riemdp")), runs, proc.time()[["elapsed"]] - t0))
cat("below: fraction of runs under the exact mu; min, 5% quantile, mean and max of run / exact - 1, in %\n\n")
print(format(tab, digits = 3), row.names = FALSE)
