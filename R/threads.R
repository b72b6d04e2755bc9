# The number of threads of the compiled parallel passes (see the "Threads"
# section of ?riemdp): option riemdp.threads, else the environment variable
# RIEMDP_NUM_THREADS, else 2; at most 2 while R CMD check runs. Read once per
# call of the core (core_call) and handed to C++ (set_thread_limit_cpp).
riemdp_threads <- function(call = NULL) {
  value <- getOption("riemdp.threads")
  what <- "option `riemdp.threads`"
  if (is.null(value)) {
    env <- Sys.getenv("RIEMDP_NUM_THREADS", "")
    if (nzchar(env)) {
      value <- suppressWarnings(as.numeric(env))
      what <- sprintf("environment variable RIEMDP_NUM_THREADS = \"%s\" (the default of option `riemdp.threads`)", env)
    } else {
      value <- 2L
    }
  }
  if (!is.numeric(value) || length(value) != 1L || is.na(value) || !is.finite(value) ||
      value < 1 || value != round(value) || value > 1024)
    abort(sprintf("%s must be a whole number of threads in 1..1024 (got %s); e.g. options(riemdp.threads = 2)",
                  what, if (is.numeric(value) && length(value) == 1L) format(value)
                        else paste(deparse(value, width.cutoff = 50L)[1L], collapse = "")), call)
  value <- as.integer(value)
  if (under_r_check()) value <- min(value, 2L)
  value
}

# TRUE while R CMD check runs, or when it asks for at most two cores
# (_R_CHECK_LIMIT_CORES_ set and not false, as package parallel reads it;
# the CPU-to-elapsed timing thresholds of CRAN's checks).
under_r_check <- function() {
  limit <- Sys.getenv("_R_CHECK_LIMIT_CORES_", "")
  nzchar(Sys.getenv("_R_CHECK_PACKAGE_NAME_", "")) ||
    (nzchar(limit) && !identical(toupper(limit), "FALSE")) ||
    nzchar(Sys.getenv("_R_CHECK_EXAMPLE_TIMING_CPU_TO_ELAPSED_THRESHOLD_", "")) ||
    nzchar(Sys.getenv("_R_CHECK_TEST_TIMING_CPU_TO_ELAPSED_THRESHOLD_", ""))
}

# Reads the thread setting and hands it to the core (before a compiled call).
use_threads <- function(call = NULL) {
  set_thread_limit_cpp(riemdp_threads(call))
  invisible()
}
