#!/usr/bin/env python3
# Measures what one GPU sustains for each kind of work the compute model times (matrix products by
# shape and precision, fused attention, streaming kernels, launches) and whole training steps.
"""Per-kind rates and training steps on one GPU, for checking scalecast's compute model.

Every section writes its rows into --results (JSON) as soon as it ends, so a run stopped early
keeps what it measured. Times are CUDA-event times per call, the median of --repeats timed loops.

  python3 compute_kinds.py --results kinds.json                 # every section
  python3 compute_kinds.py --results kinds.json --only gemm,attention
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import time

import torch
import torch.nn.functional as F
import torch.utils.checkpoint

RESULTS = {}
ARGS = None


def save():
    with open(ARGS.results, "w") as f:
        json.dump(RESULTS, f, indent=1)


def timed_ms(fn, calls=None, repeats=None, warmup=3):
    """Median over repeats of the mean CUDA-event time of `calls` back-to-back calls, in ms."""
    repeats = repeats or ARGS.repeats
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    if calls is None:  # about 20 ms per timed loop
        start = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        once = max(time.perf_counter() - start, 1e-6)
        calls = max(1, min(200, int(0.02 / once)))
    samples = []
    for _ in range(repeats):
        begin, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        begin.record()
        for _ in range(calls):
            fn()
        end.record()
        torch.cuda.synchronize()
        samples.append(begin.elapsed_time(end) / calls)
    return statistics.median(samples)


class ClockSampler:
    """nvidia-smi's SM clock, power and temperature every 100 ms while a block runs."""

    def __enter__(self):
        self.proc = subprocess.Popen(
            ["nvidia-smi", "--query-gpu=clocks.sm,power.draw,temperature.gpu", "--format=csv,noheader,nounits",
             "-lms", "100"], stdout=subprocess.PIPE, text=True)
        return self

    def __exit__(self, *exc):
        self.proc.terminate()
        out, _ = self.proc.communicate()
        rows = [[float(v) for v in line.split(",")] for line in out.strip().splitlines() if line.count(",") == 2]
        rows = rows[len(rows) // 4:] or rows  # past the ramp-up
        self.summary = {"sm_clock_mhz": statistics.median(r[0] for r in rows) if rows else None,
                        "power_w": statistics.median(r[1] for r in rows) if rows else None,
                        "temperature_c": statistics.median(r[2] for r in rows) if rows else None,
                        "samples": len(rows)}


def machine():
    props = torch.cuda.get_device_properties(0)
    query = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,clocks.max.sm,power.limit",
                            "--format=csv,noheader"], capture_output=True, text=True).stdout.strip()
    RESULTS["machine"] = {"gpu": props.name, "sms": props.multi_processor_count,
                          "memory_gib": props.total_memory / 2**30, "nvidia_smi": query,
                          "torch": torch.__version__, "cuda": torch.version.cuda,
                          "cudnn": torch.backends.cudnn.version()}


def matmul_fn(dtype, a, b):
    if dtype == "fp8":
        scale = torch.ones((), device="cuda")
        return lambda: torch._scaled_mm(a, b, scale_a=scale, scale_b=scale, out_dtype=torch.bfloat16)
    return lambda: a @ b


def operands(dtype, m, n, k, a_transposed=False, b_transposed=False):
    torch_dtype = {"fp32": torch.float32, "tf32": torch.float32, "fp16": torch.float16,
                   "bf16": torch.bfloat16, "fp8": torch.float8_e4m3fn}[dtype]
    make = lambda r, c: torch.randn(r, c, device="cuda").to(torch_dtype)
    if dtype == "fp8":  # _scaled_mm wants A row-major and B column-major
        return make(m, k), make(n, k).t()
    a = make(k, m).t() if a_transposed else make(m, k)
    b = make(n, k).t() if b_transposed else make(k, n)
    return a, b


def set_tf32(dtype):
    torch.backends.cuda.matmul.allow_tf32 = dtype == "tf32"
    torch.backends.cudnn.allow_tf32 = dtype == "tf32"


def gemm():
    """A large square product held for ~2 s per precision (with clocks), then LLM-shaped products."""
    rows = []
    for dtype in ["fp32", "tf32", "fp16", "bf16", "fp8"]:
        set_tf32(dtype)
        size = 8192
        try:
            a, b = operands(dtype, size, size, size)
            fn = matmul_fn(dtype, a, b)
            ms = timed_ms(fn, calls=5, repeats=3)
            calls = max(1, int(2000 / ms))  # ~2 s per loop
            with ClockSampler() as clocks:
                ms = timed_ms(fn, calls=calls, repeats=1, warmup=0)
        except RuntimeError as error:
            rows.append({"dtype": dtype, "error": str(error)[:200]})
            continue
        rows.append({"dtype": dtype, "m": size, "n": size, "k": size, "ms": ms,
                     "tflops": 2 * size**3 / ms / 1e9, **clocks.summary})
        print("gemm", rows[-1], flush=True)
    RESULTS["gemm_sustained"] = rows
    save()
    # The products of a transformer layer at `tokens` rows: forward X W^T, input gradient dY W,
    # weight gradient dY^T X, for (hidden in, out) shapes of GPT/Llama blocks from 768 to 8192 wide.
    shapes = [(768, 2304), (768, 3072), (3072, 768), (1024, 4096), (2048, 6144), (2048, 2048), (2048, 8192),
              (8192, 2048), (2560, 10240), (4096, 12288), (4096, 4096), (4096, 16384), (16384, 4096),
              (4096, 14336), (8192, 8192), (8192, 28672)]
    rows = []
    for dtype in ["bf16", "fp16", "tf32", "fp8"]:
        set_tf32(dtype)
        for tokens in [512, 2048, 8192, 32768]:
            for h, out in shapes:
                if dtype in ("tf32", "fp16") and (tokens != 8192 or h > 4096):
                    continue
                for role, (m, n, k) in {"forward": (tokens, out, h), "input_grad": (tokens, h, out),
                                        "weight_grad": (out, h, tokens)}.items():
                    if dtype == "fp8" and role != "forward" and tokens != 8192:
                        continue
                    try:
                        a, b = operands(dtype, m, n, k, a_transposed=role == "weight_grad",
                                        b_transposed=role == "forward")
                        ms = timed_ms(matmul_fn(dtype, a, b))
                    except RuntimeError as error:  # e.g. fp8 shapes the library refuses
                        rows.append({"dtype": dtype, "role": role, "m": m, "n": n, "k": k, "error": str(error)[:200]})
                        continue
                    rows.append({"dtype": dtype, "role": role, "tokens": tokens, "hidden": h, "out": out,
                                 "m": m, "n": n, "k": k, "ms": ms, "tflops": 2 * m * n * k / ms / 1e9})
                    del a, b
        print("gemm shapes", dtype, len(rows), flush=True)
        RESULTS["gemm_shapes"] = rows
        save()
    set_tf32("fp32")


def attention():
    """scaled_dot_product_attention (flash) forward and forward+backward, causal and not."""
    rows = []
    for dtype, causal in [(torch.bfloat16, True), (torch.float16, False), (torch.bfloat16, False)]:
        for head_dim in [64, 128]:
            for seq in [128, 512, 1024, 2048, 4096, 8192, 16384]:
                if causal and seq < 512:
                    continue
                tokens = 32768 if seq <= 8192 else 65536
                batch, heads = tokens // seq, 2048 // head_dim
                q, k, v = (torch.randn(batch, heads, seq, head_dim, device="cuda", dtype=dtype, requires_grad=True)
                           for _ in range(3))
                forward = lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal)
                out = forward()
                grad = torch.randn_like(out)
                both = lambda: torch.autograd.grad(forward(), (q, k, v), grad)
                fwd_ms, both_ms = timed_ms(forward), timed_ms(both)
                flops = 4 * batch * heads * seq * seq * head_dim * (0.5 if causal else 1)
                rows.append({"dtype": str(dtype).split(".")[-1], "causal": causal, "head_dim": head_dim, "seq": seq,
                             "batch": batch, "heads": heads, "forward_ms": fwd_ms, "backward_ms": both_ms - fwd_ms,
                             "forward_tflops": flops / fwd_ms / 1e9,
                             "backward_tflops": 2.5 * flops / max(both_ms - fwd_ms, 1e-9) / 1e9})
                del q, k, v, out, grad
    RESULTS["attention"] = rows
    save()
    print("attention", len(rows), flush=True)


def streaming():
    """Memory-bound kernels: time per call and the bytes each is taken to move (its tensors once)."""
    rows = []

    def add(name, dtype, elements, bytes_moved, fn, **extra):
        ms = timed_ms(fn)
        rows.append({"kernel": name, "dtype": str(dtype).split(".")[-1], "elements": elements,
                     "bytes": bytes_moved, "ms": ms, "gbps": bytes_moved / ms / 1e6, **extra})

    for dtype in [torch.float32, torch.bfloat16]:
        size = 1 << 26
        e = torch.finfo(dtype).bits // 8
        x, y = torch.randn(size, device="cuda", dtype=dtype), torch.randn(size, device="cuda", dtype=dtype)
        add("copy", dtype, size, 2 * size * e, lambda: x.clone())
        add("add", dtype, size, 3 * size * e, lambda: x + y)
        add("relu", dtype, size, 2 * size * e, lambda: torch.relu(x))
        add("gelu", dtype, size, 2 * size * e, lambda: F.gelu(x))
        add("mul", dtype, size, 3 * size * e, lambda: x * y)
        xg = x.detach().requires_grad_()
        g = torch.randn_like(x)
        add("gelu_backward", dtype, size, 3 * size * e, lambda: torch.ops.aten.gelu_backward(g, x))
        add("dropout", dtype, size, 3 * size * e, lambda: F.dropout(x, 0.1, training=True))
        for hidden in [768, 2048, 4096, 8192]:
            rows_ = size // hidden
            t = x.view(rows_, hidden)
            w, b = torch.ones(hidden, device="cuda", dtype=dtype), torch.zeros(hidden, device="cuda", dtype=dtype)
            add("layer_norm", dtype, size, 2 * size * e, lambda: F.layer_norm(t, (hidden,), w, b), hidden=hidden)
            tg = t.detach().requires_grad_()
            out = F.layer_norm(tg, (hidden,), w, b)
            go = torch.randn_like(out)
            add("layer_norm_fwd_bwd", dtype, size, 5 * size * e,
                lambda: torch.autograd.grad(F.layer_norm(tg, (hidden,), w, b), tg, go), hidden=hidden)
            add("rms_norm_eager", dtype, size, 2 * size * e,
                lambda: t * torch.rsqrt(t.float().pow(2).mean(-1, keepdim=True) + 1e-5).to(dtype) * w, hidden=hidden)
            if hasattr(F, "rms_norm"):
                add("rms_norm", dtype, size, 2 * size * e, lambda: F.rms_norm(t, (hidden,), w), hidden=hidden)
            add("softmax", dtype, size, 2 * size * e, lambda: torch.softmax(t, -1), hidden=hidden)
        del x, y, g, xg
    # The loss over a GPT vocabulary, and an embedding's gather and scatter-add.
    for tokens, vocab in [(8192, 50368), (8192, 128256)]:
        logits = torch.randn(tokens, vocab, device="cuda", dtype=torch.bfloat16, requires_grad=True)
        labels = torch.randint(0, vocab, (tokens,), device="cuda")
        add("cross_entropy", torch.bfloat16, tokens * vocab, tokens * vocab * 2 * 2,
            lambda: F.cross_entropy(logits.float(), labels), vocab=vocab)
        add("cross_entropy_fwd_bwd", torch.bfloat16, tokens * vocab, tokens * vocab * 2 * 4,
            lambda: torch.autograd.grad(F.cross_entropy(logits.float(), labels), logits), vocab=vocab)
        del logits
    table = torch.randn(50368, 4096, device="cuda", dtype=torch.bfloat16, requires_grad=True)
    ids = torch.randint(0, 50368, (8192,), device="cuda")
    add("embedding_fwd_bwd", torch.bfloat16, 8192 * 4096, 8192 * 4096 * 2 * 2 + table.numel() * 2,
        lambda: torch.autograd.grad(F.embedding(ids, table).sum(), table))
    del table
    # ResNet-50's streaming layers at batch 64: batch norm, ReLU and max pooling, NCHW and NHWC.
    for dtype, fmt in [(torch.float32, torch.contiguous_format), (torch.float16, torch.channels_last),
                       (torch.float16, torch.contiguous_format)]:
        e = torch.finfo(dtype).bits // 8
        for c, hw in [(64, 112), (256, 56), (512, 28), (1024, 14), (2048, 7)]:
            x = torch.randn(64, c, hw, hw, device="cuda", dtype=dtype).to(memory_format=fmt).requires_grad_()
            bn = torch.nn.BatchNorm2d(c).cuda().to(memory_format=fmt)
            n = x.numel()
            with torch.autocast("cuda", dtype=torch.float16, enabled=dtype == torch.float16):
                out = bn(x)
            go = torch.randn_like(out)

            def bn_fwd():
                with torch.autocast("cuda", dtype=torch.float16, enabled=dtype == torch.float16):
                    return bn(x)

            add("batch_norm", dtype, n, 2 * n * e, bn_fwd, channels=c, hw=hw, layout=str(fmt).split(".")[-1])
            add("batch_norm_fwd_bwd", dtype, n, 5 * n * e, lambda: torch.autograd.grad(bn_fwd(), x, go),
                channels=c, hw=hw, layout=str(fmt).split(".")[-1])
            if c == 64:
                add("max_pool", dtype, n, n * e * 1.25, lambda: F.max_pool2d(x, 3, 2, 1), channels=c, hw=hw,
                    layout=str(fmt).split(".")[-1])
                add("max_pool_fwd_bwd", dtype, n, n * e * 2.5,
                    lambda: torch.autograd.grad(F.max_pool2d(x, 3, 2, 1).sum(), x), channels=c, hw=hw,
                    layout=str(fmt).split(".")[-1])
            del x, bn, out, go
    RESULTS["streaming"] = rows
    save()
    print("streaming", len(rows), flush=True)
    # The optimizer step over 1e9 fp32 parameters: foreach and fused AdamW, SGD with momentum.
    rows = []
    params = [torch.nn.Parameter(torch.randn(1 << 24, device="cuda")) for _ in range(60)]
    for p in params:
        p.grad = torch.randn_like(p)
    count = sum(p.numel() for p in params)
    for name, make in [("adamw_foreach", lambda: torch.optim.AdamW(params, foreach=True)),
                       ("adamw_fused", lambda: torch.optim.AdamW(params, fused=True)),
                       ("sgd_momentum_foreach", lambda: torch.optim.SGD(params, lr=0.1, momentum=0.9, foreach=True))]:
        opt = make()
        ms = timed_ms(opt.step, calls=3, repeats=3)
        moved = count * (28 if name.startswith("adam") else 20)
        rows.append({"optimizer": name, "parameters": count, "ms": ms, "bytes": moved, "gbps": moved / ms / 1e6})
        del opt
    RESULTS["optimizer"] = rows
    save()
    print("optimizer", rows, flush=True)


def launches():
    """Host time per eager op on a tiny tensor: what an op costs when the GPU waits for the host."""
    x = torch.ones(1, device="cuda")
    rows = []
    for name, fn in [("add", lambda: x + 1), ("linear_tiny", lambda: F.linear(x.view(1, 1), x.view(1, 1)))]:
        torch.cuda.synchronize()
        for _ in range(100):
            fn()
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(5000):
            fn()
        torch.cuda.synchronize()
        rows.append({"op": name, "us_per_op": (time.perf_counter() - start) / 5000 * 1e6})
    RESULTS["launch"] = rows
    save()
    print("launch", rows, flush=True)


class Block(torch.nn.Module):
    """A GPT block as MPT/llm-foundry and nanoGPT build it: pre-LayerNorm, fused QKV, causal
    flash attention (SDPA), a GELU MLP of width 4h; no biases."""

    def __init__(self, hidden, heads, ffn):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = torch.nn.LayerNorm(hidden), torch.nn.LayerNorm(hidden)
        self.qkv, self.proj = torch.nn.Linear(hidden, 3 * hidden, bias=False), torch.nn.Linear(hidden, hidden, bias=False)
        self.up, self.down = torch.nn.Linear(hidden, ffn, bias=False), torch.nn.Linear(ffn, hidden, bias=False)

    def forward(self, x):
        b, s, h = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(b, s, 3, self.heads, h // self.heads).permute(2, 0, 3, 1, 4)
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).reshape(b, s, h)
        x = x + self.proj(a)
        return x + self.down(F.gelu(self.up(self.ln2(x))))


class Gpt(torch.nn.Module):
    def __init__(self, layers, hidden, heads, ffn, vocab, checkpointed):
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, hidden)
        self.blocks = torch.nn.ModuleList(Block(hidden, heads, ffn) for _ in range(layers))
        self.ln, self.head = torch.nn.LayerNorm(hidden), torch.nn.Linear(hidden, vocab, bias=False)
        self.checkpointed = checkpointed

    def forward(self, ids, labels):
        x = self.embed(ids)
        for block in self.blocks:
            x = torch.utils.checkpoint.checkpoint(block, x, use_reentrant=False) if self.checkpointed else block(x)
        logits = self.head(self.ln(x))
        return F.cross_entropy(logits.float().view(-1, logits.shape[-1]), labels.view(-1))


def kernel_breakdown(step, steps=2, top=60):
    """GPU time per step of each kernel name under torch.profiler (the longest `top`)."""
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(steps):
            step()
        torch.cuda.synchronize()
    rows = []
    for event in prof.key_averages():
        device_us = getattr(event, "self_device_time_total", None)
        if device_us is None:
            device_us = getattr(event, "self_cuda_time_total", 0)
        if device_us > 0:
            rows.append({"name": event.key[:160], "calls_per_step": event.count / steps,
                         "ms_per_step": device_us / steps / 1e3})
    rows.sort(key=lambda r: -r["ms_per_step"])
    total = sum(r["ms_per_step"] for r in rows)
    return {"total_ms_per_step": total, "top": rows[:top]}


def steps_of(name, step, samples, tokens_per_sample, iterations=8):
    for _ in range(3):
        step()
    torch.cuda.synchronize()
    times = []
    for _ in range(iterations):
        start = time.perf_counter()
        step()
        torch.cuda.synchronize()
        times.append(time.perf_counter() - start)
    ms = statistics.median(times) * 1e3
    return {"model": name, "step_ms": ms, "samples_per_s": samples / ms * 1e3,
            "tokens_per_s": samples * tokens_per_sample / ms * 1e3,
            "max_memory_allocated_gib": torch.cuda.max_memory_allocated() / 2**30}


def models():
    """Whole training steps: GPT decoders in bf16 autocast with AdamW (fused), ResNet-50 in AMP
    channels-last and in fp32/TF32 NCHW with SGD, HF BERT-Large pretraining in AMP."""
    rows = RESULTS.setdefault("models", [])
    gpts = [("gpt 12x768 (GPT-2 small)", 12, 768, 12, 3072, 50368, 1024, 16, False),
            ("gpt 24x2048 (MPT-1b)", 24, 2048, 16, 8192, 50368, 2048, 8, False),
            ("gpt 32x2560 (MPT-3b)", 32, 2560, 20, 10240, 50368, 2048, 4, False),
            ("gpt 32x2560 (MPT-3b) checkpointed", 32, 2560, 20, 10240, 50368, 2048, 8, True),
            ("gpt 32x4096 (MPT-7b, 8 layers)", 8, 4096, 32, 16384, 50368, 2048, 4, False)]
    for name, layers, hidden, heads, ffn, vocab, seq, batch, checkpointed in gpts:
        torch.cuda.reset_peak_memory_stats()
        with torch.device("cuda"):
            model = Gpt(layers, hidden, heads, ffn, vocab, checkpointed)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
        ids = torch.randint(0, vocab, (batch, seq), device="cuda")

        def step():
            opt.zero_grad(set_to_none=True)
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = model(ids, ids)
            loss.backward()
            opt.step()

        row = steps_of(name, step, batch, seq)
        if layers == 24:
            row["kernels"] = kernel_breakdown(step)
        row.update({"layers": layers, "hidden": hidden, "heads": heads, "ffn": ffn, "vocab": vocab, "seq": seq,
                    "batch": batch, "precision": "bf16 autocast", "checkpointing": "full" if checkpointed else "none",
                    "parameters": sum(p.numel() for p in model.parameters())})
        rows.append(row)
        print("model", row, flush=True)
        save()
        del model, opt, ids
        torch.cuda.empty_cache()
    import torchvision
    torch.backends.cudnn.benchmark = True
    for name, dtype, fmt, batch in [("resnet50 amp channels_last", "fp16", torch.channels_last, 256),
                                    ("resnet50 tf32 nchw", "tf32", torch.contiguous_format, 256),
                                    ("resnet50 fp32 nchw", "fp32", torch.contiguous_format, 128)]:
        set_tf32(dtype)
        torch.cuda.reset_peak_memory_stats()
        model = torchvision.models.resnet50().cuda().to(memory_format=fmt)
        opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, foreach=True)
        images = torch.randn(batch, 3, 224, 224, device="cuda").to(memory_format=fmt)
        labels = torch.randint(0, 1000, (batch,), device="cuda")
        scaler = torch.amp.GradScaler(enabled=dtype == "fp16")

        def step():
            opt.zero_grad(set_to_none=True)
            with torch.autocast("cuda", dtype=torch.float16, enabled=dtype == "fp16"):
                loss = F.cross_entropy(model(images), labels)
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()

        row = steps_of(name, step, batch, 1)
        if dtype == "fp16":
            row["kernels"] = kernel_breakdown(step)
        row.update({"batch": batch, "precision": dtype, "layout": str(fmt).split(".")[-1]})
        rows.append(row)
        print("model", row, flush=True)
        save()
        del model, opt, images
        torch.cuda.empty_cache()
    set_tf32("fp32")
    from transformers import BertConfig, BertForPreTraining
    for seq, batch in [(128, 64), (512, 16)]:
        torch.cuda.reset_peak_memory_stats()
        config = BertConfig(hidden_size=1024, num_hidden_layers=24, num_attention_heads=16, intermediate_size=4096)
        model = BertForPreTraining(config).cuda()
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
        scaler = torch.amp.GradScaler()
        ids = torch.randint(0, config.vocab_size, (batch, seq), device="cuda")
        inputs = dict(input_ids=ids, attention_mask=torch.ones_like(ids), token_type_ids=torch.zeros_like(ids),
                      labels=ids.clone(), next_sentence_label=torch.randint(0, 2, (batch,), device="cuda"))

        def step():
            opt.zero_grad(set_to_none=True)
            with torch.autocast("cuda", dtype=torch.float16):
                loss = model(**inputs).loss
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()

        row = steps_of(f"bert-large amp seq {seq}", step, batch, seq)
        row.update({"batch": batch, "seq": seq, "precision": "fp16 autocast",
                    "attention": getattr(model.config, "_attn_implementation", "?")})
        rows.append(row)
        print("model", row, flush=True)
        save()
        del model, opt
        torch.cuda.empty_cache()


SECTIONS = {"machine": machine, "gemm": gemm, "attention": attention, "streaming": streaming,
            "launches": launches, "models": models}


def main():
    global ARGS
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--results", required=True, help="JSON file the rows are written to")
    parser.add_argument("--only", default=",".join(SECTIONS), help="comma-separated sections")
    parser.add_argument("--repeats", type=int, default=3)
    ARGS = parser.parse_args()
    if os.path.exists(ARGS.results):
        RESULTS.update(json.load(open(ARGS.results)))
    for name in ARGS.only.split(","):
        start = time.perf_counter()
        try:
            SECTIONS[name]()
        except Exception as error:  # keep the other sections' rows
            RESULTS.setdefault("errors", []).append({"section": name, "error": repr(error)[:500]})
            save()
            print("section", name, "failed:", repr(error), flush=True)
        torch.cuda.empty_cache()
        print(f"section {name}: {time.perf_counter() - start:.1f} s", flush=True)
    RESULTS.setdefault("machine", {})
    save()


if __name__ == "__main__":
    main()
