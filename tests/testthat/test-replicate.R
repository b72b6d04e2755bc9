# dp_replicate(): reproducible L'Ecuyer streams, identical with lapply and
# with future.apply under sequential and multisession plans.

draw <- function(i, n = 3) c(i, rnorm(n), sample.int(1000, 2))

test_that("the same seed gives the same results; the caller's RNG is restored", {
  set.seed(7)
  before <- .Random.seed
  a <- dp_replicate(draw, 5, seed = 11, use_future = FALSE)
  expect_identical(.Random.seed, before)          # seed given: caller's stream untouched
  expect_length(a, 5L)
  expect_identical(vapply(a, `[`, 0, 1), as.double(1:5))
  expect_identical(dp_replicate(draw, 5, seed = 11, use_future = FALSE), a)
  expect_false(identical(dp_replicate(draw, 5, seed = 12, use_future = FALSE), a))
  # replicate i runs on stream i: the L'Ecuyer streams chained by nextRNGStream
  old <- RNGkind("L'Ecuyer-CMRG"); set.seed(11)
  s <- .Random.seed
  for (k in 1:2) s <- parallel::nextRNGStream(s)
  assign(".Random.seed", s, envir = globalenv())
  expect_identical(a[[3]], draw(3))
  RNGkind(old[1]); set.seed(7)
  expect_identical(RNGkind()[1], "Mersenne-Twister")
  # seed = NULL: from set.seed, forwarding the caller's stream once
  set.seed(3); b1 <- dp_replicate(draw, 4, use_future = FALSE); after1 <- runif(1)
  set.seed(3); b2 <- dp_replicate(draw, 4, use_future = FALSE); after2 <- runif(1)
  expect_identical(b1, b2)
  expect_identical(after1, after2)
  set.seed(3); invisible(sample.int(.Machine$integer.max, 1L))
  expect_identical(after1, runif(1))
  expect_identical(RNGkind()[1], "Mersenne-Twister")
  # no .Random.seed before a seeded call: none after
  rm(".Random.seed", envir = globalenv())
  dp_replicate(draw, 2, seed = 1, use_future = FALSE)
  expect_false(exists(".Random.seed", envir = globalenv(), inherits = FALSE))
  set.seed(1)
})

test_that("arguments pass through, simplify and functions without arguments work", {
  s <- dp_replicate(function(i, k) i * k, 4, k = 10, use_future = FALSE, simplify = TRUE)
  expect_identical(s, c(10, 20, 30, 40))
  m <- dp_replicate(draw, 3, n = 2, seed = 1, use_future = FALSE, simplify = TRUE)
  expect_identical(dim(m), c(5L, 3L))
  z <- dp_replicate(function() runif(1), 3, seed = 2, use_future = FALSE, simplify = TRUE)
  expect_length(unique(z), 3L)
})

test_that("bad arguments are errors naming them", {
  expect_error(dp_replicate(1, 3), "`fun` must be a function", class = "riemdp_error")
  expect_error(dp_replicate(draw, 0), "`times` must be a whole number", class = "riemdp_error")
  expect_error(dp_replicate(draw, 2.5), "`times`", class = "riemdp_error")
  expect_error(dp_replicate(draw, 2, seed = "a"), "`seed` must be NULL or a single whole number", class = "riemdp_error")
  expect_error(dp_replicate(draw, 2, simplify = NA), "`simplify` must be TRUE or FALSE", class = "riemdp_error")
  expect_error(dp_replicate(draw, 2, verbose = "yes"), "`verbose` must be TRUE or FALSE", class = "riemdp_error")
  expect_error(dp_replicate(draw, 2, use_future = 1), "`use_future` must be TRUE or FALSE", class = "riemdp_error")
})

test_that("releases replicate identically with lapply and future.apply (sequential, multisession)", {
  skip_if_not_installed("future.apply")
  skip_if_not_installed("future")
  S2 <- manifold_sphere(2)
  north <- c(0, 0, 1)
  set.seed(1)
  X <- riem_rlaplace(S2, 30, north, 0.05)
  rel <- function(i) coef(dp_frechet_mean(S2, X, epsilon = 1, radius = pi / 6, center = north))
  old_plan <- future::plan(future::sequential)
  on.exit(future::plan(old_plan), add = TRUE)
  plain <- dp_replicate(rel, 6, seed = 5, use_future = FALSE, simplify = TRUE)
  seq_f <- dp_replicate(rel, 6, seed = 5, use_future = TRUE, simplify = TRUE)
  expect_identical(seq_f, plain)
  expect_identical(dim(plain), c(3L, 6L))
  expect_length(unique(plain[1, ]), 6L)
  # multisession: workers need this riemdp; plain R draws otherwise
  future::plan(future::multisession, workers = 2)
  base_plain <- dp_replicate(draw, 6, seed = 5, use_future = FALSE)
  expect_identical(dp_replicate(draw, 6, seed = 5, use_future = TRUE), base_plain)
  set.seed(9); m1 <- dp_replicate(draw, 6, use_future = TRUE)
  set.seed(9); m2 <- dp_replicate(draw, 6, use_future = FALSE)
  expect_identical(m1, m2)
  multi <- tryCatch(dp_replicate(rel, 6, seed = 5, use_future = TRUE, simplify = TRUE),
                    error = function(e) NULL)
  if (is.null(multi)) skip("riemdp cannot be loaded on multisession workers (library path)")
  expect_identical(multi, plain)
})

test_that("progress is signalled through progressr, and not under verbose = FALSE", {
  skip_if_not_installed("progressr")
  old <- options(progressr.enable = TRUE)  # progressr is off outside interactive sessions by default
  on.exit(options(old), add = TRUE)
  count <- function(verbose) {
    n <- 0L
    withCallingHandlers(dp_replicate(function(i) i, 4, use_future = FALSE, verbose = verbose),
                        progression = function(c) n <<- n + 1L)
    n
  }
  expect_gt(count(TRUE), 0L)
  expect_identical(count(FALSE), 0L)
})
