## Precomputed releases behind the first section of vignettes/riemdp.Rmd:
## runs the demo script (inst/scripts/demo.R, what `make demo` runs) with its
## full budget and seeds, and keeps its releases and comparisons, so that the
## vignette shows what the command prints.
##
## Run from the package root with riemdp installed:
##     Rscript vignettes/data-raw/riemdp.R
## Writes inst/extdata/riemdp.rds (a few kB); takes what the demo takes
## (3 s when the data were made, with the releases' default chains; 265 s
## with the old random-walk chains).

suppressPackageStartupMessages(library(riemdp))
t_start <- proc.time()[["elapsed"]]
Sys.setenv(RIEMDP_DEMO_OUT = file.path(tempdir(), "demo-output"))
demo_env <- new.env()
sys.source("inst/scripts/demo.R", envir = demo_env)

strip <- function(rel) { rel$call <- NULL; rel }   # the call holds the data by name only; not needed
out <- list(
  quakes = list(public = demo_env$pub_q, epsilon = demo_env$epsilon_q, control = "default (control = NULL)",
                releases = lapply(demo_env$rels_q, strip), compare = demo_env$cmp_q),
  rats = if (exists("rels_r", envir = demo_env))
    list(public = demo_env$pub_r, epsilon = demo_env$epsilon_r, control = "default (control = NULL)",
         releases = lapply(demo_env$rels_r, strip), compare = demo_env$cmp_r),
  settings = list(riemdp = as.character(utils::packageVersion("riemdp")), R = R.version.string,
                  date = format(Sys.Date()), runtime_s = round(proc.time()[["elapsed"]] - t_start)))
dir.create("inst/extdata", showWarnings = FALSE)
saveRDS(out, "inst/extdata/riemdp.rds", version = 2, compress = "xz")
cat(sprintf("saved inst/extdata/riemdp.rds (%d bytes)\n", file.size("inst/extdata/riemdp.rds")))
