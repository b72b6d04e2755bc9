# confint() and summary(moments = ) of dp_linear_regression() releases, and
# dp_regression_moments(): the parametric bootstrap (Ferrando, Wang &
# Sheldon 2022). Coverage is measured in bench/confint-linear-coverage.R.

lin_data <- function(n, seed, slope = 0.5, sd = 1) {
  set.seed(seed)
  x <- runif(n, 0, 10)
  data.frame(x = x, y = 1 + slope * x + rnorm(n, 0, sd))
}

test_that("dp_regression_moments() releases the predictors' moments and the residual scale, with Laplace noise of scale k/(n epsilon)", {
  d <- lin_data(400, 3401)
  set.seed(1)
  rel <- dp_linear_regression(y ~ x, d, epsilon = 5, tau = 3, x_range = c(0, 10), beta_max = 20)
  # a huge epsilon: the moments of the data themselves
  mom <- dp_regression_moments(rel, d, epsilon = 1e9)
  expect_s3_class(mom, c("riemdp_moments_release", "riemdp_release"))
  expect_equal(unname(mom$x_mean), mean(d$x), tolerance = 1e-6)
  expect_equal(unname(mom$x_cov[1, 1]), mean(d$x^2) - mean(d$x)^2, tolerance = 1e-6)
  r <- d$y - coef(rel)[1] - coef(rel)[2] * d$x
  expect_equal(mom$residual_sd, sqrt(pi / 2) * mean(pmin(abs(r), 12)), tolerance = 1e-6)
  expect_identical(mom$residual_bound, 12)
  expect_equal(mom$scale, 3 / (400 * 1e9))
  # the noise of each average is Laplace(k / (n epsilon)): KS over 400 releases
  avg <- c(mean(d$x / 10), mean(4 * (d$x / 10 - 1 / 2)^2), mean(pmin(abs(r), 1) / 1))
  set.seed(2)
  noise <- t(vapply(1:400, function(i) dp_regression_moments(rel, d, epsilon = 2, residual_bound = 1)$raw - avg, numeric(3)))
  plaplace <- function(q, b) ifelse(q < 0, exp(q / b) / 2, 1 - exp(-q / b) / 2)
  for (j in 1:3) expect_gt(suppressWarnings(ks.test(noise[, j], plaplace, b = 3 / (400 * 2)))$p.value, 0.01)
  # charged by the budget
  b <- dp_budget(rel, mom)
  expect_equal(b$spent, 5 + 1e9)
})

test_that("dp_regression_moments() refuses what it cannot use, naming the argument", {
  d <- lin_data(60, 3402)
  rel <- dp_linear_regression(y ~ x, d, epsilon = 2, tau = 3, x_range = c(0, 10), beta_max = 20)
  expect_error_mentions(dp_regression_moments(list(), d, epsilon = 1), "`object`")
  expect_error_mentions(dp_regression_moments(rel, d), "`epsilon` is required")
  expect_error_mentions(dp_regression_moments(rel, d, epsilon = -1), "`epsilon`")
  expect_error_mentions(dp_regression_moments(rel, d, epsilon = 1, residual_bound = 0), "`residual_bound`")
  expect_error_mentions(dp_regression_moments(rel, d[1:50, ], epsilon = 1), c("50", "60", "data of the release"))
  expect_error_mentions(dp_regression_moments(rel, transform(d, x = x + 20), epsilon = 1), c("`x`", "outside its public range"))
  expect_error_mentions(dp_regression_moments(rel, data.frame(z = 1:60), epsilon = 1), "variables of the release's formula")
})

test_that("confint() of a linear release has confint.lm()'s layout, is reproducible and leaves the session's RNG alone", {
  d <- lin_data(300, 3403)
  set.seed(4)
  rel <- dp_linear_regression(y ~ x, d, epsilon = 5, tau = 3, x_range = c(0, 10), beta_max = 20)
  mom <- dp_regression_moments(rel, d, epsilon = 1)
  set.seed(99)
  before <- .Random.seed
  ci <- confint(rel, moments = mom, B = 100)
  expect_identical(.Random.seed, before)
  expect_identical(dim(ci), c(2L, 2L))
  expect_identical(dimnames(ci), dimnames(confint(lm(y ~ x, d))))
  expect_identical(confint(rel, moments = mom, B = 100), ci)
  expect_false(identical(confint(rel, moments = mom, B = 100, seed = 2), ci))
  expect_identical(confint(rel, "x", moments = mom, B = 100), ci["x", , drop = FALSE])
  expect_identical(confint(rel, 2, moments = mom, B = 100), ci["x", , drop = FALSE])
  expect_identical(colnames(confint(rel, moments = mom, B = 100, level = 0.9)), c("5 %", "95 %"))
  expect_true(all(ci[, 1] < coef(rel) & coef(rel) < ci[, 2]))
})

test_that("confint() of a linear release is post-processing: the same private outputs give the same intervals whatever the data", {
  d1 <- lin_data(200, 3404)
  d2 <- lin_data(200, 3405, slope = -1, sd = 3)
  set.seed(5)
  rel1 <- dp_linear_regression(y ~ x, d1, epsilon = 3, tau = 3, x_range = c(0, 10), beta_max = 20)
  mom1 <- dp_regression_moments(rel1, d1, epsilon = 1)
  rel2 <- dp_linear_regression(y ~ x, d2, epsilon = 3, tau = 3, x_range = c(0, 10), beta_max = 20)
  mom2 <- dp_regression_moments(rel2, d2, epsilon = 1)
  # the second data set's objects, with the first's private outputs
  rel2$coefficients <- rel1$coefficients
  mom2$raw <- mom1$raw
  mom2$about <- mom1$about
  expect_identical(confint(rel2, moments = mom2, B = 100), confint(rel1, moments = mom1, B = 100))
})

test_that("with negligible noise the intervals of a linear release match confint(lm()) in centre and width", {
  d <- lin_data(2000, 3406)
  set.seed(6)
  rel <- dp_linear_regression(y ~ x, d, epsilon = 1e4, tau = 10, x_range = c(0, 10), beta_max = 20)
  mom <- dp_regression_moments(rel, d, epsilon = 1e4, residual_bound = 10)
  ci <- confint(rel, moments = mom, B = 400)
  ols <- confint(lm(y ~ x, d))
  w <- (ci[, 2] - ci[, 1]) / (ols[, 2] - ols[, 1])
  expect_true(all(w > 0.8 & w < 1.25), label = paste("width ratios", paste(format(w), collapse = ", ")))
  expect_true(all(abs(rowMeans(ci) - rowMeans(ols)) < 0.15 * (ols[, 2] - ols[, 1])))
  # a public statement of the truth gives about the same
  pub <- confint(rel, moments = list(sd = 1), B = 400)
  expect_true(all(abs(pub[, 2] - pub[, 1]) / (ci[, 2] - ci[, 1]) > 0.8 & abs(pub[, 2] - pub[, 1]) / (ci[, 2] - ci[, 1]) < 1.25))
})

test_that("summary(moments = ) of a linear release gives bootstrap standard errors, intervals, p-values and a joint test of the slopes", {
  set.seed(3407)
  n <- 400
  d <- data.frame(x = runif(n, 0, 10), z = runif(n, 0, 10), g = factor(sample(c("a", "b"), n, TRUE), levels = c("a", "b")))
  d$y <- 1 + 0.6 * d$x + 0 * d$z + 1 * (d$g == "b") + rnorm(n)
  rel <- dp_linear_regression(y ~ x + z + g, d, epsilon = 20, tau = 3, x_range = list(x = c(0, 10), z = c(0, 10)), beta_max = 20)
  expect_identical(rel$dummy, c(FALSE, FALSE, TRUE))
  mom <- dp_regression_moments(rel, d, epsilon = 5)
  s <- summary(rel, moments = mom, B = 200)
  expect_identical(colnames(s$coefficients), c("Estimate", "Boot SE", "2.5 %", "97.5 %", "Pr(>|z|)"))
  expect_identical(rownames(s$coefficients), c("(Intercept)", "x", "z", "gb"))
  expect_lt(s$coefficients["x", "Pr(>|z|)"], 0.01)
  expect_lt(s$coefficients["gb", "Pr(>|z|)"], 0.05)
  expect_gt(s$coefficients["z", "Pr(>|z|)"], 0.01)
  expect_identical(s$slopes_test$df, 3L)
  expect_lt(s$slopes_test$p.value, 0.01)
  out <- gsub("\\s+", " ", paste(capture.output(print(s)), collapse = "\n"))
  expect_match(out, "Every slope zero")
  expect_match(out, "Ferrando, Wang & Sheldon 2022", fixed = TRUE)
  expect_match(paste(capture.output(print(summary(rel))), collapse = "\n"), "summary(object, moments = )", fixed = TRUE)
})

test_that("confint() of a linear release refuses what it cannot use, naming the argument", {
  d <- lin_data(100, 3408)
  rel <- dp_linear_regression(y ~ x, d, epsilon = 2, tau = 3, x_range = c(0, 10), beta_max = 20)
  mom <- dp_regression_moments(rel, d, epsilon = 1)
  expect_error_mentions(confint(rel), c("`moments` is required", "dp_regression_moments"))
  expect_error_mentions(confint(rel, moments = mom, B = 10), "`B`")
  expect_error_mentions(confint(rel, moments = mom, level = 1), "`level`")
  expect_error_mentions(confint(rel, moments = mom, B = 100, level = 0.999), c("`level`", "raise `B`"))
  expect_error_mentions(confint(rel, moments = mom, seed = 1.5), "`seed`")
  expect_error_mentions(confint(rel, "w", moments = mom), "`parm`")
  expect_error_mentions(confint(rel, moments = mom, foo = 1), "unknown argument `foo`")
  expect_error_mentions(confint(rel, moments = list(sd = 1, spread = 2)), c("unknown", "`moments`", "`spread`"))
  expect_error_mentions(confint(rel, moments = list(x_mean = 5)), "`moments\\$sd` is required")
  expect_error_mentions(confint(rel, moments = list(sd = 1, x_mean = 50)), "`moments\\$x_mean`")
  d2 <- lin_data(90, 3409)
  other <- dp_regression_moments(dp_linear_regression(y ~ x, d2, epsilon = 2, tau = 3, x_range = c(0, 10), beta_max = 20), d2, epsilon = 1)
  expect_error_mentions(confint(rel, moments = other), c("`moments`", "other data"))
})

test_that("hostile inputs to confint() of a linear release: no warnings, clear errors, results that do not depend on RNGkind(), p-values that agree with the intervals", {
  rel <- dp_linear_regression(dist ~ speed, cars, epsilon = 2, tau = 30, x_range = c(0, 30), beta_max = 200)
  expect_no_warning(ci <- confint(rel, moments = list(sd = 20, x_mean = 15, x_sd = 14.99), B = 100))
  expect_true(all(is.finite(ci)))
  expect_no_warning(ci <- confint(rel, moments = list(sd = 20, x_sd = 1e-8), B = 100))
  expect_true(all(is.finite(ci)))
  expect_error_mentions(confint(rel, moments = list(sd = 20, x_mean = 15, x_sd = 100)), "`moments\\$x_sd`")
  expect_error_mentions(confint(rel, moments = list(sd = 20, x_mean = 0, x_sd = 5)), "`moments\\$x_mean`")
  expect_error_mentions(confint(rel, moments = list(sd = 20), seed = 2^31), "`seed`")
  expect_error_mentions(summary(rel, B = -1), "`B`")
  expect_error_mentions(summary(rel, level = 7), "`level`")
  mom <- dp_regression_moments(rel, cars, epsilon = 0.5)
  bad <- mom
  bad$raw <- c(NA, 0.5, 0.5)
  expect_error_mentions(confint(rel, moments = bad, B = 100), "`moments\\$raw`")
  bad$raw <- c(0.5, 0.5)
  expect_error_mentions(confint(rel, moments = bad, B = 100), "`moments\\$raw`")
  bad <- mom
  bad$residual_bound <- -5
  expect_error_mentions(confint(rel, moments = bad, B = 100), "`moments\\$residual_bound`")
  # the same intervals whatever the session's generator
  ci <- confint(rel, moments = mom, B = 100)
  old <- RNGkind()
  RNGkind("L'Ecuyer-CMRG")
  ci2 <- confint(rel, moments = mom, B = 100)
  RNGkind(old[1], old[2], old[3])
  expect_identical(ci2, ci)
  # the p-value is the smallest alpha whose percentile interval excludes 0
  d <- c(-1, -0.5, seq(10, 20, length.out = 98))
  p <- riemdp:::linear_boot_p(d)
  expect_gt(riemdp:::linear_percentile_intervals(c(a = 1), matrix(d), 1 - p - 1e-9)[1, 1], 0)
  expect_lte(riemdp:::linear_percentile_intervals(c(a = 1), matrix(d), 1 - p + 1e-9)[1, 1], 1e-12)
})

test_that("plot() of a linear release draws its intervals on the coefficient panel, scaled by the ranges", {
  set.seed(11)
  rel <- dp_linear_regression(dist ~ speed, cars, epsilon = 1, tau = 30, x_range = c(0, 30), beta_max = 200)
  ci <- confint(rel, moments = list(sd = 20), B = 200)
  seg <- riemdp:::linear_set_segments(ci, rel, 30, NULL)
  expect_identical(seg$row, 1:2)  # x_range starts at 0: the intercept is the fit at the lower corner
  expect_equal(seg$lower, ci[, 1] * c(1, 30), ignore_attr = TRUE)
  expect_equal(seg$upper, ci[, 2] * c(1, 30), ignore_attr = TRUE)
  expect_identical(seg$label, "95% interval")
  set.seed(3)
  before <- .Random.seed
  expect_plots_quietly(rel, set = ci)
  expect_plots_quietly(rel, set = ci, data = cars)
  expect_identical(.Random.seed, before)
  # lower corners other than 0: the corner's row has no interval; some rows only
  lin <- dp_linear_regression(mag ~ stations + depth, quakes, epsilon = 0.8, tau = 0.5,
                              x_range = list(stations = c(10, 150), depth = c(0, 700)), beta_max = 6)
  ci2 <- confint(lin, moments = list(sd = 0.4), B = 100, level = 0.9)
  seg2 <- riemdp:::linear_set_segments(ci2, lin, c(140, 700), NULL)
  expect_identical(seg2$row, 2:3)
  expect_identical(seg2$label, "90% interval")
  expect_plots_quietly(lin, set = ci2["depth", , drop = FALSE])
  expect_error_mentions(plot(lin, set = ci), c("`set`", "intervals of the release"))
  expect_error_mentions(plot(lin, set = ci2[, 2:1]), "`set`")
  expect_error_mentions(plot(lin, set = list()), "`set`")
  huge <- matrix(c(-1e307, 1e307), 1, dimnames = list("depth", c("2.5 %", "97.5 %")))
  expect_error_mentions(plot(lin, set = huge), c("`set`", "overflows"))
})
