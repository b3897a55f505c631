// The compute model against one H200's measurements (validation/data/h200-gpu-check): ResNet-50
// and BERT-Base training steps predicted from the zoo, and each profiled layer against the zoo's.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace scalecast::validation {

// The profiled layers whose zoo layers are of one kind, or of several joined by "+" (a module's
// own time covering several kernels: "attention+softmax+dropout" for BERT's attention.self).
struct LayerKindTimes {
  std::string kind;
  int layers = 0;           // profile rows
  double measured_s = 0;    // their forward + backward, summed
  double predicted_s = 0;   // the compute model's for the zoo layers they matched
  double ratio() const { return predicted_s / measured_s; }
};

struct H200ModelCheck {
  std::string model, precision, profile;  // profile: the file's name in the folder
  int batch = 0;
  double measured_step_s = 0;   // a plain training step (torch-step-times.json)
  double measured_gpu_s = 0;    // the GPU's busy time in a step (torch.profiler's self CUDA time)
  double predicted_step_s = 0;  // the compute model's forward + backward + optimizer step
  int timed_layers = 0;         // profile rows with time
  int unmatched_layers = 0;     // of those, rows no zoo layer matched
  double unmatched_s = 0;       // their time
  int unprofiled_layers = 0;    // zoo layers no profile row matched
  double unprofiled_s = 0;      // their predicted time
  std::vector<LayerKindTimes> kinds;  // largest measured time first
  double error() const { return (predicted_step_s - measured_step_s) / measured_step_s; }
  double gpu_error() const { return (predicted_step_s - measured_gpu_s) / measured_gpu_s; }
};

struct H200Check {
  std::vector<H200ModelCheck> models;
};

// Reads `folder`'s profiles and torch-step-times.json. Throws an InputError naming the file
// when one is malformed or contradicts the other.
H200Check check_h200(const std::string& folder);

void write_h200_summary(std::ostream& out, const H200Check& v);
// The same for report.md.
std::string h200_markdown(const H200Check& v);

}  // namespace scalecast::validation
