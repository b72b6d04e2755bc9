# The vignettes run as a user runs them: the R code of each one, extracted
# with knitr::purl(), runs from a fresh temporary working directory in a new
# environment, and every stored result it reads is found by system.file().

# The results the vignettes load, made by vignettes/data-raw/*.R.
stored_results <- c("choosing-bounds", "confint-coverage", "gdp", "inference-tests", "private-frechet", "private-geodesic-regression",
                    "private-linear-regression", "private-shape-regression", "riemdp")

# The vignette sources to run: those shipped in the installed package (its
# doc/ directory, as R CMD build and `make install` put them there) or, when
# the package was installed without vignettes (a plain R CMD INSTALL of the
# source tree), those of the source tree the tests are run from.
vignette_sources <- function() {
  info <- tools::getVignetteInfo("riemdp")
  if (nrow(info) > 0) {
    files <- file.path(info[, "Dir"], "doc", info[, "File"])
    return(list(where = "installed package", files = files[file.exists(files)]))
  }
  source_dir <- test_path("..", "..", "vignettes")
  if (dir.exists(source_dir)) {
    return(list(where = "source tree",
                files = normalizePath(list.files(source_dir, "\\.Rmd$", full.names = TRUE))))
  }
  list(where = "nowhere", files = character())
}

# The functions of the packages R attaches by default.
base_r_names <- unlist(lapply(c("base", "utils", "stats", "graphics", "grDevices", "methods"),
                              function(pkg) getNamespaceExports(pkg)))

# Evaluates `expr` with its printed output and messages discarded.
silently <- function(expr) {
  utils::capture.output(utils::capture.output(expr, type = "message"))
  invisible()
}

test_that("every stored result a vignette reads is found in the installed package", {
  for (name in stored_results) {
    path <- system.file("extdata", paste0(name, ".rds"), package = "riemdp")
    expect_true(nzchar(path), info = name)
    expect_type(readRDS(path), "list")
  }
  vignettes <- vignette_sources()
  skip_if(length(vignettes$files) == 0,
          "no vignette sources: the package was installed without vignettes and the source tree is not here")
  code <- unlist(lapply(vignettes$files, readLines, encoding = "UTF-8"))
  used <- regmatches(code, regexpr('"[A-Za-z0-9._-]+\\.rds"', code))
  expect_gt(length(used), 0)
  expect_setequal(unique(gsub('^"|\\.rds"$', "", used)), stored_results)
  # no vignette reads a file relative to its own directory
  expect_false(any(grepl('readRDS\\("', code)))
  # nor names a source by a project-internal name an outside reader cannot resolve
  expect_false(any(grepl("paper 000|poster 001|DESIGN|design notes|\u00a7", code)))
})

test_that("the code of every vignette runs from a temporary working directory", {
  skip_on_cran()
  skip_if_not_installed("knitr")
  vignettes <- vignette_sources()
  skip_if(length(vignettes$files) == 0,
          "no vignette sources: the package was installed without vignettes and the source tree is not here")
  expect_gte(length(vignettes$files), 7)
  code_dir <- withr::local_tempdir("riemdp-vignette-code-")
  withr::local_options(rgl.useNULL = TRUE)
  withr::local_envvar(RGL_USE_NULL = "TRUE")
  withr::local_preserve_seed()
  has_shapes <- requireNamespace("shapes", quietly = TRUE)
  without_shapes <- character()
  for (rmd in vignettes$files) {
    name <- tools::file_path_sans_ext(basename(rmd))
    # Chunks run under `eval = has_shapes` (a Suggests); purl() cannot
    # evaluate that option and keeps them, so without shapes they would fail.
    if (!has_shapes && any(grepl("has_shapes", readLines(rmd, encoding = "UTF-8")))) {
      without_shapes <- c(without_shapes, name)
      next
    }
    r_file <- file.path(code_dir, paste0(name, ".R"))
    # purl() reports each chunk option it cannot evaluate (objects made by
    # earlier chunks, e.g. eval = has_shapes) and keeps the chunk: drop that noise.
    silently(knitr::purl(rmd, output = r_file, quiet = TRUE, documentation = 0))
    expect_true(file.exists(r_file), info = name)
    run_dir <- withr::local_tempdir(paste0("riemdp-vignette-run-", name, "-"))
    env <- new.env(parent = globalenv())
    # setwd() to the fresh directory and back, even on error
    result <- withr::with_dir(run_dir, withr::with_pdf(NULL, tryCatch({
      # silently: what the code prints, including the errors it shows on purpose with try()
      silently(sys.source(r_file, envir = env, keep.source = FALSE))
      NULL
    }, error = function(e) conditionMessage(e))))
    expect(is.null(result),
           sprintf("the code of vignette '%s' (%s) failed: %s", name, vignettes$where, result))
    # a user who runs the code line by line keeps every base R function
    masked <- intersect(ls(env), base_r_names)
    expect(length(masked) == 0,
           sprintf("the code of vignette '%s' masks base R names: %s", name,
                   paste(masked, collapse = ", ")))
  }
  skip_if(length(without_shapes) > 0,
          sprintf("shapes is not installed: not run: %s", paste(without_shapes, collapse = ", ")))
})
