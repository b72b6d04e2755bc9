## Benchmark: the exact sampler of the SPD log-eigenvalues (issue 6 item 2)
## against Metropolis-Hastings on the log-eigenvalues ("eigen-mh").
##
## Run from the package root:
##     Rscript bench/spd_exact.R            # uses the installed riemdp
##     Rscript bench/spd_exact.R --install  # installs the tree into a temporary library first
## Everything is fixed by set.seed(); times are elapsed seconds (one core).
## Total runtime: about 3-6 minutes.
##
## For each kernel, k and sigma the table gives
##   bound     the proven lower bound on the acceptance rate that method = "auto"
##             compares with 1e-3 (spd_exact.h: E[exp(-c R)] under the envelope);
##   accept    the acceptance rate itself, estimated as the mean of the
##             acceptance probability over envelope proposals (unbiased), with
##             its relative standard error;
##   auto      the sampler chosen by method = "auto";
##   exact/s   exact SPD draws per second (riem_rgaussian / riem_rlaplace, method = "exact");
##   mh/s      eigen-MH draws per second (default mcmc_control(): burn-in 1000, thin 10),
##   mh ess/s  and effective draws (of |r|) per second;
##   release   time of one draw as used by a release: one exact draw, or one
##             eigen-MH state after burn-in 1000 + 2000 iterations (ms).

args <- commandArgs(trailingOnly = TRUE)
if ("--install" %in% args) {
  lib <- file.path(tempdir(), "riemdp-lib")
  dir.create(lib, showWarnings = FALSE)
  rc <- system2(file.path(R.home("bin"), "R"), c("CMD", "INSTALL", "--no-docs", paste0("--library=", lib), "."),
                stdout = FALSE, stderr = FALSE, env = "MAKEFLAGS=-j1")
  if (rc != 0) stop("R CMD INSTALL of the tree failed")
  .libPaths(c(lib, .libPaths()))
}
suppressPackageStartupMessages(library(riemdp))
options(width = 160)
t_start <- proc.time()[["elapsed"]]
set.seed(20240601)

info <- riemdp:::priv_spd_exact_info
log_eigen <- riemdp:::samp_spd_log_eigen
log_ratio <- riemdp:::priv_spd_exact_log_ratio
rradial <- riemdp:::riem_rradial
min_acc <- riemdp:::spd_exact_min_acceptance

elapsed <- function(expr) system.time(expr, gcFirst = FALSE)[["elapsed"]]

# Acceptance rate = E[ratio] over envelope proposals.
acceptance <- function(k, kernel, sigma, n) {
  w <- exp(log_ratio(log_eigen(k, n, kernel, sigma, "envelope")))
  c(mean = mean(w), rse = stats::sd(w) / sqrt(n) / mean(w))
}

# Largest sigma at which "auto" still uses the exact sampler.
threshold <- function(k, kernel) {
  smax <- if (kernel == "laplace") 1 / info(k, kernel, 1)$growth else 50
  f <- function(s) info(k, kernel, s)$log_acceptance_bound - log(min_acc)
  stats::uniroot(f, c(1e-8, smax * (1 - 1e-9)), tol = 1e-10)$root
}

grid <- list(
  gaussian = c(0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2),
  laplace = c(0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.3)
)
ks <- c(2L, 3L, 4L, 5L, 6L, 10L)
rows <- list()
for (kernel in names(grid)) for (k in ks) {
  M <- manifold_spd(k)
  eta <- diag(k)
  smax <- if (kernel == "laplace") 1 / info(k, kernel, 1)$growth else Inf
  sig <- grid[[kernel]][grid[[kernel]] < smax]
  if (kernel == "laplace") sig <- sort(unique(c(sig, signif(0.9 * smax, 3))))
  rfun <- if (kernel == "laplace") riem_rlaplace else riem_rgaussian
  for (s in sig) {
    n_env <- if (k >= 10) 5e4 else 2e5
    acc <- acceptance(k, kernel, s, n_env)
    bound <- exp(info(k, kernel, s)$log_acceptance_bound)
    auto <- if (riemdp:::spd_exact_preferred(k, kernel, s)) "exact" else "eigen-mh"
    # exact: about 2e5 proposals in all (1e4 for k = 10), skipped below 1e-5
    ex_rate <- NA_real_
    if (acc[["mean"]] >= 1e-5) {
      n_ex <- as.integer(max(20, min(20000, round((if (k >= 10) 1e4 else 2e5) * acc[["mean"]]))))
      t <- elapsed(x <- tryCatch(rfun(M, n_ex, eta, s, method = "exact"), error = function(e) NULL))
      if (!is.null(x)) ex_rate <- n_ex / t
    }
    # eigen-MH, default settings
    n_mh <- 2000L
    t <- elapsed(y <- tryCatch(rradial(M, n_mh, eta, s, "eigen-mh", mcmc_control(), kernel, NULL),
                                error = function(e) NULL))
    mh_rate <- if (is.null(y)) NA_real_ else n_mh / t
    mh_ess <- if (is.null(y)) NA_real_ else attr(y, "ess") / t
    release_ctl <- mcmc_control(thin = 2000L)  # as dp_frechet_mean: burn-in + n_iter iterations
    t_rel <- elapsed(z <- tryCatch(for (i in 1:10) rradial(M, 1L, eta, s, "eigen-mh", release_ctl, kernel, NULL),
                                   error = function(e) "failed")) / 10
    rows[[length(rows) + 1L]] <- data.frame(
      kernel = kernel, k = k, sigma = s, bound = signif(bound, 3),
      accept = signif(acc[["mean"]], 3), rse = sprintf("%.0f%%", 100 * acc[["rse"]]), auto = auto,
      `exact/s` = signif(ex_rate, 3), `mh/s` = signif(mh_rate, 3), `mh ess/s` = signif(mh_ess, 3),
      `release exact ms` = signif(1000 / ex_rate, 3),
      `release mh ms` = if (identical(z, "failed")) NA else signif(1000 * t_rel, 3),
      check.names = FALSE)
    cat(sprintf("%s k=%d sigma=%g done\n", kernel, k, s))
  }
}
tab <- do.call(rbind, rows)
cat("\nAcceptance of the exact SPD sampler and draw rates against eigen-MH\n")
cat("(NA: exact skipped below an acceptance of 1e-5, or draws not storable as positive definite matrices)\n\n")
print(tab, row.names = FALSE)

cat(sprintf("\nmethod = \"auto\" uses the exact sampler where bound >= %g; the largest such sigma:\n", min_acc))
k_th <- c(2:8, 10L, 15L, 20L)
th_tab <- do.call(rbind, lapply(names(grid), function(kernel) data.frame(
  kernel = kernel, k = k_th,
  sigma_max_exact = signif(vapply(k_th, function(k) threshold(k, kernel), 0), 4),
  laplace_bound = if (kernel == "laplace") signif(vapply(k_th, function(k) 1 / info(k, kernel, 1)$growth, 0), 4)
                  else NA)))
print(th_tab, row.names = FALSE)
cat(sprintf("\nriemdp %s, %s, %s\n", as.character(utils::packageVersion("riemdp")), R.version.string,
            Sys.info()[["machine"]]))
cat(sprintf("Total bench runtime: %.1f s\n", proc.time()[["elapsed"]] - t_start))
