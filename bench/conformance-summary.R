## Summary of the conformance matrix (bench/mcmc-conformance.R) as a
## statistical test: reads a CSV of its rows (default
## bench/conformance-results.csv; the latest row per configuration) and prints
##   * per family and manifold: configurations, releases, releases beyond the
##     reference's 99.9% quantile against the 0.001 x releases expected of
##     draws at the law, and the share of KS p-values below 0.01 (0.01
##     expected);
##   * the configurations whose count beyond the 99.9% quantile is
##     significant after a Bonferroni correction over the matrix (p < 0.01 /
##     configurations; the count is Binomial(K, 0.001) against an exact or
##     Gamma reference and beta-binomial against m empirical reference draws,
##     whose 99.9% quantile is itself noisy), and those whose KS p-value is
##     below 0.01 / configurations. Totals are tested by simulating the null.
##   * where rows carry the coordinate check (--coord-ends of
##     bench/mcmc-conformance.R), the configurations whose mode share or
##     |v| / d(centre, p) KS p-value is below 0.01 / configurations.
## Why not "at most 1 of 400 beyond the 99.9% quantile" per configuration:
## draws exactly at the law exceed it in 1 - pbinom(1, 400, 0.001) = 6.2% of
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
# Under the null (releases and reference draws from the same law), with an
# exact or Gamma reference the count is Binomial(K, 0.001); with an empirical
# reference of m draws, j of them above its 99.9% quantile, the releases'
# chance to exceed it is Beta(j, m - j + 1) and the count beta-binomial
# (its quantile is itself noisy: more configurations with 2 or 3 by chance).
empirical <- tab$reference %in% c("chain", "pooled")
tab$j <- ifelse(empirical, 0.001 * (tab$K2 + 1), NA)   # Beta(j, m + 1 - j) has mean 0.001
tab$expected <- ifelse(empirical, tab$K * tab$j / (tab$K2 + 1), 0.001 * tab$K)
betabinom_upper <- function(x, K, a, b) {
  if (x <= 0) return(1)
  k <- x:K
  sum(exp(lchoose(K, k) + lbeta(k + a, K - k + b) - lbeta(a, b)))
}
tab$p_beyond <- vapply(seq_len(nrow(tab)), function(i) {
  if (empirical[i]) betabinom_upper(tab$beyond[i], tab$K[i], tab$j[i], tab$K2[i] - tab$j[i] + 1)
  else stats::pbinom(tab$beyond[i] - 1, tab$K[i], 0.001, lower.tail = FALSE)
}, 0)
# the matrix's total under the null, by simulation (fixed seed)
set.seed(1)
sim_total <- function(rows) {
  rowSums(vapply(rows, function(i) {
    p <- if (empirical[i]) stats::rbeta(2e4, tab$j[i], tab$K2[i] - tab$j[i] + 1) else rep(0.001, 2e4)
    stats::rbinom(2e4, tab$K[i], p)
  }, numeric(2e4)))
}
m <- nrow(tab)
cat(sprintf("%d configurations (latest row of each) from %s\n\n", m, csv))
by <- split(tab, paste(tab$family, tab$manifold))
out <- do.call(rbind, lapply(names(by), function(g) {
  t <- by[[g]]
  rows <- which(paste(tab$family, tab$manifold) == g)
  data.frame(group = g, configurations = nrow(t), releases = sum(t$K), beyond_999 = sum(t$beyond),
             expected = round(sum(t$expected), 1), p_total = signif(mean(sim_total(rows) >= sum(t$beyond)), 3),
             over_1_in_400 = sum(t$above_999 > 1 / 400 + 1e-12), ks_below_0.01 = sum(t$ks_p < 0.01),
             ks_expected = 0.01 * nrow(t), s_release_max = max(t$s_release), stringsAsFactors = FALSE)
}))
print(out, row.names = FALSE)
tot_b <- sum(tab$beyond)
tot_e <- sum(tab$expected)
cat(sprintf("\nall: %d releases, %d beyond the 99.9%% quantile against %.1f expected at the law (P(total >= %d) = %.3g);\n",
            sum(tab$K), tot_b, tot_e, tot_b, mean(sim_total(seq_len(m)) >= tot_b)))
over <- vapply(seq_len(m), function(i) {
  if (empirical[i]) betabinom_upper(2, tab$K[i], tab$j[i], tab$K2[i] - tab$j[i] + 1)
  else stats::pbinom(1, tab$K[i], 0.001, lower.tail = FALSE)
}, 0)
cat(sprintf("     %d configurations over 1 in 400 (%.1f expected at the law); KS p < 0.01 in %d (%.1f expected)\n",
            sum(tab$above_999 > 1 / 400 + 1e-12), sum(over), sum(tab$ks_p < 0.01), 0.01 * m))
flag_b <- tab$p_beyond < 0.01 / m
flag_k <- tab$ks_p < 0.01 / m
cat(sprintf("Bonferroni at 1%% over %d configurations: %d flagged by the tail count, %d by KS\n", m, sum(flag_b), sum(flag_k)))
if (any(flag_b | flag_k))
  print(tab[flag_b | flag_k, c(key, "reference", "K", "K2", "beyond", "p_beyond", "ks_p", "s_release")], row.names = FALSE)
# the coordinate check of geodesic rows run with --coord-ends (issue 33):
# the mode share and the KS p-values of |v| and d(centre, p) against the ends
# of 20x chains, flagged at the same Bonferroni level
if (all(c("K3", "p_mode", "ks_v", "ks_dc") %in% names(tab))) {
  has <- !is.na(tab$K3) & tab$K3 > 0
  if (any(has)) {
    pc <- pmin(tab$p_mode, tab$ks_v, tab$ks_dc)
    flag_c <- has & pc < 0.01 / m
    cat(sprintf("coordinate check in %d configurations: %d with a p-value below 0.01 (about %.1f expected at the law for three tests each), %d flagged at 0.01 / %d\n",
                sum(has), sum(has & pc < 0.01), 0.03 * sum(has), sum(flag_c), m))
    if (any(flag_c))
      print(tab[flag_c, c(key, "K", "K3", "mode_rel", "mode_ref", "z_mode", "p_mode", "ks_v", "ks_dc")], row.names = FALSE)
  }
}
