// `tsread gen OUT.tsfile [--devices N] [--rows N] [--seed N] [--compression C] [--page-points N]
// [--fields N] [--null-ratio X] [--files N]`: writes a benchmark-shaped table-model file with the
// writer — or, with --files N, a dataset: N files in directory OUT, each a consecutive time slice
// of every device (as IoTDB's time partitions are), --rows rows per device in all.
// --iotdb: OUT is an IoTDB data directory (iotdb-data-directories.md §1.1) of database `db`:
// --files sequence files (10 by default), time slices as --files writes them; unsequence files
// (half as many, at least one), each over its share of the time range, rewriting --unsequence of
// each device's rows (0.1: IoTDB's updates and late writes); and a table deletion of --deleted of
// the time range (0.01) in the .mods2 of every file it overlaps. Every file is in the partition
// folder of the first time.
// Defaults reproduce the benchmark file's shape: table `sensors`, TAGs region (region_0..9) and
// device (dev_000..dev_999, 100 per region), 1000 devices x 3200 rows, one row per second from
// 1700000000000, FIELDs s_int64 (monotone counter), s_double (Gaussian walk), s_float (walk,
// 2 decimals), s_int32 (small steps with repeats), s_bool (rare flips), LZ4.
#include <unistd.h>

#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_format.h"
#include "cli.h"
#include "progress_bar.h"
#include "tsread/io/status_macros.h"
#include "tsread/iotdb/deletion_entry.h"
#include "tsread/write/tsfile_writer.h"

namespace tsread::cli {
namespace {

constexpr int64_t kFirstTime = 1700000000000;
constexpr int64_t kTimeStep = 1000;
constexpr size_t kDevicesPerRegion = 100;

// splitmix64: small, fast and the same everywhere (std distributions are not portable).
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1).
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  // Standard normal (Box-Muller).
  double Gaussian() {
    const double u = 1.0 - Uniform();
    return std::sqrt(-2.0 * std::log(u)) * std::cos(6.283185307179586 * Uniform());
  }

 private:
  uint64_t state_;
};

// The field kinds, in the benchmark's column order; extra fields (--fields > 5) cycle them.
enum class Kind { kCounter, kGaussian, kRounded, kSteps, kFlips };
constexpr Kind kKinds[] = {Kind::kCounter, Kind::kGaussian, Kind::kRounded, Kind::kSteps, Kind::kFlips};
constexpr const char* kNames[] = {"s_int64", "s_double", "s_float", "s_int32", "s_bool"};
constexpr DataType kTypes[] = {DataType::kInt64, DataType::kDouble, DataType::kFloat, DataType::kInt32,
                               DataType::kBoolean};

struct GenOptions {
  size_t devices = 1000;
  size_t rows = 3200;
  uint64_t seed = 42;
  Compression compression = Compression::kLz4;
  size_t page_points = 10000;
  size_t fields = 5;
  double null_ratio = 0;
  size_t files = 0;  // 0: one file at OUT; N: N files in directory OUT
  // --iotdb: an IoTDB data directory at OUT, with these shares of rows rewritten and time deleted.
  bool iotdb = false;
  double unsequence = 0.1;
  double deleted = 0.01;
};

template <typename T>
bool ParseNumber(const std::string& text, T& out) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end;
}

std::optional<std::string> ParseOptions(const Args& args, GenOptions& options) {
  auto size_flag = [&](const char* name, size_t& out, size_t min) -> std::optional<std::string> {
    if (std::optional<std::string> v = args.Get(name)) {
      if (!ParseNumber(*v, out) || out < min) return absl::StrFormat("bad --%s %s", name, *v);
    }
    return std::nullopt;
  };
  if (auto e = size_flag("devices", options.devices, 0)) return e;  // 0: the schema alone, a table without rows
  if (auto e = size_flag("rows", options.rows, 1)) return e;
  if (auto e = size_flag("page-points", options.page_points, 1)) return e;
  if (auto e = size_flag("fields", options.fields, 0)) return e;
  if (auto e = size_flag("files", options.files, 1)) return e;
  if (options.files > options.rows) return absl::StrFormat("--files %d is more than --rows %d", options.files, options.rows);
  if (std::optional<std::string> v = args.Get("seed")) {
    if (!ParseNumber(*v, options.seed)) return "bad --seed " + *v;
  }
  auto share_flag = [&](const char* name, double& out) -> std::optional<std::string> {
    if (std::optional<std::string> v = args.Get(name)) {
      char* end = nullptr;
      out = std::strtod(v->c_str(), &end);
      if (v->empty() || *end != '\0' || !(out >= 0 && out <= 1)) return absl::StrFormat("bad --%s %s (want 0..1)", name, *v);
    }
    return std::nullopt;
  };
  if (auto e = share_flag("null-ratio", options.null_ratio)) return e;
  options.iotdb = args.Has("iotdb");
  if (!options.iotdb && (args.Has("unsequence") || args.Has("deleted"))) return "--unsequence and --deleted need --iotdb";
  if (auto e = share_flag("unsequence", options.unsequence)) return e;
  if (auto e = share_flag("deleted", options.deleted)) return e;
  if (options.iotdb && options.files == 0) options.files = std::min<size_t>(10, options.rows);
  if (std::optional<std::string> v = args.Get("compression")) {
    // The writer's codecs (page_compressor.cc).
    const std::string name = absl::AsciiStrToUpper(*v);
    if (name == "UNCOMPRESSED" || name == "NONE") {
      options.compression = Compression::kUncompressed;
    } else if (name == "LZ4") {
      options.compression = Compression::kLz4;
    } else if (name == "ZSTD") {
      options.compression = Compression::kZstd;
    } else if (name == "SNAPPY") {
      options.compression = Compression::kSnappy;
    } else if (name == "GZIP") {
      options.compression = Compression::kGzip;
    } else {
      return "bad --compression " + *v + " (supported: UNCOMPRESSED, LZ4, ZSTD, SNAPPY, GZIP)";
    }
  }
  return std::nullopt;
}

TableSchema GenSchema(size_t fields) {
  TableSchema schema;
  schema.name = "sensors";
  schema.columns.push_back(ColumnSchema{"region", DataType::kString, 0, 0, {}, ColumnCategory::kTag});
  schema.columns.push_back(ColumnSchema{"device", DataType::kString, 0, 0, {}, ColumnCategory::kTag});
  for (size_t f = 0; f < fields; ++f) {
    std::string name = f < 5 ? kNames[f] : absl::StrFormat("%s_%d", kNames[f % 5], f / 5);
    schema.columns.push_back(ColumnSchema{std::move(name), kTypes[f % 5], 0, 0, {}, ColumnCategory::kField});
  }
  return schema;
}

// Fills one field column of `rows` rows with the walk of its kind.
void FillColumn(Kind kind, size_t rows, double null_ratio, Random& random, ColumnValues& column) {
  switch (kind) {
    case Kind::kCounter: {
      column.int64s.resize(rows);
      int64_t v = static_cast<int64_t>(random.Next() % 1000000);
      for (size_t r = 0; r < rows; ++r) column.int64s[r] = v += static_cast<int64_t>(random.Next() % 11);
      break;
    }
    case Kind::kGaussian: {
      column.doubles.resize(rows);
      double v = 20 + 5 * random.Gaussian();
      for (size_t r = 0; r < rows; ++r) column.doubles[r] = v += 0.1 * random.Gaussian();
      break;
    }
    case Kind::kRounded: {
      column.floats.resize(rows);
      double v = 100 * random.Uniform();
      for (size_t r = 0; r < rows; ++r) {
        v += random.Uniform() - 0.5;
        column.floats[r] = static_cast<float>(std::round(v * 100) / 100);
      }
      break;
    }
    case Kind::kSteps: {
      column.int32s.resize(rows);
      int32_t v = static_cast<int32_t>(random.Next() % 1000);
      for (size_t r = 0; r < rows; ++r) {
        const uint64_t x = random.Next();
        if (x % 10 >= 7) v += static_cast<int32_t>((x >> 8) % 7) - 3;  // 30 %: a step of -3..3
        column.int32s[r] = v;
      }
      break;
    }
    case Kind::kFlips: {
      column.bools.resize(rows);
      bool v = random.Next() & 1;
      for (size_t r = 0; r < rows; ++r) {
        if (random.Next() % 100 == 0) v = !v;
        column.bools[r] = v;
      }
      break;
    }
  }
  if (null_ratio > 0) {
    column.valid.resize(rows);
    for (size_t r = 0; r < rows; ++r) column.valid[r] = random.Uniform() >= null_ratio;
  }
}

// Writes `times` rows of device `d` with fields from the walk of `random` (one chunk group).
absl::Status WriteDeviceRows(TsFileWriter& writer, const GenOptions& options, size_t d, const std::vector<int64_t>& times,
                             Random& random, std::vector<ColumnValues>& fields) {
  for (size_t f = 0; f < options.fields; ++f) {
    fields[f] = ColumnValues{};
    fields[f].type = kTypes[f % 5];
    FillColumn(kKinds[f % 5], times.size(), options.null_ratio, random, fields[f]);
  }
  const DeviceId device =
      writer.MakeDeviceId({absl::StrFormat("region_%d", d / kDevicesPerRegion), absl::StrFormat("dev_%03d", d)});
  return writer.WriteRows(device, times, fields);
}

// Writes rows [first_row, first_row + rows) of every device as one file; returns its bytes.
absl::StatusOr<uint64_t> WriteSlice(const std::string& path, const GenOptions& options, size_t slice, size_t first_row,
                                    size_t rows, ProgressBar& progress) {
  TableWriterOptions writer_options;
  writer_options.compression = options.compression;
  writer_options.max_points_per_page = options.page_points;
  TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<TsFileWriter> writer,
                          TsFileWriter::Create(path, GenSchema(options.fields), writer_options));
  std::vector<int64_t> times(rows);
  for (size_t r = 0; r < rows; ++r) times[r] = kFirstTime + static_cast<int64_t>(first_row + r) * kTimeStep;
  std::vector<ColumnValues> fields(options.fields);
  for (size_t d = 0; d < options.devices; ++d) {
    // One random stream per device and slice: a device's data does not depend on --devices, and
    // a single file (slice 0) is what gen always wrote.
    Random random(options.seed * 0x100000001B3ull + d + slice * 0x9E3779B97F4A7C15ull);
    TSREAD_RETURN_IF_ERROR(WriteDeviceRows(*writer, options, d, times, random, fields));
    progress.Add(1);
  }
  TSREAD_RETURN_IF_ERROR(writer->Close());
  return writer->bytes_written();
}

// IoTDB-shaped directories (--iotdb).
constexpr int64_t kPartitionInterval = 604800000;  // IoTDB's default time_partition_interval (7 days)

// `out`/{sequence|unsequence}/db/1/{partition}/{time}-{version}-0-0.tsfile, folders made.
absl::StatusOr<std::string> IotdbPath(const std::string& out, bool sequence, size_t version) {
  const std::string dir = absl::StrFormat("%s/%s/db/1/%d", out, sequence ? "sequence" : "unsequence",
                                          kFirstTime / kPartitionInterval);
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) return absl::UnavailableError(absl::StrCat(dir, ": cannot create the directory: ", error.message()));
  return absl::StrFormat("%s/%d-%d-0-0.tsfile", dir, kFirstTime + static_cast<int64_t>(version), version);
}

// Whether the unsequence files rewrite row `row` of device `d` (a hash, the same for any --files).
bool Rewritten(const GenOptions& options, size_t d, size_t row) {
  Random random(options.seed ^ (0xD1B54A32D192ED03ull * (d + 1)) ^ (0x8CB92BA72F3D8DD7ull * (row + 1)));
  return random.Uniform() < options.unsequence;
}

// Unsequence file `part` of `parts`: over its share of the rows, the rewritten rows of every device
// with new values. Returns its bytes.
absl::StatusOr<uint64_t> WriteUnsequence(const std::string& path, const GenOptions& options, size_t part, size_t parts,
                                         ProgressBar& progress) {
  TableWriterOptions writer_options;
  writer_options.compression = options.compression;
  writer_options.max_points_per_page = options.page_points;
  TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<TsFileWriter> writer,
                          TsFileWriter::Create(path, GenSchema(options.fields), writer_options));
  const size_t first_row = options.rows * part / parts, end_row = options.rows * (part + 1) / parts;
  std::vector<ColumnValues> fields(options.fields);
  for (size_t d = 0; d < options.devices; ++d) {
    std::vector<int64_t> times;
    for (size_t r = first_row; r < end_row; ++r) {
      if (Rewritten(options, d, r)) times.push_back(kFirstTime + static_cast<int64_t>(r) * kTimeStep);
    }
    if (times.empty()) continue;
    Random random(options.seed * 0x2545F4914F6CDD1Dull + d + (part + 1) * 0x9E3779B97F4A7C15ull);
    TSREAD_RETURN_IF_ERROR(WriteDeviceRows(*writer, options, d, times, random, fields));
    progress.Add(1);
  }
  TSREAD_RETURN_IF_ERROR(writer->Close());
  return writer->bytes_written();
}

// The deleted time range (--deleted of the whole range, from its middle), inclusive.
std::pair<int64_t, int64_t> DeletedRange(const GenOptions& options) {
  const int64_t span = static_cast<int64_t>(options.rows) * kTimeStep;
  const int64_t start = kFirstTime + span / 2;
  return {start, start + static_cast<int64_t>(options.deleted * static_cast<double>(span)) - 1};
}

// Writes the deletion beside `path` when the file's times [first, last] overlap it.
absl::Status WriteDeletion(const std::string& path, const GenOptions& options, int64_t first, int64_t last) {
  const auto [start, end] = DeletedRange(options);
  if (end < start || last < start || first > end) return absl::OkStatus();
  iotdb::DeletionEntry entry;
  entry.model = iotdb::DeletionEntry::Model::kTable;
  entry.table = "sensors";
  entry.start = start;
  entry.end = end;
  std::ofstream out(path + ".mods2", std::ios::binary | std::ios::trunc);
  out << iotdb::SerializeMods2(entry);
  if (!out.flush()) return absl::UnavailableError(absl::StrCat(path, ".mods2: cannot write"));
  return absl::OkStatus();
}

// --iotdb: the data directory; returns the files written and their bytes.
absl::StatusOr<std::pair<size_t, uint64_t>> WriteIotdbDirectory(const std::string& out, const GenOptions& options,
                                                                 ProgressBar& progress) {
  const size_t files = options.files;
  const size_t parts = options.unsequence > 0 ? std::max<size_t>(1, files / 2) : 0;
  uint64_t bytes = 0;
  for (size_t slice = 0; slice < files; ++slice) {
    const size_t first_row = options.rows * slice / files;
    const size_t rows = options.rows * (slice + 1) / files - first_row;
    TSREAD_ASSIGN_OR_RETURN(std::string path, IotdbPath(out, true, slice + 1));
    absl::StatusOr<uint64_t> written = WriteSlice(path, options, slice, first_row, rows, progress);
    if (!written.ok()) return WithFileName(written.status(), path);
    bytes += *written;
    TSREAD_RETURN_IF_ERROR(WriteDeletion(path, options, kFirstTime + static_cast<int64_t>(first_row) * kTimeStep,
                                         kFirstTime + static_cast<int64_t>(first_row + rows - 1) * kTimeStep));
  }
  for (size_t part = 0; part < parts; ++part) {
    TSREAD_ASSIGN_OR_RETURN(std::string path, IotdbPath(out, false, files + part + 1));
    absl::StatusOr<uint64_t> written = WriteUnsequence(path, options, part, parts, progress);
    if (!written.ok()) return WithFileName(written.status(), path);
    bytes += *written;
    const size_t first_row = options.rows * part / parts, end_row = options.rows * (part + 1) / parts;
    TSREAD_RETURN_IF_ERROR(WriteDeletion(path, options, kFirstTime + static_cast<int64_t>(first_row) * kTimeStep,
                                         kFirstTime + static_cast<int64_t>(end_row - 1) * kTimeStep));
  }
  return std::make_pair(files + parts, bytes);
}

// Why writing to `out` would destroy something (without --force): an existing file, or a
// directory that is not empty; nullopt when it is safe.
std::optional<std::string> OverwriteRefusal(const std::string& out, bool directory, bool force) {
  if (force) return std::nullopt;
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(out, error);
  if (!std::filesystem::exists(status)) return std::nullopt;
  if (directory && std::filesystem::is_directory(status)) {
    if (std::filesystem::is_empty(out, error) || error) return std::nullopt;
    return out + ": the directory is not empty (--force writes into it anyway)";
  }
  return out + ": exists (--force overwrites it)";
}

}  // namespace

int RunGen(const Args& args) {
  GenOptions options;
  if (std::optional<std::string> error = ParseOptions(args, options)) return UsageError(*error);
  const auto start = std::chrono::steady_clock::now();
  const std::string& out = args.positional[0];
  const size_t files = std::max<size_t>(1, options.files);
  if (std::optional<std::string> refusal = OverwriteRefusal(out, options.files > 0, args.Has("force"))) {
    return UsageError(*refusal);
  }
  if (options.iotdb) {
    ProgressBar progress("gen", options.devices * (files + std::max<size_t>(1, files / 2)));
    absl::StatusOr<std::pair<size_t, uint64_t>> written = WriteIotdbDirectory(out, options, progress);
    if (!written.ok()) return Fail(written.status());
    progress.Finish();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << absl::StrFormat("wrote IoTDB data directory %s: %d files, %d devices, %d sequence rows, %d bytes in %.3f s\n",
                                 out, written->first, options.devices, options.devices * options.rows, written->second,
                                 seconds);
    return kOk;
  }
  if (options.files > 0) {
    std::error_code error;
    std::filesystem::create_directories(out, error);
    if (error) return Fail(absl::UnavailableError(absl::StrCat(out, ": cannot create the directory: ", error.message())));
  }
  ProgressBar progress("gen", options.devices * files);
  uint64_t bytes = 0;
  for (size_t slice = 0; slice < files; ++slice) {
    const size_t first_row = options.rows * slice / files;
    const size_t rows = options.rows * (slice + 1) / files - first_row;
    const std::string path = options.files > 0 ? absl::StrFormat("%s/part-%05d.tsfile", out, slice) : out;
    absl::StatusOr<uint64_t> written = WriteSlice(path, options, slice, first_row, rows, progress);
    if (!written.ok()) return Fail(WithFileName(written.status(), path));
    bytes += *written;
  }
  progress.Finish();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << absl::StrFormat("wrote %s: %d files, %d devices, %d rows, %d bytes in %.3f s\n", out, files,
                               options.devices, options.devices * options.rows, bytes, seconds);
  return kOk;
}

}  // namespace tsread::cli
