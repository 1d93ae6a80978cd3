//! A hand-written SVG chart of tournaments, one panel per tournament:
//!
//! - the standings: in two-player games each agent's Elo against the rest of the field (or,
//!   with two agents, the one pairing's Elo) with its 95% interval as a horizontal error bar
//!   on a labelled Elo axis, and the W-D-L record, score and interval as text; in N-player
//!   games each agent's mean score as a bar on a 0-100% axis, with its mean rank;
//! - each agent's running mean score over its games, on a games axis and a score axis, with a
//!   legend that names the agents by colour, marker shape and letter;
//! - with three or more agents in two-player games, the pairwise score table as a heat map
//!   (red below 50%, white at 50%, green above), W-D-L in each cell.
//!
//! Agents keep one letter, colour and marker shape everywhere; they are listed best first.
//! Long names (external engine commands) are shortened in the middle with an ellipsis and
//! carry the full text in a `<title>` tooltip. The output is deterministic and valid XML.

use std::fmt::Write as _;

use ply::arena::{EloEstimate, PairTotals, Standings};
use ply::Player;

use super::results::Tournament;

/// Agent colours (distinct, readable on white), by agent index.
const PALETTE: [&str; 10] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
    "#7f7f7f", "#bcbd22",
];
/// How many marker shapes [`marker`] draws.
const SHAPES: usize = 8;
/// The document's least width.
const WIDTH: f64 = 1080.0;
/// Space around a panel's content.
const MARGIN: f64 = 24.0;
/// Label text size.
const FONT: f64 = 13.0;
/// Tick label and small text size.
const SMALL: f64 = 12.0;
/// Text colour of labels; axes and grid lines are lighter.
const INK: &str = "#222";
const MUTED: &str = "#555";
const AXIS: &str = "#444";
const GRID: &str = "#e3e3e3";

// The standings' columns: agent, plot, then text.
const NAME_X: f64 = MARGIN;
const NAME_W: f64 = 270.0;
const PLOT_X0: f64 = 316.0;
const PLOT_X1: f64 = 676.0;
const COL_A: f64 = 712.0;
const COL_B: f64 = 880.0;
const COL_C: f64 = 896.0;

// The score curves' plot.
const CURVE_X0: f64 = MARGIN + 64.0;
const CURVE_W: f64 = 600.0;
const CURVE_H: f64 = 220.0;
/// Points drawn per curve at most (longer curves are thinned evenly).
const CURVE_POINTS: usize = 600;

/// Each agent's running mean score after each of its games, in schedule order.
pub(crate) fn score_curves(t: &Tournament) -> Vec<Vec<f64>> {
    let mut sums = vec![(0.0, 0u32); t.agents.len()];
    let mut curves = vec![Vec::new(); t.agents.len()];
    for r in &t.records {
        let outcome = r.result.to_outcome();
        let n = r.seats.len();
        for (s, &a) in r.seats.iter().enumerate() {
            sums[a].0 += outcome.reward(Player::new(s), n);
            sums[a].1 += 1;
            curves[a].push(sums[a].0 / f64::from(sums[a].1));
        }
    }
    curves
}

/// Agent `a`'s record against every other agent together (two-player games), from its side:
/// wins, draws, losses and pentanomial pairs summed over its pairings; `None` if it played
/// no two-player game against another agent.
pub(crate) fn field_record(standings: &Standings, a: usize) -> Option<PairTotals> {
    let mut total = PairTotals::default();
    let mut any = false;
    for b in (0..standings.names().len()).filter(|&b| b != a) {
        if let Some(p) = standings.pair(a, b) {
            any = true;
            total.wins += p.wins;
            total.draws += p.draws;
            total.losses += p.losses;
            for (t, c) in total.pentanomial.iter_mut().zip(p.pentanomial) {
                *t += c;
            }
        }
    }
    any.then_some(total)
}

/// The chart of `tournaments`, one panel each, as an SVG document.
pub fn render(tournaments: &[Tournament]) -> String {
    let panels: Vec<Panel> = tournaments.iter().map(panel).collect();
    let width = panels.iter().map(|p| p.width).fold(WIDTH, f64::max).ceil();
    let mut height: f64 = panels.iter().map(|p| p.height).sum();
    if panels.is_empty() {
        height = 60.0;
    }
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Verdana, Arial, sans-serif" font-size="{FONT}" fill="{INK}">"#
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    // The heat maps' colour scale.
    let _ = writeln!(
        svg,
        r##"<defs><linearGradient id="heat-scale" x1="0" y1="1" x2="0" y2="0"><stop offset="0" stop-color="{}"/><stop offset="0.5" stop-color="#ffffff"/><stop offset="1" stop-color="{}"/></linearGradient></defs>"##,
        hex(heat_color(0.0)),
        hex(heat_color(1.0))
    );
    if panels.is_empty() {
        let _ = writeln!(svg, r#"<text x="{MARGIN}" y="36">No games.</text>"#);
    }
    let mut top = 0.0;
    for (i, p) in panels.iter().enumerate() {
        if i > 0 {
            let _ = writeln!(
                svg,
                r##"<line x1="{MARGIN}" y1="{top:.1}" x2="{:.1}" y2="{top:.1}" stroke="#bbb"/>"##,
                width - MARGIN
            );
        }
        let _ = writeln!(svg, r#"<g transform="translate(0,{top:.1})">"#);
        svg.push_str(&p.body);
        svg.push_str("</g>\n");
        top += p.height;
    }
    svg.push_str("</svg>\n");
    svg
}

/// One tournament's drawing, in coordinates from its top left corner.
struct Panel {
    body: String,
    width: f64,
    height: f64,
}

/// What the panel knows of the agents: names, display order (best first) and standings.
struct Agents<'a> {
    names: &'a [String],
    order: Vec<usize>,
    standings: Standings,
}

fn panel(t: &Tournament) -> Panel {
    let standings = t.standings();
    let n = t.agents.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        standings
            .agent(b)
            .mean_reward()
            .total_cmp(&standings.agent(a).mean_reward())
            .then(a.cmp(&b))
    });
    let agents = Agents { names: &t.agents, order, standings };
    let mut out = String::new();
    let mut width = WIDTH;

    let title = format!("{} \u{2014} {} games", t.title(), t.records.len());
    let mut sub =
        vec![format!("{n} agent{}", if n == 1 { "" } else { "s" }), format!("seed {}", t.seed)];
    let adjudicated = t.records.iter().filter(|r| r.adjudicated).count();
    if adjudicated > 0 {
        sub.push(format!("{adjudicated} adjudicated draws at the ply cap"));
    }
    let (missing, _) = t.missing(0);
    if missing > 0 {
        sub.push(format!("{missing} scheduled games missing"));
    }
    text_fit(
        &mut out,
        MARGIN,
        28.0,
        &title,
        // Bold type is about a tenth wider.
        (WIDTH - 2.0 * MARGIN) / 1.1,
        18.0,
        r#"font-weight="bold""#,
    );
    text_fit(
        &mut out,
        MARGIN,
        48.0,
        &sub.join(" \u{b7} "),
        WIDTH - 2.0 * MARGIN,
        SMALL,
        &format!(r#"fill="{MUTED}""#),
    );
    let mut y = 62.0;
    let two_player = agents.standings.pairs().next().is_some();
    y = if two_player {
        elo_section(&mut out, &agents, y)
    } else {
        score_section(&mut out, &agents, y)
    };
    y = curve_section(&mut out, &agents, &score_curves(t), y);
    if two_player && n >= 3 {
        let (bottom, w) = heat_map(&mut out, &agents, y);
        y = bottom;
        width = width.max(w);
    }
    Panel { body: out, width, height: y + 12.0 }
}

// ---------------------------------------------------------------------------------------
// Standings

/// The two-player standings: Elo with its interval per agent against the field (or the one
/// pairing of two agents), W-D-L, score. Returns the section's bottom.
fn elo_section(out: &mut String, agents: &Agents, top: f64) -> f64 {
    struct Row {
        agent: usize,
        opponent: Option<usize>,
        record: PairTotals,
        elo: EloEstimate,
    }
    let s = &agents.standings;
    let pair_only = agents.names.len() == 2;
    let rows: Vec<Row> = if pair_only {
        let (a, b) = (agents.order[0], agents.order[1]);
        s.pair(a, b)
            .and_then(|record| {
                Some(Row { agent: a, opponent: Some(b), record, elo: record.elo()? })
            })
            .into_iter()
            .collect()
    } else {
        agents
            .order
            .iter()
            .filter_map(|&a| {
                let record = field_record(s, a)?;
                Some(Row { agent: a, opponent: None, record, elo: record.elo()? })
            })
            .collect()
    };
    let heading = if pair_only {
        "Elo difference with 95% interval"
    } else {
        "Elo against the rest of the field, with 95% interval"
    };
    let mut y = heading_text(out, top, heading);
    // The axis: every finite end and estimate, and 0.
    let mut values = vec![0.0];
    for r in &rows {
        values.extend([r.elo.low, r.elo.elo, r.elo.high].into_iter().filter(|v| v.is_finite()));
    }
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let unbounded_low = rows.iter().any(|r| r.elo.low == f64::NEG_INFINITY);
    let unbounded_high = rows.iter().any(|r| r.elo.high == f64::INFINITY);
    let axis = elo_axis(lo, hi, unbounded_low, unbounded_high);

    let headers = [
        (COL_A, "start", "W-D-L"),
        (COL_B, "end", "score"),
        (COL_C, "start", "Elo [95% interval]"),
    ];
    y = column_headers(out, y, if pair_only { "agent vs opponent" } else { "agent" }, &headers);
    let row_h = if pair_only { 46.0 } else { 30.0 };
    let rows_top = y;
    let label = if pair_only {
        "Elo difference, first agent over second"
    } else {
        "Elo difference against the other agents together"
    };
    let bottom = table_frame(out, &axis, rows_top, row_h, rows.len(), 0.0, label, &fmt_elo);
    if rows.is_empty() {
        let _ = writeln!(
            out,
            r#"<text x="{PLOT_X0}" y="{:.1}">No finished pairing.</text>"#,
            rows_top + 18.0
        );
    }
    for (i, r) in rows.iter().enumerate() {
        let cy = rows_top + row_h * (i as f64 + 0.5);
        let mut tip = match r.opponent {
            Some(b) => format!("{} vs {}", agents.names[r.agent], agents.names[b]),
            None => format!("{} vs the rest of the field", agents.names[r.agent]),
        };
        let wdl = format!("{}-{}-{}", r.record.wins, r.record.draws, r.record.losses);
        let score = format!("{:.1}%", r.elo.score * 100.0);
        let elo =
            format!("{} [{}, {}]", fmt_elo(r.elo.elo), fmt_elo(r.elo.low), fmt_elo(r.elo.high));
        let _ = write!(tip, ": {wdl} (W-D-L), score {score}, Elo {elo}");
        let _ = writeln!(out, "<g><title>{}</title>", escape(&tip));
        match r.opponent {
            Some(b) => {
                agent_label(out, agents, r.agent, NAME_X, cy - 9.0, NAME_W, "");
                agent_label(out, agents, b, NAME_X, cy + 11.0, NAME_W, "vs ");
            }
            None => agent_label(out, agents, r.agent, NAME_X, cy, NAME_W, ""),
        }
        error_bar(out, &axis, r.agent, cy, &r.elo);
        let base = cy + FONT * 0.35;
        let _ = writeln!(out, r#"<text x="{COL_A}" y="{base:.1}">{wdl}</text>"#);
        let _ =
            writeln!(out, r#"<text x="{COL_B}" y="{base:.1}" text-anchor="end">{score}</text>"#);
        let _ = writeln!(out, r#"<text x="{COL_C}" y="{base:.1}">{}</text>"#, escape(&elo));
        out.push_str("</g>\n");
    }
    bottom + 10.0
}

/// Under a table of `rows` rows from `rows_top`: the row stripes, the axis below them with its
/// grid, and a dashed line at `reference`. Returns the bottom of the axis label.
#[allow(clippy::too_many_arguments)]
fn table_frame(
    out: &mut String,
    axis: &Axis,
    rows_top: f64,
    row_h: f64,
    rows: usize,
    reference: f64,
    label: &str,
    fmt: &dyn Fn(f64) -> String,
) -> f64 {
    for i in 0..rows {
        stripe(out, rows_top + row_h * i as f64, row_h, i);
    }
    let bottom = rows_top + row_h * rows.max(1) as f64;
    let y = x_axis(out, axis, bottom, rows_top, label, fmt);
    let rx = axis.pos(reference);
    let _ = writeln!(
        out,
        r##"<line x1="{rx:.1}" y1="{rows_top:.1}" x2="{rx:.1}" y2="{bottom:.1}" stroke="#888" stroke-dasharray="4 3"/>"##
    );
    y
}

/// The N-player standings: each agent's mean score as a bar on a 0-100% axis, its mean rank
/// and games. Returns the section's bottom.
fn score_section(out: &mut String, agents: &Agents, top: f64) -> f64 {
    let s = &agents.standings;
    let players = agents.names.len();
    let mut y = heading_text(out, top, "Mean score per game (100% = first place, 0% = last)");
    let headers = [
        (COL_A + 60.0, "end", "mean score"),
        (COL_B, "end", "mean rank"),
        (COL_B + 110.0, "end", "games"),
    ];
    y = column_headers(out, y, "agent", &headers);
    let axis = Axis::new(0.0, 1.0, vec![0.0, 0.25, 0.5, 0.75, 1.0], PLOT_X0, PLOT_X1);
    let row_h = 30.0;
    let rows_top = y;
    let bottom = table_frame(
        out,
        &axis,
        rows_top,
        row_h,
        agents.order.len(),
        0.5,
        "mean score per game",
        &pct,
    );
    for (i, &a) in agents.order.iter().enumerate() {
        let t = s.agent(a);
        let cy = rows_top + row_h * (i as f64 + 0.5);
        let score = format!("{:.1}%", t.mean_reward() * 100.0);
        let rank = format!("{:.2}", t.mean_rank());
        let tip = format!(
            "{}: mean score {score}, mean rank {rank} of {players}, {} games",
            agents.names[a], t.games
        );
        let _ = writeln!(out, "<g><title>{}</title>", escape(&tip));
        agent_label(out, agents, a, NAME_X, cy, NAME_W, "");
        let x1 = axis.pos(t.mean_reward());
        let _ = writeln!(
            out,
            r#"<rect x="{PLOT_X0}" y="{:.1}" width="{:.1}" height="16" fill="{}" fill-opacity="0.85"/>"#,
            cy - 8.0,
            (x1 - PLOT_X0).max(0.0),
            color(a)
        );
        marker(out, a, x1, cy, 5.5);
        let base = cy + FONT * 0.35;
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{base:.1}" text-anchor="end">{score}</text>"#,
            COL_A + 60.0
        );
        let _ = writeln!(out, r#"<text x="{COL_B}" y="{base:.1}" text-anchor="end">{rank}</text>"#);
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{base:.1}" text-anchor="end">{}</text>"#,
            COL_B + 110.0,
            t.games
        );
        out.push_str("</g>\n");
    }
    bottom + 10.0
}

/// A horizontal error bar: the interval as a line with caps at finite ends and arrowheads at
/// the axis edge for unbounded ends, the estimate as the agent's marker.
fn error_bar(out: &mut String, axis: &Axis, agent: usize, cy: f64, e: &EloEstimate) {
    let c = color(agent);
    let (xl, xh) = (axis.pos(e.low), axis.pos(e.high));
    let _ = writeln!(
        out,
        r#"<line x1="{xl:.1}" y1="{cy:.1}" x2="{xh:.1}" y2="{cy:.1}" stroke="{c}" stroke-width="2.5"/>"#
    );
    for (v, x, dir) in [(e.low, xl, -1.0), (e.high, xh, 1.0)] {
        if v.is_finite() {
            let _ = writeln!(
                out,
                r#"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="{c}" stroke-width="2.5"/>"#,
                cy - 7.0,
                cy + 7.0
            );
        } else {
            arrow(out, x + dir * 3.0, cy, dir, c);
        }
    }
    marker(out, agent, axis.pos(e.elo), cy, 5.5);
}

/// An arrowhead at `x` pointing right (`dir` 1) or left (-1): an unbounded end.
fn arrow(out: &mut String, x: f64, y: f64, dir: f64, color: &str) {
    let tip = x + dir * 11.0;
    let _ = writeln!(
        out,
        r#"<polygon points="{x:.1},{:.1} {tip:.1},{y:.1} {x:.1},{:.1}" fill="{color}"/>"#,
        y - 6.0,
        y + 6.0
    );
}

/// An Elo value as text: signed, rounded, `∞` for an unbounded end.
fn fmt_elo(v: f64) -> String {
    if v.is_nan() {
        "?".into()
    } else if v == f64::INFINITY {
        "+\u{221e}".into()
    } else if v == f64::NEG_INFINITY {
        "-\u{221e}".into()
    } else if v.round() == 0.0 {
        "0".into()
    } else {
        format!("{:+.0}", v)
    }
}

fn pct(v: f64) -> String {
    format!("{}%", (v * 100.0).round())
}

/// The Elo axis over `[lo, hi]` (finite, containing 0), widened to at least ±100 and to round
/// ticks, with a `-∞` or `+∞` tick past a gap at the ends where some value is unbounded.
fn elo_axis(lo: f64, hi: f64, unbounded_low: bool, unbounded_high: bool) -> Axis {
    let (lo, hi) = (lo.min(-50.0), hi.max(50.0));
    let step = nice_step((hi - lo) / 6.0);
    let (lo, hi) = ((lo / step).floor() * step, (hi / step).ceil() * step);
    let ticks = ticks(lo, hi, step);
    let mut axis = Axis::new(lo, hi, ticks, PLOT_X0, PLOT_X1);
    axis.unbounded = (unbounded_low, unbounded_high);
    axis
}

// ---------------------------------------------------------------------------------------
// Score curves

/// The running mean score per agent over its games, with the legend. Returns the bottom.
fn curve_section(out: &mut String, agents: &Agents, curves: &[Vec<f64>], top: f64) -> f64 {
    let y = heading_text(out, top, "Running mean score");
    let plot_top = y + 6.0;
    let plot_bottom = plot_top + CURVE_H;
    let games = curves.iter().map(Vec::len).max().unwrap_or(0).max(1);
    let step = nice_step(games as f64 / 6.0).max(1.0);
    let hi = ((games as f64) / step).ceil() * step;
    let xaxis = Axis::new(0.0, hi, ticks(0.0, hi, step), CURVE_X0, CURVE_X0 + CURVE_W);
    let ymap = |v: f64| plot_bottom - CURVE_H * v.clamp(0.0, 1.0);
    // Grid and y axis.
    for (v, label) in [(0.0, "0%"), (0.25, "25%"), (0.5, "50%"), (0.75, "75%"), (1.0, "100%")] {
        let gy = ymap(v);
        let (stroke, dash) =
            if v == 0.5 { ("#888", r#" stroke-dasharray="4 3""#) } else { (GRID, "") };
        let _ = writeln!(
            out,
            r#"<line x1="{CURVE_X0}" y1="{gy:.1}" x2="{:.1}" y2="{gy:.1}" stroke="{stroke}"{dash}/>"#,
            CURVE_X0 + CURVE_W
        );
        let _ = writeln!(
            out,
            r#"<line x1="{:.1}" y1="{gy:.1}" x2="{CURVE_X0}" y2="{gy:.1}" stroke="{AXIS}"/>"#,
            CURVE_X0 - 5.0
        );
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end" font-size="{SMALL}">{label}</text>"#,
            CURVE_X0 - 8.0,
            gy + SMALL * 0.35
        );
    }
    let _ = writeln!(
        out,
        r#"<line x1="{CURVE_X0}" y1="{plot_top:.1}" x2="{CURVE_X0}" y2="{plot_bottom:.1}" stroke="{AXIS}"/>"#
    );
    let ly = (plot_top + plot_bottom) / 2.0;
    let lx = CURVE_X0 - 50.0;
    let _ = writeln!(
        out,
        r#"<text x="{lx:.1}" y="{ly:.1}" text-anchor="middle" transform="rotate(-90 {lx:.1} {ly:.1})">mean score so far</text>"#
    );
    // Curves, the best agent drawn last (on top).
    let n = agents.order.len();
    for (k, &a) in agents.order.iter().enumerate().rev() {
        let curve = &curves[a];
        if curve.is_empty() {
            continue;
        }
        let stride = curve.len().div_ceil(CURVE_POINTS);
        let points: Vec<String> = (0..curve.len())
            .filter(|&i| i % stride == 0 || i + 1 == curve.len())
            .map(|i| format!("{:.1},{:.1}", xaxis.pos((i + 1) as f64), ymap(curve[i])))
            .collect();
        let _ = writeln!(
            out,
            r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="2" stroke-linejoin="round"/>"#,
            points.join(" "),
            color(a)
        );
        // Markers at staggered places so that overlapping curves stay apart, and at the end.
        let len = curve.len();
        let count = len.min(8);
        let offset = (k as f64 + 0.5) / n.max(1) as f64;
        let mut at: Vec<usize> = (0..count)
            .map(|j| (((j as f64 + offset) / count as f64) * len as f64) as usize)
            .map(|i| i.min(len - 1))
            .collect();
        at.push(len - 1);
        at.dedup();
        for i in at {
            marker(out, a, xaxis.pos((i + 1) as f64), ymap(curve[i]), 4.5);
        }
    }
    let y = x_axis(out, &xaxis, plot_bottom, plot_top, "games played by the agent", &|v| {
        format!("{v:.0}")
    });
    // Legend: marker on a line, letter, name, final score.
    let lx = CURVE_X0 + CURVE_W + 28.0;
    let name_w = WIDTH - MARGIN - (lx + 30.0) - 60.0;
    let mut ly = plot_top + 8.0;
    for &a in &agents.order {
        let _ = writeln!(
            out,
            r#"<line x1="{lx:.1}" y1="{ly:.1}" x2="{:.1}" y2="{ly:.1}" stroke="{}" stroke-width="2"/>"#,
            lx + 24.0,
            color(a)
        );
        marker(out, a, lx + 12.0, ly, 4.5);
        agent_label_at(out, agents, a, lx + 30.0, ly, name_w, false);
        if let Some(last) = curves[a].last() {
            let _ = writeln!(
                out,
                r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{:.1}%</text>"#,
                WIDTH - MARGIN,
                ly + FONT * 0.35,
                last * 100.0
            );
        }
        ly += 22.0;
    }
    y.max(ly) + 10.0
}

// ---------------------------------------------------------------------------------------
// Heat map

/// The pairwise score table as a heat map. Returns the bottom and the width it needs.
fn heat_map(out: &mut String, agents: &Agents, top: f64) -> (f64, f64) {
    let n = agents.order.len();
    let y = heading_text(out, top, "Pairwise score: row agent against column agent");
    let label_w = NAME_W;
    let x0 = NAME_X + label_w + 12.0;
    let cell_w = ((WIDTH - x0 - MARGIN - 110.0) / n as f64).clamp(46.0, 76.0);
    let cell_h = 42.0;
    // Column heads: marker and letter.
    let head_y = y + 12.0;
    for (j, &b) in agents.order.iter().enumerate() {
        let cx = x0 + cell_w * (j as f64 + 0.5);
        let _ = writeln!(out, "<g><title>{}</title>", escape(&agents.names[b]));
        marker(out, b, cx - 8.0, head_y, 5.0);
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{:.1}" font-weight="bold">{}</text>"#,
            cx + 1.0,
            head_y + FONT * 0.35,
            letter(b)
        );
        out.push_str("</g>\n");
    }
    let grid_top = head_y + 16.0;
    for (i, &a) in agents.order.iter().enumerate() {
        let ry = grid_top + cell_h * i as f64;
        agent_label(out, agents, a, NAME_X, ry + cell_h / 2.0, label_w, "");
        for (j, &b) in agents.order.iter().enumerate() {
            let rx = x0 + cell_w * j as f64;
            let (cx, cy) = (rx + cell_w / 2.0, ry + cell_h / 2.0);
            let rect = |fill: &str| {
                format!(
                    r#"<rect x="{rx:.1}" y="{ry:.1}" width="{cell_w:.1}" height="{cell_h:.1}" fill="{fill}" stroke="white" stroke-width="2"/>"#
                )
            };
            if a == b {
                let _ = writeln!(out, "{}", rect("#f4f4f4"));
                continue;
            }
            let Some(p) = agents.standings.pair(a, b).filter(|p| p.games() > 0) else {
                let _ = writeln!(
                    out,
                    "<g><title>{} vs {}: no games</title>",
                    escape(&agents.names[a]),
                    escape(&agents.names[b])
                );
                let _ = writeln!(out, "{}", rect("#fafafa"));
                let _ = writeln!(
                    out,
                    r#"<text x="{cx:.1}" y="{:.1}" text-anchor="middle" fill="{MUTED}">–</text></g>"#,
                    cy + FONT * 0.35
                );
                continue;
            };
            let score = (p.wins as f64 + p.draws as f64 / 2.0) / p.games() as f64;
            let fill = heat_color(score);
            let ink = if luminance(fill) < 0.5 { "white" } else { INK };
            let wdl = format!("{}-{}-{}", p.wins, p.draws, p.losses);
            let mut tip = format!(
                "{} vs {}: {wdl} (W-D-L), score {:.1}%",
                agents.names[a],
                agents.names[b],
                score * 100.0
            );
            if let Some(e) = p.elo() {
                let _ = write!(
                    tip,
                    ", Elo {} [{}, {}]",
                    fmt_elo(e.elo),
                    fmt_elo(e.low),
                    fmt_elo(e.high)
                );
            }
            let _ = writeln!(out, "<g><title>{}</title>", escape(&tip));
            let _ = writeln!(out, "{}", rect(&hex(fill)));
            // The score to a tenth of a percent where it is not whole and fits.
            let mut shown = format!("{:.1}%", score * 100.0);
            if shown.ends_with(".0%") || text_width(&shown, FONT * 1.05) > cell_w - 6.0 {
                shown = pct(score);
            }
            let small_fits = text_width(&wdl, 11.0) <= cell_w - 6.0;
            let main_y = if small_fits { cy - 2.0 } else { cy + FONT * 0.35 };
            let _ = writeln!(
                out,
                r#"<text x="{cx:.1}" y="{main_y:.1}" text-anchor="middle" font-weight="bold" fill="{ink}">{shown}</text>"#
            );
            if small_fits {
                let _ = writeln!(
                    out,
                    r#"<text x="{cx:.1}" y="{:.1}" text-anchor="middle" font-size="11" fill="{ink}">{wdl}</text>"#,
                    cy + 13.0
                );
            }
            out.push_str("</g>\n");
        }
    }
    let grid_bottom = grid_top + cell_h * n as f64;
    // The colour scale, right of the grid.
    let sx = x0 + cell_w * n as f64 + 24.0;
    let sh = (grid_bottom - grid_top).clamp(90.0, 200.0);

    let _ = writeln!(
        out,
        r##"<rect x="{sx:.1}" y="{grid_top:.1}" width="14" height="{sh:.1}" fill="url(#heat-scale)" stroke="#999"/>"##
    );
    for (v, label) in [(0.0, "0%"), (0.5, "50%"), (1.0, "100%")] {
        let ty = grid_top + sh * (1.0 - v);
        let _ = writeln!(
            out,
            r#"<line x1="{:.1}" y1="{ty:.1}" x2="{:.1}" y2="{ty:.1}" stroke="{AXIS}"/>"#,
            sx + 14.0,
            sx + 19.0
        );
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{:.1}" font-size="{SMALL}">{label}</text>"#,
            sx + 22.0,
            ty + SMALL * 0.35
        );
    }
    let width = sx + 22.0 + text_width("100%", SMALL) + MARGIN;
    let _ = writeln!(
        out,
        r#"<text x="{x0:.1}" y="{:.1}" font-size="{SMALL}" fill="{MUTED}">Each cell: the row agent's score (wins + draws/2) and its W-D-L against the column agent.</text>"#,
        grid_bottom + 18.0
    );
    ((grid_bottom + 24.0).max(grid_top + sh + 8.0) + 10.0, width)
}

/// Red at 0, white at 0.5, green at 1.
fn heat_color(score: f64) -> [u8; 3] {
    const RED: [f64; 3] = [215.0, 48.0, 39.0];
    const GREEN: [f64; 3] = [26.0, 152.0, 80.0];
    let s = score.clamp(0.0, 1.0);
    let (end, t) = if s < 0.5 { (RED, 1.0 - 2.0 * s) } else { (GREEN, 2.0 * s - 1.0) };
    end.map(|c| (255.0 + (c - 255.0) * t).round() as u8)
}

fn hex(c: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// Relative luminance in `[0, 1]` (sRGB), to choose black or white text.
fn luminance(c: [u8; 3]) -> f64 {
    let lin = |v: u8| {
        let v = f64::from(v) / 255.0;
        if v <= 0.040_45 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
}

// ---------------------------------------------------------------------------------------
// Axes, labels, markers

/// A linear axis from `lo` to `hi` drawn from `x0` to `x1`.
/// With `unbounded` ends, the finite range leaves a gap at that end before a tick for the
/// infinite value.
struct Axis {
    lo: f64,
    hi: f64,
    ticks: Vec<f64>,
    x0: f64,
    x1: f64,
    unbounded: (bool, bool),
}

/// The gap before an axis's infinite tick.
const INFINITY_GAP: f64 = 52.0;

impl Axis {
    fn new(lo: f64, hi: f64, ticks: Vec<f64>, x0: f64, x1: f64) -> Axis {
        Axis { lo, hi, ticks, x0, x1, unbounded: (false, false) }
    }

    /// Where the finite range is drawn.
    fn finite_span(&self) -> (f64, f64) {
        let gap = |on: bool| if on { INFINITY_GAP } else { 0.0 };
        (self.x0 + gap(self.unbounded.0), self.x1 - gap(self.unbounded.1))
    }

    /// Where `v` is drawn, clipped to the axis (an infinite value lands on its edge).
    fn pos(&self, v: f64) -> f64 {
        let (a, b) = self.finite_span();
        if v.is_nan() {
            return a;
        }
        if v == f64::INFINITY {
            return self.x1;
        }
        if v == f64::NEG_INFINITY {
            return self.x0;
        }
        let span = self.hi - self.lo;
        let t = if span > 0.0 { ((v - self.lo) / span).clamp(0.0, 1.0) } else { 0.0 };
        a + (b - a) * t
    }

    /// The ticks, with the infinite ones.
    fn all_ticks(&self) -> Vec<f64> {
        let mut t = Vec::new();
        if self.unbounded.0 {
            t.push(f64::NEG_INFINITY);
        }
        t.extend(&self.ticks);
        if self.unbounded.1 {
            t.push(f64::INFINITY);
        }
        t
    }
}

/// A horizontal axis at `y` with ticks, tick labels, grid lines up to `grid_top` and a
/// centred label. Returns the bottom of the label.
fn x_axis(
    out: &mut String,
    axis: &Axis,
    y: f64,
    grid_top: f64,
    label: &str,
    fmt: &dyn Fn(f64) -> String,
) -> f64 {
    for &v in &axis.all_ticks() {
        let x = axis.pos(v);
        let _ = writeln!(
            out,
            r#"<line x1="{x:.1}" y1="{grid_top:.1}" x2="{x:.1}" y2="{y:.1}" stroke="{GRID}"/>"#
        );
    }
    let (a, b) = axis.finite_span();
    let _ =
        writeln!(out, r#"<line x1="{a:.1}" y1="{y:.1}" x2="{b:.1}" y2="{y:.1}" stroke="{AXIS}"/>"#);
    // The gaps to the infinite ticks, dashed.
    for (on, from, to) in [(axis.unbounded.0, axis.x0, a), (axis.unbounded.1, b, axis.x1)] {
        if on {
            let _ = writeln!(
                out,
                r#"<line x1="{from:.1}" y1="{y:.1}" x2="{to:.1}" y2="{y:.1}" stroke="{AXIS}" stroke-dasharray="2 3"/>"#
            );
        }
    }
    for &v in &axis.all_ticks() {
        let x = axis.pos(v);
        let _ = writeln!(
            out,
            r#"<line x1="{x:.1}" y1="{y:.1}" x2="{x:.1}" y2="{:.1}" stroke="{AXIS}"/>"#,
            y + 5.0
        );
        let _ = writeln!(
            out,
            r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle" font-size="{SMALL}">{}</text>"#,
            y + 18.0,
            escape(&fmt(v))
        );
    }
    let _ = writeln!(
        out,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
        (axis.x0 + axis.x1) / 2.0,
        y + 36.0,
        escape(label)
    );
    y + 40.0
}

/// A round tick step near `raw`: 1, 2, 2.5 or 5 times a power of ten.
fn nice_step(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let p = 10f64.powf(raw.log10().floor());
    let m = raw / p;
    let nice = if m <= 1.0 {
        1.0
    } else if m <= 2.0 {
        2.0
    } else if m <= 2.5 {
        // 2.5 only where the ticks stay whole numbers.
        if p >= 10.0 {
            2.5
        } else {
            2.0
        }
    } else if m <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * p
}

/// The multiples of `step` from `lo` to `hi`.
fn ticks(lo: f64, hi: f64, step: f64) -> Vec<f64> {
    let first = (lo / step).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

/// A section heading; returns the y below it.
fn heading_text(out: &mut String, top: f64, text: &str) -> f64 {
    let _ = writeln!(
        out,
        r#"<text x="{MARGIN}" y="{:.1}" font-size="15" font-weight="bold">{}</text>"#,
        top + 22.0,
        escape(text)
    );
    top + 32.0
}

/// Column headers of a standings table; returns the y below them.
fn column_headers(out: &mut String, top: f64, name: &str, cols: &[(f64, &str, &str)]) -> f64 {
    let y = top + 12.0;
    let _ = writeln!(
        out,
        r#"<text x="{NAME_X}" y="{y:.1}" font-size="{SMALL}" fill="{MUTED}">{}</text>"#,
        escape(name)
    );
    for (x, anchor, text) in cols {
        let _ = writeln!(
            out,
            r#"<text x="{x:.1}" y="{y:.1}" text-anchor="{anchor}" font-size="{SMALL}" fill="{MUTED}">{}</text>"#,
            escape(text)
        );
    }
    y + 6.0
}

/// A light background under every other table row.
fn stripe(out: &mut String, y: f64, h: f64, i: usize) {
    if i.is_multiple_of(2) {
        let _ = writeln!(
            out,
            r##"<rect x="{:.1}" y="{y:.1}" width="{:.1}" height="{h:.1}" fill="#f5f6f8"/>"##,
            NAME_X - 6.0,
            WIDTH - 2.0 * MARGIN + 12.0
        );
    }
}

/// An agent's key and name on one line, vertically centred at `cy`: `prefix`, marker,
/// letter, name (shortened to fit `width`).
fn agent_label(
    out: &mut String,
    agents: &Agents,
    a: usize,
    x: f64,
    cy: f64,
    width: f64,
    prefix: &str,
) {
    let base = cy + FONT * 0.35;
    let x0 = x;
    let mut x = x;
    if !prefix.is_empty() {
        let _ = writeln!(
            out,
            r#"<text x="{x:.1}" y="{base:.1}" fill="{MUTED}">{}</text>"#,
            escape(prefix)
        );
        x += text_width(prefix, FONT) + 2.0;
    }
    agent_label_at(out, agents, a, x, cy, width - (x - x0), true);
}

/// [`agent_label`] without a prefix: marker (if `with_marker`), letter, name.
fn agent_label_at(
    out: &mut String,
    agents: &Agents,
    a: usize,
    x: f64,
    cy: f64,
    width: f64,
    with_marker: bool,
) {
    let base = cy + FONT * 0.35;
    let letter_x = if with_marker {
        marker(out, a, x + 6.0, cy, 5.0);
        x + 16.0
    } else {
        x
    };
    let _ = writeln!(
        out,
        r#"<text x="{letter_x:.1}" y="{base:.1}" font-weight="bold">{}</text>"#,
        letter(a)
    );
    // Names line up whatever the letter's width.
    let name_x = letter_x + text_width(&"M".repeat(letter(a).len()), FONT) + 6.0;
    text_fit(out, name_x, base, &agents.names[a], width - (name_x - x) - 4.0, FONT, "");
}

/// Text starting at (`x`, `y`), shortened in the middle with an ellipsis to fit `width`,
/// with the full text as a `<title>` tooltip when shortened.
fn text_fit(out: &mut String, x: f64, y: f64, text: &str, width: f64, size: f64, attrs: &str) {
    let shown = fit(text, width, size);
    let size_attr = if size == FONT { String::new() } else { format!(r#" font-size="{size}""#) };
    let extra = if attrs.is_empty() { String::new() } else { format!(" {attrs}") };
    let title =
        if shown == text { String::new() } else { format!("<title>{}</title>", escape(text)) };
    let _ = writeln!(
        out,
        r#"<text x="{x:.1}" y="{y:.1}"{size_attr}{extra}>{title}{}</text>"#,
        escape(&shown)
    );
}

/// `text` if it fits `width` at font size `size`, else its start and end joined by "…".
fn fit(text: &str, width: f64, size: f64) -> String {
    if text_width(text, size) <= width {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    let budget = width - text_width("\u{2026}", size);
    // Keep about 60% of the room for the start (the agent's kind) and the rest for the end
    // (where specs that share a command differ).
    let mut head = String::new();
    let mut used = 0.0;
    let mut i = 0;
    while i < chars.len() {
        let w = char_width(chars[i]) * size;
        if used + w > budget * 0.6 {
            break;
        }
        used += w;
        head.push(chars[i]);
        i += 1;
    }
    let mut tail: Vec<char> = Vec::new();
    let mut j = chars.len();
    while j > i {
        let w = char_width(chars[j - 1]) * size;
        if used + w > budget {
            break;
        }
        used += w;
        tail.push(chars[j - 1]);
        j -= 1;
    }
    tail.reverse();
    let tail: String = tail.into_iter().collect();
    format!("{}\u{2026}{}", head.trim_end(), tail.trim_start())
}

/// The width of `text` at font size `size`, estimated from DejaVu Sans's advance widths
/// (wider than most sans fonts, so the estimate errs on the safe side).
fn text_width(text: &str, size: f64) -> f64 {
    text.chars().map(char_width).sum::<f64>() * size
}

fn char_width(c: char) -> f64 {
    match c {
        'i' | 'j' | 'l' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' | ' ' => 0.32,
        'f' | 't' | 'r' | 'I' | '(' | ')' | '[' | ']' | '/' | '\\' | '-' | '"' | '`' => 0.42,
        'm' | 'w' | 'M' | 'W' | '=' | '+' | '<' | '>' | '~' | '%' | '@' | '#' | '&' => 0.9,
        'A'..='Z' => 0.76,
        c if c.is_ascii() => 0.64,
        _ => 1.0,
    }
}

/// Agent `a`'s colour.
fn color(a: usize) -> &'static str {
    PALETTE[a % PALETTE.len()]
}

/// Agent `a`'s letter: A, B, ..., Z, AA, AB, ...
fn letter(a: usize) -> String {
    let mut s = Vec::new();
    let mut k = a + 1;
    while k > 0 {
        k -= 1;
        s.push(char::from(b'A' + (k % 26) as u8));
        k /= 26;
    }
    s.iter().rev().collect()
}

/// Agent `a`'s marker, centred at (`x`, `y`) with radius about `r`: filled circle, square,
/// triangle, diamond, down triangle, then hollow circle, square, diamond.
fn marker(out: &mut String, a: usize, x: f64, y: f64, r: f64) {
    let c = color(a);
    let (fill, stroke) = if (a % SHAPES) < 5 { (c, "white") } else { ("white", c) };
    let sw = if (a % SHAPES) < 5 { 1.0 } else { 2.0 };
    let poly = |pts: &[(f64, f64)]| {
        let p: Vec<String> =
            pts.iter().map(|(dx, dy)| format!("{:.1},{:.1}", x + dx, y + dy)).collect();
        format!(
            r#"<polygon points="{}" fill="{fill}" stroke="{stroke}" stroke-width="{sw}"/>"#,
            p.join(" ")
        )
    };
    let s = r * 0.9;
    let d = r * 1.25;
    let shape = match a % SHAPES {
        0 | 5 => format!(
            r#"<circle cx="{x:.1}" cy="{y:.1}" r="{r:.1}" fill="{fill}" stroke="{stroke}" stroke-width="{sw}"/>"#
        ),
        1 | 6 => poly(&[(-s, -s), (s, -s), (s, s), (-s, s)]),
        2 => poly(&[(0.0, -d), (d, r * 0.8), (-d, r * 0.8)]),
        3 | 7 => poly(&[(0.0, -d), (d, 0.0), (0.0, d), (-d, 0.0)]),
        _ => poly(&[(0.0, d), (d, -r * 0.8), (-d, -r * 0.8)]),
    };
    let _ = writeln!(out, "{shape}");
}

/// `text` escaped for XML text and attribute values; characters XML 1.0 forbids become
/// U+FFFD.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::results::tests::record;
    use crate::arena::results::{group, GameRecord, GameResult};

    /// An element of a parsed document: name, attributes and its own text (not its
    /// children's).
    #[derive(Debug)]
    struct Element {
        name: String,
        attrs: Vec<(String, String)>,
        text: String,
    }

    /// Checks that `doc` is well-formed XML (one root, balanced and properly nested tags,
    /// quoted and unique attributes, only the predefined and numeric entities, no markup
    /// characters in text or values) and returns its elements in document order.
    /// Why a document is not well-formed XML.
    #[derive(Debug)]
    struct NotWellFormed(String);

    impl std::fmt::Display for NotWellFormed {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(&self.0)
        }
    }

    impl From<&str> for NotWellFormed {
        fn from(what: &str) -> NotWellFormed {
            NotWellFormed(what.to_string())
        }
    }

    fn parse_xml(doc: &str) -> Result<Vec<Element>, NotWellFormed> {
        fn check_entities(text: &str) -> Result<(), NotWellFormed> {
            let mut rest = text;
            while let Some(p) = rest.find('&') {
                let after = &rest[p + 1..];
                let end = after
                    .find(';')
                    .ok_or_else(|| NotWellFormed(format!("unterminated & in {text:?}")))?;
                let name = &after[..end];
                let ok = matches!(name, "amp" | "lt" | "gt" | "quot" | "apos")
                    || name
                        .strip_prefix("#x")
                        .is_some_and(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit()))
                    || name
                        .strip_prefix('#')
                        .is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()));
                if !ok {
                    return Err(NotWellFormed(format!("bad entity &{name}; in {text:?}")));
                }
                rest = &after[end + 1..];
            }
            if text.contains('<') {
                return Err(NotWellFormed(format!("< in {text:?}")));
            }
            Ok(())
        }
        fn is_name(s: &str) -> bool {
            let mut chars = s.chars();
            chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == ':')
                && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | ':' | '-' | '.'))
        }
        let mut elements: Vec<Element> = Vec::new();
        let mut stack: Vec<usize> = Vec::new();
        let mut roots = 0;
        let mut i = 0;
        while i < doc.len() {
            let rest = &doc[i..];
            if let Some(body) = rest.strip_prefix("<!--") {
                i += 4 + body.find("-->").ok_or("unterminated comment")? + 3;
            } else if let Some(body) = rest.strip_prefix("<?") {
                i += 2 + body.find("?>").ok_or("unterminated processing instruction")? + 2;
            } else if let Some(body) = rest.strip_prefix("</") {
                let end = body.find('>').ok_or("unterminated end tag")?;
                let name = body[..end].trim_end();
                let open = stack
                    .pop()
                    .ok_or_else(|| NotWellFormed(format!("</{name}> closes nothing")))?;
                if elements[open].name != name {
                    return Err(NotWellFormed(format!(
                        "<{}> closed by </{name}>",
                        elements[open].name
                    )));
                }
                i += 2 + end + 1;
            } else if let Some(body) = rest.strip_prefix('<') {
                let name_end = body
                    .find(|c: char| c.is_whitespace() || c == '/' || c == '>')
                    .ok_or("bad tag")?;
                let name = &body[..name_end];
                if !is_name(name) {
                    return Err(NotWellFormed(format!("bad element name {name:?}")));
                }
                if stack.is_empty() {
                    roots += 1;
                }
                let mut attrs: Vec<(String, String)> = Vec::new();
                let mut j = name_end;
                let closed = loop {
                    let tail = &body[j..];
                    let trimmed = tail.trim_start();
                    j += tail.len() - trimmed.len();
                    if trimmed.starts_with("/>") {
                        j += 2;
                        break true;
                    }
                    if trimmed.starts_with('>') {
                        j += 1;
                        break false;
                    }
                    if j == name_end || tail.len() == trimmed.len() {
                        return Err(NotWellFormed(format!(
                            "no space before an attribute in <{name}>"
                        )));
                    }
                    let eq = trimmed
                        .find('=')
                        .ok_or_else(|| NotWellFormed(format!("bad attribute in <{name}>")))?;
                    let key = trimmed[..eq].trim_end();
                    if !is_name(key) {
                        return Err(NotWellFormed(format!(
                            "bad attribute name {key:?} in <{name}>"
                        )));
                    }
                    let after = trimmed[eq + 1..].trim_start();
                    let quote = after.chars().next().filter(|&q| q == '"' || q == '\'');
                    let quote = quote
                        .ok_or_else(|| NotWellFormed(format!("unquoted {key} in <{name}>")))?;
                    let close = after[1..].find(quote).ok_or("unterminated attribute value")?;
                    let value = &after[1..1 + close];
                    check_entities(value)?;
                    if attrs.iter().any(|(k, _)| k == key) {
                        return Err(NotWellFormed(format!("attribute {key} twice in <{name}>")));
                    }
                    attrs.push((key.to_string(), value.to_string()));
                    j += trimmed.len() - after.len() + 1 + close + 1;
                };
                elements.push(Element { name: name.to_string(), attrs, text: String::new() });
                if !closed {
                    stack.push(elements.len() - 1);
                }
                i += 1 + j;
            } else {
                let end = rest.find('<').unwrap_or(rest.len());
                let text = &rest[..end];
                check_entities(text)?;
                match stack.last() {
                    Some(&e) => elements[e].text.push_str(text),
                    None if !text.trim().is_empty() => {
                        return Err(NotWellFormed(format!("text outside the root: {text:?}")))
                    }
                    None => {}
                }
                i += end;
            }
        }
        if let Some(&open) = stack.last() {
            return Err(NotWellFormed(format!("<{}> is never closed", elements[open].name)));
        }
        if roots != 1 {
            return Err(NotWellFormed(format!("{roots} root elements")));
        }
        Ok(elements)
    }

    /// The document's elements, checked well-formed, and the texts of its `<text>` elements.
    fn parsed(svg: &str) -> (Vec<Element>, Vec<String>) {
        let elements = parse_xml(svg).unwrap_or_else(|e| panic!("not well-formed: {e}\n{svg}"));
        let texts = elements.iter().filter(|e| e.name == "text").map(|e| e.text.clone()).collect();
        let mut ids: Vec<&String> = elements
            .iter()
            .flat_map(|e| &e.attrs)
            .filter(|(k, _)| k == "id")
            .map(|(_, v)| v)
            .collect();
        let count = ids.len();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), count, "duplicate ids");
        (elements, texts)
    }

    fn has_text(texts: &[String], t: &str) -> bool {
        texts.iter().any(|x| x == t)
    }

    /// A two-player round robin: every pairing plays `pairs` openings from both seats;
    /// `result(a, b, k)` is the result of agent `a` (seat 0) against `b` in their `k`-th game.
    fn round_robin(
        names: &[&str],
        pairs: usize,
        result: impl Fn(usize, usize, usize) -> GameResult,
    ) -> Tournament {
        let agents: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        let mut records = Vec::new();
        for a in 0..names.len() {
            for b in a + 1..names.len() {
                for k in 0..pairs {
                    for (s0, s1) in [(a, b), (b, a)] {
                        let index = records.len();
                        let r = record(index, [s0, s1], result(s0, s1, k));
                        records.push(GameRecord { agents: agents.clone(), ..r });
                    }
                }
            }
        }
        Tournament { game: "tictactoe".into(), options: String::new(), agents, seed: 1, records }
    }

    /// The stronger agent (lower index) wins, except every third game is a draw.
    fn by_strength(a: usize, b: usize, k: usize) -> GameResult {
        if k % 3 == 2 {
            GameResult::Draw
        } else if a < b {
            GameResult::Winner(0)
        } else {
            GameResult::Winner(1)
        }
    }

    /// A three-player game between `names`, rotating seats, the first agent scoring best.
    fn three_player(names: &[&str], games: usize) -> Tournament {
        let agents: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        let records = (0..games)
            .map(|i| {
                let seats: Vec<usize> = (0..3).map(|s| (s + i) % 3).collect();
                let scores = seats.iter().map(|&a| 10 - a as i32 * 3 + (i % 2) as i32).collect();
                let base = record(i, [0, 1], GameResult::Draw);
                let stats = vec![base.stats[0].clone(); 3];
                GameRecord {
                    agents: agents.clone(),
                    seats,
                    stats,
                    result: GameResult::Scores(scores),
                    ..base
                }
            })
            .collect::<Vec<_>>();
        group(records).remove(0)
    }

    /// Every number in a coordinate-like attribute.
    fn coordinates(elements: &[Element]) -> Vec<(String, f64)> {
        const NUMERIC: [&str; 13] = [
            "x",
            "y",
            "x1",
            "y1",
            "x2",
            "y2",
            "cx",
            "cy",
            "r",
            "width",
            "height",
            "points",
            "transform",
        ];
        let mut out = Vec::new();
        for e in elements {
            for (k, v) in &e.attrs {
                if !NUMERIC.contains(&k.as_str()) || v.ends_with('%') {
                    continue;
                }
                let numbers = v
                    .split(|c: char| {
                        !(c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '+')
                    })
                    .filter(|s| !s.is_empty() && !s.chars().all(|c| c.is_ascii_alphabetic()));
                for n in numbers {
                    let parsed: f64 =
                        n.parse().unwrap_or_else(|_| panic!("{k}={v:?} of <{}>", e.name));
                    out.push((format!("{k} of <{}>", e.name), parsed));
                }
            }
        }
        out
    }

    #[test]
    fn score_curves_follow_the_games() {
        let t = Tournament {
            game: "tictactoe".into(),
            options: String::new(),
            agents: vec!["greedy".into(), "random<&>".into()],
            seed: 1,
            records: vec![
                record(0, [0, 1], GameResult::Winner(0)),
                record(1, [1, 0], GameResult::Draw),
            ],
        };
        let curves = score_curves(&t);
        assert_eq!(curves[0], vec![1.0, 0.75]);
        assert_eq!(curves[1], vec![0.0, 0.25]);
        let svg = render(&[t]);
        let (elements, texts) = parsed(&svg);
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(has_text(&texts, "random&lt;&amp;&gt;"), "{texts:?}");
        assert_eq!(elements.iter().filter(|e| e.name == "polyline").count(), 2);
    }

    #[test]
    fn chart_documents_are_well_formed_xml() {
        let odd = ["a\"b'c", "x<y>&z", "\u{1}ctrl\u{7f}", "é ∞"];
        let cases = vec![
            vec![],
            vec![round_robin(&["alpha", "beta"], 3, by_strength)],
            vec![round_robin(&odd, 2, by_strength)],
            vec![round_robin(&["a", "b", "c", "d"], 2, by_strength), three_player(&odd, 6)],
            vec![round_robin(&["solo"], 0, by_strength)],
        ];
        for tournaments in cases {
            let svg = render(&tournaments);
            let (elements, _) = parsed(&svg);
            assert_eq!(elements[0].name, "svg");
            assert!(!svg.contains('\u{1}'));
        }
        // One agent playing itself: no pairings, mean score bars.
        let mut solo = round_robin(&["alpha", "beta"], 2, by_strength);
        solo.agents.truncate(1);
        for r in &mut solo.records {
            r.agents.truncate(1);
            r.seats = vec![0, 0];
        }
        let (_, texts) = parsed(&render(&[solo]));
        assert!(has_text(&texts, "mean score per game"), "{texts:?}");
    }

    #[test]
    fn elo_standings_have_a_labelled_axis_with_ticks_and_records() {
        let t = round_robin(&["alpha", "beta", "gamma", "delta"], 3, by_strength);
        let svg = render(&[t]);
        let (_, texts) = parsed(&svg);
        for label in [
            "Elo against the rest of the field, with 95% interval",
            "Elo difference against the other agents together",
            "W-D-L",
            "score",
            "Elo [95% interval]",
            "0",
        ] {
            assert!(has_text(&texts, label), "{label}: {texts:?}");
        }
        // Alpha beat everyone in 4 of each 6 games and drew 2: 12-6-0.
        assert!(has_text(&texts, "12-6-0"), "{texts:?}");
        assert!(has_text(&texts, "0-6-12"), "{texts:?}");
        let ticks: Vec<&String> = texts.iter().filter(|t| t.starts_with('+')).collect();
        assert!(ticks.len() >= 2, "positive Elo ticks: {texts:?}");
        // Two agents: one row, the pairing, from the winner's side.
        let svg = render(&[round_robin(&["weak", "strong"], 3, |a, b, k| by_strength(b, a, k))]);
        let (_, texts) = parsed(&svg);
        assert!(has_text(&texts, "Elo difference, first agent over second"), "{texts:?}");
        assert!(has_text(&texts, "4-2-0") && !has_text(&texts, "0-2-4"), "{texts:?}");
        assert!(has_text(&texts, "vs "), "{texts:?}");
    }

    #[test]
    fn score_curve_has_a_games_axis_a_score_axis_and_a_legend() {
        let t = round_robin(&["alpha", "beta", "gamma"], 5, by_strength);
        let svg = render(&[t]);
        let (elements, texts) = parsed(&svg);
        for label in ["Running mean score", "games played by the agent", "mean score so far"] {
            assert!(has_text(&texts, label), "{label}: {texts:?}");
        }
        for tick in ["0%", "25%", "50%", "75%", "100%", "0", "5", "10", "15", "20"] {
            assert!(has_text(&texts, tick), "{tick}: {texts:?}");
        }
        // Each agent is named by letter beside its marker, and its curve carries markers.
        for letter in ["A", "B", "C"] {
            assert!(texts.iter().filter(|t| *t == letter).count() >= 3, "{letter}: {texts:?}");
        }
        assert_eq!(elements.iter().filter(|e| e.name == "polyline").count(), 3);
        assert!(elements.iter().filter(|e| e.name == "polygon").count() > 10);
    }

    #[test]
    fn heat_map_appears_exactly_for_three_or_more_agents_in_two_player_games() {
        let heading = "Pairwise score: row agent against column agent";
        let count = |ts: &[Tournament]| {
            let (_, texts) = parsed(&render(ts));
            texts.iter().filter(|t| *t == heading).count()
        };
        let two = round_robin(&["a", "b"], 2, by_strength);
        let three = round_robin(&["a", "b", "c"], 3, by_strength);
        let five = round_robin(&["a", "b", "c", "d", "e"], 1, by_strength);
        let multi = three_player(&["x", "y", "z"], 6);
        assert_eq!(count(std::slice::from_ref(&two)), 0);
        assert_eq!(count(std::slice::from_ref(&three)), 1);
        assert_eq!(count(std::slice::from_ref(&five)), 1);
        assert_eq!(count(std::slice::from_ref(&multi)), 0);
        assert_eq!(count(&[two, three.clone(), multi, five]), 2);
        // The cells: the row agent's score and W-D-L, blank diagonal.
        let (elements, texts) = parsed(&render(&[three]));
        assert!(has_text(&texts, "83.3%") && has_text(&texts, "16.7%"), "{texts:?}");
        assert!(has_text(&texts, "4-2-0") && has_text(&texts, "0-2-4"), "{texts:?}");
        let blank = elements
            .iter()
            .filter(|e| {
                e.name == "rect" && e.attrs.iter().any(|(k, v)| k == "fill" && v == "#f4f4f4")
            })
            .count();
        assert_eq!(blank, 3);
        assert_eq!(hex(heat_color(0.0)), "#d73027");
        assert_eq!(hex(heat_color(0.5)), "#ffffff");
        assert_eq!(hex(heat_color(1.0)), "#1a9850");
    }

    #[test]
    fn unbounded_elo_stays_on_the_axis() {
        // A clean sweep, +inf [+x, +inf], and a field where one agent loses every game.
        let sweep = round_robin(&["strong", "weak"], 10, |a, _, _| {
            GameResult::Winner(if a == 0 { 0 } else { 1 })
        });
        let e = sweep.standings().pair(0, 1).unwrap().elo().unwrap();
        assert!(e.elo.is_infinite() && e.high.is_infinite() && e.low.is_finite());
        let field = round_robin(&["a", "b", "loser"], 3, |a, b, k| {
            if a == 2 {
                GameResult::Winner(1)
            } else if b == 2 {
                GameResult::Winner(0)
            } else {
                by_strength(a, b, k)
            }
        });
        let svg = render(&[sweep, field]);
        let (elements, texts) = parsed(&svg);
        let lower = svg.to_lowercase();
        assert!(!lower.contains("inf") && !lower.contains("nan"), "{svg}");
        let size = |k: &str| -> f64 {
            elements[0].attrs.iter().find(|(n, _)| n == k).unwrap().1.parse().unwrap()
        };
        let extent = size("width").max(size("height"));
        for (what, v) in coordinates(&elements) {
            assert!(v.is_finite(), "{what} = {v}");
            if !what.starts_with("transform") {
                assert!((-1.0..=extent + 1.0).contains(&v), "{what} = {v}");
            }
        }
        assert!(has_text(&texts, "+\u{221e}") && has_text(&texts, "-\u{221e}"), "{texts:?}");
        assert!(has_text(&texts, "+\u{221e} [+166, +\u{221e}]"), "{texts:?}");
        assert!(texts.iter().any(|t| t.starts_with("-\u{221e} [-\u{221e}, ")), "{texts:?}");
    }

    #[test]
    fn long_names_are_shortened_with_the_full_name_in_a_title() {
        let long = "hub:time=100ms,cmd=/opt/engines/some-engine/bin/engine --threads 1 --hash 64 \
                    --log <stderr> & --eval=nnue-v2";
        let other = long.replace("v2", "v3");
        let t = round_robin(&[long, &other, "greedy"], 2, by_strength);
        let svg = render(&[t]);
        let (elements, texts) = parsed(&svg);
        let escaped = escape(long);
        let shown: Vec<&Element> =
            elements.iter().filter(|e| e.name == "text" && e.text.contains('\u{2026}')).collect();
        assert!(shown.len() >= 6, "shortened names in standings, legend, heat map: {texts:?}");
        for e in &shown {
            assert!(e.text.starts_with("hub:time=100ms"), "{}", e.text);
            assert!(e.text.ends_with("v2") || e.text.ends_with("v3"), "{}", e.text);
            assert!(text_width(&e.text, 13.0) <= NAME_W, "{}", e.text);
        }
        let titles = elements.iter().filter(|e| e.name == "title" && e.text == escaped).count();
        assert!(titles >= 3, "full name in <title>: {svg}");
        assert!(!texts.contains(&escaped), "never shown whole");
        assert!(has_text(&texts, "greedy"));
    }

    #[test]
    fn n_player_standings_show_mean_scores_on_a_percent_axis() {
        let t = three_player(&["maxn", "paranoid", "random"], 6);
        let svg = render(&[t]);
        let (_, texts) = parsed(&svg);
        for label in [
            "Mean score per game (100% = first place, 0% = last)",
            "mean score per game",
            "mean score",
            "mean rank",
            "games",
            "0%",
            "50%",
            "100%",
            "100.0%",
            "1.00",
        ] {
            assert!(has_text(&texts, label), "{label}: {texts:?}");
        }
        assert!(!has_text(&texts, "Elo [95% interval]"));
    }

    #[test]
    fn helpers() {
        assert_eq!(fit("short", 200.0, 13.0), "short");
        let s = fit(&"abcdefghij".repeat(10), 200.0, 13.0);
        assert!(s.starts_with("abcdef") && s.ends_with("hij") && s.contains('\u{2026}'), "{s}");
        assert!(text_width(&s, 13.0) <= 200.0);
        assert_eq!(fit("ééééééééééééééééééééé", 60.0, 13.0).chars().count(), 4);
        assert_eq!(
            ticks(-100.0, 300.0, nice_step(400.0 / 6.0)),
            [-100.0, 0.0, 100.0, 200.0, 300.0]
        );
        assert_eq!(nice_step(20.0 / 8.0), 2.0, "whole games");
        assert_eq!(nice_step(200.0 / 8.0), 25.0);
        assert_eq!(
            (letter(0), letter(25), letter(26), letter(27)),
            ("A".into(), "Z".into(), "AA".into(), "AB".into())
        );
        assert_eq!(fmt_elo(-0.3), "0");
        assert_eq!(fmt_elo(f64::NEG_INFINITY), "-\u{221e}");
        assert_eq!(escape("a<'&\">\u{0}"), "a&lt;&apos;&amp;&quot;&gt;\u{fffd}");
        assert!(parse_xml("<a><b></a></b>").is_err());
        assert!(parse_xml("<a x=\"1\" x=\"2\"/>").is_err());
        assert!(parse_xml("<a>&bogus;</a>").is_err());
        assert!(parse_xml("<a/><b/>").is_err());
        assert!(parse_xml("<a x='1'>t &amp; &#8734;<!-- c --></a>").is_ok());
    }

    /// With `PLY_CHART_SAMPLES=DIR`, writes sample charts there to look at (unbounded Elo
    /// both ways, long names, many agents, N players).
    #[test]
    fn write_samples_when_asked() {
        let Some(dir) = std::env::var_os("PLY_CHART_SAMPLES") else { return };
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).unwrap();
        let long = "hub:time=100ms,cmd=/opt/engines/some-engine/bin/engine --threads 1 --hash 64 \
                    --log <stderr> & --eval=nnue-v2";
        let field = round_robin(&["a", long, "loser"], 3, |a, b, k| {
            if a == 2 {
                GameResult::Winner(1)
            } else if b == 2 {
                GameResult::Winner(0)
            } else {
                by_strength(a, b, k)
            }
        });
        let many: Vec<String> = (0..12).map(|i| format!("agent-{i}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        let samples = [
            ("sample-unbounded", vec![field]),
            ("sample-many", vec![round_robin(&many, 1, by_strength)]),
            ("sample-nplayer", vec![three_player(&["maxn", long, "random"], 9)]),
        ];
        for (name, ts) in samples {
            std::fs::write(dir.join(format!("{name}.svg")), render(&ts)).unwrap();
        }
    }
}
