// `scalecast import-trace`: turns the Chrome trace that torch.profiler writes (Kineto or the
// legacy profiler) into the profile CSV a scenario uses as model.profile.
#include <iostream>

#include "cli/command.h"
#include "cli/common.h"
#include "profiler/model_gradients.h"
#include "profiler/parameter_list.h"
#include "profiler/profile_csv.h"
#include "profiler/torch_import.h"
#include "sim/io/input_error.h"
#include "sim/io/input_text.h"
#include "sim/io/output_files.h"
#include "sim/io/ranges.h"
#include "sim/zoo/zoo.h"

namespace scalecast::cli {
namespace {

namespace prof = scalecast::profiler;

const char* const kSynopsis = R"(TRACE.json -o PROFILE.csv [options]

TRACE.json is what torch.profiler's export_chrome_trace writes for a few training steps
(call prof.step() after each: every ProfilerStep is one measured iteration). Layers are the
record_function ranges "fwd:<module path>" around each module's forward (see
tests/fixtures/torch_traces/make_traces.py) or, in a Kineto trace recorded with
with_stack=True, its "nn.Module: NAME" ranges. Backward work goes to the layer whose forward
created its autograd node. Times are GPU kernel times when the trace has CUDA activity, else
CPU operator times. Gradient tensors come from the trace's AccumulateGrad shapes
(record_shapes=True in a Kineto trace), or from --parameters or --model.)";

struct ImportOptions {
  std::string trace;
  std::string output;
  std::string parameters;
  std::string model;
  int batch = 0;
};

int import_trace(const ImportOptions& o) {
  prof::TraceImport imported = prof::import_torch_trace(prof::read_torch_trace(o.trace));
  prof::Profile& profile = imported.profile;
  std::vector<std::string>& warnings = imported.warnings;
  if (!o.parameters.empty()) {
    const std::vector<prof::Parameter> list = prof::read_parameter_list(o.parameters);
    for (std::string& w : prof::assign_parameters(profile, list)) warnings.push_back(std::move(w));
    if (imported.accumulate_grads > 0 &&
        imported.accumulate_grads != static_cast<int64_t>(list.size()))
      warnings.push_back(o.parameters + " lists " + std::to_string(list.size()) +
                         " parameters, the trace accumulates " +
                         std::to_string(imported.accumulate_grads) + " gradients per iteration");
  } else if (!o.model.empty()) {
    for (std::string& w : prof::fill_gradients(profile, zoo::build_model(o.model, {})))
      warnings.push_back(std::move(w));
  } else if (!imported.shapes) {
    throw InputError(InputKind::file, o.trace +
                      ": expected the gradients' shapes (AccumulateGrad with record_shapes=True, "
                      "in a Kineto trace), got none: pass --parameters FILE "
                      "(parameter,elements,dtype) or --model ZOO");
  }
  profile.batch_per_gpu = o.batch;
  write_file_atomically(o.output, [&](std::ostream& out) { prof::write_profile_csv(out, profile); });
  for (const std::string& w : warnings) std::cerr << "scalecast import-trace: warning: " << w << '\n';
  double forward_ms = 0, backward_ms = 0;
  int64_t tensors = 0, bytes = 0;
  for (const prof::ProfileLayer& layer : profile.layers) {
    forward_ms += layer.forward_ms;
    backward_ms += layer.backward_ms;
    tensors += layer.grad_tensors;
    bytes += layer.grad_bytes;
  }
  std::cout << "import-trace: " << profile.layers.size() << " layers, " << profile.iterations
            << " iterations, step " << profile.step_s * 1e3 << " ms; "
            << (imported.gpu_times ? "GPU" : "CPU operator") << " time per iteration: forward "
            << forward_ms << " ms, backward " << backward_ms << " ms, outside layers "
            << imported.outside_layers_ms << " ms; " << tensors << " gradient tensors, " << bytes
            << " bytes -> " << o.output << '\n';
  return 0;
}

int run(const std::vector<std::string>& args) {
  ImportOptions o;
  po::options_description opts("options");
  opts.add_options()("trace", po::value(&o.trace)->required(), "torch.profiler Chrome trace JSON")(
      "output,o", po::value(&o.output)->required(), "profile CSV to write")(
      "parameters", po::value(&o.parameters),
      "CSV parameter,elements,dtype of the model's named_parameters(): the gradient tensors, "
      "placed on the layer of each parameter's module")(
      "model", po::value(&o.model), "zoo model whose gradient tensors fill the grad columns")(
      "batch", po::value(&o.batch), "batch per GPU of the traced run, recorded in the profile");
  po::positional_options_description pos;
  pos.add("trace", 1);
  return guarded("import-trace", [&] {
    po::variables_map vm;
    if (parse_options("import-trace", kSynopsis, opts, pos, args, vm)) return 0;
    if (vm.count("batch") && (o.batch < 1 || o.batch > ranges::kMaxBatch))
      throw InputError("--batch: expected an integer in [1, " + std::to_string(ranges::kMaxBatch) +
                       "], got " + std::to_string(o.batch));
    if (!o.parameters.empty() && !o.model.empty())
      throw InputError("--parameters and --model: expected one of them, got both");
    if (!o.model.empty() && !zoo::has_model(o.model))
      throw InputError("--model: expected a zoo model (see scalecast models), got " + quote_input(o.model));
    return import_trace(o);
  });
}

const Registration reg{"import-trace",
                       "turn a torch.profiler trace (Chrome JSON) into a profile CSV", run};

}  // namespace
}  // namespace scalecast::cli
