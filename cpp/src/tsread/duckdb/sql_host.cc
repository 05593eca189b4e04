// tsread_sql: runs SQL statements in an in-memory DuckDB (the shared libduckdb.so) with the tsread
// extension loaded, and prints each result as an aligned table or (--csv) as CSV.
//
//   tsread_sql [--csv] [--timer] [--threads N] [--extension PATH] "SQL" ["SQL"...]
//
// --timer prints each statement's wall time on stderr ("Run Time: 0.123456 s"), measured around
// duckdb_query in this process (what tools/bench_duckdb.sh compares).
//
// Exit status: 0 when every statement succeeded, 1 on an SQL error (printed on stderr), 2 on
// bad usage.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "duckdb.h"

namespace {

std::string CsvQuote(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

size_t DisplayWidth(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// Whether duckdb_value_varchar renders cells of `type` as DuckDB prints them.
// The C API's cell reader gives blanks for the timestamp variants, UUID, BIT, TIME WITH TIME ZONE
// and VARINT, nothing for the nested types and ENUM, and crashes on some (SELECT uuid()): those
// results are printed by DuckDB's own casts to VARCHAR instead.
bool TypePrintsDirectly(duckdb_type type) {
  switch (type) {
    case DUCKDB_TYPE_BOOLEAN:
    case DUCKDB_TYPE_TINYINT:
    case DUCKDB_TYPE_SMALLINT:
    case DUCKDB_TYPE_INTEGER:
    case DUCKDB_TYPE_BIGINT:
    case DUCKDB_TYPE_UTINYINT:
    case DUCKDB_TYPE_USMALLINT:
    case DUCKDB_TYPE_UINTEGER:
    case DUCKDB_TYPE_UBIGINT:
    case DUCKDB_TYPE_FLOAT:
    case DUCKDB_TYPE_DOUBLE:
    case DUCKDB_TYPE_VARCHAR:
      return true;
    default:
      return false;
  }
}

bool CellsPrintDirectly(duckdb_result* result) {
  for (idx_t c = 0; c < duckdb_column_count(result); ++c) {
    if (!TypePrintsDirectly(duckdb_column_type(result, c))) return false;
  }
  return true;
}

void Print(duckdb_result* result, bool csv) {
  idx_t cols = duckdb_column_count(result);
  idx_t rows = duckdb_row_count(result);
  std::vector<std::vector<std::string>> cells(rows + 1, std::vector<std::string>(cols));
  for (idx_t c = 0; c < cols; ++c) cells[0][c] = duckdb_column_name(result, c);
  for (idx_t r = 0; r < rows; ++r) {
    for (idx_t c = 0; c < cols; ++c) {
      if (duckdb_value_is_null(result, c, r)) {
        cells[r + 1][c] = csv ? "" : "NULL";
        continue;
      }
      if (!TypePrintsDirectly(duckdb_column_type(result, c))) {
        cells[r + 1][c] = "(not printable here)";  // only when DuckDB could not cast it either
        continue;
      }
      char* v = duckdb_value_varchar(result, c, r);
      cells[r + 1][c] = v ? v : "";
      duckdb_free(v);
    }
  }
  if (csv) {
    for (const auto& row : cells) {
      for (idx_t c = 0; c < cols; ++c) {
        if (c) std::fputc(',', stdout);
        std::fputs(CsvQuote(row[c]).c_str(), stdout);
      }
      std::fputc('\n', stdout);
    }
    return;
  }
  std::vector<size_t> width(cols, 0);
  for (const auto& row : cells) {
    for (idx_t c = 0; c < cols; ++c) width[c] = std::max(width[c], DisplayWidth(row[c]));
  }
  for (size_t i = 0; i < cells.size(); ++i) {
    for (idx_t c = 0; c < cols; ++c) {
      std::fputs(c ? " | " : "", stdout);
      std::fputs(cells[i][c].c_str(), stdout);
      if (c + 1 < cols) {
        for (size_t k = DisplayWidth(cells[i][c]); k < width[c]; ++k) std::fputc(' ', stdout);
      }
    }
    std::fputc('\n', stdout);
    if (i == 0) {
      for (idx_t c = 0; c < cols; ++c) {
        std::fputs(c ? "-+-" : "", stdout);
        for (size_t k = 0; k < width[c]; ++k) std::fputc('-', stdout);
      }
      std::fputc('\n', stdout);
    }
  }
  std::printf("(%llu row%s)\n", static_cast<unsigned long long>(rows), rows == 1 ? "" : "s");
}

}  // namespace

int main(int argc, char** argv) {
  bool csv = false;
  bool timer = false;
  std::string threads;
  std::string extension = TSREAD_EXTENSION_PATH;
  std::vector<std::string> statements;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--csv") {
      csv = true;
    } else if (arg == "--timer") {
      timer = true;
    } else if (arg == "--threads" && i + 1 < argc) {
      threads = argv[++i];
    } else if (arg == "--extension" && i + 1 < argc) {
      extension = argv[++i];
    } else if (arg == "-h" || arg == "--help") {
      std::puts("usage: tsread_sql [--csv] [--timer] [--threads N] [--extension PATH] \"SQL\" [\"SQL\"...]");
      return 0;
    } else {
      statements.push_back(arg);
    }
  }
  if (statements.empty()) {
    std::fputs("usage: tsread_sql [--csv] [--timer] [--threads N] [--extension PATH] \"SQL\" [\"SQL\"...]\n", stderr);
    return 2;
  }
  duckdb_config config;
  duckdb_create_config(&config);
  duckdb_set_config(config, "allow_unsigned_extensions", "true");
  if (!threads.empty()) duckdb_set_config(config, "threads", threads.c_str());
  duckdb_database db;
  char* error = nullptr;
  if (duckdb_open_ext(nullptr, &db, config, &error) == DuckDBError) {
    std::fprintf(stderr, "tsread_sql: cannot open DuckDB: %s\n", error ? error : "?");
    duckdb_free(error);
    return 1;
  }
  duckdb_destroy_config(&config);
  duckdb_connection con;
  duckdb_connect(db, &con);
  int status = 0;
  std::string load = "LOAD '" + extension + "'";
  duckdb_result result;
  bool load_ok = true;
  if (duckdb_query(con, load.c_str(), &result) == DuckDBError) {
    std::fprintf(stderr, "tsread_sql: %s\n", duckdb_result_error(&result));
    status = 1;
    load_ok = false;
  }
  duckdb_destroy_result(&result);
  // Every statement runs and reports, also after one fails (the exit status says whether any did).
  for (size_t i = 0; load_ok && i < statements.size(); ++i) {
    const auto start = std::chrono::steady_clock::now();
    const duckdb_state state = duckdb_query(con, statements[i].c_str(), &result);
    if (timer) {
      const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
      std::fprintf(stderr, "Run Time: %.6f s\n", took.count());
    }
    if (state == DuckDBError) {
      std::fprintf(stderr, "Error: %s\n", duckdb_result_error(&result));
      status = 1;
    } else if (!CellsPrintDirectly(&result)) {
      // DuckDB casts the cells to text when the statement runs again as a subquery (its own
      // rendering of every type, TIMESTAMPTZ in the session's TimeZone). A statement that cannot be
      // a subquery (a PRAGMA, a SET) prints as it is: such results hold plain types.
      duckdb_result text;
      const std::string as_text = "SELECT COLUMNS(*)::VARCHAR FROM (" + statements[i] + ")";
      if (duckdb_query(con, as_text.c_str(), &text) == DuckDBSuccess) {
        Print(&text, csv);
      } else {
        Print(&result, csv);
      }
      duckdb_destroy_result(&text);
    } else {
      Print(&result, csv);
    }
    duckdb_destroy_result(&result);
  }
  duckdb_disconnect(&con);
  duckdb_close(&db);
  return status;
}
