# The demo script (make demo) on a reduced budget, in a child Rscript and a
# temporary directory: it must run, write non-empty PNGs and print releases
# that state their guarantee.

test_that("the demo script runs on a reduced budget, writes its figures and states the guarantee", {
  skip_on_cran()
  script <- system.file("scripts", "demo.R", package = "riemdp")
  skip_if(!nzchar(script), "demo script not installed")
  rscript <- file.path(R.home("bin"), "Rscript")
  out <- tempfile("riemdp-demo-")
  dir.create(out)
  on.exit(unlink(out, recursive = TRUE), add = TRUE)
  # the child sees the library this riemdp was loaded from
  lib <- dirname(dirname(system.file(package = "riemdp")))
  env <- c(paste0("R_LIBS=", paste(unique(c(lib, .libPaths())), collapse = .Platform$path.sep)),
           "RIEMDP_DEMO_FAST=1", "RGL_USE_NULL=TRUE")
  log <- suppressWarnings(system2(rscript, c(shQuote(script), shQuote(out)), stdout = TRUE, stderr = TRUE,
                                  env = env))
  status <- attr(log, "status")
  expect_true(is.null(status) || identical(status, 0L), info = paste(log, collapse = "\n"))
  text <- paste(log, collapse = "\n")

  quakes_png <- file.path(out, "tonga-quakes.png")
  expect_true(file.exists(quakes_png))
  expect_gt(file.size(quakes_png), 10000)
  expect_match(text, "quakes east of 175 E: 795 events", fixed = TRUE)
  expect_match(text, "R^2 = 0.430", fixed = TRUE)            # lm(long ~ depth)
  expect_match(text, "1-DP (pure epsilon-DP)", fixed = TRUE)
  expect_match(text, "outside the guarantee", fixed = TRUE)
  expect_match(text, "(reduced budget)", fixed = TRUE)

  skip_if_not_installed("shapes")
  rats_png <- file.path(out, "rat-skulls.png")
  expect_true(file.exists(rats_png))
  expect_gt(file.size(rats_png), 10000)
  expect_match(text, "20-DP (pure epsilon-DP)", fixed = TRUE)
})
