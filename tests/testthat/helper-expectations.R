# Shared expectations and the geometry contract run over the whole zoo.

shape_string <- function(x) {
  if (is.null(dim(x))) paste0("vector of length ", length(x)) else paste0("array of dim ", paste(dim(x), collapse = " x "))
}

# Numeric closeness with an explicit scale: passes when
# max |object - expected| <= tol * scale (scale defaults to max(1, max|expected|)).
# Also requires the same shape (dim) and finite values.
expect_close <- function(object, expected, tol, scale = NULL, label = "value") {
  if (!is.numeric(object)) {
    expect(FALSE, sprintf("%s is not numeric (class %s)", label, paste(class(object), collapse = "/")))
    return(invisible(object))
  }
  if (!identical(dim(object), dim(expected)) || length(object) != length(expected)) {
    expect(FALSE, sprintf("%s: got %s, expected %s", label, shape_string(object), shape_string(expected)))
    return(invisible(object))
  }
  if (!all(is.finite(object))) {
    expect(FALSE, sprintf("%s has non-finite values", label))
    return(invisible(object))
  }
  if (is.null(scale)) scale <- max(1, abs(expected))
  err <- max(abs(as.numeric(object) - as.numeric(expected)), 0)
  expect(
    err <= tol * scale,
    sprintf("%s: max abs error %.3g > %.3g (tol %.1g x scale %.3g)", label, err, tol * scale, tol, scale)
  )
  invisible(object)
}

expect_tangent <- function(M, p, v, tol = 1e-9, label = "vector") {
  def <- tangent_defect(M, p, v)
  expect(is.finite(def) && def <= tol * max(1, vec_norm(v), vec_norm(p)),
         sprintf("%s is not tangent: defect %.3g", label, def))
  invisible(v)
}

expect_on_manifold <- function(M, x, label = "point") {
  res <- tryCatch(riem_check(M, x), error = function(e) paste("error:", conditionMessage(e)))
  expect(isTRUE(res), sprintf("riem_check(%s) did not return TRUE: %s", label, format(res)))
  invisible(x)
}

# Two single points are equal on M: coordinates for most manifolds; for
# kendall (rotation-equivalent representatives) via riem_dist and via a
# plain-R alignment.
expect_same_point <- function(M, x, y, tol, label = "point") {
  if (M$type == "kendall") {
    d <- riem_dist(M, x, y)
    expect(is.finite(d) && abs(d) < 1e-8, sprintf("%s: riem_dist to the expected shape is %.3g", label, d))
    expect_close(ref_align(ref_preshape(y), ref_preshape(x)), ref_preshape(y), tol, label = label)
  } else {
    expect_close(x, y, tol, scale = max(1, abs(y)), label = label)
  }
  invisible(x)
}

# Check that expr errors and that the message matches every pattern.
expect_error_mentions <- function(expr, patterns, ignore.case = TRUE) {
  msg <- tryCatch({
    force(expr)
    NULL
  }, error = function(e) conditionMessage(e))
  expect(!is.null(msg), sprintf("expected an error mentioning %s, but there was none", paste(patterns, collapse = ", ")))
  if (is.null(msg)) return(invisible(NULL))
  for (pt in patterns) {
    expect(grepl(pt, msg, ignore.case = ignore.case),
           sprintf("error message does not match /%s/:\n  %s", pt, msg))
  }
  invisible(msg)
}

# Evaluate code and check that .Random.seed is unchanged.
expect_rng_untouched <- function(code) {
  set.seed(20240611)
  before <- get(".Random.seed", envir = globalenv())
  force(code)
  after <- get(".Random.seed", envir = globalenv())
  expect(identical(before, after), "the call changed .Random.seed")
  invisible(NULL)
}

# ---- the contract -------------------------------------------------------------

# All identities for one base point p (single layout) and one tangent vector v.
# tol: relative tolerance for this regime; tiny: TRUE for the 1e-8 regime
# (errors then measured relative to |v|).
check_pair <- function(M, p, v, tol, tiny = FALSE, label = "") {
  nv <- ref_norm(M, p, v)
  vscale <- if (tiny) nv else max(1, nv)
  # Norm of v as the package sees it.
  expect_close(riem_norm(M, p, v), nv, tol, scale = if (tiny) nv else max(1, nv), label = paste(label, "riem_norm(p, v)"))

  q <- riem_exp(M, p, v)
  expect_close(q, ref_exp(M, p, v), if (tiny) 1e-12 else tol, label = paste(label, "exp(p, v) vs closed form"))
  expect_on_manifold(M, q, paste(label, "exp(p, v)"))
  if (M$type == "kendall") {
    expect_close(colSums(q), c(0, 0), 1e-12, scale = 1, label = paste(label, "exp(p, v) is centred"))
    expect_close(vec_norm(q), 1, 1e-12, scale = 1, label = paste(label, "exp(p, v) has unit size"))
  }

  # log(p, exp(p, v)) = v
  w <- riem_log(M, p, q)
  expect_close(w, v, tol, scale = vscale, label = paste(label, "log(p, exp(p, v)) = v"))
  expect_tangent(M, p, w, label = paste(label, "log(p, q)"))

  # dist(p, q) = |v| = norm(log(p, q)), symmetric
  d <- riem_dist(M, p, q)
  expect_close(d, nv, tol, scale = if (tiny) nv else max(1, nv), label = paste(label, "dist(p, exp(p, v)) = |v|"))
  expect_close(riem_dist(M, q, p), d, tol, scale = if (tiny) nv else max(1, nv), label = paste(label, "dist symmetric"))
  expect_close(riem_norm(M, p, w), d, tol, scale = if (tiny) nv else max(1, nv), label = paste(label, "dist = norm(log)"))

  # exp(p, log(p, q)) = q
  qa <- riem_exp(M, p, w)
  expect_same_point(M, qa, q, if (tiny) 1e-10 else tol, label = paste(label, "exp(p, log(p, q)) = q"))

  # transport: isometry, lands in T_q (at the aligned q on kendall), maps log(p,q) to -log(q,p)
  u1 <- rand_tangent(M, p)
  u2 <- rand_tangent(M, p)
  t1 <- riem_transport(M, p, q, u1)
  t2 <- riem_transport(M, p, q, u2)
  sc <- max(1, ref_norm(M, p, u1) * ref_norm(M, p, u2))
  expect_close(riem_inner(M, q, t1, t2), riem_inner(M, p, u1, u2), tol, scale = sc,
               label = paste(label, "transport preserves <u1, u2>"))
  expect_close(riem_inner(M, q, t1, t1), ref_inner(M, p, u1, u1), tol, scale = sc,
               label = paste(label, "transport preserves |u1|^2"))
  expect_close(riem_inner(M, p, u1, u2), ref_inner(M, p, u1, u2), 1e-10, scale = sc,
               label = paste(label, "riem_inner vs closed form"))
  expect_tangent(M, qa, t1, tol = max(tol, 1e-9), label = paste(label, "transport(p, q, u1) at q"))
  if (M$type == "euclidean") expect_close(t1, u1, 1e-14, label = paste(label, "euclidean transport is the identity"))
  if (nv == 0) expect_close(t1, u1, 1e-10, label = paste(label, "transport from p to p is the identity"))
  tw <- riem_transport(M, p, q, w)
  expect_close(tw, -riem_log(M, qa, p), tol, scale = vscale, label = paste(label, "transport(log(p,q)) = -log(q,p)"))

  if (M$type == "kendall") {
    # another representative of the same shape (moved, scaled, rotated) changes nothing
    qr <- 3 * rotate_config(q, 1.3) + matrix(c(2, -1), nrow(q), 2, byrow = TRUE)
    expect_close(riem_log(M, p, qr), w, tol, scale = vscale, label = paste(label, "log(p, similar copy of q)"))
    expect_close(riem_dist(M, p, qr), d, tol, scale = if (tiny) nv else max(1, nv), label = paste(label, "dist(p, similar copy of q)"))
    expect_close(riem_transport(M, p, qr, u1), t1, tol, scale = max(1, ref_norm(M, p, u1)),
                 label = paste(label, "transport to a similar copy of q"))
  }

  # geodesic
  ts <- c(0, 0.25, 0.6, 1)
  G <- riem_geodesic(M, p, v, ts)
  expect_identical(n_points(M, G), length(ts), label = paste(label, "number of geodesic points"))
  if (n_points(M, G) == length(ts)) {
    expect_on_manifold(M, G, paste(label, "geodesic points"))
    expect_same_point(M, point_i(M, G, 1), p, 1e-12, label = paste(label, "geodesic at t = 0"))
    expect_same_point(M, point_i(M, G, length(ts)), q, 1e-12, label = paste(label, "geodesic at t = 1"))
    dg <- riem_dist(M, p, G)
    expect_close(dg, ts * nv, tol, scale = if (tiny) nv else max(1, nv), label = paste(label, "dist(p, geodesic(t)) = t |v|"))
  }
  invisible(NULL)
}

# The whole contract on one manifold, in three regimes.
expect_contract <- function(M, name = M$type, seed = 1L, n_base = 3L, n_vec = 2L) {
  set.seed(seed)
  rmax <- min(M$inj, 3) * 0.9
  for (b in seq_len(n_base)) {
    p <- rand_point(M)
    expect_on_manifold(M, p, paste(name, "random base point"))

    # (a) at the base point
    lab <- sprintf("[%s, base point %d, v = 0]", name, b)
    z <- zero_tangent(M, p)
    expect_close(riem_exp(M, p, z), p, 1e-12, label = paste(lab, "exp(p, 0) = p"))
    expect_close(riem_log(M, p, p), z, 1e-10, scale = 1, label = paste(lab, "log(p, p) = 0"))
    expect_close(riem_dist(M, p, p), 0, 1e-10, scale = 1, label = paste(lab, "dist(p, p) = 0"))
    expect_close(riem_norm(M, p, z), 0, 1e-12, scale = 1, label = paste(lab, "norm(0) = 0"))
    check_pair(M, p, z, tol = 1e-10, label = lab)

    # (b) tiny tangent vectors
    v <- rand_tangent(M, p, norm = 1e-8)
    check_pair(M, p, v, tol = 1e-6, tiny = TRUE, label = sprintf("[%s, base point %d, |v| = 1e-8]", name, b))

    # (c) random tangent vectors inside the injectivity radius
    for (j in seq_len(n_vec)) {
      r <- runif(1, 0, rmax)
      v <- rand_tangent(M, p, norm = r)
      check_pair(M, p, v, tol = 1e-8, label = sprintf("[%s, base point %d, |v| = %.3f]", name, b, r))
    }
  }
  # near the cut locus
  if (is.finite(M$inj)) {
    p <- rand_point(M)
    r <- M$inj - 1e-3
    v <- rand_tangent(M, p, norm = r)
    check_pair(M, p, v, tol = 1e-7, label = sprintf("[%s, near the cut locus, |v| = inj - 1e-3]", name))
  }
  invisible(TRUE)
}

# plot(obj, ...) draws on a pdf() device without output, warnings or
# messages, returns obj and leaves par()'s layout settings as they were.
expect_plots_quietly <- function(obj, ...) {
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  graphics::par(mfrow = c(1, 2), mar = c(1, 2, 3, 4))
  before <- graphics::par(no.readonly = TRUE)
  expect_silent(out <- plot(obj, ...))
  expect_identical(out, obj)
  expect_identical(graphics::par(no.readonly = TRUE)[c("mfrow", "mar", "oma", "mgp")],
                   before[c("mfrow", "mar", "oma", "mgp")])
}
