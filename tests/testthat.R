library(testthat)
library(riemdp)

# 'shapes' (a Suggests, used for cross-checks) loads 'rgl', which warns when
# there is no X11 display; use rgl's null device instead.
Sys.setenv(RGL_USE_NULL = "TRUE")

test_check("riemdp")
