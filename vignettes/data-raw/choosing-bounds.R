## Releases behind vignettes/choosing-bounds.Rmd: private linear regressions of
## the Tonga earthquakes' longitude on their depth (datasets::quakes, the 795
## events east of 175 E) under public bounds loosened one at a time, at
## epsilon = 1 and 0.1, 50 releases per setting.
##
## Run from the package root with riemdp installed:
##     Rscript vignettes/data-raw/choosing-bounds.R
## Writes inst/extdata/choosing-bounds.rds (a few kB), read by the vignette
## through system.file(). Base R only; about 20 s (17 s when the data were made).
##
## The public bounds (see the vignette): depth in [0, 700] km; the fit at 0 km
## within 10 degrees of 185 E and its change over 700 km at most 12 degrees of
## longitude (beta_max = 12); residuals clipped at 2 degrees (tau = 2). Each
## table loosens one of them. Per setting: sigma and Delta (public), and over
## the releases the median absolute error of the intercept (degrees, the fit
## at 0 km) and of the slope (degrees per 100 km) against lm(), and the median
## ratio of the in-sample mean squared error to lm()'s.

suppressPackageStartupMessages(library(riemdp))
t_start <- proc.time()[["elapsed"]]
set.seed(20)
tonga <- quakes[quakes$long > 175, ]
fit <- lm(I(long - 185) ~ depth, data = tonga)
mse_lm <- mean(residuals(fit)^2)
n_rel <- 50L
base <- list(tau = 2, beta_max = 12, depth_max = 700)

one_setting <- function(tau, beta_max, depth_max, epsilon) {
  B <- t(replicate(n_rel, coef(dp_linear_regression(I(long - 185) ~ depth, tonga, epsilon = epsilon, tau = tau,
                                                    x_range = c(0, depth_max), beta_max = beta_max))))
  mse <- apply(B, 1, function(b) mean((tonga$long - 185 - b[1] - b[2] * tonga$depth)^2))
  s <- sensitivity_geodesic_regression(manifold_euclidean(1), nrow(tonga), tau)[["joint"]]
  data.frame(epsilon = epsilon, tau = tau, beta_max = beta_max, depth_max = depth_max,
             Delta = s, sigma = 2 * s / epsilon,
             intercept_err = median(abs(B[, 1] - coef(fit)[[1]])),
             slope_err_per_100km = 100 * median(abs(B[, 2] - coef(fit)[[2]])),
             mse_ratio = median(mse / mse_lm))
}

settings <- rbind(
  data.frame(bound = "tau", tau = c(0.5, 1, 2, 5, 20), beta_max = base$beta_max, depth_max = base$depth_max),
  data.frame(bound = "beta_max", tau = base$tau, beta_max = c(12, 25, 50, 100), depth_max = base$depth_max),
  # a wider depth range, with beta_max widened to keep the same bound on the
  # slope per km (12 degrees per 700 km)
  data.frame(bound = "x_range", tau = base$tau, beta_max = 12 * c(700, 1400, 2800) / 700,
             depth_max = c(700, 1400, 2800)))
linear <- do.call(rbind, lapply(c(1, 0.1), function(eps) {
  do.call(rbind, lapply(seq_len(nrow(settings)), function(i) {
    cbind(bound = settings$bound[i], one_setting(settings$tau[i], settings$beta_max[i], settings$depth_max[i], eps))
  }))
}))

out <- list(linear = linear, lm = coef(fit), n_rel = n_rel,
            riemdp = as.character(utils::packageVersion("riemdp")), date = format(Sys.Date()),
            runtime_s = round(proc.time()[["elapsed"]] - t_start, 1))
dir.create("inst/extdata", showWarnings = FALSE, recursive = TRUE)
saveRDS(out, "inst/extdata/choosing-bounds.rds", compress = "xz")
cat(sprintf("wrote inst/extdata/choosing-bounds.rds in %.1f s\n", out$runtime_s))
print(format(linear, digits = 3), row.names = FALSE)
