//! OpenStack: the INI text of the installer's `pkg/asset/manifests/openstack`
//! `generateCloudProviderConfig` (newest stored version, search index id 55026792619: Octavia
//! probe, OCPBUGS-64842), from the `clouds.yaml` of the credentials Secret. The Octavia probe
//! is in the installers of 4.20 on ([`InstallerRelease::probes_octavia`]); 4.18's and 4.19's
//! write the same text without it.
//!
//! The installer writes the user's cloud into the credentials Secret under the name `openstack`
//! (`pkg/asset/manifests/openshift.go`), whatever `platform.openstack.cloud` says, so that is
//! the cloud read here. What only the cloud can tell comes from flags: the ID of
//! `externalNetwork` (the installer's `networkutils.IDFromName`), whether Octavia is in the
//! catalog, and the CA bundle `cacert` names (the installer reads that file from its disk).

use super::super::OpenStack;
use super::super::facts::{self, Missing, PlatformFacts};
use super::super::installer_release::InstallerRelease;
use anyhow::{Result, anyhow, bail};
use serde_json::{Map, Value, json};
use std::fmt::Write as _;

/// The `ca-file` the installer writes when the cloud has a `cacert`: where the config's
/// `ca-bundle.pem` key is mounted.
const CA_FILE: &str = "/etc/kubernetes/static-pod-resources/configmaps/cloud-config/ca-bundle.pem";

/// What the installer reads of the cloud in clouds.yaml.
#[derive(Debug, Default, PartialEq, Eq)]
struct Cloud {
    region: String,
    has_cacert: bool,
}

pub(crate) fn derive(
    p: &OpenStack,
    facts: &PlatformFacts,
    release: InstallerRelease,
    missing: &mut Missing,
    notes: &mut Vec<String>,
    data: &mut Map<String, Value>,
) -> Result<()> {
    let cloud = cloud(facts, missing)?;
    let octavia = octavia(facts, release, notes);
    let floating_network = if octavia && !p.external_network.is_empty() {
        if let Some(id) = &facts.openstack_external_network_id {
            Some(network_id(id)?)
        } else {
            missing.need(
                facts::OPENSTACK_EXTERNAL_NETWORK_ID,
                format!("the ID of the external network {:?}", p.external_network),
            );
            None
        }
    } else {
        None
    };
    let Some(cloud) = cloud else {
        return Ok(());
    };
    let ca_bundle = if cloud.has_cacert {
        if facts.openstack_ca_cert.is_none() {
            missing.need(
                facts::OPENSTACK_CA_CERT,
                "the CA bundle the clouds.yaml cacert names",
            );
        }
        facts.openstack_ca_cert.clone()
    } else {
        None
    };
    if !missing.is_empty() {
        return Ok(());
    }
    let mut text = String::from(
        "[Global]\nsecret-name = openstack-credentials\nsecret-namespace = kube-system\n",
    );
    if !cloud.region.is_empty() {
        let _ = writeln!(text, "region = {}", cloud.region);
    }
    if cloud.has_cacert {
        let _ = writeln!(text, "ca-file = {CA_FILE}");
    }
    if !octavia {
        // Without Octavia the CCM would crash on startup unless the load balancer is off.
        text.push_str("\n[LoadBalancer]\nenabled = false\n");
    } else if let Some(id) = floating_network {
        let _ = write!(text, "\n[LoadBalancer]\nfloating-network-id = {id}\n");
    }
    data.insert("config".into(), json!(text));
    if let Some(pem) = ca_bundle {
        data.insert("ca-bundle.pem".into(), json!(pem));
    }
    Ok(())
}

/// Whether the config is written as for a cloud with Octavia: what `--openstack-octavia` says
/// (true without it, as the installer assumes when it cannot tell) where the release's installer
/// probes for it, always where it does not (the load balancer then keeps its defaults).
fn octavia(facts: &PlatformFacts, release: InstallerRelease, notes: &mut Vec<String>) -> bool {
    let name = facts::OPENSTACK_OCTAVIA;
    if !release.probes_octavia() {
        if facts.openstack_octavia == Some(false) {
            notes.push(format!(
                "{name} false: not read at OpenShift {}, whose installer does not look for Octavia and writes the load balancer's floating network whatever the cloud has (the probe comes with 4.20)",
                release.name()
            ));
        }
        return true;
    }
    facts.openstack_octavia.unwrap_or_else(|| {
        notes.push(format!(
            "no {name}: assuming the cloud has Octavia, as the installer does when it cannot tell; give {name} false for a cloud without a load-balancer service"
        ));
        true
    })
}

/// The `openstack` cloud of the credentials' clouds.yaml. Its values are secrets: errors name
/// the key, never a value.
fn cloud(facts: &PlatformFacts, missing: &mut Missing) -> Result<Option<Cloud>> {
    let Some(credentials) = &facts.credentials else {
        missing.need(
            facts::CREDENTIALS,
            "the installer's OpenStack credentials Secret, for its clouds.yaml",
        );
        return Ok(None);
    };
    let Some(value) = facts.secret_value("clouds.yaml") else {
        missing.need(
            facts::CREDENTIALS,
            format!("no Secret in {} holds clouds.yaml", credentials.path),
        );
        return Ok(None);
    };
    let at = format!("{}: clouds.yaml", credentials.path);
    parse_cloud(value.text(&at)?, &at).map(Some)
}

fn parse_cloud(text: &str, at: &str) -> Result<Cloud> {
    let docs = ccm_catalogue::yaml::documents(text)
        .map_err(|_| anyhow!("{at}: not valid YAML (details withheld: it holds secrets)"))?;
    let Some(cloud) = docs.first().and_then(|d| d.pointer("/clouds/openstack")) else {
        bail!(
            "{at}: no cloud named openstack under clouds (the installer writes the cluster's cloud under that name)"
        );
    };
    let string = |key: &str| -> Result<String> {
        match cloud.get(key) {
            None | Some(Value::Null) => Ok(String::new()),
            Some(Value::String(s)) if !s.chars().any(char::is_control) => Ok(s.trim().to_string()),
            Some(_) => bail!("{at}: clouds.openstack.{key}: expected a one-line string"),
        }
    };
    Ok(Cloud {
        region: string("region_name")?,
        has_cacert: !string("cacert")?.is_empty(),
    })
}

/// A Neutron network ID: letters, digits and dashes (it ends up in an INI line).
fn network_id(id: &str) -> Result<String> {
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
        bail!(
            "{}: {id:?} is not a network ID (letters, digits and dashes)",
            facts::OPENSTACK_EXTERNAL_NETWORK_ID
        );
    }
    Ok(id.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::credentials;
    use camino::Utf8Path;

    fn facts_with(clouds_yaml: &str) -> PlatformFacts {
        let secret = format!(
            "apiVersion: v1\nkind: Secret\nmetadata: {{name: openstack-credentials, namespace: kube-system}}\nstringData:\n  clouds.yaml: |\n    {}\n",
            clouds_yaml.replace('\n', "\n    ").trim_end()
        );
        PlatformFacts {
            credentials: Some(
                credentials::parse(&secret, Utf8Path::new("creds.yaml")).expect("secret"),
            ),
            openstack_octavia: Some(true),
            ..PlatformFacts::default()
        }
    }

    fn run(p: &OpenStack, facts: &PlatformFacts) -> (Map<String, Value>, Missing, Vec<String>) {
        run_at(p, facts, InstallerRelease::default())
    }

    fn run_at(
        p: &OpenStack,
        facts: &PlatformFacts,
        release: InstallerRelease,
    ) -> (Map<String, Value>, Missing, Vec<String>) {
        let (mut data, mut missing, mut notes) = (Map::new(), Missing::default(), Vec::new());
        derive(p, facts, release, &mut missing, &mut notes, &mut data).expect("derives");
        (data, missing, notes)
    }

    /// An install-config platform section naming only its external network.
    fn with_external_network(name: &str) -> OpenStack {
        OpenStack {
            external_network: name.into(),
            ..OpenStack::default()
        }
    }

    const CLOUDS: &str = "clouds:\n  openstack:\n    auth: {auth_url: https://k.example.com:5000/v3, password: hunter2}\n    region_name: regionOne\n";

    /// `generateCloudProviderConfig`: the region of the cloud, then the external network's ID
    /// under `[LoadBalancer]` after a blank line.
    #[test]
    fn region_and_floating_network_as_the_installer_writes_them() {
        let p = with_external_network("external");
        let facts = PlatformFacts {
            openstack_external_network_id: Some("5b4f5c5e-0000-0000-0000-000000000000".into()),
            ..facts_with(CLOUDS)
        };
        let (data, missing, notes) = run(&p, &facts);
        assert!(missing.is_empty() && notes.is_empty());
        assert_eq!(
            data["config"],
            "[Global]\nsecret-name = openstack-credentials\nsecret-namespace = kube-system\nregion = regionOne\n\n[LoadBalancer]\nfloating-network-id = 5b4f5c5e-0000-0000-0000-000000000000\n"
        );
        assert!(data.get("ca-bundle.pem").is_none());
    }

    #[test]
    fn without_octavia_the_load_balancer_is_off_and_no_network_is_needed() {
        let p = with_external_network("external");
        let facts = PlatformFacts {
            openstack_octavia: Some(false),
            ..facts_with(CLOUDS)
        };
        let (data, missing, _) = run(&p, &facts);
        assert!(missing.is_empty());
        assert!(
            data["config"]
                .as_str()
                .expect("text")
                .ends_with("region = regionOne\n\n[LoadBalancer]\nenabled = false\n")
        );
    }

    /// Octavia's probe is in the installers of 4.20 on (e99ff60c86 on the 4.20 branch, in
    /// release-4.21's newest commit held, @6285755d19); 4.18's and 4.19's write the floating
    /// network whatever the cloud has.
    #[test]
    fn octavia_is_looked_for_from_4_20() {
        let p = with_external_network("external");
        let facts = PlatformFacts {
            openstack_octavia: Some(false),
            openstack_external_network_id: Some("5b4f5c5e-0000-0000-0000-000000000000".into()),
            ..facts_with(CLOUDS)
        };
        for (release, off) in [
            ("4.18", false),
            ("4.19", false),
            ("4.20", true),
            ("4.21", true),
            ("4.22", true),
        ] {
            let (data, missing, notes) =
                run_at(&p, &facts, InstallerRelease::of(release).expect("release"));
            assert!(missing.is_empty(), "{release}");
            let text = data["config"].as_str().expect("text");
            assert_eq!(
                text.ends_with("\n[LoadBalancer]\nenabled = false\n"),
                off,
                "{release}: {text}"
            );
            assert_eq!(
                text.ends_with("floating-network-id = 5b4f5c5e-0000-0000-0000-000000000000\n"),
                !off,
                "{release}: {text}"
            );
            assert_eq!(
                notes.iter().any(|n| n.contains("not read at OpenShift")),
                !off,
                "{release}: {notes:?}"
            );
        }
    }

    #[test]
    fn octavia_defaults_to_available_with_a_note() {
        let facts = PlatformFacts {
            openstack_octavia: None,
            ..facts_with(CLOUDS)
        };
        let (data, _, notes) = run(&OpenStack::default(), &facts);
        assert_eq!(notes.len(), 1);
        assert!(
            notes[0].contains("assuming the cloud has Octavia"),
            "{notes:?}"
        );
        // No external network: no [LoadBalancer] section at all.
        assert!(
            !data["config"]
                .as_str()
                .expect("text")
                .contains("LoadBalancer")
        );
    }

    #[test]
    fn a_cacert_needs_the_bundle_and_adds_ca_file() {
        let clouds = format!("{CLOUDS}    cacert: /home/me/ca.pem\n");
        let (_, missing, _) = run(&OpenStack::default(), &facts_with(&clouds));
        assert!(
            missing
                .message("openstack")
                .contains("--openstack-ca-cert (")
        );
        let facts = PlatformFacts {
            openstack_ca_cert: Some("PEM".into()),
            ..facts_with(&clouds)
        };
        let (data, missing, _) = run(&OpenStack::default(), &facts);
        assert!(missing.is_empty());
        assert!(
            data["config"]
                .as_str()
                .expect("text")
                .ends_with(&format!("ca-file = {CA_FILE}\n"))
        );
        assert_eq!(data["ca-bundle.pem"], "PEM");
    }

    #[test]
    fn missing_facts_are_all_named() {
        let p = with_external_network("public");
        let facts = PlatformFacts {
            openstack_octavia: Some(true),
            ..PlatformFacts::default()
        };
        let (_, missing, _) = run(&p, &facts);
        let text = missing.message("openstack");
        assert!(
            text.contains("--credentials (")
                && text.contains(
                    "--openstack-external-network-id (the ID of the external network \"public\")"
                ),
            "{text}"
        );
    }

    #[test]
    fn clouds_yaml_errors_never_show_a_value() {
        for (clouds, want) in [
            (
                "clouds: {other: {region_name: hunter2}}\n",
                "no cloud named openstack",
            ),
            (
                "clouds: {openstack: {region_name: [hunter2]}}\n",
                "clouds.openstack.region_name: expected",
            ),
            (
                "clouds: {openstack: {region_name: \"hunter2\n",
                "not valid YAML",
            ),
        ] {
            let err = parse_cloud(clouds, "creds.yaml: clouds.yaml").expect_err("bad");
            let text = format!("{err:#}");
            assert!(text.contains(want) && !text.contains("hunter2"), "{text}");
        }
    }

    #[test]
    fn network_ids_are_checked() {
        assert!(network_id("abc-123").is_ok());
        assert!(network_id("a b").is_err());
        assert!(network_id("").is_err());
    }
}
