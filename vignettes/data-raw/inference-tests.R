## The calibration of the regressions' intervals and tests behind
## vignettes/accuracy.Rmd: bench/confint-linear-coverage.csv (written by
## bench/confint-linear-coverage.R: coverage and width of confint() of
## dp_linear_regression() releases, and the size of the coefficient test)
## and bench/geodesic-test-size.csv (written by bench/geodesic-test-size.R:
## size and power of the test of no effect of dp_geodesic_regression()).
##
## Run from the package root:
##     Rscript vignettes/data-raw/inference-tests.R
## Writes inst/extdata/inference-tests.rds (about 1 kB). Base R only.
linear <- utils::read.csv("bench/confint-linear-coverage.csv", stringsAsFactors = FALSE)
geodesic <- utils::read.csv("bench/geodesic-test-size.csv", stringsAsFactors = FALSE)
keep_l <- c("law", "n", "epsilon", "trials", "B", "cover_pct_int", "cover_pct_slope", "cover_basic_int",
            "cover_basic_slope", "width_basic_int", "width_basic_slope", "size_pct", "size_basic")
keep_g <- c("manifold", "n", "epsilon", "slope", "trials", "B", "reject_05", "reject_01", "median_p")
saveRDS(list(linear = linear[, keep_l], geodesic = geodesic[, keep_g]), "inst/extdata/inference-tests.rds",
        version = 2, compress = "xz")
cat(sprintf("inst/extdata/inference-tests.rds: %d linear and %d geodesic configurations\n", nrow(linear), nrow(geodesic)))
