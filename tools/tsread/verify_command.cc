// `tsread verify FILE`: checks a file end to end (tsread::VerifyFile) and prints what is wrong
// and where; exit 0 when clean, 2 when not. Notices (statistics of a lossy encoding) are printed
// but leave the file OK.
#include <iostream>
#include <memory>

#include "cli.h"
#include "tsread/check/file_verifier.h"

namespace tsread::cli {

int RunVerify(const Args& args) {
  const std::string& path = args.positional[0];
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(path);
  if (!reader.ok()) return Fail(WithFileName(reader.status(), path));
  absl::StatusOr<std::unique_ptr<MemoryBudget>> budget = WalkBudgetFromArgs(args);
  if (!budget.ok()) return Fail(budget.status());
  WalkOptions walk;
  walk.memory_budget = budget->get();
  absl::StatusOr<VerifyReport> report = VerifyFile(**reader, ReadLimits(), 100, walk);
  if (!report.ok()) return Fail(WithFileName(report.status(), path));
  for (const std::string& notice : report->notices) std::cout << "NOTICE: " << notice << "\n";
  for (const std::string& problem : report->problems) std::cout << problem << "\n";
  if (report->truncated) std::cout << "(more problems not shown)\n";
  std::cout << (report->clean() ? "OK: " : "CORRUPT: ") << report->chunks << " chunks, " << report->pages
            << " pages, " << report->values << " values checked";
  if (!report->clean()) std::cout << ", " << report->problems.size() << " problems";
  if (!report->notices.empty()) std::cout << ", " << report->notices.size() << " notices";
  std::cout << "\n";
  return report->clean() ? kOk : kCorrupt;
}

}  // namespace tsread::cli
