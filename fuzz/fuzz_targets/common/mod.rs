//! Helpers shared by the fuzz targets.
#![allow(dead_code)] // each target uses some of them

use camino::Utf8Path;

/// The name errors give the input.
pub fn path() -> &'static Utf8Path {
    Utf8Path::new("fuzz-input")
}

/// The input as text; the tool refuses non-UTF-8 files before any parser sees them.
pub fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// The result of a parser: Ok, or an error that follows the CLI contract (one line per
/// message: a line break would break `error: <file>: <problem>` and could forge a line).
pub fn check<T>(result: anyhow::Result<T>) -> Option<T> {
    match result {
        Ok(value) => Some(value),
        Err(err) => {
            for cause in err.chain() {
                let message = cause.to_string();
                assert!(!message.contains('\n'), "multi-line error: {message:?}");
            }
            None
        }
    }
}

/// A value that goes on a shell script line must hold no whitespace or shell syntax.
pub fn assert_script_safe(what: &str, value: &str) {
    assert!(
        !value
            .bytes()
            .any(|b| b.is_ascii_whitespace() || b"\"'`$;&|<>\\(){}".contains(&b)),
        "{what} {value:?} is not safe on a script line"
    );
}

/// Splits a fuzz input at NUL bytes (which no input file may hold: YAML refuses them, the
/// INI reader too) into at most `N` parts.
pub fn parts<const N: usize>(text: &str) -> [Option<&str>; N] {
    let mut out = [None; N];
    for (slot, part) in out.iter_mut().zip(text.splitn(N, '\0')) {
        *slot = Some(part);
    }
    out
}

/// The conformance inputs a transform target starts from, parsed once (parsing them for every
/// input took most of the time).
pub struct Conformance {
    pub infrastructure: std::sync::LazyLock<serde_json::Value>,
    pub network: std::sync::LazyLock<serde_json::Value>,
}

/// The first document of a conformance file.
pub fn document(text: &str) -> serde_json::Value {
    ccm_catalogue::yaml::documents(text).expect("conformance input parses")[0].clone()
}

/// Runs the cloud config transform `kind` the way `render` does: the fuzz input is a
/// `--cloud-config` file (ConfigMap or raw), optionally followed by NUL and an Infrastructure,
/// and by NUL and a Network, which replace the conformance ones. Feature gates are all on or
/// all off (by the input's length), as the transforms read a few of them. Errors must be one
/// line; the same input must give the same output.
pub fn transform(kind: ccm_catalogue::providers::Transform, base: &Conformance, data: &[u8]) {
    use ccm_render::render::cloud_config::{Context, transform};
    let Some(text) = text(data) else {
        return;
    };
    let [cloud_config, infrastructure, network] = parts::<3>(text);
    let Some(source) = check(ccm_render::inputs::cloud_provider_config::parse(
        cloud_config.unwrap_or_default().to_owned(),
        path(),
    )) else {
        return;
    };
    let Some(selected) = check(source.select("config", path())) else {
        return;
    };
    let first_document = |given: Option<&str>, fallback: &serde_json::Value| {
        given
            .and_then(|t| ccm_catalogue::yaml::documents(t).ok())
            .and_then(|docs| docs.into_iter().next())
            .unwrap_or_else(|| fallback.clone())
    };
    let infrastructure = first_document(infrastructure, &base.infrastructure);
    // The platform as `render` reads it; an Infrastructure `render` refuses goes no further.
    let Ok(infra) = ccm_render::inputs::infrastructure::from_value(infrastructure.clone(), path())
    else {
        return;
    };
    let network = first_document(network, &base.network);
    let gates_on = data.len().is_multiple_of(2);
    let feature_enabled = |_: &str| gates_on;
    // The newest release's transform, as a render without --release uses.
    let behaviour = &ccm_render::catalogue::Releases::builtin()
        .expect("built-in releases load")
        .newest()
        .behaviour
        .cloud_config;
    let ctx = Context {
        platform: infra.platform,
        infrastructure: &infrastructure,
        network: Some(&network),
        feature_enabled: &feature_enabled,
        behaviour,
    };
    let first = transform(kind, &selected.text, &ctx);
    let again = transform(kind, &selected.text, &ctx);
    match (check(first), again) {
        (Some(out), Ok(out_again)) => assert_eq!(out, out_again, "not deterministic"),
        (None, Err(_)) => {}
        (first, again) => panic!("not deterministic: {first:?} then {again:?}"),
    }
}
