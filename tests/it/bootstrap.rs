//! Bootstrap static pods: for every platform with a CCM, one Pod in
//! kube-system that runs the CCM with only the cloud-node controller, from host paths only.

use crate::common;

use common::*;
use serde_json::Value;

fn bootstrap_pod(platform: &str, extra: &[&str]) -> Value {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = render_conformance(platform, "infrastructure.yaml", extra, dir.path());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = read_tree(dir.path());
    let pods: Vec<&String> = tree
        .keys()
        .filter(|p| p.starts_with("bootstrap/"))
        .collect();
    assert_eq!(pods.len(), 1, "{platform}: {pods:?}");
    let mut objects = objects_in(&tree, "bootstrap");
    objects.pop_first().expect("one object").1
}

const CLOUD_PROVIDER: [(&str, &str); 9] = [
    ("aws", "aws"),
    ("azure", "azure"),
    ("azurestackhub", "azure"),
    ("gcp", "gce"),
    ("ibmcloud", "ibm"),
    ("nutanix", "nutanix"),
    ("openstack", "openstack"),
    ("powervs", "ibm"),
    ("vsphere", "vsphere"),
];

#[test]
fn every_platform_gets_a_cloud_node_only_static_pod() {
    for (platform, cloud_provider) in CLOUD_PROVIDER {
        let pod = bootstrap_pod(platform, &[]);
        let image_part = match platform {
            "azurestackhub" => "azure",
            "ibmcloud" => "ibm",
            p => p,
        };
        assert_bootstrap_rules(&pod, platform, cloud_provider, image_part);
    }
}

#[test]
fn external_providers_get_a_cloud_node_only_static_pod_too() {
    for ExternalCase {
        provider,
        infrastructure,
        cloud_config,
        cloud_provider,
    } in EXTERNAL_CASES
    {
        let dir = tempfile::tempdir().expect("tempdir");
        let out = render_external(infrastructure, Some(cloud_config), &[], dir.path());
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut pods = objects_in(&read_tree(dir.path()), "bootstrap");
        assert_eq!(pods.len(), 1, "{provider}");
        let pod = pods.pop_first().expect("one pod").1;
        // The image comes from testdata/external/images.json.
        let image_part = if provider == "oci" {
            "cloud-provider-oci:v1.36.0"
        } else {
            "alibaba-cloud-controller-manager:4.14"
        };
        assert_bootstrap_rules(&pod, provider, cloud_provider, image_part);
    }
    // DigitalOcean reads its API token, no cloud config; conformance/images.json lacks its
    // key, so the provider's pinned image runs.
    let dir = tempfile::tempdir().expect("tempdir");
    let infra = external("infrastructure-digitalocean.yaml");
    let credentials = root().join("testdata/credentials/digitalocean.yaml");
    let out = ccm_render(&[
        "render",
        "--infrastructure",
        infra.to_str().expect("utf8"),
        "--images",
        conformance("images.json").to_str().expect("utf8"),
        "--credentials",
        credentials.to_str().expect("utf8"),
        "--dest-dir",
        dir.path().to_str().expect("utf8"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let pod = objects_in(&read_tree(dir.path()), "bootstrap")
        .pop_first()
        .expect("one pod")
        .1;
    assert_bootstrap_rules(
        &pod,
        "digitalocean",
        "digitalocean",
        "digitalocean-cloud-controller-manager:v0.1.71",
    );
}

/// The serving flags of a k8s.io/cloud-provider CCM's bootstrap pod: no port but the loopback.
const LOOPBACK_ONLY: [&str; 2] = ["--bind-address=127.0.0.1", "--secure-port=0"];

/// The rules docs/bootstrap-and-image.md "Bootstrap static pods" states for every provider's bootstrap pod.
fn assert_bootstrap_rules(pod: &Value, platform: &str, cloud_provider: &str, image_part: &str) {
    assert_eq!(pod["apiVersion"], "v1", "{platform}");
    assert_eq!(pod["kind"], "Pod", "{platform}");
    assert_eq!(pod["metadata"]["namespace"], "kube-system", "{platform}");
    let spec = &pod["spec"];
    assert_eq!(spec["hostNetwork"], true, "{platform}");
    assert_eq!(
        spec["priorityClassName"], "system-node-critical",
        "{platform}"
    );
    assert!(spec.get("serviceAccountName").is_none() && spec.get("serviceAccount").is_none());
    let tolerated: Vec<&str> = spec["tolerations"]
        .as_array()
        .expect("tolerations")
        .iter()
        .filter_map(|t| t["key"].as_str())
        .collect();
    for taint in [
        "node.cloudprovider.kubernetes.io/uninitialized",
        "node.kubernetes.io/not-ready",
        "node-role.kubernetes.io/master",
        "node-role.kubernetes.io/control-plane",
    ] {
        assert!(tolerated.contains(&taint), "{platform}: {taint}");
    }
    for volume in spec["volumes"].as_array().expect("volumes") {
        let sources: Vec<&String> = volume
            .as_object()
            .expect("map")
            .keys()
            .filter(|k| *k != "name")
            .collect();
        assert_eq!(sources, ["hostPath"], "{platform}: only host paths");
    }
    let containers = spec["containers"].as_array().expect("containers");
    assert_eq!(containers.len(), 1);
    let c = &containers[0];
    assert_eq!(c["name"], "cloud-controller-manager");
    assert!(
        c["image"].as_str().expect("image").contains(image_part),
        "{platform}: {}",
        c["image"]
    );
    assert!(c["resources"]["requests"]["cpu"].is_string(), "{platform}");
    let script = c["command"][2].as_str().expect("script");
    // Only the node controller, by the name its CCM knows (provider.yaml spec.ccm): the alias
    // cloud-node where main.go passes the library's aliases, cloud-node-controller where it
    // passes none; the Alibaba CCM, a controller-runtime manager, calls it node and serves
    // metrics and health probes on flags of its own.
    let (controller, serving): (&str, [&str; 2]) = match platform {
        "nutanix" | "digitalocean" => ("cloud-node-controller", LOOPBACK_ONLY),
        "alicloud" => (
            "node",
            [
                "--metrics-bind-addr=0",
                "--health-probe-bind-addr=127.0.0.1:10258",
            ],
        ),
        _ => ("cloud-node", LOOPBACK_ONLY),
    };
    for flag in [
        format!("--controllers={controller}"),
        format!("--cloud-provider={cloud_provider}"),
        "--leader-elect=false".into(),
        "--use-service-account-credentials=false".into(),
        "--kubeconfig=/etc/kubernetes/bootstrap-secrets/kubeconfig".into(),
        serving[0].into(),
        serving[1].into(),
    ] {
        assert!(
            script.contains(&format!("{flag} \\")),
            "{platform}: {flag}\n{script}"
        );
    }
    // Every CCM but DigitalOcean's (an API token from the environment) reads a cloud config.
    assert_eq!(
        script.contains("--cloud-config=/etc/kubernetes/bootstrap-"),
        platform != "digitalocean",
        "{platform}"
    );
}

#[test]
fn bootstrap_pod_gets_the_proxy_spec_when_the_status_is_empty() {
    let proxy = variant("proxy-spec-only.yaml");
    let pod = bootstrap_pod("aws", &["--proxy", proxy.to_str().expect("utf8")]);
    let env = pod["spec"]["containers"][0]["env"]
        .as_array()
        .expect("env")
        .clone();
    let names: Vec<&str> = env.iter().filter_map(|e| e["name"].as_str()).collect();
    assert_eq!(names, ["HTTPS_PROXY", "NO_PROXY"]);
}

#[test]
fn bootstrap_pod_image_comes_from_images_json() {
    let dir = tempfile::tempdir().expect("tempdir");
    let images = dir.path().join("images.json");
    std::fs::write(&images, r#"{"cloudControllerManagerAWS": "registry.example.com/ocp/aws-ccm@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}"#).expect("write");
    let out_dir = dir.path().join("out");
    let infra = conformance("aws/infrastructure.yaml");
    let out = ccm_render(&[
        "render",
        "--infrastructure",
        infra.to_str().expect("utf8"),
        "--images",
        images.to_str().expect("utf8"),
        "--dest-dir",
        out_dir.to_str().expect("utf8"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pod = objects_in(&read_tree(&out_dir), "bootstrap")
        .pop_first()
        .expect("pod")
        .1;
    assert!(
        pod["spec"]["containers"][0]["image"]
            .as_str()
            .expect("image")
            .starts_with("registry.example.com/ocp/aws-ccm@sha256:")
    );
}

/// The conformance OpenStack ConfigMap names ca-bundle.pem in ca-file (and the credentials'
/// clouds.yaml in cacert) but holds no such key: the CCM would exit, so the render says so on
/// stderr, and still writes what CCCMO writes (the golden tree). With the key, no warning.
#[test]
fn openstack_ca_file_without_its_config_map_key_is_a_warning_and_the_render_is_unchanged() {
    let credentials = root().join("testdata/credentials/openstack.yaml");
    let creds = credentials.to_str().expect("utf8");
    let dir = tempfile::tempdir().expect("tempdir");
    let out = render_conformance(
        "openstack",
        "infrastructure.yaml",
        &["--credentials", creds],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let path = "/etc/kubernetes/static-pod-resources/configmaps/cloud-config/ca-bundle.pem";
    let missing = "but the cloud config ConfigMap has no ca-bundle.pem key: the OpenStack CCM cannot read that file and exits (the installer writes the cloud's CA bundle there; add the key)";
    let warnings: Vec<String> = stderr(&out)
        .lines()
        .filter(|l| l.starts_with("warning: "))
        .map(str::to_string)
        .collect();
    assert_eq!(
        warnings,
        [
            format!("warning: --cloud-config: [Global] ca-file names {path}, {missing}"),
            format!(
                "warning: --credentials: clouds.yaml clouds.openstack.cacert names {path}, {missing}"
            ),
        ]
    );
    let mut tree = read_tree(dir.path());
    tree.retain(|p, _| !p.starts_with("secrets/"));
    assert_eq!(tree, read_tree(&root().join("testdata/golden/openstack")));

    let source =
        std::fs::read_to_string(conformance("openstack/cloud-provider-config.yaml")).expect("read");
    let ca = std::fs::read_to_string(root().join("testdata/certs/one.pem")).expect("read");
    let with_key = dir.path().join("with-ca-bundle.yaml");
    let indented = ca.lines().fold(String::new(), |mut all, line| {
        all.push_str("    ");
        all.push_str(line);
        all.push('\n');
        all
    });
    std::fs::write(&with_key, format!("{source}  ca-bundle.pem: |\n{indented}")).expect("write");
    let out = ccm_render(&[
        "render",
        "--infrastructure",
        conformance("openstack/infrastructure.yaml")
            .to_str()
            .expect("utf8"),
        "--images",
        conformance("images.json").to_str().expect("utf8"),
        "--cloud-config",
        with_key.to_str().expect("utf8"),
        "--credentials",
        creds,
        "--dest-dir",
        dir.path().join("with").to_str().expect("utf8"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        !stderr(&out).contains("ca-bundle.pem key"),
        "{}",
        stderr(&out)
    );
}
