# The installed documentation reads on its own: no raw LaTeX in the console
# help, and no project-internal names that outside readers cannot resolve.

rendered_help <- function() {
  db <- tools::Rd_db("riemdp")
  vapply(db, function(rd) {
    out <- character()
    con <- textConnection("out", "w", local = TRUE)
    on.exit(close(con))
    tools::Rd2txt(rd, out = con, options = list(underline_titles = FALSE))
    paste(out, collapse = "\n")
  }, "")
}

# LaTeX commands of two or more letters (\varepsilon, \nabla, \frac, ...);
# a one-letter escape such as "\n" in example code is not one.
latex_commands <- function(text) {
  unique(unlist(regmatches(text, gregexpr("\\\\[a-zA-Z]{2,}", text))))
}

# Internal names: the papers' file numbers, the design document, and an
# appendix, table or figure of a paper named by letter or number alone. An
# "App. A" counts as cited when an author or a year appears in the 150
# characters before it.
internal_names <- function(text) {
  text <- gsub("\\s+", " ", paste(text, collapse = " "))
  fixed <- regmatches(text, gregexpr("(?i)(paper|poster) 00[0-9]|DESIGN( \\S*)? ?\u00a7|DESIGN\\.md|design notes",
                                     text, perl = TRUE))[[1]]
  at <- gregexpr("App\\. [A-Z]", text)[[1]]
  bare <- character()
  for (pos in at[at > 0]) {
    before <- substr(text, max(1, pos - 150), pos)
    if (!grepl("(19|20)[0-9]{2}|Kulkarni|Reimherr|Jiang|Soto|Fletcher", before))
      bare <- c(bare, substr(text, max(1, pos - 40), pos + 6))
  }
  c(fixed, bare)
}

test_that("the checkers find planted offenders and pass clean text", {
  expect_identical(latex_commands("rate \\sigma = 2\\Delta/\\varepsilon"), c("\\sigma", "\\Delta", "\\varepsilon"))
  expect_length(latex_commands("cat(\"a\\n\") with sigma = 2 Delta/epsilon"), 0)
  expect_length(internal_names("see DESIGN \u00a75 and paper 000 and the design notes"), 3)
  expect_length(internal_names("the two-step release of App. A, for reproducing"), 1)
  expect_length(internal_names("the two-step release of Kulkarni & Soto (2025), App. A, for reproducing"), 0)
})

test_that("no installed help page shows raw LaTeX at the console", {
  help <- rendered_help()
  expect_gt(length(help), 20)
  found <- lapply(help, latex_commands)
  found <- found[lengths(found) > 0]
  expect(length(found) == 0,
         sprintf("LaTeX in the console help (give each \\eqn{}/\\deqn{} its ASCII second argument): %s",
                 paste(sprintf("%s: %s", names(found), vapply(found, paste, "", collapse = " ")), collapse = "; ")))
})

test_that("help pages and the README use no project-internal names", {
  help <- rendered_help()
  found <- lapply(help, internal_names)
  found <- found[lengths(found) > 0]
  expect(length(found) == 0,
         sprintf("internal names in help pages (cite papers by authors and year): %s",
                 paste(sprintf("%s: %s", names(found), vapply(found, paste, "", collapse = " | ")), collapse = "; ")))
  readme <- testthat::test_path("../../README.md")
  skip_if_not(file.exists(readme), "README.md is not next to the tests (R CMD check)")
  found <- internal_names(readLines(readme, encoding = "UTF-8", warn = FALSE))
  expect(length(found) == 0, sprintf("internal names in README.md: %s", paste(found, collapse = " | ")))
})

test_that("the README example prints what the README shows", {
  readme <- testthat::test_path("../../README.md")
  skip_if_not(file.exists(readme), "README.md is not next to the tests (R CMD check)")
  text <- readLines(readme, encoding = "UTF-8", warn = FALSE)
  fences <- which(startsWith(text, "```"))
  first <- which(text[fences] == "```r")[1L]
  code <- text[(fences[first] + 1L):(fences[first + 1L] - 1L)]
  shown <- text[(fences[first + 2L] + 1L):(fences[first + 3L] - 1L)]
  expect_match(text[fences[first + 1L] + 2L], "^It prints")
  old <- options(width = 80)
  on.exit(options(old), add = TRUE)
  # the example's statements whose value is printed at the console
  printed <- utils::capture.output({
    env <- new.env(parent = globalenv())
    for (e in parse(text = code)) {
      v <- withVisible(eval(e, env))
      if (v$visible) print(v$value)
    }
  })
  start <- grep("^<riemdp release>", printed)
  expect_length(start, 1L)
  got <- printed[start:(start + length(shown) - 1L)]
  expect_identical(got, shown)
})
