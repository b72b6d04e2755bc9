## Simulations behind vignettes/private-frechet.Rmd: a reproduction of Fig. 1
## of Reimherr, Bharath, Soto (2021), "Differential privacy over Riemannian
## manifolds" (sections 5.1-5.2, supplement A), and a comparison of the
## Laplace, K-norm gradient and Gaussian releases on the fiji_quakes data.
##
## Run from the package root with riemdp installed:
##     Rscript vignettes/data-raw/private-frechet.R
## Writes inst/extdata/private-frechet.rds (a few kB). Base R only; takes
## about two minutes sequentially (136 s when the data were made; the KNG
## releases use the release's default chain).
##
## The replicated releases go through dp_replicate(): sequentially by default,
## in parallel under a future::plan() set before source()-ing the script, or
## with RIEMDP_WORKERS=k in the environment (a multisession plan with k
## workers). Each replicate draws from its own L'Ecuyer-CMRG stream, fixed by
## the seed of its dp_replicate() call, so the results do not depend on the
## plan; everything else (the sensitivity pairs, the subset of fiji_quakes) is
## fixed by set.seed().

suppressPackageStartupMessages(library(riemdp))
t_start <- proc.time()[["elapsed"]]
workers <- suppressWarnings(as.integer(Sys.getenv("RIEMDP_WORKERS", "1")))
old_plan <- if (!is.na(workers) && workers > 1L) future::plan(future::multisession, workers = workers)
set.seed(2021)

eps <- 1                      # privacy budget of every release
ns <- seq(10L, 100L, by = 10L)  # sample sizes
n_pairs <- 100L               # adjacent data sets per n (sensitivity panels)
n_rep <- 1000L                # replicates per n (utility panels, as in the paper)

## ---------------------------------------------------------------------------
## Data in the public balls (supplement A.2.1 and A.3.1)
## ---------------------------------------------------------------------------
## spd(2): Wishart W(I/2, df = 2) (mean I), kept when inside B_1.5(I)
P2 <- manifold_spd(2)
I2 <- diag(2)
r_spd <- 1.5
gen_spd <- function(n) {
  out <- array(0, c(2, 2, 0))
  while (dim(out)[3] < n) {
    W <- stats::rWishart(4L * n, df = 2, Sigma = I2 / 2)
    W <- W[, , riem_dist(P2, I2, W) < r_spd, drop = FALSE]
    out <- array(c(out, W), c(2, 2, dim(out)[3] + dim(W)[3]))
  }
  out[, , seq_len(n), drop = FALSE]
}
## S^2: polar angle uniform on [0, pi/8] around the north pole, azimuth uniform
S2 <- manifold_sphere(2)
north <- c(0, 0, 1)
r_sph <- pi / 8
gen_sph <- function(n) {
  th <- stats::runif(n, 0, r_sph)
  ph <- stats::runif(n, 0, 2 * pi)
  cbind(sin(th) * cos(ph), sin(th) * sin(ph), cos(th))
}
replace_last <- function(M, X, gen) {   # adjacent data set: x_n replaced
  if (M$type == "spd") { X[, , dim(X)[3]] <- gen(1L)[, , 1]; X }
  else { X[nrow(X), ] <- gen(1L); X }
}
fmean <- function(M, X) coef(frechet_mean(M, X, tol = 1e-12))

## ---------------------------------------------------------------------------
## Sensitivity constants
## ---------------------------------------------------------------------------
## Thm 2: Delta = 2r(2 - h)/(n h); spd: h = 1, Delta = 2r/n = 3/n.
## The paper's S^2 runs (suppl. B.1) replace 2r(2 - h) by an empirical
## constant: max |Log_x1(xi) - Log_x1(xj)| over a grid on the boundary of the
## ball, footpoint x1 on the boundary.
h_sph <- 2 * r_sph / tan(2 * r_sph)
phi <- seq(0, 2 * pi, length.out = 4001L)[-4001L]
bnd <- cbind(sin(r_sph) * cos(phi), sin(r_sph) * sin(phi), cos(r_sph))
L <- riem_log(S2, bnd[1, ], bnd)
emp_sph <- sqrt(max(outer(L[, 1], L[, 1], "-")^2 + outer(L[, 2], L[, 2], "-")^2 +
                      outer(L[, 3], L[, 3], "-")^2))
rm(phi, bnd, L)
## ambient balls (suppl. A.2.2, A.3.2): the smallest Euclidean ball holding
## the geodesic ball, r_E = e^r - 1 (spd, Frobenius) and 2 sin(r/2) (S^2, chord)
rE_spd <- exp(r_spd) - 1
rE_sph <- 2 * sin(r_sph / 2)
consts <- list(eps = eps, r_spd = r_spd, r_sph = r_sph, h_sph = h_sph, emp_sph = emp_sph,
               rE_spd = rE_spd, rE_sph = rE_sph,
               thm2_sph = 2 * r_sph * (2 - h_sph) / h_sph,    # n * Delta, Thm 2
               paper_sph = emp_sph / h_sph,                  # n * Delta, suppl. B.1
               thm2_spd = 2 * r_spd,
               ambient_spd = 2 * rE_spd, ambient_sph = 2 * rE_sph)
stopifnot(all.equal(sensitivity_frechet_mean(S2, 1, r_sph), consts$thm2_sph),
          all.equal(sensitivity_frechet_mean(P2, 1, r_spd), consts$thm2_spd))

## ---------------------------------------------------------------------------
## (i) Empirical sensitivity: dist between the means of adjacent data sets
## ---------------------------------------------------------------------------
sens <- list()
for (case in c("spd", "sphere")) {
  M <- if (case == "spd") P2 else S2
  gen <- if (case == "spd") gen_spd else gen_sph
  for (n in ns) {
    d <- vapply(seq_len(n_pairs), function(i) {
      X <- gen(n)
      riem_dist(M, fmean(M, X), fmean(M, replace_last(M, X, gen)))
    }, numeric(1))
    sens[[length(sens) + 1L]] <- data.frame(manifold = case, n = n, dist = d)
  }
}
sens <- do.call(rbind, sens)
cat(sprintf("(i) sensitivity done, %.0f s\n", proc.time()[["elapsed"]] - t_start))

## ---------------------------------------------------------------------------
## (ii) Utility: manifold Laplace against the ambient (Euclidean) Laplace
## ---------------------------------------------------------------------------
## Ambient Laplace in R^3, density prop. to exp(-|z - c|/s): z = c + s R U,
## R ~ Gamma(3), U uniform on the unit sphere (suppl. A.4); s = Delta_E/eps with
## Delta_E = 2 r_E / n. The manifold and ambient laws are both translation
## (isometry) invariant, so both use the footprint-free rate Delta/eps.
r_ambient <- function(center, s) {
  u <- stats::rnorm(3); u <- u / sqrt(sum(u^2))
  center + s * stats::rgamma(1L, shape = 3) * u
}
vech2 <- function(A) c(A[1, 1], A[2, 1], A[2, 2])
unvech2 <- function(v) matrix(c(v[1], v[2], v[2], v[3]), 2, 2)
se <- function(x) stats::sd(x) / sqrt(length(x))

util <- list()
for (n in ns) {
  ## spd(2) --------------------------------------------------------------
  res <- dp_replicate(function(i) {
    X <- gen_spd(n)
    xbar <- fmean(P2, X)
    rel <- dp_frechet_mean(P2, X, epsilon = eps, radius = r_spd, center = I2,
                           normalizer = "footprint_free")
    xt <- coef(rel)
    zE <- r_ambient(vech2(xbar), 2 * rE_spd / (n * eps))
    c(manifold = sqrt(sum((vech2(xt) - vech2(xbar))^2)),
      ambient = sqrt(sum((zE - vech2(xbar))^2)),
      nonpd = min(eigen(unvech2(zE), symmetric = TRUE, only.values = TRUE)$values) <= 0,
      geo = riem_dist(P2, xbar, xt), sigma = rel$sigma)
  }, times = n_rep, seed = 2021000L + n, simplify = TRUE)
  util[[length(util) + 1L]] <- data.frame(
    manifold = "spd", n = n, sigma_manifold = res["sigma", 1], sigma_ambient = 2 * rE_spd / (n * eps),
    mean_manifold = mean(res["manifold", ]), se_manifold = se(res["manifold", ]),
    mean_paper = NA_real_, se_paper = NA_real_,
    mean_ambient = mean(res["ambient", ]), se_ambient = se(res["ambient", ]),
    mean_ambient_proj = NA_real_, se_ambient_proj = NA_real_,
    nonpd = mean(res["nonpd", ]), mean_geo_manifold = mean(res["geo", ]))
  ## S^2 -------------------------------------------------------------------
  s_paper <- consts$paper_sph / (n * eps)
  res <- dp_replicate(function(i) {
    X <- gen_sph(n)
    xbar <- fmean(S2, X)
    rel <- dp_frechet_mean(S2, X, epsilon = eps, radius = r_sph, center = north,
                           normalizer = "footprint_free")
    xt <- coef(rel)
    xp <- as.vector(riem_rlaplace(S2, 1L, xbar, sigma = s_paper))
    zE <- r_ambient(xbar, 2 * rE_sph / (n * eps))
    c(manifold = sqrt(sum((xt - xbar)^2)), paper = sqrt(sum((xp - xbar)^2)),
      ambient = sqrt(sum((zE - xbar)^2)),
      ambient_proj = sqrt(sum((zE / sqrt(sum(zE^2)) - xbar)^2)),
      geo = riem_dist(S2, xbar, xt), sigma = rel$sigma)
  }, times = n_rep, seed = 2021500L + n, simplify = TRUE)
  util[[length(util) + 1L]] <- data.frame(
    manifold = "sphere", n = n, sigma_manifold = res["sigma", 1], sigma_ambient = 2 * rE_sph / (n * eps),
    mean_manifold = mean(res["manifold", ]), se_manifold = se(res["manifold", ]),
    mean_paper = mean(res["paper", ]), se_paper = se(res["paper", ]),
    mean_ambient = mean(res["ambient", ]), se_ambient = se(res["ambient", ]),
    mean_ambient_proj = mean(res["ambient_proj", ]), se_ambient_proj = se(res["ambient_proj", ]),
    nonpd = NA_real_, mean_geo_manifold = mean(res["geo", ]))
  cat(sprintf("(ii) n = %d done, %.0f s\n", n, proc.time()[["elapsed"]] - t_start))
}
util <- do.call(rbind, util)

## ---------------------------------------------------------------------------
## (iii) Laplace, KNG and Gaussian on fiji_quakes
## ---------------------------------------------------------------------------
## Public ball: centre at 24 S, 178 E (read off a map of the Fiji-Tonga
## region, not computed from the data), radius pi/8 (22.5 degrees of arc).
## The Gaussian rate is sigma = Delta/mu with mu = 1.23, the mu-GDP implied by
## 1-DP (mu = -2 qnorm(1/(1 + e))): exact in the flat limit, which is where
## these rates (10^-3 rad) live; all three releases are then ~1.23-GDP and
## Laplace and KNG are moreover 1-DP. "laplace" uses the package default
## sigma = 2 Delta/eps, "laplace_ff" the footprint-free Delta/eps (valid: the
## unrestricted Laplace law on the sphere has a footprint-free normaliser).
deg <- pi / 180
lat0 <- -24 * deg; lon0 <- 178 * deg
fiji_center <- c(cos(lat0) * cos(lon0), cos(lat0) * sin(lon0), sin(lat0))
fiji_radius <- pi / 8
mu_gauss <- -2 * stats::qnorm(1 / (1 + exp(eps)))
n_rep3 <- 400L
idx100 <- sort(sample.int(nrow(fiji_quakes), 100L))
mech <- list()
mech_sigma <- list()
for (nn in c(100L, 1000L)) {
  X <- if (nn == 100L) fiji_quakes[idx100, ] else fiji_quakes
  xbar <- fmean(S2, X)
  s_gauss <- sensitivity_frechet_mean(S2, nn, fiji_radius) / mu_gauss
  mechs <- c("laplace", "laplace_ff", "kng", "gaussian")
  for (m in mechs) {
    # one seed per (n, mechanism): 2021900 + 10 * (n = 1000) + (index of mechanism)
    res <- dp_replicate(function(i) {
      rel <- dp_frechet_mean(S2, X, epsilon = if (m == "gaussian") NULL else eps, radius = fiji_radius,
                             center = fiji_center, mechanism = sub("_ff", "", m), outside = "clip",
                             normalizer = if (m == "laplace_ff") "footprint_free" else "conservative",
                             sigma = if (m == "gaussian") s_gauss else NULL)
      c(dist = riem_dist(S2, xbar, coef(rel)), sigma = rel$sigma)
    }, times = n_rep3, seed = 2021900L + 10L * (nn == 1000L) + match(m, mechs), simplify = TRUE)
    mech[[length(mech) + 1L]] <- data.frame(n = nn, mechanism = m, dist_km = 6371 * res["dist", ])
    mech_sigma[[length(mech_sigma) + 1L]] <- data.frame(n = nn, mechanism = m, sigma = res["sigma", 1])
  }
  cat(sprintf("(iii) n = %d done, %.0f s\n", nn, proc.time()[["elapsed"]] - t_start))
}
mech <- do.call(rbind, mech)
mech_sigma <- do.call(rbind, mech_sigma)

## ---------------------------------------------------------------------------
## Save
## ---------------------------------------------------------------------------
out <- list(
  settings = list(eps = eps, ns = ns, n_pairs = n_pairs, n_rep = n_rep, n_rep3 = n_rep3,
                  fiji_center_latlong = c(-24, 178), fiji_radius = fiji_radius, mu_gauss = mu_gauss,
                  seed = 2021L, riemdp = as.character(utils::packageVersion("riemdp")),
                  R = R.version.string, date = format(Sys.Date()),
                  runtime_s = round(proc.time()[["elapsed"]] - t_start),
                  workers = if (requireNamespace("future", quietly = TRUE)) future::nbrOfWorkers() else 1L),
  consts = consts, sens = sens, util = util, mech = mech, mech_sigma = mech_sigma)
dir.create("inst/extdata", showWarnings = FALSE)
saveRDS(out, "inst/extdata/private-frechet.rds", version = 2, compress = "xz")
cat(sprintf("saved inst/extdata/private-frechet.rds (%d bytes), %.0f s\n",
            file.size("inst/extdata/private-frechet.rds"), proc.time()[["elapsed"]] - t_start))
if (!is.null(old_plan)) future::plan(old_plan)
