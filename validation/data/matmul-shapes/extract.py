#!/usr/bin/env python3
# Turns OpenXLA's matmul performance table (a text protobuf of GemmPerfTable) into
# xla-default-matmul-table.csv: one row per architecture, shape and dtype, figures as written.
import re
import sys

def main(path):
    arch = None
    shape = {}
    print("arch,b,m,n,k,dtype,flops_per_s")
    for line in open(path):
        line = line.strip()
        if m := re.fullmatch(r'key: "([^"]+)"', line):
            arch = m.group(1)
        elif m := re.fullmatch(r'([bmnk]): (\d+)', line):
            shape[m.group(1)] = m.group(2)
        elif m := re.fullmatch(r'flops \{ key: "([^"]+)" value: (\d+) \}', line):
            print(",".join([arch, shape["b"], shape["m"], shape["n"], shape["k"], m.group(1), m.group(2)]))
        elif line.startswith("entries {") and arch is not None:
            shape = {}

if __name__ == "__main__":
    main(sys.argv[1])
