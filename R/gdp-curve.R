#' mu against sigma
#'
#' [gdp_mu()] over a grid of rates \eqn{\sigma}{sigma}: how much privacy the
#' Riemannian Gaussian mechanism with sensitivity \eqn{\Delta}{Delta} gives at each
#' noise level, beside the Euclidean value \eqn{\Delta/\sigma}{Delta/sigma} (Jiang et al.
#' 2023, Thm 4.1 and Fig. 1). `plot()` draws \eqn{\mu(\sigma)}{mu(sigma)} on a
#' logarithmic \eqn{\sigma}{sigma} axis with \eqn{\Delta/\sigma}{Delta/sigma} dashed; on a
#' sphere \eqn{\mu}{mu} falls below the Euclidean value (the law wraps around a
#' compact space), on hyperbolic space it stays above it and tends to a
#' positive limit (see [gdp_sigma()]).
#'
#' With a target `mu`, the curve also records [gdp_sigma()]`(M, mu, sensitivity)`,
#' the smallest \eqn{\sigma}{sigma} that achieves it, and `plot()` marks it.
#' Each \eqn{\mu}{mu} is computed by [gdp_mu()] with the given `method` and
#' `control`: the deterministic methods (the default) do not use the random
#' number generator; Monte Carlo methods draw for each \eqn{\sigma}{sigma} in turn.
#'
#' @inheritParams gdp_mu
#' @param sigma Rates \eqn{\sigma > 0}{sigma > 0} (at least two, finite); `NULL` for 25
#'   values from \eqn{\Delta/8}{Delta/8} to \eqn{8\Delta}{8 Delta}, evenly spaced on the log scale.
#' @param mu Optional target \eqn{\mu > 0}{mu > 0} to mark (deterministic methods only).
#' @return An object of class `riemdp_gdp_curve`: a list with `sigma` (sorted),
#'   `mu`, `se` (Monte Carlo standard errors, `NA` for deterministic methods),
#'   `euclidean` (\eqn{\Delta/\sigma}{Delta/sigma}), `manifold`, `sensitivity`, `method`,
#'   `target` (`NULL`, or a list with `mu`, `sigma` and the achieved `mu_achieved`)
#'   and `call`. Methods `print()` and `plot()`.
#' @seealso [gdp_mu()], [gdp_sigma()], [privacy_profile()].
#' @references Jiang, Chang, Liu, Ding, Kong and Jiang (2023), Gaussian
#'   differential privacy on Riemannian manifolds, NeurIPS 2023, Thm 4.1 and Fig. 1.
#' @examples
#' curve <- gdp_mu_curve(manifold_sphere(2), sensitivity = 1, mu = 1)
#' curve
#' plot(curve)
#' plot(gdp_mu_curve(manifold_hyperbolic(2), sensitivity = 1, sigma = 2^seq(-2, 3, by = 0.5)))
#' @export
gdp_mu_curve <- function(M, sensitivity, sigma = NULL, mu = NULL, method = "auto", control = gdp_control()) {
  call <- sys.call()
  sp <- gdp_space(M, call)
  sensitivity <- gdp_check_sensitivity(M, sensitivity, call)
  check_gdp_control(control, call)
  method <- gdp_resolve_method(method, sp, M, control, call)
  default_grid <- is.null(sigma)
  if (default_grid) {
    sigma <- sensitivity * 2^seq(-3, 3, length.out = 25)
  } else {
    if (!is.numeric(sigma) || length(sigma) < 2L || anyNA(sigma) || any(!is.finite(sigma)) || any(sigma <= 0))
      abort("`sigma` must be a numeric vector of at least two finite rates > 0 (or NULL for the default grid)", call)
    sigma <- sort(unique(as.double(sigma)))
    if (length(sigma) < 2L) abort("`sigma` must hold at least two different rates", call)
  }
  # a rate of the grid whose mu cannot be computed: name the argument that set it
  grid_error <- function(s, e) {
    abort(if (default_grid)
            sprintf("`sensitivity` = %s puts sigma = %s on the default grid (sensitivity * 2^(-3..3)), where mu cannot be computed (%s); give `sigma`",
                    format(sensitivity), format(s, digits = 6), conditionMessage(e))
          else sprintf("`sigma` holds %s, where mu cannot be computed (%s)", format(s, digits = 6), conditionMessage(e)),
          call)
  }
  fits <- lapply(sigma, function(s) tryCatch(gdp_compute(M, s, sensitivity, method, control, numeric(0), call)$fit,
                                             riemdp_error = function(e) grid_error(s, e)))
  target <- NULL
  if (!is.null(mu)) {
    mu <- check_positive(mu, "mu", call)
    if (!method %in% c("closed_form", "algorithm1", "quadrature"))
      abort(sprintf("`mu` is marked through gdp_sigma(), which needs a deterministic method; `method` = \"%s\" is random",
                    method), call)
    s <- tryCatch(gdp_sigma(M, mu, sensitivity, method = method, control = control), riemdp_error = function(e) {
      msg <- conditionMessage(e)
      abort(if (grepl("`mu`", msg, fixed = TRUE)) msg else sprintf("`mu` = %s cannot be marked: %s", format(mu), msg), call)
    })
    target <- list(mu = mu, sigma = as.double(s), mu_achieved = attr(s, "mu"))
  }
  structure(list(sigma = sigma, mu = vapply(fits, function(f) f$mu, 0), se = vapply(fits, function(f) f$se, 0),
                 euclidean = sensitivity / sigma, manifold = M, sensitivity = sensitivity, method = method,
                 target = target, call = call),
            class = "riemdp_gdp_curve")
}

#' @export
format.riemdp_gdp_curve <- function(x, ...) {
  k <- length(x$sigma)
  c(sprintf("<riemdp GDP curve> mu against sigma for the Riemannian Gaussian on %s, sensitivity Delta = %s, method \"%s\"",
            manifold_label(x$manifold), format(x$sensitivity, digits = 6), x$method),
    sprintf("  %d sigmas in [%s, %s]: mu from %s down to %s (Euclidean Delta/sigma: %s to %s)", k,
            format(x$sigma[1L], digits = 4), format(x$sigma[k], digits = 4), format_guarantee(x$mu[1L], 4),
            format_guarantee(x$mu[k], 4), format(x$euclidean[1L], digits = 4), format(x$euclidean[k], digits = 4)),
    if (!is.null(x$target))
      sprintf("  target mu = %s: sigma = %s (gdp_sigma(); achieved mu = %s)", format(x$target$mu, digits = 4),
              format(x$target$sigma, digits = 6), format_guarantee(x$target$mu_achieved, 6)))
}

#' @rdname gdp_mu_curve
#' @param x A `riemdp_gdp_curve`.
#' @param ... `print()`: unused. `plot()`: further graphical parameters for
#'   [graphics::plot.default()] (for example `ylim`, `main`).
#' @export
print.riemdp_gdp_curve <- function(x, ...) {
  writeLines(format(x))
  tab <- data.frame(sigma = x$sigma, mu = x$mu, euclidean = x$euclidean)
  if (any(!is.na(x$se))) tab$se <- x$se
  shown <- if (nrow(tab) > 10L) unique(round(seq(1, nrow(tab), length.out = 8))) else seq_len(nrow(tab))
  out <- format(tab[shown, , drop = FALSE], digits = 4)
  out$mu <- format_guarantee(x$mu[shown], 4)  # rounded up
  print(out, row.names = FALSE)
  if (length(shown) < nrow(tab)) cat(sprintf("  (%d of %d rows shown)\n", length(shown), nrow(tab)))
  invisible(x)
}

#' @rdname gdp_mu_curve
#' @param log Axes on the log scale: `"x"` (the default) or `"xy"`.
#' @export
plot.riemdp_gdp_curve <- function(x, log = c("x", "xy"), ...) {
  call <- sys.call()
  log <- arg_match(log, c("x", "xy"), "log", call)
  ok <- is.finite(x$mu) & (if (log == "xy") x$mu > 0 else TRUE)
  ylim <- range(x$mu[ok], x$euclidean, if (log == "x") 0, x$target$mu, finite = TRUE)
  dots <- named_dots(list(...))
  defaults <- list(xlim = range(x$sigma), ylim = ylim, log = log, xlab = "sigma (log scale)",
                   ylab = if (log == "xy") "mu (log scale)" else "mu", las = 1,
                   main = sprintf("mu against sigma, %s, Delta = %s", manifold_label(x$manifold),
                                  format(x$sensitivity, digits = 4)))
  defaults[names(dots)] <- dots
  do.call(graphics::plot.default, c(list(x = NA, type = "n"), defaults))
  graphics::grid(col = "grey90", lty = 1)
  graphics::lines(x$sigma, x$euclidean, lty = 2, col = "grey40", lwd = 1.5)
  if (any(!is.na(x$se)))
    graphics::segments(x$sigma, pmax(x$mu - 2 * x$se, if (log == "xy") x$mu / 10 else 0), x$sigma, x$mu + 2 * x$se,
                       col = "steelblue")
  graphics::lines(x$sigma[ok], x$mu[ok], lwd = 2.5, col = "steelblue4")
  graphics::points(x$sigma[ok], x$mu[ok], pch = 16, cex = 0.6, col = "steelblue4")
  if (!is.null(x$target)) {
    usr <- graphics::par("usr")
    left <- if (graphics::par("xlog")) 10^usr[1] else usr[1]
    bottom <- if (graphics::par("ylog")) 10^usr[3] else usr[3]
    graphics::segments(c(left, x$target$sigma), c(x$target$mu, bottom), x$target$sigma, x$target$mu,
                       lty = 3, col = "firebrick")
    graphics::points(x$target$sigma, x$target$mu, pch = 21, bg = "firebrick", col = "grey10", cex = 1.4)
  }
  graphics::legend("topright", bty = "n", cex = 0.8,
                   legend = c(sprintf("mu(sigma), method \"%s\"%s", x$method, if (any(!is.na(x$se))) " (+- 2 se)" else ""),
                              "Euclidean Delta/sigma",
                              if (!is.null(x$target)) sprintf("target mu = %s at sigma = %s", format(x$target$mu, digits = 3),
                                                               format(x$target$sigma, digits = 4))),
                   lty = c(1, 2, if (!is.null(x$target)) NA), lwd = c(2.5, 1.5, if (!is.null(x$target)) NA),
                   pch = c(NA, NA, if (!is.null(x$target)) 21), pt.bg = c(NA, NA, if (!is.null(x$target)) "firebrick"),
                   col = c("steelblue4", "grey40", if (!is.null(x$target)) "grey10"))
  invisible(x)
}
