#include "oracle/smem/address_map.h"

#include <string>

#include "oracle/smem/swizzle.h"

namespace tcfuzz::oracle::smem {

Result<bool> CheckView(const OperandView& v) {
  if (v.rows < 1 || v.rows > 256) {
    return Result<bool>::Fail("rows must be 1..256, got " + std::to_string(v.rows));
  }
  if (v.kbytes < 16 || v.kbytes > 256 || v.kbytes % 16 != 0) {
    return Result<bool>::Fail("K extent must be a multiple of 16 bytes in 16..256, got " +
                              std::to_string(v.kbytes));
  }
  return Result<bool>::Ok(true);
}

Result<AddressMap> MapAddresses(const SmemMatrix& m, const OperandView& v,
                                spec_choice::Base32BAtomKRows base32b) {
  Result<bool> ok = CheckView(v);
  if (!ok.ok()) return Result<AddressMap>::Fail(ok.error());
  AddressMap map;
  map.element_bits = StorageBits(v.dtype);
  map.rows = v.rows;
  map.cols = v.kbytes * 8 / map.element_bits;
  map.bits.resize(static_cast<std::size_t>(map.rows) * map.cols);
  // A canonical offset is a row part plus a K part: compute each once.
  std::vector<uint64_t> row_part(static_cast<std::size_t>(map.rows));
  std::vector<uint64_t> k_part(static_cast<std::size_t>(map.cols));
  SmemMatrix relative = m;
  if (m.lbo_absolute) relative.lbo = 0;  // the LBO field is an address, not a stride
  for (int r = 0; r < map.rows; ++r) row_part[r] = CanonicalOffsetBits(relative, v, r, 0, base32b);
  for (int k = 0; k < map.cols; ++k) k_part[k] = CanonicalOffsetBits(relative, v, 0, k, base32b);
  // Spec choice S4: absolute LBO mode splits each row's K bytes at the 128-byte boundary the
  // start address sits in; the rest is read from the LBO address, at the same row offset.
  const uint64_t first_part_bits = m.lbo_absolute ? (128 - m.start % 128) * 8 : ~uint64_t{0};
  for (int r = 0; r < map.rows; ++r) {
    for (int k = 0; k < map.cols; ++k) {
      uint64_t base = m.start;
      uint64_t off = row_part[r] + k_part[k];
      if (k_part[k] >= first_part_bits) {
        base = m.lbo;
        off -= first_part_bits;
      }
      const uint64_t swizzled = SwizzleAddress(base + off / 8, m.swizzle, m.base_offset);
      map.bits[static_cast<std::size_t>(r) * map.cols + k] = swizzled * 8 + off % 8;
    }
  }
  return Result<AddressMap>::Ok(std::move(map));
}

bool operator==(const SmemMatrix&, const SmemMatrix&) = default;
bool operator==(const OperandView&, const OperandView&) = default;

}  // namespace tcfuzz::oracle::smem
