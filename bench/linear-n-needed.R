## The sample size dp_linear_regression() needs for a useful epsilon: mpg ~ wt
## with public bounds, on mtcars (n = 32) and on simulated data of the same
## design (n = 100, 1000, 10000), at epsilon = 0.5, 1, 2; 50 releases each.
## The table is the one in ?dp_linear_regression ("How large n must be").
##
## Run from the package root with riemdp installed (about 30 s):
##     Rscript bench/linear-n-needed.R
##
## Public bounds (1974 cars; not read off the data): weight between 1000 and
## 6000 lbs (x_range = c(1, 6), wt in 1000 lbs); the fit at 1000 lbs and its
## change across the range at most 50 mpg in absolute value (beta_max = 50);
## residuals clipped at 5 mpg (tau = 5).
## Simulated data: wt uniform on [1.5, 5.5] (mtcars: 1.51 to 5.42), mpg from
## mtcars' least-squares line plus normal noise of its residual sd (3.05 mpg).
## Per cell: the median over the releases of |intercept - lm's|, of
## |slope - lm's| and of the ratio of the release's in-sample mean squared
## error to lm's.
suppressPackageStartupMessages(library(riemdp))
set.seed(20)
x_range <- c(1, 6); tau <- 5; beta_max <- 50
n_rel <- 50L
fit0 <- lm(mpg ~ wt, mtcars)
simulate <- function(n) {
  wt <- runif(n, 1.5, 5.5)
  data.frame(wt = wt, mpg = coef(fit0)[[1]] + coef(fit0)[[2]] * wt + rnorm(n, 0, sigma(fit0)))
}
sets <- list(`32 (mtcars)` = mtcars, `100` = simulate(100), `1000` = simulate(1000), `10000` = simulate(10000))
cells <- list()
t0 <- proc.time()[["elapsed"]]
for (nm in names(sets)) {
  d <- sets[[nm]]
  fit <- lm(mpg ~ wt, d)
  mse_lm <- mean(residuals(fit)^2)
  for (eps in c(0.5, 1, 2)) {
    B <- t(replicate(n_rel, coef(dp_linear_regression(mpg ~ wt, d, epsilon = eps, tau = tau,
                                                      x_range = x_range, beta_max = beta_max))))
    mse <- apply(B, 1, function(b) mean((d$mpg - b[1] - b[2] * d$wt)^2))
    cells[[length(cells) + 1L]] <- data.frame(
      n = nm, epsilon = eps,
      intercept_err = median(abs(B[, 1] - coef(fit)[[1]])),
      slope_err = median(abs(B[, 2] - coef(fit)[[2]])),
      mse_ratio = median(mse / mse_lm),
      intercept_min = min(B[, 1]), intercept_max = max(B[, 1]))
  }
}
tab <- do.call(rbind, cells)
cat(sprintf("lm on mtcars: intercept %.2f, slope %.2f; %d releases per cell; %.0f s\n",
            coef(fit0)[[1]], coef(fit0)[[2]], n_rel, proc.time()[["elapsed"]] - t0))
tab$intercept_range <- paste(format(round(tab$intercept_min)), "to", format(round(tab$intercept_max)))
tab$intercept_min <- tab$intercept_max <- NULL
num <- c("intercept_err", "slope_err", "mse_ratio")
tab[num] <- lapply(tab[num], signif, 2)
print(tab, row.names = FALSE)
