/*
 * The fault of the test build coll_sweep_fault (never of coll_sweep): with
 * MPICOLL_TEST_FAULT=<collective>:<algorithm>, every call of that algorithm
 * gets the last byte of the first item of its result flipped after it
 * returns, as a wrong algorithm would leave it. The ctest test
 * sweep.fault.<collective> runs it and requires the FAIL lines to name that
 * algorithm, and only it: the proof that the sweep can fail.
 */
#include "sweep.h"
#include "block_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char fault_coll[64], fault_algo[64];

static void corrupt(const char *coll, const char *spec, unsigned char *item,
                    size_t item_bytes)
{
    size_t n = spec ? strcspn(spec, ":") : 0;
    if (!spec || strcmp(coll, fault_coll) != 0 || strlen(fault_algo) != n
        || strncmp(spec, fault_algo, n) != 0 || item_bytes == 0)
        return;
    item[item_bytes - 1] ^= 0xFF;
}

int sweep_fault_install(void)
{
    const char *v = getenv("MPICOLL_TEST_FAULT");
    size_t c;
    if (!v || !*v)
        return 0;
    c = strcspn(v, ":");
    if (v[c] != ':' || c == 0 || c >= sizeof fault_coll || strlen(v + c + 1) == 0
        || strlen(v + c + 1) >= sizeof fault_algo) {
        fprintf(stderr, "MPICOLL_TEST_FAULT=%s: expected <collective>:<algorithm>\n", v);
        return -1;
    }
    memcpy(fault_coll, v, c);
    fault_coll[c] = '\0';
    snprintf(fault_algo, sizeof fault_algo, "%s", v + c + 1);
    bc_fault = corrupt;
    return 0;
}
