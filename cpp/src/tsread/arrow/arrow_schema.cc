// The Arrow schema of an exported scan: column formats, and building and releasing the schema
// (arrow_schema.h).
#include "tsread/arrow/arrow_schema.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

namespace tsread {
namespace arrow_internal {
namespace {

// ---------------------------------------------------------------------------------------------
// Types

std::string TimeFormat(const ArrowExportOptions& options) {
  if (!options.time_unit.has_value()) return "l";
  switch (*options.time_unit) {
    case ArrowTimeUnit::kSecond: return "tss:";
    case ArrowTimeUnit::kMillisecond: return "tsm:";
    case ArrowTimeUnit::kMicrosecond: return "tsu:";
    case ArrowTimeUnit::kNanosecond: return "tsn:";
  }
  return "l";
}

std::string ColumnFormat(const ProjectedColumn& column, const ArrowExportOptions& options) {
  if (UsesDictionary(column, options)) return "i";  // the index type; the values are the dictionary's
  if (UsesRunEnd(column, options)) return "+r";     // children: run ends (int32) and values (utf8)
  if (column.category != ColumnCategory::kField) return "u";
  switch (column.data_type) {
    case DataType::kBoolean: return "b";
    case DataType::kInt32: return "i";
    case DataType::kInt64: return "l";
    case DataType::kFloat: return "f";
    case DataType::kDouble: return "g";
    case DataType::kText:
    case DataType::kString: return "u";
    case DataType::kBlob: return "z";
    case DataType::kDate: return "tdD";
    case DataType::kTimestamp: return TimeFormat(options);
    default: return "l";
  }
}

// ---------------------------------------------------------------------------------------------
// Schema: a struct ("+s") with one child per output column. Each ArrowSchema owns a
// SchemaPrivate through private_data; release frees children first (C Data Interface rules).

struct SchemaPrivate {
  std::string format;
  std::string name;
  std::vector<ArrowSchema> children;
  std::vector<ArrowSchema*> child_pointers;
  std::unique_ptr<ArrowSchema> dictionary;
};

void ReleaseSchema(ArrowSchema* schema) {
  if (schema == nullptr || schema->release == nullptr) return;
  std::unique_ptr<SchemaPrivate> owned(static_cast<SchemaPrivate*>(schema->private_data));
  for (ArrowSchema& child : owned->children) {
    if (child.release != nullptr) child.release(&child);
  }
  if (owned->dictionary != nullptr && owned->dictionary->release != nullptr) {
    owned->dictionary->release(owned->dictionary.get());
  }
  schema->release = nullptr;
}

void FillSchema(ArrowSchema* out, std::string format, std::string name, int64_t flags) {
  auto priv = std::make_unique<SchemaPrivate>();
  priv->format = std::move(format);
  priv->name = std::move(name);
  *out = ArrowSchema{};
  out->format = priv->format.c_str();
  out->name = priv->name.c_str();
  out->metadata = nullptr;
  out->flags = flags;
  out->n_children = 0;
  out->children = nullptr;
  out->dictionary = nullptr;
  out->release = ReleaseSchema;
  out->private_data = priv.release();
}

}  // namespace

void BuildSchema(const std::vector<ProjectedColumn>& projection, const ArrowExportOptions& options, ArrowSchema* out) {
  FillSchema(out, "+s", "", 0);
  auto* priv = static_cast<SchemaPrivate*>(out->private_data);
  priv->children.resize(projection.size() + 1 + (options.file_column.empty() ? 0 : 1));
  FillSchema(&priv->children[0], TimeFormat(options), "time", 0);
  if (!options.file_column.empty()) FillSchema(&priv->children.back(), "u", options.file_column, 0);
  for (size_t j = 0; j < projection.size(); ++j) {
    ArrowSchema* child = &priv->children[j + 1];
    FillSchema(child, ColumnFormat(projection[j], options), projection[j].name, ARROW_FLAG_NULLABLE);
    if (UsesDictionary(projection[j], options)) {
      auto* child_priv = static_cast<SchemaPrivate*>(child->private_data);
      child_priv->dictionary = std::make_unique<ArrowSchema>();
      FillSchema(child_priv->dictionary.get(), "u", "", 0);
      child->dictionary = child_priv->dictionary.get();
    }
    if (UsesRunEnd(projection[j], options)) {
      auto* child_priv = static_cast<SchemaPrivate*>(child->private_data);
      child_priv->children.resize(2);
      FillSchema(&child_priv->children[0], "i", "run_ends", 0);
      FillSchema(&child_priv->children[1], "u", "values", ARROW_FLAG_NULLABLE);
      for (ArrowSchema& c : child_priv->children) child_priv->child_pointers.push_back(&c);
      child->n_children = 2;
      child->children = child_priv->child_pointers.data();
    }
  }
  for (ArrowSchema& child : priv->children) priv->child_pointers.push_back(&child);
  out->n_children = static_cast<int64_t>(priv->children.size());
  out->children = priv->child_pointers.data();
}

}  // namespace arrow_internal
}  // namespace tsread
