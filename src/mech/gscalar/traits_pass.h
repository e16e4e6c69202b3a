// The "gscalar-traits" compiler pass (traits_pass.cpp).
#pragma once
#include <memory>

#include "timing/i_ir_pass.h"

namespace warpsim::mech::gscalar {

std::unique_ptr<timing::IIrPass> makeTraitsPass();

}  // namespace warpsim::mech::gscalar
