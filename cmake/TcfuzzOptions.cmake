# Every build switch of the project, in one place.
option(TCFUZZ_WITH_CUDA "Build the GPU harness when a CUDA toolkit is found" ON)
option(TCFUZZ_FUZZ "Build libFuzzer targets (needs clang) with ASan+UBSan" OFF)
option(TCFUZZ_WERROR "Treat warnings in tcfuzz's own code as errors (the presets, so CI, turn it on)" OFF)
set(TCFUZZ_CUDA_ARCHS "80-real;89-real;90a-real;100a-real" CACHE STRING
    "CUDA architectures the harness is compiled for (sm_90a is the lent H100)")

set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)
if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE RelWithDebInfo CACHE STRING "" FORCE)
endif()

# Warnings for our own code only (third-party headers come in as SYSTEM).
set(TCFUZZ_WARNINGS -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion)
if(TCFUZZ_WERROR)
  list(APPEND TCFUZZ_WARNINGS -Werror)
endif()

if(TCFUZZ_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "TCFUZZ_FUZZ needs clang (use the 'fuzz' preset)")
  endif()
  # Everything is instrumented (the arithmetic without trace-cmp: oracle/CMakeLists.txt); only
  # fuzz targets link the libFuzzer driver.
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
                      -fno-omit-frame-pointer -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION)
  add_link_options(-fsanitize=address,undefined)
  set(TCFUZZ_WITH_CUDA OFF)
endif()

# CUDA: on when nvcc is found under /usr/local/cuda or on PATH; otherwise said once.
set(TCFUZZ_HAVE_CUDA OFF)
if(TCFUZZ_WITH_CUDA AND NOT TCFUZZ_LIBRARIES_ONLY)
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    # CMake 3.25 does not know that nvcc 13 speaks C++20: teach it the flag.
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA_STANDARD 20)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    set(CMAKE_CUDA_ARCHITECTURES ${TCFUZZ_CUDA_ARCHS})
    set(TCFUZZ_HAVE_CUDA ON)
    message(STATUS "tcfuzz: CUDA ${CMAKE_CUDA_COMPILER_VERSION} found, GPU harness on (${TCFUZZ_CUDA_ARCHS})")
  endif()
endif()
if(NOT TCFUZZ_HAVE_CUDA AND NOT TCFUZZ_LIBRARIES_ONLY)
  message(STATUS "tcfuzz: no CUDA toolkit, GPU parts are off (GPU tests will skip)")
endif()
