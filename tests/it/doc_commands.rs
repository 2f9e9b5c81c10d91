//! Every `ccm-render` command the README and the pages of docs/ show in a shell block runs as
//! shown: the built binary, in a folder laid out as a reader's would be for that page (the
//! repository's `testdata/` and a copy of `assets/`, and the files the pages name as the
//! user's own: an AWS cluster's `infrastructure.yaml`, `images.json` and so on, a CCCMO
//! checkout at `~/src/cccmo`, `/tmp/providers/aws` as the matrix page's `cp -r` makes it),
//! the commands of one page in their order. A command must exit 0, or 1 where `--check` or
//! `--diff` reports a change; a usage error, a missing file or any other exit 2 fails the test,
//! naming the page, the line and the error.
//!
//! `cargo run -- ARGS` counts as `ccm-render ARGS`. Only the ccm-render part of a line runs: a
//! pipe, a redirection or a second command after it is left out (`ccm-render completions bash
//! > /etc/…` runs `ccm-render completions bash`). Commands that need podman, root or the
//! network are in [`SKIPPED`], each with its reason; every other is run.

use crate::cccmo::own_tree;
use crate::common::{conformance, copy_tree, root, stderr};
use std::path::Path;
use std::process::Command;

/// A command shown but not run.
#[derive(Debug, PartialEq)]
struct Skip {
    /// The page that shows it.
    page: &'static str,
    /// The start of the command as shown.
    command: &'static str,
    /// Why it is not run.
    why: &'static str,
}

/// Commands shown but not run.
const SKIPPED: &[Skip] = &[
    Skip {
        page: "docs/cccmo.md",
        command: "ccm-render matrix --dest-dir /tmp/ccm-matrix --cccmo-dir",
        why: "needs a clone of CCCMO (the network): its Go files tell its release, which a tree \
              of templates cannot; tests/it/cccmo.rs renders the same way from template trees \
              with --release, and from each release head where one is given",
    },
    Skip {
        page: "docs/cccmo.md",
        command: "ccm-render render --infrastructure cluster-infrastructure-02-config.yml",
        why: "needs a clone of CCCMO (the network), as above",
    },
];

/// A command shown on a page.
#[derive(Debug)]
struct Shown {
    page: String,
    line: usize,
    text: String,
    env: Vec<(String, String)>,
    args: Vec<String>,
}

/// The languages of the blocks whose lines are commands; in any other block, a line that
/// starts with `$ ` is one.
const SHELL: &[&str] = &["sh", "bash", "shell", "console"];

/// The `ccm-render` commands in the shell blocks of `text`, the page `page`.
fn shown(page: &str, text: &str) -> Vec<Shown> {
    let mut out = Vec::new();
    let mut block: Option<&str> = None;
    let mut pending: Option<(usize, String)> = None;
    for (number, line) in text.lines().enumerate() {
        if let Some(fence) = line.trim_start().strip_prefix("```") {
            block = if block.is_some() {
                None
            } else {
                Some(fence.trim())
            };
            pending = None;
            continue;
        }
        let Some(lang) = block else { continue };
        let (start, mut logical) = pending.take().unwrap_or((number + 1, String::new()));
        let trimmed = line.trim();
        if let Some(head) = trimmed.strip_suffix('\\') {
            logical.push_str(head);
            logical.push(' ');
            pending = Some((start, logical));
            continue;
        }
        logical.push_str(trimmed);
        let command = match logical.strip_prefix("$ ") {
            Some(command) => command,
            None if SHELL.contains(&lang) => logical.as_str(),
            None => continue,
        };
        if let Some(found) = parse(page, start, command) {
            out.push(found);
        }
    }
    out
}

/// `line` as a ccm-render command, or None when it runs another program.
fn parse(page: &str, number: usize, line: &str) -> Option<Shown> {
    let mut words = words(line).into_iter().peekable();
    let mut env = Vec::new();
    while let Some((name, value)) = words.peek().and_then(|w| w.split_once('=')) {
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            break;
        }
        env.push((name.to_string(), value.to_string()));
        words.next();
    }
    let words: Vec<String> = words.collect();
    let args = match words.as_slice() {
        [program, args @ ..] if program == "ccm-render" => args.to_vec(),
        [cargo, run, dashes, args @ ..] if cargo == "cargo" && run == "run" && dashes == "--" => {
            args.to_vec()
        }
        _ => return None,
    };
    Some(Shown {
        page: page.to_string(),
        line: number,
        text: line.to_string(),
        env,
        args,
    })
}

/// The words of `line` as sh splits them, quotes removed, up to the first comment, pipe,
/// redirection or command separator.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word: Option<String> = None;
    let mut quote = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_default();
            }
            (None, ' ' | '\t') => out.extend(word.take()),
            (None, '#') if word.is_none() => break,
            (None, '|' | '>' | '<' | ';' | '&') => break,
            // Inside quotes, or a plain character.
            (_, c) => word.get_or_insert_default().push(c),
        }
    }
    out.extend(word);
    out
}

/// A folder laid out as a reader's for `page`, and the home folder `~` stands for.
fn workspace(page: &str, dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let (work, home) = (dir.join("work"), dir.join("home"));
    std::fs::create_dir_all(work.join("tmp")).expect("mkdir");
    std::os::unix::fs::symlink(root().join("testdata"), work.join("testdata")).expect("link");
    if page == "docs/cccmo.md" {
        // A copy: `provider import` rewrites the catalogue it is given.
        copy_tree(&root().join("assets"), &work.join("assets"));
        own_tree(&home.join("src/cccmo"), &newest());
    } else {
        std::os::unix::fs::symlink(root().join("assets"), work.join("assets")).expect("link");
    }
    // The matrix page's `cp -r assets/aws /tmp/providers/aws` (`/tmp/` is the folder's own).
    copy_tree(&root().join("assets/aws"), &work.join("tmp/providers/aws"));
    let testdata = root().join("testdata");
    let mut files = vec![
        (
            "infrastructure.yaml",
            conformance("aws/infrastructure.yaml"),
        ),
        (
            "cluster-infrastructure-02-config.yml",
            conformance("aws/infrastructure.yaml"),
        ),
        ("images.json", conformance("images.json")),
        (
            "cloud-provider-config.yaml",
            conformance("aws/cloud-provider-config.yaml"),
        ),
        ("network.yaml", conformance("network.yaml")),
        (
            "install-config.yaml",
            testdata.join("install-config/aws/install-config.yaml"),
        ),
        (
            "openshift/99_cloud-creds-secret.yaml",
            testdata.join("credentials/aws.yaml"),
        ),
    ];
    if page == "docs/providers.md" {
        // Writing a provider renders an External cluster with the provider of providers/.
        let external = testdata.join("external");
        files.extend([
            (
                "infrastructure.yaml",
                external.join("infrastructure-oci.yaml"),
            ),
            ("images.json", external.join("images.json")),
            ("cloud.conf", external.join("oci-cloud-provider.yaml")),
        ]);
        copy_tree(&root().join("assets/oci"), &work.join("providers/oci"));
    }
    for (name, from) in files {
        let to = work.join(name);
        std::fs::create_dir_all(to.parent().expect("parent")).expect("mkdir");
        std::fs::copy(&from, &to).unwrap_or_else(|e| panic!("{}: {e}", from.display()));
    }
    if page == "docs/bootstrap-and-image.md" {
        // Installing a render: the render, in out/.
        let path = |name: &str| work.join(name).display().to_string();
        let out = crate::common::ccm_render(&[
            "render",
            "--infrastructure",
            &path("infrastructure.yaml"),
            "--images",
            &path("images.json"),
            "--cloud-config",
            &path("cloud-provider-config.yaml"),
            "--dest-dir",
            &path("out"),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    (work, home)
}

fn newest() -> String {
    ccm_render::catalogue::Releases::builtin()
        .expect("releases")
        .newest()
        .name
        .clone()
}

/// The pages: the README and every page of docs/.
fn pages() -> Vec<String> {
    let mut pages: Vec<String> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .map(|e| e.expect("entry").file_name().into_string().expect("UTF-8"))
        .filter(|name| Path::new(name).extension().is_some_and(|e| e == "md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    pages.sort();
    pages.insert(0, "README.md".to_string());
    pages
}

/// Runs `command` in `work`; the error to report when it does not run.
fn run(command: &Shown, work: &Path, home: &Path) -> Result<(), String> {
    let tmp = format!("{}/", work.join("tmp").display());
    let args: Vec<String> = command
        .args
        .iter()
        .map(|arg| {
            let arg = arg.replace("/tmp/", &tmp);
            match arg.strip_prefix("~/") {
                Some(rest) => format!("{}/{rest}", home.display()),
                None => arg,
            }
        })
        .collect();
    if let Some(odd) = args.iter().find(|a| a.contains('…') || a.contains('$')) {
        return Err(format!(
            "{odd:?} is a placeholder: show a command that runs"
        ));
    }
    let out = Command::new(crate::common::binary())
        .args(&args)
        .envs(command.env.iter().map(|(k, v)| (k, v)))
        .env("HOME", home)
        .env_remove("NO_COLOR")
        .current_dir(work)
        .output()
        .expect("the binary runs");
    match out.status.code() {
        Some(0 | 1) => Ok(()),
        _ => Err(format!("{}: {}", out.status, stderr(&out).trim())),
    }
}

#[test]
fn every_command_shown_in_the_readme_and_docs_runs() {
    let mut failures = Vec::new();
    let mut skipped = Vec::new();
    let mut ran = 0;
    for page in pages() {
        let text = std::fs::read_to_string(root().join(&page)).expect("readable");
        let commands = shown(&page, &text);
        if commands.is_empty() {
            continue;
        }
        let dir = tempfile::tempdir().expect("tempdir");
        let (work, home) = workspace(&page, dir.path());
        for command in commands {
            let skip = SKIPPED
                .iter()
                .find(|s| s.page == page && command.text.starts_with(s.command));
            if let Some(entry) = skip {
                skipped.push(entry);
                continue;
            }
            ran += 1;
            if let Err(err) = run(&command, &work, &home) {
                failures.push(format!(
                    "{}:{}: {}\n    {err}",
                    command.page, command.line, command.text
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        ran >= 15,
        "only {ran} commands found: is the extraction broken?"
    );
    let stale: Vec<_> = SKIPPED.iter().filter(|e| !skipped.contains(e)).collect();
    assert!(
        stale.is_empty(),
        "SKIPPED entries that match no command: {stale:?}"
    );
}

#[test]
fn commands_are_read_as_sh_splits_them() {
    let page = "```sh\nFOO=1 ccm-render render --a 'b c' \\\n    --d \"e\" | less -R  # comment\n\
                cp -r a b\n```\n```\n$ cargo run -- releases\nccm-render listed, not run\n```\n";
    let found = shown("p.md", page);
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(found[0].line, 2);
    assert_eq!(found[0].env, [("FOO".to_string(), "1".to_string())]);
    assert_eq!(found[0].args, ["render", "--a", "b c", "--d", "e"]);
    assert_eq!(found[1].args, ["releases"]);
    assert_eq!(words("ccm-render x > /etc/f"), ["ccm-render", "x"]);
    assert_eq!(words("a#b # c"), ["a#b"]);
}
