## Coverage of confint() for private Frechet means (R/confint.R): the share
## of trials whose 95% ball contains the population Frechet mean m, over a
## matrix of configurations, with the width against an oracle.
##
## Each trial draws n points from a law with Frechet mean m and root mean
## square distance s = 0.1 from it (radius of the public ball 0.5 around c;
## m at distance 0.1 from c, or 0.35 for "edge"), releases the mean with
## 90% of epsilon (the Gaussian mechanism: mu = 0.9 epsilon) and
## dp_dispersion(about = the release) with 10%, and builds three balls:
## "public" (dispersion = s, the true value), "private" (the dp_dispersion()
## release) and "estimate" (the ball for the mean of the data clipped to the
## public ball, what the release perturbs, checked
## against it). The oracle is the 95% quantile of d(release, m) over the
## trials; width = median radius / oracle.
## On kendall(k) the public ball has radius 0.3 instead (0.5 exceeds
## r* = pi/8 = 0.393 there; see ball_radius()), and "edge" puts m at
## 0.7 x radius (0.35 for radius 0.5, 0.21 on Kendall); the centre c is the
## regular k-gon as a preshape, and only laplace and kng run (the Gaussian
## mechanism's mu is not computed on Kendall's space).
## Laws: "model" (isotropic Gaussian tangent vectors at m), "heavy"
## (multivariate t with 3 degrees of freedom, scaled to the same s),
## "edge" (the model law with m near the edge of the ball: points outside
## are clipped to it, as outside = "clip" does).
##
## Run from the package root with the package installed:
##   Rscript bench/confint-coverage.R [--trials 400] [--csv PATH] [--manifolds ...]
##       [--n 50,500,5000] [--epsilon 0.5,2,10] [--laws model,heavy,edge]
##       [--mechanisms laplace,gaussian,kng] [--seed S]
suppressPackageStartupMessages(library(riemdp))
args <- commandArgs(trailingOnly = TRUE)
arg_value <- function(name, default) {
  i <- match(name, args)
  if (is.na(i)) default else args[i + 1L]
}
num_list <- function(x) as.numeric(strsplit(x, ",", fixed = TRUE)[[1L]])
trials <- as.integer(arg_value("--trials", "400"))
csv <- arg_value("--csv", "bench/confint-coverage.csv")
manifolds <- strsplit(arg_value("--manifolds", "euclidean(2),sphere(2),hyperbolic(2),spd(2)"), ",", fixed = TRUE)[[1L]]
n_set <- num_list(arg_value("--n", "50,500,5000"))
eps_set <- num_list(arg_value("--epsilon", "0.5,2,10"))
laws <- strsplit(arg_value("--laws", "model,heavy,edge"), ",", fixed = TRUE)[[1L]]
mechanisms <- strsplit(arg_value("--mechanisms", "laplace,gaussian,kng"), ",", fixed = TRUE)[[1L]]
seed0 <- as.integer(arg_value("--seed", "20261128"))

make_manifold <- function(name) {
  k <- as.integer(sub(".*\\((\\d+)\\)", "\\1", name))
  switch(sub("\\(.*", "", name), euclidean = manifold_euclidean(k), sphere = manifold_sphere(k),
         hyperbolic = manifold_hyperbolic(k), spd = manifold_spd(k), kendall = manifold_kendall(k))
}
# kendall: the regular k-gon (a k x 2 configuration), as a preshape (centred, unit Frobenius norm)
origin <- function(M) switch(M$type, euclidean = rep(0, M$d), sphere = c(rep(0, M$d), 1),
                             hyperbolic = c(1, rep(0, M$d)), spd = diag(M$k),
                             kendall = riem_project(M, cbind(cos(2 * pi * (seq_len(M$k) - 1) / M$k),
                                                             sin(2 * pi * (seq_len(M$k) - 1) / M$k))))
# the public ball's radius: 0.5, but on Kendall's space r* = pi/8 = 0.393
# (sensitivity_radius_max()), so 0.3 there (model data reach about 0.28 from c)
ball_radius <- function(M) if (M$type == "kendall") 0.3 else 0.5
# n points Exp_m(z) with E|z|^2 = s^2: Gaussian or t(3) tangent vectors
# (internal helpers of dp_accuracy(): points as ambient x n matrices)
tangent_basis <- function(M, p) riemdp:::geom_tangent_basis(M, riemdp:::acc_set(as.vector(p)))
draw_law <- function(M, m, n, s, law) {
  B <- tangent_basis(M, m)
  d <- M$dim
  Z <- matrix(rnorm(n * d), d) * (s / sqrt(d))
  if (law == "heavy") Z <- sweep(Z, 2L, sqrt(rchisq(n, 3) / 3) / sqrt(1 / 3), `/`)  # t(3): variance 3, rescaled
  riemdp:::acc_layout(M, riemdp:::acc_exp(M, as.vector(m), B %*% Z))
}

# The points clipped to the public ball, as outside = "clip" does: the
# release perturbs the mean of these, and the estimate's ball covers it.
clip_points <- function(M, X, c0, radius) {
  S <- riemdp:::bound_to_ball(M, riemdp:::as_set(M, X, "X"), riemdp:::as_set(M, c0, "c"), radius, "clip", NULL)
  X[] <- S$x
  X
}

# (the Gaussian mechanism's mu needs constant curvature: not on spd, nor on
# kendall; KNG runs on kendall, by its Metropolis-Hastings chain)
mechs <- function(M) c("laplace", if (M$type %in% c("euclidean", "sphere", "hyperbolic")) c("gaussian", "kng"),
                       if (M$type == "kendall") "kng")
configs <- expand.grid(manifold = manifolds, n = n_set, epsilon = eps_set, law = laws, mechanism = mechanisms,
                       stringsAsFactors = FALSE)
configs <- configs[mapply(function(mf, mech) mech %in% mechs(make_manifold(mf)), configs$manifold, configs$mechanism), ]
cat(sprintf("%d configurations x %d trials (%s)\n", nrow(configs), trials, format(Sys.time())))
out <- NULL
for (i in seq_len(nrow(configs))) {
  cf <- configs[i, ]
  set.seed(seed0 + i)
  M <- make_manifold(cf$manifold)
  c0 <- origin(M)
  r <- ball_radius(M)
  off <- if (cf$law == "edge") 0.7 * r else 0.1
  m <- riemdp:::acc_exp(M, as.vector(c0), off * tangent_basis(M, c0)[, 1, drop = FALSE])
  m <- if (is.null(M$point_shape)) drop(m) else array(m, M$point_shape)
  s <- 0.1
  t0 <- proc.time()[["elapsed"]]
  # the Gaussian release's sigma for mu = 0.9 epsilon, calibrated once (public)
  sigma_g <- if (cf$mechanism == "gaussian")
    dp_frechet_mean(M, draw_law(M, m, cf$n, s, "model"), mu = 0.9 * cf$epsilon, radius = r, center = c0,
                    outside = "clip", mechanism = "gaussian")$sigma
  res <- t(vapply(seq_len(trials), function(k) {
    X <- draw_law(M, m, cf$n, s, cf$law)
    eps_m <- 0.9 * cf$epsilon
    rel <- switch(cf$mechanism,
      gaussian = dp_frechet_mean(M, X, sigma = sigma_g, radius = r, center = c0, outside = "clip", mechanism = "gaussian"),
      dp_frechet_mean(M, X, epsilon = eps_m, radius = r, center = c0, outside = "clip", mechanism = cf$mechanism))
    v <- dp_dispersion(M, X, epsilon = 0.1 * cf$epsilon, radius = r, center = c0, outside = "clip", about = rel)
    pub <- confint(rel, dispersion = s)
    prv <- confint(rel, dispersion = v)
    est <- confint(rel)
    fm <- coef(frechet_mean(M, clip_points(M, X, c0, r)))
    c(public = dp_contains(pub, m), private = dp_contains(prv, m), estimate = dp_contains(est, fm),
      r_public = pub$radius, r_private = prv$radius, d = riem_dist(M, m, rel$estimate))
  }, numeric(6)))
  oracle <- unname(stats::quantile(res[, "d"], 0.95))
  row <- data.frame(cf, trials = trials,
                    cover_public = mean(res[, "public"]), cover_private = mean(res[, "private"]),
                    cover_estimate = mean(res[, "estimate"]), oracle = oracle,
                    width_public = stats::median(res[, "r_public"]) / oracle,
                    width_private = stats::median(res[, "r_private"]) / oracle,
                    seconds = proc.time()[["elapsed"]] - t0, stringsAsFactors = FALSE)
  out <- rbind(out, row)
  cat(sprintf("[%d/%d] %-14s %-9s n=%-5d eps=%-4s %-6s cover public %.3f private %.3f estimate %.3f; width %.2f / %.2f; %.0f s\n",
              i, nrow(configs), cf$manifold, cf$mechanism, cf$n, format(cf$epsilon), cf$law, row$cover_public,
              row$cover_private, row$cover_estimate, row$width_public, row$width_private, row$seconds))
  utils::write.csv(out, csv, row.names = FALSE)
}
model <- out[out$law == "model", ]
cat(sprintf("\nmodel data: coverage (public) in [0.93, 0.98] for %d of %d; private >= 0.93 for %d; width (public) <= 1.3 for %d\n",
            sum(model$cover_public >= 0.93 & model$cover_public <= 0.98), nrow(model),
            sum(model$cover_private >= 0.93), sum(model$width_public <= 1.3)))
