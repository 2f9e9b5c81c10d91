//! The installer's own unit tests of its cloud-provider-config generators as golden cases:
//! `testdata/installer-tests/cloud-provider-config/<case>/` holds each test case's inputs
//! rebuilt as an install-config (`install-config.yaml`, with `case.yaml` naming the installer
//! file, test, case and version it comes from, the infrastructure name and flags, and the
//! releases whose installer writes that text) and the `config` text exactly as the test states
//! it (`config`). Each is rendered through the binary at each of its releases and the derived
//! ConfigMap's `config` compared byte for byte. The README there lists the installer test
//! cases no install-config can express, and why. Also: the fields of these generators that an
//! older installer does not have are refused at that release, naming the release that brings
//! them, with nothing written.

use crate::common;

use common::*;
use pretty_assertions::assert_eq;
use serde::Deserialize;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// `case.yaml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Case {
    source: Source,
    infrastructure_name: String,
    releases: Vec<String>,
    flags: Vec<String>,
    note: Option<String>,
}

/// Where a case comes from in openshift/installer.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Source {
    file: String,
    test: String,
    case: String,
    version: String,
}

fn cases_dir() -> PathBuf {
    root().join("testdata/installer-tests/cloud-provider-config")
}

/// Every case folder, by name.
fn cases() -> Vec<(String, PathBuf, Case)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(cases_dir()).expect("the cases folder") {
        let path = entry.expect("an entry").path();
        if !path.is_dir() {
            continue;
        }
        let name = path
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        let text = std::fs::read_to_string(path.join("case.yaml")).expect("case.yaml");
        let case: Case = ccm_catalogue::yaml::from_str(&text)
            .unwrap_or_else(|e| panic!("{name}/case.yaml: {e}"));
        out.push((name, path, case));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Runs `ccm-render render` of `install_config` at `release`, the objects also emitted to
/// `emit`, into `dest`.
fn run_render(
    install_config: &Path,
    infra: &str,
    release: &str,
    flags: &[String],
    emit: &Path,
    dest: &Path,
) -> std::process::Output {
    let images = conformance("images.json");
    let mut args = vec![
        "render",
        "--install-config",
        s(install_config),
        "--images",
        s(&images),
        "--infrastructure-name",
        infra,
        "--release",
        release,
        "--emit-infrastructure",
        s(emit),
        "--dest-dir",
        s(dest),
    ];
    args.extend(flags.iter().map(String::as_str));
    ccm_render(&args)
}

/// Renders `install_config` at `release` with `--emit-infrastructure`; returns the exit
/// status, stderr and the emitted objects.
fn render(
    install_config: &Path,
    infra: &str,
    release: &str,
    flags: &[String],
    dir: &Path,
) -> (Option<i32>, String, Vec<Value>) {
    let emit = dir.join("emitted.yaml");
    let out = run_render(
        install_config,
        infra,
        release,
        flags,
        &emit,
        &dir.join("out"),
    );
    let objects = std::fs::read_to_string(&emit)
        .map(|text| parse_all(&text))
        .unwrap_or_default();
    (out.status.code(), stderr(&out), objects)
}

/// The `config` key of the emitted cloud-provider-config ConfigMap.
fn config_text(objects: &[Value]) -> Option<String> {
    objects
        .iter()
        .find(|o| o["kind"] == "ConfigMap" && o["metadata"]["name"] == "cloud-provider-config")
        .and_then(|o| o["data"]["config"].as_str())
        .map(String::from)
}

#[test]
fn every_installer_test_case_renders_its_expected_cloud_config_at_each_of_its_releases() {
    let cases = cases();
    assert_eq!(cases.len(), 21, "the carried cases (README.md counts them)");
    for (name, path, case) in &cases {
        assert!(
            case.source.file.starts_with("pkg/asset/manifests/")
                && case.source.file.ends_with("_test.go")
                && !case.source.test.is_empty()
                && !case.source.case.is_empty()
                && !case.source.version.is_empty(),
            "{name}: case.yaml names the installer file, test, case and version"
        );
        assert!(!case.releases.is_empty(), "{name}: no release");
        assert!(
            case.note.as_deref().is_some_and(|n| !n.is_empty()),
            "{name}: a note says what the install-config adds to the test's inputs"
        );
        let want = std::fs::read_to_string(path.join("config")).expect("config");
        for release in &case.releases {
            let dir = tempfile::tempdir().expect("tempdir");
            let (code, err, objects) = render(
                &path.join("install-config.yaml"),
                &case.infrastructure_name,
                release,
                &case.flags,
                dir.path(),
            );
            assert_eq!(code, Some(0), "{name} at {release}: {err}");
            let got = config_text(&objects)
                .unwrap_or_else(|| panic!("{name} at {release}: no cloud-provider-config"));
            assert_eq!(
                got, want,
                "{name} at {release}: not the installer test's text"
            );
        }
    }
}

#[test]
fn the_readme_lists_every_carried_case_and_the_cases_not_carried() {
    let readme = std::fs::read_to_string(cases_dir().join("README.md")).expect("README.md");
    for (name, _, case) in cases() {
        assert!(
            readme.contains(&format!("`{name}`")),
            "README.md does not list {name}"
        );
        assert!(
            readme.contains(&case.source.file),
            "README.md does not name {}",
            case.source.file
        );
    }
    for not_carried in [
        "pkg/asset/manifests/azure/cloudproviderconfig_test.go",
        "pkg/asset/manifests/vsphere/cloudproviderconfig_test.go",
        "pkg/asset/manifests/openstack/cloudproviderconfig_test.go",
        "pkg/asset/manifests/aws/cloudproviderconfig_test.go",
    ] {
        assert!(
            readme.contains(not_carried),
            "README.md says nothing of {not_carried}"
        );
    }
}

/// A case's install-config with `edit` applied to its text, written under `dir`.
fn edited(case: &str, dir: &Path, edit: impl FnOnce(String) -> String) -> PathBuf {
    let text = std::fs::read_to_string(cases_dir().join(case).join("install-config.yaml"))
        .expect("install-config.yaml");
    let path = dir.join("install-config.yaml");
    std::fs::write(&path, edit(text)).expect("write");
    path
}

/// Runs a render that must be refused: exit 2, one line holding `message`, and a
/// pre-populated `--dest-dir` left as it was. Returns the line.
fn assert_refused(install_config: &Path, infra: &str, release: &str, message: &str) -> String {
    let dest = tempfile::tempdir().expect("tempdir");
    std::fs::write(dest.path().join("keep.txt"), "untouched").expect("write");
    let emit = dest.path().join("emitted.yaml");
    let err = assert_refused_untouched(
        dest.path(),
        || run_render(install_config, infra, release, &[], &emit, dest.path()),
        message,
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

#[test]
fn fields_an_older_installer_does_not_have_are_refused_naming_the_release_that_brings_them() {
    let dir = tempfile::tempdir().expect("tempdir");
    let psc = cases_dir().join("gcp-psc-endpoint/install-config.yaml");
    assert_refused(
        &psc,
        "uid",
        "4.20",
        "install-config.yaml: platform.gcp.endpoint: the installer of OpenShift 4.20 has no such field; it arrives in 4.21 (render with --release 4.21 or later, or leave the field out)",
    );
    let dual = cases_dir().join("aws-dualstack-ipv4-primary/install-config.yaml");
    // One check for the field, whichever objects it changes (the cloud config's
    // NodeIPFamilies and the Infrastructure's ipFamily).
    assert_refused(
        &dual,
        "test-infra-id",
        "4.21",
        "install-config.yaml: platform.aws.ipFamily: \"DualStackIPv4Primary\": the installer of OpenShift 4.21 has no such field; it arrives in 4.22",
    );
    let managed = edited("gcp-default", dir.path(), |text| {
        text.replace(
            "    region: us-central1\n",
            "    region: us-central1\n    firewallRulesManagement: Managed\n",
        )
    });
    assert_refused(
        &managed,
        "uid",
        "4.18",
        "platform.gcp.firewallRulesManagement: \"Managed\": the installer of OpenShift 4.18 has no such field; it arrives in 4.21",
    );
    // From 4.21, Managed (the installer's default) is what the default case writes.
    let out = tempfile::tempdir().expect("tempdir");
    let (code, err, objects) = render(&managed, "uid", "4.21", &[], out.path());
    assert_eq!(code, Some(0), "{err}");
    let want =
        std::fs::read_to_string(cases_dir().join("gcp-default-4.21/config")).expect("config");
    assert_eq!(config_text(&objects).as_deref(), Some(want.as_str()));
}

/// `firewallRulesManagement: Unmanaged` turns the cloud provider's firewall management off
/// from 4.21 (installer release-4.21 `pkg/asset/manifests/cloudproviderconfig.go`:
/// `FirewallManagementDisabled`): the test's text with `Disabled` for `Enabled`. A value the
/// installer's validation does not know is refused, and so is a PSC endpoint without a name.
#[test]
fn gcp_unmanaged_firewall_rules_disable_the_cloud_providers_management() {
    let dir = tempfile::tempdir().expect("tempdir");
    let unmanaged = edited("gcp-network-project-4.21", dir.path(), |text| {
        text.replace(
            "    region: us-central1\n",
            "    region: us-central1\n    firewallRulesManagement: Unmanaged\n",
        )
    });
    let want = std::fs::read_to_string(cases_dir().join("gcp-network-project-4.21/config"))
        .expect("config")
        .replace(
            "firewall-rules-management = Enabled\n",
            "firewall-rules-management = Disabled\n",
        );
    for release in ["4.21", "4.23"] {
        let out = tempfile::tempdir().expect("tempdir");
        let (code, err, objects) = render(&unmanaged, "uid", release, &[], out.path());
        assert_eq!(code, Some(0), "{release}: {err}");
        assert_eq!(
            config_text(&objects).as_deref(),
            Some(want.as_str()),
            "{release}"
        );
    }
    let other = tempfile::tempdir().expect("tempdir");
    let unknown = edited("gcp-default-4.21", other.path(), |text| {
        text.replace(
            "    region: us-central1\n",
            "    region: us-central1\n    firewallRulesManagement: managed\n",
        )
    });
    assert_refused(
        &unknown,
        "uid",
        "4.23",
        "platform.gcp.firewallRulesManagement: \"managed\": supported values: \"Managed\", \"Unmanaged\"",
    );
    let unnamed = tempfile::tempdir().expect("tempdir");
    let named = edited("gcp-psc-endpoint", unnamed.path(), |text| {
        text.replace("name: testendpoint", "name: \"\"")
    });
    assert_refused(
        &named,
        "uid",
        "4.23",
        "platform.gcp.endpoint.name: required",
    );
}

/// 4.19 and 4.20 take the overrides from `platform.gcp.serviceEndpoints` named `Compute` and
/// `Container`: 4.19 as given, and the Infrastructure's list sorted by name
/// (`OCPBUGS-79002-release-4.19` `pkg/asset/manifests/cloudproviderconfig.go` and
/// `infrastructure.go`); 4.20 through `FormatGCPEndpoint` (`OCPBUGS-74390-release-4.20`
/// `pkg/asset/installconfig/gcp/services.go`): the cloud config's with the service's path, the
/// Infrastructure's without a trailing `/`, in the given order.
#[test]
fn gcp_service_endpoints_give_the_overrides_at_4_19_and_4_20() {
    let dir = tempfile::tempdir().expect("tempdir");
    let with_endpoints = edited("gcp-default", dir.path(), |text| {
        text.replace(
            "    region: us-central1\n",
            "    region: us-central1\n    serviceEndpoints:\n    - name: Container\n      url: https://container-x.p.googleapis.com/\n    - name: Compute\n      url: https://compute-x.p.googleapis.com/compute/v1/\n    - name: Storage\n      url: https://storage-x.p.googleapis.com\n",
        )
        .replace("apiVersion: v1\n", "apiVersion: v1\nfeatureSet: TechPreviewNoUpgrade\n")
    });
    let head = std::fs::read_to_string(cases_dir().join("gcp-default/config")).expect("config");
    let head = head.strip_suffix("\n\n").expect("blank line");
    let status = |pairs: &[(&str, &str)]| -> Value {
        pairs
            .iter()
            .map(|(name, url)| serde_json::json!({"name": name, "url": url}))
            .collect()
    };
    for (release, api, container, endpoints) in [
        (
            "4.19",
            "https://compute-x.p.googleapis.com/compute/v1/",
            "https://container-x.p.googleapis.com/",
            status(&[
                ("Compute", "https://compute-x.p.googleapis.com/compute/v1/"),
                ("Container", "https://container-x.p.googleapis.com/"),
                ("Storage", "https://storage-x.p.googleapis.com"),
            ]),
        ),
        (
            "4.20",
            "https://compute-x.p.googleapis.com/compute/v1/",
            "https://container-x.p.googleapis.com/container/v1/",
            status(&[
                ("Container", "https://container-x.p.googleapis.com"),
                ("Compute", "https://compute-x.p.googleapis.com/compute/v1"),
                ("Storage", "https://storage-x.p.googleapis.com"),
            ]),
        ),
    ] {
        let out = tempfile::tempdir().expect("tempdir");
        let (code, err, objects) = render(&with_endpoints, "uid", release, &[], out.path());
        assert_eq!(code, Some(0), "{release}: {err}");
        let want =
            format!("{head}\napi-endpoint = {api}\ncontainer-api-endpoint = {container}\n\n");
        assert_eq!(config_text(&objects), Some(want), "{release}");
        let infrastructure = objects
            .iter()
            .find(|o| o["kind"] == "Infrastructure")
            .expect("an Infrastructure");
        assert_eq!(
            infrastructure["status"]["platformStatus"]["gcp"]["serviceEndpoints"], endpoints,
            "{release}"
        );
    }
    // TagManager is a service of 4.19's installer, not of 4.20's.
    let tags = tempfile::tempdir().expect("tempdir");
    let tag_manager = edited("gcp-default", tags.path(), |text| {
        text.replace(
            "    region: us-central1\n",
            "    region: us-central1\n    serviceEndpoints:\n    - name: TagManager\n      url: https://tags.example.com\n",
        )
        .replace("apiVersion: v1\n", "apiVersion: v1\nfeatureSet: TechPreviewNoUpgrade\n")
    });
    let out = tempfile::tempdir().expect("tempdir");
    let (code, err, _) = render(&tag_manager, "uid", "4.19", &[], out.path());
    assert_eq!(code, Some(0), "{err}");
    assert_refused(
        &tag_manager,
        "uid",
        "4.20",
        "platform.gcp.serviceEndpoints[0].name: \"TagManager\": supported values at OpenShift 4.20",
    );
}

/// Azure's `useManagedIdentityExtension` from 4.19 follows `InstallConfig.CreateAzureIdentity`
/// (installer `pkg/types/utils.go`, as openshift/installer-aro-wrapper vendors it on
/// `release-4.19`, commit 7e30b7d6b421): with the VMs' identities all given, the installer
/// creates none and the config says so. 4.18 (`release-4.18`, commit 14cd7a64e088) always
/// turns it on, and its `pkg/types/azure` MachinePool has no `identity` (release-4.18
/// @9094202399): the field it would ignore is refused there, naming 4.19.
#[test]
fn azure_managed_identity_follows_the_vm_identities_from_4_19() {
    let text =
        std::fs::read_to_string(root().join("testdata/install-config/azure/install-config.yaml"))
            .expect("the Azure case");
    let text = text.replace(
        "    region: centralus\n",
        "    region: centralus\n    defaultMachinePlatform:\n      identity:\n        type: UserAssigned\n        userAssignedIdentities:\n        - name: id1\n          resourceGroup: rg\n          subscription: sub\n",
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("install-config.yaml");
    std::fs::write(&path, text).expect("write");
    let credentials = root().join("testdata/credentials/azure.yaml");
    let flags = vec!["--credentials".to_string(), s(&credentials).to_string()];
    assert_refused(
        &path,
        "mycluster-abcde",
        "4.18",
        "platform.azure.defaultMachinePlatform.identity: the installer of OpenShift 4.18 has no such field; it arrives in 4.19",
    );
    for (release, want) in [("4.19", false), ("4.23", false)] {
        let out = tempfile::tempdir().expect("tempdir");
        let (code, err, objects) = render(&path, "mycluster-abcde", release, &flags, out.path());
        assert_eq!(code, Some(0), "{release}: {err}");
        let config: Value =
            serde_json::from_str(&config_text(&objects).expect("config")).expect("JSON");
        assert_eq!(config["useManagedIdentityExtension"], want, "{release}");
    }
}

/// PowerVS's template gained `rmEndpointOverride` at 4.19 (powervs/cloudproviderconfig.go as
/// openshift/installer-aro-wrapper vendors it on `release-4.18` and `release-4.19`).
#[test]
fn powervs_at_4_18_has_no_resource_manager_override_line() {
    let path = root().join("testdata/install-config/powervs/install-config.yaml");
    let credentials = root().join("testdata/credentials/powervs.yaml");
    let flags: Vec<String> = [
        "--credentials",
        s(&credentials),
        "--ibm-instance-crn",
        "crn:v1:bluemix:public:internet-svcs:global:a/1e1f75646aef447814a6d907cc83fb3c:5d6a7ad2-4f0c-4d7b-9a1e-6c1c7b1d2e3f::",
        "--powervs-vpc-subnets",
        "mycluster-abcde-subnet",
    ]
    .map(String::from)
    .into();
    let newest = std::fs::read_to_string(
        root().join("testdata/install-config/powervs/expected-cloud-provider-config.yaml"),
    )
    .expect("expected");
    let newest = config_text(&parse_all(&newest)).expect("the expected config");
    assert!(newest.contains("\nrmEndpointOverride = \n"), "{newest}");
    for (release, want) in [
        ("4.18", newest.replace("rmEndpointOverride = \n", "")),
        ("4.19", newest.clone()),
    ] {
        let out = tempfile::tempdir().expect("tempdir");
        let (code, err, objects) = render(&path, "mycluster-abcde", release, &flags, out.path());
        assert_eq!(code, Some(0), "{release}: {err}");
        assert_eq!(config_text(&objects), Some(want), "{release}");
    }
}

/// vSphere's yaml.v2 `CommonConfigYAML` form (4.18 in the Default set, to 4.22) for a vCenter
/// without a port: `CloudProviderConfigYaml` writes 443 (`vCenterPort := int32(443)`, installer
/// `pkg/asset/manifests/vsphere/cloudproviderconfig.go` blob 21a793ee65 on `release-4.18` to
/// `release-4.21`), where 4.23's library-go form leaves the port out. The installer's own test
/// of the form, whose vCenter gives 443, is the `vsphere-common-config-yaml` case. OKD at 4.18
/// keeps the INI form (`VSphereMultiVCenters` is off there).
#[test]
fn vsphere_common_config_yaml_defaults_an_unset_port_to_443() {
    let path = root().join("testdata/install-config/vsphere/install-config.yaml");
    let want = "global:\n  user: \"\"\n  password: \"\"\n  server: \"\"\n  port: 0\n  insecureFlag: true\n  datacenters: []\n  soapRoundtripCount: 0\n  caFile: \"\"\n  thumbprint: \"\"\n  secretName: vsphere-creds\n  secretNamespace: kube-system\n  secretsDirectory: \"\"\n  apiDisable: false\n  apiBinding: \"\"\n  ipFamily: []\nvcenter:\n  vcenter.example.com:\n    user: \"\"\n    password: \"\"\n    tenantref: \"\"\n    server: vcenter.example.com\n    port: 443\n    insecureFlag: true\n    datacenters:\n    - DC1\n    soapRoundtripCount: 0\n    caFile: \"\"\n    thumbprint: \"\"\n    secretref: \"\"\n    secretName: \"\"\n    secretNamespace: \"\"\n    ipFamily: []\nlabels:\n  zone: openshift-zone\n  region: openshift-region\n";
    for release in ["4.18", "4.19", "4.20", "4.21", "4.22"] {
        let out = tempfile::tempdir().expect("tempdir");
        let (code, err, objects) = render(&path, "mycluster-abcde", release, &[], out.path());
        assert_eq!(code, Some(0), "{release}: {err}");
        assert_eq!(config_text(&objects).as_deref(), Some(want), "{release}");
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let okd = dir.path().join("install-config.yaml");
    let text = std::fs::read_to_string(&path).expect("the vSphere case");
    std::fs::write(&okd, format!("featureSet: OKD\n{text}")).expect("write");
    let out = tempfile::tempdir().expect("tempdir");
    let (code, err, objects) = render(&okd, "mycluster-abcde", "4.18", &[], out.path());
    assert_eq!(code, Some(0), "{err}");
    assert!(
        config_text(&objects).is_some_and(|t| t.starts_with("[Global]\n")),
        "OKD at 4.18: the INI form"
    );
}

/// Azure's `subnets` from 4.21 (installer release-4.21 `pkg/asset/manifests/cloudproviderconfig.go`,
/// a9af27250b): `subnetName` is the first subnet of role `node`; `computeSubnet`, deprecated,
/// is appended to `subnets` when the install-config is loaded (`pkg/types/conversion`
/// `convertAzure`), so it names the subnet only when no `node` subnet comes before it. Before
/// 4.21 the field does not exist and is refused, naming 4.21.
#[test]
fn azure_subnet_name_is_the_first_node_subnet_from_4_21() {
    let text =
        std::fs::read_to_string(root().join("testdata/install-config/azure/install-config.yaml"))
            .expect("the Azure case");
    let network =
        "    region: centralus\n    virtualNetwork: myvnet\n    networkResourceGroupName: netrg\n";
    let with = |extra: &str| text.replace("    region: centralus\n", &format!("{network}{extra}"));
    let subnets = with(
        "    computeSubnet: legacy-workers\n    subnets:\n    - name: cp-sub\n      role: control-plane\n    - name: node-a\n      role: node\n    - name: node-b\n      role: node\n",
    );
    let legacy = with("    controlPlaneSubnet: cp-sub\n    computeSubnet: legacy-workers\n");
    let credentials = root().join("testdata/credentials/azure.yaml");
    let flags = vec!["--credentials".to_string(), s(&credentials).to_string()];
    let subnet_name = |install_config: &str, release: &str| -> String {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("install-config.yaml");
        std::fs::write(&path, install_config).expect("write");
        let out = tempfile::tempdir().expect("tempdir");
        let (code, err, objects) = render(&path, "mycluster-abcde", release, &flags, out.path());
        assert_eq!(code, Some(0), "{release}: {err}");
        let config: Value =
            serde_json::from_str(&config_text(&objects).expect("config")).expect("JSON");
        config["subnetName"]
            .as_str()
            .expect("subnetName")
            .to_string()
    };
    assert_eq!(subnet_name(&subnets, "4.21"), "node-a");
    assert_eq!(subnet_name(&subnets, "4.23"), "node-a");
    for release in ["4.18", "4.20", "4.21", "4.23"] {
        assert_eq!(subnet_name(&legacy, release), "legacy-workers", "{release}");
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("install-config.yaml");
    std::fs::write(&path, &subnets).expect("write");
    assert_refused(
        &path,
        "mycluster-abcde",
        "4.20",
        "platform.azure.subnets: the installer of OpenShift 4.20 has no such field; it arrives in 4.21",
    );
    // From 4.21 the converted list is checked: one control-plane subnet at most.
    let two = with(
        "    controlPlaneSubnet: cp-old\n    subnets:\n    - name: cp-sub\n      role: control-plane\n",
    );
    std::fs::write(&path, two).expect("write");
    assert_refused(
        &path,
        "mycluster-abcde",
        "4.21",
        "platform.azure.subnets: CAPZ currently does not support multiple control plane subnets",
    );
}
