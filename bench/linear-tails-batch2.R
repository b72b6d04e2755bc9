## A second batch for bench/linear-tails.R at epsilon = 0.5: 1000 releases with
## chains 20 times the default length (seed 777) against the first set of 2000
## exact draws (seed 20261129, as in bench/linear-tails.R) and a second set
## (seed 778), and the two exact sets against each other (two-sample KS p of
## the MSE ratio, the three coordinates of theta^u and the level).
## Run from the package root with riemdp installed (one core, about 2 min):
##     nice -n 10 Rscript bench/linear-tails-batch2.R
suppressPackageStartupMessages(library(riemdp))
options(riemdp.threads = 1L)
source("tests/testthat/helper-conformance.R")
src <- readLines("bench/linear-tails.R")
# the definitions of bench/linear-tails.R, up to its loop over epsilon
stop_at <- grep("^for \\(eps in epsilons\\)", src) - 1L
K <- 1000L; K_long <- 1000L; epsilons <- 0.5
eval(parse(text = src[grep("^tau <- 0.5", src):stop_at]))
eps <- 0.5; sigma <- 2 * (2 * tau * sqrt(3) / n) / eps
set.seed(20261129); ex <- exact_sir(sigma, 2000L)
b <- riemdp:::kng_chain_length(3L, n)$burn_in
set.seed(777); lg <- releases(eps, 1000L, mcmc_control(burn_in = 20L * b, n_iter = 20L * b, verbose = FALSE))
summ("20x chain, seed 777", mse_u(lg$theta))
compare("exact", lg$theta, ex$theta, sigma, first = "20x chain (seed 777)")
set.seed(778); ex2 <- exact_sir(sigma, 2000L)
compare("exact (seed 778)", lg$theta, ex2$theta, sigma, first = "20x chain (seed 777)")
compare("exact (seed 778)", ex$theta, ex2$theta, sigma, first = "exact (20261129)")
