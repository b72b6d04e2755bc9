# Hostile inputs to this session's user-facing functions: the release plots,
# gdp_mu_curve() and dp_linear_regression(). Each test failed before its fix.

quiet_plot <- function(obj, ...) {
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_silent(out <- plot(obj, ...))
  expect_identical(out, obj)
}

test_that("plot() of a Frechet release with a tiny sigma draws its median noise distance", {
  set.seed(901)
  # sigma far below the curvature scale: the grid of the radial law used to
  # underflow (NaN weights) and approx() failed
  H2 <- manifold_hyperbolic(2)
  S4 <- manifold_sphere(4)
  K4 <- manifold_kendall(4)
  for (M in list(H2, manifold_hyperbolic(3), manifold_sphere(2), S4, K4)) {
    for (kernel in c("laplace", "gaussian")) {
      for (s in c(1e-100, 1e-300)) {
        med <- riemdp:::radial_median(M, kernel, s)
        flat <- if (kernel == "laplace") stats::qgamma(0.5, shape = M$dim, scale = s)
                else s * sqrt(stats::qchisq(0.5, df = M$dim))
        expect_true(is.finite(med))
        expect_lt(abs(med / flat - 1), 1e-6)
      }
    }
  }
  # still the curved value at a moderate sigma (not the flat one)
  expect_gt(abs(riemdp:::radial_median(H2, "laplace", 0.4) / stats::qgamma(0.5, 2, scale = 0.4) - 1), 0.01)
  p <- c(1, 0, 0)
  X <- riem_rgaussian(H2, 10, p, 0.05)
  rel <- dp_frechet_mean(H2, X, radius = 1, center = p, mechanism = "gaussian", sigma = 1e-100, outside = "clip")
  quiet_plot(rel)
  rel <- dp_frechet_mean(H2, X, epsilon = 1e300, radius = 1, center = p, outside = "clip")
  quiet_plot(rel)
})

test_that("gdp_mu_curve() names the argument when a rate of its grid or the target cannot be computed", {
  S2 <- manifold_sphere(2)
  # every rate has a mu (issue 19): at a near-exact rate the Euclidean asymptote, rounded up
  expect_gte(gdp_mu_curve(S2, 1, sigma = c(1e-300, 1))$mu[1], 1e300)
  expect_gte(gdp_mu_curve(manifold_hyperbolic(2), 1, sigma = c(1e-300, 1))$mu[1], 1e300)
  quiet_plot(gdp_mu_curve(S2, 1, sigma = c(1e-310, 1e-3, 1)))  # an infinite mu is left out of the plot
  # the default grid scales with the sensitivity
  expect_error_mentions(gdp_mu_curve(S2, 1e-300), "`sensitivity`")
  expect_error_mentions(gdp_mu_curve(manifold_hyperbolic(2), 1, mu = 0.1), "`mu`")
  # the RNG is not touched on any of these paths
  set.seed(902)
  seed <- .Random.seed
  try(gdp_mu_curve(S2, 1, sigma = c(1e-300, 1)), silent = TRUE)
  invisible(gdp_mu_curve(S2, 1, mu = 1))
  expect_identical(.Random.seed, seed)
})

lin_data <- function(n = 40) {
  d <- data.frame(x = runif(n, 0, 10), z = runif(n, 0, 10))
  d$y <- 2 * d$x - d$z + stats::rnorm(n)
  d
}
lin_ctl <- function() mcmc_control(n_iter = 100, burn_in = 100, verbose = FALSE)

test_that("dp_linear_regression() refuses an offset, which the fit would silently drop", {
  set.seed(903)
  d <- lin_data()
  expect_error_mentions(dp_linear_regression(y ~ z + offset(x), d, epsilon = 1, tau = 5, x_range = c(0, 10),
                                             beta_max = 50, control = lin_ctl()), c("`formula`", "offset"))
  expect_error_mentions(dp_linear_regression(y ~ offset(x), d, epsilon = 1, tau = 5, x_range = c(0, 10),
                                             beta_max = 50, control = lin_ctl()), c("`formula`", "offset"))
  # a fixed transformation of each record is still accepted
  rel <- dp_linear_regression(y ~ log(x + 1), d, epsilon = 1, tau = 5, x_range = c(0, 3), beta_max = 50,
                              control = lin_ctl())
  expect_named(coef(rel), c("(Intercept)", "log(x + 1)"))
})

test_that("a linear release made through do.call() holds no environment of the formula", {
  set.seed(904)
  d <- lin_data()
  make_formula <- function() {
    secret <- d  # the data, in the formula's environment
    y ~ x
  }
  f <- make_formula()
  rel <- do.call(dp_linear_regression, list(f, d, epsilon = 1, tau = 5, x_range = c(0, 10), beta_max = 50,
                                            control = lin_ctl()))
  holds_env <- function(o, depth = 0) {
    if (depth > 20) return(FALSE)
    if (is.environment(o)) return(exists("secret", envir = o, inherits = FALSE))
    if (is.function(o)) return(holds_env(environment(o), depth + 1))
    kids <- c(if (is.list(o) || (is.language(o) && !is.symbol(o))) as.list(o), attributes(o))
    any(vapply(kids, function(k) !is.null(k) && holds_env(k, depth + 1), logical(1)))
  }
  expect_false(holds_env(rel))
  expect_false(holds_env(rel$call))
  # the release still prints, predicts and plots
  expect_output(print(rel), "private linear regression")
  expect_length(predict(rel, d[1:3, ]), 3L)
  quiet_plot(rel, data = d)
})

test_that("a transformation the user defined is refused; predict() and plot() apply the allowed ones", {
  set.seed(905)
  d <- lin_data()
  sq <- function(v) v^2  # could compute anything from all the records: refused (issue 19)
  expect_error_mentions(dp_linear_regression(y ~ sq(x), d, epsilon = 1, tau = 5, x_range = c(0, 100), beta_max = 50,
                                             control = lin_ctl()), c("`formula` term `sq\\(x\\)` is not allowed"))
  rel <- dp_linear_regression(y ~ I(x^2), d, epsilon = 1, tau = 5, x_range = c(0, 100), beta_max = 50,
                              control = lin_ctl())
  expect_true(identical(environment(rel$terms), baseenv()))
  expect_equal(unname(predict(rel, data.frame(x = c(1, 2)))), unname(coef(rel)[1] + coef(rel)[2] * c(1, 4)))
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_silent(plot(rel, data = d))
})

test_that("plot() of a linear release with too little or degenerate data says so", {
  set.seed(906)
  d <- lin_data()
  rel <- dp_linear_regression(y ~ x, d, epsilon = 1, tau = 5, x_range = c(0, 10), beta_max = 50, control = lin_ctl())
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  for (bad in list(d[0, ], d[1, ], data.frame(x = c(1, 1, 1), y = 1:3))) {
    msg <- tryCatch(withCallingHandlers(plot(rel, data = bad), warning = function(w) stop("warning: ", conditionMessage(w))),
                    error = function(e) conditionMessage(e))
    expect_match(msg, "`data`")
    expect_no_match(msg, "^warning")
  }
  rel2 <- dp_linear_regression(y ~ x + z, d, epsilon = 1, tau = 5, x_range = cbind(x = c(0, 10), z = c(0, 10)),
                               beta_max = 50, control = lin_ctl())
  expect_error_mentions(plot(rel2, data = d[1:2, ]), "`data`")
})
