# The exact sampler of the SPD log-eigenvalues (issue 6 item 2) and the public
# start of the eigen-MH chain (issue 6 item 1): the Vandermonde maximum, the
# acceptance ratio, the direction law, the law of the draws against integrated
# references and against the chain, the choice of "auto", reproducibility, no
# atom at the footprint, and Ctrl-C.

ks1_p <- function(r, cdf) suppressWarnings(stats::ks.test(r, cdf)$p.value)
ks2_p <- function(a, b) suppressWarnings(stats::ks.test(a, b)$p.value)
draw_fun <- function(kernel) if (kernel == "laplace") riem_rlaplace else riem_rgaussian
spd_info <- function(k, kernel = "gaussian", sigma = 1) riemdp:::priv_spd_exact_info(k, kernel, sigma)
log_eigen <- function(k, n, kernel, sigma, what) riemdp:::samp_spd_log_eigen(k, n, kernel, sigma, what)
eigen_mh <- function(M, n, eta, sigma, kernel, control = mcmc_control(thin = 25)) {
  riemdp:::riem_rradial(M, n, eta, sigma, "eigen-mh", control, kernel, NULL)
}
growth <- function(k) sqrt(k * (k^2 - 1) / 12)

# Log-eigenvalues of eta^{-1/2} x eta^{-1/2} for every draw (rows).
log_eigs <- function(eta, x) {
  e <- eigen(eta, symmetric = TRUE)
  ih <- e$vectors %*% diag(1 / sqrt(e$values), nrow(eta)) %*% t(e$vectors)
  t(apply(x, 3, function(m) log(eigen(ih %*% m %*% ih, symmetric = TRUE, only.values = TRUE)$values)))
}

log_vdm <- function(U) {
  s <- 0
  for (i in 1:(ncol(U) - 1)) for (j in (i + 1):ncol(U)) s <- s + log(abs(U[, i] - U[, j]))
  s
}

# SPD(3): the log-eigenvalues r = s e0 + rho (cos(phi) e1 + sin(phi) e2) with
# e0 = (1,1,1)/sqrt 3, e1 = (1,-1,0)/sqrt 2, e2 = (1,1,-2)/sqrt 6 have
# |r_i - r_j| = sqrt(2) rho |cos(phi - j pi/3)|, j = 0, 1, 2; with s = R cos(a),
# rho = R sin(a), R = |r| has density
#   k(R) R^2 int_0^pi sin(a) int_0^{2 pi} prod_j sinh(R sin(a) |cos(phi - j pi/3)| / sqrt 2) dphi da,
# the inner integrand being pi/3-periodic and even in phi, the outer symmetric
# about pi/2: 24 times the integral over [0, pi/2] x [0, pi/6] (midpoint rule).
spd3_radial_cdf <- function(kernel, sigma, n_alpha = 100, n_phi = 30) {
  logk <- switch(kernel, laplace = function(R) -R / sigma, gaussian = function(R) -R^2 / (2 * sigma^2))
  al <- (seq_len(n_alpha) - 0.5) * (pi / 2) / n_alpha
  ph <- (seq_len(n_phi) - 0.5) * (pi / 6) / n_phi
  A <- rep(al, times = n_phi)
  P <- rep(ph, each = n_alpha)
  g <- sapply(0:2, function(j) abs(cos(P - j * pi / 3)) / sqrt(2))
  lw <- log(sin(A))
  lf <- function(R) vapply(R, function(Rv) {
    if (Rv <= 0) return(-Inf)
    rho <- Rv * sin(A)
    L <- lw + log_sinh(rho * g[, 1]) + log_sinh(rho * g[, 2]) + log_sinh(rho * g[, 3])
    mx <- max(L)
    logk(Rv) + 2 * log(Rv) + mx + log(sum(exp(L - mx)))
  }, 0)
  cdf_from_log_density(lf, Inf, n_grid = 2001, n_search = 200)
}

# ---- the constants ------------------------------------------------------------

test_that("the Vandermonde maximum on the sphere is at the scaled Hermite zeros, beyond any random search", {
  # closed forms: k = 2 at (1, -1)/sqrt 2, k = 3 at (-1, 0, 1)/sqrt 2
  expect_equal(spd_info(2)$log_vandermonde_max, log(sqrt(2)), tolerance = 1e-14)
  expect_equal(spd_info(3)$log_vandermonde_max, log(1 / sqrt(2)), tolerance = 1e-14)
  set.seed(101)
  for (k in 2:7) {
    lmax <- spd_info(k)$log_vandermonde_max
    # Hermite zeros from the polynomial itself (recurrence H_{n+1} = 2x H_n - 2n H_{n-1}),
    # independent of the Golub-Welsch computation in the package
    H0 <- 1
    H1 <- c(0, 2)
    for (n in seq_len(k - 1)) {
      H2 <- c(0, 2 * H1) - 2 * n * c(H0, 0, 0)[seq_len(length(H1) + 1)]
      H0 <- H1
      H1 <- H2
    }
    z <- sort(Re(polyroot(H1)))
    expect_equal(lmax, log_vdm(rbind(z / sqrt(sum(z^2)))), tolerance = 1e-10, label = sprintf("k = %d vs polyroot", k))
    # random search: uniform points and local optimisation never beat it
    U <- matrix(rnorm(20000 * k), ncol = k)
    U <- U / sqrt(rowSums(U^2))
    expect_lt(max(log_vdm(U)), lmax + 1e-12)
    f <- function(v) -log_vdm(rbind(v / sqrt(sum(v^2))))
    best <- max(vapply(1:10, function(i) -stats::optim(rnorm(k), f, method = "BFGS",
                                                       control = list(reltol = 1e-14, maxit = 1000))$value, 0))
    expect_lt(best, lmax + 1e-9)
    expect_gt(best, lmax - 1e-5)
  }
})

test_that("the growth constant is sharp and shared with the Laplace existence bound", {
  set.seed(102)
  for (k in 2:8) {
    c <- spd_info(k)$growth
    expect_equal(c, growth(k), tolerance = 1e-14)
    expect_equal(riemdp:::priv_spd_laplace_sigma_max(k), 1 / c, tolerance = 1e-14)
    half_sum <- function(r) sum(abs(outer(r, r, "-"))) / 4
    R <- matrix(rnorm(5000 * k), ncol = k)
    expect_lte(max(apply(R, 1, half_sum) / sqrt(rowSums(R^2))), c * (1 + 1e-12))
    u <- 2 * seq_len(k) - k - 1
    expect_equal(half_sum(u) / sqrt(sum(u^2)), c, tolerance = 1e-12)
  }
})

test_that("the acceptance probability target/envelope is at most 1 and computed right", {
  set.seed(103)
  for (k in c(2:6, 10)) {
    c <- growth(k)
    u <- 2 * seq_len(k) - k - 1
    R <- rbind(matrix(rnorm(4000 * k), ncol = k) * rep(10^runif(4000, -8, 3), k),
               outer(10^seq(-8, 3, length.out = 200), u / sqrt(sum(u^2))),  # the sharp direction
               outer(10^seq(-8, 3, length.out = 200), c(1, rep(0, k - 1))))
    lr <- riemdp:::priv_spd_exact_log_ratio(R)
    expect_true(all(is.finite(lr)))
    expect_lte(max(lr), 1e-12)
    # = log [prod sinh(d/2) / (prod (d/2) e^{c|r|})], computed in plain R where that is accurate
    ref <- apply(R, 1, function(r) {
      d <- abs(outer(r, r, "-"))[upper.tri(diag(k))]
      sum(log_sinh(d / 2) - log(d / 2)) - c * sqrt(sum(r^2))
    })
    ok <- apply(R, 1, function(r) min(abs(outer(r, r, "-"))[upper.tri(diag(k))]) > 1e-3)
    expect_equal(lr[ok], ref[ok], tolerance = 1e-10)
  }
})

test_that("the acceptance bound holds, has its closed forms, and is what 'auto' uses", {
  for (k in 2:6) {
    N <- k - 1 + k * (k - 1) / 2
    c <- growth(k)
    for (s in c(0.05, 0.3) / c) {
      expect_equal(spd_info(k, "laplace", s)$log_acceptance_bound, (N + 1) * log1p(-c * s), tolerance = 1e-12)
    }
    for (s in c(0.01, 0.2, 1, 2.5)) {
      a <- c * s
      den <- stats::integrate(function(t) exp(N * log(t) - t^2 / 2 + a * t - a^2), 0, Inf, rel.tol = 1e-12)$value
      ref <- (N - 1) / 2 * log(2) + lgamma((N + 1) / 2) - log(den) - a^2
      expect_equal(spd_info(k, "gaussian", s)$log_acceptance_bound, ref, tolerance = 1e-8)
    }
  }
  # the bound is below the acceptance rate itself (the mean acceptance probability of envelope proposals)
  set.seed(104)
  for (cs in list(list(2, "gaussian", 2), list(3, "gaussian", 1), list(4, "laplace", 0.2), list(5, "gaussian", 0.4))) {
    w <- exp(riemdp:::priv_spd_exact_log_ratio(log_eigen(cs[[1]], 40000, cs[[2]], cs[[3]], "envelope")))
    b <- exp(spd_info(cs[[1]], cs[[2]], cs[[3]])$log_acceptance_bound)
    expect_lt(b, mean(w) - 4 * sd(w) / sqrt(length(w)))
  }
  # "auto" is exact iff the bound is >= 1e-3, whatever the footprint
  for (cs in list(list(2, "gaussian", 3.9, "exact"), list(2, "gaussian", 4.2, "eigen-mh"),
                  list(3, "laplace", 0.47, "exact"), list(3, "laplace", 0.5, "eigen-mh"),
                  list(5, "gaussian", 0.5, "exact"), list(5, "gaussian", 0.53, "eigen-mh"))) {
    M <- manifold_spd(cs[[1]])
    expect_identical(riemdp:::spd_exact_preferred(cs[[1]], cs[[2]], cs[[3]]), cs[[4]] == "exact")
    for (eta in list(diag(cs[[1]]), diag(seq_len(cs[[1]])^2))) {
      set.seed(105)
      x <- draw_fun(cs[[2]])(M, 2, eta, cs[[3]], control = mcmc_control(burn_in = 10, n_iter = 10, thin = 1))
      expect_identical(attr(x, "method"), cs[[4]], label = sprintf("spd(%d) %s sigma %g", cs[[1]], cs[[2]], cs[[3]]))
    }
  }
})

# ---- the direction law ------------------------------------------------------

test_that("both direction samplers draw prod |u_i - u_j| on the unit sphere", {
  set.seed(106)
  # k = 2: u = (cos t, sin t), |u1 - u2| = sqrt 2 |cos(t + pi/4)|, so
  # w = (t + pi/4) mod pi has density |cos w| / 2 on [0, pi)
  pw <- function(q) ifelse(q < pi / 2, sin(q) / 2, 1 - sin(q) / 2)
  for (what in c("direction_uniform", "direction_goe")) {
    U <- log_eigen(2, 20000, "gaussian", 1, what)
    expect_equal(rowSums(U^2), rep(1, 20000), tolerance = 1e-14)
    w <- (atan2(U[, 2], U[, 1]) + pi / 4) %% pi
    p <- ks1_p(w, pw)
    expect(p > 0.001, sprintf("k = 2 %s: KS p %.3g against |cos| / 2", what, p))
    expect_lt(ks1_p((atan2(U[, 2], U[, 1]) + pi / 4) %% pi, function(q) q / pi), 0.001)  # not uniform
  }
  for (k in c(3, 5, 7)) {
    a <- log_eigen(k, 20000, "gaussian", 1, "direction_uniform")
    b <- log_eigen(k, 20000, "gaussian", 1, "direction_goe")
    expect_equal(rowSums(b^2), rep(1, 20000), tolerance = 1e-13)
    for (stat in list(log_vdm, function(U) apply(U, 1, max), rowSums)) {
      p <- ks2_p(stat(a), stat(b))
      expect(p > 0.001, sprintf("k = %d uniform rejection vs GOE: KS p %.3g", k, p))
    }
    # and they are not uniform on the sphere
    z <- matrix(rnorm(20000 * k), ncol = k)
    expect_lt(ks2_p(log_vdm(a), log_vdm(z / sqrt(rowSums(z^2)))), 0.001)
  }
})

# ---- the law of the draws ----------------------------------------------------

test_that("exact SPD draws follow the integrated law of |r| = dist(eta, x) (k = 2, 3)", {
  P2 <- manifold_spd(2)
  P3 <- manifold_spd(3)
  eta2 <- matrix(c(2, 0.5, 0.5, 1), 2, 2)
  eta3 <- diag(c(1, 2, 3))
  seed <- 110L
  cases <- list(list(P2, eta2, "gaussian", 0.3), list(P2, eta2, "gaussian", 3), list(P2, eta2, "laplace", 0.3),
                list(P2, eta2, "laplace", 0.9), list(P3, eta3, "gaussian", 0.5), list(P3, eta3, "gaussian", 1.5),
                list(P3, eta3, "laplace", 0.2), list(P3, eta3, "laplace", 0.45))
  for (cs in cases) {
    M <- cs[[1]]
    seed <- seed + 1L
    set.seed(seed)
    lab <- sprintf("[spd(%d), %s, sigma %g]", M$k, cs[[3]], cs[[4]])
    x <- draw_fun(cs[[3]])(M, 3000, cs[[2]], cs[[4]])
    expect_identical(attr(x, "method"), "exact", label = paste(lab, "default method"))
    expect_null(attr(x, "mcmc"))
    expect_on_manifold(M, x, paste(lab, "draws"))
    cdf <- if (M$k == 2) spd2_radial_cdf(cs[[3]], cs[[4]]) else spd3_radial_cdf(cs[[3]], cs[[4]])
    p <- ks1_p(riem_dist(M, cs[[2]], x), cdf)
    expect(p > 0.001, sprintf("%s exact vs the integrated law of |r|: KS p %.3g", lab, p))
    # the envelope proposals themselves do not follow it (the accept step matters)
    e <- log_eigen(M$k, 3000, cs[[3]], cs[[4]], "envelope")
    expect_lt(ks1_p(sqrt(rowSums(e^2)), cdf), 0.001)
  }
})

test_that("exact SPD draws agree with the eigen-MH chain (k = 2, 3; both kernels)", {
  seed <- 120L
  for (cs in list(list(2, "gaussian", 1), list(2, "laplace", 0.6), list(3, "gaussian", 0.8),
                  list(3, "laplace", 0.35))) {
    k <- cs[[1]]
    M <- manifold_spd(k)
    eta <- diag(seq_len(k)) + 0.3
    seed <- seed + 1L
    set.seed(seed)
    lab <- sprintf("[spd(%d), %s, sigma %g]", k, cs[[2]], cs[[3]])
    x <- draw_fun(cs[[2]])(M, 3000, eta, cs[[3]], method = "exact")
    y <- eigen_mh(M, 3000, eta, cs[[3]], cs[[2]])
    expect_identical(attr(y, "method"), "eigen-mh")
    expect_gt(attr(y, "ess"), 1500)
    lx <- log_eigs(eta, x)
    ly <- log_eigs(eta, y)
    # |r|, sum r = log det(eta^-1 x), and the spread max r - min r
    for (stat in list(function(L) sqrt(rowSums(L^2)), rowSums, function(L) apply(L, 1, function(v) diff(range(v))))) {
      p <- ks2_p(stat(lx), stat(ly))
      expect(p > 0.001, sprintf("%s exact vs eigen-MH: KS p %.3g", lab, p))
    }
  }
})

# Where "auto" falls back to eigen-MH (the exact sampler's proven acceptance
# below 1e-3), a release draws one state of a fresh chain from a random public
# start, after the default burn_in + n_iter steps (R/release.R): those states
# must be at the exact law (which still runs here, only more slowly in bulk).
test_that("a release's eigen-MH draw, default length and fresh start, is at the exact law where auto falls back", {
  skip_on_cran()
  seed <- 130L
  for (cs in list(list(3, "laplace", 0.5), list(4, "gaussian", 1))) {
    k <- cs[[1]]
    M <- manifold_spd(k)
    expect_false(riemdp:::spd_exact_preferred(k, cs[[2]], cs[[3]]))
    eta <- diag(seq_len(k)) + 0.3
    ctl <- mcmc_control(verbose = FALSE)
    ctl$thin <- ctl$n_iter  # as in R/release.R
    seed <- seed + 1L
    set.seed(seed)
    lab <- sprintf("[spd(%d), %s, sigma %g]", k, cs[[2]], cs[[3]])
    y <- array(vapply(1:250, function(i) eigen_mh(M, 1, eta, cs[[3]], cs[[2]], ctl), numeric(k * k)), c(k, k, 250))
    x <- draw_fun(cs[[2]])(M, 2000, eta, cs[[3]], method = "exact")
    lx <- log_eigs(eta, x)
    ly <- log_eigs(eta, y)
    for (stat in list(function(L) sqrt(rowSums(L^2)), function(L) apply(L, 1, function(v) diff(range(v))))) {
      p <- ks2_p(stat(lx), stat(ly))
      expect(p > 0.001, sprintf("%s exact vs release eigen-MH: KS p %.3g", lab, p))
      expect_lte(sum(stat(ly) > stats::quantile(stat(lx), 0.999)), 2)
    }
  }
})

test_that("Gaussian law: sum r / sqrt(k) is exactly N(0, sigma^2) (the sinh factors see only differences)", {
  set.seed(130)
  for (cs in list(list(4, 0.5), list(6, 0.2), list(8, 0.1))) {
    k <- cs[[1]]
    s <- cs[[2]]
    r <- log_eigen(k, 4000, "gaussian", s, "exact")
    p <- ks1_p(rowSums(r) / (sqrt(k) * s), pnorm)
    expect(p > 0.001, sprintf("spd(%d) sigma %g: KS p %.3g", k, s, p))
    # the radial part is not that of the envelope
    e <- log_eigen(k, 4000, "gaussian", s, "envelope")
    expect_lt(ks2_p(sqrt(rowSums(r^2)), sqrt(rowSums(e^2))), 0.001)
  }
  # spd(7) through the public function (GOE directions), with the footprint's determinant
  M <- manifold_spd(7)
  eta <- diag(c(1, 2, 1, 3, 1, 2, 1))
  x <- riem_rgaussian(M, 3000, eta, 0.15)
  expect_identical(attr(x, "method"), "exact")
  ld <- apply(x, 3, function(m) determinant(m)$modulus) - sum(log(diag(eta)))
  p <- ks1_p(ld / (sqrt(7) * 0.15), pnorm)
  expect(p > 0.001, sprintf("spd(7) sigma 0.15: log det KS p %.3g", p))
})

test_that("set.seed() reproduces exact SPD draws and the chain's random start", {
  M <- manifold_spd(3)
  for (f in list(function() riem_rgaussian(M, 30, diag(3), 0.5),
                 function() riem_rlaplace(M, 30, diag(3), 0.2, method = "exact"),
                 function() riem_rgaussian(M, 30, diag(3), 2.5),
                 function() log_eigen(8, 30, "gaussian", 0.1, "exact"))) {
    set.seed(140)
    a <- f()
    set.seed(140)
    b <- f()
    set.seed(141)
    c <- f()
    expect_identical(a, b)
    expect_false(identical(a, c))
  }
})

# ---- no atom at the footprint (issue 6 item 1, SPD part) ---------------------

test_that("an eigen-MH chain that never moves does not release the footprint", {
  # A huge frozen step: every proposal is rejected, so the draws are the
  # chain's start. The start used to be r ~ 0, i.e. x ~ eta (distance 1.4e-3
  # on spd(3)); it is now a random draw of a public law.
  P3 <- manifold_spd(3)
  eta <- matrix(c(2, 0.3, 0, 0.3, 1, 0.2, 0, 0.2, 1.5), 3, 3)
  stuck <- mcmc_control(burn_in = 0, thin = 1, adapt = FALSE, step = 1e6)
  d <- vapply(1:20, function(i) {
    set.seed(150 + i)
    x <- eigen_mh(P3, 3, eta, 0.5, "gaussian", stuck)
    expect_identical(attr(x, "acceptance"), 0)
    r <- riem_dist(P3, eta, x)
    expect_equal(r, rep(r[1], 3), tolerance = 1e-10)  # the chain did not move
    r[1]
  }, 0)
  expect_gt(min(d), 0.02)
  expect_gt(sd(d), 0.05)
  # the start law: |r| of the flat law k(|r|) prod |r_i - r_j| is sigma * chi_{k + m} (Gaussian)
  set.seed(171)
  st <- log_eigen(3, 4000, "gaussian", 0.5, "start")
  p <- ks1_p(sqrt(rowSums(st^2)) / 0.5, function(q) pchisq(q^2, df = 6))
  expect(p > 0.001, sprintf("chain start: KS p %.3g against chi_6", p))

  # a release beyond the exact sampler's range (eigen-MH): not the footprint either
  set.seed(172)
  X <- riem_rgaussian(P3, 12, eta, 0.2)
  fm <- coef(frechet_mean(P3, X, max_iter = 1000, tol = 1e-12))
  ctr <- eta
  rel <- dp_frechet_mean(P3, X, radius = 2, center = ctr, mechanism = "gaussian", sigma = 3,
                         control = mcmc_control(burn_in = 0, adapt = FALSE, step = 1e6))
  expect_identical(rel$sampler, "eigen-mh")
  expect_gt(riem_dist(P3, fm, coef(rel)), 0.02)
  # the default release draws exactly
  rel <- dp_frechet_mean(P3, X, radius = 2, center = ctr, mechanism = "gaussian", sigma = 0.5)
  expect_identical(rel$sampler, "exact")
  expect_null(rel$control)
  expect_match(paste(capture.output(print(rel)), collapse = " "), "an exact draw")
})

test_that("control$init and resume still set the start of the eigen-MH chain", {
  P2 <- manifold_spd(2)
  eta <- diag(2)
  far <- diag(c(exp(3), exp(-3)))
  stuck <- mcmc_control(burn_in = 0, thin = 1, adapt = FALSE, step = 1e6, init = far)
  set.seed(180)
  x <- eigen_mh(P2, 2, eta, 0.5, "gaussian", stuck)
  expect_equal(riem_dist(P2, eta, x), rep(sqrt(18), 2), tolerance = 1e-10)
  # beyond the threshold "auto" runs the chain, and resume continues it
  P3 <- manifold_spd(3)
  set.seed(181)
  x <- riem_rgaussian(P3, 50, diag(3), 1.8)
  expect_identical(attr(x, "method"), "eigen-mh")
  y <- riem_rgaussian(P3, 1, diag(3), 1.8, control = mcmc_control(resume = x, thin = 1))
  # one proposal of norm step * chi_3 at most
  expect_lt(abs(riem_dist(P3, diag(3), y) - riem_dist(P3, diag(3), attr(x, "mcmc")$state)), 6 * attr(x, "mcmc")$step)
})

# ---- Ctrl-C ------------------------------------------------------------------

test_that("a slow exact SPD run stops soon after SIGINT", {
  skip_on_os("windows")
  skip_on_cran()
  lib <- dirname(find.package("riemdp"))
  pid_file <- tempfile()
  out_file <- tempfile()
  script <- tempfile(fileext = ".R")
  writeLines(c(
    sprintf(".libPaths(c(%s, .libPaths()))", deparse(lib)),
    "library(riemdp)",
    sprintf("writeLines(as.character(Sys.getpid()), %s)", deparse(pid_file)),
    # acceptance about 1e-12 per proposal: minutes per draw
    sprintf("res <- tryCatch({riem_rgaussian(manifold_spd(6), 10, diag(6), 1.5, method = 'exact'); 'finished'},
             interrupt = function(e) 'interrupted', error = function(e) conditionMessage(e))"),
    sprintf("writeLines(res, %s)", deparse(out_file))), script)
  system2(file.path(R.home("bin"), "Rscript"), script, wait = FALSE, stdout = FALSE, stderr = FALSE)
  t0 <- Sys.time()
  while (!file.exists(pid_file) && difftime(Sys.time(), t0, units = "secs") < 30) Sys.sleep(0.05)
  expect_true(file.exists(pid_file))
  Sys.sleep(1.5)  # inside the sampler by now
  pid <- as.integer(readLines(pid_file))
  t1 <- Sys.time()
  tools::pskill(pid, tools::SIGINT)
  while (!file.exists(out_file) && difftime(Sys.time(), t1, units = "secs") < 20) Sys.sleep(0.02)
  waited <- as.numeric(difftime(Sys.time(), t1, units = "secs"))
  Sys.sleep(0.2)  # let the child finish writing
  if (!file.exists(out_file)) tools::pskill(pid, tools::SIGKILL)
  expect_true(file.exists(out_file))
  expect_identical(readLines(out_file), "interrupted")
  expect_lt(waited, 2)
})

test_that("draws that double precision cannot hold as positive definite are floored, never an error that depends on the footprint", {
  # whether eta^1/2 U e^r U^T eta^1/2 is representable depends on eta (the
  # data's footprint in a release); such draws come back with their
  # eigenvalues floored at 1e-12 times the largest (a function of the draw)
  P <- manifold_spd(2)
  eta <- diag(c(1, 1e9))
  half <- diag(c(1, sqrt(1e9)))
  cond <- function(A) { l <- eigen(A, symmetric = TRUE, only.values = TRUE)$values; max(l) / min(l) }
  for (cs in list(list(riem_rlaplace, 1.2), list(riem_rgaussian, 5))) {
    set.seed(11)
    Z <- cs[[1]](P, 2000, diag(2), cs[[2]], method = "exact")
    set.seed(11)
    X <- cs[[1]](P, 2000, eta, cs[[2]], method = "exact")
    expect_true(all(is.finite(X)))
    kx <- apply(X, 3, cond)
    expect_true(all(kx > 0 & kx < 1.0001e12))
    expect_gt(sum(kx > 0.9999e12), 5)  # floored draws
    # where the whitened draw and the matrix it maps to are well conditioned, it is that matrix
    Y <- array(apply(Z, 3, function(z) half %*% z %*% half), dim(Z))
    plain <- which(apply(Y, 3, cond) < 1e10 & apply(Z, 3, cond) < 1e10)
    expect_gt(length(plain), 10)
    for (i in head(plain, 10))
      expect_equal(X[, , i], half %*% Z[, , i] %*% half, tolerance = 1e-6)
  }
})
