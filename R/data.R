#' Earthquakes near Fiji as points on the sphere
#'
#' The epicentres of the 1000 seismic events of [datasets::quakes] (all of
#' magnitude above 4.0, since 1964, in a cube near Fiji), written as unit
#' vectors in \eqn{R^3}, so that each row is a point of
#' [`manifold_sphere(2)`][manifold_sphere]. All events lie within about 18
#' degrees of arc (2000 km) of their Fréchet mean; they make a quick test bed
#' for Fréchet means and for private releases of a location.
#'
#' With latitude \eqn{\phi} and longitude \eqn{\lambda} in radians, a row is
#' \eqn{(\cos\phi\cos\lambda, \cos\phi\sin\lambda, \sin\phi)}.
#' Depth, magnitude and number of stations are not included; take them from
#' [datasets::quakes], whose rows are in the same order.
#'
#' @format A numeric matrix with 1000 rows and 3 columns:
#' \describe{
#'   \item{x}{\eqn{\cos(\mathrm{lat})\cos(\mathrm{long})}}
#'   \item{y}{\eqn{\cos(\mathrm{lat})\sin(\mathrm{long})}}
#'   \item{z}{\eqn{\sin(\mathrm{lat})}}
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
#' c(lat = asin(m[3]), long = atan2(m[2], m[1]) %% (2 * pi)) * 180 / pi
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
#' \eqn{10^4}. Window \eqn{w} uses returns \eqn{20(w-1)+1, \dots, 20w}; the
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
