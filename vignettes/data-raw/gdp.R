## Simulations behind vignettes/gdp.Rmd: a reproduction of Fig. 1 of Jiang,
## Chang, Liu, Ding, Kong and Jiang (2023), "Gaussian differential privacy on
## Riemannian manifolds" (NeurIPS 2023: Sec. 4.2 and Sec. 5.2, Appendix A.6),
## with the package's corrected estimators beside the paper's.
##
## Run from the package root with riemdp installed:
##     Rscript vignettes/data-raw/gdp.R
## Writes inst/extdata/gdp.rds (16 kB). Base R only; takes about
## two minutes sequentially (107 s when the data were made, the other core busy).
##
## The replicates (the 20 runs of each Monte Carlo estimator, the 1000 repeats
## of (ii)) go through dp_replicate(): sequentially by default, in parallel
## under a future::plan() set before source()-ing the script, or with
## RIEMDP_WORKERS=k in the environment (a multisession plan with k workers).
## Each replicate draws from its own L'Ecuyer-CMRG stream, fixed by the seed
## of its dp_replicate() call, so the results do not depend on the plan; the
## single runs (profile, sup_at, Algorithm 2's mu in (ii)) are fixed by
## set.seed(). The timings are per run, measured inside each run.
##
## (i)  mu against sigma = k/4, k = 1..16, Delta = 1, on S^1, R and S^2:
##      Algorithm 1 (S^1; the corrected profile of vignette("methods") and the paper's
##      Cor. 3.2.1 as printed), Algorithm 2 as published (n = 1000, m = 100,
##      n_eps = 1000, 20 replicates; eps_max = pi/(2 sigma^2) on S^1 and
##      max{10, 5/sigma + 1/(2 sigma^2)} on R as in Sec. 4.2; the package's
##      default on S^2), the change-of-measure Monte Carlo estimator with the
##      same budget (20 replicates), quadrature, and mu = 1/sigma on R.
## (ii) Sec. 5.2: Gaussian against Laplace release of a Frechet mean on S^2 at
##      matched privacy: data in B_{pi/8}(north), n = 10 (Delta = 0.12146),
##      sigma = k/4, k = 1..12, mu = gdp_mu(S2, sigma, Delta), the Laplace
##      with the footprint-free rate Delta/eps at eps = dp_from_gdp(mu);
##      1000 repeats (the text's count; the caption says 100), fresh data each
##      repeat, distance d(xbar, release).
## (iii) 100 single runs of Algorithm 2 per (manifold, sigma), sigma = 0.25,
##      1, 2, 3, 4, against the exact mu (as bench/gdp-algorithm2-runs.R).

suppressPackageStartupMessages(library(riemdp))
t_start <- proc.time()[["elapsed"]]
workers <- suppressWarnings(as.integer(Sys.getenv("RIEMDP_WORKERS", "1")))
old_plan <- if (!is.na(workers) && workers > 1L) future::plan(future::multisession, workers = workers)
set.seed(2023)

S1 <- manifold_sphere(1)
S2 <- manifold_sphere(2)
R1 <- manifold_euclidean(1)
sigmas <- (1:16) / 4
Delta <- 1
n_rep <- 20L                   # Algorithm 2 / Monte Carlo replicates per sigma
budget <- list(n = 1000L, m = 100L, n_epsilon = 1000L)
ctl <- function(epsilon_max = NULL, ...) do.call(gdp_control, c(budget, list(epsilon_max = epsilon_max, ...)))
eps_max_s1 <- function(s) pi * Delta / (2 * s^2)                 # Sec. 4.2 / Algorithm 1
eps_max_r <- function(s) max(10, 5 / s + 1 / (2 * s^2))          # Sec. 4.2

## ---------------------------------------------------------------------------
## (i) mu against sigma
## ---------------------------------------------------------------------------
reps <- function(M, s, method, control, seed) {
  r <- dp_replicate(function(i) {
    t0 <- proc.time()[["elapsed"]]
    mu <- as.numeric(gdp_mu(M, s, Delta, method = method, control = control))
    c(mu = mu, time = proc.time()[["elapsed"]] - t0)
  }, times = n_rep, seed = seed, simplify = TRUE)
  list(mu = r["mu", ], time = mean(r["time", ]))
}
summ <- function(r) c(mean = mean(r$mu), min = min(r$mu), max = max(r$mu), sd = stats::sd(r$mu), time = r$time)
fig1 <- list()
cases <- c("S1", "R", "S2")
for (case in cases) {
  M <- switch(case, S1 = S1, R = R1, S2 = S2)
  rows <- lapply(sigmas, function(s) {
    em <- switch(case, S1 = eps_max_s1(s), R = eps_max_r(s), S2 = NULL)
    # one seed per (manifold, sigma, estimator): 2023000 + 100 * (manifold) + 2 * (index of sigma) + (estimator)
    seed <- 2023000L + 100L * match(case, cases) + 2L * match(s, sigmas)
    a2 <- summ(reps(M, s, "algorithm2", ctl(em), seed))
    mc <- summ(reps(M, s, "monte_carlo", ctl(em), seed + 1L))
    exact <- switch(case,
                    S1 = as.numeric(gdp_mu(M, s, Delta, method = "algorithm1")),
                    R = Delta / s,
                    S2 = as.numeric(gdp_mu(M, s, Delta, method = "quadrature")))
    quad <- if (case == "R") NA_real_ else as.numeric(gdp_mu(M, s, Delta, method = "quadrature"))
    paper1 <- if (case == "S1") as.numeric(gdp_mu(M, s, Delta, method = "algorithm1",
                                                  control = gdp_control(profile = "paper")))
              else NA_real_
    em_used <- gdp_mu(M, s, Delta, method = "algorithm2", control = ctl(em))$epsilon_max
    data.frame(manifold = case, sigma = s, exact = exact, quadrature = quad, algorithm1_paper = paper1,
               alg2_mean = a2[["mean"]], alg2_min = a2[["min"]], alg2_max = a2[["max"]], alg2_sd = a2[["sd"]],
               mc_mean = mc[["mean"]], mc_min = mc[["min"]], mc_max = mc[["max"]], mc_sd = mc[["sd"]],
               alg2_time = a2[["time"]], mc_time = mc[["time"]], epsilon_max = em_used)
  })
  fig1[[case]] <- do.call(rbind, rows)
  cat(sprintf("(i) %s done, %.0f s\n", case, proc.time()[["elapsed"]] - t_start))
}
fig1 <- do.call(rbind, fig1)
rownames(fig1) <- NULL

## Where the supremum over eps sits, and the profile at sigma = 0.25 on S^2 by
## the two Monte Carlo estimators and quadrature (the paper's estimator
## multiplies a rare-event frequency by e^eps).
prof_sigma <- 0.25
prof_eps <- seq(0, gdp_mu(S2, prof_sigma, Delta, method = "algorithm2")$epsilon_max, length.out = 400L)
prof <- list(
  sigma = prof_sigma, epsilon = prof_eps,
  quadrature = privacy_profile(S2, prof_sigma, Delta, epsilon = prof_eps, method = "quadrature")$l,
  monte_carlo = privacy_profile(S2, prof_sigma, Delta, epsilon = prof_eps, method = "monte_carlo")$l,
  algorithm2 = privacy_profile(S2, prof_sigma, Delta, epsilon = prof_eps, method = "algorithm2")$l)
sup_at <- do.call(rbind, lapply(c(0.25, 0.5, 1, 2, 4), function(s) {
  q <- gdp_mu(S2, s, Delta, method = "quadrature")
  a <- gdp_mu(S2, s, Delta, method = "algorithm2")
  data.frame(sigma = s, mu_quadrature = q$mu, eps_sup_quadrature = q$epsilon_sup,
             mu_algorithm2 = a$mu, eps_sup_algorithm2 = a$epsilon_sup)
}))

## ---------------------------------------------------------------------------
## (ii) Sec. 5.2: Gaussian vs Laplace release of a Frechet mean on S^2
## ---------------------------------------------------------------------------
north <- c(0, 0, 1)
r_ball <- pi / 8
n_data <- 10L
n_rep2 <- 1000L
sigmas2 <- (1:12) / 4
Delta2 <- sensitivity_frechet_mean(S2, n_data, r_ball)
gen <- function(n) {          # polar angle U[0, pi/8] about the north pole
  th <- stats::runif(n, 0, r_ball)
  ph <- stats::runif(n, 0, 2 * pi)
  cbind(sin(th) * cos(ph), sin(th) * sin(ph), cos(th))
}
## mu of the Gaussian release: quadrature (exact) and, as the paper did,
## Algorithm 2 (one call per sigma); the Laplace at the matched epsilon.
mu_q <- vapply(sigmas2, function(s) as.numeric(gdp_mu(S2, s, Delta2, method = "quadrature")), 0)
mu_a2 <- vapply(sigmas2, function(s) as.numeric(gdp_mu(S2, s, Delta2, method = "algorithm2")), 0)
eps_q <- dp_from_gdp(mu_q)
eps_a2 <- dp_from_gdp(mu_a2)
## One repeat: fresh data, then the three releases at each sigma (a 3 x 12 matrix).
rep2 <- dp_replicate(function(i) {
  xbar <- coef(frechet_mean(S2, gen(n_data), tol = 1e-12))
  vapply(seq_along(sigmas2), function(k) c(
    riem_dist(S2, xbar, riem_rgaussian(S2, 1, xbar, sigmas2[k])),
    riem_dist(S2, xbar, riem_rlaplace(S2, 1, xbar, Delta2 / eps_q[k])),
    riem_dist(S2, xbar, riem_rlaplace(S2, 1, xbar, Delta2 / eps_a2[k]))), numeric(3))
}, times = n_rep2, seed = 2023999L)
rows2 <- function(j) t(vapply(rep2, function(r) r[j, ], numeric(length(sigmas2))))
d_gauss <- rows2(1L); d_lap <- rows2(2L); d_lap_a2 <- rows2(3L)
se <- function(d) apply(d, 2L, stats::sd) / sqrt(nrow(d))
util <- data.frame(sigma = sigmas2, mu = mu_q, mu_algorithm2 = mu_a2, epsilon = eps_q,
                   epsilon_algorithm2 = eps_a2,
                   gauss_mean = colMeans(d_gauss), gauss_se = se(d_gauss),
                   laplace_mean = colMeans(d_lap), laplace_se = se(d_lap),
                   laplace_a2_mean = colMeans(d_lap_a2), laplace_a2_se = se(d_lap_a2))
cat(sprintf("(ii) done, %.0f s\n", proc.time()[["elapsed"]] - t_start))

## ---------------------------------------------------------------------------
## (iii) Single runs of Algorithm 2 against the exact mu: how often, and by
## how much, one run understates mu (bench/gdp-algorithm2-runs.R, the same
## code and seed): 100 runs per (manifold, sigma), the paper's budget,
## Delta = 1, its epsilon_max on S^1 and R, the package default on S^2.
## ---------------------------------------------------------------------------
runs3 <- 100L
sigmas3 <- c(0.25, 1, 2, 3, 4)
ctl3 <- function(epsilon_max = NULL)
  gdp_control(n = 1000, m = 100, n_epsilon = 1000, epsilon_max = epsilon_max, verbose = FALSE)
cases3 <- list(
  S1 = list(M = S1, em = function(s) pi * Delta / (2 * s^2),
            exact = function(s) as.numeric(gdp_mu(S1, s, Delta, method = "algorithm1"))),
  R = list(M = manifold_euclidean(1), em = function(s) max(10, 5 / s + 1 / (2 * s^2)),
           exact = function(s) Delta / s),
  S2 = list(M = manifold_sphere(2), em = function(s) NULL,
            exact = function(s) as.numeric(gdp_mu(manifold_sphere(2), s, Delta, method = "quadrature")))
)
set.seed(20231)
rows3 <- list()
for (nm in names(cases3)) {
  cs <- cases3[[nm]]
  for (s in sigmas3) {
    ex <- cs$exact(s)
    mu <- vapply(seq_len(runs3), function(i)
      as.numeric(gdp_mu(cs$M, s, Delta, method = "algorithm2", control = ctl3(cs$em(s)))), 0)
    rel <- mu / ex - 1
    rows3[[length(rows3) + 1L]] <- data.frame(
      manifold = nm, sigma = s, exact = ex, runs = runs3,
      below = mean(rel < 0), min_pct = 100 * min(rel), q05_pct = 100 * unname(stats::quantile(rel, 0.05)),
      mean_pct = 100 * mean(rel), max_pct = 100 * max(rel))
  }
}
alg2_runs <- do.call(rbind, rows3)
cat(sprintf("(iii) done, %.0f s\n", proc.time()[["elapsed"]] - t_start))

## ---------------------------------------------------------------------------
## Save
## ---------------------------------------------------------------------------
out <- list(
  settings = list(sigmas = sigmas, Delta = Delta, n_rep = n_rep, budget = budget, sigmas2 = sigmas2,
                  Delta2 = Delta2, n_data = n_data, r_ball = r_ball, n_rep2 = n_rep2, seed = 2023L,
                  riemdp = as.character(utils::packageVersion("riemdp")), R = R.version.string,
                  date = format(Sys.Date()), runtime_s = round(proc.time()[["elapsed"]] - t_start),
                  workers = if (requireNamespace("future", quietly = TRUE)) future::nbrOfWorkers() else 1L),
  fig1 = fig1, profile = prof, sup_at = sup_at, util = util, alg2_runs = alg2_runs)
dir.create("inst/extdata", showWarnings = FALSE)
saveRDS(out, "inst/extdata/gdp.rds", version = 2, compress = "xz")
cat(sprintf("saved inst/extdata/gdp.rds (%d bytes), %.0f s\n",
            file.size("inst/extdata/gdp.rds"), proc.time()[["elapsed"]] - t_start))
if (!is.null(old_plan)) future::plan(old_plan)
