## Benchmark: the Metropolis-Hastings chain behind dp_geodesic_regression()
## (scheme "joint") against a plain-R implementation of the same chain
## written below, and the 200-release replication of Kulkarni & Soto (2025) §4.1 --
## issue 8, "Speed".
##
## Run from the package root with the package installed:
##     Rscript bench/dp-regression.R
## Uses only base R (system.time / proc.time); everything is fixed by
## set.seed(). Times are medians of repeated runs (elapsed).
## Total runtime: about 50 s on a quiet machine, 2 minutes under load.
##
## The chain (src/riemdp/sampling/mh_bundle.h, privacy/regression_kng.h),
## called as R/dp-regression.R calls it: riemdp:::samp_mh_regression() with
## block "joint" and the public mixing matrix A = riemdp:::proposal_mixing(1).
## From (p, v) it proposes
##     (xi, zeta) = s (g_0, g_1) A^T,  g_0, g_1 iid N(0, I) on T_p S^2,
##     p' = Exp_p(xi) (rejected if |xi| >= pi),  v' = Gamma_{p->p'}(v + zeta),
## and accepts with probability min(1, f(p', v') / f(p, v)), where
##     log f(p, v) = -|grad E_tau(p, v; D)| / sigma  on the domain
##     dist(center, p) <= radius, |v| <= tau_m (-Inf outside),
## |grad|^2 = |grad_p|^2 + |grad_v|^2, residuals clipped to norm tau (Huber).
## The plain-R chain does the same with plain-R sphere Exp / Log / parallel
## transport and the gradient (methods article, "Fitting") in its textbook form: each clipped
## residual eps_i = Log_{yhat_i}(y_i) min(1, tau/|eps_i|) is transported back
## to p along the geodesic, split against vhat = v/|v|, and
##     grad_p = -(1/n) sum_i [eps_par + cos(x_i L) eps_perp],
##     grad_v = -(1/n) sum_i [x_i eps_par + sin(x_i L)/L eps_perp],  L = |v|
## (riemdp evaluates the same fields in the frame (p, v/|v|, p x v/|v|) of
## the fitted great circle, on vector lanes: Sphere::gradient_pass_s2 and
## s2_pass_kernel in src/riemdp/geometry/sphere.h). Each pass over the data is a
## handful of whole-matrix R operations (vectorised over the n points); a
## second, per-point version loops over the data calling small R functions
## for one point at a time (the literal transcription, as in
## bench/regression.R). The loop over MH steps is an R loop in both. The
## plain-R tangent Gaussians are ambient
## N(0, I) vectors projected onto T_p (the same law as riemdp's basis
## construction). Before timing, the plain-R log density is checked against
## riemdp's at random (p, v) of the domain (riemdp:::regression_energy(...,
## tau) gives the clipped gradient) and at states of riemdp's chain against
## the log density the chain itself reports.
##
## Timed: (a) steps per second of both chains at n = 20 and n = 1000 with the
## same fixed step (adapted once by riemdp's burn-in), both started at a state
## of the adapted chain; (b) riemdp's cost per step against n (where the time
## goes); (c) 200 releases of dp_geodesic_regression() at n = 20 on the sphere
## with dp_geodesic_regression()'s default control (3500 + 3500 steps at n = 20, D = 4) (the design of Kulkarni & Soto (2025), §4.1), scheme "joint"
## (epsilon = 2) and scheme "paper" (epsilon = 1 + 1).

suppressPackageStartupMessages(library(riemdp))
options(width = 160)
t_start <- proc.time()[["elapsed"]]
set.seed(20240801)

## ---------------------------------------------------------------------------
## Timing helper: median over `reps` measurements of one call of f(), seconds.
## ---------------------------------------------------------------------------
time_median <- function(f, reps = 5L) {
  f()                                         # warm up
  ts <- numeric(reps)
  for (r in seq_len(reps)) {
    invisible(gc(verbose = FALSE))
    ts[r] <- system.time(f(), gcFirst = FALSE)[["elapsed"]]
  }
  stats::median(ts)
}
## The same for several functions, measured in turn (f1, f2, ..., f1, f2, ...)
## so that a change in the machine's load affects all of them alike: the
## ratios are taken within one run. Returns the medians, seconds.
time_interleaved <- function(fs, reps = 5L) {
  for (f in fs) f()                           # warm up
  ts <- matrix(0, reps, length(fs))
  for (r in seq_len(reps))
    for (k in seq_along(fs)) {
      invisible(gc(verbose = FALSE))
      ts[r, k] <- system.time(fs[[k]](), gcFirst = FALSE)[["elapsed"]]
    }
  apply(ts, 2L, stats::median)
}

S2 <- manifold_sphere(2)

## ---------------------------------------------------------------------------
## Data: Kulkarni & Soto (2025) §4.1 -- x_i ~ U[0, 1], y_i = Exp_q0(x_i zeta0) plus
## N(0, 0.001 I) ambient noise, projected back onto S^2. q0, zeta0 and
## |zeta0| are not stated in the paper: q0 = (1, 0, 0), zeta0 = (0, 0.6, 0.8)
## (|zeta0| = 1 rad). Public parameters of the release: x_range = [0, 1],
## tau = 0.1 (residual sd ~ 0.045), tau_m = 2, center = q0, radius = 0.5.
## ---------------------------------------------------------------------------
q0 <- c(1, 0, 0)
zeta0 <- c(0, 0.6, 0.8)
tau <- 0.1
tau_m <- 2
center <- q0
radius <- 0.5
epsilon <- 2
sim_data <- function(n) {
  x <- stats::runif(n)
  Y <- riem_geodesic(S2, q0, zeta0, x) + matrix(stats::rnorm(3 * n, sd = sqrt(0.001)), n)
  list(x = x, Y = Y / sqrt(rowSums(Y^2)))
}
## sigma = 2 Delta_joint / epsilon (R/dp-regression.R); ::: until NAMESPACE exports it
sigma_joint <- function(n) 2 * sensitivity_geodesic_regression(S2, n, tau, tau_m)[["joint"]] / epsilon
A_mix <- riemdp:::proposal_mixing(1L)        # public preconditioner (R/dp-regression.R)

## ---------------------------------------------------------------------------
## Plain-R sphere geometry and the KNG target
## ---------------------------------------------------------------------------
pr_exp <- function(p, v) {
  nv <- sqrt(sum(v^2))
  if (nv == 0) return(p)
  q <- cos(nv) * p + (sin(nv) / nv) * v
  q / sqrt(sum(q^2))
}
pr_dist <- function(p, q) 2 * atan2(sqrt(sum((p - q)^2)), sqrt(sum((p + q)^2)))
## Gamma_{p->q}(u) = u - <q, u> / (1 + <p, q>) (p + q), 1 + <p, q> = |p + q|^2 / 2
pr_transport <- function(p, q, u) {
  pq <- p + q
  u - (sum(q * u) / (0.5 * sum(pq^2))) * pq
}
## -|grad E_tau(p, v)| / sigma for the rows of Y (n x 3), or -Inf outside the domain
pr_log_target <- function(p, v, x, Y, sigma, tau) {
  if (!(pr_dist(center, p) <= radius) || !(sqrt(sum(v^2)) <= tau_m)) return(-Inf)
  n <- length(x)
  L <- sqrt(sum(v^2))
  xL <- x * L
  cx <- cos(xL)
  sx_L <- if (L > 0) sin(xL) / L else x        # sin(x L) / L -> x as L -> 0
  Fit <- outer(cx, p) + outer(sx_L, v)          # yhat_i = Exp_p(x_i v)
  ## eps_i = Log_{yhat_i}(y_i): angle 2 atan2(|y - yhat|, |y + yhat|) along
  ## the part of y - yhat orthogonal to yhat
  Dm <- Y - Fit
  a <- sqrt(rowSums(Dm^2))
  b <- sqrt(rowSums((Y + Fit)^2))
  Wt <- Dm - rowSums(Fit * Dm) * Fit
  nw <- sqrt(rowSums(Wt^2))
  theta <- 2 * atan2(a, b)
  ## clipped residual: eps_i min(1, tau / |eps_i|), |eps_i| = theta_i
  scale <- ifelse(nw > 0, theta / nw, 0) * pmin(1, tau / pmax(theta, 1e-300))
  E <- Wt * scale
  ## transported back to p: Gamma_{yhat_i -> p}(eps_i)
  PF <- Fit + rep(p, each = n)
  Ebar <- E - (drop(E %*% p) / (0.5 * rowSums(PF^2))) * PF
  ## split against vhat (along v: flat; across: curvature 1)
  if (L > 0) {
    vhat <- v / L
    Par <- outer(drop(Ebar %*% vhat), vhat)
  } else {
    Par <- matrix(0, n, 3)
  }
  Perp <- Ebar - Par
  g_p <- -colSums(Par + cx * Perp) / n
  g_v <- -colSums(x * Par + sx_L * Perp) / n
  -sqrt(sum(g_p^2) + sum(g_v^2)) / sigma
}

## The same log density point by point: the literal transcription, a loop
## over the data calling the small sphere functions above for one point at a
## time (as bench/regression.R's per-point reference).
pp_log1 <- function(q, y) {                   # Log_q(y)
  dm <- y - q
  w <- dm - sum(q * dm) * q
  nw <- sqrt(sum(w^2))
  if (nw == 0) return(w)
  w * (2 * atan2(sqrt(sum(dm^2)), sqrt(sum((y + q)^2))) / nw)
}
pp_log_target <- function(p, v, x, Y, sigma, tau) {
  if (!(pr_dist(center, p) <= radius) || !(sqrt(sum(v^2)) <= tau_m)) return(-Inf)
  L <- sqrt(sum(v^2))
  vhat <- if (L > 0) v / L else c(0, 0, 0)
  g_p <- g_v <- c(0, 0, 0)
  for (i in seq_along(x)) {
    fit <- pr_exp(p, x[i] * v)
    eps <- pp_log1(fit, Y[i, ])
    d <- sqrt(sum(eps^2))
    if (d > tau) eps <- eps * (tau / d)         # clipped to norm tau
    eb <- pr_transport(fit, p, eps)             # back to p along the geodesic
    par <- sum(eb * vhat) * vhat
    perp <- eb - par
    g_p <- g_p + par + cos(x[i] * L) * perp
    g_v <- g_v + x[i] * par + (if (L > 0) sin(x[i] * L) / L else x[i]) * perp
  }
  n <- length(x)
  -sqrt(sum(g_p^2) + sum(g_v^2)) / (n * sigma)
}

## The plain-R chain: n_steps MH steps from (p, v) with the fixed step s on
## the log density log_target(p, v).
pr_chain <- function(p, v, s, n_steps, log_target) {
  lz <- log_target(p, v)
  accepted <- 0L
  a00 <- A_mix[1, 1]; a01 <- A_mix[1, 2]; a10 <- A_mix[2, 1]; a11 <- A_mix[2, 2]
  for (it in seq_len(n_steps)) {
    z <- stats::rnorm(6)
    g0 <- z[1:3] - sum(z[1:3] * p) * p          # N(0, I) on T_p S^2
    g1 <- z[4:6] - sum(z[4:6] * p) * p
    xi <- s * (a00 * g0 + a01 * g1)
    zeta <- s * (a10 * g0 + a11 * g1)
    if (sqrt(sum(xi^2)) >= pi) next
    q <- pr_exp(p, xi)
    w <- pr_transport(p, q, v + zeta)
    w <- w - sum(w * q) * q                    # rounding off T_q
    lq <- log_target(q, w)
    if (is.finite(lq) && log(stats::runif(1L)) < lq - lz) {
      p <- q; v <- w; lz <- lq
      accepted <- accepted + 1L
    }
  }
  list(p = p, v = v, acceptance = accepted / n_steps)
}

## riemdp's chain, as R/dp-regression.R calls it: burn_in + thin steps, one
## kept draw (the state at the end).
pkg_chain <- function(S, U, sigma, p0, v0, step, n_steps, burn_in = 0L, adapt = FALSE) {
  riemdp:::samp_mh_regression(S2, S, U, sigma, tau, center, radius, tau_m, "joint", A_mix, p0,
                              matrix(v0, 3L, 1L), NULL, NULL, 1L,
                              list(burn_in = as.integer(burn_in), thin = as.integer(n_steps), step = step,
                                   adapt = adapt, target_accept = 0.3))
}
pkg_log_target <- function(p, v, x, Y, sigma) {
  g <- riemdp:::regression_energy(S2, p, v, x, Y, tau)
  -sqrt(sum(g$grad_footpoint^2) + sum(g$grad_shooting^2)) / sigma
}

## random (p, v) in the domain: p uniform-ish in B_radius(center), |v| < tau_m
random_state <- function() {
  u <- stats::rnorm(3); u <- u - sum(u * center) * center
  p <- pr_exp(center, stats::runif(1, 0, radius) * u / sqrt(sum(u^2)))
  w <- stats::rnorm(3); w <- w - sum(w * p) * p
  list(p = p, v = stats::runif(1, 0, tau_m) * w / sqrt(sum(w^2)))
}

## ---------------------------------------------------------------------------
## (a) steps per second, n = 20 and n = 1000
## ---------------------------------------------------------------------------
## The step is adapted once by riemdp's burn-in from the public start
## (center, 0), as a release does, but with a burn-in long enough to reach
## the bulk of the target at n = 1000 (after the default 1000 iterations the
## chain there is still on its way from the public start, with a step
## adapted to that transient); all chains then run from that state with
## that step.
steps_pkg <- c("20" = 2e5L, "1000" = 2e4L)
steps_pr <- c("20" = 1e4L, "1000" = 2e3L)      # plain R, vectorised
steps_pp <- c("20" = 5e3L, "1000" = 200L)      # plain R, per point
burn_warm <- c("20" = 5000L, "1000" = 20000L)
chain_rows <- list()
check_rows <- list()
states <- list()
for (n in c(20L, 1000L)) {
  key <- as.character(n)
  d <- sim_data(n)
  S <- riemdp:::as_points(S2, d$Y, "Y")
  U <- matrix(d$x, ncol = 1L)
  sigma <- sigma_joint(n)
  step0 <- min(sigma, radius / 4, tau_m / 8)   # the release's initial step
  warm <- pkg_chain(S, U, sigma, center, c(0, 0, 0), step0, n_steps = 1000L, burn_in = burn_warm[[key]], adapt = TRUE)
  step <- warm$step
  p_start <- as.double(warm$footpoints)
  v_start <- as.double(warm$shooting)
  states[[key]] <- list(d = d, S = S, U = U, sigma = sigma, step = step, p = p_start, v = v_start)
  lt_pr <- function(p, v) pr_log_target(p, v, d$x, d$Y, sigma, tau)
  lt_pp <- function(p, v) pp_log_target(p, v, d$x, d$Y, sigma, tau)

  ## the plain-R log densities against riemdp's: random states of the domain,
  ## and states of riemdp's chain against the log density the chain reports
  rel_diff <- function(a, b) abs(a - b) / abs(b)
  err_random <- err_pp <- 0
  for (k in 1:5) {
    st <- random_state()
    lp_pkg <- pkg_log_target(st$p, st$v, d$x, d$Y, sigma)
    err_random <- max(err_random, rel_diff(lt_pr(st$p, st$v), lp_pkg))
    err_pp <- max(err_pp, rel_diff(lt_pp(st$p, st$v), lp_pkg))
  }
  err_chain <- 0
  st_p <- p_start; st_v <- v_start
  for (k in 1:5) {
    r <- pkg_chain(S, U, sigma, st_p, st_v, step, n_steps = 50L)
    st_p <- as.double(r$footpoints); st_v <- as.double(r$shooting)
    err_chain <- max(err_chain, rel_diff(lt_pr(st_p, st_v), r$trace), rel_diff(lt_pp(st_p, st_v), r$trace))
  }
  ## outside the domain: -Inf in plain R; riemdp refuses to start there
  out_p <- pr_exp(center, c(0, radius + 0.1, 0))
  out_ok <- lt_pr(out_p, c(0, 0, 0)) == -Inf && lt_pp(out_p, c(0, 0, 0)) == -Inf &&
    lt_pr(center, c(0, tau_m + 0.1, 0)) == -Inf &&
    inherits(tryCatch(pkg_chain(S, U, sigma, out_p, c(0, 0, 0), step, 1L), error = identity), "error")
  check_rows[[key]] <- data.frame(n = n, sigma = signif(sigma, 4), "adapted step" = signif(step, 4),
                                  "vectorised R, 5 random (p, v)" = signif(err_random, 2),
                                  "per-point R, 5 random (p, v)" = signif(err_pp, 2),
                                  "both, 5 states of riemdp's chain" = signif(err_chain, 2),
                                  "-Inf outside the domain" = out_ok,
                                  check.names = FALSE)
  stopifnot(err_random < 1e-10, err_pp < 1e-10, err_chain < 1e-10, out_ok)

  ## timing: the same fixed step, the same start
  acc <- c(pkg = NA, pr = NA, pp = NA)
  tt <- time_interleaved(list(
    function() acc[["pkg"]] <<- pkg_chain(S, U, sigma, p_start, v_start, step, steps_pkg[[key]])$acceptance,
    function() acc[["pr"]] <<- pr_chain(p_start, v_start, step, steps_pr[[key]], lt_pr)$acceptance,
    function() acc[["pp"]] <<- pr_chain(p_start, v_start, step, steps_pp[[key]], lt_pp)$acceptance),
    reps = if (n == 20L) 5L else 3L)
  t_pkg <- tt[1]; t_pr <- tt[2]; t_pp <- tt[3]
  chain_rows[[key]] <- list(
    task = sprintf("(a) joint MH, S^2, n = %d: steps/s", n),
    acc = sprintf("%.2f / %.2f / %.2f", acc[["pkg"]], acc[["pr"]], acc[["pp"]]),
    pkg = steps_pkg[[key]] / t_pkg, pr = steps_pr[[key]] / t_pr, pp = steps_pp[[key]] / t_pp,
    target = if (n == 20L) ">= 2e5/s; >= 50x" else ">= 50x")
}

## ---------------------------------------------------------------------------
## (b) where the time goes: riemdp's cost per MH step against n (from a state
## in the bulk of the target, fixed step), one evaluation of the clipped
## gradient through riemdp:::regression_energy() (R-side checks included)
## and through the bare glue riemdp:::stat_regression_energy()
## ---------------------------------------------------------------------------
cost_rows <- list()
for (n in c(2L, 20L, 100L, 1000L)) {
  key <- as.character(n)
  st <- states[[key]]
  if (is.null(st)) {
    d <- sim_data(n)
    S <- riemdp:::as_points(S2, d$Y, "Y")
    U <- matrix(d$x, ncol = 1L)
    sigma <- sigma_joint(n)
    warm <- pkg_chain(S, U, sigma, center, c(0, 0, 0), min(sigma, radius / 4, tau_m / 8), 1000L, 20000L, TRUE)
    st <- list(d = d, S = S, U = U, sigma = sigma, step = warm$step, p = as.double(warm$footpoints),
               v = as.double(warm$shooting))
  }
  n_steps <- as.integer(min(2e5, max(1e4, 2e7 / n)))
  acc <- NA_real_
  t_chain <- time_median(function() acc <<- pkg_chain(st$S, st$U, st$sigma, st$p, st$v, st$step, n_steps)$acceptance,
                         reps = 3L)
  n_eval <- as.integer(max(200, 1e5 / n))
  V <- matrix(st$v, 3L, 1L)
  t_energy <- time_median(function() for (i in seq_len(n_eval))
    riemdp:::regression_energy(S2, st$p, st$v, st$d$x, st$d$Y, tau), reps = 3L) / n_eval
  t_glue <- time_median(function() for (i in seq_len(n_eval))
    riemdp:::stat_regression_energy(S2, st$S, st$U, st$p, V, tau), reps = 3L) / n_eval
  cost_rows[[key]] <- data.frame(
    n = n, acceptance = round(acc, 2), "MH step (us)" = round(1e6 * t_chain / n_steps, 2),
    "MH step per point (us)" = round(1e6 * t_chain / n_steps / n, 3),
    "regression_energy() (us)" = round(1e6 * t_energy, 1),
    "glue stat_regression_energy() (us)" = round(1e6 * t_glue, 1),
    check.names = FALSE)
}
cost_tab <- do.call(rbind, cost_rows)

## (b2) the S^2 pass's instruction sets (src/riemdp/lanes.h): the MH step on
## the best the CPU has (AVX2 here, when present) against the compiler's
## default (2-lane SSE2 vectors), which a CPU without AVX2 runs; interleaved
isa <- riemdp:::num_lanes_isa()
isa_name <- c("default (SSE2 lanes)", "AVX2")
isa_rows <- list()
for (n in c(20L, 1000L)) {
  st <- states[[as.character(n)]]
  n_steps <- if (n == 20L) 2e5L else 2e4L
  run_isa <- function(k) function() {
    riemdp:::num_lanes_isa(k)
    pkg_chain(st$S, st$U, st$sigma, st$p, st$v, st$step, n_steps)
    riemdp:::num_lanes_isa(-1L)
  }
  tt <- time_interleaved(lapply(0:isa$best, run_isa), reps = 3L)
  isa_rows[[length(isa_rows) + 1L]] <- data.frame(
    n = n, "instruction set" = isa_name[seq_along(tt)], "MH step (us)" = round(1e6 * tt / n_steps, 2),
    check.names = FALSE)
}
riemdp:::num_lanes_isa(-1L)
isa_tab <- do.call(rbind, isa_rows)

## ---------------------------------------------------------------------------
## (c) 200 releases, Kulkarni & Soto (2025) §4.1 (n = 20, dp_geodesic_regression()'s default control)
## ---------------------------------------------------------------------------
d20 <- states[["20"]]$d
fit20 <- geodesic_regression(S2, d20$x, d20$Y)
n_rel <- 200L
releases <- function(scheme) {
  set.seed(1)
  lapply(seq_len(n_rel), function(i)
    dp_geodesic_regression(S2, d20$x, d20$Y, epsilon = epsilon, tau = tau, tau_m = tau_m, x_range = c(0, 1),
                           center = center, radius = radius, scheme = scheme, split = 0.5))
}
rel_rows <- list()
rel_times <- c()
for (scheme in c("joint", "paper")) {
  t_rel <- time_median(function() releases(scheme), reps = 3L)
  rel_times[[scheme]] <- t_rel
  rels <- releases(scheme)
  dists <- vapply(rels, function(r) riem_dist(S2, r$footpoint, fit20$footpoint), 0)
  # the release's default chain: the joint scheme's KNG chain, the paper's two random walks
  steps_per_release <- as.integer(rels[[1L]]$control$burn_in + rels[[1L]]$control$n_iter) *
    if (scheme == "joint") 1L else 2L
  rel_rows[[scheme]] <- data.frame(
    scheme = if (scheme == "joint") "joint (epsilon = 2)" else "paper (epsilon = 1 + 1)",
    "200 releases (s)" = sprintf("%.2f", t_rel),
    "per release (ms)" = sprintf("%.1f", 1000 * t_rel / n_rel),
    "MH steps per release" = if (scheme == "joint") sprintf("%d", steps_per_release)
                             else sprintf("%d + non-private fit", steps_per_release),
    "target" = if (scheme == "joint") "< 10 s" else "(none)",
    "median dist(private footpoint, fit)" = signif(stats::median(dists), 3),
    check.names = FALSE, stringsAsFactors = FALSE)
}

## ---------------------------------------------------------------------------
## Tables
## ---------------------------------------------------------------------------
fmt_rate <- function(x) formatC(x, format = "e", digits = 2)
tab <- data.frame(
  task = vapply(chain_rows, `[[`, "", "task"),
  riemdp = vapply(chain_rows, function(r) fmt_rate(r$pkg), ""),
  "plain R vec" = vapply(chain_rows, function(r) fmt_rate(r$pr), ""),
  "ratio vec" = vapply(chain_rows, function(r) sprintf("%.1fx", r$pkg / r$pr), ""),
  "plain R per point" = vapply(chain_rows, function(r) fmt_rate(r$pp), ""),
  "ratio per pt" = vapply(chain_rows, function(r) sprintf("%.1fx", r$pkg / r$pp), ""),
  "acceptance riemdp / vec / per pt" = vapply(chain_rows, `[[`, "", "acc"),
  target = vapply(chain_rows, `[[`, "", "target"),
  check.names = FALSE, stringsAsFactors = FALSE)
checks <- list()
checks[["(a) n = 20: riemdp >= 2e5 steps/s"]] <- chain_rows[["20"]]$pkg >= 2e5
for (key in names(chain_rows)) {
  r <- chain_rows[[key]]
  checks[[sprintf("(a) n = %s: >= 50x the vectorised plain-R chain", key)]] <- r$pkg / r$pr >= 50
  checks[[sprintf("(a) n = %s: >= 50x the per-point plain-R chain", key)]] <- r$pkg / r$pp >= 50
}
checks[["(c) 200 joint releases in < 10 s"]] <- rel_times[["joint"]] < 10

cat("Same target? Relative differences of the plain-R log densities to riemdp's (regression_energy(..., tau)",
    "at random (p, v) of the domain; the log density riemdp's chain reports at its own states):\n")
print(do.call(rbind, check_rows), row.names = FALSE)
cat("\n(a) Rates (higher is better); ratio = riemdp / plain R; the same fixed (adapted) step and start for all:\n")
print(tab, right = FALSE, row.names = FALSE)
cat(sprintf("    steps per timed call: riemdp %d (n = 20), %d (n = 1000); vectorised R %d, %d; per-point R %d, %d.\n",
            steps_pkg[["20"]], steps_pkg[["1000"]], steps_pr[["20"]], steps_pr[["1000"]],
            steps_pp[["20"]], steps_pp[["1000"]]))
cat("\n(b) riemdp's cost against n: one MH step (fixed step, from the bulk of the target; proposals that leave the",
    "domain evaluate the target too, so run time does not reveal the path), one clipped-gradient evaluation through riemdp:::regression_energy() and through the",
    "bare glue:\n")
print(cost_tab, row.names = FALSE)
cat("\n(b2) the MH step on each instruction set of the S^2 pass this CPU has (the same bits on each):\n")
print(isa_tab, row.names = FALSE)
cat(sprintf("\n(c) %d releases of dp_geodesic_regression(), n = 20, sphere(2), default control (the joint scheme's KNG chain, the paper's two random walks); fit footpoint for reference:\n",
            n_rel))
print(do.call(rbind, rel_rows), right = FALSE, row.names = FALSE)
cat("\nChecks:\n")
for (nm in names(checks)) cat(sprintf("  %-60s %s\n", nm, if (checks[[nm]]) "met" else "MISSED"))
cat(sprintf(paste("\nData: the design of Kulkarni & Soto (2025) §4.1, q0 = (1, 0, 0), zeta0 = (0, 0.6, 0.8), noise N(0, 0.001 I) projected;",
                  "public tau = %g, tau_m = %g, center = q0, radius = %g, x_range = [0, 1], epsilon = %g.\n"),
            tau, tau_m, radius, epsilon))
cat(sprintf("riemdp %s, %s, %s, S^2 pass on %s; times are medians of repeated runs (elapsed).\n",
            as.character(utils::packageVersion("riemdp")), R.version.string,
            Sys.info()[["machine"]], isa_name[isa$used + 1L]))
cat(sprintf("Total bench runtime: %.1f s\n", proc.time()[["elapsed"]] - t_start))
