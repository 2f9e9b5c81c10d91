//! Providers as data: External platform selection, the shipped oci, alicloud
//! and digitalocean providers, default vendor images, `--provider-dir`, and `provider new` /
//! `provider check` as the "Writing a provider" section of docs/providers.md uses them.

use crate::common;

use base64::Engine as _;
use common::*;
use serde_json::Value;
use std::path::Path;

#[test]
fn oci_renders_its_config_as_the_secret_the_ccm_reads() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = render_external(
        "infrastructure-oci.yaml",
        Some("oci-cloud-provider.yaml"),
        &[],
        dir.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let tree = read_tree(dir.path());
    let manifests = objects_in(&tree, "manifests");
    let secret =
        &manifests["Secret/openshift-cloud-controller-manager/oci-cloud-controller-manager"];
    let encoded = secret["data"]["cloud-provider.yaml"]
        .as_str()
        .expect("key cloud-provider.yaml");
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .expect("base64");
    let source = std::fs::read(external("oci-cloud-provider.yaml")).expect("source");
    assert_eq!(decoded, source, "the config is carried unchanged");
    // The Deployment mounts that Secret where --cloud-config points.
    let deployment =
        &manifests["Deployment/openshift-cloud-controller-manager/oci-cloud-controller-manager"];
    let pod = &deployment["spec"]["template"]["spec"];
    assert!(
        pod["volumes"]
            .as_array()
            .expect("volumes")
            .iter()
            .any(|v| v["secret"]["secretName"] == "oci-cloud-controller-manager")
    );
    let container = &pod["containers"][0];
    assert_eq!(
        container["image"],
        "ghcr.io/oracle/cloud-provider-oci:v1.36.0"
    );
    let script = container["command"][2].as_str().expect("script");
    assert!(script.contains("--cloud-config=/etc/oci/cloud-provider.yaml \\"));
    assert!(
        script.contains("--tls-min-version=VersionTLS12 \\"),
        "{script}"
    );
    assert_eq!(
        deployment["metadata"]["labels"]["infrastructure.openshift.io/cloud-controller-manager"],
        "External"
    );
    // No cloud-conf ConfigMap: the config lives in the Secret only.
    assert!(!manifests.keys().any(|k| k.starts_with("ConfigMap/")));
    // The bootstrap pod reads the same config from config/cloud.conf, private.
    assert_eq!(tree["config/cloud.conf"], source);
    // Secret data never reaches the terminal.
    assert!(!stderr(&out).contains(encoded) && !stderr(&out).contains("ocid1.vcn"));
    // The Secret manifest may hold an API key: owner-only, unlike the other manifests.
    let mode = |rel: &str| {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::metadata(dir.path().join(rel))
            .expect("exists")
            .permissions()
            .mode()
            & 0o777
    };
    assert_eq!(
        mode("manifests/secret-oci-cloud-controller-manager.yaml"),
        0o600
    );
    assert_eq!(
        mode("manifests/deployment-oci-cloud-controller-manager.yaml"),
        0o644
    );
}

#[test]
fn alicloud_renders_cccmo_s_removed_provider() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = render_external(
        "infrastructure-alibaba.yaml",
        Some("alibaba-cloud-provider-config.yaml"),
        &[],
        dir.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let manifests = objects_in(&read_tree(dir.path()), "manifests");
    let keys: Vec<&str> = manifests.keys().map(String::as_str).collect();
    let ns = "openshift-cloud-controller-manager";
    for key in [
        "ClusterRole//alibaba-cloud-controller-manager".to_string(),
        "ClusterRoleBinding//alibaba-cloud-controller-manager:alibaba-cloud-controller-manager"
            .to_string(),
        format!("ConfigMap/{ns}/cloud-conf"),
        format!("Deployment/{ns}/alibaba-cloud-controller-manager"),
        format!("PodDisruptionBudget/{ns}/alicloud-cloud-controller-manager"),
        format!("Role/{ns}/alibaba-cloud-controller-manager"),
        format!(
            "RoleBinding/{ns}/alibaba-cloud-controller-manager:alibaba-cloud-controller-manager"
        ),
        format!("Service/{ns}/alicloud-cloud-controller-manager"),
    ] {
        assert!(keys.contains(&key.as_str()), "{key} missing from {keys:?}");
    }
    let deployment = &manifests[&format!("Deployment/{ns}/alibaba-cloud-controller-manager")];
    let script = deployment["spec"]["template"]["spec"]["containers"][0]["command"][2]
        .as_str()
        .expect("script");
    // Behaviour spec section 7: the flags of CCCMO's Alibaba script.
    for flag in [
        "--cloud-provider=alicloud \\",
        "--cloud-config=/etc/alibaba/config/cloud-config.conf \\",
        "--feature-gates=ServiceNodeExclusion=true \\",
        "--allow-untagged-cloud=true \\",
    ] {
        assert!(script.contains(flag), "{flag}\n{script}");
    }
    assert!(
        script.trim_end().ends_with("--metrics-bind-addr=0"),
        "{script}"
    );
}

#[test]
fn single_replica_external_cluster_gets_one_replica_and_no_pdb() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = render_external(
        "infrastructure-oci-sno.yaml",
        Some("oci-cloud-provider.yaml"),
        &[],
        dir.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let manifests = objects_in(&read_tree(dir.path()), "manifests");
    assert!(
        !manifests
            .keys()
            .any(|k| k.starts_with("PodDisruptionBudget/"))
    );
    let deployment = manifests
        .values()
        .find(|o| o["kind"] == "Deployment")
        .expect("deployment");
    assert_eq!(deployment["spec"]["replicas"], 1);
}

#[test]
fn platform_name_is_matched_without_regard_to_case() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = render_external("infrastructure-oci-uppercase.yaml", None, &[], dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        read_tree(dir.path())
            .keys()
            .any(|k| k.contains("oci-bootstrap"))
    );
}

#[test]
fn external_without_a_ccm_renders_nothing_and_says_why() {
    for (infrastructure, why) in [
        (
            "infrastructure-oci-state-none.yaml",
            "cloudControllerManager.state is empty: the cluster does not expect a CCM",
        ),
        (
            "infrastructure-unknown-platform-name.yaml",
            "no provider serves spec.platformSpec.external.platformName \"hetzner\"",
        ),
        (
            "infrastructure-unknown-platform-name.yaml",
            "; write one (ccm-render provider new) and pass its folder with --provider-dir; rendering nothing",
        ),
    ] {
        let dir = tempfile::tempdir().expect("tempdir");
        let out = render_external(infrastructure, None, &[], dir.path());
        assert!(out.status.success(), "{infrastructure}: {}", stderr(&out));
        assert!(stderr(&out).contains(why), "{}", stderr(&out));
        assert!(read_tree(dir.path()).is_empty(), "{infrastructure}");
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let out = render_external(
        "infrastructure-unknown-platform-name.yaml",
        None,
        &[],
        dir.path(),
    );
    assert!(stderr(&out).contains("--provider-dir"), "{}", stderr(&out));
}

/// Runs the steps of docs/providers.md "Writing a provider" for a provider `acme` under `root`:
/// `provider new`, the edits the page lists, `provider check`. Returns the providers folder.
fn write_provider_as_the_readme_says(root: &Path) -> std::path::PathBuf {
    let providers = root.join("providers");
    // Step 1.
    let out = ccm_render(&["provider", "new", "acme", "--dir", s(&providers)]);
    assert!(out.status.success(), "{}", stderr(&out));
    // Step 2: the binary path of the vendor's image, in the Deployment and the bootstrap pod.
    for file in ["manifests/deployment.yaml", "bootstrap/pod.yaml"] {
        let path = providers.join("acme").join(file);
        let text = std::fs::read_to_string(&path).expect("scaffold file");
        assert!(
            text.contains("/bin/acme-cloud-controller-manager"),
            "{file}"
        );
        let edited = text.replace(
            "/bin/acme-cloud-controller-manager",
            "/usr/bin/acme-cloud-controller-manager",
        );
        std::fs::write(&path, edited).expect("edit");
    }
    // Step 3.
    let out = ccm_render(&["provider", "check", s(&providers.join("acme"))]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("ok: "),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    providers
}

fn acme_infrastructure(root: &Path) -> std::path::PathBuf {
    let text = std::fs::read_to_string(external("infrastructure-oci.yaml"))
        .expect("infra")
        .replace("platformName: oci", "platformName: acme");
    let path = root.join("infrastructure.yaml");
    std::fs::write(&path, text).expect("write");
    path
}

#[test]
fn a_provider_written_from_the_readme_checks_renders_and_renders_again_identically() {
    let root = tempfile::tempdir().expect("tempdir");
    let providers = write_provider_as_the_readme_says(root.path());
    let infra = acme_infrastructure(root.path());
    let cloud = root.path().join("cloud.conf");
    std::fs::write(&cloud, "[Global]\nregion = eu-1\n").expect("write");
    let out_dir = root.path().join("out");
    let images = external("images.json");
    let args = [
        "render",
        "--provider-dir",
        s(&providers),
        "--infrastructure",
        s(&infra),
        "--images",
        s(&images),
        "--cloud-config",
        s(&cloud),
        "--dest-dir",
        s(&out_dir),
    ];
    let first = ccm_render(&args);
    assert!(first.status.success(), "{}", stderr(&first));
    let tree = read_tree(&out_dir);
    let pods = objects_in(&tree, "bootstrap");
    let pod = pods.values().next().expect("a bootstrap pod");
    assert_eq!(
        pod["spec"]["containers"][0]["image"],
        "registry.example.com/acme/cloud-controller-manager:v1.0.0"
    );
    let manifests = objects_in(&tree, "manifests");
    let deployment = manifests
        .values()
        .find(|o| o["kind"] == "Deployment")
        .expect("deployment");
    let container = &deployment["spec"]["template"]["spec"]["containers"][0];
    let script = container["command"][2].as_str().expect("script");
    assert!(script.contains("exec /usr/bin/acme-cloud-controller-manager \\"));
    assert!(
        script.contains("--tls-min-version=VersionTLS12 \\"),
        "{script}"
    );
    let env: Vec<&Value> = container["env"].as_array().expect("env").iter().collect();
    assert!(
        env.iter()
            .any(|e| e["name"] == "OCP_INFRASTRUCTURE_NAME" && e["value"] == "mycluster-7xk2p")
    );
    assert_eq!(tree["config/cloud.conf"], b"[Global]\nregion = eu-1\n");
    // A second run changes nothing, byte for byte.
    let second = ccm_render(&args);
    assert!(second.status.success(), "{}", stderr(&second));
    assert!(
        stderr(&second).contains("(0 written"),
        "{}",
        stderr(&second)
    );
    assert_eq!(read_tree(&out_dir), tree);
    // `platforms --provider-dir` lists it.
    let listed = ccm_render(&["platforms", "--provider-dir", s(&providers)]);
    assert!(listed.status.success());
    let table = String::from_utf8_lossy(&listed.stdout);
    assert!(
        table.contains("acme") && table.contains("cloudControllerManagerAcme"),
        "{table}"
    );
}

#[test]
fn provider_new_never_overwrites_a_provider() {
    let root = tempfile::tempdir().expect("tempdir");
    let providers = write_provider_as_the_readme_says(root.path());
    let before = read_tree(&providers);
    let out = ccm_render(&["provider", "new", "acme", "--dir", s(&providers)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("exists and is not empty"),
        "{}",
        stderr(&out)
    );
    assert_eq!(read_tree(&providers), before);
    let out = ccm_render(&["provider", "new", "Not_A_Label", "--dir", s(&providers)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("error: NAME: "),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_provider_dir_folder_named_like_a_built_in_overrides_it() {
    let root = tempfile::tempdir().expect("tempdir");
    let providers = root.path().join("providers");
    std::fs::create_dir_all(&providers).expect("mkdir");
    // Copy the built-in oci provider and change its log level.
    let src = root_dir("assets/oci");
    for (rel, bytes) in read_tree(&src) {
        let path = providers.join("oci").join(&rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        let text = String::from_utf8(bytes)
            .expect("utf8")
            .replace("--v=2", "--v=4");
        std::fs::write(path, text).expect("write");
    }
    std::fs::write(
        providers.join("oci/provider.yaml"),
        std::fs::read_to_string(src.join("provider.yaml"))
            .expect("read")
            .replace("before: \"--v=2\"", "before: \"--v=4\""),
    )
    .expect("write");
    let dir = tempfile::tempdir().expect("tempdir");
    let out = render_external(
        "infrastructure-oci.yaml",
        Some("oci-cloud-provider.yaml"),
        &["--provider-dir", s(&providers)],
        dir.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("oci: overrides the provider oci from assets/oci"),
        "{}",
        stderr(&out)
    );
    let tree = read_tree(dir.path());
    let deployment =
        String::from_utf8(tree["manifests/deployment-oci-cloud-controller-manager.yaml"].clone())
            .expect("utf8");
    assert!(deployment.contains("--v=4"), "{deployment}");
}

fn root_dir(rel: &str) -> std::path::PathBuf {
    root().join(rel)
}

/// A broken copy of docs/providers.md's provider: `edit` changes it; the error must name `file` and
/// `field`, from `provider check` and from `render --provider-dir` (which leaves the output
/// untouched).
fn assert_broken(name: &str, edit: impl Fn(&Path), file: &str, field: &str) {
    let root = tempfile::tempdir().expect("tempdir");
    let providers = write_provider_as_the_readme_says(root.path());
    let acme = providers.join("acme");
    edit(&acme);
    let out = ccm_render(&["provider", "check", s(&acme)]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{name}: {err}");
    let expected = format!("error: {}/{file}: {field}", acme.display());
    assert!(
        err.starts_with(&expected),
        "{name}: want {expected:?}, got {err}"
    );
    assert_eq!(err.lines().count(), 1, "{name}: one line: {err}");

    let out_dir = root.path().join("out");
    std::fs::create_dir(&out_dir).expect("mkdir");
    std::fs::write(out_dir.join("keep"), "x").expect("write");
    let infra = acme_infrastructure(root.path());
    let out = ccm_render(&[
        "render",
        "--provider-dir",
        s(&providers),
        "--infrastructure",
        s(&infra),
        "--images",
        s(&external("images.json")),
        "--dest-dir",
        s(&out_dir),
    ]);
    assert_eq!(out.status.code(), Some(2), "{name}: {}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("{}/{file}: {field}", acme.display())),
        "{name}: {}",
        stderr(&out)
    );
    assert_eq!(read_tree(&out_dir).keys().collect::<Vec<_>>(), ["keep"]);
}

fn edit_file(dir: &Path, file: &str, from: &str, to: &str) {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(text.contains(from), "{file} lacks {from:?}");
    std::fs::write(&path, text.replacen(from, to, 1)).expect("write");
}

#[test]
fn broken_provider_folders_are_refused_naming_the_file_and_the_field() {
    assert_broken(
        "bad YAML",
        |d| edit_file(d, "provider.yaml", "kind: Provider", "kind: [Provider"),
        "provider.yaml",
        "not valid YAML",
    );
    assert_broken(
        "unknown field",
        |d| edit_file(d, "provider.yaml", "  resourceName:", "  resourceNmae:"),
        "provider.yaml",
        "spec.resourceNmae: unknown field `resourceNmae`",
    );
    assert_broken(
        "wrong metadata.name",
        |d| edit_file(d, "provider.yaml", "  name: acme", "  name: other"),
        "provider.yaml",
        "metadata.name: \"other\" differs from its folder \"acme\"",
    );
    assert_broken(
        "missing image key",
        |d| {
            edit_file(
                d,
                "manifests/deployment.yaml",
                "name: cloud-controller-manager\n",
                "name: ccm\n",
            );
        },
        "manifests/deployment.yaml",
        "spec.template.spec.containers[0]: container \"ccm\" has no images.json key",
    );
    assert_broken(
        "manifest without a kind",
        |d| edit_file(d, "manifests/clusterrole.yaml", "kind: ClusterRole\n", ""),
        "manifests/clusterrole.yaml",
        "kind: missing",
    );
    assert_broken(
        "two objects in one manifest",
        |d| {
            let path = d.join("manifests/clusterrole.yaml");
            let text = std::fs::read_to_string(&path).expect("read");
            std::fs::write(&path, format!("{text}---\n{text}")).expect("write");
        },
        "manifests/clusterrole.yaml",
        "holds 2 objects, expected one",
    );
    assert_broken(
        "bootstrap pod with a Secret volume",
        |d| {
            edit_file(
                d,
                "bootstrap/pod.yaml",
                "  - name: bootstrap-secrets\n    hostPath:\n      path: /etc/kubernetes/bootstrap-secrets\n      type: Directory\n",
                "  - name: bootstrap-secrets\n    secret:\n      secretName: x\n",
            );
        },
        "bootstrap/pod.yaml",
        "spec.volumes[0]: a static pod can only mount hostPath volumes",
    );
    assert_broken(
        "External without externalPlatformName",
        |d| edit_file(d, "provider.yaml", "  externalPlatformName: acme\n", ""),
        "provider.yaml",
        "spec.externalPlatformName: required with platform External",
    );
    assert_broken(
        "TLS anchor missing",
        |d| {
            edit_file(
                d,
                "provider.yaml",
                "before: \"--secure-port=10258\"",
                "before: \"--nope\"",
            );
        },
        "provider.yaml",
        "spec.tls: no container",
    );
    assert_broken(
        "stray file",
        |d| std::fs::write(d.join("notes.txt"), "x").expect("write"),
        "notes.txt",
        "not part of a provider",
    );
}

#[test]
fn a_cloud_config_default_needs_a_json_cloud_config_and_the_variable_in_the_bootstrap_pod() {
    let defaulted = "    cloudConfigDefaults:\n    - path: [auth, namespace]\n      env: POD_NAMESPACE\n      source: \"acme pkg/config.go\"\n";
    assert_broken(
        "a cloud config default in a cloud config of no known format",
        |d| {
            edit_file(
                d,
                "provider.yaml",
                "    credentials:\n",
                &format!("{defaulted}    credentials:\n"),
            );
        },
        "provider.yaml",
        "spec.bootstrap.cloudConfigDefaults[0]: only a JSON cloud config",
    );
    assert_broken(
        "a cloud config default from a variable the bootstrap pod does not set",
        |d| {
            edit_file(
                d,
                "provider.yaml",
                "    transform: none\n",
                "    transform: none\n    format: json\n",
            );
            edit_file(
                d,
                "provider.yaml",
                "    credentials:\n",
                &format!("{defaulted}    credentials:\n"),
            );
        },
        "bootstrap/pod.yaml",
        "spec.containers: spec.bootstrap.cloudConfigDefaults leaves auth.namespace to the CCM's default from POD_NAMESPACE, which no container of this pod sets to a value",
    );
}

#[test]
fn a_second_provider_for_the_same_platform_name_is_refused() {
    let root = tempfile::tempdir().expect("tempdir");
    let providers = write_provider_as_the_readme_says(root.path());
    edit_file(
        &providers.join("acme"),
        "provider.yaml",
        "externalPlatformName: acme",
        "externalPlatformName: OCI",
    );
    let out = ccm_render(&["provider", "check", s(&providers)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("serves what assets/oci already serves"),
        "{}",
        stderr(&out)
    );
}

/// Renders the DigitalOcean Infrastructure with the images.json at `images` and `extra` flags.
fn render_digitalocean(images: &Path, extra: &[&str], dest: &Path) -> std::process::Output {
    let infra = external("infrastructure-digitalocean.yaml");
    let mut args = vec![
        "render",
        "--infrastructure",
        s(&infra),
        "--images",
        s(images),
        "--dest-dir",
        s(dest),
    ];
    args.extend_from_slice(extra);
    ccm_render(&args)
}

#[test]
fn digitalocean_renders_the_vendors_secret_token_and_ccm_from_credentials() {
    let dir = tempfile::tempdir().expect("tempdir");
    let credentials = root().join("testdata/credentials/digitalocean.yaml");
    let out = render_digitalocean(
        &conformance("images.json"),
        &["--credentials", s(&credentials)],
        dir.path(),
    );
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    // It reads no cloud config, so none is asked for.
    assert!(!err.contains("--cloud-config"), "{err}");
    let tree = read_tree(dir.path());
    let token = "dop_v1_0000000000000000000000000000000000000000000000000000000000000000";
    // The bootstrap pod's token file, and the Secret the Deployment reads.
    assert_eq!(
        tree["secrets/digitalocean-access-token"],
        token.as_bytes().to_vec()
    );
    let manifests = objects_in(&tree, "manifests");
    let secret = &manifests["Secret/openshift-cloud-controller-manager/digitalocean"];
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(
            secret["data"]["access-token"]
                .as_str()
                .expect("access-token"),
        )
        .expect("base64");
    assert_eq!(decoded, token.as_bytes());
    assert_eq!(
        secret["data"].as_object().expect("data").len(),
        1,
        "only the key the CCM reads"
    );
    let deployment = &manifests["Deployment/openshift-cloud-controller-manager/digitalocean-cloud-controller-manager"];
    let container = &deployment["spec"]["template"]["spec"]["containers"][0];
    let env = container["env"].as_array().expect("env");
    let token_env = env
        .iter()
        .find(|e| e["name"] == "DO_ACCESS_TOKEN")
        .expect("DO_ACCESS_TOKEN");
    assert_eq!(
        token_env["valueFrom"]["secretKeyRef"],
        serde_json::json!({"name": "digitalocean", "key": "access-token"})
    );
    let script = container["command"][2].as_str().expect("script");
    assert!(
        script.contains("--tls-min-version=VersionTLS12 \\"),
        "{script}"
    );
    let pod = objects_in(&tree, "bootstrap")
        .pop_first()
        .expect("a bootstrap pod")
        .1;
    let script = pod["spec"]["containers"][0]["command"][2]
        .as_str()
        .expect("script");
    assert!(
        script.contains(
            "DO_ACCESS_TOKEN=\"$(cat /etc/kubernetes/bootstrap-secrets/digitalocean-access-token)\""
        ),
        "{script}"
    );
    // Its main.go passes no controller aliases (provider.yaml spec.ccm).
    assert!(
        script.contains("--controllers=cloud-node-controller \\"),
        "{script}"
    );
    // Without --credentials, stderr says what is missing.
    let dir = tempfile::tempdir().expect("tempdir");
    let out = render_digitalocean(&conformance("images.json"), &[], dir.path());
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains(
            "the Secret digitalocean that the digitalocean manifests read is not rendered"
        ) && err.contains("bootstrap-secrets/digitalocean-access-token, which is not rendered"),
        "{err}"
    );
}

#[test]
fn images_json_wins_over_a_providers_default_image() {
    let dir = tempfile::tempdir().expect("tempdir");
    let images = dir.path().join("images.json");
    std::fs::write(
        &images,
        r#"{"cloudControllerManagerDigitalOcean": "registry.example.com/do/ccm:v9"}"#,
    )
    .expect("write");
    let dest = dir.path().join("out");
    let out = render_digitalocean(&images, &[], &dest);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("defaultImages"), "{err}");
    let tree = read_tree(&dest);
    for (_, object) in objects_in(&tree, "bootstrap") {
        assert_eq!(
            object["spec"]["containers"][0]["image"],
            "registry.example.com/do/ccm:v9"
        );
    }
}

#[test]
fn platforms_shows_the_default_images() {
    let out = ccm_render(&["platforms"]);
    let text = String::from_utf8(out.stdout).expect("utf8");
    assert!(
        text.contains(
            "cloudControllerManagerOCI (default ghcr.io/oracle/cloud-provider-oci:v1.36.0)"
        ),
        "{text}"
    );
    let out = ccm_render(&["platforms", "--output", "json"]);
    let json: Value = serde_json::from_slice(&out.stdout).expect("json");
    let row = json["platforms"]
        .as_array()
        .expect("platforms")
        .iter()
        .find(|r| r["provider"] == "digitalocean")
        .expect("digitalocean row");
    assert_eq!(
        row["defaultImages"],
        serde_json::json!({"cloudControllerManagerDigitalOcean": "docker.io/digitalocean/digitalocean-cloud-controller-manager:v0.1.71"})
    );
    let aws = json["platforms"]
        .as_array()
        .expect("platforms")
        .iter()
        .find(|r| r["provider"] == "aws")
        .expect("aws row");
    assert!(aws.get("defaultImages").is_none(), "{aws}");
}
