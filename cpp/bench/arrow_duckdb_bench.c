/* arrow_duckdb_bench: the DuckDB benchmark's aggregate (tools/bench_duckdb.sh, "Q1") over the
 * benchmark file in one DuckDB process, through the C ABI's Arrow stream handed to DuckDB with
 * duckdb_arrow_scan and through the extension's read_tsfile, with 1 then 2 DuckDB threads; and
 * the same aggregate without its two TAG terms (sum(hash(region)), sum(hash(device))) and columns,
 * which separates what DuckDB does with the tags (read_tsfile hands them over as constant vectors,
 * an Arrow stream cannot) from the rest. REPS runs of each, interleaved; medians in milliseconds.
 *
 *   arrow_duckdb_bench EXTENSION TSFILE [REPS]
 *
 * Built when DuckDB's library is in the npm cache (cmake/DuckdbExtension.cmake); C, as an engine
 * embedding DuckDB and tsread through their C APIs would be. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "duckdb.h"
#include "tsread/tsread.h"

static const char* kAggregates[2] = {
    "count(*), sum(hash(region)), sum(hash(device)), sum(epoch_ms(time)), sum(s_int64), sum(s_double), "
    "sum(s_float), sum(s_int32), count_if(s_bool)",
    "count(*), sum(epoch_ms(time)), sum(s_int64), sum(s_double), sum(s_float), sum(s_int32), count_if(s_bool)"};
static const char* kAggregateNames[2] = {"Q1", "Q1 without the TAG terms"};

/* The sources compared: tsread's stream (TAGs as utf8 or dictionaries; its own decoding threads)
 * and read_tsfile. */
enum { kArrowUtf8, kArrowUtf8OneProducer, kArrowDictionary, kReadTsfile, kSources };
static const char* kSourceNames[kSources] = {"tsread_scan -> duckdb_arrow_scan", "  the same, 1 decoding thread",
                                             "  the same, tags_as_dictionary", "read_tsfile (extension)"};

static double Now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int Query(duckdb_connection con, const char* sql) {
  duckdb_result result;
  int ok = duckdb_query(con, sql, &result) == DuckDBSuccess;
  if (!ok) fprintf(stderr, "arrow_duckdb_bench: %s\n  in: %s\n", duckdb_result_error(&result), sql);
  duckdb_destroy_result(&result);
  return ok;
}

static int CompareDoubles(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static double Median(double* v, int n) {
  qsort(v, (size_t)n, sizeof(double), CompareDoubles);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One run of `aggregate` over `source` with DuckDB's `threads`: the seconds it took. */
static double Run(duckdb_connection con, tsread_source* tsread, const char* tsfile, int source, const char* aggregate,
                  int threads) {
  char sql[1024];
  if (source == kReadTsfile) {
    snprintf(sql, sizeof sql, "SELECT %s FROM read_tsfile('%s')", aggregate, tsfile);
    double start = Now();
    if (!Query(con, sql)) exit(1);
    return Now() - start;
  }
  tsread_scan_options options;
  tsread_scan_options_init(&options);
  options.threads = source == kArrowUtf8OneProducer ? 1 : threads;
  options.unordered = 1; /* an aggregate needs no order */
  /* The columns the query uses, as an engine pushes its projection down: DuckDB's arrow scan of a
   * plain stream assumes it was projected, and reads a wider stream's children by the wrong index
   * (it crashes on this query otherwise). */
  static const char* kFields[] = {"s_int64", "s_double", "s_float", "s_int32", "s_bool"};
  if (aggregate == kAggregates[1]) {
    options.columns = kFields;
    options.n_columns = 5;
  }
  options.tags_as_dictionary = source == kArrowDictionary;
  struct ArrowArrayStream stream;
  tsread_error* error = NULL;
  double start = Now();
  if (tsread_scan(tsread, &options, &stream, &error) != TSREAD_OK) {
    fprintf(stderr, "arrow_duckdb_bench: %s\n", tsread_error_message(error));
    exit(1);
  }
  if (duckdb_arrow_scan(con, "tsread_stream", (duckdb_arrow_stream)&stream) != DuckDBSuccess) exit(1);
  snprintf(sql, sizeof sql, "SELECT %s FROM tsread_stream", aggregate);
  if (!Query(con, sql)) exit(1);
  double seconds = Now() - start;
  stream.release(&stream);
  return seconds;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: arrow_duckdb_bench EXTENSION TSFILE [REPS]\n");
    return 2;
  }
  const char* extension = argv[1];
  const char* tsfile = argv[2];
  int reps = argc > 3 ? atoi(argv[3]) : 7;
  if (reps < 1 || reps > 100) reps = 7;

  duckdb_config config;
  duckdb_create_config(&config);
  duckdb_set_config(config, "allow_unsigned_extensions", "true");
  duckdb_database db;
  char* open_error = NULL;
  if (duckdb_open_ext(NULL, &db, config, &open_error) != DuckDBSuccess) {
    fprintf(stderr, "arrow_duckdb_bench: %s\n", open_error ? open_error : "cannot open DuckDB");
    return 1;
  }
  duckdb_destroy_config(&config);
  duckdb_connection con;
  duckdb_connect(db, &con);
  char load[1024];
  snprintf(load, sizeof load, "LOAD '%s'", extension);
  if (!Query(con, load)) return 1;
  const char* inputs[] = {tsfile};
  tsread_source* tsread = NULL;
  tsread_error* error = NULL;
  if (tsread_open(inputs, 1, NULL, &tsread, &error) != TSREAD_OK) {
    fprintf(stderr, "arrow_duckdb_bench: %s\n", tsread_error_message(error));
    return 1;
  }

  printf("DuckDB %s, tsread %s, %d runs each, median ms\n", duckdb_library_version(), tsread_version(), reps);
  double ms[2][kSources][2];
  for (int threads = 1; threads <= 2; ++threads) {
    char set[64];
    snprintf(set, sizeof set, "SET threads = %d", threads);
    if (!Query(con, set)) return 1;
    for (int q = 0; q < 2; ++q) {
      double seconds[kSources][100];
      for (int s = 0; s < kSources; ++s) Run(con, tsread, tsfile, s, kAggregates[q], threads); /* warm up */
      for (int r = 0; r < reps; ++r) {
        for (int s = 0; s < kSources; ++s) seconds[s][r] = Run(con, tsread, tsfile, s, kAggregates[q], threads);
      }
      for (int s = 0; s < kSources; ++s) ms[q][s][threads - 1] = 1000 * Median(seconds[s], reps);
    }
  }
  for (int q = 0; q < 2; ++q) {
    printf("%s\n%-36s %10s %10s\n", kAggregateNames[q], "source", "1 thread", "2 threads");
    for (int s = 0; s < kSources; ++s) printf("%-36s %10.1f %10.1f\n", kSourceNames[s], ms[q][s][0], ms[q][s][1]);
    printf("read_tsfile / arrow scan: %.2fx (1 thread), %.2fx (2 threads) (target >= 1.00)\n",
           ms[q][kReadTsfile][0] / ms[q][kArrowUtf8][0], ms[q][kReadTsfile][1] / ms[q][kArrowUtf8][1]);
  }
  tsread_source_free(tsread);
  duckdb_disconnect(&con);
  duckdb_close(&db);
  return 0;
}
