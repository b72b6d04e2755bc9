#' Latitude and longitude to points of the sphere, and back
#'
#' `sphere_from_latlon()` writes positions given by latitude and longitude in
#' degrees as unit vectors of \eqn{R^3}{R^3}, points of
#' [`manifold_sphere(2)`][manifold_sphere]; `sphere_to_latlon()` takes such
#' points back to latitude and longitude in degrees. With latitude
#' \eqn{\phi}{phi} and longitude \eqn{\lambda}{lambda} (in radians) a point is
#' \eqn{(\cos\phi\cos\lambda, \cos\phi\sin\lambda, \sin\phi)}{(cos phi cos lambda, cos phi sin lambda, sin phi)},
#' the layout of [fiji_quakes]: the north pole is `c(0, 0, 1)`, and
#' latitude 0, longitude 0 is `c(1, 0, 0)`. Geodesic distances between such
#' points are angles in radians (on Earth, times 6371 for km).
#'
#' Both functions are deterministic (they leave the random number generator
#' alone) and involve no privacy: on private data they are plain
#' pre-processing, and on a release's output plain post-processing.
#'
#' @param lat Latitudes in degrees, in \[-90, 90\]: a numeric vector, or a
#'   data frame or matrix with columns `lat` and `long` (then `long` is taken
#'   from it and must not be given).
#' @param long Longitudes in degrees, in \[-360, 360\], one per latitude (no
#'   recycling).
#' @param X Points of the sphere \eqn{S^2}{S^2}: a matrix with 3 columns (one
#'   point per row) or a vector of length 3, of unit norm (to the tolerance of
#'   [riem_check()]).
#' @param wrap `180` (the default: longitudes in (-180, 180]) or `360`
#'   (longitudes in \[0, 360), as in [datasets::quakes], whose longitudes
#'   cross 180).
#' @return `sphere_from_latlon()`: a matrix with columns `x`, `y`, `z` and
#'   one row per position (a single point is still a 1 x 3 matrix).
#'   `sphere_to_latlon()`: a matrix with columns `lat` and `long` (degrees)
#'   and one row per point. At an exact pole (x = y = 0) the longitude is 0.
#' @seealso [fiji_quakes], [manifold_sphere()], [riem_dist()].
#' @examples
#' X <- sphere_from_latlon(datasets::quakes$lat, datasets::quakes$long)
#' identical(X, fiji_quakes)
#' head(sphere_to_latlon(X, wrap = 360))
#' # the Fréchet mean of the events, as latitude and longitude
#' S2 <- manifold_sphere(2)
#' sphere_to_latlon(coef(frechet_mean(S2, X)), wrap = 360)
#' # London to Tokyo, in km along the Earth's surface
#' cities <- sphere_from_latlon(c(51.51, 35.68), c(-0.13, 139.69))
#' 6371 * riem_dist(S2, cities[1, ], cities[2, ])
#' @export
sphere_from_latlon <- function(lat, long) {
  call <- sys.call()
  if (is.data.frame(lat) || is.matrix(lat)) {
    if (!missing(long))
      abort("give `long` only with a vector `lat`: with a data frame or matrix, `lat` holds both columns `lat` and `long`", call)
    nm <- colnames(lat)
    if (is.null(nm) || !all(c("lat", "long") %in% nm))
      abort("`lat` as a data frame or matrix must have columns `lat` and `long` (degrees); or give two vectors, `lat` and `long`", call)
    long <- lat[, "long"]
    lat <- lat[, "lat"]
  } else if (missing(long)) {
    abort("`long` is required: the longitudes in degrees, one per latitude in `lat`", call)
  }
  latlon_check(lat, "lat", 90, call)
  latlon_check(long, "long", 360, call)
  if (length(lat) != length(long))
    abort(sprintf("`lat` and `long` must have the same length (one longitude per latitude): they have %d and %d values",
                  length(lat), length(long)), call)
  phi <- as.double(lat) * pi / 180  # as fiji_quakes was built (data-raw/make_data.R): the same bits
  lambda <- as.double(long) * pi / 180
  cbind(x = cos(phi) * cos(lambda), y = cos(phi) * sin(lambda), z = sin(phi))
}

#' @rdname sphere_from_latlon
#' @export
sphere_to_latlon <- function(X, wrap = 180) {
  call <- sys.call()
  if (!is.numeric(wrap) || length(wrap) != 1L || !wrap %in% c(180, 360))
    abort("`wrap` must be 180 (longitudes in (-180, 180]) or 360 (longitudes in [0, 360))", call)
  M <- manifold_sphere(2)
  if (is.data.frame(X)) X <- as.matrix(X)
  S <- as_points(M, X, "X", call)
  P <- matrix(S$x, S$n, 3L)
  lat <- asin(pmin(1, pmax(-1, P[, 3]))) * (180 / pi)
  long <- atan2(P[, 2], P[, 1]) * (180 / pi)
  pole <- P[, 1] == 0 & P[, 2] == 0
  long[pole] <- 0
  if (wrap == 360) {
    long <- long %% 360
    long[long >= 360] <- 0
  } else {
    long[long <= -180] <- 180
  }
  cbind(lat = lat, long = long + 0)
}

latlon_check <- function(x, arg, limit, call) {
  if (!is.numeric(x) || !length(x))
    abort(sprintf("`%s` must be a numeric vector of %s in degrees", arg,
                  if (arg == "lat") "latitudes" else "longitudes"), call)
  check_finite_numeric(x, arg, call)
  if (any(abs(x) > limit)) {
    i <- which(abs(x) > limit)[1L]
    abort(sprintf("`%s` must be in degrees, within [-%d, %d]: element %d is %s%s", arg, limit, limit, i, format(x[i]),
                  if (arg == "lat") " (swapped `lat` and `long`?)" else ""), call)
  }
  invisible(x)
}
