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

test_that("every predict() method takes `newdata` (data frame or vector) and refuses unknown arguments", {
  msg_of <- function(expr) tryCatch({
    force(expr)
    "no error"
  }, error = function(e) conditionMessage(e))
  ctl <- mcmc_control(n_iter = 300, burn_in = 300, verbose = FALSE)
  S2 <- manifold_sphere(2)
  set.seed(3302)
  depth <- runif(30)
  Y <- riem_project(S2, riem_geodesic(S2, c(0, 0, 1), c(0.3, 0.2, 0), depth) + matrix(rnorm(90, sd = 0.02), 30))
  at <- c(0.1, 0.5, 0.9)
  # a geodesic fit: newdata was swallowed by `...` and all n fitted values came back
  fit <- geodesic_regression(S2, depth, Y)
  ref <- predict(fit, newx = at)
  expect_identical(dim(ref), c(3L, 3L))
  expect_identical(predict(fit, newdata = at), ref)
  expect_identical(predict(fit, newdata = data.frame(depth = at, other = 1)), ref)
  expect_identical(predict(fit, newdata = data.frame(z = at)), ref)
  expect_identical(predict(fit, at), ref)
  expect_match(msg_of(predict(fit, newdata = at, newx = at)), "not both")
  expect_match(msg_of(predict(fit, new_data = at)), "not used: `new_data`")
  expect_match(msg_of(predict(fit, at, NULL, 3)), "unnamed extra argument")
  expect_match(msg_of(predict(fit, at, interval = "confidence")), "`interval` is not available")
  expect_match(msg_of(predict(fit, newdata = data.frame(a = at, b = at))), "`newdata` must hold the covariate `depth`")
  expect_match(msg_of(predict(fit, newdata = c(0.1, NA))), "`newdata`")
  # two covariates: newdata's columns by name
  X2 <- cbind(a = runif(30), b = runif(30))
  fit2 <- geodesic_regression(S2, X2, Y)
  expect_identical(predict(fit2, newdata = data.frame(b = 0.7, a = 0.2)), predict(fit2, newx = cbind(0.2, 0.7)))
  # a geodesic release
  g <- dp_geodesic_regression(S2, depth, Y, epsilon = 2, tau = 0.1, tau_m = 1, x_range = c(0, 1),
                              center = c(0, 0, 1), radius = 0.5, control = ctl)
  gref <- predict(g, newx = at)
  expect_identical(predict(g, newdata = at), gref)
  expect_identical(predict(g, at), gref)
  expect_identical(predict(g, newdata = data.frame(depth = at, other = 2)), gref)
  expect_match(msg_of(predict(g, newdata = at, newx = at)), "not both")
  expect_match(msg_of(predict(g, at, type = "response")), "`type`")
  expect_match(msg_of(predict(g, at, se.fit = TRUE)), "`se.fit` is not available")
  expect_match(msg_of(predict(g, newdata = data.frame(a = at, b = at))), "`newdata`.*`depth`")
  # a linear release
  rel <- dp_linear_regression(dist ~ speed, cars, epsilon = 1, tau = 30, x_range = c(0, 30), beta_max = 200,
                              control = ctl)
  lref <- predict(rel, newdata = data.frame(speed = c(10, 20)))
  expect_identical(predict(rel, newdata = c(10, 20)), lref)
  expect_identical(predict(rel, newx = c(10, 20)), lref)
  expect_identical(predict(rel, newx = data.frame(speed = c(10, 20))), lref)
  expect_identical(predict(rel, newx = cbind(speed = c(10, 20))), lref)
  expect_match(msg_of(predict(rel, newdata = data.frame(speed = 1), newx = 1)), "not both")
  expect_match(msg_of(predict(rel, data.frame(speed = 1), interval = "prediction")), "`interval` is not available")
  expect_match(msg_of(predict(rel, data.frame(speed = 1), level = 0.9)), "`level` is not available")
  expect_match(msg_of(predict(rel, data.frame(speed = 1), foo = 1)), "not used: `foo`")
  expect_match(msg_of(predict(rel, data.frame(speed = 1), 3)), "not both")
  two <- dp_linear_regression(mpg ~ wt + hp, mtcars, epsilon = 1, tau = 5, beta_max = 50, control = ctl,
                              x_range = list(wt = c(1, 6), hp = c(50, 350)))
  expect_match(msg_of(predict(two, newdata = c(3, 100))), "`newdata` must be a data frame with the predictors `wt`, `hp`")
})

test_that("dp_frechet_mean() without its ball says what is needed and points to dp_bounds()", {
  S2 <- manifold_sphere(2)
  set.seed(3303)
  X <- riem_rlaplace(S2, 20, c(0, 0, 1), 0.1)
  both <- tryCatch(dp_frechet_mean(S2, X, epsilon = 1), error = identity)
  expect_s3_class(both, "riemdp_error")
  expect_match(conditionMessage(both), "`center` and `radius` are required")
  expect_match(conditionMessage(both), "bounds = dp_bounds()", fixed = TRUE)
  expect_match(conditionMessage(tryCatch(dp_frechet_mean(S2, X, epsilon = 1, radius = 0.5), error = identity)),
               "`center` is required.*dp_bounds")
  expect_match(conditionMessage(tryCatch(dp_frechet_mean(S2, X, epsilon = 1, center = c(0, 0, 1)), error = identity)),
               "`radius` is required.*dp_bounds")
})

test_that("sphere_from_latlon() and sphere_to_latlon(): degrees to unit vectors of S^2 and back, inputs checked", {
  X <- sphere_from_latlon(datasets::quakes$lat, datasets::quakes$long)
  expect_identical(X, fiji_quakes)
  expect_identical(sphere_from_latlon(datasets::quakes[, c("long", "lat")]), fiji_quakes)
  ll <- sphere_to_latlon(X, wrap = 360)
  expect_identical(colnames(ll), c("lat", "long"))
  expect_equal(unname(ll), unname(as.matrix(datasets::quakes[, c("lat", "long")])), tolerance = 1e-12)
  # closed forms: poles, the equator, the date line
  P <- sphere_from_latlon(c(90, -90, 0, 0, 0, 45), c(10, 0, 0, 90, 180, -90))
  expect_equal(unname(P), rbind(c(0, 0, 1), c(0, 0, -1), c(1, 0, 0), c(0, 1, 0), c(-1, 0, 0),
                                c(0, -sqrt(0.5), sqrt(0.5))), tolerance = 1e-15)
  back <- sphere_to_latlon(P)
  expect_equal(unname(back[, "lat"]), c(90, -90, 0, 0, 0, 45), tolerance = 1e-12)
  expect_equal(unname(back[, "long"]), c(10, 0, 0, 90, 180, -90), tolerance = 1e-12)
  expect_equal(unname(sphere_to_latlon(P, wrap = 360)[, "long"]), c(10, 0, 0, 90, 180, 270), tolerance = 1e-12)
  expect_identical(unname(sphere_to_latlon(c(0, 0, 1))[, "long"]), 0)
  expect_identical(dim(sphere_to_latlon(c(0, 0, 1))), c(1L, 2L))
  expect_equal(riem_dist(manifold_sphere(2), sphere_from_latlon(0, 0)[1, ], sphere_from_latlon(0, 30)[1, ]), pi / 6)
  # the RNG is left alone
  set.seed(3304)
  seed <- .Random.seed
  invisible(sphere_to_latlon(sphere_from_latlon(1, 2)))
  expect_identical(.Random.seed, seed)
  # inputs
  expect_error_mentions(sphere_from_latlon(100, 0), c("`lat`", "\\[-90, 90\\]"))
  expect_error_mentions(sphere_from_latlon(0, 400), c("`long`", "360"))
  expect_error_mentions(sphere_from_latlon(c(1, 2), c(1, 2, 3)), c("same length"))
  expect_error_mentions(sphere_from_latlon(NA, 1), "`lat`")
  expect_error_mentions(sphere_from_latlon("1", 1), "`lat`.*numeric")
  expect_error_mentions(sphere_from_latlon(10), "`long` is required")
  expect_error_mentions(sphere_from_latlon(data.frame(a = 1, b = 2)), "columns `lat` and `long`")
  expect_error_mentions(sphere_to_latlon(c(1, 1, 1)), "`X`")
  expect_error_mentions(sphere_to_latlon(c(1, 0)), "`X`")
  expect_error_mentions(sphere_to_latlon(c(0, 0, 1), wrap = 90), "`wrap`")
})

test_that("radius errors say radians; a release answers confint(), vcov(), sigma() and model.matrix() with an error that says why", {
  S2 <- manifold_sphere(2)
  set.seed(3305)
  X <- riem_rlaplace(S2, 20, c(0, 0, 1), 0.1)
  expect_error_mentions(dp_frechet_mean(S2, X, epsilon = 1, center = c(0, 0, 1), radius = 30), c("`radius`", "radians"))
  expect_error_mentions(dp_geodesic_regression(S2, runif(20), X, epsilon = 1, tau = 0.1, tau_m = 1, x_range = c(0, 1),
                                               center = c(0, 0, 1), radius = 30), c("`radius`", "radians"))
  ctl <- mcmc_control(n_iter = 300, burn_in = 300, verbose = FALSE)
  rel <- dp_linear_regression(dist ~ speed, cars, epsilon = 1, tau = 30, x_range = c(0, 30), beta_max = 200,
                              control = ctl)
  fr <- dp_frechet_mean(S2, X, epsilon = 1, radius = 0.5, center = c(0, 0, 1))
  # (a Frechet mean release has confint(): see test-confint.R)
  # (a linear release has confint() with `moments`: see test-confint-linear.R)
  expect_error_mentions(confint(rel), c("`moments` is required", "dp_regression_moments\\(\\)"))
  for (r in list(rel, fr)) {
    expect_error_mentions(vcov(r), c("vcov\\(\\)", "not available for a release"))
    expect_error_mentions(stats::sigma(r), c("sigma\\(\\)", "not available for a release"))
    expect_error_mentions(model.matrix(r), c("model.matrix\\(\\)", "holds no data"))
  }
  expect_error_mentions(model.matrix(rel), "model.matrix\\(formula\\(release\\), data\\)")
  expect_error_mentions(predict(rel, data.frame(speed = 1), interval = "confidence"), "`interval` is not available")
})

test_that("private bounds: count_radius, x_limits and region_radius are checked against what the manifold allows, naming the argument", {
  S2 <- manifold_sphere(2)
  set.seed(3306)
  X <- riem_rgaussian(S2, 500, c(0, 0, 1), 0.1)
  # count_radius = 2 gave a 29-point net and a private ball holding none of the data; >= pi was accepted
  for (cr in c(1, 2, pi, 4)) {
    expect_error_mentions(dp_find_bounds(S2, X, epsilon = 1, bounds = dp_bounds(count_radius = cr)),
                          c("`count_radius`", "largest radius of the ball", "radians"))
    expect_error_mentions(dp_frechet_mean(S2, X, epsilon = 1, radius = 0.5, bounds = dp_bounds(count_radius = cr)),
                          c("`count_radius`", "r\\* = sensitivity_radius_max"))
  }
  # the default still localises
  b <- dp_find_bounds(S2, X, epsilon = 1)
  expect_gt(mean(riem_dist(S2, b$center, X) <= b$radius), 0.5)
  # x_limits errors name x_limits (they named x_range)
  d <- data.frame(x = runif(200), z = runif(200))
  d$y <- d$x + d$z + stats::rnorm(200, sd = 0.1)
  ctl <- mcmc_control(n_iter = 200, burn_in = 200, verbose = FALSE)
  m <- tryCatch(dp_linear_regression(y ~ x + z, d, epsilon = 2, tau = 1, beta_max = 10, control = ctl,
                                     bounds = dp_regression_bounds(x_limits = list(x = c(0, 1)))),
                error = conditionMessage)
  expect_match(m, "`x_limits` must give")
  expect_false(grepl("x_range", sub("`x_limits` must give.*", "", m)))
  # an interaction: its own pair, said in the error and in the help
  m <- tryCatch(dp_linear_regression(y ~ x * z, d, epsilon = 2, tau = 1, beta_max = 10, control = ctl,
                                     bounds = dp_regression_bounds(x_limits = list(x = c(0, 1), z = c(0, 1)))),
                error = conditionMessage)
  expect_match(m, "`x_limits`.*`x:z`.*interaction is a column of its own")
  rd <- function(topic) paste(capture.output(tools::Rd2txt(tools::Rd_db("riemdp")[[paste0(topic, ".Rd")]],
                                                            options = list(underline_titles = FALSE))), collapse = " ")
  expect_match(rd("dp_regression_bounds"), "interaction of numeric predictors")
  expect_match(rd("dp_linear_regression"), "interaction of numeric predictors")
  # a huge region_radius on H^2 and SPD: errors naming region_radius (were "cannot be represented", eigen())
  H2 <- manifold_hyperbolic(2)
  P2 <- manifold_spd(2)
  XH <- riem_rgaussian(H2, 100, c(1, 0, 0), 0.3)
  XP <- riem_rgaussian(P2, 100, diag(2), 0.3)
  for (R in c(800, 1e4, 1e300)) {
    expect_error_mentions(dp_find_bounds(H2, XH, 1, bounds = dp_bounds(region_center = c(1, 0, 0), region_radius = R)),
                          "`region_radius`.*too large")
    expect_error_mentions(dp_frechet_mean(H2, XH, 1, bounds = dp_bounds(region_center = c(1, 0, 0), region_radius = R)),
                          "`region_radius`")
    expect_error_mentions(dp_find_bounds(P2, XP, 1, bounds = dp_bounds(region_center = diag(2), region_radius = R)),
                          "`region_radius`.*too large")
    expect_error_mentions(dp_find_bounds(P2, XP, 1, bounds = dp_bounds(region_center = diag(2), region_radius = R,
                                                                        location = "coarse")), "`region_radius`")
  }
  expect_error_mentions(dp_find_bounds(P2, XP, 1, bounds = dp_bounds(region_center = diag(2), region_radius = 50,
                                                                      location = "coarse")),
                        c("around `region_center`", "smaller `region_radius`"))
})

test_that("plot() of a geodesic release takes the data as `data =` (as the README says), drawing them without warnings", {
  skip_if_not(capabilities("png"))
  S2 <- manifold_sphere(2)
  set.seed(3307)
  x <- runif(40)
  Y <- riem_project(S2, riem_geodesic(S2, c(0, 0, 1), c(0.3, 0.2, 0), x) + matrix(rnorm(120, sd = 0.02), 40))
  rel <- dp_geodesic_regression(S2, x, Y, epsilon = 2, tau = 0.1, tau_m = 1, x_range = c(0, 1), center = c(0, 0, 1),
                                radius = 0.5, control = mcmc_control(n_iter = 300, burn_in = 300, verbose = FALSE))
  draw <- function(...) {
    f <- tempfile(fileext = ".png")
    grDevices::png(f, width = 300, height = 300)
    on.exit(unlink(f))
    expect_silent(out <- plot(rel, ...))
    grDevices::dev.off()
    expect_identical(out, rel)
    unname(tools::md5sum(f))
  }
  with_args <- draw(covariate = x, Y = Y)
  expect_identical(draw(data = list(x = x, Y = Y)), with_args)
  expect_identical(draw(data = list(x, Y)), with_args)
  expect_identical(draw(data = list(covariate = x, Y = Y)), with_args)
  expect_false(identical(draw(), with_args))
  expect_error_mentions(plot(rel, data = list(x = x, Y = Y), covariate = x), "not both")
  expect_error_mentions(plot(rel, data = data.frame(x = x)), "`data` must be a list")
  expect_error_mentions(plot(rel, data = list(a = x, b = Y)), c("`data`", "`Y`"))
})

test_that("a Euclidean response beyond 1e150 is clipped like any other value: a release, never an error (plain and private-bounds routes)", {
  ctl <- mcmc_control(n_iter = 200, burn_in = 200, verbose = FALSE)
  E2 <- manifold_euclidean(2)
  set.seed(3308)
  n <- 500
  x <- runif(n)
  Y <- cbind(x, -x) + matrix(stats::rnorm(2 * n, sd = 0.1), n)
  d <- data.frame(x = x, y = x + stats::rnorm(n, sd = 0.1))
  # the same seed gives the same release whether the record is at 1e150, 1e151 or 1e300:
  # every value beyond 1e150 is clipped to it
  release_at <- function(value, route) {
    Yv <- Y
    Yv[1, ] <- c(value, -value)
    dv <- d
    dv$y[1] <- value
    set.seed(3309)
    r <- switch(route,
      geodesic = dp_geodesic_regression(E2, x, Yv, epsilon = 2, tau = 1, tau_m = 2, x_range = c(0, 1),
                                        center = c(0, 0), radius = 3, control = ctl),
      geodesic_bounds = dp_geodesic_regression(E2, x, Yv, epsilon = 5, tau_m = 2, x_range = c(0, 1), control = ctl,
                                               bounds = dp_regression_bounds(region_center = c(0, 0), region_radius = 10)),
      linear = dp_linear_regression(y ~ x, dv, epsilon = 2, tau = 1, x_range = c(0, 1), beta_max = 10, control = ctl),
      linear_bounds = dp_linear_regression(y ~ x, dv, epsilon = 5, x_range = c(0, 1), control = ctl,
                                           bounds = dp_regression_bounds(y_limits = c(-10, 10))))
    if (inherits(r, "riemdp_linear_release")) coef(r) else unlist(coef(r))
  }
  for (route in c("geodesic", "geodesic_bounds", "linear", "linear_bounds")) {
    at_limit <- release_at(1e150, route)
    expect_true(all(is.finite(at_limit)), info = route)
    expect_identical(release_at(1e151, route), at_limit, info = route)
    expect_identical(release_at(1e300, route), at_limit, info = route)
    expect_identical(release_at(-1e300, route), release_at(-1e150, route), info = route)
  }
})

test_that("the diagnostic chains of a KNG release start inside the ball whatever the public init", {
  S2 <- manifold_sphere(2)
  c0 <- c(0, 0, 1)
  radius <- 0.5
  set.seed(3310)
  X <- riem_rgaussian(S2, 200, c0, 0.1)
  # public inits in the ball, near its edge: the extra starts were at radius/2 around init, outside the ball
  inits <- rbind(riem_exp(S2, c0, c(0.45, 0, 0)), riem_exp(S2, c0, c(0, -0.49, 0)), riem_exp(S2, c0, c(0.3, 0.3, 0)))
  for (i in seq_len(nrow(inits))) {
    st <- riemdp:::kng_chain_starts(S2, inits[i, ], radius, 1, 0L, 4L, around = c0)
    expect_equal(st$p[, 1], inits[i, ])
    expect_true(all(riem_dist(S2, c0, t(st$p)) < radius))
    rel <- dp_frechet_mean(S2, X, epsilon = 1, radius = radius, center = c0, mechanism = "kng", method = "mh",
                           control = mcmc_control(init = inits[i, ], n_iter = 300, burn_in = 300, verbose = FALSE),
                           diagnostics = TRUE)
    expect_s3_class(rel, "riemdp_frechet_release")
    expect_lte(riem_dist(S2, c0, rel$estimate), radius)
  }
  # the same starts with the centre as init (no change for the default start)
  a <- riemdp:::kng_chain_starts(S2, c0, radius, 1, 1L, 4L)
  b <- riemdp:::kng_chain_starts(S2, c0, radius, 1, 1L, 4L, around = c0)
  expect_identical(a, b)
  # the starts use no randomness
  set.seed(3311)
  seed <- .Random.seed
  invisible(riemdp:::kng_chain_starts(S2, inits[1, ], radius, 1, 1L, 4L, around = c0))
  expect_identical(.Random.seed, seed)
})

test_that("bound_to_ball() always runs the clip: the same code path whether or not a point lies outside", {
  # structure, not timing: count the calls of the compiled clip in a release
  # whose data all lie inside the ball, and in one with a record at the antipode
  ns <- asNamespace("riemdp")
  calls <- 0L
  clip <- get("priv_clip_to_ball", envir = ns)
  counting <- function(...) {
    calls <<- calls + 1L
    clip(...)
  }
  unlockBinding("priv_clip_to_ball", ns)
  assign("priv_clip_to_ball", counting, envir = ns)
  on.exit({
    assign("priv_clip_to_ball", clip, envir = ns)
    lockBinding("priv_clip_to_ball", ns)
  })
  S2 <- manifold_sphere(2)
  set.seed(3312)
  X <- riem_rgaussian(S2, 50, c(0, 0, 1), 0.05)
  far <- rbind(X[-1, ], c(0, 0, -1))
  counts <- c()
  for (data in list(inside = X, antipode = far)) {
    calls <- 0L
    for (mech in c("laplace", "kng")) {
      set.seed(3313)
      r <- dp_frechet_mean(S2, data, epsilon = 1, radius = 0.5, center = c(0, 0, 1), outside = "clip", mechanism = mech,
                           method = if (mech == "kng") "mh" else "auto",
                           control = mcmc_control(n_iter = 100, burn_in = 100, verbose = FALSE))
    }
    counts <- c(counts, calls)
  }
  expect_identical(counts, c(2L, 2L))
  # and the points inside come back as they are (the releases are those of the unclipped data)
  B <- riemdp:::bound_to_ball(S2, list(x = X, n = 50L, by_row = TRUE), list(x = c(0, 0, 1), n = 1L, by_row = TRUE),
                              0.5, "clip", NULL)
  expect_identical(matrix(B$x, 50), matrix(as.double(X), 50))
})

test_that("an object holding chain diagnostics is marked at creation: budgets and prints refuse it whatever its fields are called", {
  ctl <- mcmc_control(n_iter = 200, burn_in = 200, verbose = FALSE)
  S2 <- manifold_sphere(2)
  set.seed(3314)
  X <- riem_rgaussian(S2, 100, c(0, 0, 1), 0.1)
  fr <- dp_frechet_mean(S2, X, epsilon = 1, radius = 0.5, center = c(0, 0, 1), mechanism = "kng", method = "mh",
                        control = ctl, diagnostics = TRUE)
  x <- runif(100)
  g <- dp_geodesic_regression(S2, x, X, epsilon = 2, tau = 0.1, tau_m = 1, x_range = c(0, 1), center = c(0, 0, 1),
                              radius = 0.5, control = ctl, diagnostics = TRUE)
  lin <- dp_linear_regression(dist ~ speed, cars, epsilon = 1, tau = 30, x_range = c(0, 30), beta_max = 200,
                              control = ctl, diagnostics = TRUE)
  tampered <- function(r) {
    k <- which(names(r) == "diagnostics")
    renamed <- r
    names(renamed)[k] <- "chain_info"
    in_attr <- r
    attr(in_attr, "extra") <- r$diagnostics
    in_attr$diagnostics <- NULL
    in_control <- r
    in_control$control$diag <- r$diagnostics
    in_control[["diagnostics"]] <- NULL
    copied <- r
    copied$other <- r$diagnostics
    copied$diagnostics <- NULL
    list(as_is = r, renamed = renamed, in_attr = in_attr, in_control = in_control, copied = copied)
  }
  for (r in list(fr, g, lin)) {
    for (nm in names(tampered(r))) {
      t <- tampered(r)[[nm]]
      expect_error(dp_spend(dp_budget(epsilon = 10), t), "holds chain diagnostics", info = nm)
      expect_error(dp_budget(t), "holds chain diagnostics", info = nm)
      expect_match(paste(capture.output(print(t)), collapse = " "), "for the private values only", info = nm)
    }
    # the documented way drops them: then a plain release, accounted
    clean <- r
    clean$diagnostics <- NULL
    expect_null(attr(clean, "riemdp_diagnostics"))
    b <- dp_spend(dp_budget(epsilon = 10), clean)
    expect_identical(nrow(b$entries), 1L)
    expect_false(grepl("for the private values only", paste(capture.output(print(clean)), collapse = " ")))
    clean2 <- r
    clean2[["diagnostics"]] <- NULL
    expect_identical(clean2, clean)
  }
  # a release without diagnostics carries no mark
  plain <- dp_frechet_mean(S2, X, epsilon = 1, radius = 0.5, center = c(0, 0, 1), mechanism = "kng", method = "mh",
                           control = ctl)
  expect_null(attr(plain, "riemdp_diagnostics"))
})

test_that("prints and help pages cite what an installed package's user can open, not bench/ scripts of the sources", {
  db <- tools::Rd_db("riemdp")
  text <- vapply(db, function(rd) paste(capture.output(tools::Rd2txt(rd, options = list(underline_titles = FALSE))),
                                        collapse = "\n"), character(1))
  expect_false(any(grepl("bench/", text, fixed = TRUE)), info = paste(names(db)[grepl("bench/", text, fixed = TRUE)], collapse = ", "))
  expect_false(any(grepl("package sources", text, fixed = TRUE)))
  # the articles they cite are installed with the package (or in its sources, when installed without vignettes)
  S2 <- manifold_sphere(2)
  set.seed(3315)
  X <- riem_rgaussian(S2, 50, c(0, 0, 1), 0.1)
  rel <- dp_frechet_mean(S2, X, epsilon = 1, radius = 0.5, center = c(0, 0, 1), mechanism = "kng", method = "mh",
                         control = mcmc_control(n_iter = 100, burn_in = 100, verbose = FALSE))
  out <- gsub("\\s+", " ", paste(capture.output(print(rel)), collapse = " "))
  expect_false(grepl("bench/", out, fixed = TRUE))
  expect_match(out, 'vignette("benchmarks", package = "riemdp")', fixed = TRUE)
  g <- dp_geodesic_regression(S2, runif(50), X, epsilon = 2, tau = 0.1, tau_m = 1, x_range = c(0, 1),
                              center = c(0, 0, 1), radius = 0.5,
                              control = mcmc_control(n_iter = 100, burn_in = 100, verbose = FALSE))
  expect_false(grepl("bench/", paste(capture.output(print(g), print(summary(g))), collapse = " "), fixed = TRUE))
  vig <- test_path("..", "..", "vignettes", "benchmarks.Rmd")
  if (file.exists(vig)) expect_true(any(grepl("^#+ The conformance matrix", readLines(vig, encoding = "UTF-8"))))
})
