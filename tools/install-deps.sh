#!/usr/bin/env bash
# Install what riemdp needs to be built, checked and run:
#   R packages Rcpp, RcppEigen, cli (progress bars), roxygen2, testthat, shapes, knitr, rmarkdown,
#   future, future.apply, progressr (parallel replication and progress),
#   and the pandoc binary (for the vignettes).
# `install-deps.sh site` installs instead what `make site` needs on top of
# that (SITE_PKGS: pkgdown, and Debian's libjs-mathjax for the maths, which
# tools/site-assets.sh copies into the site; the site's other scripts, styles
# and fonts are vendored in pkgdown/assets/vendor/, fetched from the npm
# registry by `tools/site-assets.sh fetch`, which lists them with their
# licences); check and demo never need it.
# `install-deps.sh site-check` installs what tools/check-site-offline.sh needs:
# Debian's chromium and nodejs.
# Does nothing (and no apt-get update) when everything is already present.
# Prefers Debian packages (root + apt-get), then falls back to
# install.packages() with the repositories R is configured with.
# Idempotent; prints one line per action.
set -euo pipefail

RSCRIPT="${RSCRIPT:-Rscript}"
R_PKGS=(Rcpp RcppEigen cli roxygen2 testthat shapes knitr rmarkdown future future.apply progressr)
SITE_PKGS=(pkgdown)
SITE=0
SITE_CHECK=0
case "${1:-}" in
  site) R_PKGS=("${SITE_PKGS[@]}"); SITE=1 ;;
  site-check) R_PKGS=(); SITE_CHECK=1 ;;
  "") ;;
  *) printf 'install-deps: usage: install-deps.sh [site | site-check]\n'; exit 2 ;;
esac
# The site's maths is typeset by the Debian copy of MathJax, which
# tools/site-assets.sh copies into pkgdown/assets/mathjax/ (so into docs/).
MATHJAX=/usr/share/javascript/mathjax/MathJax.js
# shapes pulls in rgl: never try to open an X11 display while probing.
export RGL_USE_NULL=TRUE

say() { printf 'install-deps: %s\n' "$*"; }

# Debian package name for an R package (r-cran-<lowercase name>).
deb_name() { printf 'r-cran-%s' "$(printf '%s' "$1" | tr '[:upper:]' '[:lower:]')"; }

have_r() { command -v "$RSCRIPT" >/dev/null 2>&1; }

# Print the R packages from R_PKGS that cannot be loaded, space separated.
missing_r_pkgs() {
  if [ "${#R_PKGS[@]}" -eq 0 ]; then
    return 0
  fi
  if ! have_r; then
    printf '%s ' "${R_PKGS[@]}"
    return 0
  fi
  "$RSCRIPT" -e '
    pkgs <- commandArgs(trailingOnly = TRUE)
    ok <- vapply(pkgs, function(p) suppressWarnings(suppressMessages(
      requireNamespace(p, quietly = TRUE))), logical(1))
    cat(pkgs[!ok], sep = " ")' "${R_PKGS[@]}" 2>/dev/null
}

missing_tools() {
  local out=()
  have_r || out+=(Rscript)
  command -v make >/dev/null 2>&1 || out+=(make)
  command -v g++ >/dev/null 2>&1 || out+=(g++)
  command -v pandoc >/dev/null 2>&1 || out+=(pandoc)
  if [ "$SITE" -eq 1 ] && [ ! -f "$MATHJAX" ]; then out+=(mathjax); fi
  if [ "$SITE_CHECK" -eq 1 ]; then
    command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || out+=(chromium)
    command -v node >/dev/null 2>&1 || out+=(node)
  fi
  printf '%s ' "${out[@]+"${out[@]}"}"
}

read -r -a miss_r <<<"$(missing_r_pkgs)" || true
read -r -a miss_t <<<"$(missing_tools)" || true

if [ "${#miss_r[@]}" -eq 0 ] && [ "${#miss_t[@]}" -eq 0 ]; then
  say "all present (R packages: ${R_PKGS[*]:-none needed}; pandoc: $(command -v pandoc)); nothing to do"
  exit 0
fi
say "missing R packages: ${miss_r[*]:-none}; missing tools: ${miss_t[*]:-none}"

# 1. Debian packages, when we are root and have apt-get.
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  debs=()
  for t in "${miss_t[@]+"${miss_t[@]}"}"; do
    case "$t" in
      Rscript) debs+=(r-base-core r-base-dev) ;;
      make | g++) debs+=(r-base-dev) ;;
      pandoc) debs+=(pandoc) ;;
      mathjax) debs+=(libjs-mathjax) ;;
      chromium) debs+=(chromium) ;;
      node) debs+=(nodejs) ;;
    esac
  done
  for p in "${miss_r[@]+"${miss_r[@]}"}"; do debs+=("$(deb_name "$p")"); done
  # de-duplicate, keep order
  read -r -a debs <<<"$(printf '%s\n' "${debs[@]}" | awk '!seen[$0]++' | tr '\n' ' ')"
  say "running apt-get update"
  apt-get update -qq
  say "apt-get install ${debs[*]}"
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends -qq "${debs[@]}" </dev/null; then
    say "apt-get install of all at once failed; trying one package at a time"
    for d in "${debs[@]}"; do
      DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends -qq "$d" </dev/null \
        && say "apt-get installed $d" || say "apt-get could not install $d"
    done
  fi
else
  say "not root or no apt-get: skipping Debian packages"
fi

# 2. Fall back to install.packages() for R packages still missing.
if ! have_r; then
  say "ERROR: Rscript is still not available; install R first"
  exit 1
fi
read -r -a miss_r <<<"$(missing_r_pkgs)" || true
if [ "${#miss_r[@]}" -gt 0 ]; then
  say "install.packages(${miss_r[*]}) from the repositories R is configured with"
  "$RSCRIPT" -e '
    pkgs <- commandArgs(trailingOnly = TRUE)
    repos <- getOption("repos")
    if (is.null(repos) || any(repos == "@CRAN@")) stop("no CRAN repository configured in R")
    install.packages(pkgs, quiet = TRUE)' "${miss_r[@]}"
fi

# 3. Verify.
read -r -a miss_r <<<"$(missing_r_pkgs)" || true
read -r -a miss_t <<<"$(missing_tools)" || true
if [ "${#miss_r[@]}" -gt 0 ] || [ "${#miss_t[@]}" -gt 0 ]; then
  say "ERROR: still missing R packages: ${miss_r[*]:-none}; tools: ${miss_t[*]:-none}"
  exit 1
fi
say "all present now (R packages: ${R_PKGS[*]:-none needed}; pandoc: $(command -v pandoc))"
