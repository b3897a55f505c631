// Runs a function in a forked child process and returns the text it produced: every SimGrid
// simulation gets a fresh process, because SimGrid 3.32 keeps global state across Engines.
#pragma once

#include <functional>
#include <string>

namespace scalecast::simgrid_backend {

// The child runs `body` and pipes its result back; the parent waits for it. Throws
// std::runtime_error with the child's message when `body` throws, and says so when the child
// dies (a SimGrid assertion aborts it). Call from a single-threaded process: fork() copies only
// the calling thread.
std::string run_isolated(const std::function<std::string()>& body);

}  // namespace scalecast::simgrid_backend
