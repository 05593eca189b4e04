// Files from the writer (through the API and through `tsread gen`) read by the independent Python
// reader (shared/tools/pyref, written from the format reference alone) give the same CSV as
// `tsread cat`. Skipped when python3, pyref or the tsread binary is missing.
#include <unistd.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "testing/csv.h"
#include "testing/fixtures.h"
#include "tsread/write/tsfile_writer.h"

namespace tsread {
namespace {

namespace fs = std::filesystem;

constexpr const char* kPython = "/usr/bin/python3";

std::string PyrefScript() {
  return (fs::path(testing::FixturesDir()).parent_path() / "tools" / "pyref" / "tsread_ref.py").string();
}

// The CLI next to the test binaries: <build>/cpp/test/write_... -> <build>/tsread.
std::string CliPath() {
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (error) return "";
  return (self.parent_path().parent_path().parent_path() / "tsread").string();
}

// Runs `command`, returns its stdout; `status` gets the exit status.
std::string RunCommand(const std::string& command, int& status) {
  std::string out;
  std::FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    status = -1;
    return out;
  }
  char buffer[65536];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0) out.append(buffer, n);
  status = pclose(pipe);
  return out;
}

bool ParseDouble(const std::string& text, double& value) {
  if (text.empty()) return false;
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return *end == '\0';
}

// Equal CSVs: the same fields, numbers compared by value (the two readers spell floats
// differently, e.g. "10.0" and "1e+01"; the contract compares parsed bits).
void ExpectSameCsv(const std::string& ours, const std::string& python) {
  const std::vector<testing::CsvRow> a = testing::ParseCsv(ours);
  const std::vector<testing::CsvRow> b = testing::ParseCsv(python);
  ASSERT_EQ(a.size(), b.size());
  ASSERT_GT(a.size(), 1u);
  for (size_t r = 0; r < a.size(); ++r) {
    ASSERT_EQ(a[r].size(), b[r].size()) << "line " << r + 1;
    for (size_t f = 0; f < a[r].size(); ++f) {
      const testing::CsvField& x = a[r][f];
      const testing::CsvField& y = b[r][f];
      if (x.text == y.text && x.quoted == y.quoted) continue;
      double dx, dy;
      ASSERT_TRUE(!x.quoted && !y.quoted && ParseDouble(x.text, dx) && ParseDouble(y.text, dy) &&
                  (std::bit_cast<uint64_t>(dx) == std::bit_cast<uint64_t>(dy) || (std::isnan(dx) && std::isnan(dy))))
          << "line " << r + 1 << " field " << f << ": tsread \"" << x.text << "\", pyref \"" << y.text << "\"";
    }
  }
}

class PyrefTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (access(kPython, X_OK) != 0) GTEST_SKIP() << "no " << kPython;
    if (!fs::exists(PyrefScript())) GTEST_SKIP() << "no " << PyrefScript();
    if (!fs::exists(CliPath())) GTEST_SKIP() << "no tsread binary at " << CliPath();
    dir_ = fs::path(::testing::TempDir()) / absl::StrCat("tsread_pyref_", getpid());
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    if (!dir_.empty()) fs::remove_all(dir_, ignored);
  }

  void ExpectPyrefAgrees(const std::string& file, const std::string& table) {
    int status = 0;
    const std::string ours = RunCommand(absl::StrCat("'", CliPath(), "' cat '", file, "' --table ", table), status);
    ASSERT_EQ(status, 0);
    RunCommand(absl::StrCat(kPython, " '", PyrefScript(), "' '", file, "' '", dir_.string(), "' 2>&1"), status);
    ASSERT_EQ(status, 0) << "pyref failed on " << file;
    const std::string csv = (dir_ / absl::StrCat(fs::path(file).stem().string(), ".", table, ".csv")).string();
    const std::string python = testing::ReadWholeFile(csv);
    ASSERT_FALSE(python.empty()) << "pyref wrote no " << csv;
    ExpectSameCsv(ours, python);
  }

  fs::path dir_;
};

TEST_F(PyrefTest, GenFileReadsTheSame) {
  const std::string file = (dir_ / "gen.tsfile").string();
  int status = 0;
  RunCommand(absl::StrCat("'", CliPath(), "' gen '", file,
                          "' --devices 3 --rows 700 --page-points 300 --fields 7 --null-ratio 0.2 --seed 9"),
             status);
  ASSERT_EQ(status, 0);
  ExpectPyrefAgrees(file, "sensors");
}

TEST_F(PyrefTest, AllTypesNullTagsAndSpecialValuesReadTheSame) {
  TableSchema schema;
  schema.name = "all";
  schema.columns.push_back(ColumnSchema{"a", DataType::kString, 0, 0, {}, ColumnCategory::kTag});
  schema.columns.push_back(ColumnSchema{"b", DataType::kString, 0, 0, {}, ColumnCategory::kTag});
  const DataType types[] = {DataType::kBoolean, DataType::kInt32, DataType::kInt64,     DataType::kFloat,
                            DataType::kDouble,  DataType::kText,  DataType::kTimestamp, DataType::kDate,
                            DataType::kBlob,    DataType::kString};
  for (DataType type : types) {
    std::string name(DataTypeName(type));
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    schema.columns.push_back(ColumnSchema{"f_" + name, type, 0, 0, {}, ColumnCategory::kField});
  }
  const std::string file = (dir_ / "all.tsfile").string();
  TableWriterOptions options;
  options.max_points_per_page = 16;
  auto writer = TsFileWriter::Create(file, schema, options);
  ASSERT_TRUE(writer.ok()) << writer.status();
  const std::vector<std::optional<std::string>> tags[] = {
      {"x", "y"}, {std::nullopt, "y"}, {"x", std::nullopt}, {"é,\"q\"", "z"}};
  // Valid UTF-8 for TEXT/STRING (pyref decodes them as UTF-8); any bytes for BLOB.
  const std::string strings[] = {"", "plain", "with,comma", "quote\"d", "ünï 模式", "line\nbreak"};
  const std::string blobs[] = {"", std::string("\0\xff", 2), "abc", "\x80\x81", "é", "z"};
  for (size_t d = 0; d < 4; ++d) {
    const size_t rows = 40 + d * 7;
    std::vector<int64_t> times(rows);
    std::vector<ColumnValues> fields(10);
    for (size_t f = 0; f < 10; ++f) {
      fields[f].type = types[f];
      fields[f].valid.resize(rows);
    }
    for (size_t r = 0; r < rows; ++r) {
      times[r] = 1000 * static_cast<int64_t>(r) - 5000;
      for (size_t f = 0; f < 10; ++f) fields[f].valid[r] = (r * 7 + f * 3 + d) % 5 != 0 && !(f == 4 && r < 20);
      const double specials[] = {std::nan(""), INFINITY, -INFINITY, -0.0, 0.1, 1e300, 5e-324};
      fields[0].bools.push_back(r % 3 == 0);
      fields[1].int32s.push_back(r % 11 == 0 ? std::numeric_limits<int32_t>::min() : static_cast<int32_t>(r * r) - 50);
      fields[2].int64s.push_back(r % 13 == 0 ? std::numeric_limits<int64_t>::max() : -static_cast<int64_t>(r) << 33);
      fields[3].floats.push_back(static_cast<float>(r % 9 == 0 ? specials[r % 7] : r * 0.25 - 3));
      fields[4].doubles.push_back(r % 5 == 0 ? specials[r % 7] : std::sin(static_cast<double>(r)));
      fields[5].binaries.push_back(strings[r % 6]);
      fields[6].int64s.push_back(1700000000000 + static_cast<int64_t>(r));
      fields[7].int32s.push_back(20240101 + static_cast<int32_t>(r % 28));
      fields[8].binaries.push_back(blobs[(r + 2) % 6]);
      fields[9].binaries.push_back(strings[(r + 4) % 6]);
    }
    ASSERT_TRUE((*writer)->WriteRows((*writer)->MakeDeviceId(tags[d]), times, fields).ok());
  }
  ASSERT_TRUE((*writer)->Close().ok());
  ExpectPyrefAgrees(file, "all");
}

}  // namespace
}  // namespace tsread
