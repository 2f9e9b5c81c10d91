//! The `OpenStack` transform (CCCMO `pkg/cloud/openstack/openstack.go`): points the `OpenStack` cloud provider at the `clouds.yaml`
//! that CCCMO mounts instead of a Kubernetes secret, drops the volume settings it does not read
//! and sets `OpenShift`'s load balancer defaults. Every other key is kept as written.

use anyhow::{Result, bail};
use ccm_catalogue::platform::Platform;
use ccm_catalogue::providers::Transform;

use super::context::{Context, Transformed, require_platform};
use super::ini::parse;

/// `[Global]` keys that select the credentials; only `OpenShift`'s own values can be honoured,
/// because the transform replaces them with `clouds.yaml`. `None`: must be empty.
const REPLACED_CREDENTIALS: &[(&str, Option<&str>)] = &[
    ("secret-name", Some("openstack-credentials")),
    ("secret-namespace", Some("kube-system")),
    ("kubeconfig-path", None),
];

/// CCCMO pkg/cloud/openstack: credentials come from the mounted `clouds.yaml`.
const CLOUDS_YAML: &[(&str, &str)] = &[
    ("use-clouds", "true"),
    ("clouds-file", "/etc/openstack/secret/clouds.yaml"),
    ("cloud", "openstack"),
];

/// Where the installer points `[Global] ca-file` and clouds.yaml's `cacert` when the cloud has a
/// CA of its own (installer pkg/asset/manifests/openshift.go), writing the bundle into the cloud
/// config ConfigMap as `ca-bundle.pem`; CCCMO's Deployment and the bootstrap pod mount that
/// ConfigMap's files there.
const CLOUD_CONFIG_DIR: &str = "/etc/kubernetes/static-pod-resources/configmaps/cloud-config/";

/// Warnings for each CA file that the transformed cloud config (`[Global] ca-file`) or
/// clouds.yaml (`cacert`) names in the mounted cloud config folder when the cloud config
/// ConfigMap has no such key (`has_key`): the `OpenStack` CCM cannot read it and exits. CCCMO
/// renders such a ConfigMap as it is, and so does ccm-render: this only says so.
pub(crate) fn missing_ca_files(
    cloud_conf: &str,
    clouds_yaml: Option<&str>,
    has_key: &dyn Fn(&str) -> bool,
) -> Vec<String> {
    let mut named = Vec::new();
    if let Ok((ini, _)) = parse(cloud_conf)
        && let Some(path) = ini.section("Global", None).and_then(|g| g.get("ca-file"))
    {
        named.push((
            "--cloud-config: [Global] ca-file".to_string(),
            path.to_string(),
        ));
    }
    let clouds = clouds_yaml
        .and_then(|text| ccm_catalogue::yaml::documents(text).ok())
        .and_then(|mut docs| (!docs.is_empty()).then(|| docs.swap_remove(0)));
    if let Some(serde_json::Value::Object(clouds)) = clouds.as_ref().and_then(|d| d.get("clouds")) {
        for (name, cloud) in clouds {
            if let Some(path) = cloud.get("cacert").and_then(serde_json::Value::as_str) {
                named.push((
                    format!("--credentials: clouds.yaml clouds.{name}.cacert"),
                    path.to_string(),
                ));
            }
        }
    }
    named
        .into_iter()
        .filter_map(|(what, path)| {
            let key = path.strip_prefix(CLOUD_CONFIG_DIR)?;
            (!has_key(key)).then(|| {
                format!(
                    "{what} names {path}, but the cloud config ConfigMap has no {key} key: the OpenStack CCM cannot read that file and exits (the installer writes the cloud's CA bundle there; add the key)"
                )
            })
        })
        .collect()
}

/// The `OpenStack` transform.
pub(crate) fn transform(source: &str, ctx: &Context<'_>) -> Result<Transformed> {
    require_platform(ctx, Platform::OpenStack, Transform::OpenStack)?;
    let (mut ini, mut warnings) = parse(source)?;

    let global = ini.ensure_section("Global", None);
    // CCCMO checks these in Go map order and fails when secret-name or secret-namespace is
    // missing; here they are checked in a fixed order and may be left out (docs/differences-from-cccmo.md).
    for (key, required) in REPLACED_CREDENTIALS {
        for value in global.remove(key) {
            let value = value.unwrap_or_default();
            match required {
                Some(required) if value != *required => bail!(
                    "[Global] {key} is set to {value:?}; ccm-render only supports {required:?}"
                ),
                None if !value.is_empty() => bail!(
                    "[Global] {key} is set to {value:?}; ccm-render only supports leaving it empty"
                ),
                _ => {}
            }
        }
    }
    for (key, value) in CLOUDS_YAML {
        if let Some(old) = global.set(key, value)
            && !old.eq_ignore_ascii_case(value)
        {
            warnings.push(format!(
                "[Global] {key} {old:?} replaced by {value:?}: the cloud controller manager reads the clouds.yaml CCCMO mounts"
            ));
        }
    }

    // The in-tree volume settings are for the Cinder CSI driver, not the CCM.
    ini.remove_sections("BlockStorage");

    // OpenShift's load balancer defaults; `use-octavia` is obsolete (Octavia is the only choice).
    let lb = ini.ensure_section("LoadBalancer", None);
    lb.remove("use-octavia");
    for (key, value) in [("max-shared-lb", "1"), ("manage-security-groups", "true")] {
        if !lb.contains(key) {
            lb.push(key, value);
        }
    }

    Ok(Transformed {
        text: ini.to_text(),
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::*;
    use pretty_assertions::assert_eq;
    use proptest::prelude::*;

    const EXPECTED: &str = "[Global]\n\
use-clouds  = true\n\
clouds-file = /etc/openstack/secret/clouds.yaml\n\
cloud       = openstack\n\
\n\
[LoadBalancer]\n\
max-shared-lb          = 1\n\
manage-security-groups = true\n";

    const DEFAULT_GLOBAL: &str =
        "[Global]\nsecret-name = openstack-credentials\nsecret-namespace = kube-system\n";

    fn run(source: &str) -> Result<Transformed> {
        let infra = infra("OpenStack");
        transform(source, &ctx(&infra, &no_gates))
    }

    fn text(source: &str) -> String {
        run(source).expect("transforms").text
    }

    #[test]
    fn openstack_needs_an_openstack_infrastructure() {
        let aws = infra("AWS");
        let err = transform("", &ctx(&aws, &no_gates)).expect_err("wrong platform");
        assert!(format!("{err:#}").contains("platform OpenStack"), "{err}");
    }

    const CA_FILE: &str =
        "/etc/kubernetes/static-pod-resources/configmaps/cloud-config/ca-bundle.pem";

    #[test]
    fn a_ca_file_the_config_map_does_not_hold_is_a_warning_for_each_file_that_names_it() {
        let conf = format!("[Global]\nca-file = {CA_FILE}\n");
        let clouds = format!("clouds:\n  openstack:\n    cacert: {CA_FILE}\n");
        let none = missing_ca_files(&conf, Some(&clouds), &|_| false);
        assert_eq!(none.len(), 2, "{none:?}");
        assert!(
            none[0].starts_with(&format!(
                "--cloud-config: [Global] ca-file names {CA_FILE}, but the cloud config ConfigMap has no ca-bundle.pem key"
            )),
            "{}",
            none[0]
        );
        assert!(
            none[1].starts_with("--credentials: clouds.yaml clouds.openstack.cacert names "),
            "{}",
            none[1]
        );
        assert!(missing_ca_files(&conf, Some(&clouds), &|k| k == "ca-bundle.pem").is_empty());
    }

    #[test]
    fn a_ca_file_elsewhere_or_none_is_not_a_warning() {
        let own = "[Global]\nca-file = /etc/pki/my-ca.pem\n";
        assert!(missing_ca_files(own, None, &|_| false).is_empty());
        assert!(missing_ca_files(EXPECTED, Some("clouds: {}\n"), &|_| false).is_empty());
    }

    #[test]
    fn openstack_missing_global_is_created() {
        assert_eq!(text(""), EXPECTED);
    }

    #[test]
    fn openstack_default_credentials_are_replaced_and_block_storage_dropped() {
        assert_eq!(
            text(&format!(
                "{DEFAULT_GLOBAL}[BlockStorage]\nbs-version = v2\n"
            )),
            EXPECTED
        );
    }

    #[test]
    fn openstack_existing_load_balancer_loses_use_octavia_and_keeps_its_values() {
        let source = format!(
            "{DEFAULT_GLOBAL}[BlockStorage]\nx = 1\n[LoadBalancer]\nmax-shared-lb = 1\nmanage-security-groups = true\nuse-octavia = false\n"
        );
        assert_eq!(text(&source), EXPECTED);
        let own = text("[LoadBalancer]\nmax-shared-lb = 3\nenabled = false\n");
        assert!(own.contains("max-shared-lb          = 3\nenabled                = false\nmanage-security-groups = true\n"), "{own}");
    }

    #[test]
    fn openstack_missing_secret_keys_are_not_an_error() {
        assert_eq!(text("[Global]\n"), EXPECTED);
    }

    #[test]
    fn openstack_non_default_credentials_are_errors() {
        for (source, needle) in [
            (
                "[Global]\nsecret-namespace = foo\n",
                "[Global] secret-namespace is set to \"foo\"; ccm-render only supports \"kube-system\"",
            ),
            (
                "[Global]\nsecret-name = foo\n",
                "[Global] secret-name is set to \"foo\"; ccm-render only supports \"openstack-credentials\"",
            ),
            (
                "[Global]\nkubeconfig-path = https://foo\n",
                "[Global] kubeconfig-path is set to \"https://foo\"",
            ),
            (
                "[Global]\nsecret-name\n",
                "[Global] secret-name is set to \"\"",
            ),
        ] {
            let err = format!("{:#}", run(source).expect_err(source));
            assert!(err.contains(needle), "{err}");
        }
        // A fixed order: secret-name is reported first whatever the file order.
        let err = run("[Global]\nsecret-namespace = a\nsecret-name = b\n").expect_err("both");
        assert!(
            format!("{err:#}").contains("secret-name is set to \"b\""),
            "{err}"
        );
    }

    #[test]
    fn openstack_other_keys_and_sections_are_kept_in_place() {
        let out =
            text("[Global]\nregion = r1\ncloud = mine\n[Metadata]\nsearch-order = configDrive\n");
        assert_eq!(
            out,
            "[Global]\nregion      = r1\ncloud       = openstack\nuse-clouds  = true\nclouds-file = /etc/openstack/secret/clouds.yaml\n\n\
             [Metadata]\nsearch-order = configDrive\n\n\
             [LoadBalancer]\nmax-shared-lb          = 1\nmanage-security-groups = true\n"
        );
        let warned = run("[Global]\ncloud = mine\n").expect("ok").warnings;
        assert_eq!(warned.len(), 1, "{warned:?}");
    }

    #[test]
    fn openstack_values_with_hash_semicolon_and_quotes_survive() {
        let out = text("[Global]\npassword = \"p#ss;w\\\"rd\"\n");
        assert!(out.contains("password    = \"p#ss;w\\\"rd\""), "{out}");
        let back = parse(&out).expect("gcfg syntax").0;
        assert_eq!(
            back.section("Global", None).and_then(|s| s.get("password")),
            Some("p#ss;w\"rd")
        );
    }

    #[test]
    fn openstack_glued_comment_is_reported_without_the_value() {
        let out = run("[Global]\npassword = abc#def\n").expect("ok");
        assert_eq!(out.warnings.len(), 1);
        assert!(!out.warnings[0].contains("def"), "{:?}", out.warnings);
    }

    #[test]
    fn openstack_conformance_case_is_byte_for_byte() {
        let infra = conformance_yaml("openstack/infrastructure.yaml");
        let out = transform(&conformance_source("openstack"), &ctx(&infra, &no_gates)).expect("ok");
        assert_eq!(out.text, conformance_expected("openstack"));
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    }

    fn openstack_source() -> impl Strategy<Value = String> {
        let line = prop_oneof![
            Just("[Global]".to_owned()),
            Just("[LoadBalancer]".to_owned()),
            Just("[BlockStorage]".to_owned()),
            Just("[Metadata]".to_owned()),
            Just("secret-name = openstack-credentials".to_owned()),
            Just("secret-namespace = kube-system".to_owned()),
            Just("kubeconfig-path =".to_owned()),
            Just("use-octavia = true".to_owned()),
            Just("max-shared-lb = 2".to_owned()),
            Just("cloud = other".to_owned()),
            "[^\u{0}\r\n\"\\\\]{0,12}".prop_map(|v| format!("password = \"{v}\"")),
        ];
        proptest::collection::vec(line, 0..10)
            .prop_map(|lines| format!("[Global]\n{}\n", lines.join("\n")))
    }

    proptest! {
        #[test]
        fn openstack_transform_is_idempotent(source in openstack_source()) {
            let once = text(&source);
            let twice = text(&once);
            prop_assert_eq!(&twice, &once);
        }
    }
}
