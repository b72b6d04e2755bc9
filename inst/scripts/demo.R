## riemdp geometry tour.
##
## Run with the installed package:
##   Rscript inst/scripts/demo.R [output-dir]          (default: demo-output)
## or  make demo   from the package root.
##
## Uses the shipped data sets `fiji_quakes` (1000 epicentres as unit vectors,
## points of the 2-sphere) and `eustock_cov` (3 x 3 covariance matrices of
## DAX/SMI/CAC daily log returns over 20-trading-day windows, points of the
## SPD manifold), computes geodesic distances and Frechet means, compares them
## with their Euclidean counterparts, and writes a two-panel PNG.

suppressPackageStartupMessages(library(riemdp))

args <- commandArgs(trailingOnly = TRUE)
out_dir <- if (length(args) >= 1L && nzchar(args[1L])) args[1L] else "demo-output"
dir.create(out_dir, showWarnings = FALSE, recursive = TRUE)

earth_km <- 6371          # mean Earth radius
rule <- function(title) cat("\n== ", title, " ", strrep("=", max(0, 66 - nchar(title))), "\n", sep = "")

## unit vector(s) -> latitude / longitude in degrees (longitude in [0, 360),
## which keeps the Fiji region, around the 180th meridian, in one piece)
to_latlong <- function(x) {
  x <- matrix(x, ncol = 3L)
  cbind(lat  = asin(pmax(-1, pmin(1, x[, 3L]))) * 180 / pi,
        long = (atan2(x[, 2L], x[, 1L]) * 180 / pi) %% 360)
}
fmt_ll <- function(ll) sprintf("lat %.3f, long %.3f", ll[1L], ll[2L])

## ---------------------------------------------------------------------------
## 1. The sphere: earthquakes near Fiji
## ---------------------------------------------------------------------------
S2 <- manifold_sphere(2)
X <- riemdp::fiji_quakes
ll <- to_latlong(X)
rule(sprintf("Sphere S^2: %d earthquake epicentres near Fiji", nrow(X)))
print(S2$type); cat("intrinsic dimension", S2$dim, "| ambient", S2$ambient, "\n")
stopifnot(isTRUE(riem_check(S2, X)))

others <- 2:6
d_rad <- riem_dist(S2, X[1, ], X[others, , drop = FALSE])
cat("\nGreat-circle distances from quake 1 (", fmt_ll(ll[1, ]), "):\n", sep = "")
for (i in seq_along(others))
  cat(sprintf("  to quake %d (%s): %.4f rad = %7.1f km\n",
              others[i], fmt_ll(ll[others[i], ]), d_rad[i], d_rad[i] * earth_km))
d_all <- riem_dist(S2, X[1, ], X) * earth_km
cat(sprintf("  to all %d quakes: median %.0f km, max %.0f km\n",
            nrow(X), stats::median(d_all), max(d_all)))

fit_s2 <- frechet_mean(S2, X)
cat("\nFrechet mean on the sphere:\n")
print(fit_s2)
mu_s2 <- coef(fit_s2)
mu_ll <- to_latlong(mu_s2)
cat("Frechet mean location: ", fmt_ll(mu_ll), "\n", sep = "")

ext <- colMeans(X)
cat(sprintf("Euclidean mean of the unit vectors has norm %.5f (inside the sphere)\n",
            sqrt(sum(ext^2))))
ext <- ext / sqrt(sum(ext^2))
ext_ll <- to_latlong(ext)
cat("Extrinsic (normalised Euclidean) mean: ", fmt_ll(ext_ll), "\n", sep = "")
cat(sprintf("Distance Frechet mean <-> extrinsic mean: %.3f km\n",
            riem_dist(S2, mu_s2, ext) * earth_km))
cost_of <- function(M, X, p) mean(riem_dist(M, p, X)^2) / 2
cat(sprintf("Frechet cost (1/2n sum d^2, rad^2): Frechet mean %.8f, extrinsic mean %.8f\n",
            cost_of(S2, X, mu_s2), cost_of(S2, X, ext)))
cat(sprintf("Naive lat/long average: %s (ignores the curvature)\n",
            fmt_ll(colMeans(ll))))

## ---------------------------------------------------------------------------
## 2. SPD(3): covariance matrices of European stock index returns
## ---------------------------------------------------------------------------
P3 <- manifold_spd(3)
C <- riemdp::eustock_cov
n <- dim(C)[3L]
rule(sprintf("SPD(3), affine-invariant metric: %d windows of 20 trading days", n))
cat("intrinsic dimension", P3$dim, "| curvature in [", P3$curvature[1L], ",",
    P3$curvature[2L], "]\n")
stopifnot(isTRUE(riem_check(P3, C)))

## time (in years) at the middle of each window, from EuStockMarkets' calendar
tt <- as.numeric(stats::time(datasets::EuStockMarkets))
mid <- (seq_len(n) - 1L) * 20L + 11L
win_time <- if (max(mid) <= length(tt)) tt[mid] else seq_len(n)

d_consec <- riem_dist(P3, C[, , -n, drop = FALSE], C[, , -1L, drop = FALSE])
cat("\nDistances between consecutive windows (first 6):\n")
for (i in 1:6)
  cat(sprintf("  window %2d -> %2d (%.2f): %.4f\n", i, i + 1L, win_time[i + 1L], d_consec[i]))
j <- which.max(d_consec)
cat(sprintf("  largest jump: window %d -> %d (around %.2f), distance %.4f\n",
            j, j + 1L, win_time[j + 1L], d_consec[j]))
cat(sprintf("  median consecutive distance %.4f\n", stats::median(d_consec)))

fit_spd <- frechet_mean(P3, C)
cat("\nFrechet (Karcher) mean on SPD(3):\n")
print(fit_spd)
mu_spd <- coef(fit_spd)
dimnames(mu_spd) <- dimnames(C)[1:2]
cat("Frechet mean covariance matrix:\n")
print(round(mu_spd, 4))

arith <- apply(C, 1:2, mean)
cat("Arithmetic mean covariance matrix:\n")
print(round(arith, 4))
cat(sprintf("Distance Frechet mean <-> arithmetic mean: %.4f\n",
            riem_dist(P3, mu_spd, arith)))
cat(sprintf("Determinants: Frechet %.4f, arithmetic %.4f (the arithmetic mean is 'swollen')\n",
            det(mu_spd), det(arith)))
cat(sprintf("Frechet cost: Frechet mean %.6f, arithmetic mean %.6f\n",
            cost_of(P3, C, mu_spd), cost_of(P3, C, arith)))

d_mu <- riem_dist(P3, mu_spd, C)
d_ar <- riem_dist(P3, arith, C)

## ---------------------------------------------------------------------------
## 3. Picture
## ---------------------------------------------------------------------------
png_file <- file.path(out_dir, "geometry-tour.png")
grDevices::png(png_file, width = 1500, height = 650, res = 110)
op <- graphics::par(mfrow = c(1, 2), mar = c(4.5, 4.5, 3, 1))

graphics::plot(ll[, "long"], ll[, "lat"], pch = 16, cex = 0.6,
               col = grDevices::adjustcolor("grey30", 0.45),
               xlab = "longitude (degrees east)", ylab = "latitude (degrees)",
               main = "Earthquakes near Fiji on the sphere", asp = 1)
graphics::points(mu_ll[2L], mu_ll[1L], pch = 21, cex = 2.4, lwd = 2, bg = "red", col = "black")
graphics::points(ext_ll[2L], ext_ll[1L], pch = 4, cex = 1.4, lwd = 2, col = "dodgerblue3")
graphics::legend("bottomleft", bty = "n", cex = 0.85,
                 pch = c(16, 21, 4), pt.bg = c(NA, "red", NA),
                 col = c("grey30", "black", "dodgerblue3"), pt.cex = c(0.8, 1.6, 1.2),
                 legend = c("epicentre", "Frechet mean",
                            sprintf("extrinsic mean (%.1f km away)",
                                    riem_dist(S2, mu_s2, ext) * earth_km)))

graphics::plot(win_time, d_mu, type = "n",
               ylim = c(0, 1.18 * max(d_mu, d_ar)),
               xlab = "time (middle of 20-trading-day window)",
               ylab = "affine-invariant distance",
               main = "DAX/SMI/CAC covariances: distance to the mean")
graphics::lines(win_time, d_ar, lty = 2, lwd = 1.2, col = grDevices::adjustcolor("dodgerblue3", 0.8))
graphics::lines(win_time, d_mu, type = "o", pch = 16, cex = 0.6, lwd = 1.4, col = "red")
graphics::legend("topleft", bty = "n", cex = 0.85, lty = c(1, 2), pch = c(16, NA),
                 lwd = c(1.4, 1.2), col = c("red", "dodgerblue3"), horiz = TRUE,
                 legend = c("to Frechet mean", "to arithmetic mean"))
graphics::par(op)
invisible(grDevices::dev.off())

cat("\nWrote ", normalizePath(png_file), "\n", sep = "")
