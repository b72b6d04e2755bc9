# Sensitivity of the Frechet mean (methods article, "Sensitivities and public domains"; Reimherr et al. 2021, Thm 2):
# closed forms, the admissible radius, and the bound against adjacent
# datasets (one point replaced) in the ball, including adversarial ones.

h_ref <- function(r, kappa) if (kappa > 0) 2 * r * sqrt(kappa) / tan(2 * r * sqrt(kappa)) else 1

test_that("sensitivity_frechet_mean and _gradient follow the closed forms", {
  for (n in c(1, 5, 20, 1000)) {
    # curvature 1: spheres of every dimension
    for (d in c(2, 4)) for (r in c(0.1, pi / 8, 0.7)) {  # S^1 is flat: see below
      h <- h_ref(r, 1)
      expect_equal(sensitivity_frechet_mean(manifold_sphere(d), n, r), 2 * r * (2 - h) / (n * h), tolerance = 1e-12,
                   label = sprintf("sphere(%d), n %d, r %g", d, n, r))
      expect_equal(sensitivity_frechet_gradient(manifold_sphere(d), n, r), 2 * r * (2 - h) / n, tolerance = 1e-12,
                   label = sprintf("gradient, sphere(%d), n %d, r %g", d, n, r))
    }
    # Kendall: kappa_max = 4
    for (k in c(3, 5)) for (r in c(0.05, 0.2, 0.35)) {
      h <- h_ref(r, 4)
      expect_equal(sensitivity_frechet_mean(manifold_kendall(k), n, r), 2 * r * (2 - h) / (n * h), tolerance = 1e-12,
                   label = sprintf("kendall(%d), n %d, r %g", k, n, r))
      expect_equal(sensitivity_frechet_gradient(manifold_kendall(k), n, r), 2 * r * (2 - h) / n, tolerance = 1e-12)
    }
    # kappa <= 0: 2r/n at any radius
    for (M in list(manifold_euclidean(1), manifold_euclidean(3), manifold_hyperbolic(2), manifold_hyperbolic(3),
                   manifold_spd(2), manifold_spd(3), manifold_spd(1))) {
      for (r in c(0.1, 1, 5, 50)) {
        expect_equal(sensitivity_frechet_mean(M, n, r), 2 * r / n, tolerance = 1e-14,
                     label = sprintf("%s, n %d, r %g", M$type, n, r))
        expect_equal(sensitivity_frechet_gradient(M, n, r), 2 * r / n, tolerance = 1e-14)
      }
    }
  }
  # small radius on the sphere: h -> 1, Delta -> 2r/n
  expect_equal(sensitivity_frechet_mean(manifold_sphere(2), 10, 1e-5), 2e-5 / 10, tolerance = 1e-8)
  # a number, positive, increasing in the radius
  rs <- seq(0.01, 0.78, length.out = 30)
  D <- vapply(rs, function(r) sensitivity_frechet_mean(manifold_sphere(2), 10, r), numeric(1))
  expect_true(all(is.finite(D)) && all(D > 0) && all(diff(D) > 0))
  # the sphere bound blows up as r -> pi/4 (h -> 0)
  expect_gt(sensitivity_frechet_mean(manifold_sphere(2), 10, pi / 4 - 1e-6), 1e4)
})

test_that("the radius must be below r*: pi/4 on the sphere, pi/8 on Kendall's space", {
  S2 <- manifold_sphere(2)
  K5 <- manifold_kendall(5)
  for (f in list(sensitivity_frechet_mean, sensitivity_frechet_gradient)) {
    expect_error_mentions(f(S2, 10, pi / 4), c("`radius`", "r\\*", "equals", "sensitivity_radius_max"))
    # numbers that differ read differently
    expect_error_mentions(f(S2, 10, pi / 4 + 1e-9), c("exceeds", "0.785398164", "0.785398163"))
    expect_error_mentions(f(S2, 10, 0.8), "`radius`")
    expect_error_mentions(f(S2, 10, 3), "`radius`")
    # S^1 is flat: r* = pi/2 (half the injectivity radius), not pi/4
    expect_true(is.finite(f(manifold_sphere(1), 10, pi / 4)))
    expect_error_mentions(f(manifold_sphere(1), 10, pi / 2), c("`radius`", "r\\*"))
    expect_error_mentions(f(K5, 10, pi / 8), c("`radius`", "r\\*"))
    expect_error_mentions(f(manifold_kendall(3), 10, 0.4), "`radius`")
    expect_true(is.finite(f(S2, 10, pi / 4 - 1e-9)))
    expect_true(is.finite(f(K5, 10, pi / 8 - 1e-9)))
    # bad radius and n
    for (r in list(0, -1, NA, Inf, c(0.1, 0.2))) expect_error_mentions(f(S2, 10, r), "`radius`")
    for (n in list(0, -1, 2.5, NA)) expect_error_mentions(f(S2, n, 0.1), "`n`")
    expect_error_mentions(f(list(type = "sphere"), 10, 0.1), "`M`")
  }
  # the message states the value of r*
  expect_error_mentions(sensitivity_frechet_mean(S2, 10, 1), "0\\.785398")
  expect_error_mentions(sensitivity_frechet_mean(K5, 10, 1), "0\\.392699")
})

# Adjacent datasets in B_radius(c) on M; returns the distances between the
# two Frechet means, for every pair.
adjacent_shifts <- function(M, c, n, radius, n_random = 80) {
  fm <- function(pts) frechet_mean(M, stack_points(M, pts))$estimate
  shift <- function(D, xnew) {
    D2 <- D
    D2[[length(D)]] <- xnew
    riem_dist(M, fm(D), fm(D2))
  }
  out <- numeric(0)
  # spread data, half of it on the boundary; the replaced point anywhere in
  # the ball or on its boundary
  for (i in seq_len(n_random)) {
    D <- rand_ball_points(M, c, n, radius, boundary = 0.5)
    out <- c(out, shift(D, rand_ball_points(M, c, 1, radius, boundary = 0.7)[[1]]))
  }
  # adversarial: n - 1 points at one boundary point, the replaced point moved
  # from there (or from the centre) to the opposite side of the boundary
  for (i in 1:20) {
    u <- rand_tangent(M, c)
    p <- point_at(M, c, u, radius)
    q <- point_at(M, c, -u, radius)
    w <- rand_tangent(M, c)
    w <- w - ref_inner(M, c, w, u) / ref_inner(M, c, u, u) * u
    pw <- point_at(M, c, w, radius)
    D <- rep(list(p), n)
    out <- c(out, shift(D, q), shift(D, pw))
    Dc <- c(rep(list(p), n - 1), list(c))
    out <- c(out, shift(Dc, q))
    # half the points at p, half at q, one moved from p to q
    h <- c(rep(list(q), floor(n / 2)), rep(list(p), ceiling(n / 2)))
    out <- c(out, shift(h, q))
  }
  out
}

test_that("the Frechet mean moves less than the sensitivity between adjacent datasets", {
  cases <- list(
    list(M = manifold_sphere(2), c = c(0.48, -0.6, 0.64), radius = pi / 8),
    list(M = manifold_sphere(2), c = c(0, 0, 1), radius = 0.7),
    list(M = manifold_spd(2), c = matrix(c(2, 0.5, 0.5, 1), 2, 2), radius = 1),
    list(M = manifold_hyperbolic(2), c = c(sqrt(1 + 0.5^2 + 0.3^2), 0.5, -0.3), radius = 1.5)
  )
  set.seed(42)
  for (cs in cases) for (n in c(2, 5, 10)) {
    lab <- sprintf("[%s, radius %.3f, n %d]", riemdp:::manifold_label(cs$M), cs$radius, n)
    Delta <- sensitivity_frechet_mean(cs$M, n, cs$radius)
    sh <- adjacent_shifts(cs$M, cs$c, n, cs$radius)
    expect_true(all(is.finite(sh)), label = paste(lab, "finite shifts"))
    worst <- max(sh)
    expect(worst <= Delta * (1 + 1e-8),
           sprintf("%s max shift of the Frechet mean %.6g exceeds the sensitivity %.6g", lab, worst, Delta))
    # the bound is not absurdly loose: the adversarial pairs reach about 2r/n
    expect(Delta / worst < 10, sprintf("%s sensitivity %.4g / max shift %.4g = %.3g >= 10", lab, Delta, worst, Delta / worst))
    expect(worst > 0.9 * 2 * cs$radius / n,
           sprintf("%s max shift %.4g below 0.9 * 2r/n: the adversarial datasets are not adversarial", lab, worst))
  }
})

test_that("the gradient sensitivity bounds |Log_x(x_n) - Log_x(x'_n)| / n over the ball", {
  cases <- list(
    list(M = manifold_sphere(2), c = c(0.48, -0.6, 0.64), radius = pi / 8),
    list(M = manifold_sphere(2), c = c(0, 0, 1), radius = 0.7),
    list(M = manifold_spd(2), c = matrix(c(2, 0.5, 0.5, 1), 2, 2), radius = 1),
    list(M = manifold_hyperbolic(2), c = c(sqrt(1 + 0.5^2 + 0.3^2), 0.5, -0.3), radius = 1.5)
  )
  set.seed(43)
  n <- 7
  for (cs in cases) {
    Dg <- sensitivity_frechet_gradient(cs$M, n, cs$radius)
    worst <- 0
    for (i in 1:300) {
      pts <- rand_ball_points(cs$M, cs$c, 3, cs$radius, boundary = 0.6)
      x <- pts[[1]]
      g <- riem_norm(cs$M, x, riem_log(cs$M, x, pts[[2]]) - riem_log(cs$M, x, pts[[3]])) / n
      worst <- max(worst, g)
    }
    expect(worst <= Dg * (1 + 1e-8), sprintf("[%s] max gradient change %.5g > %.5g", cs$M$type, worst, Dg))
    expect(worst > 0.5 * 2 * cs$radius / n, sprintf("[%s] max gradient change %.5g is tiny", cs$M$type, worst))
  }
})

test_that("S^1 is flat: the Frechet bounds are 2r/n, attained by the mean angle of adjacent datasets", {
  S1 <- manifold_sphere(1)
  expect_identical(S1$curvature, c(0, 0))
  expect_match(paste(format(S1), collapse = " "), "flat")
  set.seed(41)
  for (r in c(0.3, pi / 4, 1.5)) {
    n <- 25
    expect_equal(sensitivity_frechet_mean(S1, n, r), 2 * r / n)
    expect_equal(sensitivity_frechet_gradient(S1, n, r), 2 * r / n)
    # on an arc shorter than pi about angle c the intrinsic mean is the mean
    # angle; the adversarial pair moves one point from c - r to c + r
    c0 <- 0.7
    th <- c0 + runif(n, -r, r)
    th[1] <- c0 - r
    th2 <- th
    th2[1] <- c0 + r
    pts <- function(a) cbind(cos(a), sin(a))
    m1 <- coef(frechet_mean(S1, pts(th), tol = 1e-14))
    m2 <- coef(frechet_mean(S1, pts(th2), tol = 1e-14))
    expect_equal(atan2(m1[2], m1[1]), mean(th), tolerance = 1e-10)
    moved <- riem_dist(S1, m1, m2)
    expect_equal(moved, 2 * r / n, tolerance = 1e-9)  # the bound is attained
    expect_lte(moved, sensitivity_frechet_mean(S1, n, r) * (1 + 1e-9))
  }
  # numbers that print alike are printed with enough digits to differ
  e <- tryCatch(sensitivity_frechet_mean(manifold_sphere(2), 10, pi / 4 + 1e-9), error = conditionMessage)
  nums <- regmatches(e, gregexpr("[0-9]+\\.[0-9]+", e))[[1]][1:2]
  expect_false(identical(nums[1], nums[2]))
})

test_that("sensitivity_radius_max() is r* per manifold, and a release near it says what its radius costs", {
  expect_equal(sensitivity_radius_max(manifold_sphere(2)), pi / 4)
  expect_equal(sensitivity_radius_max(manifold_sphere(1)), pi / 2)
  expect_equal(sensitivity_radius_max(manifold_kendall(5)), pi / 8)
  expect_identical(sensitivity_radius_max(manifold_spd(2)), Inf)
  expect_identical(sensitivity_radius_max(manifold_euclidean(3)), Inf)
  expect_error(sensitivity_radius_max(list()), "`M`")
  S2 <- manifold_sphere(2)
  set.seed(61)
  X <- riem_project(S2, cbind(rnorm(40, sd = 0.05), rnorm(40, sd = 0.05), 1))
  near <- dp_frechet_mean(S2, X, epsilon = 1, radius = 0.78, center = c(0, 0, 1))
  out <- paste(capture.output(print(near)), collapse = " ")
  expect_match(out, "costs [0-9.]+ times the noise of a radius 10% smaller")
  expect_match(out, "r\\* = 0.785398")
  far <- dp_frechet_mean(S2, X, epsilon = 1, radius = pi / 8, center = c(0, 0, 1))
  expect_no_match(paste(capture.output(print(far)), collapse = " "), "times the noise")
  # the flat circle: pi/4 is admissible and costs no more than its Euclidean 2r/n
  S1 <- manifold_sphere(1)
  a <- runif(40, -0.2, 0.2)
  r1 <- dp_frechet_mean(S1, cbind(cos(a), sin(a)), epsilon = 1, radius = pi / 4, center = c(1, 0))
  expect_equal(r1$sensitivity, 2 * (pi / 4) / 40)
  expect_no_match(paste(capture.output(print(r1)), collapse = " "), "times the noise")
})
