#' riemdp: differential privacy on Riemannian manifolds
#'
#' Geometry of five manifolds ([manifold_euclidean()], [manifold_sphere()],
#' [manifold_hyperbolic()], [manifold_spd()], [manifold_kendall()]), the
#' verbs that act on them ([riem_exp()], [riem_log()], [riem_dist()],
#' [riem_transport()], ...), and estimators such as [frechet_mean()].
#' The numerical core is C++17 with Eigen, free of R headers.
#'
#' @section Options:
#' `riemdp.tol` (default `1e-8`): the relative tolerance within which points
#' must lie on the manifold and tangent vectors in their tangent space.
#'
#' @section Threads:
#' The compiled passes over large data sets (distances from one point to many,
#' distance matrices, the Fréchet mean and median and their private releases,
#' geodesic regression, exact samplers, the Monte Carlo of [gdp_mu()]) share
#' their work among several threads. Their number is
#' `getOption("riemdp.threads")`, by default the environment variable
#' `RIEMDP_NUM_THREADS`, else 2; it is read once at each call. While
#' `R CMD check` runs (or `_R_CHECK_LIMIT_CORES_` is set) at most 2 are used.
#' On a machine shared with other work, set it to the number of cores that
#' riemdp may use; `options(riemdp.threads = 1)` runs everything on R's
#' thread.
#' A value that is not a whole number from 1 to 1024 is an error naming
#' `riemdp.threads`.
#'
#' The data are cut into fixed blocks, a function of the number of points
#' and their dimension only, and the threads take the next free block as they
#' finish one (dynamic scheduling), so a thread slowed by other programs takes
#' fewer blocks. The blocks' results are combined in block order, and random
#' draws come from fixed generator streams, so every result is the same, bit
#' for bit, for a given seed whatever the number of threads.
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
#' @importFrom stats coef residuals nobs confint vcov sigma model.matrix quantile
"_PACKAGE"
