## Kulkarni & Soto (2025), "Differentially private geodesic and linear
## regression" (arXiv:2504.11304v1), App. A and Sec. 4.1: the private
## geodesic regression on the sphere S^2 AS WRITTEN, in plain R. It is NOT
## differentially private: the footpoint block carries the non-private
## fitted shooting vector, tau is the largest residual of the fit (read off
## the data), the Jacobi factors cos 1 and sin 1 are too small, and
## sigma = Delta / epsilon ignores the data-dependent normalising constant
## (see vignette("methods", package = "riemdp")). It is here to check the
## paper's numbers: vignette("private-geodesic-regression", package =
## "riemdp") compares it with the package's scheme = "paper" (the same two
## blocks with the package's sensitivities, clip, public domain and public
## start; not DP either) and its release, scheme = "joint" (DP).
##
## Use:
##   source(system.file("scripts", "app-a-as-written.R", package = "riemdp"))
##   res <- paper_as_written(list(x = x, Y = Y), m = 200, seed = 1)
## with x in [0, 1] (n values) and Y the n x 3 unit vectors; res holds tau,
## sigma, the random-walk steps eta, the acceptance rates, the fit's MAE and
## `main`: the distances d(p^, p~_i) of the m footpoints, the m signed
## angles at the first footpoint, and the per-footpoint MAEs E-bar_i.
## Run as `Rscript app-a-as-written.R` it does so on the design of Sec. 4.1
## at n = 20 (a few seconds) and prints the reported summaries.
## vignettes/data-raw/private-geodesic-regression.R (in the package sources)
## sources this file for the vignette's stored results.
##
## What App. A and Sec. 4.1 say, and what this re-implementation does:
##   * the non-private least-squares fit (p^, v^) (geodesic_regression());
##   * tau = max |eps_i|, the largest residual of the fit ("while sampling
##     instead of tau we use max |eps_i|, the empirical largest error");
##   * footpoint block: f(p) ~ exp(-|grad_p E(p, Gamma_{p^ -> p} v^)| /
##     sigma_p), sigma_p = Delta_p / eps_p, Delta_p = 2 tau |J_p(1)| / n,
##     |J_p(1)| = cos 1, eps_p = 1, on the whole sphere; the fitted v^ is
##     transported from p^ to every proposal (not from the current state);
##   * shooting block at each drawn footpoint p~_i: f(v) ~ exp(-|grad_v E(p~_i,
##     v)| / sigma_v), sigma_v = 2 tau sin(1) / n / eps_v, eps_v = 1;
##   * both by a random-walk Metropolis-Hastings chain: proposal Exp(p, nu),
##     nu uniform in the disc of radius eta in the tangent plane of the
##     current state (v + nu for the shooting vector), accepted with
##     probability min(1, f(prop) / f(current)); no thinning; the footpoint
##     chain starts at p^ ("any data point, the Frechet mean of the points,
##     or the sample statistic p^");
##   * m = 200 footpoints, m = 200 shooting vectors at each (40 000 pairs);
##     reported: the mean and sd of d(p^, p~_i); the signed angle between
##     Gamma_{p^ -> p~_1} v^ and v~_1j at the FIRST footpoint only; the mean
##     and sd over i of the per-footpoint averages E-bar_i of the MAE
##     E_ij = mean_k d(Exp(p~_i, x_k v~_ij), y_k).
## Gradients: E = 1/(2n) sum d^2, grad_p E = -(1/n) sum d_p Exp^dagger eps_i
## and grad_v E = -(1/n) sum d_v Exp^dagger eps_i (the proof of Lemma 3.3;
## App. A's last line, where the 1/n of the gradient cancels that of Delta,
## is the same target). sphere_gradients() below computes them in closed
## form for many chains at once (vignettes/data-raw/private-geodesic-regression.R,
## in the package sources, checks them against the package's regression gradient).
## Choices the paper leaves open, taken here:
##   * eta "proportional to sigma": eta = 5 sigma in both blocks (acceptance
##     about 0.35 for the footpoint, 0.7 for the shooting vector; with eta =
##     2 sigma the shooting chain started at 0 had not converged after 1000
##     steps);
##   * burn-in (not mentioned): 1000 steps in both blocks before the m kept
##     states (the 200 footpoints are consecutive states of one chain, the
##     200 shooting vectors at a footpoint consecutive states of its chain,
##     "continuing the random walk from the previously accepted" state);
##   * the shooting chain's start (App. A describes only the footpoint's):
##     Gamma_{p^ -> p~_i} v^, the analogue of starting at the fit;
##   * the shooting block's domain: all of T_{p~} S^2. Its target is not a
##     probability density there: |grad_v E| stays bounded (residuals are at
##     most pi), so f(v) has a positive floor (about exp(-110) here) and an
##     infinite integral. A chain started at the fit never feels this;
##   * the angle is signed (counterclockwise about p~_1): the paper's mean of
##     0.10 deg with sd 5.47 deg cannot be an unsigned angle;
##   * the signed angle and the MAE use unsquared geodesic distances.
## Convergence: the main run also runs every chain from a second start (the
## footpoint from the Frechet mean of the data, about 0.5 rad away; each
## shooting vector from 0) with the same burn-in and compares what is kept.

library(riemdp)
S2 <- manifold_sphere(2)

cross3 <- function(a, b) cbind(a[, 2] * b[, 3] - a[, 3] * b[, 2], a[, 3] * b[, 1] - a[, 1] * b[, 3],
                               a[, 1] * b[, 2] - a[, 2] * b[, 1])
## The gradients of E at K states (rows of P, V: footpoints and shooting
## vectors in their tangent planes), data x (n), Y (n x 3), with the MAE of
## each state. On S^2, with L = |v|, u = v / L, w = p x u: the residual eps_i
## at Exp(p, x_i v), transported back to p, has components a_i along u and
## b_i along w; d_p Exp^dagger maps it to a_i u + cos(x_i L) b_i w, d_v
## Exp^dagger to x_i a_i u + sin(x_i L) / L b_i w.
sphere_gradients <- function(P, V, x, Y) {
  K <- nrow(P); n <- length(x)
  L <- sqrt(rowSums(V^2))
  U <- V / L
  small <- L < 1e-12
  if (any(small)) {                       # any unit vector of T_p: the gradient does not depend on it
    Ps <- P[small, , drop = FALSE]
    e <- diag(3)[apply(abs(Ps), 1, which.min), , drop = FALSE]    # the axis least aligned with p
    g <- e - rowSums(e * Ps) * Ps
    U[small, ] <- g / sqrt(rowSums(g^2))
  }
  W <- cross3(P, U)
  A <- outer(L, x)                        # x_i L, K x n
  cA <- cos(A); sA <- sin(A)
  yh <- lapply(1:3, function(j) cA * P[, j] + sA * U[, j])      # fitted points
  dir <- lapply(1:3, function(j) -sA * P[, j] + cA * U[, j])    # unit velocity there
  Yj <- lapply(1:3, function(j) matrix(Y[, j], K, n, byrow = TRUE))
  ct <- pmin(pmax(yh[[1]] * Yj[[1]] + yh[[2]] * Yj[[2]] + yh[[3]] * Yj[[3]], -1), 1)
  th <- acos(ct)                          # residual norms
  f <- ifelse(th < 1e-8, 1, th / sin(th))
  eps <- lapply(1:3, function(j) f * (Yj[[j]] - ct * yh[[j]]))
  a <- eps[[1]] * dir[[1]] + eps[[2]] * dir[[2]] + eps[[3]] * dir[[3]]
  b <- eps[[1]] * W[, 1] + eps[[2]] * W[, 2] + eps[[3]] * W[, 3]
  xm <- matrix(x, K, n, byrow = TRUE)
  sinc <- sA / L
  if (any(small)) sinc[small, ] <- xm[small, ]
  list(grad_p = -(rowSums(a) / n * U + rowSums(cA * b) / n * W),
       grad_v = -(rowSums(xm * a) / n * U + rowSums(sinc * b) / n * W),
       mae = rowMeans(th))
}
## Parallel transport on S^2 from the point a to each row of B of the vector w.
transport_rows <- function(a, B, w) {
  cb <- drop(B %*% a); wb <- drop(B %*% w)
  matrix(w, nrow(B), 3, byrow = TRUE) - (wb / (1 + cb)) * (matrix(a, nrow(B), 3, byrow = TRUE) + B)
}
exp_rows <- function(P, Nu) {
  r <- sqrt(rowSums(Nu^2))
  cos(r) * P + sin(r) * Nu / ifelse(r > 0, r, 1)
}
## Uniform in the disc of radius eta of each tangent plane T_p (rows of P).
disc_rows <- function(P, eta) {
  g <- matrix(stats::rnorm(length(P)), nrow(P))
  g <- g - rowSums(g * P) * P
  g / sqrt(rowSums(g^2)) * eta * sqrt(stats::runif(nrow(P)))
}
signed_angle_rows <- function(P, A, B) atan2(rowSums(P * cross3(A, B)), rowSums(A * B)) * 180 / pi
## Run the code with its own seed, leaving the global generator as it was.
with_seed <- function(seed, code) {
  old <- if (exists(".Random.seed", globalenv(), inherits = FALSE)) get(".Random.seed", globalenv()) else NULL
  on.exit(if (is.null(old)) rm(".Random.seed", envir = globalenv()) else assign(".Random.seed", old, globalenv()))
  set.seed(seed)
  code
}
## One run of the procedure as written on the data d: m footpoints, m
## shooting vectors at each. check = TRUE also runs every chain from the
## second start. Returns the reported quantities (and the acceptance rates).
eta_factor <- 5
burn_in_written <- 1000L
paper_as_written <- function(d, m, seed, check = FALSE) with_seed(seed, {
  n <- length(d$x)
  fit <- geodesic_regression(S2, d$x, d$Y)
  p_hat <- as.double(fit$footpoint); v_hat <- as.double(fit$shooting)
  tau <- max(fit$residual_norms)
  sigma_p <- 2 * tau * cos(1) / n / 1
  sigma_v <- 2 * tau * sin(1) / n / 1
  starts <- rbind(p_hat, if (check) as.double(frechet_mean(S2, d$Y)$estimate))
  K <- nrow(starts)
  # footpoint block: K chains (one per start), m consecutive states kept
  level_p <- function(P) -sqrt(rowSums(sphere_gradients(P, transport_rows(p_hat, P, v_hat), d$x, d$Y)$grad_p^2)) / sigma_p
  P <- starts; cur <- level_p(P); acc_p <- 0
  foot <- array(NA_real_, c(K, 3, m))
  for (s in seq_len(burn_in_written + m)) {
    Q <- exp_rows(P, disc_rows(P, eta_factor * sigma_p)); lq <- level_p(Q)
    ok <- log(stats::runif(K)) < lq - cur
    P[ok, ] <- Q[ok, ]; cur[ok] <- lq[ok]; acc_p <- acc_p + mean(ok)
    if (s > burn_in_written) foot[, , s - burn_in_written] <- P
  }
  # shooting block: one chain per kept footpoint (and per start of the
  # shooting vector when checking), all m * K (* 2) run side by side
  Pf <- do.call(rbind, lapply(seq_len(K), function(k) t(foot[k, , ])))   # (K m) x 3, start k's footpoints in order
  G <- transport_rows(p_hat, Pf, v_hat)                                   # v^ carried to each footpoint
  Ps <- if (check) rbind(Pf, Pf) else Pf
  V <- if (check) rbind(G, 0 * G) else G
  Gs <- if (check) rbind(G, G) else G
  J <- nrow(Ps)
  g <- sphere_gradients(Ps, V, d$x, d$Y)
  cur <- -sqrt(rowSums(g$grad_v^2)) / sigma_v; cur_mae <- g$mae; acc_v <- 0
  mae_sum <- numeric(J); ang <- matrix(NA_real_, J, m)
  for (s in seq_len(burn_in_written + m)) {
    Vq <- V + disc_rows(Ps, eta_factor * sigma_v)
    g <- sphere_gradients(Ps, Vq, d$x, d$Y)
    lq <- -sqrt(rowSums(g$grad_v^2)) / sigma_v
    ok <- log(stats::runif(J)) < lq - cur
    V[ok, ] <- Vq[ok, ]; cur[ok] <- lq[ok]; cur_mae[ok] <- g$mae[ok]; acc_v <- acc_v + mean(ok)
    if (s > burn_in_written) {
      mae_sum <- mae_sum + cur_mae
      ang[, s - burn_in_written] <- signed_angle_rows(Ps, Gs, V)
    }
  }
  # the quantities of the paper, per (footpoint start, shooting start)
  summarise <- function(kf, kv) {
    rows <- (kv - 1L) * K * m + (kf - 1L) * m + seq_len(m)
    list(dist = riem_dist(S2, p_hat, t(foot[kf, , ])),   # d(p^, p~_i), i = 1..m
         angle1 = ang[rows[1], ],                        # the m angles at p~_1
         angle_all_sd = stats::sd(ang[rows, ]),          # the angles at every footpoint
         mae_bar = mae_sum[rows] / m)                    # E-bar_i, i = 1..m
  }
  out <- list(n = n, tau = tau, sigma = c(footpoint = sigma_p, shooting = sigma_v),
              eta = eta_factor * c(footpoint = sigma_p, shooting = sigma_v),
              acceptance = c(footpoint = acc_p / (burn_in_written + m), shooting = acc_v / (burn_in_written + m)),
              fit_mae = mean(fit$residual_norms), main = summarise(1L, 1L))
  if (check) out$check <- list(footpoint_from_frechet_mean = summarise(2L, 1L), shooting_from_zero = summarise(1L, 2L),
                               frechet_mean_distance = riem_dist(S2, p_hat, starts[2, ]))
  out
})

if (sys.nframe() == 0L) {
  # the design of Sec. 4.1 at n = 20: q0 and zeta (|zeta| = 1) drawn, x uniform
  # on [0, 1], y = Exp(q0, x zeta) + N(0, 0.001 I_3), normalised
  set.seed(2025)
  q0 <- stats::rnorm(3); q0 <- q0 / sqrt(sum(q0^2))
  w <- stats::rnorm(3); w <- w - sum(w * q0) * q0; zeta <- w / sqrt(sum(w^2))
  x <- stats::runif(20)
  Y <- riem_geodesic(S2, q0, zeta, x) + matrix(stats::rnorm(60, sd = sqrt(0.001)), 20)
  Y <- Y / sqrt(rowSums(Y^2))
  res <- paper_as_written(list(x = x, Y = Y), m = 200L, seed = 1L)
  cat(sprintf("Kulkarni & Soto (2025), App. A as written (NOT differentially private), n = %d, tau = %.4f (read off the data)\n",
              res$n, res$tau))
  cat(sprintf("footpoint distance to the fit: mean %.4f, sd %.4f; angle at the first footpoint: mean %.2f, sd %.2f degrees\n",
              mean(res$main$dist), stats::sd(res$main$dist), mean(res$main$angle1), stats::sd(res$main$angle1)))
  cat(sprintf("MAE: fit %.4f, private mean %.4f (sd %.4f)\n", res$fit_mae, mean(res$main$mae_bar), stats::sd(res$main$mae_bar)))
}
