# What the documents say about scheme = "paper" and App. A of Kulkarni &
# Soto (2025) (issue 33, items 17 and 18): the scheme is the two-block
# scheme with the package's sensitivities, not App. A as written and not a
# reproduction of the paper's numbers; App. A as written is an installed
# script users can open and run; the paper is cited as arXiv v1.

help_text <- function(topic) {
  db <- tools::Rd_db("riemdp", lib.loc = dirname(system.file(package = "riemdp")))
  gsub("\\s+", " ", paste(as.character(db[[paste0(topic, ".Rd")]]), collapse = ""))
}

test_that("App. A as written is an installed script that runs, with tau read off the data", {
  path <- system.file("scripts", "app-a-as-written.R", package = "riemdp")
  expect_true(nzchar(path))
  head <- gsub("\\s+", " ", paste(gsub("^## ?", "", readLines(path, n = 12L)), collapse = " "))
  expect_match(head, "NOT differentially private", fixed = TRUE)
  expect_match(head, "arXiv:2504.11304v1", fixed = TRUE)
  env <- new.env()
  sys.source(path, envir = env)
  expect_true(is.function(env$paper_as_written))
  S2 <- manifold_sphere(2)
  set.seed(17)
  x <- runif(15)
  Y <- riem_project(S2, riem_geodesic(S2, c(0, 0, 1), c(0.4, 0.1, 0), x) + matrix(rnorm(45, sd = 0.02), 15))
  old_seed <- .Random.seed
  res <- env$paper_as_written(list(x = x, Y = Y), m = 5L, seed = 3L)
  expect_identical(.Random.seed, old_seed)   # its own seed, the caller's stream untouched
  fit <- geodesic_regression(S2, x, Y)
  # tau is the largest residual of the non-private fit: what makes it not private
  expect_equal(res$tau, max(fit$residual_norms))
  expect_equal(unname(res$sigma), c(2 * res$tau * cos(1) / 15, 2 * res$tau * sin(1) / 15))
  expect_length(res$main$dist, 5L)
  expect_true(all(is.finite(res$main$mae_bar)))
})

test_that("the help, README and articles say scheme = \"paper\" does not reproduce the paper, and where App. A is", {
  h <- help_text("dp_geodesic_regression")
  expect_false(grepl("for reproducing their experiments only", h, fixed = TRUE))
  expect_match(h, "does not reproduce the paper's numbers", fixed = TRUE)
  expect_match(h, "app-a-as-written.R", fixed = TRUE)
  expect_match(h, "arXiv:2504.11304v1", fixed = TRUE)
  expect_match(help_text("sensitivity_geodesic_regression"), "arXiv:2504.11304v1", fixed = TRUE)
  cit <- paste(format(utils::citation("riemdp")), collapse = " ")
  expect_match(cit, "2504.11304v1", fixed = TRUE)
  readme <- testthat::test_path("../../README.md")
  vig <- testthat::test_path("../../vignettes")
  skip_if_not(file.exists(readme) && dir.exists(vig), "the sources are not next to the tests (R CMD check)")
  txt <- function(f) gsub("\\s+", " ", paste(readLines(f, encoding = "UTF-8"), collapse = " "))
  r <- txt(readme)
  expect_false(grepl("to reproduce its experiments only", r, fixed = TRUE))
  expect_match(r, "does not reproduce the paper's numbers", fixed = TRUE)
  expect_match(r, "app-a-as-written.R", fixed = TRUE)
  m <- txt(file.path(vig, "methods.Rmd"))
  expect_false(grepl("to reproduce its experiments only", m, fixed = TRUE))
  expect_match(m, "does not reproduce the paper's numbers", fixed = TRUE)
  # the methods article's App. B minimum is the stored one (0.65), and the
  # geodesic article no longer calls the n = 50 sd large
  expect_false(grepl("about 0.67", m, fixed = TRUE))
  sim <- readRDS(system.file("extdata", "private-geodesic-regression.rds", package = "riemdp"))
  expect_match(m, sprintf("about %.2f at the smallest", min(sim$ratios$paper_p)), fixed = TRUE)
  pg <- txt(file.path(vig, "private-geodesic-regression.Rmd"))
  expect_false(grepl("releases there a large sd", pg, fixed = TRUE))
  for (f in list.files(vig, "\\.Rmd$", full.names = TRUE))
    expect(!grepl("arXiv:2504.11304[^v]", txt(f)), sprintf("%s cites arXiv:2504.11304 without its version", basename(f)))
})
