## The include guard of the C++ sources (run by `make check`, so by CI):
##   Rscript tools/check-includes.R [SRC_DIR]
## For every translation unit (src/*.cpp and src/riemdp/<room>/*.cpp) it
## follows the quoted includes, transitively, and counts the project headers
## and Eigen modules (<Eigen/...>) the unit reads. It fails when
##   - a unit reads more of them than its budget below (a unit that needs no
##     geometry starting to include the core again, for example), or
##   - a concrete manifold's header (geometry/sphere.h, ...) or the sphere's
##     kernels are read outside the files allowed to read them: the callers
##     work through the Manifold interface and geometry/factory.h, so that
##     each manifold is compiled once, in its own .cpp file.
## Deterministic and cheap (text only, no compiler). When a change needs a
## larger budget, raise it here, in the same commit, and say why.
args <- commandArgs(trailingOnly = TRUE)
src <- normalizePath(if (length(args)) args[[1]] else "src", mustWork = TRUE)

budget <- c(
  "progress.cpp" = 2,
  "RcppExports.cpp" = 0,
  "rcpp_geometry.cpp" = 10,
  "rcpp_statistics.cpp" = 11,
  "rcpp_privacy.cpp" = 29,  # privacy/kng_rejection.h: the exact KNG mean by rejection
  "rcpp_gdp.cpp" = 11,
  "riemdp/geometry/manifold.cpp" = 4,
  "riemdp/geometry/euclidean.cpp" = 4,
  "riemdp/geometry/sphere.cpp" = 6,
  "riemdp/geometry/hyperbolic.cpp" = 5,  # lanes.h: the frame pass per point on vector lanes
  "riemdp/geometry/spd.cpp" = 6,  # lanes.h: the fused regression pass's Jacobi rotations on vector lanes
  "riemdp/geometry/kendall.cpp" = 6,
  "riemdp/geometry/factory.cpp" = 10,
  "riemdp/statistics/frechet.cpp" = 6,
  "riemdp/statistics/median.cpp" = 6,
  "riemdp/statistics/regression.cpp" = 9
)

# Who may read a concrete manifold's header (or the sphere's kernels).
concrete <- c("riemdp/geometry/euclidean.h", "riemdp/geometry/sphere.h", "riemdp/geometry/hyperbolic.h",
              "riemdp/geometry/spd.h", "riemdp/geometry/kendall.h", "riemdp/geometry/sphere_kernels.h")
allowed <- list(
  "riemdp/geometry/euclidean.h" = c("riemdp/geometry/euclidean.cpp", "riemdp/geometry/factory.cpp",
                                    "rcpp_privacy.cpp"),  # the exact samplers draw on R^d
  "riemdp/geometry/sphere.h" = c("riemdp/geometry/sphere.cpp", "riemdp/geometry/factory.cpp"),
  "riemdp/geometry/hyperbolic.h" = c("riemdp/geometry/hyperbolic.cpp", "riemdp/geometry/factory.cpp"),
  "riemdp/geometry/spd.h" = c("riemdp/geometry/spd.cpp", "riemdp/geometry/factory.cpp",
                              "rcpp_privacy.cpp"),  # the SPD samplers (eigen construction)
  "riemdp/geometry/kendall.h" = c("riemdp/geometry/kendall.cpp", "riemdp/geometry/factory.cpp"),
  "riemdp/geometry/sphere_kernels.h" = c("riemdp/geometry/sphere.cpp", "riemdp/geometry/kendall.cpp",
                                         "rcpp_geometry.cpp")  # the lane kernels' test exports
)

strip_comments <- function(lines) sub("//.*$", "", lines)

# The project headers (paths relative to src) and Eigen modules read by a file.
reads <- function(file, seen = character()) {
  lines <- strip_comments(readLines(file.path(src, file), warn = FALSE))
  quoted <- sub('^\\s*#\\s*include\\s*"([^"]+)".*$', "\\1", grep('^\\s*#\\s*include\\s*"', lines, value = TRUE))
  eigen <- sub("^\\s*#\\s*include\\s*<(Eigen/[^>]+)>.*$", "\\1",
               grep("^\\s*#\\s*include\\s*<Eigen/", lines, value = TRUE))
  seen <- union(seen, eigen)
  for (q in quoted) {
    path <- normalizePath(file.path(src, dirname(file), q), mustWork = FALSE)
    if (!file.exists(path)) path <- normalizePath(file.path(src, q), mustWork = FALSE)
    if (!file.exists(path)) stop(file, " includes \"", q, "\", which does not exist", call. = FALSE)
    rel <- substring(path, nchar(src) + 2)
    if (rel %in% seen) next
    seen <- reads(rel, c(seen, rel))
  }
  seen
}

units <- c(list.files(src, pattern = "\\.cpp$"),
           file.path("riemdp", list.files(file.path(src, "riemdp"), pattern = "\\.cpp$", recursive = TRUE)))
problems <- character()
unknown <- setdiff(units, names(budget))
if (length(unknown))
  problems <- c(problems, paste0(unknown, ": a new translation unit; give it a budget in tools/check-includes.R"))
cat(sprintf("%-34s %6s %6s\n", "translation unit", "reads", "budget"))
for (u in intersect(names(budget), units)) {
  r <- reads(u)
  cat(sprintf("%-34s %6d %6d\n", u, length(r), budget[[u]]))
  if (length(r) > budget[[u]])
    problems <- c(problems, sprintf("%s reads %d headers (budget %d): %s", u, length(r), budget[[u]],
                                    paste(sort(r), collapse = ", ")))
  for (h in intersect(r, concrete))
    if (!(u %in% allowed[[h]]))
      problems <- c(problems, sprintf("%s reads %s: work through geometry/manifold.h and geometry/factory.h", u, h))
}
if (length(problems)) {
  cat("check-includes: FAILED\n", paste0("  ", problems, "\n"), sep = "")
  quit(status = 1)
}
cat("check-includes: every translation unit within its budget\n")
