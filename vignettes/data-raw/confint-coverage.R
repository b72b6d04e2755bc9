## The coverage matrix of confint() behind the figure of vignettes/accuracy.Rmd:
## bench/confint-coverage.csv (written by bench/confint-coverage.R, whose
## header says how each row was made) without its long `run` column.
##
## Run from the package root:
##     Rscript vignettes/data-raw/confint-coverage.R
## Writes inst/extdata/confint-coverage.rds (about 3 kB). Base R only.
tab <- utils::read.csv("bench/confint-coverage.csv", stringsAsFactors = FALSE)
keep <- c("manifold", "n", "epsilon", "law", "mechanism", "trials", "cover_public", "cover_private",
          "cover_estimate", "width_public", "width_private")
saveRDS(tab[, keep], "inst/extdata/confint-coverage.rds", version = 2, compress = "xz")
cat(sprintf("inst/extdata/confint-coverage.rds: %d configurations\n", nrow(tab)))
