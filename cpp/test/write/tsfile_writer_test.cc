// Over 450 lines on purpose: the writer's one contract (byte identity with Java, round trips, refusals)
// as cases sharing the fixture re-writing helpers.
// TsFileWriter end to end: files re-written from Java fixtures are byte-identical to the Java
// files (data section and index area); seeded random schemas and data round-trip value by value
// through TableScanner, verify clean and every device is found; bad input is refused.
#include "tsread/write/tsfile_writer.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <ostream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/fixtures.h"
#include "testing/table_rows.h"
#include "tsread/io/random_access_file.h"
#include "tsread/io/status_macros.h"
#include "tsread/check/file_verifier.h"
#include "tsread/read/tsfile_reader.h"
#include "tsread/write/device_order.h"

namespace tsread {
namespace {

using testing::DeviceRows;
using ::testing::HasSubstr;
using testing::OwnedColumn;

// ---------------------------------------------------------------------------------------------
// Java fixtures re-written

struct Replay {
  const char* fixture;
  const char* table;
  size_t page_points;
  int degree;
};

void PrintTo(const Replay& replay, std::ostream* os) { *os << replay.fixture; }

// Offset of the first differing byte, or -1.
int64_t FirstDifference(std::string_view a, std::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) return static_cast<int64_t>(i);
  }
  return a.size() == b.size() ? -1 : static_cast<int64_t>(n);
}

class JavaReplayTest : public ::testing::TestWithParam<Replay> {};

TEST_P(JavaReplayTest, RewrittenFileMatchesJavaBytes) {
  const Replay& replay = GetParam();
  const std::string java_bytes = testing::ReadWholeFile(testing::FixturePath(std::string(replay.fixture) + ".tsfile"));
  if (java_bytes.empty()) GTEST_SKIP() << "fixture " << replay.fixture << " not found";
  auto java = TsFileReader::Open(MemoryFileView(java_bytes));
  ASSERT_TRUE(java.ok()) << java.status();
  const TableSchema* schema = (*java)->FindTable(replay.table);
  ASSERT_NE(schema, nullptr);
  auto rows = testing::ReadTableRows(**java, replay.table);
  ASSERT_TRUE(rows.ok()) << rows.status();

  // The chunk groups in file order: (offset of the time chunk, device, rows).
  struct Group {
    int64_t offset;
    size_t device;
    size_t rows;
  };
  std::vector<Group> groups;
  for (size_t d = 0; d < rows->size(); ++d) {
    auto location = (*java)->FindDevice(replay.table, (*rows)[d].id);
    ASSERT_TRUE(location.ok() && location->has_value());
    auto series = (*java)->ReadTimeseries(**location);
    ASSERT_TRUE(series.ok()) << series.status();
    for (const ChunkMetadata& chunk : series->front().chunks) {
      groups.push_back({chunk.offset, d, chunk.statistics.count});
    }
  }
  std::sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) { return a.offset < b.offset; });

  TableWriterOptions options;
  for (const ColumnSchema& column : schema->columns) {
    if (column.category == ColumnCategory::kField) options.compression = *CompressionFromByte(column.compression_byte);
  }
  options.max_points_per_page = replay.page_points;
  options.max_index_degree = replay.degree;
  std::string ours;
  auto writer = TsFileWriter::CreateInMemory(&ours, *schema, options);
  ASSERT_TRUE(writer.ok()) << writer.status();
  std::vector<size_t> cursor(rows->size(), 0);
  for (const Group& group : groups) {
    const DeviceRows& device = (*rows)[group.device];
    const size_t begin = cursor[group.device];
    const size_t end = begin + group.rows;
    std::vector<ColumnValues> fields;
    for (const OwnedColumn& column : device.fields) fields.push_back(column.Slice(begin, end));
    ASSERT_TRUE((*writer)->WriteRows(device.id, std::span(device.times).subspan(begin, group.rows), fields).ok());
    cursor[group.device] = end;
  }
  ASSERT_TRUE((*writer)->Close().ok());
  if (const char* dir = std::getenv("TSREAD_WRITE_DUMP_DIR")) {
    // For debugging a difference with `tsread sketch`.
    std::FILE* f = std::fopen(absl::StrCat(dir, "/", replay.fixture, ".tsfile").c_str(), "wb");
    if (f != nullptr) {
      std::fwrite(ours.data(), 1, ours.size(), f);
      std::fclose(f);
    }
  }

  auto mine = TsFileReader::Open(MemoryFileView(ours));
  ASSERT_TRUE(mine.ok()) << mine.status();
  const uint64_t java_meta = (*java)->metadata().meta_offset;
  const uint64_t our_meta = (*mine)->metadata().meta_offset;
  EXPECT_EQ(our_meta, java_meta);
  const int64_t data_diff =
      FirstDifference(std::string_view(ours).substr(0, our_meta), std::string_view(java_bytes).substr(0, java_meta));
  EXPECT_EQ(data_diff, -1) << "data sections differ at offset " << data_diff;
  // The index area (TimeseriesMetadata and nodes) up to TsFileMetadata.
  const uint64_t java_end = (*java)->layout().metadata_offset;
  const uint64_t our_end = (*mine)->layout().metadata_offset;
  const int64_t index_diff = FirstDifference(std::string_view(ours).substr(our_meta, our_end - our_meta),
                                             std::string_view(java_bytes).substr(java_meta, java_end - java_meta));
  EXPECT_EQ(index_diff, -1) << "index areas differ at offset " << our_meta + index_diff;
  // TsFileMetadata: the same apart from the bloom filter, which the writer leaves out.
  const TsFileMetadata& a = (*mine)->metadata();
  const TsFileMetadata& b = (*java)->metadata();
  EXPECT_EQ(a.properties, b.properties);
  ASSERT_EQ(a.table_schemas.size(), 1u);
  ASSERT_EQ(a.table_schemas[0].columns.size(), schema->columns.size());
  for (size_t c = 0; c < schema->columns.size(); ++c) {
    const ColumnSchema& x = a.table_schemas[0].columns[c];
    const ColumnSchema& y = schema->columns[c];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.data_type, y.data_type);
    EXPECT_EQ(x.category, y.category);
    if (y.category == ColumnCategory::kField) {
      EXPECT_EQ(x.encoding_byte, y.encoding_byte) << y.name;
      EXPECT_EQ(x.compression_byte, y.compression_byte) << y.name;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, JavaReplayTest,
                         ::testing::Values(Replay{"table_comp_UNCOMPRESSED", "t_comp", 1000, 256},
                                           Replay{"table_comp_LZ4", "t_comp", 1000, 256},
                                           Replay{"table_alltypes", "t_all", 1000, 256},
                                           Replay{"table_wide", "t_wide", 10000, 16},
                                           Replay{"table_wide_d256", "t_wide", 10000, 256},
                                           Replay{"table_many_devices", "t_many", 10000, 256}),
                         [](const ::testing::TestParamInfo<Replay>& info) { return std::string(info.param.fixture); });

// ---------------------------------------------------------------------------------------------
// Seeded random round trips

constexpr DataType kAllTypes[] = {DataType::kBoolean, DataType::kInt32, DataType::kInt64,     DataType::kFloat,
                                  DataType::kDouble,  DataType::kText,  DataType::kTimestamp, DataType::kDate,
                                  DataType::kBlob,    DataType::kString};

struct Knobs {
  size_t max_devices = 6;
  size_t max_rows = 300;
  size_t extra_fields = 4;
  bool force_many_devices = false;  // > 256 devices
  bool force_many_columns = false;  // > 256 FIELD columns
};

// A random table, its devices' rows and how they are cut into WriteRows calls.
struct Case {
  TableSchema schema;
  TableWriterOptions options;
  std::vector<DeviceRows> devices;
  std::vector<std::vector<size_t>> cuts;  // per device: ends of its WriteRows calls
  std::vector<std::string> strings;       // keeps binary values alive
};

template <typename T>
T Extreme(std::mt19937_64& random) {
  using L = std::numeric_limits<T>;
  const T choices[] = {L::min(), L::max(), 0, -1, 1};
  return choices[random() % 5];
}

void FillColumn(std::mt19937_64& random, size_t rows, OwnedColumn& column) {
  column.valid.assign(rows, 1);
  // Null patterns: none, random, all, stretches (which make all-null pages).
  switch (random() % 5) {
    case 0:
      break;
    case 1:
      for (auto& v : column.valid) v = random() % 4 != 0;
      break;
    case 2:
      std::fill(column.valid.begin(), column.valid.end(), 0);
      break;
    default: {
      const size_t stretch = random() % (rows + 1);
      const size_t at = random() % (rows - stretch + 1);
      std::fill(column.valid.begin() + at, column.valid.begin() + at + stretch, 0);
      for (auto& v : column.valid) v = v && random() % 10 != 0;
    }
  }
  double walk = static_cast<double>(random() % 1000);
  int64_t step = static_cast<int64_t>(random() % 1000);
  for (size_t r = 0; r < rows; ++r) {
    walk += std::normal_distribution<double>(0, 1)(random);
    const bool extreme = random() % 20 == 0;
    switch (PhysicalTypeOf(column.type)) {
      case PhysicalType::kBoolean:
        column.bools.push_back(random() % 7 == 0);
        break;
      case PhysicalType::kInt32:
        column.int32s.push_back(extreme ? Extreme<int32_t>(random) : static_cast<int32_t>(walk * 10));
        break;
      case PhysicalType::kInt64:
        column.int64s.push_back(extreme ? Extreme<int64_t>(random) : static_cast<int64_t>(r) * step);
        break;
      case PhysicalType::kFloat: {
        const float specials[] = {
            std::nanf(""), std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(), -0.0f,
            0.0f,          std::numeric_limits<float>::max()};
        column.floats.push_back(extreme ? specials[random() % 6] : static_cast<float>(std::round(walk * 100) / 100));
        break;
      }
      case PhysicalType::kDouble: {
        const double specials[] = {
            std::nan(""), std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(), -0.0,
            0.0,          std::numeric_limits<double>::lowest()};
        column.doubles.push_back(extreme ? specials[random() % 6] : walk);
        break;
      }
      case PhysicalType::kBinary: {
        std::string value;
        const size_t length = random() % 3 == 0 ? 0 : random() % 24;
        for (size_t i = 0; i < length; ++i) {
          // Mostly text, some arbitrary bytes (including non-ASCII and quotes/commas).
          value.push_back(random() % 4 == 0 ? static_cast<char>(random()) : "ab,\"xyz \xc3\xa9"[random() % 10]);
        }
        column.binaries.push_back(std::move(value));
        break;
      }
    }
  }
}

Case RandomCase(uint64_t seed, const Knobs& knobs) {
  std::mt19937_64 random(seed);
  Case c;
  c.schema.name = absl::StrCat("t", seed % 7);
  const size_t tags = knobs.force_many_devices ? 2 : random() % 4;
  for (size_t t = 0; t < tags; ++t) {
    c.schema.columns.push_back(ColumnSchema{absl::StrCat("tag", t), DataType::kString, 0, 0, {}, ColumnCategory::kTag});
  }
  std::vector<DataType> types(std::begin(kAllTypes), std::end(kAllTypes));
  const size_t extra = knobs.force_many_columns ? 300 : random() % (knobs.extra_fields + 1);
  for (size_t i = 0; i < extra; ++i) types.push_back(kAllTypes[random() % 10]);
  std::shuffle(types.begin(), types.end(), random);
  for (size_t f = 0; f < types.size(); ++f) {
    // Names whose sort order differs from the schema order.
    ColumnSchema column{absl::StrCat("f", (f * 7919) % 1009, "_", f), types[f], 0, 0, {}, ColumnCategory::kField};
    // Interleave TAG and FIELD columns, plus the odd ATTRIBUTE column.
    const size_t at = random() % (c.schema.columns.size() + 1);
    c.schema.columns.insert(c.schema.columns.begin() + static_cast<std::ptrdiff_t>(at), column);
  }
  if (random() % 4 == 0) {
    c.schema.columns.push_back(ColumnSchema{"attr", DataType::kString, 0, 0, {}, ColumnCategory::kAttribute});
  }

  const Compression codecs[] = {Compression::kUncompressed, Compression::kLz4, Compression::kZstd,
                                Compression::kSnappy, Compression::kGzip};
  c.options.compression = codecs[random() % 3];
  c.options.max_points_per_page = random() % 2 ? 10000 : random() % 40 + 1;
  c.options.max_page_bytes = random() % 2 ? 64 * 1024 : random() % 400 + 16;
  c.options.max_index_degree = random() % 2 ? 256 : static_cast<int>(random() % 4 + 2);

  // Distinct devices; tags may be null (in the middle and trailing).
  std::set<std::string> seen;
  const size_t wanted = knobs.force_many_devices ? 300 : random() % knobs.max_devices + 1;
  for (size_t attempt = 0; attempt < wanted * 4 && c.devices.size() < wanted; ++attempt) {
    std::vector<std::optional<std::string>> segments = {c.schema.name};
    for (size_t t = 0; t < tags; ++t) {
      if (random() % 5 == 0) {
        segments.emplace_back(std::nullopt);
      } else {
        segments.emplace_back(absl::StrCat(random() % 3 == 0 ? "Ä" : "", "v", random() % (wanted + 2)));
      }
    }
    DeviceId id(std::move(segments));
    std::string key;
    for (const auto& s : id.segments()) key += s.has_value() ? "1" + *s + '\0' : std::string("0");
    if (!seen.insert(key).second) continue;
    DeviceRows device;
    device.id = std::move(id);
    const size_t rows = knobs.force_many_devices ? random() % 3 + 1 : random() % knobs.max_rows + 1;
    int64_t t = static_cast<int64_t>(random() % 1000) - 500;
    for (size_t r = 0; r < rows; ++r) device.times.push_back(t += static_cast<int64_t>(random() % 3000) + 1);
    if (random() % 10 == 0) device.times.front() = std::numeric_limits<int64_t>::min();
    if (random() % 10 == 0) device.times.back() = std::numeric_limits<int64_t>::max();
    std::vector<size_t> cut;
    const size_t calls = random() % 3 + 1;
    for (size_t k = 1; k < calls; ++k) cut.push_back(random() % rows + 1);
    cut.push_back(rows);
    std::sort(cut.begin(), cut.end());
    c.cuts.push_back(cut);
    for (const ColumnSchema& column : c.schema.columns) {
      if (column.category != ColumnCategory::kField) continue;
      OwnedColumn owned;
      owned.type = column.data_type;
      FillColumn(random, rows, owned);
      device.fields.push_back(std::move(owned));
    }
    c.devices.push_back(std::move(device));
  }
  return c;
}

// Writes the case, interleaving the devices' calls (call k of every device, then call k + 1).
absl::StatusOr<std::string> WriteCase(const Case& c) {
  std::string bytes;
  TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<TsFileWriter> writer,
                          TsFileWriter::CreateInMemory(&bytes, c.schema, c.options));
  for (size_t k = 0; k < 3; ++k) {
    for (size_t d = 0; d < c.devices.size(); ++d) {
      if (k >= c.cuts[d].size()) continue;
      const size_t begin = k == 0 ? 0 : c.cuts[d][k - 1];
      const size_t end = c.cuts[d][k];
      std::vector<ColumnValues> fields;
      for (const OwnedColumn& column : c.devices[d].fields) fields.push_back(column.Slice(begin, end));
      TSREAD_RETURN_IF_ERROR(
          writer->WriteRows(c.devices[d].id, std::span(c.devices[d].times).subspan(begin, end - begin), fields));
    }
  }
  TSREAD_RETURN_IF_ERROR(writer->Close());
  return bytes;
}

void ExpectSameColumn(const OwnedColumn& want, const OwnedColumn& got, const std::string& where) {
  ASSERT_EQ(got.valid.size(), want.valid.size()) << where;
  for (size_t r = 0; r < want.valid.size(); ++r) {
    ASSERT_EQ(got.valid[r] != 0, want.valid[r] != 0) << where << " row " << r;
    if (!want.valid[r]) continue;
    switch (PhysicalTypeOf(want.type)) {
      case PhysicalType::kBoolean:
        ASSERT_EQ(got.bools[r] != 0, want.bools[r] != 0) << where << " row " << r;
        break;
      case PhysicalType::kInt32:
        ASSERT_EQ(got.int32s[r], want.int32s[r]) << where << " row " << r;
        break;
      case PhysicalType::kInt64:
        ASSERT_EQ(got.int64s[r], want.int64s[r]) << where << " row " << r;
        break;
      case PhysicalType::kFloat:
        ASSERT_EQ(std::bit_cast<uint32_t>(got.floats[r]), std::bit_cast<uint32_t>(want.floats[r]))
            << where << " row " << r;
        break;
      case PhysicalType::kDouble:
        ASSERT_EQ(std::bit_cast<uint64_t>(got.doubles[r]), std::bit_cast<uint64_t>(want.doubles[r]))
            << where << " row " << r;
        break;
      case PhysicalType::kBinary:
        ASSERT_EQ(got.binaries[r], want.binaries[r]) << where << " row " << r;
        break;
    }
  }
}

void ExpectRoundTrip(const Case& c) {
  auto bytes = WriteCase(c);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  auto reader = TsFileReader::Open(MemoryFileView(*bytes));
  ASSERT_TRUE(reader.ok()) << reader.status();

  auto report = VerifyFile(**reader);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->clean()) << report->problems.front();

  // Devices come back in index order.
  std::vector<const DeviceRows*> want;
  for (const DeviceRows& d : c.devices) want.push_back(&d);
  std::sort(want.begin(), want.end(),
            [](const DeviceRows* a, const DeviceRows* b) { return CompareOwnedDeviceIds(a->id, b->id) < 0; });
  auto got = testing::ReadTableRows(**reader, c.schema.name);
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_EQ(got->size(), want.size());
  for (size_t d = 0; d < want.size(); ++d) {
    const std::string where = want[d]->id.ToString();
    ASSERT_EQ((*got)[d].id, want[d]->id);
    ASSERT_EQ((*got)[d].times, want[d]->times) << where;
    ASSERT_EQ((*got)[d].fields.size(), want[d]->fields.size());
    for (size_t f = 0; f < want[d]->fields.size(); ++f) {
      ExpectSameColumn(want[d]->fields[f], (*got)[d].fields[f], absl::StrCat(where, " field ", f));
    }
    auto location = (*reader)->FindDevice(c.schema.name, want[d]->id);
    ASSERT_TRUE(location.ok()) << location.status();
    EXPECT_TRUE(location->has_value()) << where;
  }
  // A device that was not written is not found.
  auto missing = (*reader)->FindDevice(c.schema.name, DeviceId({c.schema.name, std::string("no such device")}));
  ASSERT_TRUE(missing.ok());
  EXPECT_FALSE(missing->has_value());
}

TEST(TsFileWriterRoundTripTest, RandomSchemasAndData) {
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    SCOPED_TRACE(absl::StrCat("seed ", seed));
    ExpectRoundTrip(RandomCase(seed, Knobs{}));
    if (HasFatalFailure()) return;
  }
}

TEST(TsFileWriterRoundTripTest, ManyDevicesMakeATwoLevelDeviceIndex) {
  Knobs knobs;
  knobs.force_many_devices = true;
  Case c = RandomCase(1001, knobs);
  c.options.max_index_degree = 256;
  ASSERT_GT(c.devices.size(), 256u);
  ExpectRoundTrip(c);
}

// Over 256 series: with degree 256 one LEAF_MEASUREMENT with two entries (as Java's
// table_wide_d256 fixture), with degree 3 a measurement index several levels deep.
TEST(TsFileWriterRoundTripTest, ManyColumnsSpanSeveralMeasurementIndexEntries) {
  Knobs knobs;
  knobs.force_many_columns = true;
  knobs.max_devices = 2;
  knobs.max_rows = 30;
  Case c = RandomCase(2002, knobs);
  c.options.max_index_degree = 256;
  ExpectRoundTrip(c);
  c.options.max_index_degree = 3;  // three levels of INTERNAL_MEASUREMENT nodes
  ExpectRoundTrip(c);
}

// ---------------------------------------------------------------------------------------------
// Refused input

TableSchema SmallSchema() {
  TableSchema schema;
  schema.name = "t";
  schema.columns.push_back(ColumnSchema{"id", DataType::kString, 0, 0, {}, ColumnCategory::kTag});
  schema.columns.push_back(ColumnSchema{"v", DataType::kInt64, 0, 0, {}, ColumnCategory::kField});
  return schema;
}

ColumnValues Int64s(std::vector<int64_t> values) {
  ColumnValues v;
  v.type = DataType::kInt64;
  v.int64s = std::move(values);
  return v;
}

TEST(TsFileWriterTest, RefusesBadSchemasAndOptions) {
  std::string bytes;
  TableSchema upper = SmallSchema();
  upper.columns[1].name = "V";
  EXPECT_THAT(TsFileWriter::CreateInMemory(&bytes, upper).status().message(), HasSubstr("upper-case"));
  TableSchema tag_type = SmallSchema();
  tag_type.columns[0].data_type = DataType::kInt32;
  EXPECT_FALSE(TsFileWriter::CreateInMemory(&bytes, tag_type).ok());
  TableSchema duplicate = SmallSchema();
  duplicate.columns[1].name = "id";
  EXPECT_FALSE(TsFileWriter::CreateInMemory(&bytes, duplicate).ok());
  TableSchema vector = SmallSchema();
  vector.columns[1].data_type = DataType::kVector;
  EXPECT_FALSE(TsFileWriter::CreateInMemory(&bytes, vector).ok());
  TableWriterOptions lzo;
  lzo.compression = Compression::kLzo;
  EXPECT_EQ(TsFileWriter::CreateInMemory(&bytes, SmallSchema(), lzo).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(TsFileWriter::Create("/nonexistent-dir/x.tsfile", SmallSchema()).ok());
}

TEST(TsFileWriterTest, RefusesBadRows) {
  std::string bytes;
  auto writer = TsFileWriter::CreateInMemory(&bytes, SmallSchema());
  ASSERT_TRUE(writer.ok());
  TsFileWriter& w = **writer;
  const DeviceId device = w.MakeDeviceId({"a"});
  const std::vector<int64_t> times = {1, 2, 3};
  EXPECT_TRUE(w.WriteRows(device, times, {Int64s({1, 2, 3})}).ok());
  // Times must keep increasing, within a call and across calls of a device.
  EXPECT_THAT(w.WriteRows(device, std::vector<int64_t>{3, 4}, {Int64s({1, 2})}).message(), HasSubstr("time 3"));
  EXPECT_FALSE(w.WriteRows(w.MakeDeviceId({"b"}), std::vector<int64_t>{5, 5}, {Int64s({1, 2})}).ok());
  EXPECT_TRUE(w.WriteRows(w.MakeDeviceId({"b"}), std::vector<int64_t>{5, 6}, {Int64s({1, 2})}).ok());
  // Wrong table, too many tags, wrong column count, type or size.
  EXPECT_FALSE(
      w.WriteRows(DeviceId({std::string("u"), std::string("a")}), std::vector<int64_t>{9}, {Int64s({1})}).ok());
  EXPECT_FALSE(w.WriteRows(w.MakeDeviceId({"a", "x"}), std::vector<int64_t>{9}, {Int64s({1})}).ok());
  EXPECT_FALSE(w.WriteRows(device, std::vector<int64_t>{9}, {}).ok());
  ColumnValues doubles;
  doubles.type = DataType::kDouble;
  doubles.doubles = {1.0};
  EXPECT_FALSE(w.WriteRows(device, std::vector<int64_t>{9}, {doubles}).ok());
  EXPECT_FALSE(w.WriteRows(device, std::vector<int64_t>{9}, {Int64s({1, 2})}).ok());
  ColumnValues bad_valid = Int64s({1});
  bad_valid.valid = {1, 1};
  EXPECT_FALSE(w.WriteRows(device, std::vector<int64_t>{9}, {bad_valid}).ok());
  ASSERT_TRUE(w.Close().ok());
  EXPECT_EQ(w.WriteRows(device, std::vector<int64_t>{10}, {Int64s({1})}).code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_FALSE(w.Close().ok());

  // Only the accepted rows are in the file.
  auto reader = TsFileReader::Open(MemoryFileView(bytes));
  ASSERT_TRUE(reader.ok()) << reader.status();
  auto rows = testing::ReadTableRows(**reader, "t");
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].times, times);
  EXPECT_EQ((*rows)[1].times, (std::vector<int64_t>{5, 6}));
}

TEST(TsFileWriterTest, EmptyFileHasTheSchemaAndNoDevices) {
  std::string bytes;
  auto writer = TsFileWriter::CreateInMemory(&bytes, SmallSchema());
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->Close().ok());
  auto reader = TsFileReader::Open(MemoryFileView(bytes));
  ASSERT_TRUE(reader.ok()) << reader.status();
  ASSERT_NE((*reader)->FindTable("t"), nullptr);
  auto rows = testing::ReadTableRows(**reader, "t");
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_TRUE(rows->empty());
}

TEST(TsFileWriterTest, AllNullColumnIsAnEmptyValueChunk) {
  std::string bytes;
  TableWriterOptions options;
  options.compression = Compression::kUncompressed;
  auto writer = TsFileWriter::CreateInMemory(&bytes, SmallSchema(), options);
  ASSERT_TRUE(writer.ok());
  ColumnValues nulls = Int64s({0, 0});
  nulls.valid = {0, 0};
  ASSERT_TRUE((*writer)->WriteRows((*writer)->MakeDeviceId({"a"}), std::vector<int64_t>{1, 2}, {nulls}).ok());
  ASSERT_TRUE((*writer)->Close().ok());
  // The empty value chunk is the last thing before the separator: 0x45, vstr "v", dataSize 0,
  // INT64, UNCOMPRESSED, TS_2DIFF, then 0x02.
  auto reader = TsFileReader::Open(MemoryFileView(bytes));
  ASSERT_TRUE(reader.ok());
  const uint64_t meta = (*reader)->metadata().meta_offset;
  EXPECT_EQ(bytes.substr(meta - 7, 8), std::string("\x45\x02v\x00\x02\x00\x04\x02", 8));
  auto location = (*reader)->FindDevice("t", (*writer)->MakeDeviceId({"a"}));
  ASSERT_TRUE(location.ok() && location->has_value());
  auto series = (*reader)->ReadTimeseries(**location);
  ASSERT_TRUE(series.ok());
  ASSERT_EQ(series->size(), 2u);
  EXPECT_EQ((*series)[1].type_byte, 0x40);
  EXPECT_EQ((*series)[1].statistics.count, 0u);
  EXPECT_EQ((*series)[1].statistics.start_time, std::numeric_limits<int64_t>::max());
  EXPECT_EQ((*series)[1].statistics.end_time, std::numeric_limits<int64_t>::min());
}

}  // namespace
}  // namespace tsread
