// The manifold factory (factory.h).
#include "factory.h"

#include <stdexcept>

#include "euclidean.h"
#include "hyperbolic.h"
#include "kendall.h"
#include "spd.h"
#include "sphere.h"

namespace riemdp {

std::unique_ptr<Manifold> make_manifold(const std::string& type, int size) {
  if (type == "euclidean") return std::make_unique<Euclidean>(size);
  if (type == "sphere") return std::make_unique<Sphere>(size);
  if (type == "hyperbolic") return std::make_unique<Hyperbolic>(size);
  if (type == "spd") return std::make_unique<SPD>(size);
  if (type == "kendall") return std::make_unique<Kendall>(size);
  throw std::invalid_argument("unknown manifold type '" + type + "'");
}

}  // namespace riemdp
