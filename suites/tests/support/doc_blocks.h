// A Markdown page's fenced code blocks, each with the heading above it and its language: the
// tests that run what docs/ci.md shows.
#pragma once

#include <fstream>
#include <string>
#include <vector>

namespace tcfuzz::test {

struct DocBlock {
  std::string heading, language, text;
};

inline std::vector<DocBlock> DocBlocks(const std::string& path) {
  std::ifstream in(path);
  std::vector<DocBlock> out;
  std::string line, heading;
  DocBlock* open = nullptr;
  while (std::getline(in, line)) {
    if (open == nullptr && line.starts_with("#")) heading = line;
    if (line.starts_with("```")) {
      if (open == nullptr) {
        out.push_back({heading, line.substr(3), ""});
        open = &out.back();
      } else {
        open = nullptr;
      }
      continue;
    }
    if (open != nullptr) open->text += line + "\n";
  }
  return out;
}

}  // namespace tcfuzz::test
