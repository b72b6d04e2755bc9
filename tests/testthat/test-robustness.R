# Any input gets a clear answer (issue 6, items 7, 8, 11 (samplers), 12):
# counts beyond what the C++ side holds, rates sigma over the whole range of
# doubles, clear messages, and no RNG side effects of deterministic code.
# Calls that used to hang run in a child R process with a time limit, so that
# a regression fails the test instead of hanging the suite.

S2 <- manifold_sphere(2)
north <- c(0, 0, 1)

# Runs `code` (a character vector of R lines) in a fresh Rscript that loads
# this riemdp, with a time limit. The code must assign `result`, which is
# returned; a time-out or a failure of the child returns the string
# "child failed: ...".
run_child <- function(code, timeout = 60) {
  libs <- unique(c(dirname(find.package("riemdp")), .libPaths()))
  script <- tempfile(fileext = ".R")
  out <- tempfile(fileext = ".rds")
  on.exit(unlink(c(script, out)), add = TRUE)
  writeLines(c(sprintf(".libPaths(%s)", paste(deparse(libs), collapse = "")),
               "suppressPackageStartupMessages(library(riemdp))",
               code,
               sprintf("saveRDS(result, %s)", deparse(out))), script)
  rscript <- file.path(R.home("bin"), "Rscript")
  log <- suppressWarnings(system2(rscript, c("--vanilla", shQuote(script)), stdout = TRUE, stderr = TRUE,
                                  timeout = timeout))
  status <- attr(log, "status")
  if (!file.exists(out))
    return(sprintf("child failed (status %s): %s", format(status),
                   paste(utils::tail(log, 5), collapse = " | ")))
  readRDS(out)
}

ks1_p <- function(r, cdf, ...) suppressWarnings(stats::ks.test(r, cdf, ...)$p.value)

# ---- item 7: counts ------------------------------------------------------------

test_that("counts beyond 2^31 - 1 are refused with the range, not turned into NA", {
  for (arg in c("thin", "n_iter", "burn_in")) {
    args <- stats::setNames(list(2^31), arg)
    expect_error_mentions(do.call(mcmc_control, args), c(sprintf("`%s`", arg), "2147483647"))
  }
  expect_error_mentions(mcmc_control(thin = 1e300), c("`thin`", "between 1 and 2147483647"))
  expect_error_mentions(mcmc_control(burn_in = -1), c("`burn_in`", "between 0 and 2147483647"))
  # the reproducers: all-zero "draws" from the sphere chain and from the SPD chain
  set.seed(1)
  expect_error_mentions(riem_rgaussian(S2, 3, north, 0.3, method = "mh", control = mcmc_control(thin = 2^31)),
                        "`thin`")
  expect_error_mentions(riem_rgaussian(manifold_spd(2), 2, diag(2), 0.3, control = mcmc_control(thin = 2^31)),
                        "`thin`")
  expect_error_mentions(riem_rlaplace(S2, 2^31, north, 0.3), c("`n`", "2147483647"))
  expect_error_mentions(frechet_mean(S2, rbind(north, north), max_iter = 2^31), "`max_iter`")
  # the largest values are accepted
  ctl <- mcmc_control(n_iter = 2^31 - 1, burn_in = 2^31 - 1, thin = 2^31 - 1)
  expect_identical(c(ctl$n_iter, ctl$burn_in, ctl$thin), rep(.Machine$integer.max, 3))
})

test_that("the output of a sampler must fit one R vector", {
  # 2^31 - 1 draws of 2^24 coordinates: refused before anything is allocated
  # (the footprint is never even evaluated)
  expect_error_mentions(riem_rgaussian(manifold_euclidean(2^24), 2^31 - 1, stop("not evaluated"), 1),
                        c("`n`", "2\\^52"))
})

test_that("manifold sizes must give points whose length fits an int", {
  expect_error_mentions(manifold_sphere(1e10), c("`d`", "2147483646"))
  expect_error_mentions(manifold_sphere(2^31 - 1), c("`d`", "2147483646"))
  expect_error_mentions(manifold_hyperbolic(2^31 - 1), c("`d`", "2147483646"))
  expect_error_mentions(manifold_euclidean(2^31), c("`d`", "2147483647"))
  expect_error_mentions(manifold_spd(46341), c("`k`", "46340"))
  expect_error_mentions(manifold_kendall(2^30), c("`k`", "1073741823"))
  # the largest sizes build consistent manifolds (no point is allocated)
  expect_identical(manifold_sphere(2^31 - 2)$ambient, .Machine$integer.max)
  expect_identical(manifold_euclidean(2^31 - 1)$dim, .Machine$integer.max)
  P <- manifold_spd(46340)
  expect_identical(P$ambient, 46340L * 46340L)
  expect_identical(P$dim, as.integer(46340 * 46341 / 2))
  expect_identical(manifold_kendall(2^30 - 1)$ambient, .Machine$integer.max - 1L)
})

test_that("the sensitivity of a sample of 3e9 points is the formula, not a wrapped count", {
  r <- 0.1
  h <- 2 * r / tan(2 * r)  # kappa = 1
  for (n in c(3e9, 1e15)) {
    expect_equal(sensitivity_frechet_mean(S2, n = n, radius = r), 2 * r * (2 - h) / (n * h), tolerance = 1e-13)
    expect_equal(sensitivity_frechet_gradient(S2, n = n, radius = r), 2 * r * (2 - h) / n, tolerance = 1e-13)
  }
  expect_equal(sensitivity_frechet_mean(manifold_euclidean(2), n = 2^31, radius = 1), 2 / 2^31, tolerance = 1e-14)
  expect_error_mentions(sensitivity_frechet_mean(S2, n = 2.5, radius = r), "`n`")
  expect_error_mentions(sensitivity_frechet_mean(S2, n = Inf, radius = r), "`n`")
})

test_that("the core refuses chains and samplers that would keep nothing", {
  Pt <- riemdp:::as_points(S2, north, "x")
  bad <- list(burn_in = 0L, thin = 0L, step = 0.1, adapt = FALSE, target_accept = 0.3)
  expect_error(riemdp:::samp_mh_radial(S2, Pt, 3L, "gaussian", 0.3, Pt, bad, NULL, Inf, TRUE), "thin >= 1")
  bad$thin <- 1L
  bad$burn_in <- -5L
  expect_error(riemdp:::samp_mh_radial(S2, Pt, 3L, "gaussian", 0.3, Pt, bad, NULL, Inf, TRUE), "burn_in >= 0")
  bad$burn_in <- 0L
  expect_error(riemdp:::samp_mh_radial(S2, Pt, 0L, "gaussian", 0.3, Pt, bad, NULL, Inf, TRUE), "n >= 1")
  expect_error(riemdp:::samp_exact(S2, Pt, 0L, "gaussian", 0.3, TRUE), ">= 1")
})

# ---- item 8: every sigma gets a prompt, correct answer ----------------------------

# Run in a child: for each case, draws (finite, on the manifold) or an error
# message. Old versions looped forever on tiny sigma.
extreme_sigma_cases <- c(
  "cases <- list(",
  "  list(M = manifold_euclidean(2), eta = c(0, 0)),",
  "  list(M = manifold_sphere(2), eta = c(0, 0, 1)),",
  "  list(M = manifold_hyperbolic(2), eta = c(1, 0, 0)),",
  "  list(M = manifold_kendall(4), eta = cbind(c(0, 1, 1, 0), c(0, 0, 1, 1))),",
  "  list(M = manifold_spd(1), eta = matrix(2, 1, 1)))",
  "result <- list()",
  "set.seed(1)",
  "for (cs in cases) for (kernel in c('gaussian', 'laplace')) for (s in c(5e-324, 1e-300, 1e-150, 1e6, 1e10, 1e300)) {",
  "  f <- if (kernel == 'laplace') riem_rlaplace else riem_rgaussian",
  "  t0 <- proc.time()[[3]]",
  "  x <- tryCatch(f(cs$M, 50, cs$eta, s), error = function(e) conditionMessage(e))",
  "  ok <- if (is.character(x)) NA else isTRUE(riem_check(cs$M, x))",
  "  result[[length(result) + 1]] <- list(type = cs$M$type, kernel = kernel, sigma = s, error = if (is.character(x)) x else NULL,",
  "    on_manifold = ok, seconds = proc.time()[[3]] - t0)",
  "}")

test_that("tiny and huge sigma return promptly: valid draws or an error naming sigma", {
  res <- run_child(extreme_sigma_cases, timeout = 120)
  expect(is.list(res), paste("the child did not finish in time or failed:", format(res)))
  if (!is.list(res)) return(invisible())
  for (r in res) {
    lab <- sprintf("[%s, %s, sigma %g]", r$type, r$kernel, r$sigma)
    expect(r$seconds < 5, sprintf("%s took %.1f s", lab, r$seconds))
    if (is.null(r$error)) {
      expect(isTRUE(r$on_manifold), sprintf("%s: the draws are not points of the manifold", lab))
    } else {
      expect(grepl("sigma", r$error), sprintf("%s: the error does not name sigma: %s", lab, r$error))
    }
  }
  errs <- vapply(res, function(r) if (is.null(r$error)) "" else r$error, "")
  kinds <- vapply(res, function(r) sprintf("%s/%s/%g", r$type, r$kernel, r$sigma), "")
  names(errs) <- kinds
  # The laws exist and are representable: draws, not errors. Tiny sigma
  # everywhere; every sigma up to 1e300 on the plane, the sphere and Kendall's
  # space (spd(1) and H^2 overflow their coordinates at large distances).
  must_work <- c(grep("/(4.94066e-324|1e-300|1e-150)$", kinds, value = TRUE),
                 grep("^(euclidean|sphere|kendall)/", kinds, value = TRUE))
  for (k in must_work) expect(!nzchar(errs[[k]]), sprintf("%s: %s", k, errs[[k]]))
  # Out of range: the Laplace law on H^2 needs sigma < 1; the Gaussian law on
  # H^2 at sigma = 1e10 is concentrated near distance 1e20.
  expect_match(errs[["hyperbolic/laplace/1e+10"]], "`sigma`.*exists only for sigma < 1")
  expect_match(errs[["hyperbolic/gaussian/1e+10"]], "sigma = 1e\\+10.*double precision")
  expect_false(grepl("not integrable", errs[["euclidean/gaussian/1e+300"]]))
})

test_that("a Gaussian release with sigma = 1e-300 returns promptly", {
  res <- run_child(c(
    "S2 <- manifold_sphere(2); set.seed(1)",
    "X <- riem_rgaussian(S2, 20, c(0, 0, 1), 0.05)",
    "t0 <- proc.time()[[3]]",
    "r <- dp_frechet_mean(S2, X, radius = pi / 8, center = c(0, 0, 1), mechanism = 'gaussian', sigma = 1e-300)",
    "result <- list(seconds = proc.time()[[3]] - t0, ok = isTRUE(riem_check(S2, coef(r))))"), timeout = 60)
  expect(is.list(res), paste("the child did not finish in time or failed:", format(res)))
  if (is.list(res)) {
    expect_lt(res$seconds, 5)
    expect_true(res$ok)
  }
})

# Samples for the KS tests below, drawn in a child process (old versions hung
# on tiny sigma): a list of draws of r = dist(eta, x), or an error string.
extreme_sigma_samples <- function() {
  if (is.null(extreme_sigma_cache$value)) extreme_sigma_cache$value <- run_child(c(
    "tiny <- list(manifold_euclidean(2), manifold_sphere(2), manifold_sphere(5), manifold_hyperbolic(3),",
    "             manifold_kendall(4), manifold_spd(1))",
    "result <- list(tiny = list(), huge = list())",
    "for (M in tiny) for (s in c(1e-150, 1e-300)) for (kernel in c('gaussian', 'laplace')) {",
    "  set.seed(11)",
    "  result$tiny[[length(result$tiny) + 1]] <- list(M = M, sigma = s, kernel = kernel,",
    "    r = riemdp:::samp_radial(M, 4000, kernel, s))",
    "}",
    "set.seed(13)",
    "result$denormal <- riemdp:::samp_radial(manifold_euclidean(3), 1000, 'laplace', 5e-324)",
    "huge <- list(list(M = manifold_euclidean(3), sigma = c(1e6, 1e300)),",
    "             list(M = manifold_sphere(2), sigma = c(1e10, 1e300)),",
    "             list(M = manifold_kendall(4), sigma = c(1e10, 1e300)))",
    "for (h in huge) for (s in h$sigma) for (kernel in c('gaussian', 'laplace')) {",
    "  set.seed(21)",
    "  result$huge[[length(result$huge) + 1]] <- list(M = h$M, sigma = s, kernel = kernel,",
    "    r = riemdp:::samp_radial(h$M, 4000, kernel, s))",
    "}",
    "set.seed(23)",
    "result$e3_draws <- riem_rgaussian(manifold_euclidean(3), 2000, c(1, 2, 3), 1e6)"), timeout = 120)
  extreme_sigma_cache$value
}
extreme_sigma_cache <- new.env()

test_that("tiny sigma: r / sigma follows the flat law r^(d-1) k(r) (KS)", {
  res <- extreme_sigma_samples()
  expect(is.list(res), paste("the child did not finish in time or failed:", format(res)))
  if (!is.list(res)) return(invisible())
  # At sigma = 1e-150 (and 1e-300) the curvature is invisible: r / sigma ~
  # chi_d (Gaussian) or Gamma(d, 1) (Laplace), d the dimension.
  for (cs in res$tiny) {
    d <- cs$M$dim
    lab <- sprintf("[%s(%d), %s, sigma %g]", cs$M$type, d, cs$kernel, cs$sigma)
    t <- cs$r / cs$sigma
    p <- if (cs$kernel == "gaussian") ks1_p(t, function(x) stats::pchisq(x^2, df = d))
         else ks1_p(t, stats::pgamma, shape = d)
    expect(p > 0.001, sprintf("%s: KS of r/sigma vs the flat law, p %.3g", lab, p))
  }
  expect_length(res$tiny, 24)
  # the denormal rate 5e-324 gives distances at the resolution of denormals:
  # finite, >= 0, and tiny
  expect_true(all(is.finite(res$denormal) & res$denormal >= 0 & res$denormal < 1e-320))
})

test_that("huge sigma: Euclidean laws scale, compact spaces draw the volume law (KS)", {
  res <- extreme_sigma_samples()
  expect(is.list(res), paste("the child did not finish in time or failed:", format(res)))
  if (!is.list(res)) return(invisible())
  for (cs in res$huge) {
    lab <- sprintf("[%s(%d), %s, sigma %g]", cs$M$type, cs$M$dim, cs$kernel, cs$sigma)
    p <- switch(cs$M$type,
      # R^3: r / sigma ~ chi_3 or Gamma(3)
      euclidean = if (cs$kernel == "gaussian") ks1_p(cs$r / cs$sigma, function(x) stats::pchisq(x^2, df = 3))
                  else ks1_p(cs$r / cs$sigma, stats::pgamma, shape = 3),
      # S^2: density sin(r) / 2 on (0, pi)
      sphere = ks1_p(cs$r, function(r) (1 - cos(r)) / 2),
      # Kendall(4): density prop. to sin^3(r) cos(r) on (0, pi/2), CDF sin^4(r)
      kendall = ks1_p(cs$r, function(r) sin(r)^4))
    expect(p > 0.001, sprintf("%s: KS p %.3g", lab, p))
  }
  expect_length(res$huge, 12)
  # end to end at sigma = 1e6: |x - eta| / sigma ~ chi_3
  E3 <- manifold_euclidean(3)
  p <- ks1_p(riem_dist(E3, c(1, 2, 3), res$e3_draws) / 1e6, function(x) stats::pchisq(x^2, df = 3))
  expect(p > 0.001, sprintf("R^3 Gaussian draws at sigma 1e6: KS p %.3g", p))
})

test_that("distances beyond the largest double are an error naming sigma, not Inf or a truncated law", {
  expect_error_mentions(riem_rgaussian(manifold_euclidean(2), 10, c(0, 0), 1.7e308), c("sigma", "double"))
  expect_error_mentions(riem_rlaplace(manifold_hyperbolic(1), 10, c(1, 0), 1.7e308), c("sigma", "double|overflow"))
})

# ---- item 11: clear messages -------------------------------------------------------

test_that("`method` errors name the argument and list the choices", {
  expect_error_mentions(riem_rlaplace(S2, 5, north, 0.1, method = "gibbs"),
                        c("`method`", "\"auto\", \"exact\", \"mh\"", "gibbs"))
  expect_error_mentions(riem_rgaussian(S2, 5, north, 0.1, method = 2), c("`method`", "numeric of length 1"))
  # prefixes still work
  set.seed(1)
  expect_identical(attr(riem_rgaussian(S2, 5, north, 0.1, method = "ex"), "method"), "exact")
})

test_that("mcmc_control checks `init` when it is given", {
  expect_error_mentions(mcmc_control(init = "a"), "`init`")
  expect_error_mentions(mcmc_control(init = list(0, 0, 1)), "`init`")
  expect_error_mentions(mcmc_control(init = numeric(0)), "`init`")
  expect_error_mentions(mcmc_control(init = c(0, NA, 1)), c("`init`", "finite"))
  expect_error_mentions(mcmc_control(init = c(0, Inf, 1)), c("`init`", "finite"))
  expect_identical(mcmc_control(init = north)$init, north)
  # membership is checked where it is used
  expect_error_mentions(riem_rgaussian(S2, 5, north, 0.1, method = "mh", control = mcmc_control(init = c(0, 0, 2))),
                        "`control\\$init`")
})

test_that("check_rate names where sigma came from", {
  H3 <- manifold_hyperbolic(3)
  src <- "sigma = 2*Delta/epsilon = 0.6 (from `epsilon` = 0.01, `radius` = 0.3, n = 20)"
  msg <- expect_error_mentions(riemdp:::check_rate(H3, "laplace", 0.6, NULL, source = src),
                               c("from `epsilon` = 0.01", "exists only for sigma < 0.5"))
  expect_false(grepl("`sigma`", msg, fixed = TRUE))
  for (s in c(0, Inf, NaN))
    expect_error_mentions(riemdp:::check_rate(S2, "gaussian", s, NULL, source = "sigma = 2*Delta/epsilon (from `epsilon`)"),
                          c("from `epsilon`", "finite number > 0"))
  expect_error_mentions(riemdp:::check_rate(H3, "laplace", 0.6, NULL), c("`sigma` = 0.6", "sigma < 0.5"))
  expect_identical(riemdp:::check_rate(H3, "gaussian", 1e300, NULL), 1e300)
  expect_identical(riemdp:::check_rate(S2, "laplace", 5e-324, NULL), 5e-324)
})

# ---- item 12: deterministic code leaves R's RNG alone ----------------------------

test_that("deterministic functions do not create .Random.seed in a fresh session", {
  res <- run_child(c(
    "seen <- c(load = exists('.Random.seed', globalenv()))",
    "S2 <- manifold_sphere(2); p <- c(0, 0, 1); q <- c(1, 0, 0); v <- c(0.3, 0.2, 0)",
    "X <- rbind(p, q, c(0, 1, 0))",
    "calls <- list(",
    "  manifolds = quote({manifold_euclidean(2); manifold_hyperbolic(2); manifold_spd(2); manifold_kendall(4)}),",
    "  riem_dist = quote(riem_dist(S2, p, q)), riem_exp = quote(riem_exp(S2, p, v)),",
    "  riem_log = quote(riem_log(S2, p, q)), riem_inner = quote(riem_inner(S2, p, v, v)),",
    "  riem_norm = quote(riem_norm(S2, p, v)), riem_transport = quote(riem_transport(S2, p, q, c(0, 1, 0))),",
    "  riem_geodesic = quote(riem_geodesic(S2, p, v, c(0, 0.5))), riem_check = quote(riem_check(S2, X)),",
    "  riem_project = quote(riem_project(S2, c(0, 0, 2))), frechet_mean = quote(frechet_mean(S2, X)),",
    "  sensitivity_frechet_mean = quote(sensitivity_frechet_mean(S2, 10, 0.3)),",
    "  sensitivity_frechet_gradient = quote(sensitivity_frechet_gradient(S2, 10, 0.3)),",
    "  spd = quote(riem_dist(manifold_spd(2), diag(2), diag(c(2, 3)))),",
    "  kendall = quote(frechet_mean(manifold_kendall(3), array(c(0, 1, 0, 0, 0, 1, 0, 1, 0.2, 0, 0, 1.1), c(3, 2, 2)))),",
    "  mcmc_control = quote(mcmc_control()))",
    "for (nm in names(calls)) { eval(calls[[nm]]); seen[nm] <- exists('.Random.seed', globalenv()) }",
    "result <- seen"), timeout = 60)
  expect(is.logical(res), paste("the child failed:", format(res)))
  if (is.logical(res)) {
    expect(!any(res), sprintf(".Random.seed appeared after: %s", paste(names(res)[res], collapse = ", ")))
    expect_true(length(res) >= 16)
  }
})

test_that("a sigma too large for storable spd draws is refused up front", {
  expect_error_mentions(riem_rgaussian(manifold_spd(2), 3, diag(2), 1e300), c("`sigma`", "too large", "36"))
  expect_error_mentions(riem_rgaussian(manifold_spd(3), 3, diag(3), 101), c("`sigma`", "spread"))
})
