# The converging chain of the K-norm gradient releases (src/riemdp/sampling/
# kng_chain.h): dp_geodesic_regression(), dp_linear_regression() and
# dp_frechet_mean(mechanism = "kng") off the Euclidean exact path.

# The default length of a release's chain: a function of the parameter's
# dimension D and the sample size n only (both public). Below n = 200 the
# target is less concentrated, the linearised law proposes less well and a
# step costs less, so the chain is lengthened to the work of a chain on 200
# points (at most 20x): (250 + 25 D) * min(20, ceiling(200 / n)) steps of
# burn-in and as many after. Checked by the conformance matrix of
# bench/mcmc-conformance.R (kendall(8) at n = 20 needs about 4x to 10x).
kng_chain_factor <- function(n) as.integer(min(20, max(1, ceiling(200 / n))))
kng_chain_length <- function(D, n) {
  half <- as.integer((250L + 25L * D) * kng_chain_factor(n))
  list(burn_in = half, n_iter = half)
}

# The chain's settings: `control` from mcmc_control(), or NULL for the public
# defaults. init and resume are refused: a release's chain starts at its
# public start, and a resumed chain would carry a state drawn from the data.
kng_chain_control <- function(control, D, n, call, allow_init = FALSE) {
  if (is.null(control)) {
    len <- kng_chain_length(D, n)
    return(list(burn_in = len$burn_in, n_iter = len$n_iter, adapt = TRUE, target_accept = 0.3,
                verbose = interactive(), default = TRUE))
  }
  check_control(control, call)
  if (isTRUE(control$resumed))
    abort("`control` resumes an earlier chain (`resume`), which a release cannot do: its chain starts at a public start, and a resumed chain would carry a state drawn from other data; leave `resume` NULL", call)
  if (!allow_init && !is.null(control$init))
    abort("`control$init` is not used by this release: its chain starts at a public start fixed by the domain; leave `init` NULL", call)
  list(burn_in = control$burn_in, n_iter = control$n_iter, adapt = control$adapt,
       target_accept = control$target_accept, verbose = isTRUE(control$verbose), default = FALSE)
}

# k public starts of the parameter (p, v_1..v_m): (start, 0), then points at
# half the radius from the domain's centre `around` along its tangent basis
# with shooting vectors of half tau_m along the transported basis
# (alternating signs). Every start lies inside the domain (d(around, p) =
# radius / 2 < radius, |v_j| = tau_m / 2), wherever the public `start`
# (e.g. control$init, anywhere in the ball) lies. Public: computed from
# public quantities only.
kng_chain_starts <- function(M, start, radius, tau_m, m, k, around = start) {
  D <- M$ambient
  P <- matrix(start, D, k)
  V <- array(0, c(D, m, k))
  if (k < 2L) return(list(p = P, V = V))
  cl <- list(x = as.double(around), n = 1L, by_row = TRUE)
  B <- geom_tangent_basis(M, cl)
  d <- ncol(B)
  for (s in 2:k) {
    sgn <- if (s %% 2L == 0L) 1 else -1
    xi <- sgn * (radius / 2) * B[, (s - 2L) %% d + 1L]
    p <- as.double(geom_exp(M, cl, list(x = xi, n = 1L, by_row = TRUE), TRUE))
    P[, s] <- p
    for (j in seq_len(m)) {
      w <- -sgn * (tau_m / 2) * B[, (s + j - 2L) %% d + 1L]
      V[, j, s] <- as.double(geom_transport(M, cl, list(x = p, n = 1L, by_row = TRUE),
                                            list(x = w, n = 1L, by_row = TRUE), TRUE))
    }
  }
  list(p = P, V = V)
}

# One KNG release by the chain from the public start (centre, 0); with
# diagnostics, three more chains from other public starts (at half the
# radius from the domain's centre), for split-R-hat and the effective sample
# size of the level |grad E| / sigma. U = NULL: the Frechet mean's field.
# block: "joint", or a block of Kulkarni & Soto's App. A scheme: "footpoint"
# (p alone moves; shooting vectors carried from the fit (p_ref, V_ref)) or
# "shooting" (p fixed at `start`; every chain's shooting vectors start
# within tau_m / 2 of 0).
kng_chain_draw <- function(M, S, U, sigma, tau, start, radius, tau_m, ctl, diagnostics, call, center = start,
                           block = "joint", p_ref = NULL, V_ref = NULL) {
  m <- if (is.null(U)) 0L else ncol(U)
  m_chain <- if (block == "footpoint") 0L else m
  chains <- if (diagnostics) 4L else 1L
  keep <- if (diagnostics) ctl$n_iter else 1L
  # (the shooting block keeps p fixed at `start`: its starts differ in v only)
  st <- kng_chain_starts(M, start, if (block == "shooting") 0 else radius, tau_m, m_chain, chains,
                         around = if (block == "shooting") start else center)
  res <- core_call(samp_kng_chain(M, S, U, sigma, if (is.null(tau)) Inf else tau, center, radius,
                                  if (is.null(tau_m)) 1 else tau_m, st$p, as.double(st$V), keep, ctl, block,
                                  p_ref, V_ref), call)
  D <- M$ambient
  dim_chain <- M$dim * (m_chain + if (block == "shooting") 0L else 1L)
  list(p = res$footpoints[, 1L], V = matrix(res$shooting[seq_len(D * m_chain)], D, m_chain),
       diagnostics = if (diagnostics) kng_chain_diagnostics(res, dim_chain) else NULL)
}

# Data-dependent summaries of the chains (outside the guarantee): acceptance
# of each kind of step, the adapted local scale, split-R-hat (Gelman et al.
# 2013; Vehtari et al. 2021) and the effective sample size of the level over
# the chains, and the release's level against Gamma(D, 1), its law where the
# target is concentrated (a release far in the upper tail sits where the law
# has little mass). `trace` keeps the level at every kept step (one column
# per chain; the release is the last step of the first).
kng_chain_diagnostics <- function(res, D) {
  tr <- res$trace
  level <- tr[nrow(tr), 1L]
  list(sampler = "kng-chain", chains = ncol(tr), iterations = nrow(tr), trace = tr,
       acceptance_local = res$acceptance_local[1L], acceptance_independence = res$acceptance_independence[1L],
       step = res$step[1L], rhat = split_rhat(tr), ess = sum(apply(tr, 2L, effective_size)),
       level = level, dimension = D, level_upper_tail = stats::pgamma(level, D, lower.tail = FALSE))
}

# Split-R-hat of the columns of a draws matrix (chains as columns).
split_rhat <- function(tr) {
  h <- floor(nrow(tr) / 2)
  if (h < 2L) return(NA_real_)
  halves <- cbind(tr[seq_len(h), , drop = FALSE], tr[nrow(tr) - h + seq_len(h), , drop = FALSE])
  W <- mean(apply(halves, 2L, stats::var))
  B <- h * stats::var(colMeans(halves))
  if (!(W > 0)) return(if (B > 0) Inf else 1)
  sqrt(((h - 1) / h * W + B / h) / W)
}

# What a KNG release's guarantee says of its sampler: the chain and its length.
kng_chain_sentence <- function(control, start = "(centre, 0)") {
  sprintf("drawn by a Metropolis-Hastings chain of %d steps (%d burn-in) from the public start %s, mixing independence proposals from the linearised K-norm gradient law and the uniform law on the domain with preconditioned local steps; the guarantee is that of the exact law, which the chain reaches in the conformance checks of its defaults (vignette(\"benchmarks\", package = \"riemdp\"), \"The conformance matrix\")",
          as.integer(control$burn_in + control$n_iter), as.integer(control$burn_in), start)
}

print_kng_diagnostics <- function(d) {
  if (is.null(d)) return(invisible(NULL))
  cat("Chain diagnostics (data-dependent: outside the guarantee; do not publish):\n")
  cat(sprintf("  %d chains from public starts, %d kept steps each: split R-hat %s, effective sample size %s (level |grad E|/sigma)\n",
              d$chains, d$iterations, format(d$rhat, digits = 3), format(d$ess, digits = 3)))
  cat(sprintf("  acceptance: local %s (scale %s sigma), independence %s\n", format(d$acceptance_local, digits = 3),
              format(d$step, digits = 3), format(d$acceptance_independence, digits = 3)))
  cat(sprintf("  release's level %s; P(Gamma(%d, 1) > level) = %s%s\n",
              format(d$level, digits = 4), d$dimension, format(d$level_upper_tail, digits = 3),
              if (d$level_upper_tail < 1e-3) " (tiny: where the law is concentrated, the draw sits where it has no mass)" else ""))
  invisible(NULL)
}
