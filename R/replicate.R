# Replicated releases for utility studies, with reproducible parallel random
# streams (L'Ecuyer-CMRG, one stream per replicate: parallel::nextRNGStream).

#' Run many independent releases, sequentially or in parallel
#'
#' Calls `fun(i, ...)` for `i = 1, ..., times` (a `fun` without arguments is
#' called as `fun()`) and returns the results. With the `future.apply`
#' package installed the calls go through [future.apply::future_lapply()],
#' so the same code runs sequentially, on local cores or on a cluster,
#' according to the caller's `future::plan()`; without it they run with
#' [lapply()].
#'
#' **Random streams.** Before any call, `times` L'Ecuyer-CMRG streams are
#' generated, one per replicate, the first from `seed` (or, when `seed` is
#' `NULL`, from one draw of the caller's random number generator) and each
#' next one by [parallel::nextRNGStream()]; call `i` runs with
#' `.Random.seed` set to stream `i`. The streams are handed to
#' `future_lapply()` as its pre-generated `future.seed`, and the `lapply()`
#' path sets them itself, so the results depend only on the seed: they are
#' identical under every `future::plan()`, any number of workers and
#' chunking, and with or without `future.apply`. On return the caller's
#' random number generator (kind and state) is as before the call, forwarded
#' by that one draw when `seed` is `NULL` and untouched otherwise.
#'
#' **Progress.** With `verbose = TRUE` and the `progressr` package
#' installed, each finished replicate signals a [progressr::progressor()]
#' step; nothing is shown unless the caller asks for it, e.g. with
#' `progressr::with_progress()` or `progressr::handlers(global = TRUE)`
#' (progress also reaches the caller from `future` workers). `verbose =
#' FALSE` signals nothing.
#'
#' @param fun A function called as `fun(i, ...)`, `i` the replicate's index
#'   (or as `fun()` when it takes no arguments). It should return a value
#'   that does not depend on anything but its arguments and the random
#'   stream (e.g. a release).
#' @param times The number of replicates, a whole number \eqn{\ge 1}{>= 1}.
#' @param ... Further arguments passed to `fun`.
#' @param seed `NULL` (streams from the caller's random number generator,
#'   so `set.seed()` before the call fixes them) or a single whole number
#'   (streams from `set.seed(seed)` with the L'Ecuyer-CMRG generator; the
#'   caller's generator is left untouched).
#' @param simplify `FALSE` (a list of length `times`) or `TRUE` (simplified
#'   like [sapply()]: a vector or matrix when every result has the same length).
#' @param use_future `NULL` (use `future.apply` when installed), `TRUE`
#'   (require it) or `FALSE` (plain `lapply()`, same results).
#' @param verbose `TRUE` (signal progress through `progressr` when it is
#'   installed) or `FALSE`.
#' @return A list of the `times` results (or their simplification).
#' @seealso [dp_budget()] to account several releases on the same data.
#' @examples
#' S2 <- manifold_sphere(2)
#' north <- c(0, 0, 1)
#' set.seed(1)
#' X <- riem_rlaplace(S2, 30, north, 0.05)
#' # Distance of 20 private means from the non-private one, at epsilon = 1.
#' m <- coef(frechet_mean(S2, X))
#' d <- dp_replicate(function(i) {
#'   rel <- dp_frechet_mean(S2, X, epsilon = 1, radius = pi / 6, center = north)
#'   riem_dist(S2, coef(rel), m)
#' }, times = 20, seed = 42, simplify = TRUE)
#' summary(d)
#' \donttest{
#' # The same numbers on two local workers (needs the future package):
#' if (requireNamespace("future", quietly = TRUE) &&
#'     requireNamespace("future.apply", quietly = TRUE)) {
#'   old <- future::plan(future::multisession, workers = 2)
#'   d2 <- dp_replicate(function(i) {
#'     rel <- dp_frechet_mean(S2, X, epsilon = 1, radius = pi / 6, center = north)
#'     riem_dist(S2, coef(rel), m)
#'   }, times = 20, seed = 42, simplify = TRUE)
#'   future::plan(old)
#'   identical(d, d2)
#' }
#' }
#' @export
dp_replicate <- function(fun, times, ..., seed = NULL, simplify = FALSE, use_future = NULL, verbose = TRUE) {
  call <- sys.call()
  if (!is.function(fun)) abort("`fun` must be a function, called as fun(i, ...)", call)
  times <- check_count(times, "times", 1, call)
  if (!is.null(seed) && (!is.numeric(seed) || length(seed) != 1L || !is.finite(seed) || seed != round(seed) ||
                         abs(seed) > .Machine$integer.max))
    abort("`seed` must be NULL or a single whole number (a seed for set.seed())", call)
  check_replicate_flag(simplify, "simplify", call)
  check_replicate_flag(verbose, "verbose", call)
  if (!is.null(use_future)) check_replicate_flag(use_future, "use_future", call)
  have_future <- requireNamespace("future.apply", quietly = TRUE)
  if (isTRUE(use_future) && !have_future)
    abort("`use_future` = TRUE needs the future.apply package; install it, or use use_future = NULL", call)
  use_future <- if (is.null(use_future)) have_future else use_future

  # The streams; the caller's generator is restored on exit (forwarded once
  # when seed is NULL).
  rng <- replicate_streams(times, seed)
  on.exit(replicate_restore_rng(rng$restore), add = TRUE)

  no_args <- !is.primitive(fun) && length(formals(fun)) == 0L
  p <- if (verbose && requireNamespace("progressr", quietly = TRUE)) progressr::progressor(steps = times) else NULL
  task <- function(i, ...) {
    out <- if (no_args) fun() else fun(i, ...)
    if (!is.null(p)) p()
    out
  }

  res <- if (use_future) {
    future.apply::future_lapply(seq_len(times), task, ..., future.seed = rng$streams)
  } else {
    lapply(seq_len(times), function(i, ...) {
      assign(".Random.seed", rng$streams[[i]], envir = globalenv())
      task(i, ...)
    }, ...)
  }
  if (simplify) simplify2array(res, higher = FALSE) else res
}

check_replicate_flag <- function(x, arg, call) {
  if (!is.logical(x) || length(x) != 1L || is.na(x)) abort(sprintf("`%s` must be TRUE or FALSE", arg), call)
}

# `times` L'Ecuyer-CMRG streams: the first from set.seed(seed) (seed NULL: a
# seed drawn from the caller's generator), each next by nextRNGStream.
# Returns the streams and the generator state to restore on exit.
replicate_streams <- function(times, seed) {
  genv <- globalenv()
  kind <- RNGkind()
  if (is.null(seed)) {
    seed <- sample.int(.Machine$integer.max, 1L)  # forwards the caller's stream once
  }
  had <- exists(".Random.seed", envir = genv, inherits = FALSE)
  restore <- list(kind = kind, seed = if (had) get(".Random.seed", envir = genv, inherits = FALSE) else NULL)
  RNGkind("L'Ecuyer-CMRG")
  set.seed(seed)
  s <- get(".Random.seed", envir = genv, inherits = FALSE)
  streams <- vector("list", times)
  for (i in seq_len(times)) {
    streams[[i]] <- s
    s <- parallel::nextRNGStream(s)
  }
  replicate_restore_rng(restore)
  list(streams = streams, restore = restore)
}

replicate_restore_rng <- function(restore) {
  genv <- globalenv()
  suppressWarnings(RNGkind(restore$kind[1L], restore$kind[2L], restore$kind[3L]))
  if (is.null(restore$seed)) {
    if (exists(".Random.seed", envir = genv, inherits = FALSE)) rm(".Random.seed", envir = genv)
  } else {
    assign(".Random.seed", restore$seed, envir = genv)
  }
}
