#' Geometry on a manifold
#'
#' The Riemannian exponential and logarithm, distance, inner product and norm,
#' parallel transport and geodesics (formulas in "Manifolds and their formulas"
#' of `vignette("methods", package = "riemdp")`). Every verb takes the manifold first, and is vectorised: each point
#' or vector argument holds one point or `n` of them, and a single point is
#' recycled against many. When every argument is a single point the result is
#' a single point; otherwise it is in the many-point layout (rows of a matrix,
#' or a `k x k x n` / `k x 2 x n` array). Scalar results are numeric vectors.
#'
#' * `riem_exp(M, p, v)`: \eqn{Exp_p(v)}{Exp_p(v)}.
#' * `riem_log(M, p, q)`: \eqn{Log_p(q)}{Log_p(q)}, a tangent vector at `p`. At the cut
#'   locus (antipodal points on the sphere, shapes at distance \eqn{\pi/2}{pi/2} on
#'   Kendall's space) the logarithm is not defined and this is an error.
#' * `riem_dist(M, p, q)`: geodesic distance, in stable forms (a chord-angle
#'   `atan2` on spheres and shapes, `asinh` of the chord on the hyperboloid,
#'   eigenvalues of the whitened matrix on spd).
#' * `riem_inner(M, p, u, v)`, `riem_norm(M, p, v)`: the metric at `p`.
#' * `riem_transport(M, p, q, v)`: parallel transport of `v` (tangent at `p`)
#'   along the minimising geodesic from `p` to `q`.
#' * `riem_geodesic(M, p, v, t)`: the points \eqn{Exp_p(t v)}{Exp_p(t v)}.
#'
#' Points must lie on the manifold and vectors in the tangent space at their
#' base point, within the relative tolerance `getOption("riemdp.tol", 1e-8)`;
#' anything else is an error (see [riem_check()] and [riem_project()]).
#' So is a result that double precision cannot represent (the exponential of
#' a huge vector, a geodesic at a huge time): an error, never `NaN` or `Inf`.
#' On the hyperboloid the formulas use the spatial coordinates and stay
#' accurate for points far apart and far from the origin; points must have
#' \eqn{x_0^2}{x_0^2} finite (\eqn{x_0 < 1.3 \cdot 10^{154}}{x_0 < 1.3 * 10^154}, about 355 from the
#' origin). Off the coordinate axes, though, double precision locates a point
#' at distance \eqn{a}{a} from the origin only to about
#' \eqn{2.2 \cdot 10^{-16} \sinh a}{2.2 * 10^(-16) sinh a} (5e-8 at \eqn{a = 20}{a = 20}, about 26 at
#' \eqn{a = 40}{a = 40}): results there are only as good as the coordinates, and
#' [dp_frechet_mean()] refuses public balls that reach that far.
#' On [manifold_kendall()] points may be raw configurations (location and
#' scale are removed); tangent vectors are horizontal vectors at the preshape
#' of the base point, and `riem_transport()` returns a vector at the preshape
#' of `q` rotated into optimal alignment with `p`, that is at
#' `riem_exp(M, p, riem_log(M, p, q))`.
#'
#' @param M A manifold (see [manifolds]).
#' @param p,q Points: base point and target.
#' @param u,v Tangent vectors at `p`.
#' @param t Numeric vector of times along the geodesic.
#' @return Points or tangent vectors in the manifold's layout, or a numeric
#'   vector (`riem_dist()`, `riem_inner()`, `riem_norm()`).
#' @examples
#' S2 <- manifold_sphere(2)
#' p <- c(0, 0, 1)
#' q <- c(1, 0, 0)
#' riem_dist(S2, p, q)                   # pi/2
#' v <- riem_log(S2, p, q)
#' riem_exp(S2, p, v)                    # q again
#' riem_transport(S2, p, q, c(0, 1, 0))  # orthogonal to the geodesic: unchanged
#' riem_geodesic(S2, p, v, seq(0, 1, by = 0.25))
#'
#' # one point against many
#' X <- riem_project(S2, matrix(rnorm(30), 10, 3))
#' riem_dist(S2, p, X)
#'
#' P <- manifold_spd(2)
#' riem_dist(P, diag(2), diag(c(exp(1), exp(-1))))   # sqrt(2)
#' @name geometry
NULL

#' @rdname geometry
#' @export
riem_exp <- function(M, p, v) {
  call <- sys.call()
  check_manifold(M, call)
  P <- as_points(M, p, "p", call)
  V <- as_tangents(M, P, v, "v", call)
  n <- common_count(list(P, V), call)
  out <- core_call(geom_exp(M, P, V, P$by_row), call, "`v`")
  from_values(M, out, n, P$single && V$single, p)
}

#' @rdname geometry
#' @export
riem_log <- function(M, p, q) {
  call <- sys.call()
  check_manifold(M, call)
  P <- as_points(M, p, "p", call)
  Q <- as_points(M, q, "q", call)
  n <- common_count(list(P, Q), call)
  out <- core_call(geom_log(M, P, Q, P$by_row), call, "`p` and `q`")
  from_values(M, out, n, P$single && Q$single, p)
}

#' @rdname geometry
#' @export
riem_dist <- function(M, p, q) {
  call <- sys.call()
  check_manifold(M, call)
  # One point against many: the point checks fused with the distances in one
  # C++ pass on the threads of riemdp.threads (geom_dist_checked). NULL when a check fails or
  # neither argument is a single point: then the separate checks below run
  # and give the usual error. Kendall configurations are first reduced to
  # preshapes by as_points(), so they always take that path.
  if (M$type != "kendall") {
    use_threads(call)
    d <- tryCatch({
      P <- as_set(M, p, "p", call, check_finite = FALSE)
      Q <- as_set(M, q, "q", call, check_finite = FALSE)
      geom_dist_checked(M, P, Q, riemdp_tol())
    }, riemdp_error = function(e) NULL)
    if (!is.null(d)) return(representable_distances(d, call))
  }
  P <- as_points(M, p, "p", call)
  Q <- as_points(M, q, "q", call)
  common_count(list(P, Q), call)
  representable_distances(geom_dist(M, P, Q), call)
}

# Distances beyond the largest double (far points on Euclidean space) are an
# error, never Inf.
representable_distances <- function(d, call) {
  if (!all(is.finite(d)))
    abort("`p` and `q`: a distance between them exceeds the largest double (1.8e308); rescale the data", call)
  d
}

#' @rdname geometry
#' @export
riem_inner <- function(M, p, u, v) {
  call <- sys.call()
  check_manifold(M, call)
  P <- as_points(M, p, "p", call)
  U <- as_tangents(M, P, u, "u", call)
  V <- as_tangents(M, P, v, "v", call)
  common_count(list(P, U, V), call)
  geom_inner(M, P, U, V)
}

#' @rdname geometry
#' @export
riem_norm <- function(M, p, v) {
  call <- sys.call()
  check_manifold(M, call)
  P <- as_points(M, p, "p", call)
  V <- as_tangents(M, P, v, "v", call)
  common_count(list(P, V), call)
  sqrt(pmax(0, geom_inner(M, P, V, V)))
}

#' @rdname geometry
#' @export
riem_transport <- function(M, p, q, v) {
  call <- sys.call()
  check_manifold(M, call)
  P <- as_points(M, p, "p", call)
  Q <- as_points(M, q, "q", call)
  V <- as_tangents(M, P, v, "v", call)
  n <- common_count(list(P, Q, V), call)
  out <- core_call(geom_transport(M, P, Q, V, P$by_row), call, "`p` and `q`")
  from_values(M, out, n, P$single && Q$single && V$single, v)
}

#' @rdname geometry
#' @export
riem_geodesic <- function(M, p, v, t) {
  call <- sys.call()
  check_manifold(M, call)
  P <- as_points(M, p, "p", call)
  V <- as_tangents(M, P, v, "v", call)
  check_finite_numeric(t, "t", call)
  if (is.null(dim(t)) && length(t) < 1L) abort("`t` must hold at least one time", call)
  times <- list(n = length(t), arg = "t")
  n <- common_count(list(P, V, times), call)
  out <- core_call(geom_geodesic(M, P, V, as.double(t), P$by_row), call, "`v` and `t`")
  from_values(M, out, n, FALSE, p)
}

#' Check or project points
#'
#' `riem_check()` verifies that `x` holds valid points of `M`: the right
#' layout, finite values, and on the manifold within the relative tolerance
#' `getOption("riemdp.tol", 1e-8)` (unit norm on the sphere,
#' \eqn{<x,x>_L = -1}{<x,x>_L = -1} relative to \eqn{x_0^2}{x_0^2} and \eqn{x_0 > 0}{x_0 > 0} on the
#' hyperboloid, where \eqn{x_0^2}{x_0^2} must be finite; symmetric and positive
#' definite on spd; on Kendall's space any configuration, at any scale, whose
#' landmarks do not all coincide). It returns `TRUE`, or stops with an error
#' that says which point is wrong and how.
#'
#' `riem_project()` snaps arrays onto the manifold explicitly, for users who
#' want it (the rest of the package never does so silently): normalise on the
#' sphere; keep the spatial coordinates and set \eqn{x_0 = \sqrt{1 + |x|^2}}{x_0 = sqrt(1 + |x|^2)}
#' on the hyperboloid (an error when that point is too far from the origin to
#' be represented); symmetrise and floor the eigenvalues at `1e-12` times
#' the largest on spd; centre and scale to a preshape on Kendall's space;
#' the identity on Euclidean space.
#'
#' @inheritParams geometry
#' @param x Points (or arrays to project) in the manifold's layout.
#' @return `riem_check()`: `TRUE`. `riem_project()`: points in the manifold's layout.
#' @examples
#' S2 <- manifold_sphere(2)
#' riem_check(S2, c(0, 0, 1))
#' try(riem_check(S2, c(0, 0, 1.1)))
#' riem_project(S2, c(0, 0, 1.1))
#' riem_project(manifold_hyperbolic(2), c(0, 1, 1))
#' @export
riem_check <- function(M, x) {
  call <- sys.call()
  check_manifold(M, call)
  as_points(M, x, "x", call)
  TRUE
}

#' @rdname riem_check
#' @export
riem_project <- function(M, x) {
  call <- sys.call()
  check_manifold(M, call)
  X <- as_set(M, x, "x", call)
  out <- core_call(geom_project(M, X, X$by_row), call, "`x`")
  from_values(M, out, X$n, X$single, x)
}

# Domain errors from the core (cut locus, degenerate input) as R errors with
# the user's call, prefixed by the arguments they concern.
core_call <- function(expr, call, arg = NULL) {
  use_threads(call)  # before expr is evaluated (lazily, inside tryCatch)
  tryCatch(expr, error = function(e) {
    msg <- conditionMessage(e)
    abort(if (is.null(arg)) msg else sprintf("%s: %s", arg, msg), call)
  })
}

#' Distance matrix
#'
#' All pairwise geodesic distances between the points of `X`, or between the
#' points of `X` and those of `Y`. Each column is one call of the compiled
#' one-against-many distance of [riem_dist()] (the same stable formulas and
#' the same values), and the columns are shared out among the threads set by
#' `options(riemdp.threads = )` (see [riemdp-package]).
#'
#' With `Y = NULL` the result is, by default, a [stats::dist()] object (the
#' \eqn{n(n-1)/2}{n(n-1)/2} distances of the lower triangle, with attributes `Size`,
#' `Labels` from the row names of `X` (or the names of the third dimension of
#' an array), `Diag = FALSE`, `Upper = FALSE`, `method` the manifold and
#' `call`), ready for [stats::hclust()], [stats::cmdscale()] and clustering
#' packages; with `output = "matrix"` it is the symmetric \eqn{n \times n}{n x n}
#' matrix with a zero diagonal (exactly symmetric: each pair is computed
#' once). With `Y` given it is the \eqn{n \times m}{n x m} matrix of
#' \eqn{d(x_i, y_j)}{d(x_i, y_j)}, with the points' labels as dimnames.
#'
#' @inheritParams geometry
#' @param X Points in the manifold's layout (rows of a matrix, or a
#'   `k x k x n` / `k x 2 x n` array).
#' @param Y Optional second set of points.
#' @param output `"dist"` (the default without `Y`) or `"matrix"`.
#' @return A `dist` object or a numeric matrix.
#' @examples
#' S2 <- manifold_sphere(2)
#' X <- fiji_quakes[1:50, ]
#' D <- riem_dist_matrix(S2, X)
#' hc <- stats::hclust(D, method = "average")
#' table(stats::cutree(hc, k = 3))
#' stats::cmdscale(D, k = 2)[1:3, ]
#'
#' riem_dist_matrix(S2, X[1:3, ], output = "matrix")
#' riem_dist_matrix(S2, X[1:3, ], fiji_quakes[100:101, ])
#'
#' # SPD matrices: the stock covariance months
#' D_spd <- riem_dist_matrix(manifold_spd(3), eustock_cov)
#' @export
riem_dist_matrix <- function(M, X, Y = NULL, output = c("dist", "matrix")) {
  call <- sys.call()
  check_manifold(M, call)
  output_given <- !missing(output)
  output <- arg_match(output, c("dist", "matrix"), "output", call)
  P <- as_points(M, X, "X", call)
  labels <- point_labels(M, X, P$n)
  if (!is.null(Y)) {
    if (output_given && output == "dist")
      abort("`output` = \"dist\" needs `Y` = NULL: distances between two sets form an n x m matrix", call)
    Q <- as_points(M, Y, "Y", call)
    check_pair_count(as.double(P$n) * Q$n, "`X` and `Y`", call)
    s <- euclidean_scale(M, P, Q)
    d <- core_call(geom_dist_matrix(M, rescaled(P, s), rescaled(Q, s), TRUE), call, "`X` and `Y`")
    d <- representable_matrix(if (is.null(s)) d else d * s, call)
    dim(d) <- c(P$n, Q$n)
    ylab <- point_labels(M, Y, Q$n)
    if (!is.null(labels) || !is.null(ylab)) dimnames(d) <- list(labels, ylab)
    return(d)
  }
  full <- output == "matrix"
  check_pair_count(if (full) as.double(P$n) * P$n else as.double(P$n) * (P$n - 1) / 2, "`X`", call)
  s <- euclidean_scale(M, P)
  d <- core_call(geom_dist_matrix(M, rescaled(P, s), NULL, full), call, "`X`")
  d <- representable_matrix(if (is.null(s)) d else d * s, call)
  if (full) {
    dim(d) <- c(P$n, P$n)
    if (!is.null(labels)) dimnames(d) <- list(labels, labels)
    return(d)
  }
  structure(d, Size = P$n, Labels = labels, Diag = FALSE, Upper = FALSE,
            method = manifold_label(M), call = call, class = "dist")
}

# The distances must fit one R vector (at most 2^52 numbers) and, where the
# system tells (Linux), the memory available: filling more than that would
# get R killed rather than stopped with an error.
check_pair_count <- function(count, what, call, available = available_memory()) {
  if (count > 2^52)
    abort(sprintf("%s: %.0f distances are more than an R vector can hold (2^52 numbers)", what, count), call)
  if (!is.na(available) && 8 * count > available)
    abort(sprintf("%s: %.0f distances need %.1f GB, more than the %.1f GB of memory available",
                  what, count, 8 * count / 1e9, available / 1e9), call)
}

# Bytes of memory available (MemAvailable of /proc/meminfo), NA if unknown.
available_memory <- function() {
  info <- tryCatch(suppressWarnings(readLines("/proc/meminfo", n = 5L)), error = function(e) character())
  line <- grep("^MemAvailable:", info, value = TRUE)
  if (length(line) != 1L) return(NA_real_)
  kb <- suppressWarnings(as.numeric(gsub("[^0-9]", "", line)))
  if (is.na(kb)) NA_real_ else 1024 * kb
}

# Labels of the points of X: row names, the names of an array's third
# dimension, or the names of a list of matrices.
point_labels <- function(M, X, n) {
  lab <- if (is.null(M$point_shape)) rownames(X)
         else if (length(dim(X)) == 3L) dimnames(X)[[3L]]
         else if (is.list(X) && !is.data.frame(X)) names(X)
  if (length(lab) == n) lab else NULL
}

# Distances beyond the largest double (far points on Euclidean space) are an
# error, never Inf.
representable_matrix <- function(d, call) {
  if (!all(is.finite(d)))
    abort("`X`: a distance between points exceeds the largest double (1.8e308); rescale the data", call)
  d
}
