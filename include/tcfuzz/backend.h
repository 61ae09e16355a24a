/* The device-backend ABI: how tcfuzz hands one batch of tensor-core instructions, as raw operand
 * registers, to something that executes them (the built-in emulator, a pre-silicon C model, an
 * RTL or architectural simulator, a client of a remote device) and gets D back. Plain C, so a
 * plug-in can be written in any language with a C ABI. docs/backends.md says how to write one.
 *
 * A plug-in is a shared library exporting TCFUZZ_BACKEND_ENTRY, a function returning its table.
 * tcfuzz refuses a table whose abi_version differs from the one it was built with, or whose
 * struct_size is below TCFUZZ_BACKEND_MIN_SIZE; members are only ever appended, and one past a
 * table's struct_size is read as NULL (the backend does not execute that family). */
#ifndef TCFUZZ_BACKEND_H_
#define TCFUZZ_BACKEND_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TCFUZZ_BACKEND_ABI_VERSION 1u
#define TCFUZZ_BACKEND_ENTRY "tcfuzz_backend_entry"

/* What an instruction call returns. */
enum {
  TCFUZZ_OK = 0,          /* every warp's D written */
  TCFUZZ_UNSUPPORTED = 1, /* the backend does not execute this instruction: nothing ran */
  TCFUZZ_FAULT = 2        /* the execution faulted (an illegal instruction, a trap): as a device
                             fault, the rest of the worker's batch is not trusted */
};

/* A batch of one warp-level instruction, `mma.sync.aligned.m16n8kK.row.col` or
 * `mma.sp{::ordered_metadata}.sync.aligned.m16n8kK.row.col`, one instruction per warp. Registers
 * are laid out warp-major, then lane, then register: a[(warp * 32 + lane) * a_regs + r]. Each
 * register holds the elements the PTX ISA's fragment figures give that lane (element i of the
 * register at bits i * width). */
typedef struct tcfuzz_warp_mma {
  /* the instruction as the CUDA backend's kernel writes it, e.g. "mma.sp::ordered_metadata.sync
   * .aligned.m16n8k32.row.col.f32.f16.f16.f32 {%d0, ...}, ..., %e, 0x0;" (the fields below say
   * the same, parsed) */
  const char* instruction;
  const char* shape;  /* "m16n8k32" */
  const char* a_type; /* "f16", "bf16", "tf32", "e4m3", "e5m2", "e3m2", "e2m3", "e2m1",
                         "s8", "u8", "s4", "u4" */
  const char* b_type;
  const char* cd_type; /* "f32", "f16" or "s32" */
  int sparse;          /* 1: mma.sp (metadata register and selector) */
  int ordered_metadata;
  int selector; /* the sparsity selector immediate */
  int satfinite;
  uint32_t warps;
  const uint32_t* a;
  uint32_t a_regs;
  const uint32_t* b;
  uint32_t b_regs;
  const uint32_t* c;
  uint32_t cd_regs;  /* C and D registers per lane: 4, or 2 for f16 */
  const uint32_t* e; /* sparse: each lane's metadata register, e[warp * 32 + lane] */
  uint32_t* d;       /* written: d[(warp * 32 + lane) * cd_regs + r] */
} tcfuzz_warp_mma;

/* A batch of one instruction with both operands in shared memory, one tile per CTA:
 * `wgmma.mma_async{.sp}` (family "wgmma": one warpgroup, M = 64, D in the 128 threads'
 * accumulator registers) or `tcgen05.mma{.sp,.ws}` (family "tcgen05": M = 128, D in tensor
 * memory, read back one lane per row). The backend decodes the descriptors itself and reads the
 * image through them. */
typedef struct tcfuzz_smem_mma {
  const char* instruction; /* as the CUDA backend's kernel writes it */
  const char* family;      /* "wgmma" or "tcgen05" */
  /* wgmma: the shape and types the opcode names ("m64n64k16", "f16", "f16", "f32"). tcgen05:
   * the instruction descriptor says them; these repeat them for a reader's convenience. */
  const char* shape;
  const char* a_type;
  const char* b_type;
  const char* d_type;
  int trans_a, trans_b; /* wgmma: the imm-trans-a and imm-trans-b immediates (1: MN-major) */
  int sparse;           /* wgmma.mma_async.sp or tcgen05.mma.sp */
  int selector;         /* wgmma.sp: the sp-sel immediate (tcgen05: in the descriptor) */
  int scale_d;          /* 1: D = A*B + C, C given; 0: D = A*B */
  uint32_t tiles;
  uint32_t image_bytes;   /* shared memory per tile, from address 0; the device places it on a
                             1024-byte boundary and adds that address to each start address */
  const uint8_t* image;   /* image[tile * image_bytes + byte] */
  const uint64_t* a_desc; /* per tile, the matrix descriptors as the instruction takes them */
  const uint64_t* b_desc;
  const uint32_t* idesc;            /* tcgen05: per tile, the instruction descriptor */
  const uint64_t* zero_column_mask; /* tcgen05.mma.ws: per tile; NULL otherwise */
  /* sparse: wgmma: e[tile * 128 + thread], each thread's metadata register; tcgen05: the
   * metadata's two tensor-memory words of each lane, e[(tile * 128 + lane) * 2 + word] */
  const uint32_t* e;
  uint32_t d_words;  /* wgmma: accumulator registers per thread; tcgen05: D columns (N) */
  const uint32_t* c; /* scale_d: C laid out as d */
  uint32_t* d;       /* written: d[(tile * 128 + thread or lane) * d_words + word] */
} tcfuzz_smem_mma;

typedef struct tcfuzz_backend {
  uint32_t abi_version; /* TCFUZZ_BACKEND_ABI_VERSION as the plug-in was built */
  uint32_t struct_size; /* sizeof(tcfuzz_backend) as the plug-in was built */
  const char* name;     /* shown in reports: "tcfuzz emulator", "acme-csim 2.1" */
  /* Executes the batch as `target` ("sm_90a") would. On anything but TCFUZZ_OK, writes one line
   * of at most err_size bytes (NUL included) saying why into err. */
  int (*warp_mma)(const tcfuzz_warp_mma* call, const char* target, char* err, size_t err_size);
  /* The same for wgmma and tcgen05.mma; NULL, or a table whose struct_size ends before it: the
   * backend does not execute them (their cases are not_supported). */
  int (*smem_mma)(const tcfuzz_smem_mma* call, const char* target, char* err, size_t err_size);
} tcfuzz_backend;

/* The size of the first table of this ABI version (warp_mma only): the least tcfuzz accepts. */
#define TCFUZZ_BACKEND_MIN_SIZE offsetof(tcfuzz_backend, smem_mma)

typedef const tcfuzz_backend* (*tcfuzz_backend_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* TCFUZZ_BACKEND_H_ */
