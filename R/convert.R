# Conversion between R layouts and the point sets the C++ glue maps without
# copying: list(x, n, by_row). Vector manifolds: a vector or the rows of an
# n x D matrix; spd / kendall: a k x k (k x 2) matrix or a k x k x n
# (k x 2 x n) array.

as_set <- function(M, x, arg, call = NULL, check_finite = TRUE) {
  x <- as_numeric_layout(M, x, arg, call)
  if (check_finite) check_finite_numeric(x, arg, call)
  if (!is.double(x)) storage.mode(x) <- "double"  # else no copy (6 ms for 10^6 points on S^2)
  D <- M$ambient
  shape <- M$point_shape
  dx <- dim(x)
  if (!length(x)) abort(sprintf("`%s` must hold at least one point (it is empty)", arg), call)
  if (is.null(shape)) {
    if (is.null(dx)) {
      if (length(x) != D)
        abort(sprintf("`%s` must be a vector of length %d or a matrix with %d %s (one point per row) for %s; got length %d%s",
                      arg, D, D, if (D == 1L) "column" else "columns", manifold_label(M), length(x),
                      if (D == 1L) sprintf("; for %d points on the line use a one-column matrix, cbind(%s)", length(x), arg) else ""),
              call)
      return(list(x = x, n = 1L, by_row = TRUE, single = TRUE, arg = arg))
    }
    if (length(dx) != 2L || dx[2] != D)
      abort(sprintf("`%s` must be a vector of length %d or a matrix with %d %s (one point per row) for %s; got dimensions %s",
                    arg, D, D, if (D == 1L) "column" else "columns", manifold_label(M), paste(dx, collapse = " x ")), call)
    if (dx[1] < 1L) abort(sprintf("`%s` must hold at least one point", arg), call)
    return(list(x = x, n = dx[1], by_row = TRUE, single = FALSE, arg = arg))
  }
  layout <- sprintf("a %d x %d matrix or a %d x %d x n array", shape[1], shape[2], shape[1], shape[2])
  if (length(dx) == 2L && all(dx == shape))
    return(list(x = x, n = 1L, by_row = FALSE, single = TRUE, arg = arg))
  if (length(dx) == 3L && all(dx[1:2] == shape)) {
    if (dx[3] < 1L) abort(sprintf("`%s` must hold at least one point", arg), call)
    return(list(x = x, n = dx[3], by_row = FALSE, single = FALSE, arg = arg))
  }
  abort(sprintf("`%s` must be %s for %s; got %s", arg, layout, manifold_label(M),
                if (is.null(dx)) sprintf("a vector of length %d", length(x))
                else paste("dimensions", paste(dx, collapse = " x "))), call)
}

report_problem <- function(prob, set, what, call) {
  if (is.null(prob)) return(invisible(NULL))
  if (startsWith(prob$message, "is not finite"))  # not a tolerance matter
    abort(sprintf("`%s` must be finite: %s %d contains NA, NaN or Inf", set$arg, what, prob$index), call)
  where <- if (set$single) sprintf("`%s`", set$arg) else sprintf("`%s`: %s %d", set$arg, what, prob$index)
  abort(sprintf("%s %s (tolerance %g)", where, prob$message, riemdp_tol()), call)
}

# Points: layout, finiteness, on the manifold; kendall configurations are
# reduced to preshapes (location and scale removed: the documented quotient).
# `report` turns the first problem found into an error (releases pass one
# that puts no data values in the message).
as_points <- function(M, x, arg, call = NULL, report = report_problem) {
  s <- as_set(M, x, arg, call, check_finite = FALSE)  # checked in the same C++ pass
  report(geom_point_problem(M, s, riemdp_tol()), s, "point", call)
  if (M$type == "kendall") s$x <- geom_project(M, s, s$by_row)
  s
}

# Tangent vectors at the points of set P.
as_tangents <- function(M, P, v, arg, call = NULL) {
  s <- as_set(M, v, arg, call, check_finite = FALSE)
  common_count(list(P, s), call)
  report_problem(geom_tangent_problem(M, P, s, riemdp_tol()), s, "vector", call)
  s
}

# Back to the R layout: a single point, or many. Coordinate names (column
# names, or the first two dimnames of arrays) are carried over from `like`.
from_values <- function(M, values, n, single, like = NULL) {
  shape <- M$point_shape
  if (is.null(shape)) {
    nm <- if (is.null(dim(like))) names(like) else colnames(like)
    if (single) return(stats::setNames(values, nm))
    dim(values) <- c(n, M$ambient)  # no copy
    if (!is.null(nm)) colnames(values) <- nm
    return(values)
  }
  # a list of matrices (as_numeric_layout) carries its names on its elements
  if (is.list(like) && !is.data.frame(like) && length(like)) like <- like[[1L]]
  dn <- dimnames(like)[1:2]
  if (single) return(matrix(values, shape[1], shape[2], dimnames = dn))
  array(values, c(shape, n), dimnames = if (is.null(dn)) NULL else c(dn, list(NULL)))
}

# What users hold in place of a numeric layout: a data frame of numeric
# columns (its rows are the points: as.matrix()), or, on spd and kendall, a
# list of matrices of one shape (e.g. lapply(split(...), cov): stacked into
# a k x k x n array as simplify2array() does). Anything else that is not
# numeric is an error that says what is expected.
as_numeric_layout <- function(M, x, arg, call) {
  if (is.numeric(x)) return(x)
  if (is.data.frame(x)) {
    ok <- vapply(x, is.numeric, logical(1))
    if (length(ok) && all(ok)) return(as.matrix(x))
    abort(sprintf("`%s` is a data frame with non-numeric columns (%s): give the points as a numeric matrix, one point per row, e.g. as.matrix(%s[, c(...)])",
                  arg, paste(names(x)[!ok], collapse = ", "), arg), call)
  }
  if (is.list(x) && length(x) && !is.null(M$point_shape)) {
    shape <- M$point_shape
    ok <- vapply(x, function(m) is.numeric(m) && is.matrix(m) && identical(dim(m), as.integer(shape)), logical(1))
    if (all(ok)) {
      dn <- dimnames(x[[1L]])
      dn <- if (is.null(dn) && is.null(names(x))) NULL else c(if (is.null(dn)) list(NULL, NULL) else dn, list(names(x)))
      return(array(unlist(x, use.names = FALSE), c(shape, length(x)), dimnames = dn))
    }
    abort(sprintf("`%s` is a list whose elements are not all numeric %d x %d matrices: give the points as a %d x %d x n array (simplify2array() stacks a list of matrices)",
                  arg, shape[1], shape[2], shape[1], shape[2]), call)
  }
  abort(sprintf("`%s` must be numeric: %s; got an object of class %s", arg, manifold_layout(M), class(x)[1L]), call)
}
