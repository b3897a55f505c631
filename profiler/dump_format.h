// The activity dump file: a line-oriented text format, one record per line, tab-separated,
// with a versioned header and an `end` trailer holding the record count (detects truncation).
//
//   scalecast-activity <TAB> 1
//   device      id  name
//   range_start id  thread  time  domain  name
//   range_end   id  thread  time
//   api         correlation  thread  start  end
//   kernel      correlation  device  stream  start  end  name
//   memcpy      correlation  device  stream  start  end  bytes  direction
//   memset      correlation  device  stream  start  end  bytes
//   nvtx_calls  push  pop  start  end
//   dropped     count
//   end         records        (number of lines between the header and this one)
//
// Times are CUPTI nanoseconds. Text fields escape backslash, tab, newline and carriage return
// as \\ \t \n \r; every other byte is written as is.
#pragma once

#include <string_view>

namespace scalecast::profiler::dump {

inline constexpr std::string_view kMagic = "scalecast-activity";
inline constexpr int kVersion = 1;

}  // namespace scalecast::profiler::dump
