## Benchmark: the SPD(3) Frechet median and weighted Frechet mean of riemdp
## against the CRAN package 'manifold' (frechetMedian / frechetMean on
## createM("AffInv"), the same affine-invariant metric), on the 10^4 SPD(3)
## matrices of bench/geometry.R part (c), with weights runif(n).
##
## Run from the package root with the package installed:
##     Rscript bench/spd-peer.R [rounds]
## Each round times every call once after the others (same-run ratios:
## riemdp time / manifold time, so that load from other programs hits both
## alike); rounds (default 3) are repeated and reported separately, with the
## load average (uptime) and riemdp's thread setting. Each time is the
## median of 3 calls. Also reports the distance between the two packages'
## estimates (each stops on its own rule: riemdp at gradient norm 1e-10,
## manifold at a relative change of 1e-9 in its sum of squares).

suppressPackageStartupMessages(library(riemdp))
source(file.path("bench", "ensure-package.R"))
if (!ensure_package("manifold")) stop("the CRAN package 'manifold' is needed for this comparison")
args <- commandArgs(TRUE)
rounds <- if (length(args)) as.integer(args[1]) else 3L

sym_fun <- function(A, f) {
  e <- eigen(A, symmetric = TRUE)
  e$vectors %*% diag(f(e$values), nrow(A)) %*% t(e$vectors)
}
set.seed(1)
n <- 1e4L
B <- matrix(c(2, 0.5, 0.2, 0.5, 1, 0.3, 0.2, 0.3, 0.5), 3, 3)
Bh <- sym_fun(B, sqrt)
X <- array(0, c(3, 3, n))
for (i in seq_len(n)) {
  S <- matrix(stats::rnorm(9, sd = 0.3), 3, 3)
  S <- (S + t(S)) / 2
  Y <- Bh %*% sym_fun(S, exp) %*% Bh
  X[, , i] <- (Y + t(Y)) / 2
}
w <- stats::runif(n)
P3 <- manifold_spd(3)
mfd <- manifold::createM("AffInv")
XM <- matrix(X, 9, n)  # manifold's layout: one vectorised matrix per column

time3 <- function(f) {
  ts <- vapply(1:3, function(i) {
    invisible(gc(verbose = FALSE))
    t0 <- proc.time()[["elapsed"]]
    f()
    proc.time()[["elapsed"]] - t0
  }, numeric(1))
  stats::median(ts)
}
tasks <- list(
  median_riemdp = function() frechet_median(P3, X),
  median_manifold = function() manifold::frechetMedian(mfd, XM),
  wmean_riemdp = function() frechet_mean(P3, X, weights = w),
  wmean_manifold = function() manifold::frechetMean(mfd, XM, weight = w),
  mean_riemdp = function() frechet_mean(P3, X)
)
est <- lapply(tasks, function(f) f())  # warm up, and the estimates
gap <- function(a, b) riem_dist(P3, a, matrix(b, 3, 3))
cat(sprintf("distance riemdp - manifold: median %.2g, weighted mean %.2g\n",
            gap(coef(est$median_riemdp), est$median_manifold),
            gap(coef(est$wmean_riemdp), est$wmean_manifold)))
cat(sprintf("riemdp iterations: median %d, weighted mean %d\n",
            est$median_riemdp$iterations, est$wmean_riemdp$iterations))

threads <- tryCatch(riemdp:::riemdp_threads(), error = function(e) NA_integer_)  # NA: a build without the setting
for (r in seq_len(rounds)) {
  load <- trimws(sub(".*load average:", "", system("uptime", intern = TRUE)))
  t <- vapply(tasks, time3, numeric(1))
  cat(sprintf(paste0("round %d (load %s, riemdp.threads %d): median %.3f s / %.3f s = %.2f; ",
                     "weighted mean %.3f s / %.3f s = %.2f; riemdp weighted / unweighted mean %.2f\n"),
              r, load, threads, t[["median_riemdp"]], t[["median_manifold"]],
              t[["median_riemdp"]] / t[["median_manifold"]], t[["wmean_riemdp"]], t[["wmean_manifold"]],
              t[["wmean_riemdp"]] / t[["wmean_manifold"]], t[["wmean_riemdp"]] / t[["mean_riemdp"]]))
}
cat(sprintf("riemdp %s, manifold %s, %s\n", utils::packageVersion("riemdp"),
            utils::packageVersion("manifold"), R.version.string))
