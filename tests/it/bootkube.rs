//! ccm-render as bootkube runs it: the container image (Containerfile, scripts/image) and the
//! shipped stage (contrib/bootkube/ccm-bootstrap.sh), through podman, on asset folders laid out
//! as the installer lays out /opt/openshift.
//!
//! * Each architecture's image (amd64, arm64, ppc64le, s390x; the foreign ones run by podman
//!   through qemu-user and binfmt_misc, scripts/cross-setup --qemu) renders every built-in
//!   platform exactly as the host binary does (bytes and modes); the manifest list holds the
//!   four, each with a position-independent binary that carries its dependency list.
//! * The stage puts each output where its map says, reads the images from the release image's
//!   /release-manifests/image-references, records its stage, and marks success; a rerun changes
//!   nothing and runs nothing; a bad input fails it with no marker and nothing placed. The
//!   big-endian s390x image goes through the stage as the host's does.
//!
//! These need podman (scripts/podman-setup), qemu (scripts/cross-setup --qemu) and the images:
//! scripts/test sets them up, builds them with scripts/image and passes the manifest list's name
//! in CCM_RENDER_IMAGE (without it, the first test builds them); each image is `<name>-<arch>`. A plain `cargo test` skips them as ignored; scripts/test (so CI) runs them, and
//! there a machine where podman cannot run fails them.

use crate::common;

use common::*;
use pretty_assertions::assert_eq;
use std::collections::BTreeMap;
use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

/// podman as the project runs it (scripts/podman).
fn podman() -> Command {
    Command::new(root().join("scripts/podman"))
}

fn run(command: &mut Command) -> Output {
    let out = command.output().expect("the command starts");
    assert!(
        out.status.success(),
        "{command:?} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        stderr(&out)
    );
    out
}

/// The name of the manifest list of the ccm-render images: CCM_RENDER_IMAGE, or built once here
/// with scripts/image.
fn manifest_list() -> &'static str {
    static IMAGE: OnceLock<String> = OnceLock::new();
    IMAGE.get_or_init(|| {
        if let Some(name) = std::env::var_os("CCM_RENDER_IMAGE") {
            return name.to_string_lossy().into_owned();
        }
        let out = run(Command::new(root().join("scripts/image")).stderr(Stdio::inherit()));
        let stdout = String::from_utf8(out.stdout).expect("UTF-8");
        stdout.lines().last().expect("the image name").to_string()
    })
}

/// The architectures scripts/image builds, as OCI names them.
const ARCHS: [&str; 4] = ["amd64", "arm64", "ppc64le", "s390x"];

/// The image of one architecture (scripts/image tags each `<list>-<arch>`: podman 4.3 does not
/// pick an image out of a local manifest list by --platform).
fn image_for(arch: &str) -> String {
    format!("{}-{arch}", manifest_list())
}

/// The image of this machine's architecture.
fn image() -> &'static str {
    static IMAGE: OnceLock<String> = OnceLock::new();
    IMAGE.get_or_init(|| {
        let arch = match std::env::consts::ARCH {
            "x86_64" => "amd64",
            "aarch64" => "arm64",
            "powerpc64" => "ppc64le",
            other => other,
        };
        image_for(arch)
    })
}

/// A stand-in for the release image: only /release-manifests/image-references
/// (testdata/release), which is all the stage reads from it. Built once.
fn release_image() -> &'static str {
    static IMAGE: OnceLock<String> = OnceLock::new();
    IMAGE.get_or_init(|| {
        let context = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(context.path().join("release-manifests")).expect("mkdir");
        std::fs::copy(
            root().join("testdata/release/image-references"),
            context.path().join("release-manifests/image-references"),
        )
        .expect("copy");
        std::fs::write(
            context.path().join("Containerfile"),
            "FROM scratch\nCOPY release-manifests /release-manifests\n",
        )
        .expect("write");
        let name = "localhost/ccm-render-test-release:latest";
        run(podman()
            .args(["build", "--quiet", "--tag", name])
            .arg(context.path()));
        name.to_string()
    })
}

/// The inputs of one case.
struct Case {
    name: &'static str,
    infrastructure: PathBuf,
    cloud_config: Option<PathBuf>,
    images: PathBuf,
    credentials: Option<PathBuf>,
    proxy: Option<PathBuf>,
    install_config: Option<PathBuf>,
}

fn conformance_case(platform: &'static str) -> Case {
    Case {
        name: platform,
        infrastructure: conformance(&format!("{platform}/infrastructure.yaml")),
        cloud_config: Some(conformance(&format!(
            "{platform}/cloud-provider-config.yaml"
        ))),
        images: root().join("testdata/release/image-references"),
        credentials: Some(root().join(format!("testdata/credentials/{platform}.yaml"))),
        proxy: None,
        install_config: Some(root().join(format!(
            "testdata/install-config/{platform}/install-config.yaml"
        ))),
    }
}

/// Every built-in provider: CCCMO's nine platforms and the External ones (OCI, Alibaba).
fn every_built_in_case() -> Vec<Case> {
    let external = |name, infrastructure: &str, cloud_config: &str| Case {
        name,
        infrastructure: root().join("testdata/external").join(infrastructure),
        cloud_config: Some(root().join("testdata/external").join(cloud_config)),
        images: root().join("testdata/external/images.json"),
        credentials: None,
        proxy: None,
        install_config: None,
    };
    let mut cases: Vec<Case> = PLATFORMS.iter().map(|p| conformance_case(p)).collect();
    cases.push(external(
        "oci",
        "infrastructure-oci.yaml",
        "oci-cloud-provider.yaml",
    ));
    cases.push(external(
        "alibaba",
        "infrastructure-alibaba.yaml",
        "alibaba-cloud-provider-config.yaml",
    ));
    cases
}

/// The Proxy the installer writes when install-config has no proxy.
const NO_PROXY: &str = "apiVersion: config.openshift.io/v1\nkind: Proxy\nmetadata:\n  creationTimestamp: null\n  name: cluster\nspec:\n  trustedCA:\n    name: \"\"\nstatus: {}\n";

/// Lays out `assets` as the installer lays out /opt/openshift, with the case's inputs.
fn installer_layout(case: &Case, assets: &Path) {
    let put = |rel: &str, bytes: &[u8]| {
        let path = assets.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, bytes).expect("write");
    };
    let read = |p: &Path| std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    put(
        "manifests/cluster-infrastructure-02-config.yml",
        &read(&case.infrastructure),
    );
    if let Some(cloud_config) = &case.cloud_config {
        put("manifests/cloud-provider-config.yaml", &read(cloud_config));
    }
    put(
        "manifests/cluster-proxy-01-config.yaml",
        &case
            .proxy
            .as_ref()
            .map_or_else(|| NO_PROXY.as_bytes().to_vec(), |p| read(p)),
    );
    put(
        "manifests/cluster-network-02-config.yml",
        &read(&conformance("network.yaml")),
    );
    if let Some(install_config) = &case.install_config {
        let text = String::from_utf8(read(install_config)).expect("UTF-8");
        let config_map = serde_json::json!({
            "apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "cluster-config-v1", "namespace": "kube-system"},
            "data": {"install-config": text},
        });
        let yaml = ccm_catalogue::yaml::to_string(&config_map).expect("YAML");
        put("manifests/cluster-config.yaml", yaml.as_bytes());
    }
    if let Some(credentials) = &case.credentials {
        put("openshift/99_cloud-creds-secret.yaml", &read(credentials));
    }
    put(
        "auth/kubeconfig-loopback",
        b"apiVersion: v1\nkind: Config\nclusters: []\n",
    );
}

/// The render flags for the installer's layout, with paths under `base`.
fn render_args(case: &Case, base: &str, images: &str, dest: &str) -> Vec<String> {
    let mut args = vec![
        "render".to_string(),
        format!("--infrastructure={base}/manifests/cluster-infrastructure-02-config.yml"),
        format!("--images={images}"),
        format!("--proxy={base}/manifests/cluster-proxy-01-config.yaml"),
        format!("--network={base}/manifests/cluster-network-02-config.yml"),
        format!("--dest-dir={dest}"),
    ];
    if case.cloud_config.is_some() {
        args.push(format!(
            "--cloud-config={base}/manifests/cloud-provider-config.yaml"
        ));
    }
    if case.credentials.is_some() {
        args.push(format!(
            "--credentials={base}/openshift/99_cloud-creds-secret.yaml"
        ));
    }
    args
}

/// Every file under `dir` with its bytes and permission bits.
fn files_with_modes(dir: &Path) -> BTreeMap<String, (Vec<u8>, u32)> {
    read_tree(dir)
        .into_iter()
        .map(|(rel, bytes)| {
            let mode = std::fs::metadata(dir.join(&rel))
                .expect("metadata")
                .permissions()
                .mode()
                & 0o7777;
            (rel, (bytes, mode))
        })
        .collect()
}

fn host_render(args: &[String]) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = ccm_render(&args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
}

/// The image of `arch` renders every built-in platform as the host binary does. Exactly the
/// documented command: no --user, so the image's non-root default user writes into a folder
/// root owns, through the binary's CAP_DAC_OVERRIDE file capability.
fn renders_every_built_in_platform_as_the_host_binary(arch: &str) {
    let image = image_for(arch);
    for case in every_built_in_case() {
        let assets = tempfile::tempdir().expect("tempdir");
        installer_layout(&case, assets.path());
        std::fs::copy(&case.images, assets.path().join("images")).expect("copy");

        let base = assets.path().to_str().expect("UTF-8");
        host_render(&render_args(
            &case,
            base,
            &format!("{base}/images"),
            &format!("{base}/host"),
        ));
        let volume = format!("{base}:/assets:z");
        let mut args = vec!["run", "--rm", "--quiet", "--volume", &volume, &image];
        let render = render_args(&case, "/assets", "/assets/images", "/assets/image");
        args.extend(render.iter().map(String::as_str));
        run(podman().args(&args));

        let host = files_with_modes(&assets.path().join("host"));
        assert!(
            host.keys().any(|k| k.starts_with("bootstrap/")),
            "{}",
            case.name
        );
        assert_eq!(
            files_with_modes(&assets.path().join("image")),
            host,
            "{arch}: {}",
            case.name
        );
    }
}

#[test]
#[ignore = "needs podman: run scripts/test"]
fn the_amd64_image_renders_every_built_in_platform_as_the_host_binary_does() {
    renders_every_built_in_platform_as_the_host_binary("amd64");
}

#[test]
#[ignore = "needs podman and qemu: run scripts/test"]
fn the_arm64_image_renders_every_built_in_platform_as_the_host_binary_does() {
    renders_every_built_in_platform_as_the_host_binary("arm64");
}

#[test]
#[ignore = "needs podman and qemu: run scripts/test"]
fn the_ppc64le_image_renders_every_built_in_platform_as_the_host_binary_does() {
    renders_every_built_in_platform_as_the_host_binary("ppc64le");
}

#[test]
#[ignore = "needs podman and qemu: run scripts/test"]
fn the_s390x_image_renders_every_built_in_platform_as_the_host_binary_does() {
    renders_every_built_in_platform_as_the_host_binary("s390x");
}

/// The file at `path` in `image`, copied out without running it.
fn file_in_image(image: &str, path: &str) -> Vec<u8> {
    let out = run(podman().args(["create", "--quiet", image]));
    let container = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let dir = tempfile::tempdir().expect("tempdir");
    let copy = dir.path().join("file");
    let copied = podman()
        .args(["cp", &format!("{container}:{path}")])
        .arg(&copy)
        .output()
        .expect("podman cp runs");
    run(podman().args(["rm", "--force", &container]));
    assert!(copied.status.success(), "{image}: {}", stderr(&copied));
    std::fs::read(copy).expect("copied")
}

#[test]
#[ignore = "needs podman: run scripts/test"]
fn the_manifest_list_holds_each_architecture_s_image_each_small_hardened_and_labelled() {
    let inspect = run(podman().args(["manifest", "inspect", manifest_list()]));
    let list: serde_json::Value = serde_json::from_slice(&inspect.stdout).expect("JSON");
    let listed: BTreeMap<String, String> = list["manifests"]
        .as_array()
        .expect("manifests")
        .iter()
        .map(|m| {
            assert_eq!(m["platform"]["os"], "linux");
            (
                m["platform"]["architecture"]
                    .as_str()
                    .expect("architecture")
                    .to_string(),
                m["digest"].as_str().expect("digest").to_string(),
            )
        })
        .collect();
    assert_eq!(
        listed.keys().collect::<Vec<_>>(),
        ARCHS.iter().collect::<Vec<_>>()
    );
    for arch in ARCHS {
        let image = image_for(arch);
        let format = "{{.Digest}} {{.Architecture}} {{.Size}} {{index .Labels \"architecture\"}} {{index .Labels \"org.opencontainers.image.version\"}}";
        let out = run(podman().args(["image", "inspect", "--format", format, &image]));
        let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let fields: Vec<&str> = text.split(' ').collect();
        assert_eq!(
            fields[0], listed[arch],
            "{arch}: the list names the tagged image"
        );
        assert_eq!(fields[1], arch);
        let size: u64 = fields[2].parse().expect("a size");
        assert!(size < 10_000_000, "{arch}: {size} bytes");
        let uname = match arch {
            "amd64" => "x86_64",
            "arm64" => "aarch64",
            other => other,
        };
        assert_eq!(fields[3], uname, "{arch}: the architecture label");
        assert_eq!(fields[4], env!("CARGO_PKG_VERSION"));

        // ELF type DYN (3, at offset 16 in the file's byte order): position-independent; and
        // the section cargo auditable adds, named in the section header string table.
        let binary = file_in_image(&image, "/usr/bin/ccm-render");
        assert_eq!(&binary[..4], b"\x7fELF", "{arch}");
        let e_type = if binary[5] == 2 {
            u16::from_be_bytes([binary[16], binary[17]])
        } else {
            u16::from_le_bytes([binary[16], binary[17]])
        };
        assert_eq!(e_type, 3, "{arch}: not position-independent");
        assert!(
            binary.windows(8).any(|w| w == b".dep-v0\0"),
            "{arch}: no .dep-v0 section (cargo auditable)"
        );
    }
}

#[test]
#[ignore = "needs podman: run scripts/test"]
fn the_image_reads_the_cluster_config_v1_configmap_and_runs_as_non_root_by_default() {
    let case = conformance_case("gcp");
    let assets = tempfile::tempdir().expect("tempdir");
    installer_layout(&case, assets.path());
    std::fs::copy(&case.images, assets.path().join("images")).expect("copy");
    let base = assets.path().to_str().expect("UTF-8");
    let install_config_args = |base: &str, dest: &str| {
        vec![
            "render".to_string(),
            format!("--install-config={base}/manifests/cluster-config.yaml"),
            "--infrastructure-name=mycluster-abcde".to_string(),
            format!("--images={base}/images"),
            format!("--dest-dir={dest}"),
        ]
    };
    host_render(&install_config_args(base, &format!("{base}/host")));
    // The default user is not root; it writes into the root-owned folder only through the
    // binary's file capability: with CAP_DAC_OVERRIDE dropped it cannot, and says which flag.
    // --user 0 (bootkube's way) writes the same tree.
    let volume = format!("{base}:/assets:z");
    let user = run(podman().args(["image", "inspect", "--format", "{{.Config.User}}", image()]));
    assert_eq!(String::from_utf8_lossy(&user.stdout).trim(), "65532:65532");
    let args = install_config_args("/assets", "/assets/image");
    let out = podman()
        .args([
            "run",
            "--rm",
            "--quiet",
            "--cap-drop",
            "DAC_OVERRIDE",
            "--volume",
            &volume,
            image(),
        ])
        .args(&args)
        .output()
        .expect("podman runs");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--dest-dir"), "{}", stderr(&out));
    assert!(!assets.path().join("image").exists());
    run(podman()
        .args([
            "run",
            "--rm",
            "--quiet",
            "--user",
            "0",
            "--volume",
            &volume,
            image(),
        ])
        .args(&args));
    assert_eq!(
        files_with_modes(&assets.path().join("image")),
        files_with_modes(&assets.path().join("host"))
    );
}

// ---- the bootkube stage -----------------------------------------------------------------------

/// A container name no other stage run uses, even from another test process.
fn container_name() -> String {
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    format!(
        "ccm-render-test-{}-{}",
        std::process::id(),
        RUNS.fetch_add(1, Ordering::Relaxed)
    )
}

/// A bootstrap node in a temporary folder: the stage's root prefix, with /opt/openshift laid
/// out by the installer.
struct Node {
    root: tempfile::TempDir,
}

impl Node {
    fn new(case: &Case) -> Self {
        let root = tempfile::tempdir().expect("tempdir");
        installer_layout(case, &root.path().join("opt/openshift"));
        Self { root }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.root.path().join(rel)
    }

    /// Runs the stage as bootkube.sh does: sourced, in /opt/openshift, with bootkube's stage
    /// recording functions defined (they append to `stages.log`), and podman reached through
    /// scripts/podman. `images`/`release` become CCM_RENDER_IMAGE/RELEASE_IMAGE_DIGEST.
    fn run_stage(&self, image: &str, release: &str, manifests: bool) -> Output {
        let bin = self.path("bin");
        std::fs::create_dir_all(&bin).expect("mkdir");
        if !bin.join("podman").exists() {
            std::os::unix::fs::symlink(root().join("scripts/podman"), bin.join("podman"))
                .expect("link");
        }
        let path = format!(
            "{}:{}",
            bin.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let script = r#"
            record_service_stage_start() { echo "start $1" >>"$CCM_TEST_ROOT/stages.log"; }
            record_service_stage_success() { echo "success" >>"$CCM_TEST_ROOT/stages.log"; }
            cd "$CCM_TEST_ROOT/opt/openshift"
            . "$0"
        "#;
        Command::new("bash")
            .args(["-c", script])
            .arg(root().join("contrib/bootkube/ccm-bootstrap.sh"))
            .env("PATH", path)
            .env("CCM_TEST_ROOT", self.root.path())
            .env("CCM_BOOTSTRAP_ROOT", self.root.path())
            .env(
                "CCM_BOOTSTRAP_MANIFESTS",
                if manifests { "true" } else { "" },
            )
            .env("CCM_RENDER_IMAGE", image)
            .env("RELEASE_IMAGE_DIGEST", release)
            .env("CCM_RENDER_CONTAINER", container_name())
            .env_remove("CCM_RENDER_IMAGES")
            .output()
            .expect("bash runs")
    }

    /// Every file under the node's root, with mode and modification time.
    fn state(&self) -> BTreeMap<String, FileState> {
        read_tree(self.root.path())
            .into_iter()
            .map(|(rel, bytes)| {
                let meta = std::fs::symlink_metadata(self.path(&rel)).expect("metadata");
                let state = FileState {
                    bytes,
                    mode: meta.mode() & 0o7777,
                    mtime: meta.mtime(),
                    mtime_nsec: meta.mtime_nsec(),
                };
                (rel, state)
            })
            .collect()
    }
}

/// A file of the node as a rerun must leave it: compared whole, never read field by field.
#[derive(Debug, PartialEq)]
struct FileState {
    /// Its contents.
    bytes: Vec<u8>,
    /// Its permission bits.
    mode: u32,
    /// Its modification time, seconds.
    mtime: i64,
    /// And nanoseconds.
    mtime_nsec: i64,
}

/// The files of `dir` (none when it does not exist).
fn placed(dir: &Path) -> BTreeMap<String, (Vec<u8>, u32)> {
    if dir.exists() {
        files_with_modes(dir)
    } else {
        BTreeMap::new()
    }
}

/// `folder` of a host render as the map places it: mode `mode`, never looser than the file's.
fn expected(
    host: &BTreeMap<String, (Vec<u8>, u32)>,
    folder: &str,
    mode: u32,
) -> BTreeMap<String, (Vec<u8>, u32)> {
    host.iter()
        .filter_map(|(rel, (bytes, host_mode))| {
            let rel = rel.strip_prefix(&format!("{folder}/"))?;
            Some((rel.to_string(), (bytes.clone(), mode & host_mode)))
        })
        .collect()
}

fn dir_mode(dir: &Path) -> u32 {
    std::fs::metadata(dir).expect("placed").permissions().mode() & 0o7777
}

#[test]
#[ignore = "needs podman: run scripts/test"]
fn the_bootkube_stage_places_every_output_and_a_rerun_changes_nothing() {
    stage_places_every_output_and_a_rerun_changes_nothing(image());
}

/// The same stage, the same podman pattern, with the big-endian s390x image (run through
/// qemu-user): what an IBM Z bootstrap node runs.
#[test]
#[ignore = "needs podman and qemu: run scripts/test"]
fn the_bootkube_stage_runs_the_big_endian_s390x_image_as_the_host_s() {
    stage_places_every_output_and_a_rerun_changes_nothing(&image_for("s390x"));
}

fn stage_places_every_output_and_a_rerun_changes_nothing(image: &str) {
    let with_proxy = Case {
        proxy: Some(variant("proxy.yaml")),
        credentials: None,
        ..conformance_case("aws")
    };
    let without_credentials = Case {
        credentials: None,
        ..conformance_case("vsphere")
    };
    let cases = [
        (with_proxy, false),
        (conformance_case("azure"), true),
        (without_credentials, false),
        (conformance_case("openstack"), false),
    ];
    for (case, manifests) in cases {
        let node = Node::new(&case);
        let out = node.run_stage(image, release_image(), manifests);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{image}: {}: {}",
            case.name,
            stderr(&out)
        );

        // What the host binary renders from the same asset folder and release image-references.
        let assets = node.path("opt/openshift");
        let base = assets.to_str().expect("UTF-8");
        let reference = tempfile::tempdir().expect("tempdir");
        let dest = reference.path().join("out");
        let images = root().join("testdata/release/image-references");
        host_render(&render_args(
            &case,
            base,
            images.to_str().expect("UTF-8"),
            dest.to_str().expect("UTF-8"),
        ));
        let host = files_with_modes(&dest);
        assert_eq!(
            files_with_modes(&assets.join("ccm-bootstrap")),
            host,
            "{}: the image's render",
            case.name
        );

        // The map of the CLI contract ("Where the output lands on the bootstrap node").
        let name = case.name;
        assert_eq!(
            placed(&node.path("etc/kubernetes/manifests")),
            expected(&host, "bootstrap", 0o644),
            "{name}"
        );
        let configs = expected(&host, "config", 0o644);
        assert_eq!(
            configs.get("cloud.conf").map(|(_, mode)| *mode),
            Some(0o600),
            "{name}: the cloud config stays as private as rendered"
        );
        assert_eq!(
            placed(&node.path("etc/kubernetes/bootstrap-configs")),
            configs,
            "{name}"
        );
        let secrets = expected(&host, "secrets", 0o600);
        assert_eq!(case.credentials.is_some(), !secrets.is_empty(), "{name}");
        assert_eq!(
            placed(&node.path("etc/kubernetes/bootstrap-secrets")),
            secrets,
            "{name}"
        );
        if !secrets.is_empty() {
            assert_eq!(
                dir_mode(&node.path("etc/kubernetes/bootstrap-secrets")),
                0o700
            );
        }
        assert_eq!(dir_mode(&node.path("etc/kubernetes/manifests")), 0o755);
        let post_install = expected(&host, "manifests", 0o644);
        let in_assets = placed(&assets.join("manifests"));
        for (rel, file) in &post_install {
            assert_eq!(in_assets.get(rel) == Some(file), manifests, "{name}: {rel}");
        }
        assert!(assets.join("ccm-bootstrap.done").exists(), "{name}");
        assert_eq!(
            std::fs::read_to_string(node.path("stages.log")).expect("recorded"),
            "start ccm-bootstrap\nsuccess\n",
            "{name}"
        );

        // A rerun (bootkube restarted) skips the stage: it runs nothing (neither image exists)
        // and changes nothing, not even a modification time.
        let before = node.state();
        let out = node.run_stage(
            "localhost/absent:1",
            "localhost/absent-release:1",
            manifests,
        );
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
        assert_eq!(node.state(), before, "{name}: the rerun changed something");
    }
}

#[test]
#[ignore = "needs podman: run scripts/test"]
fn a_bad_input_fails_the_stage_with_no_marker_and_nothing_placed() {
    let node = Node::new(&conformance_case("aws"));
    std::fs::copy(
        root().join("testdata/bad/infrastructure-unknown-platform.yaml"),
        node.path("opt/openshift/manifests/cluster-infrastructure-02-config.yml"),
    )
    .expect("copy");
    let out = node.run_stage(image(), release_image(), true);
    let err = stderr(&out);
    assert_ne!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains(
            "error: /assets/manifests/cluster-infrastructure-02-config.yml: status.platformStatus.type: unknown platform"
        ),
        "{err}"
    );
    assert!(!node.path("opt/openshift/ccm-bootstrap.done").exists());
    assert_eq!(placed(&node.path("etc")), BTreeMap::new());
    assert_eq!(
        std::fs::read_to_string(node.path("stages.log")).expect("recorded"),
        "start ccm-bootstrap\n"
    );
}

#[test]
#[ignore = "needs podman: run scripts/test"]
fn a_release_image_without_image_references_fails_the_stage_with_no_marker() {
    let node = Node::new(&conformance_case("aws"));
    // The ccm-render image holds no /release-manifests.
    let out = node.run_stage(image(), image(), false);
    let err = stderr(&out);
    assert_ne!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("has no /release-manifests/image-references"),
        "{err}"
    );
    assert!(!node.path("opt/openshift/ccm-bootstrap.done").exists());
    assert_eq!(placed(&node.path("etc")), BTreeMap::new());
}

#[test]
#[ignore = "needs podman: run scripts/test"]
fn podman_setup_adds_only_the_missing_setting_and_a_rerun_changes_nothing() {
    let cases = [
        (None, "[containers]\ndefault_ulimits = []\n"),
        (
            Some(
                "[engine]\ncgroup_manager = \"cgroupfs\"\n\n[containers]\nlog_driver = \"k8s-file\"\n",
            ),
            "[engine]\ncgroup_manager = \"cgroupfs\"\n\n[containers]\ndefault_ulimits = []\nlog_driver = \"k8s-file\"\n",
        ),
        (
            Some("[containers]\ndefault_ulimits = [\"nofile=1024:1024\"]\n"),
            "[containers]\ndefault_ulimits = [\"nofile=1024:1024\"]\n",
        ),
    ];
    for (before, after) in cases {
        let dir = tempfile::tempdir().expect("tempdir");
        let conf = dir.path().join("containers/containers.conf");
        if let Some(text) = before {
            std::fs::create_dir_all(conf.parent().expect("parent")).expect("mkdir");
            std::fs::write(&conf, text).expect("write");
        }
        for attempt in 0..2 {
            let out = run(
                Command::new(root().join("scripts/podman-setup")).env("CONTAINERS_CONF", &conf)
            );
            assert_eq!(
                std::fs::read_to_string(&conf).expect("written"),
                after,
                "{before:?}"
            );
            if attempt == 1 || before == Some(after) {
                assert_eq!(stderr(&out), "", "{before:?}: nothing left to do");
            }
        }
    }
}
