/* model: what a CPU's front end cares about (profiles, each number with its
 * evidence), which CPU this is, the hazard rules, the padding that fixes a
 * hazard, and the scan of a whole image that applies them to every loop
 * and function (elf -> decode -> cfg -> rules). */
#ifndef STRADDLE_MODEL_H
#define STRADDLE_MODEL_H

/* One header per subject, each with the file that defines it. */
#include "profile.h"
#include "host.h"
#include "rules.h"
#include "geometry.h"
#include "noreturn.h"
#include "shape.h"
#include "cost.h"
#include "scan.h"
#include "diff.h"
#include "hot.h"

#endif
