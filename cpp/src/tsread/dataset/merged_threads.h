// A merged scan (merged_scan.h) on several threads: each thread reads one part of every group's
// devices with its own cursor, so the merge of one device never waits for another's.
#ifndef TSREAD_DATASET_MERGED_THREADS_H_
#define TSREAD_DATASET_MERGED_THREADS_H_

#include <functional>

#include "absl/status/status.h"
#include "tsread/dataset/merged_scan.h"

namespace tsread {

// Every batch of `scanner` to consume(worker, batch), on `threads` threads at once: worker w reads
// part w of `threads` (MergedScanner::OpenCursor), so a device's batches come from one worker in
// time order, while the devices of different workers interleave; the files' plans are made once
// for all parts (SharedGroupPlans). With one thread, worker 0 reads the whole scan on the calling
// thread, in the cursor's order. The first error stops every worker; of the errors,
// the lowest part's is returned (a consumer's error as it gave it).
absl::Status ScanMergedOnThreads(const MergedScanner& scanner, int threads,
                                 const std::function<absl::Status(int worker, TableBatch& batch)>& consume);

}  // namespace tsread

#endif  // TSREAD_DATASET_MERGED_THREADS_H_
