## How much coverage the bootstrap ellipsoid of confint() for a geodesic
## release loses by taking its radius from the bootstrap releases' own
## Mahalanobis distances (in-sample), in the ideal case: B standard
## Gaussian draws in p coordinates, r^2 the ceiling(0.95 (B + 1))-th
## smallest distance, and the share of new draws inside; and the same
## with r^2 from the leave-one-out distances (each draw against the mean
## and covariance of the others, by the Sherman-Morrison update), the
## candidate fix.
##
##   Rscript bench/ellipsoid-insample-coverage.R [--B 100,400] [--p 4] [--reps 20000]
##   Rscript bench/ellipsoid-insample-coverage.R --p 24 --reps 4000
args <- commandArgs(TRUE)
arg_value <- function(name, default) {
  i <- match(name, args)
  if (is.na(i)) default else args[i + 1L]
}
B_set <- as.integer(strsplit(arg_value("--B", "100,400"), ",")[[1]])
p <- as.integer(arg_value("--p", "4"))
reps <- as.integer(arg_value("--reps", "20000"))
set.seed(1)
for (B in B_set) {
  inside <- replicate(reps, {
    D <- matrix(rnorm(B * p), B)
    m <- colMeans(D)
    Si <- solve(stats::cov(D))
    C <- sweep(D, 2, m)
    d <- rowSums((C %*% Si) * C)
    d_loo <- (B / (B - 1))^2 * ((B - 2) / (B - 1)) * d / (1 - B * d / (B - 1)^2)
    k <- min(B, ceiling(0.95 * (B + 1)))
    z <- rnorm(p) - m
    dz <- sum(z * (Si %*% z))
    c(in_sample = dz <= sort(d)[k], leave_one_out = dz <= sort(d_loo)[k])
  })
  rate <- rowMeans(inside)
  cat(sprintf("B = %d, p = %d: coverage of a 95%% ellipsoid %.4f in-sample, %.4f leave-one-out (Monte Carlo s.e. about %.4f)\n",
              B, p, rate[1], rate[2], sqrt(0.05 * 0.95 / reps)))
}
