# Privacy budgets: composition of the releases' guarantees (epsilon-DP adds,
# mu-GDP in quadrature; Dong, Roth & Su 2022; article "Methods and
# corrections", section "Budgets").
# epsilon-DP: basic composition, sum of epsilons (Dwork & Roth 2014, Thm 3.16).
# mu-GDP: sqrt(sum mu^2) (Dong et al. 2022, Cor. 3.3), through gdp_compose();
# epsilon-DP releases enter a mu total as gdp_from_dp(epsilon) (Dong et al. 2022).

# Slack for comparing a composed total of k entries with the budget's total,
# so that e.g. 0.1 + 0.2 fits in 0.3: the rounding of the decimal inputs and
# of the rounded-up sum only, 2 + 2k units in the last place of the total
# (an (epsilon, delta) entry's epsilon' that exceeds the total by more, e.g.
# 1 + 1e-15 in a total of 1, is refused).
budget_slack <- function(k) (2 + 2 * k) * .Machine$double.eps

#' Privacy budgets: compose releases and refuse spending beyond a total
#'
#' `dp_budget()` collects releases and reports what they spent together;
#' given a `total`, it becomes an accountant that refuses (with an error)
#' any spend that would exceed it. `dp_spend()` records one more release (or
#' a planned spend given as `epsilon` or `mu`) and `dp_check_budget()` checks
#' a planned spend **before** the release is computed, so a refused release
#' never touches the data.
#'
#' **Composition.** Each release states its guarantee (`guarantee` field):
#' * all \eqn{\varepsilon}{epsilon}-DP: basic composition, the total is
#'   \eqn{\sum_i \varepsilon_i}{sum_i epsilon_i} (Dwork & Roth 2014, Thm 3.16);
#' * \eqn{\mu}{mu}-GDP, or a mix: the total is \eqn{\sqrt{\sum_i \mu_i^2}}{sqrt(sum_i mu_i^2)} (Dong,
#'   Roth & Su 2022, Cor. 3.3; [gdp_compose()]), where an \eqn{\varepsilon}{epsilon}-DP
#'   release counts as \eqn{\mu}{mu}-GDP with
#'   \eqn{\mu = -2\Phi^{-1}(1/(1+e^{\varepsilon}))}{mu = -2 Phi^(-1)(1/(1+e^epsilon))} ([gdp_from_dp()]; Dong et al. 2022).
#'   A \eqn{\mu}{mu}-GDP mechanism is not \eqn{\varepsilon}{epsilon}-DP for any finite
#'   \eqn{\varepsilon}{epsilon}, so a budget kept in \eqn{\varepsilon}{epsilon} refuses it.
#'
#' `type = "auto"` keeps the total in \eqn{\varepsilon}{epsilon} while every entry is
#' \eqn{\varepsilon}{epsilon}-DP and in \eqn{\mu}{mu} as soon as one is \eqn{\mu}{mu}-GDP; a
#' `total` fixes the unit (`c(epsilon = 1)` or `c(mu = 1)`). For
#' \eqn{\varepsilon}{epsilon}-DP entries the table also shows the \eqn{\mu}{mu} they imply.
#' Composition holds for releases computed on the same data set, adaptively
#' chosen or not, with parameters fixed before each release.
#'
#' A release that carries no privacy guarantee (e.g.
#' [dp_geodesic_regression()] with `scheme = "paper"`) or whose \eqn{\mu}{mu} was
#' not computed (`mu = NA`: Gaussian releases on spd and kendall) cannot be
#' accounted: that is an error. A Gaussian release with `mu = Inf` (no finite
#' \eqn{\mu}{mu} could be computed) counts as no privacy at all.
#'
#' The object is a value: `dp_spend()` returns a new budget and leaves
#' `budget` unchanged, as R functions do, so write `b <- dp_spend(b, rel)`;
#' a call without assignment records nothing (at the console it prints the
#' budget it would have made). A budget can thus be saved, copied and
#' compared like any R value. The same release recorded twice in one budget
#' (the identical object, by `dp_budget()` or `dp_spend()`) is an error: it
#' discloses nothing new, and counting it twice would overstate the spend; a
#' new release, even with the same parameters, is a new draw and is charged. Errors name the argument, state the composed
#' total and the budget's total (public parameters), and hold no data.
#' `spent` is rounded up and `remaining` down, and the printed numbers too
#' (a spend is never shown smaller than it is). Totals are compared with a
#' relative slack of \eqn{2 + 2k}{2 + 2k} units in the last place for \eqn{k}{k}
#' entries, which absorbs the rounding of decimal inputs (so that
#' \eqn{0.1 + 0.2}{0.1 + 0.2} fits in \eqn{0.3}{0.3}) and nothing more: an
#' \eqn{(\epsilon, \delta)}{(epsilon, delta)} release whose
#' \eqn{\epsilon'}{epsilon'} exceeds the total by \eqn{10^{-15}}{1e-15} is refused.
#' The table's column `draw` is each release's kind of guarantee
#' (`guarantee_kind`: `"exact"`, `"exact-rejection"` or `"empirical-chain"`;
#' `"planned"` for a planned spend).
#'
#' **Compared with diffprivlib and OpenDP.** From diffprivlib's
#' `BudgetAccountant` we took the accountant's vocabulary and behaviour: a
#' `total`, what has been `spent`, what is `remaining`, a `check` of a planned
#' spend that raises an error before anything runs, and a `spend` that is
#' refused rather than recorded when it would exceed the total. We left out
#' its \eqn{(\varepsilon, \delta)}{(epsilon, delta)} pairs and `slack` (advanced composition
#' trading a little \eqn{\delta}{delta} for a smaller \eqn{\varepsilon}{epsilon}): riemdp's
#' mechanisms are pure \eqn{\varepsilon}{epsilon}-DP or \eqn{\mu}{mu}-GDP, and the
#' \eqn{\mu}{mu}-GDP composition is already tight for Gaussian-like losses. We
#' also left out its implicit default accountant that every mechanism charges
#' behind the user's back: here spending is explicit and the budget is an
#' ordinary R value. OpenDP separates compositors (budget fixed up front,
#' split among queries), odometers (track the loss of an open-ended sequence
#' of queries) and filters (an odometer that refuses a query once the loss
#' would pass a bound), with compositions defined per privacy measure and
#' conversions between measures. `dp_budget()` without a total is an odometer
#' and with a total a filter, and the \eqn{\varepsilon}{epsilon}-DP-to-\eqn{\mu}{mu}-GDP
#' conversion plays the part of OpenDP's measure conversion. We left out the
#' interactive machinery (queryables that hold the data and enforce the
#' filter themselves): the budget does not hold the data, so it can only
#' refuse what the caller submits to it.
#'
#' @param ... `dp_budget()`: releases (objects of class `riemdp_release`) or lists
#'   of them. `print()`: passed on to `format()`; `format()`: unused.
#' @param total `NULL` (no limit), or the budget's total as one number
#'   \eqn{> 0}{> 0}: `c(epsilon = 1)` or `c(mu = 1)`; an unnamed number is in the
#'   unit of `type` (\eqn{\varepsilon}{epsilon} for `"auto"`). `dp_budget()` also takes
#'   the total as `epsilon = 1` or `mu = 1`, as diffprivlib's
#'   `BudgetAccountant(epsilon = 1)` does; give it once.
#' @param type `"auto"`, `"epsilon"` (basic composition; every entry must be
#'   \eqn{\varepsilon}{epsilon}-DP) or `"mu"` (\eqn{\mu}{mu}-GDP composition).
#' @return `dp_budget()` and `dp_spend()`: an object of class
#'   `riemdp_budget`, with `entries` (a data frame: `release`, `kind`,
#'   `epsilon`, `mu`, `delta`, `guarantee_kind`), `type` (`"epsilon"` or `"mu"`, the unit in force),
#'   `spent`, `delta` (the sum of the entries' \eqn{\delta}{delta}: an
#'   \eqn{(\epsilon, \delta)}{(epsilon, delta)}-DP release, the exact K-norm gradient draw by
#'   rejection of [dp_frechet_mean()], enters with its \eqn{\epsilon' = \epsilon +
#'   \ln(1/(1-\delta))}{epsilon' = epsilon + ln(1/(1 - delta))} and its \eqn{\delta}{delta}, and only in a budget kept in
#'   \eqn{\epsilon}{epsilon}), `total` (`NA` when there is none), `remaining` (in \eqn{\mu}{mu}:
#'   the largest single \eqn{\mu}{mu} that still fits,
#'   \eqn{\sqrt{total^2 - spent^2}}{sqrt(total^2 - spent^2)}) and `composition` (a sentence naming the
#'   theorem). Methods `print()` and `format()`. `dp_check_budget()`: the
#'   budget, invisibly, when the planned spend fits; an error otherwise.
#' @references Dong, Roth, Su (2022), Gaussian differential privacy, JRSS B,
#'   Cor. 3.3 and the conversion from pure DP. Dwork & Roth (2014), The
#'   algorithmic foundations of differential privacy, Thm 3.16.
#' @seealso [gdp_compose()], [gdp_from_dp()], [dp_frechet_mean()].
#' @examples
#' S2 <- manifold_sphere(2)
#' north <- c(0, 0, 1)
#' set.seed(1)
#' X <- riem_rlaplace(S2, 30, north, 0.05)
#' r1 <- dp_frechet_mean(S2, X, epsilon = 0.5, radius = pi / 6, center = north)
#' r2 <- dp_frechet_mean(S2, X, epsilon = 0.25, radius = pi / 6, center = north)
#' dp_budget(r1, r2)                        # 0.75 by basic composition
#' r3 <- dp_frechet_mean(S2, X, radius = pi / 6, center = north,
#'                       mechanism = "gaussian", mu = 0.5)
#' dp_budget(r1, r2, r3)                    # mixed: composed in mu
#'
#' # An accountant with a total: check before releasing, then record.
#' b <- dp_budget(total = c(epsilon = 1))
#' b <- dp_spend(b, r1)
#' dp_check_budget(b, epsilon = 0.5)        # fits: 0.5 + 0.5 = 1
#' try(dp_check_budget(b, epsilon = 0.75))  # refused before any release
#' b
#' @export
dp_budget <- function(..., total = NULL, type = c("auto", "epsilon", "mu"), epsilon = NULL, mu = NULL) {
  call <- sys.call()
  type <- arg_match(type, c("auto", "epsilon", "mu"), "type", call)
  total <- budget_total_from_args(total, epsilon, mu, type, call)
  if (!is.null(total)) {
    if (type != "auto" && type != names(total))
      abort(sprintf("`type` = \"%s\" does not match `total`, which is given in %s; drop `type` or name `total` c(%s = ...)",
                    type, names(total), type), call)
    type <- names(total)
  }
  b <- structure(list(entries = budget_empty_entries(), fingerprints = character(0), requested = type,
                      total_value = if (is.null(total)) NA_real_ else unname(total)),
                 class = "riemdp_budget")
  args <- list(...)
  labels <- budget_arg_labels(args, substitute(list(...)))
  for (i in seq_along(args)) {
    a <- args[[i]]
    if (inherits(a, "riemdp_release")) {
      b <- budget_add(b, budget_entry(a, labels[i], labels[i], call), labels[i], call, a)
    } else if (is.list(a) && !is.object(a) && length(a) > 0L) {
      nm <- names(a)
      for (j in seq_along(a)) {
        arg <- sprintf("%s[[%d]]", labels[i], j)
        lab <- if (!is.null(nm) && nzchar(nm[j])) nm[j] else arg
        if (!inherits(a[[j]], "riemdp_release"))
          abort(sprintf("`%s` must be a riemdp release (e.g. from dp_frechet_mean()); got an object of class %s",
                        arg, class(a[[j]])[1L]), call)
        b <- budget_add(b, budget_entry(a[[j]], lab, arg, call), arg, call, a[[j]])
      }
    } else {
      abort(sprintf("`%s` must be a riemdp release (e.g. from dp_frechet_mean()) or a list of them; got an object of class %s",
                    labels[i], class(a)[1L]), call)
    }
  }
  budget_refresh(b)
}

#' @rdname dp_budget
#' @param budget A `riemdp_budget` from `dp_budget()`.
#' @param release A release to record (give `release`, or one of `epsilon`
#'   and `mu` for a spend without a riemdp release object).
#' @param epsilon,mu `dp_spend()`, `dp_check_budget()`: a planned (or
#'   external) spend: one number \eqn{> 0}{> 0}, \eqn{\varepsilon}{epsilon}-DP or
#'   \eqn{\mu}{mu}-GDP. `dp_budget()`: the budget's total (see `total`).
#' @param label A name for the entry in the table.
#' @export
dp_spend <- function(budget, release = NULL, epsilon = NULL, mu = NULL, label = NULL) {
  call <- sys.call()
  check_budget_object(budget, call)
  n_given <- (!is.null(release)) + (!is.null(epsilon)) + (!is.null(mu))
  if (n_given != 1L)
    abort("give exactly one of `release`, `epsilon` and `mu`: the spend to record", call)
  if (!is.null(label) && !(is.character(label) && length(label) == 1L && !is.na(label)))
    abort("`label` must be a single string", call)
  if (!is.null(release)) {
    if (!inherits(release, "riemdp_release"))
      abort(sprintf("`release` must be a riemdp release (e.g. from dp_frechet_mean()); got an object of class %s",
                    class(release)[1L]), call)
    expr <- substitute(release)
    lab <- label %||% if (is.symbol(expr)) as.character(expr) else paste0("release ", nrow(budget$entries) + 1L)
    e <- budget_entry(release, lab, "release", call)
    arg <- "release"
  } else {
    arg <- if (!is.null(epsilon)) "epsilon" else "mu"
    lab <- label %||% paste0("spend ", nrow(budget$entries) + 1L)
    e <- budget_planned_entry(epsilon, mu, lab, call)
  }
  budget_refresh(budget_add(budget, e, arg, call, release))
}

#' @rdname dp_budget
#' @export
dp_check_budget <- function(budget, epsilon = NULL, mu = NULL) {
  call <- sys.call()
  check_budget_object(budget, call)
  if ((!is.null(epsilon)) + (!is.null(mu)) != 1L)
    abort("give exactly one of `epsilon` and `mu`: the planned spend to check", call)
  arg <- if (!is.null(epsilon)) "epsilon" else "mu"
  budget_add(budget, budget_planned_entry(epsilon, mu, "planned", call), arg, call)
  invisible(budget)
}

#' @rdname dp_budget
#' @param x A `riemdp_budget`.
#' @param digits Significant digits for the numbers.
#' @export
format.riemdp_budget <- function(x, digits = 4, ...) {
  e <- x$entries
  # spends rounded up, what remains rounded down: the print never states a
  # smaller spend or a larger remainder than the stored numbers
  # (an (epsilon, delta) entry's epsilon' exceeds epsilon by ln(1/(1 - delta)),
  # often a few ulps: printed without the tolerance for decimal shares)
  ulps <- if (any(e$kind == "(epsilon, delta)-DP")) 0 else 8
  fmt <- function(v, down = FALSE) ifelse(is.na(v), "-", format_guarantee(v, digits, down, ulps))
  head <- sprintf("<riemdp privacy budget> %d entr%s, accounted in %s", nrow(e),
                  if (nrow(e) == 1L) "y" else "ies", if (x$type == "epsilon") "epsilon-DP" else "mu-GDP")
  tab <- if (nrow(e) == 0L) "  (no releases yet)" else {
    draw <- e$guarantee_kind %||% rep(NA_character_, nrow(e))
    m <- rbind(c("release", "kind", "epsilon", "mu", "draw"),
               cbind(e$release, e$kind, fmt(e$epsilon), fmt(e$mu), ifelse(is.na(draw), "-", draw)))
    w <- apply(nchar(m), 2L, max)
    apply(m, 1L, function(r) sub(" +$", "", paste0("  ", paste0(r, strrep(" ", w - nchar(r)), collapse = "  "))))
  }
  unit <- x$type
  c(head, tab,
    sprintf("Spent: %s = %s (%s)%s", unit, fmt(x$spent), x$composition,
            if (isTRUE(x$delta > 0)) sprintf("; delta = %s (the sum of the (epsilon, delta)-DP entries' deltas)",
                                             format_guarantee(x$delta, 3)) else ""),
    if (is.na(x$total)) "Total: none set" else
      sprintf("Total: %s = %s; remaining: %s = %s", unit, fmt(x$total, down = TRUE), unit, fmt(x$remaining, down = TRUE)))
}

#' @rdname dp_budget
#' @export
print.riemdp_budget <- function(x, ...) {
  out <- format(x, ...)
  cat(out[seq_len(length(out) - 2L)], sep = "\n")
  cat(strwrap(out[length(out) - 1L], exdent = 2), sep = "\n")
  cat(out[length(out)], "\n", sep = "")
  invisible(x)
}

# ---- internals -------------------------------------------------------------

budget_empty_entries <- function() {
  data.frame(release = character(0), kind = character(0), epsilon = numeric(0), mu = numeric(0),
             delta = numeric(0), guarantee_kind = character(0), epsilon_excess = numeric(0),
             stringsAsFactors = FALSE)
}

# A release's kind of guarantee for the budget's table (NA for an object
# made before releases carried one).
budget_guarantee_kind <- function(r) {
  k <- r$guarantee_kind
  if (is.character(k) && length(k) == 1L && !is.na(k)) k else NA_character_
}

check_budget_total <- function(total, call) {
  if (is.null(total)) return(NULL)
  nm <- names(total)
  if (!is.numeric(total) || length(total) != 1L || is.null(nm) || !(nm %in% c("epsilon", "mu")) ||
      !is.finite(total) || total <= 0)
    abort("`total` must be NULL or one finite number > 0 named epsilon or mu, e.g. c(epsilon = 1) or c(mu = 1)", call)
  stats::setNames(as.double(total), nm)
}

# The budget's total from dp_budget()'s `total`, `epsilon` and `mu` (at most
# one of them), as one named number or NULL. An unnamed `total` is in the
# unit of `type` ("auto": epsilon, as diffprivlib's BudgetAccountant(epsilon)).
budget_total_from_args <- function(total, epsilon, mu, type, call) {
  given <- c(total = !is.null(total), epsilon = !is.null(epsilon), mu = !is.null(mu))
  if (sum(given) > 1L)
    abort(sprintf("give the budget's total once: %s were given together; use `epsilon` = 1 (or `total` = c(epsilon = 1)) for an epsilon-DP total, or `mu` = 1 (or `total` = c(mu = 1)) for a mu-GDP total",
                  paste0("`", names(given)[given], "`", collapse = " and ")), call)
  if (!any(given)) return(NULL)
  if (given[["total"]]) {
    if (is.numeric(total) && length(total) == 1L && is.null(names(total)))
      total <- stats::setNames(total, if (type == "mu") "mu" else "epsilon")
    return(check_budget_total(total, call))
  }
  unit <- if (given[["epsilon"]]) "epsilon" else "mu"
  value <- if (given[["epsilon"]]) epsilon else mu
  if (inherits(value, "riemdp_release"))
    abort(sprintf("`%s` is the budget's total (a number > 0), not a release: label releases with other names, e.g. dp_budget(mean = rel)", unit), call)
  if (type != "auto" && type != unit)
    abort(sprintf("`%s` gives a total in %s, but `type` = \"%s\"; drop `type`, or give the total as `%s`", unit, unit, type, type), call)
  value <- check_positive(value, unit, call)
  stats::setNames(value, unit)
}

# A fingerprint of a release, to recognise the same release recorded twice.
release_fingerprint <- function(release) {
  if (is.null(release)) NA_character_ else cli::hash_obj_md5(unclass(release))
}

check_budget_object <- function(budget, call) {
  if (!inherits(budget, "riemdp_budget"))
    abort("`budget` must be a privacy budget from dp_budget()", call)
}

# Argument labels: names given in `...`, else the expression when it is a
# symbol (never evaluated values), else "..i".
budget_arg_labels <- function(args, exprs) {
  exprs <- as.list(exprs)[-1L]
  nm <- names(args) %||% rep("", length(args))
  vapply(seq_along(args), function(i) {
    if (nzchar(nm[i])) return(nm[i])
    if (is.symbol(exprs[[i]])) return(as.character(exprs[[i]]))
    sprintf("..%d", i)
  }, character(1))
}

# One row of the table for a release; `arg` names it in errors.
budget_entry <- function(r, label, arg, call) {
  g <- r$guarantee
  if (release_has_diagnostics(r))
    abort(sprintf("`%s` holds chain diagnostics (diagnostics = TRUE), which depend on the data beyond its guarantee: the object as a whole is not a release, so it cannot be accounted; drop them first (`%s$diagnostics <- NULL`; the private values keep their guarantee) or re-run with diagnostics = FALSE",
                  arg, if (identical(arg, "release")) "release" else arg), call)
  if (identical(g, "epsilon-DP")) {
    eps <- r$epsilon
    if (!is.numeric(eps) || length(eps) != 1L || !is.finite(eps) || eps <= 0)
      abort(sprintf("`%s` is an epsilon-DP release without a valid `epsilon` field; it cannot be accounted", arg), call)
    return(data.frame(release = label, kind = "epsilon-DP", epsilon = eps, mu = gdp_from_dp(eps), delta = 0,
                      guarantee_kind = budget_guarantee_kind(r), epsilon_excess = 0, stringsAsFactors = FALSE))
  }
  # the exact K-norm gradient draw by rejection: (epsilon', delta)-DP with
  # epsilon' = epsilon + ln(1/(1 - delta_f)), delta = delta_f
  if (identical(g, "(epsilon, delta)-DP")) {
    eps <- r$epsilon_total
    del <- r$delta
    if (!is.numeric(eps) || length(eps) != 1L || !is.finite(eps) || eps <= 0 ||
        !is.numeric(del) || length(del) != 1L || !is.finite(del) || del < 0 || del >= 1)
      abort(sprintf("`%s` is an (epsilon, delta)-DP release without valid `epsilon_total` and `delta` fields; it cannot be accounted", arg), call)
    # epsilon' = epsilon + ln(1/(1 - delta)) at least: a smaller stored
    # epsilon_total (an edited object) would under-report the spend
    base <- r$epsilon
    if (!is.numeric(base) || length(base) != 1L || !is.finite(base) || base <= 0 || eps < base - log1p(-del))
      abort(sprintf("`%s` is an (epsilon, delta)-DP release whose `epsilon_total` is below epsilon + ln(1/(1 - delta)) of its `epsilon` and `delta` (or `epsilon` is missing); it cannot be accounted. Account the release as returned by the release function", arg), call)
    return(data.frame(release = label, kind = "(epsilon, delta)-DP", epsilon = eps, mu = NA_real_, delta = del,
                      guarantee_kind = budget_guarantee_kind(r), epsilon_excess = eps - base,
                      stringsAsFactors = FALSE))
  }
  if (identical(g, "mu-GDP")) {
    mu <- r$mu
    if (!is.numeric(mu) || length(mu) != 1L || is.na(mu))
      abort(sprintf("`%s` is a mu-GDP release whose mu was not computed (mu = NA: a Gaussian release given `sigma` on a manifold without constant curvature, such as spd or kendall; Jiang et al. 2023 Thm 4.1 computes mu only on constant curvature), so no budget can account for it; for an accountable release on that manifold use mechanism = \"laplace\" or \"kng\" with `epsilon`, or record its privacy loss yourself with dp_spend(budget, mu = ...) if you have a bound on it", arg), call)
    return(data.frame(release = label, kind = "mu-GDP", epsilon = NA_real_, mu = mu, delta = 0,
                      guarantee_kind = budget_guarantee_kind(r), epsilon_excess = 0, stringsAsFactors = FALSE))
  }
  abort(sprintf("`%s` carries no differential-privacy guarantee (guarantee: %s), so it cannot be accounted%s",
                arg, if (is.character(g) && length(g) == 1L) g else "none",
                if (inherits(r, "riemdp_regression_release")) "; use scheme = \"joint\"" else ""), call)
}

budget_planned_entry <- function(epsilon, mu, label, call) {
  if (!is.null(epsilon)) {
    epsilon <- check_positive(epsilon, "epsilon", call)
    return(data.frame(release = label, kind = "epsilon-DP", epsilon = epsilon, mu = gdp_from_dp(epsilon), delta = 0,
                      guarantee_kind = "planned", epsilon_excess = 0, stringsAsFactors = FALSE))
  }
  mu <- check_positive(mu, "mu", call)
  data.frame(release = label, kind = "mu-GDP", epsilon = NA_real_, mu = mu, delta = 0, guarantee_kind = "planned",
             epsilon_excess = 0, stringsAsFactors = FALSE)
}

# The unit in force for a set of entries.
budget_type <- function(requested, entries) {
  if (requested != "auto") return(requested)
  if (all(entries$kind %in% c("epsilon-DP", "(epsilon, delta)-DP"))) "epsilon" else "mu"
}

# The composed total, rounded up (gdp_compose() rounds up too): n - 1
# roundings of relative 2^-53 at most in a sum of n positive numbers.
budget_spent <- function(type, entries) {
  n <- nrow(entries)
  if (n == 0L) return(0)
  if (type == "mu") return(gdp_compose(entries$mu))
  s <- sum(entries$epsilon)
  if (n > 1L) s * (1 + n * .Machine$double.eps) else s
}

# Add entry `e`; error (naming `arg`) when it cannot be accounted in the
# budget's unit or would exceed the total. Nothing is stored on error.
budget_add <- function(b, e, arg, call, release = NULL) {
  if (b$requested == "epsilon" && e$kind == "mu-GDP")
    abort(sprintf("`%s` is mu-GDP, which is not epsilon-DP for any finite epsilon: it cannot be accounted in a budget kept in epsilon; use total = c(mu = ...) or type = \"mu\"", arg), call)
  # the same release recorded twice: refused (it discloses nothing new, and
  # counting it twice would overstate the spend)
  fp <- release_fingerprint(release)
  prints <- b$fingerprints %||% rep(NA_character_, nrow(b$entries))
  if (!is.na(fp) && fp %in% prints)
    abort(sprintf("`%s` is already recorded in this budget (entry \"%s\"): the same release published again discloses nothing new, so it is not charged twice; the budget is unchanged. A new release (a new draw) is a different object and is charged",
                  arg, b$entries$release[match(fp, prints)]), call)
  old <- b$entries
  # a budget stored before deltas or kinds of guarantee were accounted
  if (is.null(old$delta)) old$delta <- rep(0, nrow(old))
  if (is.null(old$guarantee_kind)) old$guarantee_kind <- rep(NA_character_, nrow(old))
  if (is.null(old$epsilon_excess)) old$epsilon_excess <- rep(0, nrow(old))
  entries <- rbind(old, e)
  type <- budget_type(b$requested, entries)
  if (type == "mu" && any(entries$kind == "(epsilon, delta)-DP"))
    abort(sprintf("`%s` cannot be accounted in a budget kept in mu: %s, and an (epsilon, delta)-DP release (the exact K-norm gradient draw by rejection) has no mu-GDP guarantee; keep (epsilon, delta) releases in a budget kept in epsilon, or draw the release by the chain (method = \"mh\", an epsilon-DP law whose draw is checked empirically)",
                  arg, if (e$kind == "(epsilon, delta)-DP") "it is (epsilon, delta)-DP" else "the budget holds an (epsilon, delta)-DP release"), call)
  spent <- budget_spent(type, entries)
  tot <- b$total_value
  # the slack covers the decimal rounding of the stated epsilons only: an
  # (epsilon, delta) entry's ln(1/(1 - delta)) must fit in what the stated
  # epsilons leave of the total, exactly
  excess <- sum(budget_excess(entries))
  stated <- entries
  stated$epsilon <- entries$epsilon - budget_excess(entries)
  over <- if (is.na(tot)) FALSE else if (type == "epsilon" && excess > 0)
    budget_spent(type, stated) > tot * (1 + budget_slack(nrow(entries))) || spent > tot
    else spent > tot * (1 + budget_slack(nrow(entries)))
  if (over) {
    before <- budget_spent(type, b$entries)
    # an excess below the printed digits (an (epsilon, delta) entry's
    # ln(1/(1 - delta)), say) is stated as such
    after <- if (format(spent, digits = 6) == format(tot, digits = 6))
      sprintf("%s + %s", format(tot, digits = 6), format_guarantee(spent - tot, 2)) else format_guarantee(spent, 6, ulps = 0)
    abort(sprintf("`%s` would exceed the budget: %s = %s already spent, %s after this spend (%s), above `total` %s = %s; it was not recorded",
                  arg, type, format_guarantee(before, 6, ulps = if (excess > 0) 0 else 8), after,
                  if (type == "epsilon") "basic composition" else "mu-GDP composition sqrt(sum mu^2)",
                  type, format(tot, digits = 6)), call)
  }
  b$entries <- entries
  b$fingerprints <- c(prints, fp)
  b
}

# epsilon' - epsilon of each (epsilon, delta) entry (0 for the others).
budget_excess <- function(entries) {
  x <- entries$epsilon_excess %||% rep(0, nrow(entries))
  x[is.na(x)] <- 0
  x
}

budget_refresh <- function(b) {
  e <- b$entries
  rownames(e) <- NULL
  b$entries <- e
  b$type <- budget_type(b$requested, e)
  b$spent <- budget_spent(b$type, e)
  # deltas add under basic composition (Dwork & Roth 2014, Thm 3.16)
  d <- e$delta %||% 0
  d <- d[d > 0]
  b$delta <- if (length(d) > 1L) sum(d) * (1 + length(d) * .Machine$double.eps) else sum(d)  # rounded up
  b$total <- b$total_value
  # rounded down (what may still be spent)
  b$remaining <- if (is.na(b$total)) NA_real_ else if (b$type == "epsilon") max(0, b$total - b$spent) else
    sqrt(max(0, b$total^2 - b$spent^2)) * (1 - 4 * .Machine$double.eps)
  has_eps <- any(e$kind == "epsilon-DP")
  b$composition <- if (b$type == "epsilon") "basic composition: sum of epsilons, Dwork & Roth 2014 Thm 3.16" else
    paste0("mu-GDP composition sqrt(sum mu^2), Dong, Roth & Su 2022 Cor. 3.3",
           if (has_eps) "; epsilon-DP entries converted to mu = -2 qnorm(1/(1 + exp(epsilon))), Dong et al. 2022" else "")
  b
}

#' Plot a privacy budget
#'
#' A bar per entry of a [dp_budget()] (what each release spent, in the unit
#' the budget is kept in), the running total after each entry (points joined
#' by a line: the sum of the \eqn{\varepsilon}{epsilon}s, or \eqn{\sqrt{\sum\mu^2}}{sqrt(sum mu^2)}
#' with \eqn{\varepsilon}{epsilon}-DP entries converted by [gdp_from_dp()]) and the
#' budget's total, dashed, when one is set. In \eqn{\mu}{mu} the running total
#' grows by less than each bar: \eqn{\mu}{mu}-GDP composes in squares. An entry
#' without privacy (\eqn{\mu = \infty}{mu = Inf}) is drawn to the top of the panel and
#' labelled.
#'
#' @param x A `riemdp_budget` with at least one entry.
#' @param main Title; `NULL` for a default.
#' @param ... Further graphical parameters for [graphics::barplot()] (for
#'   example `col`, `las`, `cex.names`).
#' @return `x`, invisibly.
#' @seealso [dp_budget()]
#' @examples
#' b <- dp_budget(total = c(epsilon = 2))
#' b <- dp_spend(b, epsilon = 0.5, label = "mean")
#' b <- dp_spend(b, epsilon = 0.25, label = "median")
#' b <- dp_spend(b, epsilon = 1, label = "regression")
#' plot(b)
#' plot(dp_spend(dp_budget(total = c(mu = 1)), mu = 0.5, label = "gaussian"))
#' @export
plot.riemdp_budget <- function(x, main = NULL, ...) {
  call <- sys.call()
  if (!inherits(x, "riemdp_budget") || is.null(x$entries)) abort("`x` must be a privacy budget from dp_budget()", call)
  e <- x$entries
  if (nrow(e) == 0L) abort("`x` has no entries yet: there is nothing spent to plot; record releases with dp_spend()", call)
  unit <- x$type
  spend <- if (unit == "epsilon") e$epsilon else e$mu
  running <- vapply(seq_along(spend), function(i) budget_spent(unit, e[seq_len(i), , drop = FALSE]), 0)
  finite <- c(spend, running, x$total)
  finite <- finite[is.finite(finite)]
  top <- 1.2 * max(finite, 0)
  if (!(top > 0)) top <- 1
  heights <- pmin(spend, top)
  shown_running <- pmin(running, top)
  label <- if (unit == "epsilon") "epsilon" else "mu"
  defaults <- list(height = heights, names.arg = e$release, ylim = c(0, top * 1.12), col = "grey80", border = "grey40",
                   ylab = label, las = 1,
                   main = main %||% sprintf("Privacy budget, %s", if (unit == "epsilon") "epsilon-DP" else "mu-GDP"))
  dots <- named_dots(list(...))
  defaults[names(dots)] <- dots
  mids <- do.call(graphics::barplot, defaults)
  graphics::lines(mids, shown_running, col = "steelblue4", lwd = 2)
  graphics::points(mids, shown_running, pch = 16, col = "steelblue4")
  if (any(!is.finite(spend)))
    graphics::text(mids[!is.finite(spend)], top, "no privacy (Inf)", pos = 3, cex = 0.75, col = "firebrick")
  if (!is.na(x$total)) graphics::abline(h = x$total, lty = 2, lwd = 2, col = "firebrick")
  graphics::mtext(sprintf("spent %s = %s%s", label, format_guarantee(x$spent, 4),
                          if (is.na(x$total)) "; no total set"
                          else sprintf(" of %s; remaining %s", format(x$total, digits = 4),
                                       format_guarantee(x$remaining, 4, down = TRUE))),
                  side = 3, line = 0.3, cex = 0.8)
  graphics::legend("topleft", bty = "n", cex = 0.8,
                   legend = c("spent by each entry",
                              sprintf("running total (%s)", if (unit == "epsilon") "sum" else "sqrt(sum mu^2)"),
                              if (!is.na(x$total)) "budget total"),
                   fill = c("grey80", NA, if (!is.na(x$total)) NA), border = c("grey40", NA, if (!is.na(x$total)) NA),
                   lty = c(NA, 1, if (!is.na(x$total)) 2), lwd = c(NA, 2, if (!is.na(x$total)) 2),
                   pch = c(NA, 16, if (!is.na(x$total)) NA),
                   col = c(NA, "steelblue4", if (!is.na(x$total)) "firebrick"))
  invisible(x)
}
