## Builds the data sets shipped in data/ from R's own `datasets` package.
## Run from the package root:  Rscript data-raw/make_data.R
## Nothing here is random, so the result is reproducible bit for bit.

## ---------------------------------------------------------------------------
## fiji_quakes: 1000 earthquake epicentres near Fiji as unit vectors in R^3
## (rows are points of manifold_sphere(2)).
## ---------------------------------------------------------------------------
q <- datasets::quakes
lat  <- q$lat  * pi / 180
long <- q$long * pi / 180
fiji_quakes <- cbind(x = cos(lat) * cos(long),
                     y = cos(lat) * sin(long),
                     z = sin(lat))
rownames(fiji_quakes) <- NULL
storage.mode(fiji_quakes) <- "double"

stopifnot(
  is.matrix(fiji_quakes), identical(dim(fiji_quakes), c(1000L, 3L)),
  identical(colnames(fiji_quakes), c("x", "y", "z")),
  all(is.finite(fiji_quakes)),
  max(abs(sqrt(rowSums(fiji_quakes^2)) - 1)) < 1e-14
)

## ---------------------------------------------------------------------------
## eustock_cov: 3 x 3 x n covariance matrices (SPD) of daily log returns,
## in percent (log return x 100, so covariances are scaled by 1e4), of the
## DAX, SMI and CAC closing prices, over consecutive non-overlapping windows of
## 20 trading days. A trailing incomplete window is dropped.
## ---------------------------------------------------------------------------
idx <- c("DAX", "SMI", "CAC")
prices <- unclass(datasets::EuStockMarkets)[, idx]
ret <- 100 * diff(log(prices))            # 1859 daily log returns
win <- 20L
n_win <- nrow(ret) %/% win                # 92 complete windows
eustock_cov <- array(NA_real_, dim = c(3L, 3L, n_win),
                     dimnames = list(idx, idx, NULL))
for (w in seq_len(n_win)) {
  rows <- ((w - 1L) * win + 1L):(w * win)
  S <- stats::cov(ret[rows, , drop = FALSE])
  S <- (S + t(S)) / 2                     # exact symmetry
  dimnames(S) <- list(idx, idx)
  eustock_cov[, , w] <- S
}

min_eig <- vapply(seq_len(n_win), function(w)
  min(eigen(eustock_cov[, , w], symmetric = TRUE, only.values = TRUE)$values),
  numeric(1))
cond <- vapply(seq_len(n_win), function(w) {
  ev <- eigen(eustock_cov[, , w], symmetric = TRUE, only.values = TRUE)$values
  max(ev) / min(ev)
}, numeric(1))
stopifnot(
  all(is.finite(eustock_cov)),
  all(vapply(seq_len(n_win), function(w)
    isSymmetric(eustock_cov[, , w], tol = 0), logical(1))),
  all(min_eig > 1e-2), all(cond < 1e3)    # comfortably positive definite
)
message(sprintf("eustock_cov: %d windows; min eigenvalue %.4g; max condition number %.4g",
                n_win, min(min_eig), max(cond)))

dir.create("data", showWarnings = FALSE)
save(fiji_quakes, file = "data/fiji_quakes.rda", compress = "xz")
save(eustock_cov, file = "data/eustock_cov.rda", compress = "xz")
