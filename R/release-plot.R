#' Plot a private Fréchet mean
#'
#' Draws what a release from [dp_frechet_mean()] holds: the private point and
#' the public ball \eqn{B_r(c)}{B_r(c)} the data were confined to, in a picture suited
#' to the manifold (the maps of [plot.riemdp_geodesic_regression()]). The
#' release holds no data: pass them as `data` to draw them with their
#' non-private Fréchet mean, both labelled as not part of the release (the
#' picture then depends on the data, which the release's guarantee does not
#' cover).
#'
#' For the Laplace and Gaussian mechanisms on the sphere, hyperbolic space,
#' Euclidean space and Kendall's shape space, a dashed circle about the
#' release has radius the median of the mechanism's radial law (the law of
#' the distance between a release and the non-private mean, a function of
#' the public \eqn{\sigma}{sigma} only, computed by the trapezoid rule on a fine
#' grid): it holds the non-private mean with probability 1/2. It is not drawn
#' for the K-norm gradient mechanism (its law depends on the data) nor on
#' spd, whose radial law is not one-dimensional.
#'
#' * `manifold_sphere(2)`: an orthographic view centred on the public centre,
#'   north up (`view = "orthographic"`), or longitude against latitude in
#'   degrees (`view = "lonlat"`).
#' * `manifold_hyperbolic(2)`: the Poincaré disc.
#' * `manifold_euclidean(2)`: the plane.
#' * `manifold_spd(2)`: the ellipses \eqn{\{z : z^\top S^{-1} z = 1\}}{\{z : z^T S^(-1) z = 1\}} of
#'   the centre, the release (and the data and their mean). Every matrix of
#'   the ball lies between \eqn{e^{-r}c}{e^(-r)c} and \eqn{e^{r}c}{e^rc} in the Loewner
#'   order, so its ellipse lies in the shaded band between theirs.
#'   Other sizes: the eigenvalues (log scale), each with the band
#'   \eqn{[e^{-r}\lambda_i(c), e^{r}\lambda_i(c)]}{[e^(-r)lambda_i(c), e^r lambda_i(c)]} that holds the
#'   \eqn{i}{i}-th eigenvalue of every matrix of the ball.
#' * `manifold_kendall(k)`: the shapes of the centre and the release
#'   (landmarks joined in their order), rotated into optimal alignment with
#'   the centre. The ball (in Procrustes distance) is given in the subtitle.
#' * Other spheres, hyperbolic and Euclidean spaces: the coordinates of the
#'   points one per row, in an orthonormal basis of the tangent space at the
#'   centre (the coordinates of \eqn{Log_c(x)}{Log_c(x)}; on Euclidean space the
#'   coordinates themselves), each with the interval the ball spans.
#'
#' Only the margins are changed (and restored on exit), so the picture fits
#' in a layout set up by the user.
#'
#' @param x A release from [dp_frechet_mean()].
#' @param data Optional data, in the manifold's layout: the points (owned by
#'   the user) to draw with their non-private Fréchet mean. Not part of the
#'   release.
#' @param view Sphere of dimension 2 only: `"orthographic"` or `"lonlat"`.
#' @param show_noise Logical: draw the median-distance circle (where available)?
#' @param set `NULL`, or a confidence set of the release from
#'   [confint()][confint.riemdp_frechet_release]: drawn instead of the
#'   median-distance circle.
#' @param main Title; `NULL` for one naming the manifold. A line under it
#'   gives the mechanism, its budget, \eqn{\sigma}{sigma}, \eqn{n}{n} and the radius.
#' @param ... Further graphical parameters for [graphics::plot.default()]
#'   when the panel is opened (for example `xlim`, `ylim`, `cex.main`).
#' @return `x`, invisibly.
#' @seealso [dp_frechet_mean()], [plot.riemdp_geodesic_regression()]
#' @examples
#' S2 <- manifold_sphere(2)
#' north <- c(0, 0, 1)
#' set.seed(1)
#' X <- riem_rgaussian(S2, 100, north, 0.1)
#' X <- X[riem_dist(S2, north, X) < pi / 8, ]
#' rel <- dp_frechet_mean(S2, X, epsilon = 1, radius = pi / 8, center = north)
#' plot(rel)
#' plot(rel, data = X)   # the data and their mean: not part of the release
#' plot(rel, data = X, view = "lonlat")
#' plot(rel, set = confint(rel, dispersion = 0.1))   # a 95% confidence ball
#'
#' # SPD matrices: the ellipses of the ball lie in the shaded band
#' C <- apply(eustock_cov[1:2, 1:2, ], 1:2, mean)
#' rel2 <- dp_frechet_mean(manifold_spd(2), eustock_cov[1:2, 1:2, ], epsilon = 1,
#'                         radius = 2, center = C, outside = "clip")
#' plot(rel2)
#' @export
plot.riemdp_frechet_release <- function(x, data = NULL, view = c("orthographic", "lonlat"), show_noise = TRUE,
                                        main = NULL, set = NULL, ...) {
  call <- sys.call()
  view <- arg_match(view, c("orthographic", "lonlat"), "view", call)
  check_flag(show_noise, "show_noise", call)
  if (!inherits(x, "riemdp_frechet_release") || is.null(x$manifold) || is.null(x$estimate) || is.null(x$center))
    abort("`x` must be a release from dp_frechet_mean()", call)
  if (!is.null(set) && !(inherits(set, "riemdp_confset") && isTRUE(all.equal(as.vector(set$center), as.vector(x$estimate)))))
    abort("`set` must be NULL or a confidence set of this release, confint(x, ...)", call)
  M <- x$manifold
  ctx <- list(rel = x, M = M, main = main %||% sprintf("Private Fr\u00e9chet mean on %s", manifold_label(M)),
              subtitle = release_subtitle(x), dots = named_dots(list(...)), show_data = !is.null(data),
              noise = if (!is.null(set)) set$radius else if (show_noise) release_noise_radius(x) else NULL,
              noise_label = if (!is.null(set)) sprintf("%s%% confidence ball, radius", format(100 * set$level))
                            else "median noise distance")
  if (ctx$show_data) {
    S <- as_points(M, data, "data", call)
    ctx$data <- as_layout(M, from_values(M, S$x, S$n, FALSE, data), S$n)
    ctx$n_data <- S$n
    ctx$mean <- frechet_mean(M, ctx$data)$estimate
  }
  old_par <- graphics::par(no.readonly = TRUE)["mar"]
  on.exit(graphics::par(old_par))
  two <- M$type %in% c("sphere", "hyperbolic", "euclidean") && M$d == 2L
  if (M$type == "sphere" && two) release_sphere(ctx, view)
  else if (M$type == "hyperbolic" && two) release_disc(ctx)
  else if (M$type == "euclidean" && two) release_plane(ctx)
  else if (M$type == "kendall") release_kendall(ctx)
  else if (M$type == "spd" && M$k == 2L) release_ellipses(ctx)
  else if (M$type == "spd") release_eigenvalues(ctx)
  else release_coordinates(ctx)
  invisible(x)
}

# Only named `...` reach the panel.
named_dots <- function(dots) dots[nzchar(names(dots) %||% rep("", length(dots)))]

release_subtitle <- function(x) {
  budget <- if (identical(x$guarantee, "mu-GDP"))
    sprintf("mu = %s", if (is.na(x$mu)) "not computed" else format_guarantee(x$mu, 3))
  else sprintf("epsilon = %s", format_guarantee(x$epsilon, 3))
  mech <- switch(x$mechanism, laplace = "Laplace", kng = "KNG", gaussian = "Gaussian", x$mechanism)
  sprintf("%s, %s; sigma = %s, n = %d, radius %s", mech, budget, format(x$sigma, digits = 3), x$n,
          format(x$radius, digits = 3))
}

# ---- the noise scale: the median of the mechanism's radial law ------------------

# Median distance between a release and the non-private mean under the
# Laplace (exp(-r/sigma)) or Gaussian (exp(-r^2/(2 sigma^2))) law, with the
# area of geodesic spheres A(r) (article "Methods and corrections", section "Samplers"): r^(d-1), sin^(d-1) r on [0, pi],
# sinh^(d-1) r, sin^(2m-1) r cos r on [0, pi/2] (kendall, m = k - 2).
# Public: sigma and the manifold only. NULL for KNG and spd.
release_noise_radius <- function(x) {
  M <- x$manifold
  if (!x$mechanism %in% c("laplace", "gaussian") || M$type == "spd" || !is.finite(x$sigma)) return(NULL)
  radial_median(M, x$mechanism, x$sigma)
}

radial_median <- function(M, kernel, sigma) {
  d <- M$dim
  # sigma far below the curvature scale: the law is flat to O(sigma^2) (and
  # the grid below would underflow)
  if (M$type == "euclidean" || (M$type == "hyperbolic" && d == 1L) || sigma < 1e-6)
    return(if (kernel == "laplace") stats::qgamma(0.5, shape = d, scale = sigma)
           else sigma * sqrt(stats::qchisq(0.5, df = d)))
  radial_law_quantile(radial_law_grid(M, kernel, sigma), 0.5)  # R/confint.R
}

# ---- shared styles ------------------------------------------------------------

release_style <- list(ball_fill = grDevices::adjustcolor("steelblue", 0.15), ball = "steelblue4",
                      release = "firebrick", data = grDevices::adjustcolor("grey30", 0.45), mean = "black")

# Legend of a release picture: the public parts, then (when drawn) the data.
# `as_lines`: the centre, release and mean are drawn as shapes (lines).
release_legend <- function(ctx, where, ball_label, as_lines = FALSE, noise = !is.null(ctx$noise),
                           centre_line = as_lines) {
  st <- release_style
  items <- list(
    list(label = ball_label, pch = 22, lty = NA, lwd = NA, col = st$ball, bg = st$ball_fill, cex = 1.8),
    list(label = "public centre", pch = if (centre_line) NA else 3, lty = if (centre_line) 2 else NA,
         lwd = if (centre_line) 1.5 else NA, col = st$ball, bg = NA, cex = 1.1),
    list(label = "private release", pch = 21, lty = if (as_lines) 1 else NA, lwd = if (as_lines) 2.5 else NA,
         col = if (as_lines) st$release else "grey10", bg = st$release, cex = if (as_lines) 0.9 else 1.4))
  if (noise)
    items <- c(items, list(list(label = sprintf("%s (%s)", ctx$noise_label, format(ctx$noise, digits = 3)),
                                pch = NA, lty = 2, lwd = 1.5, col = st$release, bg = NA, cex = 1)))
  if (ctx$show_data)
    items <- c(items, list(
      list(label = "data (not released)", pch = 16, lty = NA, lwd = NA, col = st$data, bg = NA, cex = 0.9),
      list(label = "non-private mean (not released)", pch = 23, lty = if (as_lines) 3 else NA,
           lwd = if (as_lines) 2 else NA, col = st$mean, bg = "white", cex = 1.2)))
  get <- function(f) unlist(lapply(items, function(i) i[[f]]))
  pt_bg <- get("bg")
  pt_bg[is.na(pt_bg)] <- "white"
  graphics::legend(where, legend = get("label"), pch = get("pch"), lty = get("lty"), lwd = get("lwd"),
                   col = get("col"), pt.bg = pt_bg, pt.cex = get("cex"), bg = grDevices::adjustcolor("white", 0.8),
                   box.col = NA, cex = 0.75, inset = 0.01)
}

# Points at distance s from p along the geodesics leaving p (s capped so that
# the hyperboloid's coordinates stay finite).
geodesic_circle <- function(M, p, s, n = 181L) {
  P <- as_points(M, p, "p")
  B <- geom_tangent_basis(M, P)
  theta <- seq(0, 2 * pi, length.out = n)
  if (M$type == "hyperbolic") s <- min(s, 30)
  V <- min(s, M$inj) * (outer(cos(theta), B[, 1]) + outer(sin(theta), B[, 2]))
  riem_exp(M, p, V)
}

# Data, centre, mean, release and noise circle of a map, in plane coordinates
# (`to_xy` maps points of the manifold; the ball is already drawn).
draw_release_layers <- function(ctx, to_xy) {
  st <- release_style
  rel <- ctx$rel
  if (ctx$show_data) {
    xy <- to_xy(ctx$data)
    graphics::points(xy[, 1], xy[, 2], pch = 16, cex = point_size(nrow(xy)), col = st$data)
  }
  c_xy <- to_xy(rel$center)
  graphics::points(c_xy[1], c_xy[2], pch = 3, col = st$ball, cex = 1.1, lwd = 1.5)
  if (!is.null(ctx$noise)) {
    xy <- to_xy(geodesic_circle(ctx$M, rel$estimate, ctx$noise))
    graphics::lines(xy[, 1], xy[, 2], lty = 2, lwd = 1.5, col = st$release)
  }
  if (ctx$show_data) {
    m_xy <- to_xy(ctx$mean)
    graphics::points(m_xy[1], m_xy[2], pch = 23, bg = "white", col = st$mean, cex = 1.4, lwd = 2)
  }
  e_xy <- to_xy(rel$estimate)
  graphics::points(e_xy[1], e_xy[2], pch = 21, bg = st$release, col = "grey10", cex = 1.6, lwd = 1.5)
}

# Everything a map shows, in plane coordinates (for the limits and the legend).
release_extent <- function(ctx, to_xy, ball_xy) {
  rel <- ctx$rel
  rbind(ball_xy, to_xy(rel$estimate), to_xy(rel$center),
        if (!is.null(ctx$noise)) to_xy(geodesic_circle(ctx$M, rel$estimate, ctx$noise)),
        if (ctx$show_data) to_xy(ctx$data), if (ctx$show_data) to_xy(ctx$mean))
}

# The data are labelled "not released" in the legends; the subtitle says
# nothing more, to stay on one line.
data_note <- function(ctx) NULL

ball_label <- function(x) sprintf("public ball, radius %s", format(x$radius, digits = 3))

# ---- sphere S^2, hyperbolic plane, Euclidean plane --------------------------------

release_sphere <- function(ctx, view) {
  rel <- ctx$rel
  M <- ctx$M
  centre <- as.double(rel$center)
  ball <- geodesic_circle(M, centre, rel$radius)
  graphics::par(mar = c(if (view == "lonlat") 4.1 else 2.5, if (view == "lonlat") 4.1 else 1, 3.6, 1))
  if (view == "lonlat") {
    lon0 <- atan2(centre[2], centre[1]) * 180 / pi
    # one shift into the familiar longitude range for every layer
    shift <- familiar_longitudes(list(lonlat_degrees(rbind(ball, rel$estimate, if (ctx$show_data) ctx$data), lon0)))
    shift <- shift[[1]][1, 1] - lonlat_degrees(ball, lon0)[1, 1]
    to_xy <- function(P) {
      xy <- lonlat_degrees(P, lon0)
      xy[, 1] <- xy[, 1] + shift
      break_seams(xy)
    }
    ball_xy <- to_xy(ball)
    # a ball around a pole is a cap above a parallel-like curve: close it
    # through the pole along the edges of the longitude range
    pole <- if (centre[3] > cos(rel$radius)) 90 else if (-centre[3] > cos(rel$radius)) -90
    if (!is.null(pole)) {
      xy <- ball_xy[!is.na(ball_xy[, 1]), , drop = FALSE]
      xy <- xy[order(xy[, 1]), , drop = FALSE]
      ball_xy <- rbind(xy, c(xy[nrow(xy), 1], pole), c(xy[1, 1], pole))
    }
    open_lonlat(ctx, release_extent(ctx, to_xy, ball_xy), asin(max(-1, min(1, centre[3]))) * 180 / pi)
    note <- NULL
  } else {
    frame <- sphere_frame(centre)
    to_xy <- function(P) orthographic(P, frame)
    ball_xy <- to_xy(ball)
    step <- open_orthographic(ctx, frame, release_extent(ctx, to_xy, ball_xy))
    graphics::mtext(sprintf("orthographic, centred on the public centre, north up; parallels every %s\u00b0",
                            format(step)), side = 1, line = 0.8, cex = 0.7)
    note <- NULL
  }
  graphics::polygon(ball_xy[, 1], ball_xy[, 2], col = release_style$ball_fill, border = release_style$ball, lwd = 1.5)
  draw_release_layers(ctx, to_xy)
  ext <- release_extent(ctx, to_xy, ball_xy)
  release_legend(ctx, emptiest_corner(ext[, 1], ext[, 2]), ball_label(rel))
  panel_title(ctx, c(note, data_note(ctx)))
}

release_disc <- function(ctx) {
  rel <- ctx$rel
  graphics::par(mar = c(2.5, 1, 3.6, 1))
  open_poincare(ctx)
  ball_xy <- poincare(geodesic_circle(ctx$M, rel$center, rel$radius))
  graphics::polygon(ball_xy[, 1], ball_xy[, 2], col = release_style$ball_fill, border = release_style$ball, lwd = 1.5)
  draw_release_layers(ctx, poincare)
  ext <- release_extent(ctx, poincare, ball_xy)
  release_legend(ctx, emptiest_corner(ext[, 1], ext[, 2]), ball_label(rel))
  graphics::mtext(poincare_note, side = 1, line = 0.8, cex = 0.7)
  panel_title(ctx, data_note(ctx))
}

release_plane <- function(ctx) {
  rel <- ctx$rel
  to_xy <- function(P) matrix(P, ncol = 2L)
  ball_xy <- to_xy(geodesic_circle(ctx$M, rel$center, rel$radius))
  ext <- release_extent(ctx, to_xy, ball_xy)
  labels <- colnames(ctx$data) %||% names(rel$center) %||% c("x1", "x2")
  graphics::par(mar = c(4.1, 4.1, 3.6, 1))
  open_panel(ctx, list(xlim = range(ext[, 1]), ylim = range(ext[, 2]), asp = 1, xlab = labels[1],
                       ylab = labels[2], las = 1))
  graphics::polygon(ball_xy[, 1], ball_xy[, 2], col = release_style$ball_fill, border = release_style$ball, lwd = 1.5)
  draw_release_layers(ctx, to_xy)
  release_legend(ctx, emptiest_corner(ext[, 1], ext[, 2]), ball_label(rel))
  panel_title(ctx, data_note(ctx))
}

# ---- other dimensions: coordinates in the tangent space at the centre -------------

release_max_coordinates <- 20L

release_coordinates <- function(ctx) {
  rel <- ctx$rel
  M <- ctx$M
  st <- release_style
  centre <- as.double(rel$center)
  flat <- M$type == "euclidean"
  if (flat) {
    coords <- function(P) matrix(P, ncol = M$ambient)
    lo <- centre - rel$radius
    hi <- centre + rel$radius
  } else {
    B <- geom_tangent_basis(M, as_points(M, centre, "center"))
    coords <- function(P) {
      V <- matrix(riem_log(M, centre, P), ncol = M$ambient)
      vapply(seq_len(ncol(B)), function(j) riem_inner(M, centre, B[, j], V), numeric(nrow(V)))
    }
    lo <- rep(-rel$radius, M$dim)
    hi <- rep(rel$radius, M$dim)
  }
  d <- min(M$dim, release_max_coordinates)
  keep <- seq_len(d)
  as_rows <- function(P) matrix(coords(P), ncol = M$dim)[, keep, drop = FALSE]
  est <- as_rows(rel$estimate)
  cen <- if (flat) matrix(centre[keep], 1L) else matrix(0, 1L, d)
  dat <- if (ctx$show_data) as_rows(ctx$data)
  mn <- if (ctx$show_data) as_rows(ctx$mean)
  xlim <- range(lo[keep], hi[keep], est, dat, mn)
  y <- rev(keep)  # coordinate 1 on top
  names_y <- if (flat) colnames(ctx$data) %||% names(rel$center) %||% paste0("x", keep) else paste0("e", keep)
  graphics::par(mar = c(4.1, 4.1, 3.6, 1))
  open_panel(ctx, list(xlim = xlim, ylim = c(0.4, d + 0.6 + 0.12 * d + 0.8), xlab = if (flat) "value"
                       else "coordinate of Log_c(x) in an orthonormal basis at the centre c",
                       ylab = "", yaxt = "n", las = 1))
  graphics::axis(2, at = y, labels = names_y[keep], las = 1)
  graphics::rect(lo[keep], y - 0.3, hi[keep], y + 0.3, col = st$ball_fill, border = st$ball)
  if (ctx$show_data) {
    offset <- ((seq_len(nrow(dat)) %% 9L) - 4L) * 0.05  # a fixed spread (no random jitter)
    for (j in keep) graphics::points(dat[, j], y[j] + offset, pch = 16, cex = point_size(nrow(dat)), col = st$data)
    graphics::points(mn, y, pch = 23, bg = "white", col = st$mean, cex = 1.4, lwd = 2)
  }
  graphics::points(cen, y, pch = 3, col = st$ball, cex = 1.1, lwd = 1.5)
  graphics::points(est, y, pch = 21, bg = st$release, col = "grey10", cex = 1.6, lwd = 1.5)
  release_legend(ctx, "top", sprintf("the ball's range (radius %s)", format(rel$radius, digits = 3)), noise = FALSE)
  note <- c(if (!is.null(ctx$noise)) sprintf("%s %s", ctx$noise_label, format(ctx$noise, digits = 3)),
            if (d < M$dim) sprintf("first %d of %d coordinates", d, M$dim), data_note(ctx))
  panel_title(ctx, note)
}

# ---- kendall shapes ------------------------------------------------------------------

release_kendall <- function(ctx) {
  rel <- ctx$rel
  st <- release_style
  k <- ctx$M$k
  centre <- matrix(rel$center, k, 2L)
  align <- function(A) align_shapes(A, centre)
  cen <- align(centre)[, , 1]
  est <- align(rel$estimate)[, , 1]
  dat <- if (ctx$show_data) align(ctx$data)
  mn <- if (ctx$show_data) align(ctx$mean)[, , 1]
  xs <- c(cen[, 1], est[, 1], dat[, 1, ], mn[, 1])
  ys <- c(cen[, 2], est[, 2], dat[, 2, ], mn[, 2])
  outward <- sweep(est, 2, colMeans(est))
  outward <- outward / pmax(sqrt(rowSums(outward^2)), 1e-12)
  label_xy <- est + 0.1 * max(diff(range(xs)), diff(range(ys))) * outward
  graphics::par(mar = c(2.5, 1, 3.6, 1))
  open_panel(ctx, list(xlim = range(xs, label_xy[, 1]), ylim = range(ys, label_xy[, 2]), asp = 1, axes = FALSE,
                       xlab = "", ylab = ""))
  graphics::box(col = "grey60")
  if (ctx$show_data) {
    graphics::points(dat[, 1, ], dat[, 2, ], pch = 16, cex = 0.6, col = st$data)
    graphics::polygon(mn[, 1], mn[, 2], border = st$mean, lty = 3, lwd = 2)
    graphics::points(mn[, 1], mn[, 2], pch = 23, bg = "white", col = st$mean, cex = 0.9)
  }
  graphics::polygon(cen[, 1], cen[, 2], border = st$ball, lty = 2, lwd = 1.5)
  graphics::polygon(est[, 1], est[, 2], border = st$release, lwd = 2.5)
  graphics::points(est[, 1], est[, 2], pch = 21, bg = st$release, col = "grey10", cex = 0.9)
  graphics::text(label_xy[, 1], label_xy[, 2], seq_len(k), cex = 0.75, col = "grey20")
  graphics::mtext(sprintf("shapes aligned to the public centre; the ball (radius %s in Procrustes distance) is not drawn",
                          format(rel$radius, digits = 3)), side = 1, line = 0.8, cex = 0.7)
  release_legend_shapes(ctx, emptiest_corner(xs, ys))
  panel_title(ctx, c(if (!is.null(ctx$noise)) sprintf("%s %s", ctx$noise_label, format(ctx$noise, digits = 3)),
                     data_note(ctx)))
}

# Legend of the pictures that draw shapes and ellipses (centre, release and
# mean as lines; `band`: the shaded band of the spd ball).
release_legend_shapes <- function(ctx, where, band = NULL) {
  st <- release_style
  lab <- c(band, "public centre", "private release", if (ctx$show_data) c("data (not released)", "non-private mean (not released)"))
  graphics::legend(where, legend = lab,
                   fill = c(if (!is.null(band)) st$ball_fill, rep(NA, length(lab) - length(band))),
                   border = c(if (!is.null(band)) st$ball, rep(NA, length(lab) - length(band))),
                   lty = c(if (!is.null(band)) NA, 2, 1, if (ctx$show_data) c(1, 3)),
                   lwd = c(if (!is.null(band)) NA, 1.5, 2.5, if (ctx$show_data) c(1, 2)),
                   col = c(if (!is.null(band)) NA, st$ball, st$release, if (ctx$show_data) c(st$data, st$mean)),
                   bg = grDevices::adjustcolor("white", 0.8), box.col = NA, cex = 0.75, inset = 0.01)
}

# ---- spd --------------------------------------------------------------------------------

release_ellipses <- function(ctx) {
  rel <- ctx$rel
  st <- release_style
  centre <- matrix(rel$center, 2L, 2L)
  outer_el <- ellipse_xy(exp(rel$radius) * centre)
  inner_el <- ellipse_xy(exp(-rel$radius) * centre)
  data_el <- if (ctx$show_data) lapply(seq_len(ctx$n_data), function(i) ellipse_xy(ctx$data[, , i])) else list()
  mean_el <- if (ctx$show_data) ellipse_xy(ctx$mean)
  est_el <- ellipse_xy(matrix(rel$estimate, 2L, 2L))
  half <- max(abs(unlist(c(list(outer_el, est_el, mean_el), data_el)))) * 1.04
  labels <- dimnames(rel$center)[[1]] %||% c("z1", "z2")
  graphics::par(mar = c(5.1, 4.1, 3.6, 1))
  open_panel(ctx, list(xlim = c(-half, half), ylim = c(-half, half), asp = 1, xlab = labels[1], ylab = labels[2],
                       las = 1))
  graphics::polygon(outer_el, col = st$ball_fill, border = st$ball)
  graphics::polygon(inner_el, col = "white", border = st$ball)
  graphics::abline(h = 0, v = 0, col = "grey90")
  if (ctx$show_data) {
    for (el in data_el) graphics::lines(el, col = st$data, lwd = 0.8)
    graphics::lines(mean_el, col = st$mean, lty = 3, lwd = 2)
  }
  graphics::lines(ellipse_xy(centre), col = st$ball, lty = 2, lwd = 1.5)
  graphics::lines(est_el, col = "white", lwd = 5)
  graphics::lines(est_el, col = st$release, lwd = 2.5)
  release_legend_shapes(ctx, "topright", band = sprintf("public ball, radius %s", format(rel$radius, digits = 3)))
  # plotmath: the pdf() device has no glyph for a superscript -1
  graphics::mtext(bquote("ellipses " * z^T * S^{-1} * z == 1 * "; every matrix of the ball has its ellipse in the band"),
                  side = 1, line = 3.9, cex = 0.7)
  panel_title(ctx, data_note(ctx))
}

release_eigenvalues <- function(ctx) {
  rel <- ctx$rel
  st <- release_style
  k <- ctx$M$k
  ev <- function(S) eigen((S + t(S)) / 2, symmetric = TRUE, only.values = TRUE)$values
  cen <- ev(matrix(rel$center, k, k))
  est <- ev(matrix(rel$estimate, k, k))
  dat <- if (ctx$show_data) matrix(apply(array(ctx$data, c(k, k, ctx$n_data)), 3, ev), nrow = k)
  mn <- if (ctx$show_data) ev(matrix(ctx$mean, k, k))
  lo <- exp(-rel$radius) * cen
  hi <- exp(rel$radius) * cen
  vals <- c(lo, hi, est, dat, mn)
  vals <- vals[vals > 0]
  ylim <- range(vals)
  ylim[2] <- ylim[2] * (ylim[2] / ylim[1])^0.35  # room for the legend
  graphics::par(mar = c(4.1, 4.6, 3.6, 1))
  open_panel(ctx, list(xlim = c(0.5, k + 0.5), ylim = ylim, log = "y", xlab = "eigenvalue (largest first)",
                       ylab = "eigenvalue (log scale)", xaxt = "n", yaxt = "n", las = 1))
  graphics::axis(1, at = seq_len(k), labels = eigenvalue_labels(k))
  ticks <- graphics::axTicks(2)
  graphics::axis(2, at = ticks, labels = as.character(signif(ticks, 6)), las = 1)
  graphics::rect(seq_len(k) - 0.3, lo, seq_len(k) + 0.3, hi, col = st$ball_fill, border = st$ball)
  if (ctx$show_data) {
    offset <- ((seq_len(ctx$n_data) %% 9L) - 4L) * 0.04  # a fixed spread (no random jitter)
    for (i in seq_len(k)) graphics::points(i + offset, dat[i, ], pch = 16, cex = point_size(ctx$n_data), col = st$data)
    graphics::points(seq_len(k), mn, pch = 23, bg = "white", col = st$mean, cex = 1.4, lwd = 2)
  }
  graphics::segments(seq_len(k) - 0.3, cen, seq_len(k) + 0.3, cen, col = st$ball, lty = 2, lwd = 1.5)
  graphics::points(seq_len(k), est, pch = 21, bg = st$release, col = "grey10", cex = 1.6, lwd = 1.5)
  release_legend(ctx, "top", sprintf("range over the ball (radius %s)", format(rel$radius, digits = 3)),
                 noise = FALSE, centre_line = TRUE)
  panel_title(ctx, data_note(ctx))
}

# ---- private linear regression --------------------------------------------------------

#' Plot a private linear regression
#'
#' Draws what a release from [dp_linear_regression()] holds: the private
#' coefficients in the public domain they were drawn from. The left panel
#' gives the coefficients in the mechanism's units, the fit at the lower
#' corner of the predictors' ranges and the change of the fitted response
#' across each range, each with the public box \eqn{[-\beta_{max}, \beta_{max}]}{[-beta_max, beta_max]}.
#' With one predictor, the right panel draws the private line over the public
#' range `x_range`, between the dashed limits \eqn{\pm\beta_{max}(1 + u)}{+/-beta_max(1 + u)}
#' (\eqn{u}{u} the predictor mapped to \eqn{[0, 1]}{[0, 1]}) that bound every line of
#' the domain.
#'
#' The release holds no data: pass them as `data` to draw them too (the
#' picture then depends on the data, which the release's guarantee does not
#' cover), with the non-private least-squares fit ([stats::lm()]), labelled as
#' not part of the release: the points and both lines (one predictor), or the
#' observed response against its private fitted values with the identity line
#' (several predictors).
#'
#' @param x A release from [dp_linear_regression()].
#' @param data Optional data frame with the response and the predictors of
#'   the release's formula.
#' @param set `NULL`, or intervals of the release's coefficients from
#'   [confint()][confint.riemdp_linear_release] (all or some of them): drawn
#'   as segments on the left panel, a slope's interval times its range on
#'   the row of the change across that range. The fit at the lower corner
#'   is a combination of all the coefficients, so its row gets the
#'   intercept's interval only where the lower corner is 0 (every range
#'   starts at 0).
#' @param main Title; `NULL` for a default. A line under it gives
#'   \eqn{\epsilon}{epsilon}, \eqn{n}{n}, \eqn{\tau}{tau} and \eqn{\beta_{max}}{beta_max}.
#' @param ... Further graphical parameters for [graphics::plot.default()]
#'   when each panel is opened (for example `cex.main`).
#' @return `x`, invisibly.
#' @seealso [dp_linear_regression()]
#' @examples
#' set.seed(1)
#' rel <- dp_linear_regression(dist ~ speed, cars, epsilon = 1, tau = 30,
#'                             x_range = c(0, 30), beta_max = 200,
#'                             control = mcmc_control(n_iter = 1000, burn_in = 1000))
#' plot(rel)
#' plot(rel, data = cars)   # the data and lm(): not part of the release
#' # with 95% intervals (residual sd stated publicly: no budget spent)
#' plot(rel, set = confint(rel, moments = list(sd = 20), B = 200))
#' @export
plot.riemdp_linear_release <- function(x, data = NULL, main = NULL, set = NULL, ...) {
  call <- sys.call()
  if (!inherits(x, "riemdp_linear_release") || is.null(x$coefficients) || is.null(x$x_range))
    abort("`x` must be a release from dp_linear_regression()", call)
  if (!is.null(data) && !is.data.frame(data)) abort("`data` must be a data frame with the variables of the release's formula", call)
  R <- x$x_range
  m <- ncol(R)
  beta <- as.double(x$coefficients)
  width <- R[2L, ] - R[1L, ]
  seg <- if (!is.null(set)) linear_set_segments(set, x, width, call)
  # the mechanism's units: fit at the lower corner, change across each range
  # (na.rm: lm() has no coefficient for the dummy of an unused level)
  to_unit <- function(b) c(b[1L] + sum(b[-1L] * R[1L, ], na.rm = TRUE), b[-1L] * width)
  theta <- to_unit(beta)
  obs <- if (!is.null(data)) linear_release_data(x, data, call, parent.frame())
  ls_theta <- if (!is.null(obs)) to_unit(obs$ls)
  ctx <- list(main = main %||% sprintf("Private linear regression (n = %d)", x$n), dots = named_dots(list(...)),
              subtitle = sprintf("epsilon = %s, n = %d, tau = %s, beta_max = %s", format_guarantee(x$epsilon, 3), x$n,
                                 format(x$tau, digits = 3), format(x$beta_max, digits = 3)))
  panels <- if (m == 1L || !is.null(obs)) 2L else 1L
  old_par <- graphics::par(no.readonly = TRUE)[c("mfrow", "oma", "mar", "mgp")]
  on.exit(graphics::par(old_par))
  graphics::par(mfrow = c(1L, panels), oma = c(0, 0, 3.2, 0), mar = c(4.1, 4.1, 2, 1), mgp = c(2.6, 0.8, 0))
  st <- release_style
  # coefficients in the public box
  B <- x$beta_max
  names_y <- c("fit at lower corner", sprintf("change across %s", colnames(R)))
  y <- rev(seq_along(theta))
  open_panel(ctx, list(xlim = range(-B, B, theta, ls_theta, seg$lower, seg$upper, na.rm = TRUE),
                       ylim = c(0.4, length(theta) + 0.6 + if (is.null(obs) && is.null(seg)) 0.6
                                                           else if (is.null(obs) || is.null(seg)) 1 else 1.5),
                       xlab = "response units", ylab = "", yaxt = "n", las = 1))
  graphics::axis(2, at = y, labels = FALSE)
  graphics::text(graphics::par("usr")[1], y + 0.42, names_y, adj = c(0, 0.5), cex = 0.75, col = "grey20")
  graphics::rect(-B, y - 0.25, B, y + 0.25, col = st$ball_fill, border = st$ball)
  graphics::abline(v = 0, col = "grey85")
  if (!is.null(seg)) graphics::segments(seg$lower, y[seg$row], seg$upper, y[seg$row], lwd = 3, col = "grey35", lend = 1)
  if (!is.null(obs)) graphics::points(ls_theta, y, pch = 23, bg = "white", col = st$mean, cex = 1.4, lwd = 2)
  graphics::points(theta, y, pch = 21, bg = st$release, col = "grey10", cex = 1.6, lwd = 1.5)
  has_set <- !is.null(seg)
  two_rows <- has_set && !is.null(obs)
  graphics::legend("top", horiz = !two_rows, ncol = if (two_rows) 2L else 1L,
                   legend = c("public box", "private", if (has_set) seg$label,
                                                   if (!is.null(obs)) "lm() (not released)"),
                   pch = c(22, 21, if (has_set) NA, if (!is.null(obs)) 23), lty = c(NA, NA, if (has_set) 1, if (!is.null(obs)) NA),
                   lwd = c(NA, NA, if (has_set) 3, if (!is.null(obs)) NA),
                   col = c(st$ball, "grey10", if (has_set) "grey35", if (!is.null(obs)) st$mean),
                   pt.bg = c(st$ball_fill, st$release, if (has_set) NA, if (!is.null(obs)) "white"),
                   pt.cex = c(1.8, 1.3, if (has_set) 1, if (!is.null(obs)) 1.2),
                   bg = grDevices::adjustcolor("white", 0.8), box.col = NA, cex = 0.75)
  graphics::title(main = "coefficients on the public domain", line = 0.5, cex.main = 0.9, font.main = 1)
  if (m == 1L) {
    xs <- seq(R[1L], R[2L], length.out = 101)
    u <- (xs - R[1L]) / width
    line_y <- beta[1L] + beta[2L] * xs
    limit <- B * (1 + u)
    ylim <- if (is.null(obs)) range(-limit, limit) else range(obs$y, line_y, obs$ls[1L] + obs$ls[2L] * xs)
    open_panel(ctx, list(xlim = R[, 1L], ylim = ylim, xlab = colnames(R), ylab = obs$response %||% "fitted response",
                         las = 1))
    graphics::polygon(c(xs, rev(xs)), c(limit, rev(-limit)), col = st$ball_fill, border = NA)
    graphics::lines(xs, limit, lty = 2, col = st$ball)
    graphics::lines(xs, -limit, lty = 2, col = st$ball)
    if (!is.null(obs)) {
      graphics::points(obs$x[, 1L], obs$y, pch = 16, cex = point_size(length(obs$y)), col = st$data)
      graphics::abline(a = obs$ls[1L], b = obs$ls[2L], lty = 3, lwd = 2, col = st$mean)
    }
    graphics::lines(xs, line_y, lwd = 2.5, col = st$release)
    graphics::legend(emptiest_corner(c(xs, obs$x[, 1L]), c(line_y, obs$y)),
                     legend = c("lines of the public domain", "private line",
                                if (!is.null(obs)) c("data (not released)", "lm() (not released)")),
                     fill = c(st$ball_fill, NA, if (!is.null(obs)) c(NA, NA)),
                     border = c(st$ball, NA, if (!is.null(obs)) c(NA, NA)),
                     lty = c(NA, 1, if (!is.null(obs)) c(NA, 3)), lwd = c(NA, 2.5, if (!is.null(obs)) c(NA, 2)),
                     pch = c(NA, NA, if (!is.null(obs)) c(16, NA)),
                     col = c(NA, st$release, if (!is.null(obs)) c(st$data, st$mean)),
                     bg = grDevices::adjustcolor("white", 0.8), box.col = NA, cex = 0.75, inset = 0.01)
    graphics::title(main = "over the public range", line = 0.5, cex.main = 0.9, font.main = 1)
  } else if (!is.null(obs)) {
    fitted <- drop(cbind(1, obs$x) %*% beta)
    open_panel(ctx, list(xlim = range(fitted), ylim = range(obs$y, fitted), xlab = "private fitted value",
                         ylab = obs$response, las = 1))
    graphics::points(fitted, obs$y, pch = 16, cex = point_size(length(obs$y)), col = st$data)
    graphics::abline(a = 0, b = 1, lwd = 2, col = st$release)
    graphics::title(main = "observed against private fitted (not released)", line = 0.5, cex.main = 0.9, font.main = 1)
  }
  outer_title(ctx, paste(c(ctx$subtitle, if (!is.null(obs)) "data and lm(): not part of the release"), collapse = "; "))
  invisible(x)
}

# The segments of plot(release, set = ) on the coefficient panel: `set` a
# confint() matrix of the release's coefficients (rows among its names,
# lower <= upper); a slope's interval times its range on the row of the
# change across it (row 1 + j), the intercept's on the lower corner's row
# (1) where every range starts at 0.
linear_set_segments <- function(set, x, width, call) {
  est <- x$coefficients
  if (!is.matrix(set) || !is.numeric(set) || ncol(set) != 2L || is.null(rownames(set)) ||
      !all(rownames(set) %in% names(est)) || anyDuplicated(rownames(set)) || !all(is.finite(set)) ||
      any(set[, 1L] > set[, 2L]))
    abort("`set` must be NULL or intervals of the release's coefficients, confint(x, moments = ) (a two-column matrix with rows named after coefficients)", call)
  j <- match(rownames(set), names(est))
  keep <- j > 1L | (j == 1L & all(x$x_range[1L, ] == 0))
  scale <- c(1, width)[j]
  # the level from confint()'s column names ("2.5 %", "97.5 %")
  pct <- suppressWarnings(as.numeric(sub(" ?%$", "", colnames(set) %||% c("", ""))))
  label <- if (length(pct) == 2L && all(is.finite(pct))) sprintf("%s%% interval", format(pct[2L] - pct[1L])) else "interval"
  lower <- (set[, 1L] * scale)[keep]
  upper <- (set[, 2L] * scale)[keep]
  if (!all(is.finite(c(lower, upper))))
    abort("`set`: an interval times its predictor's range overflows double precision; these are not intervals of this release", call)
  list(row = j[keep], lower = lower, upper = upper, label = label)
}

# The response and predictors of a linear release in `data`, with the
# least-squares coefficients. `env`: where the formula's functions are looked
# up (the release's terms hold no environment).
linear_release_data <- function(x, data, call, env = parent.frame()) {
  response <- x$response %||% {
    f <- x$call$formula
    if (is.call(f) && identical(f[[1L]], as.name("~")) && length(f) == 3L) paste(deparse(f[[2L]]), collapse = " ")
    else abort("`x` does not name its response; refit it with dp_linear_regression()", call)
  }
  tt <- x$terms
  environment(tt) <- env
  # a release made with na.action = na.omit / na.exclude: the data drawn
  # beside it drop their incomplete rows the same way
  if (!is.null(x$na.action) && x$na.action %in% c("na.omit", "na.exclude") && is.data.frame(data)) {
    vars <- intersect(c(all.vars(tt), all.vars(str2lang(response))), names(data))
    data <- data[stats::complete.cases(data[vars]), , drop = FALSE]
  }
  mf <- tryCatch(stats::model.frame(tt, data, na.action = stats::na.fail, xlev = x$xlevels),
                 error = function(e) abort(if (is.null(x$na.action) || x$na.action == "na.fail")
                                             "`data` must hold the predictors of the release, without missing values (the release was made without na.action)"
                                           else "`data` must hold the predictors of the release", call))
  X <- stats::model.matrix(tt, mf, contrasts.arg = x$contrasts)[, -1L, drop = FALSE]
  y <- tryCatch(eval(str2lang(response), data, env),
                error = function(e) abort(sprintf("`data` must hold the response `%s` of the release", response), call))
  if (!is.numeric(y) || length(y) != nrow(X) || !all(is.finite(y)) || !all(is.finite(X)))
    abort(sprintf("`data` must hold finite values of the response `%s` and of the predictors", response), call)
  # lm() needs as many rows as coefficients and predictors that vary
  ls <- if (nrow(X) >= ncol(X) + 1L) as.double(stats::lm.fit(cbind(1, X), y)$coefficients) else NA_real_
  # the dummy of a level absent from `data` has no least-squares coefficient
  absent <- c(FALSE, colSums(X != 0) == 0)
  if (length(ls) == length(absent)) ls[absent] <- NA_real_
  if (anyNA(ls[!absent]) || length(ls) != length(absent))
    abort(sprintf("`data` must hold at least %d rows, with predictors that vary: lm() of the data (drawn beside the release) is not determined",
                  ncol(X) + 1L), call)
  list(x = X, y = as.double(y), response = response, ls = ls)
}
