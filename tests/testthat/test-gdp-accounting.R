# Accounting that never under-reports (issue 19): mu at every sigma, gdp_sigma
# at extreme targets, memory of the Monte Carlo settings, the documented
# meaning of dp_from_gdp(), and numbers rounded (and printed) on the safe side.

S2 <- manifold_sphere(2)
H2 <- manifold_hyperbolic(2)

test_that("a near-exact release is never reported as near-perfect privacy (item 1)", {
  for (M in list(S2, H2, manifold_sphere(3), manifold_sphere(1))) for (s in c(1e-71, 1e-100, 1e-200, 1e-300)) {
    mu <- as.double(gdp_mu(M, s, 0.1))
    lab <- sprintf("%s, sigma = %g", riemdp:::manifold_label(M), s)
    # the Euclidean asymptote Delta/sigma, rounded up, is the answer there
    expect_gte(mu, 0.1 / s, label = lab)
    expect_lte(mu, 0.1 / s * (1 + 1e-3), label = lab)
  }
  # where the asymptote overflows: Inf, never a small number
  expect_identical(as.double(gdp_mu(S2, 1e-320, 0.1)), Inf)
  expect_identical(as.double(gdp_mu(manifold_euclidean(2), 1e-320, 0.1)), Inf)
  f <- gdp_mu(S2, 1e-100, 0.1)
  expect_identical(f$regime, "small_sigma")
  expect_output(print(f), "mu = 1(\\.0*1)?e\\+99 ")
  expect_output(print(gdp_mu(S2, 1e-320, 0.1)), "no privacy is claimed")
  # a release at such a sigma states that mu and a budget counts it
  set.seed(1)
  X <- riem_rgaussian(S2, 80, c(0, 0, 1), 0.1)
  X <- X[riem_dist(S2, c(0, 0, 1), X) < pi / 8, ][1:20, ]
  rel <- dp_frechet_mean(S2, X, radius = pi / 8, center = c(0, 0, 1), mechanism = "gaussian", sigma = 1e-200)
  expect_gte(rel$mu, rel$sensitivity / 1e-200)
  out <- paste(capture.output(print(rel)), collapse = " ")
  expect_match(out, "mu = [0-9.]+e\\+198")
  expect_false(grepl("e-308", out, fixed = TRUE))
  expect_gte(dp_budget(rel)$spent, rel$sensitivity / 1e-200)
})

# mu at each sigma of a log grid (five points a decade from 1e-300 to 1e3);
# returns the values.
mu_on_grid <- function(M, D, method, sig) {
  vapply(sig, function(s) as.double(gdp_mu(M, s, D, method = method)), 0)
}
expect_monotone_defined <- function(mu, sig, lab) {
  expect_false(anyNA(mu), label = lab)
  expect_true(all(mu > 0), label = lab)
  bad <- which(diff(mu) > 0)
  expect_identical(length(bad), 0L,
                   label = sprintf("%s: mu increases from sigma = %s", lab, paste(format(sig[bad], digits = 4), collapse = ", ")))
}
grid <- 10^seq(-300, 3, by = 0.2)
sphere_grid_check <- function(M) {
  for (D in c(0.1, 3)) {
    mu <- mu_on_grid(M, D, "quadrature", grid)
    expect_monotone_defined(mu, grid, sprintf("%s, Delta = %g", riemdp:::manifold_label(M), D))
    small <- grid < D / 6
    expect_true(all(mu[small] >= D / grid[small]))                # the Euclidean asymptote, rounded up
    expect_true(all(mu[small] <= D / grid[small] * (1 + 1e-6)))
  }
}
hyperbolic_grid_check <- function(M) {
  for (D in c(0.1, 3)) {
    mu <- mu_on_grid(M, D, "quadrature", grid)
    expect_monotone_defined(mu, grid, sprintf("%s, Delta = %g", riemdp:::manifold_label(M), D))
    expect_true(all(mu >= D / grid | grid > 1))                   # above Delta/sigma on H^d
  }
}

test_that("mu is defined and non-increasing in sigma on S^2 (item 2)", { sphere_grid_check(S2) })
test_that("mu is defined and non-increasing in sigma on S^3 (item 2)", { sphere_grid_check(manifold_sphere(3)) })
test_that("mu is defined and non-increasing in sigma on H^2 (item 2)", { hyperbolic_grid_check(H2) })
test_that("mu is defined and non-increasing in sigma on H^3 (item 2)", { hyperbolic_grid_check(manifold_hyperbolic(3)) })

flat_grid_check <- function(cases) {
  g <- 10^seq(-300, 3, by = 0.4)
  for (cs in cases) for (D in c(0.1, 3)) {
    mu <- mu_on_grid(cs[[1]], D, cs[[2]], g)
    expect_monotone_defined(mu, g, sprintf("%s, %s, Delta = %g", riemdp:::manifold_label(cs[[1]]), cs[[2]], D))
    expect_true(all(mu >= D / g * (if (cs[[1]]$type == "sphere") 0 else 1)))
  }
}

test_that("mu is defined and non-increasing in sigma on S^1, both deterministic methods (item 2)", {
  flat_grid_check(list(list(manifold_sphere(1), "algorithm1"), list(manifold_sphere(1), "quadrature")))
})

test_that("mu is defined and non-increasing in sigma on R^2 and H^1, every deterministic method (item 2)", {
  flat_grid_check(list(list(manifold_euclidean(2), "closed_form"), list(manifold_euclidean(2), "quadrature"),
                       list(manifold_hyperbolic(1), "closed_form")))
  # beyond the range the grids reach: huge sigma gives tiny bounds, never 0
  expect_gt(as.double(gdp_mu(S2, 1e300, 1)), 0)
  expect_gte(as.double(gdp_mu(H2, 1e300, 1)), as.double(gdp_mu(H2, 1e3, 1)))
})

test_that("tiny sensitivities: the loss keeps Delta next to r (no cancellation), down to 1e-50", {
  # at fixed Delta/sigma and sigma -> 0 every space is flat: mu -> Delta/sigma
  for (M in list(S2, H2, manifold_hyperbolic(3))) for (D in c(1e-8, 1e-20, 1e-50)) {
    lab <- sprintf("%s, Delta = %g", riemdp:::manifold_label(M), D)
    mu <- vapply(c(0.5, 1, 4) * D, function(s) as.double(gdp_mu(M, s, D)), 0)
    expect_equal(mu, D / (c(0.5, 1, 4) * D), tolerance = 1e-5, label = lab)
  }
  # and at sigma = 1 mu / Delta is the same small-Delta limit whatever Delta
  for (M in list(S2, H2)) {
    ref <- as.double(gdp_mu(M, 1, 1e-6)) / 1e-6
    for (D in c(1e-12, 1e-20, 1e-40))
      expect_equal(as.double(gdp_mu(M, 1, D)) / D, ref, tolerance = 1e-5,
                   label = sprintf("%s, Delta = %g", riemdp:::manifold_label(M), D))
  }
  expect_error(gdp_mu(S2, 1, 1e-60), "`sensitivity` = 1e-60 is below 1e-50", class = "riemdp_error")
  expect_identical(as.double(gdp_mu(manifold_euclidean(2), 1e-300, 1e-300)), 1)
})

test_that("Monte Carlo methods are defined at every sigma: Inf where no draw can resolve the laws (item 2)", {
  g <- 10^c(-300, -200, -100, -20, -5, -2.5, -1.5, -1, 0, 1, 3, 10, 100)
  ctl <- gdp_control(n = 200, m = 5, n_epsilon = 50)
  for (M in list(S2, H2, manifold_euclidean(2))) for (meth in c("monte_carlo", "algorithm2")) {
    set.seed(3)
    mu <- vapply(g, function(s) as.double(gdp_mu(M, s, 0.1, method = meth, control = ctl)), 0)
    lab <- sprintf("%s, %s", riemdp:::manifold_label(M), meth)
    expect_false(anyNA(mu), label = lab)
    expect_true(all(mu > 0), label = lab)                          # never 0 or a rounded-away number
    expect_true(all(mu[g < 0.1 / 40] == Inf), label = lab)
    if (meth == "monte_carlo") expect_true(all(is.finite(mu[g >= 0.05])), label = lab)
  }
})

test_that("gdp_sigma meets extreme targets within its tolerance, on the safe side (item 3)", {
  for (cs in list(list(S2, 0.1), list(H2, 0.1), list(manifold_sphere(1), 0.1), list(manifold_euclidean(2), 0.1),
                  list(manifold_sphere(3), 2))) {
    for (mu in c(1e10, 1e100, 7)) {
      s <- gdp_sigma(cs[[1]], mu, cs[[2]])
      got <- as.double(gdp_mu(cs[[1]], as.double(s), cs[[2]]))
      lab <- sprintf("%s, mu = %g", riemdp:::manifold_label(cs[[1]]), mu)
      expect_lte(got, mu, label = lab)
      expect_gte(got, mu * (1 - 4e-6), label = lab)
      expect_identical(attr(s, "mu"), got, label = lab)
    }
  }
  # tiny targets on the sphere: sigma far beyond the diameter
  s <- gdp_sigma(S2, 1e-12, 0.1)
  expect_lte(as.double(gdp_mu(S2, as.double(s), 0.1)), 1e-12)
  expect_gte(attr(s, "mu"), 1e-12 * (1 - 4e-6))
  expect_error(gdp_sigma(H2, 0.01, 1), "not attainable")
})

test_that("a Monte Carlo setting whose memory exceeds what is available is refused before allocating (item 4)", {
  msg <- "`n` \\* `m` = 2000000000 draws of gdp_control\\(\\) need about 48\\.0 GB for method \"monte_carlo\", more than the 16\\.0 GB"
  expect_error(riemdp:::gdp_check_memory(2e7, 100, "monte_carlo", NULL, available = 16e9), msg, class = "riemdp_error")
  expect_error(riemdp:::gdp_check_memory(2e7, 100, "algorithm2", NULL, available = 16e9), "32\\.0 GB.*smaller `n` or `m`")
  expect_silent(riemdp:::gdp_check_memory(1000, 100, "monte_carlo", NULL, available = 16e9))
  expect_silent(riemdp:::gdp_check_memory(2e7, 100, "monte_carlo", NULL, available = NA))
  expect_error(riemdp:::gdp_check_memory(2e7, 100, NULL, NULL, available = 16e9),
               "need at least 32\\.0 GB \\(16 bytes a draw for method \"algorithm2\", 24 for \"monte_carlo\"\\)")
  avail <- riemdp:::available_memory()
  skip_if(is.na(avail) || avail > 30e9, "needs a machine with less than 30 GB of memory available")
  expect_error(gdp_control(n = 2e7, m = 100), "`n` \\* `m`.*GB", class = "riemdp_error")
})

test_that("?dp_from_gdp says mu-GDP implies (epsilon, delta(epsilon))-DP, not epsilon-DP (item 5)", {
  rd <- tools::Rd_db("riemdp", lib.loc = dirname(find.package("riemdp")))[["gdp_from_dp.Rd"]]
  txt <- gsub("\\s+", " ", paste(capture.output(tools::Rd2txt(rd)), collapse = " "))
  expect_match(txt, "epsilon-DP for no finite epsilon", fixed = TRUE)
  expect_match(txt, "(epsilon, delta_mu(epsilon))-DP for every epsilon >= 0", fixed = TRUE)
  expect_match(txt, "largest epsilon for which every epsilon-DP mechanism is mu-GDP", fixed = TRUE)
})

test_that("conversions and compositions round to the safe side", {
  # Delta/sigma rounded up: 1/3 as a double is below 1/3
  expect_gt(as.double(gdp_mu(manifold_euclidean(1), 3, 1)), 1 / 3)
  expect_gt(as.double(gdp_sigma(manifold_euclidean(1), 1 / 3, 1)), 3 * (1 - 1e-15))
  expect_lte(riemdp:::gdp_div_up_cpp(1, as.double(gdp_sigma(manifold_euclidean(1), 1 / 3, 1))), 1 / 3)
  # sqrt(3) as a double is below sqrt(3)
  expect_gt(gdp_compose(1, 1, 1), sqrt(3))
  expect_identical(gdp_compose(0.7), 0.7)
  # epsilon-DP implies mu-GDP with mu rounded up: its epsilon is at least epsilon
  eps <- c(1e-8, seq(0.01, 3, by = 0.01), 10, 50, 300)
  expect_true(all(riemdp:::dp_from_gdp_raw(gdp_from_dp(eps)) >= eps))
  # dp_from_gdp rounds down
  mu <- c(0.01, 0.5, 1, 2, 10)
  expect_true(all(dp_from_gdp(mu) < riemdp:::dp_from_gdp_raw(mu)))
  # printed numbers: guarantees rounded up, what remains rounded down
  fg <- riemdp:::format_guarantee
  expect_identical(fg(c(0.12344, 0.1234, 0.12346, 9.99951, 1e-320, 0, Inf), 4),
                   c("0.1235", "0.1234", "0.1235", "10", "1e-320", "0", "Inf"))
  expect_identical(fg(c(0.12346, 0.1234), 4, down = TRUE), c("0.1234", "0.1234"))
  # exact decimal shares are not rounded up for their last-bit floating error
  expect_identical(fg(c(0.2 * 0.2 / 0.5, 0.1 + 0.2, 0.7 + 0.2 + 0.1), 4), c("0.08", "0.3", "1"))
  expect_identical(fg(0.08 * (1 + 1e-12), 4), "0.08001")
  b <- dp_spend(dp_spend(dp_budget(total = c(mu = 1)), mu = 0.12344, label = "a"), epsilon = 0.12344, label = "b")
  out <- capture.output(print(b))
  expect_true(any(grepl("^  a +mu-GDP +- +0\\.1235 +planned$", out)))
  expect_true(any(grepl("^  b +epsilon-DP +0\\.1235 ", out)))
  spent <- as.numeric(sub(".*mu = ([0-9.e+-]+) .*", "\\1", grep("^Spent", out, value = TRUE)))
  expect_gte(spent, b$spent)
  left <- as.numeric(sub(".*remaining: mu = ", "", out[length(out)]))
  expect_lte(left, b$remaining)
  # gdp_mu prints mu rounded up
  for (s in c(0.37, 0.5, 0.71, 1.3, 2.9)) {
    f <- gdp_mu(S2, s, 0.3)
    shown <- as.numeric(sub(".*mu = ([0-9.e+-]+) .*", "\\1", format(f)[1]))
    expect_gte(shown, f$mu)
  }
  # an epsilon-DP release prints its epsilon, and the mu it implies, rounded up
  set.seed(2)
  X <- riem_rgaussian(S2, 40, c(0, 0, 1), 0.05)
  X <- X[riem_dist(S2, c(0, 0, 1), X) < pi / 8, ][1:10, ]
  rel <- dp_frechet_mean(S2, X, epsilon = 0.12344, radius = pi / 8, center = c(0, 0, 1))
  out <- paste(capture.output(print(rel)), collapse = " ")
  expect_match(out, "0.1235-DP", fixed = TRUE)
  implied <- as.numeric(sub(".*It is also ([0-9.e+-]+)-GDP.*", "\\1", out))
  expect_gte(implied, gdp_from_dp(0.12344))
})

test_that("Algorithm 2 reads the same frequencies at one epsilon or many (bucket counts, no sort)", {
  e <- c(0.3, 0, 2, 1, 0.5, 4, 0.05, 1.5, 3, 0.75, 0.2, 2.5, 0.1, 1.25, 3.5, 0.6, 0.9, 1.1, 0.4, 2.2)
  ctl <- gdp_control(n = 500, m = 20, n_epsilon = 100)
  set.seed(7)
  many <- privacy_profile(S2, 0.5, 1, epsilon = e, method = "algorithm2", control = ctl)
  for (i in c(1, 2, 6, 20)) {
    set.seed(7)
    one <- privacy_profile(S2, 0.5, 1, epsilon = e[i], method = "algorithm2", control = ctl)
    expect_identical(one$l, many$l[i])
  }
  expect_identical(many$l[2], 0 + many$l[2])
  expect_true(all(many$l <= 1))
})

test_that("quadrature orders are checked and raised where the default ones fall short (large Delta on H^2)", {
  s <- 10 / 6
  em <- riemdp:::gdp_eps_max_cpp("hyperbolic", 2L, 10, s, FALSE)
  e <- em * (0:60 / 60)^2
  prof <- riemdp:::gdp_quadrature_profile_cpp("hyperbolic", 2L, 10, s, e, 48L, 48L, 40L)
  ref <- max(riemdp:::gdp_mu_from_delta_cpp(e, prof, 1e-13))
  f <- gdp_mu(H2, s, 10)
  expect_gte(f$mu, ref)
  expect_lt(f$mu / ref - 1, 5e-3)  # the default orders alone were 1.5% off
  expect_gt(f$accuracy, 1e-6)      # the stated accuracy says so
})
