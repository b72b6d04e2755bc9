## Simulations behind vignettes/private-geodesic-regression.Rmd: a replication
## of the sphere experiment of Kulkarni & Soto (2025), "Differentially private
## geodesic and linear regression" (Sec. 4.1, App. A, App. B, Fig. 2, 3, 5, 6), with the package's two
## releases: scheme = "paper" (App. A's two steps, epsilon = 1 + 1) and
## scheme = "joint" (one K-norm gradient mechanism on (p, v), epsilon = 2).
##
## Run from the package root with riemdp installed:
##     Rscript vignettes/data-raw/private-geodesic-regression.R
## Writes vignettes/data/private-geodesic-regression.rds (a few kB). Base R
## only; takes about a minute sequentially (55 s when the data were made,
## almost all of it in the long random-walk chains of scheme = "paper"; the
## runtime is saved in the file).
##
## The replicated releases go through dp_replicate(): sequentially by default,
## in parallel under a future::plan() set before source()-ing the script, or
## with RIEMDP_WORKERS=k in the environment (a multisession plan with k
## workers). Each replicate draws from its own L'Ecuyer-CMRG stream, fixed by
## the seed of its dp_replicate() call, so the results do not depend on the
## plan; everything else (the data, the sensitivity pairs) is fixed by
## set.seed().

suppressPackageStartupMessages(library(riemdp))
t_start <- proc.time()[["elapsed"]]
elapsed <- function() proc.time()[["elapsed"]] - t_start
workers <- suppressWarnings(as.integer(Sys.getenv("RIEMDP_WORKERS", "1")))
old_plan <- if (!is.na(workers) && workers > 1L) future::plan(future::multisession, workers = workers)
set.seed(2025)

S2 <- manifold_sphere(2)

## ---------------------------------------------------------------------------
## Design of Sec. 4.1 (the choices the paper leaves open are recorded here)
## ---------------------------------------------------------------------------
## q0 uniform on the sphere, zeta a uniform direction of T_q0 with |zeta| = 1;
## x uniform on [0, 1]; y = Exp(q0, x zeta) + N(0, 0.001 I_3), normalised.
zeta_length <- 1
q0 <- stats::rnorm(3); q0 <- q0 / sqrt(sum(q0^2))
w <- stats::rnorm(3); w <- w - sum(w * q0) * q0
zeta <- zeta_length * w / sqrt(sum(w^2))
noise_var <- 0.001
generate <- function(n) {
  x <- stats::runif(n)
  Y <- riem_geodesic(S2, q0, zeta, x) + matrix(stats::rnorm(3 * n, sd = sqrt(noise_var)), n)
  list(x = x, Y = Y / sqrt(rowSums(Y^2)))
}

## Public parameters of the release: none is computed from the data.
## tau: the tangent residual of N(0, 0.001 I) noise has norm about
##   Rayleigh(sqrt(0.001)); P(norm > 0.1) = exp(-0.1^2 / 0.002) = e^-5 (0.7%).
## center, radius: the design's start q0 is known to the experimenter; the
##   footpoint (the fit at x = 0) is declared within 0.25 rad of it.
## tau_m: at most twice the design's speed |zeta|.
public <- list(epsilon_joint = 2, epsilon_paper = c(footpoint = 1, shooting = 1), split = 0.5,
               tau = 0.1, tau_m = 2 * zeta_length, x_range = c(0, 1), center = q0, radius = 0.25)

## scheme = "joint" uses the release's default chain (control = NULL: 250 +
## 25 D burn-in steps and as many after, D = 4 on S^2: 350 + 350).
## scheme = "paper" keeps App. A's random-walk chains, started at the public
## (center, 0); the default mcmc_control() (burn-in 1000, 2000 further
## iterations) is too short for them (Fig. 6 below), so they run (burn-in a
## quarter of the total):
chain_length <- function(n) if (n <= 20) 40000L else if (n <= 50) 60000L else 100000L
control_for <- function(n) {
  L <- chain_length(n)
  mcmc_control(burn_in = L %/% 4L, n_iter = L - L %/% 4L)
}
joint_iterations <- 2L * (250L + 25L * 4L)
control_of <- function(scheme, n) if (scheme == "paper") control_for(n) else NULL

release <- function(d, scheme, control) {
  dp_geodesic_regression(S2, d$x, d$Y,
                         epsilon = if (scheme == "joint") public$epsilon_joint else sum(public$epsilon_paper),
                         tau = public$tau, tau_m = public$tau_m, x_range = public$x_range,
                         center = public$center, radius = public$radius, scheme = scheme,
                         split = public$split, control = control)
}
mae <- function(d, p, v) mean(riem_dist(S2, riem_geodesic(S2, p, v, d$x), d$Y))
## Signed angle (degrees) from a to b in T_p S^2, counterclockwise about p.
signed_angle <- function(p, a, b) {
  cr <- c(a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1])
  atan2(sum(p * cr), sum(a * b)) * 180 / pi
}
## One release against the non-private fit (p_hat, v_hat): distance of the
## footpoints, signed angle between Gamma_{p_hat -> p~}(v_hat) and v~, |v~|,
## MAE of the private geodesic (unsquared distances to the data).
score <- function(d, fit, rel) {
  p <- as.double(rel$footpoint); v <- as.double(rel$shooting)
  v_hat_there <- as.double(riem_transport(S2, fit$footpoint, p, fit$shooting))
  c(dist = riem_dist(S2, fit$footpoint, p), angle = signed_angle(p, v_hat_there, v),
    speed = sqrt(sum(v^2)), mae = mae(d, p, v))
}

## ---------------------------------------------------------------------------
## (i) n = 20: 200 releases per scheme (Fig. 2 and 3 of the paper)
## ---------------------------------------------------------------------------
## The paper draws 200 footpoints and 200 shooting vectors per footpoint
## (40 000 pairs). A release of the package is one pair (p~, v~) from its own
## chains, so we draw 200 independent pairs per scheme: the mean of the
## paper's per-footpoint averages is the mean over pairs, which 200 pairs
## estimate; the angle is taken at each pair's own footpoint.
n_main <- 20L
n_rel <- 200L
d20 <- generate(n_main)
fit20 <- geodesic_regression(S2, d20$x, d20$Y)
fit20_mae <- mae(d20, fit20$footpoint, fit20$shooting)
main <- list()
for (scheme in c("paper", "joint")) {
  sc <- t(dp_replicate(function(i) score(d20, fit20, release(d20, scheme, control_of(scheme, n_main))),
                       times = n_rel, seed = if (scheme == "paper") 2025001L else 2025002L, simplify = TRUE))
  main[[scheme]] <- data.frame(scheme = scheme, sc)
  cat(sprintf("(i) %s: %d releases, %.0f s\n", scheme, n_rel, elapsed()))
}
main <- do.call(rbind, main)
rownames(main) <- NULL
example_release <- release(d20, "joint", NULL)   # for a picture
example_release$call <- NULL

## The paper's own noise scales (App. A): tau = the largest residual of the
## fit (read off the data), |J_p(1)| = cos 1, |J_v(1)| = sin 1, sigma = Delta/eps.
tau_paper <- max(riem_dist(S2, fitted(fit20), d20$Y))
sigma_table <- data.frame(
  source = c("Kulkarni & Soto (2025), App. A", "package, scheme = \"paper\"", "package, scheme = \"joint\""),
  tau = c(tau_paper, public$tau, public$tau),
  sigma_footpoint = c(2 * tau_paper * cos(1) / n_main / 1, 2 * public$tau / n_main / 1, NA),
  sigma_shooting = c(2 * tau_paper * sin(1) / n_main / 1, 2 * public$tau / n_main / 1, NA),
  sigma_joint = c(NA, NA, 2 * sqrt(2) * 2 * public$tau / n_main / 2))

## ---------------------------------------------------------------------------
## (ii) App. B: theoretical / empirical sensitivity over 100 adjacent pairs
## ---------------------------------------------------------------------------
## n + 1 points from the design; D drops the first, D' the last (App. B).
## Both gradients are evaluated at the same (p, v): the non-private fit of D
## ("fit"), and a uniform point of the public domain ("domain": p uniform in
## the ball of radius 0.25 around q0, v uniform in the disc |v| <= tau_m).
## Three versions of the ratio:
##   paper:   tau = the largest residual over D and D' at (p, v), Delta_p =
##            2 tau cos(1) / n, Delta_v = 2 tau sin(1) / n, unclipped gradients;
##   tau_max: the same tau with the correct Jacobi factor 1 (DESIGN §4);
##   package: sensitivity_geodesic_regression(S2, n, tau = 0.1), gradients
##            with residuals clipped to tau = 0.1 (what the release uses).
n_pairs <- 100L
grad_diff <- function(x1, Y1, x2, Y2, p, v, tau) {
  g1 <- riemdp:::regression_energy(S2, p, v, x1, Y1, tau = tau)
  g2 <- riemdp:::regression_energy(S2, p, v, x2, Y2, tau = tau)
  c(p = sqrt(sum((g1$grad_footpoint - g2$grad_footpoint)^2)),
    v = sqrt(sum((g1$grad_shooting - g2$grad_shooting)^2)))
}
random_domain_point <- function() {
  # uniform on the geodesic ball (area element sin r dr dphi) and on the disc
  r <- acos(1 - stats::runif(1) * (1 - cos(public$radius)))
  u <- stats::rnorm(3); u <- u - sum(u * q0) * q0; u <- u / sqrt(sum(u^2))
  p <- as.double(riem_exp(S2, q0, r * u))
  s <- public$tau_m * sqrt(stats::runif(1))
  u <- stats::rnorm(3); u <- u - sum(u * p) * p; u <- u / sqrt(sum(u^2))
  list(p = p, v = s * u)
}
delta_pkg <- sensitivity_geodesic_regression(S2, n_main, tau = public$tau)
ratios <- list()
for (i in seq_len(n_pairs)) {
  d <- generate(n_main + 1L)
  D1 <- list(x = d$x[-1], Y = d$Y[-1, ])
  D2 <- list(x = d$x[-(n_main + 1L)], Y = d$Y[-(n_main + 1L), ])
  f <- geodesic_regression(S2, D1$x, D1$Y)
  for (where in c("fit", "domain")) {
    z <- if (where == "fit") list(p = as.double(f$footpoint), v = as.double(f$shooting)) else random_domain_point()
    res_all <- c(riem_dist(S2, riem_geodesic(S2, z$p, z$v, D1$x), D1$Y),
                 riem_dist(S2, riem_geodesic(S2, z$p, z$v, D2$x[1]), D2$Y[1, , drop = FALSE]))
    tau_pair <- max(res_all)
    raw <- grad_diff(D1$x, D1$Y, D2$x, D2$Y, z$p, z$v, Inf)
    clipped <- grad_diff(D1$x, D1$Y, D2$x, D2$Y, z$p, z$v, public$tau)
    ratios[[length(ratios) + 1L]] <- data.frame(
      pair = i, at = where, tau_pair = tau_pair,
      paper_p = 2 * tau_pair * cos(1) / n_main / raw[["p"]],
      paper_v = 2 * tau_pair * sin(1) / n_main / raw[["v"]],
      taumax_p = 2 * tau_pair / n_main / raw[["p"]],
      taumax_v = 2 * tau_pair / n_main / raw[["v"]],
      package_p = delta_pkg[["footpoint"]] / clipped[["p"]],
      package_v = delta_pkg[["shooting"]] / clipped[["v"]])
  }
}
ratios <- do.call(rbind, ratios)
cat(sprintf("(ii) sensitivity ratios, %.0f s\n", elapsed()))

## ---------------------------------------------------------------------------
## (iii) Fig. 6: MAE of the private geodesics against n
## ---------------------------------------------------------------------------
## 11 releases per n and scheme, as in the paper, one data set per n: the
## joint release with its default chain; scheme = "paper" with the long
## chains above ("long") and with the default mcmc_control() ("short"), to
## show what a short random-walk chain gives.
ns <- c(10L, 20L, 50L, 100L, 200L)
n_rep6 <- 11L
fig6 <- list()
for (n in ns) {
  d <- generate(n)
  f <- geodesic_regression(S2, d$x, d$Y)
  for (scheme in c("paper", "joint")) for (ctl in if (scheme == "paper") c("long", "short") else "default") {
    control <- switch(ctl, long = control_for(n), short = mcmc_control(), default = NULL)
    # one seed per (n, scheme, chain): 2025 * 1000 + 100 * (index of n) + 10 * (scheme) + (chain)
    sc <- t(dp_replicate(function(i) score(d, f, release(d, scheme, control)), times = n_rep6,
                         seed = 2025000L + 100L * match(n, ns) + 10L * (scheme == "joint") + (ctl == "short"),
                         simplify = TRUE))
    fig6[[length(fig6) + 1L]] <- data.frame(
      n = n, scheme = scheme, chain = ctl,
      iterations = if (is.null(control)) joint_iterations else control$burn_in + control$n_iter,
      fit_mae = mae(d, f$footpoint, f$shooting),
      mae_mean = mean(sc[, "mae"]), mae_sd = stats::sd(sc[, "mae"]),
      dist_mean = mean(sc[, "dist"]), angle_sd = stats::sd(sc[, "angle"]))
  }
  cat(sprintf("(iii) n = %d, %.0f s\n", n, elapsed()))
}
fig6 <- do.call(rbind, fig6)

## ---------------------------------------------------------------------------
## Save
## ---------------------------------------------------------------------------
out <- list(
  settings = list(q0 = q0, zeta = zeta, zeta_length = zeta_length, noise_var = noise_var,
                  public = public, n_main = n_main, n_rel = n_rel, n_pairs = n_pairs, ns = ns,
                  n_rep6 = n_rep6, chain_length = vapply(ns, chain_length, integer(1)),
                  joint_iterations = joint_iterations,
                  seed = 2025L, riemdp = as.character(utils::packageVersion("riemdp")),
                  R = R.version.string, date = format(Sys.Date()), runtime_s = NA_real_),
  data20 = d20, fit20 = list(footpoint = as.double(fit20$footpoint), shooting = as.double(fit20$shooting),
                             mae = fit20_mae, tau_paper = tau_paper),
  main = main, example = list(footpoint = as.double(example_release$footpoint),
                              shooting = as.double(example_release$shooting)),
  sigma_table = sigma_table, delta_package = delta_pkg, ratios = ratios, fig6 = fig6)
out$settings$runtime_s <- round(elapsed())
out$settings$workers <- if (requireNamespace("future", quietly = TRUE)) future::nbrOfWorkers() else 1L
dir.create("vignettes/data", showWarnings = FALSE)
saveRDS(out, "vignettes/data/private-geodesic-regression.rds", version = 2)
cat(sprintf("saved vignettes/data/private-geodesic-regression.rds (%d bytes), %.0f s\n",
            file.size("vignettes/data/private-geodesic-regression.rds"), elapsed()))
if (!is.null(old_plan)) future::plan(old_plan)
