## Benchmark: riemdp's geodesic_regression() against two plain-R
## implementations of the same algorithm (written below) and against the CRAN
## package 'GeodRegr' (GeodRegr::geo_reg, loss "l2") -- issue 7, "Speed".
##
## Run from the package root with the package installed:
##     Rscript bench/regression.R
## Uses base R (system.time / proc.time); data are fixed by set.seed() (and
## shapes::rats). 'GeodRegr' is installed here from the configured repository
## if missing (into a private bench library, see bench/ensure-package.R); its
## comparison is skipped if that fails. 'shapes' (Suggests) is needed for the
## rats data; that part is skipped without it.
##
## Data: 144 Kendall shapes of 8 landmarks (shapes::rats, ages scaled to
## [0, 1]); 10^4 points on manifold_sphere(2) and 10^3 matrices on
## manifold_spd(3), both simulated along a known geodesic with noise.
##
## The plain-R references follow riemdp's algorithm for one covariate step by
## step (SPEC7, src/riemdp/statistics/regression.h):
##   1. Frechet mean ybar (gradient descent with Armijo backtracking); the
##      covariate centred, xc = x - mean(x); least squares of Log_ybar(y_i) on
##      [1, xc_i] in T_ybar; start p = Exp_ybar(b0), v = Gamma_{ybar->p}(b1).
##   2. Gradients from the adjoint Jacobi fields; the Gauss-Newton direction
##      -N^-1 g, N block diagonal over the eigenspaces of the curvature
##      operator along v, one 2 x 2 block per eigenspace (gauss_newton_block
##      in manifold.h, regression_gauss_newton per manifold).
##   3. Armijo backtracking from t = 1 (capped so that |t d_p| <= half the
##      injectivity radius), halving up to 60 times: accept when
##      E' <= E + 1e-4 t <g, d>, or -- once the predicted decrease is within
##      the energy's rounding -- when the gradient norm decreases. Stop when
##      |g| <= tol = 1e-10 (or at the same rounding floor as riemdp), then map
##      the geodesic back from the centred covariate to x = 0.
## Two transcriptions of it:
##   - vectorised: each pass over the data is a handful of whole-matrix R
##     operations (spd: congruences as matrix products, one eigen() per point
##     for the matrix logarithms, which R cannot vectorise);
##   - per point: the literal transcription users would write, a loop over
##     the points calling small R functions exp1(), log1(), adjoint1() (the
##     adjoint Jacobi fields) for one point at a time, as bench/geometry.R's
##     per-point reference does for distances.
## Both share the driver and the per-iteration steps (Gauss-Newton direction,
## exponential map, transport); only the passes over the data differ (and the
## per-point Gauss-Newton blocks sum over the points in a loop too). The
## vectorised gradients are checked against central finite differences of its
## energy, the per-point ones against the vectorised ones.
##
## GeodRegr is run where it is fastest: with x centred (it warns otherwise and
## is slower). For one covariate, centring x reparametrises the same family of
## geodesics, so its fit is compared through the energy
## E = 1/(2n) sum dist(yhat_i, y_i)^2 of its fitted geodesic on the centred x,
## computed with riemdp's geometry, and its time against riemdp's on the same
## centred x. GeodRegr stops on the step sizes (p_tol = V_tol = 1e-5, its
## defaults), so its energy is expected slightly above the minimum.
##
## Every time is the median of several repetitions (GeodRegr's sphere fit: its
## one run); fast calls are repeated inside a repetition so that one
## measurement lasts at least ~100 ms (proc.time() resolves 1 ms). riemdp
## evaluates on two threads from n * ambient >= 2e4 (the sphere here): its
## times there depend on how busy the second core is. Every reference runs on
## all the points. Total runtime: about 45 seconds (most of it GeodRegr's
## sphere fit and the per-point references), plus GeodRegr's installation the
## first time.

suppressPackageStartupMessages(library(riemdp))
source(file.path("bench", "ensure-package.R"))
options(width = 200)

t_start <- proc.time()[["elapsed"]]

## ---------------------------------------------------------------------------
## Timing helper (as in bench/geometry.R)
## ---------------------------------------------------------------------------
## Median over `reps` measurements of the time of one call of f(), in seconds.
## `t_first`: the time of a call already made (it then serves as the warm-up).
time_median <- function(f, reps = 5L, min_time = 0.1, t_first = NULL) {
  t1 <- if (is.null(t_first)) system.time(f())[["elapsed"]] else t_first
  inner <- if (t1 < min_time) as.integer(ceiling(min_time / max(t1, 5e-4))) else 1L
  ts <- numeric(reps)
  for (r in seq_len(reps)) {
    invisible(gc(verbose = FALSE))
    t0 <- proc.time()[["elapsed"]]
    for (j in seq_len(inner)) f()
    ts[r] <- (proc.time()[["elapsed"]] - t0) / inner
  }
  stats::median(ts)
}

## ===========================================================================
## Plain-R geodesic regression: the driver (shared by both transcriptions)
## ===========================================================================
## A manifold is a list of functions (one covariate):
##   frechet_mean(Y)                 the Frechet mean of the data
##   log_rows(p, Y)                  Log_p(y_i) for all i, as rows (tangent at p)
##   from_row(r)                     a row of log_rows() as a tangent vector
##   exp(p, v)                       Exp_p(v)
##   transport(p, d, w)              Gamma_{p -> Exp_p(d)}(w) along t -> Exp_p(t d)
##   velocity(p, v, s)               d/dt Exp_p(t v) at t = s
##   inner(p, a, b)                  the metric at p
##   energy_grad(p, v, x, Y, grad)   list(energy, grad_p, grad_v)
##   gauss_newton(p, v, x, gp, gv, block)  list(p = d_p, v = d_v) = -N^-1 (g_p, g_v)
##   block(kappa, x)                 the inverse 2 x 2 Gauss-Newton block (a, b, c)
##   rounding_scale(p), data_scale(Y), max_step   as riemdp (stopping floor, step cap)
## Points and tangent vectors: sphere, numeric 3-vectors; kendall, complex
## k-vectors (centred, unit norm preshapes; horizontal tangent vectors);
## spd, symmetric k x k matrices (tangent vectors in ambient coordinates, the
## metric <a, b>_p = tr(p^-1 a p^-1 b)). Data: vectorised, the rows of a
## matrix (spd: row i = vec(y_i)); per point, a list of points.

f_eps <- 64 * .Machine$double.eps   # relative rounding slack of an energy

## Frechet mean: x <- Exp_x(t mean Log_x(y_i)), t = 1 halved until Armijo
## (c = 1e-4) holds up to rounding (the slack f_eps, as in bench/geometry.R).
## `eval_at(x)` returns list(g = mean Log_x(y_i), f = cost).
pr_frechet <- function(G, eval_at, init, max_iter = 200L, tol = 1e-10) {
  x <- init
  cur <- eval_at(x)
  it <- 0L
  repeat {
    gn <- sqrt(G$inner(x, cur$g, cur$g))
    if (gn < tol || it >= max_iter) break
    t <- 1
    repeat {
      xn <- G$exp(x, t * cur$g)
      nxt <- eval_at(xn)
      if (nxt$f <= cur$f - 1e-4 * t * gn^2 + f_eps * abs(cur$f) || t < 1e-10) break
      t <- t / 2
    }
    x <- xn; cur <- nxt; it <- it + 1L
  }
  x
}

## Gauss-Newton blocks (manifold.h, gauss_newton_block): on an eigenspace
## where the Jacobi scalings at covariate x are those of curvature kappa over
## length |x|, N = (1/n) sum (f_i, g_i)(f_i, g_i)^T, f_i = c_kappa(|x_i|),
## g_i = x_i sn_kappa(|x_i|)/|x_i|; returned as its inverse c(a, b, c) =
## [a b; b c]. Near singular: the flat block stands in (zero if that is too).
sinc_r <- function(s) if (abs(s) < 1e-4) 1 - s^2 / 6 + s^4 / 120 else sin(s) / s
sinhc_r <- function(s) if (abs(s) < 1e-4) 1 + s^2 / 6 + s^4 / 120 else sinh(s) / s
jacobi_scaling <- function(K, L) {                  # (footpoint, shooting) scalings
  if (K > 0) { s <- sqrt(K) * L; c(cos(s), sinc_r(s)) }
  else if (K < 0) { s <- sqrt(-K) * L; c(cosh(s), sinhc_r(s)) }
  else c(1, 1)
}
gn_block_inverse <- function(kappa, x, s11, s12, s22, again) {
  det <- s11 * s22 - s12 * s12
  if (!isTRUE(det > 1e-10 * s11 * s22) || !is.finite(det))
    return(if (kappa == 0) c(0, 0, 0) else again(0, x))
  n <- length(x)
  c(n * s22 / det, -n * s12 / det, n * s11 / det)
}
## vectorised over the points
gn_block_vec <- function(kappa, x) {
  s <- sqrt(abs(kappa)) * abs(x)
  small <- s < 1e-4
  if (kappa > 0) {
    f <- cos(s); g <- x * ifelse(small, 1 - s^2 / 6 + s^4 / 120, sin(s) / ifelse(small, 1, s))
  } else if (kappa < 0) {
    f <- cosh(s); g <- x * ifelse(small, 1 + s^2 / 6 + s^4 / 120, sinh(s) / ifelse(small, 1, s))
  } else {
    f <- rep(1, length(x)); g <- x
  }
  gn_block_inverse(kappa, x, sum(f * f), sum(f * g), sum(g * g), gn_block_vec)
}
## a loop over the points
gn_block_loop <- function(kappa, x) {
  s11 <- 0; s12 <- 0; s22 <- 0
  for (i in seq_along(x)) {
    sc <- jacobi_scaling(kappa, abs(x[i]))
    f <- sc[1]; g <- x[i] * sc[2]
    s11 <- s11 + f * f; s12 <- s12 + f * g; s22 <- s22 + g * g
  }
  gn_block_inverse(kappa, x, s11, s12, s22, gn_block_loop)
}
## -N^-1 (u_p, u_v) on one block
gn_apply <- function(blk, up, uv) list(p = -(blk[1] * up + blk[2] * uv), v = -(blk[2] * up + blk[3] * uv))

## The regression (SPEC7 steps 1-3 with riemdp's constants). Returns the fit
## at x = 0 (footpoint, shooting), its energy on x, the iterations and the
## gradient norm of the centred fit (as riemdp).
pr_geodesic_regression <- function(G, x, Y, max_iter = 1000L, tol = 1e-10) {
  n <- length(x)
  ## 1. start: tangent least squares of Log_ybar(y_i) on [1, xc_i] at the mean
  ybar <- G$frechet_mean(Y)
  xbar <- mean(x)
  xc <- x - xbar
  U <- G$log_rows(ybar, Y)                          # n x D (rows tangent at ybar)
  X1 <- cbind(1, xc)
  beta <- solve(crossprod(X1), crossprod(X1, U))    # 2 x D (complex on kendall)
  b0 <- G$from_row(beta[1, ]); B <- G$from_row(beta[2, ])
  p <- G$exp(ybar, b0)
  v <- G$transport(ybar, b0, B)
  ## rounding floor of the gradient norm and of the energy (regression.h)
  data_scale <- G$data_scale(Y)
  x_scale <- 1 + max(abs(xc))
  floor_at <- function(p, E)
    64 * .Machine$double.eps * max(G$rounding_scale(p), data_scale) * (1 + sqrt(2 * E)) * x_scale
  grad_norm <- function(p, ev) sqrt(max(0, G$inner(p, ev$grad_p, ev$grad_p) + G$inner(p, ev$grad_v, ev$grad_v)))
  cur <- G$energy_grad(p, v, xc, Y)
  gn <- grad_norm(p, cur)
  fl <- floor_at(p, cur$energy)
  it <- 0L
  stalled <- FALSE
  while (gn > tol && gn > fl && it < max_iter) {
    ## 2. Gauss-Newton direction
    d <- G$gauss_newton(p, v, xc, cur$grad_p, cur$grad_v, G$block)
    slope <- G$inner(p, cur$grad_p, d$p) + G$inner(p, cur$grad_v, d$v)   # <g, d> < 0
    E_rounding <- max(16 * fl * sqrt(2 * cur$energy), 1e-12 * abs(cur$energy))
    on_gradient <- -slope <= E_rounding
    ## 3. Armijo backtracking from t = 1, the footpoint step capped
    t <- 1
    dp_norm <- sqrt(G$inner(p, d$p, d$p))
    if (dp_norm * t > G$max_step) t <- G$max_step / dp_norm
    accepted <- FALSE
    for (bt in 0:59) {
      pn <- G$exp(p, t * d$p)
      vn <- G$transport(p, t * d$p, v + t * d$v)
      nxt <- if (all(is.finite(pn)) && all(is.finite(vn)))
        tryCatch(G$energy_grad(pn, vn, xc, Y), error = function(e) NULL)
      if (!is.null(nxt) && is.finite(nxt$energy)) {
        gn_n <- grad_norm(pn, nxt)
        if (!on_gradient && -t * slope <= E_rounding) on_gradient <- TRUE
        if (if (on_gradient) gn_n < gn else nxt$energy <= cur$energy + 1e-4 * t * slope) {
          p <- pn; v <- vn; cur <- nxt; gn <- gn_n
          fl <- floor_at(p, cur$energy)
          accepted <- TRUE
          break
        }
      }
      t <- t / 2
    }
    if (!accepted) { stalled <- on_gradient; break }
    it <- it + 1L
  }
  converged <- gn <= tol || gn <= fl || (stalled && gn <= 16 * fl)
  ## back to x = 0: the same geodesic re-based at xc = -xbar, evaluated on x
  p0 <- G$exp(p, -xbar * v)
  v0 <- G$velocity(p, v, -xbar)
  fin <- G$energy_grad(p0, v0, x, Y)
  list(footpoint = p0, shooting = v0, energy = fin$energy, iterations = it,
       grad_norm = gn, converged = converged, frechet_mean = ybar)
}

## Adjoint Jacobi scalings of one curvature block K at s = x_i |v|, L = |v|
## (methods article, "Fitting"), vectorised over s: footpoint c_K(s), shooting
## sn_K(s) / L (-> x as L -> 0).
jac_p <- function(K, s) if (K > 0) cos(sqrt(K) * s) else if (K < 0) cosh(sqrt(-K) * s) else 1 + 0 * s
jac_v <- function(K, s, x, L) {
  if (L == 0 || K == 0) return(x)
  if (K > 0) sin(sqrt(K) * s) / (sqrt(K) * L) else sinh(sqrt(-K) * s) / (sqrt(-K) * L)
}

## The per-point transcription of a manifold: the passes over the data as
## loops over the points calling G1$exp1(p, w), G1$log1(p, y) and
## G1$adjoint1(p, w, eps) (list(p = adj_p, w = adj_w), the adjoint Jacobi
## fields of eps in T_Exp_p(w), both in T_p); data as a list of points.
per_point <- function(G1) {
  G1$energy_grad <- function(p, v, x, Y, grad = TRUE) {
    n <- length(x)
    sq <- 0; gp <- 0 * p; gv <- 0 * p
    for (i in seq_len(n)) {
      w <- x[i] * v
      yhat <- G1$exp1(p, w)
      eps <- G1$log1(yhat, Y[[i]])                  # the residual at yhat_i
      sq <- sq + G1$inner(yhat, eps, eps)
      if (grad) {
        adj <- G1$adjoint1(p, w, eps)
        gp <- gp - adj$p
        gv <- gv - x[i] * adj$w
      }
    }
    list(energy = sq / (2 * n), grad_p = gp / n, grad_v = gv / n)
  }
  G1$log_rows <- function(p, Y) do.call(rbind, lapply(Y, function(y) G1$to_row(G1$log1(p, y))))
  G1$frechet_mean <- function(Y) {
    n <- length(Y)
    eval_at <- function(x) {
      g <- 0; f <- 0
      for (i in seq_len(n)) {
        l <- G1$log1(x, Y[[i]])
        g <- g + l
        f <- f + G1$inner(x, l, l)
      }
      list(g = g / n, f = f / (2 * n))
    }
    pr_frechet(G1, eval_at, G1$mean_start(Y))
  }
  G1$block <- gn_block_loop
  G1
}

## ---------------------------------------------------------------------------
## Sphere S^d in R^(d+1): points and tangent vectors as plain vectors
## ---------------------------------------------------------------------------
sphere_log_rows <- function(p, Y) {
  ip <- drop(Y %*% p)
  W <- Y - outer(ip, p)                             # y - <p,y> p
  nw <- sqrt(rowSums(W^2))
  d <- atan2(nw, ip)
  W * ifelse(nw > 0, d / nw, 0)
}
sphere_exp <- function(p, v) {
  nv <- sqrt(sum(v^2))
  if (nv == 0) return(p)
  q <- cos(nv) * p + (sin(nv) / nv) * v
  q / sqrt(sum(q^2))
}
## along t -> Exp_p(t d): the component along d/|d| turns with the geodesic
sphere_transport <- function(p, d, w) {
  L <- sqrt(sum(d^2))
  if (L == 0) return(w)
  u <- d / L
  w + sum(u * w) * ((cos(L) - 1) * u - sin(L) * p)
}
sphere_velocity <- function(p, v, s) {
  L <- sqrt(sum(Mod(v)^2))                          # (Mod: complex on kendall)
  -L * sin(s * L) * p + cos(s * L) * v
}
## Blocks: along v (flat), orthogonal to it (kappa = |v|^2). Kendall's is
## the same with Hermitian products and a third block (i v, kappa = 4 |v|^2).
sphere_gauss_newton <- function(p, v, x, gp, gv, block) {
  L <- sqrt(sum(v^2))
  if (L == 0) return(gn_apply(block(0, x), gp, gv))
  t <- v / L
  ap <- sum(gp * t); av <- sum(gv * t)
  d0 <- gn_apply(block(0, x), ap * t, av * t)
  d1 <- gn_apply(block(L^2, x), gp - ap * t, gv - av * t)
  list(p = d0$p + d1$p, v = d0$v + d1$v)
}
sphere_energy_grad <- function(p, v, x, Y, grad = TRUE) {
  n <- length(x)
  L <- sqrt(sum(v^2))
  u <- if (L > 0) v / L else 0 * v
  s <- x * L
  Yhat <- outer(cos(s), p) + outer(sin(s), u)       # Exp_p(x_i v)
  ip <- rowSums(Yhat * Y)
  W <- Y - ip * Yhat
  nw <- sqrt(rowSums(W^2))
  dist <- atan2(nw, ip)
  energy <- sum(dist^2) / (2 * n)
  if (!grad) return(list(energy = energy))
  eps <- W * ifelse(nw > 0, dist / nw, 0)           # Log_{yhat_i}(y_i)
  ## back to p: the part along the velocity T_i = -sin(s) p + cos(s) u goes to u
  Tv <- outer(-sin(s), p) + outer(cos(s), u)
  a <- rowSums(Tv * eps)                            # = <u, eps_bar_i>
  perp <- eps - a * Tv                              # unchanged by the transport
  grad_p <- -(mean(a) * u + colMeans(jac_p(1, s) * perp))
  grad_v <- -(mean(x * a) * u + colMeans(jac_v(1, s, x, L) * perp))
  list(energy = energy, grad_p = grad_p, grad_v = grad_v)
}
pr_sphere <- list(
  log_rows = sphere_log_rows,
  exp = sphere_exp,
  transport = sphere_transport,
  velocity = sphere_velocity,
  inner = function(p, a, b) sum(a * b),
  from_row = function(r) as.numeric(r),
  energy_grad = sphere_energy_grad,
  gauss_newton = sphere_gauss_newton,
  block = gn_block_vec,
  rounding_scale = function(p) 1,
  data_scale = function(Y) 1,
  max_step = pi / 2                                  # half the injectivity radius
)
pr_sphere$frechet_mean <- function(Y) {
  m <- colMeans(Y)
  pr_frechet(pr_sphere, function(x) {
    L <- sphere_log_rows(x, Y)
    list(g = colMeans(L), f = 0.5 * mean(rowSums(L^2)))
  }, m / sqrt(sum(m^2)))
}
## per point
sphere_log1 <- function(p, y) {
  ip <- sum(p * y)
  w <- y - ip * p
  nw <- sqrt(sum(w^2))
  if (nw == 0) return(0 * w)
  w * (atan2(nw, ip) / nw)
}
## eps at the end of the great circle from p with direction t = w/|w|:
## a u (u its unit velocity there) goes back to a t, the rest (orthogonal to
## the circle's plane, parallel along it) is scaled by cos L, sin(L)/L
sphere_adjoint1 <- function(p, w, eps) {
  L <- sqrt(sum(w^2))
  if (L == 0) return(list(p = eps, w = eps))
  t <- w / L
  u <- -sin(L) * p + cos(L) * t
  a <- sum(eps * u)
  perp <- eps - a * u
  list(p = a * t + cos(L) * perp, w = a * t + (sin(L) / L) * perp)
}
pp_sphere <- per_point(modifyList(pr_sphere, list(
  exp1 = sphere_exp, log1 = sphere_log1, adjoint1 = sphere_adjoint1,
  to_row = function(v) v,
  mean_start = function(Y) { m <- Reduce(`+`, Y) / length(Y); m / sqrt(sum(m^2)) }
)))

## ---------------------------------------------------------------------------
## Kendall shape space of k planar landmarks: preshapes as complex k-vectors
## (centred, unit norm). <a, b> = sum Conj(a) b (Hermitian); the metric is
## its real part.
## ---------------------------------------------------------------------------
kendall_preshapes <- function(A) {                  # k x 2 x n array -> n x k complex
  Z <- t(A[, 1, ] + 1i * A[, 2, ])
  Z <- Z - rowMeans(Z)
  Z / sqrt(rowSums(Mod(Z)^2))
}
## y_i rotated into optimal alignment with p: y exp(-i arg <p, y>); returns
## the aligned rows and |<p, y_i>|
kendall_align_rows <- function(p, Y) {
  cc <- drop(Y %*% Conj(p))
  m <- Mod(cc)
  list(Y = Y * ifelse(m > 0, Conj(cc) / m, 1), m = m)
}
kendall_log_rows <- function(p, Y) {
  al <- kendall_align_rows(p, Y)
  W <- al$Y - outer(al$m, p)
  nw <- sqrt(rowSums(Mod(W)^2))
  d <- atan2(nw, al$m)
  W * ifelse(nw > 0, d / nw, 0)
}
kendall_exp <- function(p, v) {
  nv <- sqrt(sum(Mod(v)^2))
  if (nv == 0) return(p)
  q <- cos(nv) * p + (sin(nv) / nv) * v
  q / sqrt(sum(Mod(q)^2))
}
## horizontal transport along t -> Exp_p(t d): w = c u + rest (c complex,
## u = d/|d|); u and i u turn with the velocity, the rest is constant
kendall_transport <- function(p, d, w) {
  L <- sqrt(sum(Mod(d)^2))
  if (L == 0) return(w)
  u <- d / L
  w + sum(Conj(u) * w) * ((cos(L) - 1) * u - sin(L) * p)
}
kendall_inner <- function(p, a, b) Re(sum(Conj(a) * b))
## Blocks: along v (flat), along i v (kappa = 4 |v|^2), the rest (|v|^2)
kendall_gauss_newton <- function(p, v, x, gp, gv, block) {
  L <- sqrt(sum(Mod(v)^2))
  if (L == 0) return(gn_apply(block(0, x), gp, gv))
  t <- v / L; it <- 1i * t
  ap <- kendall_inner(p, t, gp); av <- kendall_inner(p, t, gv)
  bp <- kendall_inner(p, it, gp); bv <- kendall_inner(p, it, gv)
  d0 <- gn_apply(block(0, x), ap * t, av * t)
  d4 <- gn_apply(block(4 * L^2, x), bp * it, bv * it)
  d1 <- gn_apply(block(L^2, x), gp - ap * t - bp * it, gv - av * t - bv * it)
  list(p = d0$p + d4$p + d1$p, v = d0$v + d4$v + d1$v)
}
## three curvature blocks (methods article, "Fitting"): along u (flat), along i u (K = 4),
## the rest (K = 1)
kendall_energy_grad <- function(p, v, x, Y, grad = TRUE) {
  n <- length(x)
  L <- sqrt(sum(Mod(v)^2))
  u <- if (L > 0) v / L else 0 * v
  s <- x * L
  Yhat <- outer(cos(s), p) + outer(sin(s), u)
  cc <- rowSums(Conj(Yhat) * Y)
  m <- Mod(cc)
  Ya <- Y * ifelse(m > 0, Conj(cc) / m, 1)          # aligned to yhat_i
  W <- Ya - m * Yhat
  nw <- sqrt(rowSums(Mod(W)^2))
  dist <- atan2(nw, m)
  energy <- sum(dist^2) / (2 * n)
  if (!grad) return(list(energy = energy))
  eps <- W * ifelse(nw > 0, dist / nw, 0)
  Tv <- outer(-sin(s), p) + outer(cos(s), u)
  cT <- rowSums(Conj(Tv) * eps)                     # = a + i b: along u and i u after transport
  perp <- eps - cT * Tv
  a <- Re(cT); b <- Im(cT)
  grad_p <- -(mean(a) * u + mean(b * jac_p(4, s)) * 1i * u + colMeans(jac_p(1, s) * perp))
  grad_v <- -(mean(x * a) * u + mean(b * jac_v(4, s, x, L)) * 1i * u +
                colMeans(jac_v(1, s, x, L) * perp))
  list(energy = energy, grad_p = grad_p, grad_v = grad_v)
}
pr_kendall <- list(
  log_rows = kendall_log_rows,
  exp = kendall_exp,
  transport = kendall_transport,
  velocity = sphere_velocity,                         # the preshape sphere's great circle
  inner = kendall_inner,
  from_row = function(r) as.complex(r),
  energy_grad = kendall_energy_grad,
  gauss_newton = kendall_gauss_newton,
  block = gn_block_vec,
  rounding_scale = function(p) 1,
  data_scale = function(Y) 1,
  max_step = pi / 4                                  # half the injectivity radius pi/2
)
kendall_mean_start <- function(Zrows) {              # the full Procrustes mean
  eigen(crossprod(Conj(Zrows), Zrows), symmetric = TRUE)$vectors[, 1]
}
pr_kendall$frechet_mean <- function(Y) {
  pr_frechet(pr_kendall, function(x) {
    L <- kendall_log_rows(x, Y)
    list(g = colMeans(L), f = 0.5 * mean(rowSums(Mod(L)^2)))
  }, kendall_mean_start(Y))
}
## per point
kendall_log1 <- function(p, y) {
  cc <- sum(Conj(p) * y)                             # <p, y>
  m <- Mod(cc)
  if (m > 0) y <- y * (Conj(cc) / m)                 # aligned: <p, y> = m >= 0
  w <- y - m * p
  nw <- sqrt(sum(Mod(w)^2))
  if (nw == 0) return(0 * w)
  w * (atan2(nw, m) / nw)
}
## eps at the end of the horizontal geodesic from p with direction t:
## eps = a u + b (i u) + rest, u its unit velocity there; back at p
## a t + b (i t) + rest, scaled by 1, (cos 2L, sin(2L)/(2L)), (cos L, sin(L)/L)
kendall_adjoint1 <- function(p, w, eps) {
  L <- sqrt(sum(Mod(w)^2))
  if (L == 0) return(list(p = eps, w = eps))
  t <- w / L
  u <- -sin(L) * p + cos(L) * t
  cu <- sum(Conj(u) * eps)                           # a + i b
  a <- Re(cu); b <- Im(cu)
  perp <- eps - cu * u
  list(p = a * t + cos(2 * L) * b * 1i * t + cos(L) * perp,
       w = a * t + (sin(2 * L) / (2 * L)) * b * 1i * t + (sin(L) / L) * perp)
}
pp_kendall <- per_point(modifyList(pr_kendall, list(
  exp1 = kendall_exp, log1 = kendall_log1, adjoint1 = kendall_adjoint1,
  to_row = function(v) v,
  mean_start = function(Y) kendall_mean_start(do.call(rbind, Y))
)))

## ---------------------------------------------------------------------------
## SPD(k), affine-invariant metric, via eigen(symmetric = TRUE). Vectorised
## data: an n x k^2 matrix (row i = vec(y_i)); the per-point matrix logarithms
## are a loop over eigen().
## ---------------------------------------------------------------------------
sym_fun <- function(S, fun) {
  e <- eigen(S, symmetric = TRUE)
  e$vectors %*% (fun(e$values) * t(e$vectors))
}
spd_roots <- function(p) {
  e <- eigen(p, symmetric = TRUE)
  list(h = e$vectors %*% (sqrt(e$values) * t(e$vectors)),
       ih = e$vectors %*% ((1 / sqrt(e$values)) * t(e$vectors)))
}
## vec(T y_i T') for all rows of Yv: (T (x) T) vec(y)
spd_congruence_rows <- function(Tm, Yv) Yv %*% t(kronecker(Tm, Tm))
spd_logm_rows <- function(Mv, k) {                   # rows vec(logm(M_i)), and sum log^2
  n <- nrow(Mv)
  out <- matrix(0, n, k * k)
  sq <- numeric(n)
  for (i in seq_len(n)) {
    e <- eigen(matrix(Mv[i, ], k, k), symmetric = TRUE)
    l <- log(e$values)
    out[i, ] <- e$vectors %*% (l * t(e$vectors))
    sq[i] <- sum(l^2)
  }
  list(L = out, sq = sq)
}
spd_log_rows <- function(p, Yv) {
  k <- nrow(p)
  r <- spd_roots(p)
  W <- spd_logm_rows(spd_congruence_rows(r$ih, Yv), k)$L   # whitened logs
  spd_congruence_rows(r$h, W)
}
spd_exp <- function(p, v) {
  r <- spd_roots(p)
  q <- r$h %*% sym_fun(r$ih %*% v %*% r$ih, exp) %*% r$h
  (q + t(q)) / 2
}
## Gamma_{p -> q}(w) = E w E', E = p^1/2 (p^-1/2 q p^-1/2)^1/2 p^-1/2 with
## q = Exp_p(d): (p^-1/2 q p^-1/2)^1/2 = expm(p^-1/2 d p^-1/2 / 2)
spd_transport <- function(p, d, w) {
  r <- spd_roots(p)
  E <- r$h %*% sym_fun(r$ih %*% d %*% r$ih, function(l) exp(l / 2)) %*% r$ih
  out <- E %*% w %*% t(E)
  (out + t(out)) / 2
}
## d/dt p^1/2 expm(t W) p^1/2 = p^1/2 W expm(s W) p^1/2 at t = s
spd_velocity <- function(p, v, s) {
  r <- spd_roots(p)
  out <- r$h %*% sym_fun(r$ih %*% v %*% r$ih, function(l) l * exp(s * l)) %*% r$h
  (out + t(out)) / 2
}
spd_inner <- function(p, a, b) {
  pinv <- solve(p)
  sum((pinv %*% a) * t(pinv %*% b))
}
spd_condition <- function(p) {
  l <- eigen(p, symmetric = TRUE, only.values = TRUE)$values
  if (l[length(l)] > 0) max(1, l[1] / l[length(l)]) else Inf
}
## Blocks: the entries (a, b) of whitened tangent vectors in the eigenbasis U
## of the whitened v = U diag(lam) U', kappa = -((lam_a - lam_b)/2)^2
spd_gauss_newton <- function(p, v, x, gp, gv, block) {
  k <- nrow(p)
  r <- spd_roots(p)
  e <- eigen(r$ih %*% v %*% r$ih, symmetric = TRUE)
  lam <- e$values
  B <- r$ih %*% e$vectors; HU <- r$h %*% e$vectors
  Gp <- t(B) %*% gp %*% B; Gv <- t(B) %*% gv %*% B
  Dp <- matrix(0, k, k); Dv <- matrix(0, k, k)
  flat <- block(0, x)
  for (b in seq_len(k)) for (a in seq_len(b)) {
    half_gap <- (lam[a] - lam[b]) / 2
    blk <- if (half_gap == 0) flat else block(-half_gap^2, x)
    d <- gn_apply(blk, Gp[a, b], Gv[a, b])
    Dp[a, b] <- Dp[b, a] <- d$p
    Dv[a, b] <- Dv[b, a] <- d$v
  }
  dp <- HU %*% Dp %*% t(HU); dv <- HU %*% Dv %*% t(HU)
  list(p = (dp + t(dp)) / 2, v = (dv + t(dv)) / 2)
}
## With V = p^-1/2 v p^-1/2 = U diag(lam) U' and G_i = p^1/2 expm(x_i V / 2)
## (G_i G_i' = yhat_i), the residual transported back to p and whitened there
## is logm(G_i^-1 y_i G_i^-T); in the basis U its entries are
## logm(D_i Z_i D_i), Z_i = U' p^-1/2 y_i p^-1/2 U, D_i = diag(exp(-x_i lam/2)).
## The Jacobi scalings act entrywise in that basis (methods article, "Fitting"):
## cosh(x |lam_a - lam_b|/2) (footpoint), sinh(x delta)/delta (shooting).
spd_energy_grad <- function(p, v, x, Yv, grad = TRUE) {
  k <- nrow(p)
  n <- length(x)
  r <- spd_roots(p)
  ev <- eigen(r$ih %*% v %*% r$ih, symmetric = TRUE)
  U <- ev$vectors; lam <- ev$values
  Z <- spd_congruence_rows(t(U) %*% r$ih, Yv)
  Mv <- Z * exp(-outer(x, as.vector(outer(lam, lam, "+"))) / 2)
  lg <- spd_logm_rows(Mv, k)
  energy <- sum(lg$sq) / (2 * n)
  if (!grad) return(list(energy = energy))
  delta <- abs(as.vector(outer(lam, lam, "-"))) / 2
  S <- outer(x, delta)
  sinhc <- ifelse(S == 0, 1, sinh(S) / ifelse(S == 0, 1, S)) * x   # sinh(x delta)/delta
  gp <- -matrix(colMeans(lg$L * cosh(S)), k, k)
  gv <- -matrix(colMeans(lg$L * sinhc), k, k)
  back <- r$h %*% U                                # whitened eigenbasis -> ambient
  grad_p <- back %*% gp %*% t(back)
  grad_v <- back %*% gv %*% t(back)
  list(energy = energy, grad_p = (grad_p + t(grad_p)) / 2, grad_v = (grad_v + t(grad_v)) / 2)
}
spd_from_row <- function(r) { k <- round(sqrt(length(r))); S <- matrix(r, k, k); (S + t(S)) / 2 }
pr_spd <- list(
  log_rows = spd_log_rows,
  exp = spd_exp,
  transport = spd_transport,
  velocity = spd_velocity,
  inner = spd_inner,
  from_row = spd_from_row,
  energy_grad = spd_energy_grad,
  gauss_newton = spd_gauss_newton,
  block = gn_block_vec,
  rounding_scale = spd_condition,
  data_scale = function(Yv) {                        # mean condition number of the data
    k <- round(sqrt(ncol(Yv)))
    mean(vapply(seq_len(nrow(Yv)), function(i) spd_condition(matrix(Yv[i, ], k, k)), 0))
  },
  max_step = Inf
)
## Frechet mean as in bench/geometry.R (whitened coordinates at the iterate)
pr_spd$frechet_mean <- function(Yv, max_iter = 200L, tol = 1e-10) {
  k <- round(sqrt(ncol(Yv)))
  eval_at <- function(x) {
    r <- spd_roots(x)
    lg <- spd_logm_rows(spd_congruence_rows(r$ih, Yv), k)
    G <- matrix(colMeans(lg$L), k, k)
    list(x = x, xh = r$h, G = (G + t(G)) / 2, cost = sum(lg$sq) / (2 * nrow(Yv)))
  }
  cur <- eval_at(spd_from_row(colMeans(Yv)))        # start: the arithmetic mean
  it <- 0L
  repeat {
    gn <- sqrt(sum(cur$G^2))
    if (gn < tol || it >= max_iter) break
    t <- 1
    repeat {
      xn <- cur$xh %*% sym_fun(t * cur$G, exp) %*% cur$xh
      nxt <- eval_at((xn + t(xn)) / 2)
      if (nxt$cost <= cur$cost - 1e-4 * t * gn^2 + f_eps * abs(cur$cost) || t < 1e-10) break
      t <- t / 2
    }
    cur <- nxt; it <- it + 1L
  }
  cur$x
}
## per point
spd_log1 <- function(p, y) {
  r <- spd_roots(p)
  out <- r$h %*% sym_fun(r$ih %*% y %*% r$ih, log) %*% r$h
  (out + t(out)) / 2
}
## eps at Exp_p(w) transported back to p and whitened, in the eigenbasis U of
## W = p^-1/2 w p^-1/2 = U diag(lam) U': E = D U' p^-1/2 eps p^-1/2 U D,
## D = diag(exp(-lam/2)); entry (a, b) scaled by cosh(delta), sinh(delta)/delta,
## delta = |lam_a - lam_b|/2, and mapped back by p^1/2 U
spd_adjoint1 <- function(p, w, eps) {
  r <- spd_roots(p)
  e <- eigen(r$ih %*% w %*% r$ih, symmetric = TRUE)
  lam <- e$values
  B <- r$ih %*% e$vectors; HU <- r$h %*% e$vectors
  D <- exp(-lam / 2)
  E <- (D %o% D) * (t(B) %*% eps %*% B)
  delta <- abs(outer(lam, lam, "-")) / 2
  sh <- ifelse(delta < 1e-4, 1 + delta^2 / 6, sinh(delta) / ifelse(delta < 1e-4, 1, delta))
  ap <- HU %*% (E * cosh(delta)) %*% t(HU)
  aw <- HU %*% (E * sh) %*% t(HU)
  list(p = (ap + t(ap)) / 2, w = (aw + t(aw)) / 2)
}
pp_spd <- per_point(modifyList(pr_spd, list(
  exp1 = spd_exp, log1 = spd_log1, adjoint1 = spd_adjoint1,
  to_row = as.vector,
  mean_start = function(Y) Reduce(`+`, Y) / length(Y),
  data_scale = function(Y) mean(vapply(Y, spd_condition, 0))
)))

## ---------------------------------------------------------------------------
## Gradient check of the vectorised reference: central differences of its
## energy along p -> Exp_p(h u) with v transported, and along v -> v + h w.
## Returns the largest relative error over a few random directions.
## ---------------------------------------------------------------------------
pr_gradient_check <- function(G, p, v, x, Y, rtangent, ndir = 3L, h = 1e-5) {
  eg <- G$energy_grad(p, v, x, Y)
  energy_at <- function(pp, vv) G$energy_grad(pp, vv, x, Y, grad = FALSE)$energy
  err <- 0
  for (j in seq_len(ndir)) {
    u <- rtangent(p)
    fd_p <- (energy_at(G$exp(p, h * u), G$transport(p, h * u, v)) -
               energy_at(G$exp(p, -h * u), G$transport(p, -h * u, v))) / (2 * h)
    w <- rtangent(p)
    fd_v <- (energy_at(p, v + h * w) - energy_at(p, v - h * w)) / (2 * h)
    an_p <- G$inner(p, eg$grad_p, u)
    an_v <- G$inner(p, eg$grad_v, w)
    err <- max(err, abs(an_p - fd_p) / max(abs(fd_p), 1e-300),
               abs(an_v - fd_v) / max(abs(fd_v), 1e-300))
  }
  err
}
## per point against vectorised: largest relative difference of the energy
## and the gradients (in the metric)
pp_consistency <- function(G, Gpp, p, v, x, Y, Ypp) {
  a <- G$energy_grad(p, v, x, Y)
  b <- Gpp$energy_grad(p, v, x, Ypp)
  nrm <- function(z) sqrt(G$inner(p, z, z))
  max(abs(a$energy - b$energy) / a$energy,
      nrm(a$grad_p - b$grad_p) / nrm(a$grad_p), nrm(a$grad_v - b$grad_v) / nrm(a$grad_v))
}
rtangent_sphere <- function(p) { z <- stats::rnorm(length(p)); z - sum(z * p) * p }
rtangent_kendall <- function(p) {                   # centred, horizontal
  z <- stats::rnorm(length(p)) + 1i * stats::rnorm(length(p))
  z <- z - mean(z)
  z - sum(Conj(p) * z) * p
}
rtangent_spd <- function(p) { S <- matrix(stats::rnorm(length(p)), nrow(p)); (S + t(S)) / 2 }

## ===========================================================================
## Data (fixed seed)
## ===========================================================================
set.seed(20240607)
S2 <- manifold_sphere(2)
P3 <- manifold_spd(3)

## Sphere: 10^4 points along Exp_p0(x v0), x ~ U[0, 1], |v0| = 1 rad, with
## isotropic tangent noise of sd 0.1 rad per direction at the true point.
n_s <- 1e4L
p0_s <- c(1, 2, 2) / 3
v0_s <- c(2, 1, -2) / 3                             # unit, tangent at p0_s
x_s <- stats::runif(n_s)
Ytrue <- outer(cos(x_s), p0_s) + outer(sin(x_s), v0_s)
Noise <- matrix(stats::rnorm(3 * n_s, sd = 0.1), n_s, 3)
Noise <- Noise - rowSums(Noise * Ytrue) * Ytrue
nn <- sqrt(rowSums(Noise^2))
Y_s <- cos(nn) * Ytrue + (sin(nn) / nn) * Noise
Y_s <- Y_s / sqrt(rowSums(Y_s^2))
Ylist_s <- lapply(seq_len(n_s), function(i) Y_s[i, ])

## SPD(3): 10^3 matrices along Exp_p0(x v0), x ~ U[0, 1], with noise
## yhat^1/2 expm(S) yhat^1/2, S symmetric Gaussian (sd 0.15 per entry).
n_p <- 1000L
p0_p <- matrix(c(2, 0.5, 0.2,
                 0.5, 1, 0.3,
                 0.2, 0.3, 0.5), 3, 3)
v0_p <- matrix(c(1, 0.3, -0.4,
                 0.3, -0.5, 0.2,
                 -0.4, 0.2, 0.8), 3, 3)
x_p <- stats::runif(n_p)
Y_p <- array(0, c(3, 3, n_p))
for (i in seq_len(n_p)) {
  yhat <- spd_exp(p0_p, x_p[i] * v0_p)
  S <- matrix(stats::rnorm(9, sd = 0.15), 3, 3)
  S <- (S + t(S)) / 2
  yh <- sym_fun(yhat, sqrt)
  y <- yh %*% sym_fun(S, exp) %*% yh
  Y_p[, , i] <- (y + t(y)) / 2
}
Yv_p <- t(matrix(Y_p, 9L))                         # n x 9, row i = vec(y_i)
Ylist_p <- lapply(seq_len(n_p), function(i) Y_p[, , i])

## Kendall: shapes::rats (8 landmarks, 144 configurations), ages -> [0, 1]
Sys.setenv(RGL_USE_NULL = "TRUE"); options(rgl.useNULL = TRUE)   # shapes loads rgl
have_rats <- requireNamespace("shapes", quietly = TRUE)
if (have_rats) {
  rats_env <- new.env()
  utils::data("rats", package = "shapes", envir = rats_env)
  A_k <- rats_env$rats$x                            # 8 x 2 x 144
  x_k <- (rats_env$rats$time - min(rats_env$rats$time)) /
    diff(range(rats_env$rats$time))
  Z_k <- kendall_preshapes(A_k)                     # 144 x 8 complex
  Zlist_k <- lapply(seq_len(nrow(Z_k)), function(i) Z_k[i, ])
  K8 <- manifold_kendall(8)
} else {
  cat("package 'shapes' not available: the kendall (rats) part is skipped\n")
}

## ===========================================================================
## GeodRegr (CRAN), installed if missing
## ===========================================================================
geodregr_ok <- ensure_package("GeodRegr")
if (!geodregr_ok) cat("package 'GeodRegr' not available: that comparison is skipped\n")
## geo_reg with loss "l2" on centred x; data as columns (sphere: 3 x n real;
## kendall: k x n complex preshapes). Returns the footpoint (at x = mean) and
## the shooting vector.
geodregr_fit <- function(manifold, xc, Ycols) {
  f <- GeodRegr::geo_reg(manifold, xc, Ycols, "l2")
  list(p = drop(f$p), v = drop(f$V), iterations = f$iteration)
}
## its estimate as a point and a tangent vector there, rounding removed
## (GeodRegr checks tangency to 1e-4 / 1e-6 only): normalise p, project v onto
## the tangent (sphere) or horizontal (kendall: complex-orthogonal to p) space
geodregr_clean <- function(f) {
  p <- f$p / sqrt(sum(Mod(f$p)^2))
  v <- f$v
  if (is.complex(p)) {
    p <- p - mean(p); p <- p / sqrt(sum(Mod(p)^2)); v <- v - mean(v)
    v <- v - sum(Conj(p) * v) * p
  } else {
    v <- v - sum(p * v) * p
  }
  list(p = p, v = v, iterations = f$iterations)
}

energy_riemdp <- function(M, p, v, x, Y) riemdp:::regression_energy(M, p, v, x, Y)$energy

## ===========================================================================
## Runs
## ===========================================================================
results <- list()

run_case <- function(label, M, G, Gpp, x, Y_pr, Y_pp, Y_pkg, to_layout, rtangent,
                     geodregr = NULL, reps_pkg = 7L, reps_pr = 5L, reps_pp = 1L, reps_gr = 3L) {
  cat(sprintf("\n== %s ==\n", label))
  n <- length(x)
  row <- list(case = label)
  ## riemdp
  fit <- geodesic_regression(M, x, Y_pkg)
  row$E_pkg <- fit$energy
  row$it_pkg <- as.integer(fit$iterations)
  cat(sprintf("  riemdp:             %2d iterations, gradient norm %.2g, converged %s, energy %.17g\n",
              row$it_pkg, fit$grad_norm, fit$converged, fit$energy))
  row$t_pkg <- time_median(function() geodesic_regression(M, x, Y_pkg), reps = reps_pkg)
  row$t_eval_pkg <- time_median(function() energy_riemdp(M, fit$footpoint, fit$shooting, x, Y_pkg))

  ## plain R, vectorised
  t1 <- system.time(fit_pr <- pr_geodesic_regression(G, x, Y_pr))[["elapsed"]]
  cat(sprintf("  plain R vectorised: %2d iterations, gradient norm %.2g, converged %s, energy %.17g\n",
              fit_pr$iterations, fit_pr$grad_norm, fit_pr$converged, fit_pr$energy))
  row$E_pr <- fit_pr$energy
  row$it_pr <- fit_pr$iterations
  row$t_pr <- time_median(function() pr_geodesic_regression(G, x, Y_pr), reps = reps_pr, t_first = t1)
  row$t_eval_pr <- time_median(function() G$energy_grad(fit_pr$footpoint, fit_pr$shooting, x, Y_pr))
  ## gradient checks at a point off the optimum (where the gradient is not ~0)
  du <- rtangent(fit_pr$footpoint)
  du <- 0.1 * du / sqrt(G$inner(fit_pr$footpoint, du, du))
  p_off <- G$exp(fit_pr$footpoint, du)
  v_off <- G$transport(fit_pr$footpoint, du, fit_pr$shooting)
  row$grad_err <- pr_gradient_check(G, p_off, v_off, x, Y_pr, rtangent)
  row$pp_err <- pp_consistency(G, Gpp, p_off, v_off, x, Y_pr, Y_pp)
  cat(sprintf("  vectorised gradient vs central differences: max relative error %.2g\n", row$grad_err))
  cat(sprintf("  per-point energy and gradient vs vectorised: max relative difference %.2g\n", row$pp_err))

  ## plain R, per point (on all the points: its slowest fit takes ~2 s)
  t1 <- system.time(fit_pp <- pr_geodesic_regression(Gpp, x, Y_pp))[["elapsed"]]
  cat(sprintf("  plain R per point:  %2d iterations, gradient norm %.2g, converged %s, energy %.17g\n",
              fit_pp$iterations, fit_pp$grad_norm, fit_pp$converged, fit_pp$energy))
  row$E_pp <- fit_pp$energy
  row$it_pp <- fit_pp$iterations
  row$t_pp <- if (reps_pp <= 1L) t1 else
    time_median(function() pr_geodesic_regression(Gpp, x, Y_pp), reps = reps_pp, t_first = t1)
  row$t_eval_pp <- time_median(function() Gpp$energy_grad(fit_pp$footpoint, fit_pp$shooting, x, Y_pp),
                               reps = 3L)

  ## GeodRegr on centred x, against riemdp on the same centred x
  row$t_gr <- NA_real_; row$E_gr <- NA_real_; row$it_gr <- NA_integer_
  if (!is.null(geodregr)) {
    xc <- x - mean(x)
    t_gr1 <- system.time(fit_gr <- suppressWarnings(geodregr(xc)))[["elapsed"]]
    fit_gr <- geodregr_clean(fit_gr)
    row$it_gr <- fit_gr$iterations
    row$E_gr <- energy_riemdp(M, to_layout(fit_gr$p), to_layout(fit_gr$v), xc, Y_pkg)
    cat(sprintf("  GeodRegr (x centred): %d iterations, energy %.17g\n", fit_gr$iterations, row$E_gr))
    ## reps_gr = 1: the fit above is the measurement (GeodRegr takes ~10 s on the sphere)
    row$t_gr <- if (reps_gr <= 1L) t_gr1 else
      time_median(function() suppressWarnings(geodregr(xc)), reps = reps_gr, t_first = t_gr1)
    row$t_pkg_c <- time_median(function() geodesic_regression(M, xc, Y_pkg), reps = reps_pkg)
  }
  row
}

## sphere
results$sphere <- run_case(
  "sphere(2), n = 10^4", S2, pr_sphere, pp_sphere, x_s, Y_s, Ylist_s, Y_s,
  to_layout = function(z) as.numeric(z), rtangent = rtangent_sphere,
  geodregr = if (geodregr_ok) function(xc) geodregr_fit("sphere", xc, t(Y_s)) else NULL,
  reps_pr = 7L, reps_pp = 3L, reps_gr = 1L)

## kendall
if (have_rats) {
  results$kendall <- run_case(
    "kendall(8), rats, n = 144", K8, pr_kendall, pp_kendall, x_k, Z_k, Zlist_k, A_k,
    to_layout = function(z) cbind(Re(z), Im(z)), rtangent = rtangent_kendall,
    geodregr = if (geodregr_ok) function(xc) geodregr_fit("kendall", xc, t(Z_k)) else NULL,
    reps_pr = 7L, reps_pp = 5L, reps_gr = 3L)
}

## spd
results$spd <- run_case(
  "spd(3), n = 10^3", P3, pr_spd, pp_spd, x_p, Yv_p, Ylist_p, Y_p,
  to_layout = identity, rtangent = rtangent_spd, geodregr = NULL, reps_pr = 5L, reps_pp = 3L)

## ===========================================================================
## Tables
## ===========================================================================
fmt_ms <- function(s) {
  if (is.null(s) || is.na(s)) return("-")
  ms <- 1000 * s
  if (ms >= 100) sprintf("%.0f ms", ms) else if (ms >= 1) sprintf("%.2f ms", ms) else sprintf("%.3f ms", ms)
}
fmt_ratio <- function(a, b) if (is.null(a) || is.null(b) || is.na(a) || is.na(b)) "-" else sprintf("%.1fx", a / b)
fmt_rel <- function(a, b) if (is.na(a) || is.na(b)) "-" else sprintf("%.1e", (a - b) / abs(b))
t_for_gr <- function(r) if (is.null(r$t_pkg_c)) NA_real_ else r$t_pkg_c
tab <- do.call(rbind, lapply(results, function(r) data.frame(
  manifold = r$case,
  riemdp = fmt_ms(r$t_pkg),
  "plain R vec" = fmt_ms(r$t_pr),
  "ratio vec" = fmt_ratio(r$t_pr, r$t_pkg),
  "plain R per point" = fmt_ms(r$t_pp),
  "ratio per pt" = fmt_ratio(r$t_pp, r$t_pkg),
  "riemdp (x centred)" = fmt_ms(t_for_gr(r)),
  "GeodRegr (x centred)" = fmt_ms(r$t_gr),
  "ratio GeodRegr" = fmt_ratio(r$t_gr, t_for_gr(r)),
  check.names = FALSE, stringsAsFactors = FALSE)))
etab <- do.call(rbind, lapply(results, function(r) data.frame(
  manifold = r$case,
  "E riemdp" = sprintf("%.15g", r$E_pkg),
  "vec - riemdp (rel)" = fmt_rel(r$E_pr, r$E_pkg),
  "per pt - riemdp (rel)" = fmt_rel(r$E_pp, r$E_pkg),
  "GeodRegr - riemdp (rel)" = fmt_rel(r$E_gr, r$E_pkg),
  "iterations riemdp / vec / per pt / GeodRegr" = sprintf("%d / %d / %d / %s", r$it_pkg, r$it_pr, r$it_pp,
                                                         if (is.na(r$it_gr)) "-" else r$it_gr),
  check.names = FALSE, stringsAsFactors = FALSE)))
## one energy + gradient evaluation at the fit (riemdp: regression_energy(),
## R-side input checks included)
evtab <- do.call(rbind, lapply(results, function(r) data.frame(
  manifold = r$case,
  riemdp = fmt_ms(r$t_eval_pkg),
  "plain R vec" = fmt_ms(r$t_eval_pr),
  "ratio vec" = fmt_ratio(r$t_eval_pr, r$t_eval_pkg),
  "plain R per point" = fmt_ms(r$t_eval_pp),
  "ratio per pt" = fmt_ratio(r$t_eval_pp, r$t_eval_pkg),
  check.names = FALSE, stringsAsFactors = FALSE)))

checks <- list()
for (r in results) {
  same <- function(E) abs(E - r$E_pkg) <= 1e-12 * abs(r$E_pkg)
  checks[[paste(r$case, ": vectorised R, same iterations and energy within 1e-12 rel.")]] <-
    r$it_pr == r$it_pkg && same(r$E_pr)
  checks[[paste(r$case, ": per-point R, same iterations and energy within 1e-12 rel.")]] <-
    r$it_pp == r$it_pkg && same(r$E_pp)
  if (!is.na(r$E_gr)) checks[[paste(r$case, ": energy <= GeodRegr's")]] <- r$E_pkg <= r$E_gr
  checks[[paste(r$case, ": >= 50x the per-point plain-R reference")]] <- r$t_pp / r$t_pkg >= 50
  checks[[paste(r$case, ": >= 50x the vectorised plain-R reference")]] <- r$t_pr / r$t_pkg >= 50
  if (!is.na(r$t_gr)) checks[[paste(r$case, ": >= 20x GeodRegr (both on centred x)")]] <- r$t_gr / t_for_gr(r) >= 20
}

cat("\nTimes per fit (median elapsed). Ratios: plain-R time / riemdp time; GeodRegr time / riemdp time on the",
    "same centred x.\n")
print(tab, right = FALSE, row.names = FALSE)
cat("\nEnergies E = 1/(2n) sum dist(yhat_i, y_i)^2 (GeodRegr's geodesic evaluated with riemdp's geometry;",
    "relative differences to riemdp's) and iterations:\n")
print(etab, right = FALSE, row.names = FALSE)
cat("\nOne energy + gradient evaluation at the fit (riemdp: riemdp:::regression_energy(), input checks",
    "included):\n")
print(evtab, right = FALSE, row.names = FALSE)
cat(sprintf("\nPlain-R gradients: vectorised vs central differences, max relative error %.2g;",
            max(vapply(results, `[[`, 0, "grad_err"))),
    sprintf("per point vs vectorised, max relative difference %.2g\n",
            max(vapply(results, `[[`, 0, "pp_err"))))
cat("\nChecks (targets: >= 50x the plain-R version, >= 20x GeodRegr, energy no worse than GeodRegr's):\n")
for (nm in names(checks)) cat(sprintf("  %-80s %s\n", nm, if (checks[[nm]]) "met" else "MISSED"))
cat(sprintf("\nriemdp %s%s, %s, %s; times are medians of repeated runs (elapsed).\n",
            as.character(utils::packageVersion("riemdp")),
            if (geodregr_ok) paste0(", GeodRegr ", utils::packageVersion("GeodRegr")) else "",
            R.version.string, Sys.info()[["machine"]]))
cat(sprintf("Total bench runtime: %.1f s\n", proc.time()[["elapsed"]] - t_start))
