## Benchmark: riemdp's compiled geometry against plain R implementations of
## the same formulas (methods article, "Manifolds and their formulas" and "Fitting").
##
## Run from the package root with the package installed:
##     Rscript bench/geometry.R
## Uses base R (system.time / proc.time); data are fixed by set.seed(). Part
## (a) also compares with the CRAN package 'manifold' (manifold::distance),
## and (d) with RiemBase::rbase.pdist, each installed here from the configured
## repository if missing (skipped if that fails).
## Every time is the median of several repetitions; fast calls are repeated
## inside each repetition so that one measurement lasts at least ~50 ms
## (proc.time has 1 ms resolution). Total runtime: about 20-40 seconds.

suppressPackageStartupMessages(library(riemdp))
source(file.path("bench", "ensure-package.R"))
options(width = 160)

t_start <- proc.time()[["elapsed"]]

## ---------------------------------------------------------------------------
## Timing helper
## ---------------------------------------------------------------------------
## Median over `reps` measurements of the time of one call of f(), in seconds.
time_median <- function(f, reps = 5L, min_time = 0.05) {
  f()                                         # warm up (and page in data)
  t1 <- system.time(f())[["elapsed"]]
  inner <- if (t1 < min_time) as.integer(ceiling(min_time / max(t1, 5e-4))) else 1L
  ts <- numeric(reps)
  for (r in seq_len(reps)) {
    invisible(gc(verbose = FALSE))
    t0 <- proc.time()[["elapsed"]]
    for (j in seq_len(inner)) f()
    ts[r] <- (proc.time()[["elapsed"]] - t0) / inner
  }
  stats::median(ts)
}

## ---------------------------------------------------------------------------
## Plain-R geometry: the sphere S^d in R^(d+1)
## ---------------------------------------------------------------------------
## per point (p, q plain vectors)
pr_sphere_dist1 <- function(p, q) {
  2 * atan2(sqrt(sum((p - q)^2)), sqrt(sum((p + q)^2)))
}
## vectorised, the usual one-liner: acos of the clamped dot product (loses
## half the digits near 0 and pi: returns 0 at distances below ~1e-8)
pr_sphere_dist_acos <- function(p, Q) acos(pmin(1, pmax(-1, drop(Q %*% p))))
## vectorised: one p against the rows of Q
pr_sphere_dist <- function(p, Q) {
  P <- matrix(p, nrow(Q), ncol(Q), byrow = TRUE)
  2 * atan2(sqrt(rowSums((Q - P)^2)), sqrt(rowSums((Q + P)^2)))
}
## Log_p(q) for the rows q of Q (tangent vectors at p as rows)
pr_sphere_log <- function(p, Q) {
  ip <- drop(Q %*% p)
  W <- Q - outer(ip, p)                       # q - <p,q> p
  nw <- sqrt(rowSums(W^2))
  d <- atan2(nw, ip)
  s <- ifelse(nw > 0, d / nw, 0)
  W * s
}
pr_sphere_exp <- function(p, v) {
  nv <- sqrt(sum(v^2))
  if (nv == 0) return(p)
  x <- cos(nv) * p + (sin(nv) / nv) * v
  x / sqrt(sum(x^2))
}
## Frechet mean: x <- Exp_x(t * mean Log_x(x_i)), t = 1 halved until the cost
## decreases (Armijo, c = 1e-4); stop when |mean Log_x(x_i)| < tol. Near the
## optimum the predicted decrease (~|grad|^2 ~ 1e-20) is far below the rounding
## error of the cost, so a step whose cost is within f_eps (relative) of the
## current cost is accepted; otherwise the line search would halve t for
## nothing at every late iteration.
f_eps <- 64 * .Machine$double.eps
pr_frechet_sphere <- function(X, init, max_iter = 100L, tol = 1e-10) {
  x <- init
  L <- pr_sphere_log(x, X)
  f <- 0.5 * mean(rowSums(L^2))
  it <- 0L
  repeat {
    g <- colMeans(L)
    gn <- sqrt(sum(g^2))
    if (gn < tol || it >= max_iter) break
    t <- 1
    repeat {
      xn <- pr_sphere_exp(x, t * g)
      Ln <- pr_sphere_log(xn, X)
      fn <- 0.5 * mean(rowSums(Ln^2))
      if (fn <= f - 1e-4 * t * gn^2 + f_eps * abs(f) || t < 1e-8) break
      t <- t / 2
    }
    x <- xn; L <- Ln; f <- fn; it <- it + 1L
  }
  list(estimate = x, iterations = it, grad_norm = gn, cost = f)
}

## ---------------------------------------------------------------------------
## Plain-R geometry: SPD(k), affine-invariant metric, via eigen(symmetric = TRUE)
## ---------------------------------------------------------------------------
sym_fun <- function(S, fun) {
  e <- eigen(S, symmetric = TRUE)
  e$vectors %*% (fun(e$values) * t(e$vectors))
}
pr_spd_dist1 <- function(p, q) {
  pih <- sym_fun(p, function(l) 1 / sqrt(l))
  sqrt(sum(log(eigen(pih %*% q %*% pih, symmetric = TRUE,
                     only.values = TRUE)$values)^2))
}
## Frechet mean with the same iteration. In whitened coordinates at x,
## Log_x(X_i) = x^1/2 logm(x^-1/2 X_i x^-1/2) x^1/2 and |Log_x(X_i)|_x =
## ||logm(x^-1/2 X_i x^-1/2)||_F, so the mean whitened log G gives both the
## step (Exp_x(t Log) = x^1/2 expm(t G) x^1/2) and the gradient norm ||G||_F.
pr_frechet_spd <- function(X, init, max_iter = 100L, tol = 1e-10) {
  n <- dim(X)[3]
  k <- dim(X)[1]
  eval_at <- function(x) {
    e <- eigen(x, symmetric = TRUE)
    xh  <- e$vectors %*% (sqrt(e$values) * t(e$vectors))
    xih <- e$vectors %*% ((1 / sqrt(e$values)) * t(e$vectors))
    G <- matrix(0, k, k)
    cost <- 0
    for (i in seq_len(n)) {                  # one eigendecomposition per point
      W <- xih %*% X[, , i] %*% xih
      ew <- eigen(W, symmetric = TRUE)
      lw <- log(ew$values)
      G <- G + ew$vectors %*% (lw * t(ew$vectors))
      cost <- cost + sum(lw^2)
    }
    G <- G / n
    list(x = x, xh = xh, G = (G + t(G)) / 2, cost = cost / (2 * n))
  }
  cur <- eval_at(init)
  it <- 0L
  repeat {
    gn <- sqrt(sum(cur$G^2))
    if (gn < tol || it >= max_iter) break
    t <- 1
    repeat {
      xn <- cur$xh %*% sym_fun(t * cur$G, exp) %*% cur$xh
      xn <- (xn + t(xn)) / 2
      nxt <- eval_at(xn)
      if (nxt$cost <= cur$cost - 1e-4 * t * gn^2 + f_eps * abs(cur$cost) ||
          t < 1e-8) break
      t <- t / 2
    }
    cur <- nxt; it <- it + 1L
  }
  list(estimate = cur$x, iterations = it, grad_norm = gn, cost = cur$cost)
}

## ---------------------------------------------------------------------------
## Data (fixed seed)
## ---------------------------------------------------------------------------
set.seed(20240601)
S2 <- manifold_sphere(2)
P3 <- manifold_spd(3)

## (a) 10^6 uniform points on S^2 and one reference point
n_a <- 1e6L
Qa <- matrix(stats::rnorm(3 * n_a), n_a, 3)
Qa <- Qa / sqrt(rowSums(Qa^2))
pa <- stats::rnorm(3); pa <- pa / sqrt(sum(pa^2))
n_a_small <- 1e5L                            # per-point R is timed on these
Qa_small <- Qa[seq_len(n_a_small), , drop = FALSE]

## (b) 10^5 points in a cap around the north pole, angular spread ~0.5 rad
n_b <- 1e5L
V <- matrix(stats::rnorm(2 * n_b, sd = 0.5), n_b, 2)
r <- sqrt(rowSums(V^2))
Xb <- cbind(sin(r) * V[, 1] / r, sin(r) * V[, 2] / r, cos(r))
Xb <- Xb / sqrt(rowSums(Xb^2))

## (c) 10^4 SPD(3) matrices: B^1/2 expm(S_i) B^1/2, S_i symmetric Gaussian
## (plain R with per-point eigen loops takes a few seconds on all 10^4 points,
## so it is timed on the full data, no scaling)
n_c <- 1e4L
B <- matrix(c(2, 0.5, 0.2,
              0.5, 1, 0.3,
              0.2, 0.3, 0.5), 3, 3)
Bh <- sym_fun(B, sqrt)
Xc <- array(0, c(3, 3, n_c))
for (i in seq_len(n_c)) {
  S <- matrix(stats::rnorm(9, sd = 0.3), 3, 3)
  S <- (S + t(S)) / 2
  Y <- Bh %*% sym_fun(S, exp) %*% Bh
  Xc[, , i] <- (Y + t(Y)) / 2
}

## ---------------------------------------------------------------------------
## (a) riem_dist one-to-many on S^2
## ---------------------------------------------------------------------------
cat("(a) riem_dist, one point against 10^6 points on manifold_sphere(2)\n")
d_pkg <- riem_dist(S2, pa, Qa)
d_vec <- pr_sphere_dist(pa, Qa)
d_pp  <- vapply(seq_len(n_a_small), function(i) pr_sphere_dist1(pa, Qa_small[i, ]),
                numeric(1))
err_a_vec <- max(abs(d_pkg - d_vec))
err_a_pp  <- max(abs(d_pkg[seq_len(n_a_small)] - d_pp))
cat(sprintf("    max |riemdp - plain R (vectorised)| = %.3g over 10^6 distances\n", err_a_vec))
cat(sprintf("    max |riemdp - plain R (per point)|  = %.3g over 10^5 distances\n", err_a_pp))

t_a_pkg <- time_median(function() riem_dist(S2, pa, Qa), reps = 7L)
t_a_vec <- time_median(function() pr_sphere_dist(pa, Qa), reps = 5L)
t_a_pp_small <- time_median(function()
  vapply(seq_len(n_a_small), function(i) pr_sphere_dist1(pa, Qa_small[i, ]),
         numeric(1)), reps = 3L)
t_a_pp <- 10 * t_a_pp_small
cat(sprintf("    per-point plain R timed on 10^5 points (%.0f ms) and scaled by 10\n",
            1000 * t_a_pp_small))

## against vectorised R with acos and against manifold::distance (points as
## the columns of a 3 x n matrix)
t_a_acos <- time_median(function() pr_sphere_dist_acos(pa, Qa), reps = 7L)
manifold_ok <- ensure_package("manifold", indent = "    ")
if (manifold_ok) {
  mfd_sphere <- manifold::createM("Sphere")
  QaT <- t(Qa)
  mf_dist <- function(p, QT) manifold::distance(mfd_sphere, QT, p)
  err_a_mf <- max(abs(d_pkg - mf_dist(pa, QaT)))
  cat(sprintf("    max |riemdp - manifold::distance|   = %.3g over 10^6 distances\n", err_a_mf))
  t_a_mf <- time_median(function() mf_dist(pa, QaT), reps = 7L)
} else {
  cat("    package 'manifold' not available: that comparison is skipped\n")
  t_a_mf <- NA_real_
}
## accuracy where acos loses digits: q at distance t from p along a great
## circle, relative error against t (the exact distance up to the rounding of q)
acc_t <- c(1e-12, 1e-6, pi / 2, pi - 1e-6)
acc_q <- t(vapply(acc_t, function(t) c(sin(t), 0, cos(t)), numeric(3)))
acc_p <- c(0, 0, 1)
acc <- data.frame(distance = c("1e-12", "1e-6", "pi/2", "pi - 1e-6"),
                  riemdp = abs(riem_dist(S2, acc_p, acc_q) - acc_t) / acc_t,
                  R_acos = abs(pr_sphere_dist_acos(acc_p, acc_q) - acc_t) / acc_t)
if (manifold_ok) acc$manifold <- abs(mf_dist(acc_p, t(acc_q)) - acc_t) / acc_t
cat("    relative error of the distance at chosen distances:\n")
print(format(acc, digits = 3), row.names = FALSE)

## ---------------------------------------------------------------------------
## (b) frechet_mean of 10^5 points on S^2
## ---------------------------------------------------------------------------
cat("(b) frechet_mean, 10^5 points on manifold_sphere(2) (cap, spread 0.5 rad)\n")
fit_b <- frechet_mean(S2, Xb)
est_b <- as.numeric(coef(fit_b))
## both start from the normalised Euclidean mean (riemdp's default start)
init_b <- colMeans(Xb); init_b <- init_b / sqrt(sum(init_b^2))
pr_b <- pr_frechet_sphere(Xb, init_b)
err_b <- pr_sphere_dist1(est_b, pr_b$estimate)
cat(sprintf("    riemdp:  %d iterations, gradient norm %.2g, converged %s, cost %.10g\n",
            as.integer(fit_b$iterations), fit_b$grad_norm, fit_b$converged, fit_b$cost))
cat(sprintf("    plain R: %d iterations, gradient norm %.2g, cost %.10g\n",
            pr_b$iterations, pr_b$grad_norm, pr_b$cost))
cat(sprintf("    geodesic distance between the two estimates = %.3g rad\n", err_b))
t_b_pkg <- time_median(function() frechet_mean(S2, Xb), reps = 7L)
t_b_pr  <- time_median(function() pr_frechet_sphere(Xb, init_b), reps = 3L)
cat(sprintf("    riemdp absolute time: %.1f ms (target < 50 ms)\n", 1000 * t_b_pkg))

## ---------------------------------------------------------------------------
## (c) frechet_mean of 10^4 points on SPD(3)
## ---------------------------------------------------------------------------
cat("(c) frechet_mean, 10^4 points on manifold_spd(3)\n")
fit_c <- frechet_mean(P3, Xc)
est_c <- unname(as.matrix(coef(fit_c)))
init_c <- apply(Xc, 1:2, mean)               # both start from the arithmetic mean
pr_c <- pr_frechet_spd(Xc, init_c)
err_c_dist <- pr_spd_dist1(est_c, pr_c$estimate)
err_c_abs  <- max(abs(est_c - pr_c$estimate))
cat(sprintf("    riemdp:  %d iterations, gradient norm %.2g, converged %s, cost %.10g\n",
            as.integer(fit_c$iterations), fit_c$grad_norm, fit_c$converged, fit_c$cost))
cat(sprintf("    plain R: %d iterations, gradient norm %.2g, cost %.10g\n",
            pr_c$iterations, pr_c$grad_norm, pr_c$cost))
cat(sprintf("    affine-invariant distance between the estimates = %.3g; max abs entry difference = %.3g\n",
            err_c_dist, err_c_abs))
t_c_pkg <- time_median(function() frechet_mean(P3, Xc), reps = 5L)
t_c_pr  <- time_median(function() pr_frechet_spd(Xc, init_c), reps = 3L, min_time = 0)

## ---------------------------------------------------------------------------
## (d) riem_dist_matrix: all pairs, as a `dist` object (n(n-1)/2 distances)
## ---------------------------------------------------------------------------
## Per pair: riemdp against its own one-to-many riem_dist (from (a)), against
## plain R (riem_dist one row at a time, all n^2 pairs; and the vectorised
## sphere one-liner acos of the clamped Gram matrix, which loses half the
## digits near 0), and against RiemBase::rbase.pdist when it can be installed.
cat("(d) riem_dist_matrix, all pairs of n points\n")
n_d <- 2000L
Xd <- Qa[seq_len(n_d), ]
pairs_d <- n_d * (n_d - 1) / 2
D_pkg <- riem_dist_matrix(S2, Xd)
pr_rows <- function(M, X, n, pt) {
  lapply(seq_len(n), function(j) riem_dist(M, pt(X, j), X))
}
D_rows <- do.call(cbind, pr_rows(S2, Xd, n_d, function(X, j) X[j, ]))
D_acos <- acos(pmin(1, pmax(-1, tcrossprod(Xd))))
err_d_rows <- max(abs(as.matrix(D_pkg) - D_rows))
err_d_acos <- max(abs(as.matrix(D_pkg) - D_acos))
cat(sprintf("    max |riemdp - per-row riem_dist| = %.3g; max |riemdp - acos(Gram)| = %.3g\n",
            err_d_rows, err_d_acos))
## acos near 0: a point and its neighbour at 1e-9 rad
q_near <- riem_exp(S2, Xd[1, ], 1e-9 * c(-Xd[1, 2], Xd[1, 1], 0) / sqrt(sum(Xd[1, 1:2]^2)))
cat(sprintf("    distance 1e-9 rad: riemdp %.6g, acos(Gram) %.6g\n",
            as.numeric(riem_dist_matrix(S2, rbind(Xd[1, ], q_near))),
            acos(min(1, sum(Xd[1, ] * q_near)))))
t_d_pkg <- time_median(function() riem_dist_matrix(S2, Xd))
t_d_mat <- time_median(function() riem_dist_matrix(S2, Xd, output = "matrix"))
t_d_rows <- time_median(function() pr_rows(S2, Xd, n_d, function(X, j) X[j, ]), reps = 3L)
t_d_acos <- time_median(function() acos(pmin(1, pmax(-1, tcrossprod(Xd)))), reps = 3L)
t_d_rb <- NA_real_
rb_ok <- ensure_package("RiemBase", indent = "    ")
if (rb_ok) {
  rb_data <- tryCatch({
    rd <- RiemBase::riemfactory(lapply(seq_len(n_d), function(i) matrix(Xd[i, ], 3, 1)), name = "sphere")
    D_rb <- RiemBase::rbase.pdist(rd)
    cat(sprintf("    max |riemdp - RiemBase::rbase.pdist| = %.3g\n", max(abs(as.matrix(D_pkg) - D_rb))))
    rd
  }, error = function(e) {
    cat("    RiemBase::rbase.pdist failed (", conditionMessage(e), "): that comparison is skipped\n")
    NULL
  })
  if (!is.null(rb_data)) t_d_rb <- time_median(function() RiemBase::rbase.pdist(rb_data), reps = 3L)
} else {
  cat("    package 'RiemBase' not available: that comparison is skipped\n")
}
## SPD(3): one eigen-decomposition per pair
n_d2 <- 400L
Xd2 <- Xc[, , seq_len(n_d2)]
pairs_d2 <- n_d2 * (n_d2 - 1) / 2
t_d2_pkg <- time_median(function() riem_dist_matrix(P3, Xd2))
t_d2_rows <- time_median(function() pr_rows(P3, Xd2, n_d2, function(X, j) X[, , j]), reps = 3L)
t_d2_one <- time_median(function() riem_dist(P3, Xd2[, , 1], Xc))  # one-to-many, 10^4 points
ns <- function(t, pairs) sprintf("%.1f ns", 1e9 * t / pairs)
cat(sprintf("    S^2, n = %d (%.0f pairs): riem_dist_matrix %s per pair (matrix output %s); riem_dist one-to-many %s per pair;\n",
            n_d, pairs_d, ns(t_d_pkg, pairs_d), ns(t_d_mat, pairs_d), ns(t_a_pkg, n_a)))
cat(sprintf("      per-row riem_dist in R %s per pair; acos(Gram) %s per pair; RiemBase %s per pair\n",
            ns(t_d_rows, pairs_d), ns(t_d_acos, pairs_d), if (is.na(t_d_rb)) "skipped" else ns(t_d_rb, pairs_d)))
cat(sprintf("    SPD(3), n = %d (%.0f pairs): riem_dist_matrix %s per pair; riem_dist one-to-many %s per pair; per-row R %s per pair\n",
            n_d2, pairs_d2, ns(t_d2_pkg, pairs_d2), ns(t_d2_one, n_c), ns(t_d2_rows, pairs_d2)))

## ---------------------------------------------------------------------------
## Table
## ---------------------------------------------------------------------------
fmt_ms <- function(s) {
  ms <- 1000 * s
  if (ms < 1e-3) return(sprintf("%.1f ns", 1e6 * ms))
  if (ms >= 100) sprintf("%.0f ms", ms) else sprintf("%.2f ms", ms)
}
rows <- list(
  list(task = "(a) riem_dist S^2, 1 vs 10^6 [vs per-point R, x10 from 10^5]",
       pkg = t_a_pkg, pr = t_a_pp, target = ">= 20x",
       met = t_a_pp / t_a_pkg >= 20),
  list(task = "(a) riem_dist S^2, 1 vs 10^6 [vs vectorised R, atan2 form]",
       pkg = t_a_pkg, pr = t_a_vec, target = "(none)", met = NA),
  list(task = "(a) riem_dist S^2, 1 vs 10^6 [vs vectorised R, acos(X %*% p)]",
       pkg = t_a_pkg, pr = t_a_acos, target = ">= 2x", met = t_a_acos / t_a_pkg >= 2),
  list(task = "(a) riem_dist S^2, 1 vs 10^6 [vs manifold::distance]",
       pkg = t_a_pkg, pr = t_a_mf, target = ">= 2x",
       met = if (is.na(t_a_mf)) NA else t_a_mf / t_a_pkg >= 2),
  list(task = "(b) frechet_mean S^2, 10^5 points [vs vectorised R]",
       pkg = t_b_pkg, pr = t_b_pr, target = "< 50 ms",
       met = t_b_pkg < 0.05),
  list(task = "(c) frechet_mean SPD(3), 10^4 points [vs per-point eigen R]",
       pkg = t_c_pkg, pr = t_c_pr, target = "(none)", met = NA),
  list(task = "(d) riem_dist_matrix S^2, n = 2000 [vs per-row riem_dist in R]",
       pkg = t_d_pkg, pr = t_d_rows, target = "(none)", met = NA),
  list(task = "(d) riem_dist_matrix S^2, n = 2000 [vs acos(tcrossprod(X))]",
       pkg = t_d_pkg, pr = t_d_acos, target = "(none)", met = NA),
  list(task = "(d) riem_dist_matrix S^2, n = 2000 [vs RiemBase::rbase.pdist]",
       pkg = t_d_pkg, pr = t_d_rb, target = "(none)", met = NA),
  list(task = "(d) riem_dist_matrix S^2 per pair [vs riem_dist 1 vs 10^6 per pair]",
       pkg = t_d_pkg / pairs_d, pr = t_a_pkg / n_a, target = "as fast", met = t_d_pkg / pairs_d <= 1.2 * t_a_pkg / n_a),
  list(task = "(d) riem_dist_matrix SPD(3), n = 400 [vs per-row riem_dist in R]",
       pkg = t_d2_pkg, pr = t_d2_rows, target = "(none)", met = NA)
)
tab <- data.frame(
  task = vapply(rows, `[[`, "", "task"),
  riemdp = vapply(rows, function(r) fmt_ms(r$pkg), ""),
  compared_with = vapply(rows, function(r) if (is.na(r$pr)) "skipped" else fmt_ms(r$pr), ""),
  ratio = vapply(rows, function(r) if (is.na(r$pr)) "-" else sprintf("%.1fx", r$pr / r$pkg), ""),
  target = vapply(rows, `[[`, "", "target"),
  result = vapply(rows, function(r)
    if (is.na(r$met)) "-" else if (r$met) "met" else "MISSED", ""),
  stringsAsFactors = FALSE
)
cat("\nAgreement: max |dist| difference (a) ", sprintf("%.2g", max(err_a_vec, err_a_pp)),
    "; distance between means (b) ", sprintf("%.2g", err_b),
    "; (c) ", sprintf("%.2g", err_c_dist), "\n", sep = "")
cat("\n")
print(tab, right = FALSE, row.names = FALSE)
cat(sprintf("\nriemdp %s, %s, %s; times are medians of repeated runs (elapsed).\n",
            as.character(utils::packageVersion("riemdp")), R.version.string,
            Sys.info()[["machine"]]))
cat(sprintf("Total bench runtime: %.1f s\n", proc.time()[["elapsed"]] - t_start))
