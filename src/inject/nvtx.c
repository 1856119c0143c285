/* nvtx.c - --nvtx-include RANGE inside the process.  NVTX (a header-only
 * library in the application) loads NVTX_INJECTION64_PATH at its first
 * call and calls InitializeInjectionNvtx2 there (inject.c, beside the
 * library's other entry point); gemmprof trace points it at this library,
 * which sets itself up (the application may annotate before it touches
 * CUDA) and hands NVTX on to libcupti's own InitializeInjectionNvtx2, so
 * that CUPTI reports every push and pop to our subscriber as
 * CUPTI_CB_DOMAIN_NVTX callbacks, which land here.  Each thread keeps its
 * own range stack (nvtx_range.c). */
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

int gp_inject_nvtx_subscribe(CUpti_SubscriberHandle sub, char *err, size_t errlen)
{
    for (size_t i = 0; i < sizeof nvtx_cbids / sizeof *nvtx_cbids; i++) {
        CUptiResult r = gp_inj.api->cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_NVTX,
                                                        nvtx_cbids[i]);
        if (r != CUPTI_SUCCESS) {
            gp_cupti_error(gp_inj.api, "cuptiEnableCallback(NVTX)", r, err, errlen);
            return -1;
        }
    }
    return 0;
}
