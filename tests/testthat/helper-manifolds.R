options(rgl.useNULL = TRUE)  # shapes loads rgl; no display here
# A zoo of every manifold, and plain-R reference geometry used by the tests.
#
# Random points and tangent vectors are built here in plain R (not with the
# package), so that a bug in the package cannot hide itself by also being in
# the test data.  Call set.seed() inside each test before drawing.

zoo_manifolds <- function() {
  list(
    "euclidean(3)"  = manifold_euclidean(3),
    "sphere(1)"     = manifold_sphere(1),
    "sphere(2)"     = manifold_sphere(2),
    "sphere(4)"     = manifold_sphere(4),
    "hyperbolic(2)" = manifold_hyperbolic(2),
    "hyperbolic(3)" = manifold_hyperbolic(3),
    "spd(2)"        = manifold_spd(2),
    "spd(3)"        = manifold_spd(3),
    "kendall(3)"    = manifold_kendall(3),
    "kendall(5)"    = manifold_kendall(5)
  )
}

# ---- small plain-R geometry -------------------------------------------------

vec_norm <- function(x) sqrt(sum(x^2))

# Minkowski product on R^{d+1}, x0 first.
minkowski <- function(x, y) -x[1] * y[1] + sum(x[-1] * y[-1])

# Symmetric matrix function via eigen-decomposition.
sym_fun <- function(S, f) {
  e <- eigen((S + t(S)) / 2, symmetric = TRUE)
  e$vectors %*% (f(e$values) * t(e$vectors))
}
sym_sqrt <- function(S) sym_fun(S, sqrt)
sym_isqrt <- function(S) sym_fun(S, function(l) 1 / sqrt(l))
sym_exp <- function(S) sym_fun(S, exp)
sym_log <- function(S) sym_fun(S, log)

# Kendall helpers: i*z in the k x 2 layout, preshape, complex form, alignment.
kendall_iz <- function(z) cbind(-z[, 2], z[, 1])
ref_preshape <- function(x) {
  x <- sweep(x, 2, colMeans(x))
  x / vec_norm(x)
}
as_complex_shape <- function(x) complex(real = x[, 1], imaginary = x[, 2])
# q rotated (about its centroid) into optimal alignment with p; both preshapes.
ref_align <- function(p, q) {
  h <- sum(Conj(as_complex_shape(p)) * as_complex_shape(q))
  w <- as_complex_shape(q) * exp(-1i * Arg(h))
  cbind(Re(w), Im(w))
}
rotate_config <- function(x, theta) {
  x %*% matrix(c(cos(theta), sin(theta), -sin(theta), cos(theta)), 2, 2)
}

# Reference inner product and norm.
ref_inner <- function(M, p, u, v) {
  switch(M$type,
    hyperbolic = minkowski(u, v),
    spd = {
      pinv <- solve(p)
      sum(diag(pinv %*% u %*% pinv %*% v))
    },
    sum(u * v)
  )
}
ref_norm <- function(M, p, v) sqrt(max(ref_inner(M, p, v, v), 0))

# How far v is from the tangent space at p (0 when exactly tangent).
tangent_defect <- function(M, p, v) {
  switch(M$type,
    euclidean = 0,
    sphere = abs(sum(v * p)),
    hyperbolic = abs(minkowski(v, p)),
    spd = max(abs(v - t(v))),
    kendall = max(abs(colSums(v)), abs(sum(v * p)), abs(sum(v * kendall_iz(p))))
  )
}

# ---- random points ------------------------------------------------------------

# One random point, in the single-point layout.
rand_point <- function(M) {
  switch(M$type,
    euclidean = rnorm(M$ambient),
    sphere = {
      x <- rnorm(M$ambient)
      x / vec_norm(x)
    },
    hyperbolic = {
      xs <- rnorm(M$ambient - 1, sd = 0.7)
      c(sqrt(1 + sum(xs^2)), xs)
    },
    spd = {
      k <- M$k
      A <- matrix(rnorm(k * k), k, k)
      S <- crossprod(A) / k + 0.5 * diag(k)
      (S + t(S)) / 2
    },
    kendall = ref_preshape(matrix(rnorm(2 * M$k), M$k, 2))
  )
}

# Stack a list of single points into the many-point layout.
stack_points <- function(M, pts) {
  if (is.null(M$point_shape)) {
    do.call(rbind, lapply(pts, as.numeric))
  } else {
    array(unlist(lapply(pts, as.numeric)), c(M$point_shape, length(pts)))
  }
}

# Point i of a many-point layout (as a single point).
point_i <- function(M, X, i) {
  if (is.null(M$point_shape)) X[i, ] else X[, , i]
}

# Number of points in a many-point layout.
n_points <- function(M, X) {
  if (is.null(M$point_shape)) {
    if (is.matrix(X)) nrow(X) else 1L
  } else {
    if (length(dim(X)) == 3) dim(X)[3] else 1L
  }
}

rand_points <- function(M, n) stack_points(M, replicate(n, rand_point(M), simplify = FALSE))

# ---- random tangent vectors -----------------------------------------------

# Project an ambient vector onto T_p M (plain R).
to_tangent <- function(M, p, x) {
  switch(M$type,
    euclidean = x,
    sphere = x - sum(x * p) * p,
    hyperbolic = x + minkowski(p, x) * p,
    spd = (x + t(x)) / 2,
    kendall = {
      x <- sweep(x, 2, colMeans(x))
      x <- x - sum(x * p) * p
      iz <- kendall_iz(p)
      x - sum(x * iz) * iz
    }
  )
}

zero_tangent <- function(M, p) 0 * p

# Random tangent vector at the single point p; if `norm` is given it is scaled
# to that Riemannian norm.
rand_tangent <- function(M, p, norm = NULL) {
  x <- if (is.null(M$point_shape)) rnorm(M$ambient) else matrix(rnorm(M$ambient), M$point_shape[1], M$point_shape[2])
  v <- to_tangent(M, p, x)
  if (!is.null(norm)) v <- v * (norm / ref_norm(M, p, v))
  v
}

# ---- reference maps (closed forms, plain R) -------------------------------------

ref_exp <- function(M, p, v) {
  r <- ref_norm(M, p, v)
  switch(M$type,
    euclidean = p + v,
    sphere = ,
    kendall = if (r == 0) p else cos(r) * p + sin(r) * v / r,
    hyperbolic = if (r == 0) p else cosh(r) * p + sinh(r) * v / r,
    spd = {
      h <- sym_sqrt(p)
      hi <- sym_isqrt(p)
      h %*% sym_exp(hi %*% v %*% hi) %*% h
    }
  )
}

ref_dist <- function(M, p, q) {
  switch(M$type,
    euclidean = vec_norm(q - p),
    sphere = atan2(vec_norm(q - sum(p * q) * p), sum(p * q)),
    hyperbolic = acosh(max(1, -minkowski(p, q))),
    spd = {
      hi <- sym_isqrt(p)
      vec_norm(log(eigen(hi %*% q %*% hi, symmetric = TRUE, only.values = TRUE)$values))
    },
    kendall = {
      h <- Mod(sum(Conj(as_complex_shape(ref_preshape(p))) * as_complex_shape(ref_preshape(q))))
      acos(min(1, h))
    }
  )
}

# Keep an RNG state around so that .Random.seed exists.
ensure_seed <- function() {
  if (!exists(".Random.seed", envir = globalenv(), inherits = FALSE)) set.seed(NULL)
  invisible(get(".Random.seed", envir = globalenv()))
}
