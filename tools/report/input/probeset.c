// SPDX-License-Identifier: GPL-2.0
/*
 * The plugin's probe-graph inference (passes/probeset.c, no GCC header),
 * compiled as one of kplug-report's own units: cover --trace infers with
 * the very code that placed the probes, and every build of the report
 * (every .c of tools/report and its folders with config/kplug-json.c) gets it.
 */
#include "passes/probeset.c"
