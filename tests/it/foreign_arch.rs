//! The release builds for the architectures other than the host's (aarch64, ppc64le and s390x,
//! the last big-endian) render exactly what the host's release build renders: every built-in
//! platform's conformance case (with credentials and the Ignition fragment), and the whole
//! built-in matrix for every release. They run under qemu-user (Debian's qemu-user-static); the
//! dynamically linked ppc64le and s390x builds find their loader and glibc in Debian's cross
//! packages (`qemu-<arch>-static -L /usr/<triple>`).
//!
//! These need the cross toolchains and qemu (scripts/cross-setup --qemu) and build the release
//! binaries with scripts/build-release (reused while the sources do not change). A plain
//! `cargo test` skips them as ignored; scripts/test (so CI) sets the machine up and runs them.

use crate::common;

use common::*;
use pretty_assertions::assert_eq;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A build of scripts/build-release: its name there and how to run it on this machine.
struct Build {
    arch: &'static str,
    binary: PathBuf,
    /// qemu-user and its -L prefix, for a foreign build; None for the host's.
    qemu: Option<(String, Option<String>)>,
}

impl Build {
    fn new(arch: &'static str) -> Self {
        let out = Command::new(root().join("scripts/build-release"))
            .args(["--arch", arch, "--quiet"])
            .stderr(Stdio::inherit())
            .output()
            .expect("scripts/build-release runs");
        assert!(out.status.success(), "scripts/build-release --arch {arch}");
        let stdout = String::from_utf8(out.stdout).expect("UTF-8");
        let binary = PathBuf::from(stdout.lines().last().expect("the binary's path"));
        let qemu = match arch {
            "x86_64" => None,
            "aarch64" => Some(("qemu-aarch64-static".to_string(), None)),
            "ppc64le" => Some((
                "qemu-ppc64le-static".to_string(),
                Some("/usr/powerpc64le-linux-gnu".to_string()),
            )),
            "s390x" => Some((
                "qemu-s390x-static".to_string(),
                Some("/usr/s390x-linux-gnu".to_string()),
            )),
            other => panic!("no such build: {other}"),
        };
        Self { arch, binary, qemu }
    }

    fn command(&self) -> Command {
        match &self.qemu {
            None => Command::new(&self.binary),
            Some((qemu, prefix)) => {
                let mut command = Command::new(qemu);
                if let Some(prefix) = prefix {
                    command.args(["-L", prefix]);
                }
                command.arg(&self.binary);
                command
            }
        }
    }

    /// Runs the build with `args`; it must succeed.
    fn run(&self, args: &[String]) {
        let out = self
            .command()
            .args(args)
            .env_remove("NO_COLOR")
            .output()
            .expect("the binary runs");
        assert!(
            out.status.success(),
            "{} {args:?}: {}",
            self.arch,
            stderr(&out)
        );
    }
}

/// The renders compared: each platform's conformance case with its credentials and the
/// Ignition fragment, and the whole matrix for every release, as arguments with DEST where the
/// output goes.
fn renders() -> Vec<(String, Vec<String>)> {
    let path = |p: PathBuf| p.to_str().expect("UTF-8").to_string();
    let mut renders: Vec<(String, Vec<String>)> = PLATFORMS
        .iter()
        .map(|platform| {
            let mut args = vec!["render".to_string()];
            args.extend(conformance_inputs(platform));
            args.extend([
                format!(
                    "--credentials={}",
                    path(root().join(format!("testdata/credentials/{platform}.yaml")))
                ),
                "--ignition=DEST/ccm-bootstrap.ign".to_string(),
                "--dest-dir=DEST/out".to_string(),
            ]);
            ((*platform).to_string(), args)
        })
        .collect();
    for ExternalCase {
        provider: name,
        infrastructure,
        cloud_config,
        ..
    } in EXTERNAL_CASES
    {
        renders.push((
            name.to_string(),
            vec![
                "render".to_string(),
                format!("--infrastructure={}", path(external(infrastructure))),
                format!("--cloud-config={}", path(external(cloud_config))),
                format!("--images={}", path(external("images.json"))),
                "--dest-dir=DEST/out".to_string(),
            ],
        ));
    }
    renders.push((
        "matrix, every release".to_string(),
        ["matrix", "--release", "all", "--dest-dir=DEST/out"]
            .map(String::from)
            .to_vec(),
    ));
    renders
}

/// What a build renders for `args`, every file with its bytes.
fn rendered(build: &Build, args: &[String]) -> BTreeMap<String, Vec<u8>> {
    let dest = tempfile::tempdir().expect("tempdir");
    let dest_str = dest.path().to_str().expect("UTF-8");
    let args: Vec<String> = args.iter().map(|a| a.replace("DEST", dest_str)).collect();
    build.run(&args);
    read_tree(dest.path())
}

fn renders_as_the_host_build(arch: &'static str) {
    let native = Build::new("x86_64");
    let foreign = Build::new(arch);
    assert_ne!(native.binary, foreign.binary);
    for (name, args) in renders() {
        let expected = rendered(&native, &args);
        assert!(
            expected.keys().any(|k| k.starts_with("out/")),
            "{name}: the host build rendered nothing"
        );
        let got = rendered(&foreign, &args);
        // Compared as a list of names first, so a difference shows the file before the bytes.
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            expected.keys().collect::<Vec<_>>(),
            "{arch}: {name}"
        );
        for (file, bytes) in &expected {
            assert!(got[file] == *bytes, "{arch}: {name}: {file} differs");
        }
    }
}

/// The build's ELF header names the architecture it was asked for, so the comparison is not of
/// the host build with itself.
fn elf_machine(binary: &Path) -> u16 {
    let bytes = std::fs::read(binary).expect("the binary");
    assert_eq!(&bytes[..4], b"\x7fELF");
    // e_machine at offset 18, in the file's byte order (EI_DATA: 1 little, 2 big endian).
    let field = [bytes[18], bytes[19]];
    if bytes[5] == 2 {
        u16::from_be_bytes(field)
    } else {
        u16::from_le_bytes(field)
    }
}

#[test]
#[ignore = "needs the cross toolchains and qemu: run scripts/test"]
fn each_build_is_of_its_architecture() {
    // EM_X86_64 62, EM_AARCH64 183, EM_PPC64 21, EM_S390 22 (the ELF specification's values).
    for (arch, machine) in [
        ("x86_64", 62),
        ("aarch64", 183),
        ("ppc64le", 21),
        ("s390x", 22),
    ] {
        assert_eq!(elf_machine(&Build::new(arch).binary), machine, "{arch}");
    }
}

#[test]
#[ignore = "needs the cross toolchains and qemu: run scripts/test"]
fn the_aarch64_build_renders_every_case_as_the_host_build_does() {
    renders_as_the_host_build("aarch64");
}

#[test]
#[ignore = "needs the cross toolchains and qemu: run scripts/test"]
fn the_ppc64le_build_renders_every_case_as_the_host_build_does() {
    renders_as_the_host_build("ppc64le");
}

#[test]
#[ignore = "needs the cross toolchains and qemu: run scripts/test"]
fn the_big_endian_s390x_build_renders_every_case_as_the_host_build_does() {
    renders_as_the_host_build("s390x");
}
