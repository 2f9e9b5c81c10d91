//! The docs a reader looks in name what the code holds: every module directly in a layer of
//! ccm-render (`src/<layer>/*.rs`, `src/<layer>/<folder>/`) and of the catalogue crate
//! (`crates/catalogue/src/`) in its layer's paragraph of docs/architecture.md, and every file of
//! `tests/it/` in docs/testing.md (and declared in `tests/it/main.rs`, without which cargo
//! leaves it out silently).

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
