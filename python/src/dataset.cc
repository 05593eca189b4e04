// PyDataset (dataset.h): opening a dataset and its metadata queries.
#include "dataset.h"

#include <algorithm>
#include <cstddef>
#include <set>

#include "nullable_columns.h"
#include "text_values.h"
#include "tsread/aggregate/file_summary.h"
#include "tsread/common/utf8.h"
#include "tsread/read/tsfile_reader.h"

namespace py = pybind11;

namespace tsread::python {
namespace {

// A TsFile's names are UTF-8 (the Java writer encodes its strings so): bytes that are not are
// corruption, refused when the dataset opens rather than as a UnicodeDecodeError wherever a
// name is later turned into str. Needs the GIL.
void CheckNamesAreUtf8(const Dataset& dataset) {
  for (const DatasetFile& f : dataset.files()) {
    for (const std::shared_ptr<const TableSchema>& table : f.tables) {
      if (!IsValidUtf8(table->name)) RaiseCorrupt(f.path, "a table name is not UTF-8: " + BytesRepr(table->name));
      for (const ColumnSchema& c : table->columns) {
        if (!IsValidUtf8(c.name)) {
          RaiseCorrupt(f.path, "table \"" + table->name + "\": a column name is not UTF-8: " + BytesRepr(c.name));
        }
      }
    }
  }
}

// What IoTDB's layout says of file `f`: its space, database, region, partition, version, the
// deletion file applied (None without one) and what of an unsealed file is read (None if sealed).
py::dict IotdbFileInfo(const iotdb::IotdbDataset& data, size_t f) {
  const iotdb::IotdbFile& file = data.layout().files[f];
  py::dict out;
  out["space"] = file.in_layout ? py::cast(file.sequence ? "sequence" : "unsequence") : py::none();
  out["database"] = file.in_layout ? py::cast(file.database) : py::none();
  out["region"] = file.in_layout ? py::cast(file.region) : py::none();
  out["partition"] = file.in_layout ? py::cast(file.partition) : py::none();
  out["version"] = file.in_layout ? py::cast(file.name.version) : py::none();
  const auto report = data.deletion_reports().find(f);
  if (report == data.deletion_reports().end()) {
    out["deletions"] = py::none();
  } else {
    py::dict deletions;
    deletions["path"] = report->second.file.path;
    deletions["format"] = report->second.file.format == iotdb::DeletionFormat::kMods2 ? "mods2" : "mods";
    deletions["entries"] = report->second.entries;
    deletions["damage"] = report->second.damage.ok() ? py::none() : py::cast(std::string(report->second.damage.message()));
    out["deletions"] = deletions;
  }
  const auto sealed = data.unsealed_files().find(f);
  if (sealed == data.unsealed_files().end()) {
    out["unsealed"] = py::none();
  } else {
    py::dict unsealed;
    unsealed["groups_read"] = sealed->second.groups;
    unsealed["bytes_read"] = sealed->second.data_end;
    unsealed["file_bytes"] = sealed->second.size;
    unsealed["stop_offset"] = sealed->second.stop_offset;
    unsealed["stop_reason"] = sealed->second.stop_reason;
    out["unsealed"] = unsealed;
  }
  return out;
}

}  // namespace

PyDataset::PyDataset(const std::vector<std::string>& inputs, bool skip_unreadable, bool raw,
                     const std::string& database, bool ignore_errors) {
  DatasetOptions options;
  options.skip_unreadable_files = skip_unreadable;
  absl::StatusOr<std::unique_ptr<Dataset>> ds;
  absl::StatusOr<std::unique_ptr<iotdb::IotdbDataset>> iotdb_data;
  {
    py::gil_scoped_release nogil;
    iotdb::IotdbOptions iotdb_options;
    iotdb_options.dataset = options;
    iotdb_options.database = database;
    iotdb_options.ignore_errors = ignore_errors;
    iotdb_data = iotdb::IotdbDataset::OpenIfIotdbData(inputs, raw, iotdb_options);
    if (iotdb_data.ok() && *iotdb_data == nullptr) ds = Dataset::Open(inputs, options);
  }
  iotdb_ = std::shared_ptr<const iotdb::IotdbDataset>(Check(std::move(iotdb_data)));
  if (iotdb_ != nullptr) {
    if (!database.empty() && !iotdb_->HoldsDatabase(database)) {
      throw py::value_error("tsread: database=" + database + ": no such database in the input");
    }
    // The files, as the IoTDB dataset holds them (it owns them: the alias keeps it alive). The
    // Dataset API is const; the scans take it by const reference.
    dataset_ = std::shared_ptr<Dataset>(iotdb_, const_cast<Dataset*>(&iotdb_->dataset()));
  } else {
    if (!database.empty() || ignore_errors) {
      throw py::value_error(raw ? "tsread: database= and ignore_errors= do not go with raw=True"
                                : "tsread: database= and ignore_errors= apply to IoTDB data only, and the input holds none");
    }
    dataset_ = std::shared_ptr<Dataset>(Check(std::move(ds)));
  }
  // A file whose metadata could not be read fails here, as opening a single file would.
  for (const DatasetFile& f : dataset_->files()) Check(WithFileName(f.status, f.path), dataset_.get());
  CheckNamesAreUtf8(*dataset_);
}

std::vector<std::pair<std::string, std::string>> PyDataset::Skipped() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const SkippedFile& f : dataset_->skipped_files()) out.emplace_back(f.path, std::string(f.status.message()));
  return out;
}

std::vector<std::string> PyDataset::DeletionWarnings() const {
  if (iotdb_ != nullptr) return iotdb_->Warnings();
  std::vector<std::string> out;
  for (const DatasetFile& f : dataset_->files()) {
    if (f.deletions.has_value()) out.push_back(DeletionWarning(f.path, *f.deletions));
  }
  return out;
}

std::vector<std::vector<std::string>> PyDataset::IotdbGroups(const std::optional<std::string>& table) const {
  std::vector<std::vector<std::string>> out;
  if (iotdb_ == nullptr) return out;
  const auto [name, database] = Check(iotdb_->TableAndDatabase(table.value_or("")), dataset_.get());
  const iotdb::IotdbLayout& layout = iotdb_->layout();
  for (const iotdb::FileGroup& group : layout.groups) {
    std::vector<std::string> paths;
    bool has_table = false;
    for (size_t f : group.files) {
      if (layout.files[f].database != database) continue;
      paths.push_back(layout.files[f].path);
      has_table = has_table || dataset_->files()[f].FindTable(name) != nullptr;
    }
    if (has_table) out.push_back(std::move(paths));
  }
  return out;
}

std::vector<std::string> PyDataset::Files() const {
  std::vector<std::string> out;
  for (const DatasetFile& f : dataset_->files()) out.push_back(f.path);
  return out;
}

std::vector<std::tuple<std::string, std::string, std::string>> PyDataset::Schema(const std::optional<std::string>& table) const {
  const std::string name = table ? *table : Check(dataset_->OnlyTable(), dataset_.get());
  TableSchema schema = Check(dataset_->ReconciledSchema(name), dataset_.get());
  std::vector<std::tuple<std::string, std::string, std::string>> out;
  for (const ColumnSchema& c : schema.columns) {
    out.emplace_back(c.name, std::string(ColumnCategoryName(c.category)), std::string(DataTypeName(c.data_type)));
  }
  return out;
}

py::list PyDataset::Devices(const std::optional<std::string>& table, InvalidUtf8 invalid_utf8) const {
  const std::string name = table ? *table : Check(dataset_->OnlyTable(), dataset_.get());
  std::vector<std::vector<std::optional<std::string>>> found;
  std::vector<size_t> file_of;  // the file each device was first seen in, for errors
  {
    py::gil_scoped_release nogil;
    std::set<std::vector<std::optional<std::string>>> seen;
    for (size_t i = 0; i < dataset_->files().size(); ++i) {
      if (dataset_->files()[i].FindTable(name) == nullptr) continue;
      std::shared_ptr<const TsFileReader> reader = CheckNoGil(dataset_->OpenFile(i));
      if (reader->metadata().FindIndex(name) == nullptr) continue;  // in the schema, without a device
      DeviceIterator it = CheckNoGil(reader->Devices(name));
      while (const DeviceEntry* entry = CheckNoGil(it.Next())) {
        const DeviceId id = entry->id.ToOwned();  // segments() refers into it: keep it alive
        const std::vector<std::optional<std::string>>& segments = id.segments();
        std::vector<std::optional<std::string>> tags(segments.begin() + std::min<size_t>(1, segments.size()),
                                                     segments.end());
        if (seen.insert(tags).second) {
          found.push_back(std::move(tags));
          file_of.push_back(i);
        }
      }
    }
  }
  py::list out;
  for (size_t k = 0; k < found.size(); ++k) {
    py::list values;
    for (const std::optional<std::string>& v : found[k]) {
      if (!v.has_value()) {
        values.append(py::none());
        continue;
      }
      if (invalid_utf8 == InvalidUtf8::kError && !IsValidUtf8(*v)) {
        RaiseCorrupt(dataset_->files()[file_of[k]].path,
                     "table \"" + name + "\": a device's TAG value is not UTF-8: " + BytesRepr(*v) +
                         " (invalid_utf8='replace' or 'bytes' reads it)");
      }
      values.append(py::reinterpret_steal<py::object>(DecodeTag(*v, "", invalid_utf8)));
    }
    out.append(py::tuple(values));
  }
  return out;
}

std::vector<std::string> PyDataset::NullableColumns(const std::optional<std::string>& table) const {
  const std::string name = table ? *table : Check(dataset_->OnlyTable(), dataset_.get());
  {
    std::lock_guard<std::mutex> lock(nullable_mutex_);
    auto it = nullable_.find(name);
    if (it != nullable_.end()) return it->second;
  }
  absl::StatusOr<std::vector<std::string>> columns;
  {
    py::gil_scoped_release nogil;
    columns = ::tsread::python::NullableColumns(*dataset_, name);
  }
  std::vector<std::string> out = Check(std::move(columns), dataset_.get());
  // IoTDB data: a deletion of some columns (DROP COLUMN) nulls values the statistics count.
  if (iotdb_ != nullptr) {
    for (size_t f = 0; f < dataset_->files().size(); ++f) {
      for (const iotdb::DeletionEntry& e : iotdb_->deletions(f).entries()) {
        if (e.model != iotdb::DeletionEntry::Model::kTable || e.table != name) continue;
        for (const std::string& c : e.columns) {
          if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
        }
      }
    }
  }
  std::lock_guard<std::mutex> lock(nullable_mutex_);
  nullable_.emplace(name, out);
  return out;
}

py::list PyDataset::Info() const {
  py::list out;
  for (size_t i = 0; i < dataset_->files().size(); ++i) {
    const DatasetFile& f = dataset_->files()[i];
    std::shared_ptr<const TsFileReader> reader = Check(dataset_->OpenFile(i), dataset_.get());
    absl::StatusOr<FileSummary> summary;
    {
      py::gil_scoped_release nogil;
      summary = SummarizeFile(*reader);
    }
    Check(WithFileName(summary.status(), f.path), dataset_.get());
    py::dict file;
    file["path"] = f.path;
    file["size"] = f.size;
    file["version"] = summary->version;
    py::list tables;
    for (const TableSummary& t : summary->tables) {
      py::dict table;
      table["name"] = t.schema->name;
      table["devices"] = t.devices;
      table["rows"] = t.rows;
      table["start_time"] = t.rows > 0 ? py::cast(t.start_time) : py::none();
      table["end_time"] = t.rows > 0 ? py::cast(t.end_time) : py::none();
      tables.append(table);
    }
    file["tables"] = tables;
    if (iotdb_ != nullptr) file["iotdb"] = IotdbFileInfo(*iotdb_, i);
    if (summary->tree) {
      py::dict tree;
      tree["devices"] = summary->tree->devices;
      tree["series"] = summary->tree->series;
      tree["points"] = summary->tree->points;
      file["tree"] = tree;
    } else {
      file["tree"] = py::none();
    }
    out.append(file);
  }
  return out;
}

}  // namespace tsread::python
