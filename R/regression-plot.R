#' Plot a geodesic regression
#'
#' Draws the data and the fitted geodesic in a picture suited to the
#' manifold. The geodesic is evaluated with `predict()` over the range of
#' the first covariate; with several covariates the others are held at their
#' means (the curve is then the fitted model along the first covariate).
#' Colours run from low to high values of the first covariate (a colour bar
#' in the right margin gives the scale).
#'
#' * `manifold_sphere(2)`: an orthographic view centred on the footpoint,
#'   north up, zoomed to the data, with a graticule (`view = "orthographic"`,
#'   the default), or longitude against latitude in degrees
#'   (`view = "lonlat"`, longitudes unwrapped around the footpoint's).
#'   The data are coloured by the covariate, the geodesic is drawn over the
#'   covariate range in the same colours (an arrow points towards larger
#'   values) and the footpoint (\eqn{x = 0}{x = 0}) is marked; when 0 lies outside
#'   the covariate range, a dotted line joins the footpoint to the curve.
#' * `manifold_hyperbolic(2)`: the same in the Poincaré disc
#'   \eqn{(x_1, x_2) / (1 + x_0)}{(x_1, x_2) / (1 + x_0)}, with dashed circles at hyperbolic distances
#'   1, 2 and 3 from the origin.
#' * `manifold_euclidean(d)`: one panel per response coordinate (at most
#'   `max_panels`): the coordinate against the covariate with the fitted line
#'   (one covariate), or observed against fitted values with the identity line
#'   (several covariates).
#' * `manifold_kendall(k)`: the fitted shapes at `n_along` covariate values
#'   spread over the range, landmarks joined in their order as a polygon and
#'   coloured from low to high covariate, over the landmarks of the data
#'   (faint, coloured by the covariate). Every configuration is shown as a
#'   preshape rotated into optimal (Procrustes) alignment with the footpoint.
#' * `manifold_spd(2)`: the ellipses \eqn{\{z : z^\top S^{-1} z = 1\}}{\{z : z^T S^(-1) z = 1\}} of the
#'   data (faint) and of the fitted matrices at `n_along` covariate values.
#'   Other sizes: the eigenvalues of the fitted matrices along the geodesic
#'   (log scale) against the covariate, with the data's eigenvalues as points.
#' * Spheres and hyperbolic spaces of other dimensions: the coordinate of
#'   \eqn{Log_p(y_i)}{Log_p(y_i)} along the shooting direction at the footpoint \eqn{p}{p}
#'   against the covariate, with the fitted line (one covariate), and the
#'   residual norms \eqn{d(\hat y_i, y_i)}{d(yhat_i, y_i)} against each covariate.
#'
#' The graphical parameters changed are restored on exit. The single-panel
#' pictures (sphere and hyperbolic plane, kendall, spd) change only the
#' margins, so they fit in a layout set up by the user (`par(mfrow = )`);
#' the others (euclidean, other dimensions) set `mfrow` themselves.
#'
#' @param x A fit returned by [geodesic_regression()].
#' @param view Sphere of dimension 2 only: `"orthographic"` (centred on the
#'   footpoint) or `"lonlat"` (longitude and latitude in degrees).
#' @param n_along Number of covariate values, evenly spread over the range of
#'   the first covariate, at which fitted shapes (kendall) or ellipses
#'   (`manifold_spd(2)`) are drawn.
#' @param show_data Logical: draw the data as well as the fit?
#' @param max_panels Largest number of panels (euclidean coordinates,
#'   residual panels); the first ones are shown, with a note.
#' @param main Title; `NULL` for one naming the manifold. A line under it
#'   gives `n` and Fletcher's \eqn{R^2}{R^2}.
#' @param ... Further graphical parameters for [graphics::plot.default()]
#'   when each panel is opened (for example `xlim`, `ylim`, `xlab`, `ylab`,
#'   `cex.main`).
#' @return `x`, invisibly.
#' @seealso [geodesic_regression()], [predict.riemdp_geodesic_regression()]
#' @examples
#' # Earthquake epicentres against depth (in units of 100 km)
#' S2 <- manifold_sphere(2)
#' fit <- geodesic_regression(S2, quakes$depth / 100, fiji_quakes)
#' plot(fit)
#' plot(fit, view = "lonlat")
#'
#' # Monthly covariance matrices of stock returns against time
#' time <- seq(0, 1, length.out = dim(eustock_cov)[3])
#' plot(geodesic_regression(manifold_spd(3), time, eustock_cov))
#' plot(geodesic_regression(manifold_spd(2), time, eustock_cov[1:2, 1:2, ]))
#'
#' # Euclidean space: the lines of lm()
#' Y <- as.matrix(mtcars[, c("mpg", "qsec")])
#' plot(geodesic_regression(manifold_euclidean(2), mtcars$wt, Y))
#'
#' # Rat skull shapes against age (data() reads them without loading 'shapes')
#' if (nzchar(system.file(package = "shapes"))) {
#'   data("rats", package = "shapes", envir = environment())
#'   age <- (rats$time - 7) / (150 - 7)
#'   fit_rats <- geodesic_regression(manifold_kendall(8), age, rats$x)
#'   plot(fit_rats, n_along = 3)
#' }
#' @export
plot.riemdp_geodesic_regression <- function(x, view = c("orthographic", "lonlat"), n_along = 5L,
                                            show_data = TRUE, max_panels = 9L, main = NULL, ...) {
  call <- sys.call()
  view <- arg_match(view, c("orthographic", "lonlat"), "view", call)
  n_along <- check_count(n_along, "n_along", 2, call, upper = 1000)
  max_panels <- check_count(max_panels, "max_panels", 1, call, upper = 100)
  check_flag(show_data, "show_data", call)
  M <- x$manifold
  if (is.null(main)) main <- sprintf("Geodesic regression on %s", manifold_label(M))
  dots <- list(...)
  dots <- dots[nzchar(names(dots) %||% rep("", length(dots)))]  # only named parameters reach plot()
  ctx <- list(fit = x, main = main, show_data = show_data, n_along = n_along,
              max_panels = max_panels, dots = dots)
  two <- M$type %in% c("sphere", "hyperbolic") && M$d == 2L
  # Single panels change only the margins, so that they fit in a user's
  # layout (restoring mfrow would start a new page); multi-panel ones set mfrow.
  single <- two || M$type %in% c("kendall", "spd")
  # cex last: setting mfrow resets it
  old_par <- graphics::par(no.readonly = TRUE)[if (single) "mar" else c("mfrow", "oma", "mar", "mgp", "cex")]
  on.exit(graphics::par(old_par))
  if (M$type == "sphere" && two) plot_regression_sphere(ctx, view)
  else if (M$type == "hyperbolic" && two) plot_regression_disc(ctx)
  else if (M$type == "euclidean") plot_regression_euclidean(ctx)
  else if (M$type == "kendall") plot_regression_kendall(ctx)
  else if (M$type == "spd" && M$k == 2L) plot_regression_ellipses(ctx)
  else if (M$type == "spd") plot_regression_eigenvalues(ctx)
  else plot_regression_tangent(ctx)
  invisible(x)
}

`%||%` <- function(a, b) if (is.null(a)) b else a

# ---- shared pieces ---------------------------------------------------------

# Opens a panel: the defaults, overridden by the user's named `...`.
open_panel <- function(ctx, defaults) {
  defaults[names(ctx$dots)] <- ctx$dots
  do.call(graphics::plot.default, c(list(x = NA, type = "n"), defaults))
}

fit_subtitle <- function(fit) {
  # a private release holds no data: its public n, and no R^2
  if (isTRUE(fit$private))
    return(sprintf("private release, epsilon = %s, n = %d (no R\u00b2: a release holds no data)",
                   format_guarantee(fit$epsilon, 3), fit$release_n))
  sprintf("n = %d, R\u00b2 = %s", fit$n, format(fit$r_squared, digits = 3))
}

# "private" for the geodesic of a release, "fitted" for a fit.
fit_word <- function(fit) if (isTRUE(fit$private)) "private" else "fitted"

# The user's cex.main, col.main and font.main, if any.
title_style <- function(ctx) ctx$dots[intersect(names(ctx$dots), c("cex.main", "col.main", "font.main"))]

# Title of a multi-panel picture, in the outer margin.
outer_title <- function(ctx, subtitle) {
  style <- title_style(ctx)
  graphics::mtext(ctx$main, side = 3, outer = TRUE, line = 1.7, font = style$font.main %||% 2,
                  cex = style$cex.main %||% 1.2, col = style$col.main %||% "black")
  graphics::mtext(subtitle, side = 3, outer = TRUE, line = 0.4, cex = 0.8)
}

# Title and subtitle of a single-panel picture.
# The subtitle is ctx$subtitle, or n and R^2 of ctx$fit.
panel_title <- function(ctx, note = NULL) {
  do.call(graphics::title, c(list(main = ctx$main, line = 2), title_style(ctx)))
  graphics::mtext(paste(c(ctx$subtitle %||% fit_subtitle(ctx$fit), note), collapse = "; "), side = 3, line = 0.6, cex = 0.8)
}

# The first covariate, its name and range.
first_covariate <- function(fit) {
  X <- fit$x
  z <- X[, 1]
  name <- covariate_name(fit)
  zlim <- range(z)
  if (zlim[1] == zlim[2]) zlim <- zlim + c(-0.5, 0.5)
  list(z = z, name = name, zlim = zlim, m = ncol(X))
}

# The first covariate's column name; for a vector covariate (named "x") the
# expression the user passed, when it is short.
covariate_name <- function(fit) {
  name <- colnames(fit$x)[1] %||% "x"
  if (ncol(fit$x) != 1L || name != "x") return(name)
  expr <- tryCatch(match.call(geodesic_regression, fit$call)$x, error = function(e) NULL)
  if (is.null(expr)) return(name)
  text <- paste(deparse(expr, width.cutoff = 60L), collapse = " ")
  if (nchar(text) <= 20L) text else name
}

# Covariate rows at which the fitted curve is evaluated: the first covariate
# over `values`, the others at their means.
covariate_grid <- function(fit, values) {
  X <- fit$x
  if (ncol(X) == 1L) return(values)
  G <- matrix(colMeans(X), length(values), ncol(X), byrow = TRUE)
  G[, 1] <- values
  colnames(G) <- colnames(X)
  G
}

# Points of the fitted curve at first-covariate values `values`, in layout.
predict_along <- function(fit, values) {
  P <- stats::predict(fit, covariate_grid(fit, values))
  as_layout(fit$manifold, P, length(values))
}

# The geodesics of a release's confidence set (plot(release, set = )) at
# first-covariate values `values`: a list of matrices, one point per row;
# NULL without a set.
set_along <- function(fit, values) {
  g <- fit$set_geodesics
  if (is.null(g)) return(NULL)
  u <- (values - g$x_range[1]) / (g$x_range[2] - g$x_range[1])
  lapply(g$curves, function(pv) t(acc_exp(fit$manifold, pv$p, outer(pv$v, u))))
}

set_colour <- function() grDevices::adjustcolor("grey35", 0.45)
set_label <- function(fit) sprintf("%s%% confidence set (boundary)", format(100 * fit$set_geodesics$level))

# n points in the many-point layout (rows, or a k x k x n / k x 2 x n array).
as_layout <- function(M, P, n) {
  if (is.data.frame(P)) P <- as.matrix(P)
  shape <- if (is.null(M$point_shape)) c(n, M$ambient) else c(M$point_shape, n)
  if (identical(as.integer(dim(P)), as.integer(shape))) return(P)  # keeps dimnames
  if (is.null(M$point_shape)) matrix(P, nrow = n, ncol = M$ambient) else array(P, shape)
}

# Viridis without its palest yellows, which vanish on white.
covariate_palette <- function(n = 64L) grDevices::hcl.colors(round(n / 0.85), "viridis")[seq_len(n)]

covariate_colours <- function(z, zlim, alpha = 1) {
  pal <- covariate_palette()
  i <- 1L + round((length(pal) - 1L) * (z - zlim[1]) / (zlim[2] - zlim[1]))
  cols <- pal[pmin(pmax(i, 1L), length(pal))]
  if (alpha < 1) grDevices::adjustcolor(cols, alpha.f = alpha) else cols
}

point_size <- function(n) if (n > 500) 0.6 else if (n > 100) 0.75 else 1

# A colour bar for the first covariate in the right margin of the current
# panel (needs par(mar)[4] >= 4.5 lines).
colour_bar <- function(zlim, name) {
  usr <- graphics::par("usr")
  inch_x <- function(u) graphics::grconvertX(u, "user", "inches")
  to_user <- function(i) graphics::grconvertX(i, "inches", "user")
  x0 <- to_user(inch_x(usr[2]) + 0.15)
  x1 <- to_user(inch_x(usr[2]) + 0.32)
  y0 <- usr[3] + 0.1 * (usr[4] - usr[3])
  y1 <- usr[4] - 0.1 * (usr[4] - usr[3])
  pal <- covariate_palette()
  cuts <- seq(y0, y1, length.out = length(pal) + 1L)
  if (graphics::par("ylog")) cuts <- 10^cuts
  graphics::rect(x0, drop_last(cuts), x1, cuts[-1L], col = pal, border = NA, xpd = NA)
  graphics::rect(x0, cuts[1L], x1, cuts[length(cuts)], border = "grey30", xpd = NA)
  ticks <- pretty(zlim, n = 4)
  ticks <- ticks[ticks >= zlim[1] & ticks <= zlim[2]]
  at <- y0 + (ticks - zlim[1]) / (zlim[2] - zlim[1]) * (y1 - y0)
  if (graphics::par("ylog")) at <- 10^at
  graphics::segments(x1, at, to_user(inch_x(x1) + 0.05), at, xpd = NA, col = "grey30")
  graphics::text(to_user(inch_x(x1) + 0.07), at, format(ticks), adj = 0, cex = 0.7, xpd = NA)
  graphics::text((x0 + x1) / 2, if (graphics::par("ylog")) 10^y1 else y1, name, pos = 3, cex = 0.75, xpd = NA)
}

drop_last <- function(v) v[-length(v)]

# The geodesic drawn over the covariate range in the covariate's colours (on a
# dark underlay), with an arrowhead towards larger covariate values.
draw_coloured_curve <- function(px, py, z, zlim) {
  n <- length(px)
  graphics::lines(px, py, lwd = 5, col = "grey10")
  mid <- (z[-1L] + z[-n]) / 2
  graphics::segments(px[-n], py[-n], px[-1L], py[-1L], col = covariate_colours(mid, zlim), lwd = 3)
  ok <- which(is.finite(px) & is.finite(py))
  if (length(ok) >= 2L) {
    a <- ok[max(1L, length(ok) - 3L)]
    b <- ok[length(ok)]
    inches <- function(u, v) c(graphics::grconvertX(u, "user", "inches"), graphics::grconvertY(v, "user", "inches"))
    if (sqrt(sum((inches(px[b], py[b]) - inches(px[a], py[a]))^2)) > 0.005)  # else its direction is noise
      graphics::arrows(px[a], py[a], px[b], py[b], length = 0.12, lwd = 2, col = "grey10")
  }
}

# The corner of the current panel holding fewest of the given points.
emptiest_corner <- function(px, py) {
  usr <- graphics::par("usr")  # on a log axis, usr holds log10 limits
  if (graphics::par("xlog")) px <- log10(px)
  if (graphics::par("ylog")) py <- log10(py)
  fx <- (px - usr[1]) / (usr[2] - usr[1])
  fy <- (py - usr[3]) / (usr[4] - usr[3])
  counts <- c(topleft = sum(fx < 0.4 & fy > 0.6, na.rm = TRUE), topright = sum(fx > 0.6 & fy > 0.6, na.rm = TRUE),
              bottomleft = sum(fx < 0.4 & fy < 0.4, na.rm = TRUE), bottomright = sum(fx > 0.6 & fy < 0.4, na.rm = TRUE))
  names(counts)[which.min(counts)]
}

# Values of the first covariate from the footpoint (x = 0) to the nearest end
# of its range, when 0 lies outside it and is the only covariate (NULL otherwise).
footpoint_link <- function(zlim, m) {
  if (m > 1L || (zlim[1] <= 0 && 0 <= zlim[2])) return(NULL)  # m > 1: the footpoint is off the curve
  seq(0, if (zlim[1] > 0) zlim[1] else zlim[2], length.out = 50)
}

# Data, curve, footpoint and legend of a map (sphere, disc) in plane coordinates.
draw_map_layers <- function(ctx, data_xy, curve_xy, curve_z, link_xy, foot_xy, cov, set_xy = NULL) {
  if (ctx$show_data)
    graphics::points(data_xy[, 1], data_xy[, 2], pch = 16, cex = point_size(nrow(data_xy)),
                     col = covariate_colours(cov$z, cov$zlim, if (nrow(data_xy) > 200) 0.6 else 0.85))
  for (xy in set_xy) graphics::lines(xy[, 1], xy[, 2], col = set_colour(), lwd = 1)
  has_set <- length(set_xy) > 0L
  if (!is.null(link_xy)) graphics::lines(link_xy[, 1], link_xy[, 2], lty = 3, lwd = 2, col = "grey10")
  draw_coloured_curve(curve_xy[, 1], curve_xy[, 2], curve_z, cov$zlim)
  graphics::points(foot_xy[1], foot_xy[2], pch = 23, bg = "white", col = "grey10", cex = 1.5, lwd = 2)
  set_x <- unlist(lapply(set_xy, function(xy) xy[, 1]))
  set_y <- unlist(lapply(set_xy, function(xy) xy[, 2]))
  graphics::legend(emptiest_corner(c(if (ctx$show_data) data_xy[, 1], curve_xy[, 1], set_x),
                                   c(if (ctx$show_data) data_xy[, 2], curve_xy[, 2], set_y)),
                   legend = c(if (ctx$show_data) "data", paste(fit_word(ctx$fit), "geodesic"),
                              if (has_set) set_label(ctx$fit), "footpoint (x = 0)"),
                   pch = c(if (ctx$show_data) 16, NA, if (has_set) NA, 23),
                   lty = c(if (ctx$show_data) NA, 1, if (has_set) 1, NA),
                   lwd = c(if (ctx$show_data) NA, 3, if (has_set) 1, 2),
                   col = c(if (ctx$show_data) "grey40", "grey10", if (has_set) set_colour(), "grey10"),
                   pt.bg = "white", bg = grDevices::adjustcolor("white", 0.8), box.col = NA, cex = 0.75, inset = 0.01)
  colour_bar(cov$zlim, cov$name)
}

# ---- sphere S^2 ---------------------------------------------------------------

plot_regression_sphere <- function(ctx, view) {
  fit <- ctx$fit
  cov <- first_covariate(fit)
  curve_z <- seq(cov$zlim[1], cov$zlim[2], length.out = 201)
  link_z <- footpoint_link(cov$zlim, cov$m)
  Y <- as_layout(fit$manifold, fit$data, fit$n)
  Y <- Y / sqrt(rowSums(Y^2))
  curve <- predict_along(fit, curve_z)
  link <- if (is.null(link_z)) NULL else predict_along(fit, link_z)
  foot <- as.double(fit$footpoint)
  set <- set_along(fit, curve_z)
  graphics::par(mar = c(if (view == "lonlat") 4.1 else 2.5, if (view == "lonlat") 4.1 else 1, 3.6, 5))
  if (view == "lonlat") sphere_lonlat(ctx, Y, curve, curve_z, link, foot, cov, set)
  else sphere_orthographic(ctx, Y, curve, curve_z, link, foot, cov, set)
}

lonlat_degrees <- function(P, lon0) {
  P <- matrix(P, ncol = 3)
  lat <- atan2(P[, 3], sqrt(P[, 1]^2 + P[, 2]^2)) * 180 / pi
  lon <- atan2(P[, 2], P[, 1]) * 180 / pi
  lon <- lon0 + ((lon - lon0 + 180) %% 360 - 180)  # unwrapped around lon0
  cbind(lon, lat)
}

# Longitudes in the familiar ranges: [-180, 180], or [0, 360] across the date line.
# The shift is chosen from the paths `from` (all by default) and applied to all.
familiar_longitudes <- function(xy_list, from = seq_along(xy_list)) {
  lon <- unlist(lapply(xy_list[from], function(xy) xy[, 1]))
  shift <- if (min(lon, na.rm = TRUE) < -180) 360 else if (max(lon, na.rm = TRUE) > 360) -360 else 0
  lapply(xy_list, function(xy) if (is.null(xy)) NULL else { xy[, 1] <- xy[, 1] + shift; xy })
}

# Breaks a path where it crosses the seam of the longitude range.
break_seams <- function(xy) {
  jump <- which(abs(diff(xy[, 1])) > 180)
  if (!length(jump)) return(xy)
  rows <- seq_len(nrow(xy))
  idx <- unlist(lapply(rows, function(i) if (i %in% jump) c(i, NA) else i))
  xy[idx, , drop = FALSE]
}

sphere_lonlat <- function(ctx, Y, curve, curve_z, link, foot, cov, set = NULL) {
  lon0 <- atan2(foot[2], foot[1]) * 180 / pi
  lat0 <- asin(max(-1, min(1, foot[3]))) * 180 / pi
  data_xy <- lonlat_degrees(Y, lon0)
  curve_xy <- lonlat_degrees(curve, lon0)
  link_xy <- if (is.null(link)) NULL else break_seams(lonlat_degrees(link, lon0))
  foot_xy <- lonlat_degrees(foot, lon0)
  set_xy <- lapply(set, lonlat_degrees, lon0 = lon0)
  # the longitudes' range follows the release and the data; a set that
  # spans more than 180 degrees of longitude is clipped to their window
  shifted <- familiar_longitudes(c(list(data_xy, curve_xy, link_xy, foot_xy), set_xy), from = 1:4)
  data_xy <- shifted[[1]]
  curve_xy <- shifted[[2]]
  link_xy <- shifted[[3]]
  foot_xy <- shifted[[4]]
  set_xy <- if (is.null(set)) NULL else shifted[-(1:4)]
  set_lon <- unlist(lapply(set_xy, function(xy) xy[, 1]))
  frame_set <- length(set_lon) && diff(range(set_lon)) <= 180
  set_xy <- lapply(set_xy, break_seams)
  open_lonlat(ctx, do.call(rbind, c(list(if (ctx$show_data) data_xy, curve_xy, link_xy, foot_xy), if (frame_set) set_xy)), lat0)
  curve_xy <- break_seams(curve_xy)
  draw_map_layers(ctx, data_xy, curve_xy, seam_z(curve_xy, curve_z), link_xy, foot_xy, cov, set_xy)
  panel_title(ctx, c("longitude and latitude", along_note(cov)))
}

# Opens a longitude-latitude panel holding the rows of `everything` (degrees),
# with the aspect ratio of a map at latitude lat0, and a grid.
open_lonlat <- function(ctx, everything, lat0) {
  open_panel(ctx, list(xlim = range(everything[, 1], na.rm = TRUE), ylim = range(everything[, 2], na.rm = TRUE),
                       asp = 1 / max(0.2, cos(lat0 * pi / 180)), xlab = "longitude (\u00b0)",
                       ylab = "latitude (\u00b0)", las = 1))
  graphics::grid(col = "grey90", lty = 1)
}

# Covariate values matching a path that may have NA rows inserted.
seam_z <- function(xy, z) {
  out <- rep(NA_real_, nrow(xy))
  out[!is.na(xy[, 1])] <- z[seq_len(sum(!is.na(xy[, 1])))]
  out
}

# Orthonormal frame at p: east, north (the direction of the north pole), p.
sphere_frame <- function(p) {
  p <- p / sqrt(sum(p^2))
  north <- c(0, 0, 1) - p[3] * p
  if (sqrt(sum(north^2)) < 1e-8) north <- c(1, 0, 0) - p[1] * p  # at a pole
  north <- north / sqrt(sum(north^2))
  east <- c(north[2] * p[3] - north[3] * p[2], north[3] * p[1] - north[1] * p[3], north[1] * p[2] - north[2] * p[1])
  list(east = east, north = north, centre = p)
}

# Orthographic coordinates; points on the far hemisphere become NA.
orthographic <- function(P, frame) {
  P <- matrix(P, ncol = 3)
  xy <- cbind(P %*% frame$east, P %*% frame$north)
  xy[P %*% frame$centre < 0, ] <- NA
  xy
}

sphere_orthographic <- function(ctx, Y, curve, curve_z, link, foot, cov, set = NULL) {
  frame <- sphere_frame(foot)
  data_xy <- orthographic(Y, frame)
  curve_xy <- orthographic(curve, frame)
  link_xy <- if (is.null(link)) NULL else orthographic(link, frame)
  foot_xy <- c(0, 0)
  set_xy <- if (is.null(set)) NULL else lapply(set, orthographic, frame = frame)
  step <- open_orthographic(ctx, frame, do.call(rbind, c(list(if (ctx$show_data) data_xy, curve_xy, link_xy, foot_xy),
                                                         set_xy)))
  hidden <- sum(is.na(data_xy[, 1]))
  draw_map_layers(ctx, data_xy, curve_xy, curve_z, link_xy, foot_xy, cov, set_xy)
  note <- sprintf("orthographic, centred on the footpoint, north up; parallels every %s\u00b0", format(step))
  if (ctx$show_data && hidden > 0L)
    note <- sprintf("%s; %d point%s on the far side hidden", note, hidden, if (hidden == 1L) "" else "s")
  graphics::mtext(note, side = 1, line = 0.8, cex = 0.7)
  panel_title(ctx, along_note(cov))
}

# Opens an orthographic panel of the sphere in `frame` (sphere_frame()),
# zoomed to the rows of `everything` (plane coordinates, NA on the far side),
# with a graticule and the horizon. Returns the graticule's step (degrees).
open_orthographic <- function(ctx, frame, everything) {
  lims <- apply(everything, 2, range, na.rm = TRUE)
  pad <- 0.06 * max(lims[2, ] - lims[1, ], 0.01)
  lims <- pmin(pmax(lims + c(-pad, pad), -1.02), 1.02)
  half <- max(lims[2, ] - lims[1, ]) / 2
  if (half > 0.7) lims[] <- c(-1.02, 1.02)  # most of the hemisphere: show all of it
  open_panel(ctx, list(xlim = lims[, 1], ylim = lims[, 2], asp = 1, axes = FALSE, xlab = "", ylab = ""))
  step <- graticule_step(half)
  draw_graticule(frame, step, graphics::par("usr")[1:2], graphics::par("usr")[3:4])
  theta <- seq(0, 2 * pi, length.out = 361)
  graphics::lines(cos(theta), sin(theta), col = "grey50")  # the horizon
  graphics::box(col = "grey60")
  step
}

along_note <- function(cov) if (cov$m > 1L) sprintf("curve along %s, other covariates at their means", cov$name)

# Graticule spacing (degrees) for a view of half-width `half` (radians).
graticule_step <- function(half) {
  span <- 2 * half * 180 / pi
  steps <- c(0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30)
  fits <- which(span / steps <= 10)
  if (length(fits)) steps[fits[1]] else 30
}

# Parallels every `step` degrees and meridians spaced alike where the view
# is (wider towards a pole), over the part of the sphere in the window only.
draw_graticule <- function(frame, step, xlim, ylim) {
  rad <- pi / 180
  # the visible part of the sphere, sampled on a grid over the window
  grid <- expand.grid(u = seq(xlim[1], xlim[2], length.out = 61), w = seq(ylim[1], ylim[2], length.out = 61))
  grid <- grid[grid$u^2 + grid$w^2 < 1, ]
  if (!nrow(grid)) return(invisible())
  P <- outer(grid$u, frame$east) + outer(grid$w, frame$north) + outer(sqrt(1 - grid$u^2 - grid$w^2), frame$centre)
  lat <- asin(pmin(1, pmax(-1, P[, 3]))) / rad
  lon0 <- atan2(frame$centre[2], frame$centre[1]) / rad
  lon <- lon0 + ((atan2(P[, 2], P[, 1]) / rad - lon0 + 180) %% 360 - 180)
  pole <- any(abs(lat) > 90 - step)  # a pole (nearly) in view: all longitudes
  lat_range <- c(max(-90, min(lat) - step), min(90, max(lat) + step))
  lon_range <- if (pole) lon0 + c(-180, 180) else c(min(lon) - step, max(lon) + step)
  # meridians at least `step` apart on the ground at the view's highest latitude
  nice <- c(0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 45)
  wide <- which(nice >= step / max(cos(max(abs(lat)) * rad), 1e-3))
  lon_step <- if (length(wide)) nice[wide[1]] else 45
  on_sphere <- function(la, lo) cbind(cos(la * rad) * cos(lo * rad), cos(la * rad) * sin(lo * rad), sin(la * rad))
  lons <- seq(lon_range[1], lon_range[2], length.out = 400)
  for (la in setdiff(seq(ceiling(lat_range[1] / step), floor(lat_range[2] / step)) * step, c(-90, 90)))
    graphics::lines(orthographic(on_sphere(la, lons), frame), col = "grey88")
  lats <- seq(max(lat_range[1], -90 + step), min(lat_range[2], 90 - step), length.out = 400)
  for (lo in seq(ceiling(lon_range[1] / lon_step), floor(lon_range[2] / lon_step)) * lon_step)
    graphics::lines(orthographic(on_sphere(lats, lo), frame), col = "grey88")
}

# ---- hyperbolic plane H^2: the Poincare disc ---------------------------------

poincare <- function(P) {
  P <- matrix(P, ncol = 3)
  P[, 2:3, drop = FALSE] / (1 + P[, 1])
}

plot_regression_disc <- function(ctx) {
  fit <- ctx$fit
  cov <- first_covariate(fit)
  curve_z <- seq(cov$zlim[1], cov$zlim[2], length.out = 201)
  link_z <- footpoint_link(cov$zlim, cov$m)
  graphics::par(mar = c(2.5, 1, 3.6, 5))
  open_poincare(ctx)
  draw_map_layers(ctx, poincare(as_layout(fit$manifold, fit$data, fit$n)), poincare(predict_along(fit, curve_z)),
                  curve_z, if (is.null(link_z)) NULL else poincare(predict_along(fit, link_z)),
                  poincare(fit$footpoint), cov, lapply(set_along(fit, curve_z), poincare))
  graphics::mtext(poincare_note, side = 1, line = 0.8, cex = 0.7)
  panel_title(ctx, along_note(cov))
}

# Opens the Poincare disc with dashed circles at hyperbolic distance 1, 2, 3
# from the origin (Euclidean radius tanh(r/2)).
open_poincare <- function(ctx) {
  open_panel(ctx, list(xlim = c(-1, 1), ylim = c(-1, 1), asp = 1, axes = FALSE, xlab = "", ylab = ""))
  theta <- seq(0, 2 * pi, length.out = 361)
  for (r in 1:3) graphics::lines(tanh(r / 2) * cos(theta), tanh(r / 2) * sin(theta), col = "grey85", lty = 2)
  graphics::lines(cos(theta), sin(theta), col = "grey40")
}

poincare_note <- "Poincar\u00e9 disc; dashed: hyperbolic distance 1, 2, 3 from the origin"

# Rows and columns for n panels: side by side up to 3, then a grid.
panel_grid <- function(n) if (n <= 3L) c(1L, n) else grDevices::n2mfrow(n)

# ---- euclidean ---------------------------------------------------------------------

plot_regression_euclidean <- function(ctx) {
  fit <- ctx$fit
  M <- fit$manifold
  Y <- as_layout(M, fit$data, fit$n)
  fitted <- as_layout(M, fit$fitted.values, fit$n)
  cov <- first_covariate(fit)
  shown <- min(M$d, ctx$max_panels)
  names_y <- colnames(Y) %||% paste0("y", seq_len(M$d))
  graphics::par(mfrow = panel_grid(shown), oma = c(if (shown < M$d) 1.5 else 0, 0, 3.2, 0),
                mar = c(4.1, 4.1, 1, 1), mgp = c(2.6, 0.8, 0))
  foot <- as.double(fit$footpoint)
  slope <- if (cov$m == 1L) as.double(fit$shooting) else NULL
  # the set's lines span the public covariate range (the panel clips them)
  set_z <- fit$set_geodesics$x_range %||% range(cov$z)
  set <- set_along(fit, set_z)
  for (j in seq_len(shown)) {
    if (cov$m == 1L) {
      set_y <- vapply(set, function(P) P[, j], numeric(2))
      open_panel(ctx, list(xlim = range(cov$z), ylim = range(Y[, j], fitted[, j], set_y), xlab = cov$name,
                           ylab = names_y[j], las = 1))
      if (length(set)) graphics::matlines(set_z, set_y, lty = 1, lwd = 1, col = set_colour())
      if (ctx$show_data)
        graphics::points(cov$z, Y[, j], pch = 16, cex = point_size(fit$n), col = grDevices::adjustcolor("grey20", 0.6))
      graphics::abline(a = foot[j], b = slope[j], lwd = 2, col = "firebrick")
      if (length(set) && j == 1L)
        graphics::legend(emptiest_corner(c(if (ctx$show_data) cov$z, rep(set_z, ncol(set_y))),
                                         c(if (ctx$show_data) Y[, j], set_y)),
                         legend = c(paste(fit_word(fit), "line"), set_label(fit)), lty = 1, lwd = c(2, 1),
                         col = c("firebrick", set_colour()), bg = grDevices::adjustcolor("white", 0.8), box.col = NA,
                         cex = 0.75, inset = 0.01)
    } else {
      open_panel(ctx, list(xlim = range(fitted[, j]), ylim = range(Y[, j], fitted[, j]),
                           xlab = sprintf("fitted %s", names_y[j]), ylab = names_y[j], las = 1))
      if (ctx$show_data)
        graphics::points(fitted[, j], Y[, j], pch = 16, cex = point_size(fit$n), col = grDevices::adjustcolor("grey20", 0.6))
      graphics::abline(a = 0, b = 1, lwd = 2, col = "firebrick")
    }
  }
  what <- if (cov$m == 1L) paste(fit_word(fit), "line") else sprintf("observed against fitted (%d covariates), identity line", cov$m)
  outer_title(ctx, sprintf("%s; %s", fit_subtitle(fit), what))
  if (shown < M$d)
    graphics::mtext(sprintf("the first %d of %d coordinates (argument `max_panels`)", shown, M$d),
                    side = 1, outer = TRUE, line = 0.3, cex = 0.75)
}

# ---- kendall shapes ------------------------------------------------------------------

# Centred, unit-size configurations rotated into optimal alignment with the
# preshape `reference` (complex notation: z -> z * conj(a) / |a|, a = <reference, z>).
align_shapes <- function(A, reference) {
  k <- nrow(reference)
  A <- array(A, c(k, 2L, length(A) %/% (2L * k)))
  zr <- complex(real = reference[, 1], imaginary = reference[, 2])
  zr <- zr - mean(zr)
  zr <- zr / sqrt(sum(Mod(zr)^2))
  for (i in seq_len(dim(A)[3])) {
    z <- complex(real = A[, 1, i], imaginary = A[, 2, i])
    z <- z - mean(z)
    z <- z / sqrt(sum(Mod(z)^2))
    a <- sum(Conj(zr) * z)
    if (Mod(a) > 0) z <- z * Conj(a) / Mod(a)
    A[, 1, i] <- Re(z)
    A[, 2, i] <- Im(z)
  }
  A
}

plot_regression_kendall <- function(ctx) {
  fit <- ctx$fit
  k <- fit$manifold$k
  cov <- first_covariate(fit)
  foot <- matrix(fit$footpoint, k, 2L)
  along_z <- seq(cov$zlim[1], cov$zlim[2], length.out = ctx$n_along)
  shapes <- align_shapes(predict_along(fit, along_z), foot)
  data <- if (ctx$show_data) align_shapes(fit$data, foot) else NULL
  xs <- c(shapes[, 1, ], data[, 1, ])
  ys <- c(shapes[, 2, ], data[, 2, ])
  # landmark numbers, outside the mean fitted shape (away from its centroid)
  middle <- apply(shapes, 1:2, mean)
  outward <- sweep(middle, 2, colMeans(middle))
  outward <- outward / sqrt(rowSums(outward^2))
  label_xy <- middle + 0.1 * max(diff(range(xs)), diff(range(ys))) * outward
  xs <- c(xs, label_xy[, 1])
  ys <- c(ys, label_xy[, 2])
  graphics::par(mar = c(2.5, 1, 3.6, 5))
  open_panel(ctx, list(xlim = range(xs), ylim = range(ys), asp = 1, axes = FALSE, xlab = "", ylab = ""))
  graphics::box(col = "grey60")
  if (ctx$show_data)
    graphics::points(data[, 1, ], data[, 2, ], pch = 16, cex = if (fit$n > 200) 0.5 else 0.7,
                     col = covariate_colours(rep(cov$z, each = k), cov$zlim, 0.6))
  cols <- covariate_colours(along_z, cov$zlim)
  for (j in seq_along(along_z)) {
    graphics::polygon(shapes[, 1, j], shapes[, 2, j], border = cols[j], lwd = 2.5)
    graphics::points(shapes[, 1, j], shapes[, 2, j], pch = 21, bg = cols[j], col = "grey10", cex = 0.9)
  }
  graphics::points(label_xy[, 1], label_xy[, 2], pch = 21, col = NA, bg = grDevices::adjustcolor("white", 0.8), cex = 1.8)
  graphics::text(label_xy[, 1], label_xy[, 2], seq_len(k), cex = 0.75, col = "grey20")
  graphics::mtext(sprintf("%s shapes at %d values of %s, aligned to the footpoint%s", fit_word(ctx$fit), ctx$n_along, cov$name,
                          if (ctx$show_data) "; points: data landmarks" else ""),
                  side = 1, line = 0.8, cex = 0.7)
  colour_bar(cov$zlim, cov$name)
  panel_title(ctx, along_note(cov))
}

# ---- spd ------------------------------------------------------------------------------

ellipse_xy <- function(S, n = 121L) {
  e <- eigen((S + t(S)) / 2, symmetric = TRUE)
  theta <- seq(0, 2 * pi, length.out = n)
  t(e$vectors %*% (sqrt(pmax(e$values, 0)) * rbind(cos(theta), sin(theta))))
}

plot_regression_ellipses <- function(ctx) {
  fit <- ctx$fit
  cov <- first_covariate(fit)
  along_z <- seq(cov$zlim[1], cov$zlim[2], length.out = ctx$n_along)
  fitted <- predict_along(fit, along_z)
  Y <- as_layout(fit$manifold, fit$data, fit$n)
  data_el <- if (ctx$show_data) lapply(seq_len(fit$n), function(i) ellipse_xy(Y[, , i])) else list()
  fit_el <- lapply(seq_along(along_z), function(j) ellipse_xy(fitted[, , j]))
  half <- max(abs(unlist(c(data_el, fit_el)))) * 1.04
  labels <- dimnames(Y)[[1]] %||% c("z1", "z2")
  graphics::par(mar = c(5.1, 4.1, 3.6, 5))
  open_panel(ctx, list(xlim = c(-half, half), ylim = c(-half, half), asp = 1, xlab = labels[1], ylab = labels[2],
                       las = 1))
  graphics::abline(h = 0, v = 0, col = "grey90")
  if (ctx$show_data) {
    cols <- covariate_colours(cov$z, cov$zlim, if (fit$n > 100) 0.3 else 0.5)
    for (i in seq_len(fit$n)) graphics::lines(data_el[[i]], col = cols[i], lwd = 0.8)
  }
  cols <- covariate_colours(along_z, cov$zlim)
  for (j in seq_along(along_z)) {
    graphics::lines(fit_el[[j]], col = "white", lwd = 5)
    graphics::lines(fit_el[[j]], col = cols[j], lwd = 2.5)
  }
  colour_bar(cov$zlim, cov$name)
  # plotmath, not Unicode: the pdf() device has no glyph for a superscript -1
  graphics::mtext(bquote("ellipses " * z^T * S^{-1} * z == 1 * .(sprintf(": thick, %s at %d values of %s%s",
                                                                        fit_word(ctx$fit), ctx$n_along, cov$name,
                                                                        if (ctx$show_data) "; thin, data" else ""))),
                  side = 1, line = 3.9, cex = 0.7)
  panel_title(ctx, along_note(cov))
}

# lambda_1 (largest) ... lambda_k (smallest), in plotmath (pdf() has no Greek glyphs).
eigenvalue_labels <- function(k) {
  as.expression(lapply(seq_len(k), function(r) {
    tag <- if (k == 1L) "" else if (r == 1L) " (largest)" else if (r == k) " (smallest)" else ""
    bquote(lambda[.(r)] * .(tag))
  }))
}

plot_regression_eigenvalues <- function(ctx) {
  fit <- ctx$fit
  k <- fit$manifold$k
  cov <- first_covariate(fit)
  curve_z <- seq(cov$zlim[1], cov$zlim[2], length.out = 101)
  sorted_eigen <- function(A) apply(A, 3, function(S) eigen((S + t(S)) / 2, symmetric = TRUE, only.values = TRUE)$values)
  curve_ev <- matrix(sorted_eigen(predict_along(fit, curve_z)), nrow = k)
  data_ev <- if (ctx$show_data) matrix(sorted_eigen(as_layout(fit$manifold, fit$data, fit$n)), nrow = k) else NULL
  positive <- c(curve_ev, data_ev)
  positive <- positive[positive > 0]
  cols <- if (k <= 8L) grDevices::hcl.colors(k, "Dark 3") else grDevices::hcl.colors(k, "viridis")
  graphics::par(mar = c(4.1, 4.6, 3.6, 1))
  ylim <- range(positive)
  if (k <= 8L) ylim[2] <- ylim[2] * (ylim[2] / ylim[1])^0.15  # room for the legend
  open_panel(ctx, list(xlim = cov$zlim, ylim = ylim, log = "y", xlab = cov$name,
                       ylab = "eigenvalues (log scale)", las = 1, yaxt = "n"))
  ticks <- graphics::axTicks(2)
  graphics::axis(2, at = ticks, labels = as.character(signif(ticks, 6)), las = 1)  # 0.05, 20: no padded decimals
  if (ctx$show_data)
    for (r in seq_len(k))
      graphics::points(cov$z, data_ev[r, ], pch = 16, cex = point_size(fit$n),
                       col = grDevices::adjustcolor(cols[r], 0.55))
  for (r in seq_len(k)) graphics::lines(curve_z, curve_ev[r, ], col = cols[r], lwd = 2.5)
  if (k <= 8L)
    graphics::legend("top", horiz = TRUE, legend = eigenvalue_labels(k),
                     col = cols, lwd = 2.5, pch = if (ctx$show_data) 16 else NA, cex = 0.75,
                     bg = grDevices::adjustcolor("white", 0.8), box.col = NA)
  panel_title(ctx, sprintf("lines: eigenvalues along the %s%s%s", if (isTRUE(ctx$fit$private)) "private geodesic" else "fit",
                           if (cov$m > 1L) " (other covariates at their means)" else "",
                           if (ctx$show_data) "; points: the data's" else ""))
}

# ---- other dimensions: tangent coordinates and residuals ---------------------------

plot_regression_tangent <- function(ctx) {
  fit <- ctx$fit
  M <- fit$manifold
  X <- fit$x
  cov <- first_covariate(fit)
  # Coordinate of Log_p(y_i) along the shooting direction: x |v| on the fit.
  along <- NULL
  if (cov$m == 1L) {
    speed <- riem_norm(M, fit$footpoint, fit$shooting)
    if (speed > 0) along <- tryCatch(
      riem_inner(M, fit$footpoint, riem_log(M, fit$footpoint, fit$data), fit$shooting) / speed,
      error = function(e) NULL)
  }
  # without data (a release alone) there are no residuals to draw
  residual_panels <- if (ctx$show_data) ncol(X) else 0L
  panels <- max(1L, min(residual_panels + !is.null(along), ctx$max_panels))
  graphics::par(mfrow = panel_grid(panels),
                oma = c(0, 0, 3.2, 0), mar = c(4.1, 4.6, 1.6, 1), mgp = c(3, 0.8, 0))
  dot_col <- grDevices::adjustcolor("grey20", 0.6)
  if (!is.null(along)) {
    open_panel(ctx, list(xlim = cov$zlim, ylim = range(along, cov$zlim * speed), xlab = cov$name,
                         ylab = "coordinate along v", las = 1))
    if (ctx$show_data) graphics::points(cov$z, along, pch = 16, cex = point_size(fit$n), col = dot_col)
    graphics::abline(a = 0, b = speed, lwd = 2, col = "firebrick")
    graphics::title(main = "Log_p(y) along v; line: the fit", line = 0.4, cex.main = 0.9, font.main = 1)
  }
  if (is.null(along) && !residual_panels) {
    open_panel(ctx, list(xlim = cov$zlim, ylim = c(-1, 1), xlab = cov$name, ylab = "", yaxt = "n"))
    graphics::text(mean(cov$zlim), 0, sprintf("the %s geodesic does not move (v = 0)", fit_word(fit)))
  }
  rms <- sqrt(2 * fit$energy)
  for (j in seq_len(min(residual_panels, panels - !is.null(along)))) {
    name <- colnames(X)[j] %||% sprintf("x%d", j)
    open_panel(ctx, list(xlim = range(X[, j]), ylim = c(0, max(fit$residual_norms, rms)), xlab = name,
                         ylab = "residual norm", las = 1))
    graphics::points(X[, j], fit$residual_norms, pch = 16, cex = point_size(fit$n), col = dot_col)
    graphics::abline(h = rms, lty = 2)
    graphics::title(main = "d(fitted, y); dashed: RMS", line = 0.4, cex.main = 0.9, font.main = 1)
  }
  outer_title(ctx, fit_subtitle(fit))
}
