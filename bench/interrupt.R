# Ctrl-C latency (issue 10, "Ctrl-C works"): seconds from SIGINT to the exit
# of a child R process busy in a long C++ loop, for an MH chain
# (riem_rlaplace(method = "mh")), KNG releases (dp_frechet_mean and
# dp_geodesic_regression with long chains) and gdp_mu(method = "monte_carlo")
# with a large budget. Target: < 0.5 s. Each call would run for minutes.
#
# Usage (from the package root, riemdp installed in a library on .libPaths()
# or in R_LIBS):
#   Rscript bench/interrupt.R [reps] [delay]
# reps: repetitions per case (default 3); delay: seconds between the child
# entering the call and SIGINT (default 1.5). Needs POSIX signals
# (not Windows). The child is a non-interactive Rscript, where an interrupt
# ends the process: the time to exit bounds the time to the prompt of an
# interactive session (the same unwinding, minus R's shutdown).

args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args) >= 1) as.integer(args[1]) else 3L
delay <- if (length(args) >= 2) as.numeric(args[2]) else 1.5
if (.Platform$OS.type == "windows") stop("bench/interrupt.R needs POSIX signals")

cases <- list(
  "riem_rlaplace(method = 'mh'), n_iter 2e9" = c(
    "S2 <- manifold_sphere(2)",
    "x <- riem_rlaplace(S2, 1, c(0, 0, 1), 0.3, method = 'mh', control = mcmc_control(n_iter = 1, burn_in = 2e9))"),
  "dp_frechet_mean(mechanism = 'kng'), n_iter 2e9" = c(
    "S2 <- manifold_sphere(2)",
    "X <- riem_rgaussian(S2, 200, c(0, 0, 1), 0.05)",
    "X <- X[riem_dist(S2, c(0, 0, 1), X) < pi / 8, ]",
    "r <- dp_frechet_mean(S2, X, epsilon = 1, radius = pi / 8, center = c(0, 0, 1), mechanism = 'kng', control = mcmc_control(n_iter = 2e9))"),
  "dp_geodesic_regression (KNG), burn_in 2e9" = c(
    "S2 <- manifold_sphere(2)",
    "x <- seq(0, 1, length.out = 100)",
    "Y <- riem_rgaussian(S2, 100, c(0, 0, 1), 0.05)",
    "r <- dp_geodesic_regression(S2, x, Y, epsilon = 1, tau = 0.2, tau_m = 0.5, x_range = c(0, 1), center = c(0, 0, 1), radius = pi / 8, control = mcmc_control(n_iter = 10, burn_in = 2e9))"),
  "gdp_mu(method = 'monte_carlo'), n*m = 5e7" = c(
    "r <- gdp_mu(manifold_sphere(2), 0.5, 0.3, method = 'monte_carlo', control = gdp_control(n = 1e4, m = 5e3))"),
  # the same with a cli progress bar up (verbose = TRUE: the bar is created,
  # counted and shown at once, cli.progress_show_after = 0)
  "riem_rlaplace(method = 'mh'), progress bar up" = c(
    "options(cli.progress_show_after = 0)",
    "S2 <- manifold_sphere(2)",
    "x <- riem_rlaplace(S2, 1, c(0, 0, 1), 0.3, method = 'mh', control = mcmc_control(n_iter = 1, burn_in = 2e9, verbose = TRUE))"),
  "gdp_mu(method = 'monte_carlo'), progress bar up" = c(
    "options(cli.progress_show_after = 0)",
    "r <- gdp_mu(manifold_sphere(2), 0.5, 0.3, method = 'monte_carlo', control = gdp_control(n = 1e4, m = 5e3, verbose = TRUE))")
)

# Seconds from SIGINT to the child's exit (NA if the child finished or died
# before the signal, Inf if it ignored it for `patience` seconds): the
# tests' harness, with the case's last line as the call and the lines before
# it run before the clock starts.
source(file.path("tests", "testthat", "helper-interrupt.R"))
time_to_exit <- function(code, delay, patience = 30)
  time_to_exit_after_sigint(tail(code, 1), delay, patience, setup = head(code, -1))$elapsed

cat(sprintf("riemdp %s; SIGINT %.1f s after the call starts; %d repetitions; target < 0.5 s\n\n",
            format(utils::packageVersion("riemdp")), delay, reps))
res <- t(vapply(names(cases), function(nm) {
  t <- vapply(seq_len(reps), function(i) time_to_exit(cases[[nm]], delay), numeric(1))
  c(median = stats::median(t), max = max(t))
}, numeric(2)))
out <- data.frame(call = rownames(res), `median s` = sprintf("%.3f", res[, "median"]),
                  `max s` = sprintf("%.3f", res[, "max"]), `< 0.5 s` = ifelse(res[, "max"] < 0.5, "yes", "NO"),
                  check.names = FALSE, row.names = NULL)
print(out, right = FALSE, row.names = FALSE)
