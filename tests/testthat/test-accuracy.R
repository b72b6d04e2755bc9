# dp_accuracy(): the accuracy plan before spending epsilon (issue 34, item 5).

S2 <- manifold_sphere(2)
north <- c(0, 0, 1)

test_that("dp_accuracy() takes no data: no data argument, data in ... refused", {
  f <- names(formals(dp_accuracy))
  expect_false(any(c("X", "Y", "x", "data", "formula", "y") %in% f))
  expect_identical(f[1:3], c("M", "release", "n"))
  for (a in c("X", "Y", "x", "data", "formula")) {
    args <- c(list(S2, "frechet_mean", n = 10, epsilon = 1, radius = 0.3, center = north),
              stats::setNames(list(matrix(0, 1, 3)), a))
    expect_error(do.call(dp_accuracy, args), "takes no data", class = "riemdp_error")
  }
})

test_that("argument checks name the argument and what was expected", {
  pub <- list(epsilon = 1, radius = 0.3, center = north)
  acc <- function(...) do.call(dp_accuracy, c(list(S2, "frechet_mean", n = 10), pub, list(...)))
  expect_error(dp_accuracy(S2, "mean", n = 10, epsilon = 1), "`release` must be one of", class = "riemdp_error")
  expect_error(dp_accuracy(S2, print, n = 10, epsilon = 1), "`release` must be one of", class = "riemdp_error")
  expect_error(dp_accuracy("S2", "frechet_mean", n = 10), "`M` must be a riemdp manifold", class = "riemdp_error")
  expect_error(dp_accuracy(S2, "frechet_mean", epsilon = 1), "`n` is required", class = "riemdp_error")
  expect_error(dp_accuracy(S2, "frechet_mean", n = 2.5, epsilon = 1), "`n` must be a whole number", class = "riemdp_error")
  expect_error(dp_accuracy(S2, "frechet_mean", n = 10, 1), "must be named", class = "riemdp_error")
  expect_error(acc(bounds = dp_bounds()), "`bounds`", class = "riemdp_error")
  expect_error(acc(tau = 1), "`tau` is not a public parameter of dp_frechet_mean", class = "riemdp_error")
  expect_error(acc(reps = 1), "`reps` must be a whole number", class = "riemdp_error")
  expect_error(acc(probs = 1.5), "`probs` must be numbers strictly between 0 and 1", class = "riemdp_error")
  expect_error(acc(scale = -1), "`scale` must be a single finite number > 0", class = "riemdp_error")
  expect_error(acc(units = 3), "`units` must be NULL or a single string", class = "riemdp_error")
  expect_error(acc(mechanism = "kng"), "`spread` is required for the K-norm gradient mechanism", class = "riemdp_error")
  expect_error(acc(mechanism = "kng", spread = -1), "`spread` must be NULL or a single finite number >= 0", class = "riemdp_error")
  expect_error(acc(location = c(1, 0, 0)), "`location` must lie within `radius`", class = "riemdp_error")
  expect_error(dp_accuracy(S2, "frechet_mean", n = 10, epsilon = -1, radius = 0.3, center = north),
               "`epsilon` must be a single finite number > 0", class = "riemdp_error")
  expect_error(dp_accuracy(S2, "frechet_mean", n = 10, epsilon = 1, epsilon = 2, radius = 0.3, center = north),
               "named once each", class = "riemdp_error")
  expect_error(dp_accuracy(S2, "frechet_mean", n = 10, epsilon = 1, center = north), "`radius` is required",
               class = "riemdp_error")
  # an error of the release on synthetic data carries dp_accuracy()'s call
  e <- tryCatch(dp_accuracy(S2, "frechet_mean", n = 10, epsilon = 1, radius = 2, center = north),
                riemdp_error = function(e) e)
  expect_match(deparse(conditionCall(e))[1], "^dp_accuracy")
  gpub <- list(epsilon = 1, tau = 0.1, tau_m = 0.2, x_range = c(0, 1), center = north, radius = 0.3)
  gacc <- function(...) do.call(dp_accuracy, c(list(S2, "geodesic_regression", n = 20), gpub, list(...)))
  expect_error(gacc(), "`spread` is required", class = "riemdp_error")
  expect_error(gacc(spread = list(slope = 0.1)), "`spread\\$noise` is required", class = "riemdp_error")
  expect_error(gacc(spread = list(noise = 0.1, slope = 0.5)), "exceeds `tau_m`", class = "riemdp_error")
  expect_error(gacc(spread = list(noise = 0.1, spin = 1)), "unknown entries `spin`", class = "riemdp_error")
  expect_error(gacc(spread = list(noise = -1)), "`spread\\$noise` must be finite numbers >= 0", class = "riemdp_error")
  expect_error(gacc(spread = list(noise = 0.1, x_mean = 0.5, x_sd = 0.9)), "`spread\\$x_mean` and `spread\\$x_sd`",
               class = "riemdp_error")
  expect_error(dp_accuracy(S2, "linear_regression", n = 20, epsilon = 1, tau = 1, x_range = c(0, 1), beta_max = 1,
                           spread = list(sd = 1)), "`M` must be NULL or manifold_euclidean\\(1\\)", class = "riemdp_error")
  expect_error(dp_accuracy(NULL, "linear_regression", n = 20, epsilon = 1, tau = 1, x_range = list(a = c(0, 1), b = c(0, 2)),
                           beta_max = 1, spread = list(sd = 1, x_mean = 0.5)), "one value per predictor",
               class = "riemdp_error")
})

test_that("the Laplace prediction is the exact radial law (R^3: sigma Gamma(3); S^2: quadrature)", {
  E3 <- manifold_euclidean(3)
  set.seed(34)
  a <- dp_accuracy(E3, "frechet_mean", n = 100, epsilon = 1, radius = 1, center = c(0, 0, 0), reps = 20000)
  expect_identical(a$route, "exact")
  expect_equal(a$sigma, 2 * sensitivity_frechet_mean(E3, 100, 1) / 1)
  # within 4 Monte Carlo standard errors (from the reported 95% intervals)
  se <- (a$upper[1, c("50%", "90%")] - a$lower[1, c("50%", "90%")]) / (2 * 1.96)
  expect_true(all(abs(a$quantiles[1, c("50%", "90%")] - a$sigma * qgamma(c(0.5, 0.9), 3)) <= 4 * se))
  expect_close(a$quantiles[1, c("50%", "90%")] / a$sigma, qgamma(c(0.5, 0.9), 3), tol = 0.05, scale = qgamma(0.9, 3),
               label = "R^3 quantiles / sigma")
  # S^2, a large sigma where the curvature shows: density exp(-r/sigma) sin r on [0, pi]
  set.seed(35)
  b <- dp_accuracy(S2, "frechet_mean", n = 3, epsilon = 0.5, radius = 0.3, center = north, reps = 20000)
  s <- b$sigma
  Z <- integrate(function(r) exp(-r / s) * sin(r), 0, pi)$value
  cdf <- function(x) integrate(function(r) exp(-r / s) * sin(r), 0, x)$value / Z
  q <- vapply(c(0.5, 0.9), function(p) uniroot(function(x) cdf(x) - p, c(1e-9, pi), tol = 1e-10)$root, 0)
  se <- (b$upper[1, c("50%", "90%")] - b$lower[1, c("50%", "90%")]) / (2 * 1.96)
  expect_true(all(abs(b$quantiles[1, c("50%", "90%")] - q) <= 4 * se))
  expect_close(b$quantiles[1, c("50%", "90%")], q, tol = 0.05, scale = q[2], label = "S^2 quantiles")
  # scale multiplies the distances
  set.seed(35)
  b_km <- dp_accuracy(S2, "frechet_mean", n = 3, epsilon = 0.5, radius = 0.3, center = north, reps = 20000,
                      scale = 6371, units = "km")
  expect_equal(b_km$quantiles, 6371 * b$quantiles)
})

test_that("set.seed() reproduces the prediction; the call advances the generator", {
  run <- function() dp_accuracy(S2, "frechet_mean", n = 30, epsilon = 1, radius = 0.3, center = north,
                                mechanism = "kng", spread = 0.1, reps = 5, verbose = FALSE)
  set.seed(1); a <- run(); after_a <- runif(1)
  set.seed(1); b <- run(); after_b <- runif(1)
  expect_identical(a$errors, b$errors)
  expect_identical(after_a, after_b)
  set.seed(1); before <- runif(1)
  expect_false(identical(after_a, before))   # the draws advanced .Random.seed
})

test_that("a small simulation equals a direct loop of releases on the same synthetic data", {
  C <- north
  set.seed(2)
  a <- dp_accuracy(S2, "frechet_mean", n = 25, epsilon = 1, radius = 0.3, center = C, mechanism = "kng",
                   spread = 0.1, reps = 3, verbose = FALSE)
  set.seed(2)
  d <- vapply(1:3, function(i) {
    X <- riemdp:::acc_layout(S2, riemdp:::acc_cloud(S2, C, 0.1, 25, C, 0.3, NULL))
    expect_true(all(riem_dist(S2, C, X) <= 0.3))
    rel <- dp_frechet_mean(S2, X, epsilon = 1, radius = 0.3, center = C, mechanism = "kng")
    riem_dist(S2, coef(frechet_mean(S2, X)), coef(rel))
  }, 0)
  expect_identical(unname(a$errors[, "distance"]), d)
  # the exact route: the release's sigma, then exact draws at the footprint
  E2 <- manifold_euclidean(2)
  set.seed(3)
  b <- dp_accuracy(E2, "frechet_mean", n = 10, epsilon = 2, radius = 1, center = c(0, 0), reps = 50)
  rel <- dp_frechet_mean(E2, matrix(0, 10, 2), epsilon = 2, radius = 1, center = c(0, 0))
  expect_identical(b$sigma, rel$sigma)
  set.seed(3)
  draws <- riem_rlaplace(E2, 50, c(0, 0), rel$sigma)
  expect_identical(unname(b$errors[, 1]), sqrt(rowSums(draws^2)))
  # linear regression: uniform design, Gaussian noise, the release, the Huber fit
  set.seed(4)
  l <- dp_accuracy(NULL, "linear_regression", n = 40, epsilon = 2, tau = 1, x_range = list(z = c(0, 10)),
                   beta_max = 5, spread = list(sd = 0.5), reps = 2, verbose = FALSE)
  set.seed(4)
  e <- t(vapply(1:2, function(i) {
    z <- runif(40) * 10
    y <- rnorm(40, 0, 0.5)
    rel <- dp_linear_regression(y ~ z, data.frame(z = z, y = y), epsilon = 2, tau = 1, x_range = c(0, 10), beta_max = 5)
    hub <- riemdp:::huber_linear_fit(cbind(1, z), y, 1)
    c(pred = sqrt((coef(rel)[[1]] - hub[1] + (coef(rel)[[2]] - hub[2]) * 5)^2 + (coef(rel)[[2]] - hub[2])^2 * 100 / 12),
      b0 = abs(coef(rel)[[1]] - hub[1]))
  }, numeric(2)))
  expect_equal(unname(l$errors[, c("prediction", "(Intercept)")]), unname(e), tolerance = 1e-12)
})

test_that("the Huber linear fit is the least-squares fit when no residual exceeds tau", {
  set.seed(5)
  x <- runif(50); y <- 1 + 2 * x + rnorm(50, 0, 0.1)
  expect_equal(riemdp:::huber_linear_fit(cbind(1, x), y, 10), unname(coef(lm(y ~ x))), tolerance = 1e-10)
  # with clipping: the clipped normal equations hold
  y[1:3] <- y[1:3] + 5
  th <- riemdp:::huber_linear_fit(cbind(1, x), y, 0.2)
  r <- y - cbind(1, x) %*% th
  expect_lt(max(abs(crossprod(cbind(1, x), pmin(pmax(r, -0.2), 0.2)))), 1e-10)
})

test_that("regression plans: measures, print, format, quantile, plot", {
  set.seed(6)
  g <- dp_accuracy(S2, dp_geodesic_regression, n = 60, epsilon = 2, tau = 0.2, tau_m = 0.5, x_range = c(0, 10),
                   center = north, radius = 0.3, spread = list(noise = 0.05, slope = 0.2, x_mean = 4, x_sd = 2),
                   reps = 4, scale = 6371, units = "km", verbose = FALSE)
  expect_s3_class(g, "riemdp_accuracy")
  expect_identical(g$measures, c("footpoint", "endpoint", "shooting", "prediction"))
  expect_identical(dim(g$errors), c(4L, 4L))
  expect_true(all(g$quantiles[, "50%"] <= g$quantiles[, "90%"]))
  # (4 reps: the tails' bounds are beyond the draws, NA)
  expect_true(all(g$lower <= g$quantiles & g$quantiles <= g$upper, na.rm = TRUE))
  expect_true(all(is.na(g$upper[, "90%"])))
  out <- paste(capture.output(print(g)), collapse = " ")
  expect_match(gsub("\\s+", " ", out), "Public computation only: no data used, no budget spent")
  expect_true(any(grepl("(km)", out, fixed = TRUE)))
  expect_s3_class(format(g), "data.frame")
  expect_identical(dim(quantile(g, c(0.2, 0.5))), c(4L, 2L))
  expect_named(summary(g), c("quantiles", "lower", "upper", "reps", "route"))
  pdf(NULL); on.exit(dev.off())
  expect_invisible(plot(g, "prediction"))
  expect_error(plot(g, "nope"), "`measure` must be one of")
  # errors against the fit are zero when the release is the fit
  fit <- geodesic_regression(S2, c(0, 0.5, 1), riem_geodesic(S2, north, c(0.1, 0, 0), c(0, 0.5, 1)))
  expect_close(riemdp:::accuracy_geodesic_errors(S2, fit$footpoint, fit$shooting, fit$footpoint, fit$shooting),
               c(footpoint = 0, endpoint = 0, shooting = 0, prediction = 0), tol = 1e-10)
})

test_that("Kendall plans align the release's representative before comparing shooting vectors", {
  K <- manifold_kendall(4)
  p <- riem_project(K, cbind(c(0, 1, 1, 0), c(0, 0, 1, 1)))
  v <- riem_log(K, p, riem_project(K, cbind(c(0, 1.1, 1, 0), c(0, 0, 1.2, 1))))
  rot <- function(A, a) A %*% matrix(c(cos(a), sin(a), -sin(a), cos(a)), 2)
  e <- riemdp:::accuracy_geodesic_errors(K, p, v, rot(p, 0.7), rot(v, 0.7))
  expect_close(e, c(footpoint = 0, endpoint = 0, shooting = 0, prediction = 0), tol = 1e-8)
})

test_that("the Monte Carlo intervals cover the quantiles at 95% at least, and are NA with too few reps", {
  # Exp(1) errors: the q-quantile is -log(1 - q); 4000 plans of R = 40 draws
  set.seed(11)
  probs <- c(0.5, 0.9)
  truth <- -log(1 - probs)
  cover <- replicate(4000, {
    qs <- riemdp:::accuracy_quantiles(matrix(rexp(40), ncol = 1, dimnames = list(NULL, "d")), probs)
    qs$lower[1, ] <= truth & truth <= qs$upper[1, ]
  })
  rate <- rowMeans(cover)
  # binomial standard error 0.0035: a 95% interval must not fall below 0.94
  expect_true(all(rate >= 0.94), info = paste(rate, collapse = " "))
  expect_true(all(rate <= 0.995))
  # R = 3: no order statistic lies beyond the median's 2.5% tails
  qs <- riemdp:::accuracy_quantiles(matrix(c(1, 2, 3), ncol = 1, dimnames = list(NULL, "d")), probs)
  expect_true(is.na(qs$lower[1, "50%"]) && is.na(qs$upper[1, "50%"]) && is.na(qs$upper[1, "90%"]))
  expect_identical(qs$lower[1, "90%"], 1)
  a <- dp_accuracy(S2, "frechet_mean", n = 50, epsilon = 1, radius = 0.3, center = north, reps = 3)
  expect_true(is.na(format(a)[["MC +-% (median)"]]))
  expect_output(print(a), "NA: too few `reps`", fixed = TRUE)
})

test_that("hostile inputs: spread on the exact route, the stored call, probs labels, the box, the ball", {
  # a data matrix passed as `spread` on the Laplace route is refused
  X <- matrix(rnorm(30), 10, 3)
  expect_error_mentions(dp_accuracy(S2, "frechet_mean", n = 50, epsilon = 1, radius = 0.3, center = north, spread = X),
                        c("`spread`", "single finite number"))
  # under do.call the stored call holds no large value
  a <- do.call(dp_accuracy, list(S2, "frechet_mean", n = 50, epsilon = 1, radius = 0.3, center = north, reps = 20,
                                 probs = c(0.1, 0.975)))
  vals <- as.list(a$call)[-1]
  expect_true(all(vapply(vals, function(v) is.name(v) || is.call(v) || length(v) <= 4L, NA)))
  expect_identical(a$call$M, as.name("M"))
  expect_identical(colnames(a$quantiles), c("10%", "50%", "90%", "97.5%"))
  expect_output(print(a), "97.5%", fixed = TRUE)
  # the exact route needs no n copies of the data: n = 1e8 at once
  g <- dp_accuracy(S2, "frechet_mean", n = 1e8, radius = 0.3, center = north, mechanism = "gaussian", mu = 1, reps = 20)
  # (sigma is proportional to the sensitivity, 1/n here: that of a release
  # on 1000 points, scaled)
  s3 <- dp_frechet_mean(S2, matrix(north, 1e3, 3, byrow = TRUE), radius = 0.3, center = north,
                        mechanism = "gaussian", mu = 1)$sigma
  expect_equal(g$sigma, s3 * 1e3 / 1e8, tolerance = 1e-3)
  # a KNG spread beyond the radius is refused whatever the seed; at the
  # radius, with the location on the boundary, the plan never fails
  for (sd in 1:3) {
    set.seed(sd)
    expect_error_mentions(dp_accuracy(S2, "frechet_mean", n = 20, epsilon = 1, radius = 0.2, center = north,
                                      mechanism = "kng", spread = 0.21, reps = 2, verbose = FALSE),
                          c("`spread` = 0.21", "`radius` = 0.2"))
  }
  edge <- riem_exp(S2, north, c(0.2, 0, 0))
  b <- dp_accuracy(S2, "frechet_mean", n = 30, epsilon = 1, radius = 0.2, center = north, location = edge,
                   mechanism = "kng", spread = 0.2, reps = 2, verbose = FALSE)
  expect_true(all(is.finite(b$errors)))
  # a non-syntactic predictor name, with or without its backticks
  set.seed(12)
  df <- data.frame(`my var` = runif(60, 0, 10), check.names = FALSE)
  df$y <- 2 + 0.3 * df$`my var` + rnorm(60)
  r1 <- dp_linear_regression(y ~ `my var`, df, epsilon = 1, tau = 2, x_range = list(`my var` = c(0, 10)), beta_max = 10)
  r2 <- dp_linear_regression(y ~ `my var`, df, epsilon = 1, tau = 2, x_range = list("`my var`" = c(0, 10)), beta_max = 10)
  expect_identical(unname(r1$x_range), unname(r2$x_range))
  expect_error_mentions(dp_linear_regression(y ~ `my var`, df, epsilon = 1, tau = 2, x_range = list(other = c(0, 10)),
                                             beta_max = 10),
                        c("`x_range`", "`my var`"))
  l <- dp_accuracy(NULL, "linear_regression", n = 50, epsilon = 1, tau = 2, x_range = list(`my var` = c(0, 10)),
                   beta_max = 10, spread = list(sd = 1), reps = 2, verbose = FALSE)
  expect_true(all(is.finite(l$errors)))
  # linear: a location outside the release's box
  expect_error_mentions(dp_accuracy(NULL, "linear_regression", n = 50, epsilon = 1, tau = 1,
                                    x_range = list(d = c(0, 10)), beta_max = 10, spread = list(sd = 1),
                                    location = c(0, 2), reps = 2),
                        c("`location`", "public box", "`beta_max` = 10"))
})
