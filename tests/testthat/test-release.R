# dp_frechet_mean(): structure of the release (and what it must not hold),
# printed guarantees, sigma from epsilon, the KNG and Gaussian mechanisms,
# points outside the ball, and bad input.

release_fields <- c("estimate", "manifold", "mechanism", "guarantee", "guarantee_kind", "epsilon", "mu", "delta",
                    "epsilon_total", "rejection", "sigma", "sensitivity", "normalizer", "n", "radius", "center",
                    "outside", "sampler", "control", "diagnostics", "call")

# Every numeric vector inside x (list elements, attributes, call arguments),
# with its path; environments and functions are reported too (except the
# function at the head of a call, which do.call() puts there).
release_leaves <- function(x) {
  out <- list()
  walk <- function(v, path, head = FALSE) {
    if (is.environment(v) || is.function(v)) {
      if (!head) out[[length(out) + 1L]] <<- list(path = path, value = v)
      return(invisible())
    }
    if (is.numeric(v)) out[[length(out) + 1L]] <<- list(path = path, value = v)
    if (is.list(v) || is.call(v) || is.pairlist(v)) {
      lst <- as.list(v)
      for (i in seq_along(lst)) walk(lst[[i]], paste0(path, "[[", i, "]]"), head = is.call(v) && i == 1L)
    }
    at <- attributes(v)
    for (a in setdiff(names(at), c("names", "dim", "dimnames", "class"))) walk(at[[a]], paste0(path, "@", a))
  }
  walk(unclass(x), "release")
  out
}

# The single points a numeric leaf may hold: itself, the rows of a matrix of
# points, or the slices of a k x k x n / k x 2 x n array.
leaf_points <- function(M, v) {
  pts <- list(as.numeric(v))
  d <- dim(v)
  if (is.null(M$point_shape) && length(d) == 2L && d[2] == M$ambient)
    pts <- c(pts, lapply(seq_len(d[1]), function(i) v[i, ]))
  if (!is.null(M$point_shape) && length(d) == 3L && all(d[1:2] == M$point_shape))
    pts <- c(pts, lapply(seq_len(d[3]), function(i) v[, , i]))
  pts
}

# Fails (one expectation) when any numeric part of the release is (a
# representative of) one of the secret points (the non-private mean, or a
# data point), or when the release carries an environment or a function.
expect_no_secret <- function(M, rel, secrets, label) {
  problems <- character(0)
  for (lf in release_leaves(rel)) {
    if (!is.numeric(lf$value)) {
      problems <- c(problems, sprintf("%s is an environment or function", lf$path))
      next
    }
    for (v in leaf_points(M, lf$value)) for (j in seq_along(secrets)) {
      s <- secrets[[j]]
      v <- as.numeric(v)
      if (length(v) != length(s) || !all(is.finite(v))) next
      same <- max(abs(v - as.numeric(s))) < 1e-8
      if (!same && M$type == "kendall") {
        d <- tryCatch(riem_dist(M, matrix(v, M$k, 2), s), error = function(e) Inf)
        same <- d < 1e-8
      }
      if (same) problems <- c(problems, sprintf("%s holds secret point %s (%s)", lf$path, names(secrets)[j],
                                                paste(format(v, digits = 6), collapse = ", ")))
    }
  }
  expect(length(problems) == 0, sprintf("%s: %s", label, paste(unique(problems), collapse = "; ")))
  invisible(NULL)
}

release_cases <- function() {
  K5c <- ref_preshape(matrix(c(0, 1, 2, 1, 0, 0, 0, 0, 1, 1.5), 5, 2))
  list(
    list(name = "sphere(2) laplace exact", M = manifold_sphere(2), c = c(0.48, -0.6, 0.64), radius = pi / 8, n = 8,
         args = list(epsilon = 1), sampler = "exact"),
    # beyond the exact SPD sampler's release range (proven acceptance below
    # 1e-6: sigma > 0.93 on spd(5)): Metropolis-Hastings on the log-eigenvalues
    list(name = "spd(5) gaussian eigen-mh", M = manifold_spd(5), c = diag(c(1, 2, 1.5, 1, 0.5)), radius = 0.8,
         n = 10, args = list(mechanism = "gaussian", sigma = 1), sampler = "eigen-mh"),
    list(name = "sphere(2) laplace mh", M = manifold_sphere(2), c = c(0.48, -0.6, 0.64), radius = pi / 8, n = 8,
         args = list(epsilon = 1, method = "mh"), sampler = "mh"),
    list(name = "sphere(2) kng", M = manifold_sphere(2), c = c(0.48, -0.6, 0.64), radius = pi / 8, n = 8,
         args = list(epsilon = 1, mechanism = "kng"), sampler = "exact-rejection"),
    list(name = "sphere(2) kng mh", M = manifold_sphere(2), c = c(0.48, -0.6, 0.64), radius = pi / 8, n = 8,
         args = list(epsilon = 1, mechanism = "kng", method = "mh"), sampler = "kng-chain"),
    list(name = "sphere(2) gaussian", M = manifold_sphere(2), c = c(0.48, -0.6, 0.64), radius = pi / 8, n = 8,
         args = list(mechanism = "gaussian", sigma = 0.2), sampler = "exact"),
    list(name = "spd(2) laplace", M = manifold_spd(2), c = matrix(c(2, 0.5, 0.5, 1), 2, 2), radius = 1, n = 10,
         args = list(epsilon = 1), sampler = "exact"),
    # beyond the exact SPD sampler's release range (proven acceptance below
    # 1e-6: sigma > 0.93 on spd(5)): Metropolis-Hastings on the log-eigenvalues
    list(name = "spd(5) gaussian eigen-mh", M = manifold_spd(5), c = diag(c(1, 2, 1.5, 1, 0.5)), radius = 0.8,
         n = 10, args = list(mechanism = "gaussian", sigma = 1), sampler = "eigen-mh"),
    list(name = "kendall(5) laplace", M = manifold_kendall(5), c = K5c, radius = 0.3, n = 10,
         args = list(epsilon = 2), sampler = "exact"),
    list(name = "hyperbolic(2) laplace", M = manifold_hyperbolic(2), c = c(sqrt(1 + 0.5^2 + 0.3^2), 0.5, -0.3),
         radius = 1, n = 10, args = list(epsilon = 1), sampler = "exact"),
    list(name = "euclidean(3) gaussian", M = manifold_euclidean(3), c = c(1, -2, 0.5), radius = 2, n = 6,
         args = list(mechanism = "gaussian", sigma = 0.5), sampler = "exact")
  )
}

# A release whose call holds symbols (as when typed at the console).
make_release <- function(cs, X, ...) {
  do.call("dp_frechet_mean", c(list(quote(cs$M), quote(X), radius = cs$radius, center = quote(cs$c)), cs$args, list(...)))
}

ball_data <- function(cs) stack_points(cs$M, rand_ball_points(cs$M, cs$c, cs$n, 0.95 * cs$radius, boundary = 0.3))

norm_ws <- function(x) gsub("\\s+", " ", paste(x, collapse = " "))

test_that("releases have the documented class and fields, and the documented values", {
  set.seed(31)
  for (cs in release_cases()) {
    X <- ball_data(cs)
    rel <- do.call(dp_frechet_mean, c(list(quote(cs$M), quote(X), radius = cs$radius, center = quote(cs$c)), cs$args))
    lab <- sprintf("[%s]", cs$name)
    expect_identical(class(rel), c("riemdp_frechet_release", "riemdp_release"), label = paste(lab, "class"))
    expect_setequal(names(unclass(rel)), release_fields)
    expect_identical(length(unclass(rel)), length(release_fields), label = paste(lab, "number of fields"))
    mech <- if (is.null(cs$args$mechanism)) "laplace" else cs$args$mechanism
    expect_identical(rel$mechanism, mech, label = paste(lab, "mechanism"))
    expect_identical(rel$guarantee, if (mech == "gaussian") "mu-GDP" else if (cs$sampler == "exact-rejection") "(epsilon, delta)-DP" else "epsilon-DP",
                     label = paste(lab, "guarantee"))
    expect_identical(rel$guarantee_kind, switch(cs$sampler, exact = "exact", `exact-rejection` = "exact-rejection", "empirical-chain"),
                     label = paste(lab, "guarantee kind"))
    expect_identical(rel$sampler, cs$sampler, label = paste(lab, "sampler"))
    expect_equal(rel$n, cs$n, label = paste(lab, "n"))
    expect_equal(rel$radius, cs$radius, label = paste(lab, "radius"))
    expect_identical(rel$outside, "error", label = paste(lab, "outside"))
    expect_identical(rel$normalizer, "conservative", label = paste(lab, "normalizer"))
    expect_identical(rel$manifold, cs$M, label = paste(lab, "manifold"))
    expect_same_point(cs$M, rel$center, cs$c, 1e-12, label = paste(lab, "center"))
    expect_on_manifold(cs$M, rel$estimate, paste(lab, "estimate"))
    expect_identical(n_points(cs$M, rel$estimate), 1L, label = paste(lab, "one estimate"))
    expect_identical(coef(rel), rel$estimate, label = paste(lab, "coef()"))
    if (cs$sampler %in% c("exact", "exact-rejection")) expect_null(rel$control, label = paste(lab, "control of an exact draw"))
    else expect_true(is.list(rel$control) && all(c("n_iter", "burn_in") %in% names(rel$control)), label = paste(lab, "control"))
    if (mech == "gaussian") {
      expect_true(is.na(rel$epsilon), label = paste(lab, "epsilon of the Gaussian mechanism"))
      expect_equal(rel$sigma, cs$args$sigma, label = paste(lab, "sigma"))
      expect_equal(rel$sensitivity, sensitivity_frechet_mean(cs$M, cs$n, cs$radius), label = paste(lab, "sensitivity"))
    } else if (mech == "kng") {
      Dg <- sensitivity_frechet_gradient(cs$M, cs$n, cs$radius)
      expect_equal(rel$sensitivity, Dg, label = paste(lab, "sensitivity"))
      expect_equal(rel$sigma, 2 * Dg / cs$args$epsilon, label = paste(lab, "sigma = 2 Delta_g / epsilon"))
    } else {
      D <- sensitivity_frechet_mean(cs$M, cs$n, cs$radius)
      expect_equal(rel$sensitivity, D, label = paste(lab, "sensitivity"))
      expect_equal(rel$sigma, 2 * D / cs$args$epsilon, label = paste(lab, "sigma = 2 Delta / epsilon"))
      expect_equal(rel$epsilon, cs$args$epsilon, label = paste(lab, "epsilon"))
    }
  }
})

test_that("a release never holds the non-private mean", {
  set.seed(32)
  for (cs in release_cases()) {
    X <- ball_data(cs)
    rel <- make_release(cs, X)
    fm <- frechet_mean(cs$M, X)$estimate
    expect_gt(riem_dist(cs$M, rel$estimate, fm), 1e-6)
    data_pts <- lapply(seq_len(cs$n), function(i) point_i(cs$M, X, i))
    names(data_pts) <- paste("data point", seq_len(cs$n))
    expect_no_secret(cs$M, rel, c(list(mean = fm), data_pts), sprintf("[%s]", cs$name))
    expect_no_secret(cs$M, summary(rel), list(mean = fm), sprintf("[%s] summary", cs$name))
  }
  # the check itself works: a release with the mean slipped in is caught
  cs <- release_cases()[[1]]
  X <- ball_data(cs)
  rel <- make_release(cs, X)
  bad <- unclass(rel)
  bad$extra <- list(footprint = frechet_mean(cs$M, X)$estimate)
  expect_failure(expect_no_secret(cs$M, bad, list(mean = frechet_mean(cs$M, X)$estimate), "planted"))
})

test_that("a release made through do.call() holds neither the data nor the mean", {
  # sys.call() under do.call() holds the evaluated arguments, i.e. the data;
  # with n = 1 the data point is the non-private mean.
  S2 <- manifold_sphere(2)
  north <- c(0, 0, 1)
  set.seed(33)
  X <- stack_points(S2, rand_ball_points(S2, north, 5, 0.3))
  rel <- do.call(dp_frechet_mean, list(S2, X, epsilon = 1, radius = 0.35, center = north))
  secrets <- c(list(mean = frechet_mean(S2, X)$estimate), lapply(1:5, function(i) X[i, ]))
  names(secrets)[-1] <- paste("data point", 1:5)
  expect_no_secret(S2, rel, secrets, "do.call release")
  x1 <- X[1, , drop = FALSE]
  rel1 <- do.call(dp_frechet_mean, list(S2, x1, epsilon = 1, radius = 0.35, center = north))
  expect_no_secret(S2, rel1, list(mean = frechet_mean(S2, x1)$estimate), "do.call release, n = 1")
})

test_that("print() and summary() state the guarantee, sigma and the sampler", {
  set.seed(34)
  for (cs in release_cases()) {
    X <- ball_data(cs)
    rel <- make_release(cs, X)
    lab <- sprintf("[%s]", cs$name)
    out <- norm_ws(capture.output(res <- print(rel)))
    expect_identical(res, rel, label = paste(lab, "print returns its argument"))
    sm <- norm_ws(capture.output(print(summary(rel))))
    expect_s3_class(summary(rel), "summary.riemdp_release")
    for (txt in list(out, sm)) {
      expect_match(txt, if (rel$guarantee == "(epsilon, delta)-DP") "(epsilon', delta)-DP" else rel$guarantee, fixed = TRUE,
                   label = paste(lab, "guarantee printed"))
      sig_re <- paste0("sigma [^;]*= ", gsub(".", "\\.", format(rel$sigma, digits = 4), fixed = TRUE), "([^0-9]|$)")
      expect_match(txt, sig_re, label = paste(lab, "sigma printed"))
      expect_match(txt, if (cs$sampler %in% c("exact", "exact-rejection")) "exact" else "Metropolis", fixed = TRUE,
                   label = paste(lab, "sampler printed"))
      expect_match(txt, format(rel$sensitivity, digits = 4), fixed = TRUE, label = paste(lab, "sensitivity printed"))
      if (rel$guarantee == "epsilon-DP")
        expect_match(txt, paste0(format(rel$epsilon, digits = 4), "-DP"), fixed = TRUE, label = paste(lab, "epsilon printed"))
    }
    expect_false(grepl("mu-GDP", out, fixed = TRUE) && rel$guarantee == "epsilon-DP")
    expect_false(grepl("epsilon-DP", out, fixed = TRUE) && rel$guarantee == "mu-GDP")
  }
})

test_that("Gaussian mechanism on Euclidean space: mu = Delta/sigma is stated", {
  E3 <- manifold_euclidean(3)
  set.seed(35)
  X <- matrix(rnorm(18, sd = 0.3), 6, 3)
  for (s in c(0.5, 2)) {
    rel <- dp_frechet_mean(E3, X, radius = 2, center = c(0, 0, 0), mechanism = "gaussian", sigma = s)
    D <- 2 * 2 / 6
    expect_equal(rel$sensitivity, D)
    expect_identical(rel$guarantee, "mu-GDP")
    out <- norm_ws(capture.output(print(rel)))
    # printed rounded up (issue 19): 1/3 shows as 0.3334
    shown <- riemdp:::format_guarantee(rel$mu, 4)
    expect_gte(as.numeric(shown), D / s)
    expect_match(out, sprintf("mu = Delta/sigma = %s", shown), fixed = TRUE)
    expect_match(norm_ws(capture.output(print(summary(rel)))), sprintf("mu = Delta/sigma = %s", shown), fixed = TRUE)
  }
  # the law of the Euclidean Gaussian release: N(mean, sigma^2 I)
  set.seed(36)
  est <- t(replicate(400, dp_frechet_mean(E3, X, radius = 2, center = c(0, 0, 0), mechanism = "gaussian", sigma = 0.5)$estimate))
  z <- sweep(est, 2, colMeans(X)) / 0.5
  p <- suppressWarnings(ks.test(as.vector(z), "pnorm")$p.value)
  expect(p > 0.001, sprintf("Euclidean Gaussian release: KS of standardised coordinates p %.3g", p))
  # on the sphere, mu comes from gdp_mu() (test-release-gdp.R), not Delta/sigma
  S2 <- manifold_sphere(2)
  rel <- dp_frechet_mean(S2, rbind(c(0, 0, 1)), radius = 0.3, center = c(0, 0, 1), mechanism = "gaussian", sigma = 0.3)
  expect_false(grepl("Delta/sigma", norm_ws(capture.output(print(rel))), fixed = TRUE))
  expect_match(norm_ws(capture.output(print(rel))), "(gdp_mu()", fixed = TRUE)
})

test_that("sigma = 2 Delta/epsilon (conservative) and Delta/epsilon (footprint_free)", {
  S2 <- manifold_sphere(2)
  north <- c(0, 0, 1)
  set.seed(37)
  X <- stack_points(S2, rand_ball_points(S2, north, 12, 0.299))
  D <- sensitivity_frechet_mean(S2, 12, 0.3)
  for (eps in c(0.3, 1, 4)) {
    a <- dp_frechet_mean(S2, X, epsilon = eps, radius = 0.3, center = north)
    b <- dp_frechet_mean(S2, X, epsilon = eps, radius = 0.3, center = north, normalizer = "footprint_free")
    expect_equal(a$sigma, 2 * D / eps, tolerance = 1e-14)
    expect_equal(b$sigma, D / eps, tolerance = 1e-14)
    expect_identical(b$normalizer, "footprint_free")
    expect_match(norm_ws(capture.output(print(a))), "2*Delta/epsilon", fixed = TRUE)
    expect_match(norm_ws(capture.output(print(b))), "footprint-free", fixed = TRUE)
  }
  # KNG: 2 Delta_g / epsilon, and footprint_free is refused (for Gaussian too)
  k <- dp_frechet_mean(S2, X, epsilon = 1, radius = 0.3, center = north, mechanism = "kng")
  expect_equal(k$sigma, 2 * sensitivity_frechet_gradient(S2, 12, 0.3), tolerance = 1e-14)
  expect_error_mentions(dp_frechet_mean(S2, X, epsilon = 1, radius = 0.3, center = north, mechanism = "kng",
                                        normalizer = "footprint_free"), "footprint_free")
  expect_error_mentions(dp_frechet_mean(S2, X, radius = 0.3, center = north, mechanism = "gaussian", sigma = 0.2,
                                        normalizer = "footprint_free"), "footprint_free")
})

test_that("KNG releases stay in the public ball and centre on the data", {
  S2 <- manifold_sphere(2)
  north <- c(0, 0, 1)
  set.seed(38)
  X <- stack_points(S2, rand_ball_points(S2, north, 20, 0.299))
  est <- t(replicate(60, dp_frechet_mean(S2, X, epsilon = 5, radius = 0.3, center = north, mechanism = "kng")$estimate))
  d <- riem_dist(S2, north, est)
  expect_true(all(d <= 0.3 + 1e-12))
  # with epsilon large the releases concentrate near the Frechet mean
  expect_lt(mean(riem_dist(S2, frechet_mean(S2, X)$estimate, est)), mean(d))
})

# Clip points of X (a list of single points) to B_r(c) along the geodesic to
# c, in plain R.
clip_plain <- function(M, pts, c, r) {
  lapply(pts, function(x) {
    d <- ref_dist(M, c, x)
    if (d <= r) return(x)
    switch(M$type,
      sphere = {
        w <- x - sum(c * x) * c
        cos(r) * c + sin(r) * w / vec_norm(w)
      },
      spd = {
        h <- sym_sqrt(c)
        hi <- sym_isqrt(c)
        h %*% sym_exp((r / d) * sym_log(hi %*% x %*% hi)) %*% h
      }
    )
  })
}

test_that("outside = 'error' names `X`; 'clip' equals the release on explicitly clipped data", {
  cases <- list(
    list(M = manifold_sphere(2), c = c(0.48, -0.6, 0.64), r = 0.3, eps = 1),
    list(M = manifold_spd(2), c = matrix(c(2, 0.5, 0.5, 1), 2, 2), r = 0.8, eps = 2)
  )
  set.seed(39)
  for (cs in cases) {
    lab <- cs$M$type
    pts <- rand_ball_points(cs$M, cs$c, 6, 0.9 * cs$r, boundary = 0)
    pts[[2]] <- point_at(cs$M, cs$c, rand_tangent(cs$M, cs$c), 1.6 * cs$r)
    pts[[5]] <- point_at(cs$M, cs$c, rand_tangent(cs$M, cs$c), 2.5 * cs$r)
    X <- stack_points(cs$M, pts)
    Xc <- stack_points(cs$M, clip_plain(cs$M, pts, cs$c, cs$r))
    expect_close(riem_dist(cs$M, cs$c, Xc), pmin(riem_dist(cs$M, cs$c, X), cs$r), 1e-10, label = paste(lab, "plain clipping"))
    expect_error_mentions(dp_frechet_mean(cs$M, X, epsilon = cs$eps, radius = cs$r, center = cs$c), c("`X`", "outside"))
    expect_error_mentions(dp_frechet_mean(cs$M, X, epsilon = cs$eps, radius = cs$r, center = cs$c, mechanism = "kng"), "`X`")
    for (mech in c("laplace", "gaussian")) {
      args <- if (mech == "laplace") list(epsilon = cs$eps) else list(mechanism = "gaussian", sigma = 0.3)
      set.seed(40)
      a <- do.call(dp_frechet_mean, c(list(cs$M, X, radius = cs$r, center = cs$c, outside = "clip"), args))
      set.seed(40)
      # the clipped points sit on the boundary up to rounding: a radius larger
      # by 1e-10 (relative) keeps outside = "error" from tripping on them
      b <- do.call(dp_frechet_mean, c(list(cs$M, Xc, radius = cs$r * (1 + 1e-10), center = cs$c), args))
      expect_identical(a$outside, "clip")
      expect_close(a$estimate, b$estimate, 1e-7, label = sprintf("%s %s: clipped release vs release on clipped data", lab, mech))
      # and it is not the release on the unclipped data (same seed, larger ball)
      set.seed(40)
      u <- do.call(dp_frechet_mean, c(list(cs$M, X, radius = 2.6 * cs$r, center = cs$c), args))
      expect_false(isTRUE(all.equal(u$estimate, a$estimate)))
    }
    # the clipped release keeps the sensitivity of the declared ball
    expect_equal(a$sensitivity, sensitivity_frechet_mean(cs$M, 6, cs$r))
    # data inside the ball: clip changes nothing
    Xin <- stack_points(cs$M, pts[-c(2, 5)])
    set.seed(41)
    a <- dp_frechet_mean(cs$M, Xin, epsilon = cs$eps, radius = cs$r, center = cs$c, outside = "clip")
    set.seed(41)
    b <- dp_frechet_mean(cs$M, Xin, epsilon = cs$eps, radius = cs$r, center = cs$c)
    expect_identical(a$estimate, b$estimate)
  }
})

test_that("dp_frechet_mean refuses bad input", {
  S2 <- manifold_sphere(2)
  north <- c(0, 0, 1)
  set.seed(42)
  X <- stack_points(S2, rand_ball_points(S2, north, 5, 0.299))
  dp <- function(...) dp_frechet_mean(S2, X, ...)
  for (e in list(0, -1, NA, NA_real_, NaN, Inf, c(1, 2), "1"))
    expect_error_mentions(dp(epsilon = e, radius = 0.3, center = north), "`epsilon`")
  expect_error(dp(radius = 0.3, center = north))  # epsilon missing
  # the radius: at or beyond r*, or not a positive number
  expect_error_mentions(dp(epsilon = 1, radius = pi / 4, center = north), "`radius`")
  expect_error_mentions(dp(epsilon = 1, radius = 1, center = north, outside = "clip"), "`radius`")
  for (r in list(0, -0.1, NA, Inf)) expect_error_mentions(dp(epsilon = 1, radius = r, center = north), "`radius`")
  K5 <- manifold_kendall(5)
  Kc <- ref_preshape(matrix(c(0, 1, 2, 1, 0, 0, 0, 0, 1, 1.5), 5, 2))
  KX <- stack_points(K5, rand_ball_points(K5, Kc, 5, 0.199))
  expect_error_mentions(dp_frechet_mean(K5, KX, epsilon = 1, radius = pi / 8, center = Kc), "`radius`")
  # data: NaN, off the manifold, no points
  Xn <- X
  Xn[2, 1] <- NaN
  expect_error_mentions(dp_frechet_mean(S2, Xn, epsilon = 1, radius = 0.3, center = north), "`X`")
  Xo <- X
  Xo[1, ] <- Xo[1, ] * 1.1
  expect_error_mentions(dp_frechet_mean(S2, Xo, epsilon = 1, radius = 0.3, center = north), "`X`")
  expect_error(dp_frechet_mean(S2, X[0, , drop = FALSE], epsilon = 1, radius = 0.3, center = north))
  # centre
  expect_error_mentions(dp(epsilon = 1, radius = 0.3, center = rbind(north, north)), "`center`")
  expect_error_mentions(dp(epsilon = 1, radius = 0.3, center = c(0, 0, 2)), "`center`")
  # sigma: needed by the Gaussian mechanism, refused by the others
  expect_error_mentions(dp(radius = 0.3, center = north, mechanism = "gaussian"), "`sigma`")
  for (s in list(0, -1, NA_real_, Inf)) expect_error_mentions(dp(radius = 0.3, center = north, mechanism = "gaussian", sigma = s), "`sigma`")
  expect_error_mentions(dp(epsilon = 1, radius = 0.3, center = north, sigma = 0.2), "`sigma`")
  # choices
  expect_error(dp(epsilon = 1, radius = 0.3, center = north, mechanism = "exponential"))
  expect_error(dp(epsilon = 1, radius = 0.3, center = north, outside = "drop"))
  expect_error(dp(epsilon = 1, radius = 0.3, center = north, normalizer = "tight"))
  expect_error(dp(epsilon = 1, radius = 0.3, center = north, method = "gibbs"))
  expect_error_mentions(dp(epsilon = 1, radius = 0.3, center = north, control = list(burn_in = 10)), "`control`")
  expect_error_mentions(dp_frechet_mean(list(type = "sphere"), X, epsilon = 1, radius = 0.3, center = north), "`M`")
  # the Laplace law must exist for sigma = 2 Delta/epsilon
  H3 <- manifold_hyperbolic(3)
  o <- c(1, 0, 0, 0)
  HX <- stack_points(H3, rand_ball_points(H3, o, 4, 0.99))
  expect_error_mentions(dp_frechet_mean(H3, HX, epsilon = 1, radius = 1, center = o), c("sigma", "0\\.5"))
  expect_error_mentions(dp_frechet_mean(H3, HX, epsilon = 1, radius = 1, center = o, normalizer = "footprint_free"), "0\\.5")
  expect_s3_class(dp_frechet_mean(H3, HX, epsilon = 10, radius = 1, center = o), "riemdp_release")
  P3 <- manifold_spd(3)
  PX <- stack_points(P3, rand_ball_points(P3, diag(3), 4, 0.99))
  expect_error_mentions(dp_frechet_mean(P3, PX, epsilon = 1, radius = 1, center = diag(3)), c("sigma", "0\\.7071"))
  # ... but KNG and the Gaussian mechanism have no such bound
  expect_s3_class(dp_frechet_mean(P3, PX, radius = 1, center = diag(3), mechanism = "gaussian", sigma = 2), "riemdp_release")
})

test_that("Kendall releases are aligned with the public centre, not with the private mean", {
  # The stored configuration of a shape is only defined up to rotation; a draw
  # around the exact Frechet-mean configuration would carry its rotation
  # (<mean, release> real to machine precision) and tell adjacent datasets
  # apart. The release is rotated into alignment with the public centre.
  K <- manifold_kendall(4)
  ctr <- riem_project(K, matrix(c(0, 1, 1, 0, 0, 0, 1, 1), 4))
  set.seed(21)
  X <- riem_rgaussian(K, 40, ctr, 0.05)
  X <- X[, , riem_dist(K, ctr, X) < 0.3]
  herm <- function(a, b) sum(Conj(complex(real = a[, 1], imaginary = a[, 2])) * complex(real = b[, 1], imaginary = b[, 2]))
  fm <- coef(frechet_mean(K, X))
  for (mech in c("laplace", "kng")) {
    rel <- dp_frechet_mean(K, X, epsilon = 1, radius = 0.3, center = ctr, mechanism = mech)
    e <- coef(rel)
    expect_lt(abs(Im(herm(ctr, e))), 1e-12)
    expect_gt(Re(herm(ctr, e)), 0)
    # the release is not aligned with the private mean configuration
    expect_gt(abs(Im(herm(fm, e))), 1e-9)
  }
})

test_that("clipping handles points at the cut locus of the centre", {
  S2 <- manifold_sphere(2)
  north <- c(0, 0, 1)
  Y <- rbind(north, c(0, 0, -1), c(1, 0, 0))
  set.seed(3)
  rel <- dp_frechet_mean(S2, Y, epsilon = 1, radius = 0.5, center = north, outside = "clip")
  expect_s3_class(rel, "riemdp_release")
  clipped <- riemdp:::priv_clip_to_ball(S2, riemdp:::as_set(S2, north, "c"), 0.5, riemdp:::as_set(S2, Y, "Y"), TRUE)
  expect_equal(riem_dist(S2, north, matrix(clipped, 3)), c(0, 0.5, 0.5), tolerance = 1e-12)
})
