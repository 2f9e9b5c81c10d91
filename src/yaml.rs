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
///
/// A plain JSON object (what `images.json` and tools' `-o json` output are) is read by
/// serde_json, about ten times faster per byte than the YAML parser, and YAML of the common
/// shape straight from the parser's events ([`events`]); anything either is not sure to read
/// exactly as serde-saphyr would goes to serde-saphyr, which also words every error.
pub fn documents(text: &str) -> Result<Vec<serde_json::Value>> {
    if let Some(doc) = json_document(text) {
        return Ok(vec![doc]);
    }
    match events::documents(text) {
        Some(docs) => Ok(docs),
        None => documents_by_yaml_parser(text),
    }
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

/// Reading YAML of the common shape of an input straight from the parser's events: block and
/// flow collections of plain and quoted scalars, without anchors, aliases, tags, directives or
/// merge keys. serde-saphyr runs the same parser but goes through serde for every node (with a
/// key fingerprint for repeated keys and a look at the visitor's type name), which made reading
/// four small input files a fifth of a render, and a third of a vSphere one (callgrind).
///
/// A scalar is resolved here only when its value is certain: quoted and block scalars are
/// strings; plain `null`, `~` and an empty value are null, `true` and `false` booleans,
/// decimal integers that fit in 64 bits numbers, and words that start with a letter or `/`
/// (or a `-` flag, or an address such as `10.0.0.0/16`) and that no number or YAML 1.1 reading
/// could take for anything else are strings. Anything else (floats, octal, `Yes`, a repeated
/// key, deep nesting, a large input) returns None and is read by serde-saphyr; what this
/// returns, serde-saphyr returns too (a property test and the `yaml_documents` fuzz target
/// hold it to that).
pub mod events {
    use granit_parser::{Event, Parser, ScalarStyle};
    use serde_json::{Map, Value};

    /// Larger inputs go to serde-saphyr, whose budgets bound them.
    const MAX_BYTES: usize = 256 * 1024;

    enum Open {
        List(Vec<Value>),
        Map(Map<String, Value>, Option<String>),
    }

    /// The documents of `text` (empty and null ones skipped), or None.
    pub fn documents(text: &str) -> Option<Vec<Value>> {
        if text.len() > MAX_BYTES {
            return None;
        }
        let mut parser = Parser::new_from_str(text);
        let mut docs = Vec::new();
        let mut open: Vec<Open> = Vec::new();
        loop {
            let (event, _) = parser.next_event()?.ok()?;
            let node = match event {
                Event::StreamStart | Event::DocumentEnd => continue,
                Event::StreamEnd => break,
                Event::DocumentStart(_, None) => {
                    if docs.len() >= super::MAX_DOCUMENTS {
                        return None;
                    }
                    continue;
                }
                Event::Scalar(value, style, 0, None) => scalar(&value, style)?,
                Event::SequenceStart(_, 0, None) | Event::MappingStart(_, 0, None) => {
                    if open.len() >= super::MAX_DEPTH {
                        return None;
                    }
                    // A collection as a key is not a string key.
                    if let Some(Open::Map(_, None)) = open.last() {
                        return None;
                    }
                    open.push(if matches!(event, Event::SequenceStart(..)) {
                        Open::List(Vec::new())
                    } else {
                        Open::Map(Map::new(), None)
                    });
                    continue;
                }
                Event::SequenceEnd => match open.pop()? {
                    Open::List(list) => Value::Array(list),
                    Open::Map(..) => return None,
                },
                Event::MappingEnd => match open.pop()? {
                    Open::Map(map, None) => Value::Object(map),
                    _ => return None,
                },
                // Anchors, aliases, tags and directives.
                _ => return None,
            };
            match open.last_mut() {
                None => {
                    if !node.is_null() {
                        docs.push(node);
                    }
                }
                Some(Open::List(list)) => list.push(node),
                Some(Open::Map(map, key)) => match key.take() {
                    Some(key) => {
                        if map.insert(key, node).is_some() {
                            return None;
                        }
                    }
                    // Keys are strings, and never `<<` (a merge key).
                    None => match node {
                        Value::String(text) if text != "<<" => *key = Some(text),
                        _ => return None,
                    },
                },
            }
        }
        open.is_empty().then_some(docs)
    }

    /// A scalar's value when it is certain (see the module comment).
    fn scalar(text: &str, style: ScalarStyle) -> Option<Value> {
        if style != ScalarStyle::Plain {
            return Some(Value::String(text.to_owned()));
        }
        match text {
            "" | "null" | "~" => return Some(Value::Null),
            "true" => return Some(Value::Bool(true)),
            "false" => return Some(Value::Bool(false)),
            _ => {}
        }
        let bytes = text.as_bytes();
        let digits = bytes.strip_prefix(b"-").unwrap_or(bytes);
        if !digits.is_empty() && digits.iter().all(u8::is_ascii_digit) {
            // Decimal, no leading zero (`0755` is octal to YAML 1.1), no `-0`.
            if digits[0] == b'0' && (digits.len() > 1 || bytes.len() > 1) {
                return None;
            }
            return text.parse::<i64>().ok().map(Value::from);
        }
        let first = bytes[0];
        let word = first.is_ascii_alphabetic() || first == b'/';
        let flag = first == b'-'
            && bytes
                .get(1)
                .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'-');
        let address = first.is_ascii_digit()
            && (bytes.contains(&b'/') || text.matches('.').nth(1).is_some())
            && !bytes.contains(&b':');
        let reserved = text.parse::<f64>().is_ok()
            || super::emit::is_yaml_1_1_word(text.trim_start_matches('-'))
            || text.eq_ignore_ascii_case(".inf")
            || text.eq_ignore_ascii_case(".nan");
        ((word || flag || address) && !reserved).then(|| Value::String(text.to_owned()))
    }
}

/// [`documents`] without the shortcuts: what serde-saphyr reads.
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

/// Building `serde_json::Value`s from a self-describing serde format (serde_json, MessagePack)
/// with each map and list allocated at its final size when the format gives it.
///
/// `Value`'s own `Deserialize` grows its maps one entry at a time (a new table and a rehash at
/// 4, 8, 16 entries), which was a sixth of decoding a provider's objects (callgrind, Azure).
/// The strict form (for input) refuses what the YAML parser might read differently, so that
/// [`json_document`] can hand such text to it.
pub mod value {
    use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
    use serde_json::{Map, Number, Value};
    use std::fmt;

    /// Decodes one value, nested at most `depth` levels.
    #[derive(Debug, Clone, Copy)]
    pub struct Seed {
        depth: usize,
        strict: bool,
    }

    impl Seed {
        /// For trusted data (the compiled catalogue): every value as `Value` would decode it.
        pub fn trusted() -> Self {
            Self {
                depth: usize::MAX,
                strict: false,
            }
        }

        /// For input: fails on a float, a repeated key, or nesting deeper than `depth`.
        pub fn strict(depth: usize) -> Self {
            Self {
                depth,
                strict: true,
            }
        }

        fn inner<E: de::Error>(self) -> Result<Self, E> {
            match self.depth.checked_sub(1) {
                Some(depth) => Ok(Self { depth, ..self }),
                None => Err(E::custom("nested too deep")),
            }
        }
    }

    /// A list of values decoded with [`Seed::trusted`] (for `#[serde(deserialize_with)]`).
    pub fn trusted_list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Value>, D::Error> {
        match Seed::trusted().deserialize(d)? {
            Value::Array(list) => Ok(list),
            other => Err(de::Error::custom(format!(
                "expected a list, got {}",
                crate::json_fields::type_name(&other)
            ))),
        }
    }

    impl<'de> DeserializeSeed<'de> for Seed {
        type Value = Value;

        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
            d.deserialize_any(self)
        }
    }

    /// At most this many entries are reserved ahead of reading them.
    const MAX_RESERVED: usize = 4096;

    impl<'de> Visitor<'de> for Seed {
        type Value = Value;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a JSON value")
        }
        fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
            Ok(Value::Bool(v))
        }
        fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
            Ok(Value::from(v))
        }
        fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
            Ok(Value::from(v))
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
            if self.strict {
                return Err(E::custom("a float"));
            }
            // As serde_json: a float JSON cannot hold (NaN, infinity) is null.
            Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
        }
        fn visit_str<E>(self, v: &str) -> Result<Value, E> {
            Ok(Value::String(v.to_owned()))
        }
        fn visit_string<E>(self, v: String) -> Result<Value, E> {
            Ok(Value::String(v))
        }
        fn visit_unit<E>(self) -> Result<Value, E> {
            Ok(Value::Null)
        }
        fn visit_none<E>(self) -> Result<Value, E> {
            Ok(Value::Null)
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
            d.deserialize_any(self)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
            let inner = self.inner()?;
            let mut list = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(MAX_RESERVED));
            while let Some(item) = seq.next_element_seed(inner)? {
                list.push(item);
            }
            Ok(Value::Array(list))
        }
        fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Value, A::Error> {
            let inner = self.inner()?;
            let mut map = Map::with_capacity(entries.size_hint().unwrap_or(0).min(MAX_RESERVED));
            while let Some(key) = entries.next_key::<String>()? {
                let value = entries.next_value_seed(inner)?;
                if map.insert(key, value).is_some() && self.strict {
                    return Err(de::Error::custom("a repeated key"));
                }
            }
            Ok(Value::Object(map))
        }
    }
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

/// Serialises one value as a YAML document (no leading `---`), ending in a newline, exactly as
/// serde-saphyr writes it (see the module comment).
///
/// The structure (block mappings, `- ` items, indentation, `{}` and `[]`) and the scalars that
/// need no thought (integers, booleans, and strings of letters, digits, `-_./` and inner spaces
/// that start with a letter or `/` and are not a YAML 1.1 word such as `on` or `null`) are
/// written here; every other scalar, and a document that is not a non-empty mapping or list, is
/// written by serde-saphyr, whose quoting this module trusts. Writing it all through serde's
/// generic serialiser was a third of a render's instructions (callgrind, Azure: 1.55 M of 5.5 M);
/// tests compare the two on every golden file and on random values, byte for byte.
pub fn to_string(value: &serde_json::Value) -> Result<String> {
    // Most documents are a few hundred bytes; the few larger ones grow by doubling. A 4 KiB
    // start gave each document a page of its own: 10 more page faults in an Azure render.
    let mut out = String::with_capacity(1024);
    match emit::document(value, &mut out) {
        Ok(()) => Ok(out),
        Err(emit::Delegate) => saphyr_to_string(value),
    }
}

/// The whole document through serde-saphyr.
fn saphyr_to_string(value: &serde_json::Value) -> Result<String> {
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

/// The block-style writer behind [`to_string`].
mod emit {
    use serde_json::{Map, Value};

    /// The document holds something [`document`] leaves to serde-saphyr as a whole.
    pub struct Delegate;

    /// Writes a non-empty mapping or list as a document.
    pub fn document(value: &Value, out: &mut String) -> Result<(), Delegate> {
        match value {
            Value::Object(map) if !map.is_empty() => mapping(map, 0, false, out),
            Value::Array(list) if !list.is_empty() => sequence(list, 0, false, out),
            _ => Err(Delegate),
        }
    }

    fn indent(out: &mut String, n: usize) {
        out.extend(std::iter::repeat_n(' ', n));
    }

    /// A mapping whose keys sit at column `at`; the first key follows what is already on the
    /// line when `inline` (after `- `).
    fn mapping(
        map: &Map<String, Value>,
        at: usize,
        inline: bool,
        out: &mut String,
    ) -> Result<(), Delegate> {
        for (i, (key, value)) in map.iter().enumerate() {
            if i > 0 || !inline {
                indent(out, at);
            }
            if is_simple(key) {
                out.push_str(key);
            } else {
                delegated_key(key, out)?;
            }
            out.push(':');
            match value {
                Value::Object(inner) if inner.is_empty() => out.push_str(" {}\n"),
                Value::Array(inner) if inner.is_empty() => out.push_str(" []\n"),
                Value::Object(inner) => {
                    out.push('\n');
                    mapping(inner, at + 2, false, out)?;
                }
                // A list under a key is not indented (`key:` then `- item` in the same column).
                Value::Array(inner) => {
                    out.push('\n');
                    sequence(inner, at, false, out)?;
                }
                scalar => {
                    out.push(' ');
                    self::scalar(scalar, at, out)?;
                }
            }
        }
        Ok(())
    }

    /// A list whose `- ` sit at column `at`; the first item follows what is already on the line
    /// when `inline`.
    fn sequence(list: &[Value], at: usize, inline: bool, out: &mut String) -> Result<(), Delegate> {
        for (i, item) in list.iter().enumerate() {
            if i > 0 || !inline {
                indent(out, at);
            }
            out.push('-');
            match item {
                Value::Object(inner) if inner.is_empty() => out.push_str(" {}\n"),
                Value::Array(inner) if inner.is_empty() => out.push_str(" []\n"),
                Value::Object(inner) => {
                    out.push(' ');
                    mapping(inner, at + 2, true, out)?;
                }
                Value::Array(inner) => {
                    out.push(' ');
                    sequence(inner, at + 2, true, out)?;
                }
                scalar => {
                    out.push(' ');
                    self::scalar(scalar, at, out)?;
                }
            }
        }
        Ok(())
    }

    /// A scalar after `key: ` or `- ` at column `at`, with its newline. Block scalars' lines are
    /// indented two columns past `at`, as serde-saphyr does.
    fn scalar(value: &Value, at: usize, out: &mut String) -> Result<(), Delegate> {
        match value {
            Value::String(text) if is_simple_value(text) => out.push_str(text),
            // serde-saphyr quotes these with double quotes and nothing to escape.
            Value::String(text) if text.is_empty() || is_yaml_1_1_word(text) => {
                out.push('"');
                out.push_str(text);
                out.push('"');
            }
            Value::String(text) if is_double_quoted(text) => {
                out.push('"');
                for c in text.chars() {
                    if matches!(c, '"' | '\\') {
                        out.push('\\');
                    }
                    out.push(c);
                }
                out.push('"');
            }
            Value::String(text) if is_simple_block(text) => {
                // `|`: lines two columns in, empty lines left empty, the one final newline kept.
                out.push_str("|\n");
                for line in text[..text.len() - 1].split('\n') {
                    if !line.is_empty() {
                        indent(out, at + 2);
                        out.push_str(line);
                    }
                    out.push('\n');
                }
                return Ok(());
            }
            Value::Bool(true) => out.push_str("true"),
            Value::Bool(false) => out.push_str("false"),
            Value::Number(n) if n.is_i64() || n.is_u64() => out.push_str(&n.to_string()),
            other => return delegated_value(other, at, out),
        }
        out.push('\n');
        Ok(())
    }

    /// serde-saphyr's text for a scalar in a list item, shifted to column `at`.
    fn delegated_value(value: &Value, at: usize, out: &mut String) -> Result<(), Delegate> {
        let text =
            super::saphyr_to_string(&Value::Array(vec![value.clone()])).map_err(|_| Delegate)?;
        let text = text.strip_prefix("- ").ok_or(Delegate)?;
        for (i, line) in text.split_inclusive('\n').enumerate() {
            if i > 0 && line != "\n" {
                indent(out, at);
            }
            out.push_str(line);
        }
        Ok(())
    }

    /// serde-saphyr's text for a key, when it fits on the line (`"a b": 1`).
    fn delegated_key(key: &str, out: &mut String) -> Result<(), Delegate> {
        let mut probe = Map::new();
        probe.insert(key.to_string(), Value::Bool(true));
        let text = super::saphyr_to_string(&Value::Object(probe)).map_err(|_| Delegate)?;
        let written = text.strip_suffix(": true\n").ok_or(Delegate)?;
        if written.contains('\n') || written.starts_with('?') {
            return Err(Delegate);
        }
        out.push_str(written);
        Ok(())
    }

    /// A multi-line string serde-saphyr writes as a `|` block with no indicator (a script):
    /// printable ASCII and line breaks only, exactly one final line break, and a first line
    /// that does not start with a space.
    pub fn is_simple_block(text: &str) -> bool {
        let bytes = text.as_bytes();
        bytes.len() > 1
            && bytes[0] != b' '
            && bytes[0] != b'\n'
            && bytes[bytes.len() - 1] == b'\n'
            && bytes[bytes.len() - 2] != b'\n'
            && bytes
                .iter()
                .all(|&b| b == b'\n' || (b' '..=b'~').contains(&b))
    }

    /// A string serde-saphyr writes plain, as a key and as a value, by a rule narrower than
    /// its own: no indicator, quote, colon, hash or control character, no number or date (it
    /// starts with a letter or `/`), no edge spaces, and not a YAML 1.1 boolean or null word.
    pub fn is_simple(text: &str) -> bool {
        let bytes = text.as_bytes();
        let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) else {
            return false;
        };
        if !(first.is_ascii_alphabetic() || first == b'/') || last == b' ' {
            return false;
        }
        if !bytes
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'/' | b' '))
        {
            return false;
        }
        !is_yaml_1_1_word(text)
    }

    /// A boolean, null or special float word of YAML 1.1 (or 1.2), in any case: serde-saphyr
    /// quotes them so that no reader takes them for anything but a string.
    pub fn is_yaml_1_1_word(text: &str) -> bool {
        // The words are at most five letters long.
        text.len() <= 5
            && [
                "y", "n", "yes", "no", "on", "off", "true", "false", "null", "nan", "inf",
            ]
            .iter()
            .any(|word| text.eq_ignore_ascii_case(word))
    }

    /// A string serde-saphyr writes plain as a value (after `key: ` or `- `): what
    /// [`is_simple`] accepts, and also flags (`--v=2`, `-c`), `key=value` labels, colons and
    /// commas inside a word (`system:serviceaccount:a:b`, `https://host:6443`), image digests
    /// (`@`), `$(VAR)` references, and Kubernetes quantities (`100m`, `128Mi`). Without these,
    /// a render handed a dozen scalars to serde-saphyr one at a time (a twentieth of a render,
    /// callgrind, vSphere). Keys keep the narrower rule.
    pub fn is_simple_value(text: &str) -> bool {
        let bytes = text.as_bytes();
        let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) else {
            return false;
        };
        if is_quantity(bytes) {
            return true;
        }
        // `-` then a letter or `-`: a flag, never a number (`-1`, `-.5`) or a list (`- a`).
        let flag = first == b'-'
            && bytes
                .get(1)
                .is_some_and(|&b| b == b'-' || b.is_ascii_alphabetic());
        if !(first.is_ascii_alphabetic() || first == b'/' || flag) || matches!(last, b' ' | b':') {
            return false;
        }
        // Printable ASCII, but no ` #` (a comment) and no `: ` (a mapping).
        let fits = bytes.iter().enumerate().all(|(i, &b)| match b {
            b'#' => bytes[i - 1] != b' ',
            b':' => bytes.get(i + 1) != Some(&b' '),
            _ => (b' '..=b'~').contains(&b),
        });
        fits && !is_yaml_1_1_word(text.trim_start_matches('-'))
    }

    /// A one-line string of printable ASCII that serde-saphyr writes in double quotes: one that
    /// cannot be plain because it starts with an indicator (`!`, `'`, `{`, `*`, …), holds `: `
    /// or ` #`, or ends in `:` or a space. CEL expressions, JSON in a ConfigMap and
    /// annotations of JSON were handed to serde-saphyr one at a time (a twentieth of an Azure
    /// render, callgrind); property tests hold this rule to serde-saphyr's output.
    pub fn is_double_quoted(text: &str) -> bool {
        let bytes = text.as_bytes();
        let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) else {
            return false;
        };
        // A lone `#` is single-quoted.
        text != "#"
            && bytes.iter().all(|b| (b' '..=b'~').contains(b))
            && (b"!&*|>%@`[{\"'# ".contains(&first)
                || matches!(last, b':' | b' ')
                || text.contains(": ")
                || text.contains(" #"))
    }

    /// Digits then a Kubernetes unit suffix (`100m`, `50Mi`, `1G`): never a YAML number.
    fn is_quantity(bytes: &[u8]) -> bool {
        let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
        digits > 0
            && matches!(
                &bytes[digits..],
                b"m" | b"k" | b"M" | b"G" | b"T" | b"Ki" | b"Mi" | b"Gi" | b"Ti"
            )
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
    fn json_the_shortcut_might_read_differently_goes_to_the_yaml_parser() {
        assert!(json_document(r#"{"a": {"b": [1, "x", true, null]}}"#).is_some());
        for declined in [
            r#"{"a": 1, "a": 2}"#,
            r#"{"a": 1.5}"#,
            r#"{"a": "\u00e9"}"#,
            "{\"a\":\t1}",
            "{\"a\":\"x\u{7f}y\"}",
            "{\"a\":\"x\u{9f}y\"}",
            "{\"a\":\"\u{fffe}\"}",
            "{\"a\":\"caf\u{e9}\"}",
            r#"["a"]"#,
            r#"{"a": 1} x"#,
        ] {
            assert!(json_document(declined).is_none(), "{declined}");
        }
        let deep = format!(
            "{}{}",
            r#"{"a":"#.repeat(MAX_DEPTH + 1),
            "}".repeat(MAX_DEPTH + 1)
        );
        assert!(json_document(&deep).is_none());
        let err = documents(r#"{"a": 1, "a": 2}"#).expect_err("a repeated key");
        assert!(err.to_string().contains("duplicate key"), "{err}");
    }

    #[test]
    fn yaml_the_event_reader_might_read_differently_goes_to_serde_saphyr() {
        let read = events::documents(
            "a: 1\nb: [x, 'y', \"z\"]\nc:\n  - /p\n  - -v\n  - 10.0.0.0/16\nd: ~\n",
        );
        assert_eq!(
            read,
            Some(vec![
                serde_json::json!({"a": 1, "b": ["x", "y", "z"], "c": ["/p", "-v", "10.0.0.0/16"], "d": null})
            ])
        );
        for declined in [
            "a: &x 1\nb: *x\n",
            "a: !!str 1\n",
            "%YAML 1.2\n---\na: 1\n",
            "<<: {a: 1}\n",
            "a: 1.5\n",
            "a: 0755\n",
            "a: -0\n",
            "a: Yes\n",
            "a: True\n",
            "a: .inf\n",
            "a: infinity\n",
            "a: 12:30\n",
            "a: 99999999999999999999\n",
            "1: a\n",
            "? [a]\n: b\n",
            "a: 1\na: 2\n",
            "a: [1, 2\n",
        ] {
            assert_eq!(events::documents(declined), None, "{declined}");
        }
        let deep = format!(
            "{}1{}",
            "[".repeat(MAX_DEPTH + 1),
            "]".repeat(MAX_DEPTH + 1)
        );
        assert_eq!(events::documents(&deep), None);
        let err = documents("a: 1\na: 2\n").expect_err("a repeated key");
        assert!(err.to_string().contains("duplicate key"), "{err}");
    }

    /// Every YAML file under testdata/ reads alike both ways; the inputs of the conformance
    /// cases (what bootkube hands over) all take the event reader.
    #[test]
    fn testdata_reads_alike_from_events_and_through_serde_saphyr() {
        let mut stack = vec![std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata")];
        let mut read = 0;
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).expect("lists") {
                let path = entry.expect("entry").path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                if path.extension().is_none_or(|e| e != "yaml" && e != "yml") {
                    continue;
                }
                let Ok(text) = std::fs::read_to_string(&path) else {
                    continue;
                };
                let fast = events::documents(&text);
                if let Some(fast) = &fast {
                    assert_eq!(
                        Some(fast),
                        documents_by_yaml_parser(&text).ok().as_ref(),
                        "{}",
                        path.display()
                    );
                    read += 1;
                }
                let conformance_input = path.components().any(|c| c.as_os_str() == "conformance")
                    && !path.components().any(|c| c.as_os_str() == "expected")
                    && [
                        "infrastructure.yaml",
                        "network.yaml",
                        "cloud-provider-config.yaml",
                    ]
                    .iter()
                    .any(|name| path.ends_with(name));
                assert!(
                    !conformance_input || fast.is_some(),
                    "{} takes the slow path",
                    path.display()
                );
            }
        }
        assert!(read > 100, "only {read} files took the event reader");
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

    proptest::proptest! {
        /// The block writer of to_string writes what serde-saphyr writes, byte for byte, for
        /// any value: the structure, the strings it calls simple, and the delegated scalars.
        #[test]
        fn to_string_writes_what_serde_saphyr_writes(value in json_value()) {
            let value = json!({ "k": value, "list": [value.clone(), {"m": [value]}] });
            proptest::prop_assert_eq!(to_string(&value).expect("writes"), saphyr_to_string(&value).expect("writes"));
        }

        /// Multi-line strings, scripts among them, are written as serde-saphyr writes them.
        #[test]
        fn multi_line_strings_are_written_as_serde_saphyr_writes_them(
            text in "([ a-z#$\\\\:-]{0,6}\n){1,4}\n?[ a-z]{0,3}",
        ) {
            let value = json!({ "a": text.clone(), "b": [text.clone(), {"c": [text]}] });
            proptest::prop_assert_eq!(to_string(&value).expect("writes"), saphyr_to_string(&value).expect("writes"));
        }

        /// Every value the writer keeps plain, serde-saphyr keeps plain too; every one it
        /// quotes itself, serde-saphyr quotes the same way.
        #[test]
        fn simple_values_are_written_as_serde_saphyr_writes_them(
            text in "[a-zA-Z/0-9:-]?[ -~]{0,16}",
        ) {
            let value = json!({ "k": text.clone(), "l": [text.clone()] });
            proptest::prop_assert_eq!(to_string(&value).expect("writes"), saphyr_to_string(&value).expect("writes"));
        }

        /// Strings the writer puts in double quotes itself are written as serde-saphyr writes
        /// them, over printable ASCII with the indicators and separators that force quotes.
        #[test]
        fn double_quoted_values_are_written_as_serde_saphyr_writes_them(
            text in "[!&*|>%@`\\[{\"'# a-z:-]?([ -~]|: | #){0,16}[: a-z]?",
        ) {
            let value = json!({ "k": text.clone(), "l": [text.clone()] });
            proptest::prop_assert_eq!(to_string(&value).expect("writes"), saphyr_to_string(&value).expect("writes"));
        }

        /// Kubernetes quantities and the YAML 1.1 words, which the writer handles itself.
        #[test]
        fn quantities_and_yaml_1_1_words_are_written_as_serde_saphyr_writes_them(
            text in "([0-9]{1,5}(m|k|M|G|T|Ki|Mi|Gi|Ti|e3|E|x)?|-{0,2}(y|n|yes|no|on|off|true|false|null|nan|inf|NO|True|Off|NaN|Inf)|)",
        ) {
            let value = json!({ "k": text.clone(), "l": [text.clone()] });
            proptest::prop_assert_eq!(to_string(&value).expect("writes"), saphyr_to_string(&value).expect("writes"));
        }

        /// What the JSON shortcut reads, the YAML parser reads the same; JSON it declines
        /// (floats, escapes, repeated keys) is still read, by the YAML parser.
        #[test]
        fn json_objects_read_alike_by_serde_json_and_the_yaml_parser(
            pairs in proptest::collection::vec(("[a-z~\\\\\"]{0,3}", json_value()), 0..6),
            pretty in proptest::bool::ANY,
        ) {
            let object = serde_json::Value::Object(pairs.into_iter().collect());
            let text = if pretty {
                serde_json::to_string_pretty(&object)
            } else {
                serde_json::to_string(&object)
            }
            .expect("writes");
            let by_yaml = documents_by_yaml_parser(&text).ok();
            if let Some(fast) = json_document(&text) {
                proptest::prop_assert_eq!(Some(vec![fast]), by_yaml.clone());
            }
            proptest::prop_assert_eq!(documents(&text).ok(), by_yaml);
        }

        /// What the event reader reads, serde-saphyr reads the same, for documents written
        /// by the writer (block style) and as JSON (flow style), and for YAML made of random
        /// lines of tricky scalars.
        #[test]
        fn yaml_read_from_events_reads_as_serde_saphyr_reads_it(
            value in json_value(),
            lines in proptest::collection::vec(
                (
                    "[a-z<]{1,3}",
                    proptest::sample::select(TRICKY),
                    proptest::sample::select(&["", "  ", "- ", "  - "][..]),
                ),
                0..6,
            ),
        ) {
            let doc = json!({ "k": value, "l": [value.clone()] });
            let mut texts = vec![
                to_string(&doc).expect("writes"),
                serde_json::to_string(&doc).expect("writes"),
                format!("---\n{}---\n", to_string(&doc).expect("writes")),
            ];
            let mut lined = String::new();
            for (key, scalar, indent) in &lines {
                for part in [*indent, key.as_str(), ": ", scalar, "\n"] {
                    lined.push_str(part);
                }
            }
            texts.push(lined);
            for text in texts {
                if let Some(fast) = events::documents(&text) {
                    proptest::prop_assert_eq!(Some(fast), documents_by_yaml_parser(&text).ok(), "{}", text);
                }
            }
        }

        /// Every string the writer keeps plain, serde-saphyr keeps plain too.
        #[test]
        fn simple_strings_are_plain_for_serde_saphyr(text in "[a-zA-Z/][a-zA-Z0-9 ._/-]{0,12}") {
            let value = json!({ text.clone(): text.clone() });
            let written = saphyr_to_string(&value).expect("writes");
            if emit::is_simple(&text) {
                proptest::prop_assert_eq!(written, format!("{text}: {text}\n"));
            }
        }
    }

    #[test]
    fn nested_lists_block_scalars_and_odd_scalars_match_serde_saphyr() {
        let script = "#!/bin/bash\nset -o allexport\n\n  indented\nexec x \\\n  --flag=1\n";
        let value = json!({
            "a": [[1, [2, {"b": script}]], {"c": [script, "x: y", "", null, 1.5, -3, true]}],
            "d": {"e": {"f": script, "g": "trailing \n\n", "h": " lead"}},
            "quoted key": {"on": "off", "": "empty", "- x": "200m", "1e3": "12:30"},
            "script in list": [{"command": ["/bin/bash", "-c", script]}],
            "annotation": "{\"effect\": \"PreferredDuringScheduling\"}",
        });
        assert_eq!(
            to_string(&value).expect("writes"),
            saphyr_to_string(&value).expect("writes")
        );
    }

    #[test]
    fn every_golden_file_is_written_as_serde_saphyr_writes_it() {
        let mut seen = 0;
        let mut dirs = vec![std::path::PathBuf::from("testdata/golden")];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).expect("reads") {
                let path = entry.expect("entry").path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "yaml") {
                    let text = std::fs::read_to_string(&path).expect("reads");
                    for doc in documents(&text).expect("parses") {
                        let mut written = String::new();
                        assert!(
                            emit::document(&doc, &mut written).is_ok(),
                            "{} is not written by the block writer",
                            path.display()
                        );
                        assert_eq!(
                            written,
                            saphyr_to_string(&doc).expect("writes"),
                            "{}",
                            path.display()
                        );
                        seen += 1;
                    }
                }
            }
        }
        assert!(seen > 50, "only {seen} golden documents");
    }

    #[test]
    fn scalars_and_empty_documents_are_left_to_serde_saphyr() {
        for value in [json!("on"), json!(3), json!({}), json!([]), json!(null)] {
            assert_eq!(
                to_string(&value).expect("writes"),
                saphyr_to_string(&value).expect("writes")
            );
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
