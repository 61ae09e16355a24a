// The cases of the two descriptor GPU suites, as both halves draw them: `smem-hw` (wgmma on
// sm_90a) and `tcgen05` (tcgen05.mma / .ws on sm_100a). Case i comes from
// CaseSeed(seed, suite, i) alone; one case in eight breaks one descriptor rule and runs as
// "undefined by spec". Also what the parent says about a failing tile: its family and, for a
// probe tile, which A element the device read and where the oracle's map puts it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "generators/smem/descriptor_tile_gen.h"
#include "oracle/core/result.h"
#include "oracle/core/text_format.h"
#include "oracle/tile/descriptor_tile_text.h"
#include "suites/checks/check_failure.h"

namespace tcfuzz::suites {

inline constexpr const char* kSmemHwSuite = "smem-hw";
inline constexpr const char* kTcgen05Suite = "tcgen05";

gen::GeneratedTile DrawSmemHwCase(uint64_t seed, uint64_t index);
gen::GeneratedTile DrawTcgen05Case(uint64_t seed, uint64_t index);

// "f16.f32 a:k.128b b:mn.none" (+ ".ws" for a masked tcgen05 tile): the JUnit family.
std::string TileFamily(const oracle::tile::DescriptorTile& t);

// For a probe tile and the device's D: the first differing element, B's one hot K there, the
// A element and byte the oracle reads, and the A element(s) whose value the device returned.
// Empty when the tile is not a probe or D agrees.
std::string TileProbeExplanation(const gen::GeneratedTile& g,
                                 const std::vector<uint32_t>& observed);

// The rules the tile's descriptors break ("a,b"), empty when both are legal.
std::string BrokenRules(const oracle::tile::DescriptorTile& t);

// What a broken-descriptor tile did: "<rules>: as-if" when D equals the oracle's reading of the
// broken descriptors as decoded, else "<rules>: differs ..." with the first difference (or why
// there is no such reading).
std::string UndefinedDetail(const oracle::tile::DescriptorTile& t,
                            const std::vector<uint32_t>& observed);

// A wgmma_tile file read for replay or the worker: errors name the file.
oracle::Result<oracle::tile::DescriptorTileFile> ReadDescriptorTileCase(const std::string& path);

// Replays a wgmma_tile file without a GPU: the oracle against the D recorded in it. A tile that
// breaks a rule is undefined by spec, never a failure; its note says what UndefinedDetail would.
oracle::Result<Replayed> ReplayDescriptorTile(const oracle::TextDoc& doc);

}  // namespace tcfuzz::suites
