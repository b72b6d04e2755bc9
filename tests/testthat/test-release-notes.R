# Notes in a release's print from public quantities only (issue 33): the
# Riemannian Laplace law near its existence limit on spd and hyperbolic
# space, a noise scale beyond the public ball, and (private-bounds routes)
# a private radius at the bottom of its grid or a private centre on the
# public region's edge.

print_text <- function(x) gsub("\\s+", " ", paste(capture.output(print(x)), collapse = " "))
summary_text <- function(x) gsub("\\s+", " ", paste(capture.output(print(summary(x))), collapse = " "))

test_that("a Laplace release within a factor 2 of the law's existence limit says so and points to KNG and the Gaussian", {
  P3 <- manifold_spd(3)
  smax <- riemdp:::laplace_sigma_max(P3)
  Delta <- sensitivity_frechet_mean(P3, 92, 4)
  set.seed(1)
  # sigma = 2 Delta / epsilon = 0.6: within a factor 2 of 0.707
  eps <- 2 * Delta / 0.6
  near <- dp_frechet_mean(P3, eustock_cov, epsilon = eps, radius = 4, center = diag(3))
  expect_equal(near$sigma, 0.6)
  out <- print_text(near)
  expect_match(out, "Note: sigma = 0.6 is within a factor 2 of 0.7071, the largest sigma for which the Riemannian Laplace law on manifold_spd(3) exists", fixed = TRUE)
  expect_match(out, "a tail scale of 3.96, 6.6 times sigma", fixed = TRUE)
  expect_match(out, "mechanism = \"kng\"", fixed = TRUE)
  expect_match(summary_text(near), "within a factor 2 of 0.7071", fixed = TRUE)
  # spd: no Gaussian accounting, so only KNG is offered
  expect_false(grepl("mechanism = \"gaussian\"", out, fixed = TRUE))
  # twice the limit's half: no note
  far <- dp_frechet_mean(P3, eustock_cov, epsilon = 2 * Delta / (0.99 * smax / 2), radius = 4, center = diag(3))
  expect_false(grepl("Note:", print_text(far), fixed = TRUE))
  # hyperbolic space: limit 1 / (d - 1); the Gaussian is offered there
  H <- manifold_hyperbolic(2)
  Z <- riem_rgaussian(H, 20, c(1, 0, 0), 0.2)
  r <- dp_frechet_mean(H, Z, epsilon = 2 * 0.1 / 0.55, radius = 1, center = c(1, 0, 0))
  expect_equal(r$sigma, 0.55)
  out <- print_text(r)
  expect_match(out, "within a factor 2 of 1, the largest sigma", fixed = TRUE)
  expect_match(out, "mechanism = \"gaussian\" with `mu`", fixed = TRUE)
  # the sphere's Laplace law exists for every sigma: no such note
  S2 <- manifold_sphere(2)
  X <- riem_rgaussian(S2, 20, c(0, 0, 1), 0.05)
  expect_false(grepl("largest sigma for which", print_text(dp_frechet_mean(S2, X, epsilon = 0.2, radius = 0.3,
                                                                          center = c(0, 0, 1), outside = "clip"))))
})

test_that("a release whose noise scale exceeds the public ball says so, for each mechanism", {
  H <- manifold_hyperbolic(2)
  set.seed(2)
  Z <- riem_rgaussian(H, 20, c(1, 0, 0), 0.2)
  ctr <- c(1, 0, 0)
  # Laplace: dim x sigma = 2 x 0.8 > radius 1 (and near the limit)
  lap <- dp_frechet_mean(H, Z, epsilon = 0.25, radius = 1, center = ctr)
  out <- print_text(lap)
  expect_match(out, "Note: the noise scale exceeds the public ball: the draw's typical distance from the mean, about 2 x sigma = 1.6 (flat space), is more than the radius 1", fixed = TRUE)
  # KNG: close to uniform on the ball
  kng <- dp_frechet_mean(H, Z, epsilon = 0.1, radius = 1, center = ctr, mechanism = "kng",
                         control = mcmc_control(n_iter = 20, burn_in = 20))
  expect_match(print_text(kng), "the release is close to a uniform draw on the ball", fixed = TRUE)
  # Gaussian: sqrt(dim) x sigma
  gau <- dp_frechet_mean(H, Z, sigma = 1, radius = 1, center = ctr, mechanism = "gaussian")
  expect_match(print_text(gau), "about sqrt(2) x sigma = 1.41 (flat space)", fixed = TRUE)
  # small noise: nothing
  quiet <- dp_frechet_mean(H, Z, epsilon = 5, radius = 1, center = ctr)
  expect_false(grepl("Note:", print_text(quiet), fixed = TRUE))
})

test_that("the noise notes depend on public quantities only: adjacent and far-apart datasets print the same notes", {
  P3 <- manifold_spd(3)
  Delta <- sensitivity_frechet_mean(P3, 92, 4)
  X2 <- eustock_cov
  X2[, , 1] <- diag(3)                       # one record replaced
  X3 <- array(diag(3), c(3, 3, 92))           # all at the centre
  notes <- lapply(list(eustock_cov, X2, X3), function(X) {
    set.seed(3)
    rel <- dp_frechet_mean(P3, X, epsilon = 2 * Delta / 0.6, radius = 4, center = diag(3))
    riemdp:::release_noise_notes(rel)
  })
  expect_length(notes[[1]], 1L)
  expect_identical(notes[[2]], notes[[1]])
  expect_identical(notes[[3]], notes[[1]])
})

# ---- private bounds at the bottom of their grid or on the region's edge ----------------

test_that("a private-bounds mean whose radius is the smallest of its grid says so, and only then", {
  E2 <- manifold_euclidean(2)
  set.seed(6)
  # half the points at the centre, half spread over the grid's range: the
  # quantile (fraction 0.5) is at the grid's smallest radius
  far <- exp(runif(250, log(0.01), log(10)))
  a <- runif(250, 0, 2 * pi)
  X <- rbind(matrix(0, 250, 2), cbind(far * cos(a), far * sin(a)))
  b <- dp_bounds(region_center = c(0, 0), region_radius = 10)
  set.seed(7)
  seen <- logical(0)
  for (i in 1:8) {
    r <- dp_frechet_mean(E2, X, epsilon = 20, bounds = b)
    e <- r$bounds_edges
    expect_identical(e$radius_smallest, isTRUE(all.equal(r$radius, e$grid[1], tolerance = 1e-12)))
    expect_equal(e$grid, c(0.02, 20))  # the ball's radii: 2 x the quantile's grid, 10 / 1000 to 2 x 10
    expect_identical(grepl("is the smallest of the scale stage's public grid (100 radii from 0.02 to 20)",
                           print_text(r), fixed = TRUE), e$radius_smallest)
    seen <- c(seen, e$radius_smallest)
  }
  expect_true(any(seen) && !all(seen))   # both cases occur
  # the note is in the print and the summary, and names the remedy
  r <- dp_frechet_mean(E2, X, epsilon = 20, bounds = b)
  while (!r$bounds_edges$radius_smallest) r <- dp_frechet_mean(E2, X, epsilon = 20, bounds = b)
  expect_match(print_text(r), "Note: the private radius is the smallest", fixed = TRUE)
  expect_match(summary_text(r), "`radii`, or a smaller `radius_max`, in dp_bounds()", fixed = TRUE)
})

test_that("a private centre on the public region's edge says so (mean and dp_find_bounds), one in the middle does not", {
  E2 <- manifold_euclidean(2)
  b <- dp_bounds(region_center = c(0, 0), region_radius = 10)
  set.seed(5)
  edge <- cbind(rnorm(500, 9.5, 0.3), rnorm(500, 0, 0.3))
  middle <- cbind(rnorm(500, 0, 0.3), rnorm(500, 0, 0.3))
  r <- dp_frechet_mean(E2, edge, epsilon = 2, bounds = b)
  expect_true(r$bounds_edges$center_on_edge)
  expect_match(print_text(r), "Note: the private centre lies on the edge of the public region (within one step of its net, 1, of its boundary at radius 10 around `region_center`)", fixed = TRUE)
  f <- dp_find_bounds(E2, edge, epsilon = 1, bounds = b)
  expect_true(f$bounds_edges$center_on_edge)
  expect_match(print_text(f), "give a larger `region_radius` in dp_bounds()", fixed = TRUE)
  r0 <- dp_frechet_mean(E2, middle, epsilon = 2, bounds = b)
  expect_false(r0$bounds_edges$center_on_edge)
  expect_false(grepl("edge of the public region", print_text(r0), fixed = TRUE))
  # the flag is the centre's distance from the region's centre against the
  # region's radius less one net step: computed from the private centre
  d <- riem_dist(E2, c(0, 0), r$center)
  expect_gte(d, 9)
  # a stated centre is never flagged; neither is the whole sphere's
  rc <- dp_frechet_mean(E2, edge, epsilon = 2, center = c(9, 0), bounds = b)
  expect_false(rc$bounds_edges$center_on_edge)
  S2 <- manifold_sphere(2)
  Xs <- riem_rgaussian(S2, 300, c(0, 0, 1), 0.05)
  expect_false(dp_frechet_mean(S2, Xs, epsilon = 2, bounds = dp_bounds())$bounds_edges$center_on_edge)
})

test_that("a private-bounds geodesic regression whose responses' radius is the smallest of its grid says so", {
  S2 <- manifold_sphere(2)
  set.seed(9)
  n <- 400
  far <- exp(runif(n / 2, log(0.0004), log(0.39)))
  a <- runif(n / 2, 0, 2 * pi)
  Y <- rbind(matrix(c(0, 0, 1), n / 2, 3, byrow = TRUE), cbind(sin(far) * cos(a), sin(far) * sin(a), cos(far)))
  x <- runif(n)
  seen <- logical(0)
  for (i in 1:5) {
    g <- dp_geodesic_regression(S2, x, Y, epsilon = 20, center = c(0, 0, 1),
                                bounds = dp_regression_bounds(x_limits = c(0, 1)),
                                control = mcmc_control(n_iter = 20, burn_in = 20))
    flagged <- grepl("the responses' private radius (from which the footpoint ball, and tau_m and tau where not stated, follow) is the smallest of the scale stage's public grid",
                     print_text(g), fixed = TRUE)
    expect_identical(flagged, g$bounds_edges$radius_smallest)
    seen <- c(seen, flagged)
  }
  expect_true(any(seen))
  expect_false(g$bounds_edges$center_on_edge)   # the centre is stated
})
