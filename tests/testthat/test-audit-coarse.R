# Empirical privacy audit of the coarse location stage of the private bounds
# on spd and kendall (dp_bounds(), "Location on spd and kendall"): a private
# Frechet mean by the K-norm gradient mechanism (Reimherr & Awan 2019) of the
# points clipped to the public region, drawn by the package's chain.
#
# Adjacent datasets of n = 5 points: all at a boundary point p of the region
# B_R(c0), or one of them moved to the opposite point q (the gradient moves by
# about 2R/n, the worst case). The statistic is the coordinate of the coarse
# centre along the unit vector Log_c0(p) / R in 10 equal bins of [-R, R]; a correct stage has a
# log-ratio of bin frequencies within its epsilon (the KNG density ratio is at
# most epsilon / 2 with sigma = 2 Delta / epsilon), and the same audit fails a
# stage run at ten times the epsilon it claims. audit_excess(): helper-privacy.R.

# The stage's chains run at the base length (250 + 25 D) + (250 + 25 D), the
# default's length from n = 200 on: at n = 5 the default runs them 20 times
# longer, which only brings the draws closer to the law audited here, and
# would make the audit take minutes.
base_control <- function(D) {
  len <- riemdp:::kng_chain_length(D, Inf)
  mcmc_control(burn_in = len$burn_in, n_iter = len$n_iter, verbose = FALSE)
}

coarse_audit_freq <- function(M, D, plan, w, R, n_draws, eps_factor = 1) {
  ctl <- base_control(M$dim)
  z <- vapply(seq_len(n_draws), function(i) {
    C <- riemdp:::bounds_coarse_stage(M, D, plan, eps_factor, control = ctl)
    sum(riem_log(M, plan$coarse$like, from_coords(M, C$x)) * w)
  }, 0)
  tabulate(findInterval(z, seq(-R, R, length.out = 11), rightmost.closed = TRUE, all.inside = TRUE), 10)
}

from_coords <- function(M, x) if (M$type == "spd") matrix(x, M$k) else matrix(x, M$k, 2)

coarse_audit_setup <- function(M, c0, R, w) {
  w <- w / riem_norm(M, c0, w)
  p <- riem_exp(M, c0, 0.999 * R * w)
  q <- riem_exp(M, c0, -0.999 * R * w)
  D1 <- array(rep(p, 5), c(dim(p), 5))
  D2 <- D1
  D2[, , 5] <- q
  spec <- dp_bounds(region_center = c0, region_radius = R, location = "coarse")
  # the plan's public n only enters the check that the stage can localise;
  # the coarse mean's sigma comes from the data's public n = 5
  plan <- riemdp:::bounds_plan(M, spec, 1000, 1, NULL, 0.5, NULL)
  list(D1 = D1, D2 = D2, plan = plan, w = w, R = R)
}

test_that("coarse location stage audit on spd and kendall: within epsilon, and a 10x stage fails", {
  skip_on_cran()
  eps <- 1
  cases <- list(
    spd = list(M = manifold_spd(2), c0 = diag(2), R = 1, w = diag(c(1, -1))),
    kendall = list(M = manifold_kendall(4), c0 = rbind(c(-1, -1), c(1, -1), c(1, 1), c(-1, 1)) / 4, R = 0.3,
                   w = NULL))
  for (nm in names(cases)) {
    cs <- cases[[nm]]
    M <- cs$M
    c0 <- riem_project(M, cs$c0)
    w <- cs$w %||% riem_log(M, c0, riem_project(M, rbind(c(-1, -1.2), c(1, -1), c(1.1, 1), c(-1, 1)) / 4))
    A <- coarse_audit_setup(M, c0, cs$R, w)
    expect_equal(A$plan$eps_location, eps)
    expect_identical(A$plan$coarse$mechanism, "kng")
    set.seed(401)
    f1 <- coarse_audit_freq(M, A$D1, A$plan, A$w, A$R, 1500)
    f2 <- coarse_audit_freq(M, A$D2, A$plan, A$w, A$R, 1500)
    a <- audit_excess(f1, f2)
    expect_lt(a$lower, eps, label = sprintf("%s: max log-ratio %.3f - 4 se", nm, a$max_log_ratio))
    # the datasets are adjacent and far apart: the stage's law does move
    expect_gt(a$max_log_ratio, 0.1, label = sprintf("%s: max log-ratio", nm))
    set.seed(402)
    f1b <- coarse_audit_freq(M, A$D1, A$plan, A$w, A$R, 600, eps_factor = 10)
    f2b <- coarse_audit_freq(M, A$D2, A$plan, A$w, A$R, 600, eps_factor = 10)
    expect_gt(audit_excess(f1b, f2b)$lower, eps, label = sprintf("%s at 10 x epsilon", nm))
  }
})

# The coarse-fit stage of the regression route (dp_regression_bounds(
# tau_method = "coarse")) is a private geodesic regression, a K-norm gradient
# release drawn by the package's chain: its own audit on S^2. Adjacent
# datasets of n = 5 near the north pole: one response moved from 0.15 to the
# east of the meridian to 0.15 to its west (its clipped residual flips). The
# statistic is the privacy loss's own direction, z = (|grad E_2| - |grad
# E_1|) / Delta at the release (in [-1, 1]: a public partition of the
# parameter space, conf_level_geodesic() of helper-conformance.R), in 10
# bins: the log density ratio is epsilon z / 2 plus a constant, so a correct
# stage stays within epsilon, and one at 10x its epsilon shows ratios near
# 5 epsilon at the ends.
test_that("coarse-fit stage audit (private geodesic regression on S^2): within epsilon, and 10x fails", {
  skip_on_cran()
  S2 <- manifold_sphere(2)
  north <- c(0, 0, 1)
  x <- c(0, 0.25, 0.5, 0.75, 1)
  fit <- riem_geodesic(S2, north, c(0, 0.1, 0), x)          # a fit along the meridian
  east <- function(p, s) riem_exp(S2, p, s * c(1, 0, 0) - sum(s * c(1, 0, 0) * p) * p)
  Y1 <- t(vapply(1:5, function(i) east(fit[i, ], 0.15), numeric(3)))
  Y2 <- Y1
  Y2[5, ] <- east(fit[5, ], -0.15)
  eps <- 1
  tau <- 0.1
  tau_m <- 0.3
  Delta <- sensitivity_geodesic_regression(S2, 5, tau, tau_m)[["joint"]]
  release <- function(Y, e) dp_geodesic_regression(S2, x, Y, epsilon = e, tau = tau, tau_m = tau_m, x_range = c(0, 1),
                                                   center = north, radius = 0.3, control = base_control(4L))
  freq <- function(Y, e, draws) {
    z <- vapply(seq_len(draws), function(i) {
      rel <- release(Y, e)
      (conf_level_geodesic(rel, x, Y2) - conf_level_geodesic(rel, x, Y1)) * rel$sigma / Delta
    }, 0)
    tabulate(findInterval(z, seq(-1, 1, length.out = 11), rightmost.closed = TRUE, all.inside = TRUE), 10)
  }
  set.seed(501)
  a <- audit_excess(freq(Y1, eps, 800), freq(Y2, eps, 800))
  expect_lt(a$lower, eps)
  expect_gt(a$max_log_ratio, 0.1)
  set.seed(502)
  expect_gt(audit_excess(freq(Y1, 10 * eps, 1000), freq(Y2, 10 * eps, 1000))$lower, eps)
})
