// Warp-level sparse MMA operands: mma.sp / mma.sp::ordered_metadata, PTX ISA 9.1 §9.7.14.6.
//
// For every shape and type: the per-lane fragment maps of compressed A, dense B, C and D, and
// the metadata map (which lanes hold the nibble of each (row, chunk) of A, at which bits).
// What the spec gives only as a figure was a hypothesis; how each map is backed (SP0-SP6) is in
// the one table of readings, oracle/core/backing.h. The GPU suites (suites/tests/gpu/sparse_mma_*)
// confirmed or corrected each on an H100.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "oracle/core/span.h"
#include "oracle/numerics/formats.h"

namespace tcfuzz::oracle::sparse {

using num::Format;

// One sparse form: a shape and an A/B element type.
struct SparseForm {
  std::string_view shape;  // "m16n8k32"
  int k;                   // dense K
  Format type;             // A and B element type (A and B may mix s8/u8, e4m3/e5m2: same maps)
  int chunk;          // dense elements per metadata chunk: 4 (2:4), 2 (tf32 1:2), 8 (4:8 pairs)
  int kept;           // kept elements per chunk: 2, 1, 4
  int a_regs;         // .b32 registers of compressed A
  int b_regs;         // .b32 registers of B
  bool ordered_only;  // kind::f8f6f4 forms: only .sp::ordered_metadata exists
  std::string_view target;  // lowest target ("sm_80", "sm_89", "sm_120a")

  // Register bits per element: the f8f6f4 types sit one per byte (e2m1 in bits 5:2), s4/u4 pack
  // two.
  int elem_bits() const {
    return num::IsFloat(type) && num::StorageBits(type) < 8 ? 8 : num::StorageBits(type);
  }
  int per_reg() const { return 32 / elem_bits(); }      // elements in one register
  int meta_threads() const { return k / (4 * chunk); }  // lanes of a quad holding metadata
  int max_selector() const { return 4 / meta_threads() - 1; }
  int chunks_per_row() const { return k / chunk; }
  std::string Name() const;  // "m16n8k32.f16"
};

// Every form of the seed (§9.7.14.6.2): f16/bf16 k16, k32; tf32 k8, k16; s8/u8 k32, k64;
// e4m3/e5m2 k64 (and the kind::f8f6f4 types); s4/u4 k64, k128.
Span<const SparseForm> AllForms();
const SparseForm* FindForm(std::string_view shape, Format type);

// Where an element lives in the tile. Columns of A are dense K columns.
struct AElement {
  int row;
  int chunk;  // chunk index along K (its dense columns: chunk*chunk_size .. +chunk_size-1)
  int slot;   // which kept element of the chunk (0 = lowest index)
};
AElement MapA(const SparseForm& f, int lane, int reg, int pos);
struct Coord {
  int row;
  int col;
};
Coord MapB(const SparseForm& f, int lane, int reg, int pos);  // (k row, n col)
Coord MapCD(int lane, int index);                             // index 0..3: c0..c3 / d0..d3

// The metadata nibble of (row, chunk) for `selector`: the lane holding it and its lowest bit.
struct MetaLocation {
  int lane;
  int bit;
};
MetaLocation MapMeta(const SparseForm& f, int selector, int row, int chunk);
// The (row, chunk) a lane's metadata bit belongs to, or nullopt when the lane is not selected.
struct MetaSlot {
  int row;
  int chunk;
};
std::optional<MetaSlot> MetaAt(const SparseForm& f, int selector, int lane, int bit);

}  // namespace tcfuzz::oracle::sparse
