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
#include "heteropipe/version.hpp"
