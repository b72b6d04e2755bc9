## Seconds per default release of dp_geodesic_regression() (the chain-drawn
## KNG law) at n = 500 and 5000 on hyperbolic(2), kendall(8), spd(2) and
## sphere(2), for one or more installed builds of riemdp, each in its own
## Rscript process (same run: compare the ratios, the machine may be shared).
## Also prints a fingerprint of a few seeded releases per build, to check
## that the builds draw the same law (the same releases, up to rounding).
##
## Rscript bench/regression-chain-speed.R LIB1 [LIB2 ...]   (run from the repo root)
## Env: REPS (releases timed per cell, default 5), NS (default "500,5000"),
## ROUNDS (runs of each build, alternating; the best time is kept; default 2),
## KEYS (the manifolds, default "hyperbolic(2),kendall(8),spd(2),sphere(2)").
## Ratios are LIB1's time over the others'; max|diff| compares the seeded
## releases (footpoint and shooting vector of each) with LIB1's.
args <- commandArgs(trailingOnly = TRUE)
if (length(args) >= 2L && args[[1L]] == "--worker") {
  lib <- args[[2L]]
  .libPaths(c(lib, .libPaths()))
  suppressMessages(library(riemdp))
  options(riemdp.threads = 1)
  source(file.path("tests", "testthat", "helper-conformance.R"))
  reps <- as.integer(Sys.getenv("REPS", "5"))
  ns <- as.integer(strsplit(Sys.getenv("NS", "500,5000"), ",")[[1L]])
  keys <- strsplit(Sys.getenv("KEYS", "hyperbolic(2),kendall(8),spd(2),sphere(2)"), ",", fixed = TRUE)[[1L]]
  # bound = "poster": the same sigma in builds before and after the default
  # became "jacobi" (it sets sigma on hyperbolic space and spd), so that the
  # releases of two builds can be compared
  rel_args <- function(d) list(d$M, d$x, d$Y, epsilon = 2, tau = d$tau, tau_m = d$tau_m, x_range = d$x_range,
                               center = d$center, radius = d$radius, bound = "poster")
  for (key in keys) for (n in ns) {
    set.seed(1)
    d <- conf_geodesic_data(key, n, 0, 4)
    a <- rel_args(d)
    invisible(do.call(dp_geodesic_regression, a))  # warm-up
    set.seed(2)
    t0 <- proc.time()[["elapsed"]]
    fp <- NULL
    for (r in seq_len(reps)) {
      rel <- do.call(dp_geodesic_regression, a)
      fp <- c(fp, as.double(rel$footpoint_range), as.double(rel$shooting_range))
    }
    secs <- (proc.time()[["elapsed"]] - t0) / reps
    cat(sprintf("RES\t%s\t%d\t%.5f\t%s\n", key, n, secs, paste(sprintf("%.17g", fp), collapse = ",")))
  }
  quit(save = "no")
}
libs <- args
rounds <- as.integer(Sys.getenv("ROUNDS", "2"))
script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
res <- list()
for (round in seq_len(rounds)) for (lib in libs) {  # builds alternate: the load of the machine is shared
  out <- system2("Rscript", c(script, "--worker", lib), stdout = TRUE, env = "RIEMDP_NUM_THREADS=1")
  out <- out[startsWith(out, "RES\t")]
  tab <- do.call(rbind, strsplit(out, "\t", fixed = TRUE))
  cur <- data.frame(key = tab[, 2], n = as.integer(tab[, 3]), secs = as.double(tab[, 4]), fp = tab[, 5])
  if (is.null(res[[lib]])) res[[lib]] <- cur else res[[lib]]$secs <- pmin(res[[lib]]$secs, cur$secs)  # best of rounds
}
base <- res[[1L]]
cat(sprintf("%-14s %5s %s\n", "manifold", "n", paste(sprintf("%14s", basename(libs)), collapse = "")))
for (i in seq_len(nrow(base))) {
  cat(sprintf("%-14s %5d", base$key[i], base$n[i]))
  for (lib in libs) cat(sprintf(" %13.4fs", res[[lib]]$secs[i]))
  if (length(libs) > 1L) {
    cat(sprintf("   ratio %s", paste(sprintf("%.2fx", base$secs[i] / vapply(libs[-1L], function(l) res[[l]]$secs[i], 0)),
                                        collapse = " ")))
    for (lib in libs[-1L]) {
      a <- as.double(strsplit(base$fp[i], ",")[[1L]])
      b <- as.double(strsplit(res[[lib]]$fp[i], ",")[[1L]])
      cat(sprintf("   max|diff| %.3g", max(abs(a - b))))
    }
  }
  cat("\n")
}
