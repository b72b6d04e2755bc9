## Shared by the bench scripts: make a CRAN package available for a
## comparison, installing it into the first writable library if it is
## missing. Returns TRUE when it loads. install.packages() also warns on
## harmless index look-ups that fall back (a missing PACKAGES.rds), so the
## outcome is judged by whether the package loads afterwards.
ensure_package <- function(pkg, indent = "") {
  if (requireNamespace(pkg, quietly = TRUE)) return(TRUE)
  lib <- Find(function(l) file.access(l, 2L) == 0L, .libPaths())
  if (is.null(lib)) {
    lib <- Sys.getenv("R_LIBS_USER")
    dir.create(lib, recursive = TRUE, showWarnings = FALSE)
    .libPaths(c(lib, .libPaths()))
  }
  cat(sprintf("%sinstalling the CRAN package '%s' for the comparison ...\n", indent, pkg))
  ok <- tryCatch({
    suppressWarnings(utils::install.packages(pkg, lib = lib, quiet = TRUE))
    requireNamespace(pkg, quietly = TRUE)
  }, error = function(e) FALSE)
  ok || requireNamespace(pkg, quietly = TRUE)
}
