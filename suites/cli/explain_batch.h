// `tcfuzz explain batch` and `tcfuzz encode batch`: one JSON object per line on stdin, one JSON
// line out per line in (the --json form of the single commands), so a million operands take one
// process. The keys are the single commands' option names:
//   explain: {"kind":"smem","arch":"sm_90a","operand":"a","major":"k","dtype":"f16","rows":64,
//             "kbytes":32,"desc":"0x...","pattern_anchor":0}   (pattern_anchor optional)
//            {"kind":"zcm","m":128,"n":256,"desc":"0x...","sparse":false,"idesc":"0x..."}
//            {"kind":"sparse","shape":"m16n8k32","type":"f16","selector":0}   (selector optional)
//   encode:  {"kind":"smem","arch":"sm_90a","dtype":"f16","layout":"...","start":0}
// Numbers are JSON integers or "0x..." / decimal strings (64-bit values beyond 2^53 should be
// strings). Blank lines are skipped. A bad line is answered in its place, {"line":N,"error":
// "..."}, and the batch goes on (a million operands are not lost to one typo); the exit is then
// 1. What ends a batch is its input: a line past 1 MiB or a read error, on stderr, exit 2.
#pragma once

#include <istream>
#include <ostream>

namespace tcfuzz::suites {

int ExplainBatch(std::istream& in, std::ostream& out, std::ostream& err);
int EncodeBatch(std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace tcfuzz::suites
