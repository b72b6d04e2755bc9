# The installed vignettes are read offline: their maths is MathML written by
# pandoc (`math_method: mathml` in each header), not TeX that a MathJax script
# fetched from the internet would typeset, and no installed HTML loads
# anything from outside the file. Their embedded figures keep the installed
# size down (R CMD check notes an installed size above 5 MB).

# The vignette sources: those installed in doc/ (R CMD build puts them there)
# or, for a package installed without vignettes, those of the source tree.
offline_vignette_sources <- function() {
  doc <- system.file("doc", package = "riemdp")
  files <- if (nzchar(doc)) list.files(doc, "\\.Rmd$", full.names = TRUE) else character()
  if (length(files) > 0) return(files)
  source_dir <- test_path("..", "..", "vignettes")
  if (dir.exists(source_dir)) list.files(source_dir, "\\.Rmd$", full.names = TRUE) else character()
}

# What in the header of an R Markdown vignette makes its HTML need the
# internet: rmarkdown::html_vignette with its default maths adds a script that
# loads MathJax from a CDN (even when the text has no maths).
vignette_header_problems <- function(rmd) {
  front <- rmarkdown::yaml_front_matter(rmd)
  name <- basename(rmd)
  output <- front$output
  if (is.character(output)) {
    output <- stats::setNames(rep(list(list()), length(output)), output)
  }
  options <- output[["rmarkdown::html_vignette"]]
  if (is.null(options)) {
    return(sprintf("%s: output is not rmarkdown::html_vignette", name))
  }
  method <- options$math_method
  if (is.list(method)) method <- method$engine
  if (!identical(method, "mathml")) {
    return(sprintf(paste0("%s: the header lacks `math_method: mathml` under rmarkdown::html_vignette, ",
                          "so its HTML loads MathJax from the internet"), name))
  }
  character()
}

# What in a built HTML file needs the internet, or MathJax.
vignette_html_problems <- function(html) {
  text <- paste(readLines(html, warn = FALSE, encoding = "UTF-8"), collapse = "\n")
  name <- basename(html)
  problems <- character()
  if (grepl("mathjax", text, ignore.case = TRUE)) {
    problems <- c(problems, sprintf("%s refers to MathJax", name))
  }
  outside <- gregexpr(paste0("<(script|link|img|iframe|source|embed|object)\\b[^>]*\\b(src|href)=",
                             "[\"']?((https?|ftp):)?//[^\"' >]*"), text, ignore.case = TRUE, perl = TRUE)
  outside <- regmatches(text, outside)[[1]]
  if (length(outside) > 0) {
    problems <- c(problems, sprintf("%s loads from outside the file: %s", name,
                                    paste(unique(outside), collapse = "; ")))
  }
  # a script or style sheet named anywhere, e.g. by a script that adds a <script>
  scripts <- regmatches(text, gregexpr("((https?|ftp):)?//[^\"' )<>]+\\.(js|css)\\b", text, perl = TRUE))[[1]]
  if (length(scripts) > 0) {
    problems <- c(problems, sprintf("%s names a script or style sheet outside the file: %s", name,
                                    paste(unique(scripts), collapse = "; ")))
  }
  # pandoc's output for MathJax: TeX in \( \) or \[ \] left for a script
  if (grepl("class=\"math (inline|display)\">\\\\[([]", text, perl = TRUE)) {
    problems <- c(problems, sprintf("%s has maths left as TeX for MathJax", name))
  }
  problems
}

test_that("every vignette header asks pandoc for MathML instead of MathJax", {
  skip_if_not_installed("rmarkdown")
  files <- offline_vignette_sources()
  skip_if(length(files) == 0, "no vignette sources: installed without vignettes, and no source tree")
  expect_gte(length(files), 7)
  problems <- unlist(lapply(files, vignette_header_problems))
  expect(length(problems) == 0, paste(problems, collapse = "\n"))
})

test_that("no installed vignette needs the internet or MathJax", {
  doc <- system.file("doc", package = "riemdp")
  html <- if (nzchar(doc)) list.files(doc, "\\.html$", full.names = TRUE) else character()
  skip_if(length(html) == 0, "the package was installed without its vignettes' HTML")
  problems <- unlist(lapply(html, vignette_html_problems))
  expect(length(problems) == 0, paste(problems, collapse = "\n"))
})

test_that("the installed vignettes' HTML stays within its size budget", {
  # The figures are PNGs embedded in the HTML, drawn without anti-aliasing
  # (about 40% smaller): 1.67 MB in all on 2026-11-28, 2.12 MB before.
  doc <- system.file("doc", package = "riemdp")
  html <- if (nzchar(doc)) list.files(doc, "\\.html$", full.names = TRUE) else character()
  skip_if(length(html) == 0, "the package was installed without its vignettes' HTML")
  sizes <- file.size(html)
  expect(sum(sizes) <= 1.85e6,
         sprintf("the installed vignettes' HTML takes %.2f MB, above the 1.85 MB budget: %s",
                 sum(sizes) / 1e6,
                 paste(sprintf("%s %.0f KB", basename(html), sizes / 1e3)[order(-sizes)], collapse = ", ")))
})
