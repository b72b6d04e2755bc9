# Samplers (methods article, "Samplers"): exact radial laws against numerically integrated
# CDFs, uniform directions, footprint invariance, Metropolis-Hastings against
# the exact samplers, SPD, reproducibility and resumed chains, bad input.
#
# Every KS test uses a fixed seed and the threshold p > 0.001; the power
# checks below show that the same machinery rejects a wrong law.

sampling_cases <- function() {
  list(
    list(name = "euclidean(3)", M = manifold_euclidean(3), eta = c(1, -2, 0.5)),
    list(name = "sphere(1)", M = manifold_sphere(1), eta = c(cos(1), sin(1))),
    list(name = "sphere(2)", M = manifold_sphere(2), eta = c(0.48, -0.6, 0.64)),
    list(name = "sphere(4)", M = manifold_sphere(4), eta = c(1, 2, -1, 0.5, 3) / sqrt(15.25)),
    list(name = "hyperbolic(2)", M = manifold_hyperbolic(2), eta = c(sqrt(1 + 0.8^2 + 1.1^2), 0.8, -1.1)),
    list(name = "hyperbolic(3)", M = manifold_hyperbolic(3), eta = c(sqrt(1 + 0.3^2 + 0.7^2 + 1.2^2), 0.3, -0.7, 1.2)),
    list(name = "kendall(3)", M = manifold_kendall(3), eta = matrix(c(0, 1, 0.3, 0, 0, 1.2), 3, 2)),
    list(name = "kendall(5)", M = manifold_kendall(5), eta = matrix(c(0, 1, 2, 1, 0, 0, 0, 0, 1, 1.5), 5, 2))
  )
}

# Small and large sigma; the Laplace law on H^d needs sigma < 1/(d-1).
case_sigmas <- function(M, kernel) {
  big <- 1.5
  if (kernel == "laplace" && M$type == "hyperbolic") big <- if (M$d == 2) 0.8 else 0.4
  c(0.1, big)
}

draw_fun <- function(kernel) if (kernel == "laplace") riem_rlaplace else riem_rgaussian

# riem_dist(M, eta, x), or a failed expectation (and NULL) when the draws are
# not valid points.
radii_or_fail <- function(M, eta, x, label) {
  r <- tryCatch(riem_dist(M, eta, x), error = function(e) {
    expect(FALSE, sprintf("%s: riem_dist on the draws failed: %s", label, conditionMessage(e)))
    NULL
  })
  if (!is.null(r) && !all(is.finite(r))) {
    expect(FALSE, sprintf("%s: %d non-finite distances", label, sum(!is.finite(r))))
    return(NULL)
  }
  r
}

ks1_p <- function(r, cdf) suppressWarnings(stats::ks.test(r, cdf)$p.value)
ks2_p <- function(a, b) suppressWarnings(stats::ks.test(a, b)$p.value)

# ---- the reference CDFs themselves ----------------------------------------------

test_that("the numerically integrated radial CDFs match closed forms and integrate()", {
  E3 <- manifold_euclidean(3)
  r <- c(0.05, 0.3, 0.7, 1.2, 2.5, 5)
  for (s in c(0.1, 1.5)) {
    # Laplace on R^3: r ~ Gamma(3, scale sigma); Gaussian: r / sigma ~ chi_3
    expect_close(radial_cdf(E3, "laplace", s)(r), pgamma(r, shape = 3, scale = s), 1e-6, scale = 1,
                 label = sprintf("R^3 Laplace CDF, sigma %g", s))
    expect_close(radial_cdf(E3, "gaussian", s)(r), pchisq((r / s)^2, df = 3), 1e-6, scale = 1,
                 label = sprintf("R^3 Gaussian CDF, sigma %g", s))
    # Laplace on S^1: r has density exp(-r/sigma) on [0, pi]
    rr <- r[r < pi]
    expect_close(radial_cdf(manifold_sphere(1), "laplace", s)(rr),
                 (1 - exp(-rr / s)) / (1 - exp(-pi / s)), 1e-6, scale = 1,
                 label = sprintf("S^1 Laplace CDF, sigma %g", s))
    # Gaussian on S^2 at large sigma differs from the flat chi law
    expect_gt(max(abs(radial_cdf(manifold_sphere(2), "gaussian", 1.5)(r[r < pi]) - pchisq((r[r < pi] / 1.5)^2, 2))), 0.05)
  }
  # The trapezoid normaliser agrees with integrate() on every case.
  for (cs in sampling_cases()) for (kernel in c("laplace", "gaussian")) for (s in case_sigmas(cs$M, kernel)) {
    cdf <- radial_cdf(cs$M, kernel, s)
    tot <- radial_total_integrate(cs$M, kernel, s, attr(cdf, "shift"), attr(cdf, "upper"))
    expect_close(attr(cdf, "total"), tot, 1e-5, scale = tot,
                 label = sprintf("%s %s sigma %g: trapezoid vs integrate()", cs$name, kernel, s))
  }
  # Hyperbolic Laplace at sigma = 0.8 on H^2 has a long tail: the cutoff is far out.
  expect_gt(attr(radial_cdf(manifold_hyperbolic(2), "laplace", 0.8), "upper"), 100)
})

# ---- exact samplers ---------------------------------------------------------------

test_that("exact samplers: r = dist(footprint, x) follows k(r) A(r) (KS, 4000 draws)", {
  seed <- 100L
  for (cs in sampling_cases()) for (kernel in c("laplace", "gaussian")) for (s in case_sigmas(cs$M, kernel)) {
    seed <- seed + 1L
    set.seed(seed)
    lab <- sprintf("[%s, %s, sigma %g, exact]", cs$name, kernel, s)
    x <- draw_fun(kernel)(cs$M, 4000, cs$eta, s, method = "exact")
    expect_identical(attr(x, "method"), "exact", label = paste(lab, "method attribute"))
    expect_identical(n_points(cs$M, x), 4000L, label = paste(lab, "number of draws"))
    expect_on_manifold(cs$M, x, paste(lab, "draws"))
    r <- radii_or_fail(cs$M, cs$eta, x, lab)
    if (is.null(r)) next
    p <- ks1_p(r, radial_cdf(cs$M, kernel, s))
    expect(p > 0.001, sprintf("%s KS p-value %.3g <= 0.001 (mean r %.4g)", lab, p, mean(r)))
    # the internal radial sampler on its own
    rr <- riemdp:::samp_radial(cs$M, 4000, kernel, s)
    p2 <- ks1_p(rr, radial_cdf(cs$M, kernel, s))
    expect(p2 > 0.001, sprintf("%s samp_radial KS p-value %.3g <= 0.001", lab, p2))
  }
})

test_that("the KS check has power: it rejects a wrong sigma and a wrong area factor", {
  S2 <- manifold_sphere(2)
  eta <- c(0.48, -0.6, 0.64)
  set.seed(7)
  x <- riem_rlaplace(S2, 4000, eta, 0.1 * 1.15, method = "exact")
  expect_lt(ks1_p(riem_dist(S2, eta, x), radial_cdf(S2, "laplace", 0.1)), 0.001)
  # the flat area r^{d-1} instead of sin^{d-1} r, at a large sigma
  set.seed(8)
  x <- riem_rgaussian(S2, 4000, eta, 1.5, method = "exact")
  flat <- cdf_from_log_density(function(r) -r^2 / (2 * 1.5^2) + log(r), pi)
  expect_lt(ks1_p(riem_dist(S2, eta, x), flat), 0.001)
})

test_that("exact samplers: directions are uniform on the unit sphere of the tangent space", {
  seed <- 200L
  for (cs in sampling_cases()) for (kernel in c("laplace", "gaussian")) {
    s <- if (kernel == "laplace") max(case_sigmas(cs$M, kernel)) else 0.1
    seed <- seed + 1L
    set.seed(seed)
    lab <- sprintf("[%s, %s, sigma %g]", cs$name, kernel, s)
    n <- 4000
    x <- draw_fun(kernel)(cs$M, n, cs$eta, s, method = "exact")
    p <- if (cs$M$type == "kendall") ref_preshape(cs$eta) else cs$eta
    V <- tryCatch(riem_log(cs$M, p, x), error = function(e) NULL)
    if (is.null(V)) {
      expect(FALSE, paste(lab, "riem_log on the draws failed"))
      next
    }
    C <- tangent_coords(cs$M, p, V)
    len <- sqrt(rowSums(C^2))
    # the coordinates are those of Log: their norm is the distance
    expect_close(len, riem_dist(cs$M, p, x), 1e-8, label = paste(lab, "|Log| in orthonormal coordinates = dist"))
    U <- C / len
    d <- cs$M$dim
    mrl <- sqrt(sum(colMeans(U)^2))
    expect(mrl < 4 / sqrt(n), sprintf("%s mean resultant length %.4f >= 4/sqrt(n) = %.4f", lab, mrl, 4 / sqrt(n)))
    if (d >= 2) {
      # E[u u^T] = I/d; entries have variance <= 2/(d(d+2)) per draw
      dev <- max(abs(crossprod(U) / n - diag(d) / d))
      tol <- 6 * sqrt(2 / (d * (d + 2) * n))
      expect(dev < tol, sprintf("%s second moment of directions off I/d by %.4f (tolerance %.4f)", lab, dev, tol))
    }
  }
})

test_that("exact samplers: the law does not depend on where the footprint is (rotations of the sphere)", {
  seed <- 300L
  for (d in c(2L, 4L)) for (kernel in c("laplace", "gaussian")) for (s in c(0.3, 1.5)) {
    M <- manifold_sphere(d)
    seed <- seed + 1L
    set.seed(seed)
    lab <- sprintf("[sphere(%d), %s, sigma %g]", d, kernel, s)
    north <- c(rep(0, d), 1)
    Q <- rand_rotation(d + 1)
    x1 <- draw_fun(kernel)(M, 4000, north, s, method = "exact")
    x2 <- draw_fun(kernel)(M, 4000, as.vector(Q %*% north), s, method = "exact")
    back <- unclass(x2)[, ] %*% Q  # rows Q^T x
    for (j in c(1L, d + 1L)) {
      p <- ks2_p(x1[, j], back[, j])
      expect(p > 0.001, sprintf("%s coordinate %d: footprint e_%d vs Q e_%d rotated back, KS p %.3g", lab, j, d + 1, d + 1, p))
    }
    p <- ks2_p(riem_dist(M, north, x1), riem_dist(M, as.vector(Q %*% north), x2))
    expect(p > 0.001, sprintf("%s r around e vs around Q e, KS p %.3g", lab, p))
  }
  # the comparison has power: without rotating back, the coordinates differ
  M <- manifold_sphere(2)
  set.seed(399)
  Q <- rand_rotation(3)
  x1 <- riem_rlaplace(M, 4000, c(0, 0, 1), 0.3)
  x2 <- riem_rlaplace(M, 4000, as.vector(Q %*% c(0, 0, 1)), 0.3)
  expect_lt(ks2_p(x1[, 3], x2[, 3]), 0.001)
})

# ---- Metropolis-Hastings against exact --------------------------------------------

test_that("Metropolis-Hastings matches the exact sampler (two-sample KS on r)", {
  cases <- Filter(function(cs) cs$name %in% c("sphere(2)", "hyperbolic(2)", "kendall(5)"), sampling_cases())
  seed <- 400L
  n <- 2000
  # the large sigma: 1.5, but 0.5 for the Laplace law on H^2, whose tail at
  # 0.8 (rate 1/sigma - 1 = 0.25) is tested for validity separately below
  for (cs in cases) for (kernel in c("laplace", "gaussian")) for (s in c(0.3, if (kernel == "laplace" && cs$M$type == "hyperbolic") 0.5 else 1.5)) {
    seed <- seed + 1L
    set.seed(seed)
    lab <- sprintf("[%s, %s, sigma %g, mh]", cs$name, kernel, s)
    y <- draw_fun(kernel)(cs$M, n, cs$eta, s, method = "mh", control = mcmc_control(thin = 25))
    x <- draw_fun(kernel)(cs$M, 4000, cs$eta, s, method = "exact")
    expect_identical(attr(y, "method"), "mh", label = paste(lab, "method attribute"))
    acc <- attr(y, "acceptance")
    expect(is.numeric(acc) && acc > 0.05 && acc < 0.9, sprintf("%s acceptance %s", lab, format(acc)))
    ess <- attr(y, "ess")
    # thin = 25: the kept draws should be nearly independent
    expect(is.numeric(ess) && is.finite(ess) && ess > n / 2, sprintf("%s ess %s <= n/2", lab, format(ess)))
    expect_on_manifold(cs$M, y, paste(lab, "chain draws"))
    ry <- radii_or_fail(cs$M, cs$eta, y, lab)
    if (is.null(ry)) next
    p <- ks2_p(ry, riem_dist(cs$M, cs$eta, x))
    expect(p > 0.001, sprintf("%s two-sample KS p %.3g (mean r: mh %.4g, exact %.4g)", lab, p, mean(ry),
                              mean(riem_dist(cs$M, cs$eta, x))))
  }
})

test_that("Metropolis-Hastings on the hyperboloid stays on the hyperboloid", {
  # A long default chain (burn-in 1000, thin 10): every draw must be a point
  # of H^d.
  for (d in 2:3) {
    M <- manifold_hyperbolic(d)
    set.seed(450 + d)
    y <- riem_rgaussian(M, 500, c(1, rep(0, d)), 0.5, method = "mh")
    Y <- unclass(y)[, ]
    defect <- abs(-Y[, 1]^2 + rowSums(Y[, -1, drop = FALSE]^2) + 1) / pmax(1, Y[, 1]^2)
    defect[!is.finite(defect)] <- Inf
    expect(max(defect) < 1e-8,
           sprintf("hyperbolic(%d) mh: max relative |<x,x>_L + 1| = %.3g over 500 draws (first bad draw %s)",
                   d, max(defect), format(which(defect >= 1e-8)[1])))
  }
})

test_that("Metropolis-Hastings for the heavy-tailed Laplace law on H^2 (sigma 0.8) returns valid points", {
  # The law exists (sigma < 1) and the exact sampler handles it; the chain
  # must at least return finite points of H^2.
  H2 <- manifold_hyperbolic(2)
  eta <- c(sqrt(1 + 0.8^2 + 1.1^2), 0.8, -1.1)
  for (seed in c(461L, 462L)) {
    set.seed(seed)
    y <- riem_rlaplace(H2, 2000, eta, 0.8, method = "mh", control = mcmc_control(thin = 25))
    Y <- unclass(y)[, ]
    bad <- which(!is.finite(rowSums(Y)))
    expect(length(bad) == 0, sprintf("seed %d: %d of 2000 draws are not finite (first: draw %s)", seed, length(bad), format(bad[1])))
    if (length(bad) < nrow(Y))
      expect_on_manifold(H2, y[is.finite(rowSums(Y)), , drop = FALSE], sprintf("seed %d: finite chain draws", seed))
  }
})

test_that("euclidean Laplace: r ~ sigma * Gamma(d) for exact and mh draws", {
  E3 <- manifold_euclidean(3)
  eta <- c(1, -2, 0.5)
  seeds <- c(501L, 502L)
  for (i in 1:2) {
    s <- c(0.4, 2)[i]
    set.seed(seeds[i])
    x <- riem_rlaplace(E3, 4000, eta, s, method = "exact")
    p <- ks1_p(riem_dist(E3, eta, x), function(q) pgamma(q, shape = 3, scale = s))
    expect(p > 0.001, sprintf("exact R^3 Laplace sigma %g: KS vs Gamma(3, sigma) p %.3g", s, p))
    y <- riem_rlaplace(E3, 2000, eta, s, method = "mh", control = mcmc_control(thin = 25))
    expect_gt(attr(y, "ess"), 1000)
    p <- ks1_p(riem_dist(E3, eta, y), function(q) pgamma(q, shape = 3, scale = s))
    expect(p > 0.001, sprintf("mh R^3 Laplace sigma %g: KS vs Gamma(3, sigma) p %.3g", s, p))
    # and against the wrong shape it fails
    expect_lt(ks1_p(riem_dist(E3, eta, x), function(q) pgamma(q, shape = 2.5, scale = s)), 0.001)
  }
})

test_that("SPD: exact eigen-decomposition draws agree with Metropolis-Hastings and with the radial law", {
  P2 <- manifold_spd(2)
  eta <- matrix(c(2, 0.5, 0.5, 1), 2, 2)
  seed <- 600L
  for (kernel in c("gaussian", "laplace")) for (s in c(0.3, 0.9)) {
    seed <- seed + 1L
    set.seed(seed)
    lab <- sprintf("[spd(2), %s, sigma %g]", kernel, s)
    x <- draw_fun(kernel)(P2, 3000, eta, s, control = mcmc_control(thin = 25))
    # random-walk MH on spd(2) mixes slowly near the Laplace bound: thin 100
    y <- draw_fun(kernel)(P2, 3000, eta, s, method = "mh", control = mcmc_control(thin = 100))
    expect_identical(attr(x, "method"), "exact", label = paste(lab, "default method"))
    expect_identical(attr(y, "method"), "mh", label = paste(lab, "mh method"))
    expect_on_manifold(P2, x, paste(lab, "exact draws"))
    expect_on_manifold(P2, y, paste(lab, "mh draws"))
    expect_null(attr(x, "mcmc"), label = paste(lab, "chain state of exact draws"))
    expect_gt(attr(y, "ess"), 1500)
    rx <- riem_dist(P2, eta, x)
    ry <- riem_dist(P2, eta, y)
    p <- ks2_p(rx, ry)
    expect(p > 0.001, sprintf("%s exact vs mh, two-sample KS p %.3g", lab, p))
    cdf <- spd2_radial_cdf(kernel, s)
    p1 <- ks1_p(rx, cdf)
    p2 <- ks1_p(ry, cdf)
    expect(p1 > 0.001, sprintf("%s exact vs the integrated radial law, KS p %.3g", lab, p1))
    expect(p2 > 0.001, sprintf("%s mh vs the integrated radial law, KS p %.3g", lab, p2))
  }
  # the SPD radial law is not the flat one: the KS check can tell them apart
  set.seed(699)
  x <- riem_rgaussian(P2, 3000, eta, 0.9, control = mcmc_control(thin = 25))
  expect_lt(ks1_p(riem_dist(P2, eta, x), function(q) pchisq((q / 0.9)^2, df = 2)), 0.001)
  # spd(3): exact against mh
  P3 <- manifold_spd(3)
  set.seed(698)
  x <- riem_rgaussian(P3, 2000, diag(c(1, 2, 3)), 0.5, control = mcmc_control(thin = 25))
  y <- riem_rgaussian(P3, 2000, diag(c(1, 2, 3)), 0.5, method = "mh", control = mcmc_control(thin = 25))
  expect_identical(attr(x, "method"), "exact")
  p <- ks2_p(riem_dist(P3, diag(c(1, 2, 3)), x), riem_dist(P3, diag(c(1, 2, 3)), y))
  expect(p > 0.001, sprintf("spd(3) Gaussian sigma 0.5: exact vs mh, KS p %.3g", p))
})

# ---- reproducibility and resumed chains ----------------------------------------------

test_that("set.seed() reproduces exact draws, chains and releases", {
  S2 <- manifold_sphere(2)
  eta <- c(0.48, -0.6, 0.64)
  same_twice <- function(f) {
    set.seed(1)
    a <- f()
    set.seed(1)
    b <- f()
    set.seed(2)
    c <- f()
    expect_identical(a, b)
    expect_false(identical(a, c))
  }
  same_twice(function() riem_rlaplace(S2, 50, eta, 0.2))
  same_twice(function() riem_rgaussian(S2, 50, eta, 0.2, method = "mh", control = mcmc_control(burn_in = 200)))
  same_twice(function() riem_rgaussian(manifold_spd(2), 20, diag(2), 0.4))
  same_twice(function() riem_rlaplace(manifold_kendall(5), 20, matrix(c(0, 1, 2, 1, 0, 0, 0, 0, 1, 1.5), 5, 2), 0.2))
  set.seed(3)
  X <- stack_points(S2, rand_ball_points(S2, c(0, 0, 1), 8, 0.3))
  same_twice(function() dp_frechet_mean(S2, X, epsilon = 1, radius = 0.3, center = c(0, 0, 1))$estimate)
  same_twice(function() dp_frechet_mean(S2, X, epsilon = 1, radius = 0.3, center = c(0, 0, 1), method = "mh")$estimate)
  same_twice(function() dp_frechet_mean(S2, X, epsilon = 1, radius = 0.3, center = c(0, 0, 1), mechanism = "kng")$estimate)
})

test_that("a chain resumed with mcmc_control(resume = x) starts at attr(x, 'mcmc')$state", {
  S2 <- manifold_sphere(2)
  north <- c(0, 0, 1)
  far <- c(1, 0, 0)  # at distance pi/2 from the footprint
  set.seed(11)
  # a short chain with a small frozen step, started far from the footprint:
  # its last state is still far away
  x <- riem_rgaussian(S2, 5, north, 0.2, method = "mh",
                      control = mcmc_control(burn_in = 0, thin = 1, step = 0.02, adapt = FALSE, init = far))
  st <- attr(x, "mcmc")$state
  expect_on_manifold(S2, st, "mcmc state")
  expect_equal(as.numeric(st), as.numeric(x[5, ]))
  expect_gt(riem_dist(S2, north, st), 1.3)
  expect_equal(attr(x, "mcmc")$step, 0.02)
  y <- riem_rgaussian(S2, 50, north, 0.2, method = "mh", control = mcmc_control(resume = x, thin = 1))
  # one iteration from the state: a proposal of norm ~ 0.02 * chi_2
  expect_lt(riem_dist(S2, st, y[1, ]), 2 * 0.02 * 4)
  expect_gt(riem_dist(S2, north, y[1, ]), 1.2)
  expect_equal(attr(y, "mcmc")$step, 0.02)
  acc <- attr(y, "acceptance")
  expect_true(is.numeric(acc) && length(acc) == 1 && acc >= 0 && acc <= 1)

  # resuming an adapted chain: no burn-in, the frozen step, and the law is kept
  set.seed(12)
  x <- riem_rgaussian(S2, 200, north, 0.3, method = "mh")
  st <- attr(x, "mcmc")$state
  stp <- attr(x, "mcmc")$step
  y <- riem_rgaussian(S2, 2000, north, 0.3, method = "mh", control = mcmc_control(resume = x, thin = 1))
  expect_lt(riem_dist(S2, st, y[1, ]), 4 * stp * sqrt(2))
  expect_equal(attr(y, "mcmc")$step, stp)
  expect_true(attr(y, "acceptance") > 0.05 && attr(y, "acceptance") < 0.9)
  z <- riem_rgaussian(S2, 2000, north, 0.3, method = "mh", control = mcmc_control(resume = x, thin = 25))
  p <- ks1_p(riem_dist(S2, north, z), radial_cdf(S2, "gaussian", 0.3))
  expect(p > 0.001, sprintf("resumed chain: KS p %.3g", p))
  # exact draws cannot be resumed
  expect_error(mcmc_control(resume = riem_rlaplace(S2, 3, north, 0.2)), "resume")
})

test_that("resuming an spd (eigen-mh) chain continues it rather than restarting at the footprint", {
  # sigma = 1.8 on spd(3) is beyond the exact sampler's range: "auto" runs the chain
  P3 <- manifold_spd(3)
  eta <- matrix(c(2, 0.5, 0, 0.5, 1, 0.2, 0, 0.2, 1.5), 3, 3)
  set.seed(13)
  x <- riem_rgaussian(P3, 200, eta, 1.8)
  expect_identical(attr(x, "method"), "eigen-mh")
  # the reported state is the chain's last point
  expect_close(attr(x, "mcmc")$state, x[, , 200], 1e-10, label = "eigen-mh state vs last draw")
  # one iteration after resuming, the log-eigenvalues r have moved by one
  # proposal at most (|r| changes by less than step * |z|, z ~ N(0, I_3)),
  # whereas a restart would start at a fresh draw
  st_r <- riem_dist(P3, eta, attr(x, "mcmc")$state)
  stp <- attr(x, "mcmc")$step
  r1 <- replicate(200, riem_dist(P3, eta, riem_rgaussian(P3, 1, eta, 1.8, control = mcmc_control(resume = x, thin = 1))))
  expect(all(abs(r1 - st_r) < 6 * stp),
         sprintf("resumed eigen-mh moved |r| by up to %.3g from %.3g (step %.3g)", max(abs(r1 - st_r)), st_r, stp))
  # and a resumed chain keeps the law
  r0 <- riem_dist(P3, eta, riem_rgaussian(P3, 400, eta, 1.8, control = mcmc_control(thin = 25)))
  r2 <- riem_dist(P3, eta, riem_rgaussian(P3, 400, eta, 1.8, control = mcmc_control(resume = x, thin = 25)))
  p <- ks2_p(r2, r0)
  expect(p > 0.001, sprintf("resumed eigen-mh chain vs a fresh chain: KS p %.3g", p))
})

# ---- bad input ------------------------------------------------------------------

test_that("samplers refuse bad input with errors naming the argument", {
  S2 <- manifold_sphere(2)
  north <- c(0, 0, 1)
  for (s in list(0, -1, NA, NaN, Inf, c(0.1, 0.2), "a")) {
    expect_error_mentions(riem_rlaplace(S2, 10, north, s), "`sigma`")
    expect_error_mentions(riem_rgaussian(S2, 10, north, s), "`sigma`")
  }
  for (n in list(0, -3, 1.5, NA)) expect_error_mentions(riem_rlaplace(S2, n, north, 0.1), "`n`")
  expect_error_mentions(riem_rlaplace(S2, 10, rbind(north, c(1, 0, 0)), 0.1), "`footprint`")
  expect_error_mentions(riem_rgaussian(S2, 10, rbind(north, c(1, 0, 0)), 0.1, method = "mh"), "`footprint`")
  expect_error_mentions(riem_rlaplace(S2, 10, c(0, 0, 2), 0.1), "`footprint`")
  expect_error_mentions(riem_rlaplace(S2, 10, c(0, NaN, 1), 0.1), "`footprint`")
  expect_error_mentions(riem_rlaplace(S2, 10, north, 0.1, control = list(thin = 2)), "`control`")
  expect_error(riem_rlaplace(S2, 10, north, 0.1, method = "gibbs"))
})

test_that("the Laplace law is refused beyond its existence bound on hyperbolic and spd", {
  H3 <- manifold_hyperbolic(3)
  o <- c(1, 0, 0, 0)
  expect_error_mentions(riem_rlaplace(H3, 10, o, 0.6), c("`sigma`", "0\\.5"))
  expect_error_mentions(riem_rlaplace(H3, 10, o, 0.5), c("`sigma`", "0\\.5"))  # the bound itself
  expect_error_mentions(riem_rlaplace(H3, 10, o, 0.6, method = "mh"), "0\\.5")
  expect_error_mentions(riem_rlaplace(manifold_hyperbolic(2), 10, c(1, 0, 0), 1), "sigma < 1")
  P3 <- manifold_spd(3)
  b <- 2 / sqrt(3 * 8 / 3)  # 2 / sqrt(k(k^2-1)/3) = 0.7071
  expect_error_mentions(riem_rlaplace(P3, 10, diag(3), 0.72), c("`sigma`", "0\\.7071"))
  expect_error_mentions(riem_rlaplace(P3, 10, diag(3), 0.72, method = "mh"), "0\\.7071")
  expect_error_mentions(riem_rlaplace(manifold_spd(2), 10, diag(2), 1.5), "1\\.414")
  # just below the bounds they work; the Gaussian has no bound
  set.seed(1)
  expect_identical(n_points(H3, riem_rlaplace(H3, 5, o, 0.45)), 5L)
  expect_identical(n_points(P3, riem_rlaplace(P3, 5, diag(3), 0.7 * b)), 5L)
  # just below the spd bound the law exists (no sigma error), but most of its
  # mass lies on log-eigenvalue spreads that double precision cannot hold
  res <- tryCatch(n_points(P3, riem_rlaplace(P3, 5, diag(3), 0.95 * b)), error = function(e) conditionMessage(e))
  expect(identical(res, 5L) || grepl("positive definite", res), paste("Laplace at 0.95 of the spd(3) bound:", res))
  expect_identical(n_points(H3, riem_rgaussian(H3, 5, o, 3)), 5L)
})

test_that("mcmc_control refuses bad values", {
  expect_error_mentions(mcmc_control(n_iter = 0), "`n_iter`")
  expect_error_mentions(mcmc_control(n_iter = 2.5), "`n_iter`")
  expect_error_mentions(mcmc_control(burn_in = -1), "`burn_in`")
  expect_error_mentions(mcmc_control(burn_in = NA), "`burn_in`")
  expect_error_mentions(mcmc_control(thin = 0), "`thin`")
  expect_error_mentions(mcmc_control(thin = c(1, 2)), "`thin`")
  expect_error_mentions(mcmc_control(step = 0), "`step`")
  expect_error_mentions(mcmc_control(step = -0.1), "`step`")
  expect_error_mentions(mcmc_control(step = Inf), "`step`")
  expect_error_mentions(mcmc_control(adapt = NA), "`adapt`")
  expect_error_mentions(mcmc_control(adapt = "yes"), "`adapt`")
  expect_error_mentions(mcmc_control(target_accept = 0), "`target_accept`")
  expect_error_mentions(mcmc_control(target_accept = 1), "`target_accept`")
  expect_error_mentions(mcmc_control(target_accept = NA_real_), "`target_accept`")
  expect_error_mentions(mcmc_control(resume = 1:3), "`resume`")
  expect_s3_class(mcmc_control(burn_in = 0, thin = 1), "riemdp_mcmc_control")
})

test_that("draws that double precision cannot hold are an error, not NaN or a non-PD matrix", {
  # on spd the Laplace law near its largest sigma (sqrt 2 on spd(2)) reaches
  # log-eigenvalues beyond 650: an error decided on the draw alone
  set.seed(1)
  expect_error(riem_rlaplace(manifold_spd(2), 2000, diag(2), 1.4), "beyond 650")
  set.seed(1)
  expect_error(riem_rlaplace(manifold_hyperbolic(2), 20000, c(1, 0, 0), 0.995), "overflows")
})

test_that("the FFT autocorrelation behind the ESS equals acf() and scales to long chains", {
  set.seed(42)
  x <- as.numeric(stats::arima.sim(list(ar = 0.8), n = 2000))
  expect_equal(autocorrelation(x), stats::acf(x, lag.max = 1999, plot = FALSE, demean = TRUE)$acf[, 1, 1],
               tolerance = 1e-10)
  # AR(1) with phi = 0.8: tau = (1 + phi)/(1 - phi) = 9, so the ESS is about n/9
  expect_gt(effective_size(x), 2000 / 9 / 1.6)
  expect_lt(effective_size(x), 2000 / 9 * 1.6)
  # 10^6 draws: quadratic acf would take minutes
  y <- as.numeric(stats::arima.sim(list(ar = 0.5), n = 1e6))
  e <- effective_size(y)
  expect_gt(e, 1e6 / 3 / 1.2)
  expect_lt(e, 1e6 / 3 * 1.2)
})
