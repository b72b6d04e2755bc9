#' Earthquakes near Fiji as points on the sphere
#'
#' The epicentres of the 1000 seismic events of [datasets::quakes] (all of
#' magnitude above 4.0, since 1964, in a cube near Fiji), written as unit
#' vectors in \eqn{R^3}{R^3}, so that each row is a point of
#' [`manifold_sphere(2)`][manifold_sphere]. All events lie within about 18
#' degrees of arc (2000 km) of their Fréchet mean; they make a quick test bed
#' for Fréchet means and for private releases of a location.
#'
#' [sphere_from_latlon()] builds it from latitude and longitude in degrees
#' (and [sphere_to_latlon()] goes back). With latitude \eqn{\phi}{phi} and longitude \eqn{\lambda}{lambda} in radians, a row is
#' \eqn{(\cos\phi\cos\lambda, \cos\phi\sin\lambda, \sin\phi)}{(cos phi cos lambda, cos phi sin lambda, sin phi)}.
#' Depth, magnitude and number of stations are not included; take them from
#' [datasets::quakes], whose rows are in the same order.
#'
#' @format A numeric matrix with 1000 rows and 3 columns:
#' \describe{
#'   \item{x}{\eqn{\cos(\mathrm{lat})\cos(\mathrm{long})}{cos(lat)cos(long)}}
#'   \item{y}{\eqn{\cos(\mathrm{lat})\sin(\mathrm{long})}{cos(lat)sin(long)}}
#'   \item{z}{\eqn{\sin(\mathrm{lat})}{sin(lat)}}
#' }
#' Every row has Euclidean norm 1 (to rounding error).
#'
#' @source Built by `data-raw/make_data.R` from the `lat` and `long` columns
#'   of [datasets::quakes] in R's `datasets` package. That data set is one of
#'   the Harvard PRIM-H project data sets, obtained from Dr. John Woodhouse,
#'   Dept. of Geophysics, Harvard University.
#'
#' @seealso [datasets::quakes], [frechet_mean()], [manifold_sphere()]
#' @examples
#' S2 <- manifold_sphere(2)
#' dim(fiji_quakes)
#' fit <- frechet_mean(S2, fiji_quakes)
#' m <- coef(fit)
#' m
#' # back to latitude and longitude (degrees)
#' sphere_to_latlon(m, wrap = 360)
#' # geodesic distances (in km, Earth radius 6371 km) of the events to the mean
#' summary(6371 * riem_dist(S2, m, fiji_quakes))
"fiji_quakes"

#' Covariance matrices of European stock index returns
#'
#' Covariance matrices of the daily log returns of three European stock
#' indices (DAX, Germany; SMI, Switzerland; CAC, France), 1991-1998, from
#' [datasets::EuStockMarkets], each computed over one of 92 consecutive,
#' non-overlapping windows of 20 trading days (about one month). The matrices
#' are points of [`manifold_spd(3)`][manifold_spd], in the package's
#' \eqn{k \times k \times n}{k x k x n} layout.
#'
#' Returns are in percent: \eqn{100 \log(P_t / P_{t-1})}{100 log(P[t] / P[t-1])},
#' so the covariances are those of the raw log returns multiplied by
#' \eqn{10^4}{10^4}. Window \eqn{w}{w} uses returns \eqn{20(w-1)+1, \dots, 20w}{20(w-1)+1, ..., 20w}; the
#' last 19 returns, which do not fill a window, are dropped. Each matrix is
#' symmetric and positive definite: the smallest eigenvalue over all windows
#' is about 0.046 and the largest condition number about 150.
#'
#' @format A numeric array of dimension `c(3, 3, 92)`; the first two
#'   dimensions are named `c("DAX", "SMI", "CAC")`. Slice `[, , w]` is the
#'   covariance matrix of window `w`, in chronological order.
#'
#' @source Built by `data-raw/make_data.R` from the DAX, SMI and CAC columns of
#'   [datasets::EuStockMarkets] in R's `datasets` package (daily closing
#'   prices, 1991-1998; the FTSE column is not used). Those data were provided
#'   by Erste Bank AG, Vienna, Austria.
#'
#' @seealso [datasets::EuStockMarkets], [frechet_mean()], [manifold_spd()]
#' @examples
#' P3 <- manifold_spd(3)
#' dim(eustock_cov)
#' eustock_cov[, , 1]
#' fit <- frechet_mean(P3, eustock_cov)
#' fit
#' # the Frechet (affine-invariant) mean against the arithmetic mean
#' coef(fit)
#' apply(eustock_cov, 1:2, mean)
#' # distances of the monthly covariances to their Frechet mean
#' d <- riem_dist(P3, coef(fit), eustock_cov)
#' plot(d, type = "h", xlab = "window (20 trading days)",
#'      ylab = "distance to the Frechet mean")
"eustock_cov"

#' Real data sets used in the examples and vignettes, with their sources
#'
#' riemdp ships two data sets derived from R's `datasets` package
#' ([fiji_quakes], [eustock_cov]); the examples and vignettes also use the
#' following data sets directly from base R and, through Suggests, from the
#' `shapes` package. None of them is copied into riemdp.
#'
#' \describe{
#'   \item{[datasets::quakes]}{1000 seismic events of magnitude above 4.0
#'     near Fiji since 1964 (latitude, longitude, depth, magnitude,
#'     stations). Source: one of the Harvard PRIM-H project data sets,
#'     obtained from Dr. John Woodhouse, Dept. of Geophysics, Harvard
#'     University. Used for the Tonga regression of location against depth
#'     (`make demo`, `vignette("riemdp")`) and, through [fiji_quakes], for
#'     Fréchet means and private releases of a location.}
#'   \item{[datasets::EuStockMarkets]}{Daily closing prices of the DAX, SMI,
#'     CAC and FTSE indices, 1991-1998, provided by Erste Bank AG, Vienna;
#'     used through [eustock_cov].}
#'   \item{[datasets::faithful]}{Waiting time and eruption duration of 272
#'     eruptions of the Old Faithful geyser. Source: W. Härdle (1991),
#'     *Smoothing Techniques with Implementation in S*, Springer; see also
#'     Azzalini and Bowman (1990), *Applied Statistics* 39, 357-365. Used by
#'     `vignette("private-linear-regression")`.}
#'   \item{[datasets::mtcars]}{Fuel consumption and ten aspects of design and
#'     performance of 32 cars, from the 1974 *Motor Trend* US magazine.
#'     Source: Henderson and Velleman (1981), *Biometrics* 37, 391-411. Used
#'     by `vignette("geodesic-regression")` and
#'     [plot.riemdp_geodesic_regression()].}
#'   \item{[datasets::cars]}{Speed and stopping distance of 50 cars, recorded
#'     in the 1920s. Source: M. Ezekiel (1930), *Methods of Correlation
#'     Analysis*, Wiley. Used by [geodesic_regression()] and
#'     [dp_linear_regression()].}
#'   \item{`shapes::rats`}{Vilmann's rat data: 8 landmarks on the
#'     midsagittal section of the skulls of 18 rats, each measured at 8 ages
#'     from 7 to 150 days. Source: F. L. Bookstein (1991), *Morphometric
#'     Tools for Landmark Data: Geometry and Biology*, Cambridge University
#'     Press, pp. 408-414, as distributed by the `shapes` package (in
#'     Suggests). Used by `make demo`, `vignette("geodesic-regression")`,
#'     `vignette("private-shape-regression")` and
#'     [plot.riemdp_geodesic_regression()].}
#' }
#'
#' @name riemdp_datasets
#' @seealso [fiji_quakes], [eustock_cov]
#' @examples
#' # the Tonga part of quakes: deeper events lie further west
#' tonga <- datasets::quakes[datasets::quakes$long > 175, ]
#' nrow(tonga)
#' summary(lm(long ~ depth, data = tonga))$r.squared
#' # fiji_quakes is quakes' epicentres as unit vectors, in the same order
#' ll <- sphere_to_latlon(fiji_quakes, wrap = 360)
#' all.equal(unname(ll), unname(as.matrix(datasets::quakes[, c("lat", "long")])))
#' # rat skulls, without attaching 'shapes'
#' if (requireNamespace("shapes", quietly = TRUE)) {
#'   data("rats", package = "shapes", envir = environment())
#'   dim(rats$x)
#'   table(rats$time)
#' }
NULL
