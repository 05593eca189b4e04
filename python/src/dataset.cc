// PyDataset (dataset.h): opening a dataset and its metadata queries.
#include "dataset.h"

#include <algorithm>
#include <cstddef>
#include <set>

#include "tsread/aggregate/file_summary.h"
#include "tsread/read/tsfile_reader.h"

namespace py = pybind11;

namespace tsread::python {

PyDataset::PyDataset(const std::vector<std::string>& inputs, bool skip_unreadable) {
  DatasetOptions options;
  options.skip_unreadable_files = skip_unreadable;
  absl::StatusOr<std::unique_ptr<Dataset>> ds;
  {
    py::gil_scoped_release nogil;
    ds = Dataset::Open(inputs, options);
  }
  dataset_ = std::shared_ptr<Dataset>(Check(std::move(ds)));
  // A file whose metadata could not be read fails here, as opening a single file would.
  for (const DatasetFile& f : dataset_->files()) Check(WithFileName(f.status, f.path), dataset_.get());
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

std::vector<std::vector<std::optional<std::string>>> PyDataset::Devices(const std::optional<std::string>& table) const {
  const std::string name = table ? *table : Check(dataset_->OnlyTable(), dataset_.get());
  std::vector<std::vector<std::optional<std::string>>> out;
  std::set<std::vector<std::optional<std::string>>> seen;
  py::gil_scoped_release nogil;
  for (size_t i = 0; i < dataset_->files().size(); ++i) {
    if (dataset_->files()[i].FindTable(name) == nullptr) continue;
    std::shared_ptr<const TsFileReader> reader = CheckNoGil(dataset_->OpenFile(i));
    DeviceIterator it = CheckNoGil(reader->Devices(name));
    while (const DeviceEntry* entry = CheckNoGil(it.Next())) {
      const DeviceId id = entry->id.ToOwned();  // segments() refers into it: keep it alive
      const std::vector<std::optional<std::string>>& segments = id.segments();
      std::vector<std::optional<std::string>> tags(segments.begin() + std::min<size_t>(1, segments.size()), segments.end());
      if (seen.insert(tags).second) out.push_back(std::move(tags));
    }
  }
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
