#' riemdp: differential privacy on Riemannian manifolds
#'
#' Geometry of five manifolds ([manifold_euclidean()], [manifold_sphere()],
#' [manifold_hyperbolic()], [manifold_spd()], [manifold_kendall()]), the
#' verbs that act on them ([riem_exp()], [riem_log()], [riem_dist()],
#' [riem_transport()], ...), and estimators such as [frechet_mean()].
#' The numerical core is header-only C++17 with Eigen.
#'
#' @section Options:
#' `riemdp.tol` (default `1e-8`): the relative tolerance within which points
#' must lie on the manifold and tangent vectors in their tangent space.
#'
#' @examples
#' # A private Frechet mean of points on the sphere, inside a public ball
#' S2 <- manifold_sphere(2)
#' north <- c(0, 0, 1)
#' set.seed(1)
#' X <- riem_rlaplace(S2, 50, north, 0.05)
#' rel <- dp_frechet_mean(S2, X, epsilon = 1, radius = pi / 8, center = north, outside = "clip")
#' rel
#' plot(rel)
#' @keywords internal
#' @useDynLib riemdp, .registration = TRUE
#' @importFrom Rcpp sourceCpp
#' @importFrom cli cli_progress_bar
#' @importFrom stats coef residuals nobs
"_PACKAGE"
