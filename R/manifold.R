# Manifold constructors: plain validated lists (they survive saveRDS), with
# class c("riemdp_<type>", "riemdp_manifold").

new_manifold <- function(type, dim, ambient, point_shape, curvature, inj, params) {
  structure(c(list(type = type, dim = as.integer(dim), ambient = as.integer(ambient),
                   point_shape = point_shape, curvature = curvature, inj = inj), params),
            class = c(paste0("riemdp_", type), "riemdp_manifold"))
}

#' Manifolds
#'
#' Constructors for the five manifolds of the package. Each returns a
#' `riemdp_manifold`: a plain list holding the type, the intrinsic dimension
#' `dim`, the length `ambient` of a stored point, the layout of a point
#' (`point_shape`, `NULL` for vectors), the curvature bounds and the
#' injectivity radius `inj`. The manifold is the first argument of every
#' function that acts on points.
#'
#' * `manifold_euclidean(d)`: \eqn{R^d}{R^d}; points are vectors of length `d`.
#' * `manifold_sphere(d)`: the unit sphere \eqn{S^d}{S^d} in \eqn{R^{d+1}}{R^(d+1)};
#'   points are unit vectors of length `d + 1`. Curvature 1, injectivity radius \eqn{\pi}{pi}.
#'   The circle \eqn{S^1}{S^1} (`d = 1`) is flat: a 1-manifold has no sectional
#'   curvature (its Riemann tensor is zero), so `M$curvature` is `c(0, 0)` and
#'   its sensitivity bounds are the Euclidean ones (e.g. the Frechet mean's
#'   \eqn{2r/n}{2r/n} for any radius below \eqn{\pi/2}{pi/2}).
#' * `manifold_hyperbolic(d)`: the hyperboloid model of \eqn{H^d}{H^d},
#'   \eqn{-x_0^2 + \sum x_i^2 = -1}{-x_0^2 + sum x_i^2 = -1}, \eqn{x_0 > 0}{x_0 > 0} (the coordinate \eqn{x_0}{x_0} first);
#'   points are vectors of length `d + 1`. Curvature -1 (0 for the flat
#'   \eqn{H^1}{H^1}, isometric to the real line).
#' * `manifold_spd(k)`: symmetric positive definite `k x k` matrices with the
#'   affine-invariant metric \eqn{\langle u, v\rangle_p = tr(p^{-1} u p^{-1} v)}{< u, v>_p = tr(p^(-1) u p^(-1) v)};
#'   dimension \eqn{k(k+1)/2}{k(k+1)/2}, curvature in \eqn{[-1/2, 0]}{[-1/2, 0]}.
#' * `manifold_kendall(k)`: Kendall's shape space of `k >= 3` planar landmarks;
#'   points are `k x 2` configurations (the layout of the `shapes` package).
#'   Location and scale are removed by the package (points are returned as
#'   preshapes: centred, of unit Frobenius norm); rotation is the quotient.
#'   Dimension \eqn{2k - 4}{2k - 4}, curvature in \eqn{[1, 4]}{[1, 4]}, injectivity radius \eqn{\pi/2}{pi/2}.
#'
#' Many points are the rows of an `n x D` matrix (vector manifolds), a
#' `k x k x n` array (spd) or a `k x 2 x n` array (kendall).
#'
#' Supported sizes: a stored point has at most \eqn{2^{31} - 1}{2^31 - 1} coordinates
#' (the C++ core indexes them with 32-bit integers), so `d` is at most
#' \eqn{2^{31} - 1}{2^31 - 1} for `manifold_euclidean()` and \eqn{2^{31} - 2}{2^31 - 2} for
#' `manifold_sphere()` and `manifold_hyperbolic()`, `k` at most 46340 for
#' `manifold_spd()` (\eqn{k^2}{k^2} coordinates) and \eqn{2^{30} - 1}{2^30 - 1} for
#' `manifold_kendall()` (\eqn{2k}{2k} coordinates). Memory is the practical
#' limit well before these: a point of `manifold_spd(k)` holds \eqn{k^2}{k^2}
#' numbers.
#'
#' @param d Dimension of the manifold (a whole number >= 1; see Supported sizes).
#' @param k Matrix size (spd) or number of landmarks (kendall, >= 3).
#' @return An object of class `c("riemdp_<type>", "riemdp_manifold")`.
#' @seealso [riem_exp()] and the other geometry verbs; [frechet_mean()].
#' @examples
#' manifold_sphere(2)
#' M <- manifold_spd(3)
#' M$dim
#' manifold_kendall(8)
#' @name manifolds
NULL

#' @rdname manifolds
#' @export
manifold_euclidean <- function(d) {
  d <- check_count(d, "d", 1, sys.call())  # a point has d coordinates
  new_manifold("euclidean", d, d, NULL, c(0, 0), Inf, list(d = d))
}

#' @rdname manifolds
#' @export
manifold_sphere <- function(d) {
  d <- check_count(d, "d", 1, sys.call(), upper = .Machine$integer.max - 1)  # d + 1 coordinates
  # a 1-manifold is flat (no sectional curvature; zero Riemann tensor)
  new_manifold("sphere", d, d + 1L, NULL, if (d == 1L) c(0, 0) else c(1, 1), pi, list(d = d))
}

#' @rdname manifolds
#' @export
manifold_hyperbolic <- function(d) {
  d <- check_count(d, "d", 1, sys.call(), upper = .Machine$integer.max - 1)  # d + 1 coordinates
  new_manifold("hyperbolic", d, d + 1L, NULL, if (d == 1L) c(0, 0) else c(-1, -1), Inf, list(d = d))
}

#' @rdname manifolds
#' @export
manifold_spd <- function(k) {
  k <- check_count(k, "k", 1, sys.call(), upper = floor(sqrt(.Machine$integer.max)))  # k^2 coordinates
  new_manifold("spd", k * (k + 1L) / 2L, k * k, c(k, k), if (k >= 2L) c(-0.5, 0) else c(0, 0), Inf, list(k = k))
}

#' @rdname manifolds
#' @export
manifold_kendall <- function(k) {
  k <- check_count(k, "k", 3, sys.call(), upper = .Machine$integer.max %/% 2)  # 2k coordinates
  # k = 3: triangles form a sphere of radius 1/2 (constant curvature 4).
  new_manifold("kendall", 2L * k - 4L, 2L * k, c(k, 2L), if (k == 3L) c(4, 4) else c(1, 4), pi / 2, list(k = k))
}

manifold_label <- function(M) {
  switch(M$type,
         euclidean = sprintf("manifold_euclidean(%d)", M$d),
         sphere = sprintf("manifold_sphere(%d)", M$d),
         hyperbolic = sprintf("manifold_hyperbolic(%d)", M$d),
         spd = sprintf("manifold_spd(%d)", M$k),
         kendall = sprintf("manifold_kendall(%d)", M$k))
}

manifold_description <- function(M) {
  switch(M$type,
         euclidean = sprintf("Euclidean space R^%d", M$d),
         sphere = sprintf("unit sphere S^%d in R^%d", M$d, M$d + 1L),
         hyperbolic = sprintf("hyperbolic space H^%d (hyperboloid in R^%d, x0 first)", M$d, M$d + 1L),
         spd = sprintf("%d x %d SPD matrices, affine-invariant metric", M$k, M$k),
         kendall = sprintf("Kendall shape space of %d planar landmarks", M$k))
}

manifold_layout <- function(M) {
  if (is.null(M$point_shape))
    return(sprintf("a point is a vector of length %d; many points are the rows of an n x %d matrix",
                   M$ambient, M$ambient))
  s <- M$point_shape
  sprintf("a point is a %d x %d matrix; many points form a %d x %d x n array", s[1], s[2], s[1], s[2])
}

#' @export
format.riemdp_manifold <- function(x, ...) {
  fmt_num <- function(v) if (is.infinite(v)) "Inf" else if (isTRUE(all.equal(v, pi))) "pi"
                         else if (isTRUE(all.equal(v, pi / 2))) "pi/2" else format(v)
  c(sprintf("<riemdp manifold> %s: %s", manifold_label(x), manifold_description(x)),
    sprintf("  dimension %d; %s", x$dim, manifold_layout(x)),
    if (x$dim == 1L) sprintf("  flat (a 1-manifold has no sectional curvature); injectivity radius %s", fmt_num(x$inj))
    else sprintf("  sectional curvature in [%s, %s]; injectivity radius %s",
                 format(x$curvature[1]), format(x$curvature[2]), fmt_num(x$inj)))
}

#' @export
print.riemdp_manifold <- function(x, ...) {
  writeLines(format(x, ...))
  invisible(x)
}
