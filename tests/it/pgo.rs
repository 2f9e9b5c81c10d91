//! The release build's optimisation profile cannot go stale silently. `scripts/pgo-digest`, which
//! `scripts/build-release` runs on every release build, fails in CI (`CI=true`) and warns
//! elsewhere when `pgo/` was taken with other code than the render compiles or another
//! toolchain; a change to tests, docs, comments, formatting or a unit test is no such change.
//!
//! Checked on a small repository laid out as this one (the script itself copied in, the
//! binary's dep-info written as cargo writes it, in a folder whose path has a space), and the
//! files the digest covers on this repository's shipped build (the release build: run by
//! scripts/test).

use crate::common::{root, s, stderr};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const PROFILE: &str = "pgo/x86_64-unknown-linux-musl.proftext";
const DEP_INFO: &str = "target/x86_64-unknown-linux-musl/release/ccm-render.d";

const RENDER: &str = r#"/// Renders the sample.
pub fn run() {
    // CCCMO does the same (pkg/cloud/aws/aws.go).
    let text = include_str!("../testdata/sample.yaml");
    println!("{text}");
}

#[cfg(test)]
mod tests {
    #[test]
    fn runs() {
        super::run();
    }
}
"#;

/// A repository with a binary crate, its profile taken.
struct Repo {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Repo {
    fn new() -> Self {
        let dir = tempfile::tempdir().expect("tmp");
        let root = dir.path().join("a clone");
        let files = [
            ("Cargo.toml", "[package]\nname = \"ccm-render\"\n"),
            ("Cargo.lock", "version = 4\n"),
            ("crates/lib/Cargo.toml", "[package]\nname = \"lib\"\n"),
            ("build.rs", "fn main() {}\n"),
            (
                "src/main.rs",
                "mod render;\n\nfn main() {\n    render::run();\n}\n\n#[cfg(test)]\nmod tests;\n",
            ),
            ("src/render.rs", RENDER),
            ("src/tests.rs", "#[test]\nfn t() {}\n"),
            ("assets/aws/provider.yaml", "replicas: 2\n"),
            ("testdata/sample.yaml", "kind: Sample\n"),
            ("testdata/other.yaml", "kind: Other\n"),
            ("tests/it.rs", "#[test]\nfn it() {}\n"),
            ("docs/render.md", "# Render\n"),
            (".gitignore", "/target\n"),
        ];
        for (path, text) in files {
            write(&root.join(path), text);
        }
        let script = root.join("scripts/pgo-digest");
        write(&script, "");
        std::fs::copy(root_script(), &script).expect("copy scripts/pgo-digest");
        let git = Command::new("git")
            .args(["init", "-q"])
            .current_dir(&root)
            .status()
            .expect("git (the test makes a repository with it)");
        assert!(git.success());
        // What rustc read, as cargo's dep-info lists it: absolute paths, a space as `\ `,
        // build.rs's output under target/ and its rerun-if-changed folder among them.
        let abs = |p: &str| s(&root.join(p)).replace(' ', "\\ ");
        let deps = [
            "assets",
            "build.rs",
            "src/main.rs",
            "src/render.rs",
            "testdata/sample.yaml",
            "target/x86_64-unknown-linux-musl/release/build/ccm-render-0/out/compiled.rs",
        ];
        let rule = format!(
            "{}: {}\n",
            abs("target/x86_64-unknown-linux-musl/release/ccm-render"),
            deps.map(abs).join(" ")
        );
        write(&root.join(DEP_INFO), &rule);
        let repo = Self { _dir: dir, root };
        let taken_with = repo.digest(&["taken-with", DEP_INFO], false);
        assert!(taken_with.status.success(), "{}", stderr(&taken_with));
        let taken_with = String::from_utf8(taken_with.stdout).expect("utf-8");
        let mut header = String::new();
        for line in taken_with.lines() {
            header.push_str("# ");
            header.push_str(line);
            header.push('\n');
        }
        write(
            &repo.root.join(PROFILE),
            &format!("{header}# IR level Instrumentation Flag\n"),
        );
        repo
    }

    fn digest(&self, args: &[&str], ci: bool) -> Output {
        let mut command = Command::new(self.root.join("scripts/pgo-digest"));
        command.args(args).current_dir(&self.root).env_remove("CI");
        if ci {
            command.env("CI", "true");
        }
        command.output().expect("scripts/pgo-digest")
    }

    fn check_sources(&self, ci: bool) -> Output {
        self.digest(&["check-sources", PROFILE, DEP_INFO], ci)
    }

    fn edit(&self, path: &str, from: &str, to: &str) {
        let path = self.root.join(path);
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(text.contains(from), "{}: no {from:?}", path.display());
        write(&path, &text.replacen(from, to, 1));
    }
}

fn root_script() -> PathBuf {
    root().join("scripts/pgo-digest")
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

/// The profile still applies: no line, exit 0, in CI too.
fn assert_applies(repo: &Repo, what: &str) {
    let out = repo.check_sources(true);
    assert_eq!(out.status.code(), Some(0), "{what}: {}", stderr(&out));
    assert_eq!(stderr(&out), "", "{what}");
}

#[test]
fn a_change_to_the_code_a_render_compiles_fails_in_ci_and_warns_elsewhere() {
    let edits: [(&str, &str, &str); 7] = [
        (
            "src/render.rs",
            "println!(\"{text}\");",
            "print!(\"{text}\");",
        ),
        (
            "src/main.rs",
            "render::run();",
            "render::run();\n    render::run();",
        ),
        ("assets/aws/provider.yaml", "replicas: 2", "replicas: 3"),
        ("testdata/sample.yaml", "Sample", "Changed"),
        ("Cargo.lock", "version = 4", "version = 3"),
        ("crates/lib/Cargo.toml", "\"lib\"", "\"lib2\""),
        ("build.rs", "{}", "{ println!(); }"),
    ];
    for (path, from, to) in edits {
        let repo = Repo::new();
        assert_applies(&repo, "as taken");
        repo.edit(path, from, to);
        let out = repo.check_sources(true);
        assert_eq!(out.status.code(), Some(1), "{path}: {}", stderr(&out));
        assert!(
            stderr(&out).starts_with("scripts/pgo-digest: error: the code a render compiles changed since pgo/x86_64-unknown-linux-musl.proftext was taken")
                && stderr(&out).contains("scripts/pgo-profile takes it again")
                && stderr(&out).lines().count() == 1,
            "{path}: {}",
            stderr(&out)
        );
        let out = repo.check_sources(false);
        assert_eq!(out.status.code(), Some(0), "{path}: {}", stderr(&out));
        assert!(
            stderr(&out)
                .starts_with("scripts/pgo-digest: warning: the code a render compiles changed"),
            "{path}: {}",
            stderr(&out)
        );
    }
    // A new file the build reads counts before it is committed, as after.
    let repo = Repo::new();
    write(&repo.root.join("assets/gcp/provider.yaml"), "replicas: 2\n");
    assert_eq!(repo.check_sources(true).status.code(), Some(1));
}

#[test]
fn a_change_to_tests_docs_comments_or_formatting_leaves_the_profile_applying() {
    let edits: [(&str, &str, &str); 9] = [
        (
            "src/render.rs",
            "// CCCMO does the same",
            "// As CCCMO does",
        ),
        (
            "src/render.rs",
            "/// Renders the sample.",
            "/// Renders the sample, /* once */.",
        ),
        (
            "src/render.rs",
            "    let text = include_str!(\"../testdata/sample.yaml\");",
            "    let text =\n        include_str!(\"../testdata/sample.yaml\"); /* reformatted */",
        ),
        (
            "src/render.rs",
            "super::run();",
            "super::run();\n        super::run();",
        ),
        ("src/tests.rs", "fn t() {}", "fn t() { assert!(true); }"),
        ("tests/it.rs", "fn it() {}", "fn it() { assert!(true); }"),
        ("docs/render.md", "# Render", "# Rendering"),
        ("testdata/other.yaml", "Other", "Changed"),
        (
            "scripts/pgo-digest",
            "import hashlib",
            "import hashlib  # digests",
        ),
    ];
    for (path, from, to) in edits {
        let repo = Repo::new();
        repo.edit(path, from, to);
        assert_applies(&repo, path);
    }
}

#[test]
fn a_profile_taken_with_another_toolchain_fails_in_ci_and_warns_elsewhere() {
    let repo = Repo::new();
    let check = |ci| repo.digest(&["check-toolchain", PROFILE], ci);
    let out = check(true);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
    let text = std::fs::read_to_string(repo.root.join(PROFILE)).expect("read");
    let line = text
        .lines()
        .find(|l| l.starts_with("# toolchain: "))
        .expect("the toolchain line");
    repo.edit(PROFILE, line, "# toolchain: 0123456789abcdef");
    let out = check(true);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("was taken with another toolchain or cargo-auditable"),
        "{}",
        stderr(&out)
    );
    let out = check(false);
    assert_eq!(out.status.code(), Some(0));
    assert!(stderr(&out).starts_with("scripts/pgo-digest: warning:"));
}

/// On this repository's shipped binary (the x86_64 release build's dep-info, which
/// scripts/build-release reads): the crates' code, assets/, build.rs, the embedded testdata and
/// the manifests, and nothing of tests/, docs/, scripts/, benches/, fuzz/ or a test-only
/// module's file.
#[test]
#[ignore = "needs the release build: run scripts/test"]
fn the_digest_covers_what_the_shipped_binary_compiles_and_no_test() {
    let build = Command::new(root().join("scripts/build-release"))
        .args(["--arch", "x86_64", "--quiet"])
        .stderr(Stdio::inherit())
        .output()
        .expect("scripts/build-release runs");
    assert!(
        build.status.success(),
        "scripts/build-release --arch x86_64"
    );
    let binary = String::from_utf8(build.stdout).expect("UTF-8");
    let dep_info = PathBuf::from(format!("{}.d", binary.trim_end()));
    let out = Command::new(root_script())
        .args(["files", s(&dep_info)])
        .output()
        .expect("scripts/pgo-digest");
    assert!(out.status.success(), "{}", stderr(&out));
    let files = String::from_utf8(out.stdout).expect("utf-8");
    let files: Vec<&str> = files.lines().collect();
    for want in [
        "Cargo.toml",
        "Cargo.lock",
        "build.rs",
        "src/main.rs",
        "src/render/mod.rs",
        "crates/catalogue/src/lib.rs",
        "crates/memfns/src/lib.rs",
        "assets/releases/4.23.yaml",
        "testdata/external/images.json",
    ] {
        assert!(files.contains(&want), "{want} not in {files:?}");
    }
    let test_only = ["src/output/tests.rs", "crates/memfns/src/alloc_tests.rs"];
    for file in test_only {
        assert!(
            root().join(file).is_file(),
            "{file} is gone: name a test-only module file that exists"
        );
    }
    for file in &files {
        assert!(
            !["tests/", "docs/", "scripts/", "benches/", "fuzz/", "pgo/"]
                .iter()
                .any(|dir| file.starts_with(dir))
                && !test_only.contains(file),
            "{file}"
        );
    }
    // testdata/certs is read only by a unit test's include_str! (src/render/trusted_ca.rs).
    assert!(
        !files.iter().any(|f| f.starts_with("testdata/certs/"))
            && files.contains(&"src/render/trusted_ca.rs"),
        "{files:?}"
    );
}
