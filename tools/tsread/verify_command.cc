// `tsread verify FILE`: checks a file end to end (tsread::VerifyFile) and prints what is wrong
// and where; exit 0 when clean, 2 when not.
#include <iostream>
#include <memory>

#include "cli.h"
#include "tsread/read/file_verifier.h"

namespace tsread::cli {

int RunVerify(const Args& args) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(args.positional[0]);
  if (!reader.ok()) return Fail(reader.status());
  absl::StatusOr<VerifyReport> report = VerifyFile(**reader);
  if (!report.ok()) return Fail(report.status());
  for (const std::string& problem : report->problems) std::cout << problem << "\n";
  if (report->truncated) std::cout << "(more problems not shown)\n";
  std::cout << (report->clean() ? "OK: " : "CORRUPT: ") << report->chunks << " chunks, " << report->pages
            << " pages, " << report->values << " values checked";
  if (!report->clean()) std::cout << ", " << report->problems.size() << " problems";
  std::cout << "\n";
  return report->clean() ? kOk : kCorrupt;
}

}  // namespace tsread::cli
