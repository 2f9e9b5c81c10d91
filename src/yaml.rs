//! The only module that names the YAML crate.
//!
//! Reading: every input goes through [`documents`], which parses a YAML (or JSON, a subset of
//! YAML) stream into `serde_json::Value`s with serde-saphyr's budgets: duplicate keys are an
//! error, alias expansion, nesting depth and document count are bounded, so hostile input cannot
//! make the tool spin or run out of memory.
//!
//! Writing: [`to_string`] emits one manifest. serde-saphyr quotes the YAML 1.1 booleans (`on`,
//! `yes`, `no`, …) that Kubernetes' go-yaml would otherwise read as booleans
//! (kubernetes/kubernetes#34146), and never folds long lines, so long flags stay on one line.

use anyhow::{Context as _, Result};
use serde::de::DeserializeOwned;

/// The most documents one input file may hold. A multi-document manifest stream from
/// `openshift-install create manifests` holds a few dozen; a thousand is generous.
pub const MAX_DOCUMENTS: usize = 1024;

/// The deepest nesting an input may have. Kubernetes objects nest about 15 levels deep.
pub const MAX_DEPTH: usize = 64;

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
pub fn documents(text: &str) -> Result<Vec<serde_json::Value>> {
    let docs: Vec<Option<serde_json::Value>> =
        serde_saphyr::from_multiple_with_options(text, read_options())
            .map_err(|err| anyhow::anyhow!("{}", describe(&err)))?;
    Ok(docs
        .into_iter()
        .flatten()
        .filter(|doc| !doc.is_null())
        .collect())
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

/// Serialises one value as a YAML document (no leading `---`), ending in a newline.
pub fn to_string<T: serde::Serialize>(value: &T) -> Result<String> {
    let options = serde_saphyr::ser_options! {
        folded_wrap_chars: usize::MAX,
        min_fold_chars: usize::MAX,
    };
    let mut text =
        serde_saphyr::to_string_with_options(value, options).context("serialising YAML")?;
    if !text.ends_with('\n') {
        text.push('\n');
    }
    Ok(text)
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn multi_document_stream_skips_empty_documents() {
        let docs = documents("---\na: 1\n---\n---\nb: 2\n").expect("parses");
        assert_eq!(docs, vec![json!({"a": 1}), json!({"b": 2})]);
    }

    #[test]
    fn json_input_is_accepted() {
        let docs = documents(r#"{"kind": "Proxy", "spec": {"noProxy": "a,b"}}"#).expect("parses");
        assert_eq!(docs[0]["spec"]["noProxy"], "a,b");
    }

    #[test]
    fn duplicate_keys_are_an_error() {
        let err = documents("a: 1\na: 2\n").expect_err("duplicate key");
        assert_eq!(
            err.to_string(),
            "duplicate key \"a\" in one mapping (line 2, column 1)"
        );
    }

    #[test]
    fn yaml_1_1_booleans_stay_strings_after_a_round_trip() {
        for word in [
            "on", "off", "yes", "no", "y", "n", "0755", "1e3", "true", "null", "~",
        ] {
            let value = json!({ "k": word });
            let text = to_string(&value).expect("serialises");
            let back = documents(&text).expect("re-parses");
            assert_eq!(back[0]["k"], word, "{word} became {text}");
        }
    }

    /// Strings that a YAML 1.1 reader (go-yaml v2, which Kubernetes tooling still uses) or a
    /// YAML 1.2 one takes for something else when they are written plain.
    const TRICKY: &[&str] = &[
        "on",
        "off",
        "yes",
        "no",
        "y",
        "n",
        "Y",
        "NO",
        "On",
        "true",
        "False",
        "null",
        "Null",
        "~",
        "",
        "0755",
        "0o17",
        "1e3",
        "1E3",
        "-1.5",
        "+1",
        "0x1F",
        ".inf",
        "-.Inf",
        ".nan",
        "1_000",
        "12:30:00",
        "2001-12-14",
        "=",
        "<<",
        "-",
        "?",
        ":",
        "- a",
        "a: b",
        "#x",
        "&a",
        "*a",
        "!tag",
        "%x",
        "@x",
        "`x",
        "'",
        "\"",
        "a\nb",
        "\ttab",
        " lead",
        "trail ",
        "\u{85}",
        "\u{feff}x",
    ];

    /// A reader that takes plain scalars the YAML 1.1 way: `on`/`yes`/… booleans and
    /// leading-zero octal numbers.
    fn read_as_yaml_1_1(text: &str) -> serde_json::Value {
        let options = serde_saphyr::options! {
            strict_booleans: false,
            legacy_octal_numbers: true,
        };
        serde_saphyr::from_str_with_options(text, options).expect("parses")
    }

    #[test]
    fn the_yaml_1_1_reader_of_these_tests_reads_yaml_1_1() {
        assert_eq!(read_as_yaml_1_1("k: on\n")["k"], json!(true));
        assert_eq!(read_as_yaml_1_1("k: 0755\n")["k"], json!(493));
    }

    fn json_value() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            proptest::sample::select(TRICKY).prop_map(|s| json!(s)),
            any::<String>().prop_map(|s| json!(s)),
            any::<i64>().prop_map(|n| json!(n)),
            any::<bool>().prop_map(|b| json!(b)),
            Just(serde_json::Value::Null),
        ];
        leaf.prop_recursive(4, 48, 6, |inner| {
            let key = prop_oneof![
                proptest::sample::select(TRICKY).prop_map(str::to_string),
                any::<String>()
            ];
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
                proptest::collection::vec((key, inner), 0..6)
                    .prop_map(|pairs| serde_json::Value::Object(pairs.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        /// What to_string writes reads back as the same value, by this module's YAML 1.2
        /// reader and by a YAML 1.1 one: every string stays a string.
        #[test]
        fn written_yaml_reads_back_the_same_under_yaml_1_1_and_1_2(value in json_value()) {
            let value = json!({ "k": value });
            let text = to_string(&value).expect("serialises");
            proptest::prop_assert_eq!(documents(&text).expect("re-parses"), vec![value.clone()]);
            proptest::prop_assert_eq!(read_as_yaml_1_1(&text), value);
        }
    }

    #[test]
    fn long_lines_are_not_folded() {
        let long = "x".repeat(300);
        let text = to_string(&json!({ "k": long })).expect("serialises");
        assert_eq!(text.lines().count(), 1, "{text}");
    }

    #[test]
    fn alias_bomb_is_refused() {
        use std::fmt::Write as _;
        let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x]\n");
        for level in 1..12 {
            let prev = level - 1;
            let _ = writeln!(
                bomb,
                "l{level}: &l{level} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]",
                p = if prev == 0 {
                    "a".to_string()
                } else {
                    format!("l{prev}")
                }
            );
        }
        let err = documents(&bomb).expect_err("bomb");
        assert!(
            err.to_string().starts_with("YAML aliases expand too far"),
            "{err}"
        );
    }

    #[test]
    fn deep_nesting_is_refused() {
        let deep = format!("{}{}", "[".repeat(500), "]".repeat(500));
        assert!(documents(&deep).is_err());
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        let err = documents(&deep).expect_err("too deep");
        assert!(
            err.to_string()
                .starts_with("nested more than 64 levels deep"),
            "{err}"
        );
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(documents(&ok).is_ok());
    }

    #[test]
    fn document_count_is_bounded() {
        let many = "---\na: 1\n".repeat(MAX_DOCUMENTS + 1);
        let err = documents(&many).expect_err("too many");
        assert!(
            err.to_string().starts_with("more than 1024 documents"),
            "{err}"
        );
        assert_eq!(
            documents(&"---\na: 1\n".repeat(MAX_DOCUMENTS))
                .expect("at the limit")
                .len(),
            MAX_DOCUMENTS
        );
    }
}
