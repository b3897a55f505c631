// The table of registered all-reduce algorithms (as SimGrid lists its network models): adding one
// is a file of its own, a line here and its test.
#include "sim/collectives/allreduce_algorithm.h"
#include "sim/io/input_error.h"

#include <stdexcept>

namespace scalecast::collectives {

extern const AllreduceAlgorithm kRingAllreduce;             // ring.cpp
extern const AllreduceAlgorithm kTreeAllreduce;             // tree.cpp
extern const AllreduceAlgorithm kHalvingDoublingAllreduce;  // halving_doubling.cpp
extern const AllreduceAlgorithm kHierarchicalAllreduce;     // hierarchical.cpp
extern const AllreduceAlgorithm kNcclAllreduce;             // nccl_allreduce.cpp

const std::vector<const AllreduceAlgorithm*>& allreduce_algorithms() {
  static const std::vector<const AllreduceAlgorithm*> all = {
      &kRingAllreduce, &kTreeAllreduce, &kHalvingDoublingAllreduce, &kHierarchicalAllreduce, &kNcclAllreduce};
  return all;
}

const AllreduceAlgorithm* find_allreduce(std::string_view name) {
  for (const AllreduceAlgorithm* a : allreduce_algorithms())
    if (name == a->name) return a;
  return nullptr;
}

const AllreduceAlgorithm& allreduce_algorithm(std::string_view name) {
  if (const AllreduceAlgorithm* a = find_allreduce(name)) return *a;
  throw InputError("unknown all-reduce algorithm '" + std::string(name) + "' (known: " +
                   allreduce_names(false) + ")");
}

std::string allreduce_names(bool with_auto) {
  std::string out;
  for (const AllreduceAlgorithm* a : allreduce_algorithms()) out += (out.empty() ? "" : ", ") + std::string(a->name);
  return with_auto ? out + ", auto" : out;
}

}  // namespace scalecast::collectives
