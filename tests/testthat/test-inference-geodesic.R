# summary(moments = ) of dp_geodesic_regression() releases: the test of no
# effect by the parametric bootstrap under the null, confint(moments = ):
# the bootstrap's tangent ellipsoid, and dp_regression_moments() of a
# geodesic release. Size and power are measured in
# bench/geodesic-test-size.R, coverage in bench/geodesic-confint-coverage.R.

geo_data <- function(n, slope, seed, noise = 0.03) {
  S2 <- manifold_sphere(2)
  set.seed(seed)
  x <- runif(n)
  G <- riem_geodesic(S2, c(0, 0, 1), c(slope, 0, 0), x)
  list(x = x, Y = riem_project(S2, G + matrix(rnorm(3 * n, sd = noise), n)))
}

geo_release <- function(d, epsilon = 2) {
  dp_geodesic_regression(manifold_sphere(2), d$x, d$Y, epsilon = epsilon, tau = 0.2, tau_m = 1, x_range = c(0, 1),
                         center = c(0, 0, 1), radius = 0.5)
}

test_that("dp_regression_moments() of a geodesic release gives the covariate's moments and the residual scale, with Laplace noise of scale 3/(n epsilon)", {
  S2 <- manifold_sphere(2)
  d <- geo_data(300, 0.3, 3501)
  set.seed(1)
  rel <- geo_release(d, 5)
  mom <- dp_regression_moments(rel, x = d$x, Y = d$Y, epsilon = 1e9)
  expect_s3_class(mom, c("riemdp_geodesic_moments_release", "riemdp_moments_release", "riemdp_release"))
  expect_equal(mom$x_mean, mean(d$x), tolerance = 1e-6)
  expect_equal(mom$x_sd, sqrt(mean((d$x - mean(d$x))^2)), tolerance = 1e-6)
  G <- riem_geodesic(S2, rel$footpoint_range, rel$shooting_range, d$x)
  dist <- riem_dist(S2, G, d$Y)
  # isotropic Gaussian in 2 dimensions: E|z| = rms sqrt(pi) / 2
  expect_equal(mom$residual_rms, mean(pmin(dist, 0.8)) / (sqrt(pi) / 2), tolerance = 1e-6)
  avg <- c(mean(d$x), mean(4 * (d$x - 1 / 2)^2), mean(pmin(dist, 0.1) / 0.1))
  set.seed(2)
  noise <- t(vapply(1:400, function(i) dp_regression_moments(rel, x = d$x, Y = d$Y, epsilon = 2, residual_bound = 0.1)$raw - avg,
                    numeric(3)))
  plaplace <- function(q, b) ifelse(q < 0, exp(q / b) / 2, 1 - exp(-q / b) / 2)
  for (j in 1:3) expect_gt(suppressWarnings(ks.test(noise[, j], plaplace, b = 3 / (300 * 2)))$p.value, 0.01)
  expect_output(print(mom), "3 averages")
  expect_equal(dp_budget(rel, mom)$spent, 5 + 1e9)
})

test_that("the test of no effect finds a moving geodesic, not a still one, and is post-processing", {
  d1 <- geo_data(300, 0.3, 3502)
  set.seed(3)
  rel1 <- geo_release(d1)
  mom1 <- dp_regression_moments(rel1, x = d1$x, Y = d1$Y, epsilon = 0.5)
  set.seed(99)
  before <- .Random.seed
  s1 <- summary(rel1, moments = mom1, B = 100)
  expect_identical(.Random.seed, before)
  expect_lt(s1$no_effect_test$p.value, 0.02)
  expect_identical(summary(rel1, moments = mom1, B = 100)$no_effect_test, s1$no_effect_test)
  out <- gsub("\\s+", " ", paste(capture.output(print(s1)), collapse = "\n"))
  expect_match(out, "Test of no effect of x (v = 0)", fixed = TRUE)
  expect_match(out, "Ferrando, Wang & Sheldon 2022", fixed = TRUE)
  expect_match(paste(capture.output(print(summary(rel1))), collapse = "\n"), "summary(object, moments = )", fixed = TRUE)
  d0 <- geo_data(300, 0, 3503)
  rel0 <- geo_release(d0)
  mom0 <- dp_regression_moments(rel0, x = d0$x, Y = d0$Y, epsilon = 0.5)
  expect_gt(summary(rel0, moments = mom0, B = 100)$no_effect_test$p.value, 0.05)
  # a public statement: the same test without a moments release
  expect_lt(summary(rel1, moments = list(noise = 0.04), B = 100)$no_effect_test$p.value, 0.02)
  # the same private outputs on other data give the same test
  rel0$footpoint <- rel1$footpoint
  rel0$shooting <- rel1$shooting
  rel0$footpoint_range <- rel1$footpoint_range
  rel0$shooting_range <- rel1$shooting_range
  mom0$raw <- mom1$raw
  mom0$about <- mom1$about
  expect_identical(summary(rel0, moments = mom0, B = 100)$no_effect_test, s1$no_effect_test)
})

test_that("the test of no effect runs on hyperbolic space with a public statement", {
  H2 <- manifold_hyperbolic(2)
  o <- c(1, 0, 0)
  set.seed(3504)
  x <- runif(100)
  Y <- riem_rgaussian(H2, 100, o, 0.05)
  rel <- dp_geodesic_regression(H2, x, Y, epsilon = 2, tau = 0.2, tau_m = 0.5, x_range = c(0, 1), center = o, radius = 0.5)
  t <- summary(rel, moments = list(noise = 0.05, x_mean = 0.5, x_sd = 0.25), B = 100)$no_effect_test
  expect_true(t$p.value > 0 && t$p.value <= 1)
  expect_identical(t$source, "public")
})

test_that("moments and tests of a geodesic release refuse what they cannot use, naming the argument", {
  d <- geo_data(120, 0.3, 3505)
  rel <- geo_release(d)
  mom <- dp_regression_moments(rel, x = d$x, Y = d$Y, epsilon = 0.5)
  expect_error_mentions(dp_regression_moments(rel, data.frame(x = d$x), epsilon = 1), c("`data`", "`x` and `Y`"))
  expect_error_mentions(dp_regression_moments(rel, x = d$x, epsilon = 1), "`x` and `Y` are required")
  expect_error_mentions(dp_regression_moments(rel, x = d$x[-1], Y = d$Y[-1, ], epsilon = 1), c("119", "120"))
  expect_error_mentions(dp_regression_moments(rel, x = d$x + 2, Y = d$Y, epsilon = 1), "`x`")
  lin <- dp_linear_regression(dist ~ speed, cars, epsilon = 1, tau = 30, x_range = c(0, 30), beta_max = 200)
  expect_error_mentions(dp_regression_moments(lin, x = 1, Y = 2, epsilon = 1), "`x` and `Y` are for a geodesic release")
  expect_error_mentions(summary(rel, moments = dp_regression_moments(lin, cars, epsilon = 1)), c("`moments`", "linear release"))
  expect_error_mentions(confint(lin, moments = mom), c("`moments`", "geodesic release"))
  expect_error_mentions(summary(rel, moments = mom, B = 5), "`B`")
  expect_error_mentions(confint(rel), c("`moments` is required", "dp_regression_moments"))
  expect_error_mentions(summary(rel, moments = list(sd = 1)), c("`moments`", "unknown"))
  expect_error_mentions(summary(rel, moments = mom, foo = 2), "unknown argument `foo`")
  paper <- dp_geodesic_regression(manifold_sphere(2), d$x, d$Y, epsilon = 2, tau = 0.2, tau_m = 1, x_range = c(0, 1),
                                  center = c(0, 0, 1), radius = 0.5, scheme = "paper")
  expect_error_mentions(dp_regression_moments(paper, x = d$x, Y = d$Y, epsilon = 1), c("scheme = \"paper\"", "not differentially private"))
  d2 <- geo_data(120, 0.3, 3506)
  other <- dp_regression_moments(geo_release(d2), x = d2$x, Y = d2$Y, epsilon = 0.5)
  expect_error_mentions(summary(rel, moments = other), c("`moments`", "another release"))
})

test_that("hostile inputs to the geodesic test get clear errors and no warnings (SPD moments, degenerate spreads, seeds, altered moments, huge scatter)", {
  P <- manifold_spd(2)
  set.seed(2)
  x <- runif(60)
  Y <- riem_rgaussian(P, 60, diag(2), 0.1)
  g <- dp_geodesic_regression(P, x, Y, epsilon = 2, tau = 0.5, tau_m = 1, x_range = c(0, 1), center = diag(2), radius = 1)
  gm <- dp_regression_moments(g, x = x, Y = Y, epsilon = 0.5)
  expect_length(gm$raw, 3L)
  d <- geo_data(60, 0.3, 3507)
  rel <- geo_release(d)
  # a spread at the two-point limit or near 0: no qbeta warnings, no NaN
  expect_no_warning(t1 <- summary(rel, moments = list(noise = 0.05, x_mean = 0.5, x_sd = 0.4999), B = 100)$no_effect_test)
  expect_no_warning(t2 <- summary(rel, moments = list(noise = 0.05, x_sd = 1e-9), B = 100)$no_effect_test)
  expect_true(all(is.finite(c(t1$p.value, t2$p.value))))
  expect_error_mentions(summary(rel, moments = list(noise = 0.05, x_mean = 0.5, x_sd = 5)), "`moments\\$x_sd`")
  expect_error_mentions(summary(rel, moments = list(noise = 0.05, x_mean = 0)), "`moments\\$x_mean`")
  expect_error_mentions(summary(rel, moments = list(noise = 0.05), seed = 2^31), "`seed`")
  expect_error_mentions(summary(rel, B = -1), "`B`")
  H2 <- manifold_hyperbolic(2)
  set.seed(3)
  h <- dp_geodesic_regression(H2, runif(50), riem_rgaussian(H2, 50, c(1, 0, 0), 0.05), epsilon = 2, tau = 0.2, tau_m = 0.5,
                              x_range = c(0, 1), center = c(1, 0, 0), radius = 0.5)
  expect_error_mentions(summary(h, moments = list(noise = 800), B = 100), c("scatter", "`moments\\$noise`"))
  m <- dp_regression_moments(rel, x = d$x, Y = d$Y, epsilon = 0.5)
  bad <- m
  bad$raw <- c(0.5, 0.5)
  expect_error_mentions(summary(rel, moments = bad, B = 100), "`moments\\$raw`")
  bad <- m
  bad$residual_bound <- -1
  expect_error_mentions(summary(rel, moments = bad, B = 100), "`moments\\$residual_bound`")
})

test_that("confint() of a geodesic release covers the population geodesic and not one far from it, and leaves the RNG alone", {
  S2 <- manifold_sphere(2)
  d <- geo_data(300, 0.3, 3508)
  rel <- geo_release(d, 5)
  mom <- dp_regression_moments(rel, x = d$x, Y = d$Y, epsilon = 1)
  set.seed(77)
  ci <- confint(rel, moments = mom, B = 100)
  after <- runif(1)
  set.seed(77)
  expect_identical(runif(1), after)  # the bootstrap's seed is its own
  expect_s3_class(ci, c("riemdp_geodesic_confset", "riemdp_confset"))
  # private moments: each bootstrap data set draws its own (the set differs
  # from the one of a public statement of the same values)
  expect_equal(ci$rms, mom$residual_rms)
  same <- confint(rel, moments = list(noise = mom$residual_rms, x_mean = mom$x_mean, x_sd = mom$x_sd), B = 100)
  expect_false(isTRUE(all.equal(same$cov, ci$cov)))
  expect_length(ci$mean, 4L)
  expect_true(is.finite(ci$radius2) && ci$radius2 > 0)
  truth <- list(footpoint = c(0, 0, 1), shooting = c(0.3, 0, 0))
  expect_true(dp_contains(ci, truth))
  expect_false(dp_contains(ci, list(footpoint = c(0, 0, 1), shooting = c(0, 0.3, 0))))  # turned by 90 degrees
  expect_false(dp_contains(ci, list(footpoint = c(sin(0.3), 0, cos(0.3)), shooting = c(0.3 * cos(0.3), 0, -0.3 * sin(0.3)))))
  expect_type(dp_contains(ci, rel), "logical")
  expect_true(dp_contains(ci, geodesic_regression(S2, d$x, d$Y)))
  expect_identical(confint(rel, moments = mom, B = 100), ci)  # the same seed, the same set
  expect_gt(confint(rel, moments = mom, B = 100, level = 0.99)$radius2, ci$radius2)
  expect_output(print(ci), "region for the population geodesic")
  expect_output(print(ci), "parametric-bootstrap releases \\(Ferrando")
  # a public statement instead of the moments release
  expect_true(dp_contains(confint(rel, moments = list(noise = 0.03), B = 100), truth))
})

test_that("the geodesic's set is post-processing: the same private outputs on other data give the same set", {
  d0 <- geo_data(120, 0.3, 3509)
  d1 <- geo_data(120, 0.1, 3510)
  rel0 <- geo_release(d0)
  rel1 <- geo_release(d1)
  mom0 <- dp_regression_moments(rel0, x = d0$x, Y = d0$Y, epsilon = 0.5)
  mom1 <- dp_regression_moments(rel1, x = d1$x, Y = d1$Y, epsilon = 0.5)
  c1 <- confint(rel1, moments = mom1, B = 100)
  for (f in c("footpoint", "shooting", "footpoint_range", "shooting_range")) rel0[[f]] <- rel1[[f]]
  mom0$raw <- mom1$raw
  mom0$about <- mom1$about
  expect_identical(confint(rel0, moments = mom0, B = 100), c1)
})

test_that("the geodesic's set on hyperbolic space, SPD and Kendall's space (a rotated release is the same geodesic)", {
  set.seed(3511)
  H2 <- manifold_hyperbolic(2)
  o <- c(1, 0, 0)
  x <- runif(200)
  G <- riem_geodesic(H2, o, c(0, 0.3, 0), x)
  Y <- t(vapply(seq_len(200), function(i) riem_rgaussian(H2, 1L, G[i, ], 0.03)[1, ], numeric(3)))
  h <- dp_geodesic_regression(H2, x, Y, epsilon = 5, tau = 0.2, tau_m = 1, x_range = c(0, 1), center = o, radius = 0.5)
  ch <- confint(h, moments = list(noise = 0.05), B = 100)  # the scatter's rms: about 0.03 sqrt(2)
  expect_true(dp_contains(ch, list(footpoint = o, shooting = c(0, 0.3, 0))))
  expect_false(dp_contains(ch, list(footpoint = o, shooting = c(0, -0.3, 0))))
  P <- manifold_spd(2)
  x <- runif(150)
  v <- matrix(c(0.3, 0.1, 0.1, -0.2), 2)
  Yp <- riem_geodesic(P, diag(2), v, x)
  for (i in seq_len(150)) Yp[, , i] <- riem_rgaussian(P, 1L, Yp[, , i], 0.03)[, , 1]
  g <- dp_geodesic_regression(P, x, Yp, epsilon = 5, tau = 0.3, tau_m = 1, x_range = c(0, 1), center = diag(2), radius = 0.5)
  cp <- confint(g, moments = list(noise = 0.06), B = 100)  # about 0.03 sqrt(3)
  expect_length(cp$mean, 6L)
  expect_true(dp_contains(cp, list(footpoint = diag(2), shooting = v)))
  expect_false(dp_contains(cp, list(footpoint = diag(2), shooting = -v)))
  K <- manifold_kendall(5)
  o5 <- riem_project(K, cbind(cos(2 * pi * (0:4) / 5), sin(2 * pi * (0:4) / 5)))
  vk <- riem_log(K, o5, riem_rgaussian(K, 1L, o5, 0.3)[, , 1])
  vk <- 0.3 * vk / riem_norm(K, o5, vk)
  x <- runif(150)
  Yk <- riem_geodesic(K, o5, vk, x)
  for (i in seq_len(150)) Yk[, , i] <- riem_rgaussian(K, 1L, Yk[, , i], 0.02)[, , 1]
  k <- dp_geodesic_regression(K, x, Yk, epsilon = 5, tau = 0.2, tau_m = 1, x_range = c(0, 1), center = o5, radius = 0.5)
  ck <- confint(k, moments = list(noise = 0.05), B = 100)  # about 0.02 sqrt(6)
  expect_true(dp_contains(ck, list(footpoint = o5, shooting = vk)))
  rot <- matrix(c(cos(1), sin(1), -sin(1), cos(1)), 2)  # the same shape and velocity, rotated
  expect_true(dp_contains(ck, list(footpoint = o5 %*% rot, shooting = vk %*% rot)))
  expect_false(dp_contains(ck, list(footpoint = o5, shooting = -vk)))
})

test_that("plot() of a geodesic release draws its set: geodesics on the set's boundary, with the RNG left alone", {
  d <- geo_data(200, 0.3, 3513)
  rel <- geo_release(d, 5)
  ci <- confint(rel, moments = list(noise = 0.03), B = 100)
  # the drawn geodesics lie on the ellipsoid's surface: their Mahalanobis
  # distance from the bootstrap mean is the set's radius
  b <- riemdp:::geodesic_set_boundary(ci, NULL)
  expect_length(b, 2 * 4 + 4 * choose(4, 2))
  S2 <- manifold_sphere(2)
  q <- vapply(b, function(g) {
    z <- riemdp:::geodesic_deviation(S2, as.double(ci$footpoint), as.double(ci$shooting), ci$basis, g$p, g$v) - ci$mean
    sum(z * drop(ci$cov_inverse %*% z))
  }, numeric(1))
  expect_equal(q / ci$radius2, rep(1, length(b)), tolerance = 1e-9)
  set.seed(5)
  before <- .Random.seed
  expect_plots_quietly(rel, set = ci)
  expect_plots_quietly(rel, set = ci, covariate = d$x, Y = d$Y, view = "lonlat")
  expect_identical(.Random.seed, before)
  # Euclidean space: lines; hyperbolic plane: the disc
  set.seed(3514)
  E2 <- manifold_euclidean(2)
  x <- runif(150)
  Ye <- cbind(1 + 0.5 * x, -x) + matrix(rnorm(300, sd = 0.1), 150)
  re <- dp_geodesic_regression(E2, x, Ye, epsilon = 2, tau = 0.3, tau_m = 1, x_range = c(0, 1), center = c(1, -0.5), radius = 2)
  expect_plots_quietly(re, set = confint(re, moments = list(noise = 0.14), B = 100), covariate = x, Y = Ye)
  H2 <- manifold_hyperbolic(2)
  o <- c(1, 0, 0)
  Yh <- riem_rgaussian(H2, 100, o, 0.05)
  rh <- dp_geodesic_regression(H2, runif(100), Yh, epsilon = 2, tau = 0.2, tau_m = 1, x_range = c(0, 1), center = o, radius = 0.5)
  expect_plots_quietly(rh, set = confint(rh, moments = list(noise = 0.07), B = 100))
  # a set of another release, or on a manifold without the picture
  expect_error_mentions(plot(rh, set = ci), c("`set`", "this release"))
  expect_error_mentions(plot(rel, set = list()), "`set`")
  altered <- ci
  altered$radius2 <- -1
  expect_error_mentions(plot(rel, set = altered), c("`set` has been altered", "compute it again"))
  # show_data = FALSE hides the data (it was matched twice); cex survives a
  # multi-panel picture
  expect_plots_quietly(rel, set = ci, covariate = d$x, Y = d$Y, show_data = FALSE)
  expect_error_mentions(plot(rel, covariate = d$x, Y = d$Y, show_data = NA), "`show_data`")
  grDevices::pdf(NULL)
  graphics::par(cex = 0.7)
  plot(re, set = confint(re, moments = list(noise = 0.14), B = 100))
  expect_equal(graphics::par("cex"), 0.7)
  grDevices::dev.off()
  P <- manifold_spd(2)
  Yp <- riem_rgaussian(P, 60, diag(2), 0.1)
  rp <- dp_geodesic_regression(P, runif(60), Yp, epsilon = 5, tau = 0.3, tau_m = 1, x_range = c(0, 1), center = diag(2), radius = 0.5)
  expect_error_mentions(plot(rp, set = confint(rp, moments = list(noise = 0.15), B = 100)),
                        c("`set`", "manifold_spd", "dp_contains"))
})

test_that("plot() of a release on a sphere of dimension 3 draws the geodesic alone, and the residuals with data", {
  S3 <- manifold_sphere(3)
  set.seed(3515)
  x <- runif(100)
  Y3 <- riem_project(S3, riem_geodesic(S3, c(0, 0, 0, 1), c(0.3, 0, 0, 0), x) + matrix(rnorm(400, sd = 0.03), 100))
  r3 <- dp_geodesic_regression(S3, x, Y3, epsilon = 2, tau = 0.1, tau_m = 1, x_range = c(0, 1), center = c(0, 0, 0, 1),
                               radius = 0.5)
  expect_plots_quietly(r3)  # failed: the release holds no residuals
  expect_plots_quietly(r3, covariate = x, Y = Y3)
})

test_that("confint() of a geodesic release refuses what it cannot use, naming the argument", {
  d <- geo_data(80, 0.3, 3512)
  rel <- geo_release(d)
  expect_error_mentions(confint(rel, moments = list(noise = 0.03), parm = 1), "`parm`")
  expect_error_mentions(confint(rel, moments = list(noise = 0.03), level = 1.5), "`level`")
  expect_error_mentions(confint(rel, moments = list(noise = 0.03), B = 10), "`B`")
  expect_error_mentions(confint(rel, moments = list(noise = 0.03), foo = 1), "unknown argument `foo`")
  expect_error_mentions(confint(rel, moments = list(sd = 1)), c("`moments`", "unknown"))
  S30 <- manifold_sphere(30)
  p <- c(rep(0, 30), 1)
  set.seed(3)
  Y30 <- riem_rgaussian(S30, 40, p, 0.05)
  r30 <- dp_geodesic_regression(S30, runif(40), Y30, epsilon = 2, tau = 0.2, tau_m = 1, x_range = c(0, 1), center = p, radius = 0.5)
  expect_error_mentions(confint(r30, moments = list(noise = 0.05), B = 100), c("`B` = 100", "B > 120"))
  paper <- dp_geodesic_regression(manifold_sphere(2), d$x, d$Y, epsilon = 2, tau = 0.2, tau_m = 1, x_range = c(0, 1),
                                  center = c(0, 0, 1), radius = 0.5, scheme = "paper")
  expect_error_mentions(confint(paper, moments = list(noise = 0.03)), c("scheme = \"paper\"", "not differentially private"))
  ci <- confint(rel, moments = list(noise = 0.03), B = 100)
  expect_error_mentions(dp_contains(ci, c(0, 0, 1)), c("`x`", "list\\(footpoint = , shooting = \\)"))
  expect_error_mentions(dp_contains(ci, list(footpoint = c(0, 0, 2), shooting = c(0.3, 0, 0))), "`x\\$footpoint`")
})
