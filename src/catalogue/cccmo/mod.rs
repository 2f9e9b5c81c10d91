//! `--cccmo-dir`: the built-in providers' manifests from a checkout of
//! cluster-cloud-controller-manager-operator (CCCMO) instead of the catalogue's own copy, so
//! that a change to CCCMO's templates can be rendered on every platform and variant before it
//! lands; and `provider import`, which brings the catalogue to a checkout.
//!
//! CCCMO evaluates `pkg/cloud/<platform>/assets/*.yaml` as Go templates with `missingkey=error`
//! and decodes each strictly into the Kubernetes type its `<platform>.go` names
//! (`pkg/cloud/common/templates.go` @ bc52198c). [`template`] evaluates them the same way, with
//! the values in the form the catalogue holds ([`platforms`]); the objects then replace the
//! provider's manifests for the release in force, and the render adjusts them exactly as it
//! adjusts its own catalogue. What ccm-render cannot evaluate or place is refused with the file
//! and line.
//!
//! [`checkout`] reads the checkout; `provider import` (src/commands/provider_import/) writes
//! the catalogue.

pub(crate) mod checkout;
pub(crate) mod placed;
pub mod platforms;
pub(crate) mod template;

use crate::catalogue::Catalogue;
use crate::catalogue::Releases;
use anyhow::{Context as _, Result, anyhow, bail};
use ccm_catalogue::providers::{LocatedObject, Parsed, Provider};
use ccm_catalogue::releases::Release;
use ccm_catalogue::releases::data::Version;
pub(crate) use checkout::Checkout;
use serde_json::Value;
use std::collections::BTreeMap;
use template::{Template, TemplateValue, Values};

/// One asset of a checkout, evaluated.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Evaluated {
    /// The file, as messages name it.
    pub(crate) at: String,
    /// The object, in the catalogue's form.
    pub(crate) object: Value,
    /// The object evaluated with a probe for each value the render step sets ([`placed`]).
    probed: Value,
    /// Those values' keys.
    placed: Vec<&'static str>,
    /// The template's first line that uses one of them (1 if none does).
    placed_line: usize,
    /// The object evaluated with the gated values empty (their gates off), if any is passed.
    off: Option<GateOff>,
}

/// An asset evaluated with the values CCCMO passes empty when their feature gates are off.
#[derive(Debug, Clone, PartialEq)]
struct GateOff {
    /// The object.
    object: Value,
    /// The values passed empty.
    keys: Vec<&'static str>,
    /// The template's first line that uses one of them.
    line: usize,
}

/// The provider manifests a checkout gives for one release: provider name → its assets, in
/// the order of the catalogue's files.
pub(crate) type Manifests = BTreeMap<String, Vec<Evaluated>>;

/// The file name the catalogue gives an object (`assets/<provider>/manifests/<name>`):
/// lower-case kind and name, `:` (an RBAC name's separator) as `_`.
pub fn catalogue_file_name(object: &Value) -> String {
    format!(
        "{}-{}.yaml",
        ccm_catalogue::json_fields::kind_of(object).to_ascii_lowercase(),
        ccm_catalogue::json_fields::name_of(object).replace(':', "_")
    )
}

/// The template values of `platform` for `release`, as the catalogue holds them.
fn values(platform: &platforms::Platform, release: Version) -> Values {
    let mut values = Values::new();
    let images = platform
        .images
        .iter()
        .map(|image| {
            // CCCMO's images.json placeholder of the key, which the catalogue holds and the
            // render replaces by container name.
            let tag = crate::inputs::images::image_stream::tag_for(image.images_key)
                .unwrap_or(image.images_key);
            (
                image.go_field.to_string(),
                format!("quay.io/openshift/origin-{tag}"),
            )
        })
        .collect();
    values.insert(
        "images".to_string(),
        TemplateValue::Struct {
            type_name: platform.images_type.to_string(),
            fields: images,
        },
    );
    for v in platform.values.iter().filter(|v| v.since <= release) {
        let text = match v.source {
            platforms::Source::PlatformType => platform.platform_type.as_str(),
            platforms::Source::Literal(s) => s,
        };
        values.insert(v.key.to_string(), TemplateValue::Str(text.to_string()));
    }
    values
}

/// Evaluates every asset of the checkout for `release` (`X.Y`): the objects of each built-in
/// provider the checkout has a folder for.
pub(crate) fn evaluate(checkout: &Checkout, release: &str) -> Result<Manifests> {
    let version = ccm_catalogue::releases::data::version_of(release);
    let mut out = Manifests::new();
    for folder in checkout.platforms.values() {
        let platform = folder.platform;
        let values = values(platform, version);
        let mut objects = Vec::new();
        for (file, text) in &folder.assets {
            let at = checkout.display(&format!("pkg/cloud/{}/assets/{file}", platform.folder));
            let asset = platform
                .assets
                .iter()
                .find(|a| a.file == file)
                .ok_or_else(|| anyhow!("{at}: not an asset ccm-render knows"))?;
            let template = Template::parse(&at, text)?;
            let object = decode_at(&at, text, &template.execute(&values)?, asset)?;
            let placed = placed::keys(platform, version);
            let mut probe_values = values.clone();
            for key in &placed {
                probe_values.insert((*key).to_string(), TemplateValue::Str(placed::probe(key)));
            }
            let probed = decode_at(&at, text, &template.execute(&probe_values)?, asset)?;
            let first_use = |keys: &[&str]| {
                text.lines()
                    .position(|l| keys.iter().any(|k| l.contains(&format!(".{k} "))))
                    .map_or(1, |i| i + 1)
            };
            let placed_line = first_use(&placed);
            let gated = placed::gated_keys(platform, version);
            let off = if gated.is_empty() {
                None
            } else {
                let mut off_values = values.clone();
                for key in &gated {
                    off_values.insert((*key).to_string(), TemplateValue::Str(String::new()));
                }
                Some(GateOff {
                    object: decode_at(&at, text, &template.execute(&off_values)?, asset)?,
                    line: first_use(&gated),
                    keys: gated,
                })
            };
            objects.push(Evaluated {
                at,
                object,
                probed,
                placed,
                placed_line,
                off,
            });
        }
        objects.sort_by_key(|e| catalogue_file_name(&e.object));
        out.insert(platform.provider.to_string(), objects);
    }
    Ok(out)
}

/// [`decode`], its refusal naming the template's line it is about: the top-level field it
/// names (`kind: …`), or the extra document's separator.
fn decode_at(at: &str, source: &str, text: &str, asset: &platforms::Asset) -> Result<Value> {
    decode(text, asset).map_err(|e| {
        let message = e.to_string();
        let line = if message.starts_with("holds ") {
            source
                .lines()
                .enumerate()
                .filter(|(_, l)| l.starts_with("---"))
                .map(|(i, _)| i)
                .last()
        } else {
            let field = format!("{}:", message.split(':').next().unwrap_or_default());
            source.lines().position(|l| l.starts_with(&field))
        };
        match line {
            Some(i) => e.context(format!("{at}:{}", i + 1)),
            None => e.context(at.to_string()),
        }
    })
}

/// `sigs.k8s.io/yaml.UnmarshalStrict` into the asset's type, as far as ccm-render knows the
/// type: one YAML mapping (duplicate keys refused), the kind and API group of the Go type, and
/// the scalars of string fields as strings (sigs.k8s.io/yaml converts YAML to JSON by the
/// target's types, so `value: false` in an env var is the string "false"). The object carries
/// the Go type's apiVersion, as CCCMO's typed client applies it.
fn decode(text: &str, asset: &platforms::Asset) -> Result<Value> {
    let docs = ccm_catalogue::yaml::documents(text).context("not valid YAML")?;
    let [mut object] = <[Value; 1]>::try_from(docs).map_err(|docs| {
        anyhow!(
            "holds {} YAML documents; CCCMO decodes one object per file",
            docs.len()
        )
    })?;
    let Some(map) = object.as_object_mut() else {
        bail!(
            "does not decode into a {}: not a YAML mapping",
            asset.type_meta.kind
        );
    };
    let kind = map.get("kind").and_then(Value::as_str).unwrap_or_default();
    if kind != asset.type_meta.kind {
        bail!(
            "kind: {kind:?} does not decode into the {} CCCMO reads this file as",
            asset.type_meta.kind
        );
    }
    let group = |v: &str| v.rsplit_once('/').map_or("", |(g, _)| g).to_string();
    let api_version = map
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if group(api_version) != group(asset.type_meta.api_version) {
        bail!(
            "apiVersion: {api_version:?} is not of the API group of {} ({})",
            asset.type_meta.kind,
            asset.type_meta.api_version
        );
    }
    map.insert(
        "apiVersion".to_string(),
        Value::String(asset.type_meta.api_version.to_string()),
    );
    stringify_string_fields(&mut object);
    typed_pod_fields(&mut object);
    Ok(object)
}

/// The volume sources CCCMO's templates use, spelled as the Go type's JSON tags.
const VOLUME_SOURCES: &[&str] = &[
    "configMap",
    "csi",
    "downwardAPI",
    "emptyDir",
    "hostPath",
    "persistentVolumeClaim",
    "projected",
    "secret",
];

/// What the typed pod template becomes once CCCMO has decoded it and the API server holds it,
/// where that differs from the YAML: encoding/json matches field names case-insensitively
/// (azure's `emptydir:` is `emptyDir`); a volume whose source is null has none, and the API
/// server defaults a volume without a source to `emptyDir: {}` (k8s.io/kubernetes
/// pkg/apis/core/v1/defaults.go SetDefaults_Volume); a container's `resources` is a struct, not
/// a pointer, so a container without it is written `resources: {}`; an environment variable's
/// empty value is omitted.
fn typed_pod_fields(object: &mut Value) {
    let Some(Value::Object(pod)) = object.pointer_mut("/spec/template/spec") else {
        return;
    };
    if let Some(Value::Array(volumes)) = pod.get_mut("volumes") {
        for volume in volumes.iter_mut().filter_map(Value::as_object_mut) {
            let keys: Vec<String> = volume.keys().cloned().collect();
            for key in keys {
                let Some(canonical) = VOLUME_SOURCES
                    .iter()
                    .find(|s| s.eq_ignore_ascii_case(&key) && **s != key)
                else {
                    continue;
                };
                if let Some(value) = volume.remove(&key) {
                    volume.insert((*canonical).to_string(), value);
                }
            }
            volume.retain(|_, v| !v.is_null());
            if !volume.keys().any(|k| VOLUME_SOURCES.contains(&k.as_str())) {
                volume.insert(
                    "emptyDir".to_string(),
                    Value::Object(serde_json::Map::new()),
                );
            }
        }
    }
    for list in ["initContainers", "containers"] {
        if let Some(Value::Array(containers)) = pod.get_mut(list) {
            for container in containers.iter_mut().filter_map(Value::as_object_mut) {
                container
                    .entry("resources")
                    .or_insert_with(|| Value::Object(serde_json::Map::new()));
                // EnvVar.Value is `json:"value,omitempty"`: an empty or null value is none.
                if let Some(Value::Array(env)) = container.get_mut("env") {
                    for var in env.iter_mut().filter_map(Value::as_object_mut) {
                        if var
                            .get("value")
                            .is_some_and(|v| v.is_null() || v.as_str() == Some(""))
                        {
                            var.remove("value");
                        }
                    }
                }
            }
        }
    }
}

/// The string-typed fields a template can fill with a YAML boolean or number.
fn stringify_string_fields(object: &mut Value) {
    fn map_values(v: Option<&mut Value>) {
        if let Some(Value::Object(m)) = v.map(|v| &mut *v) {
            for value in m.values_mut() {
                stringify(value);
            }
        }
    }
    fn stringify(v: &mut Value) {
        match v {
            Value::Bool(b) => *v = Value::String(b.to_string()),
            Value::Number(n) => *v = Value::String(n.to_string()),
            _ => {}
        }
    }
    for meta in ["/metadata", "/spec/template/metadata"] {
        for field in ["labels", "annotations"] {
            map_values(object.pointer_mut(&format!("{meta}/{field}")));
        }
    }
    map_values(object.pointer_mut("/spec/selector/matchLabels"));
    map_values(object.pointer_mut("/spec/template/spec/nodeSelector"));
    for list in ["initContainers", "containers"] {
        let Some(Value::Array(containers)) =
            object.pointer_mut(&format!("/spec/template/spec/{list}"))
        else {
            continue;
        };
        for container in containers {
            for field in ["command", "args"] {
                if let Some(Value::Array(items)) = container.get_mut(field) {
                    items.iter_mut().for_each(stringify);
                }
            }
            if let Some(Value::Array(env)) = container.get_mut("env") {
                for var in env {
                    if let Some(value) = var.get_mut("value") {
                        stringify(value);
                    }
                }
            }
        }
    }
}

/// The release a checkout renders as, and how ccm-render found it.
#[derive(Debug, Clone)]
pub(crate) struct CheckoutRelease<'a> {
    /// The release.
    pub(crate) release: &'a Release,
    /// Whether the checkout's Go files told it (no `--release` given).
    pub(crate) told_by_go_files: bool,
    /// The checkout's Go files that differ from the release's (`pkg/cloud/aws/aws.go
    /// (changed)`); none for a tree of templates alone.
    pub(crate) go_changes: Vec<String>,
}

/// The release a render with `--cccmo-dir` uses: `flag` (`--release`) if given, else the one
/// whose CCCMO Go files (`pkg/cloud`) the checkout holds.
pub(crate) fn release_for<'a>(
    releases: &'a Releases,
    checkout: &Checkout,
    flag: Option<&str>,
) -> Result<CheckoutRelease<'a>> {
    let told_by_go_files = flag.is_none();
    let release = if let Some(version) = flag {
        releases.find(version, "--release")?
    } else {
        checkout.release_of_go_files(releases)?.ok_or_else(|| {
            anyhow!(
                "--cccmo-dir {}: its Go files (pkg/cloud/**/*.go) are those of no release ccm-render knows ({}); give --release X.Y to render it as one",
                checkout.root,
                releases.supported()
            )
        })?
    };
    // A tree of templates alone (no Go file at all) changes no Go code.
    let go_changes = if checkout.go_files.is_empty() {
        Vec::new()
    } else {
        checkout.go_changes(&releases.go_files(release)?)
    };
    Ok(CheckoutRelease {
        release,
        told_by_go_files,
        go_changes,
    })
}

/// Replaces the manifests of every built-in provider of `catalogue` (a catalogue as of
/// `release`) by the checkout's, checked by the rules every provider follows.
pub(crate) fn apply(catalogue: &mut Catalogue, manifests: &Manifests) -> Result<()> {
    for provider in catalogue.providers.values_mut() {
        if !provider.origin.starts_with("assets/") {
            continue;
        }
        let Some(objects) = manifests.get(provider.name()) else {
            continue;
        };
        // A provider not decoded (Catalogue::builtin_for keeps some descriptors only) does
        // not render; apply_checkout held its templates to the placement check.
        if !provider.manifests.is_empty() {
            *provider = checked(provider, objects)?;
        }
    }
    Ok(())
}

/// Every template of `objects` uses the values the render sets where the render puts them
/// ([`placed`]).
fn check_placements(provider: &Provider, objects: &[Evaluated]) -> Result<()> {
    for e in objects {
        placed::check(
            &e.at,
            e.placed_line,
            &e.object,
            &e.probed,
            provider,
            &e.placed,
        )?;
        if let Some(off) = &e.off {
            placed::check_gated(&e.at, off.line, &e.object, &off.object, provider, &off.keys)?;
        }
    }
    Ok(())
}

/// `object` with its keys in the order of `reference` (the catalogue's object of the same kind
/// and name), keys the reference lacks after them in name order; list items are matched by
/// `name` where both have one, else by position. A render from a checkout thus writes what it
/// does not change byte for byte as the catalogue does, and a review shows only changes. With
/// no reference, keys are sorted, as the catalogue's files hold them.
pub(crate) fn aligned(object: &Value, reference: Option<&Value>) -> Value {
    match object {
        Value::Object(map) => {
            let reference = reference.and_then(Value::as_object);
            let mut keys: Vec<&String> = reference
                .map(|r| r.keys().filter(|k| map.contains_key(*k)).collect())
                .unwrap_or_default();
            let mut rest: Vec<&String> = map
                .keys()
                .filter(|k| reference.is_none_or(|r| !r.contains_key(*k)))
                .collect();
            rest.sort();
            keys.extend(rest);
            Value::Object(
                keys.into_iter()
                    .map(|k| {
                        (
                            k.clone(),
                            aligned(&map[k], reference.and_then(|r| r.get(k))),
                        )
                    })
                    .collect(),
            )
        }
        Value::Array(items) => {
            let reference = reference.and_then(Value::as_array);
            let name = |v: &Value| v.get("name").and_then(Value::as_str).map(str::to_string);
            Value::Array(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| {
                        let matched = reference.and_then(|r| match name(item) {
                            Some(n) => r.iter().find(|x| name(x).as_deref() == Some(n.as_str())),
                            None => r.get(i),
                        });
                        aligned(item, matched)
                    })
                    .collect(),
            )
        }
        other => other.clone(),
    }
}

/// `provider` with the manifests `objects` (each aligned to the provider's object of the same
/// kind and name, see [`aligned`]), through the checks of every provider and the check that
/// each template uses the values the render sets where the render puts them ([`placed`]).
pub(crate) fn checked(provider: &Provider, objects: &[Evaluated]) -> Result<Provider> {
    let id = ccm_catalogue::releases::delta::object_id;
    check_placements(provider, objects)?;
    let objects: Vec<LocatedObject> = objects
        .iter()
        .map(|e| {
            let reference = provider.manifests.iter().find(|m| id(m) == id(&e.object));
            LocatedObject {
                at: e.at.clone(),
                object: aligned(&e.object, reference),
            }
        })
        .collect();
    let objects = objects.as_slice();
    let descriptor = serde_json::to_value(&provider.descriptor)?;
    let at = format!("{}/provider.yaml", provider.origin);
    let bootstrap: Vec<LocatedObject> = provider
        .bootstrap
        .iter()
        .map(|o| LocatedObject {
            at: at.clone(),
            object: o.clone(),
        })
        .collect();
    ccm_catalogue::providers::check_parsed(&Parsed {
        folder: provider.name(),
        origin: &provider.origin,
        descriptor_at: &at,
        descriptor: &descriptor,
        manifests: objects,
        bootstrap: &bootstrap,
        release: None,
    })
}

/// The checkout's manifests, evaluated for `release`, in place of the built-in providers' of
/// `catalogue` (a catalogue as of `release`).
pub(crate) fn apply_checkout(
    catalogue: &mut Catalogue,
    checkout: &Checkout,
    release: &Release,
) -> Result<()> {
    let manifests = evaluate(checkout, &release.name)?;
    // Every platform's templates are held to the placement check, not only those of the
    // providers `catalogue` decoded (a render decodes its platform's only).
    let every = Releases::builtin()?.catalogue(release, Catalogue::builtin()?)?;
    for (name, objects) in &manifests {
        if let Some(provider) = every.providers.get(name) {
            check_placements(provider, objects)?;
        }
    }
    apply(catalogue, &manifests)
}
