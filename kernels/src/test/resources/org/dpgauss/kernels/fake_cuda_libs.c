/*
 * Fake libcublas.so.13 / libcusolver.so.12 for FfmHandleLifecycleTest (compiled by the test with gcc): every
 * routine the FFM bindings call, by the names of CUDA 13, returning the status read from MODE_FILE for the
 * routine named there ("cublasGetVersion_v2 14" makes that routine return 14). Create and Destroy append
 * "create" / "destroy" to LOG_FILE, so the test can count live handles. With -DLEGACY_ONLY the cuBLAS routines
 * are exported only under their legacy names (cublasDgemm, ...), as if the _v2 names were missing.
 */
#include <stdio.h>
#include <string.h>

static int status_for(const char *routine) {
    char name[128];
    int code = 0;
    FILE *f = fopen(MODE_FILE, "r");
    if (!f) return 0;
    int n = fscanf(f, "%127s %d", name, &code);
    fclose(f);
    return n == 2 && strcmp(name, routine) == 0 ? code : 0;
}

static void note(const char *what) {
    FILE *f = fopen(LOG_FILE, "a");
    if (f) { fprintf(f, "%s\n", what); fclose(f); }
}

static int handle_storage;

#define CREATE(fn) int fn(void **h) { note("create"); *h = &handle_storage; return status_for(#fn); }
#define DESTROY(fn) int fn(void *h) { (void) h; note("destroy"); return status_for(#fn); }
#define ROUTINE(fn) int fn() { return status_for(#fn); }

#ifdef CUBLAS
CREATE(cublasCreate_v2)
DESTROY(cublasDestroy_v2)
ROUTINE(cublasSetStream_v2)
int cublasGetVersion_v2(void *h, int *v) { (void) h; *v = 130101; return status_for("cublasGetVersion_v2"); }
#ifdef LEGACY_ONLY
ROUTINE(cublasDgemm)
ROUTINE(cublasDsyrk)
ROUTINE(cublasDtrsm)
#else
ROUTINE(cublasDgemm_v2)
ROUTINE(cublasDsyrk_v2)
ROUTINE(cublasDtrsm_v2)
#endif
#endif

#ifdef CUSOLVER
CREATE(cusolverDnCreate)
DESTROY(cusolverDnDestroy)
ROUTINE(cusolverDnSetStream)
int cusolverGetVersion(int *v) { *v = 12000; return status_for("cusolverGetVersion"); }
ROUTINE(cusolverDnDpotrf_bufferSize)
ROUTINE(cusolverDnDpotrf)
ROUTINE(cusolverDnDsyevd_bufferSize)
ROUTINE(cusolverDnDsyevd)
#endif
