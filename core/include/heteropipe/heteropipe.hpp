#pragma once

// The whole public API of the heteropipe core.
#include "heteropipe/analysis.hpp"
#include "heteropipe/curve.hpp"
#include "heteropipe/error.hpp"
#include "heteropipe/formulas.hpp"
#include "heteropipe/limits.hpp"
#include "heteropipe/parse.hpp"
#include "heteropipe/pipeline.hpp"
#include "heteropipe/request_text.hpp"
#include "heteropipe/schedule.hpp"
#include "heteropipe/sim/elementary.hpp"
#include "heteropipe/sim/input.hpp"
#include "heteropipe/sim/random.hpp"
#include "heteropipe/sim/simulate.hpp"
#include "heteropipe/sim/text_input.hpp"
#include "heteropipe/version.hpp"
