// Layer widths under torch.autocast: BERT's fp32 residual stream and attention probabilities,
// half-width products and the casts between them; a CNN stays half width after its first product.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/compute/autocast_widths.h"
#include "sim/zoo/zoo.h"

namespace scalecast {
namespace {

const AutocastWidth& width_of(const Workload& w, const std::vector<AutocastWidth>& widths, const std::string& name) {
  for (std::size_t i = 0; i < w.layers.size(); ++i)
    if (w.layers[i].name == name) return widths[i];
  ADD_FAILURE() << "no layer " << name;
  return widths.front();
}

TEST(AutocastWidths, BertKeepsAnFp32StreamAndFp32Probabilities) {
  const Workload bert = zoo::build_model("bert-base", {});
  const auto widths = autocast_widths(bert);
  ASSERT_EQ(widths.size(), bert.layers.size());
  const std::string p = "bert.encoder.layer.0.";
  // The embeddings gather fp32 weights; their sum and LayerNorm are the fp32 stream.
  EXPECT_EQ(width_of(bert, widths, "bert.embeddings.LayerNorm").output, 4);
  // Query, key and value each cast that fp32 input to half width.
  for (const char* projection : {"query", "key", "value"}) {
    const AutocastWidth& w = width_of(bert, widths, p + "attention.self." + projection);
    EXPECT_EQ(w.input, 4) << projection;
    EXPECT_EQ(w.output, 2) << projection;
    EXPECT_TRUE(w.casts_input) << projection;
  }
  // The half-width scores go up to fp32 for the softmax; its fp32 probabilities come back down
  // for the context product.
  int softmax = 0, context = 0;
  for (std::size_t i = 0; i < bert.layers.size(); ++i) {
    const Layer& l = bert.layers[i];
    if (!l.name.starts_with(p)) continue;
    if (l.kind == "softmax") {
      ++softmax;
      EXPECT_EQ(widths[i].input, 2);
      EXPECT_EQ(widths[i].output, 4);
      EXPECT_TRUE(widths[i].casts_input);
    }
    if (l.kind == "attention" && l.name.ends_with("context")) {
      ++context;
      EXPECT_EQ(widths[i].input, 4);
      EXPECT_TRUE(widths[i].casts_input);
    }
    // A residual add promotes the half-width branch to the fp32 stream.
    if (l.kind == "add") {
      EXPECT_EQ(widths[i].output, 4) << l.name;
    }
  }
  EXPECT_EQ(softmax, 1);
  EXPECT_EQ(context, 1);
}

TEST(AutocastWidths, ResNetIsHalfWidthAfterItsFirstConvolution) {
  const Workload resnet = zoo::build_model("resnet50", {});
  const auto widths = autocast_widths(resnet);
  EXPECT_TRUE(widths.front().casts_input);  // the fp32 image
  int casts = 0;
  for (std::size_t i = 1; i < widths.size(); ++i) {
    casts += widths[i].casts_input;
    if (resnet.layers[i].kind != "linear") {
      EXPECT_EQ(widths[i].output, 2) << resnet.layers[i].name;
    }
  }
  EXPECT_EQ(casts, 0);
}

}  // namespace
}  // namespace scalecast
