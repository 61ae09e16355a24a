// The worker side of the smem-hw (wgmma, sm_90a) and tcgen05 (sm_100a) GPU suites: tiles drawn
// per index (suites/kinds/descriptor_tile_cases.h), grouped by instruction, one CTA per tile,
// D compared bit for bit with the oracle. A tile that breaks a descriptor rule is reported as
// undefined_by_spec with what the device returned, never as a mismatch.
#pragma once

#include <ostream>
#include <string>

#include "oracle/tile/descriptor_tile.h"
#include "suites/engine/device_workers.h"

namespace tcfuzz::suites {

int RunDescriptorTileWorker(const WorkerArgs& a, bool tcgen05, std::ostream& out);

// One tile (from a wgmma_tile file, either arch) on the device, reported as case 0.
int RunDescriptorTileCaseWorker(const oracle::tile::DescriptorTile& t, std::ostream& out);

}  // namespace tcfuzz::suites
