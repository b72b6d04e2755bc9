#!/usr/bin/env bash
# The JavaScript, CSS and fonts the pkgdown site (docs/) loads, so that it
# works offline and from any place it is copied to. pkgdown copies
# pkgdown/assets/ into docs/; pkgdown/templates/head.html refers to the copies
# by relative paths instead of pkgdown's CDN addresses.
#
#   tools/site-assets.sh          (run by `make site`) copy MathJax from
#                                 Debian's libjs-mathjax into
#                                 pkgdown/assets/mathjax/ (git-ignored: 54 MB
#                                 upstream, 3 MB after pruning) and check that
#                                 the vendored files below are present.
#   tools/site-assets.sh fetch    maintainers: re-fetch the vendored files
#                                 below from the npm registry (`npm pack`,
#                                 needs the network) into pkgdown/assets/vendor/
#                                 (committed), each with its licence file.
#
# Vendored files (versions as pkgdown 2.0.7's BS5 head.html requests them):
#   npm package                      files                          licence
#   headroom.js 0.11.0               headroom.min.js,               MIT
#                                    jQuery.headroom.min.js
#   clipboard 2.0.6                  clipboard.min.js               MIT
#   fuse.js 6.4.6                    fuse.min.js                    Apache-2.0
#   autocomplete.js 0.38.0           autocomplete.jquery.min.js     MIT
#   mark.js 8.11.1                   mark.min.js                    MIT
#   @fortawesome/fontawesome-free    css/all.min.css,               icons CC-BY-4.0,
#     5.12.1                         css/v4-shims.min.css,          fonts OFL-1.1,
#                                    webfonts/*.woff2               code MIT
# pkgdown's table of contents uses bootstrap-toc 1.0.1, which is neither in
# the npm registry nor in Debian: pkgdown/assets/vendor/toc/toc.js is a small
# stand-in written for this package (same Toc.init() call, same markup).
# MathJax 2.7 (Apache-2.0) comes from Debian's libjs-mathjax, which
# `tools/install-deps.sh site` installs.
set -euo pipefail

cd "$(dirname "$0")/.."
VENDOR=pkgdown/assets/vendor
MATHJAX_SRC=${MATHJAX_SRC:-/usr/share/javascript/mathjax}
MATHJAX_DST=pkgdown/assets/mathjax
MATHJAX_CONFIG=TeX-AMS-MML_HTMLorMML

say() { printf 'site-assets: %s\n' "$*"; }

# "npm spec|dir in the package|files (space separated)|destination|licence file"
NPM_FILES=(
  "headroom.js@0.11.0|dist|headroom.min.js jQuery.headroom.min.js|headroom|LICENSE"
  "clipboard@2.0.6|dist|clipboard.min.js|clipboard|LICENSE"
  "fuse.js@6.4.6|dist|fuse.min.js|fuse|LICENSE"
  "autocomplete.js@0.38.0|dist|autocomplete.jquery.min.js|autocomplete|LICENSE"
  "mark.js@8.11.1|dist|mark.min.js|mark|LICENSE"
  "@fortawesome/fontawesome-free@5.12.1|.|css/all.min.css css/v4-shims.min.css webfonts/fa-brands-400.woff2 webfonts/fa-regular-400.woff2 webfonts/fa-solid-900.woff2|fontawesome|LICENSE.txt"
)

fetch() {
  command -v npm >/dev/null 2>&1 || { say "ERROR: npm is needed to fetch"; exit 1; }
  local tmp
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' RETURN
  for entry in "${NPM_FILES[@]}"; do
    IFS='|' read -r spec dir files dest licence <<<"$entry"
    say "npm pack $spec"
    (cd "$tmp" && npm pack --silent "$spec" >/dev/null)
    local tgz
    tgz=$(ls -t "$tmp"/*.tgz | head -1)
    rm -rf "$tmp/package" && tar xzf "$tgz" -C "$tmp" && rm -f "$tgz"
    rm -rf "${VENDOR:?}/$dest" && mkdir -p "$VENDOR/$dest"
    for f in $files; do
      mkdir -p "$VENDOR/$dest/$(dirname "$f")"
      cp "$tmp/package/$dir/$f" "$VENDOR/$dest/$f"
    done
    cp "$tmp/package/$licence" "$VENDOR/$dest/LICENSE"
    printf '%s\n' "$spec" >"$VENDOR/$dest/VERSION"
  done
  say "fetched into $VENDOR"
}

check_vendored() {
  local missing=0
  for entry in "${NPM_FILES[@]}"; do
    IFS='|' read -r spec dir files dest licence <<<"$entry"
    for f in $files LICENSE; do
      [ -f "$VENDOR/$dest/$f" ] || { say "ERROR: missing $VENDOR/$dest/$f ($spec)"; missing=1; }
    done
  done
  [ -f "$VENDOR/toc/toc.js" ] || { say "ERROR: missing $VENDOR/toc/toc.js"; missing=1; }
  [ "$missing" -eq 0 ] || { say "run 'tools/site-assets.sh fetch' (network) to restore them"; exit 1; }
}

# MathJax 2.7 as Debian ships it, less what the site never loads: the source
# tree (unpacked/), tests, the SVG output, the other combined configurations,
# translations and every font but TeX (fonts are symbolic links to
# fonts-mathjax, hence cp -L).
stage_mathjax() {
  if [ ! -f "$MATHJAX_SRC/MathJax.js" ]; then
    say "ERROR: $MATHJAX_SRC/MathJax.js not found; run 'tools/install-deps.sh site' (libjs-mathjax)"
    exit 1
  fi
  if [ -f "$MATHJAX_DST/MathJax.js" ] && [ "$MATHJAX_DST/MathJax.js" -nt "$MATHJAX_SRC/MathJax.js" ]; then
    say "MathJax already staged in $MATHJAX_DST"
    return 0
  fi
  rm -rf "${MATHJAX_DST:?}" && mkdir -p "$MATHJAX_DST/config"
  cp -L "$MATHJAX_SRC/MathJax.js" "$MATHJAX_DST/"
  if [ -f /usr/share/doc/libjs-mathjax/copyright ]; then cp /usr/share/doc/libjs-mathjax/copyright "$MATHJAX_DST/COPYRIGHT"; fi
  cp -L "$MATHJAX_SRC/config/$MATHJAX_CONFIG.js" "$MATHJAX_DST/config/"
  cp -rL "$MATHJAX_SRC/extensions" "$MATHJAX_SRC/jax" "$MATHJAX_DST/"
  mkdir -p "$MATHJAX_DST/fonts/HTML-CSS/TeX"
  cp -rL "$MATHJAX_SRC/fonts/HTML-CSS/TeX/woff" "$MATHJAX_SRC/fonts/HTML-CSS/TeX/otf" \
    "$MATHJAX_DST/fonts/HTML-CSS/TeX/"
  rm -rf "$MATHJAX_DST/jax/output/SVG"
  find "$MATHJAX_DST/jax/output/HTML-CSS/fonts" -mindepth 1 -maxdepth 1 ! -name TeX -exec rm -rf {} +
  touch "$MATHJAX_DST/MathJax.js"
  say "MathJax staged in $MATHJAX_DST ($(du -sh "$MATHJAX_DST" | cut -f1))"
}

# pkgdown/templates/head.html replaces pkgdown 2.0.x's own (Debian's
# r-cran-pkgdown); other versions lay out their pages differently.
check_pkgdown_version() {
  local v
  v=$(Rscript -e 'cat(format(utils::packageVersion("pkgdown")))' 2>/dev/null || true)
  case "$v" in
    2.0.*) ;;
    *) say "WARNING: pkgdown ${v:-not found}: pkgdown/templates/head.html is written for pkgdown 2.0.x; run tools/check-site-offline.sh on the result" ;;
  esac
}

case "${1:-}" in
  fetch) fetch ;;
  "") check_vendored; stage_mathjax; check_pkgdown_version ;;
  *) say "usage: tools/site-assets.sh [fetch]"; exit 2 ;;
esac
