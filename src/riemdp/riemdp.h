// riemdp core: header-only C++17 + Eigen, no R or Rcpp headers.
#ifndef RIEMDP_RIEMDP_H
#define RIEMDP_RIEMDP_H

#include "numerics.h"
#include "interrupt.h"
#include "geometry/manifold.h"
#include "geometry/euclidean.h"
#include "geometry/sphere.h"
#include "geometry/hyperbolic.h"
#include "geometry/spd.h"
#include "geometry/kendall.h"
#include "statistics/frechet.h"
#include "statistics/median.h"
#include "statistics/regression.h"
#include "sampling/rng.h"
#include "sampling/radial.h"
#include "sampling/exact.h"
#include "sampling/mh.h"
#include "sampling/spd_exact.h"
#include "sampling/spd_sampler.h"
#include "sampling/kng_euclid.h"
#include "privacy/sensitivity.h"
#include "privacy/targets.h"
#include "privacy/ball.h"
#include "sampling/mh_bundle.h"
#include "privacy/regression_kng.h"
#include "sampling/kng_chain.h"
#include "privacy/gdp.h"

#endif
