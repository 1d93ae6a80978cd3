//! The shape of the tools crate, read from its sources:
//!
//! - its top-level modules (each with everything under it) import each other without a cycle,
//!   and only downwards through the layers of [`LAYERS`], which name every module: the
//!   programs on top, then the web board, the registry, the tools, the agents, the engines
//!   and the base;
//! - no function of the tools or the core, public or private, returns `Result<_, String>`:
//!   errors are typed ([`ply_tools::error::ToolError`] and the errors of each module).
//!
//! The graph reads every `crate::...` and `super::...` path outside comments and test
//! modules as an edge from the module of the file to the module the path names.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Module path (`arena::tournament`; `""` for the crate root) of every source file.
fn modules(src: &Path) -> BTreeMap<String, PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(src, &mut files);
    files
        .into_iter()
        .map(|file| {
            let rel = file.strip_prefix(src).unwrap().with_extension("");
            let mut parts: Vec<String> =
                rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
                parts.pop();
            }
            (parts.join("::"), file)
        })
        .collect()
}

/// The source without comments and without `#[cfg(test)]` items (test modules may import
/// anything).
fn code(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]") {
            // Skip the next item: up to the end of its braces, or one line for `mod x;`.
            let mut depth = 0i32;
            let mut opened = false;
            for next in lines.by_ref() {
                depth += next.matches('{').count() as i32 - next.matches('}').count() as i32;
                opened |= next.contains('{');
                if (opened && depth <= 0) || (!opened && next.trim_end().ends_with(';')) {
                    break;
                }
            }
            continue;
        }
        let line = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Every module path a file's code names: `crate::a::b`, `super::c`, and the items of
/// `crate::{a, b::c}` groups, as absolute paths.
fn named_paths(module: &str, code: &str) -> Vec<Vec<String>> {
    let parent: Vec<String> = {
        let mut p: Vec<String> =
            module.split("::").filter(|s| !s.is_empty()).map(String::from).collect();
        p.pop();
        p
    };
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut found = Vec::new();
    for (start, base) in [("crate::", Vec::new()), ("super::", parent)] {
        let mut rest = code;
        while let Some(i) = rest.find(start) {
            let before = rest[..i].chars().last();
            rest = &rest[i + start.len()..];
            if before.is_some_and(ident) {
                continue;
            }
            if let Some(group) = rest.strip_prefix('{') {
                let end = group.find('}').unwrap_or(group.len());
                for item in group[..end].split(',') {
                    let path: Vec<String> = item
                        .trim()
                        .split("::")
                        .map(|s| s.trim().to_string())
                        .filter(|s| !s.is_empty() && s.chars().all(ident))
                        .collect();
                    found.push(base.iter().cloned().chain(path).collect());
                }
                continue;
            }
            let len = rest.find(|c: char| !(ident(c) || c == ':')).unwrap_or(rest.len());
            let path = rest[..len].split("::").filter(|s| !s.is_empty()).map(String::from);
            found.push(base.iter().cloned().chain(path).collect());
        }
    }
    found
}

/// The import graph: module -> modules it imports (outside its own subtree).
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let modules = modules(src);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, file) in &modules {
        let text = std::fs::read_to_string(file).unwrap();
        let targets = edges.entry(module.clone()).or_default();
        for path in named_paths(module, &code(&text)) {
            // The deepest module the path names.
            let target = (0..=path.len())
                .rev()
                .map(|n| path[..n].join("::"))
                .find(|m| modules.contains_key(m))
                .unwrap_or_default();
            let inside = |a: &str, b: &str| a == b || a.starts_with(&format!("{b}::"));
            if target.is_empty() || inside(&target, module) || inside(module, &target) {
                continue;
            }
            targets.insert(target);
        }
    }
    edges
}

/// The strongly connected components with more than one module (Tarjan).
fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.edges.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if s.on_stack.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.found.push(component);
            }
        }
    }
    let mut s = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.found
}

/// The tools' layers, top first: a module imports modules of its own layer or of the
/// layers below, never above.
const LAYERS: &[(&str, &[&str])] = &[
    ("programs", &["cli"]),
    ("front ends", &["web"]),
    ("registry", &["registry"]),
    ("tools", &["dynamic", "play", "arena", "perft", "solve", "tune", "egdb", "book", "bench"]),
    ("agents", &["agents"]),
    ("engines", &["engines"]),
    ("base", &["spec", "options", "error", "files", "shard", "units"]),
];

/// The graph of the top-level modules: each module with all its submodules.
fn top_level(edges: &BTreeMap<String, BTreeSet<String>>) -> BTreeMap<String, BTreeSet<String>> {
    let top = |m: &str| m.split("::").next().unwrap_or("").to_string();
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, targets) in edges {
        let from = top(from);
        if from.is_empty() {
            continue;
        }
        let entry = out.entry(from.clone()).or_default();
        for to in targets {
            let to = top(to);
            if !to.is_empty() && to != from {
                entry.insert(to);
            }
        }
    }
    out
}

/// The layer of `module` (0 on top), if [`LAYERS`] names it.
fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, modules)| modules.contains(&module))
}

#[test]
fn the_top_level_modules_import_only_downwards_without_a_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let edges = top_level(&graph(&src));
    let unplaced: Vec<&String> = edges.keys().filter(|m| layer(m).is_none()).collect();
    assert!(unplaced.is_empty(), "modules in no layer of LAYERS: {unplaced:?}");
    let mut upwards = Vec::new();
    for (from, targets) in &edges {
        for to in targets {
            if layer(to) < layer(from) {
                let name = |m: &str| LAYERS[layer(m).unwrap()].0;
                upwards.push(format!("{from} ({}) imports {to} ({})", name(from), name(to)));
            }
        }
    }
    assert!(upwards.is_empty(), "imports that go up a layer:\n{}", upwards.join("\n"));
    let found = cycles(&edges);
    assert!(found.is_empty(), "import cycles among the top-level modules: {found:?}");
}

/// `line` with the text of its string literals taken out (`"..."` becomes `""`).
fn without_strings(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        out.push(c);
        if c == '"' {
            while let Some(d) = chars.next() {
                match d {
                    '\\' => {
                        chars.next();
                    }
                    '"' => {
                        out.push('"');
                        break;
                    }
                    _ => {}
                }
            }
        }
    }
    out
}

/// Every `Result<..., String>` in the code (comments and strings aside) of the `.rs` files
/// under `dir`, as `file:line`.
fn string_errors(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for (i, line) in text.lines().enumerate() {
                let code = without_strings(line.split("//").next().unwrap_or(""));
                let mut rest = code.as_str();
                while let Some(at) = rest.find("Result<") {
                    let tail = &rest[at + "Result<".len()..];
                    // The end of the generic list: the `>` that closes `Result<`.
                    let mut depth = 1;
                    let end = tail.char_indices().find_map(|(k, c)| {
                        match c {
                            '<' => depth += 1,
                            '>' => depth -= 1,
                            _ => {}
                        }
                        (depth == 0).then_some(k)
                    });
                    let Some(end) = end else { break };
                    if tail[..end].trim_end().ends_with(", String") {
                        found.push(format!("{}:{}", path.display(), i + 1));
                    }
                    rest = &tail[end..];
                }
            }
        }
    }
    found.sort();
    found
}

#[test]
fn no_function_of_the_tools_or_the_core_returns_string_errors() {
    let tools = Path::new(env!("CARGO_MANIFEST_DIR"));
    let core = tools.parent().unwrap().join("core");
    let mut found = Vec::new();
    for dir in [tools.join("src"), tools.join("tests"), core.join("src"), core.join("tests")] {
        found.extend(string_errors(&dir));
    }
    assert!(found.is_empty(), "Result<_, String> (make the error a type):\n{}", found.join("\n"));
    // The check finds one where there is one.
    let dir = std::env::temp_dir().join(format!("ply-shape-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("x.rs"),
        "fn a() -> Result<Vec<u8>, String> {}\n// Result<(), String>\nfn b() -> Result<(), E> {}\n",
    )
    .unwrap();
    assert_eq!(string_errors(&dir).len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_check_sees_a_cycle_and_the_registry_above_the_tools() {
    let edges: BTreeMap<String, BTreeSet<String>> =
        [("a", vec!["b"]), ("b", vec!["c"]), ("c", vec!["a"]), ("d", vec!["a"])]
            .into_iter()
            .map(|(m, t)| (m.to_string(), t.into_iter().map(String::from).collect()))
            .collect();
    assert_eq!(cycles(&edges), vec![vec!["a".to_string(), "b".into(), "c".into()]]);

    let paths = named_paths("tune::fit", &code("use super::data::X;\nuse crate::{agents::A, spec};\n// crate::cli\n#[cfg(test)]\nmod tests {\n    use crate::registry::R;\n}\n"));
    assert_eq!(
        paths,
        vec![
            vec!["agents".to_string(), "A".into()],
            vec!["spec".to_string()],
            vec!["tune".to_string(), "data".into(), "X".into()],
        ]
    );

    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let edges = graph(&src);
    for tool in ["arena::tournament", "book", "egdb", "play", "spec", "tune::generate", "agents"] {
        assert!(!edges[tool].contains("registry"), "{tool} imports the registry");
        assert!(!edges[tool].iter().any(|t| t.starts_with("cli")), "{tool} imports the programs");
    }
    assert!(edges["registry"].contains("agents"), "{:?}", edges["registry"]);
}
