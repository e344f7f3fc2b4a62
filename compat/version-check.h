/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KPLUG_VERSION_CHECK_H
#define KPLUG_VERSION_CHECK_H

/*
 * False, after one error line naming both compilers, when kplug.so was
 * built for another GCC than the one that loaded it (compat/version-check.c).
 */
bool kplug_check_gcc_version(struct plugin_gcc_version *version);

#endif
