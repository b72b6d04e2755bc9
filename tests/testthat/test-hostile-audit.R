# Defects found by a hostile audit and a new user (issue 33). Each test
# failed on the code before its fix.

test_that("dp_find_bounds(center = ) finds the radius around the given public centre, on every manifold", {
  set.seed(3301)
  cases <- list(
    list(M = manifold_euclidean(2), c0 = c(0, 0), X = matrix(stats::rnorm(200), 100, 2),
         spec = dp_bounds(region_center = c(0, 0), region_radius = 10)),
    list(M = manifold_sphere(2), c0 = c(0, 0, 1), spec = dp_bounds()),
    list(M = manifold_hyperbolic(2), c0 = c(1, 0, 0),
         spec = dp_bounds(region_center = c(1, 0, 0), region_radius = 3)),
    list(M = manifold_spd(2), c0 = diag(2), spec = dp_bounds(region_center = diag(2), region_radius = 3)),
    list(M = manifold_kendall(4), c0 = riem_project(manifold_kendall(4), matrix(c(0, 1, 1, 0, 0, 0, 1, 1), 4, 2)),
         spec = NULL)
  )
  for (cs in cases) {
    M <- cs$M
    if (is.null(cs$X)) {
      c0 <- cs$c0
      X <- riem_rgaussian(M, 100, c0, 0.2)
    } else {
      c0 <- cs$c0
      X <- cs$X
    }
    spec <- if (is.null(cs$spec)) dp_bounds(region_center = c0, region_radius = 1) else cs$spec
    b <- dp_find_bounds(M, X, epsilon = 1, bounds = spec, center = c0)
    expect_s3_class(b, "riemdp_bounds")
    expect_true(b$center_given)
    expect_equal(as.vector(b$center), as.vector(c0))
    expect_true(is.finite(b$radius) && b$radius > 0)
    # only the radius is spent: one stage
    expect_identical(nrow(b$stages), 1L)
    expect_identical(b$stages$bound, "radius")
  }
})
