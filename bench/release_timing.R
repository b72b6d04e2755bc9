## Does a release's run time or its conditions depend on the data? (issue 6, item 3)
## Private Frechet means on H^2 with a public centre 12 from the origin: 20
## datasets of n = 20 points and, for each, an adjacent dataset (one point
## replaced by the centre). Prints how many releases emitted a warning and the
## spread of run times across datasets.
##
## Run from the package root with the package installed:
##     Rscript bench/release_timing.R
## Total runtime: a few seconds.

suppressPackageStartupMessages(library(riemdp))
H2 <- manifold_hyperbolic(2)
ctr <- riem_exp(H2, c(1, 0, 0), c(0, 12, 0))
reps <- 5L
res <- NULL
for (s in 1:20) {
  set.seed(s)
  X <- riem_rgaussian(H2, 20, ctr, 0.3)
  Y <- X
  Y[20, ] <- ctr
  for (nm in c("X", "Y")) {
    D <- if (nm == "X") X else Y
    warned <- 0L
    secs <- system.time(for (i in seq_len(reps))
      withCallingHandlers(dp_frechet_mean(H2, D, epsilon = 1, radius = 2, center = ctr),
                          warning = function(w) { warned <<- warned + 1L; invokeRestart("muffleWarning") })
    )[["elapsed"]] / reps
    res <- rbind(res, data.frame(seed = s, data = nm, ms = 1000 * secs, warned = warned > 0L))
  }
}
cat(sprintf("releases with a warning: %d of %d\n", sum(res$warned), nrow(res)))
cat(sprintf("time per release (ms): median %.2f, max %.2f; max / min over datasets %.1f\n",
            median(res$ms), max(res$ms), max(res$ms) / min(res$ms)))
