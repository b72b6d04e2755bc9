## Releases behind vignettes/private-shape-regression.Rmd: rat skull shape
## (8 landmarks, Kendall's shape space) against age, from the `rats` data of
## the shapes package (Bookstein 1991: 18 rats, each at 7, 14, 21, 30, 40, 60,
## 90 and 150 days), released with dp_geodesic_regression() at several
## epsilon: the shape-against-age example of Kulkarni & Soto's poster (2026),
## on data that R users can install.
##
## Run from the package root with riemdp and shapes installed:
##     Rscript vignettes/data-raw/private-shape-regression.R
## Writes inst/extdata/private-shape-regression.rds (a few kB). Takes about
## 20 seconds sequentially (21 s for 20 releases per epsilon when the data
## were made; the old random-walk chain needed 166 s for 4).
##
## The releases go through dp_replicate(): sequentially by default, in
## parallel under a future::plan() set before source()-ing the script, or with
## RIEMDP_WORKERS=k in the environment (a multisession plan with k workers).
## Each release draws from its own L'Ecuyer-CMRG stream, fixed by the seed of
## its dp_replicate() call, so the results do not depend on the plan.

options(rgl.useNULL = TRUE)   # shapes loads rgl; no display needed
suppressPackageStartupMessages(library(riemdp))
if (!requireNamespace("shapes", quietly = TRUE)) stop("this script needs the shapes package")
t_start <- proc.time()[["elapsed"]]
elapsed <- function() proc.time()[["elapsed"]] - t_start
workers <- suppressWarnings(as.integer(Sys.getenv("RIEMDP_WORKERS", "1")))
old_plan <- if (!is.na(workers) && workers > 1L) future::plan(future::multisession, workers = workers)

data("rats", package = "shapes", envir = environment())
K <- manifold_kendall(8)
age <- rats$time
fit <- geodesic_regression(K, age, rats$x)

## Public parameters (none computed from the data):
## - x_range: the ages of the study design, 7 to 150 days;
## - center: a regular octagon with its vertices in landmark order,
##   clockwise, because the 8 landmarks are defined in order around the
##   outline of the skull's midsagittal section and digitised clockwise (the
##   landmark protocol, not the measurements);
## - radius: the shape at 7 days is declared within pi/4 of that octagon
##   (at most pi/2 on Kendall's space);
## - tau: residual shapes farther than 0.1 rad (Procrustes) from the fit are
##   clipped; tau_m: the shape changes by at most 0.5 rad over the age range.
octagon <- cbind(cos(-2 * pi * (0:7) / 8), sin(-2 * pi * (0:7) / 8))
public <- list(x_range = c(7, 150), center = octagon, radius = pi / 4, tau = 0.1, tau_m = 0.5)

## The releases' default chain (control = NULL: 250 + 25 D burn-in steps and
## as many after; D = 24 here, so 850 + 850).
epsilons <- c(1, 5, 20)
n_rel <- 20L
releases <- list()
summary_rows <- list()
for (eps in epsilons) {
  # one seed per epsilon: 1991 * 1000 + (index of epsilon)
  rels <- dp_replicate(function(i) {
    rel <- dp_geodesic_regression(K, age, rats$x, epsilon = eps, tau = public$tau, tau_m = public$tau_m,
                                  x_range = public$x_range, center = public$center, radius = public$radius)
    rel$call <- NULL
    rel
  }, times = n_rel, seed = 1991000L + match(eps, epsilons))
  for (i in seq_len(n_rel)) {
    rel <- rels[[i]]
    summary_rows[[length(summary_rows) + 1L]] <- data.frame(
      epsilon = eps, release = i,
      dist_7 = riem_dist(K, predict(fit, 7), predict(rel, 7)),
      dist_150 = riem_dist(K, predict(fit, 150), predict(rel, 150)),
      mae = mean(riem_dist(K, predict(rel, age), rats$x)),
      speed = riem_norm(K, rel$footpoint_range, rel$shooting_range))
    if (i == 1L) releases[[as.character(eps)]] <- rel
  }
  cat(sprintf("epsilon = %g: %d releases, %.0f s\n", eps, n_rel, elapsed()))
}
summary_rows <- do.call(rbind, summary_rows)

out <- list(
  settings = list(public = public, epsilons = epsilons, n_rel = n_rel,
                  control = "default (control = NULL)", seed = 1991L,
                  riemdp = as.character(utils::packageVersion("riemdp")), R = R.version.string,
                  date = format(Sys.Date()), runtime_s = NA_real_),
  fit = list(mae = mean(riem_dist(K, fitted(fit), rats$x)), r_squared = fit$r_squared,
             dist_center = riem_dist(K, public$center, predict(fit, 7)),
             speed = 143 * riem_norm(K, fit$footpoint, fit$shooting)),   # across the age range
  releases = releases, summary = summary_rows)
out$settings$runtime_s <- round(elapsed())
out$settings$workers <- if (requireNamespace("future", quietly = TRUE)) future::nbrOfWorkers() else 1L
dir.create("inst/extdata", showWarnings = FALSE)
saveRDS(out, "inst/extdata/private-shape-regression.rds", version = 2, compress = "xz")
cat(sprintf("saved inst/extdata/private-shape-regression.rds (%d bytes), %.0f s\n",
            file.size("inst/extdata/private-shape-regression.rds"), elapsed()))
if (!is.null(old_plan)) future::plan(old_plan)
