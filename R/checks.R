# Argument checks shared by every exported function. Each error names the
# argument in backticks and what was expected, and is raised with the call of
# the exported function the user made.

abort <- function(msg, call = NULL) {
  stop(structure(class = c("riemdp_error", "error", "condition"),
                 list(message = msg, call = call)))
}

check_manifold <- function(M, call = NULL) {
  if (!inherits(M, "riemdp_manifold"))
    abort("`M` must be a riemdp manifold, e.g. manifold_sphere(2)", call)
  invisible(M)
}

# A count: a single whole number in [lower, upper], returned as an integer.
# Counts reach the C++ core as int, so upper is at most the largest int
# (2^31 - 1); callers lower it where a derived size must fit too.
check_count <- function(x, arg, lower = 1, call = NULL, upper = .Machine$integer.max) {
  if (!is.numeric(x) || length(x) != 1L || !is.finite(x) || x != round(x) || x < lower || x > upper)
    abort(sprintf("`%s` must be a whole number between %.0f and %.0f", arg, lower, upper), call)
  as.integer(x)
}

# A whole number that only enters formulas (a sample size in a sensitivity
# bound): no upper limit, kept as a double so that n >= 2^31 stays exact.
check_whole_number <- function(x, arg, lower = 1, call = NULL) {
  if (!is.numeric(x) || length(x) != 1L || !is.finite(x) || x != round(x) || x < lower)
    abort(sprintf("`%s` must be a single finite whole number >= %.0f", arg, lower), call)
  as.double(x)
}

# n points of `ambient` coordinates must fit one R vector (at most 2^52
# numbers, R's long-vector limit).
check_output_size <- function(n, ambient, arg, call = NULL) {
  if (as.double(n) * ambient > 2^52)
    abort(sprintf("`%s` = %.0f points of %.0f coordinates each is more than an R vector can hold (2^52 numbers)",
                  arg, as.double(n), as.double(ambient)), call)
  invisible(n)
}

# A single TRUE or FALSE.
check_flag <- function(x, arg, call = NULL) {
  if (!is.logical(x) || length(x) != 1L || is.na(x)) abort(sprintf("`%s` must be TRUE or FALSE", arg), call)
  x
}

# A single finite number > 0.
check_positive <- function(x, arg, call = NULL) {
  if (!is.numeric(x) || length(x) != 1L || !is.finite(x) || x <= 0)
    abort(sprintf("`%s` must be a single finite number > 0", arg), call)
  as.double(x)
}

check_finite_numeric <- function(x, arg, call = NULL) {
  if (!is.numeric(x)) abort(sprintf("`%s` must be numeric", arg), call)
  if (!all(is.finite(x))) abort(sprintf("`%s` must be finite (it contains NA, NaN or Inf)", arg), call)
  invisible(x)
}

# Relative tolerance for points on the manifold and tangent vectors.
riemdp_tol <- function() {
  tol <- getOption("riemdp.tol", 1e-8)
  if (!is.numeric(tol) || length(tol) != 1L || !is.finite(tol) || tol <= 0)
    abort("option `riemdp.tol` must be a single finite number > 0")
  tol
}

# Counts of several point sets must be 1 or a common n.
common_count <- function(sets, call = NULL) {
  ns <- vapply(sets, function(s) s$n, integer(1))
  n <- max(ns)
  bad <- ns != 1L & ns != n
  if (any(bad)) {
    args <- vapply(sets, function(s) s$arg, character(1))
    abort(sprintf("%s must hold 1 or the same number of points (they hold %s)",
                  paste0("`", args, "`", collapse = ", "), paste(ns, collapse = ", ")), call)
  }
  n
}

# One of `choices` (the first when `x` is the untouched default vector;
# unambiguous prefixes allowed, as with match.arg()), else an error that names
# the argument and lists what is allowed.
arg_match <- function(x, choices, arg, call = NULL) {
  if (identical(x, choices)) return(choices[1L])
  i <- if (is.character(x) && length(x) == 1L && !is.na(x)) pmatch(x, choices) else NA_integer_
  if (is.na(i)) {
    got <- if (is.character(x) && length(x) == 1L) sprintf("\"%s\"", x)
           else sprintf("a %s of length %d", class(x)[1L], length(x))
    abort(sprintf("`%s` must be one of %s; got %s", arg,
                  paste0("\"", choices, "\"", collapse = ", "), got), call)
  }
  choices[i]
}

# The new values a predict() method evaluates at: `newdata` (the name R users
# type, as for predict.lm()) or `newx`, one of the two. Returns
# list(value, arg) (value NULL when neither is given). Every other argument is
# refused: stats::predict() would swallow it in `...` and answer as if it had
# not been given.
predict_new_values <- function(newdata, newx, dots, call) {
  predict_check_dots(dots, call)
  if (!is.null(newdata) && !is.null(newx))
    abort("give the new values once: as `newdata` (a data frame or a vector) or as `newx`, not both", call)
  if (!is.null(newdata)) list(value = newdata, arg = "newdata")
  else if (!is.null(newx)) list(value = newx, arg = "newx")
  else list(value = NULL, arg = "newdata")
}

predict_check_dots <- function(dots, call) {
  if (!length(dots)) return(invisible())
  nm <- names(dots)
  if (is.null(nm)) nm <- rep("", length(dots))
  if (any(nm %in% c("interval", "level", "se.fit", "pred.var", "weights")))
    abort(sprintf("`%s` is not available: predict() of riemdp's fits and releases gives the fitted values only, with no intervals or standard errors yet (a release's would need the law of its noise, not the data's residuals, which its guarantee does not cover). predict() takes `object` and `newdata` (or `newx`) only",
                  nm[nm %in% c("interval", "level", "se.fit", "pred.var", "weights")][1L]), call)
  bad <- ifelse(nzchar(nm), sprintf("`%s`", nm), "an unnamed extra argument")
  abort(sprintf("predict() takes `object` and `newdata` (a data frame or a vector; or `newx`) only; not used: %s",
                paste(bad, collapse = ", ")), call)
}

# `newdata` given as a data frame to a geodesic fit or release: its columns
# named after the covariates, else as many columns as covariates (in order).
regression_newdata_matrix <- function(newdata, covariates, arg, call) {
  if (!is.data.frame(newdata)) return(newdata)
  if (!all(vapply(newdata, is.numeric, logical(1))) && !all(covariates %in% names(newdata)))
    abort(sprintf("`%s` must be numeric: a data frame of covariates with numeric columns", arg), call)
  if (all(covariates %in% names(newdata))) {
    X <- newdata[covariates]
    if (!all(vapply(X, is.numeric, logical(1))))
      abort(sprintf("`%s` must be numeric: columns %s of the data frame must be numeric", arg,
                    paste0("`", covariates, "`", collapse = ", ")), call)
    return(as.matrix(X))
  }
  if (ncol(newdata) == length(covariates))
    return(if (any(names(newdata) %in% covariates)) as.matrix(newdata) else unname(as.matrix(newdata)))
  abort(sprintf("`%s` must hold the covariate%s %s: a data frame with column%s named so (or exactly %d column%s, taken in order), or a vector",
                arg, if (length(covariates) == 1L) "" else "s", paste0("`", covariates, "`", collapse = ", "),
                if (length(covariates) == 1L) "" else "s", length(covariates),
                if (length(covariates) == 1L) "" else "s"), call)
}
