## Shared by the bench scripts: make a CRAN package available for a
## comparison. A missing package is installed into a private bench library
## (tools::R_user_dir("riemdp", "cache")/bench-library, or the folder named
## by the environment variable RIEMDP_BENCH_LIBRARY), never into a library
## that other R sessions load. Returns TRUE when the package loads.
## install.packages() also warns on harmless index look-ups that fall back
## (a missing PACKAGES.rds), so the outcome is judged by whether the package
## loads afterwards.
bench_library <- function() {
  lib <- Sys.getenv("RIEMDP_BENCH_LIBRARY")
  if (!nzchar(lib)) lib <- file.path(tools::R_user_dir("riemdp", "cache"), "bench-library")
  lib
}

ensure_package <- function(pkg, indent = "") {
  lib <- bench_library()
  # The private library goes last: a package the user has installed wins.
  if (dir.exists(lib)) .libPaths(c(.libPaths(), lib))
  if (requireNamespace(pkg, quietly = TRUE)) return(TRUE)
  dir.create(lib, recursive = TRUE, showWarnings = FALSE)
  .libPaths(c(.libPaths(), lib))
  cat(sprintf("%sinstalling the CRAN package '%s' for the comparison into %s ...\n",
              indent, pkg, lib))
  ok <- tryCatch({
    suppressWarnings(utils::install.packages(pkg, lib = lib, quiet = TRUE))
    requireNamespace(pkg, quietly = TRUE)
  }, error = function(e) FALSE)
  ok || requireNamespace(pkg, quietly = TRUE)
}
