// `scalecast merge`: joins the part files of a sharded predict, recommend or validate into what
// the one-process run writes: every shard of one run is checked present, then its command line
// runs again with the shards' results in place of its work.
#include <iostream>

#include "cli/command.h"
#include "cli/common.h"
#include "cli/sharding.h"
#include "sim/io/input_error.h"

namespace scalecast::cli {
namespace {

const char* const kSynopsis = R"(PART... [-o FILE]

Joins the parts that `predict`, `recommend` or `validate` wrote with --shard I/N --part FILE,
one per shard I = 0..N-1, into exactly the output the command writes without --shard: table,
CSV or JSON as its --format says, to its --output (or -o here instead), with its other
outputs (recommend --plot, validate --report, --write-baseline, --check) as its command line
names them. Paths are read as the shards read them: run merge in the folder they ran in.
Refused, naming the file: parts of different runs (command line, inputs, scalecast build), a
shard twice or missing, an incomplete part, an input changed since the shards read it.)";

int run(const std::vector<std::string>& args) {
  po::options_description opts("options");
  std::vector<std::string> files;
  std::string output;
  opts.add_options()("parts", po::value(&files)->required()->multitoken(), "the part files, one per shard")(
      "output,o", po::value(&output), "write the output here instead of the shards' --output");
  po::positional_options_description pos;
  pos.add("parts", -1);
  return guarded("merge", [&] {
    po::variables_map vm;
    if (parse_options("merge", kSynopsis, opts, pos, args, vm)) return 0;
    std::vector<Part> parts;
    for (const auto& f : files) parts.push_back(read_part(f));
    check_parts(parts, build_hash(), content_hash);
    const Part& first = parts.front();
    const Command& command = command_registry().at(first.command);
    std::vector<std::string> arguments = first.arguments;
    if (vm.count("output") && first.command == "validate")
      throw InputError("-o: validate prints its summary on stdout; its files are those its command line names");
    if (const std::string out = vm.count("output") ? output : first.output; !out.empty())
      arguments.insert(arguments.end(), {"--output", out});
    std::map<std::size_t, nlohmann::json> results;
    std::map<std::size_t, std::string> sources;
    for (const Part& p : parts)
      for (const auto& [item, result] : p.results) {
        results.emplace(item, result);
        sources.emplace(item, p.file);
      }
    std::cerr << "merge: " << parts.size() << " parts of " << first.command << " (" << first.items
              << " work items)\n";
    return command.merged(arguments, WorkShare::merged(std::move(results), std::move(sources)));
  });
}

const Registration reg{"merge", "join the part files of a sharded predict, recommend or validate", run};

}  // namespace
}  // namespace scalecast::cli
