## Benchmark: riemdp's geodesic_regression() against a plain-R implementation
## of the same algorithm (written below) and against the CRAN package
## 'GeodRegr' (GeodRegr::geo_reg, loss "l2") -- issue 7, "Speed".
##
## Run from the package root with the package installed:
##     Rscript bench/regression.R
## Uses base R (system.time / proc.time); data are fixed by set.seed() (and
## shapes::rats). 'GeodRegr' is installed here from the configured repository
## if missing (into the first writable library, else the user library); its
## comparison is skipped if that fails. 'shapes' (Suggests) is needed for the
## rats data; that part is skipped without it.
##
## Data: 144 Kendall shapes of 8 landmarks (shapes::rats, ages scaled to
## [0, 1]); 10^4 points on manifold_sphere(2) and 10^3 matrices on
## manifold_spd(3), both simulated along a known geodesic with noise.
##
## The plain-R reference follows SPEC7's algorithm (and DESIGN.md section 2):
## Frechet-mean start, tangent least squares at the mean, gradients from the
## adjoint Jacobi fields, the (m+1) x (m+1) preconditioner
## H = (1/n) sum [1, x_i][1, x_i]^T (m = 1 here), Armijo backtracking from
## t = 1, stop on the gradient norm (tol = 1e-10, as riemdp's default).
## Its gradients are checked against central finite differences of its energy.
##
## GeodRegr is run where it is fastest: with x centred (it warns otherwise and
## is slower). For one covariate, centring x reparametrises the
## same family of geodesics (footpoint at x = mean(x), same speed), so its fit
## is compared through the energy E = 1/(2n) sum dist(yhat_i, y_i)^2 of its
## fitted geodesic on the centred x, computed with riemdp's geometry.
## GeodRegr stops on the step sizes (p_tol = V_tol = 1e-5, its defaults), so
## its energy is expected slightly above the minimum.
##
## Every time is the median of several repetitions (fewer for the slow
## references); fast calls are repeated inside a repetition so that one
## measurement lasts at least ~50 ms. Total runtime: about 30-60 seconds (most
## of it GeodRegr's one fit on the sphere), plus GeodRegr's installation the
## first time.

suppressPackageStartupMessages(library(riemdp))
options(width = 160)

t_start <- proc.time()[["elapsed"]]

## ---------------------------------------------------------------------------
## Timing helper (as in bench/geometry.R)
## ---------------------------------------------------------------------------
## Median over `reps` measurements of the time of one call of f(), in seconds.
## `t_first`: the time of a call already made (it then serves as the warm-up).
time_median <- function(f, reps = 5L, min_time = 0.05, t_first = NULL) {
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
## Plain-R geodesic regression
## ===========================================================================
## A manifold is a list of functions (m = 1 covariate):
##   frechet_mean(Y)                 the Frechet mean of the data
##   log_rows(p, Y)                  Log_p(y_i) for all i, as rows (tangent at p)
##   exp(p, v)                       Exp_p(v)
##   transport(p, d, w)              Gamma_{p -> Exp_p(d)}(w) along t -> Exp_p(t d)
##   inner(p, a, b)                  the metric at p
##   energy_grad(p, v, x, Y, grad)   list(energy, grad_p, grad_v)
## Points and tangent vectors: sphere, numeric 3-vectors; kendall, complex
## k-vectors (centred, unit norm preshapes; horizontal tangent vectors);
## spd, symmetric k x k matrices (tangent vectors in ambient coordinates, the
## metric <a, b>_p = tr(p^-1 a p^-1 b)).

f_eps <- 64 * .Machine$double.eps   # relative rounding slack of an energy

## Frechet mean: x <- Exp_x(t mean Log_x(y_i)), t = 1 halved until Armijo
## (c = 1e-4) holds up to rounding (the slack f_eps, as in bench/geometry.R).
pr_frechet <- function(G, Y, init, max_iter = 200L, tol = 1e-10) {
  x <- init
  L <- G$log_rows(x, Y)
  f <- 0.5 * mean(G$sq_norm_rows(x, L))
  it <- 0L
  repeat {
    g <- G$mean_rows(L)
    gn <- sqrt(G$inner(x, g, g))
    if (gn < tol || it >= max_iter) break
    t <- 1
    repeat {
      xn <- G$exp(x, t * g)
      Ln <- G$log_rows(xn, Y)
      fn <- 0.5 * mean(G$sq_norm_rows(xn, Ln))
      if (fn <= f - 1e-4 * t * gn^2 + f_eps * abs(f) || t < 1e-10) break
      t <- t / 2
    }
    x <- xn; L <- Ln; f <- fn; it <- it + 1L
  }
  list(estimate = x, iterations = it, grad_norm = gn, cost = f)
}

## The regression. SPEC7 steps 1-3.
pr_geodesic_regression <- function(G, x, Y, max_iter = 1000L, tol = 1e-10) {
  n <- length(x)
  ## 1. start: tangent least squares of Log_ybar(y_i) on [1, x_i] at the mean
  ybar <- G$frechet_mean(Y)
  U <- G$log_rows(ybar, Y)                          # n x D (rows tangent at ybar)
  X1 <- cbind(1, x)
  beta <- solve(crossprod(X1), crossprod(X1, U))    # 2 x D (complex on kendall)
  b0 <- G$from_row(beta[1, ]); B <- G$from_row(beta[2, ])
  p <- G$exp(ybar, b0)
  v <- G$transport(ybar, b0, B)
  ## 2. preconditioner H^-1, H = (1/n) sum [1, x_i][1, x_i]^T
  Hinv <- solve(crossprod(X1) / n)
  cur <- G$energy_grad(p, v, x, Y)
  it <- 0L
  converged <- FALSE
  repeat {
    gp <- cur$grad_p; gv <- cur$grad_v
    gn <- sqrt(G$inner(p, gp, gp) + G$inner(p, gv, gv))
    if (gn <= tol) { converged <- TRUE; break }
    if (it >= max_iter) break
    dp <- -(Hinv[1, 1] * gp + Hinv[1, 2] * gv)
    dv <- -(Hinv[2, 1] * gp + Hinv[2, 2] * gv)
    slope <- -(G$inner(p, gp, dp) + G$inner(p, gv, dv))   # <g, -d> > 0
    ## 3. Armijo backtracking from t = 1 (energy and gradient at each trial:
    ##    the accepted trial's gradient is reused). Below the energy's rounding
    ##    (change within f_eps |E|) a step is accepted only if it lowers the
    ##    gradient norm: the energy cannot tell there, and on negatively curved
    ##    spaces (spd) the full step overshoots (the Jacobi factors cosh > 1 make
    ##    the Hessian larger than H), so accepting on the slack alone would cycle.
    t <- 1
    repeat {
      pn <- G$exp(p, t * dp)
      vn <- G$transport(p, t * dp, v + t * dv)
      nxt <- G$energy_grad(pn, vn, x, Y)
      if (nxt$energy <= cur$energy - 1e-4 * t * slope) break
      if (nxt$energy <= cur$energy + f_eps * abs(cur$energy) &&
          G$inner(pn, nxt$grad_p, nxt$grad_p) + G$inner(pn, nxt$grad_v, nxt$grad_v) < gn^2) break
      t <- t / 2
      if (t < 1e-10) break
    }
    if (t < 1e-10) break                            # rounding floor: no descent left
    p <- pn; v <- vn; cur <- nxt; it <- it + 1L
  }
  list(footpoint = p, shooting = v, energy = cur$energy, iterations = it,
       grad_norm = gn, converged = converged, frechet_mean = ybar)
}

## Adjoint Jacobi scalings of one curvature block K at s = x_i |v|, L = |v|
## (DESIGN section 2): footpoint c_K(s), shooting sn_K(s) / L (-> x as L -> 0).
jac_p <- function(K, s) if (K > 0) cos(sqrt(K) * s) else if (K < 0) cosh(sqrt(-K) * s) else 1 + 0 * s
jac_v <- function(K, s, x, L) {
  if (L == 0 || K == 0) return(x)
  if (K > 0) sin(sqrt(K) * s) / (sqrt(K) * L) else sinh(sqrt(-K) * s) / (sqrt(-K) * L)
}

## ---------------------------------------------------------------------------
## Sphere S^d in R^(d+1): points and tangent vectors as plain vectors, data as
## the rows of an n x (d+1) matrix
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
  inner = function(p, a, b) sum(a * b),
  sq_norm_rows = function(p, L) rowSums(L^2),
  mean_rows = colMeans,
  from_row = function(r) as.numeric(r),
  energy_grad = sphere_energy_grad
)
pr_sphere$frechet_mean <- function(Y) {
  m <- colMeans(Y)
  pr_frechet(pr_sphere, Y, m / sqrt(sum(m^2)))$estimate
}

## ---------------------------------------------------------------------------
## Kendall shape space of k planar landmarks: preshapes as complex k-vectors
## (centred, unit norm), data as the rows of an n x k complex matrix.
## <a, b> = sum Conj(a) b (Hermitian); the metric is its real part.
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
## three curvature blocks (DESIGN section 2): along u (flat), along i u (K = 4),
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
  inner = function(p, a, b) Re(sum(Conj(a) * b)),
  sq_norm_rows = function(p, L) rowSums(Mod(L)^2),
  mean_rows = colMeans,
  from_row = function(r) as.complex(r),
  energy_grad = kendall_energy_grad
)
pr_kendall$frechet_mean <- function(Y) {
  ## start: the full Procrustes mean, dominant eigenvector of sum z_i z_i^H
  e <- eigen(crossprod(Conj(Y), Y), symmetric = TRUE)$vectors[, 1]
  pr_frechet(pr_kendall, Y, e)$estimate
}

## ---------------------------------------------------------------------------
## SPD(k), affine-invariant metric, via eigen(symmetric = TRUE). Data as an
## n x k^2 matrix (row i = vec(y_i)); the per-point matrix logarithms are a
## loop over eigen().
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
spd_inner <- function(p, a, b) {
  pinv <- solve(p)
  sum((pinv %*% a) * t(pinv %*% b))
}
## With V = p^-1/2 v p^-1/2 = U diag(lam) U' and G_i = p^1/2 expm(x_i V / 2)
## (G_i G_i' = yhat_i), the residual transported back to p and whitened there
## is logm(G_i^-1 y_i G_i^-T); in the basis U its entries are
## logm(D_i Z_i D_i), Z_i = U' p^-1/2 y_i p^-1/2 U, D_i = diag(exp(-x_i lam/2)).
## The Jacobi scalings act entrywise in that basis (DESIGN section 2):
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
pr_spd <- list(
  log_rows = spd_log_rows,
  exp = spd_exp,
  transport = spd_transport,
  inner = spd_inner,
  from_row = function(r) { k <- round(sqrt(length(r))); S <- matrix(r, k, k); (S + t(S)) / 2 },
  energy_grad = spd_energy_grad
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
  cur <- eval_at(pr_spd$from_row(colMeans(Yv)))     # start: the arithmetic mean
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

## ---------------------------------------------------------------------------
## Gradient check of the plain-R reference: central differences of its energy
## along p -> Exp_p(h u) with v transported, and along v -> v + h w.
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
  K8 <- manifold_kendall(8)
} else {
  cat("package 'shapes' not available: the kendall (rats) part is skipped\n")
}

## ===========================================================================
## GeodRegr (CRAN), installed if missing
## ===========================================================================
geodregr_ok <- requireNamespace("GeodRegr", quietly = TRUE)
if (!geodregr_ok) {
  lib <- Find(function(l) file.access(l, 2L) == 0L, .libPaths())
  if (is.null(lib)) {
    lib <- Sys.getenv("R_LIBS_USER")
    dir.create(lib, recursive = TRUE, showWarnings = FALSE)
    .libPaths(c(lib, .libPaths()))
  }
  cat("installing the CRAN package 'GeodRegr' for the comparison ...\n")
  # Judged by whether it loads afterwards (install.packages() also warns on
  # harmless index look-ups that fall back).
  geodregr_ok <- tryCatch({
    suppressWarnings(utils::install.packages("GeodRegr", lib = lib, quiet = TRUE))
    requireNamespace("GeodRegr", quietly = TRUE)
  }, error = function(e) FALSE)
  if (!geodregr_ok) geodregr_ok <- requireNamespace("GeodRegr", quietly = TRUE)
  if (!geodregr_ok) cat("package 'GeodRegr' not available: that comparison is skipped\n")
}
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

## riemdp's regression (present once issue 7's core has landed)
have_riemdp_regression <- exists("geodesic_regression", envir = asNamespace("riemdp"), inherits = FALSE)
if (!have_riemdp_regression)
  cat("this riemdp has no geodesic_regression(): only the references are run\n")
energy_riemdp <- function(M, p, v, x, Y) riemdp:::regression_energy(M, p, v, x, Y)$energy

## ===========================================================================
## Runs
## ===========================================================================
results <- list()
grad_errors <- c()

run_case <- function(label, M, G, x, Y_pr, Y_pkg, to_layout, rtangent,
                     geodregr = NULL, reps_pkg = 7L, reps_pr = 3L, reps_gr = 3L) {
  cat(sprintf("\n== %s ==\n", label))
  ## plain R: fit, gradient check at the start of the fit and at a perturbed point
  t_pr1 <- system.time(fit_pr <- pr_geodesic_regression(G, x, Y_pr))[["elapsed"]]
  cat(sprintf("  plain R:  %d iterations, gradient norm %.2g, converged %s, energy %.15g\n",
              fit_pr$iterations, fit_pr$grad_norm, fit_pr$converged, fit_pr$energy))
  ## (at a point off the optimum, where the gradient is not ~0)
  du <- rtangent(fit_pr$footpoint)
  du <- 0.1 * du / sqrt(G$inner(fit_pr$footpoint, du, du))
  ge <- pr_gradient_check(G, G$exp(fit_pr$footpoint, du),
                          G$transport(fit_pr$footpoint, du, fit_pr$shooting), x, Y_pr, rtangent)
  cat(sprintf("  plain R gradient vs central differences: max relative error %.2g\n", ge))
  t_pr <- time_median(function() pr_geodesic_regression(G, x, Y_pr), reps = reps_pr, t_first = t_pr1)
  t_eval_pr <- time_median(function() G$energy_grad(fit_pr$footpoint, fit_pr$shooting, x, Y_pr))
  row <- list(case = label, t_pkg = NA_real_, t_pr = t_pr, t_gr = NA_real_, t_eval_pr = t_eval_pr,
              E_pkg = NA_real_, E_pr = fit_pr$energy, E_gr = NA_real_,
              it_pkg = NA_integer_, it_pr = fit_pr$iterations, it_gr = NA_integer_,
              grad_err = ge)
  ## GeodRegr on centred x
  if (!is.null(geodregr)) {
    xc <- x - mean(x)
    t_gr1 <- system.time(fit_gr <- suppressWarnings(geodregr(xc)))[["elapsed"]]
    fit_gr <- geodregr_clean(fit_gr)
    row$it_gr <- fit_gr$iterations
    pl <- to_layout(fit_gr$p); vl <- to_layout(fit_gr$v)
    ## energy of its geodesic on the centred x (same family of geodesics)
    row$E_gr_pr <- G$energy_grad(fit_gr$p, fit_gr$v, xc, Y_pr, grad = FALSE)$energy
    row$E_gr <- if (have_riemdp_regression) energy_riemdp(M, pl, vl, xc, Y_pkg) else row$E_gr_pr
    cat(sprintf("  GeodRegr: %d iterations, energy %.15g (plain-R geometry %.15g)\n",
                fit_gr$iterations, row$E_gr, row$E_gr_pr))
    ## reps_gr = 1: the fit above is the measurement (GeodRegr takes ~10 s on the sphere)
    row$t_gr <- if (reps_gr <= 1L) t_gr1 else
      time_median(function() suppressWarnings(geodregr(xc)), reps = reps_gr, t_first = t_gr1)
  }
  ## riemdp
  if (have_riemdp_regression) {
    fit <- geodesic_regression(M, x, Y_pkg)
    row$E_pkg <- fit$energy
    row$it_pkg <- as.integer(fit$iterations)
    cat(sprintf("  riemdp:   %d iterations, gradient norm %.2g, converged %s, energy %.15g\n",
                as.integer(fit$iterations), fit$grad_norm, fit$converged, fit$energy))
    E_check <- energy_riemdp(M, fit$footpoint, fit$shooting, x, Y_pkg)
    cat(sprintf("  riemdp energy recomputed by regression_energy(): %.15g\n", E_check))
    row$t_pkg <- time_median(function() geodesic_regression(M, x, Y_pkg), reps = reps_pkg)
    row$t_eval_pkg <- time_median(function() energy_riemdp(M, fit$footpoint, fit$shooting, x, Y_pkg))
    if (!is.null(geodregr)) {
      ## riemdp on the same centred x as GeodRegr (the same geodesics)
      row$t_pkg_c <- time_median(function() geodesic_regression(M, x - mean(x), Y_pkg), reps = reps_pkg)
    }
  }
  row
}

## sphere
results$sphere <- run_case(
  "manifold_sphere(2), n = 10^4", S2, pr_sphere, x_s, Y_s, Y_s,
  to_layout = function(z) as.numeric(z), rtangent = rtangent_sphere,
  geodregr = if (geodregr_ok) function(xc) geodregr_fit("sphere", xc, t(Y_s)) else NULL,
  reps_pr = 7L, reps_gr = 1L)

## kendall
if (have_rats) {
  results$kendall <- run_case(
    "manifold_kendall(8), shapes::rats, n = 144", K8, pr_kendall, x_k, Z_k, A_k,
    to_layout = function(z) cbind(Re(z), Im(z)), rtangent = rtangent_kendall,
    geodregr = if (geodregr_ok) function(xc) geodregr_fit("kendall", xc, t(Z_k)) else NULL,
    reps_pr = 7L, reps_gr = 3L)
}

## spd
results$spd <- run_case(
  "manifold_spd(3), n = 10^3", P3, pr_spd, x_p, Yv_p, Y_p,
  to_layout = identity, rtangent = rtangent_spd, geodregr = NULL, reps_pr = 3L)

## ===========================================================================
## Table
## ===========================================================================
fmt_ms <- function(s) {
  if (is.na(s)) return("-")
  ms <- 1000 * s
  if (ms >= 100) sprintf("%.0f ms", ms) else if (ms >= 1) sprintf("%.2f ms", ms) else sprintf("%.3f ms", ms)
}
fmt_ratio <- function(a, b) if (is.na(a) || is.na(b)) "-" else sprintf("%.1fx", a / b)
fmt_e <- function(e) if (is.na(e)) "-" else sprintf("%.12g", e)
tab <- do.call(rbind, lapply(results, function(r) data.frame(
  manifold = r$case,
  riemdp = fmt_ms(r$t_pkg),
  "riemdp (x centred)" = fmt_ms(if (is.null(r$t_pkg_c)) NA_real_ else r$t_pkg_c),
  plain_R = fmt_ms(r$t_pr),
  GeodRegr = fmt_ms(r$t_gr),
  vs_plain_R = fmt_ratio(r$t_pr, r$t_pkg),
  vs_GeodRegr = fmt_ratio(r$t_gr, if (is.null(r$t_pkg_c)) r$t_pkg else r$t_pkg_c),
  check.names = FALSE, stringsAsFactors = FALSE)))
## one energy + gradient evaluation at the fit (riemdp: regression_energy(),
## R-side checks included; plain R: the reference's energy_grad)
evtab <- do.call(rbind, lapply(results, function(r) data.frame(
  manifold = r$case,
  riemdp = fmt_ms(if (is.null(r$t_eval_pkg)) NA_real_ else r$t_eval_pkg),
  plain_R = fmt_ms(r$t_eval_pr),
  ratio = fmt_ratio(r$t_eval_pr, if (is.null(r$t_eval_pkg)) NA_real_ else r$t_eval_pkg),
  stringsAsFactors = FALSE)))
etab <- do.call(rbind, lapply(results, function(r) data.frame(
  manifold = r$case,
  E_riemdp = fmt_e(r$E_pkg),
  E_plain_R = fmt_e(r$E_pr),
  E_GeodRegr = fmt_e(r$E_gr),
  "riemdp-plainR" = if (is.na(r$E_pkg)) "-" else sprintf("%.2g", r$E_pkg - r$E_pr),
  "riemdp-GeodRegr" = if (is.na(r$E_pkg) || is.na(r$E_gr)) "-" else sprintf("%.2g", r$E_pkg - r$E_gr),
  iterations = sprintf("%s / %s / %s",
                       if (is.na(r$it_pkg)) "-" else r$it_pkg, r$it_pr,
                       if (is.na(r$it_gr)) "-" else r$it_gr),
  check.names = FALSE, stringsAsFactors = FALSE)))
checks <- unlist(unname(lapply(results, function(r) {
  out <- c()
  if (!is.na(r$E_pkg)) {
    out[paste(r$case, "riemdp vs plain R")] <- abs(r$E_pkg - r$E_pr) <= 1e-8 || r$E_pkg <= r$E_pr
    if (!is.na(r$E_gr)) out[paste(r$case, "riemdp <= GeodRegr + 1e-8")] <- r$E_pkg <= r$E_gr + 1e-8
    out[paste(r$case, ">= 50x plain R")] <- r$t_pr / r$t_pkg >= 50
    if (!is.na(r$t_gr)) out[paste(r$case, ">= 20x GeodRegr")] <-
      r$t_gr / (if (is.null(r$t_pkg_c)) r$t_pkg else r$t_pkg_c) >= 20
  }
  out
})))

cat("\nTimes (median elapsed per fit; GeodRegr on centred x, compared with riemdp on the same centred x):\n")
print(tab, right = FALSE, row.names = FALSE)
cat("\nOne energy + gradient evaluation at the fit (riemdp: riemdp:::regression_energy(), input checks included):\n")
print(evtab, right = FALSE, row.names = FALSE)
cat("\nEnergies E = 1/(2n) sum dist(yhat_i, y_i)^2 (GeodRegr's geodesic evaluated with riemdp's geometry),",
    "iterations riemdp / plain R / GeodRegr:\n")
print(etab, right = FALSE, row.names = FALSE)
cat(sprintf("\nPlain-R gradients vs central differences: max relative error %.2g\n",
            max(vapply(results, `[[`, 0, "grad_err"))))
if (length(checks)) {
  cat("\nChecks (energy within 1e-8 or below; speed targets):\n")
  for (nm in names(checks)) cat(sprintf("  %-70s %s\n", nm, if (checks[[nm]]) "met" else "MISSED"))
}
cat(sprintf("\nriemdp %s%s, %s, %s; times are medians of repeated runs (elapsed).\n",
            as.character(utils::packageVersion("riemdp")),
            if (geodregr_ok) paste0(", GeodRegr ", utils::packageVersion("GeodRegr")) else "",
            R.version.string, Sys.info()[["machine"]]))
cat(sprintf("Total bench runtime: %.1f s\n", proc.time()[["elapsed"]] - t_start))
