// The manifold factory: the one place that knows the five concrete classes.
// Callers work through the Manifold interface and include only this header
// and manifold.h, so that each manifold's methods are compiled once, in its
// own .cpp file.
#ifndef RIEMDP_GEOMETRY_FACTORY_H
#define RIEMDP_GEOMETRY_FACTORY_H

#include <memory>
#include <string>

#include "manifold.h"

namespace riemdp {

// type: "euclidean", "sphere", "hyperbolic" (size = d), "spd", "kendall"
// (size = k); invalid_argument for any other type.
std::unique_ptr<Manifold> make_manifold(const std::string& type, int size);

}  // namespace riemdp

#endif
