//! Reading fields of untyped JSON (objects parsed whole, such as APIServer and FeatureGate) with
//! errors that name the field's path (`spec.tlsSecurityProfile: expected an object, got a list`),
//! and turning a parsed object into a typed struct with the same kind of errors ([`typed`]).

use crate::path_error::PathError;
use anyhow::{Result, bail};
use camino::Utf8Path;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// The value as an object.
pub fn as_object<'a>(value: &'a Value, path: &str) -> Result<&'a Map<String, Value>> {
    match value {
        Value::Object(map) => Ok(map),
        other => bail!("{path}: expected an object, got {}", type_name(other)),
    }
}

/// An optional object (absent or null is None).
pub fn optional_object<'a>(
    value: Option<&'a Value>,
    path: &str,
) -> Result<Option<&'a Map<String, Value>>> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(value) => as_object(value, path).map(Some),
    }
}

/// An optional string (absent or null is None).
pub fn optional_str<'a>(value: Option<&'a Value>, path: &str) -> Result<Option<&'a str>> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text)),
        Some(other) => bail!("{path}: expected a string, got {}", type_name(other)),
    }
}

/// The value at a path of keys (and list indices), like [`Value::pointer`] without its cost:
/// `pointer` unescapes every token of its text into a new string, which made it a twentieth of
/// a render (callgrind, Azure) for paths that are all plain keys.
pub fn at<'a>(value: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(value, |value, key| match value {
        Value::Object(map) => map.get(*key),
        Value::Array(list) => key.parse::<usize>().ok().and_then(|i| list.get(i)),
        _ => None,
    })
}

/// [`at`], for changing the value.
pub fn at_mut<'a>(value: &'a mut Value, path: &[&str]) -> Option<&'a mut Value> {
    path.iter().try_fold(value, |value, key| match value {
        Value::Object(map) => map.get_mut(*key),
        Value::Array(list) => key.parse::<usize>().ok().and_then(|i| list.get_mut(i)),
        _ => None,
    })
}

/// The `kind` of a parsed object, or "" when it has none.
pub fn kind_of(doc: &Value) -> &str {
    doc.get("kind").and_then(Value::as_str).unwrap_or_default()
}

/// The `metadata.name` of a parsed object, or "" when it has none.
pub fn name_of(doc: &Value) -> &str {
    at(doc, &["metadata", "name"])
        .and_then(Value::as_str)
        .unwrap_or_default()
}

/// Deserialises a parsed object into a typed struct; a value of the wrong type is reported with
/// the path of the field (`status.platformStatus.type: invalid type: …`). The object is written
/// as MessagePack and decoded by the one decoder of the built-in catalogue's records
/// ([`crate::msgpack::decoder`]): one copy of each record's decoding in the binary.
pub fn typed<T: DeserializeOwned>(doc: &Value, path: &Utf8Path) -> Result<T> {
    decode(doc).map_err(|err| err.located(path.as_str()))
}

/// [`typed`], with the error and its path as they are.
pub fn decode<T: DeserializeOwned>(doc: &Value) -> Result<T, PathError> {
    let mut bytes = Vec::new();
    crate::msgpack::write_value(doc, &mut bytes).map_err(serde::de::Error::custom)?;
    crate::msgpack::decoder::from_slice(&bytes, crate::msgpack::decoder::Source::Parsed)
}

/// What kind of JSON value this is, for messages.
pub fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}
