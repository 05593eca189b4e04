// The helpers of metadata_rows.h.
#include "tsread/duckdb/metadata_rows.h"

#include <filesystem>
#include <map>

#include "absl/strings/str_cat.h"

namespace tsread::duckdb_ext {

// The bind data both functions start from: `time_unit` (read first, so that a bad unit is
// reported before any file is opened), then the dataset named by the path parameter.
absl::StatusOr<std::unique_ptr<BindData>> BindUnitAndDataset(duckdb_bind_info info, const char* function) {
  auto bind = std::make_unique<BindData>();
  absl::StatusOr<TimeMapping> time = NamedTimeMapping(info, function);
  if (!time.ok()) return time.status();
  bind->time = *time;
  // What IoTDB's layout says of each file, found by its canonical path. The files are listed as
  // written (leftovers IoTDB does not read among them), opened as IoTDB data opens them.
  absl::StatusOr<std::shared_ptr<const iotdb::IotdbDataset>> iotdb_data = OpenIotdbParameter(info, function);
  if (!iotdb_data.ok()) return iotdb_data.status();
  bind->iotdb = std::move(*iotdb_data);
  absl::StatusOr<std::unique_ptr<Dataset>> dataset =
      OpenDatasetParameter(info, function, bind->iotdb != nullptr ? bind->iotdb->dataset().options().opener : FileOpener());
  if (!dataset.ok()) return dataset.status();
  bind->dataset = std::move(*dataset);
  bind->layout_of.assign(bind->dataset->files().size(), std::nullopt);
  if (bind->iotdb != nullptr) {
    auto canonical = [](const std::string& path) {
      std::error_code error;
      const std::filesystem::path p = std::filesystem::weakly_canonical(path, error);
      return error ? path : p.string();
    };
    std::map<std::string, size_t> by_path;
    const auto& layout_files = bind->iotdb->layout().files;
    for (size_t i = 0; i < layout_files.size(); ++i) by_path.emplace(canonical(layout_files[i].path), i);
    for (size_t f = 0; f < bind->dataset->files().size(); ++f) {
      auto it = by_path.find(canonical(bind->dataset->files()[f].path));
      if (it != by_path.end()) bind->layout_of[f] = it->second;
    }
  }
  return bind;
}

// The last result columns of both functions (the time range, in the bound unit), then the bind
// data handed to DuckDB.
void FinishBind(duckdb_bind_info info, std::unique_ptr<BindData> bind) {
  AddResultColumn(info, "start_time", TimestampType(bind->time));
  AddResultColumn(info, "end_time", TimestampType(bind->time));
  duckdb_bind_set_bind_data(info, bind.release(), DeleteAs<BindData>);
}

void WriteOptionalString(duckdb_vector vector, size_t row, const std::optional<std::string>& value) {
  if (value) {
    SetString(vector, row, *value);
  } else {
    SetNull(vector, row);
  }
}

void WriteOptionalCount(duckdb_vector vector, size_t row, std::optional<uint64_t> value) {
  static_cast<int64_t*>(duckdb_vector_get_data(vector))[row] = static_cast<int64_t>(value.value_or(0));
  if (!value) SetNull(vector, row);
}

absl::Status WriteTimeRange(const Span& span, const TimeMapping& mapping, duckdb_vector start, duckdb_vector end, size_t row,
                            const std::string& path) {
  if (!span.has_time) {
    SetNull(start, row);
    SetNull(end, row);
    return absl::OkStatus();
  }
  std::optional<int64_t> s = ToOutputTime(span.start, mapping), e = ToOutputTime(span.end, mapping);
  if (!s || !e) {
    return absl::OutOfRangeError(
        absl::StrCat(path, ": time ", s ? span.end : span.start, " is out of range of TIMESTAMP ", kTimeRangeAdvice));
  }
  static_cast<int64_t*>(duckdb_vector_get_data(start))[row] = *s;
  static_cast<int64_t*>(duckdb_vector_get_data(end))[row] = *e;
  return absl::OkStatus();
}

}  // namespace tsread::duckdb_ext
