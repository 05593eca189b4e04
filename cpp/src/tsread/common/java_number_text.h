// FLOAT and DOUBLE values as text the way the reference (Java) tools print them: the shortest
// decimal that parses back (strtof / strtod) to exactly the value, laid out as Java's
// Float.toString / Double.toString do — plain for 1e-3 <= |v| < 1e7 with at least one fractional
// digit ("5.0", "-0.0"), else d.dddE<exp>; "NaN", "Infinity", "-Infinity". Shared by the front ends
// that render values as text (the CLI's CSV, the DuckDB extension's tree-model values).
#ifndef TSREAD_COMMON_JAVA_NUMBER_TEXT_H_
#define TSREAD_COMMON_JAVA_NUMBER_TEXT_H_

#include <string>

namespace tsread {

void AppendJavaFloat(std::string& out, float v);
void AppendJavaDouble(std::string& out, double v);

}  // namespace tsread

#endif  // TSREAD_COMMON_JAVA_NUMBER_TEXT_H_
