# Private bounds for dp_frechet_mean() (dp_bounds(), dp_find_bounds()): the
# privacy audit of each stage, the composed guarantee and its accounting,
# bad input, reproducibility, and a utility smoke test.

# draw_freq() and audit_excess(): helper-privacy.R.

test_that("dp_bounds() refuses a share outside (0, 1) and other bad settings", {
  for (s in list(0, 1, -0.1, 1.5, NA_real_, c(0.1, 0.2), "0.2"))
    expect_error(dp_bounds(share = s), "`share` must be a single number strictly between 0 and 1", fixed = TRUE)
  expect_error(dp_bounds(fraction = 1), "`fraction`")
  expect_error(dp_bounds(split = 0), "`split`")
  expect_error(dp_bounds(radii = c(0.2, 0.1)), "`radii`")
  expect_s3_class(dp_bounds(), "riemdp_bounds_spec")
  expect_output(print(dp_bounds()), "share of the total epsilon: 0.2")
  S2 <- manifold_sphere(2)
  X <- riem_project(S2, matrix(c(0.1, 0, 1), 600, 3, byrow = TRUE))
  expect_error(dp_frechet_mean(S2, X, epsilon = 1, bounds = list(share = 0.2)), "specification from dp_bounds")
})

test_that("location stage audit: selection log-ratios stay within epsilon, and a 10x mechanism fails", {
  S2 <- manifold_sphere(2)
  A <- c(1, 0, 0); B <- c(0, 1, 0); C <- c(0, 0, 1)
  spec <- dp_bounds(candidates = rbind(A, B, C), count_radius = 0.3)
  eps <- 0.2
  # adjacent datasets: one point moved (adversarially) from A's
  # neighbourhood to B's, where 4 more points lie
  D1 <- rbind(A, B, B, B, B)
  D2 <- rbind(B, B, B, B, B)
  # n = 100 in the plan: the public size only enters the check that the stage can localise
  plan <- riemdp:::bounds_plan(S2, spec, 100, eps, NULL, 0.1, NULL)
  expect_equal(plan$eps_location, eps)
  S1 <- riemdp:::as_points(S2, D1, "X"); S2s <- riemdp:::as_points(S2, D2, "X")
  # near the worst case of the exponential mechanism (the moved point's
  # candidate rare, the other dominant: exact log-ratio 0.95 epsilon), the
  # claimed epsilon still holds
  worst <- list(S3 = riemdp:::as_points(S2, rbind(A, matrix(B, 30, 3, byrow = TRUE)), "X"),
                S4 = riemdp:::as_points(S2, matrix(B, 31, 3, byrow = TRUE), "X"), u3 = c(1, 30, 0), u4 = c(0, 31, 0))
  expect_location_audit(S2, plan, S1, S2s, c(1, 4, 0), c(0, 5, 0), eps, 101, worst)
})

test_that("scale stage audit: selection log-ratios stay within epsilon, and a 10x mechanism fails", {
  E1 <- manifold_euclidean(1)
  radii <- c(0.1, 0.2, 0.3, 0.4)
  spec <- dp_bounds(radii = radii, fraction = 0.5, scale_factor = 1)
  eps <- 0.2
  plan <- riemdp:::bounds_plan(E1, spec, 100, eps, riemdp:::as_points(E1, 0, "center"), NULL, NULL)
  expect_equal(plan$eps_scale, eps)
  C <- riemdp:::as_points(E1, 0, "center")
  # the point nearest the centre moved (adversarially) beyond every radius
  S1 <- riemdp:::as_points(E1, matrix(c(0.05, 0.15, 0.25, 0.35)), "X")
  S2 <- riemdp:::as_points(E1, matrix(c(0.45, 0.15, 0.25, 0.35)), "X")
  u1 <- riemdp:::bounds_scale_utility(E1, S1, C, radii, 0.5)
  u2 <- riemdp:::bounds_scale_utility(E1, S2, C, radii, 0.5)
  expect_equal(u1, -c(1, 0, 1, 2))
  expect_equal(u2, -c(2, 1, 0, 1))
  n_draws <- 20000
  set.seed(102)
  f1 <- draw_freq(function() riemdp:::bounds_scale_stage(E1, S1, C, plan), 4, n_draws)
  f2 <- draw_freq(function() riemdp:::bounds_scale_stage(E1, S2, C, plan), 4, n_draws)
  a <- audit_excess(f1, f2)
  expect_lt(a$lower, eps)
  exact <- max(abs(log(em_probs(u1, eps) / em_probs(u2, eps))))
  expect_lt(abs(a$max_log_ratio - exact), 4 * a$se)
  f1b <- draw_freq(function() riemdp:::bounds_scale_stage(E1, S1, C, plan, eps_factor = 10), 4, n_draws)
  f2b <- draw_freq(function() riemdp:::bounds_scale_stage(E1, S2, C, plan, eps_factor = 10), 4, n_draws)
  expect_gt(audit_excess(f1b, f2b)$lower, eps)
})

test_that("each stage draws one uniform from R's generator; the nets use none", {
  seed_before <- function() { set.seed(7); .Random.seed }
  s <- seed_before()
  net <- riemdp:::sphere_net(3, 0.3, 1e5, NULL)
  expect_identical(.Random.seed, s)
  expect_equal(rowSums(net^2), rep(1, nrow(net)))
  set.seed(7)
  j <- riemdp:::em_draw(c(3, 1, 2), 1)
  after <- stats::runif(1)
  set.seed(7)
  expect_identical(stats::runif(2)[2], after)
  # the draw is the inverse CDF at that one uniform: ties and zeros need no branch
  set.seed(7)
  u <- stats::runif(1)
  set.seed(7)
  expect_identical(riemdp:::em_draw(c(0, 0, 0, 0), 1), as.integer(ceiling(4 * u)))
})

test_that("the release prints one composed guarantee, the sum of its stages, and dp_budget() charges the total", {
  S2 <- manifold_sphere(2)
  set.seed(21)
  X <- riem_rgaussian(S2, 500, c(0.6, 0, 0.8), 0.1)
  rel <- dp_frechet_mean(S2, X, epsilon = 1, bounds = dp_bounds(share = 0.3, split = 0.4))
  expect_s3_class(rel, "riemdp_frechet_release")
  expect_equal(rel$bounds_stages$epsilon, c(0.12, 0.18))
  expect_equal(rel$epsilon_mean, 0.7)
  expect_equal(rel$epsilon, 1)
  expect_equal(sum(rel$bounds_stages$epsilon) + rel$epsilon_mean, rel$epsilon)
  expect_identical(rel$outside, "clip")
  expect_lt(rel$radius, sensitivity_radius_max(S2))
  # sigma from the mean's share only
  expect_equal(rel$sigma, 2 * sensitivity_frechet_mean(S2, 500, rel$radius) / 0.7)
  out <- paste(capture.output(print(rel)), collapse = " ")
  out <- gsub("\\s+", " ", out)
  expect_match(out, "1-DP (pure epsilon-DP) in total, the sum of its 3 stages", fixed = TRUE)
  expect_match(out, "[1] private centre, 0.12-DP", fixed = TRUE)
  expect_match(out, "[2] private radius, 0.18-DP", fixed = TRUE)
  expect_match(out, "[3] the mean, 0.7-DP", fixed = TRUE)
  expect_match(out, "McSherry & Talwar 2007", fixed = TRUE)
  expect_match(out, "outside = \"clip\" is forced", fixed = TRUE)
  expect_equal(length(gregexpr("Guarantee:", out, fixed = TRUE)[[1]]), 1L)
  b <- dp_budget(rel)
  expect_equal(b$spent, 1)
  b <- dp_spend(dp_budget(total = c(epsilon = 1)), rel)
  expect_equal(b$remaining, 0)
  expect_error(dp_spend(b, epsilon = 0.01), "would exceed the budget")
  # a standalone bounds release: its own epsilon, spendable, usable as public input
  fb <- dp_find_bounds(S2, X, epsilon = 0.2)
  expect_s3_class(fb, c("riemdp_bounds", "riemdp_release"))
  expect_equal(fb$epsilon, 0.2)
  expect_equal(fb$stages$epsilon, c(0.1, 0.1))
  expect_output(print(fb), "0.2-DP (pure epsilon-DP) in total", fixed = TRUE)
  rel2 <- dp_frechet_mean(S2, X, epsilon = 0.8, center = fb$center, radius = fb$radius, outside = "clip")
  expect_equal(dp_budget(fb, rel2)$spent, 1)
  # a stated centre: the scale stage takes the whole share
  rel3 <- dp_frechet_mean(S2, X, epsilon = 1, center = c(0.6, 0, 0.8), bounds = dp_bounds(share = 0.2))
  expect_identical(rel3$bounds_stages$bound, "radius")
  expect_equal(rel3$bounds_stages$epsilon, 0.2)
  expect_equal(unname(rel3$center), c(0.6, 0, 0.8))
  # a stated radius: the location stage takes it
  rel4 <- dp_frechet_mean(S2, X, epsilon = 1, radius = 0.3, bounds = dp_bounds(share = 0.2))
  expect_identical(rel4$bounds_stages$bound, "center")
  expect_identical(rel4$radius, 0.3)
  # the KNG mechanism too
  rel5 <- dp_frechet_mean(S2, X, epsilon = 1, mechanism = "kng", bounds = dp_bounds())
  expect_equal(dp_budget(rel5)$spent, 1)
})

test_that("bad input: errors from public quantities only", {
  S2 <- manifold_sphere(2)
  set.seed(22)
  X1 <- riem_rgaussian(S2, 20, c(0, 0, 1), 0.1)
  X2 <- riem_rgaussian(S2, 20, c(1, 0, 0), 0.5)
  # n too small to localise: the same error whatever the data
  e1 <- tryCatch(dp_frechet_mean(S2, X1, epsilon = 1, bounds = dp_bounds()), error = conditionMessage)
  e2 <- tryCatch(dp_frechet_mean(S2, X2, epsilon = 1, bounds = dp_bounds()), error = conditionMessage)
  expect_match(e1, "n = 20 is too small for the location stage", fixed = TRUE)
  expect_identical(e1, e2)
  expect_error(dp_frechet_mean(S2, X1, epsilon = 1, center = c(0, 0, 1), bounds = dp_bounds()),
               "too small for the scale stage")
  expect_error(dp_find_bounds(S2, X1, epsilon = 0.2), "too small")
  # settings the route refuses
  X <- riem_rgaussian(S2, 600, c(0, 0, 1), 0.1)
  expect_error(dp_frechet_mean(S2, X, epsilon = 1, center = c(0, 0, 1), radius = 0.3, bounds = dp_bounds()),
               "nothing to find")
  expect_error(dp_frechet_mean(S2, X, epsilon = 1, outside = "error", bounds = dp_bounds()), "forced")
  expect_error(dp_frechet_mean(S2, X, mechanism = "gaussian", mu = 1, bounds = dp_bounds()), "epsilon-DP")
  expect_error(dp_frechet_mean(S2, X, epsilon = 1, bounds = dp_bounds(radius_max = 1)), "r\\* =")
  expect_error(dp_frechet_mean(manifold_sphere(3), riem_rgaussian(manifold_sphere(3), 600, c(0, 0, 0, 1), 0.1),
                               epsilon = 1, bounds = dp_bounds()), "max_candidates")
  E2 <- manifold_euclidean(2)
  Y <- matrix(stats::rnorm(1200), 600, 2)
  expect_error(dp_frechet_mean(E2, Y, epsilon = 1, bounds = dp_bounds()), "region_center")
  expect_error(dp_frechet_mean(manifold_euclidean(6), matrix(0, 600, 6), epsilon = 1,
                               bounds = dp_bounds(region_center = rep(0, 6), region_radius = 100)), "max_candidates")
  P <- manifold_spd(2)
  expect_error(dp_frechet_mean(P, array(diag(2), c(2, 2, 600)), epsilon = 1, bounds = dp_bounds()),
               "needs a public region: give `region_center`")
  K <- manifold_kendall(4)
  conf <- matrix(c(0, 1, 1, 0, 0, 0, 1, 1), 4, 2)
  expect_error(dp_frechet_mean(K, array(conf, c(4, 2, 600)), epsilon = 1, bounds = dp_bounds()), "template shape")
  rk <- dp_frechet_mean(K, array(conf, c(4, 2, 600)), epsilon = 1, center = conf, bounds = dp_bounds())
  expect_lte(rk$radius, sensitivity_radius_max(K) / 2)
  # spd with a stated centre: the radius is found privately
  Z <- array(diag(2), c(2, 2, 600))
  rp <- dp_frechet_mean(P, Z, epsilon = 1, center = diag(2), bounds = dp_bounds(radius_max = 4))
  expect_identical(rp$bounds_stages$bound, "radius")
})

test_that("a public region that holds none of the data gives an honest noisy release, no error", {
  E2 <- manifold_euclidean(2)
  spec <- dp_bounds(region_center = c(0, 0), region_radius = 10, count_radius = 1)
  set.seed(23)
  far <- sweep(matrix(stats::rnorm(1000), 500, 2), 2, c(1000, -1000), "+")
  rel <- expect_silent(dp_frechet_mean(E2, far, epsilon = 1, bounds = spec))
  expect_true(all(is.finite(rel$estimate)))
  expect_lte(sqrt(sum(rel$center^2)), 10 + 1e-9)
  # every candidate scores 0 and every radius the same: the draws are uniform
  plan <- riemdp:::bounds_plan(E2, spec, 500, 0.2, NULL, NULL, NULL)
  S <- riemdp:::as_points(E2, far, "X")
  expect_true(all(riemdp:::bounds_location_counts(E2, S, plan$candidates, 1) == 0))
  S2 <- manifold_sphere(2)
  cap <- dp_bounds(region_center = c(0, 0, 1), region_radius = 0.5)
  X <- riem_rgaussian(S2, 500, c(0, 0, -1), 0.05)
  rel <- expect_silent(dp_frechet_mean(S2, X, epsilon = 1, bounds = cap))
  expect_lte(riem_dist(S2, c(0, 0, 1), rel$center), 0.5 + 1e-9)
})

test_that("set.seed() reproduces; bounds = NULL leaves releases bit-identical", {
  S2 <- manifold_sphere(2)
  set.seed(24)
  X <- riem_rgaussian(S2, 500, c(0, 0.6, 0.8), 0.1)
  set.seed(5); a <- dp_frechet_mean(S2, X, epsilon = 1, bounds = dp_bounds())
  set.seed(5); b <- dp_frechet_mean(S2, X, epsilon = 1, bounds = dp_bounds())
  expect_identical(a$estimate, b$estimate)
  expect_identical(a$center, b$center)
  expect_identical(a$radius, b$radius)
  set.seed(5); fa <- dp_find_bounds(S2, X, 0.2)
  set.seed(5); fb <- dp_find_bounds(S2, X, 0.2)
  expect_identical(fa$center, fb$center)
  # reference values from the package before the bounds route existed (the
  # KNG chain at the length the default had then, 300 + 300 steps for D = 2)
  north <- c(0, 0, 1)
  set.seed(11); X <- riem_rgaussian(S2, 60, north, 0.1)
  set.seed(12); r1 <- dp_frechet_mean(S2, X, epsilon = 1, radius = pi / 8, center = north, outside = "clip")
  set.seed(13); r2 <- dp_frechet_mean(S2, X, epsilon = 1, radius = pi / 8, center = north, outside = "clip",
                                      mechanism = "kng", bounds = NULL, method = "mh",
                                      control = mcmc_control(burn_in = 300, n_iter = 300, verbose = FALSE))
  E2 <- manifold_euclidean(2); set.seed(14); Y <- matrix(stats::rnorm(80), 40, 2)
  set.seed(15); r3 <- dp_frechet_mean(E2, Y, epsilon = 1, radius = 5, center = c(0, 0), mechanism = "kng")
  expect_identical(c(r1$estimate, r2$estimate, r3$estimate),
                   c(-0.068983443861511048, -0.0019216411985167622, 0.99761595404650072, -0.04549167450074916,
                     0.17153613232694637, 0.9841269546442829, 1.7294560475038714, -0.54415014210653867))
  expect_null(r1$bounds_stages)
  expect_identical(r1$epsilon, 1)
})

test_that("utility smoke: on a concentrated cap of S^2 the private centre lands within a few degrees", {
  S2 <- manifold_sphere(2)
  set.seed(25)
  mu0 <- c(0.48, -0.6, 0.64)
  X <- riem_rgaussian(S2, 500, mu0, 0.1)   # about 6 degrees of spread, n = 500
  fm <- coef(frechet_mean(S2, X))
  deg <- replicate(20, {
    rel <- dp_frechet_mean(S2, X, epsilon = 1, bounds = dp_bounds())
    c(centre = riem_dist(S2, fm, rel$center), mean = riem_dist(S2, fm, rel$estimate)) * 180 / pi
  })
  # (default count radius pi/12, net spacing 5 degrees; 100 draws on three
  # such data sets: median 3.7 to 4.3 degrees, 90% quantile 6.3 to 6.5)
  expect_lt(stats::median(deg["centre", ]), 6)
  expect_lt(max(deg["centre", ]), 12)
  expect_lt(stats::median(deg["mean", ]), 2)
  # euclidean: a large public ball, data in a small part of it
  E2 <- manifold_euclidean(2)
  Y <- sweep(matrix(stats::rnorm(1000), 500, 2), 2, c(30, -20), "+")
  rel <- dp_frechet_mean(E2, Y, epsilon = 1, bounds = dp_bounds(region_center = c(0, 0), region_radius = 100,
                                                                count_radius = 5))
  expect_lt(sqrt(sum((rel$center - c(30, -20))^2)), 6)
  # hyperbolic: the net in normal coordinates at the public centre
  H2 <- manifold_hyperbolic(2)
  p0 <- c(cosh(1), sinh(1), 0)
  Z <- riem_rgaussian(H2, 300, p0, 0.2)
  rel <- dp_frechet_mean(H2, Z, epsilon = 1, bounds = dp_bounds(region_center = c(1, 0, 0), region_radius = 3,
                                                                count_radius = 0.3))
  expect_lt(riem_dist(H2, p0, rel$center), 0.5)
  # S^1: equally spaced angles
  S1 <- manifold_sphere(1)
  W <- riem_rgaussian(S1, 300, c(0, 1), 0.1)
  rel <- dp_frechet_mean(S1, W, epsilon = 1, bounds = dp_bounds())
  expect_lt(riem_dist(S1, c(0, 1), rel$center), 0.2)
})

test_that("spd and kendall: the centre is a coarse private mean in the public region; the stages compose", {
  P <- manifold_spd(2)
  set.seed(31)
  Z <- riem_rgaussian(P, 600, diag(c(2, 0.5)), 0.2)
  spec <- dp_bounds(share = 0.2, region_center = diag(2), region_radius = 2, location = "coarse")
  set.seed(1)
  rel <- dp_frechet_mean(P, Z, epsilon = 1, bounds = spec)
  expect_s3_class(rel, "riemdp_frechet_release")
  expect_identical(rel$bounds_stages$stage, c("location", "scale"))
  expect_equal(rel$bounds_stages$epsilon, c(0.1, 0.1))
  expect_equal(rel$epsilon_mean, 0.8)
  expect_equal(rel$epsilon, 1)
  expect_equal(dp_budget(rel)$spent, 1)
  out <- gsub("\\s+", " ", paste(capture.output(print(rel)), collapse = " "))
  expect_match(out, "1-DP (pure epsilon-DP) in total, the sum of its 3 stages", fixed = TRUE)
  expect_match(out, "[1] private centre, 0.1-DP: a coarse private Fr\u00e9chet mean (the K-norm gradient mechanism", fixed = TRUE)
  expect_match(out, "[3] the mean, 0.8-DP", fixed = TRUE)
  # the centre lies in the public region; the radius on the public grid
  expect_lte(riem_dist(P, diag(2), rel$center), 2 + 1e-9)
  plan <- riemdp:::bounds_plan(P, spec, 600, 0.2, NULL, NULL, NULL)
  expect_true(any(abs(plan$radii - rel$radius) < 1e-12))
  expect_identical(plan$coarse$mechanism, "kng")
  # the location stage is exactly the audited release dp_frechet_mean() at
  # its share of epsilon (no separate audit needed: the KNG release is an
  # existing mechanism), and the same seed reproduces it
  set.seed(2)
  b <- dp_find_bounds(P, Z, epsilon = 0.2, bounds = spec)
  set.seed(2)
  coarse <- dp_frechet_mean(P, Z, epsilon = 0.1, radius = 2, center = diag(2), mechanism = "kng", outside = "clip")
  expect_equal(unname(b$center), unname(coef(coarse)))
  expect_equal(b$epsilon, 0.2)
  expect_equal(b$stages$epsilon, c(0.1, 0.1))
  # the coarse Laplace law, when asked for, is moved into the region
  rl <- dp_find_bounds(P, Z, epsilon = 0.2, bounds = dp_bounds(region_center = diag(2), region_radius = 2,
                                                                  coarse_mechanism = "laplace", location = "coarse"))
  expect_lte(riem_dist(P, diag(2), rl$center), 2 + 1e-9)
  # utility: the private centre near the mean, the release nearer
  fm <- coef(frechet_mean(P, Z))
  expect_lt(riem_dist(P, fm, rel$center), 1)
  expect_lt(riem_dist(P, fm, rel$estimate), 0.3)

  # Kendall: a public template shape and a region radius below r* = pi/8
  K <- manifold_kendall(4)
  square <- matrix(c(0, 1, 1, 0, 0, 0, 1, 1), 4, 2)
  set.seed(32)
  X <- riem_rgaussian(K, 500, square, 0.05)
  set.seed(3)
  rk <- dp_frechet_mean(K, X, epsilon = 1, bounds = dp_bounds(region_center = square, region_radius = 0.3))
  expect_equal(rk$epsilon, 1)
  expect_equal(sum(rk$bounds_stages$epsilon) + rk$epsilon_mean, 1)
  expect_lte(riem_dist(K, square, rk$center), 0.3 + 1e-9)
  expect_lte(rk$radius, sensitivity_radius_max(K) / 2)
  expect_lt(riem_dist(K, coef(frechet_mean(K, X)), rk$estimate), 0.05)
  set.seed(3)
  rk2 <- dp_frechet_mean(K, X, epsilon = 1, bounds = dp_bounds(region_center = square, region_radius = 0.3))
  expect_identical(rk$estimate, rk2$estimate)
})

test_that("spd and kendall: bad input is refused from public quantities, before the data are used", {
  K <- manifold_kendall(4)
  square <- matrix(c(0, 1, 1, 0, 0, 0, 1, 1), 4, 2)
  set.seed(33)
  X <- riem_rgaussian(K, 500, square, 0.05)
  # a region radius at or beyond r* = pi/8
  for (R in c(pi / 8, 0.5))
    expect_error(dp_frechet_mean(K, X, epsilon = 1, bounds = dp_bounds(region_center = square, region_radius = R)),
                 "is not below r\\* = 0.392699 on manifold_kendall\\(4\\)")
  # n too small for the coarse stage: the same error whatever the data
  P <- manifold_spd(3)
  spec <- dp_bounds(share = 0.2, region_center = diag(3), region_radius = 5.6, location = "coarse")
  e1 <- tryCatch(dp_frechet_mean(P, eustock_cov, epsilon = 1, bounds = spec), error = conditionMessage)
  e2 <- tryCatch(dp_frechet_mean(P, array(diag(3), c(3, 3, 92)), epsilon = 1, bounds = spec), error = conditionMessage)
  expect_match(e1, "n = 92 is too small for the location stage to localise", fixed = TRUE)
  expect_match(e1, "`center = region_center`", fixed = TRUE)
  expect_identical(e1, e2)
  # the region's centre stated instead: the radius is found with the whole share
  set.seed(4)
  rs <- dp_frechet_mean(P, eustock_cov, epsilon = 1, center = diag(3), bounds = dp_bounds(share = 0.2, radius_max = 5.6))
  expect_identical(rs$bounds_stages$bound, "radius")
  expect_lte(rs$radius, 5.6)
  # a second ball that double precision cannot resolve around some centre of
  # the region: refused at the worst case, the same whatever the data
  big <- dp_bounds(region_center = diag(2), region_radius = 8, radius_max = 8, location = "coarse")
  P2 <- manifold_spd(2)
  set.seed(34)
  Z1 <- riem_rgaussian(P2, 5000, diag(2), 0.2)
  Z2 <- riem_rgaussian(P2, 5000, diag(c(50, 0.02)), 0.2)
  f1 <- tryCatch(dp_frechet_mean(P2, Z1, epsilon = 1, bounds = big), error = conditionMessage)
  f2 <- tryCatch(dp_frechet_mean(P2, Z2, epsilon = 1, bounds = big), error = conditionMessage)
  expect_match(f1, "double precision resolves", fixed = TRUE)
  expect_identical(f1, f2)
  # by default the grid of radii stops where the worst ball is still resolved
  plan <- riemdp:::bounds_plan(P2, dp_bounds(region_center = diag(2), region_radius = 8, location = "coarse"), 5000, 0.2,
                               NULL, NULL, NULL)
  expect_lt(max(plan$radii) + 8, (log(1e-6 / .Machine$double.eps)) / 2)
  rel <- dp_frechet_mean(P2, Z1, epsilon = 1, mechanism = "kng",
                         bounds = dp_bounds(region_center = diag(2), region_radius = 8, location = "coarse"))
  expect_equal(rel$epsilon, 1)
})

test_that("spd: a public region that holds none of the data gives an honest noisy release, no error", {
  P <- manifold_spd(2)
  set.seed(35)
  far <- riem_rgaussian(P, 600, diag(c(40, 40)), 0.2)   # about 5.2 from the identity
  spec <- dp_bounds(region_center = diag(2), region_radius = 2)
  rel <- expect_silent(dp_frechet_mean(P, far, epsilon = 1, bounds = spec))
  expect_true(all(is.finite(rel$estimate)))
  expect_lte(riem_dist(P, diag(2), rel$center), 2 + 1e-9)
  expect_equal(rel$epsilon, 1)
})

test_that("where r* is infinite (euclidean, hyperbolic) the ball is twice a private median radius by default", {
  expect_error(dp_bounds(scale_factor = 0.5), "`scale_factor` must be NULL or a single finite number >= 1")
  expect_error(dp_bounds(scale_factor = c(1, 2)), "`scale_factor`")
  expect_error(dp_bounds(scale_factor = Inf), "`scale_factor`")
  def <- function(M, ...) unlist(riemdp:::bounds_scale_defaults(M, dp_bounds(...)))
  expect_equal(def(manifold_euclidean(2)), c(fraction = 0.5, scale_factor = 2))
  expect_equal(def(manifold_hyperbolic(2)), c(fraction = 0.5, scale_factor = 2))
  expect_equal(def(manifold_sphere(2)), c(fraction = 0.9, scale_factor = 1))
  expect_equal(def(manifold_spd(2)), c(fraction = 0.9, scale_factor = 1))
  expect_equal(def(manifold_kendall(4)), c(fraction = 0.9, scale_factor = 1))
  expect_equal(def(manifold_euclidean(2), fraction = 0.8, scale_factor = 1.5), c(fraction = 0.8, scale_factor = 1.5))
  expect_output(print(dp_bounds()), "twice the radius holding half the points")
  # the ball's radius is the factor times a radius of the grid, and the
  # grid stops at radius_max / factor (radius_max states the ball's)
  E2 <- manifold_euclidean(2)
  set.seed(41)
  Y <- sweep(matrix(stats::rnorm(1000), 500, 2), 2, c(31.7, -18.4), "+")
  spec <- dp_bounds(region_center = c(0, 0), region_radius = 100)
  plan <- riemdp:::bounds_plan(E2, spec, 500, 0.2, NULL, NULL, NULL)
  expect_equal(plan$scale_factor, 2)
  expect_equal(max(plan$radii), 2 * 100 / 2)
  set.seed(42)
  b <- dp_find_bounds(E2, Y, epsilon = 0.2, bounds = spec)
  expect_true(any(abs(2 * plan$radii - b$radius) < 1e-9))
  expect_match(paste(b$stages$mechanism, collapse = " "), "2 times a private quantile", fixed = TRUE)
  # statistics: half the radius is a private median of the distances from
  # the private centre (to the grid's 7% steps and the mechanism's noise)
  d <- sqrt(colSums((t(Y) - b$center)^2))
  expect_gt(b$radius / 2 / stats::median(d), 0.8)
  expect_lt(b$radius / 2 / stats::median(d), 1.25)
  expect_gt(mean(d <= b$radius), 0.9)
  # utility at the defaults against hand-chosen bounds (centre (30, -20),
  # radius 5): 60 releases each, median error ratio below 2
  # (bench/private-bounds.R: 1.5 over 100)
  truth <- colMeans(Y)
  err <- function(rel) sqrt(sum((rel$estimate - truth)^2))
  set.seed(43)
  e_hand <- replicate(60, err(dp_frechet_mean(E2, Y, epsilon = 1, center = c(30, -20), radius = 5, outside = "clip")))
  set.seed(44)
  e_priv <- replicate(60, err(dp_frechet_mean(E2, Y, epsilon = 1, bounds = dp_bounds(region_center = c(0, 0),
                                                                                          region_radius = 100))))
  expect_lt(stats::median(e_priv) / stats::median(e_hand), 2)
})
