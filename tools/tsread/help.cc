#include "help.h"

#include "absl/strings/str_cat.h"

namespace tsread::cli {
namespace {

constexpr char kOverview[] =
    "usage: tsread <command> INPUT... [options]\n"
    "       tsread help COMMAND | tsread COMMAND --help | tsread --version\n"
    "INPUT: a file, a directory (every *.tsfile below it) or a glob (data/**/*.tsfile); info, devices,\n"
    "cat and scan read several as one dataset. --table may be left out when the input has one table.\n"
    "IoTDB data (a data directory with sequence/ and unsequence/ folders, one of its folders, or files\n"
    "with IoTDB deletion files beside them) is read as IoTDB answers it: overlapping files merged,\n"
    "deletions applied (info, devices, cat, scan, agg, last; --raw: the files as written).\n"
    "commands:\n"
    "  info INPUT... [--json] [--columns]   tables, columns, devices and rows, from metadata only\n"
    "  devices INPUT... [--table T] [--json]   one device id per line\n"
    "  sketch FILE [--memory-budget SIZE]   byte map of the file (chunk groups, chunks, pages, index)\n"
    "  cat INPUT... [--table T] [--columns a,b] [--start T0] [--end T1] [--where COND]...\n"
    "       [--limit N] [--format csv|ndjson] [--time-format epoch|iso] [--memory-budget SIZE]\n"
    "                              a table's rows\n"
    "  cat INPUT... --tree [--devices d1,d2] [--measurements m1,m2] [--start T0] [--end T1] ...\n"
    "                              tree-model points as device,measurement,time,value\n"
    "  scan INPUT... [--table T] [--columns a,b] [--start T0] [--end T1] [--where COND]...\n"
    "       [--threads N] [--memory-budget SIZE] [--json]\n"
    "                              full scan: rows, seconds, rows/s (and column statistics)\n"
    "  agg INPUT... [--table T] [--columns a,b] [--by device|table] [--bucket 10m|1h|1w|1mo|N]\n"
    "       [--time-zone Z] [--start T0] [--end T1] [--where COND]... [--threads N] [--json]\n"
    "                              per device or table (and time bucket): rows, first/last time, each\n"
    "                              column's count, min, max, first, last and sum, from statistics where\n"
    "                              they are exact\n"
    "  last INPUT... [--table T] [--columns a,b] [--start T0] [--end T1] [--where COND]...\n"
    "       [--json]\n"
    "                              per device: its last time, each column's latest value and its time\n"
    "  agg|last INPUT... --tree [--devices d1,d2] [--measurements m1,m2] [--start T0] [--end T1] [--json]\n"
    "                              the same per tree-model series (device, measurement)\n"
    "  verify FILE [--memory-budget SIZE]   end-to-end check: offsets, pages, statistics, time order\n"
    "  salvage IN [OUT] [--schema-from FILE] [--json] [--force] [--memory-budget SIZE]\n"
    "                              what an unsealed file (crashed writer) still holds; OUT: a sealed copy\n"
    "  gen OUT [--devices N] [--rows N] [--seed N] [--compression UNCOMPRESSED|LZ4|ZSTD|SNAPPY|GZIP]\n"
    "       [--page-points N] [--fields N] [--null-ratio X] [--files N] [--force]\n"
    "                              write a benchmark-shaped table file (or N files in directory OUT)\n"
    "  gen OUT --iotdb [--files N] [--unsequence X] [--deleted X] ...\n"
    "                              an IoTDB data directory: N sequence files, unsequence files rewriting\n"
    "                              X (0.1) of the rows, a deletion of X (0.01) of the time range\n";

constexpr char kIotdb[] =
    "  --raw                  IoTDB data read as written: every file's rows as a plain union, deletion\n"
    "                         files not applied (a warning names them)\n"
    "  --database DB          IoTDB data: the database of the table (or of the tree devices); needed\n"
    "                         when a table name is in several databases\n"
    "  --ignore-errors        IoTDB data: a deletion file with an entry of an unknown kind applies the\n"
    "                         entries before it (a warning) instead of failing (exit 2)\n";

constexpr char kMemoryBudget[] =
    "  --memory-budget SIZE   most memory the scan's loaded chunks and page buffers take at once, all\n"
    "                         threads together (bytes, or 64K, 256M, 1G); threads wait for each other\n"
    "                         to stay within it; a page or chunk group that alone needs more: exit 2\n";

// The whole-file walks (verify, sketch, salvage) read the data section through a bounded window.
constexpr char kWalkMemoryBudget[] =
    "  --memory-budget SIZE   most memory the walk of the data section holds at once (bytes, or 64K,\n"
    "                         256M, 1G); it holds one chunk and a read-ahead, never the file; a chunk\n"
    "                         that alone needs more: exit 2\n";

constexpr char kExitCodes[] =
    "exit codes: 0 success, 1 usage error (unknown flag, table or column, bad value), 2 the file is\n"
    "corrupt, truncated or unsupported, 3 I/O error (cannot open or read a file, cannot write the output).\n";

constexpr char kTimes[] =
    "  --start T0, --end T1   inclusive time range. An integer is in the file's time unit (milliseconds\n"
    "                         unless the file was written otherwise); an ISO-8601 date/time\n"
    "                         (2023-11-14, 2023-11-14T22:13:20.123, 2023-11-14T22:13:20+02:00; UTC when\n"
    "                         no zone is given) is converted to epoch milliseconds.\n";

constexpr char kTableSelection[] =
    "  --table T              the table (may be left out when the input holds one table)\n"
    "  --columns a,b          the columns, in that order (time always comes first; naming it is allowed)\n"
    "  --where COND           keep the rows that satisfy COND; repeat, or join with AND, for several;\n"
    "                         OR (AND binds tighter) and parentheses for alternatives:\n"
    "                         `s_double>380`, `s_int32 <= 5 AND s_text != 'idle'`, `x IS NULL`,\n"
    "                         `region=east,west` (any of), `region=` (null), `region=east OR s_bool=true`;\n"
    "                         agg and last aggregate the rows kept (tag-only conditions let statistics\n"
    "                         answer; see docs/cli.md)\n";

constexpr char kAggregateTimes[] =
    "  --time-format epoch|iso   times (first_time, last_time, bucket, time) as the stored integer\n"
    "                         (default) or, read as epoch milliseconds, as ISO-8601 UTC (a JSON string)\n";

constexpr char kTreeAggregates[] =
    "  --tree                 per tree-model series (device, measurement) instead of per table\n"
    "                         device; CSV device,measurement,count,min,max,first,last,sum,avg,first_time,\n"
    "                         last_time (agg) or device,measurement,time,value (last)\n"
    "  --devices d1,d2        with --tree: these devices, or every device below a prefix (root.sg)\n"
    "  --measurements m1,m2   with --tree: these measurements\n";

}  // namespace

std::string_view OverviewHelp() { return kOverview; }

std::string CommandHelp(std::string_view command) {
  std::string text;
  if (command == "info") {
    text = absl::StrCat(
        "usage: tsread info INPUT... [--json] [--columns]\n"
        "The format version, each table with its columns, devices, rows and time range, and the tree-model\n"
        "devices, series and points, from metadata only (no data page is read). Several inputs: each file,\n"
        "then the dataset's totals.\n"
        "  --json                 one JSON object (cli-contract.md)\n"
        "  --columns              also per column: type, encodings, compressions, chunks, pages,\n"
        "                         compressed and uncompressed bytes (from chunk and page headers), and the\n"
        "                         index statistics (count, time range, numeric min/max)\n");
  } else if (command == "devices") {
    text = "usage: tsread devices INPUT... [--table T] [--json]\n"
           "One device id per line (segments joined by '.', a null segment as \"null\"), in index order;\n"
           "without --table every table's devices, then the tree-model devices.\n"
           "  --table T              only this table's devices\n"
           "  --json                 {\"devices\": [{\"id\", \"table\", \"segments\", \"tags\", \"rows\", \"points\",\n"
           "                         \"start_time\", \"end_time\"}]}: a null segment or tag is null (not \"null\");\n"
           "                         counts and time range from metadata, summed over a dataset's files\n";
  } else if (command == "sketch") {
    text = absl::StrCat("usage: tsread sketch FILE [--memory-budget SIZE]\n"
                        "The byte map of one file: where each chunk group, chunk and page lies, then the index and the\n"
                        "file metadata.\n",
                        kWalkMemoryBudget);
  } else if (command == "cat") {
    text = absl::StrCat(
        "usage: tsread cat INPUT... [--table T] [--columns a,b] [--start T0] [--end T1] [--where COND]...\n"
        "       tsread cat INPUT... --tree [--devices d1,d2] [--measurements m1,m2] [--start T0] [--end T1]\n"
        "       (both: [--limit N] [--format csv|ndjson] [--time-format epoch|iso]; tables: [--memory-budget SIZE])\n"
        "A table's rows (header `time,` then the columns), in device-index order then time; or with --tree\n"
        "the tree-model points as device,measurement,time,value, by device, measurement, time.\n",
        kTableSelection, kTimes,
        "  --tree                 the tree-model points instead of a table\n"
        "  --devices d1,d2        (--tree) devices named exactly, or every device below a prefix (root.sg\n"
        "                         selects root.sg.d1, not root.sg2)\n"
        "  --measurements m1,m2   (--tree) only these measurements\n"
        "  --limit N              stop after N rows (reading stops too)\n"
        "  --format csv|ndjson    CSV (RFC 4180, default) or one JSON object per row: keys are the column\n"
        "                         names, null is null, numbers are JSON numbers, NaN and Infinity are null,\n"
        "                         TEXT/STRING are strings, BLOB is a \"0x...\" hex string\n"
        "  --time-format epoch|iso   the time column as the stored integer (default) or, read as epoch\n"
        "                         milliseconds, as ISO-8601 UTC (2023-11-14T22:13:20.000Z)\n",
        kMemoryBudget);
  } else if (command == "scan") {
    text = absl::StrCat(
        "usage: tsread scan INPUT... [--table T] [--columns a,b] [--start T0] [--end T1] [--where COND]...\n"
        "       [--threads N] [--memory-budget SIZE] [--json]\n"
        "A full scan that decodes every selected column: rows, seconds and rows/s; with --json also each\n"
        "column's non-null count, min and max.\n",
        kTableSelection, kTimes,
        "  --threads N            worker threads, 1 to 256 (default 1)\n",
        kMemoryBudget,
        "  --json                 one JSON object (cli-contract.md)\n");
  } else if (command == "agg") {
    text = absl::StrCat(
        "usage: tsread agg INPUT... [--table T] [--columns a,b] [--by device|table] [--bucket W]\n"
        "       [--time-zone Z] [--start T0] [--end T1] [--where COND]... [--threads N] [--json]\n"
        "Per device (a dataset's files merged) or the whole table, and per time bucket with --bucket:\n"
        "rows, first and last time, and per FIELD column (all by default) count, min, max, first, last\n"
        "and sum, equal to what decoding the rows would give. Statistics answer a device, else a chunk\n"
        "group, else a page, whose rows lie inside --start/--end and one bucket, where they are exact\n"
        "(FLOAT/DOUBLE only in lossless encodings, not BLOB, not an INT64 sum a double cannot hold);\n"
        "only the pages a range end or bucket boundary cuts are decoded. min/max: numeric, DATE and\n"
        "TIMESTAMP columns; sum: INT32, INT64, FLOAT, DOUBLE and BOOLEAN (the trues). CSV: device and\n"
        "the TAG columns (by device), bucket (with --bucket), rows, first_time, last_time, then per\n"
        "column <c>_count, _min, _max, _first, _last, _sum, _avg (empty for null; avg: sum / count).\n",
        kTableSelection,
        "  --by device|table      one group per device (default) or for the whole table\n"
        "  --bucket W             time buckets floor(t / W) * W: W an integer in the file's time unit or\n"
        "                         with ms, s, m, h or d (counted in milliseconds), e.g. 10m; or calendar\n"
        "                         buckets: Nw (weeks from Monday), Nmo (months), Nd with --time-zone\n"
        "  --time-zone Z          calendar buckets in zone Z (Europe/Berlin, UTC, +05:30): local midnights,\n"
        "                         23- and 25-hour days across daylight-saving changes (default UTC)\n"
        "  --bucket-origin T      buckets start at T + k * W instead (a time as --start takes; IoTDB's\n"
        "                         GROUP BY ([start, end), step) starts them at its start)\n"
        "  --fill-empty           also the buckets without rows from --start to --end (rows 0, counts 0,\n"
        "                         times and values empty), as IoTDB's GROUP BY returns them\n"
        "  --threads N            worker threads, 1 to 256 (default 1): files, or shares of a file's\n"
        "                         devices, aggregated at once (IoTDB data: one thread)\n",
        kTimes,
        "  --json                 {\"table\", \"groups\": [{\"device\", \"tags\", \"bucket\", \"rows\",\n"
        "                         \"first_time\", \"last_time\", \"columns\": {c: {\"count\", \"min\",\n"
        "                         \"max\", \"first\", \"last\", \"sum\", \"avg\"}}}], \"pages\":\n"
        "                         {\"from_statistics\",\n"
        "                         \"decoded\"}, \"chunks\": {\"from_statistics\", \"read\"}}\n",
        kAggregateTimes, kTreeAggregates,
        "  --json with --tree     {\"series\": [{\"device\", \"measurement\", \"count\", \"min\", \"max\",\n"
        "                         \"first\", \"last\", \"sum\", \"avg\", \"first_time\", \"last_time\"}], \"pages\":\n"
        "                         {\"decoded\"}, \"series_answered\": {\"from_statistics\", \"decoded\"}}\n");
  } else if (command == "last") {
    text = absl::StrCat(
        "usage: tsread last INPUT... [--table T] [--columns a,b] [--start T0] [--end T1] [--where COND]...\n"
        "       [--json]\n"
        "Per device (a dataset's files merged): its last time, then per FIELD column (all by default) the\n"
        "latest non-null value and its time, empty when the column has none: what a dashboard shows,\n"
        "from statistics where they are exact (as agg); with --start/--end, inside that window.\n",
        kTableSelection, kTimes,
        "  --json                 {\"table\", \"devices\": [{\"device\", \"tags\", \"time\",\n"
        "                         \"columns\": {c: {\"value\", \"time\"}}}]}\n",
        kAggregateTimes, kTreeAggregates,
        "  --json with --tree     {\"series\": [{\"device\", \"measurement\", \"time\", \"value\"}]}\n");
  } else if (command == "verify") {
    text = absl::StrCat("usage: tsread verify FILE [--memory-budget SIZE]\n"
                        "Checks one file end to end: the index against the data section, every page decoded, page and\n"
                        "chunk statistics against the decoded values, time order. Prints each problem, then OK or\n"
                        "CORRUPT. Statistics that a lossy encoding (SPRINTZ, RLBE on FLOAT/DOUBLE) computed from the\n"
                        "values before encoding are reported as a NOTICE: the file is still OK.\n",
                        kWalkMemoryBudget,
                        "exit 0 when the file is clean (notices included), 2 when a problem was found.\n");
  } else if (command == "salvage") {
    text = "usage: tsread salvage IN [OUT] [--schema-from FILE] [--json] [--force] [--memory-budget SIZE]\n"
           "Recovers the data of an unsealed file (its writer crashed: no tail, or a tail that does not\n"
           "parse) from the data section alone. Walking from offset 7, a chunk group is kept when the marker\n"
           "that follows it (0x00, 0x04 or the 0x02 separator) is in the file and every chunk and page of it\n"
           "decodes; the walk stops at the first group that fails. A group that ends the file is not kept\n"
           "(more of it may have been lost). Nothing partial is kept.\n"
           "Without OUT: what is recoverable (groups, devices, rows, points, bytes kept, where and why the\n"
           "walk stopped). With OUT: a sealed copy (the kept data section verbatim, a new index and tail)\n"
           "that `tsread verify` accepts.\n"
           "  --schema-from FILE     table schemas (lost with the tail) from another file of the same tables;\n"
           "                         without it TAG columns are named by position: tag0, tag1, ... (a warning\n"
           "                         on stderr); FIELD columns keep their names from the chunk headers\n"
           "  --json                 one JSON object: the report (and output path, bytes and warnings)\n"
           "  --force                overwrite an existing OUT (never IN itself)\n"
           "  --memory-budget SIZE   most memory the walk of the data section holds at once (bytes, or 64K,\n"
           "                         256M, 1G); it holds one chunk and a read-ahead, never the file; a chunk\n"
           "                         that alone needs more: exit 2\n"
           "exit 0 when the walk ran (without OUT: even if it kept nothing), 2 when IN is not a TsFile of\n"
           "version 3 or 4 or (with OUT) when no chunk group with data can be kept (no OUT then).\n";
  } else if (command == "gen") {
    text = "usage: tsread gen OUT [--devices N] [--rows N] [--seed N] [--compression C] [--page-points N]\n"
           "       [--fields N] [--null-ratio X] [--files N] [--force]\n"
           "Writes a benchmark-shaped table-model file (table sensors, 1000 devices x 3200 rows by default,\n"
           "one row per second in milliseconds from 1700000000000).\n"
           "  --devices N, --rows N  devices, and rows per device (in all files)\n"
           "  --seed N               random seed (default 42)\n"
           "  --compression C        UNCOMPRESSED, LZ4 (default), ZSTD, SNAPPY or GZIP, any letter case\n"
           "  --page-points N        points per page (default 10000)\n"
           "  --fields N             field columns (default 5)\n"
           "  --null-ratio X         share of null field values, 0..1\n"
           "  --files N              N files in directory OUT, each a consecutive time slice of every device\n"
           "  --iotdb                OUT is an IoTDB data directory (database db): --files sequence files\n"
           "                         (10 by default), unsequence files (half as many) rewriting a share of\n"
           "                         the rows, and a table deletion in the .mods2 of every file it overlaps\n"
           "  --unsequence X         with --iotdb: the share of each device's rows rewritten (default 0.1)\n"
           "  --deleted X            with --iotdb: the share of the time range deleted (default 0.01)\n"
           "  --force                overwrite an existing OUT (or write into a non-empty directory)\n";
  } else {
    return "";
  }
  for (std::string_view reads_iotdb : {"info", "devices", "cat", "scan", "agg", "last"}) {
    if (command == reads_iotdb) text += kIotdb;
  }
  return absl::StrCat(text, kExitCodes);
}

}  // namespace tsread::cli
