# dp_budget(): composition arithmetic against hand-computed values (basic
# composition; mu-GDP composition, Dong et al. 2022 Cor. 3.3; the eps-DP to
# mu-GDP conversion), refused over-budget spends, errors naming arguments.

S2 <- manifold_sphere(2)
north <- c(0, 0, 1)
set.seed(1)
X <- riem_rlaplace(S2, 30, north, 0.05)
r_lap <- dp_frechet_mean(S2, X, epsilon = 0.5, radius = pi / 6, center = north)
r_lap2 <- dp_frechet_mean(S2, X, epsilon = 0.25, radius = pi / 6, center = north)
r_gau <- dp_frechet_mean(S2, X, radius = pi / 6, center = north, mechanism = "gaussian", mu = 0.5)
r_gau2 <- dp_frechet_mean(S2, X, radius = pi / 6, center = north, mechanism = "gaussian", mu = 0.5)
r_lap3 <- dp_frechet_mean(S2, X, epsilon = 0.5, radius = pi / 6, center = north)
# mu of an epsilon-DP mechanism, by hand: -2 qnorm(1 / (1 + e^eps)) (Dong et al. 2022)
mu_of <- function(eps) -2 * qnorm(1 / (1 + exp(eps)))

test_that("basic composition sums the epsilons of epsilon-DP releases", {
  b <- dp_budget(r_lap, r_lap2)
  expect_s3_class(b, "riemdp_budget")
  expect_identical(b$type, "epsilon")
  expect_equal(b$spent, 0.75, tolerance = 1e-14)
  expect_identical(b$entries$release, c("r_lap", "r_lap2"))
  expect_identical(b$entries$kind, c("epsilon-DP", "epsilon-DP"))
  expect_equal(b$entries$mu, mu_of(c(0.5, 0.25)), tolerance = 1e-10)
  # hand values: -2 qnorm(1/(1+e^0.5)) = 0.6238926, -2 qnorm(1/(1+e^0.25)) = 0.3129795
  expect_equal(b$entries$mu, c(0.6238925921, 0.3129794995), tolerance = 1e-9)
  expect_true(is.na(b$total))
  # lists and names are accepted
  b2 <- dp_budget(list(a = r_lap, b = r_lap2), third = r_lap3)
  expect_identical(b2$entries$release, c("a", "b", "third"))
  expect_equal(b2$spent, 1.25, tolerance = 1e-14)
})

test_that("mu-GDP and mixed releases compose as sqrt(sum mu^2) with converted epsilons", {
  b <- dp_budget(r_gau, r_gau2)
  expect_identical(b$type, "mu")
  expect_equal(r_gau$mu, 0.5, tolerance = 1e-6)               # the achieved mu, from gdp_sigma()
  expect_equal(b$spent, sqrt(r_gau$mu^2 + r_gau2$mu^2), tolerance = 1e-14)
  m <- dp_budget(r_lap, r_lap2, r_gau)
  expect_identical(m$type, "mu")
  expect_equal(m$spent, sqrt(mu_of(0.5)^2 + mu_of(0.25)^2 + r_gau$mu^2), tolerance = 1e-10)
  expect_equal(m$spent, 0.8586024304, tolerance = 1e-6)     # sqrt(0.6238926^2 + 0.3129795^2 + 0.5^2)
  expect_true(is.na(m$entries$epsilon[3]))
  # all epsilon-DP but asked in mu
  e <- dp_budget(r_lap, r_lap2, type = "mu")
  expect_equal(e$spent, sqrt(mu_of(0.5)^2 + mu_of(0.25)^2), tolerance = 1e-10)
  expect_match(m$composition, "Dong", fixed = TRUE)
  expect_match(m$composition, "converted", fixed = TRUE)
  expect_match(dp_budget(r_lap)$composition, "basic composition", fixed = TRUE)
})

test_that("a total refuses the spend that would exceed it, before storing it", {
  b <- dp_budget(total = c(epsilon = 1))
  b <- dp_spend(b, r_lap)
  expect_equal(b$remaining, 0.5, tolerance = 1e-14)
  expect_identical(dp_check_budget(b, epsilon = 0.5), b)    # exactly fits
  expect_error(dp_check_budget(b, epsilon = 0.51), "`epsilon` would exceed the budget", class = "riemdp_error")
  b <- dp_spend(b, r_lap2)
  expect_error(dp_spend(b, r_lap3), "`release` would exceed the budget.*0\\.75.*1\\.25.*`total` epsilon = 1",
               class = "riemdp_error")
  expect_equal(nrow(b$entries), 2L)                          # nothing stored on error
  b <- dp_spend(b, epsilon = 0.25, label = "other query")
  expect_equal(b$spent, 1, tolerance = 1e-14)
  expect_equal(b$remaining, 0)
  expect_error(dp_check_budget(b, epsilon = 1e-6), "`epsilon` would exceed", class = "riemdp_error")
  # rounding does not refuse what fits: 0.1 + 0.2 in 0.3
  b3 <- dp_spend(dp_spend(dp_budget(total = c(epsilon = 0.3)), epsilon = 0.1), epsilon = 0.2)
  expect_equal(b3$spent, 0.3, tolerance = 1e-14)
  # a mu total composes in mu: 0.6^2 + 0.8^2 = 1
  bm <- dp_spend(dp_budget(total = c(mu = 1)), mu = 0.6)
  expect_equal(bm$remaining, 0.8, tolerance = 1e-14)
  bm <- dp_spend(bm, mu = 0.8)
  expect_error(dp_spend(bm, r_gau), "`release` would exceed", class = "riemdp_error")
  # epsilon-DP spends enter a mu total converted
  bm2 <- dp_spend(dp_budget(total = c(mu = 1)), r_lap)
  expect_equal(bm2$spent, mu_of(0.5), tolerance = 1e-10)
  expect_error(dp_budget(r_lap, r_lap2, total = c(epsilon = 0.7)), "`r_lap2` would exceed", class = "riemdp_error")
})

test_that("releases without an accountable guarantee are errors naming the argument", {
  paper <- structure(list(guarantee = "none (App. A scheme of Kulkarni & Soto 2025)", epsilon = 1, scheme = "paper"),
                     class = c("riemdp_regression_release", "riemdp_release"))
  expect_error(dp_budget(r_lap, paper), "`paper` carries no differential-privacy guarantee.*scheme = \"joint\"",
               class = "riemdp_error")
  spd_gauss <- structure(list(guarantee = "mu-GDP", epsilon = NA_real_, mu = NA_real_), class = "riemdp_release")
  expect_error(dp_budget(spd_gauss), "`spd_gauss` is a mu-GDP release whose mu was not computed",
               class = "riemdp_error")
  expect_error(dp_spend(dp_budget(), spd_gauss), "`release` is a mu-GDP release", class = "riemdp_error")
  expect_error(dp_budget(list(r_lap, spd_gauss)), "`\\.\\.1\\[\\[2\\]\\]` is a mu-GDP", class = "riemdp_error")
  # mu-GDP cannot enter an epsilon budget
  expect_error(dp_budget(r_gau, type = "epsilon"), "`r_gau` is mu-GDP, which is not epsilon-DP", class = "riemdp_error")
  expect_error(dp_check_budget(dp_budget(total = c(epsilon = 1)), mu = 0.1), "`mu` is mu-GDP", class = "riemdp_error")
  # mu = Inf (no finite mu computable) counts as no privacy
  inf_rel <- structure(list(guarantee = "mu-GDP", epsilon = NA_real_, mu = Inf), class = "riemdp_release")
  expect_identical(dp_budget(inf_rel, r_gau)$spent, Inf)
  expect_error(dp_spend(dp_budget(total = c(mu = 5)), inf_rel), "`release` would exceed", class = "riemdp_error")
})

test_that("bad arguments are errors naming them", {
  expect_error(dp_budget(1), "`\\.\\.1` must be a riemdp release", class = "riemdp_error")
  expect_error(dp_budget(total = "1"), "`total` must be NULL or one finite number > 0 named", class = "riemdp_error")
  expect_error(dp_budget(total = c(delta = 1)), "`total`", class = "riemdp_error")
  expect_error(dp_budget(total = c(epsilon = -1)), "`total`", class = "riemdp_error")
  expect_error(dp_budget(total = c(mu = 1), type = "epsilon"), "`type`", class = "riemdp_error")
  expect_error(dp_budget(type = "delta"), "`type` must be one of", class = "riemdp_error")
  expect_error(dp_spend(list(), r_lap), "`budget` must be a privacy budget", class = "riemdp_error")
  expect_error(dp_spend(dp_budget()), "exactly one of `release`, `epsilon` and `mu`", class = "riemdp_error")
  expect_error(dp_spend(dp_budget(), r_lap, epsilon = 1), "exactly one", class = "riemdp_error")
  expect_error(dp_spend(dp_budget(), 3), "`release` must be a riemdp release", class = "riemdp_error")
  expect_error(dp_spend(dp_budget(), epsilon = -1), "`epsilon` must be a single finite number > 0",
               class = "riemdp_error")
  expect_error(dp_check_budget(dp_budget(), mu = Inf), "`mu` must be", class = "riemdp_error")
  expect_error(dp_check_budget(dp_budget()), "exactly one of `epsilon` and `mu`", class = "riemdp_error")
})

test_that("print shows the table, the composition theorem and the remaining budget", {
  b <- dp_spend(dp_spend(dp_budget(total = c(mu = 2)), r_lap, label = "mean"), r_gau, label = "gauss")
  out <- capture.output(print(b))
  expect_match(out[1], "2 entries, accounted in mu-GDP", fixed = TRUE)
  expect_true(any(grepl("^  release +kind +epsilon +mu", out)))
  expect_true(any(grepl("^  mean +epsilon-DP +0\\.5 ", out)))
  expect_true(any(grepl("^  gauss +mu-GDP +- +0\\.5", out)))
  expect_match(paste(out, collapse = " "), "Dong, Roth & Su +2022 +Cor\\. 3\\.3")
  expect_match(out[length(out)], sprintf("Total: mu = 2; remaining: mu = %s",
                                         trimws(formatC(sqrt(4 - b$spent^2), digits = 4, format = "g"))), fixed = TRUE)
  expect_identical(format(b), format(b))
  expect_match(format(dp_budget())[2], "no releases yet", fixed = TRUE)
  expect_match(format(dp_budget())[4], "Total: none set", fixed = TRUE)
})

test_that("the slack absorbs decimal rounding only; tampered epsilon' is refused; the table shows each draw's kind", {
  b <- dp_budget(total = c(epsilon = 0.3))
  b <- dp_spend(b, epsilon = 0.1)
  b <- dp_spend(b, epsilon = 0.2)                      # 0.1 + 0.2 fits in 0.3
  expect_equal(b$spent, 0.3)
  b <- dp_spend(dp_budget(total = c(epsilon = 1)), epsilon = 0.1)
  for (i in 1:9) b <- dp_spend(b, epsilon = 0.1)       # ten tenths fit in 1
  expect_error_mentions(dp_spend(b, epsilon = 1e-12), "would exceed the budget")
  # an (epsilon, delta) release whose epsilon' exceeds the total by 1e-15
  S2 <- manifold_sphere(2)
  north <- c(0, 0, 1)
  set.seed(5)
  X <- riem_rlaplace(S2, 300, north, 0.05)
  rel <- dp_frechet_mean(S2, X, epsilon = 1, radius = pi / 8, center = north, mechanism = "kng", outside = "clip")
  expect_identical(rel$sampler, "exact-rejection")
  expect_true(rel$epsilon_total > 1 && rel$epsilon_total < 1 + 1e-14)
  expect_error_mentions(dp_budget(rel, total = c(epsilon = 1)), c("would exceed", "1 \\+ [0-9.]+e-1[56]"))
  # the slack never absorbs an (epsilon, delta) excess: 1 stated + epsilon'
  # of 1 + 1e-15 in a total of 2 is refused, as is one of them in 1
  expect_error_mentions(dp_spend(dp_spend(dp_budget(total = c(epsilon = 2)), epsilon = 1), rel), "would exceed")
  ok <- dp_spend(dp_spend(dp_budget(total = c(epsilon = 2.5)), epsilon = 1), rel)
  expect_true(ok$spent > 2 && ok$spent < 2.5)
  # printed epsilon' is never the bare epsilon
  out <- capture.output(print(dp_budget(rel)))
  expect_false(any(grepl("exact-rejection", out) & grepl("  1  ", out, fixed = TRUE)))
  expect_match(out[3], "exact-rejection", fixed = TRUE)
  # a tampered object claiming epsilon' = epsilon is refused
  bad <- rel
  bad$epsilon_total <- bad$epsilon
  expect_error_mentions(dp_budget(bad), c("`bad`", "epsilon_total", "below"))
  # the draw column: exact, empirical-chain, planned
  lap <- dp_frechet_mean(S2, X, epsilon = 0.5, radius = pi / 8, center = north, outside = "clip")
  ch <- dp_frechet_mean(S2, X, epsilon = 0.5, radius = pi / 8, center = north, outside = "clip", mechanism = "kng",
                        method = "mh")
  bb <- dp_spend(dp_budget(lap, ch), epsilon = 0.1)
  expect_identical(bb$entries$guarantee_kind, c("exact", "empirical-chain", "planned"))
  tab <- capture.output(print(bb))
  expect_match(tab[2], "draw", fixed = TRUE)
  expect_match(tab[4], "empirical-chain", fixed = TRUE)
})
