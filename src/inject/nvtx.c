/* nvtx.c - --nvtx-include RANGE inside the process.  NVTX (a header-only
 * library in the application) loads NVTX_INJECTION64_PATH at its first
 * call and calls InitializeInjectionNvtx2 there; gemmprof trace points it
 * at this library, which sets itself up (the application may annotate
 * before it touches CUDA) and hands NVTX on to libcupti's own
 * InitializeInjectionNvtx2, so that CUPTI reports every push and pop to
 * our subscriber as CUPTI_CB_DOMAIN_NVTX callbacks.  Each thread keeps its
 * own range stack (nvtx_range.c). */
#include <dlfcn.h>
#include <string.h>
#include <cupti_nvtx_cbid.h>
#include <generated_nvtx_meta.h>

#include "state.h"

static __thread gp_nvtx_stack stack;

static const CUpti_CallbackId nvtx_cbids[] = {
    CUPTI_CBID_NVTX_nvtxRangePushA,
    CUPTI_CBID_NVTX_nvtxRangePushEx,
    CUPTI_CBID_NVTX_nvtxRangePop,
    CUPTI_CBID_NVTX_nvtxDomainRangePushEx,
    CUPTI_CBID_NVTX_nvtxDomainRangePop,
};

int gp_inject_nvtx_inside(void)
{
    return gp_nvtx_inside(&stack);
}

static const char *ascii(const nvtxEventAttributes_t *a)
{
    return a && a->messageType == NVTX_MESSAGE_TYPE_ASCII ? a->message.ascii : NULL;
}

void gp_inject_nvtx_event(CUpti_CallbackId cbid, const CUpti_NvtxData *d)
{
    const char *want = gp_inj.nvtx_include;
    if (!d->functionParams && cbid != CUPTI_CBID_NVTX_nvtxRangePop &&
        cbid != CUPTI_CBID_NVTX_nvtxDomainRangePop) {
        gp_nvtx_push(&stack, want, NULL);       /* a range, of no name we know */
        return;
    }
    switch (cbid) {
    case CUPTI_CBID_NVTX_nvtxRangePushA:
        gp_nvtx_push(&stack, want, ((const nvtxRangePushA_params *)d->functionParams)->message);
        break;
    case CUPTI_CBID_NVTX_nvtxRangePushEx:
        gp_nvtx_push(&stack, want,
                     ascii(((const nvtxRangePushEx_params *)d->functionParams)->eventAttrib));
        break;
    case CUPTI_CBID_NVTX_nvtxDomainRangePushEx:
        gp_nvtx_push(&stack, want, ascii(((const nvtxDomainRangePushEx_params *)
                                          d->functionParams)->core.eventAttrib));
        break;
    case CUPTI_CBID_NVTX_nvtxRangePop:
    case CUPTI_CBID_NVTX_nvtxDomainRangePop:
        gp_nvtx_pop(&stack);
        break;
    }
}

int gp_inject_nvtx_subscribe(CUpti_SubscriberHandle sub, char *why, size_t n)
{
    for (size_t i = 0; i < sizeof nvtx_cbids / sizeof *nvtx_cbids; i++) {
        CUptiResult r = gp_inj.api->cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_NVTX,
                                                        nvtx_cbids[i]);
        if (r != CUPTI_SUCCESS) {
            gp_cupti_error(gp_inj.api, "cuptiEnableCallback(NVTX)", r, why, n);
            return -1;
        }
    }
    return 0;
}

typedef int (*nvtx_init_fn)(void *);

__attribute__((visibility("default"))) int InitializeInjectionNvtx2(void *getExportTable)
{
    /* NVTX calls this once; 0 tells it the injection failed (its calls
     * then do nothing, and no launch is inside the range: said in the
     * part file by gemmprof's check of the ranges seen). */
    if (gp_inject_setup() != 0 || !gp_inj.nvtx_include)
        return 0;
    void *h = dlopen(gp_inj.api->path, RTLD_NOW | RTLD_NOLOAD | RTLD_LOCAL);
    nvtx_init_fn init = h ? (nvtx_init_fn)dlsym(h, "InitializeInjectionNvtx2") : NULL;
    int ok = init ? init(getExportTable) : 0;
    gp_inject_nvtx_forwarded(ok ? NULL : init ? "libcupti's InitializeInjectionNvtx2 "
                             "failed" : "libcupti has no InitializeInjectionNvtx2");
    if (h)
        dlclose(h);
    return ok;
}
