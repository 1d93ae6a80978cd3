//! A hand-written SVG chart of tournaments: per game, the agents' mean scores as bars and
//! each agent's running mean score over the games as a curve.

use std::fmt::Write as _;

use ply::Player;

use super::results::Tournament;

const PALETTE: [&str; 8] =
    ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"];
const PANEL_HEIGHT: f64 = 260.0;
const WIDTH: f64 = 900.0;

/// Each agent's running mean score after each of its games, in schedule order.
pub fn score_curves(t: &Tournament) -> Vec<Vec<f64>> {
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

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The chart of `tournaments`, one panel each, as an SVG document.
pub fn render(tournaments: &[Tournament]) -> String {
    let height = PANEL_HEIGHT * tournaments.len().max(1) as f64;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    for (i, t) in tournaments.iter().enumerate() {
        panel(&mut svg, t, PANEL_HEIGHT * i as f64);
    }
    svg.push_str("</svg>\n");
    svg
}

fn panel(svg: &mut String, t: &Tournament, top: f64) {
    let standings = t.standings();
    let _ = writeln!(
        svg,
        r#"<text x="10" y="{}" font-size="15" font-weight="bold">{} ({} games)</text>"#,
        top + 20.0,
        escape(&t.title()),
        t.records.len()
    );
    // Bars: mean score per agent, 0..1, left panel.
    let (bx, bw) = (10.0, 330.0);
    let row = 180.0 / t.agents.len().max(1) as f64;
    for (a, name) in t.agents.iter().enumerate() {
        let score = standings.agent(a).mean_reward();
        let y = top + 40.0 + row * a as f64;
        let bar_h = (row - 6.0).clamp(4.0, 24.0);
        let color = PALETTE[a % PALETTE.len()];
        let _ = writeln!(
            svg,
            r#"<rect x="{bx}" y="{y:.1}" width="{:.1}" height="{bar_h:.1}" fill="{color}"/>"#,
            bw * score
        );
        let _ = writeln!(
            svg,
            r#"<text x="{bx}" y="{:.1}" dx="4" fill="black">{} {:.1}%</text>"#,
            y + bar_h - 4.0,
            escape(name),
            score * 100.0
        );
    }
    // Curves: running mean score over games, right panel with a 50% line.
    let (cx, cy, cw, ch) = (380.0, top + 40.0, 500.0, 180.0);
    let _ = writeln!(
        svg,
        r##"<rect x="{cx}" y="{cy}" width="{cw}" height="{ch}" fill="none" stroke="#999"/>"##
    );
    let _ = writeln!(
        svg,
        r##"<line x1="{cx}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#ccc" stroke-dasharray="4 3"/>"##,
        cy + ch / 2.0,
        cx + cw,
        cy + ch / 2.0
    );
    let _ =
        writeln!(svg, r#"<text x="{}" y="{}" text-anchor="end">100%</text>"#, cx - 4.0, cy + 10.0);
    let _ = writeln!(svg, r#"<text x="{}" y="{}" text-anchor="end">0%</text>"#, cx - 4.0, cy + ch);
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" text-anchor="middle">games played by each agent</text>"#,
        cx + cw / 2.0,
        cy + ch + 16.0
    );
    for (a, curve) in score_curves(t).iter().enumerate() {
        if curve.is_empty() {
            continue;
        }
        let step = cw / curve.len().max(2).saturating_sub(1) as f64;
        let points: Vec<String> = curve
            .iter()
            .enumerate()
            .map(|(i, v)| format!("{:.1},{:.1}", cx + step * i as f64, cy + ch * (1.0 - v)))
            .collect();
        let _ = writeln!(
            svg,
            r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="2"/>"#,
            points.join(" "),
            PALETTE[a % PALETTE.len()]
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::results::tests::record;
    use crate::arena::results::GameResult;

    #[test]
    fn curves_and_document() {
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
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("random&lt;&amp;&gt; 25.0%"), "{svg}");
        assert_eq!(svg.matches("<polyline").count(), 2);
    }
}
