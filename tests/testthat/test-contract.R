# The shared geometry contract (helper-expectations.R) on every manifold of the zoo.

zoo <- zoo_manifolds()
for (nm in names(zoo)) {
  local({
    M <- zoo[[nm]]
    name <- nm
    test_that(paste("geometry contract holds on", name), {
      expect_contract(M, name = name, seed = 101L)
    })
  })
}

test_that("the contract helpers can fail (self-test on a deliberately wrong value)", {
  M <- manifold_sphere(2)
  p <- c(1, 0, 0)
  # a wrong expected value must be reported as a failure
  expect_failure(expect_close(riem_dist(M, p, c(0, 1, 0)), 1.5, 1e-8))
  expect_failure(expect_tangent(M, p, c(1, 0, 0)))
  expect_failure(expect_on_manifold(M, c(1, 1, 0)))
  expect_failure(expect_rng_untouched(runif(1)))
})

test_that("manifold objects have the documented fields", {
  spec <- list(
    "euclidean(3)"  = list(type = "euclidean",  dim = 3, ambient = 3,  shape = NULL,   curv = c(0, 0),     inj = Inf),
    "sphere(1)"     = list(type = "sphere",     dim = 1, ambient = 2,  shape = NULL,   curv = c(0, 0),     inj = pi),  # flat
    "sphere(2)"     = list(type = "sphere",     dim = 2, ambient = 3,  shape = NULL,   curv = c(1, 1),     inj = pi),
    "sphere(4)"     = list(type = "sphere",     dim = 4, ambient = 5,  shape = NULL,   curv = c(1, 1),     inj = pi),
    "hyperbolic(2)" = list(type = "hyperbolic", dim = 2, ambient = 3,  shape = NULL,   curv = c(-1, -1),   inj = Inf),
    "hyperbolic(3)" = list(type = "hyperbolic", dim = 3, ambient = 4,  shape = NULL,   curv = c(-1, -1),   inj = Inf),
    "spd(2)"        = list(type = "spd",        dim = 3, ambient = 4,  shape = c(2, 2), curv = c(-0.5, 0), inj = Inf),
    "spd(3)"        = list(type = "spd",        dim = 6, ambient = 9,  shape = c(3, 3), curv = c(-0.5, 0), inj = Inf),
    # triangles form a sphere of radius 1/2: constant curvature 4 (the [1, 4] range needs k >= 4)
    "kendall(3)"    = list(type = "kendall",    dim = 2, ambient = 6,  shape = c(3, 2), curv = c(4, 4),    inj = pi / 2),
    "kendall(5)"    = list(type = "kendall",    dim = 6, ambient = 10, shape = c(5, 2), curv = c(1, 4),    inj = pi / 2)
  )
  zoo <- zoo_manifolds()
  for (nm in names(spec)) {
    M <- zoo[[nm]]
    s <- spec[[nm]]
    expect_s3_class(M, "riemdp_manifold")
    expect_s3_class(M, paste0("riemdp_", s$type))
    expect_identical(class(M), c(paste0("riemdp_", s$type), "riemdp_manifold"))
    expect_identical(M$type, s$type)
    expect_equal(M$dim, s$dim, label = paste(nm, "dim"))
    expect_equal(M$ambient, s$ambient, label = paste(nm, "ambient"))
    if (is.null(s$shape)) expect_null(M$point_shape, label = paste(nm, "point_shape")) else
      expect_equal(as.numeric(M$point_shape), s$shape, label = paste(nm, "point_shape"))
    expect_equal(as.numeric(M$curvature), s$curv, label = paste(nm, "curvature"))
    expect_equal(M$inj, s$inj, label = paste(nm, "inj"))
    expect_true(is.list(unclass(M)))
    expect_output(print(M), s$type)
  }
  expect_equal(zoo[["spd(3)"]]$k, 3)
  expect_equal(zoo[["kendall(5)"]]$k, 5)
  expect_equal(zoo[["sphere(4)"]]$d, 4)
  expect_equal(zoo[["hyperbolic(2)"]]$d, 2)
  expect_equal(zoo[["euclidean(3)"]]$d, 3)
})

test_that("manifold objects survive saveRDS/readRDS and still work", {
  f <- tempfile(fileext = ".rds")
  on.exit(unlink(f))
  M <- manifold_sphere(2)
  saveRDS(M, f)
  M2 <- readRDS(f)
  expect_equal(riem_dist(M2, c(1, 0, 0), c(0, 1, 0)), pi / 2, tolerance = 1e-14)
})
