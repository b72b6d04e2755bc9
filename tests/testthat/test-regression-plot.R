# plot() of geodesic regression fits: every manifold of the zoo draws on the
# pdf() device (the one R CMD check uses, which has no glyphs for Greek or
# superscript characters outside Latin-1) without warnings, and leaves par()
# as it was.

# Noisy points along a random geodesic (m covariates on [0, 1]).
plot_fixture <- function(M, n = 20L, m = 1L) {
  p <- rand_point(M)
  X <- matrix(runif(n * m), n, m)
  V <- lapply(seq_len(m), function(j) rand_tangent(M, p, norm = 0.4))
  Y <- stack_points(M, lapply(seq_len(n), function(i) {
    y <- riem_exp(M, p, Reduce(`+`, Map(`*`, X[i, ], V)))
    riem_exp(M, y, rand_tangent(M, riem_project(M, y), norm = 0.03))
  }))
  geodesic_regression(M, if (m == 1L) X[, 1] else X, Y)
}

test_that("plot() draws a fit on every manifold without warnings and restores par()", {
  set.seed(701)
  for (nm in names(zoo_manifolds())) {
    M <- zoo_manifolds()[[nm]]
    fit <- plot_fixture(M)
    expect_plots_quietly(fit)
    expect_plots_quietly(fit, show_data = FALSE, n_along = 2)
  }
})

test_that("plot() handles the lon/lat view, several covariates, many coordinates and spd(1)", {
  set.seed(702)
  S2 <- manifold_sphere(2)
  fit <- plot_fixture(S2)
  expect_plots_quietly(fit, view = "lonlat")
  for (M in list(S2, manifold_hyperbolic(2), manifold_kendall(4), manifold_spd(2), manifold_spd(3),
                 manifold_euclidean(2), manifold_sphere(3)))
    expect_plots_quietly(plot_fixture(M, m = 2L))
  expect_plots_quietly(plot_fixture(manifold_euclidean(12)), max_panels = 4)
  expect_plots_quietly(plot_fixture(manifold_spd(1)))
  # the colour bar is named after the covariate: a short expression, else "x"
  expect_identical(riemdp:::covariate_name(fit), "x")
  age <- fit$x[, 1]
  fit_age <- geodesic_regression(S2, age, fit$data)
  expect_identical(riemdp:::covariate_name(fit_age), "age")
})

test_that("plot() checks its arguments", {
  set.seed(703)
  fit <- plot_fixture(manifold_sphere(2))
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_error_mentions(plot(fit, view = "polar"), c("`view`", "orthographic"))
  expect_error_mentions(plot(fit, n_along = 1), "`n_along`")
  expect_error_mentions(plot(fit, show_data = NA), "`show_data`")
  expect_error_mentions(plot(fit, max_panels = 0), "`max_panels`")
})
