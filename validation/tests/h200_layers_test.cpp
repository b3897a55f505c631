// The H200 check: both measured models predicted with finite errors, their profiled layers grouped
// by kind with finite ratios, and the H200 ResNet-50 profile scaled to an A100 by layer kind.
#include "validation/h200_layers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "sim/scenario/scenario.h"
#include "sim/scenario/workload_builder.h"

namespace scalecast::validation {
namespace {

const std::string kFolder = std::string(SCALECAST_SOURCE_DIR) + "/validation/data/h200-gpu-check";

const H200ModelCheck* find_model(const H200Check& v, const std::string& name) {
  for (const auto& c : v.models)
    if (c.model == name) return &c;
  return nullptr;
}

TEST(H200Layers, StepsAndLayerKindsAreReported) {
  const H200Check v = check_h200(kFolder);
  ASSERT_EQ(v.models.size(), 2u);
  const H200ModelCheck* resnet = find_model(v, "resnet50");
  const H200ModelCheck* bert = find_model(v, "bert-base");
  ASSERT_NE(resnet, nullptr);
  ASSERT_NE(bert, nullptr);
  EXPECT_EQ(resnet->batch, 64);
  EXPECT_EQ(bert->batch, 32);
  EXPECT_NEAR(resnet->measured_step_s, 38.249e-3, 1e-6);
  EXPECT_NEAR(bert->measured_step_s, 72.922e-3, 1e-6);
  for (const auto* c : {resnet, bert}) {
    EXPECT_TRUE(std::isfinite(c->error()) && std::isfinite(c->gpu_error())) << c->model;
    EXPECT_GT(c->predicted_step_s, 0);
    ASSERT_FALSE(c->kinds.empty());
    for (const auto& k : c->kinds) {
      EXPECT_TRUE(std::isfinite(k.ratio()) && k.ratio() > 0) << c->model << " " << k.kind;
      EXPECT_GT(k.layers, 0);
    }
    // Nearly every timed row is a zoo layer or a module running zoo layers of its own.
    EXPECT_GT(c->timed_layers, 100);
    EXPECT_LT(c->unmatched_layers, c->timed_layers / 10) << c->model;
  }
  const auto has_kind = [](const H200ModelCheck& c, const std::string& kind) {
    for (const auto& k : c.kinds)
      if (k.kind == kind) return true;
    return false;
  };
  for (const char* kind : {"conv", "batchnorm", "relu", "linear"}) EXPECT_TRUE(has_kind(*resnet, kind)) << kind;
  for (const char* kind : {"linear", "layernorm", "embedding"}) EXPECT_TRUE(has_kind(*bert, kind)) << kind;

  std::ostringstream summary;
  write_h200_summary(summary, v);
  EXPECT_NE(summary.str().find("compute on one H200"), std::string::npos);
  EXPECT_NE(h200_markdown(v).find("| resnet50 | conv | 53 |"), std::string::npos) << h200_markdown(v);
}

// The H200 profile on an A100 (tf32, as measured): every layer slower, by no more than the two
// GPUs' matmul rate ratio (2.9x) and no less than launch-bound (1x).
TEST(H200Layers, ProfileScaledToAnA100) {
  Scenario s;
  s.path = kFolder;
  s.compute.gpu = "a100";
  s.model.name = "resnet50";
  s.model.profile = kFolder + "/resnet50-bs64-profile.csv";
  s.model.batch_per_gpu = 64;
  s.model.precision = Precision::tf32;
  s.model.optimizer = "sgd";
  Scenario same = s;
  same.compute.gpu = "h200";
  const BuiltWorkload h200 = build_workload(same);
  const BuiltWorkload a100 = build_workload(s);
  EXPECT_NE(a100.source.find("measured on NVIDIA H200, scaled to a100 by layer kind ("), std::string::npos)
      << a100.source;
  const double ratio = (a100.workload.forward_s() + a100.workload.backward_s()) /
                       (h200.workload.forward_s() + h200.workload.backward_s());
  EXPECT_GT(ratio, 1.5);
  EXPECT_LT(ratio, 2.95);
  for (std::size_t i = 0; i < h200.workload.layers.size(); ++i) {
    const Layer& on_h200 = h200.workload.layers[i];
    const Layer& on_a100 = a100.workload.layers[i];
    if (on_h200.forward_s + on_h200.backward_s == 0) continue;
    const double r = (on_a100.forward_s + on_a100.backward_s) / (on_h200.forward_s + on_h200.backward_s);
    EXPECT_GE(r, 0.999) << on_h200.name;
    EXPECT_LE(r, 3.0) << on_h200.name;
  }
}

}  // namespace
}  // namespace scalecast::validation
