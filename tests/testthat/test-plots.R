# plot() of releases, budgets and mu-against-sigma curves: every picture draws
# on the pdf() device (no glyphs beyond Latin-1) without warnings, returns
# its object and leaves par() as it was; the numbers behind the pictures
# (the median noise distance, the curve of mu) are checked against their
# definitions.

# n points within `radius` of a random centre, and that centre.
ball_fixture <- function(M, n = 15L, radius = 0.3) {
  p <- rand_point(M)
  X <- stack_points(M, lapply(seq_len(n), function(i) riem_exp(M, p, rand_tangent(M, p, norm = radius * runif(1)))))
  list(center = p, X = X)
}

release_fixture <- function(M, mechanism = "laplace", radius = 0.3) {
  f <- ball_fixture(M, radius = radius)
  args <- list(M, f$X, radius = radius, center = f$center, mechanism = mechanism, outside = "clip")
  if (mechanism == "gaussian") args$sigma <- 0.2 else args$epsilon <- 2
  if (mechanism == "kng") {
    # a short chain where the draw is not exact (spheres and H^d draw exactly)
    args$method <- "mh"
    args$control <- mcmc_control(n_iter = 200, burn_in = 200)
  }
  list(release = do.call(dp_frechet_mean, args), X = f$X)
}

test_that("plot() draws a private Frechet mean on every manifold, with and without the data", {
  set.seed(801)
  for (nm in names(zoo_manifolds())) {
    M <- zoo_manifolds()[[nm]]
    r <- release_fixture(M)
    expect_plots_quietly(r$release)
    expect_plots_quietly(r$release, data = r$X)
    expect_plots_quietly(r$release, data = r$X, show_noise = FALSE)
  }
  S2 <- manifold_sphere(2)
  r <- release_fixture(S2)
  expect_plots_quietly(r$release, view = "lonlat")
  expect_plots_quietly(r$release, data = r$X, view = "lonlat", main = "a title", cex.main = 0.9)
  for (M in list(S2, manifold_hyperbolic(2), manifold_spd(3), manifold_kendall(4), manifold_euclidean(2),
                 manifold_euclidean(5), manifold_spd(1)))
    expect_plots_quietly(release_fixture(M, "gaussian")$release)
  r <- release_fixture(S2, "kng")
  expect_plots_quietly(r$release, data = r$X)
  expect_null(riemdp:::release_noise_radius(r$release))
  expect_null(riemdp:::release_noise_radius(release_fixture(manifold_spd(2))$release))
  # a release near the date line and near a pole
  for (centre in list(c(-1, 0.01, 0.05), c(0.01, 0, 1))) {
    centre <- centre / sqrt(sum(centre^2))
    X <- stack_points(S2, lapply(1:10, function(i) riem_exp(S2, centre, rand_tangent(S2, centre, norm = 0.2))))
    rel <- dp_frechet_mean(S2, X, epsilon = 1, radius = 0.5, center = centre)
    expect_plots_quietly(rel, view = "lonlat")
    expect_plots_quietly(rel)
  }
})

test_that("plot() of a Frechet release checks its arguments and draws no random numbers", {
  set.seed(802)
  S2 <- manifold_sphere(2)
  r <- release_fixture(S2)
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_error_mentions(plot(r$release, view = "polar"), c("`view`", "orthographic"))
  expect_error_mentions(plot(r$release, show_noise = NA), "`show_noise`")
  expect_error_mentions(plot(r$release, data = r$X[, 1:2]), "`data`")
  expect_error_mentions(plot(r$release, data = r$X * 2), "`data`")
  seed <- .Random.seed
  plot(r$release, data = r$X)
  expect_identical(.Random.seed, seed)
})

test_that("the median noise distance is the median of the mechanism's radial law", {
  set.seed(803)
  # closed forms on Euclidean space
  expect_equal(riemdp:::radial_median(manifold_euclidean(3), "laplace", 0.7), stats::qgamma(0.5, 3, scale = 0.7))
  expect_equal(riemdp:::radial_median(manifold_euclidean(2), "gaussian", 0.7), 0.7 * sqrt(stats::qchisq(0.5, 2)))
  # a small sigma on S^2 is nearly flat: the R^2 value
  expect_equal(riemdp:::radial_median(manifold_sphere(2), "laplace", 1e-3), stats::qgamma(0.5, 2, scale = 1e-3),
               tolerance = 1e-3)
  # against exact draws: the fraction of distances below the median is 1/2
  # within 4 standard errors
  n <- 20000
  cases <- list(list(manifold_sphere(2), "laplace", 0.6), list(manifold_sphere(4), "gaussian", 0.5),
                list(manifold_hyperbolic(2), "laplace", 0.4), list(manifold_hyperbolic(3), "gaussian", 0.8),
                list(manifold_kendall(4), "gaussian", 0.3), list(manifold_kendall(3), "laplace", 0.2))
  for (cs in cases) {
    M <- cs[[1]]
    p <- rand_point(M)
    draws <- if (cs[[2]] == "laplace") riem_rlaplace(M, n, p, cs[[3]]) else riem_rgaussian(M, n, p, cs[[3]])
    med <- riemdp:::radial_median(M, cs[[2]], cs[[3]])
    frac <- mean(riem_dist(M, p, draws) <= med)
    expect_lt(abs(frac - 0.5), 4 * sqrt(0.25 / n))
  }
})

test_that("plot() draws a private linear regression with and without data", {
  set.seed(804)
  ctl <- mcmc_control(n_iter = 300, burn_in = 300)
  rel <- dp_linear_regression(dist ~ speed, cars, epsilon = 1, tau = 30, x_range = c(0, 30), beta_max = 200,
                              control = ctl)
  expect_identical(rel$response, "dist")
  expect_plots_quietly(rel)
  expect_plots_quietly(rel, data = cars)
  rel2 <- dp_linear_regression(log(mpg) ~ wt + hp, mtcars, epsilon = 1, tau = 1,
                               x_range = list(wt = c(1, 6), hp = c(50, 350)), beta_max = 5, control = ctl)
  expect_plots_quietly(rel2)
  expect_plots_quietly(rel2, data = mtcars)
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_error_mentions(plot(rel, data = as.matrix(cars)), "`data`")
  expect_error_mentions(plot(rel, data = data.frame(speed = 1:3)), c("`data`", "dist"))
  expect_error_mentions(plot(rel, data = data.frame(dist = 1:3)), "`data`")
  expect_error_mentions(plot(rel, data = data.frame(speed = c(1, NA), dist = 1:2)), "`data`")
})

test_that("gdp_mu_curve() is gdp_mu() on a grid, decreasing on S^2, with the target of gdp_sigma()", {
  S2 <- manifold_sphere(2)
  sig <- c(0.3, 0.5, 1, 2, 4)
  seed <- .Random.seed
  curve <- gdp_mu_curve(S2, sensitivity = 0.5, sigma = rev(sig), mu = 1)
  expect_identical(.Random.seed, seed)  # deterministic: the RNG is untouched
  expect_s3_class(curve, "riemdp_gdp_curve")
  expect_identical(curve$sigma, sig)  # sorted
  expect_identical(curve$mu, vapply(sig, function(s) gdp_mu(S2, s, 0.5)$mu, 0))
  expect_equal(curve$euclidean, 0.5 / sig)
  expect_true(all(diff(curve$mu) < 0))
  # the sphere's law wraps around: less privacy loss than in R^2 at large sigma
  expect_lt(curve$mu[5], curve$euclidean[5])
  expect_equal(curve$target$sigma, as.double(gdp_sigma(S2, 1, 0.5)))
  expect_lte(gdp_mu(S2, curve$target$sigma, 0.5)$mu, 1 * (1 + 1e-9))
  default <- gdp_mu_curve(S2, sensitivity = 1)
  expect_length(default$sigma, 25L)
  expect_true(all(diff(default$mu) < 0))
  H2 <- gdp_mu_curve(manifold_hyperbolic(2), 1, sigma = c(0.5, 2, 8))
  expect_identical(H2$mu, vapply(c(0.5, 2, 8), function(s) gdp_mu(manifold_hyperbolic(2), s, 1)$mu, 0))
  E <- gdp_mu_curve(manifold_euclidean(3), 2, sigma = c(1, 4))
  expect_identical(E$mu, E$euclidean)
  out <- capture.output(print(curve))
  expect_match(out[1], "mu against sigma", fixed = TRUE)
  expect_true(any(grepl("target mu = 1", out, fixed = TRUE)))
  expect_output(print(default), "rows shown")
  expect_plots_quietly(curve)
  expect_plots_quietly(curve, log = "xy")
  expect_plots_quietly(default, main = "S^2")
  expect_plots_quietly(H2)
  set.seed(805)
  mc <- gdp_mu_curve(S2, 0.5, sigma = c(0.5, 1), method = "monte_carlo", control = gdp_control(n = 200, m = 5))
  expect_true(all(mc$se > 0))
  expect_plots_quietly(mc)
  expect_error_mentions(gdp_mu_curve(S2, 0.5, sigma = 1), "`sigma`")
  expect_error_mentions(gdp_mu_curve(S2, 0.5, sigma = c(1, -1)), "`sigma`")
  expect_error_mentions(gdp_mu_curve(S2, 0.5, sigma = c(1, NA)), "`sigma`")
  expect_error_mentions(gdp_mu_curve(S2, 4), "`sensitivity`")
  expect_error_mentions(gdp_mu_curve(manifold_spd(2), 1), "constant curvature")
  expect_error_mentions(gdp_mu_curve(S2, 0.5, mu = 1, method = "monte_carlo"), c("`mu`", "deterministic"))
  expect_error_mentions(gdp_mu_curve(S2, 0.5, mu = -1), "`mu`")
  expect_error_mentions(plot(curve, log = "y"), "`log`")
})

test_that("plot() draws a privacy budget in epsilon and in mu", {
  b <- dp_budget(total = c(epsilon = 2))
  b <- dp_spend(b, epsilon = 0.5, label = "mean")
  b <- dp_spend(b, epsilon = 1, label = "regression")
  expect_plots_quietly(b)
  expect_plots_quietly(b, main = "budget", las = 2)
  m <- dp_spend(dp_spend(dp_budget(total = c(mu = 2)), mu = 0.5), epsilon = 1)
  expect_plots_quietly(m)
  expect_plots_quietly(dp_spend(dp_budget(), mu = 1))
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_error_mentions(plot(dp_budget()), c("`x`", "no entries"))
})
