// The built-in emulator's shared-memory MMAs: `wgmma.mma_async{.sp}` (sm_90a) and
// `tcgen05.mma{.sp,.ws}` (sm_100a family), one tile executed from the raw shared-memory image,
// the two 64-bit matrix descriptors, the instruction descriptor, the zero-column mask and the
// metadata registers or tensor-memory words, as a device would. Like the warp-level emulator
// (warp_mma_emulator.h) it goes through named steps, each a function so that a defect can be
// planted at it: decode instruction, decode descriptor, address of element, swizzle, read
// element, read metadata, select element, expand the zero-column mask, accumulate (accumulate.h)
// and pack D. It reuses the oracle's building blocks (descriptor field tables, the canonical
// offset, the swizzle functor, the sparse and mask decoders, the dot product) and never the
// suite's expected-D function (oracle/tile TileReference).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/emulator/accumulate.h"
#include "harness/emulator/mutant.h"
#include "oracle/core/result.h"
#include "oracle/smem/address_map.h"
#include "oracle/sparse/sparse_form.h"
#include "tcfuzz/backend.h"

namespace tcfuzz::harness::emulator {

// Step 1, decode instruction (and, for tcgen05, the tile's instruction descriptor, PTX 9.1
// §9.7.16.4.2 Table 42): what tile `tile` of the batch executes. An error (TCFUZZ_UNSUPPORTED)
// for an instruction the claimed target does not execute.
struct SmemMmaForm {
  bool tcgen05 = false;
  Products products;  // types, the target's numerics row (with the mutant's numerics points)
  int m = 64, n = 64, k = 16;
  oracle::smem::Arch arch = oracle::smem::Arch::kSm90a;
  oracle::smem::Major a_major = oracle::smem::Major::kK, b_major = a_major;
  const oracle::sparse::SparseForm* sparse = nullptr;  // the mma.sp form whose chunks it shares
  int selector = 0;
  bool ws = false;
  Mutant mutant;
};
oracle::Result<SmemMmaForm> DecodeSmemMma(const tcfuzz_smem_mma& call, uint32_t tile,
                                          std::string_view target, const Mutant& mutant = {});

// Step 2, decode descriptor: the matrix a 64-bit descriptor describes (PTX 9.1 §9.7.15.5.1.2.2
// wgmma, §9.7.16.4.1 tcgen05); nullopt for a swizzle code no layout has.
std::optional<oracle::smem::SmemMatrix> DecodeDescriptor(const SmemMmaForm& f, uint64_t desc);

// What the instruction reads of an operand: A is M x (K, or K/2 kept) and B is N x K, in the
// operand's type, major-ness and K bytes.
oracle::smem::OperandView ViewOf(const SmemMmaForm& f, bool b, int rows);

// Steps 3 and 4, address of element and swizzle: the bit address of element (row, k) in shared
// memory (the canonical layout's offset from the start, then the swizzle on the byte address).
uint64_t AddressOfElement(const SmemMmaForm& f, const oracle::smem::SmemMatrix& m,
                          const oracle::smem::OperandView& v, int row, int k);

// Step 5, read element: rows x K elements, row-major, read little-endian from the tile's image.
// A byte past the image reads 0 (the emulator's named choice: the device's buffer is exactly
// the image, and what lies past it is not the case's).
std::vector<uint64_t> ReadOperand(const SmemMmaForm& f, const oracle::smem::SmemMatrix& m,
                                  const oracle::smem::OperandView& v, const uint8_t* image,
                                  uint32_t image_bytes);

// Steps 6 and 7, read metadata and select element: per row of A and stored element, the K it
// meets (dense: its own). wgmma.sp: warp w's lanes hold rows 16w..16w+15 as the mma.sp form of
// the same K does (tcfuzz's reading SP6); tcgen05.sp: row r's nibbles in lane r's two words
// (TM1). nullopt: a selector past the form's range (the emulator faults, as the H100 traps it
// for mma.sp, doc-vs-hardware SP4).
std::optional<std::vector<int>> MeetsOfTile(const SmemMmaForm& f, const tcfuzz_smem_mma& call,
                                            uint32_t tile);

// Step 8, expand the zero-column mask (.ws, PTX 9.1 §9.7.16.4.3): per D column the B column it
// reads, -1 for zeros; every column its own without a mask. nullopt: the mask does not expand.
std::optional<std::vector<int>> ColumnsOfTile(const SmemMmaForm& f, const tcfuzz_smem_mma& call,
                                              uint32_t tile);
// The same for one mask of an M x N tile: what a .ws instruction's mask expands to under the
// mutant's zcm points (the zero-column-mask suite's discrimination probes use it too).
std::optional<std::vector<int>> MaskColumns(uint64_t mask, int m, int n, const Mutant& mutant);

// C [M][N] from the call's registers or tensor-memory lanes, and D packed back into them
// (wgmma: the accumulator fragment, oracle/tile MapD; tcgen05: lane = row, column = column).
std::vector<uint32_t> UnpackC(const SmemMmaForm& f, const tcfuzz_smem_mma& call, uint32_t tile);
void PackD(const SmemMmaForm& f, const std::vector<uint32_t>& d, const tcfuzz_smem_mma& call,
           uint32_t tile);

// The whole batch: TCFUZZ_OK, or a code and a message.
int ExecuteSmemMma(const tcfuzz_smem_mma& call, std::string_view target, std::string* error,
                   const Mutant& mutant = {});

}  // namespace tcfuzz::harness::emulator
