// An aggregated value as text, in the forms every front end prints values in (cli-contract.md):
// true/false, decimal integers (DATE as its stored yyyyMMdd, TIMESTAMP as its stored number),
// Java's shortest float and double text, the string itself, BLOB as 0x and lowercase hex.
#ifndef TSREAD_AGGREGATE_VALUE_TEXT_H_
#define TSREAD_AGGREGATE_VALUE_TEXT_H_

#include <string>

#include "tsread/aggregate/column_aggregate.h"
#include "tsread/common/tsfile_enums.h"

namespace tsread {

std::string AggregateValueText(DataType type, const AggregateValue& v);

}  // namespace tsread

#endif  // TSREAD_AGGREGATE_VALUE_TEXT_H_
