/* arrow_to_duckdb: a plain C program that reads a TsFile table (or the tree model's points)
 * through tsread's C ABI (tsread/tsread.h, -ltsread_c) into DuckDB as an Arrow C stream
 * (duckdb_arrow_scan), then checks DuckDB's rows against a reference CSV in the fixtures' format
 * (../shared/fixtures/README.md).
 *
 *   arrow_to_duckdb [--any-order] TABLE CSV INPUT...
 *   arrow_to_duckdb --tree CSV INPUT...
 *
 * Prints "TABLE: N rows, as the reference CSV" and exits 0, or prints what differs and exits 1
 * (2 for an error). --any-order compares the rows as a multiset (IoTDB data merges file groups in
 * another order than the CSV lists them); otherwise the order must be the CSV's too. --tree reads
 * tsread_scan_tree's points (device, measurement, time, a value_<type> column per type) and checks
 * each against the CSV's point at the same device, measurement and time, typed by its column.
 *
 * Build: cc -std=c99 arrow_to_duckdb.c $(pkg-config --cflags --libs tsread_c) -lduckdb */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tsread/tsread.h>
#include <duckdb.h>

/* A growing SQL text. */
typedef struct {
  char* text;
  size_t size, capacity;
} Sql;

static void Append(Sql* sql, const char* format, ...) {
  va_list args;
  va_start(args, format);
  int n = vsnprintf(NULL, 0, format, args);
  va_end(args);
  if (sql->size + (size_t)n + 1 > sql->capacity) {
    sql->capacity = 2 * (sql->size + (size_t)n + 1);
    sql->text = realloc(sql->text, sql->capacity);
    if (sql->text == NULL) abort();
  }
  va_start(args, format);
  vsnprintf(sql->text + sql->size, (size_t)n + 1, format, args);
  va_end(args);
  sql->size += (size_t)n;
}

/* `name` as a quoted SQL identifier. */
static void AppendIdentifier(Sql* sql, const char* name) {
  Append(sql, "\"");
  for (const char* c = name; *c != '\0'; ++c) Append(sql, *c == '"' ? "\"\"" : "%c", *c);
  Append(sql, "\"");
}

/* One column of the comparison, as tsread's rows (got) or the CSV's text (want) spells it: the
 * CSV's text cast to the column's type, or tsread's value in the CSV's notation (BLOB as 0x-hex,
 * DATE as the stored yyyyMMdd integer). FLOAT is compared as FLOAT: the CSV text parses back to
 * the exact stored value. */
static void AppendColumn(Sql* sql, const char* name, tsread_column_category category, tsread_data_type type, int got) {
  const char* cast = NULL;
  if (category == TSREAD_FIELD) {
    switch (type) {
      case TSREAD_BOOLEAN: cast = "BOOLEAN"; break;
      case TSREAD_INT32: cast = "INTEGER"; break;
      case TSREAD_INT64:
      case TSREAD_TIMESTAMP: cast = "BIGINT"; break;
      case TSREAD_FLOAT: cast = "FLOAT"; break;
      case TSREAD_DOUBLE: cast = "DOUBLE"; break;
      case TSREAD_DATE: cast = "INTEGER"; break;
      default: break; /* TEXT, STRING, BLOB: text on both sides */
    }
  }
  if (got && category == TSREAD_FIELD && type == TSREAD_BLOB) {
    Append(sql, "'0x' || lower(hex(");
    AppendIdentifier(sql, name);
    Append(sql, "))");
  } else if (got && category == TSREAD_FIELD && type == TSREAD_DATE) {
    Append(sql, "(year(");
    AppendIdentifier(sql, name);
    Append(sql, ") * 10000 + month(");
    AppendIdentifier(sql, name);
    Append(sql, ") * 100 + day(");
    AppendIdentifier(sql, name);
    Append(sql, "))::INTEGER");
  } else if (!got && cast != NULL) {
    Append(sql, "CAST(");
    AppendIdentifier(sql, name);
    Append(sql, " AS %s)", cast);
  } else {
    AppendIdentifier(sql, name);
  }
}

/* The condition that a point (g) holds the CSV's value (w.value) in its value column `name` of
 * Arrow format `format` (tsread.h: the Arrow types of tsread's columns). */
static void AppendPointMatches(Sql* sql, const char* name, const char* format) {
  Append(sql, "(g.");
  AppendIdentifier(sql, name);
  Append(sql, " IS NOT NULL AND ");
  if (strcmp(format, "z") == 0) {
    Append(sql, "'0x' || lower(hex(g.");
    AppendIdentifier(sql, name);
    Append(sql, ")) = w.value)");
    return;
  }
  if (strcmp(format, "tdD") == 0) { /* the CSV's DATE: the stored yyyyMMdd integer */
    Append(sql, "year(g.");
    AppendIdentifier(sql, name);
    Append(sql, ") * 10000 + month(g.");
    AppendIdentifier(sql, name);
    Append(sql, ") * 100 + day(g.");
    AppendIdentifier(sql, name);
    Append(sql, ") = CAST(w.value AS INTEGER))");
    return;
  }
  const char* cast = "VARCHAR"; /* "u": TEXT, STRING */
  if (strcmp(format, "b") == 0) cast = "BOOLEAN";
  if (strcmp(format, "i") == 0) cast = "INTEGER";
  if (strcmp(format, "l") == 0) cast = "BIGINT"; /* INT64, and TIMESTAMP as int64 */
  if (strcmp(format, "f") == 0) cast = "FLOAT";
  if (strcmp(format, "g") == 0) cast = "DOUBLE";
  Append(sql, "g.");
  AppendIdentifier(sql, name);
  Append(sql, " = CAST(w.value AS %s))", cast);
}

static int Fail(const char* what, const char* message) {
  fprintf(stderr, "arrow_to_duckdb: %s: %s\n", what, message);
  return 2;
}

static int Run(duckdb_connection db, const char* sql, duckdb_result* result) {
  duckdb_result local;
  duckdb_result* r = result != NULL ? result : &local;
  if (duckdb_query(db, sql, r) != DuckDBSuccess) {
    fprintf(stderr, "arrow_to_duckdb: DuckDB: %s\n  in: %.300s\n", duckdb_result_error(r), sql);
    duckdb_destroy_result(r);
    return 0;
  }
  if (result == NULL) duckdb_destroy_result(r);
  return 1;
}

static int64_t Count(duckdb_connection db, const char* sql) {
  duckdb_result result;
  if (!Run(db, sql, &result)) return -1;
  int64_t n = duckdb_value_int64(&result, 0, 0);
  duckdb_destroy_result(&result);
  return n;
}

static int64_t Count(duckdb_connection db, const char* sql);

/* Loads `stream` into DuckDB's table "got" (in the stream's order) and `csv` into "want" (text). */
static int Load(duckdb_connection db, struct ArrowArrayStream* stream, const char* csv) {
  if (!Run(db, "SET threads = 1", NULL)) return 0;
  if (duckdb_arrow_scan(db, "scanned", (duckdb_arrow_stream)stream) != DuckDBSuccess) {
    fprintf(stderr, "arrow_to_duckdb: duckdb_arrow_scan: the stream was refused\n");
    return 0;
  }
  int ok = Run(db, "CREATE TABLE got AS SELECT * FROM scanned", NULL);
  stream->release(stream);
  if (!ok) return 0;
  Sql sql = {0};
  Append(&sql, "CREATE TABLE want AS SELECT * FROM read_csv('");
  for (const char* c = csv; *c != '\0'; ++c) Append(&sql, *c == '\'' ? "''" : "%c", *c);
  Append(&sql, "', header = true, all_varchar = true, allow_quoted_nulls = false, delim = ',', quote = '\"', "
               "escape = '\"')");
  ok = Run(db, sql.text, NULL);
  free(sql.text);
  return ok;
}

/* --tree: every point of the stream is the CSV's point at its device, measurement and time. */
static int CheckTree(duckdb_connection db, struct ArrowArrayStream* stream, const char* csv) {
  struct ArrowSchema schema;
  if (stream->get_schema(stream, &schema) != 0) return Fail("get_schema", stream->get_last_error(stream));
  Sql matches = {0};
  Append(&matches, "SELECT count(*) FROM got g JOIN want w ON g.device = w.device AND g.measurement = w.measurement "
                   "AND g.\"time\" = CAST(w.\"time\" AS BIGINT) WHERE false");
  for (int64_t k = 3; k < schema.n_children; ++k) { /* after time, device, measurement */
    Append(&matches, " OR ");
    AppendPointMatches(&matches, schema.children[k]->name, schema.children[k]->format);
  }
  schema.release(&schema);
  if (!Load(db, stream, csv)) return 2;
  const int64_t got_rows = Count(db, "SELECT count(*) FROM got");
  const int64_t want_rows = Count(db, "SELECT count(*) FROM want");
  const int64_t matched = Count(db, matches.text);
  free(matches.text);
  if (got_rows < 0 || want_rows < 0 || matched < 0) return 2;
  if (got_rows != want_rows || matched != got_rows) {
    printf("tree: %lld points, the reference CSV %lld: %lld of them as in it\n", (long long)got_rows,
           (long long)want_rows, (long long)matched);
    return 1;
  }
  printf("tree: %lld points, as the reference CSV\n", (long long)got_rows);
  return 0;
}

static int MainTree(int argc, char** argv) {
  tsread_source* source = NULL;
  tsread_error* error = NULL;
  if (tsread_open((const char* const*)(argv + 3), (size_t)(argc - 3), NULL, &source, &error) != TSREAD_OK) {
    return Fail("tsread_open", tsread_error_message(error));
  }
  for (size_t i = 0; i < tsread_warning_count(source); ++i) fprintf(stderr, "warning: %s\n", tsread_warning(source, i));
  tsread_tree_scan_options options;
  tsread_tree_scan_options_init(&options);
  options.time_unit = TSREAD_TIME_INT64; /* the CSV's times are the stored integers */
  struct ArrowArrayStream stream;
  if (tsread_scan_tree(source, &options, &stream, &error) != TSREAD_OK) {
    return Fail("tsread_scan_tree", tsread_error_message(error));
  }
  tsread_source_free(source); /* the stream keeps the files open */
  duckdb_database database;
  duckdb_connection db;
  if (duckdb_open(NULL, &database) != DuckDBSuccess || duckdb_connect(database, &db) != DuckDBSuccess) {
    return Fail("duckdb", "cannot open an in-memory database");
  }
  const int status = CheckTree(db, &stream, argv[2]);
  duckdb_disconnect(&db);
  duckdb_close(&database);
  return status;
}

int main(int argc, char** argv) {
  if (argc >= 4 && strcmp(argv[1], "--tree") == 0) return MainTree(argc, argv);
  int any_order = argc > 1 && strcmp(argv[1], "--any-order") == 0;
  if (argc < 4 + any_order) {
    fprintf(stderr, "usage: arrow_to_duckdb [--any-order] TABLE CSV INPUT...\n       arrow_to_duckdb --tree CSV INPUT...\n");
    return 2;
  }
  const char* table = argv[1 + any_order];
  const char* csv = argv[2 + any_order];

  /* tsread: open the inputs, list the table's columns, scan it into a stream. */
  tsread_source* source = NULL;
  tsread_error* error = NULL;
  if (tsread_open((const char* const*)(argv + 3 + any_order), (size_t)(argc - 3 - any_order), NULL, &source, &error) != TSREAD_OK) {
    return Fail("tsread_open", tsread_error_message(error));
  }
  /* What is not an error but changes what is read (files skipped, deletion files not applied...). */
  for (size_t i = 0; i < tsread_warning_count(source); ++i) fprintf(stderr, "warning: %s\n", tsread_warning(source, i));
  tsread_columns* columns = NULL;
  if (tsread_table_columns(source, table, &columns, &error) != TSREAD_OK) return Fail("tsread_table_columns", tsread_error_message(error));
  tsread_scan_options options;
  tsread_scan_options_init(&options);
  options.table = table;
  options.time_unit = TSREAD_TIME_INT64; /* the CSV's times are the stored integers */
  struct ArrowArrayStream stream;
  if (tsread_scan(source, &options, &stream, &error) != TSREAD_OK) return Fail("tsread_scan", tsread_error_message(error));
  tsread_source_free(source); /* the stream keeps the files open */

  /* DuckDB: the stream as a view, its rows into a table in the stream's order. */
  duckdb_database database;
  duckdb_connection db;
  if (duckdb_open(NULL, &database) != DuckDBSuccess || duckdb_connect(database, &db) != DuckDBSuccess) {
    return Fail("duckdb", "cannot open an in-memory database");
  }
  if (!Load(db, &stream, csv)) return 2;
  Sql sql = {0};

  /* The rows of each side in one notation; with the row number unless --any-order. */
  Sql side[2] = {{0}, {0}};
  for (int got = 0; got < 2; ++got) {
    Append(&side[got], "SELECT %s", any_order ? "" : "rowid, ");
    Append(&side[got], got ? "\"time\"" : "CAST(\"time\" AS BIGINT)");
    for (size_t j = 0; j < tsread_column_count(columns); ++j) {
      Append(&side[got], ", ");
      AppendColumn(&side[got], tsread_column_name(columns, j), tsread_column_category_of(columns, j),
                   tsread_column_type(columns, j), got);
    }
    Append(&side[got], " FROM %s", got ? "got" : "want");
  }
  const int64_t got_rows = Count(db, "SELECT count(*) FROM got");
  const int64_t want_rows = Count(db, "SELECT count(*) FROM want");
  sql.size = 0;
  Append(&sql, "SELECT count(*) FROM (%s EXCEPT ALL %s)", side[1].text, side[0].text);
  const int64_t extra = Count(db, sql.text);
  sql.size = 0;
  Append(&sql, "SELECT count(*) FROM (%s EXCEPT ALL %s)", side[0].text, side[1].text);
  const int64_t missing = Count(db, sql.text);
  int status = 0;
  if (got_rows < 0 || want_rows < 0 || extra < 0 || missing < 0) {
    status = 2;
  } else if (got_rows != want_rows || extra != 0 || missing != 0) {
    printf("%s: %lld rows, the reference CSV %lld: %lld rows not in it, %lld of it missing\n", table,
           (long long)got_rows, (long long)want_rows, (long long)extra, (long long)missing);
    sql.size = 0;
    Append(&sql, "SELECT * FROM (%s EXCEPT ALL %s) LIMIT 3", side[1].text, side[0].text);
    duckdb_result result;
    if (Run(db, sql.text, &result)) {
      for (idx_t r = 0; r < duckdb_row_count(&result); ++r) {
        printf("  not in the CSV:");
        for (idx_t c = 0; c < duckdb_column_count(&result); ++c) {
          char* value = duckdb_value_varchar(&result, c, r);
          printf(" %s", value == NULL ? "NULL" : value);
          duckdb_free(value);
        }
        printf("\n");
      }
      duckdb_destroy_result(&result);
    }
    status = 1;
  } else {
    printf("%s: %lld rows, as the reference CSV\n", table, (long long)got_rows);
  }
  free(sql.text);
  free(side[0].text);
  free(side[1].text);
  tsread_columns_free(columns);
  duckdb_disconnect(&db);
  duckdb_close(&database);
  return status;
}
