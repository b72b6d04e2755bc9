# Ctrl-C under a progress bar in a terminal (issue 33, item 16): for each of
# the four bars (an MH chain, a K-norm gradient chain, exact draws, the Monte
# Carlo mu), an interactive R in a pseudo-terminal starts the long call with
# verbose = TRUE, gets Ctrl-C about a second after the bar is drawn, and then
# runs cat("AFTER\n"). Prints the raw bytes R wrote from Ctrl-C to the next
# prompt and the summary of tests/testthat/pty-ctrl-c.py: left_on_screen
# counts the lines left between the command and the next prompt (0: the bar
# was removed; 1: its last line stayed, as before the fix, when the bytes
# were "^C\r\n\r\x1b[K\x1b[?25h\r\n> ": R's new line for the interrupt came
# before the bar's erasure, which then cleared the empty new line).
#
# Usage (from the package root, riemdp installed in LIBRARY; POSIX, python3):
#   Rscript bench/progress-ctrl-c.R [LIBRARY]
args <- commandArgs(trailingOnly = TRUE)
lib <- if (length(args) >= 1) args[1] else dirname(find.package("riemdp"))
python <- Sys.which("python3")
if (!nzchar(python)) stop("needs python3")
script <- file.path("tests", "testthat", "pty-ctrl-c.py")
setup <- "suppressPackageStartupMessages(library(riemdp)); options(cli.progress_show_after = 0);"
cases <- list(
  "MH chain" = "x <- riem_rlaplace(manifold_sphere(2), 1, c(0, 0, 1), 0.3, method = 'mh', control = mcmc_control(burn_in = 0, thin = 2e9, verbose = TRUE))",
  "KNG chain" = paste("S2 <- manifold_sphere(2); X <- riem_rgaussian(S2, 200, c(0, 0, 1), 0.05);",
                      "X <- X[riem_dist(S2, c(0, 0, 1), X) < pi / 8, ];",
                      "r <- dp_frechet_mean(S2, X, epsilon = 1, radius = pi / 8, center = c(0, 0, 1), mechanism = 'kng', control = mcmc_control(n_iter = 2e9, verbose = TRUE))"),
  "Exact draws" = "y <- riem_rgaussian(manifold_spd(3), 1e8, diag(3), 0.5, control = mcmc_control(verbose = TRUE))",
  "Monte Carlo for mu" = "g <- gdp_mu(manifold_sphere(2), 0.5, 0.3, method = 'monte_carlo', control = gdp_control(n = 1e8, m = 4, verbose = TRUE))")
for (name in names(cases)) {
  out <- system2(python, c(shQuote(script), shQuote(file.path(R.home("bin"), "R")), shQuote(lib),
                           shQuote(paste(setup, cases[[name]])), shQuote(name)), stdout = TRUE, stderr = TRUE)
  cat(sprintf("%-20s %s\n%-20s %s\n", name, grep("^bytes\\| ", out, value = TRUE),
              "", grep("^summary: ", out, value = TRUE)))
}
