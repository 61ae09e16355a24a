// report/index.html in a real browser: Debian's chromium, headless, loads the page written by a
// campaign with host failures and a GPU mismatch (the fake device), shows summary.json's counts,
// and draws the D tile with the wrong element marked.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "suites/engine/atomic_file.h"
#include "suites/engine/campaign.h"
#include "suites/engine/device_campaign.h"
#include "suites/engine/subprocess.h"
#include "suites/tests/support/fake_device.h"
#include "suites/tests/support/temp_dir.h"

namespace tcfuzz::suites {
namespace {

using test::FirstProbeCase;

std::string Chromium() {
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser"}) {
    if (std::filesystem::exists(p)) return p;
  }
  return "";
}

TEST(ReportHtml, RendersInHeadlessChromiumWithTheCountsAndTheTile) {
  constexpr uint64_t kSeed = 77;
  const uint64_t planted = FirstProbeCase(kSeed);
  const std::string dir = test::TempDir("report_html");
  CampaignOptions o = test::PlantedSparseMma(kSeed, planted, 2000, 1000);
  o.suites.insert(o.suites.begin(), "zero-column-mask");
  o.report_dir = dir + "/report";
  std::ostringstream log;
  ASSERT_EQ(RunCampaign(o, log), 1) << log.str();
  const std::string html = ReadFile(o.report_dir + "/index.html").value();
  // The page stands alone: no script, nothing fetched.
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"));
  const std::string browser = Chromium();
  if (browser.empty()) GTEST_SKIP() << "chromium is not installed (scripts/setup.sh installs it)";
  CommandOptions co;
  co.timeout = std::chrono::seconds(120);
  co.max_output = std::size_t{64} << 20;
  const std::string url = "file://" + o.report_dir + "/index.html";
  const CommandResult dom = RunArgv({browser, "--headless", "--no-sandbox", "--disable-gpu",
                                     "--user-data-dir=" + dir + "/profile", "--dump-dom", url},
                                    "", co);
  ASSERT_EQ(dom.exit_code, 0) << dom.err.substr(0, 2000);
  const auto j = nlohmann::json::parse(ReadFile(o.report_dir + "/summary.json").value());
  // The browser's DOM, not our text: the counts of summary.json are what it shows.
  EXPECT_NE(
      dom.out.find("<span id=\"cases\">" + std::to_string(j["cases"].get<uint64_t>()) + "</span>"),
      std::string::npos)
      << dom.out.substr(0, 3000);
  EXPECT_NE(dom.out.find("<span id=\"failed\">1</span>"), std::string::npos);
  EXPECT_EQ(j["failed"], 1u);
  // The tile: 128 cells, one of them marked, with both values in its title.
  std::size_t cells = 0, bad = 0;
  for (std::size_t at = 0; (at = dom.out.find("<rect ", at)) != std::string::npos; ++at) {
    ++cells;
    bad += dom.out.compare(dom.out.find("class=", at), 11, "class=\"bad\"") == 0 ? 1 : 0;
  }
  EXPECT_EQ(cells, 128u);
  EXPECT_EQ(bad, 1u);
  EXPECT_NE(dom.out.find(": expected 0x"), std::string::npos);
  EXPECT_NE(dom.out.find("reproducers/sparse-mma-" + std::to_string(planted) + ".txt"),
            std::string::npos);
  // And it paints: a screenshot of the page.
  const CommandResult shot =
      RunArgv({browser, "--headless", "--no-sandbox", "--disable-gpu",
               "--user-data-dir=" + dir + "/profile", "--window-size=1200,2000",
               "--screenshot=" + dir + "/page.png", url},
              "", co);
  EXPECT_EQ(shot.exit_code, 0) << shot.err.substr(0, 2000);
  ASSERT_TRUE(std::filesystem::exists(dir + "/page.png"));
  EXPECT_GT(std::filesystem::file_size(dir + "/page.png"), 10000u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tcfuzz::suites
