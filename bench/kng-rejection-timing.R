# Release time of the exact K-norm gradient draw by rejection against the
# chain (method = "mh"), dp_frechet_mean(mechanism = "kng") on S^2 with
# radius pi/8 and epsilon = 1, at n = 1e3, 1e4, 1e5, over three layouts
# (spread, all at one boundary point, all at the centre): medians of 5 runs,
# and the ratio chain / rejection. The rejection route's work is the same
# public number of gradient passes for every layout (fit_iter + 1 + N).
# Part "datasets" (issue 35, item 3b): release time across data sets at
# fixed (n, epsilon), see below.
# Run from the package root: Rscript bench/kng-rejection-timing.R
# (RIEMDP_TIMING_PART = "compare", "datasets" or "all", the default)
lib <- Sys.getenv("RIEMDP_LIB", "/tmp/lib_35")
part <- Sys.getenv("RIEMDP_TIMING_PART", "all")
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
if (part %in% c("compare", "all")) for (n in c(1e3, 1e4, 1e5)) {
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

# Release time across data sets at fixed (n, epsilon): S^2, r = pi/8,
# n in {1e3, 1e4}, epsilon in {0.5, 2}; the layouts of
# tests/testthat/test-kng-rejection.R (spread, boundary, opposite, edge), all
# at the centre, and "far": every point at distance 0.8 to 2.5 from the
# centre (outside the ball), which the release clips to its boundary. The
# same call for every data set, outside = "clip" (the clip runs over every
# point whatever the data). CPU time (user + system) of a batch of releases,
# rounds interleaved across data sets in a rotating order so that machine
# load hits all alike; the median per data set of the per-release time, and
# the max / min ratio of the medians (target: within +-10%).
if (part %in% c("datasets", "all")) {
  ex <- parse("tests/testthat/test-kng-rejection.R")
  for (e in ex) if (is.call(e) && identical(e[[1]], as.name("<-")) && grepl("^rej_", deparse(e[[2]])))
    eval(e, globalenv())
  rounds <- as.integer(Sys.getenv("RIEMDP_TIMING_ROUNDS", "11"))
  kinds <- c(rej_layouts, "centre", "far")
  make <- function(kind, n, seed) {
    set.seed(seed)
    switch(kind,
           centre = matrix(north, n, 3, byrow = TRUE),
           far = do.call(rbind, lapply(seq_len(n), function(i) rej_sexp(north, stats::runif(1, 0.8, 2.5) * rej_tangent(north)))),
           rej_layout(kind, n, north, r))
  }
  cpu <- function() sum(proc.time()[c("user.self", "sys.self")])
  cat(sprintf("\nRelease time across data sets at fixed (n, epsilon): S^2, r = pi/8, outside = \"clip\"; CPU time per release (ms), median of %d interleaved rounds\n", rounds))
  summ <- list()
  for (n in c(1e3, 1e4)) for (eps in c(0.5, 2)) {
    p <- riemdp:::kng_rejection_plan(S2, n, eps, r)
    data <- lapply(seq_along(kinds), function(k) make(kinds[k], n, 3500 + k))
    names(data) <- kinds
    stopifnot(all(riem_dist(S2, north, data$far) > r))
    rel <- function(X) dp_frechet_mean(S2, X, epsilon = eps, radius = r, center = north, mechanism = "kng", outside = "clip")
    # batch size: about 0.5 s of CPU (clock ticks are 10 ms)
    t0 <- cpu()
    for (i in 1:3) rel(data$spread)
    B <- max(3L, ceiling(0.5 / max((cpu() - t0) / 3, 1e-4)))
    stopifnot(identical(rel(data$far)$sampler, "exact-rejection"))
    tm <- matrix(NA_real_, rounds, length(kinds), dimnames = list(NULL, kinds))
    for (k in seq_len(rounds)) {
      ord <- ((seq_along(kinds) + k - 2L) %% length(kinds)) + 1L
      for (j in ord) {
        X <- data[[j]]
        t0 <- cpu()
        for (b in seq_len(B)) rel(X)
        tm[k, j] <- (cpu() - t0) / B
      }
    }
    med <- apply(tm, 2, median) * 1e3
    ratio <- max(med) / min(med)
    cat(sprintf("n = %g, epsilon = %g: %d gradient passes (fit %d + 1 + N %d), %d releases per batch\n", n, eps, p$passes,
                p$fit_iter, p$N, B))
    cat(paste(sprintf("  %-8s %8.3f ms  (IQR %.3f-%.3f)", kinds, med, apply(tm, 2, quantile, 0.25) * 1e3,
                      apply(tm, 2, quantile, 0.75) * 1e3), collapse = "\n"), "\n")
    cat(sprintf("  max / min of the medians: %.3f (%s / %s) %s\n", ratio, kinds[which.max(med)], kinds[which.min(med)],
                if (ratio <= 1.1) "within 10%" else "OUTSIDE 10%"))
    summ[[length(summ) + 1L]] <- data.frame(n = n, epsilon = eps, t(med), ratio = ratio)
  }
  cat("\nSummary (median ms per release):\n")
  print(do.call(rbind, summ), row.names = FALSE, digits = 4)
}
