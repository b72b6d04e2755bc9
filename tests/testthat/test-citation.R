# citation("riemdp") cites the package and the papers whose methods it
# implements, so that users cite the methods they used.

test_that("citation() cites the package and each paper it implements", {
  cit <- citation("riemdp")
  expect_gt(length(cit), 1)
  first_authors <- vapply(seq_along(cit), function(i) cit[[i]]$author[[1]]$family, "")
  # Reimherr, Bharath & Soto (2021); Kulkarni & Soto (2025) and their poster
  # (2026); Reimherr & Awan (2019); Jiang et al. (2023)
  for (author in c("Reimherr", "Kulkarni", "Jiang")) {
    expect_true(author %in% first_authors, info = author)
  }
  years <- vapply(seq_along(cit), function(i) cit[[i]]$year, "")
  expect_true(all(c("2019", "2021", "2023", "2025", "2026") %in% years))
  package_entry <- cit[vapply(seq_along(cit), function(i) identical(cit[[i]]$key, "riemdp"), NA)]
  expect_length(package_entry, 1)
  expect_match(package_entry$note, as.character(packageVersion("riemdp")), fixed = TRUE)
  text <- paste(format(cit, style = "text"), collapse = "\n")
  expect_false(grepl("https?://", text))
})
