//! `--images` of a hosted render: the release payload's `image-references` ImageStream
//! (`image.openshift.io/v1`), every tag by name. HyperShift's release image provider looks the
//! component images up by these names (`aws-cloud-controller-manager`, `token-minter`, ...).

use super::{object_from_text, read_text, shown};
use anyhow::{Result, anyhow, bail};
use camino::Utf8Path;
use serde_json::Value;
use std::collections::BTreeMap;

/// The payload's images by tag name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PayloadImages {
    /// Where they came from, for messages.
    pub origin: String,
    /// The release version the stream names (`metadata.name`), when it has one.
    pub release: Option<String>,
    /// Tag name to image.
    pub tags: BTreeMap<String, String>,
}

impl PayloadImages {
    /// The image of a tag, when the payload has it.
    pub fn get(&self, tag: &str) -> Option<&str> {
        self.tags.get(tag).map(String::as_str)
    }
}

/// Reads the ImageStream.
pub fn load(path: &Utf8Path) -> Result<PayloadImages> {
    parse(&read_text(path)?, path)
}

/// [`load`] on text already read.
pub fn parse(text: &str, path: &Utf8Path) -> Result<PayloadImages> {
    let stream = object_from_text(
        text,
        path,
        "ImageStream",
        "image.openshift.io",
        &["v1"],
        &[],
    )?;
    let release = match stream.pointer("/metadata/name") {
        Some(Value::String(name)) => Some(name.clone()),
        _ => None,
    };
    let Some(Value::Array(tags)) = stream.pointer("/spec/tags") else {
        bail!("{path}: spec.tags is missing or not a list");
    };
    let mut out = BTreeMap::new();
    for (i, tag) in tags.iter().enumerate() {
        let Some(name) = tag.get("name").and_then(Value::as_str) else {
            bail!("{path}: spec.tags[{i}].name: expected a string");
        };
        let Some(image) = tag.pointer("/from/name").and_then(Value::as_str) else {
            bail!(
                "{path}: spec.tags[{i}] ({}): from.name: expected a string",
                shown(name)
            );
        };
        ccm_catalogue::validate::image_reference(image)
            .map_err(|e| anyhow!("{path}: spec.tags[{i}] ({}): from.name: {e}", shown(name)))?;
        if out.insert(name.to_string(), image.to_string()).is_some() {
            bail!(
                "{path}: spec.tags[{i}]: tag {} appears more than once",
                shown(name)
            );
        }
    }
    Ok(PayloadImages {
        origin: format!("{path} (spec.tags)"),
        release,
        tags: out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tag_is_read_by_name_and_a_bad_image_names_the_tag() {
        let text = "apiVersion: image.openshift.io/v1\nkind: ImageStream\nmetadata: {name: 4.19.0}\nspec:\n  tags:\n  - {name: token-minter, from: {kind: DockerImage, name: quay.io/h/h:1}}\n";
        let images = parse(text, "i.yaml".into()).expect("parses");
        assert_eq!(images.get("token-minter"), Some("quay.io/h/h:1"));
        assert_eq!(images.release.as_deref(), Some("4.19.0"));
        let err = parse(
            &text.replace("quay.io/h/h:1", "not an image!"),
            "i.yaml".into(),
        )
        .expect_err("bad image")
        .to_string();
        assert!(
            err.starts_with("i.yaml: spec.tags[0] (token-minter): from.name:"),
            "{err}"
        );
    }
}
