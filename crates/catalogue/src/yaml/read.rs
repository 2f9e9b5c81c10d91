//! Reading YAML (and JSON, a subset of YAML) with serde-saphyr's budgets: duplicate keys are an
//! error, alias expansion, nesting depth and document count are bounded, so hostile input cannot
//! make the tool spin or run out of memory.

use super::value;
use anyhow::Result;
use serde::de::DeserializeOwned;

/// The most documents one input file may hold. A multi-document manifest stream from
/// `openshift-install create manifests` holds a few dozen; a thousand is generous.
pub(crate) const MAX_DOCUMENTS: usize = 1024;

/// The deepest nesting an input may have. Kubernetes objects nest about 15 levels deep.
pub(crate) const MAX_DEPTH: usize = 64;

fn read_options() -> serde_saphyr::Options {
    serde_saphyr::options! {
        budget: serde_saphyr::budget! {
            max_documents: MAX_DOCUMENTS,
            max_depth: MAX_DEPTH,
            max_nodes: 1_000_000,
            max_aliases: 1_000,
            max_total_scalar_bytes: 64 * 1024 * 1024,
        },
        // Kubernetes manifests seldom use aliases at all; 10 000 replayed events (a few hundred
        // KiB of expanded YAML) is far more than a real one needs, and bounds an alias bomb to
        // milliseconds.
        alias_limits: serde_saphyr::alias_limits! {
            max_total_replayed_events: 10_000,
            max_alias_expansions_per_anchor: 100,
        },
        with_snippet: false,
        // YAML 1.2 booleans only: a cloud-config value or label `yes` must stay the string "yes".
        strict_booleans: true,
    }
}

/// Parses a YAML or JSON stream into its documents, skipping empty ones (a stream that starts or
/// ends with `---`).
///
/// A plain JSON object (what `images.json` and tools' `-o json` output are) is read by
/// serde_json, about ten times faster per byte than the YAML parser; anything it is not sure to
/// read exactly as serde-saphyr would goes to serde-saphyr, which also words every error.
pub fn documents(text: &str) -> Result<Vec<serde_json::Value>> {
    if let Some(doc) = json_document(text) {
        return Ok(vec![doc]);
    }
    documents_by_yaml_parser(text)
}

/// One JSON object read by serde_json, or None when the YAML parser must decide: the text is
/// not a JSON object, it holds anything but printable ASCII and line breaks (YAML refuses some
/// characters JSON takes) or a backslash (JSON and YAML escapes differ: `\\u` surrogate
/// pairs), a float (its spelling and range rules differ), a repeated key, or it nests deeper
/// than [`MAX_DEPTH`]. What it returns, the YAML parser returns too (a property test and the
/// `yaml_documents` fuzz target hold it to that).
pub fn json_document(text: &str) -> Option<serde_json::Value> {
    use serde::de::DeserializeSeed as _;
    // YAML refuses DEL, C1 controls and U+FFFE, which JSON takes as they are (found by
    // comparing the two readers); other text gains nothing from the shortcut.
    let plain = |b: u8| matches!(b, b' '..=b'~' | b'\n' | b'\r') && b != b'\\';
    if !text.trim_start_matches([' ', '\n', '\r']).starts_with('{') || !text.bytes().all(plain) {
        return None;
    }
    let mut reader = serde_json::Deserializer::from_str(text);
    let doc = value::Seed::strict(MAX_DEPTH)
        .deserialize(&mut reader)
        .ok()?;
    reader.end().ok()?;
    Some(doc)
}

/// [`documents`] without the JSON shortcut: what serde-saphyr reads.
pub fn documents_by_yaml_parser(text: &str) -> Result<Vec<serde_json::Value>> {
    let docs: Vec<Option<serde_json::Value>> =
        serde_saphyr::from_multiple_with_options(text, read_options())
            .map_err(|err| anyhow::anyhow!("{}", describe(&err)))?;
    Ok(docs
        .into_iter()
        .flatten()
        .filter(|doc| !doc.is_null())
        .collect())
}

/// Parses exactly one YAML document into a `Value`, compiled in this crate only: the binary's
/// crate calling [`from_str`] would compile serde-saphyr's decoding of a `Value` a second time
/// (30 KB; rustc shares no generic function between crates in an optimised build).
pub fn one_document(text: &str) -> Result<serde_json::Value> {
    from_str(text)
}

/// Parses exactly one YAML document into `T` (used for the tool's own embedded assets and
/// descriptors, which are trusted but still checked).
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T> {
    serde_saphyr::from_str_with_options(text, read_options())
        .map_err(|err| anyhow::anyhow!("{}", describe(&err)))
}

/// One line saying what is wrong and where. The limits this module sets get words of their own
/// (the parser's text for them names its options and debug structures, which mean nothing to
/// whoever wrote the input); everything else is the parser's own message.
fn describe(err: &serde_saphyr::Error) -> String {
    use serde_saphyr::Error;
    use serde_saphyr::budget::BudgetBreach;
    let err = err.without_snippet();
    let limit = match err {
        // An error met while replaying an alias wraps the error itself.
        Error::AliasError { error, .. } => return describe(error),
        Error::DuplicateMappingKey { key: Some(key), .. } => {
            Some(format!("duplicate key {key:?} in one mapping"))
        }
        Error::DuplicateMappingKey { key: None, .. } => {
            Some("duplicate key in one mapping".to_string())
        }
        Error::Budget {
            breach: BudgetBreach::Depth { .. },
            ..
        } => Some(format!("nested more than {MAX_DEPTH} levels deep")),
        Error::Budget {
            breach: BudgetBreach::Documents { .. },
            ..
        } => Some(format!("more than {MAX_DOCUMENTS} documents")),
        Error::Budget {
            breach: BudgetBreach::Aliases { .. } | BudgetBreach::Anchors { .. },
            ..
        }
        | Error::AliasReplayLimitExceeded { .. }
        | Error::AliasExpansionLimitExceeded { .. }
        | Error::AliasReplayStackDepthExceeded { .. }
        | Error::AliasReplayCounterOverflow { .. } => {
            Some("YAML aliases expand too far (an alias bomb?)".to_string())
        }
        Error::Budget { .. } => Some("too large or too complex".to_string()),
        _ => None,
    };
    match (limit, err.location()) {
        (Some(text), Some(at)) if at.line() > 0 => {
            format!("{text} (line {}, column {})", at.line(), at.column())
        }
        (Some(text), _) => text,
        (None, _) => one_line(&err.to_string()),
    }
}

/// Collapses a multi-line parser message into one line, so that every error stays one line as
/// the CLI contract asks.
fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}
