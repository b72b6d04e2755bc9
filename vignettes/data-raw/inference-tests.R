## The calibration of the regressions' intervals and tests behind
## vignettes/accuracy.Rmd: bench/confint-linear-coverage.csv (written by
## bench/confint-linear-coverage.R: coverage and width of confint() of
## dp_linear_regression() releases, and the size of the coefficient test)
## and bench/geodesic-test-size.csv (written by bench/geodesic-test-size.R:
## size and power of the test of no effect of dp_geodesic_regression(); runs
## of one configuration with other seeds are pooled).
##
## Run from the package root:
##     Rscript vignettes/data-raw/inference-tests.R
## Writes inst/extdata/inference-tests.rds (about 1 kB). Base R only.
linear <- utils::read.csv("bench/confint-linear-coverage.csv", stringsAsFactors = FALSE)
geodesic <- utils::read.csv("bench/geodesic-test-size.csv", stringsAsFactors = FALSE)
keep_l <- c("law", "n", "epsilon", "trials", "B", "cover_pct_int", "cover_pct_slope", "cover_basic_int",
            "cover_basic_slope", "width_basic_int", "width_basic_slope", "size_pct", "size_basic")
keep_g <- c("manifold", "n", "epsilon", "slope", "trials", "B", "reject_05", "reject_01", "median_p")
# runs of the same configuration (other seeds) are pooled: rejection rates
# weighted by their trials; the median p-value is the runs' trial-weighted
# mean of medians (approximate)
key <- interaction(geodesic$manifold, geodesic$n, geodesic$epsilon, geodesic$slope, drop = TRUE, lex.order = TRUE)
geodesic <- do.call(rbind, lapply(split(geodesic, key), function(g) {
  w <- g$trials / sum(g$trials)
  out <- g[1L, keep_g]
  out$trials <- sum(g$trials)
  for (f in c("reject_05", "reject_01", "median_p")) out[[f]] <- sum(w * g[[f]])
  out
}))
rownames(geodesic) <- NULL
saveRDS(list(linear = linear[, keep_l], geodesic = geodesic), "inst/extdata/inference-tests.rds",
        version = 2, compress = "xz")
cat(sprintf("inst/extdata/inference-tests.rds: %d linear and %d geodesic configurations\n", nrow(linear), nrow(geodesic)))
