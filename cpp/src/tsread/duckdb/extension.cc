// The tsread DuckDB extension's entry point: registers read_tsfile, read_tsfile_tree,
// tsfile_metadata and tsfile_devices, and the `FROM 'x.tsfile'` replacement scan. Built on DuckDB's
// stable C extension API (C_STRUCT ABI, minimum C API v1.2.0; the footer is appended by
// tools/duckdb_footer.sh). A front end over tsread's public read API: nothing here parses TsFile
// bytes. Every callback DuckDB makes into the extension catches everything (function_support.h).
#include <string>
#include <string_view>

#include "tsread/duckdb/duckdb_api.h"
#include "tsread/duckdb/metadata_functions.h"
#include "tsread/duckdb/tsfile_aggregate.h"
#include "tsread/duckdb/tsfile_last.h"
#include "tsread/duckdb/tsfile_tree_aggregates.h"
#include "tsread/duckdb/read_tsfile.h"
#include "tsread/duckdb/read_tsfile_tree.h"

namespace {

bool EndsWithTsfile(std::string_view name) {
  constexpr std::string_view kExt = ".tsfile";
  if (name.size() < kExt.size()) return false;
  for (size_t i = 0; i < kExt.size(); ++i) {
    char c = name[name.size() - kExt.size() + i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != kExt[i]) return false;
  }
  return true;
}

void ReplacementScan(duckdb_replacement_scan_info info, const char* table_name, void*) {
  try {
    if (!table_name || !EndsWithTsfile(table_name)) return;
    duckdb_replacement_scan_set_function_name(info, "read_tsfile");
    duckdb_value path = duckdb_create_varchar(table_name);
    duckdb_replacement_scan_add_parameter(info, path);
    duckdb_destroy_value(&path);
  } catch (...) {
    duckdb_replacement_scan_set_error(info, "read_tsfile: replacement scan failed");
  }
}

// Registers every function; the name of the first DuckDB refused, or nullptr.
const char* RegisterFunctions(duckdb_connection connection) {
  using namespace tsread::duckdb_ext;
  if (!RegisterReadTsfile(connection)) return "read_tsfile";
  if (!RegisterReadTsfileTree(connection)) return "read_tsfile_tree";
  if (!RegisterTsfileMetadata(connection)) return "tsfile_metadata";
  if (!RegisterTsfileDevices(connection)) return "tsfile_devices";
  if (!RegisterTsfileLast(connection)) return "tsfile_last";
  if (!RegisterTsfileAggregate(connection)) return "tsfile_aggregate";
  if (!RegisterTsfileAggregateTree(connection)) return "tsfile_aggregate_tree";
  if (!RegisterTsfileLastTree(connection)) return "tsfile_last_tree";
  return nullptr;
}

}  // namespace

DUCKDB_EXTENSION_ENTRYPOINT_CUSTOM(duckdb_extension_info info, struct duckdb_extension_access* access) {
  try {
    duckdb_database* db = access->get_database(info);
    duckdb_connection connection;
    if (duckdb_connect(*db, &connection) == DuckDBError) {
      access->set_error(info, "tsread: failed to open a connection");
      return false;
    }
    const char* refused = RegisterFunctions(connection);
    duckdb_disconnect(&connection);
    if (refused != nullptr) {
      access->set_error(info, (std::string("tsread: failed to register ") + refused).c_str());
      return false;
    }
    duckdb_add_replacement_scan(*db, ReplacementScan, nullptr, nullptr);
    return true;
  } catch (...) {
    access->set_error(info, "tsread: initialization failed");
    return false;
  }
}
