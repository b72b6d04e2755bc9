## Benchmark: the S^2 Frechet median and the weighted Frechet mean of riemdp,
## against the CRAN package 'manifold' (frechetMedian / frechetMean on
## createM("Sphere"), the same metric) and against riemdp's own unweighted
## mean, on 10^5 points of a Laplace law about the north pole (sigma = 0.3),
## weights runif(n).
##
## Run from the package root with the package installed (R_LIBS chooses the
## build):
##     Rscript bench/sphere-peer.R [rounds]
## Each round times every call once after the others (same-run ratios);
## each time is the median of 5 timings of 20 calls (per call); one thread
## (riemdp.threads = 1).
suppressPackageStartupMessages(library(riemdp))
source(file.path("bench", "ensure-package.R"))
has_manifold <- ensure_package("manifold")
args <- commandArgs(TRUE)
rounds <- if (length(args)) as.integer(args[1]) else 3L
options(riemdp.threads = 1)
set.seed(1)
S2 <- manifold_sphere(2)
n <- 1e5L
X <- riem_rlaplace(S2, n, c(0, 0, 1), 0.3)
w <- stats::runif(n)
tm <- function(f, k = 20L) stats::median(vapply(1:5, function(i) system.time(for (j in seq_len(k)) f())[["elapsed"]] / k, 0))
for (r in seq_len(rounds)) {
  t_mean <- tm(function() frechet_mean(S2, X))
  t_wmean <- tm(function() frechet_mean(S2, X, weights = w))
  t_med <- tm(function() frechet_median(S2, X), 5L)
  cat(sprintf("round %d: mean %.4f s, weighted mean %.4f s (%.2fx the unweighted), median %.4f s\n",
              r, t_mean, t_wmean, t_wmean / t_mean, t_med))
  if (has_manifold) {
    mfd <- manifold::createM("Sphere")
    XM <- t(X)
    t_mmed <- tm(function() manifold::frechetMedian(mfd, XM), 5L)
    t_mwmean <- tm(function() manifold::frechetMean(mfd, XM, weights = w), 5L)
    d_med <- riem_dist(S2, coef(frechet_median(S2, X)), drop(manifold::frechetMedian(mfd, XM)))
    cat(sprintf("  manifold: median %.4f s (riemdp/manifold %.2f; estimates %.1e apart), weighted mean %.4f s (riemdp/manifold %.2f)\n",
                t_mmed, t_med / t_mmed, d_med, t_mwmean, t_wmean / t_mwmean))
  }
}
