// libFuzzer target: the C ABI (tsread/tsread.h) as a C program drives it. The input is a whole
// in-memory file — or, when it starts with "F", a predicate text up to the first newline and the
// file after it. Opened with tsread_open_memory, every table listed and its columns read, then
// scanned into Arrow streams (all columns; the predicate text, a small batch size, TAG
// dictionaries and a file column; two unordered threads) and every array of every stream walked;
// then its tree-model points (every series; one measurement named by the predicate line, in
// batches of 5, names as dictionaries).
// Must return codes and messages for any input: never crash, leak or hang.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "tsread/tsread.h"

namespace {

// Reads a stream to its end, touching each batch's children, and releases it.
void Drain(ArrowArrayStream& stream) {
  ArrowSchema schema;
  if (stream.get_schema(&stream, &schema) == 0) schema.release(&schema);
  while (true) {
    ArrowArray batch;
    if (stream.get_next(&stream, &batch) != 0) {
      (void)stream.get_last_error(&stream);
      break;
    }
    if (batch.release == nullptr) break;
    int64_t seen = 0;
    for (int64_t k = 0; k < batch.n_children; ++k) seen += batch.children[k]->length - batch.children[k]->null_count;
    (void)seen;
    batch.release(&batch);
  }
  stream.release(&stream);
}

void ScanTable(const tsread_source* source, const char* table, const std::string& filter) {
  tsread_columns* columns = nullptr;
  tsread_error* error = nullptr;
  if (tsread_table_columns(source, table, &columns, &error) == TSREAD_OK) {
    for (size_t j = 0; j < tsread_column_count(columns); ++j) {
      (void)tsread_column_name(columns, j);
      (void)tsread_data_type_name(tsread_column_type(columns, j));
    }
    tsread_columns_free(columns);
  } else {
    (void)tsread_error_message(error);
    tsread_error_free(error);
  }
  for (int variant = 0; variant < 3; ++variant) {
    tsread_scan_options options;
    tsread_scan_options_init(&options);
    options.table = table;
    if (variant == 1) {
      options.filter = filter.empty() ? nullptr : filter.c_str();
      options.batch_rows = 7;
      options.tags_as_dictionary = 1;
      options.file_column = "file";
      options.time_unit = TSREAD_TIME_NANOSECOND;
    }
    if (variant == 2) {
      options.threads = 2;
      options.unordered = 1;
      options.tags_as_run_end = 1;
    }
    ArrowArrayStream stream;
    error = nullptr;
    if (tsread_scan(source, &options, &stream, &error) == TSREAD_OK) {
      Drain(stream);
    } else {
      (void)tsread_error_code(error);
      tsread_error_free(error);
    }
  }
}

void ScanTree(const tsread_source* source, const std::string& measurement) {
  for (int variant = 0; variant < 2; ++variant) {
    tsread_tree_scan_options options;
    tsread_tree_scan_options_init(&options);
    const char* measurements[] = {measurement.c_str()};
    if (variant == 1) {
      options.measurements = measurement.empty() ? nullptr : measurements;
      options.n_measurements = measurement.empty() ? 0 : 1;
      options.batch_rows = 5;
      options.names_as_dictionary = 1;
      options.start = 0;
    }
    ArrowArrayStream stream;
    tsread_error* error = nullptr;
    if (tsread_scan_tree(source, &options, &stream, &error) == TSREAD_OK) {
      Drain(stream);
    } else {
      (void)tsread_error_message(error);
      tsread_error_free(error);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  std::string filter;
  if (!bytes.empty() && bytes[0] == 'F') {
    const size_t newline = bytes.find('\n');
    if (newline == std::string_view::npos) return 0;
    filter = std::string(bytes.substr(1, newline - 1));
    bytes.remove_prefix(newline + 1);
  }
  tsread_source* source = nullptr;
  tsread_error* error = nullptr;
  if (tsread_open_memory(bytes.data(), bytes.size(), &source, &error) != TSREAD_OK) {
    (void)tsread_error_message(error);
    tsread_error_free(error);
    return 0;
  }
  for (size_t t = 0; t < tsread_table_count(source); ++t) ScanTable(source, tsread_table_name(source, t), filter);
  ScanTree(source, filter);
  tsread_source_free(source);
  return 0;
}
