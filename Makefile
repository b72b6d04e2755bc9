# riemdp developer and CI entry points.
#   make deps      install what is missing (R packages, pandoc)
#   make document  regenerate man/ and NAMESPACE with roxygen2 (developers)
#   make install   R CMD build (with vignettes) + R CMD INSTALL of the tarball, so
#                  that vignette("riemdp") works; INSTALL_ARGS=--library=DIR
#   make demo      install without the vignettes (one compile), then private
#                  geodesic regression on real data (Tonga quakes, rat skulls)
#                  -> demo-output/*.png; RIEMDP_DEMO_FAST=1 for a short run
#   make check     the include guard (tools/check-includes.R), R CMD build + R CMD
#                  check, the test files on $(JOBS) processes (TESTTHAT_PARALLEL; the
#                  slowest first, DESCRIPTION's Config/testthat/start-first); fails
#                  on ERROR/WARNING or failing tests; always ends with
#                  `tests: N passed, M failed`
#   make site      reference site with pkgdown -> docs/index.html, offline (installs
#                  pkgdown if missing; open docs/index.html in a browser). Scripts,
#                  styles and MathJax come from pkgdown/assets/ (tools/site-assets.sh),
#                  not from CDNs; search works from disk too (pkgdown/extra.js)
#   make check-site  tools/check-site-offline.sh: opens docs/ pages in headless
#                  Chromium with networking off; fails on any outside request,
#                  failed load, JavaScript error, untypeset maths or empty search
#   make bench     geometry benchmarks
#   make clean     remove build and check products

R ?= R
RSCRIPT ?= Rscript
JOBS ?= 2
PKG := riemdp
# Scratch directory for R CMD build/check. Not `build/`: R CMD build puts its
# own build/ (vignette index) into the tarball, and ignoring ^build$ in
# .Rbuildignore would drop it.
CHECKDIR ?= check-build
DEMO_OUT ?= demo-output
BUILD_ARGS ?=
# Where `make install` builds its tarball (inside CHECKDIR, which
# .Rbuildignore drops); INSTALL_ARGS e.g. --library=/path/to/lib.
INSTALLDIR ?= $(CHECKDIR)/install
INSTALL_ARGS ?=
CHECK_ARGS ?= --no-manual

.PHONY: all deps document install demo check site check-site bench clean

all: check

deps:
	@bash tools/install-deps.sh

document:
	$(RSCRIPT) -e 'roxygen2::roxygenise()'

# R CMD build $(1) of this tree into $(INSTALLDIR), then R CMD INSTALL of the
# tarball, each with $(JOBS) make jobs.
define build_and_install
	@rm -rf $(INSTALLDIR) && mkdir -p $(INSTALLDIR)
	@echo "==> R CMD build $(1) . (log: $(INSTALLDIR)/build.log)"
	@cd $(INSTALLDIR) && MAKEFLAGS=-j$(JOBS) $(R) CMD build $(1) "$(CURDIR)" \
	  > build.log 2>&1 \
	  || { tail -n 60 build.log; echo "R CMD build failed"; exit 1; }
	@echo "==> R CMD INSTALL $(PKG)_*.tar.gz (log: $(INSTALLDIR)/install.log)"
	@cd $(INSTALLDIR) && MAKEFLAGS=-j$(JOBS) $(R) CMD INSTALL --no-multiarch $(INSTALL_ARGS) \
	  $(PKG)_*.tar.gz > install.log 2>&1 \
	  || { tail -n 60 install.log; echo "R CMD INSTALL failed"; exit 1; }
	@grep -E '^\* DONE' $(INSTALLDIR)/install.log || true
endef

# With the vignettes, so that vignette("riemdp") works afterwards: R CMD
# build compiles the package once to knit them, and R CMD INSTALL compiles
# it again.
install: deps
	$(call build_and_install,$(BUILD_ARGS))

# The demo needs the package, not its vignettes: the tarball is built
# without them (no compile), so the package is compiled once.
demo: deps
	$(call build_and_install,--no-build-vignettes $(BUILD_ARGS))
	$(RSCRIPT) inst/scripts/demo.R $(DEMO_OUT)

check: deps
	@rm -rf $(CHECKDIR) && mkdir -p $(CHECKDIR)
	@echo "==> tools/check-includes.R (each translation unit reads only what it uses)"
	@$(RSCRIPT) tools/check-includes.R src
	@cd $(CHECKDIR) && \
	  echo "==> R CMD build $(BUILD_ARGS)" && \
	  MAKEFLAGS=-j$(JOBS) $(R) CMD build $(BUILD_ARGS) "$(CURDIR)" && \
	  echo "==> R CMD check $(CHECK_ARGS)" && \
	  MAKEFLAGS=-j$(JOBS) _R_CHECK_FORCE_SUGGESTS_=false NOT_CRAN=true \
	    TESTTHAT_PARALLEL=true TESTTHAT_CPUS=$(JOBS) \
	    $(R) CMD check $(CHECK_ARGS) $(PKG)_*.tar.gz \
	  || echo "==> R CMD build/check exited non-zero"
	@bash tools/check-summary.sh $(CHECKDIR)/$(PKG).Rcheck

# pkgdown 2.0.7 runs the examples on ragg's default device, whose file
# Rplot%03d.png lands in docs/reference/, and saves each plot again as
# <topic>-<n>.png for the page: the Rplot files are left over and linked from
# nowhere, so they are removed (unless a page links one).
site: deps
	@bash tools/install-deps.sh site
	@bash tools/site-assets.sh
	RGL_USE_NULL=TRUE MAKEFLAGS=-j$(JOBS) $(RSCRIPT) -e 'options(pkgdown.internet = FALSE); pkgdown::build_site(preview = FALSE)'
	@for f in docs/reference/Rplot[0-9]*.png; do \
	  [ -e "$$f" ] || continue; \
	  if grep -rqF --include='*.html' "$$(basename "$$f")" docs; then echo "==> kept $$f (linked)"; \
	  else rm -f "$$f"; fi; \
	done
	@# the search index as a script, for pages opened from disk (pkgdown/extra.js)
	@{ printf 'window.pkgdownSearchIndex = '; cat docs/search.json; printf ';\n'; } > docs/search-index.js
	@echo "==> site built: $(CURDIR)/docs/index.html"

check-site:
	@bash tools/check-site-offline.sh

bench: install
	$(RSCRIPT) bench/geometry.R

clean:
	rm -rf $(CHECKDIR) $(DEMO_OUT) $(PKG).Rcheck $(PKG)_*.tar.gz docs pkgdown/assets/mathjax
	rm -f src/*.o src/*.so src/*.dll
	find src -name '*.o' -delete
