## Coverage and width of the confidence sets of a private geodesic
## regression (confint(release, moments = ), the parametric bootstrap's
## tangent ellipsoid), against the oracle set: the true law of the release
## about the population geodesic, from `--oracle` releases on fresh data.
##
##   Rscript bench/geodesic-confint-coverage.R [--manifold sphere|hyperbolic|spd|kendall|euclidean]
##       [--n 50,500] [--epsilon 0.5,2] [--noise gaussian|t3] [--edge 0] [--trials 400]
##       [--B 100] [--oracle 400] [--share 0.25] [--residual-bound 0.8]
##       [--level 0.95] [--seed 1] [--csv PATH]
##
## Data: x uniform on [0, 1] (the public range); the population geodesic
## starts at the base point (S^2: the north pole; H^2: the origin; SPD(2):
## the identity; Kendall(8): a regular octagon; R^2: the origin) and moves 0.3 over the range;
## the points scatter about it by tangent vectors of root mean square 0.05,
## isotropic Gaussian (the model) or isotropic with t(3) radial tails
## (misspecified). Release: epsilon, tau = 0.2, tau_m = 1, a public ball of
## radius 0.5 about the base point, or (`--edge e`, misspecified: a fit
## near the edge of the public ball) about a point at distance e from it,
## perpendicular to the geodesic; the moments are a dp_regression_moments()
## release at `share` times epsilon with `residual_bound` (default 4 tau,
## dp_regression_moments()'s). Reports the coverage of the population
## geodesic (with its Monte Carlo standard error) and the median ratio of
## the set's size to the oracle's (size: the geometric mean semi-axis,
## sqrt(r^2) det(S)^(1 / (2 D)) over the D = 2 dim coordinates).
suppressPackageStartupMessages(library(riemdp))
args <- commandArgs(TRUE)
arg_value <- function(name, default) {
  i <- match(name, args)
  if (is.na(i)) default else args[i + 1L]
}
man <- arg_value("--manifold", "sphere")
n_set <- as.integer(strsplit(arg_value("--n", "50,500"), ",")[[1]])
eps_set <- as.numeric(strsplit(arg_value("--epsilon", "0.5,2"), ",")[[1]])
noise <- arg_value("--noise", "gaussian")
edge <- as.numeric(arg_value("--edge", "0"))
trials <- as.integer(arg_value("--trials", "400"))
B <- as.integer(arg_value("--B", "100"))
n_oracle <- as.integer(arg_value("--oracle", "400"))
share <- as.numeric(arg_value("--share", "0.25"))
residual_bound <- as.numeric(arg_value("--residual-bound", "0.8"))
level <- as.numeric(arg_value("--level", "0.95"))
seed <- as.integer(arg_value("--seed", "1"))
csv <- arg_value("--csv", "geodesic-confint-coverage.csv")

setup <- switch(man,
  sphere = list(M = manifold_sphere(2), o = c(0, 0, 1)),
  hyperbolic = list(M = manifold_hyperbolic(2), o = c(1, 0, 0)),
  spd = list(M = manifold_spd(2), o = diag(2)),
  kendall = {
    K <- manifold_kendall(8)
    list(M = K, o = riem_project(K, cbind(cos(2 * pi * (0:7) / 8), sin(2 * pi * (0:7) / 8))))
  },
  euclidean = list(M = manifold_euclidean(2), o = c(0, 0)),
  stop("--manifold must be sphere, hyperbolic, spd, kendall or euclidean"))
M <- setup$M
o <- as.double(riemdp:::as_points(M, setup$o, "o")$x)
Bas <- riemdp:::geom_tangent_basis(M, riemdp:::acc_set(o))
d <- ncol(Bas)
v0 <- drop(Bas[, 1]) * 0.3  # moves 0.3 over [0, 1]
rms <- 0.05
# the public ball's centre: the base point, or a point at distance `edge`
# from it, perpendicular to the geodesic
centre <- riemdp:::acc_layout(M, riemdp:::acc_exp(M, o, matrix(Bas[, 2] * edge, ncol = 1L)))
centre <- if (is.null(M$point_shape)) drop(centre) else centre[, , 1]

# n points about the geodesic x -> Exp_o(x v0)
simulate <- function(n) {
  x <- runif(n)
  G <- riemdp:::acc_exp(M, o, matrix(v0, ncol = 1L) %*% t(x))
  Z <- matrix(rnorm(d * n), d) * (rms / sqrt(d))
  if (noise == "t3") Z <- Z * rep(sqrt(1 / 3) * sqrt(3 / rchisq(n, 3)), each = d)  # t(3) radial law, same rms
  W <- riemdp:::acc_transport(M, o, G, Bas %*% Z)
  list(x = x, Y = riemdp:::acc_layout(M, riemdp:::acc_exp(M, G, W)))
}
release <- function(dat, eps) {
  dp_geodesic_regression(M, dat$x, dat$Y, epsilon = eps, tau = 0.2, tau_m = 1, x_range = c(0, 1),
                         center = centre, radius = 0.5)
}
size <- function(S, r2) sqrt(r2) * exp(sum(log(eigen(S, symmetric = TRUE, only.values = TRUE)$values)) / (4 * d))
truth <- list(footpoint = setup$o, shooting = riemdp:::acc_layout(M, matrix(v0, ncol = 1L)))
if (is.null(M$point_shape)) truth$shooting <- drop(truth$shooting) else truth$shooting <- truth$shooting[, , 1]

rows <- list()
for (n in n_set) for (eps in eps_set) {
  set.seed(seed + 1000 * n + round(100 * eps))
  t0 <- proc.time()[["elapsed"]]
  # the oracle: the release's deviation from the population geodesic
  D <- t(vapply(seq_len(n_oracle), function(i) {
    rel <- release(simulate(n), eps)
    riemdp:::geodesic_deviation(M, o, v0, Bas, as.double(riemdp:::as_points(M, rel$footpoint_range, "p")$x),
                                as.double(rel$shooting_range))
  }, numeric(2 * d)))
  S_o <- cov(D)
  C_o <- sweep(D, 2, colMeans(D))
  r2_o <- quantile(rowSums((C_o %*% solve(S_o)) * C_o), level, type = 6, names = FALSE)
  size_o <- size(S_o, r2_o)
  covered <- logical(trials)
  ratio <- numeric(trials)
  for (t in seq_len(trials)) {
    dat <- simulate(n)
    rel <- release(dat, eps)
    mom <- dp_regression_moments(rel, x = dat$x, Y = dat$Y, epsilon = share * eps, residual_bound = residual_bound)
    ci <- confint(rel, moments = mom, B = B, seed = seed + t, level = level)
    covered[t] <- dp_contains(ci, truth)
    ratio[t] <- size(ci$cov, ci$radius2) / size_o
  }
  cov_hat <- mean(covered)
  row <- data.frame(manifold = switch(man, sphere = "sphere(2)", hyperbolic = "hyperbolic(2)", spd = "spd(2)", kendall = "kendall(8)", euclidean = "euclidean(2)"), n = n, epsilon = eps, noise = noise, edge = edge, share = share, residual_bound = residual_bound, level = level,
                    trials = trials, B = B, oracle = n_oracle, coverage = cov_hat,
                    coverage_se = sqrt(cov_hat * (1 - cov_hat) / trials), width_ratio_median = median(ratio),
                    width_ratio_q10 = unname(quantile(ratio, 0.1)), width_ratio_q90 = unname(quantile(ratio, 0.9)),
                    secs = round(proc.time()[["elapsed"]] - t0), seed = seed, stringsAsFactors = FALSE)
  print(row)
  rows[[length(rows) + 1L]] <- row
  utils::write.csv(do.call(rbind, rows), csv, row.names = FALSE)
}
