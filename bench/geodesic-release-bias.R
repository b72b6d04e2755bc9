## Is a private geodesic regression biased? The mean error of releases
## (and of the non-private fit) about the population geodesic, in the 4
## tangent coordinates of confint()'s set (Log of the footpoint, the
## transported difference of the shooting vector), over their standard
## deviation; the data and release of bench/geodesic-confint-coverage.R on
## S^2 (epsilon = 2).
##
##   Rscript bench/geodesic-release-bias.R [--n 500,5000] [--reps 300]
suppressPackageStartupMessages(library(riemdp))
args <- commandArgs(TRUE)
arg_value <- function(name, default) {
  i <- match(name, args)
  if (is.na(i)) default else args[i + 1L]
}
n_set <- as.integer(strsplit(arg_value("--n", "500,5000"), ",")[[1]])
reps <- as.integer(arg_value("--reps", "300"))
M <- manifold_sphere(2)
o <- c(0, 0, 1)
Bas <- riemdp:::geom_tangent_basis(M, riemdp:::acc_set(o))
v0 <- drop(Bas[, 1]) * 0.3
simulate <- function(n) {
  x <- runif(n)
  G <- riemdp:::acc_exp(M, o, matrix(v0, ncol = 1L) %*% t(x))
  Z <- matrix(rnorm(2 * n), 2) * (0.05 / sqrt(2))
  W <- riemdp:::acc_transport(M, o, G, Bas %*% Z)
  list(x = x, Y = riemdp:::acc_layout(M, riemdp:::acc_exp(M, G, W)))
}
for (n in n_set) {
  set.seed(n)
  D <- t(replicate(reps, {
    d <- simulate(n)
    rel <- dp_geodesic_regression(M, d$x, d$Y, epsilon = 2, tau = 0.2, tau_m = 1, x_range = c(0, 1), center = o, radius = 0.5)
    fit <- geodesic_regression(M, d$x, d$Y)
    c(riemdp:::geodesic_deviation(M, o, v0, Bas, as.double(rel$footpoint_range), as.double(rel$shooting_range)),
      riemdp:::geodesic_deviation(M, o, v0, Bas, as.double(fit$footpoint), as.double(fit$shooting)))
  }))
  z <- colMeans(D) / apply(D, 2, sd)
  cat(sprintf("n = %d, %d releases (standard error of mean/sd about %.3f)\n", n, reps, 1 / sqrt(reps)))
  cat("  release: mean/sd", sprintf("%7.3f", z[1:4]), "  sd", signif(apply(D[, 1:4], 2, sd), 3), "\n")
  cat("  fit:     mean/sd", sprintf("%7.3f", z[5:8]), "  sd", signif(apply(D[, 5:8], 2, sd), 3), "\n")
}
