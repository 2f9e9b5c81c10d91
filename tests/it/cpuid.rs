//! No render of the shipped x86_64 build runs a CPUID instruction. In a virtual machine each
//! one traps to the hypervisor (5.5 µs on the AMD EPYC VM of docs/performance.md), and the
//! standard library's detection of the CPU's features runs about ten of them on its first use
//! (47 µs there: a tenth of what an AWS render costs beyond starting a process). What reaches
//! it is `memchr`'s choice of a vector routine, which serde_json calls to place an error: a
//! failed JSON parse on the way to the output (an INI cloud config tried as JSON for the
//! bootstrap pods' copy) made six platforms of nine pay it.
//!
//! Each render runs under qemu-user with its log of translated code, which names every
//! instruction the render runs at least once; CPUID must not be among them. The release
//! builds and qemu come from scripts/build-release and scripts/cross-setup --qemu, so a plain
//! `cargo test` skips this as ignored; scripts/test (so CI) runs it.

use crate::common;

use common::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The shipped x86_64 binary (scripts/build-release, reused while the sources do not change).
fn release_binary() -> PathBuf {
    let out = Command::new(root().join("scripts/build-release"))
        .args(["--arch", "x86_64", "--quiet"])
        .stderr(Stdio::inherit())
        .output()
        .expect("scripts/build-release runs");
    assert!(out.status.success(), "scripts/build-release --arch x86_64");
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    PathBuf::from(stdout.lines().last().expect("the binary's path"))
}

/// Runs `binary` with `args` under qemu-user, and returns its output and how many CPUID
/// instructions the code it ran holds (qemu's `-d in_asm` log lists each block of code once,
/// when it is first translated).
fn run_counting_cpuid(binary: &Path, args: &[String]) -> (Output, usize) {
    let dir = tempfile::tempdir().expect("tempdir");
    let log = dir.path().join("in_asm.log");
    let out = Command::new("qemu-x86_64-static")
        .args(["-d", "in_asm", "-D"])
        .arg(&log)
        .arg(binary)
        .args(args)
        .env_remove("NO_COLOR")
        .output()
        .expect("qemu-x86_64-static runs (scripts/cross-setup --qemu installs it)");
    let code = std::fs::read_to_string(&log).expect("qemu's log");
    assert!(
        code.contains("syscall"),
        "qemu logged no code: {}",
        log.display()
    );
    let cpuid = code
        .lines()
        .filter(|line| line.split_whitespace().any(|word| word == "cpuid"))
        .count();
    (out, cpuid)
}

/// A conformance render's arguments, with `images` for the images file and for `release`
/// (the default one when None), into `dest`.
fn render_args(platform: &str, release: Option<&str>, images: &Path, dest: &Path) -> Vec<String> {
    let mut args = vec!["render".to_string()];
    args.extend(conformance_inputs(platform).into_iter().map(|flag| {
        if flag.starts_with("--images=") {
            format!("--images={}", images.display())
        } else {
            flag
        }
    }));
    args.push(format!("--dest-dir={}", dest.display()));
    args.extend(release.map(|release| format!("--release={release}")));
    args
}

#[test]
#[ignore = "needs the release build and qemu: run scripts/test"]
fn no_render_runs_cpuid() {
    let binary = release_binary();
    let releases = ccm_render(&["releases", "--output", "json"]);
    let releases: serde_json::Value =
        serde_json::from_slice(&releases.stdout).expect("releases --output json");
    let names: Vec<&str> = releases["releases"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|r| r["name"].as_str().expect("a name"))
        .collect();
    let images = conformance("images.json");
    for platform in PLATFORMS {
        for release in [names[0], names[names.len() - 1]] {
            let dest = tempfile::tempdir().expect("tempdir");
            let args = render_args(platform, Some(release), &images, &dest.path().join("out"));
            let (out, cpuid) = run_counting_cpuid(&binary, &args);
            assert!(
                out.status.success(),
                "{platform} {release}: {}",
                stderr(&out)
            );
            assert_eq!(cpuid, 0, "{platform} {release}: the render runs CPUID");
        }
    }
}

/// The check sees CPUID where it runs: an images file that serde_json refuses part way in
/// (an error, so the cost does not matter) has serde_json place its error, through memchr.
#[test]
#[ignore = "needs the release build and qemu: run scripts/test"]
fn the_check_sees_cpuid_where_serde_json_places_an_error() {
    let binary = release_binary();
    let dir = tempfile::tempdir().expect("tempdir");
    let images = dir.path().join("images.json");
    std::fs::write(&images, "{\n  \"cloudControllerManagerAWS\": [\n").expect("write");
    let args = render_args("aws", None, &images, &dir.path().join("out"));
    let (out, cpuid) = run_counting_cpuid(&binary, &args);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        cpuid > 0,
        "no CPUID seen in a run known to detect the CPU's features"
    );
}
