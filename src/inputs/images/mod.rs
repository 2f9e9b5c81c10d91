//! The images: a plain `images.json` object, the `cloud-controller-manager-images` ConfigMap
//! that carries it under `data."images.json"` (as CCCMO's `manifests/01_images.configmap.yaml`
//! does), or the release payload's `image-references` ImageStream (what
//! `oc adm release extract` gives; see [`image_stream`]). Which one a file holds is detected
//! from its content.

pub mod image_stream;

use super::{parse_documents, pick_object, read_text};
use anyhow::{Context as _, Result, anyhow, bail};
use camino::Utf8Path;
use ccm_catalogue::json_fields::kind_of;
use serde_json::Value;
use std::collections::BTreeMap;

/// images.json keys to image references.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Images {
    entries: BTreeMap<String, String>,
    /// Where they came from, for error messages.
    origin: String,
    /// Read from an `image-references` ImageStream: a missing key is reported as its tag.
    from_image_stream: bool,
    /// The release version an `image-references` ImageStream names (its `metadata.name`, e.g.
    /// `4.20.15`); `None` for images.json, the ConfigMap, and a stream without a name.
    pub(crate) release: Option<String>,
}

impl Images {
    /// Whether there is a (non-empty) image for an images.json key.
    pub(crate) fn has(&self, key: &str) -> bool {
        self.entries.get(key).is_some_and(|image| !image.is_empty())
    }

    /// Where the images came from, for messages.
    pub(crate) fn origin(&self) -> &str {
        &self.origin
    }

    /// The image for an images.json key, or an error that says which key and which file.
    pub fn get(&self, key: &str, needed_by: &str) -> Result<&str> {
        match self.entries.get(key) {
            Some(image) if !image.is_empty() => Ok(image),
            _ => match image_stream::tag_for(key).filter(|_| self.from_image_stream) {
                Some(tag) => Err(anyhow!(
                    "{}: no tag {tag} (images.json key {key:?}), which {needed_by} needs",
                    self.origin
                )),
                None => Err(anyhow!(
                    "{}: no {key:?} entry, which {needed_by} needs",
                    self.origin
                )),
            },
        }
    }

    /// Builds images from key/value pairs (tests and install-config derivation).
    pub(crate) fn from_entries(origin: &str, entries: BTreeMap<String, String>) -> Result<Self> {
        for (key, image) in &entries {
            // An empty value is CCCMO's "missing" (its govalidator `required` check); it is
            // reported when a provider needs that key, not here.
            if !image.is_empty() {
                ccm_catalogue::validate::image_reference(image)
                    .with_context(|| format!("{origin}: {}", super::shown(key)))?;
            }
        }
        Ok(Self {
            entries,
            origin: origin.to_string(),
            from_image_stream: false,
            release: None,
        })
    }
}

/// Reads images from a file holding any of the three forms.
pub(crate) fn load(path: &Utf8Path) -> Result<Images> {
    parse(&read_text(path)?, path)
}

/// [`load`] on text already read (`path` only names it in errors).
pub fn parse(text: &str, path: &Utf8Path) -> Result<Images> {
    let docs = parse_documents(text, path)?;
    let has = |kind: &str| docs.iter().any(|d| kind_of(d) == kind);
    let is_object_stream = docs.iter().any(|d| !kind_of(d).is_empty());
    if has("ImageStream") {
        if has("ConfigMap") {
            bail!("{path}: holds both a ConfigMap and an ImageStream; keep only the one to use");
        }
        let stream = pick_object(docs, "ImageStream", &[], path)?;
        super::check_api_version(&stream, "image.openshift.io", &["v1"], path)?;
        let parsed = image_stream::parse(&stream, path)?;
        let mut images = Images::from_entries(&format!("{path} (spec.tags)"), parsed.entries)?;
        images.from_image_stream = true;
        images.release = parsed.release;
        return Ok(images);
    }
    let (object, origin) = if is_object_stream {
        let cm = pick_object(
            docs,
            "ConfigMap",
            &["cloud-controller-manager-images"],
            path,
        )?;
        super::check_api_version(&cm, "", &["v1"], path)?;
        let Some(json_text) = cm.pointer("/data/images.json") else {
            bail!("{path}: the ConfigMap has no data.\"images.json\" key");
        };
        let Some(json_text) = json_text.as_str() else {
            bail!("{path}: data.\"images.json\" is not a string");
        };
        let origin = format!("{path} (data.\"images.json\")");
        let object: Value =
            serde_json::from_str(json_text).with_context(|| format!("{origin}: not valid JSON"))?;
        (object, origin)
    } else {
        match <[Value; 1]>::try_from(docs) {
            Ok([object]) => (object, path.to_string()),
            Err(docs) if docs.is_empty() => bail!("{path}: empty, expected an images.json object"),
            Err(_) => bail!("{path}: several documents, expected one images.json object"),
        }
    };
    let Value::Object(map) = object else {
        bail!("{origin}: expected a JSON object of image references");
    };
    let mut entries = BTreeMap::new();
    for (key, value) in map {
        let Value::String(image) = value else {
            bail!(
                "{origin}: {}: expected a string image reference, got {}",
                super::shown(&key),
                ccm_catalogue::json_fields::type_name(&value)
            );
        };
        entries.insert(key, image);
    }
    Images::from_entries(&origin, entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_text(text: &str) -> Result<Images> {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("images");
        std::fs::write(&file, text).expect("write");
        load(Utf8Path::from_path(&file).expect("utf8"))
    }

    #[test]
    fn plain_images_json_is_read() {
        let images = load_text(r#"{"cloudControllerManagerAWS": "quay.io/a/b:1"}"#).expect("ok");
        assert_eq!(
            images
                .get("cloudControllerManagerAWS", "aws")
                .expect("found"),
            "quay.io/a/b:1"
        );
    }

    #[test]
    fn configmap_carrying_images_json_is_detected() {
        let cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cloud-controller-manager-images\ndata:\n  images.json: >\n    {\"cloudControllerManagerAWS\": \"quay.io/a/b\"}\n";
        let images = load_text(cm).expect("ok");
        assert_eq!(
            images
                .get("cloudControllerManagerAWS", "aws")
                .expect("found"),
            "quay.io/a/b"
        );
    }

    #[test]
    fn missing_key_names_the_key_and_who_needs_it() {
        let images = load_text(r#"{"cloudControllerManagerAWS": "quay.io/a/b"}"#).expect("ok");
        let err = images
            .get("cloudControllerManagerGCP", "the gcp provider")
            .expect_err("missing");
        assert!(
            format!("{err:#}")
                .ends_with("no \"cloudControllerManagerGCP\" entry, which the gcp provider needs"),
            "{err}"
        );
    }

    #[test]
    fn invalid_reference_is_refused_naming_the_key() {
        let err = load_text(r#"{"cloudControllerManagerAWS": "quay.io/a b"}"#).expect_err("bad");
        assert!(
            format!("{err:#}").contains(": cloudControllerManagerAWS: "),
            "{err}"
        );
    }

    #[test]
    fn configmap_without_the_key_is_refused() {
        let err =
            load_text("apiVersion: v1\nkind: ConfigMap\ndata:\n  other: x\n").expect_err("no key");
        assert!(
            format!("{err:#}").contains("no data.\"images.json\" key"),
            "{err}"
        );
    }

    const STREAM: &str = "kind: ImageStream\napiVersion: image.openshift.io/v1\nmetadata:\n  name: 4.20.15\nspec:\n  tags:\n  - name: aws-cloud-controller-manager\n    from:\n      kind: DockerImage\n      name: quay.io/r/aws@sha256:1111111111111111111111111111111111111111111111111111111111111111\n  - name: azure-cloud-node-manager\n    from:\n      kind: DockerImage\n      name: quay.io/r/cnm:2\n";

    #[test]
    fn image_references_stream_maps_tags_to_keys_and_names_the_release() {
        let images = load_text(STREAM).expect("ok");
        assert_eq!(images.release.as_deref(), Some("4.20.15"));
        assert_eq!(
            images.get("cloudNodeManagerAzure", "azure").expect("found"),
            "quay.io/r/cnm:2"
        );
        assert!(
            images
                .get("cloudControllerManagerAWS", "aws")
                .expect("found")
                .starts_with("quay.io/r/aws@sha256:")
        );
    }

    #[test]
    fn a_key_missing_from_the_stream_is_reported_as_its_tag() {
        let err = load_text(STREAM)
            .expect("ok")
            .get("cloudControllerManagerGCP", "the gcp provider")
            .expect_err("missing");
        assert!(
            format!("{err:#}").ends_with(
                "(spec.tags): no tag gcp-cloud-controller-manager (images.json key \"cloudControllerManagerGCP\"), which the gcp provider needs"
            ),
            "{err}"
        );
    }

    #[test]
    fn plain_images_have_no_release() {
        let images = load_text(r#"{"cloudControllerManagerAWS": "quay.io/a/b:1"}"#).expect("ok");
        assert_eq!(images.release, None);
    }

    #[test]
    fn a_configmap_and_an_image_stream_together_are_ambiguous() {
        let text = format!("{STREAM}---\napiVersion: v1\nkind: ConfigMap\ndata: {{}}\n");
        let err = load_text(&text).expect_err("ambiguous");
        assert!(
            format!("{err:#}").contains("both a ConfigMap and an ImageStream"),
            "{err}"
        );
    }

    #[test]
    fn non_string_image_is_refused() {
        let err = load_text(r#"{"cloudControllerManagerAWS": 3}"#).expect_err("number");
        assert!(
            format!("{err:#}").contains("expected a string image reference"),
            "{err}"
        );
    }
}
