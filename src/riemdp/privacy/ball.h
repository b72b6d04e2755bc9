// Bounding data to the public ball B_r(c) (methods article, "Sensitivities and public domains"): points outside are
// moved to the boundary along the geodesic to the centre, so the sensitivity
// bound holds for what is released.
#ifndef RIEMDP_PRIVACY_BALL_H
#define RIEMDP_PRIVACY_BALL_H

#include "../geometry/manifold.h"

namespace riemdp {

// x <- Exp_c(r Log_c(x)/|Log_c(x)|) when dist(c, x) > r. At the cut locus of
// c every direction is minimising; the first tangent basis vector is used.
// The same work for a point inside as for one outside (the clipped point is
// always computed, then selected), so that the run time of a release does
// not tell how many records lie outside the ball; only a point at the cut
// locus of c (an exact antipode on the sphere) takes the exception path.
inline void clip_to_ball(const Manifold& M, CVecRef c, double radius, CVecRef x, VecRef out) {
  const double d = M.dist(c, x);
  Vec v(M.ambient()), clipped(M.ambient());
  try {
    M.log(c, x, v);
  } catch (const domain_error&) {
    v = M.tangent_basis(c).col(0);
  }
  const double nv = M.norm(c, v);
  if (nv > 0.0) v /= nv;  // (v = 0 only for x = c, which is inside)
  M.exp_unit(c, v, radius, clipped);
  if (d > radius) out = clipped;
  else out = x;
}

}  // namespace riemdp

#endif
