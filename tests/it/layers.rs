//! The shape of the code, checked: in every crate of the workspace the modules use each other
//! without a cycle, and in ccm-render each layer uses only the layers below it
//! (docs/architecture.md). Test code (`#[cfg(test)]` items and the files they load) is left out:
//! a test may reach anywhere.
//!
//! A module "uses" another when one of its paths (in a `use`, an expression, a type, a macro's
//! tokens or a serde `with` attribute) names that module or an item in it; a `pub use` of a
//! child's item is a use of the child like any other, so a child that uses its parent's items
//! while the parent re-exports the child's is a cycle. `mod child;` alone is not a use.
//!
//! Things are imported from where they live: no module re-exports (`pub use`) another crate's
//! item. No platform is compared as a string past the inputs layer ([`platform_strings`]). And
//! no function is longer than 80 lines unless a comment above it says why it reads better whole.

mod flattened_errors;
mod platform_strings;
mod source;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use syn::visit::Visit;

/// ccm-render's layers, lowest first: a top-level module may use only itself and those before it.
const LAYERS: &[&str] = &[
    "inputs",
    "catalogue",
    "config",
    "render",
    "output",
    "commands",
];

/// A module: its path from the crate root (`["output", "plan"]`) and the paths it names.
#[derive(Default)]
struct Module {
    children: BTreeSet<String>,
    named: Vec<Vec<String>>,
    /// `pub use` re-exports: the name another module may use, and the path it stands for.
    aliases: BTreeMap<String, Vec<String>>,
    /// Every path a `pub use` exports, globs included.
    exported: Vec<Vec<String>>,
}

type Tree = BTreeMap<Vec<String>, Module>;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.meta.require_list().is_ok_and(|l| {
                let text = l.tokens.to_string();
                text == "test" || text.starts_with("test,") || text.contains("feature = \"test")
            })
    })
}

/// Collects what one module's items name; nested inline modules become modules of their own.
struct Collector<'a> {
    tree: &'a mut Tree,
    dir: PathBuf,
    at: Vec<String>,
}

impl Collector<'_> {
    fn name(&mut self, segments: Vec<String>) {
        let at = self.at.clone();
        self.tree.entry(at).or_default().named.push(segments);
    }

    /// `crate :: a :: b` and `super :: x` sequences in a macro's tokens.
    fn tokens(&mut self, tokens: proc_macro2::TokenStream) {
        let flat: Vec<proc_macro2::TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        while i < flat.len() {
            match &flat[i] {
                proc_macro2::TokenTree::Group(g) => self.tokens(g.stream()),
                proc_macro2::TokenTree::Ident(id) if id == "crate" || id == "super" => {
                    let mut segments = vec![id.to_string()];
                    let mut j = i + 1;
                    while let (
                        Some(proc_macro2::TokenTree::Punct(a)),
                        Some(proc_macro2::TokenTree::Punct(b)),
                        Some(proc_macro2::TokenTree::Ident(next)),
                    ) = (flat.get(j), flat.get(j + 1), flat.get(j + 2))
                    {
                        if a.as_char() != ':' || b.as_char() != ':' {
                            break;
                        }
                        segments.push(next.to_string());
                        j += 3;
                    }
                    self.name(segments);
                    i = j;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
    }

    /// The paths a `use` names; with `export`, its names are also recorded as aliases.
    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree, export: bool) {
        let (path, alias) = match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree, export);
                prefix.pop();
                return;
            }
            syn::UseTree::Group(g) => {
                for item in &g.items {
                    self.use_tree(prefix, item, export);
                }
                return;
            }
            syn::UseTree::Glob(_) => (prefix.clone(), None),
            syn::UseTree::Name(n) if n.ident == "self" => (prefix.clone(), prefix.last().cloned()),
            syn::UseTree::Name(n) => {
                let mut path = prefix.clone();
                path.push(n.ident.to_string());
                (path, Some(n.ident.to_string()))
            }
            syn::UseTree::Rename(r) => {
                let mut path = prefix.clone();
                path.push(r.ident.to_string());
                (path, Some(r.rename.to_string()))
            }
        };
        if export {
            let at = self.at.clone();
            self.tree.entry(at).or_default().exported.push(path.clone());
        }
        if export && let Some(alias) = alias {
            let at = self.at.clone();
            self.tree
                .entry(at)
                .or_default()
                .aliases
                .insert(alias, path.clone());
        }
        self.name(path);
    }
}

impl<'ast> Visit<'ast> for Collector<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs = match item {
            syn::Item::Const(i) => &i.attrs,
            syn::Item::Enum(i) => &i.attrs,
            syn::Item::Fn(i) => &i.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Mod(i) => &i.attrs,
            syn::Item::Static(i) => &i.attrs,
            syn::Item::Struct(i) => &i.attrs,
            syn::Item::Trait(i) => &i.attrs,
            syn::Item::Type(i) => &i.attrs,
            syn::Item::Use(i) => &i.attrs,
            syn::Item::Macro(i) => &i.attrs,
            _ => return syn::visit::visit_item(self, item),
        };
        if is_test(attrs) {
            return;
        }
        if let syn::Item::Mod(m) = item {
            let name = m.ident.to_string();
            let at = self.at.clone();
            self.tree
                .entry(at.clone())
                .or_default()
                .children
                .insert(name.clone());
            let mut child = at;
            child.push(name.clone());
            if let Some((_, items)) = &m.content {
                let saved = std::mem::replace(&mut self.at, child);
                for item in items {
                    self.visit_item(item);
                }
                self.at = saved;
            } else {
                // A module compiled from another place would hide its uses from this check.
                assert!(
                    !m.attrs.iter().any(|a| a.path().is_ident("path")),
                    "#[path] on mod {name} in {}",
                    self.dir.display()
                );
                read_module(self.tree, &self.dir, &name, child);
            }
            return;
        }
        syn::visit::visit_item(self, item);
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        let export = !matches!(item.vis, syn::Visibility::Inherited);
        self.use_tree(&mut Vec::new(), &item.tree, export);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        self.name(path.segments.iter().map(|s| s.ident.to_string()).collect());
        syn::visit::visit_path(self, path);
    }

    /// `pub(super)`, `pub(crate)`, `pub(in path)` say who may see an item, not what it uses.
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.tokens(mac.tokens.clone());
        syn::visit::visit_macro(self, mac);
    }

    fn visit_attribute(&mut self, attr: &'ast syn::Attribute) {
        // serde's `with`/`deserialize_with` name a function by a string.
        if let syn::Meta::List(list) = &attr.meta {
            for token in list.tokens.clone() {
                if let proc_macro2::TokenTree::Literal(lit) = token {
                    let text = lit.to_string();
                    let text = text.trim_matches('"');
                    if text.starts_with("crate::") || text.starts_with("super::") {
                        self.name(text.split("::").map(str::to_string).collect());
                    }
                }
            }
        }
    }
}

/// Reads module `name` declared in the file whose folder (for its children) is `dir`.
fn read_module(tree: &mut Tree, dir: &Path, name: &str, at: Vec<String>) {
    let (file, child_dir) = if dir.join(format!("{name}.rs")).exists() {
        (dir.join(format!("{name}.rs")), dir.join(name))
    } else {
        (dir.join(name).join("mod.rs"), dir.join(name))
    };
    read_file(tree, &file, child_dir, at);
}

fn read_file(tree: &mut Tree, file: &Path, dir: PathBuf, at: Vec<String>) {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let ast = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    tree.entry(at.clone()).or_default();
    let mut collector = Collector { tree, dir, at };
    for item in &ast.items {
        collector.visit_item(item);
    }
}

/// The module tree of the crate whose root file is `lib`.
fn crate_tree(lib: &Path) -> Tree {
    let mut tree = Tree::new();
    read_file(
        &mut tree,
        lib,
        lib.parent().expect("src").to_path_buf(),
        Vec::new(),
    );
    tree
}

/// The module a path names from module `at`, if it is one of this crate's: the longest prefix
/// of the resolved path that is a module, or, where the next name is a re-export of that
/// module, the module the re-export names (an alias is no dependency of its own).
fn resolve(tree: &Tree, at: &[String], path: &[String]) -> Option<Vec<String>> {
    resolve_within(tree, at, path, 8)
}

fn resolve_within(tree: &Tree, at: &[String], path: &[String], depth: u8) -> Option<Vec<String>> {
    let mut base: Vec<String> = at.to_vec();
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &path[1..];
        }
        Some("self") => rest = &path[1..],
        Some("super") => {
            while rest.first().is_some_and(|s| s == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        Some(first) if tree.get(at).is_some_and(|m| m.children.contains(first)) => {}
        _ => return None,
    }
    let mut found = base.clone();
    let mut candidate = base;
    let mut next = rest.iter();
    for segment in next.by_ref() {
        candidate.push(segment.clone());
        if tree.contains_key(&candidate) {
            found.clone_from(&candidate);
            continue;
        }
        if let Some(target) = tree.get(&found).and_then(|m| m.aliases.get(segment))
            && depth > 0
            && target.first().is_some_and(|first| first != "ccm_catalogue")
        {
            return resolve_within(tree, &found, target, depth - 1).or(Some(found));
        }
        break;
    }
    Some(found)
}

/// Module → the modules it uses (itself left out).
fn uses(tree: &Tree) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    witnesses(tree)
        .into_iter()
        .map(|(from, to)| (from, to.into_keys().collect()))
        .collect()
}

/// Module → each module it uses, with the first path that names it (for the failure message).
fn witnesses(tree: &Tree) -> BTreeMap<Vec<String>, BTreeMap<Vec<String>, String>> {
    let mut edges = BTreeMap::new();
    for (at, module) in tree {
        let set: &mut BTreeMap<Vec<String>, String> = edges.entry(at.clone()).or_default();
        for path in &module.named {
            if let Some(target) = resolve(tree, at, path)
                && &target != at
            {
                set.entry(target).or_insert_with(|| path.join("::"));
            }
        }
    }
    edges
}

fn show(module: &[String]) -> String {
    if module.is_empty() {
        "crate".to_string()
    } else {
        module.join("::")
    }
}

/// Every cycle's modules, one strongly connected component each (Tarjan's algorithm).
fn cycles(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<String>> {
    struct State<'a> {
        edges: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: BTreeMap<&'a Vec<String>, usize>,
        low: BTreeMap<&'a Vec<String>, usize>,
        stack: Vec<&'a Vec<String>>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a Vec<String>) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        for w in s.edges.get(v).into_iter().flatten() {
            let Some((w, _)) = s.edges.get_key_value(w) else {
                continue;
            };
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.stack.contains(&w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                component.push(show(w));
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
    let mut state = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !state.index.contains_key(v) {
            visit(&mut state, v);
        }
    }
    state.found
}

fn assert_acyclic(lib: &Path) {
    let tree = crate_tree(lib);
    assert!(
        tree.len() > 5,
        "{}: only {} modules read",
        lib.display(),
        tree.len()
    );
    let found = cycles(&uses(&tree));
    let mut report = Vec::new();
    for component in &found {
        report.push(format!("cycle: {}", component.join(", ")));
        for (from, targets) in &witnesses(&tree) {
            for (to, path) in targets {
                if component.contains(&show(from)) && component.contains(&show(to)) {
                    report.push(format!("  {} uses {} ({path})", show(from), show(to)));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "{}: modules that use each other in a cycle:\n{}",
        lib.display(),
        report.join("\n")
    );
}

#[test]
fn ccm_render_modules_have_no_cycle() {
    assert_acyclic(&repo().join("src/lib.rs"));
}

#[test]
fn ccm_catalogue_modules_have_no_cycle() {
    assert_acyclic(&repo().join("crates/catalogue/src/lib.rs"));
}

#[test]
fn every_ccm_render_layer_uses_only_the_layers_below_it() {
    let tree = crate_tree(&repo().join("src/lib.rs"));
    let top: BTreeSet<&str> = tree[&Vec::new()]
        .children
        .iter()
        .map(String::as_str)
        .collect();
    assert_eq!(
        top,
        LAYERS.iter().copied().collect(),
        "src/lib.rs declares other top modules than the layers"
    );
    let mut wrong = Vec::new();
    for (from, targets) in witnesses(&tree) {
        let Some(layer) = from.first() else { continue };
        let rank = LAYERS.iter().position(|l| l == layer).expect("a layer");
        for (target, path) in targets {
            if let Some(to) = target.first()
                && LAYERS.iter().position(|l| l == to).expect("a layer") > rank
            {
                wrong.push(format!("{} uses {} ({path})", show(&from), show(&target)));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "a layer reaches up:\n{}",
        wrong.join("\n")
    );
}

/// The check finds what it is for in a small crate of its own: a cycle between two files, a
/// use through a re-export, and test code left out.
#[test]
fn the_checks_find_a_cycle_and_a_reach_upwards() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path();
    std::fs::create_dir_all(src.join("output")).expect("mkdir");
    std::fs::write(src.join("lib.rs"), "pub mod inputs;\npub mod output;\n").expect("write");
    std::fs::write(
        src.join("inputs.rs"),
        "pub fn f() { crate::output::g(); }\n",
    )
    .expect("write");
    std::fs::write(
        src.join("output/mod.rs"),
        "mod plan;\nmod lock;\npub use plan::g;\n",
    )
    .expect("write");
    std::fs::write(
        src.join("output/plan.rs"),
        "use super::lock::L;\npub fn g() {}\n",
    )
    .expect("write");
    std::fs::write(
        src.join("output/lock.rs"),
        "pub struct L;\nfn h() { format!(\"{}\", super::plan::g()); }\n#[cfg(test)]\nmod tests { fn t() { crate::inputs::f(); } }\n",
    )
    .expect("write");
    let tree = crate_tree(&src.join("lib.rs"));
    let edges = uses(&tree);
    let found = cycles(&edges);
    assert_eq!(
        found,
        vec![vec!["output::lock".to_string(), "output::plan".to_string()]]
    );
    // Through the re-export `output::g`, inputs uses the module that defines g.
    let inputs = &edges[&vec!["inputs".to_string()]];
    assert!(inputs.contains(&vec!["output".to_string(), "plan".to_string()]));
    assert!(!inputs.contains(&vec!["output".to_string()]));
    let lock = &edges[&vec!["output".to_string(), "lock".to_string()]];
    assert!(
        !lock.contains(&vec!["inputs".to_string()]),
        "test code is left out"
    );
}

/// The `pub use`s of a crate that export another crate's item: a path that starts neither from
/// this crate (`crate`, `self`, `super`) nor from a child module of the one exporting it.
fn foreign_reexports(tree: &Tree) -> Vec<String> {
    let mut found = Vec::new();
    for (at, module) in tree {
        for path in &module.exported {
            let first = path.first().map_or("", String::as_str);
            let local =
                matches!(first, "crate" | "self" | "super") || module.children.contains(first);
            if !local {
                found.push(format!("{} re-exports {}", show(at), path.join("::")));
            }
        }
    }
    found
}

#[test]
fn no_module_re_exports_another_crates_item() {
    let mut found = foreign_reexports(&crate_tree(&repo().join("src/lib.rs")));
    found.extend(foreign_reexports(&crate_tree(
        &repo().join("crates/catalogue/src/lib.rs"),
    )));
    assert!(
        found.is_empty(),
        "import these from the crate where they live:\n{}",
        found.join("\n")
    );
}

/// The re-export check finds another crate's item (named or by glob) and leaves a child's alone.
#[test]
fn the_re_export_check_finds_another_crates_item() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path();
    std::fs::write(
        src.join("lib.rs"),
        "mod inner;\npub use inner::Mine;\npub use serde_json::Value;\npub use anyhow::*;\n#[cfg(test)]\npub use tempfile::tempdir;\n",
    )
    .expect("write");
    std::fs::write(
        src.join("inner.rs"),
        "pub struct Mine;\npub use super::Value as V;\n",
    )
    .expect("write");
    assert_eq!(
        foreign_reexports(&crate_tree(&src.join("lib.rs"))),
        [
            "crate re-exports serde_json::Value",
            "crate re-exports anyhow"
        ]
    );
}

/// The longest a function may be, in lines from its `fn` to its closing brace, unless a
/// comment right above it (`// Reads better whole: why`) says why it is kept in one piece.
const LONGEST_FUNCTION: usize = 80;
const WHOLE: &str = "// Reads better whole:";

/// The functions of the Rust files under `dir` longer than [`LONGEST_FUNCTION`] without a
/// [`WHOLE`] comment above them, as `file:line name (N lines)`. Read as text: a function is a
/// line starting (after its indentation and visibility) with `fn`, `const fn`, `async fn` or
/// `unsafe fn`, up to the first line after it holding only its indentation and `}`.
fn long_functions(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for (file, bytes) in crate::common::read_tree(dir) {
        if Path::new(&file).extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = String::from_utf8(bytes).expect("UTF-8");
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let trimmed = line.trim_start();
            let indent = &line[..line.len() - trimmed.len()];
            let rest = trimmed
                .strip_prefix("pub ")
                .or_else(|| {
                    trimmed
                        .strip_prefix("pub(")
                        .and_then(|r| r.split_once(") ").map(|(_, r)| r))
                })
                .unwrap_or(trimmed);
            let rest = ["const ", "async ", "unsafe "]
                .iter()
                .fold(rest, |r, p| r.strip_prefix(p).unwrap_or(r));
            let Some(signature) = rest.strip_prefix("fn ") else {
                continue;
            };
            let name: String = signature
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            // A declaration without a body (in a trait) ends with `;` before any `{`.
            let Some(open) = (i..lines.len()).find(|&j| {
                lines[j].trim_end().ends_with('{') || lines[j].trim_end().ends_with(';')
            }) else {
                continue;
            };
            if lines[open].trim_end().ends_with(';') {
                continue;
            }
            let close = format!("{indent}}}");
            let Some(end) = (open + 1..lines.len()).find(|&j| lines[j].trim_end() == close) else {
                continue;
            };
            let length = end - i + 1;
            let above = lines[..i]
                .iter()
                .rev()
                .take_while(|l| {
                    let l = l.trim_start();
                    l.starts_with("//") || l.starts_with("#[")
                })
                .any(|l| l.trim_start().starts_with(WHOLE));
            if length > LONGEST_FUNCTION && !above {
                found.push(format!("{file}:{} {name} ({length} lines)", i + 1));
            }
        }
    }
    found
}

#[test]
fn no_function_is_longer_than_80_lines_unless_a_comment_says_why() {
    let found: Vec<String> = ["src", "crates/catalogue/src", "crates/memfns/src"]
        .iter()
        .flat_map(|dir| {
            long_functions(&repo().join(dir))
                .into_iter()
                .map(move |f| format!("{dir}/{f}"))
        })
        .collect();
    assert!(
        found.is_empty(),
        "split these by meaning, or say above each why it reads better whole ({WHOLE} ...):\n{}",
        found.join("\n")
    );
}

/// The length check counts from `fn` to the closing brace at the same indentation, skips
/// bodiless declarations, and accepts a long function with the comment.
#[test]
fn the_function_length_check_finds_a_long_function_and_accepts_the_comment() {
    let dir = tempfile::tempdir().expect("tempdir");
    let body = "    let x = 1;\n".repeat(LONGEST_FUNCTION);
    std::fs::write(
        dir.path().join("a.rs"),
        format!(
            "trait T {{\n    fn declared(&self);\n}}\n\npub(crate) fn long() {{\n{body}}}\n\nfn short() {{\n    let y = 2;\n}}\n\n{WHOLE} a table.\n/// Doc.\nfn kept() {{\n{body}}}\n"
        ),
    )
    .expect("write");
    assert_eq!(
        long_functions(dir.path()),
        [format!("a.rs:5 long ({} lines)", LONGEST_FUNCTION + 2)]
    );
}
