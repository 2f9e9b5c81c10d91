//! Property tests of the whole render, through the library's real pipeline (input files →
//! `render_in_memory` → `output::tree`): for generated clusters, rendering is deterministic, and
//! every written file reads back as exactly the object rendered, with the values taken from the
//! inputs (infrastructure name, namespace, proxy values, cloud config ConfigMap keys and values)
//! still strings, even when they read as booleans, numbers or nulls in some YAML version.
//! (`crates/catalogue/src/yaml/` checks the same of `yaml::to_string` against a YAML 1.1 reader.)

use crate::common;

use ccm_render::catalogue::Catalogue;
use ccm_render::config::InputFiles;
use common::*;
use proptest::prelude::*;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// DNS labels that a YAML reader may take for something other than a string.
const TRICKY_LABELS: &[&str] = &[
    "on", "off", "yes", "no", "y", "n", "true", "false", "null", "0755", "1e3", "0x1f", "123",
    "nan", "inf", "0", "1-0",
];

/// No-proxy entries of the same kind (the no-proxy syntax allows no `~`).
const TRICKY_NO_PROXY: &[&str] = &[
    "on",
    "off",
    "yes",
    "no",
    "y",
    "Y",
    "true",
    "null",
    "0755",
    "1e3",
    "0x1F",
    ".inf",
    ".svc",
    "10.0.0.0/16",
    "fd00::/48",
    "",
];

/// Keys and values for the cloud config ConfigMap, which are copied into `cloud-conf`.
const TRICKY_STRINGS: &[&str] = &[
    "on", "yes", "no", "off", "y", "0755", "1e3", "~", "null", "true", "0x1F", ".inf", "", "- a",
    "a: b", "#x", "'", "\"", "a\nb", "\n", " lead", "trail ", "|", ">", "{}", "[]",
];

fn label() -> impl Strategy<Value = String> {
    prop_oneof![
        proptest::sample::select(TRICKY_LABELS).prop_map(str::to_string),
        "[a-z]([-a-z0-9]{0,20}[a-z0-9])?",
    ]
}

fn any_string() -> impl Strategy<Value = String> {
    prop_oneof![
        proptest::sample::select(TRICKY_STRINGS).prop_map(str::to_string),
        any::<String>(),
    ]
}

#[derive(Debug, Clone)]
struct Cluster {
    platform: &'static str,
    single_replica: bool,
    infrastructure_name: String,
    namespace: String,
    http_proxy: Option<String>,
    no_proxy: String,
    extra_cloud_config: BTreeMap<String, String>,
}

fn cluster() -> impl Strategy<Value = Cluster> {
    (
        proptest::sample::select(&PLATFORMS[..]),
        any::<bool>(),
        label(),
        label(),
        proptest::option::of(label().prop_map(|host| format!("http://{host}:3128"))),
        proptest::collection::vec(proptest::sample::select(TRICKY_NO_PROXY), 0..4),
        proptest::collection::btree_map(any_string(), any_string(), 0..5),
    )
        .prop_map(
            |(platform, single_replica, name, namespace, http_proxy, no_proxy, mut extra)| {
                // The key the Infrastructure names (and the one CCCMO reads first) are the
                // cloud config itself, not extra keys.
                extra.remove("config");
                extra.remove("cloud.conf");
                Cluster {
                    platform,
                    single_replica,
                    infrastructure_name: name,
                    namespace,
                    http_proxy,
                    no_proxy: no_proxy.join(","),
                    extra_cloud_config: extra,
                }
            },
        )
}

fn first_document(path: &std::path::Path) -> Value {
    parse_all(&std::fs::read_to_string(path).expect("readable")).remove(0)
}

/// Writes the cluster's input files into `dir`.
fn input_files(cluster: &Cluster, dir: &std::path::Path) -> InputFiles {
    let write = |name: &str, value: &Value| {
        let path = dir.join(name);
        std::fs::write(
            &path,
            ccm_catalogue::yaml::to_string(value).expect("serialises"),
        )
        .expect("write");
        camino::Utf8PathBuf::from_path_buf(path).expect("UTF-8 path")
    };
    let platform = cluster.platform;
    let infrastructure = if cluster.single_replica {
        "infrastructure-sno.yaml"
    } else {
        "infrastructure.yaml"
    };
    let mut infra = first_document(&conformance(&format!("{platform}/{infrastructure}")));
    infra["status"]["infrastructureName"] = json!(cluster.infrastructure_name);
    let mut cloud = first_document(&conformance(&format!(
        "{platform}/cloud-provider-config.yaml"
    )));
    for (key, value) in &cluster.extra_cloud_config {
        cloud["data"][key] = json!(value);
    }
    let mut status = json!({ "noProxy": cluster.no_proxy });
    if let Some(url) = &cluster.http_proxy {
        status["httpProxy"] = json!(url);
    }
    let proxy = json!({
        "apiVersion": "config.openshift.io/v1",
        "kind": "Proxy",
        "metadata": { "name": "cluster" },
        "status": status,
    });
    InputFiles {
        infrastructure: Some(write("infrastructure.yaml", &infra)),
        images: camino::Utf8PathBuf::from_path_buf(conformance("images.json")).expect("UTF-8"),
        cloud_config: Some(write("cloud-provider-config.yaml", &cloud)),
        proxy: Some(write("proxy.yaml", &proxy)),
        network: Some(
            camino::Utf8PathBuf::from_path_buf(conformance("network.yaml")).expect("UTF-8"),
        ),
        feature_gate: None,
        apiserver: None,
        namespace: cluster.namespace.clone(),
        release: None,
        ..InputFiles::default()
    }
}

fn sorted(mut objects: Vec<Value>) -> Vec<Value> {
    objects.sort_by_key(|o| serde_json::to_string(o).expect("JSON"));
    objects
}

fn env_values<'a>(objects: &'a [Value], name: &str) -> Vec<&'a Value> {
    objects
        .iter()
        .flat_map(ccm_render::render::containers)
        .filter_map(|c| c.get("env").and_then(Value::as_array))
        .flatten()
        .filter(|e| e["name"] == name)
        .filter_map(|e| e.get("value"))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn rendering_is_deterministic_and_what_is_written_reads_back_the_same(cluster in cluster()) {
        let dir = tempfile::tempdir().expect("tempdir");
        let files = input_files(&cluster, dir.path());
        let catalogue = Catalogue::builtin().expect("built-in providers");
        let rendered = ccm_render::commands::render_in_memory(&files, &catalogue)
            .expect("a valid cluster renders");
        let again = ccm_render::commands::render_in_memory(&files, &catalogue)
            .expect("renders again");
        prop_assert_eq!(&rendered, &again);
        let tree = ccm_render::output::tree(&rendered).expect("lays out");
        prop_assert_eq!(&tree, &ccm_render::output::tree(&again).expect("lays out"));

        // Every written object reads back as the object rendered; config files are as rendered.
        let mut read_back = Vec::new();
        for (path, file) in &tree.files {
            let text = std::str::from_utf8(&file.bytes).expect("UTF-8");
            if path.starts_with("config") {
                let name = path.file_name().expect("a file name");
                prop_assert_eq!(Some(text), rendered.config_files.get(name).map(String::as_str));
            } else {
                let docs = parse_all(text);
                prop_assert_eq!(docs.len(), 1, "{}", path);
                read_back.extend(docs);
            }
        }
        let written: Vec<Value> =
            rendered.manifests.iter().chain(&rendered.bootstrap).cloned().collect();
        prop_assert_eq!(sorted(read_back.clone()), sorted(written));

        // The values from the inputs are there, as strings.
        let cloud_conf = read_back
            .iter()
            .find(|o| o["kind"] == "ConfigMap" && o["metadata"]["name"] == "cloud-conf")
            .expect("the cloud-conf ConfigMap");
        prop_assert_eq!(&cloud_conf["metadata"]["namespace"], &json!(cluster.namespace));
        for (key, value) in &cluster.extra_cloud_config {
            prop_assert_eq!(&cloud_conf["data"][key], &json!(value), "key {:?}", key);
        }
        let manifests: Vec<Value> = read_back
            .iter()
            .filter(|o| o["kind"] != "Pod")
            .cloned()
            .collect();
        let no_proxy = env_values(&manifests, "NO_PROXY");
        if cluster.no_proxy.is_empty() {
            prop_assert!(no_proxy.is_empty());
        } else {
            prop_assert!(!no_proxy.is_empty());
            for value in no_proxy {
                prop_assert_eq!(value, &json!(cluster.no_proxy));
            }
        }
        let http_proxy = cluster.http_proxy.as_ref().map(|url| json!(url));
        for value in env_values(&manifests, "HTTP_PROXY") {
            prop_assert_eq!(Some(value), http_proxy.as_ref());
        }
        for value in env_values(&manifests, "OCP_INFRASTRUCTURE_NAME") {
            prop_assert_eq!(value, &json!(cluster.infrastructure_name));
        }
    }
}
