## Simulations behind vignettes/private-linear-regression.Rmd: private linear
## regression of the Old Faithful eruption durations on the waiting times
## (datasets::faithful, n = 272) with riemdp::dp_linear_regression(), against
## lm() and DPpack::LinearRegressionDP (objective
## perturbation, Kifer et al. 2012) at the same epsilon: an MSE table in the
## manner of Table 1 of Kulkarni & Soto (2025) and MSE against epsilon.
##
## Run from the package root with riemdp installed:
##     Rscript vignettes/data-raw/private-linear-regression.R
## Writes inst/extdata/private-linear-regression.rds (a few kB). Needs the
## DPpack package (it installs nothing: install DPpack first). Takes under a
## minute sequentially (34 s when the data were made).
##
## The replicated releases go through dp_replicate(): sequentially by default,
## in parallel under a future::plan() set before source()-ing the script, or
## with RIEMDP_WORKERS=k in the environment (a multisession plan with k
## workers). Each replicate draws from its own L'Ecuyer-CMRG stream, fixed by
## the seed of its dp_replicate() call, so the results do not depend on the
## plan; everything else is fixed by set.seed().

suppressPackageStartupMessages(library(riemdp))
t_start <- proc.time()[["elapsed"]]
elapsed <- function() proc.time()[["elapsed"]] - t_start

if (!requireNamespace("DPpack", quietly = TRUE))
  stop("this script needs the DPpack package (its releases are compared with riemdp's); install it first")

workers <- suppressWarnings(as.integer(Sys.getenv("RIEMDP_WORKERS", "1")))
old_plan <- if (!is.na(workers) && workers > 1L) future::plan(future::multisession, workers = workers)
set.seed(1872)   # the year Yellowstone became a national park
y <- faithful$eruptions
x <- faithful$waiting
n <- length(y)
mse <- function(b) mean((y - b[1] - b[2] * x)^2)   # in-sample, as in Table 1 of Kulkarni & Soto (2025)
fit_lm <- stats::lm(eruptions ~ waiting, data = faithful)

## Public parameters (none read off the data): waiting times between
## eruptions lie in [40, 100] minutes; eruptions last at most 6 minutes, so
## the fitted duration at 40 minutes and its change across the range are at
## most 6 in absolute value (beta_max); residuals are clipped at 1 minute.
public <- list(x_range = c(40, 100), tau = 1, beta_max = 6, y_range = c(0, 7))
## The release's default chain (control = NULL: 250 + 25 D burn-in steps and
## as many after, D = 2 coefficients here).
release_riemdp <- function(eps)
  coef(dp_linear_regression(eruptions ~ waiting, faithful, epsilon = eps, tau = public$tau,
                            x_range = public$x_range, beta_max = public$beta_max))

## DPpack: pure epsilon-DP (delta = 0), l2 regularisation with gamma = 1 as
## in its help page, public bounds waiting in [40, 100] and eruptions in
## [0, 7] (y is clipped to them). DPpack scales each predictor by its largest
## absolute bound and restricts the coefficients to a ball of radius
## sqrt(p) in those units; "as is" fits the raw waiting time, "centred" the
## waiting time minus the middle of its public range (70 minutes), which
## moves the intercept into that ball. Both are mapped back to the
## coefficients of eruptions ~ waiting.
release_dppack <- function(eps, centred) {
  shift <- if (centred) mean(public$x_range) else 0
  X <- data.frame(waiting = x - shift)
  lr <- DPpack::LinearRegressionDP$new("l2", eps, 0, 1, function(coeff) coeff)
  lr$fit(X, y, c(public$x_range[2] - shift, public$y_range[2]),
         c(public$x_range[1] - shift, public$y_range[1]), add.bias = TRUE)
  b <- as.double(lr$coeff)
  c(b[1] - shift * b[2], b[2])
}

epsilons <- c(0.1, 0.2, 0.5, 1, 2, 5, 10)
n_rel <- 100L
methods <- c("riemdp", "dppack_as_is", "dppack_centred")
curve <- list()
table_draws <- list()
for (eps in epsilons) {
  for (m in methods) {
    # one seed per (epsilon, method): 1872 * 1000 + 10 * (index of epsilon) + (index of method)
    B <- t(dp_replicate(function(i) switch(m,
      riemdp = release_riemdp(eps),
      dppack_as_is = release_dppack(eps, FALSE),
      dppack_centred = release_dppack(eps, TRUE)),
      times = n_rel, seed = 1872000L + 10L * match(eps, epsilons) + match(m, methods), simplify = TRUE))
    e <- apply(B, 1, mse)
    curve[[length(curve) + 1L]] <- data.frame(
      epsilon = eps, method = m, mse_mean = mean(e), mse_se = stats::sd(e) / sqrt(n_rel),
      mse_median = stats::median(e), mse_q25 = stats::quantile(e, 0.25, names = FALSE),
      mse_q75 = stats::quantile(e, 0.75, names = FALSE),
      intercept_mean = mean(B[, 1]), slope_mean = mean(B[, 2]), slope_sd = stats::sd(B[, 2]))
    if (eps == 2) table_draws[[m]] <- e
  }
  cat(sprintf("epsilon = %g done, %.0f s\n", eps, elapsed()))
}
curve <- do.call(rbind, curve)

## DPpack without privacy (eps = Inf): the bias of its coefficient ball alone.
dppack_no_noise <- c(as_is = mse(release_dppack(Inf, FALSE)), centred = mse(release_dppack(Inf, TRUE)))

out <- list(
  settings = list(public = public, epsilons = epsilons, n_rel = n_rel, n = n,
                  control = "default (control = NULL)", has_dppack = TRUE,
                  dppack = as.character(utils::packageVersion("DPpack")),
                  seed = 1872L, riemdp = as.character(utils::packageVersion("riemdp")),
                  R = R.version.string, date = format(Sys.Date()), runtime_s = NA_real_),
  lm = list(coef = stats::coef(fit_lm), mse = mse(stats::coef(fit_lm))),
  curve = curve, table_draws = table_draws, dppack_no_noise = dppack_no_noise)
out$settings$runtime_s <- round(elapsed())
out$settings$workers <- if (requireNamespace("future", quietly = TRUE)) future::nbrOfWorkers() else 1L
dir.create("inst/extdata", showWarnings = FALSE)
saveRDS(out, "inst/extdata/private-linear-regression.rds", version = 2, compress = "xz")
cat(sprintf("saved inst/extdata/private-linear-regression.rds (%d bytes), %.0f s\n",
            file.size("inst/extdata/private-linear-regression.rds"), elapsed()))
if (!is.null(old_plan)) future::plan(old_plan)
