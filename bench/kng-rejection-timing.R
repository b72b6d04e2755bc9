# Release time of the exact K-norm gradient draw by rejection against the
# chain (method = "mh"), dp_frechet_mean(mechanism = "kng") on S^2 with
# radius pi/8 and epsilon = 1, at n = 1e3, 1e4, 1e5, over three layouts
# (spread, all at one boundary point, all at the centre): medians of 5 runs,
# and the ratio chain / rejection. The rejection route's work is the same
# public number of gradient passes for every layout (fit_iter + 1 + N).
# Run from the package root: Rscript bench/kng-rejection-timing.R
lib <- Sys.getenv("RIEMDP_LIB", "/tmp/lib_35")
suppressMessages(library(riemdp, lib.loc = c(lib, .libPaths())))
S2 <- manifold_sphere(2)
north <- c(0, 0, 1)
r <- pi / 8
layout <- function(kind, n) {
  set.seed(1)
  switch(kind,
         spread = { X <- riem_rgaussian(S2, 3 * n, north, 0.15); X[riem_dist(S2, north, X) < r, ][1:n, ] },
         edge = matrix(riem_exp(S2, north, c(r, 0, 0)), n, 3, byrow = TRUE),
         centre = matrix(north, n, 3, byrow = TRUE))
}
for (n in c(1e3, 1e4, 1e5)) {
  p <- riemdp:::kng_rejection_plan(S2, n, 1, r)
  cat(sprintf("n = %g: fit %d steps, N = %d proposals, %d gradient passes (a_min = %.3f, delta_f = %.2g); chain: %d steps\n",
              n, p$fit_iter, p$N, p$passes, p$a_min, p$delta_f, sum(unlist(riemdp:::kng_chain_length(2, n)))))
  for (kind in c("spread", "edge", "centre")) {
    X <- layout(kind, n)
    tm <- function(method) median(replicate(5, system.time(
      dp_frechet_mean(S2, X, epsilon = 1, radius = r, center = north, mechanism = "kng", method = method,
                      control = if (method == "mh") mcmc_control(verbose = FALSE)))[["elapsed"]]))
    a <- tm("auto")
    b <- tm("mh")
    cat(sprintf("  %-7s rejection %.4f s   chain %.4f s   chain / rejection %.1f\n", kind, a, b, b / a))
  }
}
