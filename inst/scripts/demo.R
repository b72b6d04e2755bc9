## riemdp demo: private geodesic regression on real data.
##
## Run with the installed package:
##   Rscript inst/scripts/demo.R [output-dir] [--fast]
## (output directory by default $RIEMDP_DEMO_OUT, else demo-output)
## or  make demo   from the package root. `--fast` (or the environment variable
## RIEMDP_DEMO_FAST=1) shortens the chains and draws fewer releases: for tests.
##
## 1. Earthquakes: epicentre location (unit vectors on the sphere S^2) against
##    depth, base R's `quakes`, the Tonga part east of 175 E (795 events).
## 2. Rat skulls: shape (8 landmarks, Kendall's shape space) against age,
##    `shapes::rats` (skipped when the shapes package is absent).
## Each part prints one private release (epsilon-DP), compares it with the
## non-private fit and writes a PNG of the data, the non-private geodesic and
## several private geodesics.

suppressPackageStartupMessages(library(riemdp))

args <- commandArgs(trailingOnly = TRUE)
fast <- "--fast" %in% args || identical(Sys.getenv("RIEMDP_DEMO_FAST"), "1")
args <- args[args != "--fast"]
out_dir <- if (length(args) >= 1L && nzchar(args[1L])) args[1L] else Sys.getenv("RIEMDP_DEMO_OUT", "demo-output")
dir.create(out_dir, showWarnings = FALSE, recursive = TRUE)
t0 <- proc.time()
took <- function(since) {     # elapsed and CPU seconds since `since`
  d <- proc.time() - since
  sprintf("%.1f s elapsed, %.1f s CPU", d[["elapsed"]], d[["user.self"]] + d[["sys.self"]])
}

rule <- function(title) cat("\n== ", title, " ", strrep("=", max(0, 70 - nchar(title))), "\n", sep = "")
n_private <- if (fast) 2L else 5L   # private releases drawn per part (all printed as a summary)

## Compare a release with the non-private fit: distance between the footpoints
## (the geodesics at x = 0), angle between the shooting vectors (the fit's
## carried to the private footpoint) and their lengths.
compare <- function(M, fit, rel) {
  p <- fit$footpoint; q <- rel$footpoint
  v_there <- riem_transport(M, p, q, fit$shooting)
  cosang <- riem_inner(M, q, v_there, rel$shooting) /
    (riem_norm(M, q, v_there) * riem_norm(M, q, rel$shooting))
  c(distance = riem_dist(M, p, q), angle = acos(max(-1, min(1, cosang))) * 180 / pi,
    speed_fit = riem_norm(M, p, fit$shooting), speed_private = riem_norm(M, q, rel$shooting))
}

## ---------------------------------------------------------------------------
## 1. Earthquakes of the Tonga subduction zone: location against depth
## ---------------------------------------------------------------------------
rule("1. Tonga earthquakes: epicentre on the sphere against depth")
tonga <- datasets::quakes[datasets::quakes$long > 175, ]
cat(sprintf("quakes east of 175 E: %d events, depths %g to %g km\n", nrow(tonga),
            min(tonga$depth), max(tonga$depth)))
ols <- stats::lm(long ~ depth, data = tonga)
cat(sprintf("Ordinary regression lm(long ~ depth): slope %.5f degrees per km, R^2 = %.3f\n",
            stats::coef(ols)[["depth"]], summary(ols)$r.squared))
cat("  (deeper events lie further west, along the slab that dips west under Fiji)\n")

to_latlong <- function(P) sphere_to_latlon(P, wrap = 360)  # degrees, longitude in [0, 360) as in quakes
S2 <- manifold_sphere(2)
Y <- sphere_from_latlon(tonga$lat, tonga$long)
depth <- tonga$depth                          # km

fit_q <- geodesic_regression(S2, depth, Y)
cat(sprintf("Non-private geodesic regression: R^2 = %.3f (Fletcher's, of location on depth: most of the\n",
            fit_q$r_squared))
cat("  spread runs north-south along the trench, whatever the depth)\n")

## Public parameters: none is read off the data.
epsilon_q <- 1
pub_q <- list(
  ## Earthquakes occur from the surface down to about 700 km, the base of the
  ## mantle transition zone; no deeper event has been recorded anywhere.
  x_range = c(0, 700),
  ## The middle of the Tonga arc (the Tonga islands, about 20 S, 175 W): the
  ## surface trace of the subduction zone, where the shallow events occur.
  center = sphere_from_latlon(-20, 185)[1, ],
  ## The fit at 0 km (the surface trace of the slab) lies in the Tonga-Kermadec
  ## zone within 10 degrees (about 1100 km) of that point.
  radius = 10 * pi / 180,
  ## Slabs dip at 30 degrees or more below 100 km: over 700 km of depth the
  ## epicentres move at most 700 / tan(30 deg) = 1212 km, 0.19 rad; tau_m = 0.2.
  tau_m = 0.2,
  ## Residuals are clipped at 0.1 rad (637 km), half the length of the Tonga
  ## trench: an event farther than that from the slab's line counts as one that far.
  tau = 0.1)
## The release's default chain: its length is fixed by public quantities,
## the parameter's dimension (4 here) and the number of events.

cat(sprintf("\nPublic bounds: epsilon = %g; depth range [%g, %g] km; centre 20 S, 175 W; radius %g degrees;\n",
            epsilon_q, pub_q$x_range[1], pub_q$x_range[2], pub_q$radius * 180 / pi))
cat(sprintf("  tau_m = %g rad over the depth range; tau = %g rad. Chain: the release's default.\n",
            pub_q$tau_m, pub_q$tau))

set.seed(2024)
release_q <- function(diagnostics = FALSE)
  dp_geodesic_regression(S2, depth, Y, epsilon = epsilon_q, tau = pub_q$tau, tau_m = pub_q$tau_m,
                         x_range = pub_q$x_range, center = pub_q$center, radius = pub_q$radius,
                         diagnostics = diagnostics)
rels_q <- c(list(release_q(diagnostics = TRUE)), lapply(seq_len(n_private - 1L), function(i) release_q()))
cat("\nThe first private release (its chain diagnostics depend on the data and are outside the guarantee;\n")
cat("a real release would be drawn with diagnostics = FALSE):\n\n")
print(rels_q[[1L]])

earth_km <- 6371
cmp_q <- t(vapply(rels_q, function(r) compare(S2, fit_q, r), numeric(4)))
cat("\nPrivate releases against the non-private fit (surface point = the geodesic at 0 km):\n")
print(data.frame(release = seq_len(nrow(cmp_q)),
                 surface_point_km = round(cmp_q[, "distance"] * earth_km),
                 angle_deg = round(cmp_q[, "angle"], 1),
                 km_per_100km_private = round(cmp_q[, "speed_private"] * earth_km * 100, 1),
                 km_per_100km_fit = round(cmp_q[, "speed_fit"] * earth_km * 100, 1)),
      row.names = FALSE)
pll <- to_latlong(fit_q$footpoint)
cat(sprintf("Non-private fit: at 0 km %.2f S, %.2f E; at 700 km %s\n", -pll[1, "lat"], pll[1, "long"],
            paste(sprintf(c("%.2f S,", "%.2f E"), abs(to_latlong(predict(fit_q, 700))[1, ])), collapse = " ")))

## Picture: data coloured by depth, the fit, the private geodesics.
png_q <- file.path(out_dir, "tonga-quakes.png")
grDevices::png(png_q, width = 850, height = 900, res = 110)
op <- graphics::par(mar = c(4.5, 4.5, 4, 1))
ll <- to_latlong(Y)
pal <- grDevices::hcl.colors(64, "viridis", rev = TRUE)
dcol <- pal[pmin(64L, 1L + floor(63 * depth / 700))]
along <- seq(pub_q$x_range[1], pub_q$x_range[2], length.out = 71)
curves <- lapply(rels_q, function(r) to_latlong(predict(r, along)))
fit_curve <- to_latlong(predict(fit_q, along))
graphics::plot(ll[, "long"], ll[, "lat"], pch = 16, cex = 0.6, col = grDevices::adjustcolor(dcol, 0.7),
               xlim = range(ll[, "long"], fit_curve[, "long"], 175), ylim = range(ll[, "lat"], fit_curve[, "lat"]),
               asp = 1 / cos(20 * pi / 180), xlab = "longitude (degrees east)", ylab = "latitude (degrees)",
               main = sprintf("Tonga earthquakes (n = %d): location against depth", nrow(tonga)))
graphics::mtext(sprintf("non-private geodesic (black) and %d private ones at epsilon = %g (red); 0 km = open circle",
                        length(rels_q), epsilon_q), side = 3, line = 0.5, cex = 0.85)
for (cv in curves) {
  graphics::lines(cv[, "long"], cv[, "lat"], col = grDevices::adjustcolor("red3", 0.75), lwd = 1.6)
  graphics::points(cv[1, "long"], cv[1, "lat"], col = "red3", pch = 1, cex = 1.2)
}
graphics::lines(fit_curve[, "long"], fit_curve[, "lat"], lwd = 3)
graphics::points(fit_curve[1, "long"], fit_curve[1, "lat"], pch = 1, cex = 1.6, lwd = 2)
graphics::legend("bottomleft", bty = "n", cex = 0.85, pch = 16, col = pal[c(1, 22, 43, 64)],
                 legend = sprintf("depth %d km", c(0L, 233L, 467L, 700L)), title = "epicentres")
graphics::par(op)
invisible(grDevices::dev.off())
cat(sprintf("Wrote %s (part 1: %s)\n", png_q, took(t0)))

## ---------------------------------------------------------------------------
## 2. Rat skulls: shape against age
## ---------------------------------------------------------------------------
rule("2. Rat skulls: shape in Kendall's space against age")
options(rgl.useNULL = TRUE)        # shapes loads rgl: no display needed
Sys.setenv(RGL_USE_NULL = "TRUE")
t1 <- proc.time()
if (!requireNamespace("shapes", quietly = TRUE)) {
  cat("The shapes package is not installed: skipping the rat skulls.\n")
} else {
  rats <- NULL
  utils::data("rats", package = "shapes", envir = environment())
  K <- manifold_kendall(8)
  age <- rats$time                             # days
  cat(sprintf("%d skull outlines (18 rats at 8 ages from %g to %g days), 8 landmarks each\n",
              dim(rats$x)[3L], min(age), max(age)))
  fit_r <- geodesic_regression(K, age, rats$x)
  cat(sprintf("Non-private geodesic regression: R^2 = %.3f (Fletcher's, of shape on age)\n", fit_r$r_squared))

  epsilon_r <- 20
  pub_r <- list(
    ## The study design: measurements at 7 to 150 days.
    x_range = c(7, 150),
    ## A regular octagon, vertices in landmark order, clockwise: the landmark
    ## protocol digitises the 8 points in order around the section, clockwise.
    center = cbind(cos(-2 * pi * (0:7) / 8), sin(-2 * pi * (0:7) / 8)),
    ## The shape at 7 days lies within pi/4 of that octagon (the space has diameter pi/2).
    radius = pi / 4,
    ## Growth changes the shape by at most 0.5 rad over the age range.
    tau_m = 0.5,
    ## Skulls farther than 0.1 rad (Procrustes) from the fitted shape are clipped.
    tau = 0.1)
  cat(sprintf("\nPublic bounds: epsilon = %g; ages [%g, %g] days; centre a regular octagon; radius pi/4;\n",
              epsilon_r, pub_r$x_range[1], pub_r$x_range[2]))
  cat(sprintf("  tau_m = %g rad over the age range; tau = %g rad. Chain: the release's default (24 parameters).\n",
              pub_r$tau_m, pub_r$tau))
  cat("  (24 parameters from 144 outlines: smaller epsilon leaves the change with age to noise,\n")
  cat("   see vignette(\"private-shape-regression\"))\n")

  set.seed(2025)
  release_r <- function(diagnostics = FALSE)
    dp_geodesic_regression(K, age, rats$x, epsilon = epsilon_r, tau = pub_r$tau, tau_m = pub_r$tau_m,
                           x_range = pub_r$x_range, center = pub_r$center, radius = pub_r$radius,
                           diagnostics = diagnostics)
  rels_r <- c(list(release_r(diagnostics = TRUE)), lapply(seq_len(n_private - 1L), function(i) release_r()))
  cat("\nThe first private release (diagnostics outside the guarantee, as above):\n\n")
  print(rels_r[[1L]])

  shape_at <- function(obj, a) matrix(predict(obj, a), 8L, 2L)   # one k x 2 configuration
  cmp_r <- t(vapply(rels_r, function(r)
    c(at_7 = riem_dist(K, shape_at(fit_r, 7), shape_at(r, 7)),
      at_150 = riem_dist(K, shape_at(fit_r, 150), shape_at(r, 150)),
      change_private = riem_dist(K, shape_at(r, 7), shape_at(r, 150)),
      change_fit = riem_dist(K, shape_at(fit_r, 7), shape_at(fit_r, 150))), numeric(4)))
  cat("\nPrivate releases against the non-private fit (Procrustes distances, rad):\n")
  print(data.frame(release = seq_len(nrow(cmp_r)), round(cmp_r, 3)), row.names = FALSE)
  cat(sprintf("Typical residual of the fit: median %.3f rad\n",
              stats::median(riem_dist(K, fitted(fit_r), rats$x))))

  ## Picture: left, the data and the fit (plot method); right, the fitted and
  ## private shapes at 7 and 150 days, aligned to the fitted shape at 7 days.
  png_r <- file.path(out_dir, "rat-skulls.png")
  grDevices::png(png_r, width = 1500, height = 720, res = 110)
  op <- graphics::par(mfrow = c(1, 2))
  plot(fit_r, main = "Non-private fit")
  ref <- shape_at(fit_r, 7)
  align <- function(z) matrix(riem_exp(K, ref, riem_log(K, ref, z)), 8L, 2L)
  ends <- function(obj) list(young = align(shape_at(obj, 7)), old = align(shape_at(obj, 150)))
  fe <- ends(fit_r)
  pe <- lapply(rels_r, ends)
  allxy <- rbind(fe$young, fe$old, do.call(rbind, unlist(pe, recursive = FALSE)))
  graphics::par(mar = c(2.5, 1, 3.6, 1))
  graphics::plot(allxy, type = "n", asp = 1, axes = FALSE, xlab = "", ylab = "")
  graphics::title(sprintf("Shapes at 7 and 150 days: fit and %d private releases", length(rels_r)), line = 2)
  graphics::mtext(sprintf("thick: non-private fit; thin: private (epsilon = %g); blue 7 days, orange 150 days",
                          epsilon_r), side = 3, line = 0.5, cex = 0.8)
  graphics::box(col = "grey60")
  for (e in pe) {
    graphics::polygon(e$young, border = grDevices::adjustcolor("steelblue", 0.7), lwd = 1.2)
    graphics::polygon(e$old, border = grDevices::adjustcolor("darkorange", 0.7), lwd = 1.2)
  }
  graphics::polygon(fe$young, border = "steelblue4", lwd = 3.5)
  graphics::polygon(fe$old, border = "darkorange3", lwd = 3.5)
  graphics::text(fe$young, labels = 1:8, pos = 3, cex = 0.75, col = "grey20")
  graphics::par(op)
  invisible(grDevices::dev.off())
  cat(sprintf("Wrote %s (part 2: %s)\n", png_r, took(t1)))
}

cat(sprintf("\nDemo finished: %s%s.\n", took(t0), if (fast) " (reduced budget)" else ""))
