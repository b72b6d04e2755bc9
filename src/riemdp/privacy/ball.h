// Bounding data to the public ball B_r(c) (methods article, "Sensitivities and public domains"): points outside are
// moved to the boundary along the geodesic to the centre, so the sensitivity
// bound holds for what is released.
#ifndef RIEMDP_PRIVACY_BALL_H
#define RIEMDP_PRIVACY_BALL_H

#include "../geometry/manifold.h"

namespace riemdp {

// x <- Exp_c(r Log_c(x)/|Log_c(x)|) when dist(c, x) > r. At the cut locus of
// c every direction is minimising; the first tangent basis vector is used.
inline void clip_to_ball(const Manifold& M, CVecRef c, double radius, CVecRef x, VecRef out) {
  const double d = M.dist(c, x);
  if (!(d > radius)) {
    out = x;
    return;
  }
  Vec v(M.ambient());
  try {
    M.log(c, x, v);
  } catch (const domain_error&) {
    v = M.tangent_basis(c).col(0);
  }
  const double nv = M.norm(c, v);
  M.exp_unit(c, v / nv, radius, out);
}

}  // namespace riemdp

#endif
