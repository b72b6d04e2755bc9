## Benchmark: the static split against dynamic scheduling of the parallel
## passes (issue 20 part 6), idle and with a competing busy process.
##
## Run from the package root:
##     Rscript bench/threads.R STATIC_LIB [rounds]
## STATIC_LIB is a library holding riemdp built before dynamic scheduling
## (commit 6827acc: every pass on two threads, each over a fixed half of the
## data), e.g.
##     git worktree add /tmp/riemdp-static 6827acc
##     R CMD INSTALL --library=STATIC_LIB /tmp/riemdp-static
## and the current build is the one first on .libPaths(). Tasks:
##   dist: riem_dist from one point to 10^6 points on S^2 (median of 21 calls);
##   kng:  dp_frechet_mean(mechanism = "kng") of 10^6 points on S^2 (one
##         release: its chain passes over all points at every step).
## Each measurement runs in a fresh Rscript process, the builds alternating
## within a round (same-run ratios); rounds (default 3) are repeated, first
## with no added load, then with `Rscript -e 'repeat{}'` running alongside
## (a busy second core on two cores; killed at the end). The load average
## (uptime) is printed with each round. Variants: "static" (the old build,
## two threads), "dynamic 2" and "dynamic 1" (the current build with
## options(riemdp.threads = 2 or 1)).

args <- commandArgs(TRUE)
if (length(args) < 1L) stop("usage: Rscript bench/threads.R STATIC_LIB [rounds]")
static_lib <- normalizePath(args[1])
rounds <- if (length(args) >= 2L) as.integer(args[2]) else 3L
current_lib <- dirname(find.package("riemdp"))
rscript <- file.path(R.home("bin"), "Rscript")

child <- '
args <- commandArgs(TRUE)
.libPaths(c(args[1], .libPaths()))
suppressPackageStartupMessages(library(riemdp))
options(riemdp.threads = as.integer(args[2]))
S2 <- manifold_sphere(2)
set.seed(1)
n <- 1e6
X <- riem_project(S2, cbind(matrix(rnorm(2 * n, sd = 0.3), n), 1))
p <- c(0, 0, 1)
f <- switch(args[3],
  dist = function() riem_dist(S2, p, X),
  kng = function() dp_frechet_mean(S2, X, epsilon = 1, radius = 0.7, center = p, mechanism = "kng",
                                   outside = "clip"))
reps <- if (args[3] == "dist") 21L else 1L
invisible(f())
ts <- vapply(seq_len(reps), function(i) system.time(f())[["elapsed"]], numeric(1))
cat(stats::median(ts), "\n")
'
child_file <- tempfile(fileext = ".R")
writeLines(child, child_file)

measure <- function(lib, threads, task) {
  out <- system2(rscript, c(child_file, lib, threads, task), stdout = TRUE)
  as.numeric(out[length(out)])
}
variants <- list(static = list(static_lib, 2L), `dynamic 2` = list(current_lib, 2L),
                 `dynamic 1` = list(current_lib, 1L))
load_average <- function() trimws(sub(".*load average:", "", system("uptime", intern = TRUE)))

run_rounds <- function(label) {
  for (r in seq_len(rounds)) {
    load <- load_average()
    for (task in c("dist", "kng")) {
      t <- vapply(variants, function(v) measure(v[[1]], v[[2]], task), numeric(1))
      cat(sprintf("%-5s round %d, %-12s (load %s): static %.3f s, dynamic 2 %.3f s, dynamic 1 %.3f s; dynamic 2 / static %.2f\n",
                  task, r, label, load, t[["static"]], t[["dynamic 2"]], t[["dynamic 1"]],
                  t[["dynamic 2"]] / t[["static"]]))
    }
  }
}

run_rounds("no added load")
busy_pid <- as.integer(system(sprintf("%s -e 'repeat{}' > /dev/null 2>&1 & echo $!", shQuote(rscript)),
                              intern = TRUE))
Sys.sleep(1)
tryCatch(run_rounds("busy core"), finally = tools::pskill(busy_pid))
cat(sprintf("%d cores; %s\n", parallel::detectCores(), R.version.string))
