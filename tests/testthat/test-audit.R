# Empirical privacy audit of the Laplace release of the Frechet mean
# (epsilon-DP, Reimherr et al. 2021 Thm 1-2) on S^1 and S^2; at the end, of
# dp_linear_regression() with two predictors (KNG, Reimherr & Awan 2019).
#
# Two adjacent datasets D, D' in the public ball B_r(c) (n = 5; D has all its
# points at one boundary point p, D' moves one of them to the opposite
# boundary point q: the mean moves by about 2r/n, close to the worst case).
# The release is a Laplace draw around the Frechet mean with
# sigma = 2 Delta / epsilon; we draw N releases from each law (riem_rlaplace
# directly, exactly as dp_frechet_mean does, which is checked separately on a
# few hundred real calls), count them on a fixed partition of the manifold,
# and require for every cell with >= 50 draws under both laws
#     |log(p_hat(cell) / p_hat'(cell))| <= epsilon + 4 se,
# se = sqrt((1 - p)/(N p) + (1 - p')/(N p')) the binomial (delta-method)
# standard error of the log ratio in that cell. Since the true log density
# ratio is at most dist(eta, eta') / sigma <= epsilon / 2 here, a correct
# mechanism passes with room to spare; a sigma ten times too small
# (Delta / (10 epsilon)) must fail the same audit.

audit_setup <- function(d, r = pi / 8, n = 5, r_data = r * (1 - 1e-9)) {
  M <- manifold_sphere(d)
  if (d == 1) {
    c0 <- c(1, 0)
    p <- c(cos(r_data), sin(r_data))
    q <- c(cos(r_data), -sin(r_data))
  } else {
    c0 <- c(0, 0, 1)
    p <- c(sin(r_data), 0, cos(r_data))
    q <- c(-sin(r_data), 0, cos(r_data))
  }
  D <- stack_points(M, rep(list(p), n))
  D2 <- stack_points(M, c(rep(list(p), n - 1), list(q)))
  list(M = M, c = c0, r = r, n = n, D = D, D2 = D2,
       eta = frechet_mean(M, D)$estimate, eta2 = frechet_mean(M, D2)$estimate,
       Delta = sensitivity_frechet_mean(M, n, r))
}

# Cell labels of points x (rows) on S^1: angle bins of a fixed width.
cells_s1 <- function(x, n_bins = 360) {
  th <- atan2(x[, 2], x[, 1])
  findInterval(th, seq(-pi, pi, length.out = n_bins + 1), rightmost.closed = TRUE, all.inside = TRUE)
}

# Cell labels on S^2: a latitude/longitude grid whose pole is the midpoint of
# the two footprints and whose longitude 0 points from eta2 to eta; theta
# bins of width min(0.05, sigma/2) (sigma is public), 36 longitude bins.
cells_s2 <- function(x, eta, eta2, sigma) {
  m <- (eta + eta2) / vec_norm(eta + eta2)
  e1 <- eta - eta2
  e1 <- e1 - sum(e1 * m) * m
  e1 <- e1 / vec_norm(e1)
  e2 <- c(m[2] * e1[3] - m[3] * e1[2], m[3] * e1[1] - m[1] * e1[3], m[1] * e1[2] - m[2] * e1[1])
  y <- x %*% cbind(e1, e2, m)
  th <- atan2(sqrt(y[, 1]^2 + y[, 2]^2), y[, 3])
  ph <- atan2(y[, 2], y[, 1])
  tb <- seq(0, pi, by = min(0.05, sigma / 2))
  tb <- c(tb[tb < pi], pi)
  it <- findInterval(th, tb, rightmost.closed = TRUE, all.inside = TRUE)
  ip <- findInterval(ph, seq(-pi, pi, length.out = 37), rightmost.closed = TRUE, all.inside = TRUE)
  list(cell = (it - 1L) * 36L + ip, n_cells = (length(tb) - 1L) * 36L)
}

run_audit <- function(S, sigma, N, seed) {
  set.seed(seed)
  x1 <- riem_rlaplace(S$M, N, S$eta, sigma, method = "exact")
  x2 <- riem_rlaplace(S$M, N, S$eta2, sigma, method = "exact")
  if (S$M$d == 1) {
    audit_cells(cells_s1(x1), cells_s1(x2), 360)
  } else {
    a <- cells_s2(x1, S$eta, S$eta2, sigma)
    b <- cells_s2(x2, S$eta, S$eta2, sigma)
    audit_cells(a$cell, b$cell, a$n_cells)
  }
}

audit_message <- function(tab, eps) {
  excess <- abs(tab$log_ratio) - eps - 4 * tab$se
  w <- which.max(excess)
  sprintf("%d cells audited; worst cell %d: counts %d / %d, log ratio %.3f, se %.3f (epsilon %.3g + 4 se = %.3f)",
          nrow(tab), tab$cell[w], tab$n1[w], tab$n2[w], tab$log_ratio[w], tab$se[w], eps, eps + 4 * tab$se[w])
}

test_that("the adjacent datasets of the audit are (nearly) worst-case and the releases use sigma = 2 Delta/epsilon", {
  for (d in 1:2) {
    S <- audit_setup(d)
    shift <- riem_dist(S$M, S$eta, S$eta2)
    expect_equal(shift, 2 * S$r / S$n, tolerance = 1e-6)  # points on a geodesic: the mean moves 2r/n
    expect_lte(shift, S$Delta)
    expect_gt(shift / S$Delta, 0.6)
    rel <- dp_frechet_mean(S$M, S$D, epsilon = 1, radius = S$r, center = S$c)
    expect_equal(rel$sigma, 2 * S$Delta, tolerance = 1e-14)
  }
})

test_that("privacy audit on S^1: every cell's log ratio is within epsilon (Laplace, conservative)", {
  eps <- 1
  S <- audit_setup(1)
  sigma <- 2 * S$Delta / eps
  tab <- run_audit(S, sigma, 2e5, seed = 501)
  expect_gt(nrow(tab), 100)
  ok <- abs(tab$log_ratio) <= eps + 4 * tab$se
  expect(all(ok), paste("S^1 audit failed:", audit_message(tab, eps)))
  # the audit sees the privacy loss: close to dist(eta, eta') / sigma somewhere
  loss <- riem_dist(S$M, S$eta, S$eta2) / sigma
  expect_gt(max(abs(tab$log_ratio)), 0.7 * loss)
  # footprint-free sigma = Delta / epsilon: the loss is <= dist/sigma < epsilon
  tab_ff <- run_audit(S, S$Delta / eps, 2e5, seed = 502)
  expect(all(abs(tab_ff$log_ratio) <= eps + 4 * tab_ff$se), paste("S^1 footprint-free audit failed:", audit_message(tab_ff, eps)))
})

test_that("privacy audit on S^1 detects a sigma ten times too small", {
  eps <- 1
  S <- audit_setup(1)
  tab <- run_audit(S, S$Delta / (10 * eps), 2e5, seed = 503)
  expect_gt(nrow(tab), 3)
  expect(any(abs(tab$log_ratio) - 4 * tab$se > eps),
         paste("the audit did not detect sigma = Delta/(10 epsilon):", audit_message(tab, eps)))
})

test_that("privacy audit on S^2: every cell's log ratio is within epsilon (Laplace, conservative)", {
  eps <- 1
  S <- audit_setup(2)
  sigma <- 2 * S$Delta / eps
  tab <- run_audit(S, sigma, 3e5, seed = 504)
  expect_gt(nrow(tab), 200)
  ok <- abs(tab$log_ratio) <= eps + 4 * tab$se
  expect(all(ok), paste("S^2 audit failed:", audit_message(tab, eps)))
  loss <- riem_dist(S$M, S$eta, S$eta2) / sigma
  expect_gt(max(abs(tab$log_ratio)), 0.5 * loss)
})

test_that("privacy audit on S^2 detects a sigma ten times too small", {
  eps <- 1
  S <- audit_setup(2)
  tab <- run_audit(S, S$Delta / (10 * eps), 3e5, seed = 505)
  expect_gt(nrow(tab), 3)
  expect(any(abs(tab$log_ratio) - 4 * tab$se > eps),
         paste("the audit did not detect sigma = Delta/(10 epsilon):", audit_message(tab, eps)))
})

test_that("dp_frechet_mean's releases follow the audited law (two-sample KS on a few hundred calls)", {
  eps <- 1
  for (d in 1:2) {
    S <- audit_setup(d)
    sigma <- 2 * S$Delta / eps
    for (k in 1:2) {
      X <- if (k == 1) S$D else S$D2
      eta <- if (k == 1) S$eta else S$eta2
      set.seed(600 + 10 * d + k)
      rel <- t(replicate(400, dp_frechet_mean(S$M, X, epsilon = eps, radius = S$r, center = S$c)$estimate))
      ref <- riem_rlaplace(S$M, 4000, eta, sigma, method = "exact")
      lab <- sprintf("[sphere(%d), dataset %s]", d, if (k == 1) "D" else "D'")
      p_r <- suppressWarnings(ks.test(riem_dist(S$M, eta, rel), riem_dist(S$M, eta, ref))$p.value)
      expect(p_r > 0.001, sprintf("%s dist to the footprint: KS p %.3g", lab, p_r))
      for (j in seq_len(d + 1)) {
        p_j <- suppressWarnings(ks.test(rel[, j], ref[, j])$p.value)
        expect(p_j > 0.001, sprintf("%s coordinate %d: KS p %.3g", lab, j, p_j))
      }
    }
    # the comparison can tell the two footprints apart at this sample size
    set.seed(650 + d)
    rel <- t(replicate(400, dp_frechet_mean(S$M, S$D, epsilon = 20, radius = S$r, center = S$c)$estimate))
    ref <- riem_rlaplace(S$M, 4000, S$eta2, 2 * S$Delta / 20, method = "exact")
    expect_lt(suppressWarnings(ks.test(riem_dist(S$M, S$eta2, rel), riem_dist(S$M, S$eta2, ref))$p.value), 0.001)
  }
})

# ---- dp_linear_regression with two predictors -----------------------------
# The release is a K-norm gradient draw (Reimherr & Awan 2019) of the scaled
# coefficients theta = (b0, b1, b2), f(theta) = exp(-|grad E_tau|/sigma)/Z(D)
# on |theta_j| <= beta_max, grad E_tau = -(1/n) sum psi_tau(r_i) (1, u_i),
# sigma = 2 Delta/epsilon, Delta = 2 tau sqrt(3)/n. D' flips the response of
# the record at u = (1, 1) from +big to -big (big > tau + 3 beta_max): its
# clipped residual goes from +tau to -tau on the whole box, so the gradient
# moves by exactly Delta everywhere. The log density ratio
#     L(theta) = -(|grad E| - |grad E'|)/sigma + log(Z(D')/Z(D))
# depends on s = (|grad E| - |grad E'|)/Delta only: bins of s (its level
# sets) are the audit's main partition, the fitted response at the corner
# (b0 + b1 + b2) a plain second one. Releases use the default control,
# whatever the sampler. n epsilon is small so that the laws overlap, also
# with sigma ten times too small (ratio ~ 5 epsilon at the ends of s).

lin_setup <- function(n = 12, tau = 1, beta_max = 2) {
  set.seed(700)
  rng <- cbind(x1 = c(0, 10), x2 = c(-5, 5))
  U <- rbind(matrix(runif(2 * (n - 1)), n - 1), c(1, 1))
  y <- c(0.5 * U[-n, 1] - 0.3 * U[-n, 2] + rnorm(n - 1, sd = 0.3), tau + 3 * beta_max + 1)
  X <- sweep(sweep(U, 2, rng[2, ] - rng[1, ], "*"), 2, rng[1, ], "+")
  D <- data.frame(x1 = X[, 1], x2 = X[, 2], y = y)
  D2 <- D
  D2$y[n] <- -y[n]
  list(D = D, D2 = D2, U = U, n = n, tau = tau, beta_max = beta_max, rng = rng, Delta = 2 * tau * sqrt(3) / n)
}

# |grad E_tau(theta)| for the rows of theta (plain R).
lin_grad_norm <- function(theta, U, y, tau) {
  Z <- cbind(1, U)
  R <- matrix(y, nrow(theta), length(y), byrow = TRUE) - theta %*% t(Z)
  G <- (pmin(pmax(R, -tau), tau) %*% Z) / length(y)
  sqrt(rowSums(G^2))
}

# Released lm()-form coefficients -> scaled coefficients theta.
lin_theta <- function(B, rng) {
  w <- rng[2, ] - rng[1, ]
  cbind(B[, 1] + B[, -1, drop = FALSE] %*% rng[1, ], sweep(B[, -1, drop = FALSE], 2, w, "*"))
}

lin_releases <- function(S, data, eps, N, seed) {
  set.seed(seed)
  B <- t(vapply(seq_len(N), function(i) {
    coef(dp_linear_regression(y ~ x1 + x2, data, epsilon = eps, tau = S$tau, x_range = S$rng, beta_max = S$beta_max))
  }, numeric(3)))
  lin_theta(B, S$rng)
}

# The two fixed partitions: 10 bins of s, 12 bins of b0 + b1 + b2 in [-3 beta_max, 3 beta_max].
lin_cells <- function(S, theta) {
  s <- (lin_grad_norm(theta, S$U, S$D$y, S$tau) - lin_grad_norm(theta, S$U, S$D2$y, S$tau)) / S$Delta
  t3 <- rowSums(theta)
  list(s = findInterval(s, seq(-1, 1, length.out = 11), rightmost.closed = TRUE, all.inside = TRUE),
       fit = findInterval(t3, seq(-3, 3, length.out = 13) * S$beta_max, rightmost.closed = TRUE, all.inside = TRUE))
}
lin_n_cells <- c(s = 10L, fit = 12L)

# The exact laws on a midpoint grid of the box (k^3 points): cell
# probabilities of both partitions and the log density ratio L on the grid.
lin_exact <- function(S, sigma, k = 48) {
  h <- 2 * S$beta_max / k
  g <- seq(-S$beta_max + h / 2, S$beta_max - h / 2, by = h)
  G <- as.matrix(expand.grid(g, g, g))
  a1 <- lin_grad_norm(G, S$U, S$D$y, S$tau)
  a2 <- lin_grad_norm(G, S$U, S$D2$y, S$tau)
  w1 <- exp(-(a1 - min(a1)) / sigma)
  w2 <- exp(-(a2 - min(a2)) / sigma)
  log_z_ratio <- log(sum(w2)) - min(a2) / sigma - log(sum(w1)) + min(a1) / sigma
  cl <- lin_cells(S, G)
  prob <- lapply(names(cl), function(p) {
    rbind(vapply(seq_len(lin_n_cells[[p]]), function(j) sum(w1[cl[[p]] == j]), 0) / sum(w1),
          vapply(seq_len(lin_n_cells[[p]]), function(j) sum(w2[cl[[p]] == j]), 0) / sum(w2))
  })
  names(prob) <- names(cl)
  list(prob = prob, L = -(a1 - a2) / sigma + log_z_ratio)
}

lin_audit <- function(S, th1, th2) {
  c1 <- lin_cells(S, th1)
  c2 <- lin_cells(S, th2)
  lapply(setNames(names(c1), names(c1)), function(p) audit_cells(c1[[p]], c2[[p]], lin_n_cells[[p]]))
}

lin_eps <- 0.3
lin_N <- 700  # releases per dataset and variant (~10 ms each: at n = 12 the default chain is 17x its base length)

test_that("linear audit: the adjacent datasets are worst case, sigma = 2 Delta/epsilon, the exact loss is within epsilon", {
  S <- lin_setup()
  rel <- dp_linear_regression(y ~ x1 + x2, S$D, epsilon = lin_eps, tau = S$tau, x_range = S$rng, beta_max = S$beta_max)
  expect_equal(rel$sigma, 2 * S$Delta / lin_eps, tolerance = 1e-14)
  expect_equal(S$U, (as.matrix(S$D[, 1:2]) - rep(S$rng[1, ], each = S$n)) / rep(S$rng[2, ] - S$rng[1, ], each = S$n),
               tolerance = 1e-12, ignore_attr = TRUE)
  # the moved record's residual is beyond tau, with opposite signs, on the whole box
  expect_gt(abs(S$D$y[S$n]) - 3 * S$beta_max, S$tau)
  # the released coefficients map back to a theta in the box
  th <- lin_theta(rbind(coef(rel)), S$rng)
  expect_true(all(abs(th) <= S$beta_max + 1e-12))
  # the exact privacy loss: sup |L| <= epsilon (KNG), and these datasets reach about epsilon / 2
  ex <- lin_exact(S, 2 * S$Delta / lin_eps)
  expect_lte(max(abs(ex$L)), lin_eps)
  expect_gt(max(abs(ex$L)), 0.45 * lin_eps)
})

test_that("linear audit (two predictors): every cell's log ratio is within epsilon, and the releases follow the exact law", {
  S <- lin_setup()
  th1 <- lin_releases(S, S$D, lin_eps, lin_N, seed = 711)
  th2 <- lin_releases(S, S$D2, lin_eps, lin_N, seed = 712)
  tabs <- lin_audit(S, th1, th2)
  ex <- lin_exact(S, 2 * S$Delta / lin_eps)
  for (p in names(tabs)) {
    tab <- tabs[[p]]
    expect_gt(nrow(tab), 1)
    expect(all(abs(tab$log_ratio) <= lin_eps + 4 * tab$se), paste("linear audit failed, partition", p, audit_message(tab, lin_eps)))
  }
  # exactness: each cell's frequency against the exact cell probability
  for (p in names(tabs)) {
    c1 <- lin_cells(S, th1)[[p]]
    c2 <- lin_cells(S, th2)[[p]]
    for (k in 1:2) {
      cnt <- tabulate(if (k == 1) c1 else c2, lin_n_cells[[p]])
      pe <- ex$prob[[p]][k, ]
      z <- (cnt - lin_N * pe) / sqrt(lin_N * pe * (1 - pe))
      ok <- lin_N * pe >= 20
      expect(all(abs(z[ok]) <= 4.5), sprintf("partition %s, dataset %d: cell z-scores against the exact law up to %.2f",
                                             p, k, max(abs(z[ok]))))
      chi <- sum(z[ok]^2)
      expect(pchisq(chi, sum(ok) - 1, lower.tail = FALSE) > 1e-3,
             sprintf("partition %s, dataset %d: chi-square %.1f on %d cells", p, k, chi, sum(ok)))
    }
  }
})

test_that("linear audit (two predictors) detects a sigma ten times too small", {
  S <- lin_setup()
  th1 <- lin_releases(S, S$D, 10 * lin_eps, lin_N, seed = 721)
  th2 <- lin_releases(S, S$D2, 10 * lin_eps, lin_N, seed = 722)
  tab <- lin_audit(S, th1, th2)$s
  expect_gt(nrow(tab), 1)
  expect(any(abs(tab$log_ratio) - 4 * tab$se > lin_eps),
         paste("the audit did not detect sigma = Delta/(5 epsilon):", audit_message(tab, lin_eps)))
})
