# Private bounds for the private regressions (issue 21, stage 2):
# dp_geodesic_regression(bounds = ) and dp_linear_regression(bounds = ).
#
# The public bounds the user does not state are found under differential
# privacy with share * epsilon; the regression gets the rest. Every stage is
# an exponential mechanism over a public finite set with a utility of
# sensitivity 1 under replace-one adjacency (em_draw() of R/bounds.R):
#   covariate range: two private quantiles (public fractions, default 2.5%
#       and 97.5%) over a public grid inside the public wide range
#       `x_limits`, u_j = -|#{x_i <= g_j} - q n|;
#   footpoint ball (geodesic): the location and scale stages of R/bounds.R
#       applied to the responses (bounds_plan(), bounds_run());
#   response range (linear): two private quantiles over a grid inside the
#       public wide range `y_limits`;
#   tau: a private quantile (public fraction, default 0.9) of the residual
#       distances from a coarse private fit (itself a release, spending a
#       part of the share), over a public geometric grid;
#   tau_m, beta_max: public rules of the private ranges and scales
#       (post-processing, no budget).
# Covariates outside the private range (and outside the wide range) are
# clipped to it, a public rule: no error depends on the data. Checks that a
# private bound could fail are made at the worst case of its public grid
# before the data are used. The stages and the release compose by basic
# composition (Dwork & Roth 2014, Thm 3.16).

#' Public settings for privately found regression bounds
#'
#' `dp_regression_bounds()` extends [dp_bounds()] with what the private
#' regressions need: the public wide ranges inside which the covariate's
#' (and, for [dp_linear_regression()], the response's) range is found, the
#' public fractions and factors of the private quantiles, and the public split
#' of the share between the stages. It touches no data; pass the result as
#' `bounds` to [dp_geodesic_regression()] or [dp_linear_regression()]. A
#' plain [dp_bounds()] specification is accepted there too: its `share`,
#' region, net, `split` and grid of radii are kept, and every other setting
#' takes the default below (`fraction = 0.5` included).
#'
#' **Stages** (each an exponential mechanism over a public finite set with a
#' utility of sensitivity 1 under replace-one adjacency, McSherry & Talwar
#' 2007; a private quantile as in Smith 2011):
#' * *covariate range* (and, for the linear regression, each predictor's and
#'   the response's): the two private quantiles at `x_fractions` (the
#'   quartiles by default) over `n_grid` equally spaced points of the public
#'   wide range, each at half the stage's \eqn{\epsilon}{epsilon}, widened
#'   on each side by `fence` times their distance (Tukey's fences), within
#'   the wide range. Quartiles rather than extreme quantiles: beyond the data
#'   the utility of a quantile at fraction \eqn{q}{q} is flat at
#'   \eqn{-qn}{-q n}, so at a small \eqn{\epsilon}{epsilon} a 2.5% quantile
#'   is nearly uniform over the grid points below the data.
#' * *footpoint ball* (geodesic regression): the centre by the exponential
#'   mechanism over the public net of [dp_bounds()] (on the sphere, the whole
#'   sphere by default), scored by the soft count
#'   \eqn{\sum_i \max(0, 1 - d(y_i, c)/r)}{sum_i max(0, 1 - d(y_i, c)/r)} of
#'   the responses (each adds at most 1: sensitivity 1; the hard count of
#'   [dp_bounds()] is flat over every candidate whose ball holds the whole
#'   cloud, so with a count radius larger than the cloud the private centre
#'   wanders over that plateau); then the radius around it that holds the
#'   public `fraction` (the median by default) of the responses, the scale
#'   stage of [dp_bounds()]. The responses' radius is `scale_factor` times
#'   that private radius; the footpoint ball's radius is `radius_factor`
#'   times the responses' radius (at most the injectivity radius). On spd
#'   the centre comes from the net of multiples of `region_center` (or, with
#'   `location = "coarse"`, and always on Kendall's shape space, from a coarse
#'   private Fréchet mean of the responses in the public region). On spd and
#'   hyperbolic space the default grid of radii stops, if sooner, where
#'   double precision still resolves every geodesic the release can visit
#'   (the footpoint ball and `tau_m` grow with the radius), a public check.
#' * *tau*: with `tau_method = "spread"` (the default), `tau_factor` times
#'   the responses' private median radius (geodesic) or half the distance
#'   between the response's private quartiles (linear): no further stage.
#'   With `"coarse"`, a coarse private fit with part of the share, then a
#'   private quantile (`tau_fraction`) of its residual distances over the
#'   public grid of radii, times `tau_factor`. The coarse fit needs a large
#'   \eqn{n\epsilon}{n epsilon} to be useful: for the 795 Tonga epicentres
#'   at its \eqn{\epsilon = 0.075}{epsilon = 0.075} the median residual of the
#'   coarse fit is about twice that of the non-private fit, and tau with it
#'   (`vignette("choosing-bounds", package = "riemdp")`, "Bounds found privately").
#' * *tau_m* (geodesic): the diameter of the responses' ball, 2 times the
#'   responses' radius (the fit across the covariate range stays among the
#'   responses). *beta_max* (linear): \eqn{\max(|a|, |b|) + (b - a)}{max(|a|, |b|) + (b - a)}
#'   for the response's private range \eqn{[a, b]}{[a, b]}: the fit at the
#'   lower corner within one range width of the responses, and each change
#'   across a range within one width. Both are post-processing.
#'
#' The stages that run share `share` \eqn{\times}{x} `epsilon` in the
#' proportions `weights`; the release gets the rest. All compose by basic
#' composition (Dwork & Roth 2014, Thm 3.16).
#'
#' @param share The share of the total \eqn{\epsilon}{epsilon} spent on the
#'   bounds, strictly between 0 and 1. Default (`NULL`): 0.2, or 0.3 with
#'   `tau_method = "coarse"` (two more stages). On the Tonga regression
#'   (`vignette("choosing-bounds", package = "riemdp")`) share 0.2 errs less than 0.3
#'   (footpoint 1.40 against 1.51 times the hand-chosen bounds' error over 150
#'   releases): the stages localise with less, and the regression keeps
#'   more.
#' @param ... Further settings of the location and scale stages, passed to
#'   [dp_bounds()] (`region_center`, `region_radius`, `count_radius`,
#'   `spacing`, `split`, `radius_max`, `n_radii`, `radii`, ...).
#' @param x_limits The public wide range of the covariate, `c(lower, upper)`
#'   (e.g. `c(0, 700)` for earthquake depths in km), inside which its range is
#'   found privately; for [dp_linear_regression()] one pair per numeric
#'   numeric predictor, in any form `x_range` takes there: each numeric
#'   column of the model matrix counts, so an interaction of numeric
#'   predictors (`x:z`) or a term such as `I(x^2)` needs its own pair, named
#'   as `lm()` names the column (e.g. `list(x = c(0, 1), z = c(0, 2),
#'   "x:z" = c(0, 2))`). Needed unless `x_range` is stated.
#' @param y_limits [dp_linear_regression()] only: the public wide range of
#'   the response, `c(lower, upper)`, inside which its range is found
#'   privately (for `beta_max`, the spread-based `tau` and the grid of
#'   `tau`). Needed unless `beta_max` is stated.
#' @param x_fractions The public fractions of the two private quantiles of a
#'   private range, default the quartiles.
#' @param fence The public factor of Tukey's fences that widen the private
#'   quantiles into a range.
#' @param fraction The public fraction of the responses that the private
#'   radius of the footpoint stage holds (the median by default).
#' @param scale_factor The public factor from that private radius to the
#'   responses' radius (2: for a two-dimensional Gaussian spread the 90%
#'   radius is 1.8 times the median).
#' @param tau_method `"spread"` or `"coarse"`: how `tau` is found (see
#'   Stages).
#' @param tau_fraction The public fraction of the coarse fit's residuals
#'   that its private quantile holds (`tau_method = "coarse"`).
#' @param tau_factor The public factor from the private scale to `tau`.
#' @param n_grid The number of equally spaced public points of the grid of
#'   each private range (in `x_limits`, `y_limits`).
#' @param weights The public split of the share between the stages: a named
#'   vector with `range` (the covariates' ranges), `location` (the centre
#'   and radius of the footpoint ball; the response's range of a linear
#'   regression), `coarse` (the coarse private fit) and `tau` (its residual
#'   quantile); the stages that run share the budget in these proportions.
#' @param radius_factor The public factor from the responses' radius to the
#'   footpoint ball's radius (geodesic regression).
#' @return An object of class `c("riemdp_regression_bounds_spec",
#'   "riemdp_bounds_spec")`; it holds no data.
#' @references McSherry, F. and Talwar, K. (2007). Mechanism design via
#'   differential privacy. FOCS. Smith, A. (2011). Privacy-preserving
#'   statistical estimation with optimal convergence rates. STOC. Tukey,
#'   J. W. (1977). Exploratory data analysis. Dwork, C. and Roth, A. (2014).
#'   The algorithmic foundations of differential privacy, Thm 3.16.
#' @seealso [dp_geodesic_regression()], [dp_linear_regression()], [dp_bounds()].
#' @examples
#' dp_regression_bounds(share = 0.2, x_limits = c(0, 700))
#' @export
dp_regression_bounds <- function(share = NULL, x_limits = NULL, y_limits = NULL, x_fractions = c(0.25, 0.75),
                                 fence = 1.5, fraction = 0.5, scale_factor = 2, tau_method = c("spread", "coarse"),
                                 tau_fraction = 0.5, tau_factor = 2,
                                 n_grid = 50,
                                 weights = c(range = 0.2, location = 0.3, coarse = 0.25, tau = 0.25),
                                 radius_factor = 1.5, ...) {
  call <- sys.call()
  tau_method <- arg_match(tau_method, c("spread", "coarse"), "tau_method", call)
  spec <- dp_bounds(share = share %||% (if (tau_method == "coarse") 0.3 else 0.2), fraction = fraction, ...)
  if (!is.null(x_limits) && !(is.numeric(x_limits) || is.list(x_limits)))
    abort("`x_limits` must be NULL or the public wide range of the covariate, c(lower, upper) (one pair per numeric predictor for dp_linear_regression())", call)
  if (!is.null(y_limits)) y_limits <- check_range(y_limits, "y_limits", call)
  if (!is.numeric(x_fractions) || length(x_fractions) != 2L || !all(is.finite(x_fractions)) ||
      !(x_fractions[1] > 0 && x_fractions[1] < x_fractions[2] && x_fractions[2] < 1))
    abort("`x_fractions` must be two public fractions 0 < lower < upper < 1, e.g. c(0.025, 0.975)", call)
  if (!is.numeric(tau_fraction) || length(tau_fraction) != 1L || !is.finite(tau_fraction) ||
      tau_fraction <= 0 || tau_fraction >= 1)
    abort("`tau_fraction` must be a single number strictly between 0 and 1", call)
  n_grid <- check_count(n_grid, "n_grid", 2, call, upper = 1e6)
  wn <- c("range", "location", "coarse", "tau")
  if (!is.numeric(weights) || !setequal(names(weights), wn) || length(weights) != 4L ||
      !all(is.finite(weights)) || any(weights <= 0))
    abort("`weights` must be a named vector of four positive numbers: range, location, coarse, tau", call)
  radius_factor <- check_positive(radius_factor, "radius_factor", call)
  if (!is.numeric(fence) || length(fence) != 1L || !is.finite(fence) || fence < 0)
    abort("`fence` must be a single finite number >= 0", call)
  scale_factor <- check_positive(scale_factor, "scale_factor", call)
  tau_factor <- check_positive(tau_factor, "tau_factor", call)
  spec$x_limits <- x_limits
  spec$y_limits <- y_limits
  spec$x_fractions <- as.double(x_fractions)
  spec$tau_fraction <- as.double(tau_fraction)
  spec$n_grid <- n_grid
  spec$weights <- as.double(weights[wn])
  names(spec$weights) <- wn
  spec$radius_factor <- radius_factor
  spec$fence <- as.double(fence)
  spec$tau_method <- tau_method
  spec$scale_factor <- scale_factor
  spec$tau_factor <- tau_factor
  class(spec) <- c("riemdp_regression_bounds_spec", "riemdp_bounds_spec")
  spec
}

#' @export
print.riemdp_regression_bounds_spec <- function(x, ...) {
  NextMethod()
  cat(sprintf("  regression: covariate range in %s, quantiles %s widened by fences of %s; %s\n",
              if (is.null(x$x_limits)) "(no public wide range: state `x_range`)"
              else paste(format(unlist(x$x_limits), trim = TRUE), collapse = " "),
              paste(format(x$x_fractions), collapse = " and "), format(x$fence),
              if (x$tau_method == "spread") sprintf("tau = %s x the responses' private spread", format(x$tau_factor))
              else sprintf("tau = %s x a private quantile (%s) of the residuals of a coarse private fit",
                           format(x$tau_factor), format(x$tau_fraction))))
  cat(sprintf("  split of the share: %s\n", paste(names(x$weights), format(x$weights), sep = " ", collapse = ", ")))
  invisible(x)
}

# A plain dp_bounds() specification with the regression defaults.
as_regression_bounds_spec <- function(bounds, call) {
  check_bounds_spec(bounds, call)
  if (inherits(bounds, "riemdp_regression_bounds_spec")) return(bounds)
  d <- dp_regression_bounds()
  for (nm in names(d)) if (is.null(bounds[[nm]])) bounds[[nm]] <- d[[nm]]
  bounds$fraction <- d$fraction   # the regression route's scale stage finds the median
  class(bounds) <- class(d)
  bounds
}

# The public grid of a private range: n_grid equally spaced points of [lo, hi].
bounds_range_grid <- function(lim, n_grid) seq(lim[1], lim[2], length.out = n_grid)

# Private quantile utilities over a public grid g (increasing):
# -|#{x_i <= g_j} - q n|, sensitivity 1 under replace-one. Same work for any
# data.
bounds_quantile_utility <- function(x, g, q) {
  idx <- findInterval(x, g, left.open = TRUE) + 1L   # first j with g_j >= x
  counts <- cumsum(tabulate(idx, nbins = length(g) + 1L))[seq_along(g)]
  -abs(counts - q * length(x))
}

# A private range of x: two private quantiles, each at eps / 2. The pair is
# sorted, and a range of a single grid point widened by one step (public
# rules: post-processing).
bounds_range_stage <- function(x, g, q, eps, fence = 0, eps_factor = 1) {
  j1 <- em_draw(bounds_quantile_utility(x, g, q[1]), eps_factor * eps / 2)
  j2 <- em_draw(bounds_quantile_utility(x, g, q[2]), eps_factor * eps / 2)
  j <- sort(c(j1, j2))
  if (j[1] == j[2]) {
    if (j[2] < length(g)) j[2] <- j[2] + 1L else j[1] <- j[1] - 1L
  }
  r <- g[j]
  # Tukey's fences (post-processing): widen by `fence` times the private
  # inter-quantile width on each side, within the public wide range
  w <- r[2] - r[1]
  structure(c(max(g[1], r[1] - fence * w), min(g[length(g)], r[2] + fence * w)), quantiles = r)
}

# A private quantile of nonnegative residual distances over a public
# increasing grid of radii (the scale stage's utility of R/bounds.R).
bounds_residual_stage <- function(r, radii, q, eps, eps_factor = 1) {
  idx <- findInterval(r, radii, left.open = TRUE) + 1L
  counts <- cumsum(tabulate(idx, nbins = length(radii) + 1L))[seq_along(radii)]
  radii[em_draw(-abs(counts - q * length(r)), eps_factor * eps)]
}

# The epsilons of the stages that run, in the public proportions of
# `weights`, summing to eps_bounds.
bounds_weights <- function(weights, run, eps_bounds) {
  w <- weights[run]
  stats::setNames(eps_bounds * w / sum(w), run)
}

# The localisation check of a private quantile over G grid points: the
# exponential mechanism's rank error, about (2/eps) log G, must stay below
# n / 2, else the quantile is noise over the whole grid. Necessary, not
# sufficient (as in bounds_plan()). Public n and epsilon only.
bounds_check_quantile <- function(n, eps, G, what, call) {
  bounds_check_localise(n, eps, G, n / 2, "half of n", paste("private", what), "public grid points picks one whose rank is",
                        "Raise `epsilon` or `share`, or state the bound", call)
}

# One stage row.
bounds_stage_row <- function(stages, stage, bound, eps, mechanism, size) {
  stages[nrow(stages) + 1L, ] <- list(stage, bound, eps, mechanism, size)
  stages
}

empty_stages <- function() {
  data.frame(stage = character(0), bound = character(0), epsilon = numeric(0), mechanism = character(0),
             size = numeric(0), stringsAsFactors = FALSE)
}

# The composed sentence of a regression release with private bounds: the
# stages, then the regression's own sentence at its share.
regression_bounds_sentence <- function(x, own_sentence) {
  s <- sentence_at_share(x, x$epsilon_release, own_sentence)
  s <- paste0(s, "; covariates outside the private range are clipped to it (a public rule of this route)")
  st <- x$bounds_stages
  label <- c(center = "centre of the footpoint ball", radius = "radius of the footpoint ball",
             x_range = "covariate range", y_range = "response range", tau = "residual clip tau",
             coarse = "coarse fit (for tau only)")
  parts <- sprintf("[%d] private %s, %s-DP: %s", seq_len(nrow(st)),
                   ifelse(st$bound %in% names(label), label[st$bound], st$bound),
                   format_guarantee(st$epsilon, 4), st$mechanism)
  parts <- c(parts, sprintf("[%d] the regression, %s", nrow(st) + 1L, s))
  rules <- x$bounds_rules
  sprintf("%s-DP (pure epsilon-DP) in total, the sum of its %d stages by basic composition (Dwork & Roth 2014, Thm 3.16): %s.%s %s",
          format_guarantee(x$epsilon, 4), length(parts), paste(parts, collapse = "; "),
          if (length(rules)) paste0(" Public rules: ", paste(rules, collapse = "; "), ".") else "",
          paste(implied_mu_sentence(x$epsilon), guarantee_kind_sentence(x)))
}

# ---- geodesic regression -------------------------------------------------

# Location utilities of the regression route: soft counts
# u_j = sum_i max(0, 1 - d(x_i, c_j) / r), each point adding at most 1
# (sensitivity 1 under replace-one, as the hard count of R/bounds.R). The
# hard count is flat on every candidate whose ball holds the whole cloud, so
# with a count radius larger than the cloud (the default on the whole
# sphere) the private centre wanders over that plateau; the soft count peaks
# near the cloud's centre. Every candidate is scored against every point.
bounds_soft_counts <- function(M, S, cand, r) {
  N <- cand$n
  u <- numeric(N)
  block <- max(1L, floor(4e6 / max(1, S$n)))
  sphere <- M$type == "sphere"
  if (sphere) Xm <- matrix(S$x, S$n)
  for (s in seq(1L, N, by = block)) {
    idx <- s:min(N, s + block - 1L)
    D <- if (sphere) acos(pmin(1, pmax(-1, Xm %*% t(cand$x[idx, , drop = FALSE]))))
         else matrix(geom_dist_matrix(M, S, list(x = cand$x[idx, , drop = FALSE], n = length(idx), by_row = TRUE), TRUE), S$n)
    u[idx] <- colSums(matrix(pmax(0, 1 - D / r), S$n))
  }
  u
}

regression_location_stage <- function(M, S, plan, eps_factor = 1) {
  em_draw(bounds_soft_counts(M, S, plan$candidates, plan$count_radius), eps_factor * plan$eps_location)
}

# The footpoint ball's stages: the centre (soft counts over the net, or on spd
# and kendall the coarse private mean of the responses Y, in their layout)
# unless stated, then the radius around it (the scale stage of R/bounds.R).
regression_ball_run <- function(M, S, plan, C, eps_factor = 1, Y = NULL) {
  if (plan$find_center && !is.null(plan$coarse)) {
    C <- bounds_coarse_stage(M, Y, plan, eps_factor)
  } else if (plan$find_center) {
    j <- regression_location_stage(M, S, plan, eps_factor)
    C <- list(x = plan$candidates$x[j, ], n = 1L, by_row = TRUE, single = TRUE, arg = "center")
  }
  j <- bounds_scale_stage(M, S, C, plan, eps_factor)
  list(center = C$x, radius = plan$radii[j], edges = bounds_edges(M, plan, C$x, j))
}

# On spd and hyperbolic space the default grid of the responses' radii stops
# where double precision still resolves every geodesic the release can
# visit: from the worst centre, the footpoint ball of radius radius_factor x
# scale_factor x r and shooting vectors up to tau_m = 2 x scale_factor x r
# (or the stated ones): within resolved_reach() of c0, less R for a coarse
# centre anywhere in B_R(c0) on spd (the net's multiples of c0 share its
# conditioning) or a centre from the net in B_R(c0) on hyperbolic space. As
# bounds_radii() does for the mean. Public: from the arguments only.
regression_radius_max <- function(M, spec, region, C, radius, tau_m, call) {
  C0 <- C %||% region$center
  if (is.null(C0) || !(M$type %in% c("spd", "hyperbolic"))) return(NULL)
  limit <- resolved_reach(M, C0$x)
  reach <- if (!is.null(C)) 0
           else if (M$type == "hyperbolic" || bounds_location_route(M, spec, call) == "coarse") region$radius
           else 0
  room <- 0.99 * limit - reach - (radius %||% 0) - (tau_m %||% 0)
  per_r <- spec$scale_factor * ((if (is.null(radius)) spec$radius_factor else 0) + (if (is.null(tau_m)) 2 else 0))
  # radius and tau_m both stated: the default grid (the worst-case check
  # after the plan covers the stated ones)
  if (per_r == 0) return(NULL)
  top <- room / per_r
  default_top <- 2 * (region$radius %||% Inf)
  if (!(top > 0))
    abort(sprintf("on %s the stated bounds leave no room for a private radius that double precision resolves: the public region, `radius` and `tau_m` already reach %s; give a smaller `region_radius`, `radius` or `tau_m`, or %s",
                  manifold_label(M),
                  if (M$type == "spd") "condition numbers near 1e-6 / .Machine$double.eps around the centre"
                  else "distances from the origin where points are resolved only to 1e-6",
                  if (M$type == "spd") "rescale the data" else "move the data nearer the origin by an isometry"), call)
  top <- min(top, default_top)
  if (!is.finite(top)) NULL else top
}

# dp_geodesic_regression(bounds = ): the stages with share * epsilon, then
# the release with the rest. `given`: which of tau, tau_m, x_range, center,
# radius the user stated (their values in `vals`).
geodesic_release_with_bounds <- function(M, x, Y, epsilon, vals, given, scheme, bound, control, diagnostics,
                                         bounds, call, covariate_name) {
  check_manifold(M, call)
  spec <- as_regression_bounds_spec(bounds, call)
  if (scheme != "joint")
    abort("`bounds` is for scheme = \"joint\" (a differentially private release); scheme = \"paper\" is not", call)
  if (missing(epsilon) || is.null(epsilon)) abort("`epsilon`, the total privacy budget (a single finite number > 0), is required", call)
  epsilon <- check_positive(epsilon, "epsilon", call)
  if (all(unlist(given)))
    abort("`bounds` has nothing to find: `tau`, `tau_m`, `x_range`, `center` and `radius` are all given; drop `bounds`", call)
  if (!is.null(control)) check_control(control, call)
  # public bounds stated by the user
  x_range <- if (given$x_range) check_range(vals$x_range, "x_range", call) else NULL
  C <- if (given$center) bounds_public_point(M, vals$center, "center", call) else NULL
  radius <- if (given$radius) check_positive(vals$radius, "radius", call) else NULL
  if (!is.null(radius) && !(radius <= M$inj))
    abort(sprintf("`radius` = %s must be at most the injectivity radius %s of %s%s", format(radius), format(M$inj, digits = 6),
                  manifold_label(M), radius_units_note(M)), call)
  tau <- if (given$tau) check_positive(vals$tau, "tau", call) else NULL
  tau_m <- if (given$tau_m) check_positive(vals$tau_m, "tau_m", call) else NULL
  if (is.null(x_range)) {
    if (is.null(spec$x_limits))
      abort("the covariate's range is to be found privately: give its public wide range, bounds = dp_regression_bounds(x_limits = c(lower, upper)) (e.g. c(0, 700) for depths in km), or state `x_range`", call)
    x_limits <- check_range(spec$x_limits, "x_limits", call)
    grid <- bounds_range_grid(x_limits, spec$n_grid)
    # worst case: the narrowest private range (one grid step) at the largest magnitude
    h <- grid[2] - grid[1]
    far <- if (abs(grid[1]) > abs(grid[length(grid)])) grid[1:2] else grid[length(grid) - 1:0]
    check_range_resolved(far[1], far[2], "x_limits` (one step of its grid", "x", call)
  }
  S <- release_points(M, Y, call, "Y")
  n <- S$n
  if (!is.numeric(x) || !is.null(dim(x)) && !(length(dim(x)) == 2L && ncol(x) == 1L))
    abort("`x` must be a numeric vector", call)
  if (length(x) != n)
    abort(sprintf("`x` must hold one value per point: it has %d values but there are %d points", length(x), n), call)
  if (!all(is.finite(x))) abort("`x` must be finite (it contains NA, NaN or Inf)", call)
  x <- as.double(x)
  # the stages that run and their epsilons (public)
  find_ball <- is.null(C) || is.null(radius)
  find_tau <- is.null(tau)
  # tau from the responses' spread needs the private ball's stages
  spread <- find_tau && spec$tau_method == "spread" && find_ball && is.null(radius)
  run <- c(if (is.null(x_range)) "range", if (find_ball) "location", if (find_tau && !spread) c("coarse", "tau"))
  eps_bounds <- spec$share * epsilon
  eps_release <- epsilon - eps_bounds
  eps <- bounds_weights(spec$weights, run, eps_bounds)
  stages <- empty_stages()
  rules <- character(0)
  if ("range" %in% run) {
    bounds_check_quantile(n, eps[["range"]] / 2, length(grid), "covariate range", call)
    stages <- bounds_stage_row(stages, "covariate range", "x_range", eps[["range"]],
                               sprintf("two private quantiles (fractions %s) by the exponential mechanism (Smith 2011), each %s-DP, over %d public points of [%s, %s]",
                                       paste(format(spec$x_fractions), collapse = ", "),
                                       format_guarantee(eps[["range"]] / 2, 4), length(grid),
                                       format(x_limits[1]), format(x_limits[2])), length(grid))
  }
  plan <- NULL
  region <- bounds_region(M, spec, call)
  if (find_ball && is.null(spec$radius_max) && is.null(spec$radii))
    spec$radius_max <- regression_radius_max(M, spec, region, C, radius, tau_m, call)
  if (find_ball) {
    plan <- bounds_plan(M, spec, n, eps[["location"]], C, NULL, call, mean_route = FALSE)
    ps <- plan$stages
    ps$mechanism <- sub("scored by their counts within ([^ ;]+)",
                        "scored by their soft counts sum_i max(0, 1 - d(y_i, c)/r), r = \\1", ps$mechanism)
    stages <- rbind(stages, ps)
    rules <- c(rules, sprintf("the responses' radius is %s times the private radius that holds a fraction %s of them, and the footpoint ball's radius %s times the responses' radius (capped at the injectivity radius)",
                              format(spec$scale_factor), format(spec$fraction), format(spec$radius_factor)))
  }
  # the public grid of residual radii for tau (and the worst cases)
  radii <- if (find_ball) plan$radii else bounds_radii(M, spec, region, call)
  worst_r0 <- if (find_ball) spec$scale_factor * max(plan$radii) else radius
  worst_radius <- if (is.null(radius)) min(M$inj, spec$radius_factor * worst_r0) else radius
  if (is.null(tau_m)) {
    rules <- c(rules, "tau_m is the diameter of the responses' ball, 2 x the responses' radius (the fit across the covariate range stays within the responses)")
    worst_tau_m <- 2 * worst_r0
  } else worst_tau_m <- tau_m
  worst_tau <- if (find_tau) max(spec$tau_factor * max(radii), worst_r0) else tau
  if (spread) rules <- c(rules, sprintf("tau is %s times the responses' private radius that holds a fraction %s of them (their spread about the private centre; no coarse fit)",
                                        format(spec$tau_factor), format(spec$fraction)))
  if (find_tau && !spread) {
    stages <- bounds_stage_row(stages, "coarse fit", "coarse", eps[["coarse"]],
                               "a coarse private geodesic regression (K-norm gradient mechanism) with tau = the responses' radius, used only for the residuals of the next stage",
                               NA_real_)
    bounds_check_quantile(n, eps[["tau"]], length(radii), "residual clip tau", call)
    stages <- bounds_stage_row(stages, "residual clip", "tau", eps[["tau"]],
                               sprintf("private quantile (fraction %s) of the coarse fit's residual distances by the exponential mechanism (Smith 2011) over %d public radii up to %s",
                                       format(spec$tau_fraction), length(radii), format(max(radii), digits = 4)), length(radii))
    rules <- c(rules, sprintf("tau is %s times the private quantile of the residuals", format(spec$tau_factor)))
  }
  rules <- c(rules, sprintf("the covariate's range is the private quantiles widened on each side by %s times their distance (Tukey's fences), within the public wide range", format(spec$fence)),
             "covariates outside the private range (or the public wide range) are clipped to it")
  # Worst-case public checks, before the data are used.
  # (a coarse centre, on spd and kendall, lies anywhere in the public region
  # B_R(c0): the worst ball is then B_(R + radius + tau_m)(c0))
  Cw <- C
  reach <- 0
  if (is.null(Cw) && !is.null(plan$coarse)) {
    Cw <- plan$coarse$center
    reach <- plan$coarse$radius
  } else if (is.null(Cw)) {
    far <- if (M$type == "hyperbolic") which.max(plan$candidates$x[, 1L]) else 1L
    Cw <- list(x = plan$candidates$x[far, ], n = 1L, by_row = TRUE)
  }
  if (M$type %in% c("spd", "hyperbolic"))
    check_ball_resolved(M, Cw, reach + worst_radius + worst_tau_m, call, "the fitted geodesics")
  S <- check_squares_representable(M, S, list(tau = worst_tau, tau_m = worst_tau_m, radius = worst_radius), call)
  for (e in c(eps_release, if (find_tau && !spread) eps[["coarse"]])) {
    sens <- regression_sensitivity(M, n, worst_tau, worst_tau_m, bound, m = 1L, call = call)
    if (!is.finite(2 * sens[["joint"]] / e))
      abort(sprintf("`epsilon` = %s is too small: sigma = 2 Delta / epsilon overflows at the largest tau and tau_m the stages can return", format(epsilon)), call)
  }
  # The data enter below.
  if ("range" %in% run) {
    x <- pmin(pmax(x, x_limits[1]), x_limits[2])
    x_range <- bounds_range_stage(x, grid, spec$x_fractions, eps[["range"]], spec$fence)
  }
  xc <- pmin(pmax(x, x_range[1]), x_range[2])
  r0 <- radius
  if (find_ball) {
    found <- regression_ball_run(M, S, plan, C, Y = Y)
    C <- list(x = found$center, n = 1L, by_row = TRUE, single = TRUE, arg = "center")
    r0 <- spec$scale_factor * found$radius
    if (!given$radius) radius <- min(M$inj, spec$radius_factor * r0)
  }
  if (is.null(tau_m)) tau_m <- 2 * r0
  ctr <- from_values(M, C$x, 1L, TRUE, if (given$center) vals$center else NULL)
  if (spread) tau <- spec$tau_factor * found$radius
  if (find_tau && !spread) {
    coarse <- dp_geodesic_regression(M, xc, Y, epsilon = eps[["coarse"]], tau = r0 / spec$scale_factor, tau_m = tau_m, x_range = x_range,
                                      center = ctr, radius = radius, bound = bound, control = control)
    fitted <- as_points(M, stats::predict(coarse, xc), "fit")
    res <- geom_dist(M, fitted, S)
    tau <- spec$tau_factor * bounds_residual_stage(res, radii, spec$tau_fraction, eps[["tau"]])
    rm(coarse, fitted, res)
  }
  rel <- dp_geodesic_regression(M, xc, Y, epsilon = eps_release, tau = tau, tau_m = tau_m, x_range = x_range,
                                center = ctr, radius = radius, bound = bound, control = control,
                                diagnostics = diagnostics)
  rel$epsilon <- sum(stages$epsilon) + eps_release
  rel$epsilon_release <- eps_release
  rel$bounds_stages <- stages
  rel$bounds_spec <- spec
  rel$bounds_rules <- rules
  rel$private_bounds <- c(if ("range" %in% run) "x_range", if (find_ball) plan$stages$bound,
                          if (find_tau) "tau", if (!given$tau_m) "tau_m")
  if (find_ball) {
    # where the private ball sits on its grid and in the region (computed
    # from the private outputs: post-processing)
    e <- found$edges
    e$what <- "the responses' private radius (from which the footpoint ball, and tau_m and tau where not stated, follow)"
    rel$bounds_edges <- e
  }
  rel$covariate_name <- covariate_name
  rel$call <- call
  rel
}

# ---- linear regression ---------------------------------------------------

# dp_linear_regression(bounds = ), called from dp_linear_regression() with the
# model matrix X (without intercept), the response y and the stated bounds.
linear_release_with_bounds <- function(X, y, dummy, numeric_cols, epsilon, x_range, tau, beta_max, bounds, control,
                                       diagnostics, meta, call) {
  spec <- as_regression_bounds_spec(bounds, call)
  m <- ncol(X)
  n <- length(y)
  find_x <- length(numeric_cols) > 0L && is.null(x_range)
  find_beta <- is.null(beta_max)
  find_tau <- is.null(tau)
  if (!find_x && !find_beta && !find_tau)
    abort("`bounds` has nothing to find: `tau`, `x_range` and `beta_max` are all given; drop `bounds`", call)
  R <- matrix(c(0, 1), 2L, m, dimnames = list(c("lower", "upper"), colnames(X)))
  if (length(numeric_cols) && !find_x) R[, numeric_cols] <- predictor_ranges(x_range, numeric_cols, call)
  if (find_x) {
    if (is.null(spec$x_limits))
      abort(sprintf("the predictors' ranges are to be found privately: give their public wide ranges, bounds = dp_regression_bounds(x_limits = ...) (for %s, in any form `x_range` takes), or state `x_range`",
                    paste0("`", numeric_cols, "`", collapse = ", ")), call)
    L <- predictor_ranges(spec$x_limits, numeric_cols, call, "x_limits")
    grids <- lapply(numeric_cols, function(j) bounds_range_grid(L[, j], spec$n_grid))
    names(grids) <- numeric_cols
    for (j in numeric_cols) {
      g <- grids[[j]]
      far <- if (abs(g[1]) > abs(g[length(g)])) g[1:2] else g[length(g) - 1:0]
      check_range_resolved(far[1], far[2], sprintf("x_limits` for `%s` (one step of its grid", j), j, call, "I(%s - %s)")
    }
  }
  if (find_beta && is.null(spec$y_limits)) {
      abort("the response's range is to be found privately (for `beta_max` and the grid of `tau`): give its public wide range, bounds = dp_regression_bounds(y_limits = c(lower, upper)), or state `beta_max`", call)
  }
  find_y <- find_beta || (find_tau && spec$tau_method == "spread" && !is.null(spec$y_limits))
  spread <- find_tau && spec$tau_method == "spread" && find_y
  # the response's range takes the `location` weight (it locates the responses)
  run <- c(if (find_x) "range", if (find_y) "location", if (find_tau && !spread) c("coarse", "tau"))
  eps_bounds <- spec$share * epsilon
  eps_release <- epsilon - eps_bounds
  eps <- bounds_weights(spec$weights, run, eps_bounds)
  eps_each <- if (find_x) eps[["range"]] / length(numeric_cols) else 0
  eps_y <- if (find_y) eps[["location"]] else 0
  stages <- empty_stages()
  rules <- character(0)
  if (find_x) for (j in numeric_cols) {
    bounds_check_quantile(n, eps_each / 2, spec$n_grid, sprintf("range of `%s`", j), call)
    stages <- bounds_stage_row(stages, sprintf("range of %s", j), "x_range", eps_each,
                               sprintf("two private quantiles (fractions %s) of `%s` by the exponential mechanism (Smith 2011), each %s-DP, over %d public points of [%s, %s]",
                                       paste(format(spec$x_fractions), collapse = ", "), j,
                                       format_guarantee(eps_each / 2, 4), spec$n_grid, format(L[1, j]), format(L[2, j])),
                               spec$n_grid)
  }
  if (find_y) {
    ylim <- spec$y_limits
    ygrid <- bounds_range_grid(ylim, spec$n_grid)
    bounds_check_quantile(n, eps_y / 2, spec$n_grid, "response range", call)
    stages <- bounds_stage_row(stages, "response range", "y_range", eps_y,
                               sprintf("two private quantiles (fractions %s) of the response by the exponential mechanism (Smith 2011), each %s-DP, over %d public points of [%s, %s]",
                                       paste(format(spec$x_fractions), collapse = ", "), format_guarantee(eps_y / 2, 4),
                                       spec$n_grid, format(ylim[1]), format(ylim[2])), spec$n_grid)
    if (find_beta) rules <- c(rules, "beta_max = max(|lower|, |upper|) + (upper - lower) of the response's private range (the fit at the lower corner within one range width of the responses, each change across a range within one width)")
  }
  # tau's grid: geometric, from width/1000 to the width of y_limits, or of
  # [-beta_max, beta_max] when beta_max is stated (public)
  top <- if (!is.null(spec$y_limits)) diff(spec$y_limits) else 2 * beta_max
  nr <- spec$n_radii %||% 100L
  radii <- top * 1000^(-rev(seq_len(nr) - 1) / (nr - 1))
  radii[length(radii)] <- top
  if (spread) rules <- c(rules, sprintf("tau is %s times half the distance between the response's private quantiles (its spread; no coarse fit)",
                                        format(spec$tau_factor)))
  if (find_tau && !spread) {
    stages <- bounds_stage_row(stages, "coarse fit", "coarse", eps[["coarse"]],
                               "a coarse private linear regression (K-norm gradient mechanism) with tau = half the response's private range (or beta_max), used only for the residuals of the next stage",
                               NA_real_)
    bounds_check_quantile(n, eps[["tau"]], length(radii), "residual clip tau", call)
    stages <- bounds_stage_row(stages, "residual clip", "tau", eps[["tau"]],
                               sprintf("private quantile (fraction %s) of the coarse fit's absolute residuals by the exponential mechanism (Smith 2011) over %d public radii up to %s",
                                       format(spec$tau_fraction), length(radii), format(top, digits = 4)), length(radii))
    rules <- c(rules, sprintf("tau is %s times the private quantile of the absolute residuals", format(spec$tau_factor)))
  }
  rules <- c(rules, sprintf("each private range is its two private quantiles widened on each side by %s times their distance (Tukey's fences), within the public wide range", format(spec$fence)),
             "predictors outside their private ranges (or the public wide ranges) are clipped to them")
  # worst cases, before the data are used
  worst_beta <- if (find_beta) max(abs(spec$y_limits)) + diff(spec$y_limits) else beta_max
  worst_tau <- if (find_tau) max(spec$tau_factor * top, worst_beta) else tau
  E1 <- manifold_euclidean(1)
  for (e in c(eps_release, if (find_tau && !spread) eps[["coarse"]])) {
    sens <- regression_sensitivity(E1, n, worst_tau, worst_beta, "poster", m = m, call = call)
    if (!is.finite(2 * sens[["joint"]] / e))
      abort(sprintf("`epsilon` = %s is too small: sigma = 2 Delta / epsilon overflows at the largest tau the stages can return", format(epsilon)), call)
  }
  check_squares_representable(E1, list(x = 0, n = 1L), list(tau = worst_tau, beta_max = worst_beta), call, "the response")
  # The data enter below.
  if (find_x) for (j in numeric_cols) {
    xj <- pmin(pmax(X[, j], L[1L, j]), L[2L, j])
    R[, j] <- bounds_range_stage(xj, grids[[j]], spec$x_fractions, eps_each, spec$fence)
  }
  for (j in seq_len(m)) X[, j] <- pmin(pmax(X[, j], R[1L, j]), R[2L, j])
  if (find_y) {
    yr <- bounds_range_stage(pmin(pmax(y, ylim[1]), ylim[2]), ygrid, spec$x_fractions, eps_y, spec$fence)
    if (find_beta) beta_max <- max(abs(yr)) + (yr[2] - yr[1])
  }
  if (spread) tau <- spec$tau_factor * diff(attr(yr, "quantiles")) / 2
  if (find_tau && !spread) {
    tau_c <- if (find_y) (yr[2] - yr[1]) / 2 else beta_max / 2
    coarse <- linear_release_core(X, y, R, eps[["coarse"]], tau_c, beta_max, control, FALSE, meta, call)
    res <- abs(y - drop(cbind(1, X) %*% coarse$coefficients))
    tau <- spec$tau_factor * bounds_residual_stage(res, radii, spec$tau_fraction, eps[["tau"]])
    rm(coarse, res)
  }
  rel <- linear_release_core(X, y, R, eps_release, tau, beta_max, control, diagnostics, meta, call)
  rel$epsilon <- sum(stages$epsilon) + eps_release
  rel$epsilon_release <- eps_release
  rel$bounds_stages <- stages
  rel$bounds_spec <- spec
  rel$bounds_rules <- rules
  rel$private_bounds <- c(if (find_x) "x_range", if (find_y) "beta_max", if (find_tau) "tau")
  rel
}
