// One dense wgmma.mma_async (sm_90a) with both operands in shared memory: the descriptors, the
// bytes of shared memory they point into, and what D must be (PTX 9.1 §9.7.15.5). The same
// tile with tcgen05 descriptors (arch sm_100a, M from A's rows, an optional zero-column mask)
// is a tcgen05.mma / .ws tile (§9.7.16.10.9), read through the sm_100 numerics. The oracle's
// address maps (oracle/smem) are the only source of placement: element (row, k) of A or B is
// read from the byte the map names, so a wrong map and a wrong device disagree at once.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "oracle/core/result.h"
#include "oracle/core/spec_choices.h"
#include "oracle/numerics/dot_product.h"
#include "oracle/smem/smem_case.h"
#include "oracle/sparse/sparse_metadata.h"

namespace tcfuzz::oracle::tile {

// The accumulator fragment of m64nNk*: thread 0..127 of the warpgroup, accumulator index
// 0..N/2-1 (PTX 9.1 §9.7.15.5.1.1, "Matrix fragments for wgmma D"): warp w holds rows
// 16w..16w+15; within it, lane l holds row l/4 (+8 for indices 2, 3 of each group of four) and
// columns 2(l%4) + (i%2) + 8(i/4). f16 accumulators pack indices 2j, 2j+1 into register j.
struct Coord {
  int row;
  int col;
};
constexpr Coord MapD(int thread, int index) {  // constexpr: device code judges by it
  const int warp = thread / 32, lane = thread % 32;
  return {16 * warp + lane / 4 + 8 * ((index / 2) % 2),
          8 * (index / 4) + 2 * (lane % 4) + index % 2};
}

// wgmma.mma_async.sp (PTX 9.1 §9.7.15.6.1): A in shared memory holds only the kept elements
// (M x K/2, each row compressed like mma.sp's A); one metadata nibble per (row, chunk). Each
// warp supplies the metadata of its 16 rows; tcfuzz's hypothesis (docs/doc-vs-hardware.md SP6)
// is that a warp lays them out in its lanes exactly as mma.sp's form of the same K and type
// (`form`) does, selector included.
struct TileSparse {
  const sparse::SparseForm* form = nullptr;  // m16n8k32.f16, m16n8k16.tf32, m16n8k64.e4m3, ...
  int selector = 0;
  std::vector<uint8_t> nibbles;  // M x form->chunks_per_row(), row-major
  // Defaulted in the .cc: a C++17 includer cannot default it (issue 35).
  friend bool operator==(const TileSparse&, const TileSparse&);
};

// The metadata register of each of the 128 threads for these nibbles (M = 64).
std::vector<uint32_t> SparseMetadataRegisters(const TileSparse& s);

// tcgen05.mma.sp (M = 128): each row's two tensor-memory metadata words (row-major, 128 x 2), as
// spec choice TM1 places them. Where a row takes 32 bits, the column the selector does not name
// holds other legal metadata (each nibble the next legal one), so reading the wrong column
// gives a wrong D rather than an undefined one.
std::vector<uint32_t> Tcgen05MetadataColumns(const TileSparse& s);

struct DescriptorTile {
  num::Format ab = num::Format::kF16;  // A and B element type (s8/u8 and e4m3/e5m2 may mix)
  num::Format b_type = num::Format::kF16;
  num::Format d = num::Format::kF32;
  int n = 64;           // N; M is A's rows (64 for wgmma), K is 32 bytes of A/B
  smem::SmemCase a, b;  // a.view.rows = M, b.view.rows = n
  std::optional<uint64_t>
      zero_column_mask;              // tcgen05.mma.ws only (oracle/tcgen05/zero_column_mask.h)
  std::optional<TileSparse> sparse;  // wgmma.mma_async.sp: a.view.kbytes 32 (compressed), b 64
  std::vector<uint8_t> image;        // shared memory from address 0, as the kernel loads it
  // C [M][n] row-major in d's format: the accumulators the instruction starts from (scale-d
  // true, D = A·B + C); empty: scale-d false, D = A·B.
  std::vector<uint32_t> c;
};

// K of the tile: 32 bytes of the element type (16 f16, 8 tf32, 32 fp8/s8), twice that when
// sparse (B's K; A holds half of it).
int TileK(const DescriptorTile& t);

// The value bits of element (row, k) of A or B as the descriptor's map reads them from the
// image; nullopt when the map reaches past the image (or the descriptor does not decode).
std::optional<std::vector<uint64_t>> ReadOperand(
    const DescriptorTile& t, smem::Operand which,
    spec_choice::Base32BAtomKRows base32b = spec_choice::kBase32BAtomKRows);

// The tile a device following another reading of S7 (spec_choices.h) sees, as tcfuzz's reading
// would see it: each element moved to where tcfuzz's map reads it from where the other reading
// does. TileReference of the result is D under that reading, so a hardware run can say which
// reading the device follows.
DescriptorTile AsReadUnder(const DescriptorTile& t, spec_choice::Base32BAtomKRows base32b);

// Writes `values` (rows x K, row-major bit patterns) into the image at the bytes the operand's
// descriptor maps each element to (little-endian). False when the map does not decode or an
// element falls outside the image (those are skipped); later elements overwrite earlier ones
// where a layout aliases them.
bool PlaceOperand(DescriptorTile& t, smem::Operand which, const std::vector<uint64_t>& values);

// D [M][n] row-major: A·B (+ C when the tile has one: scale-d true), each element one dot product
// in ascending K through the sm_90 wgmma (or sm_100 tcgen05) parameters; a masked column reads
// zeros, a shifted one its B column. An error when an operand does not map. `general_only`:
// through the general model alone (num::TileMmaSpec::general_only).
// `params`: another numerics row than TileParams(t)'s (a candidate a discovery run tests).
Result<std::vector<uint32_t>> TileReference(const DescriptorTile& t, bool general_only = false,
                                            const num::DotParams* params = nullptr);

// The numerics row TileReference computes with (sm_90 wgmma, or sm_100 tcgen05 with sm_100a
// descriptors); nullopt for integer types.
std::optional<num::DotParams> TileParams(const DescriptorTile& t);

// The readings of oracle/core/backing.h the tile's D rests on besides the arithmetic: both
// descriptors' maps, wgmma's accumulator fragments (W1), sparse metadata (SP6 and the mma.sp
// layout it reuses, or tcgen05's TM1) and the zero-column mask (Z1-Z6).
std::vector<std::string_view> ReadingsOf(const DescriptorTile& t);

}  // namespace tcfuzz::oracle::tile
