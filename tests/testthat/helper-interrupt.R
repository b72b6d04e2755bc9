# Ctrl-C in a child R process: the timing harness of test-interrupt.R and
# bench/interrupt.R.

# Is the process alive (a zombie, which an init that does not reap may leave,
# counts as gone)?
process_alive <- function(pid) {
  stat <- sprintf("/proc/%d/stat", pid)
  if (dir.exists("/proc")) {
    s <- tryCatch(readLines(stat, warn = FALSE), error = function(e) character())
    if (!length(s)) return(FALSE)
    state <- strsplit(sub("^.*\\) ", "", s[1]), " ")[[1]][1]
    return(!identical(state, "Z"))
  }
  isTRUE(tools::pskill(pid, 0L))
}

# Runs `setup` and then `code` (lines of R) in a child Rscript with riemdp
# loaded from this library; sends SIGINT `delay` seconds after the child
# reports its pid (after `setup`, just before `code`); returns the seconds
# from SIGINT to the child's exit (Inf if it had not exited after `patience`
# seconds: it is then killed; NA if it had exited before the signal) and
# whether the child got past `code`, and (with `output = TRUE`) the child's
# standard output. Shared by test-interrupt.R and bench/interrupt.R.
time_to_exit_after_sigint <- function(code, delay = 1, patience = 20, output = FALSE, setup = character()) {
  dir <- tempfile("riemdp-sigint-")
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE), add = TRUE)
  pid_file <- file.path(dir, "pid")
  done_file <- file.path(dir, "finished")
  script <- file.path(dir, "child.R")
  out_file <- file.path(dir, "stdout")
  writeLines(c(
    sprintf(".libPaths(%s)", paste(deparse(.libPaths()), collapse = "")),
    "suppressPackageStartupMessages(library(riemdp))",
    "set.seed(1)",
    setup,
    sprintf("writeLines(as.character(Sys.getpid()), %s)", deparse(pid_file)),
    code,
    sprintf("writeLines('yes', %s)", deparse(done_file))
  ), script)
  system2(file.path(R.home("bin"), "Rscript"), c("--vanilla", shQuote(script)),
          wait = FALSE, stdout = if (output) out_file else FALSE, stderr = FALSE)
  t_wait <- Sys.time()
  while (!file.exists(pid_file) || length(readLines(pid_file, warn = FALSE)) == 0L) {
    if (difftime(Sys.time(), t_wait, units = "secs") > 120) stop("the child R process did not start")
    Sys.sleep(0.05)
  }
  pid <- as.integer(readLines(pid_file, warn = FALSE)[1])
  Sys.sleep(delay)
  elapsed <- if (process_alive(pid)) Inf else NA_real_
  t0 <- Sys.time()
  if (!is.na(elapsed)) tools::pskill(pid, tools::SIGINT)
  while (!is.na(elapsed)) {
    if (!process_alive(pid)) {
      elapsed <- as.numeric(difftime(Sys.time(), t0, units = "secs"))
      break
    }
    if (difftime(Sys.time(), t0, units = "secs") > patience) {
      tools::pskill(pid, tools::SIGKILL)  # leave no chain running
      break
    }
    Sys.sleep(0.002)
  }
  list(elapsed = elapsed, finished = file.exists(done_file),
       output = if (output && file.exists(out_file)) readLines(out_file, warn = FALSE) else character())
}
