//! The command-line contract (docs/cli.md): exit statuses, error lines, the output
//! layout, and what render does with proxies, namespaces and platforms without a CCM.

use crate::common;

use common::*;
use serde_json::Value;
use std::path::Path;

/// A dest dir holding a file the tool did not write and an old manifest.
fn prepopulated() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(dir.path().join("manifests")).expect("mkdir");
    std::fs::write(dir.path().join("manifests/old.yaml"), "kept: true\n").expect("write");
    std::fs::write(dir.path().join("README"), "not ours\n").expect("write");
    dir
}

fn assert_bad_input(args_for: impl Fn(&Path) -> Vec<String>, message: &str) {
    let dir = prepopulated();
    let args = args_for(dir.path());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_refused_untouched(dir.path(), || ccm_render(&args), message);
}

fn base_args(infra: &Path, dest: &Path) -> Vec<String> {
    vec![
        "render".into(),
        "--infrastructure".into(),
        infra.display().to_string(),
        "--images".into(),
        conformance("images.json").display().to_string(),
        "--dest-dir".into(),
        dest.display().to_string(),
    ]
}

#[test]
fn platform_without_ccm_renders_empty_folders_and_exits_0() {
    for (file, platform) in [
        ("infrastructure-baremetal.yaml", "BareMetal"),
        ("infrastructure-none.yaml", "None"),
    ] {
        let dir = tempfile::tempdir().expect("tempdir");
        let dest = dir.path().join("out");
        let args = base_args(&variant(file), &dest);
        let out = ccm_render(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(
            stderr(&out).contains(&format!(
                "platform {platform} has no cloud controller manager"
            )),
            "{}",
            stderr(&out)
        );
        for folder in ["bootstrap", "config", "manifests"] {
            assert!(dest.join(folder).is_dir(), "{folder}");
        }
        assert!(read_tree(&dest).is_empty());
    }
}

#[test]
fn unknown_platform_is_exit_2_and_leaves_dest_untouched() {
    let infra_dir = tempfile::tempdir().expect("tempdir");
    let infra = infra_dir.path().join("infra.yaml");
    let text = std::fs::read_to_string(conformance("aws/infrastructure.yaml")).expect("read");
    std::fs::write(&infra, text.replace("type: AWS", "type: Moon")).expect("write");
    assert_bad_input(
        |dest| base_args(&infra, dest),
        "status.platformStatus.type: unknown platform \"Moon\"",
    );
}

#[test]
fn missing_images_key_is_exit_2_naming_the_key() {
    let dir = tempfile::tempdir().expect("tempdir");
    let images = dir.path().join("images.json");
    std::fs::write(&images, r#"{"cloudControllerManagerAWS": "quay.io/a/b"}"#).expect("write");
    assert_bad_input(
        |dest| {
            let mut a = base_args(&conformance("gcp/infrastructure.yaml"), dest);
            a[4] = images.display().to_string();
            a
        },
        "no \"cloudControllerManagerGCP\" entry",
    );
}

#[test]
fn missing_input_file_is_exit_2_naming_the_file() {
    assert_bad_input(
        |dest| base_args(Path::new("/nonexistent/infra.yaml"), dest),
        "/nonexistent/infra.yaml: cannot open",
    );
}

#[test]
fn invalid_namespace_is_exit_2_naming_the_flag() {
    assert_bad_input(
        |dest| {
            let mut a = base_args(&conformance("aws/infrastructure.yaml"), dest);
            a.extend(["--namespace".into(), "Bad_NS".into()]);
            a
        },
        "--namespace: ",
    );
}

#[test]
fn dest_dir_that_is_a_file_is_exit_2() {
    let file = tempfile::NamedTempFile::new().expect("temp");
    let args = base_args(&conformance("aws/infrastructure.yaml"), file.path());
    let out = ccm_render(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("is not a directory"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn rerun_into_the_same_dir_changes_nothing_and_keeps_foreign_files() {
    let dir = prepopulated();
    let infra = conformance("aws/infrastructure.yaml");
    let args = base_args(&infra, dir.path());
    let command_line: Vec<&str> = args.iter().map(String::as_str).collect();
    assert!(ccm_render(&command_line).status.success());
    let first = read_tree(dir.path());
    assert!(first.contains_key("README") && first.contains_key("manifests/old.yaml"));
    let out = ccm_render(&command_line);
    assert!(out.status.success());
    assert!(stderr(&out).contains("0 written"), "{}", stderr(&out));
    assert_eq!(read_tree(dir.path()), first);
}

fn render_objects(platform: &str, extra: &[&str]) -> Vec<Value> {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = render_conformance(platform, "infrastructure.yaml", extra, dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    objects_in(&read_tree(dir.path()), "manifests")
        .into_values()
        .collect()
}

fn containers(object: &Value, key: &str) -> Vec<Value> {
    object
        .pointer(&format!("/spec/template/spec/{key}"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

#[test]
fn proxy_status_becomes_env_of_every_ccm_container_but_not_init_containers() {
    let proxy = variant("proxy.yaml");
    let objects = render_objects("azure", &["--proxy", proxy.to_str().expect("utf8")]);
    let workloads: Vec<&Value> = objects
        .iter()
        .filter(|o| matches!(o["kind"].as_str(), Some("Deployment" | "DaemonSet")))
        .collect();
    assert_eq!(workloads.len(), 2);
    for workload in workloads {
        for container in containers(workload, "containers") {
            let env = container["env"].as_array().expect("env");
            let tail: Vec<&str> = env[env.len() - 3..]
                .iter()
                .map(|e| e["name"].as_str().expect("name"))
                .collect();
            assert_eq!(tail, ["HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY"]);
            assert_eq!(env[env.len() - 3]["value"], "http://proxy.example.com:3128");
        }
        for init in containers(workload, "initContainers") {
            let names: Vec<&str> = init["env"]
                .as_array()
                .map(|e| e.iter().filter_map(|v| v["name"].as_str()).collect())
                .unwrap_or_default();
            assert!(
                !names.contains(&"HTTP_PROXY"),
                "init container got proxy env"
            );
        }
    }
}

#[test]
fn proxy_with_spec_only_warns_and_adds_no_env() {
    let proxy = variant("proxy-spec-only.yaml");
    let dir = tempfile::tempdir().expect("tempdir");
    let out = render_conformance(
        "aws",
        "infrastructure.yaml",
        &["--proxy", proxy.to_str().expect("utf8")],
        dir.path(),
    );
    assert!(out.status.success());
    assert!(stderr(&out).contains("warning: "), "{}", stderr(&out));
    let text = String::from_utf8(
        read_tree(dir.path())["manifests/deployment-aws-cloud-controller-manager.yaml"].clone(),
    )
    .expect("utf8");
    assert!(!text.contains("PROXY"));
}

#[test]
fn namespace_flag_moves_every_managed_object_and_reference() {
    for platform in PLATFORMS {
        let objects = render_objects(platform, &["--namespace", "ccm-test"]);
        let text = serde_json::to_string(&objects).expect("json");
        assert!(
            !text.contains("openshift-cloud-controller-manager\""),
            "{platform}: the default namespace is still referenced"
        );
        assert!(
            !text.contains("resource-namespace=openshift-cloud-controller-manager"),
            "{platform}"
        );
        assert!(
            !text.contains("system:serviceaccount:openshift-cloud-controller-manager:"),
            "{platform}"
        );
        for object in &objects {
            let ns = object
                .pointer("/metadata/namespace")
                .and_then(Value::as_str);
            assert!(
                matches!(ns, None | Some("ccm-test" | "kube-system")),
                "{platform}: {ns:?}"
            );
        }
    }
}

fn ccm_script(platform: &str, extra: &[&str]) -> (String, Value) {
    let objects = render_objects(platform, extra);
    let deployment = objects
        .into_iter()
        .find(|o| o["kind"] == "Deployment")
        .expect("a Deployment");
    let container = containers(&deployment, "containers")
        .into_iter()
        .find(|c| c["name"] == "cloud-controller-manager")
        .expect("the CCM container");
    (
        container["command"][2]
            .as_str()
            .expect("script")
            .to_string(),
        container,
    )
}

fn tls_lines(script: &str) -> Vec<String> {
    script
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("--tls-"))
        .map(String::from)
        .collect()
}

#[test]
fn strict_modern_profile_gives_tls13_and_no_cipher_flag_on_every_platform() {
    let apiserver = variant("apiserver-modern-strict.yaml");
    for platform in PLATFORMS {
        let (script, _) = ccm_script(
            platform,
            &["--apiserver", apiserver.to_str().expect("utf8")],
        );
        assert_eq!(
            tls_lines(&script),
            ["--tls-min-version=VersionTLS13 \\"],
            "{platform}"
        );
    }
}

#[test]
fn modern_profile_without_strict_adherence_keeps_intermediate() {
    let apiserver = variant("apiserver-modern-legacy.yaml");
    let (with, _) = ccm_script("gcp", &["--apiserver", apiserver.to_str().expect("utf8")]);
    let (without, _) = ccm_script("gcp", &[]);
    assert_eq!(tls_lines(&with), tls_lines(&without));
    assert!(tls_lines(&with)[1].starts_with("--tls-min-version=VersionTLS12"));
}

#[test]
fn custom_profile_maps_openssl_names_to_iana() {
    let apiserver = variant("apiserver-custom-strict.yaml");
    let (script, _) = ccm_script(
        "ibmcloud",
        &["--apiserver", apiserver.to_str().expect("utf8")],
    );
    assert_eq!(
        tls_lines(&script),
        [
            "--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384 \\",
            "--tls-min-version=VersionTLS12 \\"
        ]
    );
    // IBM's TLS flags go before its last flag, --v=2.
    assert!(
        script
            .trim_end()
            .ends_with("--tls-min-version=VersionTLS12 \\\n--v=2"),
        "{script}"
    );
}

#[test]
fn custom_feature_gates_switch_the_vsphere_label_and_pass_upstream_gates() {
    let gates = variant("featuregate-custom.yaml");
    let gates = gates.to_str().expect("utf8");
    let (script, container) = ccm_script("vsphere", &["--feature-gate", gates]);
    assert!(!script.contains("--node-labels"), "{script}");
    assert!(
        script.contains("--feature-gates=CloudControllerManagerWebhook=true \\"),
        "{script}"
    );
    let labels = container["env"]
        .as_array()
        .expect("env")
        .iter()
        .find(|e| e["name"] == "ADDITIONAL_NODE_LABELS")
        .expect("kept, empty")
        .clone();
    assert!(labels.get("value").is_none(), "{labels}");
    let (openstack, _) = ccm_script("openstack", &["--feature-gate", gates]);
    assert!(openstack.contains("--feature-gates=CloudControllerManagerWebhook=true \\"));
}

#[test]
fn tech_preview_keeps_the_vsphere_label() {
    let gates = variant("featuregate-techpreview.yaml");
    let (script, _) = ccm_script(
        "vsphere",
        &["--feature-gate", gates.to_str().expect("utf8")],
    );
    assert!(
        script.contains("--node-labels=\"$(ADDITIONAL_NODE_LABELS)\" \\"),
        "{script}"
    );
    assert!(script.contains("--feature-gates= \\"), "{script}");
}

#[test]
fn bad_apiserver_profile_is_exit_2_naming_the_file_and_field() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bad = dir.path().join("apiserver.yaml");
    std::fs::write(
        &bad,
        "apiVersion: config.openshift.io/v1\nkind: APIServer\nspec:\n  tlsAdherence: StrictAllComponents\n  tlsSecurityProfile:\n    type: Fancy\n",
    )
    .expect("write");
    assert_bad_input(
        |dest| {
            let mut a = base_args(&conformance("aws/infrastructure.yaml"), dest);
            a.extend(["--apiserver".into(), bad.display().to_string()]);
            a
        },
        "spec.tlsSecurityProfile.type",
    );
}

#[test]
fn platforms_lists_every_known_platform_and_the_twelve_ccms() {
    let out = ccm_render(&["platforms"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).expect("utf8");
    for platform in ccm_catalogue::platform::Platform::ALL {
        assert!(
            text.lines().any(|l| l.starts_with(&format!("{platform} "))),
            "{platform}"
        );
    }
    assert_eq!(
        // CCCMO's nine, plus oci, alicloud and digitalocean on External.
        text.lines().filter(|l| l.contains(" yes (")).count(),
        12,
        "{text}"
    );
    assert!(text.contains("cloudControllerManagerPowerVS"));
    assert!(
        text.contains("/etc/kubernetes/bootstrap-secrets/clouds.yaml"),
        "{text}"
    );
}

#[test]
fn completions_subcommand_prints_the_committed_script() {
    let out = ccm_render(&["completions", "bash"]);
    assert_eq!(out.status.code(), Some(0));
    let committed = std::fs::read(root().join("completions/ccm-render.bash")).expect("committed");
    assert_eq!(out.stdout, committed);
}

#[test]
fn usage_error_is_exit_2() {
    let out = ccm_render(&["render", "--images", "x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--infrastructure"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn cloud_config_keys_go_to_the_configmap_and_endpoints_to_config() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().expect("tempdir");
    let infra = conformance("azurestackhub/infrastructure.yaml");
    let cloud = variant("azurestackhub-cloud-provider-config.yaml");
    let dest = dir.path().join("out");
    let out = ccm_render(&[
        "render",
        "--infrastructure",
        infra.to_str().expect("utf8"),
        "--images",
        conformance("images.json").to_str().expect("utf8"),
        "--cloud-config",
        cloud.to_str().expect("utf8"),
        "--dest-dir",
        dest.to_str().expect("utf8"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let tree = read_tree(&dest);
    assert!(
        String::from_utf8_lossy(&tree["config/endpoints.conf"]).contains("resourceManagerEndpoint")
    );
    let conf: Value = serde_json::from_slice(&tree["config/cloud.conf"]).expect("JSON cloud.conf");
    assert_eq!(conf["vmType"], "standard", "the ASH transform ran");
    let mode = std::fs::metadata(dest.join("config/cloud.conf"))
        .expect("exists")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
    let manifests = objects_in(&tree, "manifests");
    let cm = &manifests["ConfigMap/openshift-cloud-controller-manager/cloud-conf"];
    let keys: Vec<&String> = cm["data"].as_object().expect("data").keys().collect();
    assert_eq!(keys, ["ca-bundle.pem", "cloud.conf", "endpoints"]);
    // The stamp's CA also becomes the trusted CA bundle the pods mount.
    let trusted = &manifests["ConfigMap/openshift-cloud-controller-manager/ccm-trusted-ca"];
    assert_eq!(
        trusted["data"]["ca-bundle.crt"],
        cm["data"]["ca-bundle.pem"]
    );
}

#[test]
fn cloud_config_without_the_key_the_infrastructure_names_is_exit_2() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cloud = dir.path().join("cm.yaml");
    std::fs::write(&cloud, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cloud-provider-config\n  namespace: openshift-config\ndata:\n  other: x\n").expect("write");
    assert_bad_input(
        |dest| {
            let mut a = base_args(&conformance("aws/infrastructure.yaml"), dest);
            a.extend(["--cloud-config".into(), cloud.display().to_string()]);
            a
        },
        "has no key \"config\", which the Infrastructure names in spec.cloudConfig.key",
    );
}

#[test]
fn cloud_config_the_transform_refuses_is_exit_2() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cloud = dir.path().join("cloud.conf");
    std::fs::write(&cloud, "[Global]\nsecret-namespace = elsewhere\n").expect("write");
    assert_bad_input(
        |dest| {
            let mut a = base_args(&conformance("openstack/infrastructure.yaml"), dest);
            a.extend(["--cloud-config".into(), cloud.display().to_string()]);
            a
        },
        "secret-namespace",
    );
}

#[test]
fn bad_proxy_url_is_exit_2_naming_the_field() {
    let dir = tempfile::tempdir().expect("tempdir");
    let proxy = dir.path().join("proxy.yaml");
    std::fs::write(
        &proxy,
        "apiVersion: config.openshift.io/v1\nkind: Proxy\nstatus:\n  httpProxy: \"proxy:3128 --evil\"\n",
    )
    .expect("write");
    assert_bad_input(
        |dest| {
            let mut a = base_args(&conformance("aws/infrastructure.yaml"), dest);
            a.extend(["--proxy".into(), proxy.display().to_string()]);
            a
        },
        "status.httpProxy",
    );
}

#[test]
fn unknown_feature_set_is_exit_2_naming_the_field() {
    let dir = tempfile::tempdir().expect("tempdir");
    let gates = dir.path().join("featuregate.yaml");
    std::fs::write(
        &gates,
        "apiVersion: config.openshift.io/v1\nkind: FeatureGate\nspec:\n  featureSet: Everything\n",
    )
    .expect("write");
    assert_bad_input(
        |dest| {
            let mut a = base_args(&conformance("vsphere/infrastructure.yaml"), dest);
            a.extend(["--feature-gate".into(), gates.display().to_string()]);
            a
        },
        "spec.featureSet",
    );
}

/// Every file gets exactly its mode (0644, secrets 0600), whatever the umask: created with its
/// mode when the umask leaves it whole (022), set after creation when it does not (077, 027);
/// into a new --dest-dir (written whole, then renamed) and into an existing one (updated).
#[test]
fn file_modes_are_exact_under_any_umask() {
    use std::os::unix::fs::PermissionsExt as _;
    for (umask, existing) in ["022", "077", "027", "000"]
        .into_iter()
        .flat_map(|umask| [(umask, false), (umask, true)])
    {
        let dir = tempfile::tempdir().expect("tempdir");
        let dest = dir.path().join("out");
        if existing {
            std::fs::create_dir(&dest).expect("mkdir");
        }
        let infra = conformance("azure/infrastructure.yaml");
        let mut args = base_args(&infra, &dest);
        args.push("--cloud-config".into());
        args.push(
            conformance("azure/cloud-provider-config.yaml")
                .display()
                .to_string(),
        );
        let args = args.join(" ");
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("umask {umask} && exec \"$0\" {args}"))
            .arg(crate::common::binary())
            .output()
            .expect("runs");
        assert!(
            out.status.success(),
            "umask {umask}, existing {existing}: {}",
            stderr(&out)
        );
        // Every file: the cloud config owner-only, the manifests and static pods 0644.
        let mut seen = 0;
        for folder in ["bootstrap", "config", "manifests"] {
            let expected = if folder == "config" { 0o600 } else { 0o644 };
            for entry in std::fs::read_dir(dest.join(folder)).expect("a folder") {
                let path = entry.expect("an entry").path();
                let mode = std::fs::metadata(&path)
                    .expect("exists")
                    .permissions()
                    .mode();
                assert_eq!(
                    mode & 0o7777,
                    expected,
                    "umask {umask}, existing {existing}: {}",
                    path.display()
                );
                seen += 1;
            }
        }
        assert!(
            seen >= 15,
            "umask {umask}, existing {existing}: {seen} files"
        );
    }
}
