/* results/profile.h: profiles as JSON (uarch --json) and profile files
 * loaded for --uarch FILE.json and host (profile.c). */
#ifndef STRADDLE_RESULTS_PROFILE_H
#define STRADDLE_RESULTS_PROFILE_H

#include <jansson.h>

#include "../model/host.h"
#include "../model/profile.h"

/* A profile's fields as JSON (straddle uarch --json, calibrate's file). */
json_t *results_profile(const struct profile *p);
/* straddle uarch --json: every built-in profile, the calibrated one of
 * this CPU (cal, read from cal_path; NULL: none) and the host detected. */
json_t *results_uarch(const struct host *h, const struct profile *cal, const char *cal_path);

/* model/profile.h's profile_loader: the profile of a calibrate file, kept until
 * exit, or NULL with "PATH: what is wrong" in *e. */
const struct profile *results_profile_load(const char *path, struct err *e);
/* The same of a calibrate file results_open opened (the page of straddle
 * report reads each file once). */
const struct profile *results_profile_of(const char *path, const json_t *doc, struct err *e);
/* Frees every profile loaded so far, for a process that loads profiles
 * without end (fuzz/fuzz_report.c: each input a calibrate file, read twice
 * for a page); nothing may hold one then. */
void results_profiles_forget(void);

#endif
