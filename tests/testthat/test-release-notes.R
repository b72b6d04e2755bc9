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
