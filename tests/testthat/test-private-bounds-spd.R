# Private bounds on spd: the location stage over the public net of multiples
# exp(t) c0 of the region's centre (dp_bounds(location = "net"), the spd
# default). Its privacy audit, its public net and checks, bad input.

# expect_location_audit(): helper-privacy.R.

test_that("spd location stage audit: selection log-ratios stay within epsilon, and a 10x mechanism fails", {
  P <- manifold_spd(2)
  # the public net: region radius 1, spacing 1 -> exp(t) I for t in
  # {-1, 0, 1} / sqrt(2), 1 apart; count radius 0.3
  spec <- dp_bounds(region_center = diag(2), region_radius = 1, count_radius = 0.3, spacing = 1)
  eps <- 0.2
  plan <- riemdp:::bounds_plan(P, spec, 100, eps, NULL, 0.5, NULL)
  expect_equal(plan$eps_location, eps)
  expect_identical(plan$candidates$n, 3L)
  A <- exp(-1 / sqrt(2)) * diag(2); B <- diag(2); C <- exp(1 / sqrt(2)) * diag(2)
  pts <- function(...) riemdp:::as_points(P, array(unlist(list(...)), c(2, 2, length(list(...)))), "X")
  # adjacent datasets: one point moved from A's neighbourhood to B's, where
  # 4 more lie (an off-scalar point: the counts use the full distance)
  Bo <- matrix(c(1.1, 0.05, 0.05, 0.95), 2)
  D1 <- pts(A, Bo, B, B, B)
  D2 <- pts(Bo, Bo, B, B, B)
  # near the worst case (the moved point's candidate rare, exact log-ratio
  # 0.95 epsilon) the claimed epsilon still holds
  worst <- list(S3 = riemdp:::as_points(P, array(c(A, rep(B, 30)), c(2, 2, 31)), "X"),
                S4 = riemdp:::as_points(P, array(rep(B, 31), c(2, 2, 31)), "X"), u3 = c(1, 30, 0), u4 = c(0, 31, 0))
  expect_location_audit(P, plan, D1, D2, c(1, 4, 0), c(0, 5, 0), eps, 301, worst)
})

test_that("spd: the public net is the multiples exp(t) c0 in the region, from public arguments only", {
  P <- manifold_spd(3)
  R <- sqrt(3) * log(25)
  c0 <- diag(c(2, 1, 0.5))
  spec <- dp_bounds(region_center = c0, region_radius = R)
  plan <- riemdp:::bounds_plan(P, spec, 200, 0.2, NULL, NULL, NULL)
  cand <- plan$candidates
  expect_identical(cand$n, 17L)                      # spacing R / 8 (count radius R / 2, spacing r / 4)
  expect_equal(plan$count_radius, R / 2)
  s <- cand$x[, 1] / 2                                # exp(t)
  expect_equal(cand$x, outer(s, as.vector(c0)))
  d <- apply(cand$x, 1, function(x) riem_dist(P, c0, matrix(x, 3)))
  expect_true(all(d <= R + 1e-9))
  expect_equal(diff(sort(log(s))) * sqrt(3), rep(R / 8, 16))
  expect_match(plan$stages$mechanism[1], "over 17 public candidates (the multiples exp(t) region_center, spacing 0.6969)",
               fixed = TRUE)
  # the candidates lie in the region with the data: by default the ball's
  # radius is at most the region's; every candidate has c0's condition
  # number, and the grid also stops where a ball around c0 is resolved
  r_res <- (log(1e-6 / .Machine$double.eps) - log(4)) / 2
  expect_equal(max(plan$radii), min(R, 0.99 * r_res))
  # the stage's public pre-check counts the candidates: 17 at epsilon 0.05
  # and n = 92 cannot localise, the same error whatever the data
  e1 <- tryCatch(dp_find_bounds(P, eustock_cov, epsilon = 0.1, center = NULL,
                                bounds = dp_bounds(region_center = diag(3), region_radius = R, split = 0.5)),
                 error = conditionMessage)
  e2 <- tryCatch(dp_find_bounds(P, array(diag(3), c(3, 3, 92)), epsilon = 0.1,
                                bounds = dp_bounds(region_center = diag(3), region_radius = R, split = 0.5)),
                 error = conditionMessage)
  expect_match(e1, "over 17 public candidates picks one whose count is within about (2/epsilon) log(17)", fixed = TRUE)
  expect_identical(e1, e2)
  # public candidates replace the net on spd too
  pc <- dp_bounds(candidates = array(c(diag(3), 2 * diag(3)), c(3, 3, 2)), count_radius = 1)
  expect_identical(riemdp:::bounds_plan(P, pc, 92, 0.5, NULL, 1, NULL)$candidates$n, 2L)
})

test_that("spd: eustock_cov, centre and radius found privately at share 0.2 (the coarse stage is refused there)", {
  P <- manifold_spd(3)
  R <- sqrt(3) * log(25)
  spec <- dp_bounds(share = 0.2, region_center = diag(3), region_radius = R, n_radii = 20, radius_max = R)
  set.seed(5)
  rel <- dp_frechet_mean(P, eustock_cov, epsilon = 1, bounds = spec)
  expect_identical(rel$bounds_stages$bound, c("center", "radius"))
  expect_equal(rel$bounds_stages$epsilon, c(0.1, 0.1))
  expect_equal(rel$epsilon, 1)
  out <- gsub("\\s+", " ", paste(capture.output(print(rel)), collapse = " "))
  expect_match(out, "[1] private centre, 0.1-DP: exponential mechanism (McSherry & Talwar 2007) over 17 public candidates",
               fixed = TRUE)
  # the private centre is a multiple of the identity in the region
  C <- unname(rel$center)
  expect_equal(C, C[1, 1] * diag(3))
  expect_lte(riem_dist(P, diag(3), C), R + 1e-9)
  # set.seed() reproduces
  set.seed(5)
  expect_identical(dp_frechet_mean(P, eustock_cov, epsilon = 1, bounds = spec)$estimate, rel$estimate)
  # utility over a few releases: the median error is of the order of the
  # hand-chosen bounds' (bench/private-bounds.R measures it over 300)
  fm <- coef(frechet_mean(P, eustock_cov))
  set.seed(6)
  e_priv <- replicate(40, riem_dist(P, fm, dp_frechet_mean(P, eustock_cov, epsilon = 1, bounds = spec)$estimate))
  e_hand <- replicate(40, riem_dist(P, fm, dp_frechet_mean(P, eustock_cov, epsilon = 1, center = diag(3), radius = 4,
                                                           outside = "clip")$estimate))
  expect_lt(stats::median(e_priv), 2 * stats::median(e_hand))
})

test_that("location: bad values and routes a manifold lacks are refused, naming the argument", {
  for (v in list("scalar", 1, NA_character_, c("net", "coarse")))
    expect_error(dp_bounds(location = v), "`location` must be one of \"auto\", \"net\", \"coarse\"", fixed = TRUE)
  expect_identical(dp_bounds()$location, "auto")
  expect_identical(dp_bounds(location = "coarse")$location, "coarse")
  expect_output(print(dp_bounds(location = "coarse")), "location on spd: a coarse private")
  expect_output(print(dp_bounds()), "location on spd: a public net of multiples")
  K <- manifold_kendall(4)
  square <- matrix(c(0, 1, 1, 0, 0, 0, 1, 1), 4, 2)
  expect_error(dp_frechet_mean(K, array(square, c(4, 2, 600)), epsilon = 1,
                               bounds = dp_bounds(region_center = square, region_radius = 0.3, location = "net")),
               "`location = \"net\"` is not available on manifold_kendall(4)", fixed = TRUE)
  S2 <- manifold_sphere(2)
  X <- riem_project(S2, matrix(c(0.1, 0, 1), 600, 3, byrow = TRUE))
  expect_error(dp_frechet_mean(S2, X, epsilon = 1, bounds = dp_bounds(location = "coarse")),
               "`location = \"coarse\"` is for manifold_spd(k) and manifold_kendall(k)", fixed = TRUE)
  # spd: a net larger than max_candidates, and no public region
  P <- manifold_spd(2)
  Z <- array(diag(2), c(2, 2, 600))
  expect_error(dp_frechet_mean(P, Z, epsilon = 1,
                               bounds = dp_bounds(region_center = diag(2), region_radius = 2, spacing = 0.01,
                                                  max_candidates = 100)),
               "would hold 401 candidates (spacing 0.01 within radius 2), more than `max_candidates` = 100", fixed = TRUE)
  expect_error(dp_frechet_mean(P, Z, epsilon = 1, bounds = dp_bounds()), "needs a public region: give `region_center`")
  # the coarse route stays available on spd
  set.seed(7)
  b <- dp_find_bounds(P, riem_rgaussian(P, 600, diag(2), 0.2), epsilon = 0.5,
                      bounds = dp_bounds(region_center = diag(2), region_radius = 2, location = "coarse"))
  expect_match(b$stages$mechanism[1], "coarse private Fr\u00e9chet mean", fixed = TRUE)
})

test_that("spd: the geodesic regression's footpoint centre uses the same public net of multiples", {
  P <- manifold_spd(2)
  set.seed(41)
  x <- stats::runif(300)
  Y <- riem_rgaussian(P, 300, diag(c(2, 0.5)), 0.2)
  spec <- dp_regression_bounds(share = 0.3, x_limits = c(0, 1), region_center = diag(2), region_radius = 2, radius_max = 1)
  set.seed(8)
  fit <- dp_geodesic_regression(P, x, Y, epsilon = 1, bounds = spec)
  expect_equal(fit$epsilon, 1)
  out <- gsub("\\s+", " ", paste(capture.output(print(fit)), collapse = " "))
  expect_match(out, "over 17 public candidates (the multiples exp(t) region_center, spacing 0.25) scored by their soft counts",
               fixed = TRUE)
})

test_that("the default number of radii shrinks with the public n and epsilon so that the scale stage can localise", {
  expect_identical(riemdp:::bounds_n_radii(92, 0.1, 0.9), 27L)
  expect_identical(riemdp:::bounds_n_radii(795, 0.1, 0.9), 100L)
  expect_identical(riemdp:::bounds_n_radii(20, 0.1, 0.9), 10L)
  # (2/eps) log G <= 0.8 f n whenever G > 10: the check passes
  for (n in c(50, 92, 150)) {
    G <- riemdp:::bounds_n_radii(n, 0.1, 0.9)
    if (G > 10) expect_lte(2 / 0.1 * log(G), 0.8 * 0.9 * n + 1e-9)
  }
  expect_output(print(dp_bounds()), "100 (fewer at small n and epsilon) geometric radii", fixed = TRUE)
  expect_error(dp_bounds(n_radii = 1), "`n_radii`")
  # eustock_cov (n = 92) with the defaults: both stages run, 27 radii up to
  # the region's radius
  P3 <- manifold_spd(3)
  R <- sqrt(3) * log(25)
  set.seed(9)
  rel <- dp_frechet_mean(P3, eustock_cov, epsilon = 1, bounds = dp_bounds(region_center = diag(3), region_radius = R))
  expect_identical(rel$bounds_stages$bound, c("center", "radius"))
  expect_match(rel$bounds_stages$mechanism[2], sprintf("over 27 public radii up to %s", format(R, digits = 4)), fixed = TRUE)
  expect_lte(rel$radius, R + 1e-12)
})
