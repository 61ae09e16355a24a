// `tcfuzz discover --emit-cu DIR`: standalone CUDA programs (nvcc and a driver, nothing of
// tcfuzz) that, run on any GPU, print what it computes for the cases that decide tcfuzz's open
// readings and numerics parameters, as self-contained case files with the device's D
// (`observed.*`) and the device, CC and driver. DIR/run.sh builds and runs every program the
// device can run and writes one result file; `tcfuzz oracle readings --ingest FILE` reads it
// (suites/discover/ingest.h, docs/discover.md).
#pragma once

#include <string>
#include <vector>

#include "oracle/core/result.h"
#include "suites/emit/launch_cu.h"

namespace tcfuzz::suites::discover {

struct KitProgram {
  std::string id;        // the file stem: "numerics_mma_e4m3_f32", "s7_a_mn_tf32_sbo_768"
  std::string arch;      // what nvcc builds it for: sm_80, sm_89, sm_90a, sm_100a
  std::string question;  // what it decides, one line
  LaunchCu cu;           // its cases, each with its case text
};

// The folders of deciding tiles (wgmma_tile case files) the kit carries.
inline constexpr const char* kDecidingFolders[] = {"smem_hw/deciding/", "tcgen05_hw/deciding/"};

// Every program: one per numerics question (its deciding probes, eight to a tile on D's
// diagonal) and one per deciding tile in `tile_folders` (kDecidingFolders as found).
oracle::Result<std::vector<KitProgram>> KitPrograms(const std::vector<std::string>& tile_folders);

// Writes DIR/<id>.cu for each program, DIR/run.sh and DIR/README.txt; the number of programs.
// Error: one line.
oracle::Result<int> EmitKit(const std::string& dir, const std::vector<std::string>& tile_folders);

}  // namespace tcfuzz::suites::discover
