# Private bounds for the regressions (issue 21): utility against hand-chosen
# bounds at the same total epsilon.
#   1. Tonga epicentres against depth (the README's example, n = 795,
#      epsilon = 1): footpoint error (km) and direction error (degrees) of
#      the private geodesic against the non-private fit, median over
#      releases, with the README's hand-chosen bounds and with bounds found
#      privately knowing only "somewhere on Earth" and "depth 0-700 km".
#   2. dp_linear_regression(mag ~ stations + depth, quakes) (n = 1000,
#      epsilon = 1): MSE / lm MSE, hand-chosen against private x_range,
#      beta_max and tau.
#   3. The footpoint centre's location stage: soft against hard counts.
# Run: Rscript bench/private-bounds-regression.R [n_releases]   (one core)
suppressPackageStartupMessages(library(riemdp))
options(riemdp.threads = 1)
args <- commandArgs(trailingOnly = TRUE)
R <- if (length(args) && !is.na(suppressWarnings(as.integer(args[1])))) as.integer(args[1]) else 100L
linear <- !("--no-linear" %in% args)

to_unit <- function(lat, long) cbind(cos(lat * pi / 180) * cos(long * pi / 180),
                                     cos(lat * pi / 180) * sin(long * pi / 180), sin(lat * pi / 180))
tonga <- quakes[quakes$long > 175, ]
S2 <- manifold_sphere(2)
Y <- to_unit(tonga$lat, tonga$long)
depth <- tonga$depth
fit <- geodesic_regression(S2, depth, Y)
compare <- function(rel) {
  p <- fit$footpoint; q <- rel$footpoint
  v <- riem_transport(S2, p, q, fit$shooting)
  cosang <- riem_inner(S2, q, v, rel$shooting) / (riem_norm(S2, q, v) * riem_norm(S2, q, rel$shooting))
  c(km = riem_dist(S2, p, q) * 6371, deg = acos(max(-1, min(1, cosang))) * 180 / pi)
}
hand <- function() dp_geodesic_regression(S2, depth, Y, epsilon = 1, x_range = c(0, 700),
                                          center = to_unit(-20, 185)[1, ], radius = 10 * pi / 180,
                                          tau_m = 0.2, tau = 0.1)
priv <- function(...) dp_geodesic_regression(S2, depth, Y, epsilon = 1,
                                             bounds = dp_regression_bounds(x_limits = c(0, 700), ...))
priv_range <- function(...) dp_geodesic_regression(S2, depth, Y, epsilon = 1, x_range = c(0, 700),
                                                   bounds = dp_regression_bounds(...))
run <- function(f, seed) {
  set.seed(seed)
  t(replicate(R, { r <- f(); c(compare(r), tau = r$tau, tau_m = r$tau_m, radius = r$radius,
                               x_lo = r$x_range[1], x_hi = r$x_range[2]) }))
}
t0 <- proc.time()[["elapsed"]]
set.seed(2101)
H <- t(replicate(R, compare(hand())))
rows <- list(run(function() priv(tau_method = "coarse"), 2102), run(function() priv_range(tau_method = "coarse"), 2103),
             run(function() priv(tau_method = "spread"), 2104), run(function() priv_range(tau_method = "spread"), 2105))
med <- function(A, k) unname(stats::median(A[, k]))
tab <- data.frame(
  bounds = c("hand-chosen (README)", "private: x_limits 0-700, tau from a coarse fit",
             "private: x_range = c(0, 700) stated, tau from a coarse fit",
             "private: x_limits 0-700, tau from the spread", "private: x_range = c(0, 700) stated, tau from the spread"),
  footpoint_km = round(c(med(H, "km"), sapply(rows, med, "km"))),
  direction_deg = round(c(med(H, "deg"), sapply(rows, med, "deg")), 1),
  tau = signif(c(0.1, sapply(rows, med, "tau")), 3),
  tau_m = signif(c(0.2, sapply(rows, med, "tau_m")), 3),
  radius = signif(c(10 * pi / 180, sapply(rows, med, "radius")), 3),
  x_lo = round(c(0, sapply(rows, med, "x_lo"))), x_hi = round(c(700, sapply(rows, med, "x_hi"))))
tab$km_ratio <- round(tab$footpoint_km / tab$footpoint_km[1], 2)
tab$deg_ratio <- round(tab$direction_deg / tab$direction_deg[1], 2)
cat(sprintf("Tonga, n = %d, total epsilon = 1 (default shares for the bounds: 0.2, 0.3 with tau from a coarse fit), %d releases per row (medians)\n", nrow(tonga), R))
print(tab, row.names = FALSE)

# 2. linear regression on quakes: mag ~ stations + depth
if (linear) {
q <- quakes
lmfit <- lm(mag ~ stations + depth, q)
mse <- function(b) mean((q$mag - drop(cbind(1, q$stations, q$depth) %*% b))^2)
mse_lm <- mse(coef(lmfit))
lin_hand <- function() dp_linear_regression(mag ~ stations + depth, q, epsilon = 1, tau = 1,
                                            x_range = list(stations = c(0, 150), depth = c(0, 700)), beta_max = 10)
lin_priv <- function(...) dp_linear_regression(mag ~ stations + depth, q, epsilon = 1,
                                               bounds = dp_regression_bounds(share = 0.5, x_limits = list(stations = c(0, 500), depth = c(0, 700)),
                                                                             y_limits = c(0, 10), ...))
set.seed(2106)
LH <- replicate(R, mse(coef(lin_hand())) / mse_lm)
lrun <- function(f, seed) {
  set.seed(seed)
  t(replicate(R, { r <- f(); c(ratio = mse(coef(r)) / mse_lm, tau = r$tau, beta_max = r$beta_max) }))
}
LP <- lrun(function() lin_priv(tau_method = "coarse"), 2107)
LS <- lrun(function() lin_priv(tau_method = "spread"), 2108)
lt <- data.frame(bounds = c("hand-chosen (tau 1, stations 0-150, depth 0-700, beta_max 10)",
                            "private, tau from a coarse fit (share 0.5; stations 0-500, depth 0-700, mag 0-10)",
                            "private, tau from the spread (share 0.5; same limits)"),
                 mse_ratio = signif(c(median(LH), median(LP[, "ratio"]), median(LS[, "ratio"])), 3),
                 mse_ratio_q90 = signif(c(quantile(LH, 0.9), quantile(LP[, "ratio"], 0.9), quantile(LS[, "ratio"], 0.9)), 3),
                 tau = signif(c(1, median(LP[, "tau"]), median(LS[, "tau"])), 3),
                 beta_max = signif(c(10, median(LP[, "beta_max"]), median(LS[, "beta_max"])), 3))
cat(sprintf("\nquakes, mag ~ stations + depth, n = %d, total epsilon = 1, %d releases per row (medians)\n", nrow(q), R))
print(lt, row.names = FALSE)
}

# 3. Why soft counts for the footpoint's centre: the hard count of
#    dp_bounds() is flat over every candidate whose count ball (pi/12 on the
#    whole sphere) holds the whole cloud; the soft count peaks near its centre.
m <- frechet_mean(S2, Y)$estimate
S <- riemdp:::as_points(S2, Y, "X")
for (e in c(0.045, 0.09, 0.2)) {
  plan <- riemdp:::bounds_plan(S2, dp_bounds(fraction = 0.5), nrow(Y), e, NULL, 0.1, NULL)
  set.seed(2109)
  hard <- replicate(R, riem_dist(S2, m, plan$candidates$x[riemdp:::bounds_location_stage(S2, S, plan), ]))
  soft <- replicate(R, riem_dist(S2, m, plan$candidates$x[riemdp:::regression_location_stage(S2, S, plan), ]))
  cat(sprintf("location stage at epsilon %.3f (%d candidates): median distance to the non-private mean, hard count %.0f km, soft count %.0f km\n",
              e, plan$candidates$n, median(hard) * 6371, median(soft) * 6371))
}
cat(sprintf("\n%.0f s\n", proc.time()[["elapsed"]] - t0))
