#include "harness/smem_tile_kernel.h"

#include <span>

#include "harness/ptx_kernel.h"

namespace tcfuzz::harness {

std::string SmemTileKernelHead(const std::string& name, int image_bytes, int desc_bytes) {
  const std::string bytes = std::to_string(image_bytes);
  return ".extern .shared .align 1024 .b8 tcfuzz_smem[];\n\n.visible .entry " + name +
         "(.param .u64 p_img, .param .u64 p_desc, .param .u64 p_d, .param .u32 p_n)\n{\n"
         "  .reg .b32 %t<24>;\n  .reg .b64 %q<16>;\n  .reg .pred %p<8>;\n  .reg .b64 %da, %db;\n  "
         ".reg .pred %sd;\n" +
         R"(  ld.param.u64 %q1, [p_img];
  ld.param.u64 %q2, [p_desc];
  ld.param.u64 %q3, [p_d];
  ld.param.u32 %t1, [p_n];
  cvta.to.global.u64 %q1, %q1;
  cvta.to.global.u64 %q2, %q2;
  cvta.to.global.u64 %q3, %q3;
  mov.u32 %t2, %ctaid.x;
  setp.ge.u32 %p1, %t2, %t1;
  @%p1 bra DONE;
  mov.u32 %t3, %tid.x;
  mul.wide.u32 %q4, %t2, )" +
         bytes + R"(;
  add.s64 %q4, %q1, %q4;
  mov.u32 %t4, tcfuzz_smem;
  shl.b32 %t5, %t3, 4;
COPY:
  setp.ge.u32 %p2, %t5, )" +
         bytes + R"(;
  @%p2 bra COPIED;
  cvt.u64.u32 %q5, %t5;
  add.s64 %q6, %q4, %q5;
  ld.global.v4.u32 {%t8, %t9, %t10, %t11}, [%q6];
  add.u32 %t6, %t4, %t5;
  st.shared.v4.u32 [%t6], {%t8, %t9, %t10, %t11};
  add.u32 %t5, %t5, 2048;
  bra COPY;
COPIED:
  mul.wide.u32 %q7, %t2, )" +
         std::to_string(desc_bytes) + R"(;
  add.s64 %q7, %q2, %q7;
  ld.global.u64 %da, [%q7];
  ld.global.u64 %db, [%q7+8];
  shr.u32 %t7, %t4, 4;
  cvt.u64.u32 %q8, %t7;
  add.s64 %da, %da, %q8;
  add.s64 %db, %db, %q8;
  setp.ne.b32 %sd, 0, 0;
)";
}

std::vector<const oracle::tile::DescriptorTile*> PointersTo(
    std::span<const oracle::tile::DescriptorTile> tiles) {
  std::vector<const oracle::tile::DescriptorTile*> p;
  for (const auto& t : tiles) p.push_back(&t);
  return p;
}

oracle::Result<PreparedLaunch> PrepareSmemTileKernel(
    const std::string& ptx, const std::string& entry,
    std::span<const oracle::tile::DescriptorTile* const> tiles, std::vector<uint32_t> desc,
    int image_bytes, size_t per_tile_words,
    std::function<std::vector<uint32_t>(std::span<const uint32_t>)> unpack_d) {
  std::vector<uint32_t> images;  // little-endian words, one image after the other
  for (const oracle::tile::DescriptorTile* tile : tiles) {
    const oracle::tile::DescriptorTile& t = *tile;
    if (t.image.size() != static_cast<size_t>(image_bytes)) {
      return oracle::Result<PreparedLaunch>::Fail(std::string(kHostError) +
                                                  "a tile's image is not the spec's size");
    }
    for (size_t i = 0; i + 3 < t.image.size(); i += 4) {
      images.push_back(uint32_t{t.image[i]} | uint32_t{t.image[i + 1]} << 8 |
                       uint32_t{t.image[i + 2]} << 16 | uint32_t{t.image[i + 3]} << 24);
    }
  }
  PreparedLaunch l;
  l.launch.ptx = ptx;
  l.launch.entry = entry;
  l.launch.inputs = {std::move(images), std::move(desc)};
  l.launch.output_words = per_tile_words * tiles.size();
  l.launch.n = static_cast<uint32_t>(tiles.size());
  l.launch.grid = static_cast<unsigned>(tiles.size());
  l.launch.block = 128;
  l.launch.shared_bytes = static_cast<unsigned>(image_bytes);
  l.cases = tiles.size();
  l.unpack = [per_tile_words, unpack_d = std::move(unpack_d)](std::span<const uint32_t> out,
                                                              size_t c) {
    using R = oracle::Result<std::vector<uint32_t>>;
    const std::span<const uint32_t> w = out.subspan(c * per_tile_words, per_tile_words);
    if (w[0] % 1024 != 0)
      return R::Fail(std::string(kHostError) + "dynamic shared memory at " + std::to_string(w[0]) +
                     ", not 1024-aligned");
    return R::Ok(unpack_d(w.subspan(1)));
  };
  return oracle::Result<PreparedLaunch>::Ok(std::move(l));
}

}  // namespace tcfuzz::harness
