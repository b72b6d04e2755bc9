## riem_dist_matrix per pair vs riem_dist one-to-many (S^2, n = 3000, fixed seed).
## Run from the package root with the package installed: Rscript bench/dist-matrix-per-pair.R
suppressPackageStartupMessages(library(riemdp))
S2 <- manifold_sphere(2)
set.seed(4)
X <- matrix(rnorm(3*3000), ncol = 3); X <- X / sqrt(rowSums(X^2))
t1 <- system.time(for (r in 1:3) D <- riem_dist_matrix(S2, X))[["elapsed"]] / 3
t2 <- system.time(for (j in 1:3000) riem_dist(S2, X[j, ], X))[["elapsed"]]
cat("dist matrix ns/pair", 1e9 * t1 / (3000*2999/2), " riem_dist one-to-many ns/pair", 1e9 * t2 / 3000^2, "\n")
t3 <- system.time(for (r in 1:3) D <- riem_dist_matrix(S2, X, output="matrix"))[["elapsed"]] / 3
cat("matrix ns/pair", 1e9 * t3 / (3000*2999/2), "\n")
