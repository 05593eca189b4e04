/*
 * tsread.h — tsread's C ABI: TsFile tables as Arrow C streams, for engines in any language.
 *
 * C99, no C++ types. Link with -ltsread_c (pkg-config tsread_c). The library exports only the
 * tsread_* functions declared here; everything else is private to it.
 *
 *   const char* inputs[] = {"data/"};          // a file, several, a directory, a glob, IoTDB data
 *   tsread_source* src;  tsread_error* err = NULL;
 *   if (tsread_open(inputs, 1, NULL, &src, &err) != TSREAD_OK) { puts(tsread_error_message(err)); ... }
 *   tsread_scan_options o;  tsread_scan_options_init(&o);
 *   o.table = "weather";  o.filter = "region = 'east' AND temperature > 20";
 *   struct ArrowArrayStream stream;
 *   if (tsread_scan(src, &o, &stream, &err) != TSREAD_OK) { ... }
 *   tsread_source_free(src);                   // the stream keeps what it reads alive
 *   ... stream.get_schema / get_next ... stream.release(&stream);
 *
 * Errors: every fallible function returns a tsread_code (TSREAD_OK = 0) and, when `error` is not
 * NULL, sets *error to a new tsread_error (free it with tsread_error_free; *error is not read before,
 * and is left alone on success) whose message names the
 * file and offset where the data is at fault. No global state: any function may be called from
 * any thread; one source may be scanned by several threads at once (one stream per thread: a
 * stream itself is not thread-safe). A stream's get_next returns an errno value (EINVAL, EIO,
 * ENOMEM) and its get_last_error the message.
 *
 * Arrow types of the columns (as tsread's Arrow export maps them): time and TIMESTAMP ->
 * timestamp in the unit asked for (or int64), TAG and ATTRIBUTE -> utf8 (or dictionary<int32,
 * utf8>), BOOLEAN -> bool, INT32 -> int32, INT64 -> int64, FLOAT -> float32, DOUBLE -> float64,
 * TEXT/STRING -> utf8 (values that are not UTF-8 fail the stream), BLOB -> binary, DATE -> date32.
 * Each batch is a struct array: time first, then the columns in the order asked. Tree-model points:
 * tsread_scan_tree.
 */
#ifndef TSREAD_TSREAD_H_
#define TSREAD_TSREAD_H_

#include <stddef.h>
#include <stdint.h>

/* The Arrow C data and stream interfaces (ArrowSchema, ArrowArray, ArrowArrayStream), as the Arrow
 * specification defines them, guarded by its own macros so that Arrow's abi.h, nanoarrow or DuckDB's
 * copy can come first. */
#include "tsread/arrow/c_data_interface.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define TSREAD_C_API
#else
#define TSREAD_C_API __attribute__((visibility("default")))
#endif

/* ---- Version ---- */

/* The library's version, "MAJOR.MINOR.PATCH". */
TSREAD_C_API const char* tsread_version(void);

/* ---- Errors ---- */

typedef enum tsread_code {
  TSREAD_OK = 0,
  TSREAD_INVALID_ARGUMENT = 1,   /* a bad argument: NULL where one is needed, an unknown column, bad filter text */
  TSREAD_NOT_FOUND = 2,          /* no such file, table or database */
  TSREAD_CORRUPT = 3,            /* the bytes are not a valid TsFile (the message names file and offset) */
  TSREAD_IO = 4,                 /* the file could not be read (permissions, an I/O error) */
  TSREAD_RESOURCE_EXHAUSTED = 5, /* the memory budget or a read limit is exceeded */
  TSREAD_UNSUPPORTED = 6,        /* valid, but not supported by this version */
  TSREAD_CHANGED = 7,            /* a file changed while it was read */
  TSREAD_INTERNAL = 8            /* a tsread bug: please report it */
} tsread_code;

typedef struct tsread_error tsread_error;

TSREAD_C_API tsread_code tsread_error_code(const tsread_error* error);
/* The message, UTF-8; valid until the error is freed. */
TSREAD_C_API const char* tsread_error_message(const tsread_error* error);
/* Frees an error (NULL: nothing). */
TSREAD_C_API void tsread_error_free(tsread_error* error);

/* ---- Opening input ---- */

typedef struct tsread_source tsread_source;

typedef struct tsread_open_options {
  uint32_t struct_size;      /* sizeof(tsread_open_options), set by tsread_open_options_init */
  int skip_unreadable_files; /* leave out files whose metadata cannot be read instead of failing */
  int raw;                   /* IoTDB data read as the plain union of its files, not as IoTDB answers */
  const char* database;      /* IoTDB data: the database to read (NULL: the only one) */
  int ignore_errors;         /* IoTDB data: unreadable files and deletion files left out, with warnings */
} tsread_open_options;

/* Sets every option to its default. */
TSREAD_C_API void tsread_open_options_init(tsread_open_options* options);

/* Opens `inputs` (files, directories, globs) as one source: an IoTDB data directory reads as IoTDB
 * answers it (unsequence files over sequence ones, deletions applied) unless options->raw. The
 * files' metadata is read now; their data when scanned. `options` may be NULL (the defaults). */
TSREAD_C_API tsread_code tsread_open(const char* const* inputs, size_t n_inputs, const tsread_open_options* options,
                                     tsread_source** out, tsread_error** error);

/* A TsFile held in memory. The bytes are not copied: they must stay valid and unchanged until the
 * source and every stream scanned from it are released. */
TSREAD_C_API tsread_code tsread_open_memory(const void* data, size_t size, tsread_source** out, tsread_error** error);

/* Releases the caller's handle (NULL: nothing). Streams scanned from it stay valid. */
TSREAD_C_API void tsread_source_free(tsread_source* source);

/* The files the source reads, and their paths ("<memory>" for tsread_open_memory); valid while
 * the source lives. */
TSREAD_C_API size_t tsread_file_count(const tsread_source* source);
TSREAD_C_API const char* tsread_file_path(const tsread_source* source, size_t index);

/* The tables of the source (sorted by name); valid while the source lives. NULL past the end. */
TSREAD_C_API size_t tsread_table_count(const tsread_source* source);
TSREAD_C_API const char* tsread_table_name(const tsread_source* source, size_t index);

/* What a reader of the source should know that is not an error, one UTF-8 line each: files left out
 * (skip_unreadable_files) and why; IoTDB data: leftovers resolved, damaged deletion files (the entries
 * before the damage apply), entries skipped under ignore_errors; files read with raw (or outside a
 * data directory) whose deletion files are not applied. NULL past the end; valid while the source lives. */
TSREAD_C_API size_t tsread_warning_count(const tsread_source* source);
TSREAD_C_API const char* tsread_warning(const tsread_source* source, size_t index);

/* ---- Columns of a table ---- */

typedef enum tsread_column_category { TSREAD_TAG = 0, TSREAD_FIELD = 1, TSREAD_ATTRIBUTE = 2 } tsread_column_category;

/* TsFile's data types, with the codes the format stores. */
typedef enum tsread_data_type {
  TSREAD_BOOLEAN = 0,
  TSREAD_INT32 = 1,
  TSREAD_INT64 = 2,
  TSREAD_FLOAT = 3,
  TSREAD_DOUBLE = 4,
  TSREAD_TEXT = 5,
  TSREAD_TIMESTAMP = 8,
  TSREAD_DATE = 9,
  TSREAD_BLOB = 10,
  TSREAD_STRING = 11
} tsread_data_type;

/* "BOOLEAN", "INT32", ... for a tsread_data_type; "UNKNOWN" for a code that names no type (an int,
 * so that any value a caller passes is defined behaviour on both sides). */
TSREAD_C_API const char* tsread_data_type_name(int type);

typedef struct tsread_columns tsread_columns;

/* The columns of `table` (NULL: the only table) in schema order, reconciled across the files. */
TSREAD_C_API tsread_code tsread_table_columns(const tsread_source* source, const char* table, tsread_columns** out,
                                              tsread_error** error);
TSREAD_C_API size_t tsread_column_count(const tsread_columns* columns);
/* NULL past the end; valid while `columns` lives. */
TSREAD_C_API const char* tsread_column_name(const tsread_columns* columns, size_t index);
TSREAD_C_API tsread_column_category tsread_column_category_of(const tsread_columns* columns, size_t index);
TSREAD_C_API tsread_data_type tsread_column_type(const tsread_columns* columns, size_t index);
TSREAD_C_API void tsread_columns_free(tsread_columns* columns);

/* ---- Scanning a table into an Arrow C stream ---- */

typedef enum tsread_time_unit {
  TSREAD_TIME_INT64 = 0, /* plain int64, as stored */
  TSREAD_TIME_SECOND = 1,
  TSREAD_TIME_MILLISECOND = 2,
  TSREAD_TIME_MICROSECOND = 3,
  TSREAD_TIME_NANOSECOND = 4
} tsread_time_unit;

typedef struct tsread_scan_options {
  uint32_t struct_size;       /* sizeof(tsread_scan_options), set by tsread_scan_options_init */
  const char* table;          /* NULL: the only table */
  const char* const* columns; /* the columns to produce after time, in order; NULL: every column */
  size_t n_columns;
  int64_t start, end;         /* rows with start <= time <= end; INT64_MIN and INT64_MAX by default */
  const char* filter;         /* conditions on tags and values, the predicate text of `tsread cat --where` (docs/cli.md); NULL: none */
  size_t batch_rows;          /* most rows per batch; 0: one batch per page as stored (no copy) */
  uint64_t memory_budget;     /* most bytes of chunks and page memory held at once; 0: no budget */
  int threads;                /* threads that decode (1 to 256; 0 or 1: get_next decodes on the caller's thread);
                                 more run the scan ahead of the consumer. IoTDB data: one thread */
  int unordered;              /* with threads > 1: batches as decoded, in no particular order (faster) */
  int time_unit;              /* a tsread_time_unit, of time and TIMESTAMP columns; TSREAD_TIME_MILLISECOND by
                                 default (TsFile does not store it) */
  int tags_as_dictionary;     /* TAG columns as dictionary<int32, utf8> (no per-row copy of the tag) */
  const char* file_column;    /* not NULL: a last utf8 column of this name with each row's file path */
  int tags_as_run_end;        /* TAG columns as run_end_encoded<int32, utf8>: a batch (one device's rows) is one
                                 run, two one-element arrays whatever its rows; not with tags_as_dictionary */
} tsread_scan_options;

/* Sets every option to its default. */
TSREAD_C_API void tsread_scan_options_init(tsread_scan_options* options);

/* Fills `out` with a stream over the rows of a table: in file order, then device order, each
 * device's rows in time order (IoTDB data: merged, as IoTDB answers; `unordered`: any order). Errors in the arguments
 * (unknown table or column, bad filter) are returned here; errors in the data end the stream. The
 * stream keeps the files open; release it with out->release. `options` may be NULL. */
TSREAD_C_API tsread_code tsread_scan(const tsread_source* source, const tsread_scan_options* options,
                                     struct ArrowArrayStream* out, tsread_error** error);

/* ---- Scanning tree-model points into an Arrow C stream ---- */

typedef struct tsread_tree_scan_options {
  uint32_t struct_size;             /* sizeof(tsread_tree_scan_options), set by tsread_tree_scan_options_init */
  const char* const* devices;       /* each a device path ("root.sg1.d1") or a prefix ending at a level ("root.sg1":
                                       every device below it), as `tsread cat --tree --devices`; NULL: every device */
  size_t n_devices;
  const char* const* measurements;  /* measurement names; NULL: every measurement */
  size_t n_measurements;
  int64_t start, end;               /* points with start <= time <= end; INT64_MIN and INT64_MAX by default */
  size_t batch_rows;                /* most points per batch; 0: 65536 */
  int time_unit;                    /* a tsread_time_unit, of time and TIMESTAMP values; TSREAD_TIME_MILLISECOND by default */
  int names_as_dictionary;          /* device and measurement as dictionary<int32, utf8> */
} tsread_tree_scan_options;

/* Sets every option to its default. */
TSREAD_C_API void tsread_tree_scan_options_init(tsread_tree_scan_options* options);

/* Fills `out` with a stream over the tree-model points of the source in long form, one row per
 * non-null point: time, device (utf8, the path as `tsread cat --tree` prints it), measurement (utf8),
 * then one column per data type of the selected series, named "value_<type>" in lower case in the
 * order of tsread_data_type ("value_int64", "value_double", ...): a row fills its series' type's
 * column, the others are null. Points by device path, measurement and time (files as written: file
 * after file; IoTDB data: each series merged as IoTDB answers it); a batch holds one series. The
 * schema is known before the first point: the selected series' metadata is read here. A source
 * without tree-model data is TSREAD_INVALID_ARGUMENT. Each get_next reads on the caller's thread (IoTDB
 * data: a device's merged series at a time). `options` may be NULL. */
TSREAD_C_API tsread_code tsread_scan_tree(const tsread_source* source, const tsread_tree_scan_options* options,
                                          struct ArrowArrayStream* out, tsread_error** error);

#ifdef __cplusplus
}
#endif

#endif /* TSREAD_TSREAD_H_ */
