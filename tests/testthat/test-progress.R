# Progress bars on the core's long loops (issue 10, "Progress"): cli bars
# from the C++ glue, shown only with verbose = TRUE.
#
# The bars are watched in child R processes: there cli's timer can tick every
# 100 ms (CLI_TICK_TIME, read when cli loads; outside a terminal it is 3 s),
# bars are due at once (cli.progress_show_after = 0), and cli's "logger"
# handler writes every event of a bar (added, updated, terminated, with its
# count and total) to standard output.

# Runs `code` (lines of R) in a child Rscript with riemdp loaded from this
# library and bars logged; returns its standard output (stderr included).
run_child <- function(code, handlers = "'logger'") {
  script <- tempfile("riemdp-progress-", fileext = ".R")
  on.exit(unlink(script), add = TRUE)
  writeLines(c(
    sprintf(".libPaths(%s)", paste(deparse(.libPaths()), collapse = "")),
    "suppressPackageStartupMessages(library(riemdp))",
    sprintf("options(cli.progress_show_after = 0, cli.dynamic = FALSE, cli.progress_handlers_only = c(%s))", handlers),
    code
  ), script)
  suppressWarnings(system2(file.path(R.home("bin"), "Rscript"), c("--vanilla", shQuote(script)),
                           stdout = TRUE, stderr = TRUE, env = "CLI_TICK_TIME=100"))
}

# About a second of MH steps on the sphere (~10^7 steps per second here).
chain_code <- function(verbose, thin = "4e6")
  sprintf("x <- riem_rlaplace(manifold_sphere(2), 1, c(0, 0, 1), 0.3, method = 'mh', control = mcmc_control(burn_in = 0, thin = %s, verbose = %s))",
          thin, verbose)
# 4 x 10^6 loss draws of the Monte Carlo mu.
mc_code <- function(verbose)
  sprintf("g <- gdp_mu(manifold_sphere(2), 0.5, 0.3, method = 'monte_carlo', control = gdp_control(n = 1e6, m = 4, verbose = %s))",
          verbose)
# About a second of exact draws (SPD(3): a few microseconds per draw).
exact_code <- function(verbose, n = "2e5")
  sprintf("y <- riem_rgaussian(manifold_spd(3), %s, diag(3), 0.5, control = mcmc_control(verbose = %s))", n, verbose)

test_that("verbose is a single TRUE or FALSE, interactive() by default", {
  expect_identical(mcmc_control()$verbose, interactive())
  expect_identical(gdp_control()$verbose, interactive())
  expect_false(mcmc_control(verbose = FALSE)$verbose)
  expect_true(gdp_control(verbose = TRUE)$verbose)
  for (bad in list(NA, "yes", c(TRUE, FALSE), 1, NULL, logical(0))) {
    expect_error(mcmc_control(verbose = bad), "`verbose` must be TRUE or FALSE")
    expect_error(gdp_control(verbose = bad), "`verbose` must be TRUE or FALSE")
  }
})

test_that("with verbose = FALSE (the default in scripts) no bar is made and nothing is printed", {
  skip_on_cran()
  skip_on_os("windows")
  out <- run_child(c(chain_code("FALSE"), mc_code("FALSE"), exact_code("FALSE"),
                     # the default: interactive() is FALSE in Rscript
                     "x <- riem_rlaplace(manifold_sphere(2), 1, c(0, 0, 1), 0.3, method = 'mh', control = mcmc_control(burn_in = 0, thin = 4e6))",
                     "cat('finished\\n')"))
  expect_identical(out, "finished")
  # In this session too (cli's timer here may be slow: this only checks silence).
  old <- options(cli.progress_show_after = 0, cli.dynamic = FALSE)
  on.exit(options(old))
  expect_silent(riem_rlaplace(manifold_sphere(2), 1, c(0, 0, 1), 0.3, method = "mh",
                              control = mcmc_control(burn_in = 0, thin = 1e6, verbose = FALSE)))
})

test_that("with verbose = TRUE a long computation shows a bar that counts every unit and is terminated", {
  skip_on_cran()
  skip_on_os("windows")
  for (case in list(list(chain_code("TRUE"), "4e\\+06/4e\\+06"), list(mc_code("TRUE"), "4e\\+06/4e\\+06"),
                    list(exact_code("TRUE"), "2e\\+05/2e\\+05"))) {
    out <- run_child(case[[1]])
    expect_true(any(grepl(" added$", out)), info = case[[1]])
    expect_true(any(grepl(" updated$", out)), info = case[[1]])
    expect_match(out[length(out)], paste0(case[[2]], " terminated \\(done\\)$"), info = case[[1]])
    expect_length(grep("terminated", out), 1L)
  }
  # The bar is named (cli's own handler; a message per redraw when not dynamic).
  out <- run_child(c(chain_code("TRUE"), mc_code("TRUE"), exact_code("TRUE")), handlers = "'cli'")
  expect_true(any(grepl("^MH chain", out)))
  expect_true(any(grepl("^Monte Carlo for mu", out)))
  expect_true(any(grepl("^Exact draws", out)))
})

test_that("a short computation shows no bar before cli.progress_show_after", {
  skip_on_cran()
  skip_on_os("windows")
  out <- run_child(c("options(cli.progress_show_after = 2)",
                     "x <- riem_rlaplace(manifold_sphere(2), 10, c(0, 0, 1), 0.3, method = 'mh', control = mcmc_control(verbose = TRUE))",
                     "cat('finished\\n')"), handlers = "'cli'")
  expect_identical(out, "finished")
})

test_that("progress changes no result: same seed, same draws with verbose TRUE and FALSE", {
  skip_on_cran()
  skip_on_os("windows")
  # Bars redraw every 100 ms in the child; the results must not notice.
  out <- run_child(c(
    "run <- function(v) {",
    "  set.seed(11)",
    "  a <- riem_rlaplace(manifold_sphere(2), 50, c(0, 0, 1), 0.3, method = 'mh', control = mcmc_control(burn_in = 1e5, thin = 2e4, verbose = v))",
    "  b <- gdp_mu(manifold_sphere(2), 0.5, 0.3, method = 'monte_carlo', control = gdp_control(n = 1e6, m = 4, verbose = v))",
    "  d <- riem_rgaussian(manifold_spd(3), 2e5, diag(3), 0.5, control = mcmc_control(verbose = v))",
    "  list(a, b$mu, b$se, d, runif(1))",
    "}",
    "r1 <- run(TRUE); r0 <- run(FALSE)",
    "cat('identical:', identical(r1, r0), '\\n')"))
  expect_true(sum(grepl("terminated", out)) == 3L)  # the bars were up in run(TRUE)
  expect_true("identical: TRUE " %in% out)
})

test_that("an error raised while the bar redraws unwinds the computation and terminates the bar", {
  skip_on_cran()
  skip_on_os("windows")
  # The error comes from R code run by cli inside the C++ loop (a handler of
  # the bar's message): it must reach the caller as that error, the bar must
  # be terminated, and the next calls must work as if nothing had happened.
  out <- run_child(c(
    "err <- tryCatch(withCallingHandlers(",
    chain_code("TRUE", thin = "2e9"),
    ", cliMessage = function(m) stop('boom')), error = function(e) e)",
    "cat('error:', conditionMessage(err), '\\n')",
    "set.seed(3); a <- riem_rlaplace(manifold_sphere(2), 5, c(0, 0, 1), 0.3, method = 'mh', control = mcmc_control(verbose = FALSE))",
    "set.seed(3); b <- riem_rlaplace(manifold_sphere(2), 5, c(0, 0, 1), 0.3, method = 'mh', control = mcmc_control(verbose = TRUE))",
    "cat('identical:', identical(a, b), '\\n')"), handlers = "'logger', 'cli'")
  expect_true("error: boom " %in% out)
  expect_true(any(grepl("/2e\\+09 added$", out)))
  expect_true(any(grepl("/2e\\+09 terminated \\(done\\)$", out)))
  expect_true("identical: TRUE " %in% out)
})

# An interactive R in a pseudo-terminal (tests/testthat/pty-ctrl-c.py) runs
# `setup`, then a long chain with a bar, gets Ctrl-C once the bar is drawn,
# then cat("AFTER\n"); returns the script's summary line (skips where there
# is no python3 or no pseudo-terminal).
ctrl_c_in_terminal <- function(setup = "") {
  skip_on_cran()
  skip_on_os("windows")
  python <- Sys.which("python3")
  skip_if(!nzchar(python), "python3 (for a pseudo-terminal) is not available")
  code <- paste("suppressPackageStartupMessages(library(riemdp));",
                "options(cli.progress_show_after = 0);", setup,
                "x <- riem_rlaplace(manifold_sphere(2), 1, c(0, 0, 1), 0.3, method = 'mh',",
                "control = mcmc_control(burn_in = 0, thin = 2e9, verbose = TRUE))")
  lib <- dirname(system.file(package = "riemdp"))
  out <- suppressWarnings(system2(python, c(shQuote(test_path("pty-ctrl-c.py")), shQuote(file.path(R.home("bin"), "R")),
                                            shQuote(lib), shQuote(code), shQuote("MH chain")),
                                  stdout = TRUE, stderr = TRUE))
  summary <- grep("^summary: ", out, value = TRUE)
  skip_if(identical(summary, "summary: unsupported"), "no pseudo-terminals here")
  structure(summary, info = paste(out, collapse = "\n"))
}
expect_bar_removed <- function(summary) {
  info <- attr(summary, "info")
  expect_length(summary, 1L)
  expect_match(summary, "bar_seen=True", fixed = TRUE, info = info)  # the bar was up
  expect_match(summary, "prompt=True after=True", fixed = TRUE, info = info)  # Ctrl-C stopped the chain
  expect_match(summary, "left_on_screen=0", fixed = TRUE, info = info)  # and nothing of the bar stayed
}

test_that("after Ctrl-C in a terminal the bar is removed and R is back at the prompt", {
  # Before the fix R started a new line for the interrupt before the bar was
  # erased, and the erasure cleared that new line: the bar's line stayed on
  # screen above the prompt.
  expect_bar_removed(ctrl_c_in_terminal())
})

test_that("a Ctrl-C that comes while the bar is drawn also leaves nothing on screen", {
  # Each draw made slow (0.3 s in cli's drawing function), so that the
  # Ctrl-C lands in one: R's evaluator used to take the interrupt there (a
  # new line at once, before the bar was erased: 8 of 8 runs left the bar
  # on screen, and about 1 in 6 without the slowing on a loaded machine).
  # The draws now hold R's interrupts and the core's poll takes it.
  skip_if_not(exists("progress_c_update", envir = asNamespace("cli"), inherits = FALSE),
              "cli's drawing function has another name in this version of cli")
  slow <- paste("local({f <- cli:::progress_c_update; assignInNamespace('progress_c_update',",
                "function(pb, auto_done = TRUE) {t0 <- proc.time()[[3]];",
                "while (proc.time()[[3]] - t0 < 0.3) NULL; f(pb, auto_done)}, 'cli')});")
  expect_bar_removed(ctrl_c_in_terminal(slow))
})
