## Summary of the conformance matrix (bench/mcmc-conformance.R) as a
## statistical test: reads a CSV of its rows (default
## bench/conformance-results.csv; the latest row per configuration) and prints
##   * per family and manifold: configurations, releases, releases beyond the
##     reference's 99.9% quantile against the 0.001 x releases expected of
##     draws at the law, and the share of KS p-values below 0.01 (0.01
##     expected);
##   * the configurations whose count beyond the 99.9% quantile is
##     significant after a Bonferroni correction over the matrix
##     (P(Poisson(0.001 K) >= count) < 0.01 / configurations), and those whose
##     KS p-value is below 0.01 / configurations.
## Why not "at most 1 of 400 beyond the 99.9% quantile" per configuration:
## draws exactly at the law exceed it in 1 - ppois(1, 0.4) = 6.2% of
## configurations, so a matrix of 270 configurations would fail about 17 of
## them by chance alone. The per-configuration share is still printed.
##
##   Rscript bench/conformance-summary.R [CSV]

args <- commandArgs(trailingOnly = TRUE)
csv <- if (length(args)) args[1] else file.path("bench", "conformance-results.csv")
tab <- utils::read.csv(csv, stringsAsFactors = FALSE)
key <- c("family", "manifold", "n", "epsilon", "frac", "tau_m")
tab <- tab[!is.na(tab$reference) & nzchar(tab$reference), , drop = FALSE]
# the latest row of each configuration
tab <- tab[!duplicated(tab[, key], fromLast = TRUE), , drop = FALSE]
tab$beyond <- round(tab$above_999 * tab$K)
tab$expected <- 0.001 * tab$K
tab$p_beyond <- stats::ppois(tab$beyond - 1, tab$expected, lower.tail = FALSE)
m <- nrow(tab)
cat(sprintf("%d configurations (latest row of each) from %s\n\n", m, csv))
by <- split(tab, paste(tab$family, tab$manifold))
out <- do.call(rbind, lapply(names(by), function(g) {
  t <- by[[g]]
  data.frame(group = g, configurations = nrow(t), releases = sum(t$K), beyond_999 = sum(t$beyond),
             expected = sum(t$expected), p_total = signif(stats::ppois(sum(t$beyond) - 1, sum(t$expected), lower.tail = FALSE), 3),
             over_1_in_400 = sum(t$above_999 > 1 / 400 + 1e-12), ks_below_0.01 = sum(t$ks_p < 0.01),
             ks_expected = 0.01 * nrow(t), s_release_max = max(t$s_release), stringsAsFactors = FALSE)
}))
print(out, row.names = FALSE)
tot_b <- sum(tab$beyond)
tot_e <- sum(tab$expected)
cat(sprintf("\nall: %d releases, %d beyond the 99.9%% quantile against %.1f expected at the law (P(Poisson >= %d) = %.3g);\n",
            sum(tab$K), tot_b, tot_e, tot_b, stats::ppois(tot_b - 1, tot_e, lower.tail = FALSE)))
cat(sprintf("     %d configurations over 1 in 400 (%.1f expected at the law); KS p < 0.01 in %d (%.1f expected)\n",
            sum(tab$above_999 > 1 / 400 + 1e-12), sum(1 - stats::ppois(1, tab$expected)), sum(tab$ks_p < 0.01), 0.01 * m))
flag_b <- tab$p_beyond < 0.01 / m
flag_k <- tab$ks_p < 0.01 / m
cat(sprintf("Bonferroni at 1%% over %d configurations: %d flagged by the tail count, %d by KS\n", m, sum(flag_b), sum(flag_k)))
if (any(flag_b | flag_k))
  print(tab[flag_b | flag_k, c(key, "reference", "K", "K2", "beyond", "p_beyond", "ks_p", "s_release")], row.names = FALSE)
