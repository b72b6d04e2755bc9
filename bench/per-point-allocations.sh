#!/usr/bin/env bash
# Heap allocations per data point of the per-point passes: counts malloc()
# calls (an LD_PRELOAD counter, glibc only) of calls at n = 1000 and n = 3000
# points, and prints the difference per extra point. A pass that allocates
# once per point and iteration shows tens to hundreds; what remains at about
# 1 to 15 comes from the checks and scales computed once per call.
#
#   bash bench/per-point-allocations.sh [LIBRARY]
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/riemdp-alloc.XXXXXX")
cat > "$work/count.c" <<'C'
#include <stddef.h>
extern void *__libc_malloc(size_t);
static long long count = 0;
void *malloc(size_t n) { count++; return __libc_malloc(n); }
void malloc_count_get(double *out) { out[0] = (double) count; }
C
gcc -O2 -shared -fPIC "$work/count.c" -o "$work/count.so"
cat > "$work/run.R" <<R
suppressMessages(library(riemdp))
dyn.load("$work/count.so")
count <- function() .C("malloc_count_get", x = double(1))\$x
sub <- function(X, n) if (length(dim(X)) == 3L) X[, , seq_len(n), drop = FALSE] else X[seq_len(n), , drop = FALSE]
per_point <- function(label, f, n1 = 1000, n2 = 3000) {
  f(n1); f(n2)  # warm-up
  c0 <- count(); f(n1); c1 <- count(); f(n2); c2 <- count()
  cat(sprintf("%-36s n = %d: %7.0f   n = %d: %7.0f   per extra point: %7.2f\n", label, n1, c1 - c0, n2, c2 - c1,
              ((c2 - c1) - (c1 - c0)) / (n2 - n1)))
}
set.seed(1)
for (k in 3:4) {
  P <- manifold_spd(k); X <- riem_rlaplace(P, 3000, diag(k), 0.3)
  per_point(sprintf("frechet_mean spd(%d)", k), function(n) frechet_mean(P, sub(X, n)))
  per_point(sprintf("weighted frechet_mean spd(%d)", k), function(n) frechet_mean(P, sub(X, n), weights = rep(1, n)))
  per_point(sprintf("frechet_median spd(%d)", k), function(n) frechet_median(P, sub(X, n)))
  x <- runif(3000); z <- runif(3000)
  per_point(sprintf("geodesic_regression spd(%d)", k), function(n) geodesic_regression(P, x[seq_len(n)], sub(X, n)))
  per_point(sprintf("geodesic_regression spd(%d), 2 cov.", k),
            function(n) geodesic_regression(P, cbind(x, z)[seq_len(n), ], sub(X, n)))
}
if (requireNamespace("shapes", quietly = TRUE)) {
  rats <- NULL; utils::data("rats", package = "shapes", envir = environment())
  K <- manifold_kendall(8); X <- rats\$x[, , sample(144, 3000, TRUE)]
  per_point("frechet_mean kendall(8)", function(n) frechet_mean(K, sub(X, n)))
  per_point("frechet_median kendall(8)", function(n) frechet_median(K, sub(X, n)))
  per_point("geodesic_regression kendall(8)", function(n) geodesic_regression(K, seq_len(n) / n, sub(X, n)))
}
S2 <- manifold_sphere(2); Y <- riem_rlaplace(S2, 3000, c(0, 0, 1), 0.3)
per_point("frechet_mean sphere(2)", function(n) frechet_mean(S2, sub(Y, n)))
R
if [ -n "${1:-}" ]; then export R_LIBS="$1"; fi
RGL_USE_NULL=TRUE LD_PRELOAD="$work/count.so" Rscript "$work/run.R"
rm -rf "$work"
