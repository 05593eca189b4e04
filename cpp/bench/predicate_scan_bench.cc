// Value predicates on ../shared/bench/table_large.tsfile, one thread (TableScanner), each against
// the same scan without the predicate in the same run:
//   - counting the rows with s_double > 380 (about the 99.9th percentile) against a scan of s_double,
//     with the file open (a repeated query) and freshly opened (a first one);
//   - every column with a predicate that prunes nothing, settled by statistics (s_double > -1e9)
//     and evaluated on every page (s_double != 100.0123456789: inside every device's range, so evaluated, and true for every row).
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "tsread/read/table_scanner.h"

namespace tsread {
namespace {

std::string BenchFile() { return std::string(TSREAD_SOURCE_DIR) + "/../shared/bench/table_large.tsfile"; }

// With `fresh_reader`, every iteration opens the file anew: a first query, which reads the
// headers of the FLOAT/DOUBLE chunks whose statistics would skip them; an open reader remembers
// them (TsFileReader::KnownChunkFacts) for the next.
void Scan(benchmark::State& state, std::vector<std::string> columns, std::vector<PredicateExpr> predicates,
          bool fresh_reader = false) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(BenchFile());
  if (!reader.ok()) {
    state.SkipWithError(std::string(reader.status().message()).c_str());
    return;
  }
  int64_t rows = 0;
  PredicateCounts counts;
  TableScanner::Workspace workspace;
  for (auto _ : state) {
    if (fresh_reader) reader = TsFileReader::Open(BenchFile());
    ScanOptions options;
    options.table = "sensors";
    options.columns = columns;
    options.value_predicates = predicates;
    absl::StatusOr<std::unique_ptr<TableScanner>> scanner = TableScanner::Create(**reader, options);
    if (!scanner.ok()) {
      state.SkipWithError(std::string(scanner.status().message()).c_str());
      return;
    }
    absl::Status status = (*scanner)->Scan(
        [&](int, const TableBatch& batch) {
          rows += static_cast<int64_t>(batch.num_rows());
          return absl::OkStatus();
        },
        workspace);
    if (!status.ok()) {
      state.SkipWithError(std::string(status.message()).c_str());
      return;
    }
    counts = (*scanner)->predicate_counts();
  }
  state.SetItemsProcessed(rows);
  state.counters["devices_skipped"] = static_cast<double>(counts.devices_skipped);
  state.counters["pages_skipped"] = static_cast<double>(counts.pages_skipped);
  state.counters["pages_evaluated"] = static_cast<double>(counts.pages_evaluated);
}

void BM_ScanDouble(benchmark::State& state) { Scan(state, {"s_double"}, {}); }
BENCHMARK(BM_ScanDouble)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_CountDoubleOver380(benchmark::State& state) {
  Scan(state, {"s_double"}, {ValuePredicate{"s_double", CompareOp::kGt, {380.0}}});
}
BENCHMARK(BM_CountDoubleOver380)->Unit(benchmark::kMillisecond)->UseRealTime();

// A first query of a freshly opened file, each against the same scan.
void BM_ScanDoubleFreshReader(benchmark::State& state) { Scan(state, {"s_double"}, {}, true); }
BENCHMARK(BM_ScanDoubleFreshReader)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_CountDoubleOver380FreshReader(benchmark::State& state) {
  Scan(state, {"s_double"}, {ValuePredicate{"s_double", CompareOp::kGt, {380.0}}}, true);
}
BENCHMARK(BM_CountDoubleOver380FreshReader)->Unit(benchmark::kMillisecond)->UseRealTime();

// An OR on one column, which statistics rule out where both sides are (as the count above does).
void BM_CountDoubleOutside380(benchmark::State& state) {
  Scan(state, {"s_double"},
       {PredicateExpr::Or({ValuePredicate{"s_double", CompareOp::kGt, {380.0}},
                           ValuePredicate{"s_double", CompareOp::kLt, {-380.0}}})});
}
BENCHMARK(BM_CountDoubleOutside380)->Unit(benchmark::kMillisecond)->UseRealTime();

// An OR of a TAG and a FIELD: the tag settles a tenth of the devices whole, statistics or rows the rest.
void BM_ScanAllTagOrField(benchmark::State& state) {
  Scan(state, {},
       {PredicateExpr::Or({ValuePredicate{"region", CompareOp::kEq, {std::string("region_0")}},
                           ValuePredicate{"s_double", CompareOp::kGt, {380.0}}})});
}
BENCHMARK(BM_ScanAllTagOrField)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ScanAll(benchmark::State& state) { Scan(state, {}, {}); }
BENCHMARK(BM_ScanAll)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ScanAllSettledPredicate(benchmark::State& state) {
  Scan(state, {}, {ValuePredicate{"s_double", CompareOp::kGt, {-1e9}}});
}
BENCHMARK(BM_ScanAllSettledPredicate)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ScanAllEvaluatedPredicate(benchmark::State& state) {
  Scan(state, {}, {ValuePredicate{"s_double", CompareOp::kNe, {100.0123456789}}});
}
BENCHMARK(BM_ScanAllEvaluatedPredicate)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace tsread
