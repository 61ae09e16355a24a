/* The device-backend ABI: how tcfuzz hands one batch of tensor-core instructions, as raw operand
 * registers, to something that executes them (the built-in emulator, a pre-silicon C model, an
 * RTL or architectural simulator, a client of a remote device) and gets D back. Plain C, so a
 * plug-in can be written in any language with a C ABI. docs/backends.md says how to write one.
 *
 * A plug-in is a shared library exporting TCFUZZ_BACKEND_ENTRY, a function returning its table.
 * tcfuzz refuses a table whose abi_version differs from the one it was built with, or whose
 * struct_size is smaller than the table it reads; later versions only append members. */
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

typedef struct tcfuzz_backend {
  uint32_t abi_version; /* TCFUZZ_BACKEND_ABI_VERSION as the plug-in was built */
  uint32_t struct_size; /* sizeof(tcfuzz_backend) as the plug-in was built */
  const char* name;     /* shown in reports: "tcfuzz emulator", "acme-csim 2.1" */
  /* Executes the batch as `target` ("sm_90a") would. On anything but TCFUZZ_OK, writes one line
   * of at most err_size bytes (NUL included) saying why into err. */
  int (*warp_mma)(const tcfuzz_warp_mma* call, const char* target, char* err, size_t err_size);
} tcfuzz_backend;

typedef const tcfuzz_backend* (*tcfuzz_backend_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* TCFUZZ_BACKEND_H_ */
