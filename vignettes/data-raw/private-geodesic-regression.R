## Simulations behind vignettes/private-geodesic-regression.Rmd: a replication
## of the sphere experiment of Kulkarni & Soto (2025), "Differentially private
## geodesic and linear regression" (Sec. 4.1, App. A, App. B, Fig. 2, 3, 5,
## 6), three ways:
##   * the paper's procedure as written (App. A in plain R below: the fitted
##     v-hat carried along, tau read off the data, unclipped gradients, random
##     walks started at the fit). It is NOT differentially private and is
##     labelled so everywhere; it is here to check the paper's numbers;
##   * the package's scheme = "paper" (App. A's two blocks with the package's
##     sensitivities, clip, public domain and public start; not DP either);
##   * the package's release, scheme = "joint" (one K-norm gradient mechanism
##     on (p, v), epsilon = 2, DP).
##
## Run from the package root with riemdp installed:
##     Rscript vignettes/data-raw/private-geodesic-regression.R
## Writes inst/extdata/private-geodesic-regression.rds (about 170 kB). Base
## R only; about two and a quarter minutes sequentially on one core (the
## runtime is saved in the file; two fifths of it in the plain-R chains of the
## procedure as written, two fifths in the 4000 releases of the chain-length
## check at n = 50).
##
## The package's replicated releases go through dp_replicate(): sequentially
## by default, in parallel under a future::plan() set before source()-ing the
## script, or with RIEMDP_WORKERS=k in the environment (a multisession plan
## with k workers). Each replicate draws from its own L'Ecuyer-CMRG stream,
## fixed by the seed of its dp_replicate() call, so the results do not depend
## on the plan; the procedure as written runs in this process from its own
## seeds (with_seed() below); everything else (the data, the sensitivity
## pairs) is fixed by set.seed().

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

## Both schemes of the package use the release's default chain (control =
## NULL: (250 + 25 D) k burn-in steps and as many after, k = min(20,
## ceiling(200 / n)); D = 4 for the joint release on S^2, D = 2 for each of
## the two blocks of scheme = "paper"; at n = 20, k = 10). A chain ten times
## as long (long_control()) checks that the default has reached the law, for
## both schemes at n = 20 and at n = 50. (An earlier version of the
## package's sampler could leave the shooting block of scheme = "paper" at
## its start v = 0; the check at n = 50 counts releases with |v| < 1e-6 and
## stops if there are any.)
chain_half <- function(scheme, n) riemdp:::kng_chain_length(if (scheme == "joint") 4L else 2L, n)$burn_in
default_steps <- function(n) c(joint = 2L * chain_half("joint", n), paper = 2L * 2L * chain_half("paper", n))
long_control <- function(scheme, n) {
  half <- 10L * chain_half(scheme, n)
  mcmc_control(burn_in = half, n_iter = half)
}

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
## estimate; the angle is taken at each pair's own footpoint. Each scheme
## twice: with the default chain and with one ten times as long.
n_main <- 20L
n_rel <- 200L
d20 <- generate(n_main)
fit20 <- geodesic_regression(S2, d20$x, d20$Y)
fit20_mae <- mae(d20, fit20$footpoint, fit20$shooting)
main <- list()
for (scheme in c("paper", "joint")) for (chain in c("default", "10x")) {
  control <- if (chain == "default") NULL else long_control(scheme, n_main)
  # one seed per (scheme, chain)
  sc <- t(dp_replicate(function(i) score(d20, fit20, release(d20, scheme, control)),
                       times = n_rel, simplify = TRUE,
                       seed = 2025000L + (if (scheme == "paper") 1L else 2L) + (if (chain == "10x") 10L else 0L)))
  main[[paste(scheme, chain)]] <- data.frame(scheme = scheme, chain = chain, sc)
  cat(sprintf("(i) %s, %s chain: %d releases, %.0f s\n", scheme, chain, n_rel, elapsed()))
}
main <- do.call(rbind, main)
rownames(main) <- NULL
example_release <- release(d20, "joint", NULL)   # for a picture
example_release$call <- NULL

## ---------------------------------------------------------------------------
## (i b) The paper's procedure as written (App. A, Sec. 4.1): NOT private
## App. A and Sec. 4.1 as written, and the choices this re-implementation
## takes where the paper is silent, are described in the file it lives in,
## inst/scripts/app-a-as-written.R (installed: system.file("scripts",
## "app-a-as-written.R", package = "riemdp")): paper_as_written() and the
## closed-form sphere gradients it uses.
source(file.path("inst", "scripts", "app-a-as-written.R"), local = TRUE)
## The check of sphere_gradients() against the package.
local({
  P <- rbind(as.double(fit20$footpoint), q0, q0)
  V <- rbind(as.double(fit20$shooting), 3 * zeta, c(0, 0, 0))
  g <- sphere_gradients(P, V, d20$x, d20$Y)
  for (k in 1:3) {
    r <- riemdp:::regression_energy(S2, P[k, ], V[k, ], d20$x, d20$Y)
    stopifnot(max(abs(r$grad_footpoint - g$grad_p[k, ])) < 1e-10,
              max(abs(r$grad_shooting - g$grad_v[k, ])) < 1e-10)
  }
})

## One row of the reported numbers.
written_row <- function(r) data.frame(
  tau = r$tau, fit_mae = r$fit_mae, dist_mean = mean(r$main$dist), dist_sd = stats::sd(r$main$dist),
  angle_mean = mean(r$main$angle1), angle_sd = stats::sd(r$main$angle1), angle_all_sd = r$main$angle_all_sd,
  mae_mean = mean(r$main$mae_bar), mae_sd = stats::sd(r$main$mae_bar))

m_written <- 200L
written <- paper_as_written(d20, m_written, seed = 2025100L, check = TRUE)
cat(sprintf("(i b) procedure as written, main run with the convergence check, %.0f s\n", elapsed()))
## The spread of the reported numbers: 10 more runs on the same data (the
## chains' randomness), and one run on each of 10 new data sets from the
## same design (q0, zeta fixed; the data's randomness too).
n_written_reps <- 10L
written_reps <- list(cbind(source = "same data", run = 0L, written_row(written)))
for (r in seq_len(n_written_reps)) {
  written_reps[[length(written_reps) + 1L]] <-
    cbind(source = "same data", run = r, written_row(paper_as_written(d20, m_written, seed = 2025100L + r)))
  d_new <- with_seed(2025200L + r, generate(n_main))
  written_reps[[length(written_reps) + 1L]] <-
    cbind(source = "new data", run = r, written_row(paper_as_written(d_new, m_written, seed = 2025300L + r)))
}
written_reps <- do.call(rbind, written_reps)
cat(sprintf("(i b) %d more runs, %.0f s\n", 2L * n_written_reps, elapsed()))

## The paper's own noise scales (App. A): tau = the largest residual of the
## fit (read off the data), |J_p(1)| = cos 1, |J_v(1)| = sin 1, sigma = Delta/eps.
tau_paper <- max(riem_dist(S2, fitted(fit20), d20$Y))
sigma_table <- data.frame(
  source = c("Kulkarni & Soto (2025), App. A (the procedure as written)", "package, scheme = \"paper\"",
             "package, scheme = \"joint\""),
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
##   tau_max: the same tau with the correct Jacobi factor 1 (vignette("methods", package = "riemdp"));
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
## One data set per n. Both schemes of the package: 11 releases each (as in
## the paper), with the default chain, the mean and sd over releases. The
## procedure as written: m = 11 footpoints and 11 shooting vectors at each
## (the paper's "11 sampled replicates"), the mean and sd over the 11
## per-footpoint averages E-bar_i (the paper's error bars). At n = 50, where
## the joint release's law is concentrated but not yet at the fit, 1000 more
## releases per scheme with the default chain and 1000 with one ten times as
## long check the default length there too.
ns <- c(10L, 20L, 50L, 100L, 200L)
n_rep6 <- 11L
n_check <- 50L
n_check_rel <- 1000L
fig6 <- list()
chain_check <- list()
for (n in ns) {
  d <- generate(n)
  f <- geodesic_regression(S2, d$x, d$Y)
  # one seed per n and scheme: 2025000 + 100 * (index of n) + 10 (joint) or + 20 (paper)
  for (scheme in c("joint", "paper")) {
    sc <- t(dp_replicate(function(i) score(d, f, release(d, scheme, NULL)), times = n_rep6,
                         seed = 2025000L + 100L * match(n, ns) + (if (scheme == "joint") 10L else 20L),
                         simplify = TRUE))
    fig6[[length(fig6) + 1L]] <- data.frame(
      n = n, scheme = scheme, fit_mae = mae(d, f$footpoint, f$shooting),
      mae_mean = mean(sc[, "mae"]), mae_sd = stats::sd(sc[, "mae"]),
      dist_mean = mean(sc[, "dist"]), angle_sd = stats::sd(sc[, "angle"]))
  }
  # one seed per scheme and chain: 2025500 + (10x) (joint), 2025600 + (10x) (paper)
  if (n == n_check) for (scheme in c("joint", "paper")) for (chain in c("default", "10x")) {
    control <- if (chain == "default") NULL else long_control(scheme, n)
    sc <- t(dp_replicate(function(i) score(d, f, release(d, scheme, control)), times = n_check_rel,
                         seed = (if (scheme == "joint") 2025500L else 2025600L) + (chain == "10x"), simplify = TRUE))
    chain_check[[paste(scheme, chain)]] <- data.frame(n = n, scheme = scheme, chain = chain,
                                                      fit_mae = mae(d, f$footpoint, f$shooting), sc)
    cat(sprintf("(iii) n = %d, chain check, %s, %s chain: %d releases, %.0f s\n",
                n, scheme, chain, n_check_rel, elapsed()))
  }
  w6 <- paper_as_written(d, n_rep6, seed = 2025400L + match(n, ns))
  fig6[[length(fig6) + 1L]] <- data.frame(
    n = n, scheme = "as written", fit_mae = w6$fit_mae,
    mae_mean = mean(w6$main$mae_bar), mae_sd = stats::sd(w6$main$mae_bar),
    dist_mean = mean(w6$main$dist), angle_sd = stats::sd(w6$main$angle1))
  cat(sprintf("(iii) n = %d, %.0f s\n", n, elapsed()))
}
fig6 <- do.call(rbind, fig6)
chain_check <- do.call(rbind, chain_check)
rownames(chain_check) <- NULL
## At n = 50, per scheme and chain: releases whose shooting vector stayed at
## the start v = 0 (|v| < 1e-6), and the share with MAE above 0.1.
chain_check_summary <- do.call(rbind, lapply(split(chain_check, list(chain_check$scheme, chain_check$chain)), function(r)
  data.frame(scheme = r$scheme[1], chain = r$chain[1], releases = nrow(r), at_zero = sum(r$speed < 1e-6),
             mae_above_0.1 = mean(r$mae > 0.1), mae_mean = mean(r$mae), dist_mean = mean(r$dist))))
chain_check_summary <- chain_check_summary[order(chain_check_summary$scheme, chain_check_summary$chain != "default"), ]
rownames(chain_check_summary) <- NULL
print(chain_check_summary)
if (any(chain_check_summary$at_zero > 0))
  stop("releases at n = ", n_check, " with |v| < 1e-6: the shooting chain stayed at its start")

## ---------------------------------------------------------------------------
## Save
## ---------------------------------------------------------------------------
out <- list(
  settings = list(q0 = q0, zeta = zeta, zeta_length = zeta_length, noise_var = noise_var,
                  public = public, n_main = n_main, n_rel = n_rel, n_pairs = n_pairs, ns = ns,
                  n_rep6 = n_rep6, n_check = n_check, n_check_rel = n_check_rel, default_iterations = default_steps(n_main),
                  long_iterations = 10L * default_steps(n_main),
                  default_iterations_by_n = t(vapply(ns, default_steps, integer(2))),
                  seed = 2025L, riemdp = as.character(utils::packageVersion("riemdp")),
                  R = R.version.string, date = format(Sys.Date()), runtime_s = NA_real_),
  data20 = d20, fit20 = list(footpoint = as.double(fit20$footpoint), shooting = as.double(fit20$shooting),
                             mae = fit20_mae, tau_paper = tau_paper),
  main = main, example = list(footpoint = as.double(example_release$footpoint),
                              shooting = as.double(example_release$shooting)),
  as_written = c(written[c("n", "tau", "sigma", "eta", "acceptance", "fit_mae", "main", "check")],
                 list(m = m_written, burn_in = burn_in_written, eta_factor = eta_factor, seed = 2025100L,
                      runs = written_reps)),
  sigma_table = sigma_table, delta_package = delta_pkg, ratios = ratios, fig6 = fig6,
  # the article reads only the chain check's distances and MAEs (to 6
  # significant digits): the installed package stays under 5 MB
  chain_check = data.frame(chain_check[c("scheme", "chain")], signif(chain_check[c("dist", "mae")], 6)),
  chain_check_summary = chain_check_summary)
out$settings$runtime_s <- round(elapsed())
out$settings$workers <- if (requireNamespace("future", quietly = TRUE)) future::nbrOfWorkers() else 1L
dir.create("inst/extdata", showWarnings = FALSE)
saveRDS(out, "inst/extdata/private-geodesic-regression.rds", version = 2, compress = "xz")
cat(sprintf("saved inst/extdata/private-geodesic-regression.rds (%d bytes), %.0f s\n",
            file.size("inst/extdata/private-geodesic-regression.rds"), elapsed()))
if (!is.null(old_plan)) future::plan(old_plan)
