# Issue 19: formulas of dp_linear_regression() limited to row-by-row
# transformations with public constants (item 7), covariate ranges too narrow
# for double precision (9), empty data (10), precompute scripts that install
# nothing (16), citations by authors and year (11).

review_data <- function(n = 30) {
  set.seed(19)
  d <- data.frame(x = runif(n), z = runif(n) + 1, g = rep(1:3, length.out = n))
  d$y <- 1 + 2 * d$x + rnorm(n, sd = 0.1)
  d
}
review_ctl <- mcmc_control(n_iter = 50, burn_in = 50)
review_release <- function(formula, data, x_range = c(0, 1))
  dp_linear_regression(formula, data, epsilon = 1, tau = 1, x_range = x_range, beta_max = 10, control = review_ctl)

test_that("dp_linear_regression refuses transformations outside the allow-list, naming the term", {
  d <- review_data()
  m <- 0.5  # a constant in the caller's frame, not a column of `data`
  refused <- list(
    list(y ~ rank(x), "`rank\\(x\\)` is not allowed"),
    list(y ~ I(x / max(x)), "`I\\(x/max\\(x\\)\\)` \\(its part `max\\(x\\)`\\) is not allowed"),
    list(y ~ scale(x), "`scale\\(x\\)` is not allowed"),
    list(y ~ poly(x, 2), "`poly\\(x, 2\\)` is not allowed"),
    list(y ~ I(x - mean(x)), "its part `mean\\(x\\)`"),
    list(y ~ factor(g), "`factor\\(g\\)` is not allowed"),
    list(y ~ splines::ns(x, 2), "`splines::ns\\(x, 2\\)` is not allowed"),
    list(y ~ I(x > 0.5), "its part `x > 0.5`"),
    list(rank(y) ~ x, "`rank\\(y\\)` is not allowed"),            # the response too
    list(I(y / sum(y)) ~ x, "its part `sum\\(y\\)`"),
    list(y ~ I(x - m), "`I\\(x - m\\)` \\(its part `m`\\) is not a column of `data`"),
    list(y ~ x + w, "`w` is not a column of `data`"),
    list(y ~ log(x, base = z), "its part `z`"))                    # log()'s base is a constant
  w <- d$x
  for (r in refused) {
    e <- tryCatch(review_release(r[[1L]], d), error = identity)
    expect_s3_class(e, "riemdp_error")
    expect_error_mentions(stop(e), c("`formula` term", r[[2L]]))
    if (grepl("not allowed", r[[2L]])) expect_error_mentions(stop(e), "numeric literals, \\+ - \\* / \\^, parentheses, I\\(\\), log\\(\\), exp\\(\\) and sqrt\\(\\)")
  }
})

test_that("dp_linear_regression accepts the allow-list and evaluates it with base R's functions", {
  d <- review_data()
  rng <- list(`I((x - 0.5)/2)` = c(-1, 1), `sqrt(x)` = c(0, 1), `exp(-x)` = c(0, 1), `I(x^2)` = c(0, 1),
              `log(z, 2)` = c(0, 1), `x:z` = c(0, 2))
  set.seed(1)
  r <- review_release(log(y + 2) ~ I((x - 0.5) / 2) + sqrt(x) + exp(-x) + I(x^2) + log(z, 2) + x:z, d, rng)
  expect_named(coef(r), c("(Intercept)", names(rng)))
  expect_true(all(is.finite(coef(r))))
  # `.` expands to the columns of `data`
  expect_length(coef(review_release(y ~ ., d, list(x = c(0, 1), z = c(1, 2), g = c(0, 3)))), 4L)
  # a log() masked in the formula's environment is not used: rank(x) would
  # leave the public range [-10, 0]
  set.seed(2)
  r1 <- review_release(y ~ log(x), d, c(-10, 0))
  r2 <- local({
    log <- function(x) rank(x)
    set.seed(2)
    review_release(y ~ log(x), d, c(-10, 0))
  })
  expect_identical(coef(r1), coef(r2))
})

test_that("ranges too narrow for double precision are errors naming `x_range`", {
  d <- review_data()
  d1 <- transform(d, x = 1)
  expect_error_mentions(review_release(y ~ x, d1, c(1, 1 + 1e-15)),
                        c("`x_range` is too narrow for double precision", "I\\(x - 1\\)"))
  expect_error_mentions(review_release(y ~ x + z, d, list(x = c(0, 1), z = c(1, 1 + 1e-12))),
                        "`x_range` for `z` is too narrow")
  expect_error_mentions(review_release(y ~ x, transform(d, x = 0), c(0, 1e-310)), c("`x_range`", "normal number"))
  # just wide enough: 1e-7 relative width
  expect_s3_class(review_release(y ~ x, d1, c(1, 1 + 1e-7)), "riemdp_linear_release")
  S2 <- manifold_sphere(2)
  Y <- matrix(c(0, 0, 1), 5, 3, byrow = TRUE)
  g <- function(x_range, x = rep(x_range[1], 5))
    dp_geodesic_regression(S2, x, Y, epsilon = 1, tau = 0.1, tau_m = 1, x_range = x_range, center = c(0, 0, 1),
                           radius = 0.5, control = review_ctl)
  expect_error_mentions(g(c(1, 1 + 1e-15)), c("`x_range` is too narrow for double precision", "x - 1"))
  expect_error_mentions(g(c(-1e6, -1e6 + 1e-3)), "`x_range` is too narrow")
  set.seed(3)
  rel <- g(c(1, 1 + 1e-7))
  expect_true(all(is.finite(rel$shooting)) && all(is.finite(rel$footpoint)))
})

test_that("an empty data frame is an error naming `data`", {
  d <- review_data()
  e <- expect_error_mentions(review_release(y ~ x, d[0, ]), c("`data`", "at least one row"))
  expect_false(grepl("`n`", e, fixed = TRUE))
  # empty point sets of every kind name their argument
  S2 <- manifold_sphere(2)
  E1 <- manifold_euclidean(1)
  expect_error_mentions(dp_frechet_mean(E1, numeric(0), epsilon = 1, center = 0, radius = 1),
                        c("`X`", "at least one point"))
  expect_error_mentions(dp_geodesic_regression(E1, numeric(0), numeric(0), 1, 0.1, 1, c(0, 1), 0, 0.5,
                                               control = review_ctl), c("`Y`", "at least one point"))
  expect_error_mentions(riem_dist(S2, numeric(0), c(0, 0, 1)), c("`p`", "at least one point"))
  expect_error_mentions(dp_frechet_mean(S2, matrix(0, 0, 3), epsilon = 1, center = c(0, 0, 1), radius = 0.5),
                        c("`X`", "at least one point"))
})

test_that("the precompute scripts install nothing", {
  dir <- test_path("..", "..", "vignettes", "data-raw")
  skip_if_not(dir.exists(dir), "package sources not available")
  installers <- c("install.packages", "install_github", "install_cran", "install_version", "pkg_install",
                  "pak", "remotes", "devtools", "BiocManager")
  for (f in list.files(dir, pattern = "\\.R$", full.names = TRUE)) {
    used <- all.names(parse(f))
    expect(!any(used %in% installers), sprintf("%s calls %s", basename(f), paste(intersect(used, installers), collapse = ", ")))
  }
})

test_that("citations name authors and year, never the package's paper numbers", {
  numbered <- "(paper|poster)\\s+00[0-9]"
  # printed guarantees
  S2 <- manifold_sphere(2)
  set.seed(4)
  x <- runif(10)
  Y <- riem_project(S2, cbind(0.1 * x, 0, 1) + matrix(rnorm(30, sd = 0.01), 10))
  for (scheme in c("joint", "paper")) {
    r <- dp_geodesic_regression(S2, x, Y, epsilon = 1, tau = 0.1, tau_m = 1, x_range = c(0, 1), center = c(0, 0, 1),
                                radius = 0.5, scheme = scheme, bound = "poster", control = review_ctl)
    out <- gsub("\\s+", " ", paste(c(capture.output(print(r)), capture.output(print(summary(r))), r$guarantee),
                                   collapse = " "))
    expect_false(grepl(numbered, out, ignore.case = TRUE))
    expect_match(out, if (scheme == "joint") "Kulkarni & Soto, poster (2026), Table 1" else "Kulkarni & Soto (2025), App. A",
                 fixed = TRUE)
  }
  # help pages
  db <- tools::Rd_db("riemdp", lib.loc = dirname(system.file(package = "riemdp")))
  skip_if(length(db) == 0L, "help pages not installed")
  for (nm in names(db)) {
    txt <- gsub("\\s+", " ", paste(as.character(db[[nm]]), collapse = ""))
    expect(!grepl(numbered, txt, ignore.case = TRUE), sprintf("%s cites a paper by number", nm))
  }
})
