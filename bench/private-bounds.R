## Utility of private bounds (issue 21, stage 1): private Frechet means whose
## ball is found privately (dp_frechet_mean(bounds = dp_bounds(...)), with
## only "somewhere on the sphere" or a large public ball as public knowledge)
## against the same releases with hand-chosen public bounds, at the same total
## epsilon. Error: distance from the non-private Frechet mean of the data.
## Prints, per case, the median error of each route over `reps` releases and
## the median error ratio (private bounds / hand-chosen).
##
## Run from the package root with the package installed:
##     Rscript bench/private-bounds.R
## Total runtime: about 10-20 seconds on one core.

suppressPackageStartupMessages(library(riemdp))
options(riemdp.threads = 1)
reps <- as.integer(Sys.getenv("RIEMDP_BENCH_REPS", "100"))
eps <- 1

run_case <- function(label, M, X, truth, hand, private, unit = 1, unit_name = "") {
  err <- function(rel) riem_dist(M, truth, rel$estimate) * unit
  t_hand <- system.time(e_hand <- replicate(reps, err(do.call(dp_frechet_mean, c(list(M, X, epsilon = eps), strip(hand))))))
  t_priv <- system.time(rels <- replicate(reps, dp_frechet_mean(M, X, epsilon = eps, bounds = strip(private)), simplify = FALSE))
  e_priv <- vapply(rels, err, 0)
  radii <- vapply(rels, function(r) r$radius, 0)
  centre <- vapply(rels, function(r) riem_dist(M, truth, r$center), 0) * unit
  cat(sprintf("\n%s (n = %d, epsilon = %g in total, %d releases per route)\n", label, nrow(X), eps, reps))
  cat(sprintf("  hand-chosen bounds (%s): median error %.4g%s (%.1f ms per release)\n",
              hand$label, stats::median(e_hand), unit_name, 1000 * t_hand[["elapsed"]] / reps))
  cat(sprintf("  private bounds (%s): median error %.4g%s (%.1f ms per release)\n",
              private$label, stats::median(e_priv), unit_name, 1000 * t_priv[["elapsed"]] / reps))
  cat(sprintf("    private centre: median %.3g%s from the mean (90%%: %.3g); private radius: median %.4g (10%%-90%%: %.4g-%.4g)\n",
              stats::median(centre), unit_name, stats::quantile(centre, 0.9), stats::median(radii),
              stats::quantile(radii, 0.1), stats::quantile(radii, 0.9)))
  cat(sprintf("  median error ratio (private / hand-chosen): %.2f\n", stats::median(e_priv) / stats::median(e_hand)))
  invisible(c(hand = stats::median(e_hand), private = stats::median(e_priv)))
}
strip <- function(x) { x$label <- NULL; x }
label_of <- function(x, label) { x$label <- label; x }

cat("Private bounds against hand-chosen bounds, same total epsilon (Laplace mechanism)\n")

## S^2: a concentrated cap (wind-like directions), n = 500
S2 <- manifold_sphere(2)
set.seed(1)
mu0 <- c(0.48, -0.6, 0.64)
X <- riem_rgaussian(S2, 500, mu0, 0.1)          # about 6 degrees of spread
truth <- coef(frechet_mean(S2, X))
deg <- 180 / pi
for (r_hand in c(15, 25)) {
  hand <- list(center = mu0, radius = r_hand / deg, outside = "clip")
  set.seed(10 + r_hand)
  run_case(sprintf("S^2, cap of about 6 degrees around a public point; hand radius %d degrees", r_hand), S2, X, truth,
           label_of(hand, sprintf("centre = the region's known centre, radius %d deg, clip", r_hand)),
           label_of(dp_bounds(share = 0.2), "share 0.2, whole sphere, defaults"), deg, " deg")
}

## R^2: data in a small part of a large public ball
E2 <- manifold_euclidean(2)
set.seed(2)
Y <- sweep(matrix(stats::rnorm(1000), 500, 2), 2, c(31.7, -18.4), "+")
truth <- colMeans(Y)
hand <- list(center = c(30, -20), radius = 5, outside = "clip")
settings <- list(
  list(label = "defaults: count radius 10, radii up to 200, split 0.5",
       spec = dp_bounds(share = 0.2, region_center = c(0, 0), region_radius = 100)),
  list(label = "count radius 5, radii up to 20, split 0.3",
       spec = dp_bounds(share = 0.2, region_center = c(0, 0), region_radius = 100, count_radius = 5,
                        radius_max = 20, split = 0.3)))
for (st in settings) {
  set.seed(3)
  run_case(sprintf("R^2, unit-spread data near (31.7, -18.4) in the public ball of radius 100 around 0; %s", st$label),
           E2, Y, truth, label_of(hand, "centre (30, -20), radius 5, clip"),
           label_of(st$spec, sprintf("share 0.2, ball of radius 100, %s", st$label)))
}
