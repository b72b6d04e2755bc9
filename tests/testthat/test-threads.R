# The thread setting (option riemdp.threads, environment variable
# RIEMDP_NUM_THREADS, at most 2 under R CMD check) and results that do not
# depend on it; the batched SPD mean and median against the per-point code.

# Runs f with environment variables set (NA: unset), then restores them.
with_env <- function(vars, f) {
  old <- Sys.getenv(names(vars), unset = NA, names = TRUE)
  on.exit({
    for (v in names(old)) if (is.na(old[[v]])) Sys.unsetenv(v) else do.call(Sys.setenv, as.list(old[v]))
  })
  for (v in names(vars)) if (is.na(vars[[v]])) Sys.unsetenv(v) else do.call(Sys.setenv, as.list(vars[v]))
  f()
}
no_check <- c(`_R_CHECK_PACKAGE_NAME_` = NA, `_R_CHECK_LIMIT_CORES_` = NA,
              `_R_CHECK_EXAMPLE_TIMING_CPU_TO_ELAPSED_THRESHOLD_` = NA,
              `_R_CHECK_TEST_TIMING_CPU_TO_ELAPSED_THRESHOLD_` = NA)

test_that("the thread setting: option, then RIEMDP_NUM_THREADS, then 2; at most 2 under R CMD check", {
  old <- options(riemdp.threads = NULL)
  on.exit(options(old))
  with_env(c(no_check, RIEMDP_NUM_THREADS = NA), function() {
    expect_identical(riemdp:::riemdp_threads(), 2L)
    options(riemdp.threads = 5)
    expect_identical(riemdp:::riemdp_threads(), 5L)
    options(riemdp.threads = NULL)
  })
  with_env(c(no_check, RIEMDP_NUM_THREADS = "3"), function() {
    expect_identical(riemdp:::riemdp_threads(), 3L)
    options(riemdp.threads = 1L)
    expect_identical(riemdp:::riemdp_threads(), 1L)  # the option wins
    options(riemdp.threads = NULL)
  })
  for (check in list(c(`_R_CHECK_LIMIT_CORES_` = "TRUE"), c(`_R_CHECK_PACKAGE_NAME_` = "riemdp"))) {
    with_env(c(no_check[setdiff(names(no_check), names(check))], check, RIEMDP_NUM_THREADS = "8"), function() {
      expect_identical(riemdp:::riemdp_threads(), 2L)
      options(riemdp.threads = 1L)
      expect_identical(riemdp:::riemdp_threads(), 1L)
      options(riemdp.threads = NULL)
    })
  }
  with_env(c(no_check, `_R_CHECK_LIMIT_CORES_` = "false", RIEMDP_NUM_THREADS = "8"), function() {
    expect_identical(riemdp:::riemdp_threads(), 8L)
  })
})

test_that("a bad thread setting is an error naming riemdp.threads, at the call", {
  old <- options(riemdp.threads = NULL)
  on.exit(options(old))
  S2 <- manifold_sphere(2)
  for (bad in list(0, -1, 1.5, NA, NaN, Inf, "2", c(1, 2), TRUE, 2000)) {
    options(riemdp.threads = bad)
    expect_error(riem_dist(S2, c(0, 0, 1), c(1, 0, 0)), "option `riemdp.threads` must be a whole number",
                 class = "riemdp_error")
    expect_error(frechet_mean(S2, rbind(c(0, 0, 1), c(1, 0, 0))), "riemdp.threads")
  }
  options(riemdp.threads = NULL)
  with_env(c(RIEMDP_NUM_THREADS = "many"), function() {
    expect_error(riem_dist(S2, c(0, 0, 1), c(1, 0, 0)), "RIEMDP_NUM_THREADS = \"many\".*riemdp.threads")
  })
})

test_that("each call hands the setting to the core", {
  old <- options(riemdp.threads = 1L)
  on.exit(options(old))
  S2 <- manifold_sphere(2)
  riem_dist(S2, c(0, 0, 1), rbind(c(1, 0, 0), c(0, 1, 0)))
  expect_identical(riemdp:::thread_limit_cpp(), 1L)
  options(riemdp.threads = 2L)
  frechet_mean(S2, rbind(c(0, 0, 1), c(1, 0, 0)))
  expect_identical(riemdp:::thread_limit_cpp(), 2L)
})

test_that("results are the same bits on 1, 2 and 3 threads", {
  old <- options(riemdp.threads = NULL)
  on.exit(options(old))
  S2 <- manifold_sphere(2)
  P3 <- manifold_spd(3)
  set.seed(11)
  n <- 60000L
  X <- riem_project(S2, cbind(matrix(rnorm(2 * n, sd = 0.3), n), 1))
  XP <- riem_rlaplace(P3, 3000L, diag(3), 0.5)
  w <- runif(3000L)
  run <- function(threads) {
    options(riemdp.threads = threads)
    set.seed(5)
    list(dist = riem_dist(S2, c(0, 0, 1), X),
         dist_matrix = riem_dist_matrix(S2, X[1:400, ]),
         mean = frechet_mean(S2, X)[c("estimate", "iterations", "cost")],
         median = frechet_median(S2, X)[c("estimate", "iterations", "cost")],
         spd_wmean = frechet_mean(P3, XP, weights = w)$estimate,
         spd_median = frechet_median(P3, XP, weights = w)$estimate,
         draws = riem_rlaplace(S2, 30000L, c(0, 0, 1), 0.3),
         kng = dp_frechet_mean(S2, X, epsilon = 1, radius = 0.7, center = c(0, 0, 1),
                               mechanism = "kng", outside = "clip")$estimate)
  }
  one <- run(1L)
  expect_identical(run(2L), one)
  expect_identical(run(3L), one)
})

# SPD data for the two tests below, and the estimates of the per-point code
# (riemdp before the batched SPD passes), to 17 digits: lower triangles.
spd_reference_data <- function() {
  set.seed(20)
  n <- 3000L
  X <- array(0, c(3, 3, n))
  for (i in seq_len(n)) {
    S <- matrix(rnorm(9, sd = 0.4), 3, 3)
    S <- (S + t(S)) / 2
    e <- eigen(S, symmetric = TRUE)
    X[, , i] <- e$vectors %*% diag(exp(e$values + c(1, 0, -1))) %*% t(e$vectors)
  }
  list(X = X, w = rep(c(0, 0.5, 1, 2.5), length.out = n))
}

test_that("SPD weighted mean and median equal those of the per-point code to 1e-12", {
  ref <- list(
    wmean = c(1.0162332238103393, 0.0015415751510687581, -0.013924078001652629, 0.97427734011478939,
              0.017583032600398743, 1.0047908201058564),
    mean = c(1.0246223596324107, 0.0063508283039062641, 0.0049542440984741698, 0.98417101224763603,
             0.0066013958281925036, 1.0037920546838575),
    median = c(1.0286279887049483, 0.0065911809993903503, 0.0056110230249817872, 0.98107406236620864,
               0.0089201079135544717, 1.0023163755548228),
    wmedian = c(1.0172066097489867, 0.00067892559064450242, -0.017177584152986314, 0.97118663002715977,
                0.02226411520029617, 1.0061833087234604))
  d <- spd_reference_data()
  P3 <- manifold_spd(3)
  got <- list(wmean = coef(frechet_mean(P3, d$X, weights = d$w)), mean = coef(frechet_mean(P3, d$X)),
              median = coef(frechet_median(P3, d$X)), wmedian = coef(frechet_median(P3, d$X, weights = d$w)))
  for (k in names(ref)) {
    g <- got[[k]][lower.tri(got[[k]], TRUE)]
    expect(max(abs(g - ref[[k]])) <= 1e-12 * max(abs(ref[[k]])),
           sprintf("%s: relative difference %.3g from the per-point code", k,
                   max(abs(g - ref[[k]])) / max(abs(ref[[k]]))))
  }
})

test_that("the SPD weighted mean is a zero of the weighted gradient, and integer weights repeat points", {
  d <- spd_reference_data()
  P3 <- manifold_spd(3)
  fit <- frechet_mean(P3, d$X, weights = d$w)
  m <- coef(fit)
  # sum_i w_i Log_m(x_i) through riem_log, one point at a time
  g <- Reduce(`+`, lapply(which(d$w > 0), function(i) d$w[i] * riem_log(P3, m, d$X[, , i])))
  expect_lt(sqrt(sum(solve(m, g)^2)) / sum(d$w), 1e-9)
  k <- rep(c(0L, 1L, 2L), length.out = dim(d$X)[3])
  rep_fit <- frechet_mean(P3, d$X[, , rep(seq_along(k), k)])
  expect_lt(riem_dist(P3, coef(frechet_mean(P3, d$X, weights = k)), coef(rep_fit)), 1e-10)
})
