#!/usr/bin/env python3
# Runs torchvision ResNet-50 or HF BERT-Base training steps on one GPU, for checking
# `scalecast profile` on a GPU machine: step time plain, under the profiler, and torch.profiler's CUDA total.
"""Training-step driver for checking the scalecast CUPTI profiler against PyTorch.

Modes (run each in its own process; results are merged into --results JSON):
  plain           no instrumentation: the reference step time
  nvtx            NVTX ranges in scalecast's convention, for `scalecast profile -- ...`:
                  an "iteration" range per step, "fwd:<module path>" around every module's
                  forward, and torch.autograd.profiler.emit_nvtx so backward kernels are
                  matched to their forward op by sequence number
  torch-profiler  torch.profiler with CUDA activities: the step time under it and the summed
                  self CUDA time per step (compare with the profile's forward + backward)

Example (see profiler/README.md):
  python3 profile_torch.py --model resnet50 --mode plain --results r.json
  python3 profile_torch.py --model resnet50 --mode torch-profiler --results r.json
  scalecast profile --model resnet50 --batch 64 -o resnet50.csv -- \\
      python3 profile_torch.py --model resnet50 --mode nvtx --results r.json
"""
import argparse
import json
import os
import statistics
import time

import torch


def build(model_name, batch, device):
    """Returns (module, step_inputs, loss_fn) for one training step."""
    if model_name == "resnet50":
        import torchvision

        model = torchvision.models.resnet50(weights=None).to(device)
        images = torch.randn(batch, 3, 224, 224, device=device)
        labels = torch.randint(0, 1000, (batch,), device=device)
        criterion = torch.nn.CrossEntropyLoss()
        return model, lambda: criterion(model(images), labels)
    if model_name == "bert-base":
        from transformers import BertConfig, BertForPreTraining

        config = BertConfig()  # BERT-Base: 12 layers, hidden 768
        model = BertForPreTraining(config).to(device)
        seq_len = 128
        ids = torch.randint(0, config.vocab_size, (batch, seq_len), device=device)
        inputs = dict(
            input_ids=ids,
            attention_mask=torch.ones_like(ids),
            token_type_ids=torch.zeros_like(ids),
            labels=ids.clone(),
            next_sentence_label=torch.randint(0, 2, (batch,), device=device),
        )
        return model, lambda: model(**inputs).loss
    raise SystemExit(f"unknown model {model_name!r} (resnet50 or bert-base)")


def add_layer_ranges(model):
    """Pushes an NVTX range "fwd:<module path>" around every named module's forward."""
    nvtx = torch.cuda.nvtx

    # Hooks must return None: a pre-hook's value would replace the module's input.
    def push(name):
        def hook(module, args):
            nvtx.range_push("fwd:" + name)
        return hook

    def pop(module, args, output):
        nvtx.range_pop()

    for name, module in model.named_modules():
        if not name:
            continue
        module.register_forward_pre_hook(push(name))
        module.register_forward_hook(pop)


def run_steps(model, loss_of, steps, mark_iterations):
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
    times = []
    for _ in range(steps):
        if mark_iterations:
            torch.cuda.nvtx.range_push("iteration")
        start = time.perf_counter()
        optimizer.zero_grad(set_to_none=True)
        loss_of().backward()
        optimizer.step()
        torch.cuda.synchronize()
        times.append(time.perf_counter() - start)
        if mark_iterations:
            torch.cuda.nvtx.range_pop()
    return times


def summary(times, warmup):
    kept = times[warmup:]
    return {
        "steps": len(kept),
        "step_ms_mean": 1e3 * statistics.mean(kept),
        "step_ms_std": 1e3 * statistics.stdev(kept) if len(kept) > 1 else 0.0,
    }


def cuda_self_ms(profiler):
    """GPU-side events' self time summed, in ms: torch.profiler's "Self CUDA time total"."""
    cuda = torch.autograd.DeviceType.CUDA
    total_us = 0.0
    for event in profiler.key_averages():
        if event.device_type != cuda:
            continue
        if hasattr(event, "self_device_time_total"):
            total_us += event.self_device_time_total
        else:
            total_us += event.self_cuda_time_total
    return total_us / 1e3


def write_json(path, report):
    """Writes the report through a temporary file, so a crash never leaves half a file."""
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(report, f, indent=1)
    os.replace(tmp, path)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="resnet50", choices=["resnet50", "bert-base"])
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--iterations", type=int, default=20, help="measured steps")
    parser.add_argument("--warmup", type=int, default=2, help="steps run first and not measured")
    parser.add_argument("--mode", required=True, choices=["plain", "nvtx", "torch-profiler"])
    parser.add_argument("--results", help="JSON file to merge this mode's results into")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        raise SystemExit("profile_torch.py: no CUDA device")

    torch.backends.cudnn.benchmark = True
    model, loss_of = build(args.model, args.batch, torch.device("cuda"))
    model.train()
    steps = args.warmup + args.iterations
    result = {}
    if args.mode == "plain":
        result = summary(run_steps(model, loss_of, steps, False), args.warmup)
    elif args.mode == "nvtx":
        add_layer_ranges(model)
        with torch.autograd.profiler.emit_nvtx(record_shapes=False):
            result = summary(run_steps(model, loss_of, steps, True), args.warmup)
    else:
        run_steps(model, loss_of, args.warmup, False)
        activities = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
        with torch.profiler.profile(activities=activities) as profiler:
            times = run_steps(model, loss_of, args.iterations, False)
        result = summary(times, 0)
        result["cuda_self_ms_per_step"] = cuda_self_ms(profiler) / args.iterations

    report = {"model": args.model, "batch": args.batch, "gpu": torch.cuda.get_device_name(0),
              "torch": torch.__version__, "modes": {}}
    if args.results and os.path.exists(args.results):
        with open(args.results) as f:
            report = json.load(f)
    report["modes"][args.mode] = result
    print(json.dumps({args.mode: result}))
    if args.results:
        write_json(args.results, report)


if __name__ == "__main__":
    main()
