# The API review of issue 20, parts 3 and 4: errors that say what to do
# (public numbers only), budgets that take their total as diffprivlib does
# and refuse a release recorded twice, and release methods as R users expect
# them (predict/fitted/residuals/nobs/formula, factors, na.action, names).

msg_of <- function(expr) tryCatch({
  force(expr)
  "no error"
}, error = function(e) conditionMessage(e))

# The text drawn by mtext(), legend() and title() while `expr` runs on a null
# device.
drawn_text <- function(expr) {
  rec <- new.env()
  rec$txt <- character()
  old <- options(riemdp.test.drawn = rec)
  add <- function(arg) bquote(local({
    r <- getOption("riemdp.test.drawn")
    v <- .(as.name(arg))
    if (!is.null(r) && !is.null(v)) r$txt <- c(r$txt, paste(as.character(v), collapse = " "))
  }))
  suppressMessages({
    trace("mtext", add("text"), where = asNamespace("graphics"), print = FALSE)
    trace("legend", add("legend"), where = asNamespace("graphics"), print = FALSE)
    trace("title", add("main"), where = asNamespace("graphics"), print = FALSE)
  })
  on.exit({
    suppressMessages({
      untrace("mtext", where = asNamespace("graphics"))
      untrace("legend", where = asNamespace("graphics"))
      untrace("title", where = asNamespace("graphics"))
    })
    options(old)
  })
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE, after = FALSE)
  force(expr)
  rec$txt
}

ctl <- mcmc_control(n_iter = 300, burn_in = 300, verbose = FALSE)

# ---- part 3: errors that say what to do ------------------------------------------------

test_that("a Laplace release beyond the law's existence names the remedies, in public numbers only", {
  P3 <- manifold_spd(3)
  set.seed(1)
  A <- riem_rgaussian(P3, 10, diag(3), 0.3)
  B <- riem_rgaussian(P3, 10, diag(c(1, 2, 1.5)), 0.3)
  m1 <- msg_of(dp_frechet_mean(P3, A, epsilon = 0.01, radius = 3, center = diag(3)))
  m2 <- msg_of(dp_frechet_mean(P3, B, epsilon = 0.01, radius = 3, center = diag(3)))
  expect_identical(m1, m2)  # the same public parameters, other data: the same words
  for (p in c("exists only for sigma <", "mechanism = \"kng\"", "larger `epsilon`", "larger n", "smaller `radius`"))
    expect_match(m1, p, fixed = TRUE)
  # on spd no mu is computable, so the Gaussian mechanism is not offered as accountable
  expect_no_match(m1, "gaussian", fixed = TRUE)
  # the epsilon it names is the threshold: sigma = 2 Delta / epsilon < sigma_max
  H3 <- manifold_hyperbolic(3)
  o <- c(1, 0, 0, 0)
  X <- riem_rlaplace(H3, 20, o, 0.1)
  X <- X[riem_dist(H3, o, X) < 1, ]
  msg <- msg_of(dp_frechet_mean(H3, X, epsilon = 0.05, radius = 1, center = o))
  expect_match(msg, "mechanism = \"gaussian\" with `mu`", fixed = TRUE)
  eps_min <- as.numeric(sub(".*above ([0-9.e+-]+) here.*", "\\1", msg))
  Delta <- sensitivity_frechet_mean(H3, nrow(X), 1)
  expect_equal(eps_min, 2 * Delta / 0.5, tolerance = 1e-3)  # sigma_max = 1/(d - 1) = 0.5 on H^3
  expect_match(msg_of(dp_frechet_mean(H3, X, epsilon = eps_min * 0.99, radius = 1, center = o)), "exists only for")
  expect_s3_class(dp_frechet_mean(H3, X, epsilon = eps_min * 1.01, radius = 1, center = o), "riemdp_release")
  # the sampler's own error points to the Gaussian law
  expect_match(msg_of(riem_rlaplace(P3, 2, diag(3), 1)), "riem_rgaussian()", fixed = TRUE)
})

test_that("a Gaussian spd release given sigma says no budget can hold it, and the budget's refusal says why and what to do", {
  P3 <- manifold_spd(3)
  set.seed(2)
  X <- riem_rgaussian(P3, 20, diag(3), 0.2)
  g <- dp_frechet_mean(P3, X, radius = 3, center = diag(3), mechanism = "gaussian", sigma = 0.3)
  expect_true(is.na(g$mu))
  out <- gsub("\\s+", " ", paste(capture.output(print(g)), collapse = " "))
  expect_match(out, "no privacy budget can account for this release", fixed = TRUE)
  expect_match(out, "mechanism = \"laplace\" or \"kng\"", fixed = TRUE)
  m <- msg_of(dp_spend(dp_budget(), g))
  for (p in c("mu was not computed", "constant curvature", "no budget can account", "mechanism = \"laplace\" or \"kng\""))
    expect_match(m, p, fixed = TRUE)
})

test_that("mcmc_control() and gdp_control() list their settings for an unknown one", {
  m <- msg_of(mcmc_control(n_iters = 5))
  expect_match(m, "unknown setting `n_iters` for mcmc_control()", fixed = TRUE)
  expect_match(m, "n_iter, burn_in, thin, step, adapt, target_accept, init, resume, verbose", fixed = TRUE)
  expect_match(msg_of(mcmc_control(n_iter = 5, foo = 1, bar = 2)), "unknown settings `foo`, `bar`", fixed = TRUE)
  expect_match(msg_of(mcmc_control(5, 5, 5, NULL, TRUE, 0.3, NULL, NULL, FALSE, 3)), "takes its settings by name")
  expect_match(msg_of(gdp_control(nn = 5)), "unknown setting `nn` for gdp_control(); the settings are n, m,", fixed = TRUE)
  expect_s3_class(mcmc_control(n_iter = 5), "riemdp_mcmc_control")
})

test_that("dp_budget() takes its total as total = 1, epsilon = 1 or mu = 1, and refuses conflicting ones", {
  ref_eps <- dp_budget(total = c(epsilon = 1))
  ref_mu <- dp_budget(total = c(mu = 2))
  expect_identical(dp_budget(total = 1), ref_eps)
  expect_identical(dp_budget(epsilon = 1), ref_eps)
  expect_identical(dp_budget(mu = 2), ref_mu)
  expect_identical(dp_budget(total = 2, type = "mu"), ref_mu)
  expect_identical(dp_budget(epsilon = 1, type = "epsilon"), ref_eps)
  expect_match(msg_of(dp_budget(total = 1, epsilon = 1)), "`total` and `epsilon` were given together", fixed = TRUE)
  expect_match(msg_of(dp_budget(epsilon = 1, mu = 1)), "`epsilon` and `mu` were given together", fixed = TRUE)
  expect_match(msg_of(dp_budget(epsilon = 1, type = "mu")), "`type` = \"mu\"", fixed = TRUE)
  expect_match(msg_of(dp_budget(epsilon = -1)), "`epsilon` must be a single finite number > 0", fixed = TRUE)
  expect_match(msg_of(dp_budget(total = c(epsilon = 1), type = "mu")), "`type`", fixed = TRUE)
  S2 <- manifold_sphere(2)
  set.seed(3)
  X <- riem_rlaplace(S2, 30, c(0, 0, 1), 0.05)
  r <- dp_frechet_mean(S2, X, epsilon = 0.5, radius = pi / 6, center = c(0, 0, 1))
  expect_match(msg_of(dp_budget(epsilon = r)), "`epsilon` is the budget's total", fixed = TRUE)
  # the total in force: a spend above it is refused
  b <- dp_spend(dp_budget(epsilon = 1), r)
  expect_equal(b$remaining, 0.5, tolerance = 1e-14)
  expect_match(msg_of(dp_spend(b, epsilon = 0.6)), "would exceed the budget", fixed = TRUE)
})

test_that("a release recorded twice is refused; a new draw is charged; dp_spend() returns a new budget", {
  S2 <- manifold_sphere(2)
  set.seed(4)
  X <- riem_rlaplace(S2, 30, c(0, 0, 1), 0.05)
  r <- dp_frechet_mean(S2, X, epsilon = 0.5, radius = pi / 6, center = c(0, 0, 1))
  r_again <- dp_frechet_mean(S2, X, epsilon = 0.5, radius = pi / 6, center = c(0, 0, 1))  # a new draw
  b <- dp_spend(dp_budget(total = c(epsilon = 2)), r)
  m <- msg_of(dp_spend(b, r))
  expect_match(m, "`release` is already recorded in this budget (entry \"r\")", fixed = TRUE)
  expect_match(m, "the budget is unchanged", fixed = TRUE)
  copy <- r
  expect_match(msg_of(dp_spend(b, copy)), "already recorded", fixed = TRUE)  # the same object under another name
  expect_match(msg_of(dp_budget(r, r)), "`r` is already recorded", fixed = TRUE)
  expect_match(msg_of(dp_budget(list(r, r))), "already recorded", fixed = TRUE)
  b2 <- dp_spend(b, r_again)
  expect_equal(b2$spent, 1, tolerance = 1e-14)
  # planned spends of the same size are separate spends
  b3 <- dp_spend(dp_spend(b, epsilon = 0.25), epsilon = 0.25)
  expect_equal(b3$spent, 1, tolerance = 1e-14)
  # a value: without assignment the budget does not change
  dp_spend(b, r_again)
  expect_identical(nrow(b$entries), 1L)
  expect_equal(b$spent, 0.5)
})

# ---- part 4: release methods -------------------------------------------------------------

test_that("a linear release: predict() needs newdata, fitted() and residuals() are errors, nobs() and formula() work", {
  set.seed(5)
  rel <- dp_linear_regression(dist ~ speed, cars, epsilon = 1, tau = 30, x_range = c(0, 30), beta_max = 200,
                              control = ctl)
  m <- msg_of(predict(rel))
  expect_match(m, "`newdata` is required", fixed = TRUE)
  expect_match(m, "holds no data", fixed = TRUE)
  expect_match(msg_of(fitted(rel)), "holds no data.*no fitted values.*predict\\(release, newdata\\)")
  expect_match(msg_of(residuals(rel)), "holds no data.*no residuals")
  expect_match(msg_of(resid(rel)), "no residuals")
  expect_identical(nobs(rel), 50L)
  f <- formula(rel)
  expect_s3_class(f, "formula")
  expect_equal(f, dist ~ speed, ignore_attr = TRUE)
  expect_identical(capture.output(print(f)), "dist ~ speed")
  expect_identical(environment(f), globalenv())
  # a `.` is expanded, as formula(lm(...)) does
  dot <- dp_linear_regression(mpg ~ . - disp, mtcars[, 1:4], epsilon = 1, tau = 5, beta_max = 50, control = ctl,
                              x_range = list(cyl = c(4, 8), hp = c(50, 350)))
  expect_identical(deparse(formula(dot)), deparse(formula(lm(mpg ~ . - disp, mtcars[, 1:4]))))
  expect_identical(deparse(formula(dot)), "mpg ~ (cyl + disp + hp) - disp")
  # lm() accepts it back
  expect_equal(names(coef(lm(formula(rel), cars))), names(coef(rel)))
  # other releases hold no data either
  S2 <- manifold_sphere(2)
  X <- riem_rlaplace(S2, 30, c(0, 0, 1), 0.05)
  fr <- dp_frechet_mean(S2, X, epsilon = 1, radius = pi / 6, center = c(0, 0, 1))
  expect_match(msg_of(fitted(fr)), "holds no data")
  expect_identical(nobs(fr), 30L)
  x <- runif(30)
  Y <- riem_project(S2, riem_geodesic(S2, c(0, 0, 1), c(0.3, 0.2, 0), x) + matrix(rnorm(90, sd = 0.02), 30))
  g <- dp_geodesic_regression(S2, x, Y, epsilon = 2, tau = 0.1, tau_m = 1, x_range = c(0, 1), center = c(0, 0, 1),
                              radius = 0.5, control = ctl)
  expect_match(msg_of(predict(g)), "`newdata` \\(or `newx`\\) is required.*holds no data")
  expect_match(msg_of(residuals(g)), "holds no data")
})

test_that("dp_linear_regression() without `data` takes the variables from the formula's environment, as lm()", {
  speed <- cars$speed
  dist <- cars$dist
  set.seed(6)
  a <- dp_linear_regression(dist ~ speed, cars, epsilon = 1, tau = 30, x_range = c(0, 30), beta_max = 200, control = ctl)
  set.seed(6)
  b <- dp_linear_regression(dist ~ speed, epsilon = 1, tau = 30, x_range = c(0, 30), beta_max = 200, control = ctl)
  expect_identical(coef(a), coef(b))
  expect_null(b$call$data)
  # the formula's environment, not the caller's: made inside a function
  make <- function() {
    v <- cars$speed * 2
    w <- cars$dist
    w ~ v
  }
  f <- make()
  set.seed(6)
  d <- dp_linear_regression(f, epsilon = 1, tau = 30, x_range = c(0, 60), beta_max = 200, control = ctl)
  expect_identical(names(coef(d)), c("(Intercept)", "v"))
  expect_identical(environment(formula(d)), globalenv())  # the release holds no frame with data
  # a constant from the environment is refused: it would be a number computed from anything
  k <- 3
  expect_match(msg_of(dp_linear_regression(dist ~ I(speed - k), epsilon = 1, tau = 30, x_range = c(0, 30),
                                           beta_max = 200)), "`k` has 1; write public constants as numbers")
  expect_match(msg_of(dp_linear_regression(dist ~ nowhere_at_all, epsilon = 1, tau = 30, x_range = c(0, 30),
                                           beta_max = 200)), "`nowhere_at_all` is not found: pass `data`")
})

test_that("factor and logical predictors enter as treatment dummies with the public range [0, 1]", {
  set.seed(7)
  n <- 2000
  d <- data.frame(x = runif(n, 0, 10), g = factor(sample(c("a", "b", "c"), n, TRUE), levels = c("a", "b", "c", "d")),
                  flag = runif(n) < 0.5)
  d$y <- 1 + 0.5 * d$x + 2 * (d$g == "b") - 1 * (d$g == "c") + 1.5 * d$flag + rnorm(n, sd = 0.3)
  ls <- coef(lm(y ~ x + g + flag, d))
  rel <- dp_linear_regression(y ~ x + g + flag, d, epsilon = 5, tau = 2, x_range = c(0, 10), beta_max = 20)
  # the unused level keeps its dummy (levels are public, not the values present)
  expect_identical(names(coef(rel)), c("(Intercept)", "x", "gb", "gc", "gd", "flagTRUE"))
  expect_identical(rel$x_range[, c("gb", "gc", "gd", "flagTRUE")],
                   matrix(c(0, 1), 2, 4, dimnames = list(c("lower", "upper"), c("gb", "gc", "gd", "flagTRUE"))))
  expect_identical(rel$xlevels, list(g = c("a", "b", "c", "d")))
  # with n = 2000 and epsilon = 5 the release is near the least-squares fit
  # (sigma = 2 * 2 * 2 * sqrt(6) / 2000 / 5 ~ 0.002 in gradient units)
  shared <- c("(Intercept)", "x", "gb", "gc", "flagTRUE")
  expect_lt(max(abs(coef(rel)[shared] - ls[shared])), 0.1)
  expect_lte(abs(coef(rel)[["gd"]]), 20)
  # predict() uses the release's levels and contrasts
  nd <- data.frame(x = c(2, 8), g = c("c", "a"), flag = c(TRUE, FALSE))
  b <- coef(rel)
  expect_equal(predict(rel, nd), c(b[[1]] + 2 * b[["x"]] + b[["gc"]] + b[["flagTRUE"]], b[[1]] + 8 * b[["x"]]),
               ignore_attr = TRUE)
  expect_match(msg_of(predict(rel, data.frame(x = 1, g = "z", flag = TRUE))), "factor levels among the release's")
  expect_plots_quietly(rel)
  expect_plots_quietly(rel, data = d[1:200, ])
  # an interaction of a factor with a numeric predictor is a numeric column with its own range
  set.seed(13)
  i <- dp_linear_regression(y ~ x * flag, d, epsilon = 5, tau = 2, x_range = list(x = c(0, 10), "x:flagTRUE" = c(0, 10)),
                            beta_max = 20, control = ctl)
  expect_identical(colnames(i$x_range), c("x", "flagTRUE", "x:flagTRUE"))
  expect_identical(i$x_range[, "x:flagTRUE"], c(lower = 0, upper = 10))
  # the contrasts option does not change the dummies (their range stays [0, 1])
  old <- options(contrasts = c("contr.sum", "contr.poly"))
  on.exit(options(old))
  set.seed(8)
  o <- dp_linear_regression(y ~ g, transform(d, g = factor(g, levels = c("a", "b", "c", "d"), ordered = TRUE)),
                            epsilon = 5, tau = 2, beta_max = 20, control = ctl)
  expect_identical(names(coef(o)), c("(Intercept)", "gb", "gc", "gd"))
  # a factor needs no range, and none may be given for it
  expect_match(msg_of(dp_linear_regression(y ~ x + g, d, epsilon = 1, tau = 1, beta_max = 20,
                                           x_range = list(x = c(0, 10), g = c(0, 1)))),
               "`x_range` names `g`, a factor or logical")
  expect_match(msg_of(dp_linear_regression(y ~ g, d, epsilon = 1, tau = 1, beta_max = 20, x_range = c(0, 1))),
               "`x_range` is not used")
  d$s <- as.character(d$g)
  expect_match(msg_of(dp_linear_regression(y ~ x + s, d, epsilon = 1, tau = 1, beta_max = 20, x_range = c(0, 10))),
               "`s` is character.*factor\\(s, levels")
  d$one <- factor(rep("u", n))
  expect_match(msg_of(dp_linear_regression(y ~ x + one, d, epsilon = 1, tau = 1, beta_max = 20, x_range = c(0, 10))),
               "`one` is a factor with fewer than two levels")
})

test_that("missing values are refused unless na.action drops them; n is then the public count of complete rows", {
  d <- cars
  d$speed[c(3, 10)] <- NA
  m <- msg_of(dp_linear_regression(dist ~ speed, d, epsilon = 1, tau = 30, x_range = c(0, 30), beta_max = 200))
  expect_match(m, "missing values (NA)", fixed = TRUE)
  expect_match(m, "na.action = na.omit", fixed = TRUE)
  expect_match(m, "number is then public", fixed = TRUE)
  expect_match(msg_of(dp_linear_regression(dist ~ speed, d, epsilon = 1, tau = 30, x_range = c(0, 30), beta_max = 200,
                                           na.action = na.fail)), "missing values")
  set.seed(9)
  a <- dp_linear_regression(dist ~ speed, d, epsilon = 1, tau = 30, x_range = c(0, 30), beta_max = 200,
                            na.action = na.omit, control = ctl)
  set.seed(9)
  b <- dp_linear_regression(dist ~ speed, d[-c(3, 10), ], epsilon = 1, tau = 30, x_range = c(0, 30), beta_max = 200,
                            control = ctl)
  expect_identical(nobs(a), 48L)
  expect_identical(coef(a), coef(b))
  expect_identical(a$sensitivity, b$sensitivity)
  expect_match(gsub("\\s+", " ", paste(capture.output(print(a)), collapse = " ")),
               "n = 48 complete rows, a count taken as public (na.action = na.omit)", fixed = TRUE)
  expect_identical(dp_linear_regression(dist ~ speed, d, epsilon = 1, tau = 30, x_range = c(0, 30), beta_max = 200,
                                        na.action = "na.exclude", control = ctl)$n, 48L)
  expect_match(msg_of(dp_linear_regression(dist ~ speed, d, epsilon = 1, tau = 30, x_range = c(0, 30), beta_max = 200,
                                           na.action = na.pass)), "`na.action` must be NULL")
  # the user's data drawn beside the release drop the same rows
  pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  expect_silent(plot(a, data = d))
  expect_match(msg_of(plot(b, data = d)), "without missing values (the release was made without na.action)", fixed = TRUE)
})

test_that("private estimates keep the data's dimnames, as frechet_mean() does", {
  P3 <- manifold_spd(3)
  set.seed(10)
  X <- riem_rgaussian(P3, 20, diag(3), 0.2)
  dn <- list(c("DAX", "SMI", "CAC"), c("DAX", "SMI", "CAC"))
  dimnames(X) <- c(dn, list(NULL))
  expect_identical(dimnames(frechet_mean(P3, X)$estimate), dn)
  for (mech in c("laplace", "kng", "gaussian")) {
    r <- if (mech == "gaussian") dp_frechet_mean(P3, X, radius = 3, center = diag(3), mechanism = mech, sigma = 0.3)
         else dp_frechet_mean(P3, X, epsilon = 20, radius = 3, center = diag(3), mechanism = mech, control = if (mech == "kng") ctl)
    expect_identical(dimnames(coef(r)), dn, label = mech)
    expect_null(dimnames(r$center))   # the centre keeps its own (none)
  }
  # a list of named matrices
  L <- lapply(seq_len(20), function(i) X[, , i])
  expect_identical(dimnames(coef(dp_frechet_mean(P3, L, epsilon = 20, radius = 3, center = diag(3)))), dn)
  expect_identical(dimnames(frechet_mean(P3, L)$estimate), dn)
  expect_identical(dimnames(frechet_median(P3, L)$estimate), dn)
  # the list's names label the points, as simplify2array() would
  names(L) <- sprintf("day%02d", seq_along(L))
  expect_identical(rownames(riem_dist_matrix(P3, L, output = "matrix")), names(L))
  # without dimnames in the data, the centre's
  C <- diag(3)
  dimnames(C) <- list(letters[1:3], letters[1:3])
  X0 <- X
  dimnames(X0) <- NULL
  expect_identical(dimnames(coef(dp_frechet_mean(P3, X0, epsilon = 20, radius = 3, center = C))),
                   list(letters[1:3], letters[1:3]))
  # by-row layouts: the data's column names
  S2 <- manifold_sphere(2)
  Y <- riem_rlaplace(S2, 30, c(0, 0, 1), 0.05)
  colnames(Y) <- c("east", "north", "up")
  expect_identical(names(coef(dp_frechet_mean(S2, Y, epsilon = 1, radius = pi / 6, center = c(0, 0, 1)))),
                   c("east", "north", "up"))
})

test_that("geodesic regressions name the covariate as passed", {
  S2 <- manifold_sphere(2)
  q <- datasets::quakes
  fit <- geodesic_regression(S2, q$depth, fiji_quakes)
  expect_identical(colnames(fit$x), "q$depth")
  expect_match(paste(capture.output(print(summary(fit))), collapse = "\n"), "covariates: q$depth", fixed = TRUE)
  depth <- q$depth
  expect_identical(names(summary(geodesic_regression(S2, depth, fiji_quakes))$speeds), "depth")
  # a long expression falls back to "x"
  expect_identical(colnames(geodesic_regression(S2, (q$depth - mean(q$depth)) / stats::sd(q$depth) + 0 * seq_len(1000),
                                                fiji_quakes)$x), "x")
  # a private release keeps the covariate's name (a name only: never a value)
  set.seed(11)
  hours <- runif(30)
  Y <- riem_project(S2, riem_geodesic(S2, c(0, 0, 1), c(0.3, 0.2, 0), hours) + matrix(rnorm(90, sd = 0.02), 30))
  g <- dp_geodesic_regression(S2, hours, Y, epsilon = 2, tau = 0.1, tau_m = 1, x_range = c(0, 1),
                              center = c(0, 0, 1), radius = 0.5, control = ctl)
  expect_identical(g$covariate_name, "hours")
  expect_match(paste(capture.output(print(g)), collapse = "\n"), "per unit of hours", fixed = TRUE)
  g2 <- dp_geodesic_regression(S2, hours * 1, Y, epsilon = 2, tau = 0.1, tau_m = 1, x_range = c(0, 1),
                               center = c(0, 0, 1), radius = 0.5, control = ctl)
  expect_identical(g2$covariate_name, "x")
})

test_that("plots of a private geodesic release label it private and give no R^2", {
  S2 <- manifold_sphere(2)
  set.seed(12)
  hours <- runif(40)
  Y <- riem_project(S2, riem_geodesic(S2, c(0, 0, 1), c(0.3, 0.2, 0), hours) + matrix(rnorm(120, sd = 0.02), 40))
  g <- dp_geodesic_regression(S2, hours, Y, epsilon = 2, tau = 0.1, tau_m = 1, x_range = c(0, 1),
                              center = c(0, 0, 1), radius = 0.5, control = ctl)
  for (txt in list(drawn_text(plot(g)), drawn_text(plot(g, covariate = hours, Y = Y)))) {
    all <- paste(txt, collapse = " | ")
    expect_match(all, "private geodesic", fixed = TRUE)
    expect_match(all, "no R\u00b2", fixed = TRUE)
    expect_match(all, "n = 40", fixed = TRUE)
    expect_no_match(all, "R\u00b2 = NA", fixed = TRUE)
    expect_no_match(all, "fitted geodesic", fixed = TRUE)
  }
  # a fit keeps its labels
  fit_txt <- paste(drawn_text(plot(geodesic_regression(S2, hours, Y))), collapse = " | ")
  expect_match(fit_txt, "fitted geodesic", fixed = TRUE)
  expect_match(fit_txt, "R\u00b2 = 0.", fixed = TRUE)
  # Euclidean release: "private line"
  E2 <- manifold_euclidean(2)
  Z <- cbind(hours, 2 * hours) + matrix(rnorm(80, sd = 0.05), 40)
  ge <- dp_geodesic_regression(E2, hours, Z, epsilon = 2, tau = 0.5, tau_m = 3, x_range = c(0, 1),
                               center = c(0.5, 1), radius = 2, control = ctl)
  et <- paste(drawn_text(plot(ge)), collapse = " | ")
  expect_match(et, "private line", fixed = TRUE)
  expect_no_match(et, "R\u00b2 = NA", fixed = TRUE)
})
