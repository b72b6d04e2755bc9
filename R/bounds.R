# Private bounds for the private Frechet mean: the centre and radius of the
# public ball B_r(c) that dp_frechet_mean() needs, found under differential
# privacy with a stated share of the budget (issue 21, stage 1).
#
# Two stages, each an exponential mechanism (McSherry & Talwar 2007) over a
# public finite set, with a utility of sensitivity 1 under replace-one
# adjacency:
#   location: candidates c_j of a public net, u_j = #{i: d(x_i, c_j) <= r}
#             (on spd a 1-D net of multiples of the region's centre; on
#             kendall a coarse private mean instead, see bounds_coarse_plan);
#   scale:    radii r_j of a public grid around the (private or stated)
#             centre c, u_j = -|#{i: d(x_i, c) <= r_j} - fraction * n|
#             (a private quantile by the exponential mechanism, Smith 2011).
# Each draws index j with probability proportional to exp(eps * u_j / 2),
# exactly: weights normalised by their maximum (log-sum-exp), then one
# uniform from R's generator (set.seed() reproduces). The work is the same
# whatever the data (every candidate is scored against every point; no
# branch on a count), and no message or error depends on the data. Nets and
# grids are built from arguments and constants only, without R's generator.

#' Public settings for privately found bounds
#'
#' `dp_bounds()` states, publicly, how the bounds of a private Fréchet mean
#' that the user cannot state are to be found under differential privacy:
#' what share of the budget they may spend, the public region they lie in,
#' and the public nets, grids and fractions of the two stages. It touches no
#' data; the result is spent by [dp_frechet_mean()] (`bounds = dp_bounds()`)
#' or by [dp_find_bounds()].
#'
#' **Stages.** Two exponential mechanisms (McSherry & Talwar 2007), each over
#' a public finite set with a utility of sensitivity 1 under replace-one
#' adjacency, drawing index \eqn{j}{j} with probability proportional to
#' \eqn{\exp(\epsilon_s u_j / 2)}{exp(epsilon_s u_j / 2)}, which is
#' \eqn{\epsilon_s}{epsilon_s}-DP:
#' * *location* (the centre): candidates \eqn{c_j}{c_j} of a public net,
#'   \eqn{u_j = \#\{i : d(x_i, c_j) \le r\}}{u_j = #{i : d(x_i, c_j) <= r}}, the
#'   number of points within the public count radius \eqn{r}{r};
#' * *scale* (the radius): radii \eqn{r_j}{r_j} of a public grid around the
#'   centre \eqn{c}{c},
#'   \eqn{u_j = -|\#\{i : d(x_i, c) \le r_j\} - f n|}{u_j = -|#{i : d(x_i, c) <= r_j} - f n|}
#'   with \eqn{f}{f} the public `fraction`: a private quantile of the
#'   distances by the exponential mechanism (Smith 2011), on a grid.
#'
#' The bounds' budget (`share` \eqn{\times}{x} `epsilon` in [dp_frechet_mean()],
#' all of `epsilon` in [dp_find_bounds()]) goes `split` to the location stage
#' and \eqn{1 - }{1 - }`split` to the scale stage when both run, and wholly to
#' the one that runs when the user states the other bound. The stages and the
#' mean compose by basic composition (Dwork & Roth 2014, Thm 3.16): the total
#' is the sum.
#'
#' **Nets (public).** On [manifold_sphere()] the candidates cover the whole
#' sphere, or the public cap of radius `region_radius` around
#' `region_center`: on \eqn{S^1}{S^1} equally spaced angles, on
#' \eqn{S^2}{S^2} a Fibonacci lattice (near equal area per point), on
#' \eqn{S^d}{S^d}, \eqn{d \ge 3}{d >= 3}, a deterministic quasi-random
#' (Kronecker) sequence mapped to the sphere; their number is the area of the
#' sphere over `spacing`\eqn{^d}{^d}. On [manifold_euclidean()] and
#' [manifold_hyperbolic()] they are a cubic grid of step `spacing` in normal
#' coordinates at the public `region_center`, within the public ball of
#' radius `region_radius` (a large ball: public knowledge such as "somewhere
#' within 1000 km"); on hyperbolic space the grid is finer than `spacing`
#' near the centre and coarser far from it, since normal coordinates stretch
#' distances by \eqn{\sinh(\rho)/\rho}{sinh(rho)/rho}. A net with more than
#' `max_candidates` points (a high dimension, or a fine spacing) is an error
#' that names the remedies. `candidates` replaces the net by any public set
#' of points (sphere, euclidean, hyperbolic and spd space).
#'
#' **Location on spd: a public net of scalar matrices.** A net of all of
#' `manifold_spd(k)` of spacing \eqn{h}{h} in a ball of radius \eqn{R}{R}
#' holds about \eqn{(R/h)^{dim}}{(R/h)^dim} points, \eqn{dim = k(k+1)/2}{dim = k(k+1)/2}
#' (6 at k = 3, 15 at k = 5): out of reach. By default (`location = "auto"`
#' or `"net"`) the candidates are instead the multiples
#' \eqn{e^t c_0}{exp(t) c0} of the public `region_center` \eqn{c_0}{c0}
#' (the scalar matrices \eqn{e^t I}{exp(t) I} when \eqn{c_0 = I}{c0 = I}),
#' the geodesic through \eqn{c_0}{c0} along its own scale, with
#' \eqn{d(e^t c_0, c_0) = |t|\sqrt{k}}{d(exp(t) c0, c0) = |t| sqrt(k)}: a
#' 1-dimensional net of step `spacing` in distance within the region
#' \eqn{B_R(c_0)}{B_R(c0)} (17 candidates by default), scored like every net
#' by the exponential mechanism with counts within the public
#' `count_radius` (default \eqn{R/2}{R/2}, wide enough to hold the data's
#' anisotropy around their own scalar level: covariance matrices of
#' correlated returns lie about 2 from every scalar matrix). It finds the
#' data's overall scale (the level of their log-eigenvalues), which is what
#' a large public region leaves unknown; the scale stage then finds the
#' radius that holds the data's spread and anisotropy around it. Every
#' candidate has the condition number of \eqn{c_0}{c0}, so the worst ball
#' the release must resolve in double precision is a ball around
#' \eqn{c_0}{c0}.
#'
#' **Location on kendall (and on spd with `location = "coarse"`): a coarse
#' private mean.** On `manifold_kendall(k)` (dimension \eqn{2k - 4}{2k - 4})
#' the location stage is a first, coarse private Fréchet mean of the data
#' clipped to the public region \eqn{B_R(c_0)}{B_R(c0)} (`region_center`,
#' `region_radius`, both required): the release of [dp_frechet_mean()] with
#' `outside = "clip"` and the location stage's \eqn{\epsilon}{epsilon}, an
#' existing mechanism with its own guarantee. Its noise law is known, and the
#' coarse centre is moved into the region (post-processing), so it lies in
#' \eqn{B_R(c_0)}{B_R(c0)} whatever the data: every ball the scale stage can
#' return around it lies in \eqn{B_{R + r}(c_0)}{B_(R + r)(c0)}, and the
#' release checks that worst case (double precision on spd, the mechanism's
#' law at the largest radius) before the data are used. By default
#' (`coarse_mechanism = "auto"`) the coarse mean uses the K-norm gradient
#' mechanism (Reimherr & Awan 2019), whose law lives on the ball for any
#' rate; the Laplace law on spd exists only below a rate (0.707 on
#' `manifold_spd(3)`) that a small share in a large region exceeds, and near
#' it its heavy tail gives draws far outside the region. On Kendall's shape
#' space the region must lie inside the largest ball a release admits,
#' `region_radius` \eqn{< r^* = \pi/8}{< r* = pi/8}: a public template shape
#' and the shapes within, say, 0.3 of it (17 degrees of Procrustes distance).
#' On spd the coarse mean needs many points: its noise grows with the
#' region's radius and the dimension (below), and at \eqn{n = 92}{n = 92} in
#' a region of radius 5.6 it is refused where the scalar net works. On spd
#' a public centre at the data's expected scale (a multiple of the identity)
#' and a large public radius (the norm of the log-eigenvalues' public range)
#' serve both routes. On the sphere, euclidean and hyperbolic space the net
#' is a net of the whole region (its low dimension keeps it small, and it
#' finds the data anywhere in the region without a first release).
#'
#' **The ball's radius.** `scale_factor` times the private quantile radius
#' (the radius that holds a public `fraction` of the points). By default, on
#' euclidean and hyperbolic space twice the radius that holds half the
#' points (`fraction = 0.5, scale_factor = 2`: see Utility below), and on
#' the sphere, spd and Kendall's space the radius that holds 90% of them
#' (`fraction = 0.9, scale_factor = 1`: on the sphere and Kendall's space
#' twice the grid's largest radius would reach \eqn{r^*}{r*}; on spd it measured
#' better on [eustock_cov]).
#'
#' **Grid of radii (public).** `n_radii` radii of the ball (by default 100,
#' or fewer, down to 10, where the public n and the scale stage's
#' \eqn{\epsilon_s}{epsilon_s} are small: the largest G with
#' \eqn{(2/\epsilon_s)\log G \le 0.8 f n}{(2/epsilon_s) log G <= 0.8 f n}, so that the check below passes), geometric from
#' `radius_max / 1000` to `radius_max`, or the public `radii` given (the
#' quantile's grid is these over `scale_factor`). By
#' default `radius_max` is half the largest radius [dp_frechet_mean()]
#' admits, \eqn{r^*/2}{r*/2} ([sensitivity_radius_max()]: \eqn{\pi/8}{pi/8} on
#' \eqn{S^d}{S^d}, \eqn{d \ge 2}{d >= 2}, where the sensitivity is 1.55 times
#' its flat value \eqn{2r/n}{2r/n}; near \eqn{r^*}{r*} it grows without
#' limit), \eqn{2 \times}{2 x} `region_radius` on euclidean and hyperbolic
#' space, and `region_radius` on spd with the net (its candidates lie in the
#' region with the data). A private radius is thus never above what the
#' release admits. On spd with a public region, the default stops the grid,
#' if sooner, where double precision still resolves the worst ball: around a
#' candidate of the net (each has the conditioning of \eqn{c_0}{c0}), or
#' \eqn{B_{R + r}(c_0)}{B_(R + r)(c0)} for a coarse centre (about
#' \eqn{R + r \le 11}{R + r <= 11} around a well-conditioned \eqn{c_0}{c0}).
#'
#' **Utility.** The scale stage's utility is flat, at
#' \eqn{-(1 - f) n}{-(1 - f) n}, on every radius of the grid beyond the farthest
#' point, and each of those radii keeps a weight
#' \eqn{\exp(-\epsilon_s (1 - f) n / 2)}{exp(-epsilon_s (1 - f) n / 2)} relative to the best:
#' when \eqn{\epsilon_s (1 - f) n / 2}{epsilon_s (1 - f) n / 2} is small (2.5 at
#' \eqn{n = 500}{n = 500}, \eqn{f = 0.9}{f = 0.9}, \eqn{\epsilon_s = 0.1}{epsilon_s = 0.1}) and the grid
#' reaches far beyond the data (a public ball much larger than the data),
#' the private radius often overshoots, and the mean's noise grows with it.
#' Hence the default on euclidean and hyperbolic space, where the grid
#' reaches 2 x `region_radius`: twice the median radius, whose flat part
#' weighs \eqn{\exp(-\epsilon_s n / 4)}{exp(-epsilon_s n / 4)} (on a 2-dimensional Gaussian cloud twice the
#' median radius holds 94% of the points). A public `radius_max` nearer the
#' expected spread, or a larger part of the budget for the scale stage
#' (`split` below 0.5), also helps; `vignette("choosing-bounds", package = "riemdp")`
#' ("Bounds found privately") measures it. On the sphere the grid stops at \eqn{\pi/8}{pi/8}
#' and the overshoot is small.
#'
#' **Can the budget localise?** The exponential mechanism picks a candidate
#' whose utility is within about
#' \eqn{(2/\epsilon_s)\log N}{(2/epsilon_s) log N} of the best among
#' \eqn{N}{N}. When that count gap exceeds \eqn{f n}{f n} (the public
#' fraction of the public n; for the location stage the `fraction` given,
#' else 0.9) the stage cannot find the data, and the release
#' is an error that says so, computed from public n, \eqn{\epsilon}{epsilon},
#' `share`, `split`, `fraction` and the sizes of the net and grid, before the
#' data are used. The check is necessary, not sufficient: it assumes the best
#' candidate counts \eqn{f n}{f n} points, and a count radius much smaller
#' than the data's spread gives it fewer (the stage then often picks a
#' candidate far from the data, which costs utility, not privacy). On spd
#' the check counts the candidates of the scalar net (17 by default: at
#' \eqn{n = 92}{n = 92} it passes from \eqn{\epsilon_s = 0.069}{epsilon_s = 0.069}). The coarse
#' location stage on kendall (and on spd with `location = "coarse"`) lies about
#' \eqn{dim \times \sigma}{dim x sigma} from the mean (the mean of the radial
#' law \eqn{\Gamma(dim, \sigma)}{Gamma(dim, sigma)} of both mechanisms in flat
#' space, \eqn{\sigma}{sigma} its public rate); when that exceeds \eqn{R/2}{R/2}
#' it cannot do much better than the region's own centre, and the release
#' is an error, before the data are used, that says to state
#' `center = region_center` (the radius is then found privately with the
#' whole share).
#'
#' **Bounds at the edge of their grids.** A release with private bounds
#' (and the result of [dp_find_bounds()]) says in its print when its private
#' radius is the smallest of the scale stage's grid (the data may be more
#' concentrated than the grid reaches: a grid reaching lower may give a
#' smaller ball and less noise), or when its private centre lies on the
#' public region's edge: within one step of the net (the count radius for
#' public `candidates`) of the region's boundary, or, for a coarse centre,
#' moved onto it (the data may extend beyond the region). Both are computed
#' from the private outputs and public quantities only, so they cost no
#' privacy; the object's `bounds_edges` holds them.
#'
#' **Measured utility** (`vignette("choosing-bounds", package = "riemdp")`, "Bounds found privately", at
#' \eqn{\epsilon = 1}{epsilon = 1} in total: the median error from the
#' non-private mean over 1000 releases per route, private over hand-chosen
#' bounds; medians of 100 releases vary by some 15%). The 795 Tonga
#' epicentres on \eqn{S^2}{S^2}, "somewhere on Earth", share 0.2, against caps
#' of 10 and 20 degrees around a public point: 24 against 31 km and 24
#' against 26 km (ratios 0.77, 0.93). [eustock_cov] (n = 92) on
#' `manifold_spd(3)`, public region the identity with radius 5.6
#' (volatilities of 0.2% to 5% a day), against hand-chosen radius 4 around
#' the identity: centre and radius found privately at share 0.2 with the
#' defaults, the scalar net (17 candidates, count radius 2.8,
#' \eqn{\epsilon = 0.1}{epsilon = 0.1}) and 27 radii up to 5.6 (\eqn{\epsilon = 0.1}{epsilon = 0.1}), ratio 1.26 over 300
#' releases (1.32 against 1.05; 1.25 over 1000 with 20 radii; the
#' private centre lies a median 1.8 from the mean, the identity 2.1); with
#' the region's centre stated and the
#' radius found privately, 1.16 against 1.02 (ratio 1.14; with radius 8.0,
#' volatilities of 0.1% to 10%, ratio 1.38, from overshooting radii). The
#' coarse location stage is refused at share 0.2 (n = 92 is too small: it
#' would lie about 15 from the mean), and at share 0.75 runs but errs 3.7
#' times as much. Kendall's shapes of 4
#' landmarks (n = 500, region radius 0.3 around a template): ratio 0.50.
#' Simulated directions on \eqn{S^1}{S^1} (n = 300, spread 20 degrees) against
#' a known centre and radius 40 degrees: ratio 2.1 (the 10% of points the
#' private ball clips, around a centre a few degrees off, bias the mean).
#' 500 points of unit spread near (31.7, -18.4) in \eqn{R^2}{R^2}, public ball of
#' radius 100 around the origin, against centre (30, -20) and radius 5: ratio
#' 1.5 to 1.75 at the defaults (runs of 200 and 100 releases; 4.5 with the 90%
#' quantile as the radius: it overshoots), 1.5 with `count_radius = 5,
#' radius_max = 20, split = 0.3`;
#' 300 points of spread 0.2 on \eqn{H^2}{H^2} (region radius 3): ratio 0.9 (2.2
#' with the 90% quantile).
#'
#' @param share The share of the total \eqn{\epsilon}{epsilon} that
#'   [dp_frechet_mean()] spends on the bounds, strictly between 0 and 1; the
#'   mean gets the rest.
#' @param region_center,region_radius The public region that holds the data.
#'   Sphere: `NULL` (the default) for the whole sphere, or a public cap.
#'   Euclidean, hyperbolic, spd and kendall: required when the centre is to
#'   be found (a public point and a large public radius; on Kendall's shape
#'   space a public template shape and a radius below \eqn{\pi/8}{pi/8}).
#' @param count_radius The public radius \eqn{r}{r} of the location stage's
#'   counts. Default: \eqn{\pi/12}{pi/12} on the sphere,
#'   `region_radius / 2` on spd (the scalar net), `region_radius / 10`
#'   elsewhere. A radius near the data's expected spread localises best.
#'   A coarse net costs accuracy, not budget: every candidate whose count
#'   ball holds the data scores alike, so the private centre can land up to
#'   `count_radius` from the data, and the ball must then be that much
#'   larger to hold them (a larger sensitivity, more noise in the mean). On
#'   the sphere `count_radius` must therefore be at most the ball's largest
#'   radius (the top of the grid of radii, by default
#'   \eqn{r^*/2 = \pi/8}{r*/2 = pi/8} on \eqn{S^d}{S^d}; with a given `radius`,
#'   \eqn{r^* = \pi/4}{r* = pi/4}); a larger one is an error raised before the data
#'   are used. A finer net (smaller `spacing`) costs
#'   budget instead: the location stage needs about
#'   \eqn{(2/\epsilon)\log N}{(2/epsilon) log N} points for \eqn{N}{N} candidates.
#' @param spacing The public spacing of the net. Default: `count_radius / 3`
#'   on the sphere, `count_radius / 4` on spd (along the scalar net),
#'   `count_radius` on euclidean and hyperbolic space.
#' @param candidates `NULL` or a public set of candidate centres (points of
#'   the manifold), replacing the net.
#' @param max_candidates The public cap on the size of the net.
#' @param fraction,scale_factor The ball's radius is `scale_factor`
#'   (\eqn{\ge 1}{>= 1}) times the private radius that holds the public
#'   fraction \eqn{f}{f} (in (0, 1)) of the points. Default (`NULL`): 0.5 and
#'   2 on euclidean and hyperbolic space, 0.9 and 1 elsewhere (see "The
#'   ball's radius").
#' @param split The public part of the bounds' budget for the location stage
#'   when both stages run, in (0, 1).
#' @param radius_max,n_radii,radii The public grid of the ball's radii:
#'   `n_radii` geometric steps from `radius_max / 1000` to `radius_max`, or
#'   the increasing positive `radii` given (the quantile's grid is these over
#'   `scale_factor`).
#' @param coarse_mechanism The mechanism of the coarse private mean that is
#'   the location stage on kendall (and on spd with `location = "coarse"`):
#'   `"auto"` (the K-norm gradient mechanism), `"kng"` or `"laplace"`.
#' @param location The location stage: `"auto"` (a public net on the sphere,
#'   euclidean, hyperbolic and spd space, the coarse private mean on
#'   kendall), `"net"` (on spd: the net of multiples of `region_center`;
#'   not available on kendall) or `"coarse"` (a coarse private mean in the
#'   public region; spd and kendall only).
#' @return An object of class `riemdp_bounds_spec` (a list of the settings,
#'   with a `print()` method). It holds no data.
#' @references McSherry, F. and Talwar, K. (2007). Mechanism design via
#'   differential privacy. FOCS. Smith, A. (2011). Privacy-preserving
#'   statistical estimation with optimal convergence rates. STOC. Dwork, C.
#'   and Roth, A. (2014). The algorithmic foundations of differential
#'   privacy, Thm 3.16.
#' @seealso [dp_frechet_mean()], [dp_find_bounds()].
#' @examples
#' dp_bounds()                        # 20% of epsilon, whole sphere
#' dp_bounds(share = 0.3, region_center = c(0, 0), region_radius = 100)
#' # covariance matrices of daily returns in percent: around the identity,
#' # every log-eigenvalue within log(25) of 0
#' dp_bounds(region_center = diag(3), region_radius = sqrt(3) * log(25))
#' # at n = 92 (eustock_cov) the scale stage takes 27 radii (fewer than 100:
#' # its check of the budget), up to the region's radius
#' b <- dp_bounds(region_center = diag(3), region_radius = sqrt(3) * log(25))
#' dp_frechet_mean(manifold_spd(3), eustock_cov, epsilon = 1, bounds = b)
#' @export
dp_bounds <- function(share = 0.2, region_center = NULL, region_radius = NULL, count_radius = NULL,
                      spacing = NULL, candidates = NULL, max_candidates = 20000, fraction = NULL,
                      split = 0.5, radius_max = NULL, n_radii = NULL, radii = NULL,
                      coarse_mechanism = c("auto", "laplace", "kng"), location = c("auto", "net", "coarse"),
                      scale_factor = NULL) {
  call <- sys.call()
  coarse_mechanism <- arg_match(coarse_mechanism, c("auto", "laplace", "kng"), "coarse_mechanism", call)
  location <- arg_match(location, c("auto", "net", "coarse"), "location", call)
  if (!is.numeric(share) || length(share) != 1L || !is.finite(share) || share <= 0 || share >= 1)
    abort("`share` must be a single number strictly between 0 and 1: the part of the total epsilon spent on finding the bounds (the mean gets the rest)", call)
  in_open_unit <- function(x, arg, what) {
    if (!is.numeric(x) || length(x) != 1L || !is.finite(x) || x <= 0 || x >= 1)
      abort(sprintf("`%s` must be a single number strictly between 0 and 1: %s", arg, what), call)
    as.double(x)
  }
  if (!is.null(fraction))
    fraction <- in_open_unit(fraction, "fraction", "the public fraction of the points the private radius should hold")
  if (!is.null(scale_factor)) {
    if (!is.numeric(scale_factor) || length(scale_factor) != 1L || !is.finite(scale_factor) || scale_factor < 1)
      abort("`scale_factor` must be NULL or a single finite number >= 1: the public factor from the private quantile radius to the ball's radius", call)
    scale_factor <- as.double(scale_factor)
  }
  split <- in_open_unit(split, "split", "the part of the bounds' budget for the location stage")
  if (!is.null(region_radius)) region_radius <- check_positive(region_radius, "region_radius", call)
  if (!is.null(region_center)) check_finite_numeric(region_center, "region_center", call)
  if (!is.null(count_radius)) count_radius <- check_positive(count_radius, "count_radius", call)
  if (!is.null(spacing)) spacing <- check_positive(spacing, "spacing", call)
  if (!is.null(radius_max)) radius_max <- check_positive(radius_max, "radius_max", call)
  max_candidates <- check_count(max_candidates, "max_candidates", 1, call, upper = 1e7)
  if (!is.null(n_radii)) n_radii <- check_count(n_radii, "n_radii", 2, call, upper = 1e6)
  if (!is.null(radii)) {
    if (!is.numeric(radii) || length(radii) < 1L || !all(is.finite(radii)) || any(radii <= 0) ||
        is.unsorted(radii, strictly = TRUE))
      abort("`radii` must be NULL or a public increasing vector of finite radii > 0", call)
    radii <- as.double(radii)
  }
  if (!is.null(candidates)) check_finite_numeric(candidates, "candidates", call)
  structure(list(share = as.double(share), region_center = region_center, region_radius = region_radius,
                 count_radius = count_radius, spacing = spacing, candidates = candidates,
                 max_candidates = max_candidates, fraction = fraction, split = split,
                 radius_max = radius_max, n_radii = n_radii, radii = radii,
                 coarse_mechanism = coarse_mechanism, location = location, scale_factor = scale_factor),
            class = "riemdp_bounds_spec")
}

#' @export
print.riemdp_bounds_spec <- function(x, ...) {
  fmt <- function(v, default) if (is.null(v)) default else format(v, digits = 4)
  cat("<riemdp bounds specification> public settings for privately found bounds\n")
  cat(sprintf("  share of the total epsilon: %s (location stage %s of it, scale stage %s, when both run)\n",
              format(x$share), format(x$split), format(1 - x$split)))
  cat(sprintf("  public region: %s\n",
              if (is.null(x$region_radius)) "whole sphere (required on euclidean, hyperbolic, spd and kendall)"
              else sprintf("ball of radius %s around `region_center`", format(x$region_radius, digits = 4))))
  cat(sprintf("  location: %s; count radius %s; spacing %s; at most %d candidates\n",
              if (is.null(x$candidates)) "public net" else "the public `candidates` given",
              fmt(x$count_radius, "default (pi/12 on the sphere, region_radius/2 on spd, region_radius/10 elsewhere)"),
              fmt(x$spacing, "default"), x$max_candidates))
  loc <- x$location %||% "auto"
  cat(sprintf("  location on spd: %s; on kendall: a coarse private Fr\u00e9chet mean in the public region (%s mechanism)\n",
              if (loc == "coarse") "a coarse private Fr\u00e9chet mean in the public region"
              else "a public net of multiples exp(t) region_center of the region's centre",
              if (identical(x$coarse_mechanism %||% "auto", "auto")) "K-norm gradient" else x$coarse_mechanism))
  cat(sprintf("  scale: %s, over %s\n",
              if (is.null(x$fraction) && is.null(x$scale_factor))
                "by default twice the radius holding half the points on euclidean and hyperbolic space, elsewhere the radius holding 90%"
              else sprintf("%s times the radius holding a fraction %s of the points",
                           fmt(x$scale_factor, "the default (2 or 1) "), fmt(x$fraction, "the default (0.5 or 0.9)")),
              if (is.null(x$radii)) sprintf("%s geometric radii up to %s",
                                            if (is.null(x$n_radii)) "100 (fewer at small n and epsilon)" else format(x$n_radii),
                                            fmt(x$radius_max, "the default maximum (r*/2; region_radius on spd; 2 x region_radius on euclidean and hyperbolic space)"))
              else sprintf("the %d public radii given", length(x$radii))))
  invisible(x)
}

#' Private bounds for a private Fréchet mean
#'
#' Finds, under \eqn{\epsilon}{epsilon}-DP, the centre and radius of a ball
#' that holds a public fraction of the data, with the two exponential
#' mechanisms of [dp_bounds()] (McSherry & Talwar 2007; a private quantile as
#' in Smith 2011). The whole `epsilon` goes to the bounds (the `share` of the
#' specification is not used here): `split` of it to the location stage and
#' the rest to the scale stage, or all of it to the one stage that runs when
#' `center` is given. The result is a release: it prints its guarantee, can
#' be recorded in [dp_budget()], and its `center` and `radius` are public
#' input for [dp_frechet_mean()] (charged separately; the two compose by
#' basic composition).
#'
#' @inheritParams dp_frechet_mean
#' @param epsilon The budget of the bounds, \eqn{\epsilon > 0}{epsilon > 0}.
#' @param bounds A specification from [dp_bounds()].
#' @param center `NULL`, or a public centre: then only the radius is found.
#' @return An object of class `c("riemdp_bounds", "riemdp_release")`:
#'   `center` and `radius` (private unless given), `stages` (a data frame:
#'   `stage`, `bound`, `epsilon`, `mechanism`, `size` of the public set),
#'   `epsilon` (their sum), `guarantee` (`"epsilon-DP"`), `mu` (the
#'   \eqn{\mu}{mu}-GDP it implies), `n`, `manifold`, `spec` and `call`.
#' @references McSherry, F. and Talwar, K. (2007). Mechanism design via
#'   differential privacy. FOCS. Smith, A. (2011). Privacy-preserving
#'   statistical estimation with optimal convergence rates. STOC.
#' @seealso [dp_bounds()], [dp_frechet_mean()], [dp_budget()].
#' @examples
#' S2 <- manifold_sphere(2)
#' set.seed(1)
#' X <- riem_rgaussian(S2, 500, c(0, 0, 1), 0.1)
#' b <- dp_find_bounds(S2, X, epsilon = 0.2)
#' b
#' rel <- dp_frechet_mean(S2, X, epsilon = 0.8, center = b$center, radius = b$radius,
#'                        outside = "clip")
#' dp_budget(b, rel)                  # 1 in total
#' # Kendall's shape space: a coarse private mean in a public region around a
#' # template shape, then the radius
#' K <- manifold_kendall(4)
#' square <- matrix(c(0, 1, 1, 0, 0, 0, 1, 1), 4, 2)
#' Z <- riem_rgaussian(K, 500, square, 0.05)
#' dp_find_bounds(K, Z, epsilon = 0.2, bounds = dp_bounds(region_center = square, region_radius = 0.3))
#' @export
dp_find_bounds <- function(M, X, epsilon, bounds = dp_bounds(), center = NULL) {
  call <- call_without_data(match.call(), "X", "dp_find_bounds")
  check_manifold(M, call)
  check_bounds_spec(bounds, call)
  if (missing(epsilon)) abort("`epsilon`, the budget of the bounds (a single finite number > 0), is required", call)
  epsilon <- check_positive(epsilon, "epsilon", call)
  S <- release_points(M, X, call)
  C <- if (is.null(center)) NULL else bounds_public_point(M, center, "center", call)
  plan <- bounds_plan(M, bounds, S$n, epsilon, C, NULL, call)
  found <- bounds_run(M, S, plan, C, X = X)
  structure(list(center = from_values(M, found$center, 1L, TRUE, if (is.null(center)) found$like else center),
                 radius = found$radius, stages = plan$stages, epsilon = sum(plan$stages$epsilon),
                 guarantee = "epsilon-DP", mu = gdp_from_dp(sum(plan$stages$epsilon)), n = S$n,
                 manifold = M, center_given = !is.null(center), spec = bounds, bounds_edges = found$edges,
                 call = call),
            class = c("riemdp_bounds", "riemdp_release"))
}

#' @export
print.riemdp_bounds <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat(sprintf("<riemdp bounds> private ball for a Fr\u00e9chet mean on %s (n = %d)\n", manifold_label(x$manifold), x$n))
  cat(strwrap(paste("Guarantee:", bounds_stages_sentence(x$stages, x$epsilon, x$manifold)), exdent = 2), sep = "\n")
  cat(sprintf("Centre%s:\n", if (isTRUE(x$center_given)) " (public, given)" else " (private)"))
  print(x$center, digits = digits)
  cat(sprintf("Radius (private): %s\n", format(x$radius, digits = digits)))
  print_bounds_notes(x)
  invisible(x)
}

#' @export
coef.riemdp_bounds <- function(object, ...) list(center = object$center, radius = object$radius)

#' @export
summary.riemdp_bounds <- function(object, ...) object

# ---- internals -------------------------------------------------------------

check_bounds_spec <- function(bounds, call) {
  if (!inherits(bounds, "riemdp_bounds_spec"))
    abort("`bounds` must be NULL or a specification from dp_bounds(), e.g. bounds = dp_bounds(share = 0.2)", call)
  invisible(bounds)
}

bounds_public_point <- function(M, p, arg, call) {
  P <- as_points(M, p, arg, call)
  if (P$n != 1L) abort(sprintf("`%s` must be a single point", arg), call)
  P
}

# The public plan of the stages: which run, their epsilons, the net and the
# grid, and the checks that the budget can localise (public n and epsilon
# only). `C`: the stated centre (a set) or NULL; `radius`: the stated radius
# or NULL. `eps_bounds`: the budget of the stages together.
# The scale stage's public fraction f and the factor from the private
# quantile radius to the ball's: the user's, else per manifold. On euclidean
# and hyperbolic space the default grid reaches 2 x region_radius, far beyond
# the data, where the quantile's utility is flat at -(1 - f) n, so a 90%
# quantile often overshoots (bench/private-bounds.R: 4.5 times the error of
# hand-chosen bounds on R^2): twice the median radius instead (the flat part
# then weighs exp(-epsilon n / 4) each; 1.4 times). On the sphere and
# Kendall's space the grid stops at r*/2, and doubling it would reach r*: the
# 90% quantile itself. On spd too (measured on eustock_cov, n = 92, where the
# median's check of the budget below is the stricter).
bounds_scale_defaults <- function(M, spec) {
  far <- M$type %in% c("euclidean", "hyperbolic")
  list(fraction = spec$fraction %||% (if (far) 0.5 else 0.9),
       scale_factor = spec$scale_factor %||% (if (far) 2 else 1))
}

# The stages of the mean route (mean_route = FALSE: the regression route,
# which scales the radius itself).
bounds_plan <- function(M, spec, n, eps_bounds, C, radius, call, mean_route = TRUE) {
  find_center <- is.null(C)
  find_radius <- is.null(radius)
  eps_loc <- if (find_center) eps_bounds * (if (find_radius) spec$split else 1) else 0
  eps_scale <- if (find_radius) eps_bounds - eps_loc else 0
  stages <- data.frame(stage = character(0), bound = character(0), epsilon = numeric(0), mechanism = character(0),
                       size = numeric(0), stringsAsFactors = FALSE)
  sc <- bounds_scale_defaults(M, spec)
  if (!mean_route) sc$scale_factor <- 1
  # the location stage's check assumes its best candidate counts the user's
  # fraction of n, or 90% of it
  f_loc <- spec$fraction %||% 0.9
  spec$fraction <- sc$fraction
  plan <- list(find_center = find_center, find_radius = find_radius, eps_location = eps_loc, eps_scale = eps_scale,
               fraction = sc$fraction, scale_factor = sc$scale_factor)
  region <- bounds_region(M, spec, call)
  coarse <- bounds_location_route(M, spec, call) == "coarse"
  if (find_center && coarse) {
    plan$coarse <- bounds_coarse_plan(M, spec, region, n, eps_loc, call)
    plan$like <- spec$region_center
    stages[nrow(stages) + 1L, ] <- list("location", "center", eps_loc, plan$coarse$sentence, 1)
  } else if (find_center) {
    net <- bounds_net(M, spec, region, call)
    plan$candidates <- net$set
    plan$count_radius <- net$count_radius
    plan$spacing <- net$spacing   # NULL for public `candidates`
    plan$like <- net$like
    plan$net_sentence <- net$sentence
    N <- net$set$n
    bounds_check_localise(n, eps_loc, N, f_loc * n,
                          sprintf("the public fraction %s of n", format(f_loc)),
                          "location stage to localise", "public candidates picks one whose count is",
                          "Raise `epsilon` or `share`, use fewer candidates (a larger `spacing` or `count_radius`, or a smaller public region), or state `center`",
                          call)
    stages[nrow(stages) + 1L, ] <- list("location", "center", eps_loc,
                                        sprintf("exponential mechanism (McSherry & Talwar 2007) over %d public candidates%s scored by their counts within %s", N,
                                                net$sentence %||% "", format(net$count_radius, digits = 4)), N)
  }
  if (find_radius) {
    if (is.null(spec$n_radii)) spec$n_radii <- bounds_n_radii(n, eps_scale, spec$fraction)
    radii <- bounds_radii(M, spec, region, call, if (find_center && !coarse) plan$candidates else NULL, sc$scale_factor)
    plan$radii <- radii
    G <- length(radii)
    bounds_check_localise(n, eps_scale, G, spec$fraction * n,
                          sprintf("the public fraction %s of n", format(spec$fraction)),
                          "scale stage", "public radii picks one whose count is",
                          "Raise `epsilon` or `share`, use fewer radii (`n_radii`), or state `radius`", call)
    stages[nrow(stages) + 1L, ] <- list("scale", "radius", eps_scale,
                                        sprintf("%sprivate quantile by the exponential mechanism (Smith 2011) over %d public radii up to %s, fraction %s",
                                                if (sc$scale_factor != 1) sprintf("%s times a ", format(sc$scale_factor)) else "",
                                                G, format(max(radii), digits = 4), format(spec$fraction)), G)
  }
  # on the sphere, a count ball wider than the release's ball lets the
  # location stage pick a centre up to count_radius from the data, where no
  # ball the release admits reaches them (count_radius = 2 on S^2: a
  # 29-point net, a private ball holding none of the data); checked on the
  # public settings before the data are used
  if (find_center && !coarse && M$type == "sphere") {
    top <- if (find_radius) sc$scale_factor * max(plan$radii) else priv_frechet_sensitivity(M, 1, 0)$radius_max
    if (plan$count_radius > top)
      abort(sprintf("`count_radius` = %s exceeds the largest radius of the ball, %s (%s) on %s: the location stage would pick a centre up to count_radius from the data, which no ball of that radius reaches. Give `count_radius` at most %s (the default is pi/12; a radius near the data's expected spread localises best)%s",
                    format(plan$count_radius, digits = 4), format(top, digits = 4),
                    if (!find_radius) "r* = sensitivity_radius_max(M), the largest ball a release admits"
                    else if (is.null(spec$radius_max) && is.null(spec$radii)) "the top of the public grid of radii, r*/2 with r* = sensitivity_radius_max(M)"
                    else "the top of the public grid of radii, `radius_max` or `radii`",
                    manifold_label(M), format(top, digits = 4), radius_units_note(M)), call)
  }
  plan$region <- region
  plan$stages <- stages
  plan
}

# The location route from the public specification and M: "coarse" (a
# coarse private mean; kendall, or spd with location = "coarse") or "net"
# (the exponential mechanism over a public net; spd by default).
bounds_location_route <- function(M, spec, call) {
  loc <- spec$location %||% "auto"
  if (M$type == "kendall") {
    if (loc == "net")
      abort(sprintf("`location = \"net\"` is not available on %s: a net in its %d dimensions is out of reach; use location = \"auto\" or \"coarse\" (a coarse private mean in the public region), or state `center`",
                    manifold_label(M), M$dim), call)
    return("coarse")
  }
  if (M$type == "spd") return(if (loc == "coarse") "coarse" else "net")
  if (loc == "coarse")
    abort(sprintf("`location = \"coarse\"` is for manifold_spd(k) and manifold_kendall(k); on %s the location stage is a public net: use location = \"auto\" or \"net\"",
                  manifold_label(M)), call)
  "net"
}

# Can an exponential mechanism over N public choices, at eps, find the data?
# It picks a choice whose utility is within about (2/eps) log N of the best
# (McSherry & Talwar 2007); an error, from public numbers only, when that
# gap exceeds `limit` points (public: a fraction of the public n).
bounds_check_localise <- function(n, eps, N, limit, limit_text, what, choices, remedy, call) {
  gap <- 2 / eps * log(N)
  if (gap > limit)
    abort(sprintf("n = %.0f is too small for the %s at its epsilon %s: the exponential mechanism over %d %s within about (2/epsilon) log(%d) = %s points of the best, more than %s (%s points). %s",
                  as.double(n), what, format(eps, digits = 4), N, choices, N, format(gap, digits = 4), limit_text,
                  format(limit, digits = 4), remedy), call)
  invisible(TRUE)
}

# The public region: list(center = set or NULL, radius = number or NULL).
bounds_region <- function(M, spec, call) {
  C <- if (is.null(spec$region_center)) NULL else bounds_public_point(M, spec$region_center, "region_center", call)
  if (is.null(C) != is.null(spec$region_radius) && !(M$type == "sphere" && is.null(C) && is.null(spec$region_radius)))
    abort("give both `region_center` and `region_radius` in dp_bounds() (the public region), or neither (on the sphere: the whole sphere)", call)
  if (!is.null(C)) bounds_region_resolved(M, C, spec$region_radius, call)
  list(center = C, radius = spec$region_radius)
}

# A public region double precision can hold (public parameters only). On the
# hyperboloid, points of the region are resolved to a relative 1e-6 only
# within resolved_reach() of the origin: the net's candidates beyond it are
# rounding noise (and overflow: "cannot be represented"). On spd the net of
# multiples exp(t) c0, |t| <= R / sqrt(k), must have finite positive
# eigenvalues (beyond, eigen() met infinite values).
bounds_region_resolved <- function(M, C, R, call) {
  if (M$type == "hyperbolic") {
    reach <- resolved_reach(M, C$x)
    if (!(R <= reach))
      abort(sprintf("`region_radius` = %s is too large on %s: around `region_center` double precision resolves points only within %s (distance %s from the origin, where a point is located to about 1e-16 sinh(distance)). Give a `region_radius` of at most %s (move the data towards the origin by an isometry if the region is far from it)",
                    format(R, digits = 4), manifold_label(M), format(max(0, reach), digits = 4),
                    format(acosh(1e-6 / .Machine$double.eps), digits = 4), format(max(0, reach), digits = 4)), call)
  } else if (M$type == "spd") {
    lam <- eigen(matrix(C$x, M$k), symmetric = TRUE, only.values = TRUE)$values
    reach <- sqrt(M$k) * (log(.Machine$double.xmax) / 2 - max(abs(log(lam))))
    if (!(R <= reach))
      abort(sprintf("`region_radius` = %s is too large on %s: the region's matrices around `region_center` (multiples exp(t) region_center with |t| up to region_radius / sqrt(%d)) overflow double precision beyond %s. Give a `region_radius` of at most %s (a region of that size is wider than any data of the scale of `region_center`)",
                    format(R, digits = 4), manifold_label(M), M$k, format(max(0, reach), digits = 4),
                    format(max(0, reach), digits = 4)), call)
  }
  invisible(TRUE)
}

# The public net of candidate centres (a set), from the specification and M.
bounds_net <- function(M, spec, region, call) {
  r <- spec$count_radius
  if (!is.null(spec$candidates)) {
    cand <- as_points(M, spec$candidates, "candidates", call)
    cand$x <- matrix(cand$x, cand$n)
    if (is.null(r)) {
      if (M$type == "sphere") r <- pi / 12
      else if (!is.null(region$radius)) r <- region$radius / 10
      else abort("give `count_radius` in dp_bounds() with public `candidates` (the radius of the location stage's counts)", call)
    }
    if (cand$n > spec$max_candidates)
      abort(sprintf("`candidates` holds %d points, more than `max_candidates` = %d", cand$n, spec$max_candidates), call)
    return(list(set = cand, count_radius = r, like = NULL))
  }
  if (M$type == "sphere") {
    if (is.null(r)) r <- pi / 12
    h <- spec$spacing %||% (r / 3)
    pts <- sphere_net(M$d, h, spec$max_candidates, call)
    if (!is.null(region$center)) {
      keep <- geom_dist(M, region$center, list(x = pts, n = nrow(pts), by_row = TRUE)) <= region$radius
      pts <- pts[keep, , drop = FALSE]
      if (!nrow(pts))
        abort(sprintf("the public cap of radius %s holds no point of the net (spacing %s): use a smaller `spacing`",
                      format(region$radius, digits = 4), format(h, digits = 4)), call)
    }
    return(list(set = list(x = pts, n = nrow(pts), by_row = TRUE, single = FALSE, arg = "candidates"),
                count_radius = r, like = NULL, spacing = h))
  }
  if (M$type == "spd") return(spd_scalar_net(M, spec, region, call))
  # euclidean, hyperbolic: a cubic grid in normal coordinates at the public
  # region's centre, inside its ball
  if (is.null(region$center))
    abort(sprintf("on %s, finding the centre privately needs a public region: give `region_center` and a large public `region_radius` in dp_bounds() (e.g. what is known of where the data can lie), or state `center`",
                  manifold_label(M)), call)
  R <- region$radius
  if (is.null(r)) r <- R / 10
  h <- spec$spacing %||% r
  d <- M$dim
  k <- floor(R / h)
  est <- exp(d / 2 * log(pi) - lgamma(d / 2 + 1) + d * log(R / h))  # points in the ball, about
  if ((2 * k + 1)^d > 1e8 || est > 2 * spec$max_candidates)
    abort(sprintf("the public net would hold about %s candidates (a grid of step %s in %d dimensions within radius %s), more than `max_candidates` = %d: give a larger `spacing` or `count_radius`, a smaller public `region_radius`, raise `max_candidates`, or state `center`",
                  format(est, digits = 3, big.mark = ","), format(h, digits = 4), d, format(R, digits = 4),
                  spec$max_candidates), call)
  g <- as.matrix(expand.grid(rep(list((-k:k) * h), d), KEEP.OUT.ATTRS = FALSE))
  g <- g[rowSums(g^2) <= R^2 * (1 + 1e-12), , drop = FALSE]
  if (nrow(g) > spec$max_candidates)
    abort(sprintf("the public net holds %d candidates (a grid of step %s in %d dimensions within radius %s), more than `max_candidates` = %d: give a larger `spacing` or `count_radius`, a smaller public `region_radius`, raise `max_candidates`, or state `center`",
                  nrow(g), format(h, digits = 4), d, format(R, digits = 4), spec$max_candidates), call)
  c0 <- region$center
  if (M$type == "euclidean") {
    pts <- sweep(g, 2L, c0$x, "+")
  } else {
    # tangent vectors at the origin (0, g), transported to the centre, then Exp
    o <- c(1, rep(0, d))
    V <- cbind(0, g)
    O <- list(x = o, n = 1L, by_row = TRUE)
    Vt <- geom_transport(M, O, c0, list(x = V, n = nrow(V), by_row = TRUE), TRUE)
    pts <- geom_exp(M, c0, list(x = matrix(Vt, nrow(V)), n = nrow(V), by_row = TRUE), TRUE)
    pts <- matrix(pts, nrow(V))
  }
  storage.mode(pts) <- "double"
  list(set = list(x = pts, n = nrow(pts), by_row = TRUE, single = FALSE, arg = "candidates"), count_radius = r,
       like = NULL, spacing = h)
}

# spd: the public 1-D net of multiples exp(t) c0 of the region's centre c0
# (the scalar matrices exp(t) I when c0 = I), the geodesic through c0 in the
# direction of c0: d(exp(t) c0, c0) = |t| sqrt(k), so the net has step
# `spacing` in distance and lies in B_R(c0). A net of all of spd(k) grows
# like spacing^-(k(k+1)/2); this one scores each candidate by the points
# within a count radius wide enough (default R / 2) to hold the data's
# anisotropy around its own scalar level. Every candidate has the condition
# number of c0.
spd_scalar_net <- function(M, spec, region, call) {
  if (is.null(region$center))
    abort(sprintf("on %s, finding the centre privately needs a public region: give `region_center` (a public matrix at the expected scale, e.g. a multiple of the identity) and a large public `region_radius` in dp_bounds(), or state `center`",
                  manifold_label(M)), call)
  R <- region$radius
  r <- spec$count_radius %||% (R / 2)
  h <- spec$spacing %||% (r / 4)
  k <- M$k
  m <- floor(R / h * (1 + 1e-12))
  if (!(2 * m + 1 <= spec$max_candidates))
    abort(sprintf("the public net of multiples of `region_center` would hold %d candidates (spacing %s within radius %s), more than `max_candidates` = %d: give a larger `spacing`, a smaller public `region_radius`, raise `max_candidates`, or state `center`",
                  2L * m + 1L, format(h, digits = 4), format(R, digits = 4), spec$max_candidates), call)
  t <- (-m:m) * h / sqrt(k)
  pts <- outer(exp(t), as.vector(region$center$x))
  list(set = list(x = pts, n = nrow(pts), by_row = TRUE, single = FALSE, arg = "candidates"), count_radius = r,
       like = spec$region_center, spacing = h,
       sentence = sprintf(" (the multiples exp(t) region_center, spacing %s)", format(h, digits = 4)))
}

# The coarse location stage on kendall, and on spd with location = "coarse"
# (a net of candidate centres grows like spacing^-dim, and dim = k(k+1)/2 on
# spd(k), 2k - 4 on kendall(k) planar shapes): a private Frechet mean of the data clipped to the
# public region B_R(c0), an existing audited release (dp_frechet_mean()).
# Its mechanism, its rate and every check of its law are public (n, R,
# epsilon), made here before the data are used. The coarse centre is moved
# into B_R(c0) (post-processing), so it lies there whatever the data: the
# caller checks the second ball at that worst case.
bounds_coarse_plan <- function(M, spec, region, n, eps, call) {
  if (is.null(region$center))
    abort(sprintf("on %s, finding the centre privately needs a public region: give `region_center` (%s) and a public `region_radius` in dp_bounds(); the centre is then a coarse private Fr\u00e9chet mean of the data clipped to that ball. Or state `center`",
                  manifold_label(M),
                  if (M$type == "spd") "a public matrix at the expected scale, e.g. a multiple of the identity"
                  else "a public template shape"), call)
  R <- region$radius
  C0 <- region$center
  rstar <- priv_frechet_sensitivity(M, 1, 0)$radius_max
  if (!(R < rstar))
    abort(sprintf("`region_radius` = %s is not below r* = %s on %s (sensitivity_radius_max()): the coarse private mean of the location stage needs its public region inside the largest ball a Fr\u00e9chet-mean release admits. Give a public region of radius below r* (on Kendall's shape space, around a public template shape: shapes within %s of it), or state `center`",
                  format(R, digits = 6), format(rstar, digits = 6), manifold_label(M), format(rstar, digits = 3)), call)
  check_ball_resolved(M, C0, R, call, "the coarse private mean of the location stage", c("region_radius", "region_center"))
  sens <- frechet_sensitivities(M, n, R, call)
  mech <- spec$coarse_mechanism %||% "auto"
  sigma_lap <- 2 * sens$mean / eps
  # "auto": the K-norm gradient mechanism, whose law lives on the public ball
  # (any sigma; the Laplace law on spd exists only below a bound, and near it
  # its heavy tail gives draws far outside the region)
  if (mech == "auto") mech <- "kng"
  source <- sprintf("the location stage's coarse mean: sigma = 2*Delta/epsilon = %s (region radius %s, n = %.0f, epsilon %s)",
                    format(sigma_lap, digits = 4), format(R, digits = 4), as.double(n), format(eps, digits = 4))
  if (mech == "laplace") {
    check_laplace_exists(M, sigma_lap, eps, 2, sens$mean, source, call)
    check_rate(M, "laplace", sigma_lap, call, source)
    sigma <- sigma_lap
  } else {
    sigma <- 2 * sens$gradient / eps
  }
  # Can it localise? The coarse centre lies about dim x sigma from the mean
  # (the mean of the radial law Gamma(dim, sigma) of both mechanisms in flat
  # space); the region's own public centre lies at most R from it. Unless the
  # first is at most R / 2 the stage cannot do much better than the public
  # centre (a necessary check, not a sufficient one).
  spread <- M$dim * sigma
  if (!(spread <= R / 2))
    abort(sprintf("n = %.0f is too small for the location stage to localise at its epsilon %s: its coarse private mean (%s mechanism, sigma %s) in the public region of radius %s would lie about dim x sigma = %d x %s = %s from the mean, more than half the region's radius (%s), so the region's own centre does about as well. State it: `center = region_center` (the radius is then found privately with the whole share), or raise `epsilon` or `share`, or give a smaller public region",
                  as.double(n), format(eps, digits = 4), if (mech == "laplace") "Laplace" else "K-norm gradient",
                  format(sigma, digits = 4), format(R, digits = 4), M$dim, format(sigma, digits = 4),
                  format(spread, digits = 4), format(R / 2, digits = 4)), call)
  list(center = C0, like = spec$region_center, radius = R, mechanism = mech, sigma = sigma,
       sentence = sprintf("a coarse private Fr\u00e9chet mean (%s; sigma %s) of the points clipped to the public region of radius %s around `region_center`",
                          if (mech == "laplace") "the Laplace mechanism, Reimherr et al. 2021" else "the K-norm gradient mechanism, Reimherr & Awan 2019",
                          format(sigma, digits = 3), format(R, digits = 4)))
}

# Run the coarse location stage: the coarse private mean, as a set.
bounds_coarse_stage <- function(M, X, plan, eps_factor = 1, control = NULL) {
  co <- plan$coarse
  rel <- dp_frechet_mean(M, X, epsilon = eps_factor * plan$eps_location, radius = co$radius, center = co$like,
                         mechanism = co$mechanism, outside = "clip", control = control)
  P <- as_points(M, rel$estimate, "center")
  P$arg <- "center"
  # the Laplace law is not confined to the ball: move the coarse centre into
  # the public region (post-processing of a private output), so that every
  # centre the stage can give lies in B_R(c0), the worst case checked before
  bound_to_ball(M, P, co$center, co$radius, "clip", NULL)
}

# A public near-uniform net on S^d of about area(S^d) / h^d points (no use of
# R's generator): S^1 equally spaced angles; S^2 a Fibonacci lattice; S^d,
# d >= 3, a Kronecker sequence (fractional parts of i * sqrt(prime)) mapped
# through qnorm() and normalised.
sphere_net <- function(d, h, max_candidates, call) {
  area <- 2 * pi^((d + 1) / 2) / gamma((d + 1) / 2)
  N <- ceiling(area / h^d)
  if (!(N <= max_candidates))
    abort(sprintf("the public net on the sphere S^%d would hold %s candidates (spacing %s), more than `max_candidates` = %d: give a larger `spacing` or `count_radius`, a public cap (`region_center`, `region_radius`), raise `max_candidates`, or state `center`",
                  d, format(N, big.mark = ","), format(h, digits = 4), max_candidates), call)
  N <- max(N, 2)
  i <- seq_len(N) - 1
  if (d == 1L) {
    th <- 2 * pi * i / N
    return(cbind(cos(th), sin(th)))
  }
  if (d == 2L) {
    z <- 1 - (2 * i + 1) / N
    phi <- i * pi * (3 - sqrt(5))
    s <- sqrt(pmax(0, 1 - z^2))
    return(cbind(s * cos(phi), s * sin(phi), z))
  }
  primes <- c(2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97)
  if (d + 1 > length(primes)) {
    p <- 101
    while (length(primes) < d + 1) {
      if (all(p %% primes[primes <= sqrt(p)] != 0)) primes <- c(primes, p)
      p <- p + 2
    }
  }
  alpha <- sqrt(primes[seq_len(d + 1)]) %% 1
  U <- outer(i + 0.5, alpha) %% 1
  Z <- stats::qnorm(U)
  Z / sqrt(rowSums(Z^2))
}

# The default number of radii: 100, or fewer where the public n and epsilon
# are small, so that the scale stage's check below passes with room
# ((2/eps) log G = 0.8 f n), down to 10 (below which the check refuses).
bounds_n_radii <- function(n, eps, fraction) {
  as.integer(max(10, min(100, floor(exp(0.8 * eps * fraction * n / 2)))))
}

# The public grid of radii.
bounds_radii <- function(M, spec, region, call, candidates = NULL, factor = 1) {
  rstar <- priv_frechet_sensitivity(M, 1, 0)$radius_max
  # the grid of the quantile; the ball's radii are factor times it, and
  # `radii` and `radius_max` state the ball's (by default up to r*/2, or
  # 2 x region_radius)
  radii <- if (is.null(spec$radii)) NULL else spec$radii / factor
  if (is.null(radii)) {
    # (on spd around a candidate of the net of multiples of c0, which lie
    # in the region with the data: its radius)
    top <- spec$radius_max %||% (if (is.finite(rstar)) rstar / 2
                                 else if (M$type == "spd" && !is.null(candidates)) region$radius
                                 else if (!is.null(region$radius)) 2 * region$radius)
    if (!is.null(top)) top <- top / factor
    # spd: by default stop the grid where double precision still resolves
    # the worst ball (condition numbers up to cond(c) exp(2 r) <= 1e-6 / eps,
    # r the ball's radius, factor x the grid's):
    # around the worst public candidate of a net, or, for a coarse centre
    # anywhere in the public region B_R(c0), B_{R + r}(c0)
    if (is.null(spec$radius_max) && M$type == "spd" && !is.null(top) && (!is.null(candidates) || !is.null(region$center))) {
      r_res <- if (!is.null(candidates)) {
        resolved_reach(M, matrix(candidates$x, candidates$n)[spd_worst_condition(M, candidates)$index, ])
      } else {
        resolved_reach(M, region$center$x) - region$radius
      }
      if (r_res > 0) top <- min(top, 0.99 * r_res / factor)
    }
    if (is.null(top))
      abort(sprintf("on %s the scale stage needs a public largest radius: give `radius_max` (or `region_radius`) in dp_bounds()",
                    manifold_label(M)), call)
    nr <- spec$n_radii %||% 100L
    radii <- top * 1000^(-rev(seq_len(nr) - 1) / (nr - 1))
    radii[nr] <- top
  }
  if (!(factor * max(radii) < rstar))
    abort(sprintf("the public grid of radii reaches %s, not below r* = %s on %s (sensitivity_radius_max()), the largest radius a Fr\u00e9chet-mean release admits: give a smaller `radius_max` or `radii`",
                  format(factor * max(radii), digits = 6), format(rstar, digits = 6), manifold_label(M)), call)
  radii
}

# The public candidate of largest condition number (spd): its index and
# condition number.
spd_worst_condition <- function(M, cand) {
  X <- matrix(cand$x, cand$n)
  cond <- vapply(seq_len(cand$n), function(i) spd_condition(M, X[i, ]), 0)
  j <- which.max(cond)
  list(index = j, condition = cond[j])
}

# One exact draw of the exponential mechanism: index j with probability
# exp(eps u_j / 2) / sum_k exp(eps u_k / 2) (utility sensitivity 1), by
# log-sum-exp normalisation and one uniform from R's generator. Same work for
# every utility vector (no branch on ties or zeros).
em_draw <- function(utility, eps) {
  w <- eps * utility / 2
  p <- exp(w - max(w))
  cp <- cumsum(p)
  u <- stats::runif(1L) * cp[length(cp)]
  min(sum(cp < u) + 1L, length(cp))
}

# Location utilities: the count of points within r of each candidate, in
# blocks of candidates (every candidate against every point).
# On the sphere, d(x, c) <= r is <x, c> >= cos(r) (r <= pi): one matrix
# product per block (10 times faster than the distances at n = 10^5).
bounds_location_counts <- function(M, S, cand, r) {
  N <- cand$n
  counts <- numeric(N)
  block <- max(1L, floor(4e6 / max(1, S$n)))
  sphere <- M$type == "sphere" && r < pi
  if (sphere) Xm <- matrix(S$x, S$n)
  for (s in seq(1L, N, by = block)) {
    idx <- s:min(N, s + block - 1L)
    if (sphere) {
      counts[idx] <- colSums(Xm %*% t(cand$x[idx, , drop = FALSE]) >= cos(r))
    } else {
      B <- list(x = cand$x[idx, , drop = FALSE], n = length(idx), by_row = TRUE)
      D <- geom_dist_matrix(M, S, B, TRUE)
      counts[idx] <- colSums(matrix(D <= r, S$n))
    }
  }
  counts
}

# Scale utilities: -|#{d(x_i, c) <= r_j} - fraction n| on the grid.
bounds_scale_utility <- function(M, S, C, radii, fraction) {
  d <- geom_dist(M, C, S)
  G <- length(radii)
  idx <- findInterval(d, radii, left.open = TRUE) + 1L   # first j with r_j >= d
  counts <- cumsum(tabulate(idx, nbins = G + 1L))[seq_len(G)]
  -abs(counts - fraction * S$n)
}

# The stages, run on the validated data S. `eps_factor` is for the privacy
# audit only: it runs the mechanisms at eps_factor times the epsilon the
# accounting states (a deliberately broken mechanism the audit must catch).
bounds_location_stage <- function(M, S, plan, eps_factor = 1) {
  counts <- bounds_location_counts(M, S, plan$candidates, plan$count_radius)
  em_draw(counts, eps_factor * plan$eps_location)
}

bounds_scale_stage <- function(M, S, C, plan, eps_factor = 1) {
  u <- bounds_scale_utility(M, S, C, plan$radii, plan$fraction)
  em_draw(u, eps_factor * plan$eps_scale)
}

# Run the plan: list(center = coordinates, radius, like).
bounds_run <- function(M, S, plan, C = NULL, radius = NULL, eps_factor = 1, X = NULL) {
  if (plan$find_center && !is.null(plan$coarse)) {
    C <- bounds_coarse_stage(M, X, plan, eps_factor)
  } else if (plan$find_center) {
    j <- bounds_location_stage(M, S, plan, eps_factor)
    center <- plan$candidates$x[j, ]
    C <- list(x = center, n = 1L, by_row = TRUE, single = TRUE, arg = "center")
  }
  j <- if (plan$find_radius) bounds_scale_stage(M, S, C, plan, eps_factor)
  if (plan$find_radius) radius <- plan$scale_factor * plan$radii[j]
  list(center = C$x, radius = radius, like = plan$like, edges = bounds_edges(M, plan, C$x, j))
}

# Where the private bounds sit on their public grids, from the private
# outputs (the index `j` of the radius on the scale stage's grid, the centre)
# and public quantities only, so it costs no privacy (post-processing): the
# radius the smallest of its grid; the centre, when found privately in a
# public region, within one step of the net of the region's edge (the count
# radius for public `candidates`), or for a coarse centre moved onto it.
bounds_edges <- function(M, plan, center_x, j) {
  out <- list(radius_smallest = FALSE, center_on_edge = FALSE)
  if (isTRUE(plan$find_radius) && !is.null(j)) {
    out$radius_smallest <- j == 1L
    out$grid <- plan$scale_factor * range(plan$radii)
    out$n_radii <- length(plan$radii)
  }
  region <- plan$region
  if (isTRUE(plan$find_center) && !is.null(region$center) && !is.null(region$radius)) {
    d <- geom_dist(M, region$center, list(x = matrix(as.double(center_x), 1L), n = 1L, by_row = TRUE))
    margin <- if (!is.null(plan$coarse)) 1e-8 * region$radius else plan$spacing %||% plan$count_radius
    out$center_on_edge <- d >= region$radius - margin
    out$region_radius <- region$radius
    out$margin <- if (!is.null(plan$coarse)) 0 else margin
  }
  out
}

# The print's notes on the private bounds' place on their grids (a
# character vector; empty when there is nothing to say). `spec_name` names
# the specification's constructor for the hints.
bounds_edge_notes <- function(e, spec_name = "dp_bounds()") {
  if (is.null(e)) return(character(0))
  notes <- character(0)
  if (isTRUE(e$radius_smallest))
    notes <- c(notes, sprintf("Note: %s is the smallest of the scale stage's public grid (%d radii from %s to %s): the data may be more concentrated than the grid reaches, so the ball, and the noise it sets, may be larger than needed. A grid reaching lower (`radii`, or a smaller `radius_max`, in %s) may give a smaller ball.",
                              e$what %||% "the private radius", as.integer(e$n_radii), format(e$grid[1], digits = 4),
                              format(e$grid[2], digits = 4), spec_name))
  if (isTRUE(e$center_on_edge))
    notes <- c(notes, sprintf("Note: the private centre lies on the edge of the public region (%s): the data may extend beyond the region, and points outside the private ball are clipped to it. If the region may be too small, give a larger `region_radius` in %s.",
                              if (isTRUE(e$margin > 0)) sprintf("within one step of its net, %s, of its boundary at radius %s around `region_center`",
                                                                format(e$margin, digits = 3), format(e$region_radius, digits = 4))
                              else sprintf("the coarse centre was moved onto its boundary at radius %s around `region_center`",
                                           format(e$region_radius, digits = 4)), spec_name))
  notes
}

print_bounds_notes <- function(x, spec_name = "dp_bounds()") {
  for (note in bounds_edge_notes(x$bounds_edges, spec_name)) cat(strwrap(note, exdent = 2), sep = "\n")
  invisible(NULL)
}

# "a-DP in total (basic composition ...) of k stages: ..." for the stages
# (and an optional last sentence for the mean).
bounds_stages_sentence <- function(stages, total, M, mean_sentence = NULL) {
  parts <- sprintf("[%d] private %s, %s-DP: %s", seq_len(nrow(stages)),
                   ifelse(stages$bound == "center", "centre", "radius"),
                   format_guarantee(stages$epsilon, 4), stages$mechanism)
  if (!is.null(mean_sentence)) parts <- c(parts, sprintf("[%d] the mean, %s", nrow(stages) + 1L, mean_sentence))
  sprintf("%s-DP (pure epsilon-DP) in total, the sum of its %d stages by basic composition (Dwork & Roth 2014, Thm 3.16): %s. %s",
          format_guarantee(total, 4), length(parts), paste(parts, collapse = "; "), implied_mu_sentence(total))
}

# A release's own guarantee sentence at its share `eps_share` of the budget,
# as one stage of a composed guarantee: without its kind of guarantee and
# implied-mu sentences, its "(pure epsilon-DP)" and its final full stop.
sentence_at_share <- function(x, eps_share, own_sentence) {
  y <- x
  y$bounds_stages <- NULL
  y$epsilon <- eps_share
  s <- own_sentence(y)
  s <- sub(" Guarantee kind: .*$", "", s)  # said once, after the composed total
  s <- sub(" It is also [^ ]+-GDP \\(gdp_from_dp\\(epsilon\\)\\)\\.$", "", s)
  s <- sub("^([^ ]+-DP) \\(pure epsilon-DP\\)", "\\1", s)
  sub("\\.$", "", s)
}

# The mean's part of the composed sentence: the release's own sentence at
# its share, without its implied-mu sentence.
bounds_release_sentence <- function(x) {
  s <- sentence_at_share(x, x$epsilon_mean, guarantee_sentence)
  s <- paste0(s, ", in the private ball of the stages above, points outside it clipped to it (outside = \"clip\" is forced on this route)")
  paste(bounds_stages_sentence(x$bounds_stages, x$epsilon, x$manifold, s), guarantee_kind_sentence(x))
}

# dp_frechet_mean(bounds = ): the stages with share * epsilon, then the mean
# with (1 - share) * epsilon in the private ball, clipping forced.
frechet_release_with_bounds <- function(M, X, epsilon, radius, center, mechanism, outside, normalizer,
                                        method, control, bounds, call, given) {
  check_manifold(M, call)
  check_bounds_spec(bounds, call)
  mechanism <- arg_match(mechanism, c("laplace", "kng", "gaussian"), "mechanism", call)
  if (mechanism == "gaussian")
    abort("`bounds` accounts in epsilon-DP: private bounds with the Gaussian mechanism (mu-GDP) are not supported; use mechanism = \"laplace\" or \"kng\"", call)
  if (given[["outside"]] && arg_match(outside, c("error", "clip"), "outside", call) != "clip")
    abort("with `bounds`, points outside the private ball are always clipped to it (outside = \"clip\" is forced: an error would depend on the data); drop `outside`", call)
  if (missing(epsilon) || is.null(epsilon))
    abort(sprintf("the %s mechanism needs `epsilon`, the total privacy budget (a single finite number > 0)", mechanism), call)
  epsilon <- check_positive(epsilon, "epsilon", call)
  if (given[["center"]] && given[["radius"]])
    abort("`bounds` has nothing to find: both `center` and `radius` are given. Drop `bounds` (and use outside = \"clip\" if wanted), or drop the bound to be found privately", call)
  S <- release_points(M, X, call)
  n <- S$n
  C <- if (given[["center"]]) bounds_public_point(M, center, "center", call) else NULL
  if (given[["radius"]]) frechet_sensitivities(M, n, radius, call)
  share <- bounds$share
  eps_bounds <- share * epsilon
  eps_mean <- epsilon - eps_bounds
  plan <- bounds_plan(M, bounds, n, eps_bounds, C, if (given[["radius"]]) radius else NULL, call)
  # Public checks at the worst case, before the data are used: the largest
  # ball the stages can return must be resolved in double precision and admit
  # the mechanism's law (so that no later error depends on the private bounds).
  worst_r <- if (plan$find_radius) plan$scale_factor * max(plan$radii) else radius
  resolve_r <- worst_r
  Cw <- C
  if (!is.null(plan$coarse)) {
    # the coarse centre lies anywhere in the public region B_R(c0): every ball
    # B_r(c) it can give lies in B_{R + r}(c0), the worst case to resolve
    Cw <- plan$coarse$center
    resolve_r <- plan$coarse$radius + worst_r
  } else if (plan$find_center) {
    # the candidate farthest from the origin (hyperboloid: largest x0), or
    # of largest condition number (spd)
    far <- if (M$type == "hyperbolic") which.max(plan$candidates$x[, 1L])
           else if (M$type == "spd") spd_worst_condition(M, plan$candidates)$index else 1L
    Cw <- list(x = plan$candidates$x[far, ], n = 1L, by_row = TRUE)
  }
  check_ball_resolved(M, Cw, resolve_r, call)
  sens <- frechet_sensitivities(M, n, worst_r, call)
  if (mechanism == "laplace") {
    normalizer <- arg_match(normalizer, c("conservative", "footprint_free"), "normalizer", call)
    factor <- if (normalizer == "conservative") 2 else 1
    sigma_w <- factor * sens$mean / eps_mean
    check_laplace_exists(M, sigma_w, eps_mean, factor, sens$mean,
                         sprintf("sigma = %s*Delta/epsilon = %s at the largest radius the stages can return (%s) and the mean's epsilon %s",
                                 factor, format(sigma_w, digits = 4), format(worst_r, digits = 4), format(eps_mean, digits = 4)),
                         call)
    check_rate(M, mechanism, sigma_w, call,
               sprintf("sigma = %s at the largest radius the stages can return (%s)", format(sigma_w, digits = 4),
                       format(worst_r, digits = 4)))
  }
  # KNG on R^d with method = "exact": the exact sampler must be available at
  # every radius the stages can return (else its error would depend on them).
  if (mechanism == "kng" && M$type == "euclidean" &&
      identical(arg_match(method, c("auto", "exact", "mh"), "method", call), "exact")) {
    rs <- if (plan$find_radius) plan$scale_factor * plan$radii else radius
    ok <- vapply(rs, function(r) {
      sg <- 2 * frechet_sensitivities(M, n, r, call)$gradient / eps_mean
      !is.null(kng_euclid_plan(M$d, sg, r)$proposal)
    }, logical(1))
    if (!all(ok))
      abort(sprintf("`method = \"exact\"`: the exact K-norm gradient draw is not available at every radius the scale stage can return (the proven acceptance falls below %s at radius %s); use method = \"auto\"",
                    format(kng_exact_min_acceptance), format(rs[!ok][1L], digits = 4)), call)
  }
  # The exact K-norm gradient draw by rejection on spheres is not offered on
  # this route yet: its (epsilon', delta) guarantee does not enter the
  # stages' pure epsilon-DP composition; the mean is drawn by the chain and
  # labelled "empirical-chain". Asked for explicitly, that is an error.
  if (mechanism == "kng" && kng_rejection_supported(M)) {
    if (identical(arg_match(method, c("auto", "exact", "mh"), "method", call), "exact"))
      abort(sprintf("`method = \"exact\"` is not available with private bounds on %s: the exact K-norm gradient draw by rejection is (epsilon', delta)-DP, which the stages' epsilon-DP composition does not account; use method = \"auto\" or \"mh\" (the mean is then drawn by the chain, guarantee kind \"empirical-chain\"), or state `center` and `radius` and call dp_frechet_mean() for the exact draw",
                    manifold_label(M)), call)
    method <- "mh"
  }
  # KNG on R^d with `control`: whether the exact draw (no chain) or the chain
  # is used depends on the radius the stages return, so `control` needs the
  # chain asked for up front.
  if (mechanism == "kng" && M$type == "euclidean" && !is.null(control) &&
      !identical(arg_match(method, c("auto", "exact", "mh"), "method", call), "mh"))
    abort("`control` sets the Metropolis-Hastings chain; with private bounds on Euclidean space the K-norm gradient mean is an exact draw (no chain) wherever the private radius allows it, so `control` needs method = \"mh\"; or drop `control`", call)
  # The data enter below: the stages, then the mean.
  found <- bounds_run(M, S, plan, C, if (given[["radius"]]) radius else NULL, X = X)
  ctr <- from_values(M, found$center, 1L, TRUE, if (given[["center"]]) center else NULL)
  rel <- dp_frechet_mean(M, X, epsilon = eps_mean, radius = found$radius, center = ctr, mechanism = mechanism,
                         outside = "clip", normalizer = normalizer, method = method, control = control)
  stages <- plan$stages
  rel$epsilon <- sum(stages$epsilon) + eps_mean
  rel$epsilon_total <- rel$epsilon  # an epsilon-DP composition: no delta part
  rel$epsilon_mean <- eps_mean
  rel$mu <- gdp_from_dp(rel$epsilon)
  rel$bounds_stages <- stages
  rel$bounds_spec <- bounds
  rel$private_bounds <- stages$bound
  rel$bounds_edges <- found$edges
  rel$call <- call
  rel
}
