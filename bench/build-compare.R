## Run time of two (or more) installed builds of riemdp on the workloads
## behind the figures of vignette("benchmarks"), as same-run ratios: each
## build runs in its own Rscript process, the builds alternate over ROUNDS
## rounds, and each workload keeps its best time over rounds (the machine
## may be shared). One thread (riemdp.threads = 1) unless a row says 2.
## Times are CPU seconds per call (user + system of the worker process),
## the best of several batches of at least 0.3 s each.
##
##   Rscript bench/build-compare.R OLD_LIB NEW_LIB   (from the repo root)
##
## Env: ROUNDS (default 3). Ratio = NEW time / OLD time (below 1: the new
## build is faster). Each workload also prints a checksum of its result, so
## that the builds are seen to compute the same values.
args <- commandArgs(trailingOnly = TRUE)
if (length(args) >= 2L && args[[1L]] == "--worker") {
  .libPaths(c(args[[2L]], .libPaths()))
  suppressMessages(library(riemdp))
  # CPU seconds per call (user + system of this process: robust to other
  # jobs on the machine), from batches of calls lasting at least 0.3 s; the
  # best of `reps` batches.
  cpu <- function() { t <- proc.time(); t[["user.self"]] + t[["sys.self"]] }
  best <- function(f, reps) {
    f()  # warm-up
    k <- 1L
    repeat {
      t0 <- cpu(); for (i in seq_len(k)) f(); t <- cpu() - t0
      if (t >= 0.3 || k >= 2^20) break
      k <- k * 2L
    }
    per <- t / k
    for (r in seq_len(reps - 1L)) {
      t0 <- cpu(); for (i in seq_len(k)) f(); per <- min(per, (cpu() - t0) / k)
    }
    per
  }
  set.seed(1)
  S2 <- manifold_sphere(2)
  X2 <- riem_rlaplace(S2, 1e5, c(0, 0, 1), 0.3)
  X2d <- X2[1:2000, ]
  P3 <- manifold_spd(3)
  S3 <- riem_rlaplace(P3, 1e4, diag(3), 0.3)
  S3d <- S3[, , 1:400]
  x <- runif(1e4)
  Yreg <- riem_rgaussian(S2, 1e4, c(0, 0, 1), 0.05)
  Yreg <- t(vapply(seq_len(1e4), function(i) riem_geodesic(S2, c(0, 0, 1), c(0.5, 0, 0), x[i]), numeric(3)))
  Yreg <- Yreg + matrix(rnorm(3e4, sd = 0.01), ncol = 3)
  Yreg <- Yreg / sqrt(rowSums(Yreg^2))
  rats <- NULL
  utils::data("rats", package = "shapes", envir = environment())
  K8 <- manifold_kendall(8)
  xs <- runif(1e3)
  Sreg <- riem_rlaplace(P3, 1e3, diag(3), 0.2)
  w <- runif(1e4)
  w2 <- runif(1e5, 0.5, 1)
  tonga <- quakes[quakes$long > 175, ]
  ll <- function(lat, long) cbind(cos(lat * pi / 180) * cos(long * pi / 180),
                                  cos(lat * pi / 180) * sin(long * pi / 180), sin(lat * pi / 180))
  Yt <- ll(tonga$lat, tonga$long)
  jobs <- list(
    "riem_dist S2 1 vs 1e6 (2 threads)" = list(function() { options(riemdp.threads = 2); on.exit(options(riemdp.threads = 1)); riem_dist(S2, c(0, 0, 1), rbind(X2, X2, X2, X2, X2, X2, X2, X2, X2, X2)) }, 3),
    "frechet_mean S2 1e5" = list(function() frechet_mean(S2, X2)$mean, 3),
    "frechet_mean SPD(3) 1e4" = list(function() frechet_mean(P3, S3)$mean, 3),
    "riem_dist_matrix S2 2000" = list(function() sum(riem_dist_matrix(S2, X2d)), 5),
    "riem_dist_matrix SPD(3) 400" = list(function() sum(riem_dist_matrix(P3, S3d)), 5),
    "riem_rlaplace S2 1e6" = list(function() { set.seed(3); riem_rlaplace(S2, 1e6, c(0, 0, 1), 0.3)[1, ] }, 3),
    "riem_rgaussian S2 1e6" = list(function() { set.seed(3); riem_rgaussian(S2, 1e6, c(0, 0, 1), 0.3)[1, ] }, 3),
    "geodesic_regression S2 1e4" = list(function() unlist(coef(geodesic_regression(S2, x, Yreg))), 3),
    "geodesic_regression rats kendall(8)" = list(function() unlist(coef(geodesic_regression(K8, rats$time, rats$x))), 3),
    "geodesic_regression SPD(3) 1e3" = list(function() unlist(coef(geodesic_regression(P3, xs, Sreg))), 3),
    "frechet_median SPD(3) 1e4" = list(function() frechet_median(P3, S3)$median, 3),
    "weighted frechet_mean SPD(3) 1e4" = list(function() frechet_mean(P3, S3, weights = w)$mean, 3),
    "weighted frechet_mean S2 1e5" = list(function() frechet_mean(S2, X2, weights = w2)$mean, 3),
    "dp_frechet_mean KNG S2 1e5" = list(function() { set.seed(4); dp_frechet_mean(S2, X2, epsilon = 1, radius = 0.7, center = c(0, 0, 1), mechanism = "kng", outside = "clip")$estimate }, 3),
    "dp_geodesic_regression Tonga (demo)" = list(function() { set.seed(5); unlist(dp_geodesic_regression(S2, tonga$depth, Yt, epsilon = 1, x_range = c(0, 700), center = ll(-20, 185)[1, ], radius = 10 * pi / 180, tau_m = 0.2, tau = 0.1)[c("footpoint", "shooting")]) }, 3),
    "dp_linear_regression cars" = list(function() { set.seed(6); coef(dp_linear_regression(dist ~ speed, cars, epsilon = 1, tau = 30, x_range = c(0, 30), beta_max = 200)) }, 3),
    "gdp_mu algorithm2" = list(function() { set.seed(7); gdp_mu(S2, 0.5, 1, method = "algorithm2")$mu }, 3)
  )
  options(riemdp.threads = 1)
  for (nm in names(jobs)) {
    val <- tryCatch(jobs[[nm]][[1]](), error = function(e) { message(nm, ": ", conditionMessage(e)); NA_real_ })
    secs <- tryCatch(best(jobs[[nm]][[1]], jobs[[nm]][[2]]), error = function(e) NA_real_)
    cat(sprintf("RES\t%s\t%.6f\t%.10g\n", nm, secs, sum(unlist(val), na.rm = TRUE)))
  }
  quit(save = "no")
}
libs <- args
if (length(libs) < 2L) stop("usage: Rscript bench/build-compare.R OLD_LIB NEW_LIB")
rounds <- as.integer(Sys.getenv("ROUNDS", "3"))
script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
res <- list()
for (round in seq_len(rounds)) for (lib in libs) {
  out <- system2("Rscript", c(script, "--worker", lib), stdout = TRUE)
  out <- out[startsWith(out, "RES\t")]
  tab <- do.call(rbind, strsplit(out, "\t", fixed = TRUE))
  cur <- data.frame(job = tab[, 2], secs = as.double(tab[, 3]), sum = tab[, 4])
  if (is.null(res[[lib]])) res[[lib]] <- cur else res[[lib]]$secs <- pmin(res[[lib]]$secs, cur$secs)
}
base <- res[[1L]]
cat(sprintf("%-40s %12s %12s %8s  %s\n", "workload (best of rounds)", "old CPU s", "new CPU s", "new/old", "same result"))
for (i in seq_len(nrow(base))) {
  for (lib in libs[-1L]) {
    cat(sprintf("%-40s %12.5f %12.5f %8.3f  %s\n", base$job[i], base$secs[i], res[[lib]]$secs[i],
                res[[lib]]$secs[i] / base$secs[i], if (identical(base$sum[i], res[[lib]]$sum[i])) "yes" else
                  paste(base$sum[i], "vs", res[[lib]]$sum[i])))
  }
}
