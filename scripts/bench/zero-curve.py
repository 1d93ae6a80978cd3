#!/usr/bin/env python3
"""Draws a `tune zero` run's learning curve as SVG: the cumulative gate Elo (each promoted
network's gate score against the one before it, as Elo, summed) and, where measured, the share
of moves that keep Connect Four's exact value, both against training hours.

usage: zero-curve.py --log RUN/log.csv [--agreement FILE] --out curve.svg [--title TEXT]

--agreement FILE: lines `GENERATION HOURS PERCENT` (one network each, as measured by
oracle); a second panel when given.
"""
import argparse
import math


def gate_elo(log_path):
    """(hours, cumulative Elo) after each generation, from the gate records of log.csv."""
    points, total = [(0.0, 0.0)], 0.0
    with open(log_path) as f:
        header = f.readline().strip().split(",")
        col = {name: i for i, name in enumerate(header)}
        for line in f:
            fields = line.strip().split(",")
            if len(fields) != len(header):
                continue
            w, d, l = (int(fields[col[k]]) for k in ("gate_wins", "gate_draws", "gate_losses"))
            if int(fields[col["promoted"]]) and w + d + l:
                score = min(max((w + d / 2) / (w + d + l), 0.01), 0.99)
                total += -400 * math.log10(1 / score - 1)
            points.append((float(fields[col["hours"]]), total))
    return points


def panel(points, x0, y0, width, height, xmax, label, unit, lo=None, hi=None):
    ys = [p[1] for p in points]
    lo = min(ys) if lo is None else lo
    hi = max(ys) if hi is None else hi
    if hi <= lo:
        hi = lo + 1
    sx = lambda x: x0 + width * x / xmax
    sy = lambda y: y0 + height - height * (y - lo) / (hi - lo)
    out = [f'<rect x="{x0}" y="{y0}" width="{width}" height="{height}" fill="none" stroke="#888"/>']
    for k in range(5):
        y = lo + (hi - lo) * k / 4
        out.append(f'<line x1="{x0}" x2="{x0 + width}" y1="{sy(y):.1f}" y2="{sy(y):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{x0 - 6}" y="{sy(y) + 4:.1f}" text-anchor="end" font-size="11">{y:.0f}{unit}</text>')
    for k in range(5):
        x = xmax * k / 4
        out.append(f'<text x="{sx(x):.1f}" y="{y0 + height + 16}" text-anchor="middle" font-size="11">{x:.2f} h</text>')
    path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in points)
    out.append(f'<polyline points="{path}" fill="none" stroke="#1f5fa8" stroke-width="2"/>')
    for x, y in points:
        out.append(f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="2" fill="#1f5fa8"/>')
    out.append(f'<text x="{x0}" y="{y0 - 8}" font-size="13">{label}</text>')
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--log", required=True)
    ap.add_argument("--agreement")
    ap.add_argument("--out", required=True)
    ap.add_argument("--title", default="tune zero: learning curve")
    args = ap.parse_args()
    elo = gate_elo(args.log)
    agreement = []
    if args.agreement:
        with open(args.agreement) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 3:
                    agreement.append((float(parts[1]), float(parts[2])))
    xmax = max([p[0] for p in elo] + [p[0] for p in agreement] + [0.01])
    panels = 2 if agreement else 1
    width, height = 640, 70 + 230 * panels
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif">',
           '<rect width="100%" height="100%" fill="white"/>',
           f'<text x="{width / 2}" y="22" text-anchor="middle" font-size="15">{args.title}</text>']
    svg += panel(elo, 70, 55, 540, 170, xmax, "cumulative gate Elo (self-play, each network against the one before)", "")
    if agreement:
        svg += panel(agreement, 70, 285, 540, 170, xmax,
                     "moves that keep Connect Four's exact value (Pons' solver)", "%", None, 100)
    svg.append("</svg>")
    with open(args.out, "w") as f:
        f.write("\n".join(svg) + "\n")


if __name__ == "__main__":
    main()
