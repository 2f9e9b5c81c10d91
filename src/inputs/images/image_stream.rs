//! The release payload's `image-references` ImageStream (`image.openshift.io/v1`), as
//! `oc adm release extract` writes it: `metadata.name` is the release version and
//! `spec.tags[]` names every component image of the release (`name` + `from.name`).
//!
//! The tags are turned into images.json keys by CCCMO's own naming. CCCMO's
//! `manifests/0000_26_cloud-controller-manager-operator_01_images.configmap.yaml` gives each
//! images.json key a placeholder `quay.io/openshift/origin-<tag>`, and its
//! `manifests/image-references` declares each `<tag>` with that same placeholder as `from.name`;
//! building the release (`oc adm release new`) replaces every placeholder in the manifests by
//! the image of the tag. So the key whose placeholder is `origin-<tag>` gets the image of tag
//! `<tag>`: [`KEY_TAGS`] is that pairing, read off those two files (a unit test checks it
//! against `testdata/conformance/images.json`, CCCMO's images.json).

use super::super::shown;
use anyhow::{Context as _, Result, bail};
use camino::Utf8Path;
use serde_json::Value;
use std::collections::BTreeMap;

/// images.json key → `image-references` tag, from CCCMO's images ConfigMap and image-references
/// (main, 2026-07; `cloudControllerManagerAlibaba` from the releases that still shipped it,
/// up to 4.18's ConfigMap at commit 0641bc61).
pub(crate) const KEY_TAGS: &[(&str, &str)] = &[
    (
        "cloudControllerManagerOperator",
        "cluster-cloud-controller-manager-operator",
    ),
    (
        "cloudControllerManagerAlibaba",
        "alibaba-cloud-controller-manager",
    ),
    ("cloudControllerManagerAWS", "aws-cloud-controller-manager"),
    (
        "cloudControllerManagerAzure",
        "azure-cloud-controller-manager",
    ),
    ("cloudNodeManagerAzure", "azure-cloud-node-manager"),
    ("cloudControllerManagerGCP", "gcp-cloud-controller-manager"),
    ("cloudControllerManagerIBM", "ibm-cloud-controller-manager"),
    (
        "cloudControllerManagerOpenStack",
        "openstack-cloud-controller-manager",
    ),
    (
        "cloudControllerManagerPowerVS",
        "powervs-cloud-controller-manager",
    ),
    (
        "cloudControllerManagerVSphere",
        "vsphere-cloud-controller-manager",
    ),
    (
        "cloudControllerManagerNutanix",
        "nutanix-cloud-controller-manager",
    ),
];

/// The tag an images.json key is read from, when the key is one of CCCMO's.
pub fn tag_for(key: &str) -> Option<&'static str> {
    KEY_TAGS.iter().find(|(k, _)| *k == key).map(|(_, t)| *t)
}

fn key_for(tag: &str) -> Option<&str> {
    KEY_TAGS.iter().find(|(_, t)| *t == tag).map(|(k, _)| *k)
}

/// What an ImageStream gives: the images of the tags read, by key, and the release version
/// (`metadata.name`) when the stream has one (CCCMO's own `manifests/image-references` has no
/// metadata; the release's has).
pub(crate) struct Parsed {
    pub(crate) entries: BTreeMap<String, String>,
    pub(crate) release: Option<String>,
}

/// Reads an ImageStream object (already picked out of the file and its apiVersion checked):
/// the images.json entries of the tags CCCMO names. Tags CCCMO does not name (the release's
/// other components) are skipped unread.
pub(crate) fn parse(stream: &Value, path: &Utf8Path) -> Result<Parsed> {
    read_tags(stream, path, key_for)
}

/// Reads an ImageStream object's tags: each tag `key` gives a key for is checked and kept under
/// that key (a key given twice is refused); the others are skipped unread. A hosted render
/// keeps every tag by its own name; a standalone one the tags CCCMO names, by images.json key.
pub(crate) fn read_tags(
    stream: &Value,
    path: &Utf8Path,
    key: impl for<'t> Fn(&'t str) -> Option<&'t str>,
) -> Result<Parsed> {
    let release = match stream.pointer("/metadata/name") {
        None | Some(Value::Null) => None,
        Some(Value::String(name)) => {
            // The release version names the stream; Kubernetes names are DNS subdomains
            // (`4.20.15`, `4.21.0-0.nightly-2026-01-01-000000`), which also keeps it printable.
            ccm_catalogue::validate::dns_subdomain(name)
                .with_context(|| format!("{path}: metadata.name: {}", shown(name)))?;
            Some(name.clone())
        }
        Some(other) => bail!(
            "{path}: metadata.name: expected a string (the release version), got {}",
            ccm_catalogue::json_fields::type_name(other)
        ),
    };
    let tags = match stream.pointer("/spec/tags") {
        Some(Value::Array(tags)) => tags,
        None | Some(Value::Null) => bail!("{path}: spec.tags is missing"),
        Some(other) => bail!(
            "{path}: spec.tags: expected a list, got {}",
            ccm_catalogue::json_fields::type_name(other)
        ),
    };
    let mut entries = BTreeMap::new();
    for (i, tag) in tags.iter().enumerate() {
        let field = format!("spec.tags[{i}]");
        let Some(name) = tag.get("name") else {
            bail!("{path}: {field}.name is missing");
        };
        let Value::String(name) = name else {
            bail!(
                "{path}: {field}.name: expected a string, got {}",
                ccm_catalogue::json_fields::type_name(name)
            );
        };
        let Some(key) = key(name) else {
            continue;
        };
        let field = format!("{field} ({name})");
        // A release names each component once; two tags for one key leave no way to choose.
        if entries.contains_key(key) {
            bail!("{path}: {field}: tag {name} appears more than once");
        }
        match tag.pointer("/from/kind") {
            // `oc adm release new` writes DockerImage: from.name is a pull spec.
            None | Some(Value::Null) => {}
            Some(Value::String(kind)) if kind == "DockerImage" => {}
            Some(other) => bail!(
                "{path}: {field}: from.kind: {} is not DockerImage",
                shown_value(other)
            ),
        }
        let image = match tag.pointer("/from/name") {
            Some(Value::String(image)) if !image.is_empty() => image,
            None | Some(Value::Null) => bail!("{path}: {field}: from.name is missing"),
            Some(Value::String(_)) => bail!("{path}: {field}: from.name is empty"),
            Some(other) => bail!(
                "{path}: {field}: from.name: expected a string image reference, got {}",
                ccm_catalogue::json_fields::type_name(other)
            ),
        };
        ccm_catalogue::validate::image_reference(image)
            .with_context(|| format!("{path}: {field}: from.name"))?;
        entries.insert(key.to_string(), image.clone());
    }
    Ok(Parsed { entries, release })
}

fn shown_value(value: &Value) -> String {
    match value {
        Value::String(s) => format!("{s:?}"),
        other => ccm_catalogue::json_fields::type_name(other).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn p() -> &'static Utf8Path {
        Utf8Path::new("image-references")
    }

    #[test]
    fn the_key_tag_pairing_is_cccmos_placeholder_naming() {
        // CCCMO's images.json gives every key the placeholder `quay.io/openshift/origin-<tag>`,
        // and its image-references declares `<tag>` with that placeholder.
        let text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("testdata/conformance/images.json"),
        )
        .expect("images.json");
        let images: BTreeMap<String, String> = serde_json::from_str(&text).expect("json");
        assert!(images.len() >= 10, "{images:?}");
        for (key, placeholder) in &images {
            let tag = placeholder
                .strip_prefix("quay.io/openshift/origin-")
                .expect("a CCCMO placeholder");
            assert_eq!(tag_for(key), Some(tag), "{key}");
        }
        // The one key the conformance images.json (newer than 4.18) no longer carries.
        assert_eq!(
            tag_for("cloudControllerManagerAlibaba"),
            Some("alibaba-cloud-controller-manager")
        );
        assert_eq!(KEY_TAGS.len(), images.len() + 1);
    }

    #[test]
    fn tags_of_other_components_are_skipped_and_the_version_is_kept() {
        let stream = json!({
            "metadata": {"name": "4.20.15"},
            "spec": {"tags": [
                {"name": "cli", "from": {"kind": "DockerImage", "name": 3}},
                {"name": "aws-cloud-controller-manager",
                 "from": {"kind": "DockerImage", "name": "quay.io/r/a@sha256:0000000000000000000000000000000000000000000000000000000000000000"}},
            ]},
        });
        let parsed = parse(&stream, p()).expect("ok");
        assert_eq!(parsed.release.as_deref(), Some("4.20.15"));
        assert_eq!(
            parsed.entries.keys().collect::<Vec<_>>(),
            ["cloudControllerManagerAWS"]
        );
    }

    #[test]
    fn errors_name_the_tag_and_field() {
        let cases = [
            (
                json!({"spec": {"tags": [{"name": "aws-cloud-controller-manager", "from": {"kind": "ImageStreamTag", "name": "x:y"}}]}}),
                "image-references: spec.tags[0] (aws-cloud-controller-manager): from.kind: \"ImageStreamTag\" is not DockerImage",
            ),
            (
                json!({"spec": {"tags": [{"name": "aws-cloud-controller-manager", "from": {}}]}}),
                "image-references: spec.tags[0] (aws-cloud-controller-manager): from.name is missing",
            ),
            (
                json!({"spec": {"tags": [{"from": {}}]}}),
                "image-references: spec.tags[0].name is missing",
            ),
            (
                json!({"spec": {}}),
                "image-references: spec.tags is missing",
            ),
            (
                json!({"metadata": {"name": "4.20 final"}, "spec": {"tags": []}}),
                "image-references: metadata.name: \"4.20 final\": a lowercase RFC 1123 subdomain",
            ),
        ];
        for (stream, want) in cases {
            let err = format!("{:#}", parse(&stream, p()).err().expect("refused"));
            assert!(err.starts_with(want), "{err}\nwant {want}");
        }
    }

    #[test]
    fn a_tag_given_twice_is_refused() {
        let tag = json!({"name": "aws-cloud-controller-manager", "from": {"name": "quay.io/a/b"}});
        let err = parse(&json!({"spec": {"tags": [tag, tag]}}), p())
            .err()
            .expect("refused");
        assert!(
            format!("{err:#}").contains("appears more than once"),
            "{err}"
        );
    }
}
