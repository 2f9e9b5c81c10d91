//! The docs a reader looks in name what the code holds: every module directly in a layer of
//! ccm-render (`src/<layer>/*.rs`, `src/<layer>/<folder>/`) and of the catalogue crate
//! (`crates/catalogue/src/`) in its layer's paragraph of docs/architecture.md, and every file of
//! `tests/it/` in docs/testing.md (and declared in `tests/it/main.rs`, without which cargo
//! leaves it out silently); and every repository path the README and docs/ name exists, so a
//! file that moves takes its docs with it.

use crate::common::root;
use std::path::Path;

/// The layers of ccm-render, by folder, and the opening of each one's paragraph in
/// docs/architecture.md; the catalogue crate's source folder last.
const LAYERS: &[(&str, &str)] = &[
    ("src/inputs", "**`inputs` (1).**"),
    ("src/catalogue", "**`catalogue` (2).**"),
    ("src/config", "**`config` (3).**"),
    ("src/render", "**`render` (4).**"),
    ("src/output", "**`output` (5).**"),
    ("src/commands", "**`commands` (6).**"),
    (
        "crates/catalogue/src",
        "**`ccm-catalogue` (crates/catalogue).**",
    ),
];

/// Files of a layer folder that are not modules of their own to document: the layer's own
/// file, the crate root, and unit tests loaded with `#[cfg(test)] mod tests;`.
const NOT_MODULES: &[&str] = &["mod.rs", "lib.rs", "tests.rs"];

fn read(relative: &str) -> String {
    std::fs::read_to_string(root().join(relative)).expect("readable")
}

/// The names in `dir`: files as `name.rs`, folders as `name/`, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .expect("readable folder")
        .map(|entry| {
            let entry = entry.expect("entry");
            let name = entry.file_name().into_string().expect("UTF-8 name");
            if entry.file_type().expect("type").is_dir() {
                format!("{name}/")
            } else {
                name
            }
        })
        .collect();
    out.sort();
    out
}

/// The paragraph of `doc` that begins with `opening`, up to the next blank line.
fn paragraph<'d>(doc: &'d str, opening: &str) -> &'d str {
    let start = doc
        .find(&format!("\n{opening}"))
        .unwrap_or_else(|| panic!("docs/architecture.md has no paragraph {opening}"));
    let rest = &doc[start + 1..];
    &rest[..rest.find("\n\n").unwrap_or(rest.len())]
}

/// Whether `text` names the file or folder `name` as code: `` `name` ``, or at the end of a
/// longer path (`` `catalogue/cccmo/` ``, `` `render/cloud_config/` ``).
fn names(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        matches!(before, Some('`' | '/')) && after == Some('`')
    })
}

#[test]
fn every_module_of_a_layer_is_named_in_its_layers_paragraph_of_architecture_md() {
    let doc = read("docs/architecture.md");
    let mut missing = Vec::new();
    for (folder, opening) in LAYERS {
        let text = paragraph(&doc, opening);
        for name in entries(&root().join(folder)) {
            let module =
                name.ends_with('/') || Path::new(&name).extension().is_some_and(|e| e == "rs");
            if module && !NOT_MODULES.contains(&name.as_str()) && !names(text, &name) {
                missing.push(format!("{folder}/{name}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "not named in its layer's paragraph of docs/architecture.md (as `name.rs` or `name/`): {missing:#?}"
    );
}

#[test]
fn every_file_of_tests_it_is_named_in_testing_md_and_declared_in_main_rs() {
    let doc = read("docs/testing.md");
    let main = read("tests/it/main.rs");
    let mut missing = Vec::new();
    for name in entries(&root().join("tests/it")) {
        let Some(module) = name.strip_suffix(".rs") else {
            continue;
        };
        if !names(&doc, &format!("tests/it/{name}")) {
            missing.push(format!("tests/it/{name}: not named in docs/testing.md"));
        }
        if module != "main" && !main.lines().any(|l| l.trim() == format!("mod {module};")) {
            missing.push(format!("tests/it/{name}: not declared in tests/it/main.rs"));
        }
    }
    assert!(missing.is_empty(), "{missing:#?}");
}

#[test]
fn names_are_found_only_as_code() {
    assert!(names("the cache (`fresh.rs`)", "fresh.rs"));
    assert!(names("folders (`catalogue/cccmo/`)", "cccmo/"));
    assert!(!names("the refresh.rs file", "fresh.rs"));
    assert!(!names("`refresh.rs`", "fresh.rs"));
    assert!(!names("`fresh.rs.bak`", "fresh.rs"));
}

/// The repository's top folders a doc names paths under.
const TOP_FOLDERS: &[&str] = &[
    "src/",
    "crates/",
    "tests/",
    "scripts/",
    "assets/",
    "docs/",
    "testdata/",
    "fuzz/",
    "benches/",
    "pgo/",
    ".ci/",
];

/// The repository paths `doc` names: code spans (`` `src/output/redact.rs` ``) and link targets
/// (`](../tests/it/schema.rs)`, relative to the doc's folder) under [`TOP_FOLDERS`], without a
/// line number or an anchor; spans with a placeholder or a pattern (`<platform>`, `*`) are not
/// paths.
fn repository_paths(doc: &str, folder: &str) -> Vec<String> {
    let spans = doc.split('`').skip(1).step_by(2).map(str::to_string);
    let links = doc.split("](").skip(1).filter_map(|rest| {
        let target = &rest[..rest.find(')')?];
        let target = target.strip_prefix("../").map_or_else(
            || format!("{folder}{target}"),
            std::string::ToString::to_string,
        );
        Some(target)
    });
    spans
        .chain(links)
        .filter(|p| TOP_FOLDERS.iter().any(|top| p.starts_with(top)))
        .filter(|p| !p.contains([' ', '<', '*', '{', '$', '…']))
        .map(|p| {
            let p = p.split('#').next().unwrap_or_default();
            p.split(':').next().unwrap_or_default().to_string()
        })
        .filter(|p| !p.split('/').any(is_placeholder))
        .filter(|p| !NOT_OURS.iter().any(|(path, _)| p.starts_with(path)))
        .collect()
}

/// A path segment in capitals stands for any name (`X.Y.yaml`, `TARGET`).
fn is_placeholder(segment: &str) -> bool {
    let stem = segment.split('.').next().unwrap_or_default();
    !stem.is_empty() && stem.chars().all(|c| c.is_ascii_uppercase())
}

/// Paths the docs name that are not in this repository, and why.
const NOT_OURS: &[(&str, &str)] = &[
    ("docs/user", "the installer repository's examples"),
    (
        "assets/releases/4.24.yaml",
        "docs/cccmo.md: what importing the next release writes",
    ),
    (
        "testdata/conformance/releases/4.23/",
        "docs/cccmo.md: where importing the next release moves 4.23's cases",
    ),
];

#[test]
fn every_repository_path_the_docs_name_exists() {
    let mut docs = vec![("README.md".to_string(), String::new())];
    for name in entries(&root().join("docs")) {
        if Path::new(&name).extension().is_some_and(|e| e == "md") {
            docs.push((format!("docs/{name}"), "docs/".to_string()));
        }
    }
    let mut missing = Vec::new();
    for (doc, folder) in &docs {
        for path in repository_paths(&read(doc), folder) {
            if !root().join(&path).exists() {
                missing.push(format!("{doc}: {path}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "paths that do not exist:\n{}",
        missing.join("\n")
    );
}

#[test]
fn a_moved_path_is_found_in_a_code_span_and_in_a_link() {
    let doc = "see `src/old.rs:12`, [x](../tests/old.rs#a), `src/<layer>/`, `fuzz/artifacts/TARGET/`, [y](cli.md)";
    assert_eq!(
        repository_paths(doc, "docs/"),
        ["src/old.rs", "tests/old.rs", "docs/cli.md"]
    );
}
