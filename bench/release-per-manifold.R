## CPU seconds per default release of dp_geodesic_regression() at n = 2000
## (epsilon = 2, one thread, the default chain) on S^2, S^3, H^3, SPD(3) and
## Kendall(5), and each manifold's ratio to S^2: the per-manifold release
## table of vignette("benchmarks"). Data: a geodesic from a base point with a
## small shooting vector, noise 0.01, x uniform on the public range [0, 1];
## public ball of radius 0.5 about the base point, tau = 0.1, tau_m = 1.
## Each build runs in its own Rscript process; builds alternate over ROUNDS
## rounds and each cell keeps its best time (the machine may be shared).
##
##   Rscript bench/release-per-manifold.R LIB1 [LIB2 ...]   (from the repo root)
##
## Env: REPS (releases per cell, default 5), ROUNDS (default 2), N (default 2000).
args <- commandArgs(trailingOnly = TRUE)
if (length(args) >= 2L && args[[1L]] == "--worker") {
  .libPaths(c(args[[2L]], .libPaths()))
  suppressMessages(library(riemdp))
  options(riemdp.threads = 1)
  reps <- as.integer(Sys.getenv("REPS", "5"))
  n <- as.integer(Sys.getenv("N", "2000"))
  setups <- list(
    "sphere(2)" = list(manifold_sphere(2), c(0, 0, 1)),
    "sphere(3)" = list(manifold_sphere(3), c(0, 0, 0, 1)),
    "hyperbolic(3)" = list(manifold_hyperbolic(3), c(1, 0, 0, 0)),
    "spd(3)" = list(manifold_spd(3), diag(3)),
    "kendall(5)" = list(manifold_kendall(5), riem_project(manifold_kendall(5),
                                                          cbind(cos(2 * pi * (0:4) / 5), sin(2 * pi * (0:4) / 5))))
  )
  for (key in names(setups)) {
    M <- setups[[key]][[1L]]
    p0 <- setups[[key]][[2L]]
    set.seed(1)
    q <- riem_rgaussian(M, 1L, p0, 0.3)
    v0 <- riem_log(M, p0, q)
    v0 <- 0.3 * v0 / riem_norm(M, p0, v0)
    x <- stats::runif(n)
    fit <- riem_geodesic(M, p0, v0, x)
    Y <- riem_project(M, fit + array(stats::rnorm(length(fit), sd = 0.01), dim(fit)))
    run <- function() dp_geodesic_regression(M, x, Y, epsilon = 2, tau = 0.1, tau_m = 1, x_range = c(0, 1),
                                             center = p0, radius = 0.5)
    invisible(run())
    set.seed(2)
    t0 <- proc.time()
    for (r in seq_len(reps)) invisible(run())
    t1 <- proc.time() - t0
    cat(sprintf("RES\t%s\t%.5f\n", key, (t1[["user.self"]] + t1[["sys.self"]]) / reps))
  }
  quit(save = "no")
}
libs <- args
rounds <- as.integer(Sys.getenv("ROUNDS", "2"))
script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
res <- list()
for (round in seq_len(rounds)) for (lib in libs) {
  out <- system2("Rscript", c(script, "--worker", lib), stdout = TRUE, env = "RIEMDP_NUM_THREADS=1")
  out <- out[startsWith(out, "RES\t")]
  tab <- do.call(rbind, strsplit(out, "\t", fixed = TRUE))
  cur <- stats::setNames(as.double(tab[, 3]), tab[, 2])
  res[[lib]] <- if (is.null(res[[lib]])) cur else pmin(res[[lib]], cur)
}
cat(sprintf("n = %s, one thread, CPU s per release (ratio to sphere(2))\n", Sys.getenv("N", "2000")))
cat(sprintf("%-14s %s\n", "manifold", paste(sprintf("%24s", basename(libs)), collapse = "")))
for (key in names(res[[1L]])) {
  cat(sprintf("%-14s", key))
  for (lib in libs) cat(sprintf(" %12.4f s (%6.1fx)", res[[lib]][[key]], res[[lib]][[key]] / res[[lib]][["sphere(2)"]]))
  cat("\n")
}
